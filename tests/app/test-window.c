/* test-window.c — the main window: inbox pane, connection bar, keyboard triage;
 * its parts: a narrow, large-text or dark window (test-window-narrow.c), the
 * history view (test-window-history.c), previews over the request
 * (test-window-preview.c)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "triage-decision-format.h"
#include "triage-decision-view.h"
#include "triage-request-banner.h"
#include "triage-response-editor-private.h"
#include "window-test-common.h"

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

static void
test_inbox_pane (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  g_autoptr(AtpNotification) a = app_test_notification (WINDOW_TEST_ID_A, 60, 10, NULL);
  TriageWindow *window = window_test_new_window (model);
  TriageInboxPane *pane = triage_window_get_inbox_pane (window);
  GtkStack *content_stack = window_test_child (window, "content_stack");

  /* The first-run help, then the list. */
  g_assert_cmpint (triage_inbox_pane_get_state (pane), ==, TRIAGE_INBOX_PANE_EMPTY);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (content_stack), ==, "placeholder");
  triage_inbox_model_add (model, a, NULL);
  g_assert_cmpint (triage_inbox_pane_get_state (pane), ==, TRIAGE_INBOX_PANE_LIST);
  g_assert_cmpuint (g_list_model_get_n_items (triage_inbox_pane_get_visible_model (pane)), ==, 1);

  /* Opened as from a bubble: shown in the decision view, selected in the list. */
  g_assert_null (triage_window_get_current_request (window));
  g_assert_true (triage_window_show_request (window, WINDOW_TEST_ID_A));
  g_assert_cmpstr (window_test_current_id (window), ==, WINDOW_TEST_ID_A);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (content_stack), ==, "decision");
  g_assert_true (triage_inbox_pane_get_selected_request (pane) == triage_window_get_current_request (window));
  g_assert_false (triage_window_show_request (window, WINDOW_TEST_ID_B));

  /* A search that hides it makes way when it is opened from outside. */
  triage_inbox_pane_set_search_text (pane, "nothing matches this");
  app_test_wait_for (triage_inbox_pane_get_state (pane) == TRIAGE_INBOX_PANE_NO_RESULTS, APP_TEST_WAIT_MS);
  g_assert_true (triage_window_show_request (window, WINDOW_TEST_ID_A));
  app_test_wait_for (triage_inbox_pane_get_state (pane) == TRIAGE_INBOX_PANE_LIST, APP_TEST_WAIT_MS);

  window_test_destroy_window (window);
}

static void
test_connection_bar (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  g_autoptr(AtpNotification) a = app_test_notification (WINDOW_TEST_ID_A, 60, 10, NULL);
  TriageWindow *window = window_test_new_window (model);
  GtkWidget *switcher = window_test_child (window, "inbox_switcher");
  AdwViewStackPage *page = window_test_child (window, "inbox_page");
  GtkRevealer *revealer = window_test_child (window, "connection_revealer");
  GtkWidget *retry = window_test_child (window, "retry_button");

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

  window_test_destroy_window (window);
}

static void
test_request_kept_when_settled (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  g_autoptr(AtpNotification) a = app_test_notification (WINDOW_TEST_ID_A, 60, 10, NULL);
  g_autoptr(TriageRequest) removed = NULL;
  TriageWindow *window = window_test_new_window (model);
  TriageRequest *current;

  triage_inbox_model_add (model, a, NULL);
  g_assert_true (triage_window_show_request (window, WINDOW_TEST_ID_A));
  current = triage_window_get_current_request (window);

  /* Answered elsewhere while open: it leaves the list, stays in the view. */
  removed = triage_inbox_model_remove (model, WINDOW_TEST_ID_A);
  triage_request_set_status (removed, ATP_STATUS_RESPONDED);
  g_assert_true (triage_window_get_current_request (window) == current);
  g_assert_true (triage_decision_view_get_read_only (TRIAGE_DECISION_VIEW (triage_window_get_decision_view (window))));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 0);

  window_test_destroy_window (window);
}

/* @notification with its title and description changed, as a resync
 * brings a request the server has anew. */
static AtpNotification *
rewritten (AtpNotification *notification)
{
  g_autofree char *json = atp_notification_to_string (notification, NULL);
  g_autoptr(GString) text = g_string_new (json);
  g_autoptr(GError) error = NULL;
  AtpNotification *changed;

  g_assert_cmpuint (g_string_replace (text, "Deploy ", "Roll back ", 0), ==, 1);
  g_assert_cmpuint (g_string_replace (text, "Ship ", "Halt ", 0), ==, 1);
  changed = atp_notification_new_from_data (text->str, -1, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  return changed;
}

/* The open request changed by a resync: the header and the view say what it
 * says now, and what was typed and chosen in it stays. */
static void
test_request_refreshed_while_open (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  g_autoptr(AtpNotification) a = app_test_notification (WINDOW_TEST_ID_A, 60, 10,
    "[{\"id\": \"why\", \"label\": \"Why\", \"response_type\": \"text\"}]");
  g_autoptr(AtpNotification) changed = rewritten (a);
  TriageWindow *window = window_test_new_window (model);
  AdwWindowTitle *content_title = window_test_child (window, "content_title");
  GtkWidget *view;
  GtkWidget *editor;
  GtkLabel *title_label;
  GtkLabel *description_label;
  GtkTextBuffer *buffer;
  g_autofree char *kept = NULL;
  GtkTextIter start, end;

  triage_inbox_model_add (model, a, NULL);
  g_assert_true (triage_window_show_request (window, WINDOW_TEST_ID_A));
  view = triage_window_get_decision_view (window);
  title_label = GTK_LABEL (gtk_widget_get_template_child (view, TRIAGE_TYPE_DECISION_VIEW,
                                                         "title_label"));
  description_label = GTK_LABEL (gtk_widget_get_template_child (view, TRIAGE_TYPE_DECISION_VIEW,
                                                               "description_label"));
  g_assert_cmpstr (adw_window_title_get_title (content_title), ==, "Deploy " WINDOW_TEST_ID_A "?");
  editor = triage_decision_view_get_editor (TRIAGE_DECISION_VIEW (view), "why");
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (
    triage_response_editor_get_input (TRIAGE_RESPONSE_EDITOR (editor))));
  gtk_text_buffer_set_text (buffer, "half typed", -1);

  triage_inbox_model_hold (model);
  triage_inbox_model_add (model, changed, NULL);
  triage_inbox_model_release (model);

  g_assert_cmpstr (adw_window_title_get_title (content_title), ==,
                   "Roll back " WINDOW_TEST_ID_A "?");
  g_assert_nonnull (strstr (gtk_label_get_label (title_label), "Roll back"));
  g_assert_nonnull (strstr (gtk_label_get_label (description_label), "Halt"));
  g_assert_true (triage_decision_view_get_notification (TRIAGE_DECISION_VIEW (view)) == changed);
  /* The same editor, what was typed in it, still editable. */
  g_assert_true (triage_decision_view_get_editor (TRIAGE_DECISION_VIEW (view), "why") == editor);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  kept = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  g_assert_cmpstr (kept, ==, "half typed");
  g_assert_false (triage_decision_view_get_read_only (TRIAGE_DECISION_VIEW (view)));

  window_test_destroy_window (window);
}

static void
test_submit_forwarded (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  g_autoptr(AtpNotification) a = app_test_notification (WINDOW_TEST_ID_A, 60, 10, NULL);
  g_autoptr(JsonNode) data = json_node_new (JSON_NODE_NULL);
  TriageWindow *window = window_test_new_window (model);
  Submitted submitted = { 0 };

  g_signal_connect (window, "submit", G_CALLBACK (on_submit), &submitted);
  triage_inbox_model_add (model, a, NULL);
  triage_window_show_request (window, WINDOW_TEST_ID_A);

  g_signal_emit_by_name (triage_window_get_decision_view (window), "submit", "ok", data);
  g_assert_cmpstr (submitted.id, ==, WINDOW_TEST_ID_A);
  g_assert_cmpstr (submitted.action_id, ==, "ok");
  g_assert_nonnull (submitted.data);

  g_free (submitted.id);
  g_free (submitted.action_id);
  json_node_unref (submitted.data);
  window_test_destroy_window (window);
}

/* Three requests, due in 1, 2 and 3 minutes: the list's order is A, B, C. */
static TriageInboxModel *
three_requests (void)
{
  TriageInboxModel *model = triage_inbox_model_new ();
  const char *ids[] = { WINDOW_TEST_ID_C, WINDOW_TEST_ID_A, WINDOW_TEST_ID_B };
  const int due[] = { 180, 60, 120 };

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_autoptr(AtpNotification) n = app_test_notification (ids[i], due[i], 10, NULL);

      triage_inbox_model_add (model, n, NULL);
    }

  return model;
}

/* A request opened: the keyboard on its heading, named by its title, never
 * on a control that answers (Enter there would answer it unseen). */
static void
assert_focus_on_heading (TriageWindow *window,
                         GtkWidget    *view)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  g_assert_true (window_test_focus_inside (window, view));
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
  TriageWindow *window = window_test_new_window (model);
  TriageInboxPane *pane = triage_window_get_inbox_pane (window);
  GtkWidget *view = triage_window_get_decision_view (window);
  GtkWidget *search = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (pane),
                                                                 TRIAGE_TYPE_INBOX_PANE,
                                                                 "search_entry"));
  GtkWidget *list = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (pane),
                                                               TRIAGE_TYPE_INBOX_PANE, "list_view"));

  /* Next with nothing open: the first; then in order, and back. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.next-request", NULL));
  g_assert_cmpstr (window_test_current_id (window), ==, WINDOW_TEST_ID_A);
  /* Opened: the keyboard is on its heading; Tab goes on to its answer. */
  app_test_wait_for (window_test_focus_inside (window, view), APP_TEST_WAIT_MS);
  assert_focus_on_heading (window, view);
  g_assert_true (window_test_focus_inside (window, tab_to_button (window)));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.next-request", NULL);
  g_assert_cmpstr (window_test_current_id (window), ==, WINDOW_TEST_ID_B);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.next-request", NULL);
  g_assert_cmpstr (window_test_current_id (window), ==, WINDOW_TEST_ID_C);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.next-request", NULL);
  g_assert_cmpstr (window_test_current_id (window), ==, WINDOW_TEST_ID_C);   /* the last stays */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.previous-request", NULL);
  g_assert_cmpstr (window_test_current_id (window), ==, WINDOW_TEST_ID_B);

  /* Ctrl+F: the search; typing narrows the list; Enter opens the match. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.search", NULL);
  g_assert_true (window_test_focus_inside (window, search));
  triage_inbox_pane_set_search_text (pane, WINDOW_TEST_ID_C);
  app_test_wait_for (g_list_model_get_n_items (triage_inbox_pane_get_visible_model (pane)) == 1,
                     APP_TEST_WAIT_MS);
  g_signal_emit_by_name (search, "activate");
  app_test_wait_for (g_strcmp0 (window_test_current_id (window), WINDOW_TEST_ID_C) == 0,
                     APP_TEST_WAIT_MS);
  app_test_wait_for (window_test_focus_inside (window, view), APP_TEST_WAIT_MS);

  /* Alt+Left: back to the list, keyboard included; Alt+Right opens what
   * is selected there. */
  triage_inbox_pane_set_search_text (pane, "");
  app_test_wait_for (g_list_model_get_n_items (triage_inbox_pane_get_visible_model (pane)) == 3,
                     APP_TEST_WAIT_MS);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.back", NULL);
  app_test_wait_for (window_test_focus_inside (window, list), APP_TEST_WAIT_MS);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.open-request", NULL);
  g_assert_cmpstr (window_test_current_id (window), ==, WINDOW_TEST_ID_C);
  g_assert_true (window_test_focus_inside (window, view));

  /* Alt+2 / Alt+1: the views, the keyboard in the history's search. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-view", "s", "history");
  g_assert_cmpstr (triage_window_get_view (window), ==, "history");
  g_assert_true (window_test_focus_inside (window,
                                           GTK_WIDGET (triage_window_get_history_view (window))));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-view", "s", "inbox");
  g_assert_cmpstr (triage_window_get_view (window), ==, "inbox");

  window_test_destroy_window (window);
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
  TriageWindow *window = window_test_new_window (model);
  GtkWidget *view = triage_window_get_decision_view (window);
  GtkWidget *button;
  GtkWidget *focus;

  triage_window_set_connection (window, TRIAGE_CONNECTION_RECONNECTING, "Connection refused",
                                g_get_monotonic_time () + 60 * G_USEC_PER_SEC);
  g_assert_true (triage_window_show_request (window, WINDOW_TEST_ID_C));
  app_test_wait_for (window_test_focus_inside (window, view), APP_TEST_WAIT_MS);
  button = tab_to_button (window);

  g_signal_emit_by_name (button, "clicked");
  triage_request_set_answer_state (triage_window_get_current_request (window), TRIAGE_ANSWER_QUEUED);
  app_test_spin (200);

  g_assert_cmpstr (window_test_current_id (window), ==, WINDOW_TEST_ID_C);
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_nonnull (focus);
  g_assert_true (gtk_widget_is_sensitive (focus));
  g_assert_true (window_test_focus_inside (window, view));
  /* There, a screen reader reads where the answer stands. */
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (focus), GTK_ACCESSIBLE_ROLE_STATUS);

  window_test_destroy_window (window);
}

/* The open request's banner, saying where its answer stands. */
static const char *
banner_title (TriageWindow *window)
{
  GObject *banner = gtk_widget_get_template_child (triage_window_get_decision_view (window),
                                                   TRIAGE_TYPE_DECISION_VIEW, "banner");

  return triage_request_banner_get_title (TRIAGE_REQUEST_BANNER (banner));
}

/* An answer on its way while the server asked the client to wait (a 429's
 * or 503's Retry-After) said only "Sending your answer…" for as long as the
 * wait lasted. It says until when now, on the clock the app shows times
 * in; the wait over, it is sending again. */
static void
test_answer_waits_for_server (void)
{
  g_autoptr(TriageInboxModel) model = three_requests ();
  TriageWindow *window = window_test_new_window (model);
  gint64 until = g_get_monotonic_time () + 40 * G_USEC_PER_SEC;
  g_autoptr(GDateTime) before = g_date_time_new_now_local ();
  g_autoptr(GDateTime) after = NULL;
  g_autoptr(GDateTime) first = NULL;
  g_autoptr(GDateTime) last = NULL;
  g_autofree char *earliest = NULL;
  g_autofree char *latest = NULL;
  g_autofree char *shown = NULL;
  const char *shown_time;

  triage_window_set_connection (window, TRIAGE_CONNECTION_CONNECTED, NULL, 0);
  g_assert_true (triage_window_show_request (window, WINDOW_TEST_ID_C));
  triage_window_set_server_wait (window, until);
  /* Not answered here: nothing is said of the wait. */
  g_assert_cmpstr (banner_title (window), ==, "");

  triage_request_set_answer_state (triage_window_get_current_request (window), TRIAGE_ANSWER_QUEUED);
  after = g_date_time_new_now_local ();
  shown = g_strdup (banner_title (window));
  /* The end of the wait on the wall clock: 40 s after a moment between
   * these two. */
  first = g_date_time_add_seconds (before, 40);
  last = g_date_time_add_seconds (after, 40);
  earliest = triage_format_time (first, NULL);
  latest = triage_format_time (last, NULL);
  g_test_message ("%s", shown);
  g_assert_true (g_str_has_prefix (shown, "The server asked to wait — sending at "));
  shown_time = shown + strlen ("The server asked to wait — sending at ");
  g_assert_true (g_str_equal (shown_time, earliest) || g_str_equal (shown_time, latest));

  triage_window_set_server_wait (window, 0);
  g_assert_cmpstr (banner_title (window), ==, "Sending your answer…");
  /* Nor is a wait over by now shown. */
  triage_window_set_server_wait (window, g_get_monotonic_time () - 1);
  g_assert_cmpstr (banner_title (window), ==, "Sending your answer…");

  window_test_destroy_window (window);
}

static void
test_answer_then_next (void)
{
  g_autoptr(TriageInboxModel) model = three_requests ();
  g_autoptr(JsonNode) data = json_node_new (JSON_NODE_NULL);
  TriageWindow *window = window_test_new_window (model);
  GtkWidget *view = triage_window_get_decision_view (window);
  Submitted submitted = { 0 };

  g_signal_connect (window, "submit", G_CALLBACK (on_submit), &submitted);
  g_assert_true (triage_window_show_request (window, WINDOW_TEST_ID_A));

  /* Answered here: nothing moves until the app has stored the answer... */
  g_signal_emit_by_name (view, "submit", "ok", data);
  g_assert_cmpstr (submitted.id, ==, WINDOW_TEST_ID_A);
  app_test_spin (100);
  g_assert_cmpstr (window_test_current_id (window), ==, WINDOW_TEST_ID_A);
  g_clear_pointer (&submitted.id, g_free);

  /* ...then the next request opens, the keyboard on its heading: an Enter
   * still held for the last one answers nothing. */
  triage_request_set_answer_state (triage_window_get_current_request (window), TRIAGE_ANSWER_QUEUED);
  app_test_wait_for (g_strcmp0 (window_test_current_id (window), WINDOW_TEST_ID_B) == 0,
                     APP_TEST_WAIT_MS);
  app_test_wait_for (window_test_focus_inside (window, view), APP_TEST_WAIT_MS);
  assert_focus_on_heading (window, view);
  g_assert_null (submitted.id);

  /* An answer that failed to be stored does not move on. */
  g_clear_pointer (&submitted.id, g_free);
  g_clear_pointer (&submitted.action_id, g_free);
  g_clear_pointer (&submitted.data, json_node_unref);
  g_signal_emit_by_name (view, "submit", "ok", data);
  triage_window_show_error (window, WINDOW_TEST_ID_B, "The answer could not be saved");
  app_test_spin (100);
  g_assert_cmpstr (window_test_current_id (window), ==, WINDOW_TEST_ID_B);
  g_assert_false (triage_decision_view_get_read_only (TRIAGE_DECISION_VIEW (view)));
  /* The request stays in sight, the reason with it (not an error page instead). */
  g_assert_nonnull (triage_decision_view_get_notification (TRIAGE_DECISION_VIEW (view)));
  g_assert_cmpstr (triage_decision_view_get_notification (TRIAGE_DECISION_VIEW (view))->id, ==, WINDOW_TEST_ID_B);

  /* Nor does an answer from elsewhere (a bubble) to the request shown. */
  triage_request_set_answer_state (triage_window_get_current_request (window), TRIAGE_ANSWER_NONE);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.next-request", NULL);
  g_assert_cmpstr (window_test_current_id (window), ==, WINDOW_TEST_ID_C);
  triage_request_set_answer_state (triage_window_get_current_request (window), TRIAGE_ANSWER_QUEUED);
  app_test_spin (100);
  g_assert_cmpstr (window_test_current_id (window), ==, WINDOW_TEST_ID_C);

  g_free (submitted.id);
  g_free (submitted.action_id);
  g_clear_pointer (&submitted.data, json_node_unref);
  window_test_destroy_window (window);
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
  g_test_add_func ("/window/request-refreshed-while-open", test_request_refreshed_while_open);
  g_test_add_func ("/window/submit-forwarded", test_submit_forwarded);
  g_test_add_func ("/window/keyboard-triage", test_keyboard_triage);
  g_test_add_func ("/window/answer-then-next", test_answer_then_next);
  g_test_add_func ("/window/answer-queued-keeps-focus", test_answer_queued_keeps_focus);
  g_test_add_func ("/window/answer-waits-for-server", test_answer_waits_for_server);
  window_test_add_narrow ();
  window_test_add_history ();
  window_test_add_preview ();
  window_test_add_drafts ();

  return g_test_run ();
}