/* in-process-desktop.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The desktop: start at login, the shortcuts window and the status icon's
 * menu called over D-Bus as a tray would.
 */

#include <string.h>

#include "in-process-common.h"

/* Start at login */

void
test_app_autostart (void)
{
  g_autoptr(GSettings) settings = g_settings_new (TRIAGE_SETTINGS_SCHEMA);
  g_autofree char *path = g_build_filename (g_get_user_config_dir (), "autostart",
                                            "io.github.atptriage.Triage.desktop", NULL);
  g_autoptr(GKeyFile) entry = g_key_file_new ();
  g_autofree char *exec = NULL;
  g_autofree char *validate = g_find_program_in_path ("desktop-file-validate");

  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_settings_set_boolean (settings, "autostart", TRUE);
  /* Written in place when new: wait for the whole of it. */
  app_test_wait_for (g_key_file_load_from_file (entry, path, G_KEY_FILE_NONE, NULL) &&
                     g_key_file_has_key (entry, "Desktop Entry", "X-GNOME-UsesNotifications", NULL),
                     APP_TEST_WAIT_MS);
  exec = g_key_file_get_string (entry, "Desktop Entry", "Exec", NULL);
  g_assert_cmpstr (exec, ==, "triage --gapplication-service");
  if (validate != NULL)
    {
      const char *argv[] = { validate, path, NULL };
      int wait_status = 0;

      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                   NULL, NULL, &wait_status, NULL));
      g_assert_true (g_spawn_check_wait_status (wait_status, NULL));
    }

  g_settings_set_boolean (settings, "autostart", FALSE);
  app_test_wait_for (!g_file_test (path, G_FILE_TEST_EXISTS), APP_TEST_WAIT_MS);
}

/* The stack of a shortcuts section's pages ("_1", "_2"…) under @widget. */
static GtkStack *
find_section_pages (GtkWidget *widget)
{
  if (GTK_IS_STACK (widget) && gtk_stack_get_child_by_name (GTK_STACK (widget), "_1") != NULL)
    return GTK_STACK (widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkStack *found = find_section_pages (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* Every shortcut the app sets is listed in the shortcuts window, and every
 * shortcut listed there by action is set. */
void
test_app_shortcuts_listed (void)
{
  g_autoptr(GtkBuilder) builder =
    gtk_builder_new_from_resource ("/io/github/atptriage/Triage/gtk/help-overlay.ui");
  g_autoptr(GHashTable) listed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) actions = gtk_application_list_action_descriptions (GTK_APPLICATION (test_app));
  GSList *objects = gtk_builder_get_objects (builder);
  const struct { const char *action; const char *accel; } expected[] = {
    { "win.search", "<Control>f" },
    { "win.next-request", "<Control>Page_Down" },
    { "win.previous-request", "<Control>Page_Up" },
    { "win.open-request", "<Alt>Right" },
    { "win.back", "<Alt>Left" },
    { "win.show-view::history", "<Control>h" },
    { "app.quit", "<Control>q" },
    { "win.show-help-overlay", "<Control>question" },
  };

  test_app_window ();

  /* Named, for a screen reader and the window list: GTK 4.8 would say
   * "GtkShortcutsWindow". */
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (gtk_builder_get_object (builder, "help_overlay"))),
                   ==, "Keyboard Shortcuts");

  /* All on one page: GTK 4.8 lays a section that needs two out last page
   * first, so the window opened on the preview's and the general keys, the
   * requests' and the answers' one click away behind "2". */
  {
    GtkStack *stack = find_section_pages (GTK_WIDGET (gtk_builder_get_object (builder, "help_overlay")));
    g_autoptr(GtkSelectionModel) pages = NULL;

    g_assert_nonnull (stack);
    pages = gtk_stack_get_pages (stack);
    g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (pages)), ==, 1);
  }

  for (GSList *l = objects; l != NULL; l = l->next)
    if (GTK_IS_SHORTCUTS_SHORTCUT (l->data))
      {
        g_autofree char *name = NULL;

        g_object_get (l->data, "action-name", &name, NULL);
        if (name != NULL)
          {
            g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (test_app),
                                                                          name);

            if (accels[0] == NULL)
              g_error ("the shortcuts window lists %s, which has no key", name);
            g_hash_table_add (listed, g_steal_pointer (&name));
          }
      }
  g_slist_free (objects);

  for (guint i = 0; actions[i] != NULL; i++)
    if (!g_hash_table_contains (listed, actions[i]))
      g_error ("%s has a key but is not in the shortcuts window", actions[i]);

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (test_app),
                                                                     expected[i].action);

      g_assert_true (g_strv_contains ((const char * const *) accels, expected[i].accel));
    }
}

/* The status icon's menu, used as a tray would: over D-Bus, from a
 * connection of its own (the app answers on the main loop). */

typedef struct
{
  GDBusConnection *bus;
  char            *name;
} TrayHost;

static void
tray_host_init (TrayHost *host)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *address = g_dbus_address_get_for_bus_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_autofree char *prefix = g_strdup_printf ("org.kde.StatusNotifierItem-%d-", getpid ());
  g_autoptr(GVariant) names = NULL;
  g_autofree const char **list = NULL;

  g_assert_no_error (error);
  host->bus = g_dbus_connection_new_for_address_sync (address,
                                                      G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                      G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                      NULL, NULL, &error);
  g_assert_no_error (error);
  /* The bus answers this one itself: a synchronous call is fine. */
  names = g_dbus_connection_call_sync (host->bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "ListNames", NULL,
                                       G_VARIANT_TYPE ("(as)"), G_DBUS_CALL_FLAGS_NONE, 5000,
                                       NULL, &error);
  g_assert_no_error (error);
  g_variant_get (names, "(^a&s)", &list);
  for (guint i = 0; list[i] != NULL && host->name == NULL; i++)
    if (g_str_has_prefix (list[i], prefix))
      host->name = g_strdup (list[i]);
  if (host->name == NULL)
    g_error ("the app's status icon is not on the bus");
}

static void
tray_host_clear (TrayHost *host)
{
  g_clear_object (&host->bus);
  g_clear_pointer (&host->name, g_free);
}

/* Calls the menu while the main loop runs (the app answers on it). */
static GVariant *
tray_host_call (TrayHost   *host,
                const char *method,
                GVariant   *parameters)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GVariant *reply;

  g_dbus_connection_call (host->bus, host->name, "/MenuBar", "com.canonical.dbusmenu", method,
                          parameters, NULL, G_DBUS_CALL_FLAGS_NONE, 5000, NULL,
                          app_test_result_cb, &result);
  app_test_wait_result (result);
  reply = g_dbus_connection_call_finish (host->bus, result, &error);
  g_assert_no_error (error);

  return reply;
}

/* Clicks the menu item whose label starts with @label (unless @click is
 * FALSE); its id, -1 if none. */
static int
tray_host_find (TrayHost   *host,
                const char *label,
                gboolean    click)
{
  g_autoptr(GVariant) layout = tray_host_call (host, "GetLayout",
                                               g_variant_new ("(ii^as)", 0, -1, (const char *[]) { NULL }));
  g_autoptr(GVariant) root = g_variant_get_child_value (layout, 1);
  g_autoptr(GVariant) children = g_variant_get_child_value (root, 2);

  for (gsize i = 0; i < g_variant_n_children (children); i++)
    {
      g_autoptr(GVariant) boxed = g_variant_get_child_value (children, i);
      g_autoptr(GVariant) item = g_variant_get_variant (boxed);
      g_autoptr(GVariant) props = g_variant_get_child_value (item, 1);
      const char *text = NULL;
      int id;

      g_variant_get_child (item, 0, "i", &id);
      if (g_variant_lookup (props, "label", "&s", &text) && g_str_has_prefix (text, label))
        {
          if (click)
            g_variant_unref (tray_host_call (host, "Event",
                                             g_variant_new ("(isvu)", id, "clicked",
                                                            g_variant_new_int32 (0), 0)));
          return id;
        }
    }

  return -1;
}

/* The status icon's property @name. */
static GVariant *
tray_host_get_property (TrayHost   *host,
                        const char *name)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;
  GVariant *value;

  g_dbus_connection_call (host->bus, host->name, "/StatusNotifierItem",
                          "org.freedesktop.DBus.Properties", "Get",
                          g_variant_new ("(ss)", "org.kde.StatusNotifierItem", name),
                          G_VARIANT_TYPE ("(v)"), G_DBUS_CALL_FLAGS_NONE, 5000, NULL,
                          app_test_result_cb, &result);
  app_test_wait_result (result);
  reply = g_dbus_connection_call_finish (host->bus, result, &error);
  g_assert_no_error (error);
  g_variant_get (reply, "(v)", &value);

  return value;
}

/* Whether the status icon's tooltip says @text (among its lines). */
static gboolean
tray_host_tooltip_says (TrayHost   *host,
                        const char *text)
{
  g_autoptr(GVariant) tooltip = tray_host_get_property (host, "ToolTip");
  g_autoptr(GVariant) body = g_variant_get_child_value (tooltip, 3);

  return strstr (g_variant_get_string (body, NULL), text) != NULL;
}

static int
tray_host_click (TrayHost   *host,
                 const char *label)
{
  return tray_host_find (host, label, TRUE);
}

static gboolean
preferences_shown (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (toplevels, i);

      if (TRIAGE_IS_PREFERENCES_WINDOW (item) && gtk_widget_get_visible (GTK_WIDGET (item)))
        return TRUE;
    }

  return FALSE;
}

void
test_app_tray_menu (void)
{
  g_autoptr(GSettings) settings = g_settings_new (TRIAGE_SETTINGS_SCHEMA);
  TrayHost host = { 0 };
  g_autofree char *id = NULL;

  test_app_wait_connected ();
  tray_host_init (&host);
  id = app_test_server_post (test_app_server, "Opened from the tray menu?",
                             "[{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}]");
  app_test_wait_for (triage_inbox_model_lookup (triage_application_get_inbox (test_app), id) != NULL,
                     APP_TEST_WAIT_MS);
  /* The menu follows the inbox on an idle. */
  app_test_wait_for (tray_host_find (&host, "Opened from the tray menu?", FALSE) > 0,
                     APP_TEST_WAIT_MS);

  /* A request: the window shows it. */
  g_assert_cmpint (tray_host_click (&host, "Opened from the tray menu?"), >, 0);
  app_test_wait_for (test_app_shows_request (id), APP_TEST_WAIT_MS);
  g_assert_true (triage_read_state_is_read (triage_inbox_pane_get_read_state (
                   triage_window_get_inbox_pane (test_app_window ())), id));

  /* Do Not Disturb: the setting, both ways. */
  g_assert_false (g_settings_get_boolean (settings, "do-not-disturb"));
  tray_host_click (&host, "_Do Not Disturb");
  app_test_wait_for (g_settings_get_boolean (settings, "do-not-disturb"), APP_TEST_WAIT_MS);
  tray_host_click (&host, "_Do Not Disturb");
  app_test_wait_for (!g_settings_get_boolean (settings, "do-not-disturb"), APP_TEST_WAIT_MS);

  /* Preferences: its window. */
  g_assert_false (preferences_shown ());
  tray_host_click (&host, "_Preferences");
  app_test_wait_for (preferences_shown (), APP_TEST_WAIT_MS);

  /* Open Triage: the window again once closed. */
  gtk_window_destroy (GTK_WINDOW (test_app_window ()));
  app_test_wait_for (triage_application_get_window (test_app) == NULL, APP_TEST_WAIT_MS);
  tray_host_click (&host, "_Open Triage");
  app_test_wait_for (triage_application_get_window (test_app) != NULL &&
                     gtk_widget_get_visible (GTK_WIDGET (triage_application_get_window (test_app))),
                     APP_TEST_WAIT_MS);

  tray_host_clear (&host);
}

/* Answered here while the server is away: the answer waits in the outbox,
 * the request stays listed (its row says so), and no longer waits for the
 * person: the badge, the list's count and the tray say nothing waits. */
void
test_app_answer_queued_not_waiting (void)
{
  TrayHost host = { 0 };
  g_autofree char *id = NULL;
  g_autofree char *waiting = NULL;
  g_autofree char *still_waiting = NULL;
  TriageInboxModel *inbox = triage_application_get_inbox (test_app);
  AdwViewStackPage *page;
  guint n;

  test_app_wait_connected ();
  tray_host_init (&host);
  id = app_test_server_post (test_app_server, "Counted until answered?",
                             "[{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}]");
  test_app_open_request (id);
  /* Those left by the tests before wait too. */
  n = g_list_model_get_n_items (G_LIST_MODEL (inbox));
  page = ADW_VIEW_STACK_PAGE (gtk_widget_get_template_child (GTK_WIDGET (test_app_window ()),
                                                             TRIAGE_TYPE_WINDOW, "inbox_page"));
  waiting = g_strdup_printf (n == 1 ? "%u request waiting" : "%u requests waiting", n);
  app_test_wait_for (adw_view_stack_page_get_badge_number (page) == n, APP_TEST_WAIT_MS);
  app_test_wait_for (tray_host_tooltip_says (&host, waiting), APP_TEST_WAIT_MS);
  g_assert_cmpint (tray_host_find (&host, "Counted until answered?", FALSE), >, 0);

  app_test_server_stop (test_app_server, TRUE);
  app_test_wait_for (triage_application_get_connection (test_app) != TRIAGE_CONNECTION_CONNECTED,
                     APP_TEST_WAIT_MS);
  test_app_respond (id, "ok", "null");
  app_test_wait_for (triage_outbox_get_n_pending (triage_application_get_outbox (test_app)) == 1,
                     APP_TEST_WAIT_MS);

  /* Within the 5 s after which the app would start a server of its own
   * (which would refuse the answer, and the request would leave). */
  g_assert_nonnull (triage_inbox_model_lookup (inbox, id));
  g_assert_cmpuint (triage_inbox_model_get_n_waiting (inbox), ==, n - 1);
  app_test_wait_for (adw_view_stack_page_get_badge_number (page) == n - 1, APP_TEST_WAIT_MS);
  still_waiting = n - 1 == 0 ? g_strdup ("No requests waiting")
                             : g_strdup_printf (n == 2 ? "%u request waiting" : "%u requests waiting",
                                                n - 1);
  app_test_wait_for (tray_host_tooltip_says (&host, still_waiting), APP_TEST_WAIT_MS);
  g_assert_cmpint (tray_host_find (&host, "Counted until answered?", FALSE), ==, -1);
  /* Still listed, its answer still waiting for the server. */
  g_assert_nonnull (triage_inbox_model_lookup (inbox, id));
  g_assert_cmpuint (triage_outbox_get_n_pending (triage_application_get_outbox (test_app)), ==, 1);

  /* Sent once the server is back, and gone from the inbox. */
  app_test_server_start (test_app_server);
  g_action_group_activate_action (G_ACTION_GROUP (test_app), "retry", NULL);
  app_test_wait_for (test_app_outbox_empty (), 30000);
  app_test_wait_for (triage_inbox_model_lookup (inbox, id) == NULL, APP_TEST_WAIT_MS);
  tray_host_clear (&host);
}
