/* test-tray.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tray item on a private bus (a dbus-daemon of its own), seen from a second connection
 * that plays the StatusNotifierWatcher and the tray host: registration, the
 * item's properties and activation. The menu is in test-tray-menu.c, the
 * fixture in tray-test-common.c.
 */

#define G_LOG_DOMAIN "test-tray"

#include <unistd.h>

#include "tray-test-common.h"

/* ------------------------------------------------------------------ tests */

static void
test_registers_with_watcher (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autofree char *prefix = g_strdup_printf ("org.kde.StatusNotifierItem-%d-", (int) getpid ());

  tray_test_start_watcher (fixture);
  tray_test_create_tray (fixture);

  WAIT_UNTIL (triage_tray_get_registered (fixture->tray));
  g_assert_cmpuint (fixture->registrations->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (fixture->registrations, 0), ==,
                   triage_tray_get_bus_name (fixture->tray));
  g_assert_true (g_str_has_prefix (triage_tray_get_bus_name (fixture->tray), prefix));
  g_assert_cmpstr (fixture->last_sender, ==,
                   g_dbus_connection_get_unique_name (fixture->item_connection));
  g_assert_true (tray_test_item_name_owned (fixture));
  g_assert_cmpuint (fixture->registered_notifies, ==, 1);
}

static void
test_watcher_comes_and_goes (Fixture       *fixture,
                             gconstpointer  data)
{
  tray_test_create_tray (fixture);

  /* No watcher (stock GNOME): the item is on the bus, but nobody shows it. */
  WAIT_UNTIL (tray_test_item_name_owned (fixture));
  tray_test_sync_with_item (fixture);
  g_assert_false (triage_tray_get_registered (fixture->tray));
  g_assert_cmpuint (fixture->registered_notifies, ==, 0);

  tray_test_start_watcher (fixture);
  WAIT_UNTIL (triage_tray_get_registered (fixture->tray));
  g_assert_cmpuint (fixture->registrations->len, ==, 1);

  tray_test_stop_watcher (fixture);
  WAIT_UNTIL (!triage_tray_get_registered (fixture->tray));

  /* A restarted watcher gets the item again. */
  tray_test_start_watcher (fixture);
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
  g_autoptr(GPtrArray) three = tray_test_make_items (3);
  g_autoptr(GPtrArray) one = tray_test_make_items (1);
  g_autofree char *body = NULL;
  const char *s;
  gboolean b;

  tray_test_start_watcher (fixture);
  tray_test_create_tray (fixture);
  WAIT_UNTIL (triage_tray_get_registered (fixture->tray));

  all = tray_test_call (fixture, TRIAGE_TRAY_ITEM_PATH, "org.freedesktop.DBus.Properties", "GetAll",
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
  body = tray_test_get_tooltip_body (fixture);
  g_assert_cmpstr (body, ==, "No requests waiting");
  g_clear_pointer (&body, g_free);

  /* Pending requests: Active, the pending icon, the count in the tooltip. */
  triage_tray_set_pending (fixture->tray, 3, FALSE, three);
  WAIT_UNTIL (tray_test_has_signal (fixture, "NewStatus:Active"));
  tray_test_sync_with_item (fixture);
  g_assert_true (tray_test_has_signal (fixture, "NewIcon"));
  g_assert_true (tray_test_has_signal (fixture, "NewToolTip"));
  g_free (body);
  body = tray_test_get_item_string (fixture, "Status");
  g_assert_cmpstr (body, ==, "Active");
  g_free (body);
  body = tray_test_get_item_string (fixture, "IconName");
  g_assert_cmpstr (body, ==, TRIAGE_TRAY_ICON_PENDING);
  g_free (body);
  body = tray_test_get_tooltip_body (fixture);
  g_assert_cmpstr (body, ==, "3 requests waiting");

  /* Setting the same state again announces nothing. */
  g_ptr_array_set_size (fixture->signals, 0);
  triage_tray_set_pending (fixture->tray, 3, FALSE, three);
  tray_test_sync_with_item (fixture);
  g_assert_cmpuint (tray_test_count_signals (fixture, "NewStatus"), ==, 0);
  g_assert_cmpuint (tray_test_count_signals (fixture, "NewIcon"), ==, 0);
  g_assert_cmpuint (tray_test_count_signals (fixture, "NewToolTip"), ==, 0);

  /* Urgent: NeedsAttention. */
  triage_tray_set_pending (fixture->tray, 1, TRUE, one);
  WAIT_UNTIL (tray_test_has_signal (fixture, "NewStatus:NeedsAttention"));
  g_free (body);
  body = tray_test_get_item_string (fixture, "IconName");
  g_assert_cmpstr (body, ==, TRIAGE_TRAY_ICON_URGENT);
  g_free (body);
  body = tray_test_get_tooltip_body (fixture);
  g_assert_cmpstr (body, ==, "1 request waiting");

  /* Do not disturb shows as an overlay and in the tooltip. */
  triage_tray_set_do_not_disturb (fixture->tray, TRUE);
  WAIT_UNTIL (tray_test_has_signal (fixture, "NewOverlayIcon"));
  g_free (body);
  body = tray_test_get_item_string (fixture, "OverlayIconName");
  g_assert_cmpstr (body, ==, TRIAGE_TRAY_ICON_DND);
  g_free (body);
  body = tray_test_get_tooltip_body (fixture);
  g_assert_cmpstr (body, ==, "1 request waiting (do not disturb)");

  triage_tray_set_pending (fixture->tray, 0, FALSE, NULL);
  WAIT_UNTIL (tray_test_has_signal (fixture, "NewStatus:Passive"));
  g_free (body);
  body = tray_test_get_item_string (fixture, "IconName");
  g_assert_cmpstr (body, ==, TRIAGE_TRAY_ICON_IDLE);
}

static void
test_activate (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GPtrArray) items = tray_test_make_items (2);
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  tray_test_create_tray (fixture);
  WAIT_UNTIL (tray_test_item_name_owned (fixture));

  reply = tray_test_call (fixture, TRIAGE_TRAY_ITEM_PATH, ITEM_INTERFACE, "Activate",
                          g_variant_new ("(ii)", 10, 20), NULL, &error);
  g_assert_no_error (error);
  WAIT_UNTIL (tray_test_has_activation (fixture, "show"));
  g_clear_pointer (&reply, g_variant_unref);

  /* Middle click opens the first waiting request. */
  triage_tray_set_pending (fixture->tray, 2, FALSE, items);
  reply = tray_test_call (fixture, TRIAGE_TRAY_ITEM_PATH, ITEM_INTERFACE, "SecondaryActivate",
                          g_variant_new ("(ii)", 0, 0), NULL, &error);
  g_assert_no_error (error);
  WAIT_UNTIL (tray_test_has_activation (fixture, "open-request:req-0"));
  g_clear_pointer (&reply, g_variant_unref);

  /* Scrolling is accepted and does nothing. */
  reply = tray_test_call (fixture, TRIAGE_TRAY_ITEM_PATH, ITEM_INTERFACE, "Scroll",
                          g_variant_new ("(is)", 1, "vertical"), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fixture->activations->len, ==, 2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  TRAY_TEST_ADD ("/tray/registers-with-watcher", test_registers_with_watcher);
  TRAY_TEST_ADD ("/tray/watcher-comes-and-goes", test_watcher_comes_and_goes);
  TRAY_TEST_ADD ("/tray/item-properties", test_item_properties);
  TRAY_TEST_ADD ("/tray/activate", test_activate);
  tray_test_add_menu ();

  return g_test_run ();
}
