/* window-test-common.c — what the parts of test-window share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "window-test-common.h"

gpointer
window_test_child (TriageWindow *window,
                   const char   *name)
{
  return gtk_widget_get_template_child (GTK_WIDGET (window), TRIAGE_TYPE_WINDOW, name);
}

TriageWindow *
window_test_new_window (TriageInboxModel *model)
{
  TriageWindow *window = triage_window_new (NULL, model);

  g_object_ref_sink (window);
  gtk_window_present (GTK_WINDOW (window));

  return window;
}

/* Gone with everything in it (the views too: the switchers in their headers
 * hold the stack they are in). */
void
window_test_destroy_window (TriageWindow *window)
{
  gpointer pane = triage_window_get_inbox_pane (window);
  gpointer history = triage_window_get_history_view (window);

  g_object_add_weak_pointer (G_OBJECT (pane), &pane);
  g_object_add_weak_pointer (G_OBJECT (history), &history);
  gtk_window_destroy (GTK_WINDOW (window));
  app_test_finalize_object (window);
  app_test_wait_for (pane == NULL && history == NULL, APP_TEST_WAIT_MS);
}

const char *
window_test_current_id (TriageWindow *window)
{
  TriageRequest *request = triage_window_get_current_request (window);

  return request ? triage_request_get_id (request) : NULL;
}

gboolean
window_test_focus_inside (TriageWindow *window,
                          GtkWidget    *ancestor)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  return focus != NULL && (focus == ancestor || gtk_widget_is_ancestor (focus, ancestor));
}
