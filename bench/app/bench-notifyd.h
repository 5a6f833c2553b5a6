/* bench-notifyd.h — the notification server of bench-app
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

void     bench_notifyd_start           (GDBusConnection *bus);
void     bench_notifyd_stop            (void);

/* The monotonic time the bubble titled @summary arrived, 0 until it did. */
gint64   bench_notifyd_arrival_of      (const char      *summary);
/* Bubbles closed, or replaced by what became of their request. */
guint    bench_notifyd_get_closes      (void);

/* Conditions to wait for: the name is owned; the bubble titled @summary
 * arrived; at least GPOINTER_TO_UINT (@n) bubbles were closed. */
gboolean bench_notifyd_owned           (gpointer         data);
gboolean bench_notifyd_notified        (gpointer         summary);
gboolean bench_notifyd_closed_at_least (gpointer         n);

G_END_DECLS
