/* triage-metrics.h — the server's counters and histograms
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "atp.h"

G_BEGIN_DECLS

/* Upper bounds (seconds) of a histogram's buckets; +Inf is implied. */
#define TRIAGE_METRICS_MAX_BUCKETS 16

typedef struct
{
  guint64 buckets[TRIAGE_METRICS_MAX_BUCKETS + 1];   /* per bucket (not cumulative); last = +Inf */
  guint64 sum_us;
  guint64 count;
} TriageHistogram;

/* What /metrics reads at scrape time besides the counters (the caller's).
 * The database's figures are left out of the scrape when it did not answer
 * (@pending_known, @webhooks_known FALSE): no sample rather than a 0 that
 * looks like an empty queue. */
typedef struct
{
  gboolean pending_known;
  gboolean webhooks_known;
  gint64 pending[ATP_N_PROTOCOLS];      /* of the database */
  gint64 webhooks_queued;               /* of the database: rows waiting for an attempt */
  gint64 webhooks_failed;               /* of the database: rows kept as failed for good */
  guint  streams_websocket;             /* of this server */
  guint  streams_sse;
  guint  inflight;
  int    ready;                         /* 1 when /readyz says ready */
  gboolean shared;                      /* the database is PostgreSQL, shared */
  gboolean db_locked;                   /* a lock wait given up, the lock not free since */
  guint64  lock_waits;                  /* lock waits the database gave up for this server */
} TriageMetricsGauges;

/* Each is a few relaxed atomic adds: cheap enough for every request. */
void  triage_metrics_http         (guint        route,
                                   const char  *method,
                                   guint        status,
                                   gint64       duration_us);
void  triage_metrics_request      (int          protocol,
                                   int          status,
                                   gint64       created_at,
                                   gint64       now);
void  triage_metrics_stream_opened (gboolean    websocket);
void  triage_metrics_delivery     (gint64       latency_us);
void  triage_metrics_webhook      (gboolean     delivered,
                                   gboolean     gave_up);
void  triage_metrics_rate_limited (guint        limit);
void  triage_metrics_commit       (gint64       duration_us,
                                   gboolean     committed);
void  triage_metrics_forgotten    (guint        count);

/* The Prometheus text format (version 0.0.4) of every metric. */
char *triage_metrics_format       (const TriageMetricsGauges *gauges);
/* The standard process_* metrics, read now (triage-metrics-process.c). */
void  triage_metrics_format_process (GString                  *out);

G_END_DECLS
