/* test-window.c — the main window: inbox pane, connection bar, keyboard triage,
 * the history view, a narrow, large-text or dark window, previews over the request
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <adwaita.h>
#include <string.h>

#include "app-test-common.h"
#include "browse-test-common.h"
#include "triage-attachment-page.h"
#include "triage-attachment-view.h"
#include "triage-decision-view.h"
#include "triage-request-banner.h"
#include "triage-window.h"
#include "ui-test-util.h"

#define ID_A "0a6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"
#define ID_B "1b6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"
#define ID_C "2c6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"

typedef struct
{
  char     *id;
  char     *action_id;
  JsonNode *data;
} Submitted;

static void
on_submit (TriageWindow *window,
           const char   *id,
           const char   *action_id,
           JsonNode     *data,
           Submitted    *out)
{
  out->id = g_strdup (id);
  out->action_id = g_strdup (action_id);
  out->data = data ? json_node_copy (data) : NULL;
}

static gpointer
child (TriageWindow *window,
       const char   *name)
{
  return gtk_widget_get_template_child (GTK_WIDGET (window), TRIAGE_TYPE_WINDOW, name);
}

static TriageWindow *
new_window (TriageInboxModel *model)
{
  TriageWindow *window = triage_window_new (NULL, model);

  g_object_ref_sink (window);
  gtk_window_present (GTK_WINDOW (window));

  return window;
}

/* Gone with everything in it (the views too: the switchers in their headers
 * hold the stack they are in). */
static void
destroy_window (TriageWindow *window)
{
  gpointer pane = triage_window_get_inbox_pane (window);
  gpointer history = triage_window_get_history_view (window);

  g_object_add_weak_pointer (G_OBJECT (pane), &pane);
  g_object_add_weak_pointer (G_OBJECT (history), &history);
  gtk_window_destroy (GTK_WINDOW (window));
  app_test_finalize_object (window);
  app_test_wait_for (pane == NULL && history == NULL, APP_TEST_WAIT_MS);
}

static const char *
current_id (TriageWindow *window)
{
  TriageRequest *request = triage_window_get_current_request (window);

  return request ? triage_request_get_id (request) : NULL;
}

static void
test_inbox_pane (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  g_autoptr(AtpNotification) a = app_test_notification (ID_A, 60, 10, NULL);
  TriageWindow *window = new_window (model);
  TriageInboxPane *pane = triage_window_get_inbox_pane (window);
  GtkStack *content_stack = child (window, "content_stack");

  /* The first-run help, then the list. */
  g_assert_cmpint (triage_inbox_pane_get_state (pane), ==, TRIAGE_INBOX_PANE_EMPTY);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (content_stack), ==, "placeholder");
  triage_inbox_model_add (model, a, NULL);
  g_assert_cmpint (triage_inbox_pane_get_state (pane), ==, TRIAGE_INBOX_PANE_LIST);
  g_assert_cmpuint (g_list_model_get_n_items (triage_inbox_pane_get_visible_model (pane)), ==, 1);

  /* Opened as from a bubble: shown in the decision view, selected in the list. */
  g_assert_null (triage_window_get_current_request (window));
  g_assert_true (triage_window_show_request (window, ID_A));
  g_assert_cmpstr (current_id (window), ==, ID_A);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (content_stack), ==, "decision");
  g_assert_true (triage_inbox_pane_get_selected_request (pane) == triage_window_get_current_request (window));
  g_assert_false (triage_window_show_request (window, ID_B));

  /* A search that hides it makes way when it is opened from outside. */
  triage_inbox_pane_set_search_text (pane, "nothing matches this");
  app_test_wait_for (triage_inbox_pane_get_state (pane) == TRIAGE_INBOX_PANE_NO_RESULTS, APP_TEST_WAIT_MS);
  g_assert_true (triage_window_show_request (window, ID_A));
  app_test_wait_for (triage_inbox_pane_get_state (pane) == TRIAGE_INBOX_PANE_LIST, APP_TEST_WAIT_MS);

  destroy_window (window);
}

static void
test_connection_bar (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  g_autoptr(AtpNotification) a = app_test_notification (ID_A, 60, 10, NULL);
  TriageWindow *window = new_window (model);
  GtkWidget *switcher = child (window, "inbox_switcher");
  AdwViewStackPage *page = child (window, "inbox_page");
  GtkRevealer *revealer = child (window, "connection_revealer");
  GtkWidget *retry = child (window, "retry_button");

  triage_window_set_connection (window, TRIAGE_CONNECTION_CONNECTED, NULL, 0);
  g_assert_false (gtk_revealer_get_reveal_child (revealer));
  g_assert_cmpstr (triage_window_get_connection_text (window), ==, "Connected");
  /* The number pending is the inbox's badge; the switcher's tooltip says
   * it with the connection. */
  g_assert_cmpstr (gtk_widget_get_tooltip_text (switcher), ==, "Connected");
  g_assert_false (adw_view_stack_page_get_needs_attention (page));
  triage_inbox_model_add (model, a, NULL);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (switcher), ==, "Connected · 1 pending");
  g_assert_cmpuint (adw_view_stack_page_get_badge_number (page), ==, 1);
  /* In the accent's colours (a plain badge is grey on the grey button). */
  g_assert_true (adw_view_stack_page_get_needs_attention (page));

  triage_window_set_connection (window, TRIAGE_CONNECTION_RECONNECTING, "Connection refused",
                                g_get_monotonic_time () + 4 * G_USEC_PER_SEC);
  g_assert_true (gtk_revealer_get_reveal_child (revealer));
  g_assert_true (gtk_widget_get_visible (retry));
  g_assert_nonnull (strstr (triage_window_get_connection_text (window), "Reconnecting in 4 seconds"));
  g_assert_nonnull (strstr (triage_window_get_connection_text (window), "Connection refused"));
  /* "Retry Now" is the app.retry action (Ctrl+R). */
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (retry)), ==, "app.retry");

  triage_window_set_connection (window, TRIAGE_CONNECTION_AUTH_FAILED, "The server refused the token.", 0);
  g_assert_nonnull (strstr (triage_window_get_connection_text (window), "Sign-in failed"));
  g_assert_true (gtk_widget_get_visible (retry));

  g_assert_cmpstr (gtk_widget_get_tooltip_text (switcher), ==, "1 pending");

  triage_window_set_connection (window, TRIAGE_CONNECTION_OFFLINE, NULL, 0);
  g_assert_cmpstr (triage_window_get_connection_text (window), ==, "Offline");

  /* No network: still retried, and says when. */
  triage_window_set_connection (window, TRIAGE_CONNECTION_OFFLINE, NULL,
                                g_get_monotonic_time () + 9 * G_USEC_PER_SEC);
  g_assert_nonnull (strstr (triage_window_get_connection_text (window), "Trying again in 9 seconds"));
  g_assert_true (gtk_widget_get_visible (retry));

  destroy_window (window);
}

static void
test_request_kept_when_settled (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  g_autoptr(AtpNotification) a = app_test_notification (ID_A, 60, 10, NULL);
  g_autoptr(TriageRequest) removed = NULL;
  TriageWindow *window = new_window (model);
  TriageRequest *current;

  triage_inbox_model_add (model, a, NULL);
  g_assert_true (triage_window_show_request (window, ID_A));
  current = triage_window_get_current_request (window);

  /* Answered elsewhere while open: it leaves the list, stays in the view. */
  removed = triage_inbox_model_remove (model, ID_A);
  triage_request_set_status (removed, ATP_STATUS_RESPONDED);
  g_assert_true (triage_window_get_current_request (window) == current);
  g_assert_true (triage_decision_view_get_read_only (TRIAGE_DECISION_VIEW (triage_window_get_decision_view (window))));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 0);

  destroy_window (window);
}

static void
test_submit_forwarded (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  g_autoptr(AtpNotification) a = app_test_notification (ID_A, 60, 10, NULL);
  g_autoptr(JsonNode) data = json_node_new (JSON_NODE_NULL);
  TriageWindow *window = new_window (model);
  Submitted submitted = { 0 };

  g_signal_connect (window, "submit", G_CALLBACK (on_submit), &submitted);
  triage_inbox_model_add (model, a, NULL);
  triage_window_show_request (window, ID_A);

  g_signal_emit_by_name (triage_window_get_decision_view (window), "submit", "ok", data);
  g_assert_cmpstr (submitted.id, ==, ID_A);
  g_assert_cmpstr (submitted.action_id, ==, "ok");
  g_assert_nonnull (submitted.data);

  g_free (submitted.id);
  g_free (submitted.action_id);
  json_node_unref (submitted.data);
  destroy_window (window);
}

/* Three requests, due in 1, 2 and 3 minutes: the list's order is A, B, C. */
static TriageInboxModel *
three_requests (void)
{
  TriageInboxModel *model = triage_inbox_model_new ();
  const char *ids[] = { ID_C, ID_A, ID_B };
  const int due[] = { 180, 60, 120 };

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_autoptr(AtpNotification) n = app_test_notification (ids[i], due[i], 10, NULL);

      triage_inbox_model_add (model, n, NULL);
    }

  return model;
}

static gboolean
focus_inside (TriageWindow *window,
              GtkWidget    *ancestor)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  return focus != NULL && (focus == ancestor || gtk_widget_is_ancestor (focus, ancestor));
}

/* A request opened: the keyboard on its heading, named by its title, never
 * on a control that answers (Enter there would answer it unseen). */
static void
assert_focus_on_heading (TriageWindow *window,
                         GtkWidget    *view)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  g_assert_true (focus_inside (window, view));
  g_assert_false (GTK_IS_BUTTON (focus));
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (focus), GTK_ACCESSIBLE_ROLE_HEADING);
  /* Enter on it (a key held or repeated from the last request) does nothing. */
  g_assert_false (gtk_widget_activate (focus));
}

/* Tab from the heading reaches the first control that answers. */
static GtkWidget *
tab_to_button (TriageWindow *window)
{
  for (guint i = 0; i < 10; i++)
    {
      GtkWidget *focus;

      g_assert_true (gtk_widget_child_focus (GTK_WIDGET (window), GTK_DIR_TAB_FORWARD));
      focus = gtk_root_get_focus (GTK_ROOT (window));
      if (GTK_IS_BUTTON (focus))
        return focus;
    }

  g_assert_not_reached ();
}

static void
test_keyboard_triage (void)
{
  g_autoptr(TriageInboxModel) model = three_requests ();
  TriageWindow *window = new_window (model);
  TriageInboxPane *pane = triage_window_get_inbox_pane (window);
  GtkWidget *view = triage_window_get_decision_view (window);
  GtkWidget *search = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (pane),
                                                                 TRIAGE_TYPE_INBOX_PANE,
                                                                 "search_entry"));
  GtkWidget *list = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (pane),
                                                               TRIAGE_TYPE_INBOX_PANE, "list_view"));

  /* Next with nothing open: the first; then in order, and back. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.next-request", NULL));
  g_assert_cmpstr (current_id (window), ==, ID_A);
  /* Opened: the keyboard is on its heading; Tab goes on to its answer. */
  app_test_wait_for (focus_inside (window, view), APP_TEST_WAIT_MS);
  assert_focus_on_heading (window, view);
  g_assert_true (focus_inside (window, tab_to_button (window)));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.next-request", NULL);
  g_assert_cmpstr (current_id (window), ==, ID_B);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.next-request", NULL);
  g_assert_cmpstr (current_id (window), ==, ID_C);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.next-request", NULL);
  g_assert_cmpstr (current_id (window), ==, ID_C);   /* the last stays */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.previous-request", NULL);
  g_assert_cmpstr (current_id (window), ==, ID_B);

  /* Ctrl+F: the search; typing narrows the list; Enter opens the match. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.search", NULL);
  g_assert_true (focus_inside (window, search));
  triage_inbox_pane_set_search_text (pane, ID_C);
  app_test_wait_for (g_list_model_get_n_items (triage_inbox_pane_get_visible_model (pane)) == 1,
                     APP_TEST_WAIT_MS);
  g_signal_emit_by_name (search, "activate");
  app_test_wait_for (g_strcmp0 (current_id (window), ID_C) == 0, APP_TEST_WAIT_MS);
  app_test_wait_for (focus_inside (window, view), APP_TEST_WAIT_MS);

  /* Alt+Left: back to the list, keyboard included; Alt+Right opens what
   * is selected there. */
  triage_inbox_pane_set_search_text (pane, "");
  app_test_wait_for (g_list_model_get_n_items (triage_inbox_pane_get_visible_model (pane)) == 3,
                     APP_TEST_WAIT_MS);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.back", NULL);
  app_test_wait_for (focus_inside (window, list), APP_TEST_WAIT_MS);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.open-request", NULL);
  g_assert_cmpstr (current_id (window), ==, ID_C);
  g_assert_true (focus_inside (window, view));

  /* Alt+2 / Alt+1: the views, the keyboard in the history's search. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-view", "s", "history");
  g_assert_cmpstr (triage_window_get_view (window), ==, "history");
  g_assert_true (focus_inside (window, GTK_WIDGET (triage_window_get_history_view (window))));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-view", "s", "inbox");
  g_assert_cmpstr (triage_window_get_view (window), ==, "inbox");

  destroy_window (window);
}

/* The last request answered with the mouse while the server cannot be
 * reached: the answer waits in the outbox, no request comes next, and the
 * button clicked (which had the focus) is insensitive now. The keyboard is
 * left on the request, whose queued state it can read, never nowhere. */
static void
test_answer_queued_keeps_focus (void)
{
  g_autoptr(TriageInboxModel) model = three_requests ();
  g_autoptr(JsonNode) data = json_node_new (JSON_NODE_NULL);
  TriageWindow *window = new_window (model);
  GtkWidget *view = triage_window_get_decision_view (window);
  GtkWidget *button;
  GtkWidget *focus;

  triage_window_set_connection (window, TRIAGE_CONNECTION_RECONNECTING, "Connection refused",
                                g_get_monotonic_time () + 60 * G_USEC_PER_SEC);
  g_assert_true (triage_window_show_request (window, ID_C));
  app_test_wait_for (focus_inside (window, view), APP_TEST_WAIT_MS);
  button = tab_to_button (window);

  g_signal_emit_by_name (button, "clicked");
  triage_request_set_answer_state (triage_window_get_current_request (window), TRIAGE_ANSWER_QUEUED);
  app_test_spin (200);

  g_assert_cmpstr (current_id (window), ==, ID_C);
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_nonnull (focus);
  g_assert_true (gtk_widget_is_sensitive (focus));
  g_assert_true (focus_inside (window, view));
  /* There, a screen reader reads where the answer stands. */
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (focus), GTK_ACCESSIBLE_ROLE_STATUS);

  destroy_window (window);
}

static void
test_answer_then_next (void)
{
  g_autoptr(TriageInboxModel) model = three_requests ();
  g_autoptr(JsonNode) data = json_node_new (JSON_NODE_NULL);
  TriageWindow *window = new_window (model);
  GtkWidget *view = triage_window_get_decision_view (window);
  Submitted submitted = { 0 };

  g_signal_connect (window, "submit", G_CALLBACK (on_submit), &submitted);
  g_assert_true (triage_window_show_request (window, ID_A));

  /* Answered here: nothing moves until the app has stored the answer... */
  g_signal_emit_by_name (view, "submit", "ok", data);
  g_assert_cmpstr (submitted.id, ==, ID_A);
  app_test_spin (100);
  g_assert_cmpstr (current_id (window), ==, ID_A);
  g_clear_pointer (&submitted.id, g_free);

  /* ...then the next request opens, the keyboard on its heading: an Enter
   * still held for the last one answers nothing. */
  triage_request_set_answer_state (triage_window_get_current_request (window), TRIAGE_ANSWER_QUEUED);
  app_test_wait_for (g_strcmp0 (current_id (window), ID_B) == 0, APP_TEST_WAIT_MS);
  app_test_wait_for (focus_inside (window, view), APP_TEST_WAIT_MS);
  assert_focus_on_heading (window, view);
  g_assert_null (submitted.id);

  /* An answer that failed to be stored does not move on. */
  g_clear_pointer (&submitted.id, g_free);
  g_clear_pointer (&submitted.action_id, g_free);
  g_clear_pointer (&submitted.data, json_node_unref);
  g_signal_emit_by_name (view, "submit", "ok", data);
  triage_window_show_error (window, ID_B, "The answer could not be saved");
  app_test_spin (100);
  g_assert_cmpstr (current_id (window), ==, ID_B);
  g_assert_false (triage_decision_view_get_read_only (TRIAGE_DECISION_VIEW (view)));
  /* The request stays in sight, the reason with it (not an error page instead). */
  g_assert_nonnull (triage_decision_view_get_notification (TRIAGE_DECISION_VIEW (view)));
  g_assert_cmpstr (triage_decision_view_get_notification (TRIAGE_DECISION_VIEW (view))->id, ==, ID_B);

  /* Nor does an answer from elsewhere (a bubble) to the request shown. */
  triage_request_set_answer_state (triage_window_get_current_request (window), TRIAGE_ANSWER_NONE);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.next-request", NULL);
  g_assert_cmpstr (current_id (window), ==, ID_C);
  triage_request_set_answer_state (triage_window_get_current_request (window), TRIAGE_ANSWER_QUEUED);
  app_test_spin (100);
  g_assert_cmpstr (current_id (window), ==, ID_C);

  g_free (submitted.id);
  g_free (submitted.action_id);
  g_clear_pointer (&submitted.data, json_node_unref);
  destroy_window (window);
}

/* A narrow window (a phone, a tiled half screen) */

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
  AdwLeaflet *leaflet = child (window, "leaflet");

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
  g_autoptr(AtpNotification) a = app_test_notification (ID_A, 60, 10, NULL);
  TriageWindow *window = new_window (model);
  AdwLeaflet *leaflet = child (window, "leaflet");
  GtkWidget *sidebar = child (window, "sidebar");
  GtkWidget *content = child (window, "content");

  triage_inbox_model_add (model, a, NULL);

  /* Wide: list and request side by side. */
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  app_test_wait_for (window_width (window) == 1000, APP_TEST_WAIT_MS);
  g_assert_false (adw_leaflet_get_folded (leaflet));

  /* 360 pixels: folded, one at a time, the list first. */
  assert_fits_360 (window);
  g_assert_true (adw_leaflet_get_visible_child (leaflet) == sidebar);
  /* The views still switch from the header (icons above their names). */
  g_assert_true (gtk_widget_get_mapped (child (window, "inbox_switcher_narrow")));

  /* A request opened takes the whole window; back (Alt+Left) returns. */
  g_assert_true (triage_window_show_request (window, ID_A));
  g_assert_true (adw_leaflet_get_visible_child (leaflet) == content);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.back", NULL);
  g_assert_true (adw_leaflet_get_visible_child (leaflet) == sidebar);

  /* Widened again with a request open: side by side. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.next-request", NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  app_test_wait_for (!adw_leaflet_get_folded (leaflet), APP_TEST_WAIT_MS);
  g_assert_true (gtk_widget_get_mapped (sidebar));
  g_assert_true (gtk_widget_get_mapped (content));

  destroy_window (window);
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
    "{\"id\": \"" ID_A "\", \"version\": \"1.0\", \"timestamp\": \"2026-03-02T10:00:00Z\","
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

  window = new_window (model);
  g_assert_true (adw_style_manager_get_dark (style));
  /* Dark for real: the text is light. */
  label = child (window, "connection_label");
  gtk_style_context_get_color (gtk_widget_get_style_context (label), &color);
  g_assert_cmpfloat (color.red + color.green + color.blue, >, 1.5);

  assert_fits_360 (window);
  g_assert_true (triage_window_show_request (window, ID_A));
  app_test_spin (50);
  g_assert_cmpint (window_width (window), ==, 360);

  destroy_window (window);
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
  g_object_set (settings, "gtk-xft-dpi", dpi, NULL);
}

/* The history view in the window */

/* Pages of the history are read on its page thread: an entry is a
 * placeholder (no id) until its page arrives. */
static gboolean
history_entry_is_read (GListModel *list,
                       guint       position)
{
  g_autoptr(TriageHistoryEntry) entry = g_list_model_get_item (list, position);

  return entry != NULL && triage_history_entry_get_id (entry) != NULL;
}

static TriageHistoryEntry *
find_entry (TriageWindow  *window,
            TriageOutcome  outcome)
{
  GListModel *list = G_LIST_MODEL (triage_history_view_get_model (triage_window_get_history_view (window)));

  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(TriageHistoryEntry) entry = NULL;

      app_test_wait_for (history_entry_is_read (list, i), APP_TEST_WAIT_MS);
      entry = g_list_model_get_item (list, i);
      if (triage_history_entry_get_outcome (entry) == outcome && !triage_history_entry_is_queued (entry))
        return g_steal_pointer (&entry);
    }

  g_error ("no history entry with outcome %d", outcome);
}

static void
test_history (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  g_autofree char *dir = g_dir_make_tmp ("triage-window-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "triage.db", NULL);
  g_autoptr(TriageStore) store = browse_test_open_store (path);
  g_autoptr(TriageHistoryDb) db = NULL;
  g_autoptr(GArray) rows = browse_test_generate (path, 12, BROWSE_TEST_BASE_USEC,
                                                 (gint64) G_USEC_PER_SEC * 3600);
  TriageWindow *window = new_window (model);
  TriageHistoryView *history = triage_window_get_history_view (window);
  TriageDecisionView *past = TRIAGE_DECISION_VIEW (triage_window_get_past_view (window));
  AdwLeaflet *leaflet = child (window, "history_leaflet");
  GtkWidget *detail = child (window, "history_detail_page");
  g_autoptr(TriageHistoryEntry) entry = NULL;

  /* Row 6 (pending, as every sixth is) was no longer on the server when
   * the app asked what became of it. */
  browse_test_set_outcome (store, "00000000-0000-4000-8000-000000000006", ATP_STATUS_DELIVERED,
                           TRIAGE_OUTCOME_GONE);
  db = browse_test_open_history (path);
  triage_window_set_history_db (window, db);
  triage_window_show_view (window, "history");
  app_test_wait_for (triage_history_view_get_state (history) == TRIAGE_HISTORY_VIEW_LIST,
                     APP_TEST_WAIT_MS);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (triage_history_view_get_model (history))), ==, 12);

  /* Ctrl+F searches the view shown. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.search", NULL);
  g_assert_true (focus_inside (window, GTK_WIDGET (history)));

  /* An answered entry opens read-only, saying what was sent. */
  entry = find_entry (window, TRIAGE_OUTCOME_ANSWERED);
  g_signal_emit_by_name (history, "entry-activated", entry);
  app_test_wait_for (adw_leaflet_get_visible_child (leaflet) == detail, APP_TEST_WAIT_MS);
  g_assert_cmpstr (triage_decision_view_get_notification (past)->id, ==, triage_history_entry_get_id (entry));
  g_assert_true (triage_decision_view_get_read_only (past));
  g_assert_cmpint (triage_decision_view_get_delivery_state (past), ==, TRIAGE_DELIVERY_SENT);

  /* Back, then an expired one. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.back", NULL);
  g_assert_false (adw_leaflet_get_visible_child (leaflet) == detail);
  g_clear_object (&entry);
  entry = find_entry (window, TRIAGE_OUTCOME_EXPIRED);
  g_signal_emit_by_name (history, "entry-activated", entry);
  app_test_wait_for (adw_leaflet_get_visible_child (leaflet) == detail &&
                     g_str_equal (triage_decision_view_get_notification (past)->id,
                                  triage_history_entry_get_id (entry)), APP_TEST_WAIT_MS);
  g_assert_cmpint (triage_decision_view_get_status (past), ==, ATP_STATUS_EXPIRED);
  g_assert_true (triage_decision_view_get_read_only (past));

  /* Answered elsewhere. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.back", NULL);
  g_clear_object (&entry);
  entry = find_entry (window, TRIAGE_OUTCOME_ANSWERED_ELSEWHERE);
  g_signal_emit_by_name (history, "entry-activated", entry);
  app_test_wait_for (adw_leaflet_get_visible_child (leaflet) == detail &&
                     g_str_equal (triage_decision_view_get_notification (past)->id,
                                  triage_history_entry_get_id (entry)), APP_TEST_WAIT_MS);
  g_assert_cmpint (triage_decision_view_get_status (past), ==, ATP_STATUS_RESPONDED);

  /* No longer on the server: said so, not as an outcome; read-only. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.back", NULL);
  g_clear_object (&entry);
  entry = find_entry (window, TRIAGE_OUTCOME_GONE);
  g_signal_emit_by_name (history, "entry-activated", entry);
  app_test_wait_for (adw_leaflet_get_visible_child (leaflet) == detail &&
                     g_str_equal (triage_decision_view_get_notification (past)->id,
                                  triage_history_entry_get_id (entry)), APP_TEST_WAIT_MS);
  g_assert_true (triage_decision_view_get_read_only (past));
  {
    GObject *banner = gtk_widget_get_template_child (GTK_WIDGET (past), TRIAGE_TYPE_DECISION_VIEW,
                                                     "banner");

    g_assert_cmpstr (triage_request_banner_get_title (TRIAGE_REQUEST_BANNER (banner)), ==,
                     "No longer on the server");
  }

  /* A pending one is answered in the inbox, not read back. */
  g_clear_object (&entry);
  entry = find_entry (window, TRIAGE_OUTCOME_NONE);
  {
    g_autoptr(AtpNotification) pending = browse_test_notification (triage_history_entry_get_id (entry),
                                                                   "CI", NULL, "Pending", "Still pending",
                                                                   BROWSE_TEST_BASE_USEC, 0);

    triage_inbox_model_add (model, pending, NULL);
  }
  g_signal_emit_by_name (history, "entry-activated", entry);
  g_assert_cmpstr (triage_window_get_view (window), ==, "inbox");
  g_assert_cmpstr (current_id (window), ==, triage_history_entry_get_id (entry));

  destroy_window (window);
  browse_test_finalize (g_steal_pointer (&db));
  browse_test_close_store (&store);
  browse_test_rm_rf (dir);
}

/* An attachment row of the decision view under @widget, titled @title. */
static GtkWidget *
find_row (GtkWidget  *widget,
          const char *title)
{
  if (ADW_IS_ACTION_ROW (widget) &&
      g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), title) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_row (c, title);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* A preview opens over the request in this window (no window of its own:
 * with GL that cost a new GL context), with the keyboard in it; back
 * (Escape, Alt+Left, the button) returns to the request as it was, the
 * keyboard on the row it was opened from. */
static void
test_preview (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  g_autofree char *data = g_base64_encode ((const guchar *) "first line\nsecond\n", 18);
  g_autofree char *json = g_strdup_printf ("{\"id\": \"%s\", \"version\": \"1.0\","
                                           " \"timestamp\": \"2026-11-29T10:00:00Z\","
                                           " \"service\": {\"id\": \"ci\", \"name\": \"CI\"},"
                                           " \"context\": {\"title\": \"Look\", \"description\": \"At this\", \"attachments\": ["
                                           "  {\"type\": \"text/plain\", \"description\": \"notes.txt\","
                                           "   \"data\": \"%s\"}]},"
                                           " \"actions\": [{\"id\": \"ok\", \"label\": \"OK\","
                                           "   \"response_type\": \"simple\"}], \"status\": \"delivered\"}",
                                           ID_A, data);
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) notification = atp_notification_new_from_data (json, -1, ATP_PARSE_DEFAULT,
                                                                             &error);
  guint n_toplevels;
  TriageWindow *window;
  TriageAttachmentPage *page;
  TriageAttachmentView *view;
  GtkWidget *row;
  g_autofree char *text = NULL;
  g_autofree char *title = NULL;
  g_autofree char *description = NULL;
  g_autofree char *whole = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *joined = NULL;
  g_auto(GStrv) lines = NULL;
  TriageTextPreview *preview;

  g_assert_no_error (error);
  triage_inbox_model_add (model, notification, NULL);
  window = new_window (model);
  n_toplevels = g_list_model_get_n_items (gtk_window_get_toplevels ());
  g_assert_true (triage_window_show_request (window, ID_A));
  row = find_row (triage_window_get_decision_view (window), "notes.txt");
  g_assert_nonnull (row);
  gtk_widget_grab_focus (row);
  g_assert_null (triage_window_get_attachment_view (window));

  /* Opened from the row: over the request, in this window. */
  g_signal_emit_by_name (row, "activate");
  view = triage_window_get_attachment_view (window);
  g_assert_nonnull (view);
  page = TRIAGE_ATTACHMENT_PAGE (gtk_widget_get_ancestor (GTK_WIDGET (view), TRIAGE_TYPE_ATTACHMENT_PAGE));
  g_assert_true (gtk_widget_get_root (GTK_WIDGET (page)) == GTK_ROOT (window));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_window_get_toplevels ()), ==, n_toplevels);
  g_assert_cmpstr (triage_attachment_page_get_title (page), ==, "notes.txt");
  app_test_wait_for (triage_attachment_view_get_kind (view) == TRIAGE_ATTACHMENT_KIND_TEXT, APP_TEST_WAIT_MS);
  text = triage_attachment_view_get_text (view);
  g_assert_cmpstr (text, ==, "first line\nsecond\n");
  app_test_wait_for (gtk_widget_get_mapped (GTK_WIDGET (view)), APP_TEST_WAIT_MS);
  g_assert_true (focus_inside (window, GTK_WIDGET (page)));

  /* Ctrl+F (the application's) searches the preview, not the inbox. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.search", NULL);
  g_assert_true (focus_inside (window, GTK_WIDGET (page)));

  /* Escape (the page's back): the request as it was, the keyboard on the
   * row; the page gone, with what it held. */
  g_object_add_weak_pointer (G_OBJECT (page), (gpointer *) &page);
  gtk_widget_activate_action (GTK_WIDGET (view), "page.back", NULL);
  g_assert_null (triage_window_get_attachment_view (window));
  g_assert_cmpstr (current_id (window), ==, ID_A);
  g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == row);
  app_test_wait_for (page == NULL, APP_TEST_WAIT_MS);

  /* Alt+Left does the same; Alt+2 closes it and goes on. */
  g_signal_emit_by_name (row, "activate");
  g_assert_nonnull (triage_window_get_attachment_view (window));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.back", NULL);
  g_assert_null (triage_window_get_attachment_view (window));
  g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == row);
  g_signal_emit_by_name (row, "activate");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-view", "s", "history");
  g_assert_null (triage_window_get_attachment_view (window));
  g_assert_cmpstr (triage_window_get_view (window), ==, "history");
  g_assert_true (focus_inside (window, GTK_WIDGET (triage_window_get_history_view (window))));

  /* A request's whole text too (the views' "Show the Whole Request"), its
   * long lines whole, wrapped (they were cut at 2,000 characters, "…"). */
  {
    GString *digits = g_string_new (NULL);

    /* Numbers one after another ("00000000010000200003…"): a piece of the
     * display ends after 2,000 characters, inside "00399" "00400". */
    for (guint i = 0; digits->len < 5001; i++)
      g_string_append_printf (digits, "%05u", i);
    g_string_truncate (digits, 5001);
    title = g_string_free (digits, FALSE);
  }
  description = g_strnfill (5001, 'D');
  whole = g_strconcat (title, "\n\n", description, NULL);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (triage_window_get_inbox_pane (window)),
                                             "win.preview-text", "(sss)", "The Whole Request",
                                             whole, "CI"));
  view = triage_window_get_attachment_view (window);
  g_assert_nonnull (view);
  page = TRIAGE_ATTACHMENT_PAGE (gtk_widget_get_ancestor (GTK_WIDGET (view), TRIAGE_TYPE_ATTACHMENT_PAGE));
  g_assert_cmpstr (triage_attachment_page_get_title (page), ==, "The Whole Request");
  app_test_wait_for (triage_attachment_view_get_kind (view) == TRIAGE_ATTACHMENT_KIND_TEXT, APP_TEST_WAIT_MS);
  g_clear_pointer (&text, g_free);
  text = triage_attachment_view_get_text (view);
  g_assert_cmpstr (text, ==, whole);
  preview = triage_attachment_view_get_text_preview (view);
  app_test_wait_for (!triage_text_preview_get_loading (preview), APP_TEST_WAIT_MS);
  shown = triage_text_preview_dup_shown_text (preview);
  g_assert_null (strstr (shown, "…"));
  lines = g_strsplit (shown, "\n", -1);
  joined = g_strjoinv ("", lines);
  g_assert_true (g_str_has_prefix (joined, title));
  g_assert_true (g_str_has_suffix (joined, description));
  g_assert_cmpuint (strlen (joined), ==, 2 * 5001);
  g_assert_cmpint (gtk_text_view_get_wrap_mode (GTK_TEXT_VIEW (triage_text_preview_get_source_view (preview))),
                   ==, GTK_WRAP_WORD_CHAR);
  /* Search finds a match across two pieces, and selects all of it. */
  g_assert_cmpuint (triage_text_preview_find (preview, "399004"), ==, 1);
  {
    g_autofree char *selection = triage_text_preview_dup_selection (preview);
    g_auto(GStrv) parts = g_strsplit (selection, "\n", -1);
    g_autofree char *selected = g_strjoinv ("", parts);

    g_assert_cmpstr (selected, ==, "399004");
  }

  destroy_window (window);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/window/inbox-pane", test_inbox_pane);
  g_test_add_func ("/window/connection-bar", test_connection_bar);
  g_test_add_func ("/window/request-kept-when-settled", test_request_kept_when_settled);
  g_test_add_func ("/window/submit-forwarded", test_submit_forwarded);
  g_test_add_func ("/window/keyboard-triage", test_keyboard_triage);
  g_test_add_func ("/window/answer-then-next", test_answer_then_next);
  g_test_add_func ("/window/answer-queued-keeps-focus", test_answer_queued_keeps_focus);
  g_test_add_func ("/window/narrow", test_narrow);
  g_test_add_func ("/window/large-text-dark", test_large_text_dark);
  g_test_add_func ("/window/history", test_history);
  g_test_add_func ("/window/preview", test_preview);

  return g_test_run ();
}
