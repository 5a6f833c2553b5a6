/* test-sleep-monitor.c — AtpSleepMonitor: logind's word that the machine woke
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * logind is the test, on a system bus of its own
 * (tests/common/triage-test-logind.h).
 */

#include "atp-sleep-monitor.h"
#include "triage-test-logind.h"

static GDBusConnection *logind;

static void
on_woke (AtpSleepMonitor *monitor,
         guint           *wakes)
{
  (*wakes)++;
}

/* One monitor for the process while it is held: one subscription. */
static void
test_shared (void)
{
  g_autoptr(AtpSleepMonitor) first = atp_sleep_monitor_get_default ();
  g_autoptr(AtpSleepMonitor) second = atp_sleep_monitor_get_default ();

  g_assert_true (first == second);
}

/* PrepareForSleep(false) is a wake, told once; going to sleep is none, nor
 * is a signal of another shape. */
static void
test_woke (void)
{
  g_autoptr(AtpSleepMonitor) monitor = atp_sleep_monitor_get_default ();
  g_autoptr(GError) error = NULL;
  guint wakes = 0;
  guint before;

  g_signal_connect (monitor, "woke", G_CALLBACK (on_woke), &wakes);
  triage_test_logind_wake_until (logind, wakes > 0, "the first wake heard");
  triage_test_logind_sleep_and_wait (logind);
  before = wakes;

  g_dbus_connection_emit_signal (logind, NULL, "/org/freedesktop/login1",
                                 "org.freedesktop.login1.Manager", "PrepareForSleep",
                                 g_variant_new ("(s)", "false"), &error);
  g_assert_no_error (error);
  triage_test_logind_sleep_and_wait (logind);
  g_assert_cmpuint (wakes, ==, before);

  triage_test_logind_prepare_for_sleep (logind, FALSE);
  triage_test_wait_until (wakes == before + 1, "the wake told");

  g_signal_handlers_disconnect_by_data (monitor, &wakes);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GSubprocess) system_bus = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  system_bus = triage_test_logind_start_bus ();
  logind = triage_test_logind_new ();

  g_test_add_func ("/sleep-monitor/shared", test_shared);
  g_test_add_func ("/sleep-monitor/woke", test_woke);

  status = g_test_run ();
  g_clear_object (&logind);
  g_subprocess_force_exit (system_bus);

  return status;
}
