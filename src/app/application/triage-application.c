/* triage-application.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-application"

#include <glib/gi18n.h>
#include <string.h>

#include "triage-application-private.h"
#include "triage-protocol.h"

/*
 * The application: one instance per session (D-Bus activatable), alive in
 * the background while it has a connection to keep (g_application_hold),
 * owner of everything that outlives a window: the settings, the store and
 * its outbox, the inbox model, the notifier, the tray and the connection.
 * It wires parts that each do one job:
 *
 * - TriageConnection: finds or starts the local server, or takes a remote
 *   server's token from the keyring; retries; its stream's events and state;
 * - TriageLookups: what became of requests settled while the app was away,
 *   and the answers they got elsewhere;
 * - TriageUrgency: deadlines coming within five minutes;
 * - TriageBubbleThrottle: a flood of requests is a few bubbles and a summary;
 * - TriageAutostart: the autostart entry, as the setting says.
 *
 * Start-up: open the store, show the inbox it remembers, load the outbox,
 * then connect. The connection's events become inbox changes, bubbles and
 * stored history; its state becomes the window's connection bar.
 *
 * Every answer, from the window or from a bubble, goes through the outbox:
 * validated, stored, then sent.
 */

G_DEFINE_FINAL_TYPE (TriageApplication, triage_application, ADW_TYPE_APPLICATION)

enum {
  PROP_0,
  PROP_CONNECTION,
  PROP_READY,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static void
on_bubble_settings_changed (TriageApplication *self)
{
  self->bubbles_enabled = g_settings_get_boolean (self->settings, "notifications-enabled");
  self->do_not_disturb = g_settings_get_boolean (self->settings, "do-not-disturb");
}

static void
on_connection_changed (TriageApplication *self)
{
  TriageConnectionState state = triage_connection_get_state (self->connection);

  _triage_application_release_inbox (self);
  /* Connected, the resync's requests are saved once it has told the inbox
   * is complete (_triage_application_on_stream_resynced ()). */
  if (state != TRIAGE_CONNECTION_CONNECTED)
    _triage_application_save_resync_requests (self);

  if (self->window != NULL)
    triage_window_set_connection_status (self->window, state,
                                         triage_connection_get_problem (self->connection),
                                         triage_connection_get_message (self->connection),
                                         triage_connection_get_retry_at (self->connection));

  triage_outbox_set_online (self->outbox, state == TRIAGE_CONNECTION_CONNECTED);
  _triage_application_tell_person (self);
  _triage_application_update_hold (self);
}

static void
on_connection_state (TriageApplication *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_CONNECTION]);
}

/* Answers and lookups go through the client of the current connection. */
static void
on_connection_client (TriageApplication *self)
{
  AtpClient *client = triage_connection_get_client (self->connection);

  triage_outbox_set_client (self->outbox, client);
  triage_lookups_set_client (self->lookups, client);
  g_signal_group_set_target (self->client_signals, client);
  _triage_application_update_server_wait (self);
}

/* The server asked the client to wait (a 429's or 503's Retry-After), or
 * the wait is over: an answer on its way in the window says when it goes. */
void
_triage_application_update_server_wait (TriageApplication *self)
{
  AtpClient *client = triage_connection_get_client (self->connection);

  if (self->window != NULL)
    triage_window_set_server_wait (self->window, client != NULL && atp_client_is_held (client)
                                                 ? atp_client_get_hold_until (client) : 0);
}

/* Tray and urgency */

static gboolean
tray_update_cb (gpointer data)
{
  TriageApplication *self = data;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_tray_item_free);
  GListModel *model = G_LIST_MODEL (self->inbox);
  guint n = g_list_model_get_n_items (model);

  self->tray_update_id = 0;
  if (self->tray == NULL)
    return G_SOURCE_REMOVE;

  /* What waits for the person, as the window's badge: not one answered
   * here whose answer is still in the outbox. */
  for (guint i = 0; i < n && items->len < TRIAGE_TRAY_MAX_MENU_REQUESTS; i++)
    {
      g_autoptr(TriageRequest) request = g_list_model_get_item (model, i);
      g_autofree char *title = NULL;

      if (triage_request_get_answer_state (request) != TRIAGE_ANSWER_NONE)
        continue;
      title = triage_protocol_dup_marked (triage_request_get_notification (request)->protocol,
                                          triage_request_get_title (request));
      g_ptr_array_add (items, triage_tray_item_new (triage_request_get_id (request), title,
                                                    triage_request_get_deadline (request)));
    }

  triage_tray_set_pending (self->tray, triage_inbox_model_get_n_waiting (self->inbox),
                           triage_inbox_model_count_urgent (self->inbox, NULL) > 0, items);

  return G_SOURCE_REMOVE;
}

static void
queue_tray_update (TriageApplication *self)
{
  if (self->tray_update_id == 0)
    self->tray_update_id = g_idle_add (tray_update_cb, self);
}

/* A request opened (from a bubble, D-Bus activation) before the app had
 * loaded it is shown once it arrives; after the first resync, one that still
 * is not there is no longer waiting. */
void
_triage_application_open_pending_request (TriageApplication *self,
                                          gboolean           give_up)
{
  if (self->pending_open == NULL)
    return;

  if (self->window == NULL)
    g_clear_pointer (&self->pending_open, g_free);   /* closed meanwhile: nobody looks */
  else if (triage_window_show_request (self->window, self->pending_open))
    g_clear_pointer (&self->pending_open, g_free);
  else if (give_up)
    {
      g_clear_pointer (&self->pending_open, g_free);
      triage_window_add_toast (self->window, _("This request is no longer waiting for an answer"));
    }
}

static gboolean
open_pending_cb (gpointer data)
{
  TriageApplication *self = data;

  self->pending_open_id = 0;
  _triage_application_open_pending_request (self, FALSE);

  return G_SOURCE_REMOVE;
}

static void
on_inbox_items_changed (TriageApplication *self)
{
  queue_tray_update (self);

  /* Not from inside the model's signal: the window's list follows it too. */
  if (self->pending_open != NULL && self->pending_open_id == 0)
    self->pending_open_id = g_idle_add (open_pending_cb, self);
}

static void load_server (TriageApplication *self);

static void
on_server_settings_changed (TriageApplication *self)
{
  g_autofree char *server = NULL;
  g_autoptr(GPtrArray) ids = NULL;

  if (!self->ready)
    return;   /* loading: it looks at the settings again when done */

  server = triage_connection_dup_server_key (self->connection);
  if (g_strcmp0 (server, self->loaded_server) == 0)
    {
      triage_connection_start (self->connection);
      return;
    }

  /* Another server: its own requests and answers, none of the last one's
   * (those wait in the store for a switch back). */
  triage_connection_stop (self->connection);
  self->ready = FALSE;
  self->resynced = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_READY]);
  ids = triage_inbox_model_dup_ids (self->inbox);
  for (guint i = ids->len; i > 0; i--)
    {
      g_object_unref (triage_inbox_model_remove (self->inbox, ids->pdata[i - 1]));
      triage_notifier_withdraw (self->notifier, ids->pdata[i - 1]);
    }
  triage_connection_disconnect (self->connection, TRIAGE_CONNECTION_CONNECTING,
                                TRIAGE_CONNECTION_PROBLEM_NONE, NULL);
  load_server (self);
}

/* History retention */

static void
prune_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  gssize removed = triage_store_prune_finish (TRIAGE_STORE (object), result, &error);

  if (removed < 0 && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_warning ("Could not forget the old history: %s", error->message);
  else if (removed > 0)
    g_debug ("Forgot %" G_GSSIZE_FORMAT " requests past the history's retention", removed);
}

static gboolean
prune_history_cb (gpointer data)
{
  TriageApplication *self = data;
  guint days = g_settings_get_uint (self->settings, "history-retention-days");
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) before = NULL;

  if (days == 0 || !self->ready)
    return G_SOURCE_CONTINUE;

  before = g_date_time_add_days (now, -(int) days);
  triage_store_prune_async (self->store, before, self->cancellable, prune_done_cb, NULL);

  return G_SOURCE_CONTINUE;
}

/* The first pruning at start-up waits for the inbox: it reads the whole
 * history (100,000 requests: a DELETE's scan on the store's thread) while
 * the resync's pages are being parsed and shown, which the person waits for
 * (bench/app's full day). Without a connection it runs after a while. */
#define FIRST_PRUNE_WAIT_S 60

static gboolean
first_prune_cb (gpointer data)
{
  TriageApplication *self = data;

  self->first_prune_waiting = FALSE;
  self->prune_id = g_timeout_add_seconds (24 * 60 * 60, prune_history_cb, self);
  prune_history_cb (self);
  return G_SOURCE_REMOVE;
}

void
_triage_application_prune_after_resync (TriageApplication *self)
{
  if (!self->first_prune_waiting)
    return;
  g_source_remove (self->prune_id);
  self->prune_id = g_idle_add_full (G_PRIORITY_LOW, first_prune_cb, self, NULL);
}

/* Start-up: store, inbox, outbox, then the connection */

static void
outbox_loaded_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(TriageApplication) self = user_data;
  g_autoptr(GError) error = NULL;
  GListModel *model = G_LIST_MODEL (self->inbox);

  if (!triage_outbox_load_finish (TRIAGE_OUTBOX (object), result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;   /* quitting */
      g_warning ("Could not load the outbox: %s", error->message);
    }

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TriageRequest) request = g_list_model_get_item (model, i);
      const char *id = triage_request_get_id (request);

      triage_request_set_answer_state (request, _triage_application_answer_state_from_outbox (self, id));
    }

  /* The server was changed again while its requests were loading. */
  {
    g_autofree char *server = triage_connection_dup_server_key (self->connection);

    if (g_strcmp0 (server, self->loaded_server) != 0)
      {
        load_server (self);
        return;
      }
  }

  self->ready = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_READY]);
  triage_connection_start (self->connection);

  /* The history keeps what the person asked for (history-retention-days),
   * once the inbox is complete, then daily. */
  if (self->prune_id == 0)
    {
      self->first_prune_waiting = TRUE;
      self->prune_id = g_timeout_add_seconds (FIRST_PRUNE_WAIT_S, first_prune_cb, self);
    }
}

static void
pending_loaded_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(TriageApplication) self = user_data;
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GError) error = NULL;

  records = triage_store_load_pending_finish (TRIAGE_STORE (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;   /* quitting */
  if (records == NULL)
    g_warning ("Could not load the saved requests: %s", error->message);

  triage_inbox_model_hold (self->inbox);
  for (guint i = 0; records != NULL && i < records->len; i++)
    {
      TriageStoreRecord *record = g_ptr_array_index (records, i);

      triage_inbox_model_add (self->inbox, record->notification, NULL);
    }
  triage_inbox_model_release (self->inbox);

  triage_outbox_load_async (self->outbox, self->cancellable, outbox_loaded_cb, g_object_ref (self));
}

/* The inbox and outbox of the server in the settings, from the store */
static void
load_server (TriageApplication *self)
{
  g_free (self->loaded_server);
  self->loaded_server = triage_connection_dup_server_key (self->connection);
  triage_store_set_server (self->store, self->loaded_server);
  triage_store_load_pending_async (self->store, self->cancellable, pending_loaded_cb,
                                   g_object_ref (self));
}

static void
store_opened_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(TriageApplication) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!triage_store_open_finish (TRIAGE_STORE (object), result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;   /* quitting */
      /* Without the store no answer could be kept safe: say so and stay offline. */
      g_warning ("Could not open the local database: %s", error->message);
      triage_connection_disconnect (self->connection, TRIAGE_CONNECTION_OFFLINE,
                                    TRIAGE_CONNECTION_PROBLEM_STORAGE, error->message);
      return;
    }

  load_server (self);
  _triage_application_open_history (self);
}

/* GApplication */

/*
 * Without a GPU (no DRM render node) GL means Mesa's software rasterizer,
 * which maps LLVM into the process: some 50 MiB of a resident app that mostly
 * waits in the background, for drawing that GTK's cairo renderer does as fast
 * on the CPU. GDK 4.8 sets GL up when it opens the display, window or not, so
 * the choice is made before that. Anyone who chose a renderer keeps it.
 */
static void
prefer_cairo_without_gpu (void)
{
  g_autoptr(GDir) dri = NULL;
  const char *name;

  if (g_getenv ("GDK_DEBUG") != NULL || g_getenv ("GSK_RENDERER") != NULL)
    return;

  dri = g_dir_open ("/dev/dri", 0, NULL);
  while (dri != NULL && (name = g_dir_read_name (dri)) != NULL)
    if (g_str_has_prefix (name, "renderD"))
      return;

  g_setenv ("GDK_DEBUG", "gl-disable", FALSE);
  g_setenv ("GSK_RENDERER", "cairo", FALSE);   /* without trying GL first, and saying so */
}

static void
triage_application_startup (GApplication *app)
{
  TriageApplication *self = TRIAGE_APPLICATION (app);
  g_autofree char *path = NULL;
  const char *database = g_getenv ("TRIAGE_APP_DATABASE");
  GDBusConnection *bus;

  prefer_cairo_without_gpu ();
  G_APPLICATION_CLASS (triage_application_parent_class)->startup (app);

  /* A selectable label selects all its text when it takes the focus, which is
   * what the description does when a request opens: one blue block over what
   * the person came to read. Text stays selectable by hand. */
  g_object_set (gtk_settings_get_default (), "gtk-label-select-on-focus", FALSE, NULL);

  self->settings = g_settings_new (TRIAGE_SETTINGS_SCHEMA);
  self->inbox = triage_inbox_model_new ();
  self->read_state = triage_read_state_new (NULL);
  self->credentials = triage_credentials_new ();
  path = database && *database ? g_strdup (database) : triage_store_default_path ();
  self->store = triage_store_new (path);
  self->outbox = triage_outbox_new (self->store);
  self->notifier = triage_notifier_new ("Triage", APPLICATION_ID);
  self->connection = triage_connection_new (self->settings, self->credentials);
  self->lookups = triage_lookups_new (self->inbox, self->outbox);
  self->urgency = triage_urgency_new (self->inbox);
  self->throttle = triage_bubble_throttle_new ();
  self->autostart = triage_autostart_new (self->settings);

  _triage_application_install_actions (self);

  g_signal_connect_object (self->inbox, "items-changed",
                           G_CALLBACK (on_inbox_items_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->inbox, "notify::n-waiting",
                           G_CALLBACK (queue_tray_update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->connection, "changed",
                           G_CALLBACK (on_connection_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->connection, "notify::state",
                           G_CALLBACK (on_connection_state), self, G_CONNECT_SWAPPED);
  self->client_signals = g_signal_group_new (ATP_TYPE_CLIENT);
  g_signal_group_connect_swapped (self->client_signals, "notify::hold-until",
                                  G_CALLBACK (_triage_application_update_server_wait), self);
  g_signal_connect_object (self->connection, "notify::client",
                           G_CALLBACK (on_connection_client), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->connection, "notification-received",
                           G_CALLBACK (_triage_application_on_stream_notification), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->connection, "status-changed",
                           G_CALLBACK (_triage_application_on_stream_status_update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->connection, "resynced",
                           G_CALLBACK (_triage_application_on_stream_resynced), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->lookups, "settled",
                           G_CALLBACK (_triage_application_on_lookup_settled), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->lookups, "gone",
                           G_CALLBACK (_triage_application_on_lookup_gone), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->lookups, "response-found",
                           G_CALLBACK (_triage_application_on_lookup_response), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->urgency, "due",
                           G_CALLBACK (_triage_application_on_urgency_due), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->urgency, "checked",
                           G_CALLBACK (queue_tray_update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->throttle, "flood-ended",
                           G_CALLBACK (_triage_application_on_flood_ended), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->outbox, "queued",
                           G_CALLBACK (_triage_application_on_outbox_queued), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->outbox, "delivered",
                           G_CALLBACK (_triage_application_on_outbox_delivered), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->outbox, "conflict",
                           G_CALLBACK (_triage_application_on_outbox_conflict), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->outbox, "gone",
                           G_CALLBACK (_triage_application_on_outbox_gone), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->outbox, "rejected",
                           G_CALLBACK (_triage_application_on_outbox_rejected), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->notifier, "activated",
                           G_CALLBACK (_triage_application_on_notifier_activated), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->notifier, "respond",
                           G_CALLBACK (_triage_application_on_notifier_respond), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->notifier, "expired",
                           G_CALLBACK (_triage_application_on_notifier_expired), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->notifier, "failed",
                           G_CALLBACK (_triage_application_on_bubble_failed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::server-mode",
                           G_CALLBACK (on_server_settings_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::server-url",
                           G_CALLBACK (on_server_settings_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::notifications-enabled",
                           G_CALLBACK (on_bubble_settings_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::do-not-disturb",
                           G_CALLBACK (on_bubble_settings_changed), self, G_CONNECT_SWAPPED);
  on_bubble_settings_changed (self);
  g_signal_connect_object (self->settings, "changed::run-in-background",
                           G_CALLBACK (_triage_application_update_hold), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::history-retention-days",
                           G_CALLBACK (prune_history_cb), self, G_CONNECT_SWAPPED);
  g_settings_set_string (self->settings, "last-seen-version", PACKAGE_VERSION);

  bus = g_application_get_dbus_connection (app);
  if (bus != NULL)
    {
      self->tray = triage_tray_new (bus, G_ACTION_GROUP (self));
      g_settings_bind (self->settings, "do-not-disturb", self->tray, "do-not-disturb",
                       G_SETTINGS_BIND_GET);
    }

  /* Alive while connecting, whether or not a window is ever shown. */
  _triage_application_update_hold (self);
  _triage_application_schedule_background_check (self);

  triage_store_open_async (self->store, self->cancellable, store_opened_cb, g_object_ref (self));
}

static void
triage_application_activate (GApplication *app)
{
  TriageApplication *self = TRIAGE_APPLICATION (app);

  gtk_window_present (GTK_WINDOW (_triage_application_ensure_window (self)));
}

static void
triage_application_shutdown (GApplication *app)
{
  TriageApplication *self = TRIAGE_APPLICATION (app);

  g_cancellable_cancel (self->cancellable);
  triage_connection_stop (self->connection);
  _triage_application_release_inbox (self);
  _triage_application_save_resync_requests (self);
  g_clear_handle_id (&self->tray_update_id, g_source_remove);
  g_clear_handle_id (&self->pending_open_id, g_source_remove);
  g_clear_handle_id (&self->background_check_id, g_source_remove);
  g_clear_handle_id (&self->prune_id, g_source_remove);
  g_clear_handle_id (&self->history_retry_id, g_source_remove);
  g_clear_object (&self->urgency);
  g_clear_object (&self->throttle);
  g_clear_object (&self->autostart);
  g_clear_object (&self->tray);

  G_APPLICATION_CLASS (triage_application_parent_class)->shutdown (app);

  /* Nothing is shown any more: what was asked of the store as the app quit
   * (the draft the window kept as it closed, requests received) reaches the
   * disk before the process ends. */
  triage_store_wait_all ();
}

static void
triage_application_finalize (GObject *object)
{
  TriageApplication *self = (TriageApplication *)object;

  g_clear_object (&self->notifier);
  g_clear_object (&self->lookups);
  g_clear_object (&self->client_signals);
  g_clear_object (&self->connection);
  g_clear_object (&self->read_state);
  g_clear_object (&self->history_db);
  g_clear_pointer (&self->history_problem, g_free);
  g_clear_object (&self->outbox);
  g_clear_object (&self->store);
  g_clear_object (&self->inbox);
  g_clear_object (&self->credentials);
  g_clear_pointer (&self->loaded_server, g_free);
  g_clear_pointer (&self->resync_saves, g_ptr_array_unref);
  g_clear_object (&self->settings);
  g_clear_object (&self->cancellable);
  g_free (self->pending_open);

  G_OBJECT_CLASS (triage_application_parent_class)->finalize (object);
}

static void
triage_application_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  TriageApplication *self = TRIAGE_APPLICATION (object);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      g_value_set_uint (value, triage_application_get_connection (self));
      break;

    case PROP_READY:
      g_value_set_boolean (value, self->ready);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_application_class_init (TriageApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = triage_application_finalize;
  object_class->get_property = triage_application_get_property;

  app_class->startup = triage_application_startup;
  app_class->activate = triage_application_activate;
  app_class->shutdown = triage_application_shutdown;

  properties [PROP_CONNECTION] =
    g_param_spec_uint ("connection", NULL, NULL,
                       TRIAGE_CONNECTION_CONNECTING, TRIAGE_CONNECTION_AUTH_FAILED,
                       TRIAGE_CONNECTION_CONNECTING,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_READY] =
    g_param_spec_boolean ("ready", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
triage_application_init (TriageApplication *self)
{
  self->cancellable = g_cancellable_new ();
}

/**
 * triage_application_new:
 *
 * Returns: (transfer full): the application
 */
TriageApplication *
triage_application_new (void)
{
  return g_object_new (TRIAGE_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", G_APPLICATION_DEFAULT_FLAGS,
                       "resource-base-path", RESOURCE_BASE,
                       NULL);
}

TriageInboxModel *
triage_application_get_inbox (TriageApplication *self)
{
  g_return_val_if_fail (TRIAGE_IS_APPLICATION (self), NULL);

  return self->inbox;
}

TriageOutbox *
triage_application_get_outbox (TriageApplication *self)
{
  g_return_val_if_fail (TRIAGE_IS_APPLICATION (self), NULL);

  return self->outbox;
}

TriageNotifier *
triage_application_get_notifier (TriageApplication *self)
{
  g_return_val_if_fail (TRIAGE_IS_APPLICATION (self), NULL);

  return self->notifier;
}

TriageCredentials *
triage_application_get_credentials (TriageApplication *self)
{
  g_return_val_if_fail (TRIAGE_IS_APPLICATION (self), NULL);

  return self->credentials;
}

/**
 * triage_application_get_window:
 *
 * Returns: (transfer none) (nullable): the main window, if one is open
 */
TriageWindow *
triage_application_get_window (TriageApplication *self)
{
  g_return_val_if_fail (TRIAGE_IS_APPLICATION (self), NULL);

  return self->window;
}

TriageConnectionState
triage_application_get_connection (TriageApplication *self)
{
  g_return_val_if_fail (TRIAGE_IS_APPLICATION (self), TRIAGE_CONNECTION_OFFLINE);

  /* Before start-up there is no connection yet: it is about to be made. */
  if (self->connection == NULL)
    return TRIAGE_CONNECTION_CONNECTING;

  return triage_connection_get_state (self->connection);
}

gboolean
triage_application_get_ready (TriageApplication *self)
{
  g_return_val_if_fail (TRIAGE_IS_APPLICATION (self), FALSE);

  return self->ready;
}
