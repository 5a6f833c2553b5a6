/* test-history-view-keys.c — the history view with the keyboard: a row
 * activated, Ctrl+F, Escape, Down and Enter in the search, and the row Tab
 * enters the list on
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "history-view-test-common.h"
#include "ui-test-util.h"

static void
on_entry_activated (TriageHistoryView   *view,
                    TriageHistoryEntry  *entry,
                    TriageHistoryEntry **out)
{
  g_set_object (out, entry);
}

static void
test_activate_and_keys (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(TriageHistoryEntry) activated = NULL;
  GtkWidget *list_view = history_view_test_find_widget (GTK_WIDGET (f->view), GTK_TYPE_GRID_VIEW);
  GtkWidget *entry = history_view_test_find_widget (GTK_WIDGET (f->view), GTK_TYPE_SEARCH_ENTRY);
  GtkWidget *focus;
  GtkShortcutController *keys;

  history_view_test_n_shown (f);
  g_signal_connect (f->view, "entry-activated", G_CALLBACK (on_entry_activated), &activated);
  /* At once if its page is read, else when it is. */
  g_signal_emit_by_name (list_view, "activate", 2);
  browse_test_wait_for (activated != NULL);
  g_assert_cmpstr (triage_history_entry_get_id (activated), ==,
                   g_array_index (f->rows, BrowseTestRow, N_ROWS - 3).id);

  /* Ctrl+F, window-wide while the history is shown. */
  keys = ui_test_find_shortcut (GTK_WIDGET (f->view), "<Control>f", "action(history.focus-search)");
  g_assert_nonnull (keys);
  g_assert_cmpint (gtk_shortcut_controller_get_scope (keys), ==, GTK_SHORTCUT_SCOPE_MANAGED);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->view), "history.focus-search", NULL));
  focus = gtk_root_get_focus (GTK_ROOT (f->window));
  g_assert_true (focus == entry || gtk_widget_is_ancestor (focus, entry));

  /* Escape in the search clears it. */
  triage_history_view_set_search_text (f->view, "w1");
  g_assert_cmpuint (history_view_test_n_shown (f), ==, N_ROWS / 10);
  g_signal_emit_by_name (entry, "stop-search");
  g_assert_cmpuint (history_view_test_n_shown (f), ==, N_ROWS);

  /* Down in the search goes to the results, as in the inbox (GTK went to the
   * services filter below it); so does Enter. */
  triage_history_view_set_search_text (f->view, "w1");
  g_assert_cmpuint (history_view_test_n_shown (f), ==, N_ROWS / 10);
  g_assert_nonnull (ui_test_find_shortcut (entry, "Down", "action(history.focus-list)"));
  g_assert_true (gtk_widget_activate_action (entry, "history.focus-list", NULL));
  focus = gtk_root_get_focus (GTK_ROOT (f->window));
  g_assert_true (focus == list_view || gtk_widget_is_ancestor (focus, list_view));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->view), "history.focus-search", NULL));
  g_signal_emit_by_name (entry, "activate");
  focus = gtk_root_get_focus (GTK_ROOT (f->window));
  g_assert_true (focus == list_view || gtk_widget_is_ancestor (focus, list_view));
}

/* The title of the row the keyboard is on. */
static const char *
focused_title (Fixture *f)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (f->window));
  GtkWidget *row = focus ? history_view_test_find_widget (focus, TRIAGE_TYPE_HISTORY_ROW) : NULL;

  if (row == NULL || triage_history_row_get_entry (TRIAGE_HISTORY_ROW (row)) == NULL)
    return NULL;

  return triage_history_entry_get_title (triage_history_row_get_entry (TRIAGE_HISTORY_ROW (row)));
}

/* Tab from the chart, the stop before the list. */
static void
tab_into_list (Fixture *f)
{
  gtk_widget_grab_focus (GTK_WIDGET (triage_history_view_get_chart (f->view)));
  g_signal_emit_by_name (f->window, "move-focus", GTK_DIR_TAB_FORWARD);
  browse_test_wait_for (focused_title (f) != NULL);
}

static void
save_newer (Fixture *f,
            guint    from,
            guint    n)
{
  GListModel *model = G_LIST_MODEL (triage_history_view_get_model (f->view));
  guint before = g_list_model_get_n_items (model);
  g_autofree char *newest = NULL;

  history_view_test_store_newer (f, from, n);
  triage_history_view_reload (f->view);
  browse_test_wait_for (g_list_model_get_n_items (model) == before + n);
  newest = g_strdup_printf ("Newer %u", from + n - 1);
  browse_test_wait_for (history_view_test_title_is (model, 0, newest));
  gtk_test_widget_wait_for_draw (f->window);
}

/* Tab into the list after newer decisions came: on the newest, shown first,
 * when the keyboard never entered the list or left it on its first row (it
 * went to the row that had been first, fourth by then); on the row it left
 * otherwise; on the first row of a new search. */
static void
test_tab_enters (Fixture       *f,
                 gconstpointer  data)
{
  GtkWidget *list_view = history_view_test_find_widget (GTK_WIDGET (f->view), GTK_TYPE_GRID_VIEW);

  g_assert_cmpuint (history_view_test_n_shown (f), ==, N_ROWS);
  browse_test_wait_for (history_view_test_first_row_read (f) != NULL);
  gtk_test_widget_wait_for_draw (f->window);

  save_newer (f, 0, 3);
  tab_into_list (f);
  g_assert_cmpstr (focused_title (f), ==, "Newer 2");

  /* Left on the first row: back on the first, the newest. */
  gtk_widget_grab_focus (GTK_WIDGET (triage_history_view_get_chart (f->view)));
  save_newer (f, 3, 1);
  tab_into_list (f);
  g_assert_cmpstr (focused_title (f), ==, "Newer 3");

  /* Left further down: back on that row, wherever it went. */
  for (guint i = 0; i < 4; i++)
    g_assert_true (gtk_widget_child_focus (list_view, GTK_DIR_DOWN));
  g_assert_cmpstr (focused_title (f), ==, "Request 2999: deploy build 99");
  tab_into_list (f);
  g_assert_cmpstr (focused_title (f), ==, "Request 2999: deploy build 99");
  gtk_widget_grab_focus (GTK_WIDGET (triage_history_view_get_chart (f->view)));
  save_newer (f, 4, 2);
  tab_into_list (f);
  g_assert_cmpstr (focused_title (f), ==, "Request 2999: deploy build 99");

  /* A new search: its first row. */
  triage_history_view_set_search_text (f->view, "w1");
  g_assert_cmpuint (history_view_test_n_shown (f), ==, N_ROWS / 10);
  gtk_test_widget_wait_for_draw (f->window);
  tab_into_list (f);
  g_assert_cmpstr (focused_title (f), ==, "Request 2991: deploy build 91");

  /* Shift+Tab from the search, round to the list, the last stop. */
  triage_history_view_set_search_text (f->view, "");
  g_assert_cmpuint (history_view_test_n_shown (f), ==, N_ROWS + 6);
  gtk_test_widget_wait_for_draw (f->window);
  save_newer (f, 6, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->view), "history.focus-search", NULL));
  g_signal_emit_by_name (f->window, "move-focus", GTK_DIR_TAB_BACKWARD);
  browse_test_wait_for (focused_title (f) != NULL);
  g_assert_cmpstr (focused_title (f), ==, "Newer 6");

  /* Down from the search: the first row too. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->view), "history.focus-search", NULL));
  save_newer (f, 7, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->view), "history.focus-list", NULL));
  browse_test_wait_for (focused_title (f) != NULL);
  g_assert_cmpstr (focused_title (f), ==, "Newer 7");
}

void
history_view_test_add_keys (void)
{
  g_test_add ("/history/view/activate-and-keys", Fixture, NULL,
              history_view_test_setup, test_activate_and_keys, history_view_test_teardown);
  g_test_add ("/history/view/tab-enters", Fixture, NULL,
              history_view_test_setup, test_tab_enters, history_view_test_teardown);
}
