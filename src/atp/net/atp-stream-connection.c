/* atp-stream-connection.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-stream"

#include "atp-stream-private.h"

#include "atp-client-private.h"
#include "atp-error.h"
#include "atp-json.h"
#include "atp-private.h"
#include "atp-types.h"

/*
 * One connection attempt: open the WebSocket, hold back its frames, fetch
 * the pending list over REST, emit what is new, announce the pending set,
 * then replay the held frames and go live. Anything that ends a connection
 * (close, silence, failed resync) tears it down and arms the backoff timer;
 * a 401 stops instead.
 *
 * Every attempt owns a GCancellable; its callbacks hold a reference to the
 * stream and return quietly once it is cancelled. Signal emissions can run
 * arbitrary owner code (even atp_stream_stop()), so after each one the
 * attempt checks that it is still the current one (the generation).
 */

/* On connect the server pushes every pending notification, and a delivered
 * update for each that was new: twice the most pending items a resync takes,
 * and room for what happens meanwhile. */
#define MAX_HELD_FRAMES (2 * ATP_CLIENT_MAX_PENDING_ITEMS + 10000)

/* Ending a connection */

void
atp_stream_close_connection (AtpStream *self,
                             gushort    code)
{
  self->generation++;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->silence_id, g_source_remove);
  self->resyncing = FALSE;
  g_ptr_array_set_size (self->held, 0);
  g_clear_error (&self->error_frame);

  if (self->connection != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->connection, self);
      if (soup_websocket_connection_get_state (self->connection) == SOUP_WEBSOCKET_STATE_OPEN)
        soup_websocket_connection_close (self->connection, code, NULL);
      g_clear_object (&self->connection);
    }
}

/* Frames */

static void
send_message (AtpStream  *self,
              AtpMessage *message)
{
  g_autofree char *text = NULL;

  if (self->connection == NULL ||
      soup_websocket_connection_get_state (self->connection) != SOUP_WEBSOCKET_STATE_OPEN)
    return;

  text = atp_message_to_string (message, NULL);
  soup_websocket_connection_send_text (self->connection, text);
}

void
atp_stream_send_acknowledge (AtpStream  *self,
                             const char *notification_id)
{
  g_autoptr(AtpMessage) message = atp_message_new_acknowledge (notification_id);

  send_message (self, message);
}

static gboolean
silence_cb (gpointer data)
{
  AtpStream *self = data;

  self->silence_id = 0;
  atp_stream_fail_with (self, ATP_ERROR_CONNECTION_FAILED,
                        "No message from %s for %u seconds; the connection is taken as lost",
                        atp_client_get_display_name (self->client),
                        (self->silence_timeout_ms + 999) / 1000);

  return G_SOURCE_REMOVE;
}

static void
arm_silence_timer (AtpStream *self)
{
  g_clear_handle_id (&self->silence_id, g_source_remove);
  self->silence_id = g_timeout_add (self->silence_timeout_ms, silence_cb, self);
}

/* A frame of the live feed (never during a resync). */
static void
handle_message (AtpStream  *self,
                AtpMessage *message)
{
  switch (message->type)
    {
    case ATP_MESSAGE_NOTIFICATION:
      /* The server repeats the pending set on every connect; and a
       * notification can settle before its frame is read. */
      if (!atp_status_is_pending (message->notification->status) ||
          g_hash_table_contains (self->emitted, message->notification->id))
        break;
      atp_stream_emit_notification (self, message->notification);
      break;

    case ATP_MESSAGE_STATUS_UPDATE:
      if (atp_status_is_terminal (message->status_update->status))
        {
          g_hash_table_remove (self->emitted, message->status_update->notification_id);
          g_hash_table_remove (self->acks, message->status_update->notification_id);
        }
      atp_stream_emit_status_changed (self, message->status_update);
      break;

    case ATP_MESSAGE_ERROR:
      g_clear_error (&self->error_frame);
      self->error_frame = atp_error_info_to_gerror (message->error);
      g_debug ("Error frame from %s: %s", atp_client_get_display_name (self->client),
               self->error_frame->message);
      break;

    case ATP_MESSAGE_HEARTBEAT:      /* answered on arrival */
    case ATP_MESSAGE_HEARTBEAT_ACK:
    case ATP_MESSAGE_ACKNOWLEDGE:
    case ATP_MESSAGE_UNKNOWN:
    default:
      break;
    }
}

/* A heartbeat whose timestamp does not parse (another server's format) is
 * acknowledged all the same, its timestamp echoed as it came (what the ack
 * carries): a server that hears no ack closes the stream as idle. Said once
 * a stream, not every 30 s. FALSE when @data is no heartbeat. */
static gboolean
ack_unreadable_heartbeat (AtpStream    *self,
                          const char   *data,
                          gsize         size,
                          const GError *error)
{
  g_autoptr(JsonNode) root = atp_json_parse (data, size, ATP_MAX_FRAME_SIZE, NULL);
  g_autoptr(JsonObject) envelope = NULL;
  g_autoptr(JsonNode) reply = NULL;
  g_autofree char *text = NULL;
  JsonObject *ack_data;
  JsonNode *type, *frame_data, *timestamp = NULL;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return FALSE;
  type = atp_object_get (json_node_get_object (root), "type");
  if (type == NULL || !JSON_NODE_HOLDS_VALUE (type) ||
      json_node_get_value_type (type) != G_TYPE_STRING ||
      g_strcmp0 (json_node_get_string (type), "heartbeat") != 0)
    return FALSE;

  frame_data = atp_object_get (json_node_get_object (root), "data");
  if (frame_data != NULL && JSON_NODE_HOLDS_OBJECT (frame_data))
    timestamp = atp_object_get (json_node_get_object (frame_data), "timestamp");

  if (!self->said_unreadable_heartbeat)
    g_message ("Acknowledged a heartbeat from %s that does not parse (%s); "
               "its next ones are acknowledged without a word",
               atp_client_get_display_name (self->client), error->message);
  self->said_unreadable_heartbeat = TRUE;

  ack_data = json_object_new ();
  if (timestamp != NULL)
    json_object_set_member (ack_data, "timestamp", json_node_copy (timestamp));
  envelope = json_object_new ();
  json_object_set_string_member (envelope, "type", "heartbeat_ack");
  json_object_set_object_member (envelope, "data", ack_data);
  reply = json_node_init_object (json_node_alloc (), envelope);

  if (self->connection != NULL &&
      soup_websocket_connection_get_state (self->connection) == SOUP_WEBSOCKET_STATE_OPEN)
    {
      text = json_to_string (reply, FALSE);
      soup_websocket_connection_send_text (self->connection, text);
    }

  return TRUE;
}

static void
on_message (SoupWebsocketConnection *connection,
            gint                     type,
            GBytes                  *bytes,
            AtpStream               *self)
{
  g_autoptr(SoupWebsocketConnection) keep = g_object_ref (connection);
  g_autoptr(AtpStream) hold = g_object_ref (self);
  g_autoptr(AtpMessage) message = NULL;
  g_autoptr(GError) error = NULL;
  gsize size = 0;
  const char *data;

  arm_silence_timer (self);

  if (type != SOUP_WEBSOCKET_DATA_TEXT)
    {
      g_debug ("Ignored a binary frame from %s", atp_client_get_display_name (self->client));
      return;
    }

  data = g_bytes_get_data (bytes, &size);
  message = atp_message_new_from_data (data, size, &error);
  if (message == NULL)
    {
      if (!ack_unreadable_heartbeat (self, data, size, error))
        g_message ("Ignored a frame from %s: %s", atp_client_get_display_name (self->client),
                   error->message);
      return;
    }

  if (message->type == ATP_MESSAGE_HEARTBEAT)
    {
      g_autoptr(AtpMessage) ack = atp_message_new_heartbeat_ack (message->timestamp);

      send_message (self, ack);
      return;
    }

  /* An error frame is not part of the feed: it says why the server is about
   * to close, which may be before the resync is done (a sixth stream is
   * refused at once), and the close must report it. */
  if (self->resyncing && message->type != ATP_MESSAGE_ERROR)
    {
      if (message->type == ATP_MESSAGE_NOTIFICATION ||
          message->type == ATP_MESSAGE_STATUS_UPDATE)
        {
          if (self->held->len >= MAX_HELD_FRAMES)
            {
              atp_stream_fail_with (self, ATP_ERROR_PROTOCOL,
                                    "%s sent more than %d messages during the resync",
                                    atp_client_get_display_name (self->client), MAX_HELD_FRAMES);
              return;
            }
          g_ptr_array_add (self->held, g_steal_pointer (&message));
        }
      return;
    }

  handle_message (self, message);
}

static GError *
error_for_close (AtpStream *self,
                 gushort    code,
                 const char *data)
{
  const char *server = atp_client_get_display_name (self->client);
  g_autofree char *why = NULL;

  if (data != NULL && *data != '\0')
    why = g_strdup_printf (": %s", data);

  switch (code)
    {
    case 4029:
      return g_error_new (ATP_ERROR, ATP_ERROR_RATE_LIMIT_EXCEEDED,
                          "%s refused the stream: too many open connections for this account "
                          "(close code 4029)", server);
    case SOUP_WEBSOCKET_CLOSE_TOO_BIG:
      return g_error_new (ATP_ERROR, ATP_ERROR_PAYLOAD_TOO_LARGE,
                          "The stream to %s was closed because a message was larger than allowed "
                          "(close code 1009)", server);
    case 4000:
      return g_error_new (ATP_ERROR, ATP_ERROR_CONNECTION_FAILED,
                          "%s closed the stream as idle (close code 4000)", server);
    case SOUP_WEBSOCKET_CLOSE_GOING_AWAY:
      return g_error_new (ATP_ERROR, ATP_ERROR_CONNECTION_FAILED,
                          "%s is shutting down or restarting (close code 1001)", server);
    case SOUP_WEBSOCKET_CLOSE_POLICY_VIOLATION:
    case SOUP_WEBSOCKET_CLOSE_PROTOCOL_ERROR:
    case SOUP_WEBSOCKET_CLOSE_UNSUPPORTED_DATA:
    case SOUP_WEBSOCKET_CLOSE_BAD_DATA:
      return g_error_new (ATP_ERROR, ATP_ERROR_PROTOCOL,
                          "%s closed the stream for a protocol error (close code %u%s)",
                          server, code, why ? why : "");
    case SOUP_WEBSOCKET_CLOSE_NORMAL:
      return g_error_new (ATP_ERROR, ATP_ERROR_CONNECTION_FAILED,
                          "%s closed the stream%s", server, why ? why : "");
    case 0:
    case SOUP_WEBSOCKET_CLOSE_NO_STATUS:
    case SOUP_WEBSOCKET_CLOSE_ABNORMAL:
      return g_error_new (ATP_ERROR, ATP_ERROR_CONNECTION_FAILED,
                          "The connection to %s was lost", server);
    default:
      return g_error_new (ATP_ERROR, ATP_ERROR_CONNECTION_FAILED,
                          "%s closed the stream (close code %u%s)", server, code, why ? why : "");
    }
}

static void
on_closed (SoupWebsocketConnection *connection,
           AtpStream               *self)
{
  g_autoptr(SoupWebsocketConnection) keep = g_object_ref (connection);
  g_autoptr(AtpStream) hold = g_object_ref (self);
  g_autoptr(GError) error = NULL;

  /* A server that closes for a reason says it in an `error` frame first. */
  if (self->error_frame != NULL)
    error = g_error_copy (self->error_frame);
  else
    error = error_for_close (self, soup_websocket_connection_get_close_code (connection),
                             soup_websocket_connection_get_close_data (connection));

  atp_stream_schedule_retry (self, error);
}

static void
on_connection_error (SoupWebsocketConnection *connection,
                     GError                  *error,
                     AtpStream               *self)
{
  /* "closed" follows; this only says why. */
  g_debug ("Stream to %s: %s", atp_client_get_display_name (self->client), error->message);
}

/* Resync */

/* A page of the pending set is in: what is new to the stream is emitted now,
 * while the next page is made and read (10,000 pending: the owner had none of
 * them until the tenth page was in, then all at once). Should the owner end
 * the connection meanwhile, the list is cancelled with it. */
static void
resync_page (GPtrArray *items,
             guint      from,
             gpointer   data)
{
  AtpStream *self = data;
  guint generation = self->generation;

  for (guint i = from; i < items->len; i++)
    {
      AtpNotification *notification = g_ptr_array_index (items, i);

      if (g_hash_table_contains (self->emitted, notification->id))
        continue;
      atp_stream_emit_notification (self, notification);
      if (self->generation != generation)
        return;
    }
}

static void
resync_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(AtpStream) self = user_data;
  g_autoptr(GPtrArray) pending = NULL;
  g_autoptr(GPtrArray) held = NULL;
  g_autoptr(GHashTable) live = NULL;
  g_autoptr(GError) error = NULL;
  GHashTableIter iter;
  gpointer key;
  guint generation;

  pending = atp_client_list_pending_finish (ATP_CLIENT (object), result, &error);
  if (pending == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      g_prefix_error (&error, "Could not fetch the pending requests: ");
      atp_stream_schedule_retry (self, error);
      return;
    }

  generation = self->generation;
  self->resyncing = FALSE;
  self->attempt = 0;
  held = g_steal_pointer (&self->held);
  self->held = g_ptr_array_new_with_free_func ((GDestroyNotify) atp_message_unref);

  /* What was emitted before and is no longer pending was settled meanwhile. */
  live = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < pending->len; i++)
    {
      AtpNotification *notification = g_ptr_array_index (pending, i);

      g_hash_table_add (live, notification->id);
    }

  g_hash_table_iter_init (&iter, self->emitted);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (live, key))
      g_hash_table_iter_remove (&iter);

  g_hash_table_iter_init (&iter, self->acks);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (live, key))
      g_hash_table_iter_remove (&iter);

  atp_stream_set_retry (self, 0, 0);
  atp_stream_set_last_error (self, NULL);
  atp_stream_set_state (self, ATP_STREAM_STATE_CONNECTED);
  if (self->generation != generation)
    return;

  atp_stream_emit_resynced (self, pending);
  if (self->generation != generation)
    return;

  /* Acknowledgements that could not be sent, or may have been lost with
   * the last connection. */
  for (guint i = 0; i < pending->len; i++)
    {
      AtpNotification *notification = g_ptr_array_index (pending, i);

      if (notification->status != ATP_STATUS_ACKNOWLEDGED &&
          g_hash_table_contains (self->acks, notification->id))
        atp_stream_send_acknowledge (self, notification->id);
    }

  for (guint i = 0; i < held->len; i++)
    {
      handle_message (self, g_ptr_array_index (held, i));
      if (self->generation != generation)
        return;
    }
}

static void
websocket_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(AtpStream) self = user_data;
  g_autoptr(SoupWebsocketConnection) connection = NULL;
  g_autoptr(GError) error = NULL;
  SoupMessage *message;
  guint status;

  connection = soup_session_websocket_connect_finish (SOUP_SESSION (object), result, &error);
  if (connection == NULL)
    {
      g_autoptr(GError) mapped = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;

      message = soup_session_get_async_result_message (SOUP_SESSION (object), result);
      status = message != NULL ? soup_message_get_status (message) : 0;

      if (status == SOUP_STATUS_UNAUTHORIZED)
        mapped = g_error_new (ATP_ERROR, ATP_ERROR_AUTH_INVALID_TOKEN,
                              "%s refused the credentials (HTTP 401)",
                              atp_client_get_display_name (self->client));
      else if (status == SOUP_STATUS_FORBIDDEN)
        mapped = g_error_new (ATP_ERROR, ATP_ERROR_AUTH_INSUFFICIENT_PERMISSIONS,
                              "%s does not accept this token for the stream: it is not a user "
                              "token (HTTP 403)",
                              atp_client_get_display_name (self->client));
      else if (status == 429)
        mapped = g_error_new (ATP_ERROR, ATP_ERROR_RATE_LIMIT_EXCEEDED,
                              "%s refused the stream: too many connections (HTTP 429)",
                              atp_client_get_display_name (self->client));
      else if (status >= 100)
        mapped = g_error_new (ATP_ERROR, status >= 500 ? ATP_ERROR_SERVICE_UNAVAILABLE
                                                       : ATP_ERROR_PROTOCOL,
                              "%s refused the stream (HTTP %u %s)",
                              atp_client_get_display_name (self->client), status,
                              soup_message_get_reason_phrase (message)
                                ? soup_message_get_reason_phrase (message) : "");
      else
        mapped = atp_client_connection_error (self->client, message, error, FALSE);

      if (status >= 100 && mapped->domain == ATP_ERROR)
        atp_error_set_retry_after (mapped, atp_client_read_retry_after (message));
      atp_stream_schedule_retry (self, mapped);
      return;
    }

  self->connection = g_steal_pointer (&connection);
  soup_websocket_connection_set_max_incoming_payload_size (self->connection, ATP_MAX_FRAME_SIZE);
  soup_websocket_connection_set_keepalive_interval (self->connection, 0);
  g_signal_connect (self->connection, "message", G_CALLBACK (on_message), self);
  g_signal_connect (self->connection, "closed", G_CALLBACK (on_closed), self);
  g_signal_connect (self->connection, "error", G_CALLBACK (on_connection_error), self);
  arm_silence_timer (self);

  self->resyncing = TRUE;
  atp_client_list_pending_paged_async (self->client, resync_page, self, self->cancellable,
                                       resync_cb, g_object_ref (self));
}

void
atp_stream_connect_now (AtpStream *self)
{
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GString) path = NULL;
  g_autofree char *protocols = NULL;

  atp_stream_close_connection (self, SOUP_WEBSOCKET_CLOSE_NORMAL);
  g_clear_handle_id (&self->retry_id, g_source_remove);
  atp_stream_set_retry (self, 0, 0);

  self->cancellable = g_cancellable_new ();
  atp_stream_set_state (self, ATP_STREAM_STATE_CONNECTING);
  /* The session has no timeout of its own: a server that accepts and never
   * answers the upgrade (wedged, or a proxy that swallows it) counts as
   * silent like one that stops talking later. */
  arm_silence_timer (self);

  /* The resync lists the pending set: the snapshot a server sends on
   * connect would only be dropped as a copy of it (a server that does not
   * know snapshot=false sends it all the same, and it is dropped). */
  path = g_string_new ("/api/v1/client/stream?version=" ATP_PROTOCOL_VERSION "&snapshot=false");
  protocols = atp_client_dup_protocols_param (self->client);
  if (protocols != NULL)
    {
      g_string_append (path, "&protocols=");
      g_string_append_uri_escaped (path, protocols, NULL, FALSE);
    }
  message = atp_client_new_message (self->client, "GET", path->str, FALSE);
  soup_session_websocket_connect_async (atp_client_get_session (self->client), message,
                                        NULL, NULL, G_PRIORITY_DEFAULT, self->cancellable,
                                        websocket_cb, g_object_ref (self));
}
