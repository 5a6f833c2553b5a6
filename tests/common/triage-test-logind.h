/* triage-test-logind.h — a system bus of the test's own, where the test plays logind
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "triage-test-server.h"

G_BEGIN_DECLS

/* Before anything asks for the system bus: a dbus-daemon of the test's own
 * as the process's system bus (DBUS_SYSTEM_BUS_ADDRESS). It dies with the
 * test; end it after the run (g_subprocess_force_exit ()). */
GSubprocess     *triage_test_logind_start_bus         (void);

/* A connection to that bus that owns logind's name, for the calls below. */
GDBusConnection *triage_test_logind_new               (void);

void             triage_test_logind_prepare_for_sleep (GDBusConnection *logind,
                                                       gboolean         going_to_sleep);

/* PrepareForSleep(true), waited for until this process's system bus
 * connection (the one AtpSleepMonitor listens on) heard it: whatever
 * listens there has handled every signal logind sent before (once it heard
 * logind at all: triage_test_logind_wake_until ()). */
void             triage_test_logind_sleep_and_wait    (GDBusConnection *logind);

gboolean         triage_test_logind_wake_cb           (gpointer         logind);

/* PrepareForSleep(false), told again every 100 ms until @cond: the process
 * finds the system bus in its own time, and GDBus lets logind's signals in
 * once it has learnt who owns the name. Wakes sent meanwhile may still be on
 * their way: triage_test_logind_sleep_and_wait () sees them handled. */
#define triage_test_logind_wake_until(logind, cond, what)                         \
  G_STMT_START {                                                                  \
    guint _waking = g_timeout_add (100, triage_test_logind_wake_cb, (logind));    \
    triage_test_logind_prepare_for_sleep ((logind), FALSE);                       \
    triage_test_wait_until (cond, what);                                          \
    g_source_remove (_waking);                                                    \
  } G_STMT_END

G_END_DECLS
