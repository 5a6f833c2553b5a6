/* triage-mcp-server.h — an MCP server session over a pair of streams (JSON-RPC, one message a line)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "atp-client.h"

G_BEGIN_DECLS

/* The protocol versions spoken with initialize, newest first; an unknown request gets
 * the first. */
#define TRIAGE_MCP_PROTOCOL_LATEST   "2025-11-25"
#define TRIAGE_MCP_PROTOCOL_VERSIONS TRIAGE_MCP_PROTOCOL_LATEST ", 2025-06-18, 2025-03-26, " \
                                     TRIAGE_MCP_PROTOCOL_FIRST
/* The first revision, still what many clients send: tools without title, annotations or
 * outputSchema, results without structuredContent, progress without a message. */
#define TRIAGE_MCP_PROTOCOL_FIRST    "2024-11-05"
/* The version without initialize, named in each request's _meta (triage-mcp-modern.c). */
#define TRIAGE_MCP_PROTOCOL_MODERN   "2026-07-28"
/* The longest message line read; a longer one is answered with an error and skipped. */
#define TRIAGE_MCP_MAX_LINE          (4 * 1024 * 1024)

#define TRIAGE_TYPE_MCP_SERVER (triage_mcp_server_get_type ())

/**
 * TriageMcpServer:
 *
 * One MCP session: reads JSON-RPC messages from an input stream, one a line,
 * and writes its answers and notifications to an output stream. Every
 * `tools/call` becomes a Triage request sent through the #AtpClient as a
 * service; many may be waiting at once. When the input ends (or
 * triage_mcp_server_close() is called) every request still waiting is
 * withdrawn, then #TriageMcpServer::closed is emitted.
 */
G_DECLARE_FINAL_TYPE (TriageMcpServer, triage_mcp_server, TRIAGE, MCP_SERVER, GObject)

/**
 * triage_mcp_server_new:
 * @client: the client requests are sent with
 * @service_id: (nullable): the service id over the local socket; %NULL to
 *   take one from the MCP client's name at `initialize` ("mcp-" and the name)
 * @service_name: (nullable): its display name; %NULL for the MCP client's title or name
 * @retry_for_us: how long to retry an unreachable server for each call
 * @progress_interval_s: seconds between progress notifications while the
 *   person has not answered (to calls that asked for progress)
 */
TriageMcpServer *triage_mcp_server_new   (AtpClient       *client,
                                          const char      *service_id,
                                          const char      *service_name,
                                          gint64           retry_for_us,
                                          guint            progress_interval_s);

void             triage_mcp_server_start (TriageMcpServer *self,
                                          GInputStream    *input,
                                          GOutputStream   *output);

/* Stops reading, withdraws every request still waiting, then emits ::closed; a
 * withdrawal the server cannot take within a few seconds is left for the next run
 * (kept in $XDG_STATE_HOME/triage/). */
void             triage_mcp_server_close (TriageMcpServer *self,
                                          const char      *reason);
/* The same, without waiting for the withdrawals or for the client to read what is left:
 * ::closed comes as soon as the withdrawals under way have stopped. */
void             triage_mcp_server_close_now (TriageMcpServer *self,
                                              const char      *reason);
gboolean         triage_mcp_server_is_closing (TriageMcpServer *self);

G_END_DECLS
