/* triage-service-request.h — one request sent, then waited for until a person settles it
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "atp-client.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_SERVICE_REQUEST (triage_service_request_get_type ())

/**
 * TriageServiceRequest:
 *
 * A request as a service sends it: the notification body (JSON text with
 * its id fixed) POSTed, with the same id and body on every try so a retry is
 * idempotent, then waited for with long-polls (`GET …?wait=N`) until its
 * status leaves pending. No connection, 5xx and 429 are retried with backoff
 * (500 ms doubling to 15 s, full jitter) until the retry window has passed
 * since the first failure in a row; any other failure ends the operation at
 * once. One operation at a time. Cancelling an operation ends it promptly
 * with %G_IO_ERROR_CANCELLED; withdrawing the request is the caller's choice
 * (triage_service_request_withdraw_async()).
 */
G_DECLARE_FINAL_TYPE (TriageServiceRequest, triage_service_request, TRIAGE, SERVICE_REQUEST, GObject)

TriageServiceRequest *triage_service_request_new            (AtpClient             *client,
                                                             const char            *notification_id,
                                                             const char            *body,
                                                             gint64                 retry_for_us);

/*
 * The same for another protocol's endpoints: @collection ("/api/v1/afp/reviews")
 * takes the POST of @body, `@collection/@id?wait=N` the long-polls and
 * `@collection/@id` the PATCH that withdraws. Its answers are JSON objects
 * (the _json_finish functions); a request is waiting while its `status` is
 * pending, created, delivered or acknowledged. @id may be %NULL where the
 * server names the request: the `id` of the POST's answer is then waited for
 * (AITP's decisions).
 */
TriageServiceRequest *triage_service_request_new_at         (AtpClient             *client,
                                                             const char            *collection,
                                                             const char            *id,
                                                             const char            *body,
                                                             gint64                 retry_for_us);

const char           *triage_service_request_get_notification_id (TriageServiceRequest *self);
AtpClient            *triage_service_request_get_client     (TriageServiceRequest  *self);

/* POST /api/v1/notifications, retried. Finish: (transfer full) the server's answer. */
void                  triage_service_request_send_async     (TriageServiceRequest  *self,
                                                             GCancellable          *cancellable,
                                                             GAsyncReadyCallback    callback,
                                                             gpointer               user_data);
AtpPostResult        *triage_service_request_send_finish    (TriageServiceRequest  *self,
                                                             GAsyncResult          *result,
                                                             GError               **error);

/* The 201's object, for a request made with triage_service_request_new_at(). */
JsonNode             *triage_service_request_send_json_finish (TriageServiceRequest *self,
                                                             GAsyncResult          *result,
                                                             GError               **error);

/* Long-polls (@wait_seconds each, ≤ 60) until the request is responded, expired or
 * invalidated. Finish: (transfer full) the settled notification (with its response
 * when responded). */
void                  triage_service_request_wait_async     (TriageServiceRequest  *self,
                                                             guint                  wait_seconds,
                                                             GCancellable          *cancellable,
                                                             GAsyncReadyCallback    callback,
                                                             gpointer               user_data);
AtpNotification      *triage_service_request_wait_finish    (TriageServiceRequest  *self,
                                                             GAsyncResult          *result,
                                                             GError               **error);

/* The settled request's object, for a request made with triage_service_request_new_at(). */
JsonNode             *triage_service_request_wait_json_finish (TriageServiceRequest *self,
                                                             GAsyncResult          *result,
                                                             GError               **error);

/* No connection, a try's timeout, 5xx (but 500 NOTIFICATION_UNREADABLE), 429, or a 404
 * without ATP's error object: a failure that passes, worth another try. */
gboolean              triage_service_error_is_transient      (const GError          *error);

/* No server reached, or the connection lost before the answer (%ATP_ERROR_CONNECTION_FAILED,
 * %ATP_ERROR_CONNECTION_LOST). */
gboolean              triage_service_error_is_unreachable    (const GError          *error);

/* Whether @error, which ended an operation, leaves the request pending with nobody
 * waiting for it once the caller gives up: the server took it (a POST was answered
 * 2xx) or may have (a POST went out whole and its answer was lost,
 * %ATP_ERROR_CONNECTION_LOST), then could not be reached or failed (no connection, a
 * try's timeout, 5xx, 429) for longer than the retry window. The caller withdraws it
 * (which posts the same body again first where no POST was answered). */
gboolean              triage_service_request_left_pending   (TriageServiceRequest  *self,
                                                             const GError          *error);

/* FALSE once a send began and no POST of it reached the server (every connection failed,
 * as the server was down): the server knows nothing of the request, and a withdrawal has
 * nothing to take back. A POST cut off by a cancel may have gone out: TRUE. */
gboolean              triage_service_request_may_exist     (TriageServiceRequest  *self);

/* PATCH … {status: invalidated, reason}, within 5 s: a try that fails for a reason that
 * passes (no connection, 5xx, 429) is tried again after 100 ms, doubling to 1 s, while
 * the 5 s last; cancelled while it waits to try again, it ends at once. Finish: %TRUE when
 * withdrawn; %ATP_ERROR_NOTIFICATION_NOT_FOUND when it never reached the server. */
void                  triage_service_request_withdraw_async (TriageServiceRequest  *self,
                                                             const char            *reason,
                                                             GCancellable          *cancellable,
                                                             GAsyncReadyCallback    callback,
                                                             gpointer               user_data);
gboolean              triage_service_request_withdraw_finish (TriageServiceRequest *self,
                                                             GAsyncResult          *result,
                                                             GError               **error);

G_END_DECLS
