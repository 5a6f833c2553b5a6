/* triage-mcp.h — the triage-mcp program: options and the whole run
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Well inside the 60 s after which most MCP clients give up on a call (the official
 * SDKs' default request timeout), so the agent reads why rather than a timeout. */
#define TRIAGE_MCP_DEFAULT_RETRY_FOR_S          30
#define TRIAGE_MCP_DEFAULT_PROGRESS_INTERVAL_S  10

typedef struct
{
  char   *server_url;           /* NULL: the local server */
  char   *socket_path;          /* NULL: the contract path */
  char   *service_id;           /* NULL: from the MCP client's name */
  char   *service_name;
  gint64  retry_for_us;
  guint   progress_interval_s;
} TriageMcpOptions;

void              triage_mcp_options_free  (TriageMcpOptions  *self);

/* Parses the command line (argv[0] included); a %G_OPTION_ERROR names the option. */
TriageMcpOptions *triage_mcp_options_parse (GStrv             *argv,
                                            GError           **error);

/* Runs the server on standard input and output until the input ends; returns
 * the exit status (0, or 2 for a bad option or no key). */
int               triage_mcp_main          (int                argc,
                                            char             **argv);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TriageMcpOptions, triage_mcp_options_free)

G_END_DECLS
