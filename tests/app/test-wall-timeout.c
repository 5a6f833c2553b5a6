/* test-wall-timeout.c — a timer for a moment of the wall clock
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The moment itself, a moment past, a timer taken back, the machine waking
 * (logind's PrepareForSleep on a system bus of the test's own), each with a
 * timerfd and without one (a process with no descriptor left).
 *
 * Not here: the kernel's side of the timerfd, a sleep over the moment and
 * the wall clock set. The machine cannot sleep under a test, and setting
 * CLOCK_REALTIME (the one clock that wakes TFD_TIMER_CANCEL_ON_SET) takes
 * CAP_SYS_TIME over the whole machine: a time namespace offsets only the
 * monotonic and boot clocks.
 */

#include <errno.h>
#include <sys/resource.h>
#include <sys/timerfd.h>

#include "app-test-common.h"
#include "atp-sleep-monitor.h"
#include "triage-test-logind.h"
#include "triage-wall-timeout.h"

/* A moment far enough that only a wake calls its timer. */
#define HOUR_US (G_GINT64_CONSTANT (3600) * G_USEC_PER_SEC)

static GDBusConnection *logind;    /* the test's, as logind */
static AtpSleepMonitor *monitor;   /* the process's, held for the run */
static guint            wakes;     /* the wakes it told */

typedef struct
{
  guint  calls;
  gint64 at;     /* the wall clock at the last call */
} Fired;

static gboolean
fired_cb (gpointer data)
{
  Fired *fired = data;

  fired->calls++;
  fired->at = g_get_real_time ();

  /* Asked again, it must not be: the timer fires once. */
  return G_SOURCE_CONTINUE;
}

static void
on_woke (AtpSleepMonitor *sleep_monitor,
         guint           *count)
{
  (*count)++;
}

/* Once in the run: the process's monitor hears logind (GDBus learns who
 * owns the name in its own time), and every wake sent meanwhile is handled.
 * Its wakes call every timer: none may be waiting yet. */
static void
listen_to_logind (void)
{
  if (wakes > 0)
    return;

  triage_test_logind_wake_until (logind, wakes > 0, "the first wake heard");
  triage_test_logind_sleep_and_wait (logind);
}

/* As a process with no file descriptor left adds a timer (RLIMIT_NOFILE at
 * 0 for the call): no timerfd, a ready time on the monotonic clock. The
 * monitor has its connection to the system bus before. */
static guint
add_without_timerfd (gint64      wall_us,
                     GSourceFunc func,
                     gpointer    data)
{
  struct rlimit limit;
  struct rlimit none;
  guint id;

  listen_to_logind ();
  g_assert_no_errno (getrlimit (RLIMIT_NOFILE, &limit));
  none = limit;
  none.rlim_cur = 0;
  g_assert_no_errno (setrlimit (RLIMIT_NOFILE, &none));
  /* Not one to be had. */
  g_assert_cmpint (timerfd_create (CLOCK_REALTIME, TFD_CLOEXEC), ==, -1);
  g_assert_cmpint (errno, ==, EMFILE);
  id = triage_wall_timeout_add (wall_us, func, data);
  g_assert_no_errno (setrlimit (RLIMIT_NOFILE, &limit));

  return id;
}

/* How a test adds its timers: as any process, or as one without a
 * descriptor left. */
typedef struct
{
  guint (*add) (gint64      wall_us,
                GSourceFunc func,
                gpointer    data);
} Adder;

static const Adder with_timerfd = { triage_wall_timeout_add };
static const Adder without_timerfd = { add_without_timerfd };

/* A moment shortly ahead: called once, at it and not before. */
static void
test_ahead (gconstpointer data)
{
  const Adder *adder = data;
  gint64 wall_us = g_get_real_time () + 200 * G_TIME_SPAN_MILLISECOND;
  Fired fired = { 0 };
  Fired later = { 0 };

  g_assert_cmpuint (adder->add (wall_us, fired_cb, &fired), !=, 0);
  app_test_wait_for (fired.calls == 1, APP_TEST_WAIT_MS);
  g_assert_cmpint (fired.at, >=, wall_us);

  /* Once: a second timer just after finds the first quiet. */
  triage_wall_timeout_add (g_get_real_time () + 50 * G_TIME_SPAN_MILLISECOND, fired_cb, &later);
  app_test_wait_for (later.calls == 1, APP_TEST_WAIT_MS);
  g_assert_cmpuint (fired.calls, ==, 1);
}

/* A moment past (a second ago, or the epoch itself) is due at once: the
 * first turn of the main loop calls it, without waiting. */
static void
test_past (gconstpointer data)
{
  const Adder *adder = data;
  Fired second_ago = { 0 };
  Fired epoch = { 0 };

  adder->add (g_get_real_time () - G_USEC_PER_SEC, fired_cb, &second_ago);
  adder->add (0, fired_cb, &epoch);
  while (g_main_context_iteration (NULL, FALSE))
    ;

  g_assert_cmpuint (second_ago.calls, ==, 1);
  g_assert_cmpuint (epoch.calls, ==, 1);
}

/* Removed before its moment, it is never called: a timer after it fires
 * and finds it quiet. */
static void
test_removed (void)
{
  gint64 now = g_get_real_time ();
  Fired removed = { 0 };
  Fired removed_past = { 0 };
  Fired after = { 0 };
  guint id = triage_wall_timeout_add (now + 50 * G_TIME_SPAN_MILLISECOND, fired_cb, &removed);
  guint past_id = triage_wall_timeout_add (now - G_USEC_PER_SEC, fired_cb, &removed_past);

  g_source_remove (id);
  g_source_remove (past_id);
  triage_wall_timeout_add (now + 150 * G_TIME_SPAN_MILLISECOND, fired_cb, &after);
  app_test_wait_for (after.calls == 1, APP_TEST_WAIT_MS);

  g_assert_cmpuint (removed.calls, ==, 0);
  g_assert_cmpuint (removed_past.calls, ==, 0);
}

/* The machine woke: a timer an hour ahead is called, once, as one whose
 * moment passed in the sleep would be; without a timerfd, its monotonic
 * ready time stood still in the sleep, and only the wake calls it in time.
 * Going to sleep calls none. */
static void
test_woke (gconstpointer data)
{
  const Adder *adder = data;
  Fired asleep = { 0 };
  Fired next_sleep = { 0 };

  listen_to_logind ();
  adder->add (g_get_real_time () + HOUR_US, fired_cb, &asleep);
  triage_test_logind_sleep_and_wait (logind);
  g_assert_cmpuint (asleep.calls, ==, 0);

  triage_test_logind_prepare_for_sleep (logind, FALSE);
  triage_test_wait_until (asleep.calls == 1, "the timer called on waking");

  /* Once: the next wake calls the timers of then. */
  adder->add (g_get_real_time () + HOUR_US, fired_cb, &next_sleep);
  triage_test_logind_prepare_for_sleep (logind, FALSE);
  triage_test_wait_until (next_sleep.calls == 1, "the next timer called on the next wake");
  g_assert_cmpuint (asleep.calls, ==, 1);
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
  monitor = atp_sleep_monitor_get_default ();
  g_signal_connect (monitor, "woke", G_CALLBACK (on_woke), &wakes);

  g_test_add_data_func ("/wall-timeout/ahead", &with_timerfd, test_ahead);
  g_test_add_data_func ("/wall-timeout/past", &with_timerfd, test_past);
  g_test_add_func ("/wall-timeout/removed", test_removed);
  g_test_add_data_func ("/wall-timeout/woke", &with_timerfd, test_woke);
  g_test_add_data_func ("/wall-timeout/no-timerfd/ahead", &without_timerfd, test_ahead);
  g_test_add_data_func ("/wall-timeout/no-timerfd/past", &without_timerfd, test_past);
  g_test_add_data_func ("/wall-timeout/no-timerfd/woke", &without_timerfd, test_woke);

  status = g_test_run ();
  g_signal_handlers_disconnect_by_data (monitor, &wakes);
  g_clear_object (&monitor);
  g_clear_object (&logind);
  g_subprocess_force_exit (system_bus);

  return status;
}
