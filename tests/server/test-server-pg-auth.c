/* test-server-pg-auth.c — a token the database could not look up is never
 * called invalid
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A client told that its token is invalid (401 AUTH_INVALID_TOKEN, or 403
 * AUTH_INSUFFICIENT_PERMISSIONS) drops it: the app stops its stream and asks
 * the person for a new token. So a server whose lookup of a token failed
 * (the database did not answer it: a lock or statement timeout, a session
 * ended inside a batch, a stall) must answer 503 STORAGE_UNAVAILABLE with a
 * Retry-After, whatever the database answers a moment later: the server once
 * asked the database again after the lookup had failed ("does it answer?"),
 * and a database that answered that question made a good token invalid.
 *
 * The lookups are made to fail here by a lock the test holds on the table
 * they read (LOCK TABLE … ACCESS EXCLUSIVE, as a migration or an operator's
 * maintenance takes), with the server's lock_timeout lowered in its URI,
 * while every other question to the database is answered. The sessions the
 * database ends (pg_terminate_backend (), as a restart or a failover does)
 * are the other fault: the request that meets it is served on a new session,
 * or answered 503, never 401. Once the database answers, a wrong token is
 * 401 again, and a service key whose lookup failed works (the failure was
 * not kept).
 */

#define G_LOG_DOMAIN "test-server-pg-auth"

#include "pg-lock-test-util.h"
/* A bound for each wait of the test on the database. */
#define WAIT_S 60

#define UNKNOWN_TOKEN "tk_0000000000000000000000000000000000000000000000"
#define POST_BODY "{\"context\":{\"title\":\"Auth\",\"description\":\"D\"}," \
                  "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]}"

typedef PgLockFixture Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  /* @data: the timeout that ends the lookups' lock waits, lock_timeout's
   * by default. */
  pg_lock_fixture_setup_timeout (fixture, "auth-bot", FALSE, data ? data : "lock_timeout");
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  pg_lock_fixture_teardown (fixture);
}

/* The answer is 503 STORAGE_UNAVAILABLE with a Retry-After: try again. */
static void
assert_unchecked (SrvAnswer *answer)
{
  srv_assert_status (answer, 503, "STORAGE_UNAVAILABLE");
  srv_assert_message (answer, "Cannot check the token now");
  g_assert_nonnull (soup_message_headers_get_one (answer->headers, "Retry-After"));
}

static SrvAnswer *
get_client_list (Fixture    *fixture,
                 const char *token)
{
  return srv_request (fixture->server, "GET", "/api/v1/client/notifications", token, NULL);
}

static SrvAnswer *
post_notification (Fixture    *fixture,
                   const char *key)
{
  return srv_request (fixture->server, "POST", "/api/v1/notifications", key, POST_BODY);
}

/* A user token whose lookup fails: 503 on every way a user's token comes
 * (the header, the stream's ?token=), and on an admin endpoint, where it
 * cannot be told from an unknown one (401) or a user's (403); a wrong token
 * cannot be told from a good one either. Once the lock is gone: 200, 401,
 * 403 as ever. */
static void
test_user_lookup_fails (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autofree char *stream = g_strconcat ("/api/v1/client/stream?token=", fixture->alice, NULL);
  g_autoptr(SrvAnswer) listed = NULL, streamed = NULL, admin = NULL, unknown = NULL;
  g_autoptr(SrvAnswer) after = NULL, after_unknown = NULL, after_key = NULL, after_stream = NULL;
  g_autoptr(SrvAnswer) after_admin = NULL;

  pg_lock_table (fixture, "users");
  listed = get_client_list (fixture, fixture->alice);
  assert_unchecked (listed);
  streamed = srv_request (fixture->server, "GET", stream, NULL, NULL);
  assert_unchecked (streamed);
  admin = srv_request (fixture->server, "POST", "/api/v1/admin/users", fixture->alice,
                       "{\"id\":\"carol\"}");
  assert_unchecked (admin);
  unknown = get_client_list (fixture, UNKNOWN_TOKEN);
  assert_unchecked (unknown);
  pg_lock_release (fixture);

  after = get_client_list (fixture, fixture->alice);
  srv_assert_status (after, 200, NULL);
  /* Not a WebSocket request, but its token is good. */
  after_stream = srv_request (fixture->server, "GET", stream, NULL, NULL);
  srv_assert_status (after_stream, 400, "INVALID_REQUEST");
  after_unknown = get_client_list (fixture, UNKNOWN_TOKEN);
  srv_assert_status (after_unknown, 401, "AUTH_INVALID_TOKEN");
  after_key = get_client_list (fixture, fixture->key);
  srv_assert_status (after_key, 403, "AUTH_INSUFFICIENT_PERMISSIONS");
  after_admin = srv_request (fixture->server, "POST", "/api/v1/admin/users", fixture->alice,
                             "{\"id\":\"carol\"}");
  srv_assert_status (after_admin, 403, "AUTH_INSUFFICIENT_PERMISSIONS");
  srv_assert_message (after_admin, "the token sent is a user token");
}

/* A lookup the database cancels (57014: the operator's statement_timeout
 * ran out, here waiting on the lock) is a lookup that failed: 503, never
 * 401, and no warning (the tests make one fatal: the server aborted). Once
 * the lock is gone the token works. */
static void
test_statement_timeout (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(SrvAnswer) listed = NULL, unknown = NULL, after = NULL, after_unknown = NULL;

  pg_lock_table (fixture, "users");
  listed = get_client_list (fixture, fixture->alice);
  assert_unchecked (listed);
  unknown = get_client_list (fixture, UNKNOWN_TOKEN);
  assert_unchecked (unknown);
  pg_lock_release (fixture);

  after = get_client_list (fixture, fixture->alice);
  srv_assert_status (after, 200, NULL);
  after_unknown = get_client_list (fixture, UNKNOWN_TOKEN);
  srv_assert_status (after_unknown, 401, "AUTH_INVALID_TOKEN");
}

/* A service key whose lookup fails: 503, also where the lookup of the
 * services only tells 401 from 403 (a wrong token on a user endpoint). The
 * failure is not kept: once the lock is gone the key works, and a wrong one
 * is 401. A key found is kept: its requests need the table no more. */
static void
test_service_lookup_fails (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(SrvAnswer) posted = NULL, unknown = NULL, user = NULL, listed = NULL, wrong = NULL;
  g_autoptr(SrvAnswer) after = NULL, after_unknown = NULL, kept = NULL, kind = NULL;
  g_autoptr(JsonObject) created = NULL;
  g_autofree char *path = NULL;

  pg_lock_table (fixture, "services");
  posted = post_notification (fixture, fixture->key);
  assert_unchecked (posted);
  unknown = post_notification (fixture, UNKNOWN_TOKEN);
  assert_unchecked (unknown);
  user = post_notification (fixture, fixture->alice);
  assert_unchecked (user);
  /* A user endpoint needs no service: a user is served, a wrong token is
   * unknown as a user, and the services cannot say whether it is a key. */
  listed = get_client_list (fixture, fixture->alice);
  srv_assert_status (listed, 200, NULL);
  wrong = get_client_list (fixture, UNKNOWN_TOKEN);
  assert_unchecked (wrong);
  pg_lock_release (fixture);

  after = post_notification (fixture, fixture->key);
  srv_assert_status (after, 201, NULL);
  after_unknown = post_notification (fixture, UNKNOWN_TOKEN);
  srv_assert_status (after_unknown, 401, "AUTH_INVALID_TOKEN");

  created = srv_parse_object (after->body);
  path = g_strconcat ("/api/v1/notifications/",
                      json_object_get_string_member (created, "notification_id"), NULL);
  pg_lock_table (fixture, "services");
  kept = srv_request (fixture->server, "GET", path, fixture->key, NULL);
  srv_assert_status (kept, 200, NULL);
  kind = get_client_list (fixture, fixture->key);
  srv_assert_status (kind, 403, "AUTH_INSUFFICIENT_PERMISSIONS");
  pg_lock_release (fixture);
}

/* The database ends every session of the server (as a restart does): the
 * next requests with good tokens are served, on new sessions, or answered
 * 503 until they are; never 401. */
static void
test_sessions_ended (Fixture       *fixture,
                     gconstpointer  data)
{
  const char *server_sessions = "FROM pg_stat_activity WHERE application_name = 'triage-server'"
                                " AND datname = current_database ()";
  g_autofree char *pids = NULL, *ended = NULL, *gone = NULL;
  g_autoptr(SrvAnswer) unknown = NULL;
  const char *tokens[] = { fixture->alice, fixture->other_key };
  gint64 until;

  pids = pg_lock_run (fixture, "SELECT array_agg (pid)::text "
                       "FROM pg_stat_activity WHERE application_name = 'triage-server'"
                       " AND datname = current_database ()");
  g_assert_nonnull (pids);
  g_test_message ("ending the server's sessions %s", pids);
  ended = g_strdup_printf ("SELECT count (*) FILTER (WHERE pg_terminate_backend (pid)) %s",
                           server_sessions);
  g_free (pg_lock_run (fixture, ended));
  /* Gone once the database shows none of them (it tells nobody). */
  gone = g_strdup_printf ("SELECT count (*) = 0 FROM pg_stat_activity WHERE pid = ANY ('%s')",
                          pids);
  until = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;
  for (;;)
    {
      g_autofree char *none = pg_lock_run (fixture, gone);

      if (g_strcmp0 (none, "t") == 0)
        break;
      g_assert_cmpint (g_get_monotonic_time (), <, until);
      g_usleep (10 * 1000);
    }

  for (guint i = 0; i < G_N_ELEMENTS (tokens); i++)
    {
      gboolean user = i == 0;

      until = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;
      for (;;)
        {
          g_autoptr(SrvAnswer) answer = user ? get_client_list (fixture, tokens[i])
                                             : post_notification (fixture, tokens[i]);

          if (answer->status == (user ? 200 : 201))
            break;
          assert_unchecked (answer);
          g_assert_cmpint (g_get_monotonic_time (), <, until);
          g_usleep (100 * 1000);
        }
    }
  unknown = get_client_list (fixture, UNKNOWN_TOKEN);
  srv_assert_status (unknown, 401, "AUTH_INVALID_TOKEN");
}

int
main (int   argc,
      char *argv[])
{
  triage_test_postgres_init (&argc, &argv, "a PostgreSQL whose lookups fail");
  g_test_add ("/server/pg-auth/user-lookup-fails", Fixture, NULL, fixture_setup,
              test_user_lookup_fails, fixture_teardown);
  /* The operator's statement_timeout ends the wait first (57014): 503 as
   * well, and a canceled statement is no warning (fatal in the tests). */
  g_test_add ("/server/pg-auth/statement-timeout", Fixture, "statement_timeout", fixture_setup,
              test_statement_timeout, fixture_teardown);
  g_test_add ("/server/pg-auth/service-lookup-fails", Fixture, NULL, fixture_setup,
              test_service_lookup_fails, fixture_teardown);
  g_test_add ("/server/pg-auth/sessions-ended", Fixture, NULL, fixture_setup,
              test_sessions_ended, fixture_teardown);
  return g_test_run ();
}
