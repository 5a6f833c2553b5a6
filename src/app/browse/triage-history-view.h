/* triage-history-view.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "triage-history-chart.h"
#include "triage-history-db.h"
#include "triage-history-export.h"
#include "triage-history-model.h"

G_BEGIN_DECLS

/**
 * TriageHistoryViewState:
 * @TRIAGE_HISTORY_VIEW_LOADING: no database yet, or the first query runs
 * @TRIAGE_HISTORY_VIEW_EMPTY: the history has no entry at all
 * @TRIAGE_HISTORY_VIEW_NO_RESULTS: entries exist, none matches the search and filters
 * @TRIAGE_HISTORY_VIEW_LIST: the list
 * @TRIAGE_HISTORY_VIEW_UNAVAILABLE: no database: it could not be opened
 *   (triage_history_view_set_problem())
 */
typedef enum
{
  TRIAGE_HISTORY_VIEW_LOADING,
  TRIAGE_HISTORY_VIEW_EMPTY,
  TRIAGE_HISTORY_VIEW_NO_RESULTS,
  TRIAGE_HISTORY_VIEW_LIST,
  TRIAGE_HISTORY_VIEW_UNAVAILABLE,
} TriageHistoryViewState;

/**
 * TriageHistoryPeriod:
 * @TRIAGE_HISTORY_PERIOD_ANY: any time
 * @TRIAGE_HISTORY_PERIOD_TODAY: since local midnight
 * @TRIAGE_HISTORY_PERIOD_WEEK: the last 7 days, today included
 * @TRIAGE_HISTORY_PERIOD_MONTH: the last 30 days, today included
 * @TRIAGE_HISTORY_PERIOD_YEAR: the last 365 days, today included
 * @TRIAGE_HISTORY_PERIOD_CUSTOM: the days chosen (triage_history_view_set_date_range())
 *
 * The choices of the date filter, in its order.
 */
typedef enum
{
  TRIAGE_HISTORY_PERIOD_ANY,
  TRIAGE_HISTORY_PERIOD_TODAY,
  TRIAGE_HISTORY_PERIOD_WEEK,
  TRIAGE_HISTORY_PERIOD_MONTH,
  TRIAGE_HISTORY_PERIOD_YEAR,
  TRIAGE_HISTORY_PERIOD_CUSTOM,
} TriageHistoryPeriod;

#define TRIAGE_TYPE_HISTORY_VIEW (triage_history_view_get_type ())

G_DECLARE_FINAL_TYPE (TriageHistoryView, triage_history_view, TRIAGE, HISTORY_VIEW, AdwBin)

GtkWidget                 *triage_history_view_new                 (void);
TriageHistoryDb           *triage_history_view_get_db              (TriageHistoryView    *self);
void                       triage_history_view_set_db              (TriageHistoryView    *self,
                                                                    TriageHistoryDb      *db);
void                       triage_history_view_set_problem         (TriageHistoryView    *self,
                                                                    const char           *problem);
void                       triage_history_view_reload              (TriageHistoryView    *self);
TriageHistoryModel        *triage_history_view_get_model           (TriageHistoryView    *self);
GtkSelectionModel         *triage_history_view_get_selection       (TriageHistoryView    *self);
TriageHistoryChart        *triage_history_view_get_chart           (TriageHistoryView    *self);
const TriageHistoryFilter *triage_history_view_get_filter          (TriageHistoryView    *self);
TriageHistoryViewState     triage_history_view_get_state           (TriageHistoryView    *self);
gboolean                   triage_history_view_get_loading         (TriageHistoryView    *self);
void                       triage_history_view_set_search_text     (TriageHistoryView    *self,
                                                                    const char           *text);
gboolean                   triage_history_view_set_service_filter  (TriageHistoryView    *self,
                                                                    const char           *service);
gboolean                   triage_history_view_set_project_filter  (TriageHistoryView    *self,
                                                                    const char           *project);
void                       triage_history_view_set_outcome_filter  (TriageHistoryView    *self,
                                                                    int                   outcome);
void                       triage_history_view_set_period          (TriageHistoryView    *self,
                                                                    TriageHistoryPeriod   period);
void                       triage_history_view_set_date_range      (TriageHistoryView    *self,
                                                                    GDateTime            *first_day,
                                                                    GDateTime            *last_day);
void                       triage_history_view_clear_filters       (TriageHistoryView    *self);
GStrv                      triage_history_view_dup_service_choices (TriageHistoryView    *self);
GStrv                      triage_history_view_dup_project_choices (TriageHistoryView    *self);
void                       triage_history_view_focus_search        (TriageHistoryView    *self);
void                       triage_history_view_export_async        (TriageHistoryView    *self,
                                                                    gboolean              selected_only,
                                                                    TriageHistoryFormat   format,
                                                                    GFile                *file,
                                                                    GCancellable         *cancellable,
                                                                    GAsyncReadyCallback   callback,
                                                                    gpointer              user_data);
gboolean                   triage_history_view_export_finish       (TriageHistoryView    *self,
                                                                    GAsyncResult         *result,
                                                                    guint                *n_written,
                                                                    GError              **error);

G_END_DECLS
