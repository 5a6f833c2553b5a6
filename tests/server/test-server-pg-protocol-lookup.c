/* test-server-pg-protocol-lookup.c — an AFP session or an AITP decision the
 * database could not look up is never taken for none
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The lookups the protocols' own endpoints make (an AFP review session, its
 * latest review and its reviews; an AITP request_decision posted before)
 * answered "none" when the database did not answer them. Then an existing
 * session was 404 SESSION_NOT_FOUND (an agent told so starts over and loses
 * the session's history), or 200 with no reviews and no issued ids; and a
 * repeat check unread was taken as "new". Each now answers 503
 * STORAGE_UNAVAILABLE with Retry-After, and the right answer once the
 * database answers. The lookups are made to fail by a lock the test holds
 * (pg-lock-test-util.h).
 */

#define G_LOG_DOMAIN "test-server-pg-protocol-lookup"

#include "pg-lock-test-util.h"

#define REVIEWS "/api/v1/afp/reviews"
#define DECISIONS "/api/v1/aitp/decisions"
#define ARTIFACT "\"artifact\":{\"media_type\":\"text/plain\",\"content\":\"a\"}"

typedef PgLockFixture Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  pg_lock_fixture_setup (fixture, "protocol-bot", FALSE);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  pg_lock_fixture_teardown (fixture);
}

/* Starts a session with its first review; returns the session's id. */
static char *
start_session (Fixture *fixture)
{
  g_autoptr(SrvAnswer) posted = srv_request (fixture->server, "POST", REVIEWS, fixture->key,
                                             "{\"request\":{\"iteration\":1," ARTIFACT "}}");
  g_autoptr(JsonObject) review = NULL;

  srv_assert_status (posted, 201, NULL);
  review = srv_parse_object (posted->body);
  return g_strdup (json_object_get_string_member (review, "session_id"));
}

static SrvAnswer *
post_iteration (Fixture    *fixture,
                const char *session,
                int         iteration)
{
  g_autofree char *body = g_strdup_printf ("{\"session_id\":\"%s\",\"request\":{\"iteration\":%d,"
                                           ARTIFACT "}}", session, iteration);

  return srv_request (fixture->server, "POST", REVIEWS, fixture->key, body);
}

static SrvAnswer *
get_session (Fixture    *fixture,
             const char *session)
{
  g_autofree char *path = g_strconcat ("/api/v1/afp/sessions/", session, NULL);

  return srv_request (fixture->server, "GET", path, fixture->key, NULL);
}

/* A session whose own row cannot be read: neither its GET nor its next
 * review is told "no such session"; both go through once it can be. */
static void
test_session_lookup_fails (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *session = start_session (fixture);
  g_autoptr(SrvAnswer) got = NULL, posted = NULL, after_got = NULL, after_posted = NULL;
  g_autoptr(JsonObject) next = NULL;

  pg_lock_table (fixture, "afp_sessions");
  got = get_session (fixture, session);
  srv_assert_unavailable (got, "Cannot read the review session now");
  posted = post_iteration (fixture, session, 2);
  srv_assert_unavailable (posted, "Cannot read the review session now");
  pg_lock_release (fixture);

  after_got = get_session (fixture, session);
  srv_assert_status (after_got, 200, NULL);
  after_posted = post_iteration (fixture, session, 2);
  srv_assert_status (after_posted, 201, NULL);
  next = srv_parse_object (after_posted->body);
  g_assert_cmpstr (json_object_get_string_member (next, "session_id"), ==, session);
}

/* A session whose reviews cannot be read is not shown as one without any
 * (200 with an empty list), and its next review is not made as a first. */
static void
test_reviews_lookup_fails (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *session = start_session (fixture);
  g_autoptr(SrvAnswer) got = NULL, posted = NULL, after = NULL;
  g_autoptr(JsonObject) view = NULL;

  pg_lock_table (fixture, "afp_reviews");
  got = get_session (fixture, session);
  srv_assert_status (got, 503, "STORAGE_UNAVAILABLE");
  g_assert_cmpstr (soup_message_headers_get_one (got->headers, "Retry-After"), ==, "1");
  posted = post_iteration (fixture, session, 2);
  srv_assert_status (posted, 503, "STORAGE_UNAVAILABLE");
  pg_lock_release (fixture);

  after = get_session (fixture, session);
  srv_assert_status (after, 200, NULL);
  view = srv_parse_object (after->body);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (view, "reviews")), ==, 1);
}

/* A decision whose repeat check cannot be read is neither stored nor
 * refused as a conflict: 503 saying so; then it is taken, once. */
static void
test_repeat_check_fails (Fixture       *fixture,
                         gconstpointer  data)
{
  static const char body[] =
    "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\","
    "\"request_decision\":{\"id\":\"27ed3deb-39cb-4968-90dc-9cb456a470f2\","
    "\"title\":\"Please confirm\",\"description\":\"Eat the cookies?\","
    "\"type\":\"confirmation\","
    "\"options\":[{\"id\":\"1\",\"name\":\"Yes\"},{\"id\":\"2\",\"name\":\"No\"}]}}";
  g_autoptr(SrvAnswer) refused = NULL, first = NULL, again = NULL;
  g_autoptr(JsonObject) first_object = NULL, again_object = NULL;
  g_autofree char *count = NULL;

  pg_lock_table (fixture, "notifications");
  refused = srv_request (fixture->server, "POST", DECISIONS, fixture->key, body);
  srv_assert_unavailable (refused, "Cannot check whether this decision was asked before");
  pg_lock_release (fixture);

  first = srv_request (fixture->server, "POST", DECISIONS, fixture->key, body);
  srv_assert_status (first, 201, NULL);
  again = srv_request (fixture->server, "POST", DECISIONS, fixture->key, body);
  srv_assert_status (again, 201, NULL);
  first_object = srv_parse_object (first->body);
  again_object = srv_parse_object (again->body);
  g_assert_cmpstr (json_object_get_string_member (again_object, "id"), ==,
                   json_object_get_string_member (first_object, "id"));
  count = pg_lock_run (fixture, "SELECT COUNT (*) FROM notifications");
  g_assert_cmpstr (count, ==, "1");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/server/pg-protocol-lookup/session-lookup-fails", Fixture, NULL, fixture_setup,
              test_session_lookup_fails, fixture_teardown);
  g_test_add ("/server/pg-protocol-lookup/reviews-lookup-fails", Fixture, NULL, fixture_setup,
              test_reviews_lookup_fails, fixture_teardown);
  g_test_add ("/server/pg-protocol-lookup/repeat-check-fails", Fixture, NULL, fixture_setup,
              test_repeat_check_fails, fixture_teardown);
  return g_test_run ();
}
