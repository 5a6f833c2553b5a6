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
 * database rolled back; and in hold-refused-rest the writes of that batch
 * after it are refused, not committed on their own. SQLite only.
 */

#define G_LOG_DOMAIN "test-server-sqlite-unbatched"

#include <glib/gstdio.h>

#include "server-test-util.h"

#ifndef TRIAGE_TEST_SANITIZED
/* The body of a request with @id. */
static char *
request_with_id (const char *id)
{
  return g_strdup_printf ("{\"id\":\"%s\",\"context\":{\"title\":\"Unbatched\","
                          "\"description\":\"D\"},\"actions\":[{\"id\":\"ok\","
                          "\"label\":\"OK\",\"response_type\":\"simple\"}]}", id);
}

static SrvAnswer *
post_with_id (TriageTestServer *server,
              const char       *key,
              const char       *id)
{
  g_autofree char *body = request_with_id (id);

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
  /* On a Unix socket: the connections of hold-refused-rest (server-test-raw.h). */
  TriageTestServerOptions options = { .log_file = log, .unix_socket = TRUE };
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

/* The rest of that batch, with no transaction to hold it in (its BEGIN
 * refused): a second request read in the same turn of the server's main
 * loop, in the batch the first one's insert made the database roll back,
 * was committed on its own, stored while its client was told 503 "nothing
 * was changed", and without its event (a stream never heard of it). Now it
 * is refused (503, as the batch's), not stored, and taken when sent again. */
static void
test_hold_refused_rest (void)
{
  const char *doomed = "d1e2f3a4-b5c6-4d7e-8f90-a1b2c3d4e5f6";
  const char *rest = "e2f3a4b5-c6d7-4e8f-9a01-b2c3d4e5f6a7";
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("triage-unbatched-XXXXXX", &error);
  g_autofree char *log = g_build_filename (dir, "server.log", NULL);
  g_autofree char *refuse_hold = g_build_filename (dir, "refuse-hold", NULL);
  g_autofree char *doomed_body = request_with_id (doomed);
  g_autofree char *rest_body = request_with_id (rest);
  g_autofree char *trigger = NULL;
  g_autoptr(TriageTestServer) server = NULL;
  g_autoptr(SrvRaw) first = NULL, second = NULL;
  g_autoptr(SrvAnswer) refused = NULL, refused_rest = NULL, taken = NULL, taken_rest = NULL;
  g_autoptr(SrvEvents) events = NULL;
  g_autofree char *key = NULL, *token = NULL;
  guint64 failures;

  g_assert_no_error (error);
  server = start_server (dir, log, &token, &key);
  /* The insert of the first request alone rolls its transaction back. */
  trigger = g_strdup_printf ("CREATE TRIGGER refuse_doomed BEFORE INSERT ON notifications"
                             " WHEN NEW.id = '%s' BEGIN SELECT RAISE (ROLLBACK, 'doomed by the"
                             " test'); END", doomed);
  g_free (srv_run_sql (server, trigger));
  g_assert_true (g_file_set_contents (refuse_hold, "", 0, NULL));
  failures = srv_commit_failures (server);

  first = srv_raw_open_served (server, token);
  second = srv_raw_open_served (server, token);
  srv_pause_server (server);
  srv_raw_send (first, "POST", "/api/v1/notifications", key, doomed_body);
  srv_raw_send (second, "POST", "/api/v1/notifications", key, rest_body);
  srv_resume_server (server);

  refused = srv_raw_read (first);
  srv_assert_unavailable (refused, "try again");
  refused_rest = srv_raw_read (second);
  srv_assert_unavailable (refused_rest, "try again");
  g_assert_cmpuint (count_rows (server, "SELECT count(*) FROM notifications"), ==, 0);
  g_assert_cmpuint (count_rows (server, "SELECT count(*) FROM events"), ==, 0);
  g_assert_cmpuint (srv_count_in_file (log, "cannot hold the rest of a batch"), ==, 1);
  srv_wait_until (srv_commit_failures (server) > failures, "the batch is rolled back");

  /* Writes are taken again: both, sent again, are stored with their events. */
  g_assert_cmpint (g_remove (refuse_hold), ==, 0);
  g_free (srv_run_sql (server, "DROP TRIGGER refuse_doomed"));
  taken = post_with_id (server, key, doomed);
  srv_assert_status (taken, 201, NULL);
  taken_rest = post_with_id (server, key, rest);
  srv_assert_status (taken_rest, 201, NULL);
  events = srv_events_open (server, token, NULL, "0");
  g_assert_cmpuint (events->status, ==, 200);
  srv_wait_until (srv_find_event (events, "notification", doomed) != NULL &&
                  srv_find_event (events, "notification", rest) != NULL,
                  "the stream resumed from the log's start hears both requests");
  g_clear_pointer (&events, srv_events_free);

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

static void
test_hold_refused_rest (void)
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
  g_test_add_func ("/server/sqlite-unbatched/hold-refused-rest", test_hold_refused_rest);
  return g_test_run ();
}
