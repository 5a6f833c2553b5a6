/* triage-server-metrics.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GET /metrics: the Prometheus text format of triage-metrics.c, with the
 * gauges read now. On the API listeners it needs the admin token (or local
 * trust); --metrics-listen serves it without a token on an address of its
 * own (plain HTTP: it tells nothing secret, and a scraper there needs no
 * token to hold), and serves nothing else.
 */

#define G_LOG_DOMAIN "triage-server"

#include <string.h>

#include "triage-metrics.h"
#include "triage-server-private.h"

#define CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

static void
gather (TriageServer        *self,
        TriageMetricsGauges *gauges)
{
  g_autoptr(GError) error = NULL;

  memset (gauges, 0, sizeof *gauges);
  gauges->pending_known = triage_store_count_pending (self->store, gauges->pending,
                                                      G_N_ELEMENTS (gauges->pending));
  gauges->webhooks_known = triage_store_count_webhooks (self->store, &gauges->webhooks_queued,
                                                        &gauges->webhooks_failed);
  triage_server_count_streams (self, &gauges->streams_websocket, &gauges->streams_sse);
  gauges->inflight = self->inflight;
  gauges->ready = self->state == TRIAGE_SERVER_READY && triage_store_check (self->store, &error);
  gauges->shared = triage_store_is_shared (self->store);
  gauges->lock_waits = triage_store_count_lock_waits (self->store, &gauges->db_locked);
}

static void
reply_metrics (TriageServer      *self,
               SoupServerMessage *msg)
{
  TriageMetricsGauges gauges;
  char *body;

  gather (self, &gauges);
  body = triage_metrics_format (&gauges);
  soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                "Cache-Control", "no-store");
  triage_server_request_id (msg);
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, CONTENT_TYPE, SOUP_MEMORY_TAKE, body, strlen (body));
}

static gboolean
check_request (SoupServerMessage *msg,
               const char        *path)
{
  const char *method = soup_server_message_get_method (msg);

  if (strcmp (path, TRIAGE_METRICS_PATH) != 0)
    {
      reply_error (msg, ATP_ERROR_NOT_FOUND, "No such endpoint");
      return FALSE;
    }
  if (strcmp (method, "GET") != 0 && strcmp (method, "HEAD") != 0)
    {
      reply_method_not_allowed (msg, "GET, HEAD");
      return FALSE;
    }
  return TRUE;
}

/* On the API listeners: the admin's. */
static void
metrics_handler (SoupServer        *soup,
                 SoupServerMessage *msg,
                 const char        *path,
                 GHashTable        *query,
                 gpointer           user_data)
{
  TriageServer *self = user_data;

  if (check_request (msg, path) && check_admin (self, msg))
    reply_metrics (self, msg);
}

/* On --metrics-listen: anyone's who can reach it. */
static void
open_metrics_handler (SoupServer        *soup,
                      SoupServerMessage *msg,
                      const char        *path,
                      GHashTable        *query,
                      gpointer           user_data)
{
  if (check_request (msg, path))
    reply_metrics (user_data, msg);
}

static void
commit_observed (gint64   duration_us,
                 gboolean committed)
{
  triage_metrics_commit (duration_us, committed);
}

void
triage_server_setup_metrics (TriageServer *self,
                             SoupServer   *metrics_soup)
{
  soup_server_add_handler (self->soup, TRIAGE_METRICS_PATH, metrics_handler, self, NULL);
  if (metrics_soup != NULL)
    soup_server_add_handler (metrics_soup, NULL, open_metrics_handler, self, NULL);
  triage_store_set_commit_observer (self->store, commit_observed);
}
