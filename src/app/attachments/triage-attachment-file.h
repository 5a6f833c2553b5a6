/* triage-attachment-file.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Private copies for "Open with…" older than this are removed when a new one is made. */
#define TRIAGE_ATTACHMENT_CACHE_MAX_AGE (G_TIME_SPAN_DAY)

char  *triage_attachment_suggest_filename    (const char           *description,
                                              const char           *mime_type);
char  *triage_attachment_get_cache_dir       (void);

void   triage_attachment_write_private_async  (GBytes               *bytes,
                                               const char           *filename,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
GFile *triage_attachment_write_private_finish (GAsyncResult         *result,
                                               GError              **error);

G_END_DECLS
