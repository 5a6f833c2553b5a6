/* test-window-history.c — test-window's history view: past requests opened
 * read-only, each outcome said, a pending one answered in the inbox
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "browse-test-common.h"
#include "triage-decision-view.h"
#include "triage-request-banner.h"
#include "window-test-common.h"

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
  TriageWindow *window = window_test_new_window (model);
  TriageHistoryView *history = triage_window_get_history_view (window);
  TriageDecisionView *past = TRIAGE_DECISION_VIEW (triage_window_get_past_view (window));
  AdwLeaflet *leaflet = window_test_child (window, "history_leaflet");
  GtkWidget *detail = window_test_child (window, "history_detail_page");
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
  g_assert_true (window_test_focus_inside (window, GTK_WIDGET (history)));

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
  g_assert_cmpstr (window_test_current_id (window), ==, triage_history_entry_get_id (entry));

  window_test_destroy_window (window);
  browse_test_finalize (g_steal_pointer (&db));
  browse_test_close_store (&store);
  browse_test_rm_rf (dir);
}

void
window_test_add_history (void)
{
  g_test_add_func ("/window/history", test_history);
}
