/* atp-stream.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-stream"

#include "atp-stream-private.h"

#include "atp-client-private.h"
#include "atp-error.h"
#include "atp-types.h"

/*
 * The stream's object: its state, the backoff between connection attempts
 * and the watch on the network and on sleep. One attempt (the WebSocket,
 * the resync, the frames) is in atp-stream-connection.c.
 */

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

/* State */

void
atp_stream_set_state (AtpStream      *self,
                      AtpStreamState  state)
{
  if (self->state == state)
    return;

  self->state = state;
  g_debug ("Stream to %s: %s", atp_client_get_display_name (self->client),
           g_enum_get_value (g_type_class_peek (ATP_TYPE_STREAM_STATE), state)->value_nick);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_STATE]);
}

void
atp_stream_set_last_error (AtpStream    *self,
                           const GError *error)
{
  if (self->last_error == NULL && error == NULL)
    return;

  g_clear_error (&self->last_error);
  if (error != NULL)
    self->last_error = g_error_copy (error);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_LAST_ERROR]);
}

void
atp_stream_set_retry (AtpStream *self,
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

static gboolean
retry_cb (gpointer data)
{
  AtpStream *self = data;

  self->retry_id = 0;
  atp_stream_connect_now (self);

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
void
atp_stream_schedule_retry (AtpStream    *self,
                           const GError *error)
{
  guint delay_ms;

  atp_stream_close_connection (self, SOUP_WEBSOCKET_CLOSE_NORMAL);
  g_clear_handle_id (&self->retry_id, g_source_remove);

  if (error != NULL)
    {
      g_debug ("Stream to %s ended: %s", atp_client_get_display_name (self->client), error->message);
      atp_stream_set_last_error (self, error);
    }

  if (!self->started)
    return;

  /* A refused token, or one that is not a user token (a service key): trying
   * again with it cannot help. */
  if (g_error_matches (error, ATP_ERROR, ATP_ERROR_AUTH_INVALID_TOKEN) ||
      g_error_matches (error, ATP_ERROR, ATP_ERROR_AUTH_INSUFFICIENT_PERMISSIONS))
    {
      atp_stream_set_retry (self, 0, 0);
      atp_stream_set_state (self, ATP_STREAM_STATE_AUTH_FAILED);
      return;
    }

  /* Without a network the backoff still runs: the monitor can be wrong (a
   * LAN server without a default route), and it cannot leave us stuck. */
  delay_ms = next_backoff_ms (self);
  /* A 429 or 503 (of the handshake, of the resync's list) with a Retry-After:
   * not before the server said (capped by libatp). */
  delay_ms = MAX (delay_ms, atp_error_get_retry_after (error) * 1000);
  atp_stream_set_retry (self, g_get_monotonic_time () + (gint64) delay_ms * 1000,
                        (delay_ms + 999) / 1000);
  self->retry_id = g_timeout_add (delay_ms, retry_cb, self);
  atp_stream_set_state (self, network_missing (self) ? ATP_STREAM_STATE_OFFLINE
                                                     : ATP_STREAM_STATE_RECONNECTING);
}

void
atp_stream_fail_with (AtpStream    *self,
                      AtpErrorCode  code,
                      const char   *format,
                      ...)
{
  g_autoptr(GError) error = NULL;
  va_list args;

  va_start (args, format);
  error = g_error_new_valist (ATP_ERROR, code, format, args);
  va_end (args);

  atp_stream_schedule_retry (self, error);
}

void
atp_stream_emit_notification (AtpStream       *self,
                              AtpNotification *notification)
{
  g_hash_table_add (self->emitted, g_strdup (notification->id));
  g_signal_emit (self, signals [NOTIFICATION_RECEIVED], 0, notification);
}

void
atp_stream_emit_status_changed (AtpStream       *self,
                                AtpStatusUpdate *update)
{
  g_signal_emit (self, signals [STATUS_CHANGED], 0, update);
}

void
atp_stream_emit_resynced (AtpStream *self,
                          GPtrArray *pending)
{
  g_signal_emit (self, signals [RESYNCED], 0, pending);
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
      atp_stream_connect_now (self);
    }
  else if (!available && self->state == ATP_STREAM_STATE_RECONNECTING)
    atp_stream_set_state (self, ATP_STREAM_STATE_OFFLINE);
}

static void
on_woke (AtpStream *self)
{
  if (!self->started || self->state == ATP_STREAM_STATE_AUTH_FAILED)
    return;

  /* After a suspend the socket is most likely dead without knowing it. */
  g_debug ("Woke up: reconnecting to %s", atp_client_get_display_name (self->client));
  self->attempt = 0;
  atp_stream_connect_now (self);
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

  self->sleep_monitor = atp_sleep_monitor_get_default ();
  self->woke_handler = g_signal_connect_swapped (self->sleep_monitor, "woke",
                                                 G_CALLBACK (on_woke), self);
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
  atp_stream_close_connection (self, SOUP_WEBSOCKET_CLOSE_GOING_AWAY);
  g_clear_handle_id (&self->retry_id, g_source_remove);

  if (self->client != NULL)
    g_clear_signal_handler (&self->token_handler, self->client);
  if (self->monitor != NULL)
    g_clear_signal_handler (&self->network_handler, self->monitor);
  g_clear_object (&self->monitor);

  if (self->sleep_monitor != NULL)
    g_clear_signal_handler (&self->woke_handler, self->sleep_monitor);
  g_clear_object (&self->sleep_monitor);

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
  atp_stream_connect_now (self);
}

void
atp_stream_stop (AtpStream *self)
{
  g_return_if_fail (ATP_IS_STREAM (self));

  self->started = FALSE;
  atp_stream_close_connection (self, SOUP_WEBSOCKET_CLOSE_GOING_AWAY);
  g_clear_handle_id (&self->retry_id, g_source_remove);
  atp_stream_set_retry (self, 0, 0);
  atp_stream_set_state (self, ATP_STREAM_STATE_DISCONNECTED);
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
  atp_stream_connect_now (self);
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
    atp_stream_send_acknowledge (self, notification_id);
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
