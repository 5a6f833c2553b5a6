/* atp-sleep-monitor.h — the machine waking from sleep, as logind tells it
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define ATP_TYPE_SLEEP_MONITOR (atp_sleep_monitor_get_type ())

/**
 * AtpSleepMonitor:
 *
 * Says when the machine woke from a suspend or a hibernation: logind's
 * `PrepareForSleep(false)` on the system bus (`org.freedesktop.login1`,
 * `/org/freedesktop/login1`, `org.freedesktop.login1.Manager`). One watch
 * for the whole process (atp_sleep_monitor_get_default()): a stream that
 * reconnects, a timer on the wall clock, whatever else a sleep leaves
 * stale. Without a system bus (a container, a session of its own), it
 * never says anything.
 *
 * Signals:
 * - `woke (AtpSleepMonitor*)`: the machine woke, in the main context of
 *   the thread that first got the monitor (the main thread).
 */
G_DECLARE_FINAL_TYPE (AtpSleepMonitor, atp_sleep_monitor, ATP, SLEEP_MONITOR, GObject)

AtpSleepMonitor *atp_sleep_monitor_get_default (void);

G_END_DECLS
