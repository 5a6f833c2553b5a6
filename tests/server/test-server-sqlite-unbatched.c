/* test-server-sqlite-unbatched.c — a change the database would not open a
 * batch for is refused, never stored without its events
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * When the database would not open a batch, the store wrote each change on
 * its own, committed at once, and then its events: events that failed then
 * left the change stored without them, and a stream resumed from the event
 * log never heard of it. A change of a notification (a request, an answer)
 * is now refused (503 STORAGE_UNAVAILABLE, nothing stored) until a batch
 * opens again, and the same change sent again is stored with its events.
 * The failure is said once, then counted (triage-log-limit.h): the server
 * runs with G_DEBUG=fatal-warnings, as every test's. The batch is refused by
 * refuse-begin.c, preloaded into the server, and the events by a trigger.
 * So is, in hold-refused, the BEGIN that holds the rest of a batch the
 * database rolled back. SQLite only.
 */

#define G_LOG_DOMAIN "test-server-sqlite-unbatched"

#include <glib/gstdio.h>

#include "server-test-util.h"

#ifndef TRIAGE_TEST_SANITIZED
static SrvAnswer *
post_with_id (TriageTestServer *server,
              const char       *key,
              const char       *id)
{
  g_autofree char *body = g_strdup_printf ("{\"id\":\"%s\",\"context\":{\"title\":\"Unbatched\","
                                           "\"description\":\"D\"},\"actions\":[{\"id\":\"ok\","
                                           "\"label\":\"OK\",\"response_type\":\"simple\"}]}",
                                           id);

  return srv_request (server, "POST", "/api/v1/notifications", key, body);
}

static SrvAnswer *
respond (TriageTestServer *server,
         const char       *token,
         const char       *id)
{
  g_autofree char *body = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"ok\"}", id);

  return srv_request (server, "POST", "/api/v1/client/respond", token, body);
}

/* A server whose SQLite is behind refuse-begin.c, with the files that
 * refuse its BEGINs in @dir, its log in @log, alice and deploy-bot (@key). */
static TriageTestServer *
start_server (const char *dir,
              const char *log,
              char      **token,
              char      **key)
{
  const char * const alice[] = { "alice", NULL };
  g_autofree char *refuse = g_build_filename (dir, "refuse-begin", NULL);
  g_autofree char *refuse_hold = g_build_filename (dir, "refuse-hold", NULL);
  TriageTestServerOptions options = { .log_file = log };
  g_autoptr(GError) error = NULL;
  TriageTestServer *server;

  /* For the server alone (the environment its launcher copies). */
  g_setenv ("LD_PRELOAD", REFUSE_BEGIN_PATH, TRUE);
  g_setenv ("TRIAGE_TEST_REFUSE_BEGIN", refuse, TRUE);
  g_setenv ("TRIAGE_TEST_REFUSE_HOLD", refuse_hold, TRUE);
  server = triage_test_server_new (&options, &error);
  g_unsetenv ("LD_PRELOAD");
  g_unsetenv ("TRIAGE_TEST_REFUSE_BEGIN");
  g_unsetenv ("TRIAGE_TEST_REFUSE_HOLD");
  g_assert_no_error (error);
  g_assert_false (triage_test_server_is_postgres (server));
  g_assert_true (triage_test_server_create_user (server, "alice", token, &error));
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_service (server, "deploy-bot", alice, NULL, NULL, key,
                                                    NULL, &error));
  g_assert_no_error (error);
  return server;
}

/* How many rows @sql (a count) finds in the server's database. */
static guint
count_rows (TriageTestServer *server,
            const char       *sql)
{
  g_autofree char *rows = srv_run_sql (server, sql);

  return (guint) g_ascii_strtoull (rows, NULL, 10);
}

static void
test_change_refused (void)
{
  const char *id = "b7a1c3e2-0f4d-4e5a-9c6b-2d8e1f3a5b70";
  const char *answered = "c8b2d4f3-1a5e-4f6b-8d7c-3e9f2a4b6c81";
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("triage-unbatched-XXXXXX", &error);
  g_autofree char *log = g_build_filename (dir, "server.log", NULL);
  g_autofree char *refuse = g_build_filename (dir, "refuse-begin", NULL);
  g_autofree char *status = NULL;
  g_autoptr(TriageTestServer) server = NULL;
  g_autoptr(SrvEvents) events = NULL;
  g_autoptr(SrvAnswer) first = NULL;
  g_autoptr(SrvAnswer) answer = NULL;
  g_autofree char *key = NULL, *token = NULL;

  g_assert_no_error (error);
  server = start_server (dir, log, &token, &key);
  /* Stored with its events while batches open: to be answered below. */
  first = post_with_id (server, key, answered);
  srv_assert_status (first, 201, NULL);

  srv_refuse_inserts (server, "events", "events refused by the test", FALSE);
  g_assert_true (g_file_set_contents (refuse, "", 0, NULL));
  /* No batch: the request and the answer are refused, not stored without
   * their events (before, each was 201 or 200, and the events refused). */
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(SrvAnswer) refused = post_with_id (server, key, id);
      g_autoptr(SrvAnswer) unanswered = respond (server, token, answered);

      srv_assert_unavailable (refused, "try again");
      srv_assert_unavailable (unanswered, "try again");
    }
  g_assert_cmpuint (count_rows (server, "SELECT count(*) FROM notifications"), ==, 1);
  status = srv_status_of (server, key, answered);
  g_assert_cmpstr (status, ==, "created");
  g_assert_cmpuint (srv_count_in_file (log, "cannot open a batch"), ==, 1);
  g_assert_cmpuint (srv_count_in_file (log, "events refused by the test"), ==, 0);

  /* Batches open again: the same request and answer, sent again, are stored
   * with their events, which a stream resumed from the log's start hears. */
  g_assert_cmpint (g_remove (refuse), ==, 0);
  srv_allow_inserts (server, "events");
  answer = post_with_id (server, key, id);
  srv_assert_status (answer, 201, NULL);
  g_clear_pointer (&answer, srv_answer_free);
  answer = respond (server, token, answered);
  srv_assert_status (answer, 200, NULL);
  events = srv_events_open (server, token, NULL, "0");
  g_assert_cmpuint (events->status, ==, 200);
  srv_wait_until (srv_find_event (events, "notification", id) != NULL &&
                  srv_find_event (events, "status_update", answered) != NULL,
                  "the stream resumed from the log's start hears the stored changes");
  g_clear_pointer (&events, srv_events_free);

  g_assert_true (triage_test_server_stop (server));
  g_clear_pointer (&server, triage_test_server_free);
  triage_test_remove_tree (dir);
}

/* A batch the database rolled back (a trigger's RAISE (ROLLBACK) on the
 * request's insert) whose rest could not be held in a transaction again
 * (its BEGIN refused): a warning each, which the first ended the server
 * with (fatal warnings); now said once, then counted, and the request is
 * 503 as for any batch not stored. */
static void
test_hold_refused (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("triage-unbatched-XXXXXX", &error);
  g_autofree char *log = g_build_filename (dir, "server.log", NULL);
  g_autofree char *refuse_hold = g_build_filename (dir, "refuse-hold", NULL);
  g_autoptr(TriageTestServer) server = NULL;
  g_autofree char *key = NULL, *token = NULL;
  g_autofree char *id = NULL;

  g_assert_no_error (error);
  server = start_server (dir, log, &token, &key);
  srv_refuse_inserts (server, "notifications", "notifications refused by the test", TRUE);
  g_assert_true (g_file_set_contents (refuse_hold, "", 0, NULL));
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *title = g_strdup_printf ("Rolled back %u", i);
      g_autofree char *body = g_strdup_printf ("{\"context\":{\"title\":\"%s\",\"description\":"
                                               "\"D\"},\"actions\":[{\"id\":\"ok\",\"label\":"
                                               "\"OK\",\"response_type\":\"simple\"}]}", title);
      g_autoptr(SrvAnswer) answer = srv_request (server, "POST", "/api/v1/notifications", key,
                                                 body);

      srv_assert_unavailable (answer, "try again");
    }
  g_assert_cmpuint (srv_count_in_file (log, "cannot hold the rest of a batch"), ==, 1);
  g_assert_cmpuint (count_rows (server, "SELECT count(*) FROM notifications"), ==, 0);

  g_assert_cmpint (g_remove (refuse_hold), ==, 0);
  srv_allow_inserts (server, "notifications");
  id = srv_post (server, key, "Stored");
  g_assert_nonnull (id);
  g_assert_true (triage_test_server_stop (server));
  g_clear_pointer (&server, triage_test_server_free);
  triage_test_remove_tree (dir);
}
#else
static void
test_change_refused (void)
{
  g_test_skip ("refuse-begin.c is not preloaded into a server built with sanitizers (their "
               "runtime must come first)");
}

static void
test_hold_refused (void)
{
  test_change_refused ();
}
#endif

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/server/sqlite-unbatched/change-refused", test_change_refused);
  g_test_add_func ("/server/sqlite-unbatched/hold-refused", test_hold_refused);
  return g_test_run ();
}
