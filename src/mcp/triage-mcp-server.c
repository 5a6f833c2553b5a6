/* triage-mcp-server.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-mcp"

#include "triage-mcp-server-private.h"

#include <string.h>

#include "atp.h"
#include "triage-service.h"

#define send_result triage_mcp_server_send_result
#define send_error  triage_mcp_server_send_error
#define INVALID_REQUEST  TRIAGE_MCP_INVALID_REQUEST
#define METHOD_NOT_FOUND TRIAGE_MCP_METHOD_NOT_FOUND
#define INVALID_PARAMS   TRIAGE_MCP_INVALID_PARAMS
#define NOT_INITIALIZED  TRIAGE_MCP_NOT_INITIALIZED
#define string_member triage_service_string_member

/*
 * JSON-RPC 2.0 over newline-delimited JSON (MCP's stdio transport). Requests
 * other than initialize and ping wait for initialize. A tools/call posts a
 * Triage request and answers when the request settles; meanwhile the session
 * goes on reading, so pings, other calls and cancellations are handled at
 * once. docs/protocol.md ("MCP server") lists every decision.
 */

/* "mcp-" and the slug of the client's name; a digest may follow (9 more). */
#define SERVICE_SLUG_MAX 55
/* Connections kept for the services used last. Under 2026-07-28 every request names its
 * client, so a long-running triage-mcp serving many names would otherwise keep one
 * each forever. One dropped lives on in the requests and the session that hold it; a
 * name seen again gets a new one (the server keeps the service it knows). */
#define SERVICE_CLIENTS_MAX 16
/* Closing, how long what is left to write may wait for a client that does not read. */
#define DRAIN_SECONDS 5

static const char * const protocol_versions[] = { TRIAGE_MCP_PROTOCOL_LATEST, "2025-06-18",
                                                  "2025-03-26", TRIAGE_MCP_PROTOCOL_FIRST,
                                                  NULL };

G_DEFINE_FINAL_TYPE (TriageMcpServer, triage_mcp_server, G_TYPE_OBJECT)

enum
{
  CLOSED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];


static void
triage_mcp_server_dispose (GObject *object)
{
  TriageMcpServer *self = TRIAGE_MCP_SERVER (object);

  if (self->reading != NULL)
    g_cancellable_cancel (self->reading);

  G_OBJECT_CLASS (triage_mcp_server_parent_class)->dispose (object);
}

static void
triage_mcp_server_finalize (GObject *object)
{
  TriageMcpServer *self = TRIAGE_MCP_SERVER (object);

  g_clear_object (&self->client);
  g_clear_object (&self->session_client);
  g_hash_table_unref (self->service_clients);
  g_queue_free (self->service_order);
  g_free (self->service_id);
  g_free (self->service_name);
  g_clear_object (&self->input);
  g_clear_pointer (&self->output, triage_mcp_output_free);
  g_clear_handle_id (&self->drain_id, g_source_remove);
  g_clear_object (&self->reading);
  g_byte_array_unref (self->buffer);
  g_clear_pointer (&self->discarding, triage_mcp_id_scan_free);
  g_free (self->protocol_version);
  g_hash_table_unref (self->calls);
  g_clear_handle_id (&self->owed_id, g_source_remove);
  g_clear_pointer (&self->owed, g_ptr_array_unref);
  g_clear_handle_id (&self->grace_id, g_source_remove);
  g_clear_object (&self->withdrawals);
  if (self->owed_file != NULL)
    triage_mcp_owed_file_flush (self->owed_file);
  g_clear_pointer (&self->owed_file, triage_mcp_owed_file_free);

  G_OBJECT_CLASS (triage_mcp_server_parent_class)->finalize (object);
}

static void
triage_mcp_server_class_init (TriageMcpServerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = triage_mcp_server_dispose;
  object_class->finalize = triage_mcp_server_finalize;

  /**
   * TriageMcpServer::closed:
   *
   * The session is over: the input ended or close was asked for, and every
   * request that was still waiting has been withdrawn (or tried to be).
   */
  signals[CLOSED] = g_signal_new ("closed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
triage_mcp_server_init (TriageMcpServer *self)
{
  self->buffer = g_byte_array_new ();
  self->service_clients = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                 g_object_unref);
  self->service_order = g_queue_new ();
  self->reading = g_cancellable_new ();
  self->withdrawals = g_cancellable_new ();
  self->calls = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                       (GDestroyNotify) triage_mcp_call_unref);
}

TriageMcpServer *
triage_mcp_server_new (AtpClient  *client,
                       const char *service_id,
                       const char *service_name,
                       gint64      retry_for_us,
                       guint       progress_interval_s)
{
  TriageMcpServer *self;

  g_return_val_if_fail (ATP_IS_CLIENT (client), NULL);

  self = g_object_new (TRIAGE_TYPE_MCP_SERVER, NULL);
  self->client = g_object_ref (client);
  self->service_id = g_strdup (service_id);
  self->service_name = g_strdup (service_name);
  self->retry_for_us = retry_for_us;
  self->progress_interval_s = MAX (progress_interval_s, 1);
  self->owed_file = triage_mcp_owed_file_new (client);

  return self;
}

/* Output */

/* A message with "jsonrpc": "2.0" first, as people reading a log expect it. */
JsonObject *
triage_mcp_message_new (void)
{
  JsonObject *message = json_object_new ();

  json_object_set_string_member (message, "jsonrpc", "2.0");
  return message;
}

void
triage_mcp_server_send (TriageMcpServer *self,
                        JsonObject      *message)
{
  g_autoptr(JsonNode) node = NULL;

  if (self->batch != NULL && !json_object_has_member (message, "method"))
    {
      triage_mcp_batch_add_response (self->batch, message);
      return;
    }
  node = json_node_init_object (json_node_alloc (), message);
  triage_mcp_server_write (self, node);
}

/* Writing failed: the client is gone, which a client may be (a message, not a warning). */
static void
output_failed (TriageMcpServer *self)
{
  g_message ("cannot write to the MCP client: %s",
             triage_mcp_output_get_error (self->output)->message);
  g_clear_pointer (&self->output, triage_mcp_output_free);
  triage_mcp_server_close (self, "the MCP client stopped reading");
  /* Already closing, it waited for what is left to be written: nothing is now. */
  triage_mcp_server_maybe_closed (self);
}

gboolean
triage_mcp_server_output_backed_up (TriageMcpServer *self)
{
  return self->output != NULL && triage_mcp_output_get_queued (self->output) > TRIAGE_MCP_OUTPUT_HIGH;
}

/* The client read everything that waited (or writing failed): go on reading its input. */
static void
on_output_drained (gpointer data)
{
  g_autoptr(TriageMcpServer) self = g_object_ref (data);

  if (triage_mcp_output_get_error (self->output) != NULL)
    {
      output_failed (self);
      return;
    }
  if (self->paused && !self->closing)
    {
      self->paused = FALSE;
      triage_mcp_input_take_lines (self);
      if (triage_mcp_server_output_backed_up (self))
        self->paused = TRUE;
      else if (!self->closing)
        triage_mcp_input_read_next (self);
    }
  triage_mcp_server_maybe_closed (self);
}

void
triage_mcp_server_write (TriageMcpServer *self,
                         JsonNode        *node)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *text = NULL;
  char *line;
  gsize length = 0;

  if (self->output == NULL || self->closed)
    return;

  /* json-glib escapes every control character, so the message is one line. */
  text = atp_json_to_string (node, &length);
  line = g_malloc (length + 1);
  memcpy (line, text, length);
  line[length] = '\n';
  bytes = g_bytes_new_take (line, length + 1);
  triage_mcp_output_push (self->output, bytes);
  if (triage_mcp_output_get_error (self->output) != NULL)
    output_failed (self);
}

void
triage_mcp_server_send_result (TriageMcpServer *self,
                               JsonNode        *id,
                               JsonObject      *result)
{
  g_autoptr(JsonObject) message = triage_mcp_message_new ();

  json_object_set_member (message, "id", json_node_copy (id));
  json_object_set_object_member (message, "result", result);
  triage_mcp_server_send (self, message);
}

void
triage_mcp_server_send_error (TriageMcpServer *self,
                              JsonNode        *id,
                              int              code,
                              JsonObject      *data,
                              const char      *format,
                              ...)
{
  g_autoptr(JsonObject) message = triage_mcp_message_new ();
  JsonObject *error = json_object_new ();
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);

  json_object_set_int_member (error, "code", code);
  json_object_set_string_member (error, "message", text);
  if (data != NULL)
    json_object_set_object_member (error, "data", data);
  json_object_set_member (message, "id", id != NULL ? json_node_copy (id)
                                                    : json_node_new (JSON_NODE_NULL));
  json_object_set_object_member (message, "error", error);
  triage_mcp_server_send (self, message);
}

/* Requests */

static JsonObject *
object_member (JsonObject *object,
               const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/* "Claude Desktop" → "mcp-claude-desktop", "Señor Code" → "mcp-senor-code". The server
 * keeps the name a service was first seen with, so clients must not share an id by
 * accident: a name with letters that have no ASCII form ("クロード", "Кодер 2") gets
 * a digest of the whole name added ("mcp-2-…"); only a client that gives no name at
 * all is "triage-mcp". */
static char *
service_id_for (const char *client_name)
{
  g_autoptr(GString) id = g_string_new ("mcp-");
  g_autofree char *ascii = NULL;
  gboolean dash = TRUE;
  int unknown = 0;   /* characters without an ASCII form, which come out as '?' */

  if (client_name == NULL || client_name[strspn (client_name, " \t\r\n")] == '\0')
    return g_strdup ("triage-mcp");

  /* The C locale's transliteration: the same id whatever the user's locale. */
  ascii = g_str_to_ascii (client_name, "C");
  for (const char *p = client_name; *p != '\0'; p++)
    unknown -= *p == '?';
  for (const char *p = ascii; *p != '\0'; p++)
    {
      unknown += *p == '?';
      if (g_ascii_isalnum (*p) && id->len < SERVICE_SLUG_MAX)
        {
          g_string_append_c (id, g_ascii_tolower (*p));
          dash = FALSE;
        }
      else if (!dash && id->len < SERVICE_SLUG_MAX)
        {
          g_string_append_c (id, '-');
          dash = TRUE;
        }
    }
  while (id->len > 4 && id->str[id->len - 1] == '-')
    g_string_truncate (id, id->len - 1);

  if (unknown > 0 || id->len == 4)
    {
      g_autofree char *digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, client_name, -1);

      g_string_append_printf (id, "%s%.8s", id->len > 4 ? "-" : "", digest);
    }

  return g_string_free (g_steal_pointer (&id), FALSE);
}

/* A client's name as the service's display name, sent in a header with every request:
 * control characters (a line break would end the header, and libsoup refuses it) become
 * spaces, and a name longer than a person reads is cut (a huge one would make the server
 * refuse every request). NULL when nothing is left. */
static char *
display_name_for (const char *name)
{
  g_autoptr(GString) clean = NULL;
  g_autofree char *text = NULL;

  if (name == NULL)
    return NULL;

  clean = g_string_new (NULL);
  for (const char *p = name; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_iscntrl (c) || c == 0x2028 || c == 0x2029)
        g_string_append_c (clean, ' ');
      else
        g_string_append_unichar (clean, c);
    }
  text = g_strstrip (g_string_free (g_steal_pointer (&clean), FALSE));
  if (g_utf8_strlen (text, -1) > TRIAGE_SERVICE_NAME_MAX)
    {
      g_autofree char *cut = g_utf8_substring (text, 0, TRIAGE_SERVICE_NAME_MAX - 1);

      g_free (text);
      text = g_strconcat (g_strchomp (cut), "…", NULL);
    }

  return *text != '\0' ? g_steal_pointer (&text) : NULL;
}

JsonObject *
triage_mcp_server_info (void)
{
  JsonObject *info = json_object_new ();

  json_object_set_string_member (info, "name", "triage-mcp");
  json_object_set_string_member (info, "title", "Triage");
  json_object_set_string_member (info, "version", PACKAGE_VERSION);
  return info;
}

AtpClient *
triage_mcp_server_client_for (TriageMcpServer *self,
                              JsonObject      *client_info)
{
  g_autofree char *service_id = NULL;
  g_autofree char *service_name = NULL;

  if (atp_client_get_socket_path (self->client) == NULL)
    return self->client;

  service_id = self->service_id != NULL ? g_strdup (self->service_id)
                                        : service_id_for (string_member (client_info, "name"));
  service_name = self->service_name != NULL
                   ? g_strdup (self->service_name)
                   : display_name_for (string_member (client_info, "title"));
  if (service_name == NULL)
    service_name = display_name_for (string_member (client_info, "name"));
  return triage_mcp_server_client_for_service (self, service_id, service_name);
}

AtpClient *
triage_mcp_server_client_for_service (TriageMcpServer *self,
                                      const char      *service_id,
                                      const char      *service_name)
{
  const char *socket_path = atp_client_get_socket_path (self->client);
  AtpClient *client;
  char *key;

  if (socket_path == NULL || service_id == NULL)
    return self->client;

  if (g_hash_table_lookup_extended (self->service_clients, service_id, (gpointer *) &key,
                                    (gpointer *) &client))
    {
      g_queue_remove (self->service_order, key);
      g_queue_push_tail (self->service_order, key);
      return client;   /* the server keeps the name a service was first seen with anyway */
    }

  /* A connection a service: each request keeps the service that posted it through
   * its long-polls and its withdrawal, whoever asks next. */
  client = atp_client_new_for_socket (socket_path);
  atp_client_set_service (client, service_id, service_name);
  atp_client_set_timeout (client, atp_client_get_timeout (self->client));
  if (g_hash_table_size (self->service_clients) >= SERVICE_CLIENTS_MAX)
    g_hash_table_remove (self->service_clients, g_queue_pop_head (self->service_order));
  key = g_strdup (service_id);
  g_hash_table_insert (self->service_clients, key, client);
  g_queue_push_tail (self->service_order, key);
  return client;
}

static void
handle_initialize (TriageMcpServer *self,
                   JsonNode        *id,
                   JsonObject      *params)
{
  const char *requested = string_member (params, "protocolVersion");
  JsonObject *client_info = object_member (params, "clientInfo");
  JsonObject *result;
  JsonObject *capabilities;
  JsonObject *tools;
  JsonObject *info;

  if (self->protocol_version != NULL)
    {
      send_error (self, id, INVALID_REQUEST, NULL, "initialize was already called in this session");
      return;
    }
  if (requested == NULL)
    {
      send_error (self, id, INVALID_PARAMS, NULL, "params.protocolVersion: required (a string)");
      return;
    }

  self->protocol_version = g_strdup (g_strv_contains (protocol_versions, requested)
                                       ? requested : TRIAGE_MCP_PROTOCOL_LATEST);
  /* Held: the table keeps only the connections used last. */
  self->session_client = g_object_ref (triage_mcp_server_client_for (self, client_info));

  result = json_object_new ();
  json_object_set_string_member (result, "protocolVersion", self->protocol_version);
  capabilities = json_object_new ();
  tools = json_object_new ();
  json_object_set_boolean_member (tools, "listChanged", FALSE);
  json_object_set_object_member (capabilities, "tools", tools);
  json_object_set_object_member (result, "capabilities", capabilities);
  info = triage_mcp_server_info ();
  /* Implementation was {name, version} until 2025-06-18 added title. */
  if (g_str_equal (self->protocol_version, TRIAGE_MCP_PROTOCOL_FIRST))
    json_object_remove_member (info, "title");
  json_object_set_object_member (result, "serverInfo", info);
  json_object_set_string_member (result, "instructions", TRIAGE_MCP_INSTRUCTIONS);
  send_result (self, id, result);
}

gboolean
triage_mcp_server_check_cursor (TriageMcpServer *self,
                                JsonNode        *id,
                                JsonObject      *params)
{
  JsonNode *cursor = params != NULL ? json_object_get_member (params, "cursor") : NULL;

  /* The list is one page and no nextCursor was ever sent, so a cursor came from
   * elsewhere (another server, a list from before a restart): the spec says an invalid
   * cursor SHOULD be -32602, and a client that took the whole list for the page after
   * its cursor would miss nothing only by luck. A null cursor is none. */
  if (cursor == NULL || JSON_NODE_HOLDS_NULL (cursor))
    return TRUE;
  if (JSON_NODE_HOLDS_VALUE (cursor) && json_node_get_value_type (cursor) == G_TYPE_STRING)
    send_error (self, id, INVALID_PARAMS, NULL, "Invalid params: params.cursor was not issued "
                "by this server (its tools/list has one page and no nextCursor)");
  else
    send_error (self, id, INVALID_PARAMS, NULL, "Invalid params: params.cursor must be a string "
                "(a nextCursor this server issued; it issues none)");
  return FALSE;
}

void
triage_mcp_server_handle_call (TriageMcpServer *self,
                               AtpClient       *client,
                               JsonNode        *id,
                               const char      *key,
                               JsonObject      *params,
                               const char      *version)
{
  const char *name = string_member (params, "name");
  JsonNode *arguments = params != NULL ? json_object_get_member (params, "arguments") : NULL;
  TriageMcpTool tool;

  if (params == NULL)
    send_error (self, id, INVALID_PARAMS, NULL, "tools/call needs params {name, arguments}");
  else if (name == NULL && json_object_has_member (params, "name"))
    send_error (self, id, INVALID_PARAMS, NULL, "params.name: expected a string (the tool's name)");
  else if (name == NULL)
    send_error (self, id, INVALID_PARAMS, NULL, "params.name: required (the tool's name)");
  else if (!triage_mcp_tool_from_name (name, &tool))
    send_error (self, id, INVALID_PARAMS, NULL,
                "Unknown tool: %s (the tools are request_approval, ask_human and ask_choice)",
                name);
  else if (arguments != NULL && !JSON_NODE_HOLDS_OBJECT (arguments) &&
           !JSON_NODE_HOLDS_NULL (arguments))
    send_error (self, id, INVALID_PARAMS, NULL, "params.arguments: expected an object");
  else if (g_hash_table_contains (self->calls, key))
    send_error (self, id, INVALID_REQUEST, NULL, "request id %s is already in use by a call "
                "that has not finished", key);
  else
    triage_mcp_call_start (self, client, id, key, tool, params,
                           arguments != NULL && JSON_NODE_HOLDS_OBJECT (arguments)
                             ? json_node_get_object (arguments) : NULL,
                           version);
}

static void
handle_request (TriageMcpServer *self,
                JsonNode        *id,
                const char      *method,
                JsonObject      *params)
{
  g_autofree char *key = atp_json_to_string (id, NULL);

  if (g_str_equal (method, "initialize"))
    handle_initialize (self, id, params);
  else if (g_str_equal (method, "ping"))
    send_result (self, id, json_object_new ());
  /* A method this server lacks is "Method not found" before initialize too: a client
   * that also speaks MCP 2026-07-28 probes with server/discover, and -32601 is the
   * answer every such client reads as "fall back to initialize". */
  else if (!g_str_equal (method, "tools/list") && !g_str_equal (method, "tools/call"))
    send_error (self, id, METHOD_NOT_FOUND, NULL, "Method not found: %s", method);
  else if (self->protocol_version == NULL)
    send_error (self, id, NOT_INITIALIZED, NULL,
                "Server not initialized: send initialize before %s", method);
  else if (g_str_equal (method, "tools/list"))
    {
      JsonObject *result;

      if (!triage_mcp_server_check_cursor (self, id, params))
        return;
      result = json_object_new ();

      json_object_set_array_member (result, "tools",
                                    g_str_equal (self->protocol_version, TRIAGE_MCP_PROTOCOL_FIRST)
                                      ? triage_mcp_tools_list_first () : triage_mcp_tools_list ());
      send_result (self, id, result);
    }
  else
    triage_mcp_server_handle_call (self, self->session_client, id, key, params,
                                   self->protocol_version);
}

static void
handle_notification (TriageMcpServer *self,
                     const char      *method,
                     JsonObject      *params)
{
  if (g_str_equal (method, "notifications/cancelled"))
    {
      JsonNode *request_id = params != NULL ? json_object_get_member (params, "requestId") : NULL;
      const char *reason = string_member (params, "reason");
      g_autofree char *key = NULL;
      g_autofree char *why = NULL;

      if (request_id == NULL || !JSON_NODE_HOLDS_VALUE (request_id))
        return;   /* nothing to answer a notification with */
      key = atp_json_to_string (request_id, NULL);
      why = g_strdup_printf ("the agent cancelled the question%s%s", reason ? ": " : "",
                             reason ? reason : "");
      triage_mcp_call_withdraw (self, key, why);
    }
  /* notifications/initialized and anything unknown need nothing. */
}

/* A request that names its version in _meta is served as MCP 2026-07-28 has it, but
 * for an initialize, which selects the older semantics whatever its _meta says, and
 * for a request of a session an initialize opened that names another version than
 * 2026-07-28: the handshake governs the process then (the specification's dual-era
 * server; the Python SDK's server resolves it so too). Clients that put the version
 * they negotiated into every request's _meta were refused their initialize and each
 * call (-32022), and each ping (-32601). */
static gboolean
is_modern_request (TriageMcpServer *self,
                   const char      *method,
                   JsonObject      *params)
{
  const char *version = triage_mcp_modern_version (params);

  if (version == NULL || g_str_equal (method, "initialize"))
    return FALSE;
  return self->protocol_version == NULL || g_str_equal (version, TRIAGE_MCP_PROTOCOL_MODERN);
}

void
triage_mcp_server_handle_message (TriageMcpServer *self,
                                  JsonNode        *root)
{
  JsonObject *message;
  JsonNode *id;
  JsonNode *params;
  const char *method;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      send_error (self, NULL, INVALID_REQUEST, NULL, "Invalid Request: expected a JSON-RPC object");
      return;
    }

  message = json_node_get_object (root);
  id = json_object_get_member (message, "id");
  if (id != NULL && !triage_mcp_id_is_valid (id))
    {
      send_error (self, NULL, INVALID_REQUEST, NULL,
                  "Invalid Request: id must be a string or a number");
      return;
    }
  if (g_strcmp0 (string_member (message, "jsonrpc"), "2.0") != 0)
    {
      send_error (self, id, INVALID_REQUEST, NULL, "Invalid Request: jsonrpc must be \"2.0\"");
      return;
    }

  method = string_member (message, "method");
  if (method == NULL)
    {
      if (id != NULL && (json_object_has_member (message, "result") ||
                         json_object_has_member (message, "error")))
        return;   /* a response; this server sends no requests, so nothing waits for one */
      send_error (self, id, INVALID_REQUEST, NULL, "Invalid Request: method must be a string");
      return;
    }

  params = json_object_get_member (message, "params");
  /* null is no params: the Go SDK's keepalive pinged so, and took -32602 for a dead peer. */
  if (params != NULL && JSON_NODE_HOLDS_NULL (params))
    params = NULL;
  if (params != NULL && !JSON_NODE_HOLDS_OBJECT (params))
    {
      if (id != NULL)
        send_error (self, id, INVALID_PARAMS, NULL, "params must be an object");
      return;
    }

  if (id == NULL)
    handle_notification (self, method, params ? json_node_get_object (params) : NULL);
  else if (is_modern_request (self, method, params ? json_node_get_object (params) : NULL))
    {
      g_autofree char *key = atp_json_to_string (id, NULL);

      triage_mcp_modern_handle_request (self, id, key, method, json_node_get_object (params));
    }
  else
    handle_request (self, id, method, params ? json_node_get_object (params) : NULL);
}

void
triage_mcp_server_start (TriageMcpServer *self,
                         GInputStream    *input,
                         GOutputStream   *output)
{
  g_return_if_fail (TRIAGE_IS_MCP_SERVER (self));
  g_return_if_fail (G_IS_INPUT_STREAM (input));
  g_return_if_fail (G_IS_OUTPUT_STREAM (output));
  g_return_if_fail (self->input == NULL);

  self->input = g_object_ref (input);
  self->output = triage_mcp_output_new (output, on_output_drained, self);
  triage_mcp_withdrawals_start (self);
  triage_mcp_input_read_next (self);
}

static void
collect_key (gpointer key,
             gpointer value,
             gpointer keys)
{
  g_ptr_array_add (keys, g_strdup (key));
}

/* A client that reads nothing more does not hold the end of the session. */
static gboolean
drain_timeout_cb (gpointer data)
{
  TriageMcpServer *self = data;

  self->drain_id = 0;
  /* Expected of a client stopped for good: said, not a warning. */
  if (self->output != NULL)
    g_message ("the MCP client did not read the last %" G_GSIZE_FORMAT " bytes within %d s",
               triage_mcp_output_get_queued (self->output), DRAIN_SECONDS);
  g_clear_pointer (&self->output, triage_mcp_output_free);
  triage_mcp_server_maybe_closed (self);
  return G_SOURCE_REMOVE;
}

void
triage_mcp_server_maybe_closed (TriageMcpServer *self)
{
  if (!self->closing || self->withdrawing > 0 || g_hash_table_size (self->calls) > 0 ||
      self->closed)
    return;

  /* What was answered before the end is written first. */
  if (self->output != NULL && triage_mcp_output_get_queued (self->output) > 0)
    {
      if (self->drain_id == 0)
        self->drain_id = g_timeout_add_seconds (DRAIN_SECONDS, drain_timeout_cb, self);
      return;
    }
  g_clear_handle_id (&self->drain_id, g_source_remove);
  g_clear_handle_id (&self->grace_id, g_source_remove);
  triage_mcp_owed_file_flush (self->owed_file);
  self->closed = TRUE;
  g_signal_emit (self, signals[CLOSED], 0);
}

void
triage_mcp_server_close (TriageMcpServer *self,
                         const char      *reason)
{
  g_autoptr(GPtrArray) keys = NULL;

  g_return_if_fail (TRIAGE_IS_MCP_SERVER (self));

  if (self->closing)
    return;

  self->closing = TRUE;
  g_cancellable_cancel (self->reading);

  keys = g_ptr_array_new_with_free_func (g_free);
  g_hash_table_foreach (self->calls, collect_key, keys);
  for (guint i = 0; i < keys->len; i++)
    triage_mcp_call_withdraw (self, g_ptr_array_index (keys, i), reason);
  triage_mcp_withdrawals_close (self);

  triage_mcp_server_maybe_closed (self);
}

void
triage_mcp_server_close_now (TriageMcpServer *self,
                             const char      *reason)
{
  g_return_if_fail (TRIAGE_IS_MCP_SERVER (self));

  triage_mcp_server_close (self, reason);
  if (self->closed)
    return;
  triage_mcp_withdrawals_stop (self, "the end was cut short");
  g_clear_handle_id (&self->drain_id, g_source_remove);
  if (self->output != NULL && triage_mcp_output_get_queued (self->output) > 0)
    g_message ("stopped before the MCP client read the last %" G_GSIZE_FORMAT " bytes",
               triage_mcp_output_get_queued (self->output));
  /* Nothing more is written: the end waits for no reader. */
  g_clear_pointer (&self->output, triage_mcp_output_free);
  triage_mcp_server_maybe_closed (self);
}

gboolean
triage_mcp_server_is_closing (TriageMcpServer *self)
{
  g_return_val_if_fail (TRIAGE_IS_MCP_SERVER (self), FALSE);

  return self->closing;
}
