/* triage-service-request-private.h — what the request's files share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-service-request.h"

G_BEGIN_DECLS

struct _TriageServiceRequest
{
  GObject    parent_instance;

  AtpClient *client;
  char      *collection;      /* another protocol's endpoint ("/api/v1/afp/reviews"); NULL: ATP's */
  char      *notification_id;
  char      *body;
  gint64     retry_for_us;
  gboolean   sending;         /* a send began: the request is this object's to post */
  gboolean   posting;         /* a POST is on its way, or was cut off without telling how far it got; */
  gboolean   reached;         /* one reached the server (answered, or sent whole), */
  gboolean   posted;          /* and one was answered 2xx, */
  gboolean   maybe_posted;    /* or one went out whole and lost its answer */
  gboolean   send_trying;     /* a POST's try is under way, */
  GCancellable *send_cancellable;  /* with this cancellable (nullable) */
  GPtrArray *withdrawals_waiting;  /* GTask: for that try, cancelled, to end */

  gint64     failing_since;   /* monotonic µs of the first failure in a row, 0 if none */
  guint      attempt;
};

/* The next try of an operation (@task's reference passes to it). */
typedef void (*TriageServiceRetryFunc) (GTask *task);

void triage_service_retry_later (GTask                  *task,
                                 guint                   delay_ms,
                                 TriageServiceRetryFunc  again);

/* The withdrawals that waited for a cancelled POST's try to end, tried now. */
void triage_service_request_withdrawals_resume (TriageServiceRequest *self);

G_END_DECLS
