/* test-server-pg-deadline.c — a deadline that passes while the database does
 * not answer is kept, and the request expires once it does
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The server expires an overdue request at its deadline and then reads the
 * next deadline to set its timer. When the database did not answer (a lock
 * held past the server's lock_timeout, a stall), that read was taken as "no
 * deadline left": no timer was set, and nothing expired again until
 * something else woke the timer (a new request with a deadline). The
 * requests stayed pending past their deadlines, and their services were
 * never told. The lookups are made to fail by a lock the test holds
 * (pg-lock-test-util.h); the test watches the server's session wait for it
 * and give up.
 */

#define G_LOG_DOMAIN "test-server-pg-deadline"

#include "pg-lock-test-util.h"
#include "atp.h"

#define WAIT_LIMIT_US (20 * G_USEC_PER_SEC)

typedef PgLockFixture Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  pg_lock_fixture_setup (fixture, "deadline-bot", FALSE);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  pg_lock_fixture_teardown (fixture);
}

/* Waits until @sql (on the test's session) reads @expected. */
static void
wait_value (Fixture    *fixture,
            const char *sql,
            const char *expected,
            const char *what)
{
  gint64 limit = g_get_monotonic_time () + WAIT_LIMIT_US;

  for (;;)
    {
      g_autofree char *value = pg_lock_run (fixture, sql);

      if (g_strcmp0 (value, expected) == 0)
        return;
      if (g_get_monotonic_time () > limit)
        g_error ("%s: still %s after 20 s", what, value);
      g_usleep (10 * 1000);
    }
}

/* The deadline passes under the lock: the server's expiry waits for it and
 * gives up. Once the lock is gone the request expires, with nothing else
 * happening to wake the server. */
static void
test_expiry_after_lock (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) later = g_date_time_add_seconds (now, 1);
  g_autofree char *deadline = atp_format_timestamp (later);
  g_autofree char *body = NULL, *id = NULL;
  g_autoptr(SrvAnswer) posted = NULL;
  g_autoptr(JsonObject) answer = NULL;
  gint64 limit;

  body = g_strdup_printf ("{\"deadline\":\"%s\",\"context\":{\"title\":\"T\",\"description\":\"D\"},"
                          "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\","
                          "\"response_type\":\"simple\"}]}", deadline);
  posted = srv_request (fixture->server, "POST", "/api/v1/notifications", fixture->key, body);
  srv_assert_status (posted, 201, NULL);
  answer = srv_parse_object (posted->body);
  id = g_strdup (json_object_get_string_member (answer, "notification_id"));

  pg_lock_table (fixture, "notifications");
  /* At the deadline the server's session waits for the lock, then gives up. */
  wait_value (fixture, "SELECT COUNT (*) > 0 FROM pg_locks WHERE NOT granted", "t",
              "the server's expiry waiting for the lock");
  wait_value (fixture, "SELECT COUNT (*) > 0 FROM pg_locks WHERE NOT granted", "f",
              "the server's expiry giving up");
  pg_lock_release (fixture);

  limit = g_get_monotonic_time () + WAIT_LIMIT_US;
  for (;;)
    {
      g_autofree char *status = srv_status_of (fixture->server, fixture->key, id);

      if (g_strcmp0 (status, "expired") == 0)
        break;
      if (g_get_monotonic_time () > limit)
        g_error ("notification %s is still %s 20 s after the lock was released", id, status);
      g_usleep (50 * 1000);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/server/pg-deadline/expiry-after-lock", Fixture, NULL, fixture_setup,
              test_expiry_after_lock, fixture_teardown);
  return g_test_run ();
}
