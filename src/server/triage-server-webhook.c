/* triage-server-webhook.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Webhooks (profile §6): a service with a callback_url is sent the response
 * to each of its notifications, and its expiry or invalidation, by a signed
 * POST. Every delivery is a row of the store's queue, written in the same
 * batch as the transition it reports and tried only once that batch is
 * durable; failed attempts are retried on a fixed backoff, and the queue
 * survives a restart. A server claims the rows it tries (a lease, durable
 * before the attempt starts), so of several servers on one database exactly
 * one makes each attempt. Attempts run asynchronously on one SoupSession (a
 * second, without proxies, serves loopback receivers), at most a few per
 * service at a time, so a slow or dead receiver holds up neither the request
 * path nor the other services.
 */

#define G_LOG_DOMAIN "triage-server-webhook"

#include <string.h>

#include "triage-metrics.h"
#include "triage-server-protocol.h"

#define ATTEMPT_TIMEOUT_MS (5 * 1000)   /* a 2xx must arrive within this */
#define MAX_IN_FLIGHT      64
#define MAX_PER_SERVICE    4
#define MAX_ANSWER_READ    (64 * 1024)  /* of a receiver's answer body, then the connection is dropped */
#define SHUTDOWN_WAIT_MS   2000
#define LEASE_US           ((ATTEMPT_TIMEOUT_MS + 1000) * (gint64) 1000)
/* A shared store: rows another server queued, or leases of a server that
 * died, are looked for this often. */
#define SHARED_POLL_S      5

/* Seconds from a failed attempt to the next one: five retries after the first
 * attempt, six attempts in all. */
static const guint retry_delays[] = { 1, 4, 16, 64, 256 };
#define MAX_ATTEMPTS ((int) G_N_ELEMENTS (retry_delays) + 1)

struct _TriageWebhooks
{
  TriageServer *server;
  SoupSession  *session;       /* the system's proxy settings apply */
  SoupSession  *direct;        /* to a loopback address: never through a proxy */
  GHashTable   *in_flight;     /* Attempt set */
  GHashTable   *per_service;   /* service id → attempts in flight */
  guint         timer;         /* the next due row */
  guint         poll;          /* a shared store's look for rows of other servers */
  gboolean      scan_queued;   /* a scan waits for the open batch to commit */
  gboolean      stopping;
};

/* Rows claimed, waiting for the claim to be durable. */
typedef struct
{
  TriageWebhooks *webhooks;
  GPtrArray      *rows;
} Claim;

typedef struct
{
  TriageWebhooks   *webhooks;
  TriageWebhookRow *row;
  SoupMessage      *msg;
  GCancellable     *cancellable;
  GInputStream     *answer;
  guint             timeout;
  gboolean          timed_out;
  gsize             read;
  char              buffer[4096];
} Attempt;

static void scan (TriageWebhooks *self);

/* X-ATP-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t "." body)> */
static char *
signature (const char *secret,
           const char *body,
           gint64      t)
{
  g_autoptr(GHmac) hmac = g_hmac_new (G_CHECKSUM_SHA256, (const guchar *) secret, strlen (secret));
  g_autofree char *stamp = g_strdup_printf ("%" G_GINT64_FORMAT, t);

  g_hmac_update (hmac, (const guchar *) stamp, -1);
  g_hmac_update (hmac, (const guchar *) ".", 1);
  g_hmac_update (hmac, (const guchar *) body, -1);
  return g_strdup_printf ("t=%s,v1=%s", stamp, g_hmac_get_string (hmac));
}

/* The host of @url, for log lines: a callback URL may carry a token in its
 * path or query, so it is never logged whole. */
static char *
url_host (const char *url)
{
  g_autoptr(GUri) uri = url ? g_uri_parse (url, G_URI_FLAGS_ENCODED, NULL) : NULL;

  return g_strdup (uri && g_uri_get_host (uri) ? g_uri_get_host (uri) : "(no host)");
}

static void
count_service (TriageWebhooks *self,
               const char     *service_id,
               int             change)
{
  guint count = GPOINTER_TO_UINT (g_hash_table_lookup (self->per_service, service_id)) + change;

  if (count == 0)
    g_hash_table_remove (self->per_service, service_id);
  else
    g_hash_table_insert (self->per_service, g_strdup (service_id), GUINT_TO_POINTER (count));
}

/* What one attempt came to, written to the queue: delivered (@failure NULL),
 * retried later, or failed for good. */
static void
record (Attempt    *attempt,
        const char *failure)
{
  TriageStore *store = attempt->webhooks->server->store;
  TriageWebhookRow *row = attempt->row;
  g_autofree char *host = NULL;
  int attempts;

  if (failure == NULL)
    {
      g_debug ("webhook %s delivered (notification %s, service %s)", row->request_id,
               row->notification_id, row->service_id);
      triage_store_remove_webhook (store, row->id);
      triage_metrics_webhook (TRUE, FALSE);
      return;
    }
  attempts = row->attempts + 1;
  triage_metrics_webhook (FALSE, attempts >= MAX_ATTEMPTS);
  host = url_host (row->callback_url);
  if (attempts >= MAX_ATTEMPTS)
    {
      g_message ("webhook %s to %s for notification %s (service %s) failed for good after %d "
                 "attempts: %s", row->request_id, host, row->notification_id, row->service_id,
                 attempts, failure);
      triage_store_schedule_webhook (store, row->id, attempts, 0, failure);
      return;
    }
  g_debug ("webhook %s to %s: attempt %d failed (%s), next in %u s", row->request_id, host,
           attempts, failure, retry_delays[attempts - 1]);
  triage_store_schedule_webhook (store, row->id, attempts,
                                 g_get_real_time () + retry_delays[attempts - 1] * G_USEC_PER_SEC,
                                 failure);
}

static void
attempt_free (Attempt *attempt)
{
  g_clear_handle_id (&attempt->timeout, g_source_remove);
  g_clear_object (&attempt->answer);
  g_clear_object (&attempt->cancellable);
  g_clear_object (&attempt->msg);
  triage_webhook_row_free (attempt->row);
  g_free (attempt);
}

/* The attempt's slot is free: the next due rows may go. */
static void
attempt_done (Attempt *attempt)
{
  TriageWebhooks *self = attempt->webhooks;

  g_hash_table_remove (self->in_flight, attempt);
  count_service (self, attempt->row->service_id, -1);
  attempt_free (attempt);
  if (!self->stopping)
    scan (self);
}

static gboolean
attempt_timed_out (gpointer data)
{
  Attempt *attempt = data;

  attempt->timeout = 0;
  attempt->timed_out = TRUE;
  g_cancellable_cancel (attempt->cancellable);
  return G_SOURCE_REMOVE;
}

static void
answer_closed_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      data)
{
  g_input_stream_close_finish (G_INPUT_STREAM (object), result, NULL);
  attempt_done (data);
}

/* The receiver's answer body is read and thrown away, up to a cap, so a
 * connection can be kept for the next delivery; past the cap (or the
 * attempt's time) closing the stream drops the connection unread. */
static void
answer_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      data)
{
  Attempt *attempt = data;
  gssize n = g_input_stream_read_finish (attempt->answer, result, NULL);

  if (n > 0 && (attempt->read += (gsize) n) <= MAX_ANSWER_READ)
    {
      g_input_stream_read_async (attempt->answer, attempt->buffer, sizeof attempt->buffer,
                                 G_PRIORITY_DEFAULT, attempt->cancellable, answer_read_cb, attempt);
      return;
    }
  g_input_stream_close_async (attempt->answer, G_PRIORITY_DEFAULT, NULL, answer_closed_cb, attempt);
}

static void
sent_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      data)
{
  Attempt *attempt = data;
  g_autoptr(GError) error = NULL;
  guint status;

  attempt->answer = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (attempt->answer == NULL)
    {
      if (attempt->timed_out)
        record (attempt, "no answer within 5 seconds");
      else if (attempt->webhooks->stopping)
        /* Cut short by a shutdown: due again as soon as the server is back. */
        triage_store_schedule_webhook (attempt->webhooks->server->store, attempt->row->id,
                                       attempt->row->attempts, g_get_real_time (), NULL);
      else
        record (attempt, error->message);
      attempt_done (attempt);
      return;
    }
  status = soup_message_get_status (attempt->msg);
  if (SOUP_STATUS_IS_SUCCESSFUL (status))
    record (attempt, NULL);
  else
    {
      /* The reason phrase is the receiver's text: only the code is kept. */
      g_autofree char *failure = g_strdup_printf ("HTTP %u%s", status,
                                                  SOUP_STATUS_IS_REDIRECTION (status)
                                                    ? " (redirects are not followed)" : "");

      record (attempt, failure);
    }
  g_input_stream_read_async (attempt->answer, attempt->buffer, sizeof attempt->buffer,
                             G_PRIORITY_DEFAULT, attempt->cancellable, answer_read_cb, attempt);
}

/* Starts an attempt of @row, claimed by this server. */
static void
start (TriageWebhooks   *self,
       TriageWebhookRow *row)
{
  TriageStore *store = self->server->store;
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *signed_header = NULL;
  SoupMessageHeaders *headers;
  SoupSession *session;
  Attempt *attempt;
  gint64 now = g_get_real_time ();

  /* Registration checks the URL by the same rule; a URL stored before the
   * rule it breaks can never be used: the delivery fails for good now,
   * logged once, rather than be tried and fail six times (or be sent
   * somewhere nobody registered). */
  if (row->callback_url == NULL)
    g_set_error_literal (&error, ATP_ERROR, ATP_ERROR_INVALID_CALLBACK_URL, "no callback_url");
  else
    uri = triage_server_parse_callback_url (row->callback_url, &error);
  if (uri == NULL)
    {
      g_message ("webhook %s for notification %s (service %s) failed for good: the service's "
                 "callback_url cannot be used: %s", row->request_id, row->notification_id,
                 row->service_id, error->message);
      triage_metrics_webhook (FALSE, TRUE);
      triage_store_schedule_webhook (store, row->id, row->attempts, 0, error->message);
      triage_webhook_row_free (row);
      return;
    }
  /* libsoup's default resolver takes http_proxy and its kin from the
   * environment, which would send a loopback callback (and its signed body)
   * to whatever listens there, or nowhere. */
  session = triage_server_is_loopback_host (g_uri_get_host (uri)) ? self->direct : self->session;

  attempt = g_new0 (Attempt, 1);
  attempt->webhooks = self;
  attempt->row = row;
  attempt->cancellable = g_cancellable_new ();
  attempt->msg = soup_message_new_from_uri ("POST", uri);
  soup_message_add_flags (attempt->msg, SOUP_MESSAGE_NO_REDIRECT);
  body = g_bytes_new (row->body, strlen (row->body));
  soup_message_set_request_body_from_bytes (attempt->msg, "application/json", body);
  /* Signed anew on every attempt: a retry minutes later must still pass the
   * receiver's 300-second check; the request id stays. */
  signed_header = signature (row->webhook_secret ? row->webhook_secret : "", row->body,
                             now / G_USEC_PER_SEC);
  headers = soup_message_get_request_headers (attempt->msg);
  soup_message_headers_replace (headers, "X-ATP-Signature", signed_header);
  soup_message_headers_replace (headers, "X-ATP-Request-ID", row->request_id);
  if (row->event != NULL)
    soup_message_headers_replace (headers, "X-Triage-Event", row->event);

  g_hash_table_add (self->in_flight, attempt);
  count_service (self, row->service_id, +1);
  attempt->timeout = g_timeout_add (ATTEMPT_TIMEOUT_MS, attempt_timed_out, attempt);
  soup_session_send_async (session, attempt->msg, G_PRIORITY_DEFAULT, attempt->cancellable,
                           sent_cb, attempt);
}

static gboolean
on_timer (gpointer data)
{
  TriageWebhooks *self = data;

  self->timer = 0;
  scan (self);
  return G_SOURCE_REMOVE;
}

static void
on_claimed (gpointer data,
            gboolean committed)
{
  Claim *claim = data;
  TriageWebhooks *self = claim->webhooks;
  TriageStore *store = self->server->store;

  for (guint i = 0; i < claim->rows->len; i++)
    {
      TriageWebhookRow *row = claim->rows->pdata[i];

      /* Not claimed after all (the batch failed): due as before, for the
       * next scan. */
      if (!committed)
        continue;
      /* Stopping, or more of one service than its share: back in the queue,
       * due now. */
      if (self->stopping ||
          GPOINTER_TO_UINT (g_hash_table_lookup (self->per_service, row->service_id)) >=
          MAX_PER_SERVICE || g_hash_table_size (self->in_flight) >= MAX_IN_FLIGHT)
        triage_store_schedule_webhook (store, row->id, row->attempts, g_get_real_time (), NULL);
      else
        start (self, g_steal_pointer (&claim->rows->pdata[i]));
    }
  g_ptr_array_unref (claim->rows);
  g_free (claim);
  if (!committed && !self->stopping && self->timer == 0)
    self->timer = g_timeout_add_seconds (1, on_timer, self);
}

static void
scan_after_commit (gpointer data,
                   gboolean committed)
{
  TriageServer *server = data;

  if (server->webhooks == NULL)
    return;
  server->webhooks->scan_queued = FALSE;
  scan (server->webhooks);
}

/* Starts what is due and sets the timer for what is due next. */
static void
scan (TriageWebhooks *self)
{
  TriageStore *store = self->server->store;
  guint in_flight = g_hash_table_size (self->in_flight);
  g_autoptr(GPtrArray) rows = NULL;
  gint64 now, next;

  if (self->stopping)
    return;
  /* A row of the open batch is not durable yet: it must not be sent. */
  if (triage_store_in_batch (store))
    {
      if (!self->scan_queued)
        {
          self->scan_queued = TRUE;
          triage_store_after_commit (store, scan_after_commit, self->server);
        }
      return;
    }
  g_clear_handle_id (&self->timer, g_source_remove);
  now = g_get_real_time ();
  if (in_flight < MAX_IN_FLIGHT)
    {
      g_autoptr(GPtrArray) busy = g_ptr_array_new ();
      GHashTableIter iter;
      gpointer service, count;
      Claim *claim;

      /* Services at their share are left out; one with attempts under way
       * may get more rows than it can take: on_claimed() puts them back. */
      g_hash_table_iter_init (&iter, self->per_service);
      while (g_hash_table_iter_next (&iter, &service, &count))
        if (GPOINTER_TO_UINT (count) >= MAX_PER_SERVICE)
          g_ptr_array_add (busy, service);
      g_ptr_array_add (busy, NULL);
      rows = triage_store_claim_webhooks (store, now, now + LEASE_US,
                                          (const char * const *) busy->pdata, MAX_PER_SERVICE,
                                          MAX_IN_FLIGHT - in_flight);
      if (rows->len > 0)
        {
          claim = g_new0 (Claim, 1);
          claim->webhooks = self;
          claim->rows = g_steal_pointer (&rows);
          triage_store_after_commit (store, on_claimed, claim);
        }
    }
  next = triage_store_next_webhook (store);
  if (next == 0)
    return;
  if (next > now)
    self->timer = g_timeout_add ((guint) MIN ((next - now) / 1000 + 1, G_MAXINT), on_timer, self);
  else if (g_hash_table_size (self->in_flight) == 0)
    self->timer = g_timeout_add_seconds (1, on_timer, self);   /* never stall */
  /* else: rows wait for a free slot; the attempt that frees it scans again. */
}

/* Called on every end: a responded, expired or invalidated notification of a
 * service with a callback_url joins the queue, in the same batch as the
 * transition, and goes once that batch is durable. When its delivery cannot
 * be queued (the service's lookup or the row's insert failed) the batch is
 * failed: the end is not stored either, and is made again (the person's
 * answer retried after its 503, an expiry at the next look), never committed
 * without the delivery it owes. */
void
triage_server_webhook_changed (TriageServer          *self,
                               TriageNotificationRow *row,
                               int                    status,
                               const char            *reason)
{
  g_autoptr(TriageServiceRow) service = NULL;
  const char *id = row->id;
  g_autofree char *request_id = NULL, *body = NULL;
  const TriageServerProtocol *protocol;
  const char *event = NULL;
  g_autoptr(GError) error = NULL;

  if (status != ATP_STATUS_RESPONDED && status != ATP_STATUS_EXPIRED &&
      status != ATP_STATUS_INVALIDATED)
    return;
  if ((service = triage_store_service_by_id (self->store, row->service_id, &error)) == NULL ||
      service->callback_url == NULL)
    {
      if (error != NULL)
        {
          triage_server_fail_change (self, error, "the end of notification %s: its webhook "
                                     "cannot be queued", id);
          return;
        }
      return;
    }
  if ((protocol = triage_server_protocol (row->protocol)) == NULL ||
      (body = protocol->webhook_body (row, status, reason, &event)) == NULL)
    return;
  request_id = atp_new_uuid ();
  if (!triage_store_add_webhook (self->store, request_id, service->id, id, event, body,
                                 g_get_real_time ()))
    {
      g_set_error (&error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "the webhook of notification %s could not be queued", id);
      triage_server_fail_change (self, error, "the end of notification %s", id);
      return;
    }
  /* Before the runner starts (expiries found at start-up) the row waits for it. */
  if (self->webhooks != NULL)
    scan (self->webhooks);
  return;
}

static gboolean
on_poll (gpointer data)
{
  scan (data);
  return G_SOURCE_CONTINUE;
}

/* Resumes the queue left by an earlier run: what is due goes now, the rest on
 * its schedule. */
void
triage_server_setup_webhooks (TriageServer *self)
{
  TriageWebhooks *webhooks = g_new0 (TriageWebhooks, 1);

  webhooks->server = self;
  webhooks->session = soup_session_new_with_options ("user-agent", "triage-server",
                                                     "max-conns", MAX_IN_FLIGHT,
                                                     "max-conns-per-host", 2 * MAX_PER_SERVICE,
                                                     NULL);
  webhooks->direct = soup_session_new_with_options ("user-agent", "triage-server",
                                                    "max-conns", MAX_IN_FLIGHT,
                                                    "max-conns-per-host", 2 * MAX_PER_SERVICE,
                                                    "proxy-resolver", NULL,
                                                    NULL);
  webhooks->in_flight = g_hash_table_new (NULL, NULL);
  webhooks->per_service = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->webhooks = webhooks;
  if (triage_store_is_shared (self->store))
    webhooks->poll = g_timeout_add_seconds (SHARED_POLL_S, on_poll, webhooks);
  scan (webhooks);
}

static void
set_true (gpointer data)
{
  *(gboolean *) data = TRUE;
}

/* Stops without losing a delivery: attempts under way are cancelled and their
 * rows made due at once, for the next start to send. */
void
triage_server_shutdown_webhooks (TriageServer *self)
{
  TriageWebhooks *webhooks = self->webhooks;
  GHashTableIter iter;
  gpointer attempt;
  gboolean late = FALSE;
  guint wait;

  if (webhooks == NULL)
    return;
  webhooks->stopping = TRUE;
  g_clear_handle_id (&webhooks->timer, g_source_remove);
  g_clear_handle_id (&webhooks->poll, g_source_remove);
  g_hash_table_iter_init (&iter, webhooks->in_flight);
  while (g_hash_table_iter_next (&iter, &attempt, NULL))
    g_cancellable_cancel (((Attempt *) attempt)->cancellable);
  /* Their callbacks run on the next iterations; libsoup returns cancelled
   * operations at once, the bound is only a guard. */
  wait = g_timeout_add_once (SHUTDOWN_WAIT_MS, set_true, &late);
  while (g_hash_table_size (webhooks->in_flight) > 0 && !late)
    g_main_context_iteration (NULL, TRUE);
  if (!late)
    g_source_remove (wait);
  /* Claims waiting for their batch put their rows back now, not once the
   * runner is gone. */
  triage_store_commit (self->store, NULL);
  self->webhooks = NULL;
  g_clear_object (&webhooks->session);
  g_clear_object (&webhooks->direct);
  g_hash_table_unref (webhooks->in_flight);
  g_hash_table_unref (webhooks->per_service);
  g_free (webhooks);
}
