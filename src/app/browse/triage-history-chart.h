/* triage-history-chart.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "triage-history-stats.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_HISTORY_CHART (triage_history_chart_get_type ())

G_DECLARE_FINAL_TYPE (TriageHistoryChart, triage_history_chart, TRIAGE, HISTORY_CHART, GtkWidget)

GtkWidget          *triage_history_chart_new         (void);
void                triage_history_chart_set_stats   (TriageHistoryChart *self,
                                                      TriageHistoryStats *stats,
                                                      const char         *service);
TriageHistoryStats *triage_history_chart_get_stats   (TriageHistoryChart *self);
const char         *triage_history_chart_get_summary (TriageHistoryChart *self);

G_END_DECLS
