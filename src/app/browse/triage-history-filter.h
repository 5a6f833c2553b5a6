/* triage-history-filter.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* @outcome of a filter that lets every outcome through. */
#define TRIAGE_HISTORY_OUTCOME_ANY (-1)

/**
 * TriageHistoryFilter:
 * @text: (nullable): words that must all occur (as word prefixes) in the
 *   title, description, service or project
 * @service: (nullable): only this service (its name); %NULL for every service
 * @project: (nullable): only this project; "" for requests without one,
 *   %NULL for every project
 * @outcome: a #TriageOutcome (%TRIAGE_OUTCOME_NONE: still pending) or
 *   %TRIAGE_HISTORY_OUTCOME_ANY
 * @from_usec: requests received at or after this Unix time in microseconds; 0: no bound
 * @to_usec: requests received before this Unix time in microseconds; 0: no bound
 *
 * What the history shows. A plain struct: fill it in, pass it by pointer.
 */
typedef struct
{
  char   *text;
  char   *service;
  char   *project;
  int     outcome;
  gint64  from_usec;
  gint64  to_usec;
} TriageHistoryFilter;

#define TRIAGE_TYPE_HISTORY_FILTER (triage_history_filter_get_type ())

GType                triage_history_filter_get_type  (void) G_GNUC_CONST;
TriageHistoryFilter *triage_history_filter_new       (void);
TriageHistoryFilter *triage_history_filter_copy      (const TriageHistoryFilter *filter);
void                 triage_history_filter_free      (TriageHistoryFilter       *filter);
gboolean             triage_history_filter_equal     (const TriageHistoryFilter *a,
                                                      const TriageHistoryFilter *b);
gboolean             triage_history_filter_is_empty  (const TriageHistoryFilter *filter);
char                *triage_history_fts_query        (const char                *text);
GStrv                triage_history_unspaced_words   (const char                *text);
GStrv                triage_history_marked_words     (const char                *text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TriageHistoryFilter, triage_history_filter_free)

G_END_DECLS
