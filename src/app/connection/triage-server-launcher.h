/* triage-server-launcher.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* How long a freshly started local server may take to accept, by default. */
#define TRIAGE_SERVER_LAUNCHER_DEFAULT_TIMEOUT_MS 10000

char     *triage_server_launcher_default_socket (void);
char     *triage_server_launcher_log_path       (void);
char     *triage_server_launcher_find_program   (void);

void      triage_server_launcher_ensure_async   (const char           *socket_path,
                                                 guint                 timeout_ms,
                                                 GCancellable         *cancellable,
                                                 GAsyncReadyCallback   callback,
                                                 gpointer              user_data);
char     *triage_server_launcher_ensure_finish  (GAsyncResult         *result,
                                                 gboolean             *started,
                                                 GError              **error);

G_END_DECLS
