/* atp-local.h — finding and probing the local server (local mode)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * atp_local_socket_path:
 *
 * The contract path of the local server's socket:
 * `$XDG_RUNTIME_DIR/triage/triage.sock` (g_get_user_runtime_dir()).
 *
 * Returns: (transfer full): the path
 */
char     *atp_local_socket_path        (void);

/**
 * atp_local_probe_async:
 * @socket_path: (nullable): the socket, or %NULL for atp_local_socket_path()
 * @timeout_ms: how long to wait for an answer (0: 2000 ms)
 *
 * Whether an ATP server answers HTTP on @socket_path. The finish function
 * returns %TRUE when one does; %FALSE with %ATP_ERROR_CONNECTION_FAILED
 * when nothing listens there (no socket, refused, a stale socket file) or
 * nothing answered in time; %FALSE with %ATP_ERROR_PROTOCOL when something
 * answered but not as an ATP server.
 */
void      atp_local_probe_async        (const char          *socket_path,
                                        guint                timeout_ms,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data);
gboolean  atp_local_probe_finish       (GAsyncResult        *result,
                                        GError             **error);

G_END_DECLS
