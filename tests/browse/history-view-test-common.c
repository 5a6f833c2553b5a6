/* history-view-test-common.c — what the parts of test-history-view share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "history-view-test-common.h"

static void
open_view (Fixture *f)
{
  f->db = browse_test_open_history (f->path);
  f->view = TRIAGE_HISTORY_VIEW (triage_history_view_new ());
  f->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1000, 700);
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (f->view));
  gtk_window_present (GTK_WINDOW (f->window));
  browse_test_wait_for (gtk_widget_get_mapped (GTK_WIDGET (f->view)));

  g_assert_cmpint (triage_history_view_get_state (f->view), ==, TRIAGE_HISTORY_VIEW_LOADING);
  triage_history_view_set_db (f->view, f->db);
  browse_test_wait_for (!triage_history_view_get_loading (f->view) &&
                        triage_history_view_get_state (f->view) != TRIAGE_HISTORY_VIEW_LOADING);
}

static void
open_store (Fixture *f)
{
  f->dir = g_dir_make_tmp ("triage-history-view-XXXXXX", NULL);
  f->path = g_build_filename (f->dir, "triage.db", NULL);
  f->store = browse_test_open_store (f->path);
}

void
history_view_test_setup_empty (Fixture       *f,
                               gconstpointer  data)
{
  open_store (f);
  open_view (f);
}

void
history_view_test_setup (Fixture       *f,
                         gconstpointer  data)
{
  open_store (f);
  f->rows = browse_test_generate (f->path, N_ROWS, BROWSE_TEST_BASE_USEC, 10 * G_TIME_SPAN_MINUTE);
  open_view (f);
}

void
history_view_test_teardown (Fixture       *f,
                            gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  browse_test_pump ();
  browse_test_finalize (g_steal_pointer (&f->db));
  browse_test_close_store (&f->store);
  g_clear_pointer (&f->rows, browse_test_rows_free);
  browse_test_rm_rf (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

guint
history_view_test_n_shown (Fixture *f)
{
  browse_test_wait_for (!triage_history_view_get_loading (f->view));
  return g_list_model_get_n_items (G_LIST_MODEL (triage_history_view_get_model (f->view)));
}

/* The entry at @position is read and has that title (asking reads its page). */
gboolean
history_view_test_title_is (GListModel *model,
                            guint       position,
                            const char *title)
{
  g_autoptr(TriageHistoryEntry) entry = g_list_model_get_item (model, position);

  return entry != NULL && g_strcmp0 (triage_history_entry_get_title (entry), title) == 0;
}

GtkWidget *
history_view_test_find_widget (GtkWidget *widget,
                               GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type) &&
      (type != GTK_TYPE_LIST_VIEW || gtk_widget_has_css_class (widget, "history-list")))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = history_view_test_find_widget (child, type);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* A row that shows a read entry (not a placeholder for one). */
TriageHistoryRow *
history_view_test_first_row_read (Fixture *f)
{
  TriageHistoryRow *row = TRIAGE_HISTORY_ROW (history_view_test_find_widget (GTK_WIDGET (f->view), TRIAGE_TYPE_HISTORY_ROW));

  if (row == NULL || triage_history_row_get_entry (row) == NULL ||
      triage_history_entry_get_id (triage_history_row_get_entry (row)) == NULL)
    return NULL;

  return row;
}

void
history_view_test_store_newer (Fixture *f,
                               guint    from,
                               guint    n)
{
  for (guint i = from; i < from + n; i++)
    {
      g_autofree char *id = g_strdup_printf ("dddddddd-0000-4000-8000-0000000000%02u", i);
      g_autofree char *title = g_strdup_printf ("Newer %u", i);
      g_autoptr(AtpNotification) notification =
        browse_test_notification (id, "CI", NULL, title, "d",
                                  BROWSE_TEST_BASE_USEC + (100 + i) * G_TIME_SPAN_DAY, 0);

      browse_test_save (f->store, notification);
    }
}
