/* test-day-clock.c — the day's change: at midnight, and on waking after it
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Waking is logind's PrepareForSleep on a system bus of the test's own,
 * where the test owns logind's name (tests/common/triage-test-logind.h).
 */

#include "app-test-common.h"
#include "atp-sleep-monitor.h"
#include "midnight-test-util.h"
#include "triage-day-clock.h"
#include "triage-test-logind.h"

static void
on_day_changed (TriageDayClock *clock,
                guint          *changes)
{
  (*changes)++;
}

static void
on_woke (AtpSleepMonitor *monitor,
         guint           *wakes)
{
  (*wakes)++;
}

/* The local midnight passes on the wall clock: told. */
static void
test_midnight (void)
{
  char *old_zone = midnight_test_set_zone (2);
  g_autoptr(TriageDayClock) clock = triage_day_clock_new ();
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

/* Asleep over midnight: the monotonic clock stopped, the timer for
 * midnight is hours away yet, the day has changed: told on waking. */
static void
test_woke_after_midnight (void)
{
  char *old_zone = midnight_test_set_zone (3600);
  g_autoptr(GDBusConnection) logind = triage_test_logind_new ();
  g_autoptr(AtpSleepMonitor) monitor = atp_sleep_monitor_get_default ();
  g_autoptr(TriageDayClock) clock = triage_day_clock_new ();
  guint changes = 0;
  guint wakes = 0;

  g_signal_connect (clock, "day-changed", G_CALLBACK (on_day_changed), &changes);
  g_signal_connect (monitor, "woke", G_CALLBACK (on_woke), &wakes);

  /* The process hears logind (an hour before midnight: the same day), and
   * has handled every wake sent meanwhile. */
  triage_test_logind_wake_until (logind, wakes > 0, "logind heard");
  triage_test_logind_sleep_and_wait (logind);
  g_assert_cmpuint (changes, ==, 0);

  /* The night passes (a time zone where it is now ten seconds past
   * midnight); going to sleep tells nothing. */
  midnight_test_advance_zone (3610);
  triage_test_logind_sleep_and_wait (logind);
  g_assert_cmpuint (changes, ==, 0);

  /* Woken once: told once. */
  triage_test_logind_prepare_for_sleep (logind, FALSE);
  app_test_wait_for (changes > 0, APP_TEST_WAIT_MS);
  g_assert_cmpuint (changes, ==, 1);

  g_signal_handlers_disconnect_by_data (monitor, &wakes);
  app_test_finalize_object (g_steal_pointer (&clock));
  midnight_test_restore_zone (old_zone);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GSubprocess) system_bus = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  system_bus = triage_test_logind_start_bus ();

  g_test_add_func ("/day-clock/midnight", test_midnight);
  g_test_add_func ("/day-clock/default-shared", test_default_shared);
  g_test_add_func ("/day-clock/woke-after-midnight", test_woke_after_midnight);

  status = g_test_run ();
  g_subprocess_force_exit (system_bus);

  return status;
}
