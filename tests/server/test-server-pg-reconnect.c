/* test-server-pg-reconnect.c — the server's new PostgreSQL connections
 * never hold its main loop
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Once the database stopped answering (a stall: triage-pg-link.c), the
 * server makes a new connection in the background, once a second, until
 * one answers; meanwhile it answers everything else at once (/healthz,
 * requests get their 503). Two parts of making a connection could block:
 *   - its first statements (the session's settings, the statements kept
 *     prepared), when the database takes connections and answers no query
 *     (a backend that hangs, a pool in front of a database that does);
 *   - the lookup of its host name, when a partition cuts DNS too.
 * A server ("far") reaches the tests' PostgreSQL over TCP through a proxy
 * of this test, which can stall its open connections and answer new ones
 * itself: the startup exchange (no password), then silence; given a
 * second host (the database's socket), far passes over the silent first.
 * Another server ("near") is on the database's own socket. The lookup is held by
 * slow-lookup.c, preloaded into far: its host name resolves to 127.0.0.1,
 * and hangs while a file of the test exists. While it hangs, far keeps
 * one thread making a connection (its threads are counted in /proc), not
 * one a try, whether the try was in the background or awaited (the
 * connection needed at once, given up at connect_timeout); a try given up
 * is closed once its lookup answers, not set up.
 *
 * The proxy is pg-proxy-test-util.h, not tests/chaos/partition-proxy.py
 * (triage-test-proxy.c): that one has no mode that answers the startup
 * exchange itself and then says nothing, and test-server-pg-failover.c
 * uses it for what it does (a host that accepts and passes nothing).
 *
 * Waits are for events (answers, a connection answered, a file), each
 * bounded.
 */

#define G_LOG_DOMAIN "test-server-pg-reconnect"

#include <glib/gstdio.h>

#include "atp.h"
#include "pg-proxy-test-util.h"
#include "pg-uri-test-util.h"
#include "server-test-util.h"
#include "server-test-within.h"
#include "triage-pg-link.h"
#include "triage-test-postgres.h"

/* The wait for an answer the server keeps with the operator's
 * statement_timeout of 1 s (triage-pg-link.h): 1 + 2 s. */
#define OPERATOR_OPTIONS "-c statement_timeout=1000"
#define OPERATOR_BOUND_S 3
/* The server's own wait for a new connection's first answer
 * (TRIAGE_PG_STATEMENT_TIMEOUT_MS + TRIAGE_PG_ANSWER_GRACE_MS). */
#define SETUP_BOUND_S ((TRIAGE_PG_STATEMENT_TIMEOUT_MS + TRIAGE_PG_ANSWER_GRACE_MS) / 1000)
/* What a loaded machine may add to a wait. */
#define SLACK_S 10
/* An answer that needs no database: well under SETUP_BOUND_S, whatever the
 * load. */
#define PROMPT_S 5
/* From the end of the fault to a request stored: a connection tried
 * meanwhile runs out its wait, then the next is made. */
#define RECOVER_S 60
/* far's connect_timeout: the least libpq takes, so a connection the proxy
 * answers nothing is given up soon. */
#define CONNECT_TIMEOUT_S 2
/* Far's two hosts: the proxy, then the database's socket. */
#define TWO_HOSTS "two hosts"
/* The name slow-lookup.c resolves. */
#define LOOKUP_NAME "triage-test-database.invalid"

/* ---- the servers ---- */

typedef struct
{
  PgProxy            *proxy;
  TriageTestServer *near;     /* on the database's Unix socket */
  TriageTestServer *far;      /* through the proxy */
  char             *alice;    /* a user token */
  char             *key;      /* a service that sends to alice */
  char             *hold;     /* slow-lookup.c's file */
  char             *held;     /* the file it makes while it holds a lookup */
} Reconnect;

static const char * const far_args[] = { "--no-limits", NULL };

/* Far's host is @data: 127.0.0.1, LOOKUP_NAME (slow-lookup.c preloaded
 * into it), or TWO_HOSTS (127.0.0.1, then the database's socket). */
static void
reconnect_setup (Reconnect     *fixture,
                 gconstpointer  data)
{
  const char *host = data;
  const char * const alice[] = { "alice", NULL };
  g_autofree char *socket_path = NULL, *uri = NULL, *dir = NULL;
  TriageTestServerOptions far_options = { .extra_args = far_args };
  g_autoptr(GError) error = NULL;
  gboolean preload = g_str_equal (host, LOOKUP_NAME);
  gboolean two_hosts = g_str_equal (host, TWO_HOSTS);

  fixture->near = triage_test_server_new (NULL, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_is_postgres (fixture->near));
  if (two_hosts)
    host = "127.0.0.1";
  socket_path = pg_uri_socket_path (triage_test_server_get_database (fixture->near));
  fixture->proxy = pg_proxy_new (socket_path);
  uri = pg_uri_through (triage_test_server_get_database (fixture->near), host,
                        fixture->proxy->port, two_hosts, CONNECT_TIMEOUT_S, OPERATOR_OPTIONS);
  g_test_message ("far's database: %s", uri);

  dir = g_dir_make_tmp ("triage-test-pg-reconnect-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->hold = g_build_filename (dir, "hold", NULL);
  fixture->held = g_build_filename (dir, "hold.held", NULL);
  if (preload)
    {
      /* For far alone (the environment its launcher copies). */
      g_setenv ("LD_PRELOAD", SLOW_LOOKUP_PATH, TRUE);
      g_setenv ("TRIAGE_TEST_LOOKUP_NAME", LOOKUP_NAME, TRUE);
      g_setenv ("TRIAGE_TEST_LOOKUP_HOLD", fixture->hold, TRUE);
    }
  far_options.database = uri;
  fixture->far = triage_test_server_new (&far_options, &error);
  g_unsetenv ("LD_PRELOAD");
  g_unsetenv ("TRIAGE_TEST_LOOKUP_NAME");
  g_unsetenv ("TRIAGE_TEST_LOOKUP_HOLD");
  g_assert_no_error (error);

  triage_test_server_create_user (fixture->near, "alice", &fixture->alice, &error);
  g_assert_no_error (error);
  triage_test_server_create_service (fixture->near, "reconnect-bot", alice, NULL, NULL,
                                     &fixture->key, NULL, &error);
  g_assert_no_error (error);
}

static void
reconnect_teardown (Reconnect     *fixture,
                    gconstpointer  data)
{
  g_autofree char *dir = g_path_get_dirname (fixture->hold);

  g_unlink (fixture->hold);
  /* Both drain and stop cleanly: the database answers again. */
  g_assert_true (triage_test_server_stop (fixture->far));
  g_assert_true (triage_test_server_stop (fixture->near));
  triage_test_server_free (fixture->far);
  triage_test_server_free (fixture->near);
  pg_proxy_free (fixture->proxy);
  g_unlink (fixture->held);
  g_rmdir (dir);
  g_free (fixture->hold);
  g_free (fixture->held);
  g_free (fixture->alice);
  g_free (fixture->key);
}

/* Far answers /healthz at once (its main loop is free). */
static void
assert_prompt (Reconnect *fixture)
{
  SrvTimedReply reply;

  srv_request_within (fixture->far, "GET", "/healthz", fixture->key, NULL,
                      PROMPT_S + SETUP_BOUND_S + SLACK_S, &reply);
  srv_assert_timed_reply (&reply, 200, NULL);
  g_assert_cmpint (reply.took_us, <, PROMPT_S * G_USEC_PER_SEC);
  g_free (reply.body);
}

/* A request meets the stall of far's connections: 503 within the
 * operator's bound; far now connects in the background. */
static char *
stall (Reconnect *fixture)
{
  char *id = atp_new_uuid ();
  SrvTimedReply reply;

  g_free (srv_post (fixture->far, fixture->key, "Before"));
  pg_proxy_stall (fixture->proxy);
  srv_post_within (fixture->far, fixture->key, id, "Reconnect", OPERATOR_BOUND_S + SLACK_S, &reply);
  srv_assert_timed_reply (&reply, 503, "STORAGE_UNAVAILABLE");
  g_free (reply.body);
  return id;
}

/* Once the fault is gone: @id posted again until it is stored (polled
 * within RECOVER_S), once; and far's stream hears near again. */
static void
post_again_until_stored (Reconnect  *fixture,
                         const char *id)
{
  gint64 give_up = g_get_monotonic_time () + RECOVER_S * G_USEC_PER_SEC;
  gint64 healed = g_get_monotonic_time ();
  g_autofree char *sql = g_strdup_printf ("SELECT COUNT (*) FROM notifications WHERE id = '%s'",
                                          id);
  g_autofree char *rows = NULL, *heard = NULL;
  g_autoptr(SrvSocket) sock = NULL;
  g_autoptr(GError) error = NULL;
  SrvTimedReply reply = { 0 };

  for (;;)
    {
      g_clear_pointer (&reply.body, g_free);
      srv_post_within (fixture->far, fixture->key, id, "Reconnect",
                       OPERATOR_BOUND_S + SETUP_BOUND_S + SLACK_S, &reply);
      if (reply.status == 201)
        break;
      srv_assert_timed_reply (&reply, 503, "STORAGE_UNAVAILABLE");
      g_assert_cmpint (g_get_monotonic_time (), <, give_up);
      triage_test_sleep (200);
    }
  g_test_message ("stored %.1f s after the fault ended",
                  (double) (g_get_monotonic_time () - healed) / G_USEC_PER_SEC);
  g_free (reply.body);
  rows = triage_test_server_run_sql (fixture->near, sql, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_ascii_strtoull (rows, NULL, 10), ==, 1);

  /* The listening connection was made again too, its reads prepared. */
  sock = srv_ws_open (fixture->far, fixture->alice, NULL);
  g_assert_nonnull (sock->ws);
  heard = srv_post (fixture->near, fixture->key, "From near");
  triage_test_wait_until_within (srv_count_frames (sock, "notification", heard) == 1,
                                 "far's stream hears a notification posted on near", RECOVER_S);
}

/* The database takes new connections and answers no query: each try's
 * first statements wait SETUP_BOUND_S, and far answers meanwhile. */
static void
test_setup_unanswered (Reconnect     *fixture,
                       gconstpointer  data)
{
  g_autofree char *id = NULL;

  g_atomic_int_set (&fixture->proxy->mute, TRUE);
  id = stall (fixture);
  /* Each try's statements sent and unanswered: far answers all along. */
  triage_test_wait_until_within (g_atomic_int_get (&fixture->proxy->answered) >= 1,
                                 "a new connection of far answered", SLACK_S + RECOVER_S);
  while (g_atomic_int_get (&fixture->proxy->answered) < 2)
    {
      assert_prompt (fixture);
      triage_test_sleep (500);
    }
  assert_prompt (fixture);

  pg_proxy_heal (fixture->proxy);
  post_again_until_stored (fixture, id);
}

/* Far's first host takes new connections and answers no query, its second
 * is the database's socket: libpq takes the first for good (it answered
 * the startup exchange), so the try whose first statements go unanswered
 * is given up after SETUP_BOUND_S, and the next starts at the second. */
static void
test_setup_unanswered_fails_over (Reconnect     *fixture,
                                  gconstpointer  data)
{
  g_autofree char *id = NULL;

  g_atomic_int_set (&fixture->proxy->mute, TRUE);
  id = stall (fixture);
  post_again_until_stored (fixture, id);
  /* The first host was tried, once. */
  g_assert_cmpint (g_atomic_int_get (&fixture->proxy->answered), ==, 1);
}

#ifndef TRIAGE_TEST_SANITIZED
/* Far's threads that make a connection (triage-pg-dial.c names them). */
static guint
count_dial_threads (Reconnect *fixture)
{
  g_autofree char *tasks = g_strdup_printf ("/proc/%d/task",
                                            (int) triage_test_server_get_pid (fixture->far));
  g_autoptr(GDir) dir = g_dir_open (tasks, 0, NULL);
  const char *task;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((task = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (tasks, task, "comm", NULL);
      g_autofree char *name = NULL;

      /* A thread that ended meanwhile has no name to read. */
      if (g_file_get_contents (path, &name, NULL, NULL) &&
          g_str_has_prefix (name, "triage-pg-dial"))
        n++;
    }
  return n;
}

/* The lookups slow-lookup.c held so far. */
static gsize
count_held_lookups (Reconnect *fixture)
{
  g_autofree char *held = NULL;
  gsize length = 0;

  if (!g_file_get_contents (fixture->held, &held, &length, NULL))
    return 0;
  return length;
}

/* Once slow-lookup.c holds a lookup of far's: for three tries' worth
 * (each given connect_timeout, the next a second later), requests keep far
 * trying, and no try starts while the thread of the one whose lookup hangs
 * runs (one thread, one lookup held, not one a try). Far answers all
 * along. */
static void
hold_for_three_tries (Reconnect  *fixture,
                      const char *id)
{
  gint64 give_up = g_get_monotonic_time () + (SLACK_S + RECOVER_S) * G_USEC_PER_SEC;

  while (!g_file_test (fixture->held, G_FILE_TEST_EXISTS))
    {
      /* A wait for a file, polled: nothing else tells. */
      g_assert_cmpint (g_get_monotonic_time (), <, give_up);
      triage_test_sleep (50);
    }
  give_up = g_get_monotonic_time () + 3 * (CONNECT_TIMEOUT_S + 1) * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < give_up)
    {
      SrvTimedReply reply;

      assert_prompt (fixture);
      srv_post_within (fixture->far, fixture->key, id, "Reconnect", PROMPT_S, &reply);
      srv_assert_timed_reply (&reply, 503, "STORAGE_UNAVAILABLE");
      g_free (reply.body);
      g_assert_cmpuint (count_dial_threads (fixture), <=, 1);
      g_assert_cmpuint (count_held_lookups (fixture), ==, 1);
      triage_test_sleep (200);
    }
}

/* The lookup of far's database host hangs (a partition that cuts DNS) as
 * far tries in the background after a stall: far answers meanwhile, and
 * connects once the lookup answers. */
static void
test_lookup_hangs (Reconnect     *fixture,
                   gconstpointer  data)
{
  g_autofree char *id = NULL;

  g_assert_true (g_file_set_contents (fixture->hold, "", 0, NULL));
  id = stall (fixture);
  hold_for_three_tries (fixture, id);

  g_assert_true (g_unlink (fixture->hold) == 0);
  pg_proxy_heal (fixture->proxy);
  post_again_until_stored (fixture, id);
}

/* The lookup hangs as far connects again while the database is taken as
 * answering (its sessions ended): the connection awaited is given up at
 * connect_timeout (a stall), and its thread, still in the lookup, keeps
 * any other try from starting until it is done. */
static void
test_lookup_hangs_awaited (Reconnect     *fixture,
                           gconstpointer  data)
{
  g_autofree char *id = atp_new_uuid ();
  g_autofree char *ended = NULL;
  g_autoptr(GError) error = NULL;
  gint64 give_up;
  SrvTimedReply reply;

  g_free (srv_post (fixture->far, fixture->key, "Before"));
  g_assert_true (g_file_set_contents (fixture->hold, "", 0, NULL));
  ended = triage_test_server_run_sql (fixture->near,
                                      "SELECT COUNT (pg_terminate_backend (pid)) "
                                      "FROM pg_stat_activity WHERE pid <> pg_backend_pid () "
                                      "AND datname = current_database ()", &error);
  g_assert_no_error (error);
  g_test_message ("sessions ended: %s", ended);
  srv_post_within (fixture->far, fixture->key, id, "Reconnect",
                   CONNECT_TIMEOUT_S + SLACK_S, &reply);
  srv_assert_timed_reply (&reply, 503, "STORAGE_UNAVAILABLE");
  g_free (reply.body);
  hold_for_three_tries (fixture, id);

  /* The lookup answers, and the try given up connects (the proxy answers
   * the startup itself, then says nothing): it is closed, not set up, so
   * the next try follows at once, not once the first statement of a
   * connection nobody wants has run out its wait (SETUP_BOUND_S). */
  g_atomic_int_set (&fixture->proxy->mute, TRUE);
  g_assert_true (g_unlink (fixture->hold) == 0);
  give_up = g_get_monotonic_time () + SETUP_BOUND_S / 2 * G_USEC_PER_SEC;
  while (g_atomic_int_get (&fixture->proxy->answered) < 2)
    {
      if (g_get_monotonic_time () >= give_up)
        g_error ("no new try within %d s of the given-up try's lookup answering (%d connected)",
                 SETUP_BOUND_S / 2, g_atomic_int_get (&fixture->proxy->answered));
      /* Requests make far try. */
      srv_post_within (fixture->far, fixture->key, id, "Reconnect", PROMPT_S, &reply);
      srv_assert_timed_reply (&reply, 503, "STORAGE_UNAVAILABLE");
      g_free (reply.body);
      triage_test_sleep (100);
    }

  pg_proxy_heal (fixture->proxy);
  post_again_until_stored (fixture, id);
}
#endif

#ifdef TRIAGE_TEST_SANITIZED
static void
test_lookup_skipped (void)
{
  g_test_skip ("slow-lookup.c is not preloaded into a server built with sanitizers (their "
               "runtime must come first)");
}
#endif

int
main (int   argc,
      char *argv[])
{
  triage_test_postgres_init (&argc, &argv, "a PostgreSQL that answers no query");
  g_test_add ("/server/pg-reconnect/setup-unanswered", Reconnect, "127.0.0.1", reconnect_setup,
              test_setup_unanswered, reconnect_teardown);
  g_test_add ("/server/pg-reconnect/setup-unanswered-fails-over", Reconnect, TWO_HOSTS,
              reconnect_setup, test_setup_unanswered_fails_over, reconnect_teardown);
#ifdef TRIAGE_TEST_SANITIZED
  g_test_add_func ("/server/pg-reconnect/lookup-hangs", test_lookup_skipped);
  g_test_add_func ("/server/pg-reconnect/lookup-hangs-awaited", test_lookup_skipped);
#else
  g_test_add ("/server/pg-reconnect/lookup-hangs", Reconnect, LOOKUP_NAME, reconnect_setup,
              test_lookup_hangs, reconnect_teardown);
  g_test_add ("/server/pg-reconnect/lookup-hangs-awaited", Reconnect, LOOKUP_NAME,
              reconnect_setup, test_lookup_hangs_awaited, reconnect_teardown);
#endif
  return g_test_run ();
}
