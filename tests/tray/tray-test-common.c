/* tray-test-common.c — the private bus, the fake watcher and host, the fixture
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-tray"

#include <signal.h>
#include <sys/prctl.h>

#include "tray-test-common.h"

static const char watcher_xml[] =
  "<node>"
  "  <interface name='org.kde.StatusNotifierWatcher'>"
  "    <method name='RegisterStatusNotifierItem'><arg name='service' type='s' direction='in'/></method>"
  "    <method name='RegisterStatusNotifierHost'><arg name='service' type='s' direction='in'/></method>"
  "    <property name='RegisteredStatusNotifierItems' type='as' access='read'/>"
  "    <property name='IsStatusNotifierHostRegistered' type='b' access='read'/>"
  "    <property name='ProtocolVersion' type='i' access='read'/>"
  "    <signal name='StatusNotifierItemRegistered'><arg type='s'/></signal>"
  "  </interface>"
  "</node>";

gboolean
tray_test_watchdog_cb (gpointer user_data)
{
  g_error ("Timed out waiting for %s", (const char *) user_data);
  return G_SOURCE_REMOVE;
}

gboolean
tray_test_tick_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

/* ------------------------------------------------------------------ helpers */

typedef struct
{
  gboolean  done;
  GVariant *reply;
  GError   *error;
} CallResult;

static void
call_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  CallResult *r = user_data;

  r->reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &r->error);
  r->done = TRUE;
}

/* Calls the item from the peer; both live in this thread, so the call must be async. */
GVariant *
tray_test_call (Fixture            *fixture,
                const char         *path,
                const char         *interface,
                const char         *method,
                GVariant           *parameters,
                const GVariantType *reply_type,
      GError            **error)
{
  CallResult r = { 0 };

  g_dbus_connection_call (fixture->peer, triage_tray_get_bus_name (fixture->tray), path,
                          interface, method, parameters, reply_type, G_DBUS_CALL_FLAGS_NONE,
                          5000, NULL, call_cb, &r);
  WAIT_UNTIL (r.done);

  if (r.error != NULL)
    g_propagate_error (error, r.error);

  return r.reply;
}

GVariant *
tray_test_get_item_property (Fixture    *fixture,
                             const char *name)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  GVariant *value;

  reply = tray_test_call (fixture, TRIAGE_TRAY_ITEM_PATH, "org.freedesktop.DBus.Properties", "Get",
                          g_variant_new ("(ss)", ITEM_INTERFACE,
                                         name), G_VARIANT_TYPE ("(v)"), &error);
  g_assert_no_error (error);
  g_variant_get (reply, "(v)", &value);

  return value;
}

char *
tray_test_get_item_string (Fixture    *fixture,
                           const char *name)
{
  g_autoptr(GVariant) value = tray_test_get_item_property (fixture, name);

  return g_variant_dup_string (value, NULL);
}

char *
tray_test_get_tooltip_body (Fixture *fixture)
{
  g_autoptr(GVariant) tooltip = tray_test_get_item_property (fixture, "ToolTip");
  char *body = NULL;

  g_assert_cmpstr (g_variant_get_type_string (tooltip), ==, "(sa(iiay)ss)");
  g_variant_get_child (tooltip, 3, "s", &body);

  return body;
}

gboolean
tray_test_has_signal (Fixture    *fixture,
                      const char *entry)
{
  for (guint i = 0; i < fixture->signals->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (fixture->signals, i), entry))
        return TRUE;
    }

  return FALSE;
}

guint
tray_test_count_signals (Fixture    *fixture,
                         const char *prefix)
{
  guint n = 0;

  for (guint i = 0; i < fixture->signals->len; i++)
    {
      if (g_str_has_prefix (g_ptr_array_index (fixture->signals, i), prefix))
        n++;
    }

  return n;
}

/* Round trip through the item, so every signal it sent before has arrived. */
void
tray_test_sync_with_item (Fixture *fixture)
{
  g_autoptr(GVariant) ignored = tray_test_get_item_property (fixture, "Status");
}

gboolean
tray_test_has_activation (Fixture    *fixture,
                          const char *entry)
{
  for (guint i = 0; i < fixture->activations->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (fixture->activations, i), entry))
        return TRUE;
    }

  return FALSE;
}

/* ------------------------------------------------------------------ fake watcher */

static void
watcher_method_call (GDBusConnection       *connection,
                     const char            *sender,
                     const char            *object_path,
                     const char            *interface_name,
                     const char            *method_name,
                     GVariant              *parameters,
                     GDBusMethodInvocation *invocation,
                     gpointer               user_data)
{
  Fixture *fixture = user_data;

  if (g_str_equal (method_name, "RegisterStatusNotifierItem"))
    {
      const char *service;

      g_variant_get (parameters, "(&s)", &service);
      g_ptr_array_add (fixture->registrations, g_strdup (service));
      g_free (fixture->last_sender);
      fixture->last_sender = g_strdup (sender);
    }

  g_dbus_method_invocation_return_value (invocation, NULL);
}

static GVariant *
watcher_get_property (GDBusConnection  *connection,
                      const char       *sender,
                      const char       *object_path,
                      const char       *interface_name,
                      const char       *property_name,
                      GError          **error,
                      gpointer          user_data)
{
  Fixture *fixture = user_data;

  if (g_str_equal (property_name, "RegisteredStatusNotifierItems"))
    return g_variant_new_strv ((const char * const *) fixture->registrations->pdata,
                               fixture->registrations->len);
  if (g_str_equal (property_name, "IsStatusNotifierHostRegistered"))
    return g_variant_new_boolean (TRUE);
  return g_variant_new_int32 (0);
}

static const GDBusInterfaceVTable watcher_vtable = {
  .method_call = watcher_method_call,
  .get_property = watcher_get_property,
};

static void
on_watcher_name_acquired (GDBusConnection *connection,
                          const char      *name,
                          gpointer         user_data)
{
  Fixture *fixture = user_data;

  fixture->watcher_owned = TRUE;
}

void
tray_test_start_watcher (Fixture *fixture)
{
  g_autoptr(GError) error = NULL;

  fixture->watcher_object_id =
    g_dbus_connection_register_object (fixture->peer, WATCHER_PATH,
                                       fixture->watcher_info->interfaces[0], &watcher_vtable,
                                       fixture, NULL, &error);
  g_assert_no_error (error);

  fixture->watcher_owned = FALSE;
  fixture->watcher_name_id = g_bus_own_name_on_connection (fixture->peer, WATCHER_NAME,
                                                           G_BUS_NAME_OWNER_FLAGS_NONE,
                                                           on_watcher_name_acquired, NULL,
                                                           fixture, NULL);
  WAIT_UNTIL (fixture->watcher_owned);
}

void
tray_test_stop_watcher (Fixture *fixture)
{
  g_clear_handle_id (&fixture->watcher_name_id, g_bus_unown_name);
  if (fixture->watcher_object_id != 0)
    g_dbus_connection_unregister_object (fixture->peer, fixture->watcher_object_id);
  fixture->watcher_object_id = 0;
  fixture->watcher_owned = FALSE;
}

/* ------------------------------------------------------------------ fixture */

static void
on_action_activate (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  Fixture *fixture = user_data;
  const char *name = g_action_get_name (G_ACTION (action));

  if (parameter != NULL && g_variant_is_of_type (parameter, G_VARIANT_TYPE_STRING))
    g_ptr_array_add (fixture->activations,
                     g_strdup_printf ("%s:%s", name, g_variant_get_string (parameter, NULL)));
  else
    g_ptr_array_add (fixture->activations, g_strdup (name));
}

static void
on_item_signal (GDBusConnection *connection,
                const char      *sender,
                const char      *path,
                const char      *interface,
                const char      *member,
                GVariant        *parameters,
                gpointer         user_data)
{
  Fixture *fixture = user_data;

  if (g_str_equal (member, "NewStatus"))
    {
      const char *status;

      g_variant_get (parameters, "(&s)", &status);
      g_ptr_array_add (fixture->signals, g_strdup_printf ("NewStatus:%s", status));
    }
  else if (g_str_equal (member, "LayoutUpdated"))
    {
      guint revision;
      int parent;

      g_variant_get (parameters, "(ui)", &revision, &parent);
      g_assert_cmpint (parent, ==, 0);
      g_ptr_array_add (fixture->signals, g_strdup_printf ("LayoutUpdated:%u", revision));
    }
  else
    g_ptr_array_add (fixture->signals, g_strdup (member));
}

static void
on_registered_notify (Fixture *fixture)
{
  fixture->registered_notifies++;
}

/* The bus dies with the test, also when an assertion aborts it. */
static void
die_with_parent (gpointer user_data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static void
start_bus (Fixture *fixture)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GDataInputStream) output = NULL;
  g_autoptr(GError) error = NULL;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
  fixture->bus = g_subprocess_launcher_spawn (launcher, &error, "dbus-daemon", "--session",
                                              "--nofork", "--print-address=1", NULL);
  g_assert_no_error (error);

  output = g_data_input_stream_new (g_subprocess_get_stdout_pipe (fixture->bus));
  fixture->bus_address = g_data_input_stream_read_line_utf8 (output, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (fixture->bus_address);
}

static GDBusConnection *
connect_to_bus (Fixture *fixture)
{
  g_autoptr(GError) error = NULL;
  GDBusConnection *connection;

  connection = g_dbus_connection_new_for_address_sync (fixture->bus_address,
                                                       G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                       G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                       NULL, NULL, &error);
  g_assert_no_error (error);

  return connection;
}

void
tray_test_setup (Fixture       *fixture,
                 gconstpointer  data)
{
  const GActionEntry entries[] = {
    { "show", on_action_activate },
    { "open-request", on_action_activate, "s" },
    { "preferences", on_action_activate },
    { "quit", on_action_activate },
    /* stateful boolean without handlers: activating toggles, change_state sets */
    { "do-not-disturb", NULL, NULL, "false" },
  };

  start_bus (fixture);
  fixture->item_connection = connect_to_bus (fixture);
  fixture->peer = connect_to_bus (fixture);

  fixture->activations = g_ptr_array_new_with_free_func (g_free);
  fixture->registrations = g_ptr_array_new_with_free_func (g_free);
  fixture->signals = g_ptr_array_new_with_free_func (g_free);
  fixture->watcher_info = g_dbus_node_info_new_for_xml (watcher_xml, NULL);

  fixture->actions = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (fixture->actions), entries,
                                   G_N_ELEMENTS (entries), fixture);

  fixture->item_signal_id =
    g_dbus_connection_signal_subscribe (fixture->peer, NULL, ITEM_INTERFACE, NULL,
                                        TRIAGE_TRAY_ITEM_PATH, NULL, G_DBUS_SIGNAL_FLAGS_NONE,
                                        on_item_signal, fixture, NULL);
  fixture->menu_signal_id =
    g_dbus_connection_signal_subscribe (fixture->peer, NULL, MENU_INTERFACE, NULL,
                                        TRIAGE_TRAY_MENU_PATH, NULL, G_DBUS_SIGNAL_FLAGS_NONE,
                                        on_item_signal, fixture, NULL);
}

TriageTray *
tray_test_create_tray (Fixture *fixture)
{
  fixture->tray = triage_tray_new (fixture->item_connection, G_ACTION_GROUP (fixture->actions));
  g_signal_connect_swapped (fixture->tray, "notify::registered",
                            G_CALLBACK (on_registered_notify), fixture);
  return fixture->tray;
}

gboolean
tray_test_item_name_owned (Fixture *fixture)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  CallResult r = { 0 };
  gboolean owned = FALSE;

  g_dbus_connection_call (fixture->peer, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                          "org.freedesktop.DBus", "NameHasOwner",
                          g_variant_new ("(s)", triage_tray_get_bus_name (fixture->tray)),
                          G_VARIANT_TYPE ("(b)"), G_DBUS_CALL_FLAGS_NONE, 5000, NULL,
                          call_cb, &r);
  WAIT_UNTIL (r.done);
  g_assert_no_error (r.error);
  g_variant_get (r.reply, "(b)", &owned);
  g_variant_unref (r.reply);

  return owned;
}

void
tray_test_teardown (Fixture       *fixture,
                    gconstpointer  data)
{
  if (fixture->tray != NULL)
    {
      /* Let pending replies and flushes finish, then the tray must really go away. */
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_assert_finalize_object (fixture->tray);
    }

  tray_test_stop_watcher (fixture);
  g_dbus_connection_signal_unsubscribe (fixture->peer, fixture->item_signal_id);
  g_dbus_connection_signal_unsubscribe (fixture->peer, fixture->menu_signal_id);
  g_dbus_connection_close_sync (fixture->item_connection, NULL, NULL);
  g_dbus_connection_close_sync (fixture->peer, NULL, NULL);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_clear_object (&fixture->item_connection);
  g_clear_object (&fixture->peer);
  g_clear_object (&fixture->actions);
  g_clear_pointer (&fixture->activations, g_ptr_array_unref);
  g_clear_pointer (&fixture->registrations, g_ptr_array_unref);
  g_clear_pointer (&fixture->signals, g_ptr_array_unref);
  g_clear_pointer (&fixture->watcher_info, g_dbus_node_info_unref);
  g_clear_pointer (&fixture->last_sender, g_free);
  g_subprocess_force_exit (fixture->bus);
  g_subprocess_wait (fixture->bus, NULL, NULL);
  g_clear_object (&fixture->bus);
  g_clear_pointer (&fixture->bus_address, g_free);
}

GPtrArray *
tray_test_make_items (guint n)
{
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_tray_item_free);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_strdup_printf ("req-%u", i);
      g_autofree char *title = g_strdup_printf ("Request %u", i);

      g_ptr_array_add (items, triage_tray_item_new (id, title, NULL));
    }

  return items;
}
