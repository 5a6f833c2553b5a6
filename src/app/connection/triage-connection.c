/* triage-connection.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-connection"

#include <glib/gi18n.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "triage-connection.h"
#include "triage-protocol.h"
#include "triage-server-address.h"
#include "triage-server-launcher.h"

/*
 * The app's connection to its server, supervised: local mode (the default)
 * finds or starts the local server and connects through its socket; remote
 * mode takes the address from the settings and the token from the keyring.
 * The stream (libatp) reconnects by itself; this object adds what the stream
 * cannot know: a local server that stopped is looked for (and started) again,
 * and a keyring or local server that is not there yet is tried again, later
 * each time. Only what the person must fix (a refused or missing token, an
 * address that is not one, a certificate not accepted) waits for them.
 *
 * The stream's events are passed on as they come (::notification-received,
 * ::status-changed, ::resynced); its state becomes a #TriageConnectionState
 * with the problem, a message and the time of the next try, announced by
 * ::changed.
 */

struct _TriageConnection
{
  GObject                parent_instance;

  GSettings             *settings;
  TriageCredentials     *credentials;

  AtpClient             *client;
  AtpStream             *stream;
  GCancellable          *cancellable;         /* the current connection attempt */

  TriageConnectionState  state;
  TriageConnectionProblem problem;
  char                  *message;
  gboolean               was_connected;       /* live since the last start */
  gint64                 retry_at;            /* monotonic usec, 0: none scheduled */
  guint                  local_watch_id;      /* the local server unreachable for a while */
  guint                  retry_id;            /* no keyring or local server yet: trying again */
  guint                  retry_delay;         /* seconds, doubling up to a minute */
  guint                  trim_id;             /* giving back a large resync's memory */
  gint64                 last_event;          /* monotonic usec: the stream's last event */
};

/* A resync this large frees enough to be worth giving back to the system. */
#define TRIM_AFTER_PENDING 1000

G_DEFINE_FINAL_TYPE (TriageConnection, triage_connection, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_STATE,
  PROP_CLIENT,
  N_PROPS
};

enum {
  CHANGED,
  NOTIFICATION_RECEIVED,
  STATUS_CHANGED,
  RESYNCED,
  N_SIGNALS
};

static GParamSpec *properties [N_PROPS];
static guint signals [N_SIGNALS];

static void connect_again (TriageConnection *self);

static void
set_state (TriageConnection        *self,
           TriageConnectionState    state,
           TriageConnectionProblem  problem,
           const char              *message,
           gint64                   retry_at)
{
  gboolean changed = self->state != state;

  self->state = state;
  self->problem = problem;
  self->retry_at = retry_at;
  g_free (self->message);
  self->message = g_strdup (message);

  g_signal_emit (self, signals [CHANGED], 0);
  if (changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_STATE]);
}

static void
set_client (TriageConnection *self,
            AtpClient        *client)
{
  if (g_set_object (&self->client, client))
    g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_CLIENT]);
}

static gboolean
retry_cb (gpointer data)
{
  TriageConnection *self = data;

  self->retry_id = 0;
  connect_again (self);

  return G_SOURCE_REMOVE;
}

/* What stands between the app and its server may come back by itself (a
 * keyring that is locked, slow or not started yet; a local server that
 * could not start): say why, and try again, later each time. */
static void
schedule_retry (TriageConnection        *self,
                TriageConnectionProblem  problem,
                const char              *message)
{
  self->retry_delay = CLAMP (self->retry_delay * 2, 2, 60);
  g_clear_handle_id (&self->retry_id, g_source_remove);
  self->retry_id = g_timeout_add_seconds (self->retry_delay, retry_cb, self);
  set_state (self, TRIAGE_CONNECTION_OFFLINE, problem, message,
             g_get_monotonic_time () + self->retry_delay * G_USEC_PER_SEC);
}

static gboolean
local_watch_cb (gpointer data)
{
  TriageConnection *self = data;
  const GError *last = self->stream ? atp_stream_get_last_error (self->stream) : NULL;

  self->local_watch_id = 0;

  /* Still unreachable: the local server stopped (a crash, a kill). Find the
   * one that may have been started meanwhile, or start it again. */
  if (self->state != TRIAGE_CONNECTION_CONNECTED &&
      g_error_matches (last, ATP_ERROR, ATP_ERROR_CONNECTION_FAILED))
    {
      g_message ("The local server has not answered for %d seconds: starting it again",
                 TRIAGE_CONNECTION_LOCAL_RECHECK_SECONDS);
      connect_again (self);
    }

  return G_SOURCE_REMOVE;
}

static void
on_stream_state_changed (TriageConnection *self)
{
  AtpStreamState state = atp_stream_get_state (self->stream);
  const GError *last = atp_stream_get_last_error (self->stream);
  const char *why = last != NULL ? last->message : NULL;

  if (state == ATP_STREAM_STATE_CONNECTED)
    {
      g_clear_handle_id (&self->local_watch_id, g_source_remove);
      self->retry_delay = 0;
      self->was_connected = TRUE;
    }
  else if (state == ATP_STREAM_STATE_RECONNECTING && triage_connection_is_local (self) &&
           self->local_watch_id == 0)
    self->local_watch_id = g_timeout_add_seconds (TRIAGE_CONNECTION_LOCAL_RECHECK_SECONDS,
                                                  local_watch_cb, self);

  switch (state)
    {
    case ATP_STREAM_STATE_CONNECTED:
      set_state (self, TRIAGE_CONNECTION_CONNECTED, TRIAGE_CONNECTION_PROBLEM_NONE, NULL, 0);
      break;

    case ATP_STREAM_STATE_CONNECTING:
      /* A certificate not accepted stays said while the stream tries again. */
      if (self->problem != TRIAGE_CONNECTION_PROBLEM_CERTIFICATE)
        set_state (self, TRIAGE_CONNECTION_CONNECTING, TRIAGE_CONNECTION_PROBLEM_NONE, NULL, 0);
      break;

    case ATP_STREAM_STATE_RECONNECTING:
    case ATP_STREAM_STATE_OFFLINE:
      /* Not an outage but a configuration error (an untrusted issuer, another
       * host name, an expired certificate), with or without a network: said
       * as an error, with no time of a next try. The stream still tries
       * again, slower each time, for when the operator fixes the certificate. */
      if (g_error_matches (last, ATP_ERROR, ATP_ERROR_TLS_CERTIFICATE))
        set_state (self, TRIAGE_CONNECTION_OFFLINE, TRIAGE_CONNECTION_PROBLEM_CERTIFICATE, why, 0);
      else if (state == ATP_STREAM_STATE_OFFLINE)
        /* No network: the stream still retries, and at once when it is back. */
        set_state (self, TRIAGE_CONNECTION_OFFLINE, TRIAGE_CONNECTION_PROBLEM_NO_NETWORK, why,
                   atp_stream_get_next_retry_time (self->stream));
      else
        set_state (self, TRIAGE_CONNECTION_RECONNECTING,
                   self->was_connected ? TRIAGE_CONNECTION_PROBLEM_LOST
                                       : TRIAGE_CONNECTION_PROBLEM_UNREACHABLE,
                   why, atp_stream_get_next_retry_time (self->stream));
      break;

    case ATP_STREAM_STATE_AUTH_FAILED:
      /* 403: a valid token, but not a user's (a service key pasted by mistake). */
      if (g_error_matches (last, ATP_ERROR, ATP_ERROR_AUTH_INSUFFICIENT_PERMISSIONS))
        set_state (self, TRIAGE_CONNECTION_AUTH_FAILED, TRIAGE_CONNECTION_PROBLEM_NOT_USER_TOKEN,
                   _("The server knows this token, but it is not a user token (a service "
                     "key?). Enter a user token in Preferences."), 0);
      else
        set_state (self, TRIAGE_CONNECTION_AUTH_FAILED, TRIAGE_CONNECTION_PROBLEM_TOKEN_REFUSED,
                   _("The server refused the token. Enter a new one in Preferences."), 0);
      break;

    case ATP_STREAM_STATE_DISCONNECTED:
    default:
      set_state (self, TRIAGE_CONNECTION_OFFLINE, TRIAGE_CONNECTION_PROBLEM_NONE, why, 0);
      break;
    }
}

static void
on_stream_notification (TriageConnection *self,
                        AtpNotification  *notification)
{
  self->last_event = g_get_monotonic_time ();
  g_signal_emit (self, signals [NOTIFICATION_RECEIVED], 0, notification);
}

static void
on_stream_status_update (TriageConnection *self,
                         AtpStatusUpdate  *update)
{
  self->last_event = g_get_monotonic_time ();
  g_signal_emit (self, signals [STATUS_CHANGED], 0, update);
}

/* A resync of thousands of requests parses pages of them and holds the
 * stream's frames meanwhile, then frees all that, and the acknowledgements
 * of them all come back as status updates: glibc keeps freed memory in its
 * heaps, so the app stayed that much larger for good (10,000 pending:
 * 5 MiB). Given back once the stream has been quiet for a second. */
static gboolean
trim_cb (gpointer data)
{
  TriageConnection *self = data;

  if (g_get_monotonic_time () - self->last_event < G_USEC_PER_SEC)
    return G_SOURCE_CONTINUE;

  self->trim_id = 0;
#ifdef __GLIBC__
  malloc_trim (0);
#endif
  return G_SOURCE_REMOVE;
}

static void
on_stream_resynced (TriageConnection *self,
                    GPtrArray        *pending)
{
  g_signal_emit (self, signals [RESYNCED], 0, pending);

  /* Not before the held frames and the acknowledgements' updates are handled. */
  if (self->trim_id == 0 && pending->len >= TRIM_AFTER_PENDING)
    self->trim_id = g_timeout_add_seconds_full (G_PRIORITY_LOW, 1, trim_cb, self, NULL);
}

static void
start_stream (TriageConnection *self,
              AtpClient        *client)
{
  /* Requests of every protocol the app can show, not ATP's alone. */
  atp_client_set_protocols (client, triage_protocol_get_supported_mask ());
  set_client (self, client);

  self->stream = atp_stream_new (client);
  g_signal_connect_object (self->stream, "notification-received",
                           G_CALLBACK (on_stream_notification), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->stream, "status-changed",
                           G_CALLBACK (on_stream_status_update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->stream, "resynced",
                           G_CALLBACK (on_stream_resynced), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->stream, "notify::state",
                           G_CALLBACK (on_stream_state_changed), self, G_CONNECT_SWAPPED);
  atp_stream_start (self->stream);
  on_stream_state_changed (self);
}

static void
local_server_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(TriageConnection) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpClient) client = NULL;
  g_autofree char *socket_path = NULL;
  gboolean started = FALSE;

  socket_path = triage_server_launcher_ensure_finish (result, &started, &error);
  if (socket_path == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      g_message ("Local server unavailable: %s", error->message);
      schedule_retry (self, TRIAGE_CONNECTION_PROBLEM_LOCAL_SERVER, error->message);
      return;
    }

  if (started)
    g_debug ("Started the local server on %s", socket_path);

  client = atp_client_new_for_socket (socket_path);
  start_stream (self, client);
}

static void
token_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(TriageConnection) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpClient) client = NULL;
  g_autofree char *token = NULL;
  g_autofree char *url = NULL;

  token = triage_credentials_lookup_token_finish (TRIAGE_CREDENTIALS (object), result, &error);
  if (error != NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      if (g_error_matches (error, TRIAGE_CREDENTIALS_ERROR, TRIAGE_CREDENTIALS_ERROR_FAILED))
        set_state (self, TRIAGE_CONNECTION_AUTH_FAILED, TRIAGE_CONNECTION_PROBLEM_KEYRING_FAILED,
                   error->message, 0);
      /* Never sent (libsoup refused the header with a critical, and the
       * server answered a bare 401), nor read again until a new one is
       * entered: what is wrong with it. */
      else if (g_error_matches (error, TRIAGE_CREDENTIALS_ERROR,
                                TRIAGE_CREDENTIALS_ERROR_UNSENDABLE))
        set_state (self, TRIAGE_CONNECTION_AUTH_FAILED,
                   TRIAGE_CONNECTION_PROBLEM_TOKEN_UNSENDABLE, error->message, 0);
      else
        schedule_retry (self, TRIAGE_CONNECTION_PROBLEM_KEYRING, error->message);
      return;
    }

  url = g_settings_get_string (self->settings, "server-url");
  if (token == NULL)
    {
      /* Not a failure: a step not taken yet (a first run, a new server). */
      g_autofree char *why = NULL;

      /* Translators: %s is the server's address */
      why = g_strdup_printf (_("No user token is stored for %s yet. Enter the one you were given "
                               "for it in Preferences."), url);
      set_state (self, TRIAGE_CONNECTION_AUTH_FAILED, TRIAGE_CONNECTION_PROBLEM_NO_TOKEN, why, 0);
      return;
    }

  client = atp_client_new (url, &error);
  if (client == NULL)
    {
      g_autofree char *why = triage_server_address_dup_problem (url);

      set_state (self, TRIAGE_CONNECTION_AUTH_FAILED, TRIAGE_CONNECTION_PROBLEM_BAD_ADDRESS,
                 why != NULL ? why : error->message, 0);
      return;
    }
  atp_client_set_token (client, token);
  memset (token, 0, strlen (token));

  start_stream (self, client);
}

/* GObject */

static void
triage_connection_dispose (GObject *object)
{
  TriageConnection *self = (TriageConnection *)object;

  triage_connection_stop (self);
  g_clear_handle_id (&self->trim_id, g_source_remove);

  G_OBJECT_CLASS (triage_connection_parent_class)->dispose (object);
}

static void
triage_connection_finalize (GObject *object)
{
  TriageConnection *self = (TriageConnection *)object;

  g_clear_object (&self->settings);
  g_clear_object (&self->credentials);
  g_free (self->message);

  G_OBJECT_CLASS (triage_connection_parent_class)->finalize (object);
}

static void
triage_connection_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  TriageConnection *self = TRIAGE_CONNECTION (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_uint (value, self->state);
      break;

    case PROP_CLIENT:
      g_value_set_object (value, self->client);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_connection_class_init (TriageConnectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = triage_connection_dispose;
  object_class->finalize = triage_connection_finalize;
  object_class->get_property = triage_connection_get_property;

  /**
   * TriageConnection:state:
   *
   * The #TriageConnectionState; notified when it changes. Its message and
   * the next try change more often: see ::changed.
   */
  properties [PROP_STATE] =
    g_param_spec_uint ("state", NULL, NULL,
                       TRIAGE_CONNECTION_CONNECTING, TRIAGE_CONNECTION_AUTH_FAILED,
                       TRIAGE_CONNECTION_CONNECTING,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TriageConnection:client:
   *
   * The client of the server connected to (or being connected to), %NULL
   * while there is none; what answers and lookups go through.
   */
  properties [PROP_CLIENT] =
    g_param_spec_object ("client", NULL, NULL, ATP_TYPE_CLIENT,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TriageConnection::changed:
   *
   * The state, its message or the time of the next try changed.
   */
  signals [CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * TriageConnection::notification-received:
   * @notification: a pending request new to this connection (see #AtpStream)
   */
  signals [NOTIFICATION_RECEIVED] =
    g_signal_new ("notification-received", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  ATP_TYPE_NOTIFICATION | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * TriageConnection::status-changed:
   * @update: a status update pushed by the server
   */
  signals [STATUS_CHANGED] =
    g_signal_new ("status-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  ATP_TYPE_STATUS_UPDATE | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * TriageConnection::resynced:
   * @pending: (element-type AtpNotification): the server's whole pending set,
   *   after every (re)connect
   */
  signals [RESYNCED] =
    g_signal_new ("resynced", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  G_TYPE_PTR_ARRAY | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
triage_connection_init (TriageConnection *self)
{
  self->state = TRIAGE_CONNECTION_CONNECTING;
}

/**
 * triage_connection_new:
 * @settings: the app's settings (`server-mode`, `server-url`)
 * @credentials: where the token of a remote server is kept
 *
 * Returns: (transfer full): a connection, not started
 */
TriageConnection *
triage_connection_new (GSettings         *settings,
                       TriageCredentials *credentials)
{
  TriageConnection *self;

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);
  g_return_val_if_fail (TRIAGE_IS_CREDENTIALS (credentials), NULL);

  self = g_object_new (TRIAGE_TYPE_CONNECTION, NULL);
  self->settings = g_object_ref (settings);
  self->credentials = g_object_ref (credentials);

  return self;
}

/**
 * triage_connection_start:
 * @self: a #TriageConnection
 *
 * Drops the connection there is, if any, and connects to the server the
 * settings name.
 */
void
triage_connection_start (TriageConnection *self)
{
  g_return_if_fail (TRIAGE_IS_CONNECTION (self));

  self->was_connected = FALSE;
  connect_again (self);
}

/* The same server once more (the local one looked for and started again, a
 * keyring tried again, Retry Now): a connection it had is still one lost,
 * not "not connected" as if none had been made. */
static void
connect_again (TriageConnection *self)
{
  triage_connection_stop (self);
  self->cancellable = g_cancellable_new ();

  if (triage_connection_is_local (self))
    {
      set_state (self, TRIAGE_CONNECTION_CONNECTING, TRIAGE_CONNECTION_PROBLEM_NONE,
                 _("Starting the local server…"), 0);
      triage_server_launcher_ensure_async (NULL, 0, self->cancellable,
                                           local_server_cb, g_object_ref (self));
    }
  else
    {
      g_autofree char *url = g_settings_get_string (self->settings, "server-url");
      g_autofree char *why = NULL;

      /* Nothing to try until the address is fixed in Preferences. */
      if (*url == '\0')
        {
          set_state (self, TRIAGE_CONNECTION_AUTH_FAILED, TRIAGE_CONNECTION_PROBLEM_NO_ADDRESS,
                     NULL, 0);
          return;
        }
      why = triage_server_address_dup_problem (url);
      if (why != NULL)
        {
          set_state (self, TRIAGE_CONNECTION_AUTH_FAILED, TRIAGE_CONNECTION_PROBLEM_BAD_ADDRESS,
                     why, 0);
          return;
        }

      set_state (self, TRIAGE_CONNECTION_CONNECTING, TRIAGE_CONNECTION_PROBLEM_NONE, NULL, 0);
      triage_credentials_lookup_token_async (self->credentials, url, self->cancellable,
                                             token_cb, g_object_ref (self));
    }
}

/**
 * triage_connection_stop:
 * @self: a #TriageConnection
 *
 * Drops the connection and every try scheduled; the state stays as it was.
 */
void
triage_connection_stop (TriageConnection *self)
{
  g_return_if_fail (TRIAGE_IS_CONNECTION (self));

  g_clear_handle_id (&self->local_watch_id, g_source_remove);
  g_clear_handle_id (&self->retry_id, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  if (self->stream != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->stream, self);
      atp_stream_stop (self->stream);
      g_clear_object (&self->stream);
    }

  set_client (self, NULL);
}

/**
 * triage_connection_disconnect:
 * @self: a #TriageConnection
 * @state: the state to show meanwhile
 * @problem: why, for the window's words
 * @message: (nullable): why, in detail
 *
 * Drops the connection, as triage_connection_stop(), and says why: another
 * server's requests are loading (%TRIAGE_CONNECTION_CONNECTING), the app
 * cannot keep answers safe (%TRIAGE_CONNECTION_OFFLINE,
 * %TRIAGE_CONNECTION_PROBLEM_STORAGE with the reason).
 */
void
triage_connection_disconnect (TriageConnection        *self,
                              TriageConnectionState    state,
                              TriageConnectionProblem  problem,
                              const char              *message)
{
  g_return_if_fail (TRIAGE_IS_CONNECTION (self));

  triage_connection_stop (self);
  set_state (self, state, problem, message, 0);
}

/**
 * triage_connection_retry_now:
 * @self: a #TriageConnection
 *
 * The person asked to try again (Retry Now): locally, the server is looked
 * for again (and started if it is gone); a remote stream just tries now.
 * Nothing happens while connected or connecting.
 */
void
triage_connection_retry_now (TriageConnection *self)
{
  g_return_if_fail (TRIAGE_IS_CONNECTION (self));

  if (self->state == TRIAGE_CONNECTION_CONNECTED || self->state == TRIAGE_CONNECTION_CONNECTING)
    return;

  if (self->stream != NULL && !triage_connection_is_local (self))
    atp_stream_reconnect_now (self->stream);
  else
    connect_again (self);
}

/**
 * triage_connection_acknowledge:
 * @self: a #TriageConnection
 * @notification_id: a request the app now holds
 *
 * Tells the server the request reached this device (nothing without a stream).
 */
void
triage_connection_acknowledge (TriageConnection *self,
                               const char       *notification_id)
{
  g_return_if_fail (TRIAGE_IS_CONNECTION (self));
  g_return_if_fail (notification_id != NULL);

  if (self->stream != NULL)
    atp_stream_acknowledge (self->stream, notification_id);
}

/**
 * triage_connection_is_local:
 *
 * Returns: whether the settings ask for the local server
 */
gboolean
triage_connection_is_local (TriageConnection *self)
{
  g_return_val_if_fail (TRIAGE_IS_CONNECTION (self), FALSE);

  return g_settings_get_enum (self->settings, "server-mode") == 0;
}

/**
 * triage_connection_dup_server_key:
 *
 * Returns: (transfer full): which server the settings name, as the store
 *   keeps requests and answers apart: "local", or the server's address
 */
char *
triage_connection_dup_server_key (TriageConnection *self)
{
  g_return_val_if_fail (TRIAGE_IS_CONNECTION (self), NULL);

  return triage_connection_is_local (self) ? g_strdup ("local")
                                           : g_settings_get_string (self->settings, "server-url");
}

TriageConnectionState
triage_connection_get_state (TriageConnection *self)
{
  g_return_val_if_fail (TRIAGE_IS_CONNECTION (self), TRIAGE_CONNECTION_OFFLINE);

  return self->state;
}

/**
 * triage_connection_get_problem:
 *
 * Returns: why the connection is not live, when known
 */
TriageConnectionProblem
triage_connection_get_problem (TriageConnection *self)
{
  g_return_val_if_fail (TRIAGE_IS_CONNECTION (self), TRIAGE_CONNECTION_PROBLEM_NONE);

  return self->problem;
}

/**
 * triage_connection_get_message:
 *
 * Returns: (nullable): why the connection is not live, when known
 */
const char *
triage_connection_get_message (TriageConnection *self)
{
  g_return_val_if_fail (TRIAGE_IS_CONNECTION (self), NULL);

  return self->message;
}

/**
 * triage_connection_get_retry_at:
 *
 * Returns: the monotonic time of the next try, 0 when none is scheduled
 */
gint64
triage_connection_get_retry_at (TriageConnection *self)
{
  g_return_val_if_fail (TRIAGE_IS_CONNECTION (self), 0);

  return self->retry_at;
}

/**
 * triage_connection_get_client:
 *
 * Returns: (transfer none) (nullable): the client of the server connected to
 */
AtpClient *
triage_connection_get_client (TriageConnection *self)
{
  g_return_val_if_fail (TRIAGE_IS_CONNECTION (self), NULL);

  return self->client;
}
