/* triage-mcp-tools.h — the three tools: schemas, arguments → ATP request, outcome → result
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "atp.h"

G_BEGIN_DECLS

#define TRIAGE_MCP_ERROR (triage_mcp_error_quark ())

typedef enum
{
  TRIAGE_MCP_ERROR_INVALID_ARGUMENT,   /* the message starts with the argument's path */
} TriageMcpError;

GQuark triage_mcp_error_quark (void);

typedef enum
{
  TRIAGE_MCP_TOOL_REQUEST_APPROVAL,
  TRIAGE_MCP_TOOL_ASK_HUMAN,
  TRIAGE_MCP_TOOL_ASK_CHOICE,
} TriageMcpTool;

/* The `tools` array of a tools/list result: name, title, description, inputSchema,
 * outputSchema, annotations. (transfer full) */
JsonArray  *triage_mcp_tools_list          (void);
/* The same as MCP 2024-11-05 has tools: name, description and inputSchema only.
 * (transfer full) */
JsonArray  *triage_mcp_tools_list_first    (void);

gboolean    triage_mcp_tool_from_name      (const char     *name,
                                            TriageMcpTool  *tool);
const char *triage_mcp_tool_get_name       (TriageMcpTool   tool);

/**
 * triage_mcp_tool_build_request:
 * @arguments: (nullable): the call's arguments
 * @now: the time a deadline duration counts from
 * @notification_id: (out): the id chosen for the request
 * @error: %TRIAGE_MCP_ERROR_INVALID_ARGUMENT; the message starts with the
 *   argument at fault ("options[1].id: …")
 *
 * Checks @arguments against the tool's inputSchema, builds the ATP
 * submission and validates it as the server will.
 *
 * Returns: (transfer full): the request body (JSON text) to POST
 */
char       *triage_mcp_tool_build_request  (TriageMcpTool   tool,
                                            JsonObject     *arguments,
                                            GDateTime      *now,
                                            char          **notification_id,
                                            GError        **error);

/* The CallToolResult for a settled request (responded, expired or invalidated):
 * structuredContent per the outputSchema, and the same as text. (transfer full) */
JsonObject *triage_mcp_tool_result         (TriageMcpTool    tool,
                                            AtpNotification *settled);

/* A CallToolResult with isError and @message as its text. (transfer full) */
JsonObject *triage_mcp_tool_error_result   (const char      *message);

/* The subset of JSON Schema the tools' schemas use: type, properties, required,
 * additionalProperties: false, enum, items, minLength, maxLength, minItems,
 * minimum. @path names @value in the message ("" for the root). */
gboolean    triage_mcp_schema_check        (JsonObject      *schema,
                                            JsonNode        *value,
                                            const char      *path,
                                            GError         **error);

G_END_DECLS
