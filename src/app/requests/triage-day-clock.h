/* triage-day-clock.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define TRIAGE_TYPE_DAY_CLOCK (triage_day_clock_get_type ())

G_DECLARE_FINAL_TYPE (TriageDayClock, triage_day_clock, TRIAGE, DAY_CLOCK, GObject)

TriageDayClock *triage_day_clock_get_default (void);
TriageDayClock *triage_day_clock_new         (void);

G_END_DECLS
