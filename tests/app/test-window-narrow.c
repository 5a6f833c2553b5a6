/* test-window-narrow.c — test-window's narrow window (a phone, a tiled half
 * screen), and one with large text and the dark style
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ui-test-util.h"
#include "window-test-common.h"

static int
window_width (TriageWindow *window)
{
  return ui_test_window_width (GTK_WIDGET (window));
}

static int
minimum_width (TriageWindow *window)
{
  return ui_test_minimum_width (GTK_WIDGET (window),
                                adw_application_window_get_content (ADW_APPLICATION_WINDOW (window)));
}

/* Every page of the window fits 360 pixels, with long names from agents. */
static void
assert_fits_360 (TriageWindow *window)
{
  AdwLeaflet *leaflet = window_test_child (window, "leaflet");

  gtk_window_set_default_size (GTK_WINDOW (window), 360, 640);
  app_test_wait_for (window_width (window) == 360 && adw_leaflet_get_folded (leaflet),
                     APP_TEST_WAIT_MS);
  if (minimum_width (window) > 360)
    g_error ("the window needs %d pixels, more than 360", minimum_width (window));

  triage_window_show_view (window, "history");
  app_test_wait_for (gtk_widget_get_mapped (GTK_WIDGET (triage_window_get_history_view (window))),
                     APP_TEST_WAIT_MS);
  app_test_spin (50);
  g_assert_cmpint (window_width (window), ==, 360);
  g_assert_cmpint (minimum_width (window), <=, 360);
  triage_window_show_view (window, "inbox");
}

static void
test_narrow (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  g_autoptr(AtpNotification) a = app_test_notification (WINDOW_TEST_ID_A, 60, 10, NULL);
  TriageWindow *window = window_test_new_window (model);
  AdwLeaflet *leaflet = window_test_child (window, "leaflet");
  GtkWidget *sidebar = window_test_child (window, "sidebar");
  GtkWidget *content = window_test_child (window, "content");

  triage_inbox_model_add (model, a, NULL);

  /* Wide: list and request side by side. */
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  app_test_wait_for (window_width (window) == 1000, APP_TEST_WAIT_MS);
  g_assert_false (adw_leaflet_get_folded (leaflet));

  /* 360 pixels: folded, one at a time, the list first. */
  assert_fits_360 (window);
  g_assert_true (adw_leaflet_get_visible_child (leaflet) == sidebar);
  /* The views still switch from the header (icons above their names). */
  g_assert_true (gtk_widget_get_mapped (window_test_child (window, "inbox_switcher_narrow")));

  /* A request opened takes the whole window; back (Alt+Left) returns. */
  g_assert_true (triage_window_show_request (window, WINDOW_TEST_ID_A));
  g_assert_true (adw_leaflet_get_visible_child (leaflet) == content);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.back", NULL);
  g_assert_true (adw_leaflet_get_visible_child (leaflet) == sidebar);

  /* Widened again with a request open: side by side. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.next-request", NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  app_test_wait_for (!adw_leaflet_get_folded (leaflet), APP_TEST_WAIT_MS);
  g_assert_true (gtk_widget_get_mapped (sidebar));
  g_assert_true (gtk_widget_get_mapped (content));

  window_test_destroy_window (window);
}

/* Long names, large text (1.5 ×) and the dark style, at 360 pixels. */
static void
test_large_text_dark (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  g_autoptr(AtpNotification) a = NULL;
  GtkSettings *settings = gtk_settings_get_default ();
  AdwStyleManager *style = adw_style_manager_get_default ();
  TriageWindow *window;
  GtkWidget *label;
  GdkRGBA color;
  int dpi = 0;
  const char *long_service =
    "{\"id\": \"" WINDOW_TEST_ID_A "\", \"version\": \"1.0\","
    " \"timestamp\": \"2026-03-02T10:00:00Z\","
    " \"service\": {\"id\": \"ci\", \"name\": \"Continuous deployment pipeline of the web shop\"},"
    " \"context\": {\"title\": \"Roll the payment service back to the release of last Tuesday?\","
    "   \"description\": \"A long one.\", \"project\": \"payments-and-invoicing-platform\"},"
    " \"actions\": [{\"id\": \"ok\", \"label\": \"Roll back the payment service now\","
    "   \"response_type\": \"simple\"}], \"status\": \"delivered\"}";

  a = atp_notification_new_from_data (long_service, -1, ATP_PARSE_DEFAULT, NULL);
  g_assert_nonnull (a);
  triage_inbox_model_add (model, a, NULL);

  g_object_get (settings, "gtk-xft-dpi", &dpi, NULL);
  g_object_set (settings, "gtk-xft-dpi", 96 * 1024 * 3 / 2, NULL);
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_DARK);

  window = window_test_new_window (model);
  g_assert_true (adw_style_manager_get_dark (style));
  /* Dark for real: the text is light. */
  label = window_test_child (window, "connection_label");
  gtk_style_context_get_color (gtk_widget_get_style_context (label), &color);
  g_assert_cmpfloat (color.red + color.green + color.blue, >, 1.5);

  assert_fits_360 (window);
  g_assert_true (triage_window_show_request (window, WINDOW_TEST_ID_A));
  app_test_spin (50);
  g_assert_cmpint (window_width (window), ==, 360);

  window_test_destroy_window (window);
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
  g_object_set (settings, "gtk-xft-dpi", dpi, NULL);
}

void
window_test_add_narrow (void)
{
  g_test_add_func ("/window/narrow", test_narrow);
  g_test_add_func ("/window/large-text-dark", test_large_text_dark);
}
