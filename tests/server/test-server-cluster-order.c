/* test-server-cluster-order.c — the event log's order across servers whose
 * commits overlap
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two servers on one PostgreSQL database commit their batches side by side
 * (the event-log lock is shared by writers, exclusive for a reader). Agents
 * post to both at once, in bursts; a person's streams on both servers hear
 * every notification once, with event ids that only grow, and a stream
 * that moves to the other server between bursts, resuming from the last id
 * it got, misses nothing and gets nothing twice.
 */

#define G_LOG_DOMAIN "test-server-cluster-order"

#include "atp.h"
#include "server-test-util.h"
#include "triage-test-postgres.h"

#define BURSTS    6
#define PER_BURST 32   /* requests to each server at once */

/* How many `notification` events of @events (after those of @before, if
 * any) tell of @id. */
static guint
count_notification (SrvEvents  *before,
                    SrvEvents  *events,
                    const char *id)
{
  guint count = 0;

  for (guint pass = 0; pass < 2; pass++)
    {
      SrvEvents *stream = pass == 0 ? before : events;

      for (guint i = 0; stream != NULL && i < stream->events->len; i++)
        {
          SrvEvent *event = stream->events->pdata[i];

          if (g_strcmp0 (event->event, "notification") == 0 && event->data != NULL &&
              strstr (event->data, id) != NULL)
            count++;
        }
    }
  return count;
}

/* The event ids of @events (after those of @before, if any) only grow
 * (@strictly: each is larger than the one before; else a snapshot's
 * notifications share the id of the log they were read at). */
static void
assert_ids_grow (SrvEvents *before,
                 SrvEvents *events,
                 gboolean   strictly)
{
  gint64 last = 0;

  for (guint pass = 0; pass < 2; pass++)
    {
      SrvEvents *stream = pass == 0 ? before : events;

      for (guint i = 0; stream != NULL && i < stream->events->len; i++)
        {
          SrvEvent *event = stream->events->pdata[i];
          gint64 id;

          if (event->id == NULL)
            continue;
          id = g_ascii_strtoll (event->id, NULL, 10);
          if (strictly)
            g_assert_cmpint (id, >, last);
          else
            g_assert_cmpint (id, >=, last);
          last = id;
        }
    }
}

static char *
last_id (SrvEvents *events)
{
  for (guint i = events->events->len; i > 0; i--)
    {
      SrvEvent *event = events->events->pdata[i - 1];

      if (event->id != NULL)
        return g_strdup (event->id);
    }
  return NULL;
}

static void
test_event_order (void)
{
  static const char * const args[] = { "--no-limits", NULL };
  TriageTestServerOptions options = { .extra_args = args };
  const char *alice[] = { "alice", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *token = NULL, *key = NULL;
  TriageTestServer *a, *b;
  SrvEvents *on_a, *on_b, *moved_before, *moved = NULL;

  a = triage_test_server_new (&options, &error);
  g_assert_no_error (error);
  b = triage_test_server_new_peer (a, &options, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_user (a, "alice", &token, &error));
  g_assert_true (triage_test_server_create_service (b, "agent", alice, NULL, NULL, &key, NULL,
                                                    &error));
  g_assert_no_error (error);
  on_a = srv_events_open (a, token, NULL, NULL);
  on_b = srv_events_open (b, token, NULL, NULL);
  moved_before = srv_events_open (a, token, NULL, NULL);
  srv_wait_until (srv_find_event (on_a, "ping", NULL) != NULL &&
                  srv_find_event (on_b, "ping", NULL) != NULL &&
                  srv_find_event (moved_before, "ping", NULL) != NULL, "the event streams");

  for (guint burst = 0; burst < BURSTS; burst++)
    {
      SrvReply replies[2 * PER_BURST] = { { 0 } };

      /* Halfway, the moving stream resumes on the other server from the
       * last id it got, while nothing is being posted... */
      if (burst == BURSTS / 2)
        {
          g_autofree char *last = NULL;

          for (guint i = 0; i < ids->len; i++)
            srv_wait_until (count_notification (NULL, moved_before, ids->pdata[i]) == 1,
                            "the bursts so far on the moving stream");
          last = last_id (moved_before);
          g_assert_nonnull (last);
          g_cancellable_cancel (moved_before->cancellable);
          moved = srv_events_open (b, token, NULL, last);
          g_assert_cmpuint (moved->status, ==, 200);
        }
      for (guint i = 0; i < G_N_ELEMENTS (replies); i++)
        {
          char *id = atp_new_uuid ();

          g_ptr_array_add (ids, id);
          srv_post_async (i % 2 == 0 ? a : b, key, id, "Burst", &replies[i]);
        }
      /* ... and once a burst is on its way. */
      if (burst == 0)
        {
          srv_events_free (on_b);
          on_b = srv_events_open (b, token, NULL, NULL);
        }
      srv_wait_until (srv_replies_done (replies, G_N_ELEMENTS (replies)), "the burst's answers");
      for (guint i = 0; i < G_N_ELEMENTS (replies); i++)
        g_assert_cmpuint (replies[i].status, ==, 201);
    }

  for (guint i = 0; i < ids->len; i++)
    {
      const char *id = ids->pdata[i];

      srv_wait_until (count_notification (NULL, on_a, id) > 0, "a notification on A's stream");
      srv_wait_until (count_notification (moved_before, moved, id) > 0,
                      "a notification on the stream that moved");
      srv_wait_until (count_notification (NULL, on_b, id) > 0, "a notification on B's stream");
    }
  /* A's stream and the moving one heard everything once, in id order. B's
   * second stream began with a snapshot of what was pending while a burst
   * went on: each at least once, from its snapshot or live. */
  for (guint i = 0; i < ids->len; i++)
    {
      g_assert_cmpuint (count_notification (NULL, on_a, ids->pdata[i]), ==, 1);
      g_assert_cmpuint (count_notification (moved_before, moved, ids->pdata[i]), ==, 1);
      g_assert_cmpuint (count_notification (NULL, on_b, ids->pdata[i]), >=, 1);
    }
  assert_ids_grow (NULL, on_a, TRUE);
  assert_ids_grow (moved_before, moved, TRUE);
  assert_ids_grow (NULL, on_b, FALSE);

  srv_events_free (on_a);
  srv_events_free (on_b);
  srv_events_free (moved_before);
  srv_events_free (moved);
  triage_test_server_free (b);
  triage_test_server_free (a);
}

int
main (int    argc,
      char **argv)
{
  triage_test_postgres_init (&argc, &argv, "several servers share a PostgreSQL database");
  g_test_add_func ("/cluster/event-order", test_event_order);
  return g_test_run ();
}
