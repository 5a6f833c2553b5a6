/* triage-history-stats.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "triage-store.h"

G_BEGIN_DECLS

/**
 * TriageHistoryCategory:
 * @TRIAGE_HISTORY_CATEGORY_ANSWERED: answered here
 * @TRIAGE_HISTORY_CATEGORY_ANSWERED_ELSEWHERE: answered on another device
 * @TRIAGE_HISTORY_CATEGORY_EXPIRED: the deadline passed
 * @TRIAGE_HISTORY_CATEGORY_WITHDRAWN: the service withdrew it
 * @TRIAGE_HISTORY_CATEGORY_REFUSED: the server refused our answer
 * @TRIAGE_HISTORY_CATEGORY_GONE: no longer on the server, what became of it unknown
 * @TRIAGE_HISTORY_CATEGORY_PENDING: not settled yet
 *
 * The stacks of the chart, bottom to top.
 */
typedef enum
{
  TRIAGE_HISTORY_CATEGORY_ANSWERED,
  TRIAGE_HISTORY_CATEGORY_ANSWERED_ELSEWHERE,
  TRIAGE_HISTORY_CATEGORY_EXPIRED,
  TRIAGE_HISTORY_CATEGORY_WITHDRAWN,
  TRIAGE_HISTORY_CATEGORY_REFUSED,
  TRIAGE_HISTORY_CATEGORY_GONE,
  TRIAGE_HISTORY_CATEGORY_PENDING,
  TRIAGE_HISTORY_N_CATEGORIES
} TriageHistoryCategory;

/* Buckets never exceed this many; longer ranges put several days in one. */
#define TRIAGE_HISTORY_STATS_MAX_BUCKETS 31

/**
 * TriageHistoryBucket:
 * @start: first microsecond of the bucket (Unix, a local midnight)
 * @end: first microsecond after it
 * @counts: requests per #TriageHistoryCategory
 * @total: all requests in the bucket
 * @median_response: median time to an answer given here, in microseconds; -1 if none
 */
typedef struct
{
  gint64 start;
  gint64 end;
  guint  counts[TRIAGE_HISTORY_N_CATEGORIES];
  guint  total;
  gint64 median_response;
} TriageHistoryBucket;

/* The chart draws this many services by name; the rest are one "Other". */
#define TRIAGE_HISTORY_STATS_MAX_SERIES 4

/**
 * TriageHistorySeries:
 * @name: (nullable): the service's name; %NULL for the other services together
 * @n_services: how many services it holds (1 unless @name is %NULL)
 * @total: its requests over all days
 * @counts: its requests per bucket (as many as the statistics have buckets)
 * @median_response: median time to an answer given here, in microseconds; -1 if none
 *
 * One service's share of the chart: the busiest services each have one,
 * most requests first, then one for all the others.
 */
typedef struct
{
  char   *name;
  guint   n_services;
  guint   total;
  guint  *counts;
  gint64  median_response;
} TriageHistorySeries;

typedef struct _TriageHistoryStats TriageHistoryStats;

#define TRIAGE_TYPE_HISTORY_STATS (triage_history_stats_get_type ())

GType                       triage_history_stats_get_type          (void) G_GNUC_CONST;
TriageHistoryStats         *triage_history_stats_new               (GDateTime             *first_day,
                                                                    guint                  n_days);
TriageHistoryStats         *triage_history_stats_ref               (TriageHistoryStats    *self);
void                        triage_history_stats_unref             (TriageHistoryStats    *self);
void                        triage_history_stats_add               (TriageHistoryStats    *self,
                                                                    const char            *service,
                                                                    gint64                 created_at,
                                                                    TriageOutcome          outcome,
                                                                    gint64                 response_time);
void                        triage_history_stats_finish            (TriageHistoryStats    *self);
gint64                      triage_history_stats_get_start         (TriageHistoryStats    *self);
gint64                      triage_history_stats_get_end           (TriageHistoryStats    *self);
guint                       triage_history_stats_get_n_days        (TriageHistoryStats    *self);
guint                       triage_history_stats_get_days_per_bucket (TriageHistoryStats  *self);
guint                       triage_history_stats_get_n_buckets     (TriageHistoryStats    *self);
const TriageHistoryBucket  *triage_history_stats_get_bucket        (TriageHistoryStats    *self,
                                                                    guint                  index);
guint                       triage_history_stats_get_total         (TriageHistoryStats    *self);
guint                       triage_history_stats_get_count         (TriageHistoryStats    *self,
                                                                    TriageHistoryCategory  category);
gint64                      triage_history_stats_get_median_response (TriageHistoryStats  *self);
guint                       triage_history_stats_get_max_bucket_total (TriageHistoryStats *self);
gint64                      triage_history_stats_get_max_median    (TriageHistoryStats    *self);
guint                       triage_history_stats_get_n_series      (TriageHistoryStats    *self);
const TriageHistorySeries  *triage_history_stats_get_series        (TriageHistoryStats    *self,
                                                                    guint                  index);
gint64                      triage_history_stats_get_max_series_median (TriageHistoryStats *self);
char                       *triage_history_stats_dup_summary       (TriageHistoryStats    *self,
                                                                    const char            *service);

TriageHistoryCategory       triage_history_category_for_outcome    (TriageOutcome          outcome);
const char                 *triage_history_category_label          (TriageHistoryCategory  category);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TriageHistoryStats, triage_history_stats_unref)

G_END_DECLS
