/* atp-client-private.h — what AtpStream, AtpLocal and AtpClient's own files use of AtpClient, not API
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libsoup/soup.h>

#include "atp-client.h"

G_BEGIN_DECLS

/* The most pending items atp_client_list_pending_async() takes in. */
#define ATP_CLIENT_MAX_PENDING_ITEMS 100000
/* A resync asks for pages this large, and for ATP's largest (100) from a
 * server that refuses them (one before triage-server took 1,000). */
#define ATP_CLIENT_PAGE_LIMIT        1000
#define ATP_CLIENT_ATP_PAGE_LIMIT    100

SoupSession *atp_client_get_session        (AtpClient    *self);

/* A message for @path_and_query (starting with "/") with the credentials set. */
SoupMessage *atp_client_new_message        (AtpClient    *self,
                                            const char   *method,
                                            const char   *path_and_query,
                                            gboolean      service_call);

/* The `protocols=` value for the client's protocols, NULL for the default (ATP only). */
char        *atp_client_dup_protocols_param (AtpClient   *self);

/* Whether reaching the server needs a network (FALSE for the socket and loopback hosts). */
gboolean     atp_client_needs_network      (AtpClient    *self);

/* An %ATP_ERROR_CONNECTION_FAILED error for a transport failure, in words;
 * %ATP_ERROR_TLS_CERTIFICATE for a server certificate not accepted, with why
 * (from @message's peer certificate errors, when @message is given). */
GError      *atp_client_connection_error   (AtpClient    *self,
                                            SoupMessage  *message,
                                            const GError *error,
                                            gboolean      mid_answer);

/* An %ATP_ERROR_CONNECTION_LOST error: the connection of a request that
 * changes something broke (@error) after the request went out whole. */
GError      *atp_client_lost_error         (AtpClient    *self,
                                            const GError *error);

/* The GError for a non-2xx answer with @body (may be NULL), with the wait
 * its Retry-After asks for (atp_error_get_retry_after ()). */
GError      *atp_client_http_error         (SoupMessage  *message,
                                            GBytes       *body);
/* The seconds @message's Retry-After asks to wait (0: none). */
guint        atp_client_read_retry_after   (SoupMessage  *message);
/* Holds the client back (atp_client_get_hold_until ()) for the Retry-After
 * of @error, the error of a non-2xx answer of @status: a 429's or a 503's,
 * never shortening a hold already longer. */
void         atp_client_hold_for           (AtpClient    *self,
                                            guint         status,
                                            const GError *error);

/* What a 2xx answer's JSON becomes (transfer full), or NULL with @error set. */
typedef gpointer (*AtpClientParseFunc) (AtpClient  *self,
                                        JsonNode   *root,
                                        gpointer    op_data,
                                        GError    **error);

/*
 * Sends @message (taken over), bounded by the client's timeout plus
 * @extra_seconds, reads at most @max_size bytes of answer and completes the
 * task with what @parse makes of a 2xx answer (freed with @result_free), or
 * with the ATP_ERROR of a non-2xx answer or a transport failure.
 */
void         atp_client_start_request      (AtpClient           *self,
                                            SoupMessage         *message,
                                            guint                extra_seconds,
                                            gsize                max_size,
                                            AtpClientParseFunc   parse,
                                            gpointer             op_data,
                                            GDestroyNotify       op_data_free,
                                            GDestroyNotify       result_free,
                                            gpointer             source_tag,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
/* The same, with @parse run on a worker thread (it must only read @self). */
void         atp_client_start_request_in_thread (AtpClient           *self,
                                                 SoupMessage         *message,
                                                 gsize                max_size,
                                                 AtpClientParseFunc   parse,
                                                 GDestroyNotify       result_free,
                                                 gpointer             source_tag,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
gpointer     atp_client_request_finish     (AtpClient           *self,
                                            GAsyncResult        *result,
                                            gpointer             source_tag,
                                            GError             **error);
/* Called with the whole list so far as each page is taken in, in order:
 * @items[@from…] are the notifications new on that page. */
typedef void (*AtpClientPageFunc) (GPtrArray *items,
                                   guint      from,
                                   gpointer   data);
/* atp_client_list_pending_async() that also hands on each page as it is
 * taken in (the stream's resync: the owner has the first thousand while the
 * rest are still coming); the finish is atp_client_list_pending_finish(). */
void         atp_client_list_pending_paged_async (AtpClient           *self,
                                                  AtpClientPageFunc    page_func,
                                                  gpointer             page_data,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
/* The client list's GET for @query (atp-client-pending.c asks page after page). */
SoupMessage *atp_client_new_list_message   (AtpClient           *self,
                                            const AtpListQuery  *query);
/* Sends a message of atp_client_new_list_message() (taken over); the answer is
 * atp_client_list_notifications_finish()'s. */
void         atp_client_start_list         (AtpClient           *self,
                                            SoupMessage         *message,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
/* Sets @text (taken over) as the application/json body. */
void         atp_client_set_json_body      (SoupMessage         *message,
                                            char                *text,
                                            gsize                length);
/* atp_client_new_message() with @body as its application/json body. */
SoupMessage *atp_client_new_json_message   (AtpClient           *self,
                                            const char          *method,
                                            const char          *path_and_query,
                                            gboolean             service_call,
                                            JsonObject          *body);
/*
 * GETs notification @notification_id at @path_prefix (ending in "/") and the
 * id, waiting on the server up to @wait_seconds (0: not at all); the task for
 * @source_tag completes with the AtpNotification, or at once with the error of
 * a bad id. What getting (client role) and waiting for (service role) a
 * notification share.
 */
void         atp_client_start_notification_get (AtpClient           *self,
                                            const char          *path_prefix,
                                            gboolean             service_call,
                                            const char          *notification_id,
                                            guint                wait_seconds,
                                            gpointer             source_tag,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);

/* Whether @id is a notification id (a UUID v4) to put in a path; @what names it in @error. */
gboolean     atp_client_id_is_sendable     (const char          *id,
                                            const char          *what,
                                            GError             **error);
/* Completes a task for @source_tag with the error of atp_client_id_is_sendable() for @id. */
void         atp_client_report_bad_id      (AtpClient           *self,
                                            const char          *id,
                                            gpointer             source_tag,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
/* @name's string in @object (NULL when absent), or FALSE with @error set when not a string. */
gboolean     atp_client_read_optional_string (JsonObject        *object,
                                            const char          *name,
                                            const char         **value,
                                            GError             **error);
/* An AtpClientParseFunc making an AtpNotification of the answer. */
gpointer     atp_client_parse_notification (AtpClient           *self,
                                            JsonNode            *root,
                                            gpointer             op_data,
                                            GError             **error);

/* Whether a host name or address literal is loopback (localhost, 127/8, ::1). */
gboolean     atp_host_is_loopback          (const char   *host);

G_END_DECLS
