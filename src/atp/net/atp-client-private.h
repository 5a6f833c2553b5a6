/* atp-client-private.h — what AtpStream and AtpLocal use of AtpClient, not API
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

SoupSession *atp_client_get_session        (AtpClient    *self);

/* A message for @path_and_query (starting with "/") with the credentials set. */
SoupMessage *atp_client_new_message        (AtpClient    *self,
                                            const char   *method,
                                            const char   *path_and_query,
                                            gboolean      service_call);

/* Whether reaching the server needs a network (FALSE for the socket and loopback hosts). */
gboolean     atp_client_needs_network      (AtpClient    *self);

/* An %ATP_ERROR_CONNECTION_FAILED error for a transport failure, in words. */
GError      *atp_client_connection_error   (AtpClient    *self,
                                            const GError *error,
                                            gboolean      mid_answer);

/* The GError for a non-2xx answer with @body (may be NULL). */
GError      *atp_client_http_error         (SoupMessage  *message,
                                            GBytes       *body);

/* Whether a host name or address literal is loopback (localhost, 127/8, ::1). */
gboolean     atp_host_is_loopback          (const char   *host);

G_END_DECLS
