/* afp-view-test-common.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-afp-view"

#include "afp-view-test-common.h"

#include "app-test-common.h"

void
afp_view_test_setup (Fixture       *fixture,
                     gconstpointer  data)
{
  fixture->view = TRIAGE_AFP_VIEW (triage_afp_view_new ());
  g_signal_connect (fixture->view, "submit", G_CALLBACK (widgets_test_on_view_submit_record),
                    &fixture->record);
  fixture->window = widgets_test_window (GTK_WIDGET (fixture->view), 600, 900);
}

void
afp_view_test_teardown (Fixture       *fixture,
                        gconstpointer  data)
{
  widgets_test_view_teardown (fixture->window, &fixture->view, &fixture->notification,
                              &fixture->record);
}

void
afp_view_test_show_review (Fixture      *fixture,
                           AtpAfpReview *review)
{
  g_autofree char *id = atp_new_uuid ();

  g_clear_pointer (&fixture->notification, atp_notification_unref);
  fixture->notification = app_test_afp_notification_new (id, "Dark Mode Spec", review);
  triage_request_view_set_request (TRIAGE_REQUEST_VIEW (fixture->view), fixture->notification);
  widgets_test_pump ();
}

void
afp_view_test_show_seed (Fixture *fixture,
                         int      iteration)
{
  g_autoptr(AtpAfpReview) review = app_test_afp_seed_review (iteration);

  afp_view_test_show_review (fixture, review);
}

void
afp_view_test_type (GtkEditable *editable,
                    const char  *text)
{
  g_assert_nonnull (editable);
  gtk_editable_set_text (editable, text);
  widgets_test_pump ();
}

/* The editor's entries in reading order. */
static void
collect_entries (GtkWidget *root,
                 GPtrArray *entries)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_ENTRY (child))
        g_ptr_array_add (entries, child);
      else
        collect_entries (child, entries);
    }
}

GtkEditable *
afp_view_test_nth_entry (Fixture *fixture,
                         guint    index)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new ();

  collect_entries (GTK_WIDGET (triage_afp_view_get_editor (fixture->view)), entries);
  g_assert_cmpuint (index, <, entries->len);
  return entries->pdata[index];
}

void
afp_view_test_choose_level (Fixture    *fixture,
                            const char *mnemonic)
{
  GtkWidget *editor = GTK_WIDGET (triage_afp_view_get_editor (fixture->view));
  GtkWidget *button = widgets_test_find_descendant (editor, GTK_TYPE_CHECK_BUTTON);

  for (; button != NULL; button = gtk_widget_get_next_sibling (button))
    if (g_strcmp0 (gtk_check_button_get_label (GTK_CHECK_BUTTON (button)), mnemonic) == 0)
      {
        gtk_check_button_set_active (GTK_CHECK_BUTTON (button), TRUE);
        widgets_test_pump ();
        return;
      }

  g_assert_not_reached ();
}

/* A store of its own, open, in a new folder (*dir, for afp_view_test_close_store ()). */
TriageStore *
afp_view_test_open_store (char **dir)
{
  g_autofree char *path = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  TriageStore *store;

  *dir = g_dir_make_tmp ("triage-afp-view-XXXXXX", NULL);
  path = g_build_filename (*dir, "triage.db", NULL);
  store = triage_store_new (path);
  triage_store_open_async (store, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);
  g_assert_true (triage_store_open_finish (store, result, &error));
  return store;
}

/* The view lets go of @store, which must then go, and its folder with it. */
void
afp_view_test_close_store (Fixture     *fixture,
                           TriageStore *store,
                           char        *dir)
{
  g_object_set (fixture->view, "store", NULL, NULL);
  app_test_finalize_object (store);
  app_test_rm_rf (dir);
  g_free (dir);
}
