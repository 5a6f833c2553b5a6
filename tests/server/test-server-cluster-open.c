/* test-server-cluster-open.c — streams opened while another server commits
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two servers on one PostgreSQL database. An agent posts to A without a
 * pause while a person opens stream after stream on B, WebSocket and SSE in
 * turn. A new stream reads where it starts in the event log, then its
 * snapshot of what is pending: a notification A commits between the two is
 * in the snapshot and comes live as well. Every stream must get every
 * notification exactly once, from its snapshot or live.
 */

#define G_LOG_DOMAIN "test-server-cluster-open"

#include "atp.h"
#include "server-test-util.h"
#include "triage-test-postgres.h"

#define STREAMS   32   /* opened on B one after the other */
#define IN_FLIGHT 6    /* posts to A at once, all along */
#define LAST_WAIT_S 120 /* a bound for each wait: a loaded machine is slow */
#define PER_OPEN  8    /* posts to A for each stream opened: as many as
                        * A commits meanwhile on an idle machine, and no
                        * more, so a slow B is not left further and further
                        * behind, its snapshots ever larger */

typedef struct
{
  TriageTestServer *server;
  const char       *key;
  GPtrArray        *ids;        /* every notification posted */
  guint             budget;     /* posts up to this many, as they are answered */
  guint             out;        /* posts not answered yet */
  guint             retried;    /* 503s, posted again */
  guint             failed;     /* answers other than 201 and 503 */
} Poster;

typedef struct
{
  Poster     *poster;
  const char *id;
} Post;

static void post_next (Poster *poster);
static void send_post (Poster *poster, const char *id);

static void
posted_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      data)
{
  Post *post = data;
  Poster *poster = post->poster;
  g_autoptr(GBytes) bytes = soup_session_send_and_read_finish (SOUP_SESSION (source), result,
                                                               NULL);
  SoupMessage *msg = soup_session_get_async_result_message (SOUP_SESSION (source), result);
  guint status = bytes != NULL ? soup_message_get_status (msg) : 0;

  poster->out--;
  /* Not stored (the database ended the batch's session: a slow machine):
   * posted again with the same id, as an ATP client does. */
  if (status == 503)
    {
      poster->retried++;
      send_post (poster, post->id);
    }
  else if (status != 201)
    poster->failed++;
  g_free (post);
  if (poster->ids->len < poster->budget)
    post_next (poster);
}

/* Sends the notification @id to A, without waiting. */
static void
send_post (Poster     *poster,
           const char *id)
{
  g_autofree char *uri = g_strconcat (triage_test_server_get_url (poster->server),
                                      "/api/v1/notifications", NULL);
  g_autofree char *auth = g_strconcat ("Bearer ", poster->key, NULL);
  g_autofree char *body = g_strdup_printf ("{\"id\":\"%s\",\"context\":{\"title\":\"Open\","
                                           "\"description\":\"D\"},\"actions\":[{\"id\":\"ok\","
                                           "\"label\":\"OK\",\"response_type\":\"simple\"}]}",
                                           id);
  g_autoptr(SoupMessage) msg = soup_message_new ("POST", uri);
  g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));
  Post *post = g_new (Post, 1);

  *post = (Post) { poster, id };
  poster->out++;
  soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
  soup_message_set_request_body_from_bytes (msg, "application/json", bytes);
  soup_session_send_and_read_async (triage_test_server_get_session (poster->server), msg,
                                    G_PRIORITY_DEFAULT, NULL, posted_cb, post);
}

/* Sends a notification with a new id to A. */
static void
post_next (Poster *poster)
{
  char *id = atp_new_uuid ();

  g_ptr_array_add (poster->ids, id);
  send_post (poster, id);
}

/* One stream on B: a WebSocket or SSE. */
typedef struct
{
  SrvSocket *ws;
  SrvEvents *sse;
} Stream;

/* The id of the notification a `notification` frame or event tells of;
 * NULL for anything else. */
static const char *
notification_of (Stream      *stream,
                 guint        i,
                 JsonObject **parsed)
{
  if (stream->ws != NULL)
    {
      JsonObject *frame = stream->ws->frames->pdata[i];

      return g_str_equal (srv_frame_type (frame), "notification") ? srv_frame_id (frame) : NULL;
    }
  else
    {
      SrvEvent *event = stream->sse->events->pdata[i];

      if (g_strcmp0 (event->event, "notification") != 0 || event->data == NULL)
        return NULL;
      *parsed = srv_parse_object (event->data);
      return json_object_get_string_member_with_default (*parsed, "id", NULL);
    }
}

static guint
received (Stream *stream)
{
  return stream->ws != NULL ? stream->ws->frames->len : stream->sse->events->len;
}

/* How many `notification` frames or events @stream got about each id. */
static GHashTable *
count_notifications (Stream *stream)
{
  GHashTable *counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < received (stream); i++)
    {
      g_autoptr(JsonObject) parsed = NULL;
      const char *id = notification_of (stream, i, &parsed);

      if (id != NULL)
        g_hash_table_insert (counts, g_strdup (id),
                             GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, id))
                                               + 1));
    }
  return counts;
}

/* Whether @stream got the `notification` about @id (a look for the id in
 * the text: cheap enough to ask on every turn of the main loop). */
static gboolean
has_notification (Stream     *stream,
                  const char *id)
{
  if (stream->ws != NULL)
    return srv_find_frame (stream->ws, "notification", id) != NULL;
  return srv_find_event (stream->sse, "notification", id) != NULL;
}

/* Its snapshot has been sent (it holds at least one notification: the
 * streams open once one is posted): WebSocket frames come after the
 * handshake, an SSE stream's ping after its snapshot. */
static gboolean
set_up (Stream *stream)
{
  if (stream->ws != NULL)
    return stream->ws->frames->len > 0;
  return srv_find_event (stream->sse, "ping", NULL) != NULL;
}

/* What each stream got, for a wait that ran out. */
static void
describe (Stream     *streams,
          const char *id)
{
  for (guint i = 0; i < STREAMS; i++)
    {
      g_autoptr(GHashTable) counts = count_notifications (&streams[i]);
      gboolean ended = streams[i].ws ? streams[i].ws->closed : streams[i].sse->ended;

      g_printerr ("stream %u (%s): %u messages, %u notifications, %s%s\n", i,
                  streams[i].ws ? "WebSocket" : "SSE", received (&streams[i]),
                  g_hash_table_size (counts),
                  has_notification (&streams[i], id) ? "has the last" : "LACKS the last",
                  ended ? ", CLOSED" : "");
    }
}

/* Whether the server closed a stream (none is ever done with). */
static gboolean
closed (Stream *streams)
{
  for (guint i = 0; i < STREAMS; i++)
    if (streams[i].ws ? streams[i].ws->closed : streams[i].sse->ended)
      return TRUE;
  return FALSE;
}

static gboolean
everywhere (Stream     *streams,
            const char *id)
{
  for (guint i = 0; i < STREAMS; i++)
    if (!has_notification (&streams[i], id))
      return FALSE;
  return TRUE;
}

static gboolean
wake (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Waits until every stream has the notification @id: B may still be
 * pushing a backlog to 32 streams, which takes a loaded machine a while. */
static void
wait_for_everywhere (Stream     *streams,
                     const char *id)
{
  gint64 give_up = g_get_monotonic_time () + LAST_WAIT_S * G_USEC_PER_SEC;
  /* Wakes the loop to look at the time when nothing comes. */
  guint ticker = g_timeout_add_seconds (1, wake, NULL);

  while (!everywhere (streams, id))
    {
      if (g_get_monotonic_time () > give_up || closed (streams))
        {
          describe (streams, id);
          g_error ("the last notification did not reach every stream%s",
                   closed (streams) ? " (a stream was closed)" : "");
        }
      g_main_context_iteration (NULL, TRUE);
    }
  g_source_remove (ticker);
}

static void
test_open_while_committing (void)
{
  /* The test's WebSockets never speak: the server would close them once
   * idle for its limit (60 s), which a loaded machine's run outlasts. */
  static const char * const args[] = { "--no-limits", "--idle-timeout", "3600", NULL };
  TriageTestServerOptions options = { .extra_args = args };
  const char *alice[] = { "alice", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL, *key = NULL;
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  Stream streams[STREAMS] = { { 0 } };
  TriageTestServer *a, *b;
  Poster poster = { 0 };
  guint repeated = 0, streams_repeated = 0;
  const char *last;

  a = triage_test_server_new (&options, &error);
  g_assert_no_error (error);
  b = triage_test_server_new_peer (a, &options, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_user (a, "alice", &token, &error));
  g_assert_true (triage_test_server_create_service (a, "agent", alice, NULL, NULL, &key, NULL,
                                                    &error));
  g_assert_no_error (error);

  poster = (Poster) { .server = a, .key = key, .ids = ids };
  /* Every snapshot holds one at least. */
  post_next (&poster);
  triage_test_wait_until_within (poster.out == 0, "the first post", LAST_WAIT_S);

  /* A commits all along while B's streams open: each open's two reads of
   * the log may have a commit between them. */
  for (guint i = 0; i < STREAMS; i++)
    {
      poster.budget = ids->len + PER_OPEN;
      while (poster.out < IN_FLIGHT && ids->len < poster.budget)
        post_next (&poster);
      if (i % 2 == 0)
        {
          streams[i].ws = srv_ws_open (b, token, NULL);
          g_assert_nonnull (streams[i].ws->ws);
        }
      else
        {
          streams[i].sse = srv_events_open (b, token, NULL, NULL);
          g_assert_cmpuint (streams[i].sse->status, ==, 200);
        }
    }
  for (guint i = 0; i < STREAMS; i++)
    triage_test_wait_until_within (set_up (&streams[i]), "a stream's snapshot", LAST_WAIT_S);
  poster.budget = 0;
  triage_test_wait_until_within (poster.out == 0, "the posts' answers", LAST_WAIT_S);
  g_assert_cmpuint (poster.failed, ==, 0);
  g_test_message ("%u notifications posted while %u streams opened (%u posted again after a "
                  "503)", ids->len, STREAMS, poster.retried);

  /* Committed after every snapshot was read: it comes live to every
   * stream, after every event before it. */
  post_next (&poster);
  triage_test_wait_until_within (poster.out == 0, "the last post", LAST_WAIT_S);
  g_assert_cmpuint (poster.failed, ==, 0);
  last = ids->pdata[ids->len - 1];
  wait_for_everywhere (streams, last);

  for (guint i = 0; i < STREAMS; i++)
    {
      g_autoptr(GHashTable) counts = count_notifications (&streams[i]);
      guint here = 0;

      for (guint j = 0; j < ids->len; j++)
        {
          guint count = GPOINTER_TO_UINT (g_hash_table_lookup (counts, ids->pdata[j]));

          if (count == 0)
            g_error ("stream %u (%s) never got notification %s", i,
                     streams[i].ws ? "WebSocket" : "SSE", (const char *) ids->pdata[j]);
          here += count - 1;
        }
      if (here > 0)
        {
          g_test_message ("stream %u (%s): %u notifications twice", i,
                          streams[i].ws ? "WebSocket" : "SSE", here);
          streams_repeated++;
        }
      repeated += here;
      g_assert_cmpuint (g_hash_table_size (counts), ==, ids->len);
    }
  g_assert_cmpuint (repeated, ==, 0);
  g_assert_cmpuint (streams_repeated, ==, 0);

  for (guint i = 0; i < STREAMS; i++)
    {
      g_clear_pointer (&streams[i].ws, srv_ws_free);
      g_clear_pointer (&streams[i].sse, srv_events_free);
    }
  triage_test_server_free (b);
  triage_test_server_free (a);
}

int
main (int    argc,
      char **argv)
{
  triage_test_postgres_init (&argc, &argv, "several servers share a PostgreSQL database");
  g_test_add_func ("/cluster/open-while-committing", test_open_while_committing);
  return g_test_run ();
}
