/* triage-outbox-retry.c — when the outbox tries its answers again
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "triage-outbox-retry.h"

/* The timer fired: none is armed any more when its function runs (which
 * may arm the next). */
static gboolean
fired_cb (gpointer data)
{
  TriageOutboxRetry *retry = data;

  retry->id = 0;
  retry->func (retry->data);

  return G_SOURCE_REMOVE;
}

/* @func (@data) runs when the timer fires. */
void
triage_outbox_retry_init (TriageOutboxRetry *retry,
                          void             (*func) (gpointer data),
                          gpointer           data)
{
  retry->id = 0;
  retry->at = 0;
  retry->delay_ms = 0;
  retry->probing = FALSE;
  retry->func = func;
  retry->data = data;
}

/* Fires at @at (monotonic usec). */
static void
retry_at (TriageOutboxRetry *retry,
          gint64             at)
{
  gint64 now = g_get_monotonic_time ();

  retry->at = at;
  /* Whole milliseconds, up: never before @at. */
  retry->id = g_timeout_add ((guint) ((MAX (at - now, 0) + 999) / 1000), fired_cb, retry);
}

/* After a failed send: the next step of the backoff (1 s, doubled each
 * time up to 60 s), unless a timer is armed already. */
void
triage_outbox_retry_backoff (TriageOutboxRetry *retry)
{
  guint delay;

  if (retry->id != 0)
    return;

  retry->delay_ms = retry->delay_ms == 0
                    ? TRIAGE_OUTBOX_RETRY_MIN_MS
                    : MIN (retry->delay_ms * 2, TRIAGE_OUTBOX_RETRY_MAX_MS);
  /* Between half the delay and all of it, so that many apps that lost the
   * same server do not all come back at the same moment. */
  delay = g_random_int_range (retry->delay_ms / 2, retry->delay_ms + 1);
  retry_at (retry, g_get_monotonic_time () + (gint64) delay * 1000);
}

/* Disarms the timer; the backoff goes on where it was. */
void
triage_outbox_retry_cancel (TriageOutboxRetry *retry)
{
  g_clear_handle_id (&retry->id, g_source_remove);
}

/* The next backoff starts from the least delay again (a send went through,
 * a new connection). */
void
triage_outbox_retry_reset (TriageOutboxRetry *retry)
{
  retry->delay_ms = 0;
}

/* The server asked the client to wait (a 429's or 503's Retry-After): once
 * it is over, one answer goes alone until the server has taken one. Sent
 * all at once against a rate limit, all but the first met another 429 and
 * waited again. */
void
triage_outbox_retry_held (TriageOutboxRetry *retry)
{
  retry->probing = TRUE;
}

/* Whether another answer may go now, with @n_in_flight on their way. */
gboolean
triage_outbox_retry_may_send (TriageOutboxRetry *retry,
                              guint              n_in_flight)
{
  return !retry->probing || n_in_flight == 0;
}

/* The server took an answer (settled it, or refused it for good: it serves
 * again), or the client changed: the answers go as they come again.
 * Returns whether they were going one at a time (the rest are due now). */
gboolean
triage_outbox_retry_taken (TriageOutboxRetry *retry)
{
  gboolean was = retry->probing;

  retry->probing = FALSE;
  return was;
}
