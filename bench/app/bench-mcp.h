/* bench-mcp.h — a minimal MCP client for the benchmark: triage-mcp on pipes
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _BenchMcp BenchMcp;

/* Starts @mcp_path with @launcher's environment and initializes a session as the
 * client "bench-mcp" (so its requests' bubbles read "bench-mcp: TITLE"; the local
 * server keeps service names unique, and "bench" is the ATP path's). */
BenchMcp *bench_mcp_start  (GSubprocessLauncher *launcher,
                            const char          *mcp_path,
                            GError             **error);

/* Writes a tools/call of request_approval titled @title; returns its request id. */
gint64    bench_mcp_ask    (BenchMcp            *self,
                            const char          *title);

/* Writes notifications/cancelled for request @id (its Triage request is withdrawn). */
void      bench_mcp_cancel (BenchMcp            *self,
                            gint64               id);

/* Closes the session (triage-mcp withdraws what still waits and exits). */
void      bench_mcp_stop   (BenchMcp            *self);

G_END_DECLS
