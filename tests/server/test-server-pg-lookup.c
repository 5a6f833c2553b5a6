/* test-server-pg-lookup.c — a notification the database could not look up
 * is never called missing
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A client told that a notification does not exist (404
 * NOTIFICATION_NOT_FOUND) gives up on it: the app's outbox drops the
 * person's answer for good, an agent stops waiting for one. So a server
 * whose lookup of a notification failed (the database did not answer it: a
 * lock or statement timeout, a session ended inside a batch, a stall) must
 * answer 503 STORAGE_UNAVAILABLE with a Retry-After, on the client's GET and
 * answer and on the service's GET and PATCH; once the database answers, the
 * answer is taken, once, and an unknown id is 404 again.
 *
 * The lookups are made to fail by a lock the test holds on the
 * notifications table (LOCK TABLE … ACCESS EXCLUSIVE, as a migration or an
 * operator's maintenance takes), with the server's lock_timeout lowered in
 * its URI, as tests/server/test-server-pg-auth.c does for the tokens. The
 * trusted local peer's service is looked up the same way (a lock on the
 * services table): 503, not 500.
 */

#define G_LOG_DOMAIN "test-server-pg-lookup"

#include "pg-lock-test-util.h"

#define UNKNOWN_ID "00000000-0000-4000-8000-000000000000"

typedef PgLockFixture Fixture;

/* @data: non-NULL for a server on a Unix socket (its peer trusted). */
static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  pg_lock_fixture_setup (fixture, "lookup-bot", data != NULL);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  pg_lock_fixture_teardown (fixture);
}

static SrvAnswer *
respond (Fixture    *fixture,
         const char *id)
{
  g_autofree char *body = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"ok\"}", id);

  return srv_request (fixture->server, "POST", "/api/v1/client/respond", fixture->alice, body);
}

static SrvAnswer *
client_get (Fixture    *fixture,
            const char *id)
{
  g_autofree char *path = g_strconcat ("/api/v1/client/notifications/", id, NULL);

  return srv_request (fixture->server, "GET", path, fixture->alice, NULL);
}

static SrvAnswer *
service_get (Fixture    *fixture,
             const char *key,
             const char *id)
{
  g_autofree char *path = g_strconcat ("/api/v1/notifications/", id, NULL);

  return srv_request (fixture->server, "GET", path, key, NULL);
}

static SrvAnswer *
service_patch (Fixture    *fixture,
               const char *key,
               const char *id)
{
  g_autofree char *path = g_strconcat ("/api/v1/notifications/", id, NULL);

  return srv_request (fixture->server, "PATCH", path, key, "{\"status\":\"invalidated\"}");
}

/* An existing notification whose lookup fails: its person's GET and answer,
 * its service's GET and PATCH, another service's, and an unknown id are
 * each 503 (none can be told from the others); nothing was changed. Once
 * the lock is gone the answer is taken once (the same answer again gets the
 * first one), the service sees it, and an unknown id is 404. */
static void
test_notification_lookup_fails (Fixture       *fixture,
                                gconstpointer  data)
{
  g_autofree char *id = srv_post (fixture->server, fixture->key, "Lookup");
  g_autoptr(SrvAnswer) got = NULL, answered = NULL, seen = NULL, patched = NULL, other = NULL;
  g_autoptr(SrvAnswer) unknown = NULL, unknown_service = NULL;
  g_autoptr(SrvAnswer) after = NULL, again = NULL, after_seen = NULL, after_got = NULL;
  g_autoptr(SrvAnswer) after_unknown = NULL, after_unknown_service = NULL, late = NULL;
  g_autoptr(JsonObject) first = NULL, second = NULL, view = NULL;

  pg_lock_table (fixture, "notifications");
  got = client_get (fixture, id);
  srv_assert_unavailable (got, "Cannot read the notification now");
  answered = respond (fixture, id);
  srv_assert_unavailable (answered, "Cannot read the notification now");
  seen = service_get (fixture, fixture->key, id);
  srv_assert_unavailable (seen, "Cannot read the notification now");
  patched = service_patch (fixture, fixture->key, id);
  srv_assert_unavailable (patched, "Cannot read the notification now");
  other = service_get (fixture, fixture->other_key, id);
  srv_assert_unavailable (other, "Cannot read the notification now");
  unknown = client_get (fixture, UNKNOWN_ID);
  srv_assert_unavailable (unknown, "Cannot read the notification now");
  unknown_service = service_get (fixture, fixture->key, UNKNOWN_ID);
  srv_assert_unavailable (unknown_service, "Cannot read the notification now");
  pg_lock_release (fixture);

  after_got = client_get (fixture, id);
  srv_assert_status (after_got, 200, NULL);
  after = respond (fixture, id);
  srv_assert_status (after, 200, NULL);
  first = srv_parse_object (after->body);
  g_assert_cmpstr (json_object_get_string_member (first, "status"), ==, "responded");
  /* The same answer again (an outbox's retry) gets the first one. */
  again = respond (fixture, id);
  srv_assert_status (again, 200, NULL);
  second = srv_parse_object (again->body);
  g_assert_cmpstr (json_object_get_string_member (second, "responded_at"), ==,
                   json_object_get_string_member (first, "responded_at"));
  after_seen = service_get (fixture, fixture->key, id);
  srv_assert_status (after_seen, 200, NULL);
  view = srv_parse_object (after_seen->body);
  g_assert_cmpstr (json_object_get_string_member (view, "status"), ==, "responded");
  /* Now answered: the service's invalidation is late. */
  late = service_patch (fixture, fixture->key, id);
  srv_assert_status (late, 409, NULL);
  after_unknown = client_get (fixture, UNKNOWN_ID);
  srv_assert_status (after_unknown, 404, "NOTIFICATION_NOT_FOUND");
  after_unknown_service = service_get (fixture, fixture->key, UNKNOWN_ID);
  srv_assert_status (after_unknown_service, 404, "NOTIFICATION_NOT_FOUND");
}

/* An AFP review whose lookup fails (its service's GET, the way every
 * protocol's own endpoint reads its requests; its session's GET, which reads
 * the latest review): 503, then 200. */
static void
test_review_lookup_fails (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(SrvAnswer) posted = NULL, got = NULL, after = NULL, session = NULL;
  g_autoptr(SrvAnswer) after_session = NULL;
  g_autoptr(JsonObject) review = NULL;
  g_autofree char *path = NULL, *session_path = NULL;

  posted = srv_request (fixture->server, "POST", "/api/v1/afp/reviews", fixture->key,
                        "{\"request\":{\"iteration\":1,\"artifact\":"
                        "{\"media_type\":\"text/plain\",\"content\":\"a\"}}}");
  srv_assert_status (posted, 201, NULL);
  review = srv_parse_object (posted->body);
  path = g_strconcat ("/api/v1/afp/reviews/", json_object_get_string_member (review, "id"), NULL);
  session_path = g_strconcat ("/api/v1/afp/sessions/",
                              json_object_get_string_member (review, "session_id"), NULL);
  pg_lock_table (fixture, "notifications");
  got = srv_request (fixture->server, "GET", path, fixture->key, NULL);
  srv_assert_unavailable (got, "Cannot read the notification now");
  session = srv_request (fixture->server, "GET", session_path, fixture->key, NULL);
  srv_assert_unavailable (session, "Cannot read the notification now");
  pg_lock_release (fixture);
  after = srv_request (fixture->server, "GET", path, fixture->key, NULL);
  srv_assert_status (after, 200, NULL);
  after_session = srv_request (fixture->server, "GET", session_path, fixture->key, NULL);
  srv_assert_status (after_session, 200, NULL);
}

/* A service's invalidation whose lookup failed is not lost as a 404: once
 * the lock is gone it is taken, and the person's answer is then late. */
static void
test_invalidation_after_lock (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autofree char *id = srv_post (fixture->server, fixture->key, "Invalidate");
  g_autoptr(SrvAnswer) patched = NULL, after = NULL, answered = NULL;

  pg_lock_table (fixture, "notifications");
  patched = service_patch (fixture, fixture->key, id);
  srv_assert_unavailable (patched, "Cannot read the notification now");
  pg_lock_release (fixture);
  after = service_patch (fixture, fixture->key, id);
  srv_assert_status (after, 200, NULL);
  answered = respond (fixture, id);
  srv_assert_status (answered, 409, NULL);
}

/* A change that cannot be written while the notification still reads (a
 * lock that lets readers in, as CREATE INDEX takes): the answer and the
 * invalidation are 503 (their batch's commit fails), not a 409 saying the
 * notification has ended (the app's outbox drops an answer told so); once
 * the lock is gone the answer is taken. (A guard: the old code did so too.) */
static void
test_change_not_written (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *id = srv_post (fixture->server, fixture->key, "Unwritten");
  g_autoptr(SrvAnswer) answered = NULL, patched = NULL, after = NULL, seen = NULL;
  g_autoptr(JsonObject) view = NULL;

  /* SHARE: readers pass, writers wait (and give up) */
  pg_lock_table_in (fixture, "notifications", "SHARE");
  answered = respond (fixture, id);
  srv_assert_status (answered, 503, "STORAGE_UNAVAILABLE");
  patched = service_patch (fixture, fixture->key, id);
  srv_assert_status (patched, 503, "STORAGE_UNAVAILABLE");
  pg_lock_release (fixture);

  after = respond (fixture, id);
  srv_assert_status (after, 200, NULL);
  seen = service_get (fixture, fixture->key, id);
  srv_assert_status (seen, 200, NULL);
  view = srv_parse_object (seen->body);
  g_assert_cmpstr (json_object_get_string_member (view, "status"), ==, "responded");
}

/* The trusted local peer's service, not yet known, whose lookup fails: 503
 * with a Retry-After (not 500 "Cannot register"); once the lock is gone it
 * is registered and its notification taken. */
static void
test_local_service_lookup_fails (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autoptr(SrvAnswer) posted = NULL, after = NULL;
  const char *body = "{\"context\":{\"title\":\"Local\",\"description\":\"D\"},"
                     "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]}";

  pg_lock_table (fixture, "services");
  posted = srv_request (fixture->server, "POST", "/api/v1/notifications", NULL, body);
  srv_assert_unavailable (posted, "Cannot look up or register the local service now");
  pg_lock_release (fixture);
  after = srv_request (fixture->server, "POST", "/api/v1/notifications", NULL, body);
  srv_assert_status (after, 201, NULL);
}

int
main (int   argc,
      char *argv[])
{
  triage_test_postgres_init (&argc, &argv, "a PostgreSQL whose lookups fail");
  g_test_add ("/server/pg-lookup/notification-lookup-fails", Fixture, NULL, fixture_setup,
              test_notification_lookup_fails, fixture_teardown);
  g_test_add ("/server/pg-lookup/review-lookup-fails", Fixture, NULL, fixture_setup,
              test_review_lookup_fails, fixture_teardown);
  g_test_add ("/server/pg-lookup/invalidation-after-lock", Fixture, NULL, fixture_setup,
              test_invalidation_after_lock, fixture_teardown);
  g_test_add ("/server/pg-lookup/change-not-written", Fixture, NULL, fixture_setup,
              test_change_not_written, fixture_teardown);
  g_test_add ("/server/pg-lookup/local-service-lookup-fails", Fixture, "unix", fixture_setup,
              test_local_service_lookup_fails, fixture_teardown);
  return g_test_run ();
}
