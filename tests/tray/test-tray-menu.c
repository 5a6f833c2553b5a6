/* test-tray-menu.c — test-tray's menu tests: the com.canonical.dbusmenu layout and events
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-tray"

#include "midnight-test-util.h"
#include "tray-test-common.h"

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

  reply = tray_test_call (fixture, TRIAGE_TRAY_MENU_PATH, MENU_INTERFACE, "GetLayout",
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
entry_label (const Entry *entry);

/* The first entry's label, read again. */
static char *
first_label (Fixture *fixture)
{
  guint revision;
  g_autoptr(GArray) menu = get_menu (fixture, &revision);

  return g_strdup (entry_label (&g_array_index (menu, Entry, 0)));
}

/* A deadline "due tomorrow" says "due" once midnight has passed. */
static void
test_menu_day_changes (Fixture       *fixture,
                       gconstpointer  data)
{
  char *old_zone = midnight_test_set_zone (8);
  g_autoptr(GPtrArray) items = tray_test_make_items (1);
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *label = NULL;

  ((TriageTrayItem *) g_ptr_array_index (items, 0))->deadline = g_date_time_add_hours (now, 10);
  tray_test_create_tray (fixture);
  WAIT_UNTIL (tray_test_item_name_owned (fixture));
  triage_tray_set_pending (fixture->tray, 1, FALSE, items);
  label = first_label (fixture);
  g_assert_nonnull (strstr (label, "due tomorrow"));

  WAIT_UNTIL ((g_free (label), label = first_label (fixture), strstr (label, "tomorrow") == NULL));
  g_assert_nonnull (strstr (label, "— due "));
  midnight_test_restore_zone (old_zone);
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

  reply = tray_test_call (fixture, TRIAGE_TRAY_MENU_PATH, MENU_INTERFACE, "Event",
                          g_variant_new ("(isvu)", id, event, g_variant_new_int32 (0), 0),
                          NULL, error);
}

/* ------------------------------------------------------------------ tests */

static void
test_menu_layout (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GPtrArray) items = tray_test_make_items (12);
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

  tray_test_create_tray (fixture);
  WAIT_UNTIL (tray_test_item_name_owned (fixture));

  menu = get_menu (fixture, &first_revision);
  g_assert_cmpstr (entry_label (&g_array_index (menu, Entry, 0)), ==, "No requests waiting");
  g_assert_false (entry_enabled (&g_array_index (menu, Entry, 0)));
  g_clear_pointer (&menu, g_array_unref);

  /* A title that would be a mnemonic, a second line and an invisible
   * override; the joiners a Persian word and an emoji need stay. */
  g_free (((TriageTrayItem *) g_ptr_array_index (items, 0))->title);
  ((TriageTrayItem *) g_ptr_array_index (items, 0))->title =
    g_strdup ("Deploy fix_bug\nnow\xe2\x80\xae! می\u200cخواهید 👩\u200d💻");
  ((TriageTrayItem *) g_ptr_array_index (items, 0))->deadline = g_date_time_ref (deadline);

  triage_tray_set_pending (fixture->tray, 12, FALSE, items);
  menu = get_menu (fixture, &revision);
  g_assert_cmpuint (revision, >, first_revision);

  due = g_date_time_format (deadline, "%H:%M");
  expected = g_strdup_printf ("Deploy fix__bug now! می\u200cخواهید 👩\u200d💻 — due %s", due);
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
  tray_test_sync_with_item (fixture);
  {
    g_autofree char *signal = g_strdup_printf ("LayoutUpdated:%u", revision);

    g_assert_true (tray_test_has_signal (fixture, signal));
  }

  /* Depth 0: the root alone; a property filter; an unknown parent. */
  reply = tray_test_call (fixture, TRIAGE_TRAY_MENU_PATH, MENU_INTERFACE, "GetLayout",
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

    reply = tray_test_call (fixture, TRIAGE_TRAY_MENU_PATH, MENU_INTERFACE, "GetGroupProperties",
                            g_variant_new ("(@ai@as)",
                                           g_variant_new_fixed_array (G_VARIANT_TYPE_INT32, &quit,
                                                                      1,
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

  reply = tray_test_call (fixture, TRIAGE_TRAY_MENU_PATH, MENU_INTERFACE, "GetLayout",
                          g_variant_new ("(ii@as)", 4242, -1, g_variant_new_strv (NULL, 0)),
                          G_VARIANT_TYPE ("(u(ia{sv}av))"), &error);
  g_assert_error (error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS);
  g_assert_null (reply);
  g_clear_error (&error);

  reply = tray_test_call (fixture, TRIAGE_TRAY_MENU_PATH, MENU_INTERFACE, "AboutToShow",
                          g_variant_new ("(i)", 0), G_VARIANT_TYPE ("(b)"), &error);
  g_assert_no_error (error);
  g_clear_pointer (&reply, g_variant_unref);

  reply = tray_test_call (fixture, TRIAGE_TRAY_MENU_PATH, "org.freedesktop.DBus.Properties", "Get",
                          g_variant_new ("(ss)", MENU_INTERFACE,
                                         "Version"), G_VARIANT_TYPE ("(v)"), &error);
  g_assert_no_error (error);
  g_variant_get (reply, "(v)", &version);
  g_assert_cmpuint (g_variant_get_uint32 (version), ==, 3);
}

static void
test_menu_events (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GPtrArray) items = tray_test_make_items (3);
  g_autoptr(GArray) menu = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  guint revision;
  int quit;

  tray_test_create_tray (fixture);
  WAIT_UNTIL (tray_test_item_name_owned (fixture));
  triage_tray_set_pending (fixture->tray, 3, FALSE, items);
  menu = get_menu (fixture, &revision);

  /* Clicking a request opens that request. */
  send_event (fixture, find_entry (menu, "Request 1"), "clicked", &error);
  g_assert_no_error (error);
  WAIT_UNTIL (tray_test_has_activation (fixture, "open-request:req-1"));

  /* Hovering does nothing. */
  send_event (fixture, find_entry (menu, "Request 2"), "hovered", &error);
  g_assert_no_error (error);
  tray_test_sync_with_item (fixture);
  g_assert_false (tray_test_has_activation (fixture, "open-request:req-2"));

  send_event (fixture, find_entry (menu, "_Open Triage"), "clicked", &error);
  g_assert_no_error (error);
  WAIT_UNTIL (tray_test_has_activation (fixture, "show"));

  send_event (fixture, find_entry (menu, "_Preferences"), "clicked", &error);
  g_assert_no_error (error);
  WAIT_UNTIL (tray_test_has_activation (fixture, "preferences"));

  /* The quit reply arrives before the action runs (it may end the process). */
  quit = find_entry (menu, "_Quit");
  send_event (fixture, quit, "clicked", &error);
  g_assert_no_error (error);
  WAIT_UNTIL (tray_test_has_activation (fixture, "quit"));

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
    reply = tray_test_call (fixture, TRIAGE_TRAY_MENU_PATH, MENU_INTERFACE, "EventGroup",
                            g_variant_new ("(a(isvu))", &events), G_VARIANT_TYPE ("(ai)"), &error);
    g_assert_no_error (error);
    errors = g_variant_get_child_value (reply, 0);
    g_assert_cmpuint (g_variant_n_children (errors), ==, 1);
    {
      int unknown = -1;

      g_variant_get_child (errors, 0, "i", &unknown);
      g_assert_cmpint (unknown, ==, 4243);
    }
    WAIT_UNTIL (tray_test_has_activation (fixture, "open-request:req-0"));
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

  tray_test_create_tray (fixture);
  WAIT_UNTIL (tray_test_item_name_owned (fixture));

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
  tray_test_sync_with_item (fixture);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (fixture->activations->len, ==, 0);
}

void
tray_test_add_menu (void)
{
  TRAY_TEST_ADD ("/tray/menu-layout", test_menu_layout);
  TRAY_TEST_ADD ("/tray/menu-day-changes", test_menu_day_changes);
  TRAY_TEST_ADD ("/tray/menu-events", test_menu_events);
  TRAY_TEST_ADD ("/tray/disabled-action", test_disabled_action);
}
