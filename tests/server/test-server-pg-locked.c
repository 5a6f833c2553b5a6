/* test-server-pg-locked.c — a table locked under the server is waited for
 * once, not by every request, and /readyz says so
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Statements run on the main loop. A table held by another session (a
 * restore, LOCK TABLE, VACUUM FULL) made every request that needed it wait
 * lock_timeout, one after the other, the probes included (/healthz once
 * took 12.4 s), while /readyz said ready. Now the first wait given up makes
 * the database locked: the server's sessions give up a lock wait at once,
 * so each further request that needs the table is answered 503 with
 * Retry-After without waiting, the others are served, /readyz says the
 * database is locked, and a probe that takes the tables' write locks
 * without waiting (NOWAIT) finds the lock gone. /readyz's own probe finds
 * such a lock before any request met it.
 *
 * The test's second session holds LOCK TABLE notifications (ACCESS
 * EXCLUSIVE) while the server's sessions give up a wait after
 * PG_LOCK_TIMEOUT_MS. Whether a request waited is read from the server's
 * count of lock waits given up (/metrics), not from a clock. That count
 * also holds the event log's read (its own session, answered while the main
 * loop goes on: it reads notifications too) when it was waiting as the
 * lock was found: one more at most, an episode.
 */

#define G_LOG_DOMAIN "test-server-pg-locked"

#include "pg-lock-test-util.h"

typedef PgLockFixture Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  pg_lock_fixture_setup (fixture, "locked-bot", FALSE);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  pg_lock_fixture_teardown (fixture);
}

static SrvAnswer *
post (Fixture *fixture)
{
  return srv_request (fixture->server, "POST", "/api/v1/notifications", fixture->key,
                      "{\"context\":{\"title\":\"Locked\",\"description\":\"D\"},\"actions\":"
                      "[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]}");
}

static void
assert_post_refused (Fixture *fixture)
{
  g_autoptr(SrvAnswer) answer = post (fixture);

  srv_assert_status (answer, 503, "STORAGE_UNAVAILABLE");
  g_assert_cmpstr (soup_message_headers_get_one (answer->headers, "Retry-After"), ==, "1");
}

static guint64
lock_waits (Fixture *fixture)
{
  return srv_sample (fixture->server, "triage_db_lock_waits_given_up_total");
}

/* /readyz's status and reason ("" if none). */
static char *
readyz (Fixture *fixture,
        guint   *status)
{
  g_autoptr(SrvAnswer) answer = srv_request (fixture->server, "GET", "/readyz", NULL, NULL);
  g_autoptr(JsonObject) object = srv_parse_object (answer->body);

  *status = answer->status;
  return g_strdup (json_object_get_string_member_with_default (object, "reason", ""));
}

static void
assert_locked_state (Fixture *fixture)
{
  g_autoptr(SrvAnswer) health = NULL;
  g_autofree char *reason = NULL;
  guint status;

  reason = readyz (fixture, &status);
  g_assert_cmpuint (status, ==, 503);
  g_assert_nonnull (strstr (reason, "the database is locked"));
  g_assert_cmpuint (srv_sample (fixture->server, "triage_db_locked"), ==, 1);
  g_assert_cmpuint (srv_sample (fixture->server, "triage_ready"), ==, 0);
  /* The process serves: a liveness probe must not restart it. */
  health = srv_request (fixture->server, "GET", "/healthz", NULL, NULL);
  srv_assert_status (health, 200, NULL);
}

static gboolean
is_ready (Fixture *fixture)
{
  g_autofree char *reason = NULL;
  guint status;

  reason = readyz (fixture, &status);
  return status == 200;
}

/* Served again once the lock is let go: the first request after it, and
 * /readyz. */
static void
assert_served_after_release (Fixture *fixture)
{
  g_autoptr(SrvAnswer) stored = NULL;

  pg_lock_release (fixture);
  stored = post (fixture);
  srv_assert_status (stored, 201, NULL);
  srv_wait_until (is_ready (fixture), "/readyz once the lock is free");
  g_assert_cmpuint (srv_sample (fixture->server, "triage_db_locked"), ==, 0);
}

/* The requests of an episode, counted: the waits given up since @before
 * are the first request's and perhaps the log read's (see above), never
 * one a request. */
static void
assert_waits_of_episode (Fixture *fixture,
                         guint64  before)
{
  guint64 waits = lock_waits (fixture);

  g_assert_cmpuint (waits, >=, before + 1);
  g_assert_cmpuint (waits, <=, before + 2);
}

/* The first request that needs the table waits lock_timeout once; every
 * one after it is refused at once, a request that needs another table is
 * served, and the server is not ready until the lock is gone. */
static void
test_waited_once (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(SrvAnswer) wrong = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *bob = NULL;
  guint64 before;

  g_assert_cmpuint (lock_waits (fixture), ==, 0);
  pg_lock_table (fixture, "notifications");
  assert_post_refused (fixture);
  g_assert_cmpuint (lock_waits (fixture), >=, 1);
  assert_locked_state (fixture);
  for (guint i = 0; i < 5; i++)
    {
      g_autoptr(SrvAnswer) list = srv_request (fixture->server, "GET",
                                               "/api/v1/client/notifications", fixture->alice,
                                               NULL);

      assert_post_refused (fixture);
      srv_assert_unavailable (list, "");
    }
  /* Not one of them waited for the lock. */
  assert_waits_of_episode (fixture, 0);
  /* The users table is not held: a token is still judged, a user made. */
  wrong = srv_request (fixture->server, "GET", "/api/v1/client/notifications", "not-a-token",
                       NULL);
  g_assert_cmpuint (wrong->status, ==, 401);
  g_assert_true (triage_test_server_create_user (fixture->server, "bob", &bob, &error));
  g_assert_no_error (error);
  assert_locked_state (fixture);

  assert_served_after_release (fixture);
  assert_waits_of_episode (fixture, 0);

  /* A lock taken again is met again, and waited for once again. */
  before = lock_waits (fixture);
  pg_lock_table (fixture, "notifications");
  assert_post_refused (fixture);
  for (guint i = 0; i < 5; i++)
    assert_post_refused (fixture);
  assert_waits_of_episode (fixture, before);
  assert_served_after_release (fixture);
}

/* /readyz finds a lock before any request met it, and then no request
 * waits for it at all. */
static void
test_found_by_readyz (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *reason = NULL;
  guint status;

  g_assert_true (is_ready (fixture));
  pg_lock_table (fixture, "notifications");
  reason = readyz (fixture, &status);
  g_assert_cmpuint (status, ==, 503);
  g_assert_nonnull (strstr (reason, "the database is locked"));
  for (guint i = 0; i < 3; i++)
    assert_post_refused (fixture);
  assert_locked_state (fixture);
  /* None waited (the log's read might have, had it been waiting as the
   * lock was taken). */
  g_assert_cmpuint (lock_waits (fixture), <=, 1);
  assert_served_after_release (fixture);
}

int
main (int    argc,
      char **argv)
{
  triage_test_postgres_init (&argc, &argv, "a PostgreSQL database a second session locks");
  g_test_add ("/server/pg-locked/waited-once", Fixture, NULL, fixture_setup, test_waited_once,
              fixture_teardown);
  g_test_add ("/server/pg-locked/found-by-readyz", Fixture, NULL, fixture_setup,
              test_found_by_readyz, fixture_teardown);
  return g_test_run ();
}
