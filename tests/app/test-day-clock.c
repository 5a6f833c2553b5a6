/* test-day-clock.c — the day's change: at midnight, and on waking after it
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Waking is logind's PrepareForSleep on a bus of the test's own (a
 * dbus-daemon of GTestDBus), where the test owns logind's name.
 */

#include "app-test-common.h"
#include "midnight-test-util.h"
#include "triage-day-clock.h"

#define LOGIND_NAME "org.freedesktop.login1"

static void
on_day_changed (TriageDayClock *clock,
                guint          *changes)
{
  (*changes)++;
}

/* The local midnight passes on the wall clock: told. */
static void
test_midnight (void)
{
  char *old_zone = midnight_test_set_zone (2);
  g_autoptr(TriageDayClock) clock = triage_day_clock_new (NULL);
  guint changes = 0;

  g_signal_connect (clock, "day-changed", G_CALLBACK (on_day_changed), &changes);
  app_test_wait_for (changes == 1, APP_TEST_WAIT_MS);

  midnight_test_restore_zone (old_zone);
  app_test_finalize_object (g_steal_pointer (&clock));
}

/* The parts of the app share one clock while they hold it. */
static void
test_default_shared (void)
{
  g_autoptr(TriageDayClock) first = triage_day_clock_get_default ();
  g_autoptr(TriageDayClock) second = triage_day_clock_get_default ();

  g_assert_true (first == second);
}

typedef struct
{
  GTestDBus       *bus;
  GDBusConnection *connection;
} Logind;

/* A bus of its own, where this connection is logind. */
static void
logind_up (Logind *logind)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;
  guint32 owned;

  logind->bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (logind->bus);
  logind->connection =
    g_dbus_connection_new_for_address_sync (g_test_dbus_get_bus_address (logind->bus),
                                            G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                            G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                            NULL, NULL, &error);
  g_assert_no_error (error);
  /* The test's own bus answers at once: a synchronous call is fine. */
  reply = g_dbus_connection_call_sync (logind->connection, "org.freedesktop.DBus",
                                       "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                       "RequestName", g_variant_new ("(su)", LOGIND_NAME, 4),
                                       G_VARIANT_TYPE ("(u)"), G_DBUS_CALL_FLAGS_NONE, 5000,
                                       NULL, &error);
  g_assert_no_error (error);
  g_variant_get (reply, "(u)", &owned);
  g_assert_cmpuint (owned, ==, 1);   /* the primary owner */
}

static void
logind_down (Logind *logind)
{
  g_dbus_connection_close_sync (logind->connection, NULL, NULL);
  app_test_finalize_object (g_steal_pointer (&logind->connection));
  g_test_dbus_down (logind->bus);
  g_clear_object (&logind->bus);
}

static void
prepare_for_sleep (Logind   *logind,
                   gboolean  going_to_sleep)
{
  g_autoptr(GError) error = NULL;

  g_dbus_connection_emit_signal (logind->connection, NULL, "/org/freedesktop/login1",
                                 "org.freedesktop.login1.Manager", "PrepareForSleep",
                                 g_variant_new ("(b)", going_to_sleep), &error);
  g_assert_no_error (error);
}

/* The machine woke: told again until the clock has heard (GDBus may take
 * a moment to learn who owns logind's name before it lets its signals in). */
static gboolean
wake_cb (gpointer data)
{
  prepare_for_sleep (data, FALSE);

  return G_SOURCE_CONTINUE;
}

/* Asleep over midnight: the monotonic clock stopped, the timer for
 * midnight is hours away yet, the day has changed: told on waking. */
static void
test_woke_after_midnight (void)
{
  char *old_zone = midnight_test_set_zone (3600);
  Logind logind = { 0 };
  g_autoptr(TriageDayClock) clock = NULL;
  guint changes = 0;
  guint wake_id;

  logind_up (&logind);
  clock = triage_day_clock_new (logind.connection);
  g_signal_connect (clock, "day-changed", G_CALLBACK (on_day_changed), &changes);

  /* Going to sleep tells nothing; the night passes (a time zone where it is
   * now ten seconds past midnight). */
  prepare_for_sleep (&logind, TRUE);
  g_free (midnight_test_set_zone (-10));
  g_assert_cmpuint (changes, ==, 0);

  wake_id = g_timeout_add (100, wake_cb, &logind);
  prepare_for_sleep (&logind, FALSE);
  app_test_wait_for (changes > 0, APP_TEST_WAIT_MS);
  g_source_remove (wake_id);
  g_assert_cmpuint (changes, ==, 1);

  app_test_finalize_object (g_steal_pointer (&clock));
  logind_down (&logind);
  midnight_test_restore_zone (old_zone);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/day-clock/midnight", test_midnight);
  g_test_add_func ("/day-clock/default-shared", test_default_shared);
  g_test_add_func ("/day-clock/woke-after-midnight", test_woke_after_midnight);

  return g_test_run ();
}
