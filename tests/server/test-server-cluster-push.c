/* test-server-cluster-push.c — a server's own batches pushed without a
 * read of the event log, in order with the other servers' events
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two servers on one PostgreSQL database. Each hands the events of its own
 * batches to its streams from what it committed, and reads back only the
 * other server's (docs/protocol.md, "Streams see every server"). Agents
 * post to both at once, in bursts; between bursts the person acknowledges
 * some of them on a WebSocket of the first (status updates of that server's
 * own batches, committed while the other server's posts commit); halfway
 * both listening connections are cut while posts go on. An event stream on
 * each server then holds every event of the person's once, in id order,
 * and the two hold the same ids in the same order: the own-batch path and
 * the listener's path give one sequence, the log's. A stream resumed from
 * the middle of it on the other server gets the rest, the same ids again.
 */

#define G_LOG_DOMAIN "test-server-cluster-push"

#include "atp.h"
#include "server-test-util.h"
#include "triage-test-postgres.h"

#define BURSTS    6
#define PER_BURST 16   /* requests to each server at once */

/* What an event of a stream is about: the notification's id, or the
 * notification_id of a status update, and its status (NULL for a
 * notification). Both NULL for anything else (a ping). */
static char *
event_about (SrvEvent  *event,
             char     **status)
{
  g_autoptr(JsonObject) data = NULL;

  *status = NULL;
  if (event->data == NULL || (g_strcmp0 (event->event, "notification") != 0 &&
                              g_strcmp0 (event->event, "status_update") != 0))
    return NULL;
  data = srv_parse_object (event->data);
  if (g_str_equal (event->event, "status_update"))
    {
      *status = g_strdup (json_object_get_string_member_with_default (data, "status", ""));
      return g_strdup (json_object_get_string_member_with_default (data, "notification_id", ""));
    }
  return g_strdup (json_object_get_string_member_with_default (data, "id", ""));
}

/* What a stream told so far, each event parsed once: how many events tell
 * of each new notification ("id") and of each status update ("id status"). */
typedef struct
{
  SrvEvents  *events;
  guint       seen;
  GHashTable *counts;
} Told;

static Told *
told_new (SrvEvents *events)
{
  Told *told = g_new0 (Told, 1);

  told->events = events;
  told->counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return told;
}

static void
told_free (Told *told)
{
  g_hash_table_unref (told->counts);
  srv_events_free (told->events);
  g_free (told);
}

/* How many events of the stream tell of @id (a new notification when
 * @status is NULL, else a status update to @status). */
static guint
count_about (Told       *told,
             const char *id,
             const char *status)
{
  g_autofree char *key = status ? g_strconcat (id, " ", status, NULL) : g_strdup (id);

  for (; told->seen < told->events->events->len; told->seen++)
    {
      g_autofree char *event_status = NULL;
      g_autofree char *about = event_about (told->events->events->pdata[told->seen],
                                            &event_status);
      char *event_key;

      if (about == NULL)
        continue;
      event_key = event_status ? g_strconcat (about, " ", event_status, NULL)
                               : g_steal_pointer (&about);
      g_hash_table_insert (told->counts, event_key,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (told->counts,
                                                                                    event_key)) + 1));
    }
  return GPOINTER_TO_UINT (g_hash_table_lookup (told->counts, key));
}

/* The ids of the notification and status update events of @events after
 * @after (0: all), in the order they came; each larger than the one
 * before. */
static GArray *
event_ids (SrvEvents *events,
           gint64     after)
{
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint i = 0; i < events->events->len; i++)
    {
      SrvEvent *event = events->events->pdata[i];
      gint64 id;

      if (event->id == NULL || (g_strcmp0 (event->event, "notification") != 0 &&
                                g_strcmp0 (event->event, "status_update") != 0))
        continue;
      id = g_ascii_strtoll (event->id, NULL, 10);
      if (ids->len > 0)
        g_assert_cmpint (id, >, g_array_index (ids, gint64, ids->len - 1));
      if (id > after)
        g_array_append_val (ids, id);
    }
  return ids;
}

static guint
count_events (SrvEvents *events,
              gint64     after)
{
  g_autoptr(GArray) ids = event_ids (events, after);

  return ids->len;
}

static void
assert_same_ids (GArray *a,
                 GArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    g_assert_cmpint (g_array_index (a, gint64, i), ==, g_array_index (b, gint64, i));
}

static void
test_push_order (void)
{
  static const char * const args[] = { "--no-limits", NULL };
  TriageTestServerOptions options = { .extra_args = args };
  const char *alice[] = { "alice", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) acked = g_ptr_array_new ();
  g_autoptr(GArray) on_a_ids = NULL, on_b_ids = NULL, resumed_ids = NULL, rest = NULL;
  g_autofree char *token = NULL, *key = NULL, *cut = NULL, *middle = NULL;
  TriageTestServer *a, *b;
  Told *on_a, *on_b;
  SrvEvents *resumed;
  SrvSocket *ws;
  const char *last;

  a = triage_test_server_new (&options, &error);
  g_assert_no_error (error);
  b = triage_test_server_new_peer (a, &options, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_user (a, "alice", &token, &error));
  g_assert_true (triage_test_server_create_service (b, "agent", alice, NULL, NULL, &key, NULL,
                                                    &error));
  g_assert_no_error (error);
  on_a = told_new (srv_events_open (a, token, NULL, NULL));
  on_b = told_new (srv_events_open (b, token, NULL, NULL));
  ws = srv_ws_open (a, token, NULL);
  g_assert_nonnull (ws->ws);
  srv_wait_until (srv_find_event (on_a->events, "ping", NULL) != NULL &&
                  srv_find_event (on_b->events, "ping", NULL) != NULL, "the event streams");

  for (guint burst = 0; burst < BURSTS; burst++)
    {
      SrvReply replies[2 * PER_BURST] = { { 0 } };
      guint first = ids->len;

      /* Halfway, nobody listens for a moment: each server's own batches
       * still go to its streams, the other's come once it listens again,
       * all in the log's order. */
      if (burst == BURSTS / 2)
        {
          g_free (cut);
          cut = triage_test_server_run_sql (a, "SELECT COUNT (pg_terminate_backend (pid))"
                                               " FROM pg_stat_activity WHERE application_name"
                                               " = 'triage-server events'", &error);
          g_assert_no_error (error);
          g_assert_cmpstr (cut, ==, "2\n");
        }
      for (guint i = 0; i < G_N_ELEMENTS (replies); i++)
        {
          char *id = atp_new_uuid ();

          g_ptr_array_add (ids, id);
          srv_post_async (i % 2 == 0 ? a : b, key, id, "Pushed", &replies[i]);
        }
      /* The acknowledgements of the burst before, on A, while this one
       * commits on both. */
      for (guint i = first >= 2 * PER_BURST ? first - 2 * PER_BURST : first; i < first; i += 3)
        {
          srv_wait_until (srv_find_frame (ws, "notification", ids->pdata[i]) != NULL,
                          "a notification on A's WebSocket");
          srv_ws_acknowledge (ws, ids->pdata[i]);
          g_ptr_array_add (acked, ids->pdata[i]);
        }
      srv_wait_until (srv_replies_done (replies, G_N_ELEMENTS (replies)), "the burst's answers");
      for (guint i = 0; i < G_N_ELEMENTS (replies); i++)
        g_assert_cmpuint (replies[i].status, ==, 201);
    }

  /* Everything has come: the last notification, and every acknowledgement. */
  last = ids->pdata[ids->len - 1];
  for (guint i = 0; i < acked->len; i++)
    {
      srv_wait_until (count_about (on_a, acked->pdata[i], "acknowledged") > 0,
                      "an acknowledgement on A's stream");
      srv_wait_until (count_about (on_b, acked->pdata[i], "acknowledged") > 0,
                      "an acknowledgement on B's stream");
    }
  for (guint i = 0; i < ids->len; i++)
    {
      srv_wait_until (count_about (on_a, ids->pdata[i], NULL) > 0, "a notification on A's stream");
      srv_wait_until (count_about (on_b, ids->pdata[i], NULL) > 0, "a notification on B's stream");
      srv_wait_until (srv_find_frame (ws, "notification", ids->pdata[i]) != NULL,
                      "a notification on A's WebSocket");
    }
  srv_wait_until (srv_find_frame (ws, "notification", last) != NULL, "the last on the WebSocket");

  /* Once each, on every stream. */
  for (guint i = 0; i < ids->len; i++)
    {
      g_assert_cmpuint (count_about (on_a, ids->pdata[i], NULL), ==, 1);
      g_assert_cmpuint (count_about (on_b, ids->pdata[i], NULL), ==, 1);
      g_assert_cmpuint (srv_count_frames (ws, "notification", ids->pdata[i]), ==, 1);
    }
  for (guint i = 0; i < acked->len; i++)
    {
      g_assert_cmpuint (count_about (on_a, acked->pdata[i], "acknowledged"), ==, 1);
      g_assert_cmpuint (count_about (on_b, acked->pdata[i], "acknowledged"), ==, 1);
    }

  /* Nothing else is committed now: both streams hold the whole log of the
   * person's, in its order (a status update still on its way to one would
   * come to the other too: wait for the same count). */
  srv_wait_until (count_events (on_a->events, 0) == count_events (on_b->events, 0),
                  "the same events on both streams");
  on_a_ids = event_ids (on_a->events, 0);
  on_b_ids = event_ids (on_b->events, 0);
  assert_same_ids (on_a_ids, on_b_ids);

  /* Resumed on B from the middle of A's: the rest, the same ids. */
  middle = g_strdup_printf ("%" G_GINT64_FORMAT, g_array_index (on_a_ids, gint64,
                                                                 on_a_ids->len / 2));
  resumed = srv_events_open (b, token, NULL, middle);
  g_assert_cmpuint (resumed->status, ==, 200);
  rest = event_ids (on_a->events, g_ascii_strtoll (middle, NULL, 10));
  srv_wait_until (count_events (resumed, 0) >= rest->len,
                  "the rest of the log on the resumed stream");
  resumed_ids = event_ids (resumed, 0);
  assert_same_ids (rest, resumed_ids);

  told_free (on_a);
  told_free (on_b);
  srv_events_free (resumed);
  srv_ws_free (ws);
  triage_test_server_free (b);
  triage_test_server_free (a);
}

int
main (int    argc,
      char **argv)
{
  triage_test_postgres_init (&argc, &argv, "several servers share a PostgreSQL database");
  g_test_add_func ("/cluster/push-own-batches", test_push_order);
  return g_test_run ();
}
