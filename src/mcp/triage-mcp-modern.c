/* triage-mcp-modern.c — requests of MCP 2026-07-28: no handshake, everything in _meta
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-mcp"

#include "triage-mcp-server-private.h"

#include "triage-service.h"

#define send_result triage_mcp_server_send_result
#define send_error  triage_mcp_server_send_error

/*
 * MCP 2026-07-28 dropped initialize: every request names its protocol version,
 * the client's capabilities and (should) the client in params._meta, and the
 * server must answer server/discover. triage-mcp serves such requests beside
 * the sessions of the older revisions (the specification's "dual-era" server):
 * a request with io.modelcontextprotocol/protocolVersion in its _meta is served
 * here, whatever came before it. Calls, progress and cancellation are the
 * same as in 2025-11-25 (triage-mcp-calls.c); results add resultType, and list
 * results the caching hints every cacheable result must carry.
 */

#define META_VERSION      "io.modelcontextprotocol/protocolVersion"
#define META_CAPABILITIES "io.modelcontextprotocol/clientCapabilities"
#define META_CLIENT       "io.modelcontextprotocol/clientInfo"
#define META_SERVER       "io.modelcontextprotocol/serverInfo"

/* How long a client may keep tools/list or server/discover: the tools never
 * change while the program runs, but a new version of it may bring others. */
#define CACHE_MS (60 * 60 * 1000)

static JsonObject *
request_meta (JsonObject *params)
{
  JsonNode *meta = params != NULL ? json_object_get_member (params, "_meta") : NULL;

  return meta != NULL && JSON_NODE_HOLDS_OBJECT (meta) ? json_node_get_object (meta) : NULL;
}

const char *
triage_mcp_modern_version (JsonObject *params)
{
  JsonObject *meta = request_meta (params);
  JsonNode *version = meta != NULL ? json_object_get_member (meta, META_VERSION) : NULL;

  if (version == NULL)
    return NULL;
  if (JSON_NODE_HOLDS_VALUE (version) && json_node_get_value_type (version) == G_TYPE_STRING)
    return json_node_get_string (version);
  return "";   /* there, but not a string: no version this server speaks */
}

/* The versions a request may name in its _meta: a client picks one of them
 * for its next requests, and does not fall back to initialize, so the
 * versions spoken after an initialize (2025-11-25 back to 2024-11-05) are not
 * listed — a request naming one is refused with this very list. */
static JsonArray *
supported_versions (void)
{
  JsonArray *versions = json_array_new ();

  json_array_add_string_element (versions, TRIAGE_MCP_PROTOCOL_MODERN);
  return versions;
}

void
triage_mcp_modern_complete (JsonObject *result)
{
  JsonObject *meta = json_object_has_member (result, "_meta")
                       ? json_object_get_object_member (result, "_meta") : NULL;

  json_object_set_string_member (result, "resultType", "complete");
  if (meta == NULL)
    {
      meta = json_object_new ();
      json_object_set_object_member (result, "_meta", meta);
    }
  json_object_set_object_member (meta, META_SERVER, triage_mcp_server_info ());
}

static void
send_complete (TriageMcpServer *self,
               JsonNode        *id,
               JsonObject      *result)
{
  triage_mcp_modern_complete (result);
  send_result (self, id, result);
}

static void
set_cacheable (JsonObject *result)
{
  json_object_set_int_member (result, "ttlMs", CACHE_MS);
  json_object_set_string_member (result, "cacheScope", "public");
}

void
triage_mcp_modern_handle_request (TriageMcpServer *self,
                                  JsonNode        *id,
                                  const char      *key,
                                  const char      *method,
                                  JsonObject      *params)
{
  const char *version = triage_mcp_modern_version (params);
  JsonObject *meta = request_meta (params);
  JsonNode *capabilities = json_object_get_member (meta, META_CAPABILITIES);
  JsonNode *client_info = json_object_get_member (meta, META_CLIENT);
  JsonObject *result;

  if (!g_str_equal (version, TRIAGE_MCP_PROTOCOL_MODERN))
    {
      JsonObject *data = json_object_new ();

      json_object_set_array_member (data, "supported", supported_versions ());
      json_object_set_string_member (data, "requested", version);
      send_error (self, id, TRIAGE_MCP_UNSUPPORTED_VERSION, data,
                  "Unsupported protocol version: %s", *version != '\0' ? version : "(not a string)");
      return;
    }
  if (capabilities == NULL || !JSON_NODE_HOLDS_OBJECT (capabilities))
    {
      send_error (self, id, TRIAGE_MCP_INVALID_PARAMS, NULL,
                  "params._meta." META_CAPABILITIES ": required (an object) in a request of "
                  "MCP " TRIAGE_MCP_PROTOCOL_MODERN);
      return;
    }

  if (g_str_equal (method, "server/discover"))
    {
      JsonObject *capabilities_out = json_object_new ();

      result = json_object_new ();
      json_object_set_array_member (result, "supportedVersions", supported_versions ());
      json_object_set_object_member (capabilities_out, "tools", json_object_new ());
      json_object_set_object_member (result, "capabilities", capabilities_out);
      json_object_set_string_member (result, "instructions", TRIAGE_MCP_INSTRUCTIONS);
      set_cacheable (result);
      send_complete (self, id, result);
    }
  else if (g_str_equal (method, "tools/list"))
    {
      if (!triage_mcp_server_check_cursor (self, id, params))
        return;
      result = json_object_new ();
      json_object_set_array_member (result, "tools", triage_mcp_tools_list ());
      set_cacheable (result);
      send_complete (self, id, result);
    }
  else if (g_str_equal (method, "tools/call"))
    {
      /* A request stands on its own: it is asked as the client its own _meta names
       * (the person's inbox shows which agent asks), never as one an earlier request
       * or an initialize named; without a name, as the unnamed "triage-mcp". */
      AtpClient *client = triage_mcp_server_client_for (self, client_info != NULL &&
                                                              JSON_NODE_HOLDS_OBJECT (client_info)
                                                                ? json_node_get_object (client_info)
                                                                : NULL);

      triage_mcp_server_handle_call (self, client, id, key, params, TRIAGE_MCP_PROTOCOL_MODERN);
    }
  else
    send_error (self, id, TRIAGE_MCP_METHOD_NOT_FOUND, NULL, "Method not found: %s", method);
}
