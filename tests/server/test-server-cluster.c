/* test-server-cluster.c — several triage-server instances on one PostgreSQL
 * database, as behind a load balancer
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every server is a real process on its own port; the database is a schema
 * of the tests' own PostgreSQL (tests/common/triage-test-postgres.c). A
 * client talks to whichever server the test picks, as a load balancer would
 * send it, and must not be able to tell that there are several.
 */

#define G_LOG_DOMAIN "test-server-cluster"

#include <signal.h>

#include "atp.h"
#include "server-test-util.h"
#include "triage-test-postgres.h"
#include "webhook-receiver-util.h"

#define MAX_SERVERS 3
#define ACTIONS \
  "[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}," \
  "{\"id\":\"no\",\"label\":\"No\",\"response_type\":\"simple\"}]"

typedef struct
{
  guint               servers;
  const char * const *args;
} Shape;

typedef struct
{
  TriageTestServer *servers[MAX_SERVERS];
  guint             n;
  char             *alice;   /* a user token */
  char             *key;     /* the API key of a service that sends to alice */
} Cluster;

static void
cluster_setup (Cluster       *cluster,
               gconstpointer  data)
{
  const Shape *shape = data;
  TriageTestServerOptions options = { .extra_args = shape->args };
  const char *alice[] = { "alice", NULL };
  g_autoptr(GError) error = NULL;

  cluster->n = shape->servers;
  cluster->servers[0] = triage_test_server_new (&options, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_is_postgres (cluster->servers[0]));
  for (guint i = 1; i < cluster->n; i++)
    {
      cluster->servers[i] = triage_test_server_new_peer (cluster->servers[0], &options, &error);
      g_assert_no_error (error);
    }
  /* Made on one server, known to all. */
  g_assert_true (triage_test_server_create_user (cluster->servers[0], "alice", &cluster->alice,
                                                 &error));
  g_assert_true (triage_test_server_create_service (cluster->servers[cluster->n - 1], "agent",
                                                    alice, NULL, NULL, &cluster->key, NULL,
                                                    &error));
  g_assert_no_error (error);
}

static void
cluster_teardown (Cluster       *cluster,
                  gconstpointer  data)
{
  for (guint i = 0; i < cluster->n; i++)
    triage_test_server_free (cluster->servers[i]);
  g_free (cluster->alice);
  g_free (cluster->key);
}

/* ---- requests ---- */

static char *
notification_body (const char *id,
                   const char *title,
                   gint64      deadline_in_ms)
{
  g_autofree char *deadline = NULL;

  if (deadline_in_ms > 0)
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
      g_autoptr(GDateTime) due = g_date_time_add (now, deadline_in_ms * 1000);
      g_autofree char *stamp = atp_format_timestamp (due);

      deadline = g_strdup_printf (",\"deadline\":\"%s\"", stamp);
    }
  return g_strdup_printf ("{\"id\":\"%s\",\"context\":{\"title\":\"%s\",\"description\":\"D\"},"
                          "\"actions\":" ACTIONS "%s}",
                          id, title, deadline ? deadline : "");
}

/* Posts a notification with a new id to @server; returns the id. */
static char *
post (TriageTestServer *server,
      const char       *key,
      const char       *title,
      gint64            deadline_in_ms)
{
  g_autofree char *id = atp_new_uuid ();
  g_autofree char *body = notification_body (id, title, deadline_in_ms);
  g_autoptr(SrvAnswer) answer = srv_request (server, "POST", "/api/v1/notifications", key, body);

  srv_assert_status (answer, 201, NULL);
  return g_steal_pointer (&id);
}

static void
respond (TriageTestServer *server,
         const char       *token,
         const char       *id,
         const char       *action)
{
  g_autofree char *body = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"%s\"}", id,
                                           action);
  g_autoptr(SrvAnswer) answer = srv_request (server, "POST", "/api/v1/client/respond", token, body);

  srv_assert_status (answer, 200, NULL);
}

/* An answer to a request sent without waiting. */
typedef struct
{
  gboolean done;
  guint    status;   /* 0: no answer (the server went away) */
  char    *body;     /* or the error */
} Reply;

static void
reply_clear (Reply *reply)
{
  g_clear_pointer (&reply->body, g_free);
  reply->done = FALSE;
  reply->status = 0;
}

static void
reply_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      data)
{
  Reply *reply = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = soup_session_send_and_read_finish (SOUP_SESSION (source), result,
                                                               &error);
  SoupMessage *msg = soup_session_get_async_result_message (SOUP_SESSION (source), result);

  if (bytes != NULL)
    {
      reply->status = soup_message_get_status (msg);
      reply->body = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
    }
  else
    reply->body = g_strdup (error->message);
  reply->done = TRUE;
}

static void
send_async (TriageTestServer *server,
            const char       *method,
            const char       *path,
            const char       *token,
            const char       *body,
            Reply            *reply)
{
  g_autofree char *uri = g_strconcat (triage_test_server_get_url (server), path, NULL);
  g_autofree char *auth = g_strconcat ("Bearer ", token, NULL);
  g_autoptr(SoupMessage) msg = soup_message_new (method, uri);
  g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

  reply_clear (reply);
  soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
  soup_message_set_request_body_from_bytes (msg, "application/json", bytes);
  soup_session_send_and_read_async (triage_test_server_get_session (server), msg,
                                    G_PRIORITY_DEFAULT, NULL, reply_cb, reply);
}

static gboolean
all_done (Reply *replies,
          guint  n)
{
  for (guint i = 0; i < n; i++)
    if (!replies[i].done)
      return FALSE;
  return TRUE;
}

static char *
sql (Cluster    *cluster,
     const char *text)
{
  g_autoptr(GError) error = NULL;
  char *rows = triage_test_server_run_sql (cluster->servers[0], text, &error);

  g_assert_no_error (error);
  return rows;
}

/* A WebSocket on @server whose opening the server is done with: the
 * handshake's 101 is answered before the server reads where the stream
 * starts in the event log and sends its snapshot of what is pending, each a
 * round trip to the database; a commit of another server between the two
 * would be in both the snapshot and the live events (a known race of a
 * stream opened while another server commits, docs/protocol.md). The
 * server's main loop answers the request after it only once that is done. */
static SrvSocket *
ws_open_ready (TriageTestServer *server,
               const char       *token)
{
  SrvSocket *sock = srv_ws_open (server, token, NULL);
  g_autoptr(SrvAnswer) ready = srv_request (server, "GET", "/healthz", NULL, NULL);

  srv_assert_status (ready, 200, NULL);
  return sock;
}

/* ---- the tests ---- */

/* Posted to A, answered on C: a WebSocket on B and Server-Sent Events on C
 * hear all of it, once; a long-poll on A ends with the answer. */
static void
test_cross_delivery (Cluster       *cluster,
                     gconstpointer  data)
{
  TriageTestServer *a = cluster->servers[0], *b = cluster->servers[1], *c = cluster->servers[2];
  g_autoptr(SrvSocket) ws = ws_open_ready (b, cluster->alice);
  g_autoptr(SrvEvents) sse = srv_events_open (c, cluster->alice, NULL, NULL);
  g_autofree char *id = NULL, *wait_path = NULL;
  Reply waited = { 0 };

  srv_wait_until (srv_find_event (sse, "ping", NULL) != NULL, "the event stream");
  id = post (a, cluster->key, "Across servers", 0);
  srv_wait_until (srv_find_frame (ws, "notification", id) != NULL, "the notification on B");
  srv_wait_until (srv_find_event (sse, "notification", id) != NULL, "the notification on C");
  /* Pushed, so delivered: once, whichever server pushed first. */
  srv_wait_until (srv_find_update (ws, id, "delivered") != NULL, "delivered");

  wait_path = g_strdup_printf ("/api/v1/notifications/%s?wait=30", id);
  {
    g_autofree char *uri = g_strconcat (triage_test_server_get_url (a), wait_path, NULL);
    g_autofree char *auth = g_strconcat ("Bearer ", cluster->key, NULL);
    g_autoptr(SoupMessage) msg = soup_message_new ("GET", uri);

    soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
    soup_session_send_and_read_async (triage_test_server_get_session (a), msg, G_PRIORITY_DEFAULT,
                                      NULL, reply_cb, &waited);
  }
  respond (c, cluster->alice, id, "ok");
  srv_wait_until (srv_find_update (ws, id, "responded") != NULL, "responded on B");
  srv_wait_until (waited.done, "the long-poll on A");
  g_assert_cmpuint (waited.status, ==, 200);
  g_assert_nonnull (strstr (waited.body, "\"status\":\"responded\""));
  g_assert_cmpuint (srv_count_frames (ws, "notification", id), ==, 1);
  g_assert_cmpuint (srv_count_frames (ws, "status_update", id), ==, 2);
  reply_clear (&waited);
}

/* A notification to two people, posted to A, with a stream each on B and
 * C: whichever pushes it first marks it delivered, and both hear that,
 * though neither server wrote it (the recipients come with the update). */
static void
test_delivered_to_all (Cluster       *cluster,
                       gconstpointer  data)
{
  TriageTestServer *a = cluster->servers[0], *b = cluster->servers[1], *c = cluster->servers[2];
  const char *both[] = { "alice", "bob", NULL };
  g_autofree char *bob = NULL, *key = NULL, *id = NULL;
  g_autoptr(SrvSocket) on_b = NULL, on_c = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (triage_test_server_create_user (a, "bob", &bob, &error));
  g_assert_true (triage_test_server_create_service (c, "both", both, NULL, NULL, &key, NULL,
                                                    &error));
  g_assert_no_error (error);
  on_b = ws_open_ready (b, cluster->alice);
  on_c = ws_open_ready (c, bob);
  id = post (a, key, "To both", 0);
  srv_wait_until (srv_find_update (on_b, id, "delivered") != NULL, "delivered, for alice on B");
  srv_wait_until (srv_find_update (on_c, id, "delivered") != NULL, "delivered, for bob on C");
  g_assert_cmpuint (srv_count_frames (on_b, "status_update", id), ==, 1);
  g_assert_cmpuint (srv_count_frames (on_c, "status_update", id), ==, 1);
}

/* Server-Sent Events resume on another server from the id the client last
 * got: event ids follow the order of commits whichever server made them, so
 * "after this id" means the same everywhere. */
static void
test_sse_resume_elsewhere (Cluster       *cluster,
                           gconstpointer  data)
{
  TriageTestServer *a = cluster->servers[0], *b = cluster->servers[1];
  SrvEvents *first = srv_events_open (a, cluster->alice, NULL, NULL);
  g_autoptr(SrvEvents) again = NULL;
  g_autofree char *seen = NULL, *missed_on_a = NULL, *missed_on_b = NULL, *last = NULL;
  SrvEvent *event;

  srv_wait_until (srv_find_event (first, "ping", NULL) != NULL, "the event stream");
  seen = post (a, cluster->key, "Seen", 0);
  srv_wait_until ((event = srv_find_event (first, "notification", seen)) != NULL, "the first event");
  srv_wait_until (srv_find_event (first, "status_update", "\"delivered\"") != NULL, "delivered");
  last = g_strdup (((SrvEvent *) first->events->pdata[first->events->len - 1])->id);
  g_assert_nonnull (last);
  srv_events_free (first);

  missed_on_b = post (b, cluster->key, "Missed on B", 0);
  missed_on_a = post (a, cluster->key, "Missed on A", 0);
  again = srv_events_open (b, cluster->alice, NULL, last);
  srv_wait_until (srv_find_event (again, "notification", missed_on_a) != NULL, "the replay");
  g_assert_nonnull (srv_find_event (again, "notification", missed_on_b));
  g_assert_null (srv_find_event (again, "notification", seen));
  for (guint i = 0; i < again->events->len; i++)
    {
      SrvEvent *replayed = again->events->pdata[i];

      if (replayed->id != NULL)
        g_assert_cmpint (g_ascii_strtoll (replayed->id, NULL, 10), >, g_ascii_strtoll (last, NULL, 10));
    }
}

static gboolean
wake (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Waits until every server's stream has told of every expiry; if one never
 * comes, says which, with what the database holds of them. */
static void
wait_for_expiries (Cluster    *cluster,
                   SrvSocket **ws,
                   char      **ids,
                   guint       n_ids)
{
  gint64 limit = g_get_monotonic_time () + TRIAGE_TEST_WATCHDOG_S * G_USEC_PER_SEC;
  guint ticker = g_timeout_add (200, wake, NULL);

  for (;;)
    {
      g_autoptr(GString) missing = g_string_new (NULL);
      g_autofree char *rows = NULL, *events = NULL;

      for (guint s = 0; s < cluster->n; s++)
        for (guint i = 0; i < n_ids; i++)
          if (srv_find_update (ws[s], ids[i], "expired") == NULL)
            g_string_append_printf (missing, " %s on server %u;", ids[i], s);
      if (missing->len == 0)
        break;
      if (g_get_monotonic_time () < limit)
        {
          g_main_context_iteration (NULL, TRUE);
          continue;
        }
      rows = sql (cluster, "SELECT id, status, deadline, updated_at FROM notifications ORDER BY seq");
      events = sql (cluster, "SELECT id, type, notification_id, data FROM events ORDER BY id");
      g_error ("no expiry after %d s of:%s\nnotifications:\n%s\nevents:\n%s",
               TRIAGE_TEST_WATCHDOG_S, missing->str, rows, events);
    }
  g_source_remove (ticker);
}

/* Deadlines on three servers, each server watching all of them: every
 * notification expires once, with one status update and one webhook. */
static void
test_single_expiry (Cluster       *cluster,
                    gconstpointer  data)
{
  g_autoptr(Receiver) receiver = receiver_start (0);
  g_autofree char *url = receiver_url (receiver, "/ok/expiry");
  const char *alice[] = { "alice", NULL };
  g_autofree char *key = NULL, *count = NULL;
  SrvSocket *ws[MAX_SERVERS] = { NULL };
  g_autoptr(GError) error = NULL;
  char *ids[6];

  g_assert_true (triage_test_server_create_service (cluster->servers[0], "deadlines", alice, url,
                                                    NULL, &key, NULL, &error));
  g_assert_no_error (error);
  for (guint s = 0; s < cluster->n; s++)
    ws[s] = srv_ws_open (cluster->servers[s], cluster->alice, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    ids[i] = post (cluster->servers[i % cluster->n], key, "Expires", 1500);
  wait_for_expiries (cluster, ws, ids, G_N_ELEMENTS (ids));
  g_ptr_array_unref (receiver_wait (receiver, "/ok/expiry", G_N_ELEMENTS (ids)));
  count = sql (cluster, "SELECT COUNT (*) FROM events WHERE type = 'status_update'"
                        " AND data LIKE '%\"expired\"%'");
  g_assert_cmpstr (count, ==, "6\n");
  /* Nothing more is owed to anyone: stopped now, nothing more can come. */
  for (guint s = 0; s < cluster->n; s++)
    g_assert_true (triage_test_server_stop (cluster->servers[s]));
  g_assert_cmpuint (receiver_count (receiver, "/ok/expiry"), ==, G_N_ELEMENTS (ids));
  for (guint s = 0; s < cluster->n; s++)
    for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
      g_assert_cmpuint (srv_count_frames (ws[s], "status_update", ids[i]), >=, 1);
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    g_free (ids[i]);
  for (guint s = 0; s < cluster->n; s++)
    srv_ws_free (ws[s]);
}

/* Answers given on every server; the receiver fails the first three
 * attempts: each delivery is attempted by one server at a time, the failed
 * ones once more after a second, and every answer arrives once. */
static void
test_webhook_once (Cluster       *cluster,
                   gconstpointer  data)
{
  g_autoptr(Receiver) receiver = receiver_start (0);
  g_autofree char *url = receiver_url (receiver, "/fail/3/answers");
  const char *alice[] = { "alice", NULL };
  g_autoptr(GHashTable) request_ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) deliveries = NULL;
  g_autofree char *key = NULL;
  g_autoptr(GError) error = NULL;
  gint64 limit;
  guint answers = 12;

  g_assert_true (triage_test_server_create_service (cluster->servers[1], "hooked", alice, url,
                                                    NULL, &key, NULL, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < answers; i++)
    {
      g_autofree char *id = post (cluster->servers[i % cluster->n], key, "Hooked", 0);

      respond (cluster->servers[(i + 1) % cluster->n], cluster->alice, id, "ok");
    }
  limit = g_get_monotonic_time () + WAIT_LIMIT_S * G_USEC_PER_SEC;
  for (;;)
    {
      g_autofree char *left = sql (cluster, "SELECT COUNT (*) FROM webhook_deliveries");

      if (g_str_equal (left, "0\n"))
        break;
      if (g_get_monotonic_time () > limit)
        g_error ("deliveries still queued after %d s: %s", WAIT_LIMIT_S, left);
      g_usleep (50 * 1000);
    }
  for (guint s = 0; s < cluster->n; s++)
    g_assert_true (triage_test_server_stop (cluster->servers[s]));
  deliveries = receiver_deliveries (receiver, "/fail/3/answers");
  g_assert_cmpuint (deliveries->len, ==, answers + 3);
  for (guint i = 0; i < deliveries->len; i++)
    g_hash_table_add (request_ids, ((Delivery *) deliveries->pdata[i])->request_id);
  g_assert_cmpuint (g_hash_table_size (request_ids), ==, answers);
}

/* The same POST sent to every server at once, as a client retrying through a
 * load balancer would: one notification, the same 201 everywhere. Two
 * different bodies with one id: one wins, the other is a 409. The same
 * answer on every server at once: one response, 200 everywhere. */
static void
test_idempotent_retries (Cluster       *cluster,
                         gconstpointer  data)
{
  Reply replies[MAX_SERVERS] = { { 0 } };
  g_autofree char *events = NULL;
  g_autofree char *first = NULL;

  for (guint round = 0; round < 8; round++)
    {
      g_autofree char *id = atp_new_uuid ();
      g_autofree char *body = notification_body (id, "Retried", 0);
      g_autofree char *rows = NULL, *query = NULL;

      for (guint s = 0; s < cluster->n; s++)
        send_async (cluster->servers[s], "POST", "/api/v1/notifications", cluster->key, body,
                    &replies[s]);
      srv_wait_until (all_done (replies, cluster->n), "the retries");
      for (guint s = 0; s < cluster->n; s++)
        {
          g_assert_cmpuint (replies[s].status, ==, 201);
          g_assert_cmpstr (replies[s].body, ==, replies[0].body);
        }
      query = g_strdup_printf ("SELECT COUNT (*) FROM notifications WHERE id = '%s'", id);
      rows = sql (cluster, query);
      g_assert_cmpstr (rows, ==, "1\n");
      if (round == 0)
        first = g_strdup (id);
    }
  events = sql (cluster, "SELECT COUNT (*) FROM events WHERE type = 'notification'");
  g_assert_cmpstr (events, ==, "8\n");

  /* One id, two bodies, at once. */
  {
    g_autofree char *id = atp_new_uuid ();
    g_autofree char *one = notification_body (id, "One", 0);
    g_autofree char *other = notification_body (id, "Other", 0);

    send_async (cluster->servers[0], "POST", "/api/v1/notifications", cluster->key, one,
                &replies[0]);
    send_async (cluster->servers[1], "POST", "/api/v1/notifications", cluster->key, other,
                &replies[1]);
    srv_wait_until (all_done (replies, 2), "two bodies");
    g_assert_cmpuint (MIN (replies[0].status, replies[1].status), ==, 201);
    g_assert_cmpuint (MAX (replies[0].status, replies[1].status), ==, 409);
  }

  /* The same answer everywhere at once, then two answers at once. */
  {
    g_autofree char *body = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"ok\"}",
                                             first);
    g_autofree char *id = post (cluster->servers[0], cluster->key, "Raced", 0);
    g_autofree char *ok = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"ok\"}", id);
    g_autofree char *no = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"no\"}", id);

    for (guint s = 0; s < cluster->n; s++)
      send_async (cluster->servers[s], "POST", "/api/v1/client/respond", cluster->alice, body,
                  &replies[s]);
    srv_wait_until (all_done (replies, cluster->n), "the same answer");
    for (guint s = 0; s < cluster->n; s++)
      {
        g_assert_cmpuint (replies[s].status, ==, 200);
        g_assert_cmpstr (replies[s].body, ==, replies[0].body);
      }
    send_async (cluster->servers[1], "POST", "/api/v1/client/respond", cluster->alice, ok,
                &replies[0]);
    send_async (cluster->servers[2], "POST", "/api/v1/client/respond", cluster->alice, no,
                &replies[1]);
    srv_wait_until (all_done (replies, 2), "two answers");
    g_assert_cmpuint (MIN (replies[0].status, replies[1].status), ==, 200);
    g_assert_cmpuint (MAX (replies[0].status, replies[1].status), ==, 409);
  }
  for (guint s = 0; s < MAX_SERVERS; s++)
    reply_clear (&replies[s]);
}

#define KILL_REQUESTS 200
#define KILL_PARALLEL 8

/* Posts alternate between A and B, a few at a time; A is killed halfway.
 * What A answered 201 is stored; what it did not answer is sent again to B
 * with the same id, and stored once; the stream on B hears of every
 * notification once; a client of A reconnects to B and finds them all. */
static void
test_instance_killed (Cluster       *cluster,
                      gconstpointer  data)
{
  TriageTestServer *a = cluster->servers[0], *b = cluster->servers[1];
  g_autoptr(SrvSocket) on_b = ws_open_ready (b, cluster->alice);
  g_autoptr(SrvSocket) on_a = ws_open_ready (a, cluster->alice);
  g_autoptr(SrvSocket) again = NULL;
  g_autofree Reply *replies = g_new0 (Reply, KILL_REQUESTS);
  g_autofree gboolean *on_first = g_new0 (gboolean, KILL_REQUESTS);
  g_autofree char *rows = NULL;
  g_auto(GStrv) ids = g_new0 (char *, KILL_REQUESTS + 1);
  g_auto(GStrv) bodies = g_new0 (char *, KILL_REQUESTS + 1);
  guint sent = 0, acknowledged_by_a = 0, retried = 0;
  gboolean killed = FALSE;

  for (guint i = 0; i < KILL_REQUESTS; i++)
    {
      ids[i] = atp_new_uuid ();
      bodies[i] = notification_body (ids[i], "Under fire", 0);
    }
  while (!all_done (replies, KILL_REQUESTS) || sent < KILL_REQUESTS)
    {
      guint in_flight = 0;

      for (guint i = 0; i < sent; i++)
        {
          if (!replies[i].done)
            {
              in_flight++;
              continue;
            }
          if (replies[i].status == 201)
            continue;
          /* No answer, or not stored: the client sends it again, to B. */
          g_assert_true (on_first[i]);
          g_assert_true (replies[i].status == 0 || replies[i].status >= 500);
          on_first[i] = FALSE;
          retried++;
          send_async (b, "POST", "/api/v1/notifications", cluster->key, bodies[i], &replies[i]);
          in_flight++;
        }
      while (sent < KILL_REQUESTS && in_flight < KILL_PARALLEL)
        {
          on_first[sent] = sent % 2 == 0 && !killed;
          send_async (on_first[sent] ? a : b, "POST", "/api/v1/notifications", cluster->key,
                      bodies[sent], &replies[sent]);
          sent++, in_flight++;
        }
      if (!killed && sent >= KILL_REQUESTS / 2)
        {
          kill (triage_test_server_get_pid (a), SIGKILL);
          killed = TRUE;
        }
      g_main_context_iteration (NULL, TRUE);
    }
  for (guint i = 0; i < KILL_REQUESTS; i++)
    {
      g_assert_cmpuint (replies[i].status, ==, 201);
      acknowledged_by_a += on_first[i];
    }
  g_test_message ("%u acknowledged by A before it died, %u sent again to B", acknowledged_by_a,
                  retried);
  rows = sql (cluster, "SELECT COUNT (*) FROM notifications");
  g_assert_cmpuint (g_ascii_strtoull (rows, NULL, 10), ==, KILL_REQUESTS);
  for (guint i = 0; i < KILL_REQUESTS; i++)
    srv_wait_until (srv_find_frame (on_b, "notification", ids[i]) != NULL, "every notification on B");
  /* Logged once each: a frame twice would be the stream's doing. */
  g_free (rows);
  rows = sql (cluster, "SELECT COUNT (*) FROM (SELECT notification_id FROM events"
                       " WHERE type = 'notification' GROUP BY notification_id, user_id"
                       " HAVING COUNT (*) > 1) AS twice");
  g_assert_cmpuint (g_ascii_strtoull (rows, NULL, 10), ==, 0);
  for (guint i = 0; i < KILL_REQUESTS; i++)
    if (srv_count_frames (on_b, "notification", ids[i]) != 1)
      {
        g_autofree char *query = g_strdup_printf ("SELECT id || ' ' || user_id FROM events"
                                                  " WHERE notification_id = '%s'", ids[i]);
        g_autofree char *events = sql (cluster, query);

        g_test_message ("%s: %u frames; its events: %s", ids[i],
                        srv_count_frames (on_b, "notification", ids[i]), events);
        g_assert_cmpuint (srv_count_frames (on_b, "notification", ids[i]), ==, 1);
      }

  /* A's client lost its stream; at B it finds everything pending. */
  srv_wait_until (on_a->closed, "A's stream to end");
  again = srv_ws_open (b, cluster->alice, NULL);
  for (guint i = 0; i < KILL_REQUESTS; i++)
    srv_wait_until (srv_find_frame (again, "notification", ids[i]) != NULL, "the snapshot on B");
  for (guint i = 0; i < KILL_REQUESTS; i++)
    reply_clear (&replies[i]);
}

/* The deadline of a notification posted to A is B's to keep once A is gone. */
static void
test_deadline_after_death (Cluster       *cluster,
                           gconstpointer  data)
{
  g_autoptr(SrvSocket) ws = srv_ws_open (cluster->servers[1], cluster->alice, NULL);
  g_autofree char *id = post (cluster->servers[0], cluster->key, "Orphan", 1500);

  srv_wait_until (srv_find_frame (ws, "notification", id) != NULL, "the notification on B");
  triage_test_server_kill (cluster->servers[0]);
  srv_wait_until (srv_find_update (ws, id, "expired") != NULL, "B's expiry");
}

/* The listening connections are cut (as by a database restart or a network
 * blip): what is committed meanwhile still reaches the streams, once. */
static void
test_listener_lost (Cluster       *cluster,
                    gconstpointer  data)
{
  g_autoptr(SrvSocket) ws = srv_ws_open (cluster->servers[1], cluster->alice, NULL);
  g_autofree char *cut = NULL;
  char *ids[5];

  cut = sql (cluster, "SELECT COUNT (pg_terminate_backend (pid)) FROM pg_stat_activity"
                      " WHERE application_name = 'triage-server events'");
  g_assert_cmpstr (cut, ==, "2\n");
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    ids[i] = post (cluster->servers[0], cluster->key, "While nobody listened", 0);
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    srv_wait_until (srv_find_frame (ws, "notification", ids[i]) != NULL, "the catch-up");
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_assert_cmpuint (srv_count_frames (ws, "notification", ids[i]), ==, 1);
      g_free (ids[i]);
    }
}

/* A rate is counted across servers: four sends a minute, wherever they go. */
static void
test_shared_rate_limit (Cluster       *cluster,
                        gconstpointer  data)
{
  g_autoptr(SrvAnswer) over = NULL;
  g_autofree char *body = NULL, *id = atp_new_uuid ();

  for (guint i = 0; i < 4; i++)
    g_free (post (cluster->servers[i % 2], cluster->key, "Counted", 0));
  body = notification_body (id, "One too many", 0);
  over = srv_request (cluster->servers[1], "POST", "/api/v1/notifications", cluster->key, body);
  srv_assert_status (over, 429, "RATE_LIMIT_EXCEEDED");
  g_assert_nonnull (soup_message_headers_get_one (over->headers, "Retry-After"));
}

/* Read your writes while the server commits one batch and gathers the next:
 * requests keep coming to A (so a commit is in flight most of the time), and
 * every 201 is followed at once by a GET of what it created on A, an answer
 * on B, and a GET of that answer on A again; B's stream gets each one. */
#define RYW_LOAD 8

static void
test_read_your_writes (Cluster       *cluster,
                       gconstpointer  data)
{
  TriageTestServer *a = cluster->servers[0], *b = cluster->servers[1];
  g_autoptr(SrvSocket) ws = srv_ws_open (b, cluster->alice, NULL);
  Reply load[RYW_LOAD] = { { 0 } };

  for (guint j = 0; j < RYW_LOAD; j++)
    load[j].done = TRUE;
  for (guint i = 0; i < 15; i++)
    {
      g_autofree char *id = NULL, *agent_path = NULL, *client_path = NULL;
      g_autoptr(SrvAnswer) seen = NULL, client = NULL, answered = NULL;

      for (guint j = 0; j < RYW_LOAD; j++)
        if (load[j].done)
          {
            g_autofree char *load_id = atp_new_uuid ();
            g_autofree char *body = notification_body (load_id, "Load", 0);

            if (load[j].body != NULL)
              g_assert_cmpuint (load[j].status, ==, 201);
            send_async (a, "POST", "/api/v1/notifications", cluster->key, body, &load[j]);
          }
      id = post (a, cluster->key, "Read your writes", 0);
      agent_path = g_strdup_printf ("/api/v1/notifications/%s", id);
      client_path = g_strdup_printf ("/api/v1/client/notifications/%s", id);
      seen = srv_request (a, "GET", agent_path, cluster->key, NULL);
      srv_assert_status (seen, 200, NULL);
      client = srv_request (a, "GET", client_path, cluster->alice, NULL);
      srv_assert_status (client, 200, NULL);
      respond (b, cluster->alice, id, "ok");
      answered = srv_request (a, "GET", agent_path, cluster->key, NULL);
      srv_assert_status (answered, 200, NULL);
      g_assert_nonnull (strstr (answered->body, "\"status\":\"responded\""));
      srv_wait_until (srv_find_update (ws, id, "responded") != NULL, "the answer on B's stream");
      g_assert_nonnull (srv_find_frame (ws, "notification", id));
    }
  srv_wait_until (all_done (load, RYW_LOAD), "the last requests of the load");
  for (guint j = 0; j < RYW_LOAD; j++)
    {
      g_assert_cmpuint (load[j].status, ==, 201);
      reply_clear (&load[j]);
    }
}

int
main (int    argc,
      char **argv)
{
  static const char * const no_limits[] = { "--no-limits", NULL };
  static const char * const four_sends[] = { "--limit", "sends=4", NULL };
  static const Shape three = { 3, no_limits }, two = { 2, no_limits }, limited = { 2, four_sends };

  triage_test_postgres_init (&argc, &argv, "several servers share a PostgreSQL database");
#define ADD(path, shape, func) \
  g_test_add (path, Cluster, shape, cluster_setup, func, cluster_teardown)
  ADD ("/cluster/cross-delivery", &three, test_cross_delivery);
  ADD ("/cluster/delivered-to-all", &three, test_delivered_to_all);
  ADD ("/cluster/sse-resume-elsewhere", &two, test_sse_resume_elsewhere);
  ADD ("/cluster/single-expiry", &three, test_single_expiry);
  ADD ("/cluster/webhook-once", &three, test_webhook_once);
  ADD ("/cluster/idempotent-retries", &three, test_idempotent_retries);
  ADD ("/cluster/instance-killed", &two, test_instance_killed);
  ADD ("/cluster/deadline-after-death", &two, test_deadline_after_death);
  ADD ("/cluster/listener-lost", &two, test_listener_lost);
  ADD ("/cluster/shared-rate-limit", &limited, test_shared_rate_limit);
  ADD ("/cluster/read-your-writes", &two, test_read_your_writes);
#undef ADD
  return g_test_run ();
}
