/* test-server-sqlite-busy.c — a change the busy SQLite file did not take is
 * never answered as one that was made before
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Another process may hold the server's SQLite file for writing (a second
 * server started on it, an operator's sqlite3 shell, a backup) past the
 * server's busy timeout. A transition that could not be written was taken
 * for one whose request had already ended: the person's answer was 409
 * NOTIFICATION_ALREADY_RESPONDED for a request still pending (an outbox
 * told so drops the answer), a service's invalidation 409 too, an
 * administrator's new user or service 409 "already exists", and an AFP
 * session's next review 422 ("request.iteration: must be greater than 1,
 * … got 2"), which an agent takes as final. Now each is
 * 503 STORAGE_UNAVAILABLE with Retry-After, and is taken once the file is
 * free. The test holds the write lock itself (BEGIN IMMEDIATE on its own
 * connection). SQLite only.
 *
 * The store runs on the server's main loop, and every statement that met
 * the lock waited the whole busy timeout (5 s) for it: an answer waited
 * 10 s (the batch's BEGIN, then the statement on its own), and streams,
 * /healthz and every other client with it, request after request. Now the
 * lock is waited for once; then every change is refused at once until a
 * batch takes the lock again. Counted in the server's log, not timed.
 */

#define G_LOG_DOMAIN "test-server-sqlite-busy"

#include <sqlite3.h>
#include <glib/gstdio.h>

#include "server-test-util.h"

/* What the server logs when a wait for the lock ran out, and when a batch
 * took it again (triage-store-sqlite-batch.c). */
#define HELD "another process has held the database file for writing"
#define FREE "the database file is free again"

#define ARTIFACT "\"artifact\":{\"media_type\":\"text/plain\",\"content\":\"a\"}"

typedef struct
{
  TriageTestServer *server;
  sqlite3          *db;      /* the test's own connection to the server's file */
  char             *dir;
  char             *log;     /* the server's standard error */
  char             *alice;
  char             *key;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  const char * const alice[] = { "alice", NULL };
  /* With @data, on a Unix socket: its peer trusted, the local service. */
  TriageTestServerOptions options = { .unix_socket = data != NULL };
  g_autoptr(GError) error = NULL;

  fixture->dir = g_dir_make_tmp ("test-server-sqlite-busy-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->log = g_build_filename (fixture->dir, "server.log", NULL);
  options.log_file = fixture->log;
  fixture->server = triage_test_server_new (&options, &error);
  g_assert_no_error (error);
  g_assert_false (triage_test_server_is_postgres (fixture->server));
  g_assert_true (triage_test_server_create_user (fixture->server, "alice", &fixture->alice,
                                                 &error));
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_service (fixture->server, "busy-bot", alice, NULL,
                                                    NULL, &fixture->key, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sqlite3_open (triage_test_server_get_database (fixture->server), &fixture->db),
                   ==, SQLITE_OK);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  sqlite3_close (fixture->db);
  g_assert_true (triage_test_server_stop (fixture->server));
  triage_test_server_free (fixture->server);
  g_unlink (fixture->log);
  g_rmdir (fixture->dir);
  g_free (fixture->log);
  g_free (fixture->dir);
  g_free (fixture->alice);
  g_free (fixture->key);
}

static void
run (Fixture    *fixture,
     const char *sql)
{
  char *message = NULL;

  if (sqlite3_exec (fixture->db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
}

static SrvAnswer *
respond (Fixture    *fixture,
         const char *id)
{
  g_autofree char *body = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"ok\"}", id);

  return srv_request (fixture->server, "POST", "/api/v1/client/respond", fixture->alice, body);
}

static SrvAnswer *
invalidate (Fixture    *fixture,
            const char *id)
{
  g_autofree char *path = g_strconcat ("/api/v1/notifications/", id, NULL);

  return srv_request (fixture->server, "PATCH", path, fixture->key, "{\"status\":\"invalidated\"}");
}

/* How many lines of the server's log hold @part: the server logs before it
 * answers, so what an answer received followed is there. */
static guint
count_in_log (Fixture    *fixture,
              const char *part)
{
  g_autofree char *text = NULL;
  guint count = 0;

  if (!g_file_get_contents (fixture->log, &text, NULL, NULL))
    return 0;
  for (const char *p = strstr (text, part); p != NULL; p = strstr (p + 1, part))
    count++;
  return count;
}

/* Under the lock: the answer and the invalidation are 503, the request
 * still pending; once it is gone the answer is taken, and the invalidation
 * is then late. */
static void
test_busy_file (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *id = srv_post (fixture->server, fixture->key, "Busy");
  g_autofree char *other = srv_post (fixture->server, fixture->key, "Busy too");
  g_autoptr(SrvAnswer) answered = NULL, invalidated = NULL, after = NULL, late = NULL;
  g_autofree char *status = NULL, *other_status = NULL, *after_status = NULL;

  run (fixture, "BEGIN IMMEDIATE");
  answered = respond (fixture, id);
  srv_assert_unavailable (answered, "The answer could not be stored now");
  invalidated = invalidate (fixture, other);
  srv_assert_unavailable (invalidated, "The invalidation could not be stored now");
  run (fixture, "ROLLBACK");

  status = srv_status_of (fixture->server, fixture->key, id);
  g_assert_cmpstr (status, ==, "created");
  other_status = srv_status_of (fixture->server, fixture->key, other);
  g_assert_cmpstr (other_status, ==, "created");
  after = respond (fixture, id);
  srv_assert_status (after, 200, NULL);
  after_status = srv_status_of (fixture->server, fixture->key, id);
  g_assert_cmpstr (after_status, ==, "responded");
  late = invalidate (fixture, id);
  srv_assert_status (late, 409, NULL);
}

/* Under a lock held past the busy timeout, the server waits for it once:
 * the changes after the first are refused at once (before, each waited the
 * busy timeout again, twice: the batch's BEGIN, then the statement), each
 * 503 with Retry-After (the new notification's had none). Once the lock is
 * gone the next change takes it, and a lock after that is waited for
 * again (a short one would be taken). */
static void
test_busy_waits_once (Fixture       *fixture,
                      gconstpointer  data)
{
  const char *body = "{\"context\":{\"title\":\"Held\",\"description\":\"D\"},"
                     "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]}";
  g_autofree char *id = srv_post (fixture->server, fixture->key, "Busy");
  g_autofree char *other = srv_post (fixture->server, fixture->key, "Busy too");
  g_autoptr(SrvAnswer) answered = NULL, invalidated = NULL, posted = NULL, again = NULL;
  g_autoptr(SrvAnswer) after = NULL, held_again = NULL;

  g_assert_cmpuint (count_in_log (fixture, HELD), ==, 0);
  run (fixture, "BEGIN IMMEDIATE");
  answered = respond (fixture, id);
  srv_assert_unavailable (answered, "The answer could not be stored now");
  invalidated = invalidate (fixture, other);
  srv_assert_unavailable (invalidated, "The invalidation could not be stored now");
  posted = srv_request (fixture->server, "POST", "/api/v1/notifications", fixture->key, body);
  srv_assert_unavailable (posted, "Cannot store the notification now");
  again = respond (fixture, id);
  srv_assert_unavailable (again, "The answer could not be stored now");
  /* One wait ran out, the first; the others did not wait. */
  g_assert_cmpuint (count_in_log (fixture, HELD), ==, 1);
  g_assert_cmpuint (count_in_log (fixture, FREE), ==, 0);
  run (fixture, "ROLLBACK");

  after = respond (fixture, id);
  srv_assert_status (after, 200, NULL);
  g_assert_cmpuint (count_in_log (fixture, FREE), ==, 1);

  /* Free again: a lock is waited for again, not refused at once. */
  run (fixture, "BEGIN IMMEDIATE");
  held_again = invalidate (fixture, other);
  srv_assert_unavailable (held_again, "The invalidation could not be stored now");
  g_assert_cmpuint (count_in_log (fixture, HELD), ==, 2);
  run (fixture, "ROLLBACK");
}

/* A new notification the database did not take, and a commit that failed
 * (an event the database refused): 503 with Retry-After, as every
 * STORAGE_UNAVAILABLE is (neither had it: a client was not told when to
 * try again). */
static void
test_failed_commit_retry_after (Fixture       *fixture,
                                gconstpointer  data)
{
  const char *body = "{\"context\":{\"title\":\"Lost\",\"description\":\"D\"},"
                     "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]}";
  g_autoptr(SrvAnswer) not_inserted = NULL, refused = NULL, taken = NULL;

  srv_refuse_inserts (fixture->server, "notifications", "no notifications now", FALSE);
  not_inserted = srv_request (fixture->server, "POST", "/api/v1/notifications", fixture->key,
                              body);
  srv_assert_unavailable (not_inserted, "Cannot store the notification now");
  srv_allow_inserts (fixture->server, "notifications");
  srv_refuse_inserts (fixture->server, "events", "no events now", FALSE);
  refused = srv_request (fixture->server, "POST", "/api/v1/notifications", fixture->key, body);
  srv_assert_unavailable (refused, "The change could not be stored");
  srv_allow_inserts (fixture->server, "events");
  taken = srv_request (fixture->server, "POST", "/api/v1/notifications", fixture->key, body);
  srv_assert_status (taken, 201, NULL);
}

/* A session's next review under the lock: 503, not 422 "must be greater"
 * (its iteration is not known to be taken); taken once the lock is gone. A
 * new session's first review: 503 with Retry-After too. */
static void
test_busy_review (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(SrvAnswer) first = NULL, refused = NULL, taken = NULL, new_session = NULL;
  g_autoptr(JsonObject) review = NULL;
  g_autofree char *body = NULL;

  first = srv_request (fixture->server, "POST", "/api/v1/afp/reviews", fixture->key,
                       "{\"request\":{\"iteration\":1," ARTIFACT "}}");
  srv_assert_status (first, 201, NULL);
  review = srv_parse_object (first->body);
  body = g_strdup_printf ("{\"session_id\":\"%s\",\"request\":{\"iteration\":2," ARTIFACT "}}",
                          json_object_get_string_member (review, "session_id"));

  run (fixture, "BEGIN IMMEDIATE");
  refused = srv_request (fixture->server, "POST", "/api/v1/afp/reviews", fixture->key, body);
  srv_assert_unavailable (refused, "The review could not be stored now");
  /* A new session's first review, the same: try again (Retry-After). */
  new_session = srv_request (fixture->server, "POST", "/api/v1/afp/reviews", fixture->key,
                             "{\"request\":{\"iteration\":1," ARTIFACT "}}");
  srv_assert_unavailable (new_session, "Cannot store the review session now");
  run (fixture, "ROLLBACK");

  taken = srv_request (fixture->server, "POST", "/api/v1/afp/reviews", fixture->key, body);
  srv_assert_status (taken, 201, NULL);
}

/* An administrator's new user and new service under the lock: 503, not 409
 * "already exists" (a script told so gives up on a user that was never
 * made); made once the lock is gone, and only then a second time 409. */
static void
test_busy_admin (Fixture       *fixture,
                 gconstpointer  data)
{
  const char *admin = triage_test_server_get_admin_token (fixture->server);
  const char *user = "{\"id\":\"bob\"}";
  const char *service = "{\"name\":\"busy-admin-bot\",\"description\":\"d\","
                        "\"recipients\":[\"alice\"]}";
  g_autoptr(SrvAnswer) user_refused = NULL, service_refused = NULL;
  g_autoptr(SrvAnswer) user_made = NULL, service_made = NULL, user_again = NULL, service_again = NULL;

  run (fixture, "BEGIN IMMEDIATE");
  user_refused = srv_request (fixture->server, "POST", "/api/v1/admin/users", admin, user);
  srv_assert_unavailable (user_refused, "Cannot store the user now");
  service_refused = srv_request (fixture->server, "POST", "/api/v1/services", admin, service);
  srv_assert_unavailable (service_refused, "Cannot store the service now");
  run (fixture, "ROLLBACK");

  user_made = srv_request (fixture->server, "POST", "/api/v1/admin/users", admin, user);
  srv_assert_status (user_made, 201, NULL);
  service_made = srv_request (fixture->server, "POST", "/api/v1/services", admin, service);
  srv_assert_status (service_made, 201, NULL);
  user_again = srv_request (fixture->server, "POST", "/api/v1/admin/users", admin, user);
  srv_assert_status (user_again, 409, "USER_ALREADY_EXISTS");
  service_again = srv_request (fixture->server, "POST", "/api/v1/services", admin, service);
  srv_assert_status (service_again, 409, "SERVICE_ALREADY_EXISTS");
}

/* The trusted local peer's first request as a new service, under the lock:
 * 503 with Retry-After, not 500 "Cannot register the local service"; the
 * service registered and the request taken once the lock is gone. */
static void
test_busy_local_service (Fixture       *fixture,
                         gconstpointer  data)
{
  const char *body = "{\"context\":{\"title\":\"Local\",\"description\":\"D\"},"
                     "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]}";
  g_autoptr(SrvAnswer) refused = NULL, taken = NULL;

  run (fixture, "BEGIN IMMEDIATE");
  refused = srv_request (fixture->server, "POST", "/api/v1/notifications", NULL, body);
  srv_assert_unavailable (refused, "Cannot look up or register the local service now");
  run (fixture, "ROLLBACK");
  taken = srv_request (fixture->server, "POST", "/api/v1/notifications", NULL, body);
  srv_assert_status (taken, 201, NULL);
}

/* A server started on a file another process holds for writing: it waits
 * the busy timeout, then says who holds it and what to do, not "database
 * error: database is locked" (nor that it refuses changes "at once", as a
 * serving one does). */
static void
test_busy_start (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-server-sqlite-busy-XXXXXX", &error);
  g_autofree char *path = NULL, *log = NULL, *text = NULL;
  TriageTestServerOptions options = { 0 };
  TriageTestServer *server;
  sqlite3 *db = NULL;
  char *message = NULL;

  g_assert_no_error (error);
  path = g_build_filename (dir, "triage.db", NULL);
  log = g_build_filename (dir, "server.log", NULL);
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (sqlite3_exec (db, "PRAGMA journal_mode=WAL; CREATE TABLE held (a); BEGIN IMMEDIATE",
                    NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s", message);
  options.database = path;
  options.log_file = log;
  server = triage_test_server_new (&options, &error);
  g_assert_null (server);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
  g_assert_true (g_file_get_contents (log, &text, NULL, NULL));
  if (strstr (text, "another process has held the database file") == NULL ||
      strstr (text, "start it again once that process lets go") == NULL ||
      strstr (text, "refused at once") != NULL)
    g_error ("the server's log does not say the file is held: %s", text);
  sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
  sqlite3_close (db);
  triage_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  /* For the server: the batch it cannot open is warned of, and that is not
   * fatal for it here. */
  g_unsetenv ("G_DEBUG");

  g_test_add ("/server/sqlite-busy/busy-file", Fixture, NULL, fixture_setup, test_busy_file,
              fixture_teardown);
  g_test_add ("/server/sqlite-busy/busy-waits-once", Fixture, NULL, fixture_setup,
              test_busy_waits_once, fixture_teardown);
  g_test_add ("/server/sqlite-busy/failed-commit-retry-after", Fixture, NULL, fixture_setup,
              test_failed_commit_retry_after, fixture_teardown);
  g_test_add_func ("/server/sqlite-busy/busy-start", test_busy_start);
  g_test_add ("/server/sqlite-busy/busy-review", Fixture, NULL, fixture_setup, test_busy_review,
              fixture_teardown);
  g_test_add ("/server/sqlite-busy/busy-admin", Fixture, NULL, fixture_setup, test_busy_admin,
              fixture_teardown);
  g_test_add ("/server/sqlite-busy/busy-local-service", Fixture, "local", fixture_setup,
              test_busy_local_service, fixture_teardown);
  return g_test_run ();
}
