/* test-window.c — the main window: list, connection bar, request kept when it leaves
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <adwaita.h>

#include "app-test-common.h"
#include "triage-window.h"

#define ID_A "0a6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"
#define ID_B "1b6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"

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

static TriageWindow *
new_window (TriageInboxModel *model)
{
  TriageWindow *window = triage_window_new (NULL, model);

  g_object_ref_sink (window);
  gtk_window_present (GTK_WINDOW (window));

  return window;
}

static void
destroy_window (TriageWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  app_test_finalize_object (window);
}

static void
test_list_and_empty (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  g_autoptr(AtpNotification) a = app_test_notification (ID_A, 60, 10, NULL);
  TriageWindow *window = new_window (model);
  GtkWidget *list_stack;

  list_stack = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (window), TRIAGE_TYPE_WINDOW,
                                                          "list_stack"));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (list_stack)), ==, "empty");

  triage_inbox_model_add (model, a, NULL);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (list_stack)), ==, "list");

  g_assert_null (triage_window_get_current_request (window));
  g_assert_true (triage_window_show_request (window, ID_A));
  g_assert_nonnull (triage_window_get_current_request (window));
  g_assert_false (triage_window_show_request (window, ID_B));

  destroy_window (window);
}

static void
test_connection_bar (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  g_autoptr(AtpNotification) a = app_test_notification (ID_A, 60, 10, NULL);
  TriageWindow *window = new_window (model);
  AdwWindowTitle *title;
  GtkRevealer *revealer;
  GtkWidget *retry;

  revealer = GTK_REVEALER (gtk_widget_get_template_child (GTK_WIDGET (window), TRIAGE_TYPE_WINDOW,
                                                          "connection_revealer"));
  retry = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (window), TRIAGE_TYPE_WINDOW,
                                                     "retry_button"));
  title = ADW_WINDOW_TITLE (gtk_widget_get_template_child (GTK_WIDGET (window), TRIAGE_TYPE_WINDOW,
                                                           "list_title"));

  triage_window_set_connection (window, TRIAGE_CONNECTION_CONNECTED, NULL, 0);
  g_assert_false (gtk_revealer_get_reveal_child (revealer));
  g_assert_cmpstr (triage_window_get_connection_text (window), ==, "Connected");
  /* Connected shows under the list title, with the number pending. */
  g_assert_cmpstr (adw_window_title_get_subtitle (title), ==, "Connected");
  triage_inbox_model_add (model, a, NULL);
  g_assert_cmpstr (adw_window_title_get_subtitle (title), ==, "Connected · 1 pending");

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

  g_assert_cmpstr (adw_window_title_get_subtitle (title), ==, "1 pending");

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

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/window/list-and-empty", test_list_and_empty);
  g_test_add_func ("/window/connection-bar", test_connection_bar);
  g_test_add_func ("/window/request-kept-when-settled", test_request_kept_when_settled);
  g_test_add_func ("/window/submit-forwarded", test_submit_forwarded);

  return g_test_run ();
}
