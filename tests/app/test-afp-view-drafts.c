/* test-afp-view-drafts.c — an AFP review's draft (suite 'ui'): kept in a
 * real SQLite store as the person types and read back into a new view, or
 * in memory without a store; gone once the answer leaves
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-afp-view-drafts"

#include <string.h>

#include "afp-view-test-common.h"
#include "app-test-common.h"
#include "store-test-common.h"

/* What the person types is kept in the store as they type, read back when
 * the review is shown again (a new view: the window was closed), and goes
 * when the answer is sent. */
static void
test_draft (Fixture       *fixture,
            gconstpointer  data)
{
  char *dir = NULL;
  TriageStore *store = afp_view_test_open_store (&dir);
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) shown = NULL;
  TriageAfpView *again;
  GtkWidget *window;

  g_object_set (fixture->view, "store", store, NULL);

  afp_view_test_show_seed (fixture, 1);
  shown = atp_notification_ref (fixture->notification);
  afp_view_test_choose_level (fixture, "Lo_w");
  afp_view_test_type (afp_view_test_nth_entry (fixture, 1), "Half-way");
  WAIT_UNTIL (({ g_autofree char *json = store_test_load_draft (store, shown->id);
                 json != NULL && strstr (json, "Half-way") != NULL; }));

  /* Another window: a new view, the same store. */
  again = TRIAGE_AFP_VIEW (triage_afp_view_new ());
  g_object_set (again, "store", store, NULL);
  window = widgets_test_window (GTK_WIDGET (again), 600, 900);
  triage_request_view_set_request (TRIAGE_REQUEST_VIEW (again), shown);
  WAIT_UNTIL (!triage_afp_editor_is_empty (triage_afp_view_get_editor (again)));
  {
    g_autoptr(JsonNode) back = triage_afp_editor_dup_feedback (triage_afp_view_get_editor (again));
    g_autofree char *json = json_to_string (back, FALSE);

    g_assert_nonnull (strstr (json, "\"level\":\"low\""));
    g_assert_nonnull (strstr (json, "Half-way"));
  }
  g_object_set (again, "store", NULL, NULL);
  widgets_test_window_destroy (window, &again);

  /* Declined: the outbox takes the draft (here the store's trigger, as the app adds it). */
  triage_afp_view_decline (fixture->view, NULL);
  g_assert_cmpuint (fixture->record.count, ==, 1);
  {
    g_autoptr(GAsyncResult) added = NULL;
    g_autoptr(TriageOutboxEntry) entry = NULL;
    g_autofree char *gone = NULL;

    g_autoptr(JsonNode) empty = json_from_string ("{}", NULL);

    triage_store_outbox_add_async (store, shown->id, "decline", empty, NULL, NULL, app_test_result_cb, &added);
    app_test_wait_result (added);
    entry = triage_store_outbox_add_finish (store, added, &error);
    g_assert_no_error (error);
    gone = store_test_load_draft (store, shown->id);
    g_assert_null (gone);
  }

  afp_view_test_close_store (fixture, store, dir);
}

/* With no store, what was written for a review is kept in memory while
 * another is open, and put back when it returns, as ATP's and AITP's views
 * do (one TriageDraftKeeper). Sent, it is kept no more. */
static void
test_draft_in_memory (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(AtpNotification) first = NULL;
  TriageAfpEditor *editor = triage_afp_view_get_editor (fixture->view);

  afp_view_test_show_seed (fixture, 1);
  first = atp_notification_ref (fixture->notification);
  afp_view_test_choose_level (fixture, "Lo_w");
  afp_view_test_type (afp_view_test_nth_entry (fixture, 1), "Half-way");

  afp_view_test_show_seed (fixture, 1);
  g_assert_true (triage_afp_editor_is_empty (editor));

  triage_request_view_set_request (TRIAGE_REQUEST_VIEW (fixture->view), first);
  widgets_test_pump ();
  {
    g_autoptr(JsonNode) back = triage_afp_editor_dup_feedback (editor);
    g_autofree char *json = json_to_string (back, FALSE);

    g_assert_nonnull (strstr (json, "\"level\":\"low\""));
    g_assert_nonnull (strstr (json, "Half-way"));
  }

  triage_afp_view_decline (fixture->view, NULL);
  g_assert_cmpuint (fixture->record.count, ==, 1);
  g_assert_null (triage_draft_keeper_lookup (fixture->view->drafts, first->id));
}

int
main (int   argc,
      char *argv[])
{
  widgets_test_init (&argc, &argv);

  AFP_VIEW_TEST_ADD ("draft", test_draft);
  AFP_VIEW_TEST_ADD ("draft-in-memory", test_draft_in_memory);

  return g_test_run ();
}
