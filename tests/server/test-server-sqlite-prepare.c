/* test-server-sqlite-prepare.c — a statement the database would not prepare
 * is a request's 503, not the server's abort
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SQLite prepares a statement against the schema it read; when another
 * connection changed the schema, the next statement reads it again, and a
 * prepare can then fail on more than bad SQL of ours: an I/O error or a
 * damaged file met reading it, no memory, or a schema that is not ours any
 * more. The SQLite store took every failed prepare for a programming error
 * and aborted the server (g_error ()). Here the schema is changed under the
 * running server, as an operator's ALTER TABLE would: a table renamed away,
 * then back. While it is away, the requests that need it are answered 503
 * STORAGE_UNAVAILABLE (Retry-After: 1), the others are served, and once it
 * is back everything is. And a stream resumed from the event log while the
 * log cannot be read is not told "nothing since" (its events were lost for
 * good): it starts over from the pending set, or is ended to connect again.
 * SQLite only.
 */

#define G_LOG_DOMAIN "test-server-sqlite-prepare"

#include "server-test-util.h"

typedef struct
{
  TriageTestServer *server;
  char             *alice;
  char             *key;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  const char * const alice[] = { "alice", NULL };
  g_autoptr(GError) error = NULL;

  fixture->server = triage_test_server_new (NULL, &error);
  g_assert_no_error (error);
  g_assert_false (triage_test_server_is_postgres (fixture->server));
  g_assert_true (triage_test_server_create_user (fixture->server, "alice", &fixture->alice,
                                                 &error));
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_service (fixture->server, "deploy-bot", alice, NULL,
                                                    NULL, &fixture->key, NULL, &error));
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_assert_true (triage_test_server_stop (fixture->server));
  triage_test_server_free (fixture->server);
  g_free (fixture->alice);
  g_free (fixture->key);
}

static SrvAnswer *
list (Fixture *fixture)
{
  return srv_request (fixture->server, "GET", "/api/v1/client/notifications", fixture->alice, NULL);
}

/* The users' table away before alice's token was ever looked up: the
 * lookup's statement is prepared against the schema read again. */
static void
test_table_away (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *first = NULL, *second = NULL;
  g_autoptr(SrvAnswer) answer = NULL;

  g_free (srv_run_sql (fixture->server, "ALTER TABLE users RENAME TO users_away"));
  /* A service's request: its statements meet the new schema first (the
   * server reads it again), and need no user. */
  first = srv_post (fixture->server, fixture->key, "While away");
  answer = list (fixture);
  srv_assert_unavailable (answer, "Cannot check the token now");
  g_clear_pointer (&answer, srv_answer_free);
  /* Asked again, not kept as failed. */
  answer = list (fixture);
  srv_assert_unavailable (answer, "Cannot check the token now");
  g_clear_pointer (&answer, srv_answer_free);

  g_free (srv_run_sql (fixture->server, "ALTER TABLE users_away RENAME TO users"));
  answer = list (fixture);
  srv_assert_status (answer, 200, NULL);
  g_assert_nonnull (strstr (answer->body, first));
  g_clear_pointer (&answer, srv_answer_free);

  /* The list's own statement (made for each query) away in turn. */
  g_free (srv_run_sql (fixture->server,
                       "ALTER TABLE notification_recipients RENAME TO recipients_away"));
  second = srv_post (fixture->server, fixture->key, "Recipients away");
  answer = list (fixture);
  srv_assert_unavailable (answer, "Cannot read the notifications now");
  g_clear_pointer (&answer, srv_answer_free);
  g_free (srv_run_sql (fixture->server,
                       "ALTER TABLE recipients_away RENAME TO notification_recipients"));
  answer = list (fixture);
  srv_assert_status (answer, 200, NULL);
  g_assert_nonnull (strstr (answer->body, second));
}

/* A resumed SSE stream whose replay cannot be read (the notifications its
 * events refer to are away): an error event and the end, never a replay
 * of none; once they are back, the resume carries the event. */
static void
test_resume_unread (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *first = srv_post (fixture->server, fixture->key, "Before");
  g_autofree char *second = srv_post (fixture->server, fixture->key, "Since");
  g_autofree char *first_event = NULL;
  g_autoptr(SrvEvents) unread = NULL;
  g_autoptr(SrvEvents) resumed = NULL;
  SrvEvent *event;

  first_event = srv_run_sql (fixture->server, "SELECT MIN (id) FROM events");
  g_strchomp (first_event);
  g_free (srv_run_sql (fixture->server, "ALTER TABLE notifications RENAME TO notifications_away"));
  unread = srv_events_open (fixture->server, fixture->alice, NULL, first_event);
  g_assert_cmpuint (unread->status, ==, 200);
  srv_wait_until (unread->ended, "the end of the stream that cannot resume");
  event = srv_find_event (unread, "error", "STORAGE_UNAVAILABLE");
  g_assert_nonnull (event);
  g_assert_null (srv_find_event (unread, "ping", NULL));

  g_free (srv_run_sql (fixture->server, "ALTER TABLE notifications_away RENAME TO notifications"));
  resumed = srv_events_open (fixture->server, fixture->alice, NULL, first_event);
  g_assert_cmpuint (resumed->status, ==, 200);
  srv_wait_until (srv_find_event (resumed, "ping", NULL) != NULL, "the replay");
  event = srv_find_event (resumed, "notification", second);
  g_assert_nonnull (event);
  g_assert_null (srv_find_event (resumed, "notification", first));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/server/sqlite-prepare/table-away", Fixture, NULL, fixture_setup, test_table_away,
              fixture_teardown);
  g_test_add ("/server/sqlite-prepare/resume-unread", Fixture, NULL, fixture_setup,
              test_resume_unread, fixture_teardown);
  return g_test_run ();
}
