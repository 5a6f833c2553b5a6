/* triage-metrics.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The server's metrics: fixed arrays of 64-bit counters, each moved by one
 * relaxed atomic add where the event happens (no lock, no allocation, no
 * lookup by name on the request path), and written in the Prometheus text
 * format when /metrics is scraped. Names follow Prometheus' conventions:
 * triage_ prefix, _total for counters, base units (_seconds).
 *
 * Everything here counts what this server did (per instance); the gauges
 * the caller reads from the database at scrape time (pending requests,
 * the webhook queue) are of the whole database, the same on every server
 * that shares it.
 */

#define G_LOG_DOMAIN "triage-server"

#include <string.h>

#include "triage-metrics.h"
#include "triage-server-private.h"

#define ADD(counter, value) __atomic_fetch_add (&(counter), (guint64) (value), __ATOMIC_RELAXED)
#define GET(counter)        __atomic_load_n (&(counter), __ATOMIC_RELAXED)

typedef struct
{
  const char *le;       /* as the label writes it */
  gint64      us;
} Bound;

#define B(text, us) { text, us }

static const Bound http_bounds[] = {
  B ("0.001", 1000), B ("0.0025", 2500), B ("0.005", 5000), B ("0.01", 10000),
  B ("0.025", 25000), B ("0.05", 50000), B ("0.1", 100000), B ("0.25", 250000),
  B ("0.5", 500000), B ("1", 1000000), B ("2.5", 2500000), B ("5", 5000000),
  B ("10", 10000000), B ("30", 30000000), B ("60", 60000000), { NULL, 0 }
};
static const Bound answer_bounds[] = {
  B ("1", 1000000), B ("5", 5000000), B ("15", 15000000), B ("30", 30000000),
  B ("60", 60000000), B ("120", 120000000), B ("300", 300000000), B ("600", 600000000),
  B ("1800", G_GINT64_CONSTANT (1800000000)), B ("3600", G_GINT64_CONSTANT (3600000000)),
  B ("7200", G_GINT64_CONSTANT (7200000000)), B ("14400", G_GINT64_CONSTANT (14400000000)),
  B ("43200", G_GINT64_CONSTANT (43200000000)), B ("86400", G_GINT64_CONSTANT (86400000000)),
  { NULL, 0 }
};
static const Bound delivery_bounds[] = {
  B ("0.001", 1000), B ("0.0025", 2500), B ("0.005", 5000), B ("0.01", 10000),
  B ("0.025", 25000), B ("0.05", 50000), B ("0.1", 100000), B ("0.25", 250000),
  B ("0.5", 500000), B ("1", 1000000), B ("2.5", 2500000), B ("5", 5000000),
  B ("10", 10000000), { NULL, 0 }
};
static const Bound commit_bounds[] = {
  B ("0.0005", 500), B ("0.001", 1000), B ("0.0025", 2500), B ("0.005", 5000),
  B ("0.01", 10000), B ("0.025", 25000), B ("0.05", 50000), B ("0.1", 100000),
  B ("0.25", 250000), B ("0.5", 500000), B ("1", 1000000), B ("2.5", 2500000), { NULL, 0 }
};

static const char * const methods[] = { "GET", "POST", "PATCH", "HEAD", "other" };
#define N_METHODS G_N_ELEMENTS (methods)
#define MIN_STATUS 100
#define N_STATUSES 500   /* 100 … 599 */

enum { CREATED, ANSWERED, EXPIRED, INVALIDATED, N_ENDS };
static const char * const end_names[N_ENDS] = { "created", "answered", "expired", "invalidated" };
static const char * const end_help[N_ENDS] = {
  "Requests stored by this server, by protocol",
  "Requests answered through this server, by protocol",
  "Requests this server expired at their deadline, by protocol",
  "Requests withdrawn through this server, by protocol",
};

static struct
{
  guint64         http[TRIAGE_N_ROUTES][N_METHODS][N_STATUSES];
  TriageHistogram http_duration[TRIAGE_N_ROUTES];
  guint64         requests[N_ENDS][ATP_N_PROTOCOLS];
  TriageHistogram time_to_answer[ATP_N_PROTOCOLS];
  guint64         streams_opened[2];            /* websocket, sse */
  TriageHistogram delivery;
  guint64         webhook_deliveries;
  guint64         webhook_failures;
  guint64         webhook_given_up;
  guint64         rate_limited[TRIAGE_N_LIMITS];
  TriageHistogram commit;
  guint64         commit_failures;
  guint64         forgotten;
} metrics;

static void
observe (TriageHistogram *histogram,
         const Bound     *bounds,
         gint64           us)
{
  guint i = 0;

  if (us < 0)
    us = 0;
  while (bounds[i].le != NULL && us > bounds[i].us)
    i++;
  ADD (histogram->buckets[i], 1);
  ADD (histogram->sum_us, us);
  ADD (histogram->count, 1);
}

static guint
method_index (const char *method)
{
  for (guint i = 0; i < N_METHODS - 1; i++)
    if (strcmp (method, methods[i]) == 0)
      return i;
  return N_METHODS - 1;
}

void
triage_metrics_http (guint       route,
                     const char *method,
                     guint       status,
                     gint64      duration_us)
{
  if (route >= TRIAGE_N_ROUTES)
    route = TRIAGE_N_ROUTES - 1;
  if (status >= MIN_STATUS && status < MIN_STATUS + N_STATUSES)
    ADD (metrics.http[route][method_index (method)][status - MIN_STATUS], 1);
  observe (&metrics.http_duration[route], http_bounds, duration_us);
}

/* A request of @protocol was created or reached an end (@status) here; an
 * answer's time to answer runs from @created_at (unix µs) to @now. */
void
triage_metrics_request (int    protocol,
                        int    status,
                        gint64 created_at,
                        gint64 now)
{
  if (protocol < 0 || protocol >= ATP_N_PROTOCOLS)
    return;
  switch (status)
    {
    case ATP_STATUS_CREATED:
      ADD (metrics.requests[CREATED][protocol], 1);
      break;
    case ATP_STATUS_RESPONDED:
      ADD (metrics.requests[ANSWERED][protocol], 1);
      if (created_at > 0)
        observe (&metrics.time_to_answer[protocol], answer_bounds, now - created_at);
      break;
    case ATP_STATUS_EXPIRED:
      ADD (metrics.requests[EXPIRED][protocol], 1);
      break;
    case ATP_STATUS_INVALIDATED:
      ADD (metrics.requests[INVALIDATED][protocol], 1);
      break;
    default:
      break;
    }
}

void
triage_metrics_stream_opened (gboolean websocket)
{
  ADD (metrics.streams_opened[websocket ? 0 : 1], 1);
}

void
triage_metrics_delivery (gint64 latency_us)
{
  observe (&metrics.delivery, delivery_bounds, latency_us);
}

void
triage_metrics_webhook (gboolean delivered,
                        gboolean gave_up)
{
  if (delivered)
    ADD (metrics.webhook_deliveries, 1);
  else
    ADD (metrics.webhook_failures, 1);
  if (gave_up)
    ADD (metrics.webhook_given_up, 1);
}

void
triage_metrics_rate_limited (guint limit)
{
  if (limit < TRIAGE_N_LIMITS)
    ADD (metrics.rate_limited[limit], 1);
}

void
triage_metrics_commit (gint64   duration_us,
                       gboolean committed)
{
  observe (&metrics.commit, commit_bounds, duration_us);
  if (!committed)
    ADD (metrics.commit_failures, 1);
}

void
triage_metrics_forgotten (guint count)
{
  ADD (metrics.forgotten, count);
}

/* ---- the text format ---- */

static void
header (GString    *out,
        const char *name,
        const char *type,
        const char *help)
{
  g_string_append_printf (out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void
append_seconds (GString *out,
                guint64  us)
{
  g_string_append_printf (out, "%" G_GUINT64_FORMAT ".%06" G_GUINT64_FORMAT,
                          us / G_USEC_PER_SEC, us % G_USEC_PER_SEC);
}

/* One histogram's series; @labels ("route=\"/x\"") may be NULL. */
static void
histogram (GString               *out,
           const char            *name,
           const char            *labels,
           const TriageHistogram *histogram,
           const Bound           *bounds)
{
  const char *comma = labels ? "," : "";
  guint64 cumulative = 0;
  guint i;

  labels = labels ? labels : "";
  for (i = 0; bounds[i].le != NULL; i++)
    {
      cumulative += GET (histogram->buckets[i]);
      g_string_append_printf (out, "%s_bucket{%s%sle=\"%s\"} %" G_GUINT64_FORMAT "\n", name,
                              labels, comma, bounds[i].le, cumulative);
    }
  cumulative += GET (histogram->buckets[i]);
  g_string_append_printf (out, "%s_bucket{%s%sle=\"+Inf\"} %" G_GUINT64_FORMAT "\n", name, labels,
                          comma, cumulative);
  g_string_append_printf (out, "%s_sum%s%s%s ", name, *labels ? "{" : "", labels,
                          *labels ? "}" : "");
  append_seconds (out, GET (histogram->sum_us));
  /* The count is the +Inf bucket's, read once: the two always agree. */
  g_string_append_printf (out, "\n%s_count%s%s%s %" G_GUINT64_FORMAT "\n", name,
                          *labels ? "{" : "", labels, *labels ? "}" : "", cumulative);
}

static void
format_http (GString *out)
{
  header (out, "triage_http_requests_total", "counter",
          "HTTP requests this server answered, by method, route template and status");
  for (guint route = 0; route < TRIAGE_N_ROUTES; route++)
    for (guint method = 0; method < N_METHODS; method++)
      for (guint status = 0; status < N_STATUSES; status++)
        {
          guint64 count = GET (metrics.http[route][method][status]);

          if (count > 0)
            g_string_append_printf (out, "triage_http_requests_total{method=\"%s\",route=\"%s\","
                                    "status=\"%u\"} %" G_GUINT64_FORMAT "\n", methods[method],
                                    triage_server_route_name (route), status + MIN_STATUS, count);
        }
  header (out, "triage_http_request_duration_seconds", "histogram",
          "Time from a request read to its answer written, by route template");
  for (guint route = 0; route < TRIAGE_N_ROUTES; route++)
    {
      g_autofree char *labels = NULL;

      if (GET (metrics.http_duration[route].count) == 0)
        continue;
      labels = g_strdup_printf ("route=\"%s\"", triage_server_route_name (route));
      histogram (out, "triage_http_request_duration_seconds", labels,
                 &metrics.http_duration[route], http_bounds);
    }
}

static void
format_requests (GString                   *out,
                 const TriageMetricsGauges *gauges)
{
  for (guint end = 0; end < N_ENDS; end++)
    {
      g_autofree char *name = g_strdup_printf ("triage_requests_%s_total", end_names[end]);

      header (out, name, "counter", end_help[end]);
      for (guint protocol = 0; protocol < ATP_N_PROTOCOLS; protocol++)
        g_string_append_printf (out, "%s{protocol=\"%s\"} %" G_GUINT64_FORMAT "\n", name,
                                atp_protocol_to_string (protocol),
                                GET (metrics.requests[end][protocol]));
    }
  header (out, "triage_requests_pending", "gauge",
          "Requests waiting for an answer in the database (every server's), by protocol");
  for (guint protocol = 0; gauges->pending_known && protocol < ATP_N_PROTOCOLS; protocol++)
    g_string_append_printf (out, "triage_requests_pending{protocol=\"%s\"} %" G_GINT64_FORMAT "\n",
                            atp_protocol_to_string (protocol), gauges->pending[protocol]);
  header (out, "triage_time_to_answer_seconds", "histogram",
          "Time from a request stored to its answer, for answers given through this server");
  for (guint protocol = 0; protocol < ATP_N_PROTOCOLS; protocol++)
    {
      g_autofree char *labels = g_strdup_printf ("protocol=\"%s\"",
                                                 atp_protocol_to_string (protocol));

      histogram (out, "triage_time_to_answer_seconds", labels, &metrics.time_to_answer[protocol],
                 answer_bounds);
    }
}

char *
triage_metrics_format (const TriageMetricsGauges *gauges)
{
  GString *out = g_string_sized_new (16 * 1024);

  header (out, "triage_ready", "gauge", "1 when /readyz answers ready, else 0");
  g_string_append_printf (out, "triage_ready %d\n", gauges->ready);
  header (out, "triage_http_requests_in_flight", "gauge",
          "HTTP requests read and not yet answered (long-polls included)");
  g_string_append_printf (out, "triage_http_requests_in_flight %u\n", gauges->inflight);
  format_http (out);
  format_requests (out, gauges);

  header (out, "triage_stream_connections", "gauge", "Client streams open on this server, by kind");
  g_string_append_printf (out, "triage_stream_connections{kind=\"websocket\"} %u\n"
                          "triage_stream_connections{kind=\"sse\"} %u\n",
                          gauges->streams_websocket, gauges->streams_sse);
  header (out, "triage_stream_connections_opened_total", "counter",
          "Client streams this server accepted, by kind");
  g_string_append_printf (out, "triage_stream_connections_opened_total{kind=\"websocket\"} %"
                          G_GUINT64_FORMAT "\n"
                          "triage_stream_connections_opened_total{kind=\"sse\"} %" G_GUINT64_FORMAT
                          "\n", GET (metrics.streams_opened[0]), GET (metrics.streams_opened[1]));
  header (out, "triage_stream_delivery_seconds", "histogram",
          "Time from a new request stored to its push on a stream of this server");
  histogram (out, "triage_stream_delivery_seconds", NULL, &metrics.delivery, delivery_bounds);

  header (out, "triage_webhook_deliveries_total", "counter",
          "Webhook deliveries this server made (a 2xx answer)");
  g_string_append_printf (out, "triage_webhook_deliveries_total %" G_GUINT64_FORMAT "\n",
                          GET (metrics.webhook_deliveries));
  header (out, "triage_webhook_failures_total", "counter",
          "Webhook attempts of this server that failed (each is retried until the last)");
  g_string_append_printf (out, "triage_webhook_failures_total %" G_GUINT64_FORMAT "\n",
                          GET (metrics.webhook_failures));
  header (out, "triage_webhook_given_up_total", "counter",
          "Webhook deliveries this server gave up on after their last attempt");
  g_string_append_printf (out, "triage_webhook_given_up_total %" G_GUINT64_FORMAT "\n",
                          GET (metrics.webhook_given_up));
  header (out, "triage_webhook_queue_depth", "gauge",
          "Webhook deliveries in the database (every server's) waiting for an attempt");
  if (gauges->webhooks_known)
    g_string_append_printf (out, "triage_webhook_queue_depth %" G_GINT64_FORMAT "\n",
                            gauges->webhooks_queued);
  header (out, "triage_webhook_failed", "gauge",
          "Webhook deliveries in the database kept as failed for good");
  if (gauges->webhooks_known)
    g_string_append_printf (out, "triage_webhook_failed %" G_GINT64_FORMAT "\n",
                            gauges->webhooks_failed);

  header (out, "triage_rate_limit_refusals_total", "counter",
          "Requests and streams this server refused over a rate limit, by limit");
  for (guint limit = 0; limit < TRIAGE_N_LIMITS; limit++)
    g_string_append_printf (out, "triage_rate_limit_refusals_total{limit=\"%s\"} %"
                            G_GUINT64_FORMAT "\n", triage_limit_names[limit],
                            GET (metrics.rate_limited[limit]));

  header (out, "triage_db_commit_duration_seconds", "histogram",
          "Time one group commit of this server took (its writes since the last)");
  histogram (out, "triage_db_commit_duration_seconds", NULL, &metrics.commit, commit_bounds);
  header (out, "triage_db_commit_failures_total", "counter",
          "Group commits of this server that failed (their answers became 503)");
  g_string_append_printf (out, "triage_db_commit_failures_total %" G_GUINT64_FORMAT "\n",
                          GET (metrics.commit_failures));
  header (out, "triage_requests_forgotten_total", "counter",
          "Settled requests this server deleted as older than --retain days");
  g_string_append_printf (out, "triage_requests_forgotten_total %" G_GUINT64_FORMAT "\n",
                          GET (metrics.forgotten));
  header (out, "triage_db_shared", "gauge",
          "1 when the database is PostgreSQL shared by several servers, 0 for SQLite");
  g_string_append_printf (out, "triage_db_shared %d\n", gauges->shared ? 1 : 0);
  header (out, "triage_db_locked", "gauge",
          "1 while a lock wait given up makes the database taken as locked (503 at once)");
  g_string_append_printf (out, "triage_db_locked %d\n", gauges->db_locked ? 1 : 0);
  header (out, "triage_db_lock_waits_given_up_total", "counter",
          "Lock waits the database gave up for this server (lock_timeout)");
  g_string_append_printf (out, "triage_db_lock_waits_given_up_total %" G_GUINT64_FORMAT "\n",
                          gauges->lock_waits);
  triage_metrics_format_process (out);
  return g_string_free (out, FALSE);
}
