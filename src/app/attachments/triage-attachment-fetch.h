/* triage-attachment-fetch.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

/* Defaults for downloading an attachment the user asked for. */
#define TRIAGE_ATTACHMENT_FETCH_MAX_SIZE      (32 * 1024 * 1024)
#define TRIAGE_ATTACHMENT_FETCH_TIMEOUT       30   /* seconds, the whole download */
#define TRIAGE_ATTACHMENT_FETCH_MAX_REDIRECTS 5

GUri   *triage_attachment_check_uri      (const char           *uri,
                                          GError              **error);
GUri   *triage_attachment_check_redirect (GUri                 *agreed,
                                          const char           *target,
                                          GError              **error);
char   *triage_attachment_uri_display    (GUri                 *uri,
                                          gsize                *host_start,
                                          gsize                *host_end);

void    triage_attachment_fetch_async    (SoupSession          *session,
                                          GUri                 *uri,
                                          gsize                 max_size,
                                          guint                 timeout_seconds,
                                          GCancellable         *cancellable,
                                          GAsyncReadyCallback   callback,
                                          gpointer              user_data);
GBytes *triage_attachment_fetch_finish   (GAsyncResult         *result,
                                          char                **content_type,
                                          GUri                **redirect,
                                          GError              **error);

G_END_DECLS
