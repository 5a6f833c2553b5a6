/* triage-mcp-calls.c — a tools/call from arguments to the person's answer
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-mcp"

#include "triage-mcp-server-private.h"

#include <string.h>

#include "atp.h"

#define send_result triage_mcp_server_send_result
#define send_error  triage_mcp_server_send_error
#define INVALID_PARAMS   TRIAGE_MCP_INVALID_PARAMS

/* The longest long-poll; the request object polls again until the request settles. */
#define WAIT_SECONDS 60
/* Questions asked through one connection at once. Each waiting one holds a connection
 * in its long-poll; with all of them held, a new question's POST, an answer's next
 * poll and a cancelled question's withdrawal queued behind the long-polls for up to
 * WAIT_SECONDS, so the rest stay free for them. */
#define CALLS_PER_CLIENT_MAX (ATP_CLIENT_MAX_CONNECTIONS - 8)

static void
call_clear (Call *call)
{
  g_clear_handle_id (&call->progress_id, g_source_remove);
  g_object_unref (call->server);
  g_free (call->key);
  json_node_unref (call->id);
  g_clear_pointer (&call->progress_token, json_node_unref);
  g_clear_object (&call->request);
  g_clear_object (&call->cancellable);
  g_clear_pointer (&call->batch, triage_mcp_batch_unref);
}

void
triage_mcp_call_unref (Call *call)
{
  g_rc_box_release_full (call, (GDestroyNotify) call_clear);
}

static void
call_finish (Call       *call,
             JsonObject *result)
{
  TriageMcpServer *self = call->server;

  g_clear_handle_id (&call->progress_id, g_source_remove);
  if (g_str_equal (call->version, TRIAGE_MCP_PROTOCOL_MODERN))
    triage_mcp_modern_complete (result);
  /* structuredContent came with 2025-06-18; the text content carries the same JSON. */
  else if (g_str_equal (call->version, TRIAGE_MCP_PROTOCOL_FIRST))
    json_object_remove_member (result, "structuredContent");
  if (call->batch != NULL)
    {
      TriageMcpBatch *batch = triage_mcp_batch_ref (call->batch);
      TriageMcpBatch *outer = self->batch;

      self->batch = batch;
      send_result (self, call->id, result);
      self->batch = outer;
      g_hash_table_remove (self->calls, call->key);
      triage_mcp_batch_call_ended (self, batch);
      triage_mcp_batch_unref (batch);
      return;
    }
  send_result (self, call->id, result);
  g_hash_table_remove (self->calls, call->key);
}

static void
send_progress (Call *call)
{
  g_autoptr(JsonObject) message = triage_mcp_message_new ();
  JsonObject *params = json_object_new ();
  g_autofree char *text = NULL;
  gint64 waited = (g_get_monotonic_time () - call->started) / G_USEC_PER_SEC;

  text = g_strdup_printf ("Waiting for the person to answer in Triage (%" G_GINT64_FORMAT " s)",
                          waited);
  json_object_set_member (params, "progressToken", json_node_copy (call->progress_token));
  json_object_set_int_member (params, "progress", call->progress_count++);
  /* The message came with 2025-03-26. */
  if (!g_str_equal (call->version, TRIAGE_MCP_PROTOCOL_FIRST))
    json_object_set_string_member (params, "message", text);
  json_object_set_string_member (message, "method", "notifications/progress");
  json_object_set_object_member (message, "params", params);
  triage_mcp_server_send (call->server, message);
}

static gboolean
progress_cb (gpointer data)
{
  Call *call = data;

  /* A client that leaves more than that unread is not reading progress either; the
   * next one after it reads says how long the wait is by then. */
  if (!triage_mcp_server_output_backed_up (call->server))
    send_progress (call);
  return G_SOURCE_CONTINUE;
}

/*
 * The server refused the wait for good (a key revoked meanwhile: 401, 403; the request
 * unknown: 404 with ATP's code; ATP_ERROR's codes from AUTH_INVALID_TOKEN to
 * SESSION_NOT_FOUND but a bare 404, which passes): no outage, and no later try does
 * better. Said to the agent as a refusal (it read "Triage stopped answering"), and on
 * standard error: the question, which nothing can withdraw with that key, stays in the
 * person's inbox.
 */
static void
call_refused (Call         *call,
              const GError *error)
{
  const char *nid = triage_service_request_get_notification_id (call->request);
  gboolean gone = atp_error_is_not_found (error) ||
                  g_error_matches (error, ATP_ERROR, ATP_ERROR_SESSION_NOT_FOUND);
  g_autofree char *text = NULL;

  if (gone)
    {
      text = g_strdup_printf ("Triage no longer knows the request (%s) the agent waited for: %s",
                              nid, error->message);
      g_message ("request %s is gone from the server while the agent waited: %s", nid,
                 error->message);
    }
  else
    {
      text = g_strdup_printf ("Triage refused to let the agent wait for the person's answer "
                              "(request %s): %s. The question stays in the person's inbox, but "
                              "its answer will reach no agent", nid, error->message);
      g_message ("request %s: the server refused the wait (%s); the question stays in the "
                 "person's inbox until answered or expired, and its answer reaches no agent%s",
                 nid, error->message,
                 g_error_matches (error, ATP_ERROR, ATP_ERROR_AUTH_INVALID_TOKEN)
                   ? ": check the service key (TRIAGE_API_KEY or the keyring)" : "");
    }
  call_finish (call, triage_mcp_tool_error_result (text));
}

static void
waited_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Call *call = user_data;
  g_autoptr(AtpNotification) settled = NULL;
  g_autoptr(GError) error = NULL;

  settled = triage_service_request_wait_finish (TRIAGE_SERVICE_REQUEST (object), result, &error);
  if (!g_cancellable_is_cancelled (call->cancellable))
    {
      if (settled != NULL)
        call_finish (call, triage_mcp_tool_result (call->tool, settled));
      else if (error->domain == ATP_ERROR && error->code >= ATP_ERROR_AUTH_INVALID_TOKEN &&
               error->code <= ATP_ERROR_SESSION_NOT_FOUND &&
               !triage_service_error_is_transient (error))
        call_refused (call, error);
      else
        {
          g_autoptr(TriageServiceRequest) request = g_object_ref (call->request);
          const char *nid = triage_service_request_get_notification_id (request);
          g_autofree char *text = g_strdup_printf ("Triage stopped answering while waiting for "
                                                   "the person (request %s): %s",
                                                   nid, error->message);

          call_finish (call, triage_mcp_tool_error_result (text));
          /* The agent has its error: nobody waits for the answer any more. */
          if (triage_service_request_left_pending (request, error))
            triage_mcp_withdraw_request (call->server, request,
                                         "Triage could not be reached while the agent waited; "
                                         "it was told so");
        }
    }
  triage_mcp_call_unref (call);
}

static void
sent_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Call *call = user_data;
  g_autoptr(AtpPostResult) post = NULL;
  g_autoptr(GError) error = NULL;

  post = triage_service_request_send_finish (TRIAGE_SERVICE_REQUEST (object), result, &error);
  if (g_cancellable_is_cancelled (call->cancellable))
    ;
  else if (post == NULL)
    {
      g_autoptr(TriageServiceRequest) request = g_object_ref (call->request);
      g_autofree char *text = g_strdup_printf ("Could not ask the person through Triage: %s",
                                               error->message);

      call_finish (call, triage_mcp_tool_error_result (text));
      /* A POST whose answer was lost: the server may have stored it. */
      if (triage_service_request_left_pending (request, error))
        triage_mcp_withdraw_request (call->server, request,
                                     "Triage could not be reached while the agent waited; "
                                     "it was told so");
    }
  else
    {
      if (call->progress_token != NULL)
        {
          send_progress (call);
          call->progress_id = g_timeout_add_seconds (call->server->progress_interval_s,
                                                     progress_cb, call);
        }
      triage_service_request_wait_async (call->request, WAIT_SECONDS, call->cancellable,
                                         waited_cb, g_rc_box_acquire (call));
    }
  triage_mcp_call_unref (call);
}

/* Nobody waits for the answer any more: stop waiting and take the request back. */
void
triage_mcp_call_withdraw (TriageMcpServer *self,
                          const char      *key,
                          const char      *reason)
{
  Call *call = g_hash_table_lookup (self->calls, key);

  if (call == NULL)
    return;

  g_cancellable_cancel (call->cancellable);
  g_clear_handle_id (&call->progress_id, g_source_remove);
  triage_mcp_withdraw_request (self, call->request, reason);
  /* No response for it: its batch may now have all the others. */
  if (call->batch != NULL)
    {
      TriageMcpBatch *batch = triage_mcp_batch_ref (call->batch);

      g_hash_table_remove (self->calls, key);
      triage_mcp_batch_call_ended (self, batch);
      triage_mcp_batch_unref (batch);
      return;
    }
  g_hash_table_remove (self->calls, key);
}

static guint
calls_through (TriageMcpServer *self,
               AtpClient       *client)
{
  GHashTableIter iter;
  gpointer value;
  guint count = 0;

  g_hash_table_iter_init (&iter, self->calls);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    count += triage_service_request_get_client (((Call *) value)->request) == client;
  return count;
}

/* A tool execution error in every version: the model reads it. */
static void
send_tool_error (TriageMcpServer *self,
                 JsonNode        *id,
                 const char      *version,
                 const char      *text)
{
  JsonObject *result = triage_mcp_tool_error_result (text);

  if (g_str_equal (version, TRIAGE_MCP_PROTOCOL_MODERN))
    triage_mcp_modern_complete (result);
  send_result (self, id, result);
}

void
triage_mcp_call_start (TriageMcpServer *self,
                       AtpClient       *client,
                       JsonNode        *id,
                       const char      *key,
                       TriageMcpTool    tool,
                       JsonObject      *params,
                       JsonObject      *arguments,
                       const char      *version)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GError) error = NULL;
  g_autofree char *notification_id = NULL;
  g_autofree char *body = NULL;
  JsonObject *meta;
  Call *call;

  body = triage_mcp_tool_build_request (tool, arguments, now, &notification_id, &error);
  if (body == NULL)
    {
      /* 2024-11-05 to 2025-06-18 list invalid arguments among protocol errors;
       * 2025-11-25 made them a tool execution error the model can read and correct. */
      if (g_str_equal (version, "2025-06-18") || g_str_equal (version, "2025-03-26") ||
          g_str_equal (version, TRIAGE_MCP_PROTOCOL_FIRST))
        {
          JsonObject *data = json_object_new ();
          const char *colon = strchr (error->message, ':');
          g_autofree char *field = colon ? g_strndup (error->message, colon - error->message)
                                         : g_strdup ("arguments");

          json_object_set_string_member (data, "field", field);
          send_error (self, id, INVALID_PARAMS, data, "Invalid arguments for tool %s: %s",
                      triage_mcp_tool_get_name (tool), error->message);
        }
      else
        {
          g_autofree char *text = g_strdup_printf ("Invalid arguments for tool %s: %s",
                                                   triage_mcp_tool_get_name (tool),
                                                   error->message);

          send_tool_error (self, id, version, text);
        }
      return;
    }
  if (calls_through (self, client) >= CALLS_PER_CLIENT_MAX)
    {
      g_autofree char *text = g_strdup_printf ("Not asked: %d questions from this agent already "
                                               "wait for the person in Triage, the most at once; "
                                               "wait for answers to some of them first",
                                               CALLS_PER_CLIENT_MAX);

      send_tool_error (self, id, version, text);
      return;
    }

  call = g_rc_box_new0 (Call);
  call->server = g_object_ref (self);
  call->key = g_strdup (key);
  call->id = json_node_copy (id);
  call->tool = tool;
  call->cancellable = g_cancellable_new ();
  call->started = g_get_monotonic_time ();
  call->version = g_intern_string (version);
  /* The request keeps its connection, and so its service, to the end: its long-polls
   * and its withdrawal ask as the service that posted it. */
  call->request = triage_service_request_new (client, notification_id, body,
                                              self->retry_for_us);

  meta = json_object_has_member (params, "_meta") &&
         JSON_NODE_HOLDS_OBJECT (json_object_get_member (params, "_meta"))
           ? json_object_get_object_member (params, "_meta") : NULL;
  if (meta != NULL && json_object_has_member (meta, "progressToken"))
    {
      JsonNode *token = json_object_get_member (meta, "progressToken");

      /* ProgressToken is string | number, as RequestId: a fraction too, sent back as read. */
      if (triage_mcp_id_is_valid (token))
        call->progress_token = json_node_copy (token);
    }

  if (self->batch != NULL)
    {
      call->batch = triage_mcp_batch_ref (self->batch);
      triage_mcp_batch_call_started (call->batch);
    }

  g_hash_table_insert (self->calls, call->key, call);
  triage_service_request_send_async (call->request, call->cancellable, sent_cb,
                                     g_rc_box_acquire (call));
}

