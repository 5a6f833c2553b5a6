/* triage-tray.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-tray"

#include <glib/gi18n.h>
#include <unistd.h>

#include "triage-request.h"
#include "triage-tray-private.h"

/*
 * The tray icon: a StatusNotifierItem (org.kde.StatusNotifierItem) with its
 * menu over com.canonical.dbusmenu, both served with plain GDBus. The item
 * registers with the org.kde.StatusNotifierWatcher whenever one is on the bus
 * (again if it restarts). Where there is none (stock GNOME), `registered`
 * stays FALSE and the application says once that it keeps running in the
 * background.
 *
 * The tray never reaches into the application: clicks activate actions of the
 * GActionGroup it was given (`show`, `open-request` with the request id,
 * `do-not-disturb`, `preferences`, `quit`; with a GApplication these are its
 * `app.` actions).
 *
 * This file holds the object, its actions and its registration with the
 * watcher; the StatusNotifierItem interface is in triage-tray-sni.c, the
 * menu in triage-tray-menu.c.
 */

#define WATCHER_NAME      "org.kde.StatusNotifierWatcher"
#define WATCHER_PATH      "/StatusNotifierWatcher"

enum {
  PROP_0,
  PROP_CONNECTION,
  PROP_ACTIONS,
  PROP_REGISTERED,
  PROP_DO_NOT_DISTURB,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TriageTray, triage_tray, G_TYPE_OBJECT)

/* ------------------------------------------------------------------ state */

static void
emit_item_signal (TriageTray *self,
                  const char *name,
                  GVariant   *parameters)
{
  triage_tray_dbus_emit (self, &triage_tray_sni_interface, name, parameters);
}

/* What the item's New* signals follow: status, icon, tooltip, title. */
static GVariant *
snapshot_item (TriageTray *self)
{
  g_autofree char *tooltip = triage_tray_sni_get_tooltip (self);

  return g_variant_ref_sink (g_variant_new ("(ssss)", triage_tray_sni_get_status (self),
                                            triage_tray_sni_get_icon_name (self), tooltip,
                                            triage_tray_sni_get_title (self)));
}

/* Tells the host what changed since @before (a snapshot_item ()). */
static void
emit_item_changes (TriageTray *self,
                   GVariant   *before)
{
  g_autoptr(GVariant) after = snapshot_item (self);
  const char *old_status, *old_icon, *old_tooltip, *old_title;
  const char *status, *icon, *tooltip, *title;

  g_variant_get (before, "(&s&s&s&s)", &old_status, &old_icon, &old_tooltip, &old_title);
  g_variant_get (after, "(&s&s&s&s)", &status, &icon, &tooltip, &title);

  if (!g_str_equal (old_status, status))
    emit_item_signal (self, "NewStatus", g_variant_new ("(s)", status));
  if (!g_str_equal (old_icon, icon))
    {
      emit_item_signal (self, "NewIcon", NULL);
      emit_item_signal (self, "NewAttentionIcon", NULL);
    }
  if (!g_str_equal (old_title, title))
    emit_item_signal (self, "NewTitle", NULL);
  if (!g_str_equal (old_tooltip, tooltip) || !g_str_equal (old_title, title))
    emit_item_signal (self, "NewToolTip", NULL);
}

gboolean
triage_tray_action_available (TriageTray *self,
                              const char *action)
{
  return g_action_group_has_action (self->actions, action) &&
         g_action_group_get_action_enabled (self->actions, action);
}

/* ------------------------------------------------------------------ actions */

typedef struct
{
  TriageTray *tray;
  char       *action;
  GVariant   *parameter;
} Activation;

static void
activation_free (Activation *activation)
{
  g_clear_object (&activation->tray);
  g_clear_pointer (&activation->action, g_free);
  g_clear_pointer (&activation->parameter, g_variant_unref);
  g_free (activation);
}

/* Takes a full reference on @parameter. */
static void
activate_now (TriageTray *self,
              const char *action,
              GVariant   *parameter)
{
  g_autoptr(GVariant) owned = parameter;
  const GVariantType *state_type;

  if (!triage_tray_action_available (self, action))
    {
      g_debug ("Tray: action “%s” is not available", action);
      return;
    }

  if (g_str_equal (action, "do-not-disturb"))
    {
      /* A boolean state is toggled; an action with a boolean parameter gets the new value. */
      state_type = g_action_group_get_action_state_type (self->actions, action);
      if (state_type != NULL && g_variant_type_equal (state_type, G_VARIANT_TYPE_BOOLEAN))
        {
          g_autoptr(GVariant) state = g_action_group_get_action_state (self->actions, action);

          g_action_group_change_action_state (self->actions, action,
                                              g_variant_new_boolean (!g_variant_get_boolean (state)));
          return;
        }

      if (g_action_group_get_action_parameter_type (self->actions, action) != NULL)
        {
          g_action_group_activate_action (self->actions, action,
                                          g_variant_new_boolean (!self->do_not_disturb));
          return;
        }
    }

  g_action_group_activate_action (self->actions, action, owned);
}

static void
flush_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Activation *activation = user_data;

  g_dbus_connection_flush_finish (G_DBUS_CONNECTION (object), result, NULL);
  activate_now (activation->tray, activation->action, g_steal_pointer (&activation->parameter));
  activation_free (activation);
}

/*
 * Activates @action once the method reply is on the wire: the action may
 * quit the application, and the caller must still get its answer.
 */
void
triage_tray_activate_after_reply (TriageTray *self,
                                  const char *action,
                                  GVariant   *parameter)
{
  Activation *activation = g_new0 (Activation, 1);

  activation->tray = g_object_ref (self);
  activation->action = g_strdup (action);
  activation->parameter = parameter ? g_variant_ref_sink (parameter) : NULL;

  g_dbus_connection_flush (self->connection, NULL, flush_cb, activation);
}

static void
on_action_state_changed (TriageTray   *self,
                         const char   *action,
                         GVariant     *state,
                         GActionGroup *group)
{
  if (g_str_equal (action, "do-not-disturb") &&
      g_variant_is_of_type (state, G_VARIANT_TYPE_BOOLEAN))
    triage_tray_set_do_not_disturb (self, g_variant_get_boolean (state));
}

static void
on_actions_changed (TriageTray *self)
{
  triage_tray_menu_changed (self);
}

/* ------------------------------------------------------------------ registration */

static void
set_registered (TriageTray *self,
                gboolean    registered)
{
  if (self->registered == !!registered)
    return;

  self->registered = !!registered;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REGISTERED]);
}

static void
register_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(TriageTray) self = user_data;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_object (&self->register_cancellable);

  if (reply == NULL)
    {
      g_message ("The tray (StatusNotifierWatcher) refused the status icon: %s", error->message);
      return;
    }

  set_registered (self, TRUE);
}

static void
register_with_watcher (TriageTray *self)
{
  if (!self->name_owned || self->watcher_owner == NULL)
    return;

  if (self->register_cancellable != NULL)
    g_cancellable_cancel (self->register_cancellable);
  g_clear_object (&self->register_cancellable);
  self->register_cancellable = g_cancellable_new ();

  g_dbus_connection_call (self->connection, self->watcher_owner, WATCHER_PATH, WATCHER_NAME,
                          "RegisterStatusNotifierItem", g_variant_new ("(s)", self->bus_name),
                          NULL, G_DBUS_CALL_FLAGS_NONE, -1, self->register_cancellable,
                          register_cb, g_object_ref (self));
}

static void
on_watcher_appeared (GDBusConnection *connection,
                     const char      *name,
                     const char      *name_owner,
                     gpointer         user_data)
{
  TriageTray *self = user_data;

  g_free (self->watcher_owner);
  self->watcher_owner = g_strdup (name_owner);
  set_registered (self, FALSE);
  register_with_watcher (self);
}

static void
on_watcher_vanished (GDBusConnection *connection,
                     const char      *name,
                     gpointer         user_data)
{
  TriageTray *self = user_data;

  g_clear_pointer (&self->watcher_owner, g_free);
  if (self->register_cancellable != NULL)
    g_cancellable_cancel (self->register_cancellable);
  g_clear_object (&self->register_cancellable);
  set_registered (self, FALSE);
}

static void
on_name_acquired (GDBusConnection *connection,
                  const char      *name,
                  gpointer         user_data)
{
  TriageTray *self = user_data;

  self->name_owned = TRUE;
  register_with_watcher (self);
}

static void
on_name_lost (GDBusConnection *connection,
              const char      *name,
              gpointer         user_data)
{
  TriageTray *self = user_data;

  if (connection != NULL && self->name_owned)
    g_message ("The status icon lost its bus name %s", name);
  self->name_owned = FALSE;
  set_registered (self, FALSE);
}

/* ------------------------------------------------------------------ GObject */

static void
triage_tray_constructed (GObject *object)
{
  TriageTray *self = TRIAGE_TRAY (object);
  static guint instance = 0;
  g_autoptr(GError) error = NULL;

  G_OBJECT_CLASS (triage_tray_parent_class)->constructed (object);

  g_signal_connect_object (self->actions, "action-state-changed",
                           G_CALLBACK (on_action_state_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->actions, "action-added",
                           G_CALLBACK (on_actions_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->actions, "action-removed",
                           G_CALLBACK (on_actions_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->actions, "action-enabled-changed",
                           G_CALLBACK (on_actions_changed), self, G_CONNECT_SWAPPED);

  if (g_action_group_has_action (self->actions, "do-not-disturb"))
    {
      g_autoptr(GVariant) state = g_action_group_get_action_state (self->actions,
                                                                   "do-not-disturb");

      if (state != NULL && g_variant_is_of_type (state, G_VARIANT_TYPE_BOOLEAN))
        self->do_not_disturb = g_variant_get_boolean (state);
    }

  triage_tray_menu_rebuild (self);
  self->revision = 1;

  if (!triage_tray_dbus_export (self, &self->item_export, &triage_tray_sni_interface, &error))
    {
      g_message ("Could not export the status icon: %s", error->message);
      return;
    }

  if (!triage_tray_dbus_export (self, &self->menu_export, &triage_tray_menu_interface, &error))
    {
      g_message ("Could not export the status icon menu: %s", error->message);
      return;
    }

  self->bus_name = g_strdup_printf ("org.kde.StatusNotifierItem-%d-%u",
                                    (int) getpid (), ++instance);
  self->own_name_id = g_bus_own_name_on_connection (self->connection, self->bus_name,
                                                    G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE,
                                                    on_name_acquired, on_name_lost,
                                                    self, NULL);
  self->watch_name_id = g_bus_watch_name_on_connection (self->connection, WATCHER_NAME,
                                                        G_BUS_NAME_WATCHER_FLAGS_NONE,
                                                        on_watcher_appeared,
                                                        on_watcher_vanished,
                                                        self, NULL);
}

static void
triage_tray_dispose (GObject *object)
{
  TriageTray *self = TRIAGE_TRAY (object);

  if (self->register_cancellable != NULL)
    g_cancellable_cancel (self->register_cancellable);
  g_clear_handle_id (&self->watch_name_id, g_bus_unwatch_name);
  g_clear_handle_id (&self->own_name_id, g_bus_unown_name);
  if (self->day_clock != NULL)
    g_signal_handlers_disconnect_by_data (self->day_clock, self);
  g_clear_object (&self->day_clock);

  triage_tray_dbus_unexport (self, &self->item_export);
  triage_tray_dbus_unexport (self, &self->menu_export);

  G_OBJECT_CLASS (triage_tray_parent_class)->dispose (object);
}

static void
triage_tray_finalize (GObject *object)
{
  TriageTray *self = TRIAGE_TRAY (object);

  g_clear_object (&self->connection);
  g_clear_object (&self->actions);
  g_clear_object (&self->register_cancellable);
  g_clear_pointer (&self->bus_name, g_free);
  g_clear_pointer (&self->watcher_owner, g_free);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->problem, g_free);
  g_clear_pointer (&self->problem_detail, g_free);
  g_clear_pointer (&self->menu, g_array_unref);
  g_clear_pointer (&self->request_menu_ids, g_hash_table_unref);

  G_OBJECT_CLASS (triage_tray_parent_class)->finalize (object);
}

static void
triage_tray_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  TriageTray *self = TRIAGE_TRAY (object);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      g_value_set_object (value, self->connection);
      break;

    case PROP_ACTIONS:
      g_value_set_object (value, self->actions);
      break;

    case PROP_REGISTERED:
      g_value_set_boolean (value, self->registered);
      break;

    case PROP_DO_NOT_DISTURB:
      g_value_set_boolean (value, self->do_not_disturb);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_tray_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  TriageTray *self = TRIAGE_TRAY (object);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      self->connection = g_value_dup_object (value);
      break;

    case PROP_ACTIONS:
      self->actions = g_value_dup_object (value);
      break;

    case PROP_DO_NOT_DISTURB:
      triage_tray_set_do_not_disturb (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_tray_class_init (TriageTrayClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = triage_tray_constructed;
  object_class->dispose = triage_tray_dispose;
  object_class->finalize = triage_tray_finalize;
  object_class->get_property = triage_tray_get_property;
  object_class->set_property = triage_tray_set_property;

  properties[PROP_CONNECTION] =
    g_param_spec_object ("connection", NULL, NULL,
                         G_TYPE_DBUS_CONNECTION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  properties[PROP_ACTIONS] =
    g_param_spec_object ("actions", NULL, NULL,
                         G_TYPE_ACTION_GROUP,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * TriageTray:registered:
   *
   * Whether a StatusNotifierWatcher accepted the item, i.e. whether a tray
   * shows it. It follows the watcher: it turns %FALSE when the watcher goes
   * and %TRUE again once a new one accepted the item.
   */
  properties[PROP_REGISTERED] =
    g_param_spec_boolean ("registered", NULL, NULL,
                          FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_DO_NOT_DISTURB] =
    g_param_spec_boolean ("do-not-disturb", NULL, NULL,
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
triage_tray_init (TriageTray *self)
{
  self->items = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_tray_item_free);
  triage_tray_menu_init (self);
}

/**
 * triage_tray_new:
 * @connection: the session bus connection
 * @actions: the actions menu items and clicks activate: `show`,
 *   `open-request` (s: request id), `do-not-disturb` (boolean state, or a
 *   boolean parameter), `preferences`, `quit`
 *
 * Exports the status icon on @connection and registers it with the
 * StatusNotifierWatcher whenever there is one.
 *
 * Returns: (transfer full): a new #TriageTray
 */
TriageTray *
triage_tray_new (GDBusConnection *connection,
                 GActionGroup    *actions)
{
  g_return_val_if_fail (G_IS_DBUS_CONNECTION (connection), NULL);
  g_return_val_if_fail (G_IS_ACTION_GROUP (actions), NULL);

  return g_object_new (TRIAGE_TYPE_TRAY,
                       "connection", connection,
                       "actions", actions,
                       NULL);
}

/* A new day (midnight, or waking after it): the menu's deadlines say "due
 * tomorrow" of what is due today. */
static void
on_day_changed (TriageTray *self)
{
  triage_tray_menu_changed (self);
}

/* From the first request listed with a deadline: the app stays in the tray
 * for days. */
static void
watch_day (TriageTray *self)
{
  gboolean deadlines = FALSE;

  for (guint i = 0; i < self->items->len && !deadlines; i++)
    deadlines = ((TriageTrayItem *) g_ptr_array_index (self->items, i))->deadline != NULL;

  if (!deadlines || self->day_clock != NULL)
    return;

  self->day_clock = triage_day_clock_get_default ();
  g_signal_connect_object (self->day_clock, "day-changed",
                           G_CALLBACK (on_day_changed), self, G_CONNECT_SWAPPED);
}

/**
 * triage_tray_set_pending:
 * @self: a #TriageTray
 * @count: how many requests wait for an answer
 * @urgent: whether one of them needs attention now (the icon asks for it)
 * @items: (element-type TriageTrayItem) (nullable): the requests to list in
 *   the menu, most urgent first; copied. The first
 *   %TRIAGE_TRAY_MAX_MENU_REQUESTS are listed, the rest of @count summed up.
 */
void
triage_tray_set_pending (TriageTray *self,
                         guint       count,
                         gboolean    urgent,
                         GPtrArray  *items)
{
  g_autoptr(GVariant) before = NULL;

  g_return_if_fail (TRIAGE_IS_TRAY (self));

  before = snapshot_item (self);

  self->count = count;
  self->urgent = !!urgent;
  g_ptr_array_set_size (self->items, 0);
  for (guint i = 0; items != NULL && i < items->len; i++)
    g_ptr_array_add (self->items, triage_tray_item_copy (g_ptr_array_index (items, i)));

  emit_item_changes (self, before);
  triage_tray_menu_changed (self);
  watch_day (self);
}

/**
 * triage_tray_set_problem:
 * @self: a #TriageTray
 * @problem: (nullable): that requests cannot arrive, plain text ("Triage
 *   cannot receive requests"), or %NULL when they can again
 * @detail: (nullable): why, and what to do, in a sentence or two
 *
 * While requests cannot arrive until the person fixes something (a refused
 * token, a certificate not accepted), the item says so: @problem is its
 * title and its tooltip's, @detail the tooltip's text (with the number
 * waiting, if any), and it asks for attention with an icon of its own.
 */
void
triage_tray_set_problem (TriageTray *self,
                         const char *problem,
                         const char *detail)
{
  g_autoptr(GVariant) before = NULL;

  g_return_if_fail (TRIAGE_IS_TRAY (self));

  if (problem == NULL)
    detail = NULL;
  if (g_strcmp0 (self->problem, problem) == 0 && g_strcmp0 (self->problem_detail, detail) == 0)
    return;

  before = snapshot_item (self);

  g_free (self->problem);
  self->problem = g_strdup (problem);
  g_free (self->problem_detail);
  self->problem_detail = g_strdup (detail);

  emit_item_changes (self, before);
}

/**
 * triage_tray_set_do_not_disturb:
 * @self: a #TriageTray
 * @do_not_disturb: whether do-not-disturb is on
 *
 * Updates the menu's check item, the icon's overlay and its tooltip. The
 * tray follows the boolean state of the `do-not-disturb` action by itself;
 * this is for an application that keeps the setting elsewhere.
 */
void
triage_tray_set_do_not_disturb (TriageTray *self,
                                gboolean    do_not_disturb)
{
  g_return_if_fail (TRIAGE_IS_TRAY (self));

  if (self->do_not_disturb == !!do_not_disturb)
    return;

  self->do_not_disturb = !!do_not_disturb;

  emit_item_signal (self, "NewOverlayIcon", NULL);
  emit_item_signal (self, "NewToolTip", NULL);
  triage_tray_menu_changed (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DO_NOT_DISTURB]);
}

gboolean
triage_tray_get_do_not_disturb (TriageTray *self)
{
  g_return_val_if_fail (TRIAGE_IS_TRAY (self), FALSE);

  return self->do_not_disturb;
}

/**
 * triage_tray_get_registered:
 * @self: a #TriageTray
 *
 * Returns: whether a StatusNotifierWatcher accepted the item
 */
gboolean
triage_tray_get_registered (TriageTray *self)
{
  g_return_val_if_fail (TRIAGE_IS_TRAY (self), FALSE);

  return self->registered;
}

/**
 * triage_tray_get_bus_name:
 * @self: a #TriageTray
 *
 * Returns: (nullable): the well-known name the item owns,
 *   `org.kde.StatusNotifierItem-PID-N`
 */
const char *
triage_tray_get_bus_name (TriageTray *self)
{
  g_return_val_if_fail (TRIAGE_IS_TRAY (self), NULL);

  return self->bus_name;
}
