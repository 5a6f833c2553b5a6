/* atp-client.h — the HTTP side of ATP: REST calls for clients and services
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "atp-notification.h"
#include "atp-response.h"

G_BEGIN_DECLS

/* The default service id a trusted local caller is known by (contract). */
#define ATP_LOCAL_DEFAULT_SERVICE_ID "local"

/* Caps on what the client reads from a server (see docs/protocol.md). */
#define ATP_CLIENT_MAX_ANSWER_SIZE  (2 * 1024 * 1024)   /* one object */
#define ATP_CLIENT_MAX_PAGE_SIZE    (64 * 1024 * 1024)  /* a list page */
/* Connections to the server at once. libsoup's default of 2 per host would hold
 * every request behind two long-polls (triage-mcp waits for many questions at
 * once, each with a long-poll of up to 60 s; it keeps 8 of these free for the
 * posts and withdrawals behind them, so 56 wait at most: triage-mcp-calls.c). */
#define ATP_CLIENT_MAX_CONNECTIONS  64
/* The longest long-poll the protocol allows (?wait=N). */
#define ATP_CLIENT_MAX_WAIT_SECONDS 60

/**
 * AtpListQuery:
 * @status: (nullable): "pending" (created, delivered or acknowledged), one of
 *   the six status names, or %NULL for the server's default
 * @service_id: (nullable): only this service's notifications
 * @project: (nullable): only this project
 * @cursor: (nullable): the `next_cursor` of the previous page
 * @limit: page size: 1–100 for any ATP server, up to 1,000 for triage-server
 *   since its resync pages grew (an older one answers 400 INVALID_PARAMETER);
 *   0 for the server's default (50)
 * @oldest_first: `sort=oldest` instead of `newest`
 *
 * The filters of `GET /api/v1/client/notifications`. The caller owns the
 * strings; the client copies what it needs before the call returns.
 */
typedef struct
{
  const char *status;
  const char *service_id;
  const char *project;
  const char *cursor;
  guint       limit;
  gboolean    oldest_first;
} AtpListQuery;

/**
 * AtpNotificationPage:
 * @notifications: (element-type AtpNotification): the page, never %NULL
 * @next_cursor: (nullable): pass it as #AtpListQuery.cursor for the next page
 * @has_more: whether another page follows
 * @total_count: the number of matches the server reported, -1 if it did not
 */
typedef struct
{
  GPtrArray *notifications;
  char      *next_cursor;
  gboolean   has_more;
  gint64     total_count;
  /*< private >*/
  gatomicrefcount ref_count;
} AtpNotificationPage;

/**
 * AtpPostResult:
 * @notification_id: the id the server stored the notification under
 * @status: its status when answered (normally %ATP_STATUS_CREATED; another
 *   one when an idempotent retry finds it already delivered or settled)
 * @estimated_delivery: (nullable): the server's estimate, as sent
 */
typedef struct
{
  char      *notification_id;
  AtpStatus  status;
  GDateTime *estimated_delivery;
  /*< private >*/
  gatomicrefcount ref_count;
} AtpPostResult;

#define ATP_TYPE_NOTIFICATION_PAGE (atp_notification_page_get_type ())
#define ATP_TYPE_POST_RESULT       (atp_post_result_get_type ())

GType                atp_notification_page_get_type (void) G_GNUC_CONST;
AtpNotificationPage *atp_notification_page_ref      (AtpNotificationPage *self);
void                 atp_notification_page_unref    (AtpNotificationPage *self);

GType                atp_post_result_get_type       (void) G_GNUC_CONST;
AtpPostResult       *atp_post_result_ref            (AtpPostResult       *self);
void                 atp_post_result_unref          (AtpPostResult       *self);

#define ATP_TYPE_CLIENT (atp_client_get_type ())

/**
 * AtpClient:
 *
 * One connection description to an ATP server — a base URL (http or https),
 * or the local server's Unix socket — with one #SoupSession, the credentials
 * (a bearer token, or none over the trusted local socket) and, for service
 * calls over the local socket, the service identity sent in the
 * `X-Triage-Service` / `X-Triage-Service-Name` headers.
 *
 * Every call is asynchronous. Failures are always in %ATP_ERROR:
 * - a non-2xx answer: the error object of its body mapped with
 *   atp_error_info_to_gerror() (code mapped, request id kept in the message);
 *   a body that is no error object still maps by HTTP status;
 * - no answer (refused, unknown host, TLS failure, the server going away
 *   mid-request, no answer in time): %ATP_ERROR_CONNECTION_FAILED with a
 *   message such as "Cannot reach http://127.0.0.1:8080: Connection refused";
 *   but %ATP_ERROR_CONNECTION_LOST for a request that changes something
 *   (any method but GET, HEAD and OPTIONS) once it went out whole: the
 *   server may have acted on it (a POST stored, its answer lost);
 * - a 2xx whose body is not what the protocol promises:
 *   %ATP_ERROR_PROTOCOL; an answer over the size caps:
 *   %ATP_ERROR_PAYLOAD_TOO_LARGE.
 * Cancellation keeps %G_IO_ERROR_CANCELLED.
 *
 * Properties: #AtpClient:base-url and #AtpClient:socket-path (construct
 * only), #AtpClient:token (write-only; notifies when it changes, which an
 * #AtpStream in the auth-failed state takes as the cue to try again),
 * #AtpClient:service-id, #AtpClient:service-name, #AtpClient:timeout.
 * The token is never logged and never readable back as a property.
 */
G_DECLARE_FINAL_TYPE (AtpClient, atp_client, ATP, CLIENT, GObject)

/**
 * atp_client_check_url:
 * @url: an address as a person typed it
 * @error: %ATP_ERROR_INVALID_FIELD_VALUE with a message for that person
 *
 * The remote address policy: http(s) or ws(s) with a host and no user
 * info, query or fragment; the secure schemes are required unless the host
 * is a loopback address (127.0.0.0/8, ::1, localhost).
 *
 * Returns: whether @url may be used
 */
gboolean     atp_client_check_url                    (const char           *url,
                                                      GError              **error);

/* A client for a base URL (the path, if any, is kept as a prefix); the URL
 * must pass atp_client_check_url(). ws/wss are taken as http/https. */
AtpClient   *atp_client_new                          (const char           *base_url,
                                                      GError              **error);
/* A client for a server on a Unix socket (requests go to http://localhost/…). */
AtpClient   *atp_client_new_for_socket               (const char           *socket_path);

const char  *atp_client_get_base_url                 (AtpClient            *self);
const char  *atp_client_get_socket_path              (AtpClient            *self);
gboolean     atp_client_is_local                     (AtpClient            *self);
/* A short description for messages: the URL, or "the local server at PATH". */
const char  *atp_client_get_display_name             (AtpClient            *self);

/* The bearer token (user token or service key); NULL for none. Emits
 * AtpClient::token-changed when it changes. */
void         atp_client_set_token                    (AtpClient            *self,
                                                      const char           *token);
gboolean     atp_client_has_token                    (AtpClient            *self);

/* X-Triage-Service / X-Triage-Service-Name on service calls (NULL: not sent). */
void         atp_client_set_service                  (AtpClient            *self,
                                                      const char           *service_id,
                                                      const char           *service_name);
const char  *atp_client_get_service_id               (AtpClient            *self);

/* How long a request may go without an answer, in seconds (default 30);
 * a long-poll gets its wait on top. */
void         atp_client_set_timeout                  (AtpClient            *self,
                                                      guint                 seconds);
guint        atp_client_get_timeout                  (AtpClient            *self);

/* Until when (monotonic microseconds) the server asked this client to wait
 * before its next request: the latest `Retry-After` of a 429 or 503 that a
 * request of this client was answered with, capped at
 * ATP_ERROR_RETRY_AFTER_MAX seconds. It is the server's word for the whole
 * client, not only for the request refused: callers that send on their own
 * (the app's outbox and lookups) start nothing while atp_client_is_held (),
 * and resume on the "hold-until" property's notify, which comes when a wait
 * starts or lengthens and when it is over (from a timer of the thread-default
 * main context the refusal came in; the value is 0 then). 0 when none was
 * asked for. Requests are not held back by the client itself. */
gint64       atp_client_get_hold_until               (AtpClient            *self);
gboolean     atp_client_is_held                      (AtpClient            *self);

/* The protocols whose requests the client role lists and streams (one bit
 * per AtpProtocol; default: ATP only, what an ATP-only client reads). Any
 * other set is sent as `protocols=` (docs/architecture.md). */
void         atp_client_set_protocols                (AtpClient            *self,
                                                      guint                 mask);
guint        atp_client_get_protocols                (AtpClient            *self);

/* Client role (user token, or the default user over the local socket) */

void                 atp_client_list_notifications_async  (AtpClient            *self,
                                                           const AtpListQuery   *query,
                                                           GCancellable         *cancellable,
                                                           GAsyncReadyCallback   callback,
                                                           gpointer              user_data);
AtpNotificationPage *atp_client_list_notifications_finish (AtpClient            *self,
                                                           GAsyncResult         *result,
                                                           GError              **error);

/**
 * atp_client_list_pending_async:
 *
 * Every pending notification of the user, oldest first, fetched page by
 * page (100 a page) until `has_more` is false. Refuses a server whose
 * cursor does not advance (%ATP_ERROR_PROTOCOL) and stops at 100,000 items.
 * A notification listed on two pages (it moved while paging) is kept once.
 *
 * The finish function returns (transfer container) (element-type
 * AtpNotification) a #GPtrArray that frees its items.
 */
void                 atp_client_list_pending_async        (AtpClient            *self,
                                                           GCancellable         *cancellable,
                                                           GAsyncReadyCallback   callback,
                                                           gpointer              user_data);
GPtrArray           *atp_client_list_pending_finish       (AtpClient            *self,
                                                           GAsyncResult         *result,
                                                           GError              **error);

void                 atp_client_get_notification_async    (AtpClient            *self,
                                                           const char           *notification_id,
                                                           GCancellable         *cancellable,
                                                           GAsyncReadyCallback   callback,
                                                           gpointer              user_data);
AtpNotification     *atp_client_get_notification_finish   (AtpClient            *self,
                                                           GAsyncResult         *result,
                                                           GError              **error);

/**
 * atp_client_respond_async:
 * @response_data: (nullable): the answer; %NULL is sent as JSON null
 *
 * `POST /api/v1/client/respond`. The answer is not validated here (the
 * caller validates with atp_action_validate_response(); the server checks
 * again). Sending the same answer again is safe: the server answers a retry
 * of the recorded answer with 200.
 *
 * The finish function returns (transfer full) the response as recorded:
 * notification and action ids and `responded_at` from the server, the
 * `response_data` sent, and the responder the server named (or an empty
 * responder id and %ATP_RESPONDER_HUMAN when it named none).
 */
void                 atp_client_respond_async             (AtpClient            *self,
                                                           const char           *notification_id,
                                                           const char           *action_id,
                                                           JsonNode             *response_data,
                                                           GCancellable         *cancellable,
                                                           GAsyncReadyCallback   callback,
                                                           gpointer              user_data);
AtpResponse         *atp_client_respond_finish            (AtpClient            *self,
                                                           GAsyncResult         *result,
                                                           GError              **error);

/* Service role (service key, or X-Triage-Service over the local socket) */

/**
 * atp_client_post_notification_async:
 * @notification: a submission; its `id` (if any) is kept, which makes a
 *   retry idempotent: the same id and body again returns the first answer
 *
 * `POST /api/v1/notifications`.
 */
void                 atp_client_post_notification_async  (AtpClient            *self,
                                                           AtpNotification      *notification,
                                                           GCancellable         *cancellable,
                                                           GAsyncReadyCallback   callback,
                                                           gpointer              user_data);
/* The same with the body as JSON text, sent as it is (not validated here). */
void                 atp_client_post_notification_data_async (AtpClient         *self,
                                                           const char           *data,
                                                           gssize                length,
                                                           GCancellable         *cancellable,
                                                           GAsyncReadyCallback   callback,
                                                           gpointer              user_data);
/* Finishes both. */
AtpPostResult       *atp_client_post_notification_finish (AtpClient            *self,
                                                           GAsyncResult         *result,
                                                           GError              **error);

/**
 * atp_client_wait_notification_async:
 * @wait_seconds: 0 for an immediate answer, else up to
 *   %ATP_CLIENT_MAX_WAIT_SECONDS: the server holds the request until the
 *   status leaves pending or the time runs out
 *
 * `GET /api/v1/notifications/{id}?wait=N` as the service that sent it: the
 * notification with its status and, once answered, its response.
 */
void                 atp_client_wait_notification_async   (AtpClient            *self,
                                                           const char           *notification_id,
                                                           guint                 wait_seconds,
                                                           GCancellable         *cancellable,
                                                           GAsyncReadyCallback   callback,
                                                           gpointer              user_data);
AtpNotification     *atp_client_wait_notification_finish  (AtpClient            *self,
                                                           GAsyncResult         *result,
                                                           GError              **error);

/* `PATCH /api/v1/notifications/{id}` {status: "invalidated", reason?}. */
void                 atp_client_invalidate_async          (AtpClient            *self,
                                                           const char           *notification_id,
                                                           const char           *reason,
                                                           GCancellable         *cancellable,
                                                           GAsyncReadyCallback   callback,
                                                           gpointer              user_data);
gboolean             atp_client_invalidate_finish         (AtpClient            *self,
                                                           GAsyncResult         *result,
                                                           GError              **error);

/* Other protocols' endpoints */

/**
 * atp_client_call_async:
 * @method: "GET", "POST", "PATCH"…
 * @path_and_query: from the first "/" ("/api/v1/afp/reviews/ID?wait=30")
 * @body: (nullable): JSON text, sent as it is (not checked here)
 * @service_call: as the service (its key, or X-Triage-Service over the
 *   local socket) rather than as the user
 * @wait_seconds: added to the timeout: how long the server may hold a long-poll
 *
 * One call to any endpoint that answers a JSON object, with the errors of
 * every other call (a non-2xx answer's error object, connection failures,
 * the answer cap). The finish function returns (transfer full) the answer.
 */
void                 atp_client_call_async                (AtpClient            *self,
                                                           const char           *method,
                                                           const char           *path_and_query,
                                                           const char           *body,
                                                           gboolean              service_call,
                                                           guint                 wait_seconds,
                                                           GCancellable         *cancellable,
                                                           GAsyncReadyCallback   callback,
                                                           gpointer              user_data);
JsonNode            *atp_client_call_finish               (AtpClient            *self,
                                                           GAsyncResult         *result,
                                                           GError              **error);

/*
 * atp_client_result_went_out:
 * @result: the result of any call of an AtpClient, in its callback (before it is
 *   let go of)
 *
 * Whether the whole request went out to the server (its body written): one cut
 * off by a cancel before that never reached the server whole, so the server
 * cannot have acted on it; one after may have.
 */
gboolean             atp_client_result_went_out           (GAsyncResult         *result);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AtpNotificationPage, atp_notification_page_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AtpPostResult, atp_post_result_unref)

G_END_DECLS
