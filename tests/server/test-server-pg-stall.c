/* test-server-pg-stall.c — a PostgreSQL database that stops answering
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A server ("far") reaches the tests' PostgreSQL over TCP through
 * tests/chaos/partition-proxy.py, which stalls on command: no byte goes
 * either way on the open connections, and new ones are accepted but get
 * nothing through (a partition that drops packets; to the server, also a
 * backend that hangs). TCP would not tell for many minutes. Another server
 * ("near") is on the database's own socket, as a server elsewhere in the
 * fleet.
 *
 * The server must bound the stall (triage-pg-link.c): the request that
 * meets it is answered 503 STORAGE_UNAVAILABLE within the wait for an
 * answer (TRIAGE_PG_STATEMENT_TIMEOUT_MS + TRIAGE_PG_ANSWER_GRACE_MS, 12 s),
 * and from then on /healthz answers, /readyz says "unavailable" and requests
 * get their 503 at once. Once the proxy passes traffic again it serves
 * normally: a request posted again is stored once, nothing is stored twice,
 * and its streams hear the other server's events (the listening connection
 * was made again). A stall while nothing is asked is found by the
 * listener's read (every 5 s) and handled the same way.
 *
 * Waits are for events (answers, frames, a line of the server's log), each
 * bounded; the polls while the server reconnects are bounded by a deadline.
 */

#define G_LOG_DOMAIN "test-server-pg-stall"

#include <glib/gstdio.h>

#include "atp.h"
#include "pg-uri-test-util.h"
#include "server-test-util.h"
#include "server-test-within.h"
#include "triage-pg-link.h"
#include "triage-test-postgres.h"
#include "triage-test-proxy.h"

/* The wait for an answer the server keeps (triage-pg-link.h). */
#define BOUND_S ((TRIAGE_PG_STATEMENT_TIMEOUT_MS + TRIAGE_PG_ANSWER_GRACE_MS) / 1000)
/* What a loaded machine may add to a wait. */
#define SLACK_S 10
/* An answer that needs no database (or finds it known unreachable): well
 * under BOUND_S, whatever the load. */
#define PROMPT_S 5
/* The listener's read while idle (triage-pg-listener.c). */
#define IDLE_READ_S 5
/* From the end of the partition to a request stored: a connection tried
 * meanwhile runs out its connect_timeout (10 s), then the next is made. */
#define RECOVER_S 60

typedef struct
{
  TriageTestProxy  *proxy;    /* far's way to the database */
  TriageTestServer *near;     /* on the database's Unix socket */
  TriageTestServer *far;      /* through the proxy */
  char             *far_log;  /* far's standard error */
  char             *alice;    /* a user token */
  char             *key;      /* a service that sends to alice */
} Stall;

static const char * const far_args[] = { "--no-limits", NULL };

/* The operator's statement_timeout (1 s) in far's URI wins over the
 * server's 10 s: far waits 1 + 2 s for an answer. */
#define OPERATOR_OPTIONS "-c statement_timeout=1000"
/* The same set for the database or for the role (ALTER DATABASE, ALTER
 * ROLE, as README.md suggests) before far connects, and reset after. */
static const char * const operator_database[] = {
  "ALTER DATABASE triage SET statement_timeout = 1000",
  "ALTER DATABASE triage RESET statement_timeout"
};
static const char * const operator_role[] = {
  "ALTER ROLE CURRENT_USER SET statement_timeout = 1000",
  "ALTER ROLE CURRENT_USER RESET statement_timeout"
};

/* The statements that set and reset the operator's timeout, for a test
 * whose data is one of the above; NULL for one with URI options. */
static const char * const *
operator_setting (gconstpointer data)
{
  return data == operator_database || data == operator_role ? data : NULL;
}
#define OPERATOR_BOUND_S 3

static void
stall_setup (Stall         *fixture,
             gconstpointer  data)
{
  const char * const *setting = operator_setting (data);
  const char *operator_options = setting == NULL ? data : NULL;
  const char * const alice[] = { "alice", NULL };
  g_autofree char *socket_path = NULL, *uri = NULL;
  TriageTestServerOptions far_options = { .extra_args = far_args };
  g_autoptr(GError) error = NULL;

  fixture->near = triage_test_server_new (NULL, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_is_postgres (fixture->near));
  socket_path = pg_uri_socket_path (triage_test_server_get_database (fixture->near));
  fixture->proxy = triage_test_proxy_new (socket_path);
  if (setting != NULL)
    {
      /* The sessions made from now on; reset by the teardown. */
      g_free (triage_test_server_run_sql (fixture->near, setting[0], &error));
      g_assert_no_error (error);
    }
  uri = pg_uri_through (triage_test_server_get_database (fixture->near), "127.0.0.1",
                        triage_test_proxy_get_port (fixture->proxy), FALSE, 0, operator_options);
  g_test_message ("far's database: %s", uri);

  fixture->far_log = g_build_filename (g_get_tmp_dir (), "triage-test-pg-stall-XXXXXX.log", NULL);
  g_close (g_mkstemp (fixture->far_log), NULL);
  far_options.database = uri;
  far_options.log_file = fixture->far_log;
  fixture->far = triage_test_server_new (&far_options, &error);
  g_assert_no_error (error);

  triage_test_server_create_user (fixture->near, "alice", &fixture->alice, &error);
  g_assert_no_error (error);
  triage_test_server_create_service (fixture->near, "stall-bot", alice, NULL, NULL, &fixture->key,
                                     NULL, &error);
  g_assert_no_error (error);
}

static void
stall_teardown (Stall         *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  if (operator_setting (data) != NULL)
    {
      g_free (triage_test_server_run_sql (fixture->near, operator_setting (data)[1], &error));
      g_assert_no_error (error);
    }
  /* Both drain and stop cleanly: the database answers again. */
  g_assert_true (triage_test_server_stop (fixture->far));
  g_assert_true (triage_test_server_stop (fixture->near));
  triage_test_server_free (fixture->far);
  triage_test_server_free (fixture->near);
  g_clear_pointer (&fixture->proxy, triage_test_proxy_free);
  g_unlink (fixture->far_log);
  g_free (fixture->far_log);
  g_free (fixture->alice);
  g_free (fixture->key);
}

/* How many rows of notifications have @id. */
static guint
stored (Stall      *fixture,
        const char *id)
{
  g_autofree char *sql = g_strdup_printf ("SELECT COUNT (*) FROM notifications WHERE id = '%s'", id);
  g_autoptr(GError) error = NULL;
  g_autofree char *rows = triage_test_server_run_sql (fixture->near, sql, &error);

  g_assert_no_error (error);
  return (guint) g_ascii_strtoull (rows, NULL, 10);
}

/* What a server says about itself during the stall, once it knows. */
static void
assert_serves_without_database (Stall *fixture)
{
  g_autoptr(JsonObject) ready = NULL;
  SrvTimedReply reply;

  srv_request_within (fixture->far, "GET", "/healthz", NULL, NULL, PROMPT_S + SLACK_S, &reply);
  srv_assert_timed_reply (&reply, 200, NULL);
  g_assert_cmpint (reply.took_us, <, PROMPT_S * G_USEC_PER_SEC);
  g_free (reply.body);

  srv_request_within (fixture->far, "GET", "/readyz", NULL, NULL, PROMPT_S + SLACK_S, &reply);
  srv_assert_timed_reply (&reply, 503, NULL);
  g_assert_cmpint (reply.took_us, <, PROMPT_S * G_USEC_PER_SEC);
  ready = srv_parse_object (reply.body);
  g_assert_cmpstr (json_object_get_string_member (ready, "status"), ==, "unavailable");
  g_free (reply.body);
}

/* @id posted until it is stored (polled within RECOVER_S), once: once the
 * proxy passes traffic again, after its 503 during the stall. */
static void
post_again_until_stored (Stall      *fixture,
                         const char *id)
{
  gint64 give_up = g_get_monotonic_time () + RECOVER_S * G_USEC_PER_SEC;
  gint64 first_try = g_get_monotonic_time ();
  SrvTimedReply reply = { 0 };

  for (;;)
    {
      g_clear_pointer (&reply.body, g_free);
      srv_post_within (fixture->far, fixture->key, id, "Stall", BOUND_S + SLACK_S, &reply);
      if (reply.status == 201)
        break;
      srv_assert_timed_reply (&reply, 503, "STORAGE_UNAVAILABLE");
      g_assert_cmpint (g_get_monotonic_time (), <, give_up);
      triage_test_sleep (200);
    }
  g_test_message ("stored %.1f s after the first try",
                  (double) (g_get_monotonic_time () - first_try) / G_USEC_PER_SEC);
  g_free (reply.body);
  g_assert_cmpuint (stored (fixture, id), ==, 1);
}

/* The near server's notification reaches far's stream: far listens again. */
static void
assert_hears_near (Stall     *fixture,
                   SrvSocket *sock)
{
  g_autofree char *id = srv_post (fixture->near, fixture->key, "From near");

  triage_test_wait_until_within (srv_count_frames (sock, "notification", id) == 1,
                                 "far's stream hears a notification posted on near", RECOVER_S);
}

/* A request meets the stall: 503 within the bound, then prompt answers;
 * after it, normal service, each request stored once. */
static void
test_request (Stall         *fixture,
              gconstpointer  data)
{
  g_autofree char *first = NULL, *second = NULL, *before = NULL;
  g_autoptr(SrvSocket) sock = srv_ws_open (fixture->far, fixture->alice, NULL);
  g_autoptr(SrvSocket) refused = NULL;
  SrvTimedReply reply;

  g_assert_nonnull (sock->ws);
  before = srv_post (fixture->far, fixture->key, "Before");
  assert_hears_near (fixture, sock);

  triage_test_proxy_command (fixture->proxy, "stall");
  first = atp_new_uuid ();
  srv_post_within (fixture->far, fixture->key, first, "Stall", BOUND_S + SLACK_S, &reply);
  srv_assert_timed_reply (&reply, 503, "STORAGE_UNAVAILABLE");
  g_free (reply.body);

  assert_serves_without_database (fixture);
  /* A token that cannot be looked up is not "invalid": a client told so
   * would drop it. */
  refused = srv_ws_open (fixture->far, fixture->alice, NULL);
  g_assert_null (refused->ws);
  g_assert_cmpuint (refused->status, ==, 503);
  second = atp_new_uuid ();
  srv_post_within (fixture->far, fixture->key, second, "Stall", PROMPT_S + SLACK_S, &reply);
  srv_assert_timed_reply (&reply, 503, "STORAGE_UNAVAILABLE");
  g_assert_cmpint (reply.took_us, <, PROMPT_S * G_USEC_PER_SEC);
  g_free (reply.body);

  triage_test_proxy_command (fixture->proxy, "heal");
  post_again_until_stored (fixture, first);
  post_again_until_stored (fixture, second);
  g_assert_cmpuint (stored (fixture, before), ==, 1);
  assert_hears_near (fixture, sock);
  /* The stream heard each of this server's own once. */
  triage_test_wait_until (srv_count_frames (sock, "notification", second) == 1,
                          "the second request on far's stream");
  g_assert_cmpuint (srv_count_frames (sock, "notification", first), ==, 1);
  g_assert_cmpuint (srv_count_frames (sock, "notification", before), ==, 1);
}

/* Whether far's log has a line with @text (the first is kept in @line). */
static gboolean
log_says (Stall       *fixture,
          const char  *text,
          char       **line)
{
  g_autofree char *log = NULL;
  const char *found, *start, *end;

  if (!g_file_get_contents (fixture->far_log, &log, NULL, NULL) ||
      (found = strstr (log, text)) == NULL)
    return FALSE;
  for (start = found; start > log && start[-1] != '\n'; start--)
    ;
  end = strchr (found, '\n');
  if (end == NULL)
    end = found + strlen (found);
  *line = g_strndup (start, (gsize) (end - start));
  return TRUE;
}

/* Nothing is asked of far during the stall: its own reads find it (the
 * shared store's look for due webhooks every 5 s, or the listener's). Then
 * it stops on SIGTERM as usual, the database still away. */
static void
test_idle (Stall         *fixture,
           gconstpointer  data)
{
  g_autoptr(SrvSocket) sock = srv_ws_open (fixture->far, fixture->alice, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  gint64 stalled, stopping;

  g_assert_nonnull (sock->ws);
  assert_hears_near (fixture, sock);

  triage_test_proxy_command (fixture->proxy, "stall");
  stalled = g_get_monotonic_time ();
  /* A line of its log, polled: nothing else tells. */
  while (!log_says (fixture, "the PostgreSQL database did not answer", &line))
    {
      /* The store's look for due webhooks (every 5 s) or the listener's
       * read after 5 s of quiet (checked every second) meets it. */
      g_assert_cmpint (g_get_monotonic_time () - stalled, <,
                       (IDLE_READ_S + 1 + BOUND_S + SLACK_S) * G_USEC_PER_SEC);
      triage_test_sleep (100);
    }
  g_test_message ("far found the stall in %.1f s: %s",
                  (double) (g_get_monotonic_time () - stalled) / G_USEC_PER_SEC, line);
  assert_serves_without_database (fixture);

  /* SIGTERM drains and stops as usual, the database still away. */
  stopping = g_get_monotonic_time ();
  g_assert_true (triage_test_server_stop (fixture->far));
  g_test_message ("far stopped in %.1f s",
                  (double) (g_get_monotonic_time () - stopping) / G_USEC_PER_SEC);
  g_assert_cmpint (g_get_monotonic_time () - stopping, <, (PROMPT_S + SLACK_S) * G_USEC_PER_SEC);
  g_clear_pointer (&sock, srv_ws_free);

  triage_test_proxy_command (fixture->proxy, "heal");
  g_assert_true (triage_test_server_restart (fixture->far, &error));
  g_assert_no_error (error);
  sock = srv_ws_open (fixture->far, fixture->alice, NULL);
  g_assert_nonnull (sock->ws);
  assert_hears_near (fixture, sock);
  g_free (srv_post (fixture->far, fixture->key, "After"));
}

/* Only the listening connection stalls (the proxy finds it by the
 * application name its startup packet gives): far keeps serving, /readyz says ready (its streams hear nothing
 * of the other servers meanwhile), and the listener's read while idle finds
 * the stall, after which every connection is made again and the stream
 * hears near's notification. */
static void
test_listener (Stall         *fixture,
               gconstpointer  data)
{
  g_autoptr(SrvSocket) sock = srv_ws_open (fixture->far, fixture->alice, NULL);
  g_autofree char *id = NULL, *line = NULL;
  gint64 stalled;
  SrvTimedReply reply;

  g_assert_nonnull (sock->ws);
  assert_hears_near (fixture, sock);

  triage_test_proxy_command (fixture->proxy, "stall-matching triage-server events");
  stalled = g_get_monotonic_time ();
  id = srv_post (fixture->near, fixture->key, "While far is deaf");
  srv_request_within (fixture->far, "GET", "/readyz", NULL, NULL, PROMPT_S + SLACK_S, &reply);
  srv_assert_timed_reply (&reply, 200, NULL);
  g_assert_cmpint (reply.took_us, <, PROMPT_S * G_USEC_PER_SEC);
  g_free (reply.body);
  triage_test_wait_until_within (srv_count_frames (sock, "notification", id) == 1,
                                 "far's stream hears near's notification again",
                                 IDLE_READ_S + BOUND_S + SLACK_S + RECOVER_S);
  g_test_message ("heard %.1f s after the stall",
                  (double) (g_get_monotonic_time () - stalled) / G_USEC_PER_SEC);
  g_assert_true (log_says (fixture, "did not answer (statements sent, their answers awaited)",
                           &line));
  g_test_message ("%s", line);
  g_free (srv_post (fixture->far, fixture->key, "After"));
  assert_hears_near (fixture, sock);
}

/* A statement_timeout in the URI, or set for the database, is the
 * operator's: it wins, and the wait for an answer follows it. */
static void
test_operator_timeout (Stall         *fixture,
                       gconstpointer  data)
{
  g_autofree char *before = atp_new_uuid ();
  g_autofree char *id = atp_new_uuid ();
  SrvTimedReply reply;

  /* Before the stall: a statement of a new session (far's first request
   * checks the schema on it) may run out the operator's 1 s on a machine
   * loaded enough, and is answered 503 as it should be; tried again. */
  post_again_until_stored (fixture, before);
  triage_test_proxy_command (fixture->proxy, "stall");
  srv_post_within (fixture->far, fixture->key, id, "Stall", OPERATOR_BOUND_S + SLACK_S, &reply);
  srv_assert_timed_reply (&reply, 503, "STORAGE_UNAVAILABLE");
  g_assert_cmpint (reply.took_us, >=, (OPERATOR_BOUND_S - 1) * G_USEC_PER_SEC);
  /* Not the server's own 12 s. */
  g_assert_cmpint (reply.took_us, <, BOUND_S * G_USEC_PER_SEC);
  g_free (reply.body);
  triage_test_proxy_command (fixture->proxy, "heal");
  post_again_until_stored (fixture, id);
}

/* A database that refuses (its connections reset, new ones refused): a
 * token that cannot be looked up gets 503, not 401 (a client told its
 * token is invalid would drop it), and service comes back with the
 * database. */
static void
test_refused (Stall         *fixture,
              gconstpointer  data)
{
  g_autoptr(SrvSocket) refused = NULL, sock = NULL;
  g_autofree char *id = atp_new_uuid ();
  SrvTimedReply reply;

  g_free (srv_post (fixture->far, fixture->key, "Before"));
  triage_test_proxy_command (fixture->proxy, "refuse");
  triage_test_proxy_command (fixture->proxy, "reset");
  refused = srv_ws_open (fixture->far, fixture->alice, NULL);
  g_assert_null (refused->ws);
  g_assert_cmpuint (refused->status, ==, 503);
  srv_post_within (fixture->far, fixture->key, id, "Stall", PROMPT_S + SLACK_S, &reply);
  srv_assert_timed_reply (&reply, 503, "STORAGE_UNAVAILABLE");
  g_free (reply.body);
  srv_request_within (fixture->far, "GET", "/healthz", NULL, NULL, PROMPT_S + SLACK_S, &reply);
  srv_assert_timed_reply (&reply, 200, NULL);
  g_free (reply.body);

  triage_test_proxy_command (fixture->proxy, "heal");
  post_again_until_stored (fixture, id);
  sock = srv_ws_open (fixture->far, fixture->alice, NULL);
  g_assert_nonnull (sock->ws);
  assert_hears_near (fixture, sock);
}

int
main (int   argc,
      char *argv[])
{
  triage_test_postgres_init (&argc, &argv, "a stalled PostgreSQL");
  g_test_add ("/server/pg-stall/request", Stall, NULL, stall_setup, test_request, stall_teardown);
  g_test_add ("/server/pg-stall/idle", Stall, NULL, stall_setup, test_idle, stall_teardown);
  g_test_add ("/server/pg-stall/listener", Stall, NULL, stall_setup, test_listener,
              stall_teardown);
  g_test_add ("/server/pg-stall/refused", Stall, NULL, stall_setup, test_refused, stall_teardown);
  g_test_add ("/server/pg-stall/operator-timeout", Stall, OPERATOR_OPTIONS, stall_setup,
              test_operator_timeout, stall_teardown);
  g_test_add ("/server/pg-stall/operator-timeout-database", Stall, operator_database, stall_setup,
              test_operator_timeout, stall_teardown);
  g_test_add ("/server/pg-stall/operator-timeout-role", Stall, operator_role, stall_setup,
              test_operator_timeout, stall_teardown);
  return g_test_run ();
}
