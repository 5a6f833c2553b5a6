/* triage-outbox-retry.h — when the outbox tries its answers again
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Retry delays for answers that could not be sent while online. */
#define TRIAGE_OUTBOX_RETRY_MIN_MS 1000
#define TRIAGE_OUTBOX_RETRY_MAX_MS 60000

/*
 * TriageOutboxRetry:
 *
 * One timer for the next try of every queued answer, and the backoff it
 * follows while sends fail (the server's Retry-After is the client's to
 * time: atp_client_is_held ()); and after such a wait, one answer at a time
 * until the server has taken one. Part of the outbox, which owns it.
 */
typedef struct
{
  guint        id;         /* the timer; 0: none armed */
  gint64       at;         /* monotonic usec when it fires */
  guint        delay_ms;   /* the backoff's last delay; 0: start from the least */
  gboolean     probing;    /* since the server's wait: one answer at a time, till one is taken */
  void       (*func) (gpointer data);
  gpointer     data;
} TriageOutboxRetry;

void triage_outbox_retry_init    (TriageOutboxRetry *retry,
                                  void             (*func) (gpointer data),
                                  gpointer           data);
void triage_outbox_retry_backoff (TriageOutboxRetry *retry);
void triage_outbox_retry_cancel  (TriageOutboxRetry *retry);
void triage_outbox_retry_reset   (TriageOutboxRetry *retry);
void     triage_outbox_retry_held     (TriageOutboxRetry *retry);
gboolean triage_outbox_retry_may_send (TriageOutboxRetry *retry,
                                       guint              n_in_flight);
gboolean triage_outbox_retry_taken    (TriageOutboxRetry *retry);

G_END_DECLS
