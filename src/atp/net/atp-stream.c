/* atp-stream.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-stream"

#include "atp-stream.h"

#include <libsoup/soup.h>

#include "atp-client-private.h"
#include "atp-error.h"
#include "atp-message.h"
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

struct _AtpStream
{
  GObject                  parent_instance;

  AtpClient               *client;
  gulong                   token_handler;

  AtpStreamState           state;
  GError                  *last_error;
  gint64                   next_retry_time;
  guint                    retry_in_seconds;

  guint                    silence_timeout_ms;
  guint                    backoff_initial_ms;
  guint                    backoff_max_ms;
  gboolean                 watch_system;

  gboolean                 started;
  guint                    attempt;         /* failures in a row, for the backoff */
  guint                    generation;      /* bumped whenever a connection ends */
  guint                    retry_id;
  guint                    silence_id;
  GCancellable            *cancellable;     /* the current attempt */
  SoupWebsocketConnection *connection;
  gboolean                 resyncing;
  GPtrArray               *held;            /* AtpMessage*, frames that came during the resync */
  GError                  *error_frame;     /* the last `error` frame of this connection */

  GHashTable              *emitted;         /* ids emitted and still pending */
  GHashTable              *acks;            /* ids the owner acknowledged, still pending */

  GNetworkMonitor         *monitor;
  gulong                   network_handler;
  GCancellable            *bus_cancellable;
  GDBusConnection         *system_bus;
  guint                    sleep_subscription;
};

G_DEFINE_FINAL_TYPE (AtpStream, atp_stream, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (AtpStreamState, atp_stream_state,
  G_DEFINE_ENUM_VALUE (ATP_STREAM_STATE_DISCONNECTED, "disconnected"),
  G_DEFINE_ENUM_VALUE (ATP_STREAM_STATE_CONNECTING, "connecting"),
  G_DEFINE_ENUM_VALUE (ATP_STREAM_STATE_CONNECTED, "connected"),
  G_DEFINE_ENUM_VALUE (ATP_STREAM_STATE_RECONNECTING, "reconnecting"),
  G_DEFINE_ENUM_VALUE (ATP_STREAM_STATE_AUTH_FAILED, "auth-failed"),
  G_DEFINE_ENUM_VALUE (ATP_STREAM_STATE_OFFLINE, "offline"))

enum {
  PROP_0,
  PROP_CLIENT,
  PROP_STATE,
  PROP_LAST_ERROR,
  PROP_NEXT_RETRY_TIME,
  PROP_RETRY_IN_SECONDS,
  PROP_SILENCE_TIMEOUT_MS,
  PROP_BACKOFF_INITIAL_MS,
  PROP_BACKOFF_MAX_MS,
  PROP_WATCH_SYSTEM,
  PROP_NETWORK_MONITOR,
  N_PROPS
};

enum {
  NOTIFICATION_RECEIVED,
  STATUS_CHANGED,
  RESYNCED,
  N_SIGNALS
};

static GParamSpec *properties [N_PROPS];
static guint signals [N_SIGNALS];

static void connect_now      (AtpStream *self);
static void handle_message   (AtpStream  *self,
                              AtpMessage *message);

/* State */

static void
set_state (AtpStream      *self,
           AtpStreamState  state)
{
  if (self->state == state)
    return;

  self->state = state;
  g_debug ("Stream to %s: %s", atp_client_get_display_name (self->client),
           g_enum_get_value (g_type_class_peek (ATP_TYPE_STREAM_STATE), state)->value_nick);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_STATE]);
}

static void
set_last_error (AtpStream    *self,
                const GError *error)
{
  if (self->last_error == NULL && error == NULL)
    return;

  g_clear_error (&self->last_error);
  if (error != NULL)
    self->last_error = g_error_copy (error);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_LAST_ERROR]);
}

static void
set_retry (AtpStream *self,
           gint64     next_retry_time,
           guint      retry_in_seconds)
{
  if (self->next_retry_time != next_retry_time)
    {
      self->next_retry_time = next_retry_time;
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_NEXT_RETRY_TIME]);
    }

  if (self->retry_in_seconds != retry_in_seconds)
    {
      self->retry_in_seconds = retry_in_seconds;
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_RETRY_IN_SECONDS]);
    }
}

static gboolean
network_missing (AtpStream *self)
{
  return self->monitor != NULL && atp_client_needs_network (self->client) &&
         !g_network_monitor_get_network_available (self->monitor);
}

/* Ending a connection */

static void
close_connection (AtpStream *self,
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

static gboolean
retry_cb (gpointer data)
{
  AtpStream *self = data;

  self->retry_id = 0;
  connect_now (self);

  return G_SOURCE_REMOVE;
}

/* Full jitter: a random wait in [0, min(max, initial·2^attempt)]. */
static guint
next_backoff_ms (AtpStream *self)
{
  guint64 cap = self->backoff_initial_ms;

  for (guint i = 0; i < self->attempt && cap < self->backoff_max_ms; i++)
    cap *= 2;
  cap = MIN (cap, self->backoff_max_ms);

  if (self->attempt < G_MAXUINT)
    self->attempt++;

  return (guint) g_random_double_range (0, (double) cap + 1);
}

/* The connection failed or ended: wait, then try again. */
static void
schedule_retry (AtpStream    *self,
                const GError *error)
{
  guint delay_ms;

  close_connection (self, SOUP_WEBSOCKET_CLOSE_NORMAL);
  g_clear_handle_id (&self->retry_id, g_source_remove);

  if (error != NULL)
    {
      g_debug ("Stream to %s ended: %s", atp_client_get_display_name (self->client), error->message);
      set_last_error (self, error);
    }

  if (!self->started)
    return;

  /* A refused token, or one that is not a user token (a service key): trying
   * again with it cannot help. */
  if (g_error_matches (error, ATP_ERROR, ATP_ERROR_AUTH_INVALID_TOKEN) ||
      g_error_matches (error, ATP_ERROR, ATP_ERROR_AUTH_INSUFFICIENT_PERMISSIONS))
    {
      set_retry (self, 0, 0);
      set_state (self, ATP_STREAM_STATE_AUTH_FAILED);
      return;
    }

  /* Without a network the backoff still runs: the monitor can be wrong (a
   * LAN server without a default route), and it cannot leave us stuck. */
  delay_ms = next_backoff_ms (self);
  set_retry (self, g_get_monotonic_time () + (gint64) delay_ms * 1000, (delay_ms + 999) / 1000);
  self->retry_id = g_timeout_add (delay_ms, retry_cb, self);
  set_state (self, network_missing (self) ? ATP_STREAM_STATE_OFFLINE
                                          : ATP_STREAM_STATE_RECONNECTING);
}

static void
fail_with (AtpStream    *self,
           AtpErrorCode  code,
           const char   *format,
           ...) G_GNUC_PRINTF (3, 4);

static void
fail_with (AtpStream    *self,
           AtpErrorCode  code,
           const char   *format,
           ...)
{
  g_autoptr(GError) error = NULL;
  va_list args;

  va_start (args, format);
  error = g_error_new_valist (ATP_ERROR, code, format, args);
  va_end (args);

  schedule_retry (self, error);
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

static void
send_acknowledge (AtpStream  *self,
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
  fail_with (self, ATP_ERROR_CONNECTION_FAILED,
             "No message from %s for %u seconds; the connection is taken as lost",
             atp_client_get_display_name (self->client), (self->silence_timeout_ms + 999) / 1000);

  return G_SOURCE_REMOVE;
}

static void
arm_silence_timer (AtpStream *self)
{
  g_clear_handle_id (&self->silence_id, g_source_remove);
  self->silence_id = g_timeout_add (self->silence_timeout_ms, silence_cb, self);
}

static void
emit_notification (AtpStream       *self,
                   AtpNotification *notification)
{
  g_hash_table_add (self->emitted, g_strdup (notification->id));
  g_signal_emit (self, signals [NOTIFICATION_RECEIVED], 0, notification);
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
      emit_notification (self, message->notification);
      break;

    case ATP_MESSAGE_STATUS_UPDATE:
      if (atp_status_is_terminal (message->status_update->status))
        {
          g_hash_table_remove (self->emitted, message->status_update->notification_id);
          g_hash_table_remove (self->acks, message->status_update->notification_id);
        }
      g_signal_emit (self, signals [STATUS_CHANGED], 0, message->status_update);
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
              fail_with (self, ATP_ERROR_PROTOCOL,
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

  schedule_retry (self, error);
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
      schedule_retry (self, error);
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

  for (guint i = 0; i < pending->len; i++)
    {
      AtpNotification *notification = g_ptr_array_index (pending, i);

      if (g_hash_table_contains (self->emitted, notification->id))
        continue;
      emit_notification (self, notification);
      if (self->generation != generation)
        return;
    }

  set_retry (self, 0, 0);
  set_last_error (self, NULL);
  set_state (self, ATP_STREAM_STATE_CONNECTED);
  if (self->generation != generation)
    return;

  g_signal_emit (self, signals [RESYNCED], 0, pending);
  if (self->generation != generation)
    return;

  /* Acknowledgements that could not be sent, or may have been lost with
   * the last connection. */
  for (guint i = 0; i < pending->len; i++)
    {
      AtpNotification *notification = g_ptr_array_index (pending, i);

      if (notification->status != ATP_STATUS_ACKNOWLEDGED &&
          g_hash_table_contains (self->acks, notification->id))
        send_acknowledge (self, notification->id);
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
        mapped = atp_client_connection_error (self->client, error, FALSE);

      schedule_retry (self, mapped);
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
  atp_client_list_pending_async (self->client, self->cancellable, resync_cb, g_object_ref (self));
}

static void
connect_now (AtpStream *self)
{
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GString) path = NULL;
  g_autofree char *protocols = NULL;

  close_connection (self, SOUP_WEBSOCKET_CLOSE_NORMAL);
  g_clear_handle_id (&self->retry_id, g_source_remove);
  set_retry (self, 0, 0);

  self->cancellable = g_cancellable_new ();
  set_state (self, ATP_STREAM_STATE_CONNECTING);
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

/* The system: network and sleep */

static void
on_network_changed (GNetworkMonitor *monitor,
                    gboolean         available,
                    AtpStream       *self)
{
  if (!self->started || !atp_client_needs_network (self->client))
    return;

  if (available && (self->state == ATP_STREAM_STATE_OFFLINE ||
                    self->state == ATP_STREAM_STATE_RECONNECTING))
    {
      g_debug ("Network back: reconnecting to %s", atp_client_get_display_name (self->client));
      self->attempt = 0;
      connect_now (self);
    }
  else if (!available && self->state == ATP_STREAM_STATE_RECONNECTING)
    set_state (self, ATP_STREAM_STATE_OFFLINE);
}

static void
on_prepare_for_sleep (GDBusConnection *bus,
                      const char      *sender,
                      const char      *path,
                      const char      *interface,
                      const char      *signal,
                      GVariant        *parameters,
                      gpointer         user_data)
{
  g_autoptr(AtpStream) self = g_weak_ref_get (user_data);
  gboolean going_to_sleep = FALSE;

  if (self == NULL || !g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(b)")))
    return;

  g_variant_get (parameters, "(b)", &going_to_sleep);
  if (going_to_sleep || !self->started || self->state == ATP_STREAM_STATE_AUTH_FAILED)
    return;

  /* After a suspend the socket is most likely dead without knowing it. */
  g_debug ("Woke up: reconnecting to %s", atp_client_get_display_name (self->client));
  self->attempt = 0;
  connect_now (self);
}

static void
weak_ref_free (GWeakRef *ref)
{
  g_weak_ref_clear (ref);
  g_free (ref);
}

static void
system_bus_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(AtpStream) self = user_data;
  g_autoptr(GError) error = NULL;
  GDBusConnection *bus;
  GWeakRef *ref;

  bus = g_bus_get_finish (result, &error);
  if (bus == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("No system bus, so no reconnect after sleep: %s", error->message);
      return;
    }

  if (self->bus_cancellable == NULL)   /* disposed meanwhile */
    {
      g_object_unref (bus);
      return;
    }

  self->system_bus = bus;
  ref = g_new0 (GWeakRef, 1);
  g_weak_ref_init (ref, self);
  self->sleep_subscription =
    g_dbus_connection_signal_subscribe (bus, "org.freedesktop.login1",
                                        "org.freedesktop.login1.Manager", "PrepareForSleep",
                                        "/org/freedesktop/login1", NULL,
                                        G_DBUS_SIGNAL_FLAGS_NONE, on_prepare_for_sleep,
                                        ref, (GDestroyNotify) weak_ref_free);
}

static void
watch_system (AtpStream *self)
{
  if (!self->watch_system || self->network_handler != 0)
    return;

  if (self->monitor == NULL)
    self->monitor = g_object_ref (g_network_monitor_get_default ());
  self->network_handler = g_signal_connect (self->monitor, "network-changed",
                                            G_CALLBACK (on_network_changed), self);

  self->bus_cancellable = g_cancellable_new ();
  g_bus_get (G_BUS_TYPE_SYSTEM, self->bus_cancellable, system_bus_cb, g_object_ref (self));
}

static void
on_token_changed (AtpStream *self)
{
  if (self->started && self->state != ATP_STREAM_STATE_CONNECTED &&
      self->state != ATP_STREAM_STATE_CONNECTING)
    atp_stream_reconnect_now (self);
}

/* GObject */

static void
atp_stream_constructed (GObject *object)
{
  AtpStream *self = ATP_STREAM (object);

  G_OBJECT_CLASS (atp_stream_parent_class)->constructed (object);

  g_assert (self->client != NULL);
  self->token_handler = g_signal_connect_swapped (self->client, "token-changed",
                                                  G_CALLBACK (on_token_changed), self);
}

static void
atp_stream_dispose (GObject *object)
{
  AtpStream *self = ATP_STREAM (object);

  self->started = FALSE;
  close_connection (self, SOUP_WEBSOCKET_CLOSE_GOING_AWAY);
  g_clear_handle_id (&self->retry_id, g_source_remove);

  if (self->client != NULL)
    g_clear_signal_handler (&self->token_handler, self->client);
  if (self->monitor != NULL)
    g_clear_signal_handler (&self->network_handler, self->monitor);
  g_clear_object (&self->monitor);

  g_cancellable_cancel (self->bus_cancellable);
  g_clear_object (&self->bus_cancellable);
  if (self->system_bus != NULL && self->sleep_subscription != 0)
    g_dbus_connection_signal_unsubscribe (self->system_bus, self->sleep_subscription);
  self->sleep_subscription = 0;
  g_clear_object (&self->system_bus);

  G_OBJECT_CLASS (atp_stream_parent_class)->dispose (object);
}

static void
atp_stream_finalize (GObject *object)
{
  AtpStream *self = ATP_STREAM (object);

  g_clear_object (&self->client);
  g_clear_error (&self->last_error);
  g_clear_error (&self->error_frame);
  g_clear_pointer (&self->held, g_ptr_array_unref);
  g_clear_pointer (&self->emitted, g_hash_table_unref);
  g_clear_pointer (&self->acks, g_hash_table_unref);

  G_OBJECT_CLASS (atp_stream_parent_class)->finalize (object);
}

static void
atp_stream_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  AtpStream *self = ATP_STREAM (object);

  switch (prop_id)
    {
    case PROP_CLIENT:
      g_value_set_object (value, self->client);
      break;

    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;

    case PROP_LAST_ERROR:
      g_value_set_boxed (value, self->last_error);
      break;

    case PROP_NEXT_RETRY_TIME:
      g_value_set_int64 (value, self->next_retry_time);
      break;

    case PROP_RETRY_IN_SECONDS:
      g_value_set_uint (value, self->retry_in_seconds);
      break;

    case PROP_SILENCE_TIMEOUT_MS:
      g_value_set_uint (value, self->silence_timeout_ms);
      break;

    case PROP_BACKOFF_INITIAL_MS:
      g_value_set_uint (value, self->backoff_initial_ms);
      break;

    case PROP_BACKOFF_MAX_MS:
      g_value_set_uint (value, self->backoff_max_ms);
      break;

    case PROP_WATCH_SYSTEM:
      g_value_set_boolean (value, self->watch_system);
      break;

    case PROP_NETWORK_MONITOR:
      g_value_set_object (value, self->monitor);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
atp_stream_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  AtpStream *self = ATP_STREAM (object);

  switch (prop_id)
    {
    case PROP_CLIENT:
      self->client = g_value_dup_object (value);
      break;

    case PROP_SILENCE_TIMEOUT_MS:
      atp_stream_set_silence_timeout (self, g_value_get_uint (value));
      break;

    case PROP_BACKOFF_INITIAL_MS:
      atp_stream_set_backoff (self, g_value_get_uint (value), self->backoff_max_ms);
      break;

    case PROP_BACKOFF_MAX_MS:
      atp_stream_set_backoff (self, self->backoff_initial_ms, g_value_get_uint (value));
      break;

    case PROP_WATCH_SYSTEM:
      self->watch_system = g_value_get_boolean (value);
      break;

    case PROP_NETWORK_MONITOR:
      self->monitor = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
atp_stream_class_init (AtpStreamClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = atp_stream_constructed;
  object_class->dispose = atp_stream_dispose;
  object_class->finalize = atp_stream_finalize;
  object_class->get_property = atp_stream_get_property;
  object_class->set_property = atp_stream_set_property;

  properties [PROP_CLIENT] =
    g_param_spec_object ("client", NULL, NULL, ATP_TYPE_CLIENT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties [PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, ATP_TYPE_STREAM_STATE, ATP_STREAM_STATE_DISCONNECTED,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties [PROP_LAST_ERROR] =
    g_param_spec_boxed ("last-error", NULL, NULL, G_TYPE_ERROR,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties [PROP_NEXT_RETRY_TIME] =
    g_param_spec_int64 ("next-retry-time", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties [PROP_RETRY_IN_SECONDS] =
    g_param_spec_uint ("retry-in-seconds", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties [PROP_SILENCE_TIMEOUT_MS] =
    g_param_spec_uint ("silence-timeout-ms", NULL, NULL, 10, G_MAXINT,
                       ATP_STREAM_DEFAULT_SILENCE_TIMEOUT_MS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties [PROP_BACKOFF_INITIAL_MS] =
    g_param_spec_uint ("backoff-initial-ms", NULL, NULL, 1, G_MAXINT,
                       ATP_STREAM_DEFAULT_BACKOFF_INITIAL_MS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties [PROP_BACKOFF_MAX_MS] =
    g_param_spec_uint ("backoff-max-ms", NULL, NULL, 1, G_MAXINT,
                       ATP_STREAM_DEFAULT_BACKOFF_MAX_MS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties [PROP_WATCH_SYSTEM] =
    g_param_spec_boolean ("watch-system", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * AtpStream:network-monitor:
   *
   * Where the stream learns that the network came back (with
   * #AtpStream:watch-system); %NULL for g_network_monitor_get_default().
   */
  properties [PROP_NETWORK_MONITOR] =
    g_param_spec_object ("network-monitor", NULL, NULL, G_TYPE_NETWORK_MONITOR,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * AtpStream::notification-received:
   * @notification: a pending notification new to this stream
   */
  signals [NOTIFICATION_RECEIVED] =
    g_signal_new ("notification-received", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  ATP_TYPE_NOTIFICATION | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * AtpStream::status-changed:
   * @update: a status update pushed by the server
   */
  signals [STATUS_CHANGED] =
    g_signal_new ("status-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  ATP_TYPE_STATUS_UPDATE | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * AtpStream::resynced:
   * @pending: (element-type AtpNotification): the server's whole pending set
   */
  signals [RESYNCED] =
    g_signal_new ("resynced", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  G_TYPE_PTR_ARRAY | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
atp_stream_init (AtpStream *self)
{
  self->silence_timeout_ms = ATP_STREAM_DEFAULT_SILENCE_TIMEOUT_MS;
  self->backoff_initial_ms = ATP_STREAM_DEFAULT_BACKOFF_INITIAL_MS;
  self->backoff_max_ms = ATP_STREAM_DEFAULT_BACKOFF_MAX_MS;
  self->watch_system = TRUE;
  self->held = g_ptr_array_new_with_free_func ((GDestroyNotify) atp_message_unref);
  self->emitted = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->acks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/* API */

AtpStream *
atp_stream_new (AtpClient *client)
{
  g_return_val_if_fail (ATP_IS_CLIENT (client), NULL);

  return g_object_new (ATP_TYPE_STREAM, "client", client, NULL);
}

AtpClient *
atp_stream_get_client (AtpStream *self)
{
  g_return_val_if_fail (ATP_IS_STREAM (self), NULL);

  return self->client;
}

void
atp_stream_start (AtpStream *self)
{
  g_return_if_fail (ATP_IS_STREAM (self));

  if (self->started)
    return;

  self->started = TRUE;
  self->attempt = 0;
  watch_system (self);
  connect_now (self);
}

void
atp_stream_stop (AtpStream *self)
{
  g_return_if_fail (ATP_IS_STREAM (self));

  self->started = FALSE;
  close_connection (self, SOUP_WEBSOCKET_CLOSE_GOING_AWAY);
  g_clear_handle_id (&self->retry_id, g_source_remove);
  set_retry (self, 0, 0);
  set_state (self, ATP_STREAM_STATE_DISCONNECTED);
}

void
atp_stream_reconnect_now (AtpStream *self)
{
  g_return_if_fail (ATP_IS_STREAM (self));

  if (!self->started ||
      self->state == ATP_STREAM_STATE_CONNECTING ||
      self->state == ATP_STREAM_STATE_CONNECTED)
    return;

  self->attempt = 0;
  connect_now (self);
}

void
atp_stream_acknowledge (AtpStream  *self,
                        const char *notification_id)
{
  g_return_if_fail (ATP_IS_STREAM (self));
  g_return_if_fail (notification_id != NULL);

  if (g_hash_table_contains (self->acks, notification_id))
    return;

  g_hash_table_add (self->acks, g_strdup (notification_id));

  if (self->state == ATP_STREAM_STATE_CONNECTED)
    send_acknowledge (self, notification_id);
}

AtpStreamState
atp_stream_get_state (AtpStream *self)
{
  g_return_val_if_fail (ATP_IS_STREAM (self), ATP_STREAM_STATE_DISCONNECTED);

  return self->state;
}

const GError *
atp_stream_get_last_error (AtpStream *self)
{
  g_return_val_if_fail (ATP_IS_STREAM (self), NULL);

  return self->last_error;
}

gint64
atp_stream_get_next_retry_time (AtpStream *self)
{
  g_return_val_if_fail (ATP_IS_STREAM (self), 0);

  return self->next_retry_time;
}

guint
atp_stream_get_retry_in_seconds (AtpStream *self)
{
  g_return_val_if_fail (ATP_IS_STREAM (self), 0);

  return self->retry_in_seconds;
}

void
atp_stream_set_silence_timeout (AtpStream *self,
                                guint      milliseconds)
{
  g_return_if_fail (ATP_IS_STREAM (self));

  milliseconds = MAX (milliseconds, 10);
  if (self->silence_timeout_ms == milliseconds)
    return;

  self->silence_timeout_ms = milliseconds;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_SILENCE_TIMEOUT_MS]);
}

void
atp_stream_set_backoff (AtpStream *self,
                        guint      initial_ms,
                        guint      max_ms)
{
  g_return_if_fail (ATP_IS_STREAM (self));

  initial_ms = MAX (initial_ms, 1);
  max_ms = MAX (max_ms, initial_ms);

  if (self->backoff_initial_ms != initial_ms)
    {
      self->backoff_initial_ms = initial_ms;
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_BACKOFF_INITIAL_MS]);
    }

  if (self->backoff_max_ms != max_ms)
    {
      self->backoff_max_ms = max_ms;
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_BACKOFF_MAX_MS]);
    }
}
