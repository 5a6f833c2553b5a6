/* test-tray.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tray item on a private bus (GTestDBus), seen from a second connection
 * that plays the StatusNotifierWatcher and the tray host.
 */

#define G_LOG_DOMAIN "test-tray"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "triage-tray.h"

#define WATCHER_NAME   "org.kde.StatusNotifierWatcher"
#define WATCHER_PATH   "/StatusNotifierWatcher"
#define ITEM_INTERFACE "org.kde.StatusNotifierItem"
#define MENU_INTERFACE "com.canonical.dbusmenu"

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

typedef struct
{
  GSubprocess        *bus;               /* a private dbus-daemon */
  char               *bus_address;
  GDBusConnection    *item_connection;   /* the application's */
  GDBusConnection    *peer;              /* the watcher's and host's */
  GSimpleActionGroup *actions;
  GPtrArray          *activations;       /* "show", "open-request:ID", … */
  TriageTray         *tray;

  /* the fake watcher */
  GDBusNodeInfo      *watcher_info;
  guint               watcher_object_id;
  guint               watcher_name_id;
  gboolean            watcher_owned;
  GPtrArray          *registrations;     /* service strings received */
  char               *last_sender;

  /* signals seen by the host */
  guint               item_signal_id;
  guint               menu_signal_id;
  GPtrArray          *signals;           /* "NewStatus:Active", "NewIcon", "LayoutUpdated:REV" */
  guint               registered_notifies;
} Fixture;

static gboolean
on_watchdog (gpointer user_data)
{
  g_error ("Timed out waiting for %s", (const char *) user_data);
  return G_SOURCE_REMOVE;
}

static gboolean
on_tick (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

/* Polls @condition, waking up at least every 10 ms, for at most 10 s. */
#define WAIT_UNTIL(condition) \
  G_STMT_START { \
    guint _watchdog = g_timeout_add_seconds (10, on_watchdog, (gpointer) #condition); \
    guint _tick = g_timeout_add (10, on_tick, NULL); \
    while (!(condition)) \
      g_main_context_iteration (NULL, TRUE); \
    g_source_remove (_tick); \
    g_source_remove (_watchdog); \
  } G_STMT_END

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
static GVariant *
call (Fixture            *fixture,
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

static GVariant *
get_item_property (Fixture    *fixture,
                   const char *name)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  GVariant *value;

  reply = call (fixture, TRIAGE_TRAY_ITEM_PATH, "org.freedesktop.DBus.Properties", "Get",
                g_variant_new ("(ss)", ITEM_INTERFACE, name), G_VARIANT_TYPE ("(v)"), &error);
  g_assert_no_error (error);
  g_variant_get (reply, "(v)", &value);

  return value;
}

static char *
get_item_string (Fixture    *fixture,
                 const char *name)
{
  g_autoptr(GVariant) value = get_item_property (fixture, name);

  return g_variant_dup_string (value, NULL);
}

static char *
get_tooltip_body (Fixture *fixture)
{
  g_autoptr(GVariant) tooltip = get_item_property (fixture, "ToolTip");
  char *body = NULL;

  g_assert_cmpstr (g_variant_get_type_string (tooltip), ==, "(sa(iiay)ss)");
  g_variant_get_child (tooltip, 3, "s", &body);

  return body;
}

static gboolean
has_signal (Fixture    *fixture,
            const char *entry)
{
  for (guint i = 0; i < fixture->signals->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (fixture->signals, i), entry))
        return TRUE;
    }

  return FALSE;
}

static guint
count_signals (Fixture    *fixture,
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
static void
sync_with_item (Fixture *fixture)
{
  g_autoptr(GVariant) ignored = get_item_property (fixture, "Status");
}

static gboolean
has_activation (Fixture    *fixture,
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

static void
start_watcher (Fixture *fixture)
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

static void
stop_watcher (Fixture *fixture)
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

static void
fixture_setup (Fixture       *fixture,
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

static TriageTray *
create_tray (Fixture *fixture)
{
  fixture->tray = triage_tray_new (fixture->item_connection, G_ACTION_GROUP (fixture->actions));
  g_signal_connect_swapped (fixture->tray, "notify::registered",
                            G_CALLBACK (on_registered_notify), fixture);
  return fixture->tray;
}

static gboolean
item_name_owned (Fixture *fixture)
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

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  if (fixture->tray != NULL)
    {
      /* Let pending replies and flushes finish, then the tray must really go away. */
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_assert_finalize_object (fixture->tray);
    }

  stop_watcher (fixture);
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

/* ------------------------------------------------------------------ menu helpers */

typedef struct
{
  int       id;
  GVariant *properties;   /* a{sv} */
} Entry;

static void
entry_clear (gpointer data)
{
  Entry *entry = data;

  g_clear_pointer (&entry->properties, g_variant_unref);
}

/* GetLayout of the root; returns the children in order. */
static GArray *
get_menu (Fixture *fixture,
          guint   *revision)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) root_props = NULL;
  g_autoptr(GVariantIter) children = NULL;
  g_autoptr(GError) error = NULL;
  GArray *entries = g_array_new (FALSE, TRUE, sizeof (Entry));
  GVariant *child;
  const char *display = NULL;
  int root_id;

  g_array_set_clear_func (entries, entry_clear);

  reply = call (fixture, TRIAGE_TRAY_MENU_PATH, MENU_INTERFACE, "GetLayout",
                g_variant_new ("(ii@as)", 0, -1, g_variant_new_strv (NULL, 0)),
                G_VARIANT_TYPE ("(u(ia{sv}av))"), &error);
  g_assert_no_error (error);

  g_variant_get (reply, "(u(i@a{sv}av))", revision, &root_id, &root_props, &children);
  g_assert_cmpint (root_id, ==, 0);
  g_assert_true (g_variant_lookup (root_props, "children-display", "&s", &display));
  g_assert_cmpstr (display, ==, "submenu");

  while (g_variant_iter_next (children, "v", &child))
    {
      g_autoptr(GVariantIter) grandchildren = NULL;
      Entry entry = { 0 };

      g_assert_cmpstr (g_variant_get_type_string (child), ==, "(ia{sv}av)");
      g_variant_get (child, "(i@a{sv}av)", &entry.id, &entry.properties, &grandchildren);
      g_assert_cmpuint (g_variant_iter_n_children (grandchildren), ==, 0);
      g_array_append_val (entries, entry);
      g_variant_unref (child);
    }

  return entries;
}

static const char *
entry_label (const Entry *entry)
{
  const char *label = NULL;

  g_variant_lookup (entry->properties, "label", "&s", &label);
  return label;
}

static gboolean
entry_is_separator (const Entry *entry)
{
  const char *type = NULL;

  return g_variant_lookup (entry->properties, "type", "&s", &type) &&
         g_str_equal (type, "separator");
}

static gboolean
entry_enabled (const Entry *entry)
{
  gboolean enabled = TRUE;

  g_variant_lookup (entry->properties, "enabled", "b", &enabled);
  return enabled;
}

static int
find_entry (GArray     *entries,
            const char *label)
{
  for (guint i = 0; i < entries->len; i++)
    {
      const char *l = entry_label (&g_array_index (entries, Entry, i));

      if (l != NULL && g_str_equal (l, label))
        return g_array_index (entries, Entry, i).id;
    }

  g_error ("No menu item “%s”", label);
  return -1;
}

static void
send_event (Fixture    *fixture,
            int         id,
            const char *event,
            GError    **error)
{
  g_autoptr(GVariant) reply = NULL;

  reply = call (fixture, TRIAGE_TRAY_MENU_PATH, MENU_INTERFACE, "Event",
                g_variant_new ("(isvu)", id, event, g_variant_new_int32 (0), 0),
                NULL, error);
}

static GPtrArray *
make_items (guint n)
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

/* ------------------------------------------------------------------ tests */

static void
test_registers_with_watcher (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autofree char *prefix = g_strdup_printf ("org.kde.StatusNotifierItem-%d-", (int) getpid ());

  start_watcher (fixture);
  create_tray (fixture);

  WAIT_UNTIL (triage_tray_get_registered (fixture->tray));
  g_assert_cmpuint (fixture->registrations->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (fixture->registrations, 0), ==,
                   triage_tray_get_bus_name (fixture->tray));
  g_assert_true (g_str_has_prefix (triage_tray_get_bus_name (fixture->tray), prefix));
  g_assert_cmpstr (fixture->last_sender, ==,
                   g_dbus_connection_get_unique_name (fixture->item_connection));
  g_assert_true (item_name_owned (fixture));
  g_assert_cmpuint (fixture->registered_notifies, ==, 1);
}

static void
test_watcher_comes_and_goes (Fixture       *fixture,
                             gconstpointer  data)
{
  create_tray (fixture);

  /* No watcher (stock GNOME): the item is on the bus, but nobody shows it. */
  WAIT_UNTIL (item_name_owned (fixture));
  sync_with_item (fixture);
  g_assert_false (triage_tray_get_registered (fixture->tray));
  g_assert_cmpuint (fixture->registered_notifies, ==, 0);

  start_watcher (fixture);
  WAIT_UNTIL (triage_tray_get_registered (fixture->tray));
  g_assert_cmpuint (fixture->registrations->len, ==, 1);

  stop_watcher (fixture);
  WAIT_UNTIL (!triage_tray_get_registered (fixture->tray));

  /* A restarted watcher gets the item again. */
  start_watcher (fixture);
  WAIT_UNTIL (triage_tray_get_registered (fixture->tray));
  g_assert_cmpuint (fixture->registrations->len, ==, 2);
  g_assert_cmpuint (fixture->registered_notifies, ==, 3);
}

static void
test_item_properties (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(GVariant) all = NULL;
  g_autoptr(GVariant) props = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) three = make_items (3);
  g_autoptr(GPtrArray) one = make_items (1);
  g_autofree char *body = NULL;
  const char *s;
  gboolean b;

  start_watcher (fixture);
  create_tray (fixture);
  WAIT_UNTIL (triage_tray_get_registered (fixture->tray));

  all = call (fixture, TRIAGE_TRAY_ITEM_PATH, "org.freedesktop.DBus.Properties", "GetAll",
              g_variant_new ("(s)", ITEM_INTERFACE), G_VARIANT_TYPE ("(a{sv})"), &error);
  g_assert_no_error (error);
  props = g_variant_get_child_value (all, 0);

  g_assert_true (g_variant_lookup (props, "Category", "&s", &s));
  g_assert_cmpstr (s, ==, "ApplicationStatus");
  g_assert_true (g_variant_lookup (props, "Id", "&s", &s));
  g_assert_cmpstr (s, ==, APPLICATION_ID);
  g_assert_true (g_variant_lookup (props, "Title", "&s", &s));
  g_assert_cmpstr (s, ==, "Triage");
  g_assert_true (g_variant_lookup (props, "Status", "&s", &s));
  g_assert_cmpstr (s, ==, "Passive");
  g_assert_true (g_variant_lookup (props, "IconName", "&s", &s));
  g_assert_cmpstr (s, ==, TRIAGE_TRAY_ICON_IDLE);
  g_assert_true (g_variant_lookup (props, "AttentionIconName", "&s", &s));
  g_assert_cmpstr (s, ==, TRIAGE_TRAY_ICON_URGENT);
  g_assert_true (g_variant_lookup (props, "ItemIsMenu", "b", &b));
  g_assert_false (b);
  g_assert_true (g_variant_lookup (props, "Menu", "&o", &s));
  g_assert_cmpstr (s, ==, TRIAGE_TRAY_MENU_PATH);
  body = get_tooltip_body (fixture);
  g_assert_cmpstr (body, ==, "No requests waiting");
  g_clear_pointer (&body, g_free);

  /* Pending requests: Active, the pending icon, the count in the tooltip. */
  triage_tray_set_pending (fixture->tray, 3, FALSE, three);
  WAIT_UNTIL (has_signal (fixture, "NewStatus:Active"));
  sync_with_item (fixture);
  g_assert_true (has_signal (fixture, "NewIcon"));
  g_assert_true (has_signal (fixture, "NewToolTip"));
  g_free (body);
  body = get_item_string (fixture, "Status");
  g_assert_cmpstr (body, ==, "Active");
  g_free (body);
  body = get_item_string (fixture, "IconName");
  g_assert_cmpstr (body, ==, TRIAGE_TRAY_ICON_PENDING);
  g_free (body);
  body = get_tooltip_body (fixture);
  g_assert_cmpstr (body, ==, "3 requests waiting");

  /* Setting the same state again announces nothing. */
  g_ptr_array_set_size (fixture->signals, 0);
  triage_tray_set_pending (fixture->tray, 3, FALSE, three);
  sync_with_item (fixture);
  g_assert_cmpuint (count_signals (fixture, "NewStatus"), ==, 0);
  g_assert_cmpuint (count_signals (fixture, "NewIcon"), ==, 0);
  g_assert_cmpuint (count_signals (fixture, "NewToolTip"), ==, 0);

  /* Urgent: NeedsAttention. */
  triage_tray_set_pending (fixture->tray, 1, TRUE, one);
  WAIT_UNTIL (has_signal (fixture, "NewStatus:NeedsAttention"));
  g_free (body);
  body = get_item_string (fixture, "IconName");
  g_assert_cmpstr (body, ==, TRIAGE_TRAY_ICON_URGENT);
  g_free (body);
  body = get_tooltip_body (fixture);
  g_assert_cmpstr (body, ==, "1 request waiting");

  /* Do not disturb shows as an overlay and in the tooltip. */
  triage_tray_set_do_not_disturb (fixture->tray, TRUE);
  WAIT_UNTIL (has_signal (fixture, "NewOverlayIcon"));
  g_free (body);
  body = get_item_string (fixture, "OverlayIconName");
  g_assert_cmpstr (body, ==, TRIAGE_TRAY_ICON_DND);
  g_free (body);
  body = get_tooltip_body (fixture);
  g_assert_cmpstr (body, ==, "1 request waiting (do not disturb)");

  triage_tray_set_pending (fixture->tray, 0, FALSE, NULL);
  WAIT_UNTIL (has_signal (fixture, "NewStatus:Passive"));
  g_free (body);
  body = get_item_string (fixture, "IconName");
  g_assert_cmpstr (body, ==, TRIAGE_TRAY_ICON_IDLE);
}

static void
test_activate (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GPtrArray) items = make_items (2);
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  create_tray (fixture);
  WAIT_UNTIL (item_name_owned (fixture));

  reply = call (fixture, TRIAGE_TRAY_ITEM_PATH, ITEM_INTERFACE, "Activate",
                g_variant_new ("(ii)", 10, 20), NULL, &error);
  g_assert_no_error (error);
  WAIT_UNTIL (has_activation (fixture, "show"));
  g_clear_pointer (&reply, g_variant_unref);

  /* Middle click opens the first waiting request. */
  triage_tray_set_pending (fixture->tray, 2, FALSE, items);
  reply = call (fixture, TRIAGE_TRAY_ITEM_PATH, ITEM_INTERFACE, "SecondaryActivate",
                g_variant_new ("(ii)", 0, 0), NULL, &error);
  g_assert_no_error (error);
  WAIT_UNTIL (has_activation (fixture, "open-request:req-0"));
  g_clear_pointer (&reply, g_variant_unref);

  /* Scrolling is accepted and does nothing. */
  reply = call (fixture, TRIAGE_TRAY_ITEM_PATH, ITEM_INTERFACE, "Scroll",
                g_variant_new ("(is)", 1, "vertical"), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fixture->activations->len, ==, 2);
}

static void
test_menu_layout (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GPtrArray) items = make_items (12);
  g_autoptr(GDateTime) deadline = g_date_time_new_now_local ();
  g_autoptr(GArray) menu = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) version = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *due = NULL;
  g_autofree char *expected = NULL;
  guint revision = 0;
  guint first_revision;
  guint i;

  create_tray (fixture);
  WAIT_UNTIL (item_name_owned (fixture));

  menu = get_menu (fixture, &first_revision);
  g_assert_cmpstr (entry_label (&g_array_index (menu, Entry, 0)), ==, "No requests waiting");
  g_assert_false (entry_enabled (&g_array_index (menu, Entry, 0)));
  g_clear_pointer (&menu, g_array_unref);

  /* A title that would be a mnemonic, a second line and an invisible override. */
  g_free (((TriageTrayItem *) g_ptr_array_index (items, 0))->title);
  ((TriageTrayItem *) g_ptr_array_index (items, 0))->title =
    g_strdup ("Deploy fix_bug\nnow\xe2\x80\xae!");
  ((TriageTrayItem *) g_ptr_array_index (items, 0))->deadline = g_date_time_ref (deadline);

  triage_tray_set_pending (fixture->tray, 12, FALSE, items);
  menu = get_menu (fixture, &revision);
  g_assert_cmpuint (revision, >, first_revision);

  due = g_date_time_format (deadline, "%H:%M");
  expected = g_strdup_printf ("Deploy fix__bug now! — due %s", due);
  g_assert_cmpstr (entry_label (&g_array_index (menu, Entry, 0)), ==, expected);
  for (i = 1; i < TRIAGE_TRAY_MAX_MENU_REQUESTS; i++)
    {
      g_autofree char *label = g_strdup_printf ("Request %u", i);

      g_assert_cmpstr (entry_label (&g_array_index (menu, Entry, i)), ==, label);
      g_assert_true (entry_enabled (&g_array_index (menu, Entry, i)));
    }
  g_assert_cmpstr (entry_label (&g_array_index (menu, Entry, i++)), ==, "2 more requests…");
  g_assert_true (entry_is_separator (&g_array_index (menu, Entry, i++)));
  g_assert_cmpstr (entry_label (&g_array_index (menu, Entry, i++)), ==, "_Open Triage");
  {
    const Entry *dnd = &g_array_index (menu, Entry, i++);
    const char *toggle_type = NULL;
    int toggle_state = -1;

    g_assert_cmpstr (entry_label (dnd), ==, "_Do Not Disturb");
    g_assert_true (g_variant_lookup (dnd->properties, "toggle-type", "&s", &toggle_type));
    g_assert_cmpstr (toggle_type, ==, "checkmark");
    g_assert_true (g_variant_lookup (dnd->properties, "toggle-state", "i", &toggle_state));
    g_assert_cmpint (toggle_state, ==, 0);
  }
  g_assert_cmpstr (entry_label (&g_array_index (menu, Entry, i++)), ==, "_Preferences");
  g_assert_true (entry_is_separator (&g_array_index (menu, Entry, i++)));
  g_assert_cmpstr (entry_label (&g_array_index (menu, Entry, i++)), ==, "_Quit");
  g_assert_cmpuint (i, ==, menu->len);

  /* LayoutUpdated announced the new revision. */
  sync_with_item (fixture);
  {
    g_autofree char *signal = g_strdup_printf ("LayoutUpdated:%u", revision);

    g_assert_true (has_signal (fixture, signal));
  }

  /* Depth 0: the root alone; a property filter; an unknown parent. */
  reply = call (fixture, TRIAGE_TRAY_MENU_PATH, MENU_INTERFACE, "GetLayout",
                g_variant_new ("(ii@as)", 0, 0, g_variant_new_strv (NULL, 0)),
                G_VARIANT_TYPE ("(u(ia{sv}av))"), &error);
  g_assert_no_error (error);
  {
    g_autoptr(GVariant) layout = g_variant_get_child_value (reply, 1);
    g_autoptr(GVariant) children = g_variant_get_child_value (layout, 2);

    g_assert_cmpuint (g_variant_n_children (children), ==, 0);
  }
  g_clear_pointer (&reply, g_variant_unref);

  {
    const char *only_label[] = { "label", NULL };
    g_autoptr(GVariant) props = NULL;
    int quit = find_entry (menu, "_Quit");
    const char *label = NULL;

    reply = call (fixture, TRIAGE_TRAY_MENU_PATH, MENU_INTERFACE, "GetGroupProperties",
                  g_variant_new ("(@ai@as)",
                                 g_variant_new_fixed_array (G_VARIANT_TYPE_INT32, &quit, 1,
                                                            sizeof (int)),
                                 g_variant_new_strv (only_label, -1)),
                  G_VARIANT_TYPE ("(a(ia{sv}))"), &error);
    g_assert_no_error (error);
    {
      g_autoptr(GVariant) list = g_variant_get_child_value (reply, 0);
      g_autoptr(GVariant) item = NULL;
      int id = -1;

      g_assert_cmpuint (g_variant_n_children (list), ==, 1);
      item = g_variant_get_child_value (list, 0);
      g_variant_get (item, "(i@a{sv})", &id, &props);
      g_assert_cmpint (id, ==, quit);
    }
    g_assert_true (g_variant_lookup (props, "label", "&s", &label));
    g_assert_cmpstr (label, ==, "_Quit");
    g_assert_cmpuint (g_variant_n_children (props), ==, 1);
    g_clear_pointer (&reply, g_variant_unref);
  }

  reply = call (fixture, TRIAGE_TRAY_MENU_PATH, MENU_INTERFACE, "GetLayout",
                g_variant_new ("(ii@as)", 4242, -1, g_variant_new_strv (NULL, 0)),
                G_VARIANT_TYPE ("(u(ia{sv}av))"), &error);
  g_assert_error (error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS);
  g_assert_null (reply);
  g_clear_error (&error);

  reply = call (fixture, TRIAGE_TRAY_MENU_PATH, MENU_INTERFACE, "AboutToShow",
                g_variant_new ("(i)", 0), G_VARIANT_TYPE ("(b)"), &error);
  g_assert_no_error (error);
  g_clear_pointer (&reply, g_variant_unref);

  reply = call (fixture, TRIAGE_TRAY_MENU_PATH, "org.freedesktop.DBus.Properties", "Get",
                g_variant_new ("(ss)", MENU_INTERFACE, "Version"), G_VARIANT_TYPE ("(v)"), &error);
  g_assert_no_error (error);
  g_variant_get (reply, "(v)", &version);
  g_assert_cmpuint (g_variant_get_uint32 (version), ==, 3);
}

static void
test_menu_events (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GPtrArray) items = make_items (3);
  g_autoptr(GArray) menu = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  guint revision;
  int quit;

  create_tray (fixture);
  WAIT_UNTIL (item_name_owned (fixture));
  triage_tray_set_pending (fixture->tray, 3, FALSE, items);
  menu = get_menu (fixture, &revision);

  /* Clicking a request opens that request. */
  send_event (fixture, find_entry (menu, "Request 1"), "clicked", &error);
  g_assert_no_error (error);
  WAIT_UNTIL (has_activation (fixture, "open-request:req-1"));

  /* Hovering does nothing. */
  send_event (fixture, find_entry (menu, "Request 2"), "hovered", &error);
  g_assert_no_error (error);
  sync_with_item (fixture);
  g_assert_false (has_activation (fixture, "open-request:req-2"));

  send_event (fixture, find_entry (menu, "_Open Triage"), "clicked", &error);
  g_assert_no_error (error);
  WAIT_UNTIL (has_activation (fixture, "show"));

  send_event (fixture, find_entry (menu, "_Preferences"), "clicked", &error);
  g_assert_no_error (error);
  WAIT_UNTIL (has_activation (fixture, "preferences"));

  /* The quit reply arrives before the action runs (it may end the process). */
  quit = find_entry (menu, "_Quit");
  send_event (fixture, quit, "clicked", &error);
  g_assert_no_error (error);
  WAIT_UNTIL (has_activation (fixture, "quit"));

  /* Do not disturb toggles the action's state, and the menu follows it. */
  send_event (fixture, find_entry (menu, "_Do Not Disturb"), "clicked", &error);
  g_assert_no_error (error);
  WAIT_UNTIL (triage_tray_get_do_not_disturb (fixture->tray));
  {
    g_autoptr(GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (fixture->actions),
                                                                 "do-not-disturb");
    g_autoptr(GArray) after = get_menu (fixture, &revision);
    int toggle_state = -1;

    g_assert_true (g_variant_get_boolean (state));
    for (guint i = 0; i < after->len; i++)
      {
        const Entry *entry = &g_array_index (after, Entry, i);

        if (g_strcmp0 (entry_label (entry), "_Do Not Disturb") == 0)
          g_variant_lookup (entry->properties, "toggle-state", "i", &toggle_state);
      }
    g_assert_cmpint (toggle_state, ==, 1);
  }

  /* The app changing the state is reflected too. */
  g_action_group_change_action_state (G_ACTION_GROUP (fixture->actions), "do-not-disturb",
                                      g_variant_new_boolean (FALSE));
  g_assert_false (triage_tray_get_do_not_disturb (fixture->tray));

  /* Unknown items are errors; in a group only the unknown ones are listed. */
  send_event (fixture, 4242, "clicked", &error);
  g_assert_error (error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS);
  g_clear_error (&error);

  g_ptr_array_set_size (fixture->activations, 0);
  {
    GVariantBuilder events;
    g_autoptr(GVariant) errors = NULL;

    g_variant_builder_init (&events, G_VARIANT_TYPE ("a(isvu)"));
    g_variant_builder_add (&events, "(isvu)", 4243, "clicked", g_variant_new_int32 (0), 0);
    g_variant_builder_add (&events, "(isvu)", find_entry (menu, "Request 0"), "clicked",
                           g_variant_new_int32 (0), 0);
    reply = call (fixture, TRIAGE_TRAY_MENU_PATH, MENU_INTERFACE, "EventGroup",
                  g_variant_new ("(a(isvu))", &events), G_VARIANT_TYPE ("(ai)"), &error);
    g_assert_no_error (error);
    errors = g_variant_get_child_value (reply, 0);
    g_assert_cmpuint (g_variant_n_children (errors), ==, 1);
    {
      int unknown = -1;

      g_variant_get_child (errors, 0, "i", &unknown);
      g_assert_cmpint (unknown, ==, 4243);
    }
    WAIT_UNTIL (has_activation (fixture, "open-request:req-0"));
  }
}

static void
test_disabled_action (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(GArray) menu = NULL;
  g_autoptr(GError) error = NULL;
  guint revision;
  int preferences;

  create_tray (fixture);
  WAIT_UNTIL (item_name_owned (fixture));

  /* The app disables an action: its item greys out and a click does nothing. */
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (fixture->actions),
                                                                            "preferences")),
                               FALSE);
  menu = get_menu (fixture, &revision);
  preferences = find_entry (menu, "_Preferences");
  for (guint i = 0; i < menu->len; i++)
    {
      const Entry *entry = &g_array_index (menu, Entry, i);

      if (entry->id == preferences)
        g_assert_false (entry_enabled (entry));
      else if (g_strcmp0 (entry_label (entry), "_Quit") == 0)
        g_assert_true (entry_enabled (entry));
    }

  send_event (fixture, preferences, "clicked", &error);
  g_assert_no_error (error);
  sync_with_item (fixture);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (fixture->activations->len, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/tray/registers-with-watcher", test_registers_with_watcher);
  ADD ("/tray/watcher-comes-and-goes", test_watcher_comes_and_goes);
  ADD ("/tray/item-properties", test_item_properties);
  ADD ("/tray/activate", test_activate);
  ADD ("/tray/menu-layout", test_menu_layout);
  ADD ("/tray/menu-events", test_menu_events);
  ADD ("/tray/disabled-action", test_disabled_action);

#undef ADD

  return g_test_run ();
}
