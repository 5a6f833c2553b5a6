/* test-window-drafts.c — test-window's drafts that cannot be written: the
 * window says so in one toast, which stays until a draft is written again
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The disk fills as the chaos tests fill it (tests/chaos/test-chaos-app.py):
 * this process's file size limit (RLIMIT_FSIZE) drops to 0 with SIGXFSZ
 * ignored, so the window's writes to its real SQLite file fail with EFBIG,
 * as on a full disk.
 */

#include <signal.h>
#include <sys/resource.h>

#include "browse-test-common.h"
#include "triage-decision-view.h"
#include "triage-response-editor-private.h"
#include "store-test-common.h"
#include "window-test-common.h"

#define TOAST_START "Drafts are not being saved"

/* How many toasts of the window's say drafts are not saved. */
static guint
count_toasts (GtkWidget *widget)
{
  guint count = 0;

  if (GTK_IS_LABEL (widget) && g_str_has_prefix (gtk_label_get_label (GTK_LABEL (widget)), TOAST_START) &&
      gtk_widget_get_ancestor (widget, ADW_TYPE_TOAST_OVERLAY) != NULL)
    count++;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    count += count_toasts (child);
  return count;
}

/* Types @text into the open request's "why" and writes its draft at once,
 * as the person stopping does half a second later. */
static void
type_and_write (TriageWindow *window,
                const char   *text)
{
  GtkWidget *view = triage_window_get_decision_view (window);
  GtkWidget *editor = triage_decision_view_get_editor (TRIAGE_DECISION_VIEW (view), "why");
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (
    triage_response_editor_get_input (TRIAGE_RESPONSE_EDITOR (editor))));

  gtk_text_buffer_set_text (buffer, text, -1);
  triage_draft_keeper_flush (triage_request_view_get_drafts (TRIAGE_REQUEST_VIEW (view)));
  triage_store_wait_all ();
  browse_test_pump ();
}

static void
set_file_size_limit (rlim_t limit)
{
  struct rlimit rl;

  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &rl), ==, 0);
  rl.rlim_cur = limit;
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &rl), ==, 0);
}

static void
test_write_fails (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  g_autofree char *dir = g_dir_make_tmp ("triage-window-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "triage.db", NULL);
  g_autoptr(TriageStore) store = browse_test_open_store (path);
  g_autoptr(TriageHistoryDb) db = browse_test_open_history (path);
  g_autoptr(AtpNotification) a = app_test_notification (WINDOW_TEST_ID_A, 60, 10,
    "[{\"id\": \"why\", \"label\": \"Why\", \"response_type\": \"text\"}]");
  TriageWindow *window = window_test_new_window (model);
  struct rlimit before;

  triage_window_set_history_db (window, db);
  triage_store_wait_all ();
  triage_inbox_model_add (model, a, NULL);
  g_assert_true (triage_window_show_request (window, WINDOW_TEST_ID_A));
  type_and_write (window, "Kept");
  g_assert_cmpuint (count_toasts (GTK_WIDGET (window)), ==, 0);

  /* The disk full: said once, however many drafts fail. */
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &before), ==, 0);
  signal (SIGXFSZ, SIG_IGN);
  set_file_size_limit (0);
  type_and_write (window, "Not kept");
  g_assert_cmpuint (count_toasts (GTK_WIDGET (window)), ==, 1);
  type_and_write (window, "Not kept either");
  g_assert_cmpuint (count_toasts (GTK_WIDGET (window)), ==, 1);

  /* Space is back: the next draft is written, and the toast goes. */
  set_file_size_limit (before.rlim_cur);
  type_and_write (window, "Kept again");
  app_test_wait_for (count_toasts (GTK_WIDGET (window)) == 0, APP_TEST_WAIT_MS);

  /* Full again: a new episode, said again. */
  set_file_size_limit (0);
  type_and_write (window, "Not kept, again");
  g_assert_cmpuint (count_toasts (GTK_WIDGET (window)), ==, 1);
  set_file_size_limit (before.rlim_cur);
  signal (SIGXFSZ, SIG_DFL);

  window_test_destroy_window (window);
  browse_test_finalize (g_steal_pointer (&db));
  browse_test_close_store (&store);
  browse_test_rm_rf (dir);
}

static gboolean
stored_draft_holds (TriageStore *store,
                    const char  *id,
                    const char  *text)
{
  g_autofree char *json = store_test_load_draft (store, id);

  return json != NULL && strstr (json, text) != NULL;
}

/* A draft that could not be written, of a request the person has left, is
 * written once a draft is written again, here another request's: it does
 * not wait for the person to come back and change it. */
static void
test_left_draft_written_later (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  g_autofree char *dir = g_dir_make_tmp ("triage-window-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "triage.db", NULL);
  g_autoptr(TriageStore) store = browse_test_open_store (path);
  g_autoptr(TriageHistoryDb) db = browse_test_open_history (path);
  const char *actions = "[{\"id\": \"why\", \"label\": \"Why\", \"response_type\": \"text\"}]";
  g_autoptr(AtpNotification) a = app_test_notification (WINDOW_TEST_ID_A, 60, 10, actions);
  g_autoptr(AtpNotification) b = app_test_notification (WINDOW_TEST_ID_B, 60, 10, actions);
  TriageWindow *window = window_test_new_window (model);
  struct rlimit before;

  triage_window_set_history_db (window, db);
  triage_store_wait_all ();
  triage_inbox_model_add (model, a, NULL);
  triage_inbox_model_add (model, b, NULL);
  g_assert_true (triage_window_show_request (window, WINDOW_TEST_ID_A));
  type_and_write (window, "Kept");
  g_assert_true (stored_draft_holds (store, WINDOW_TEST_ID_A, "Kept"));

  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &before), ==, 0);
  signal (SIGXFSZ, SIG_IGN);
  set_file_size_limit (0);
  type_and_write (window, "Typed while the disk was full");
  g_assert_cmpuint (count_toasts (GTK_WIDGET (window)), ==, 1);
  g_assert_true (triage_window_show_request (window, WINDOW_TEST_ID_B));

  set_file_size_limit (before.rlim_cur);
  signal (SIGXFSZ, SIG_DFL);
  type_and_write (window, "Written");
  g_assert_true (stored_draft_holds (store, WINDOW_TEST_ID_B, "Written"));
  app_test_wait_for (stored_draft_holds (store, WINDOW_TEST_ID_A, "Typed while the disk was full"),
                     APP_TEST_WAIT_MS);

  window_test_destroy_window (window);
  browse_test_finalize (g_steal_pointer (&db));
  browse_test_close_store (&store);
  browse_test_rm_rf (dir);
}

void
window_test_add_drafts (void)
{
  g_test_add_func ("/window/drafts/write-fails", test_write_fails);
  g_test_add_func ("/window/drafts/left-draft-written-later", test_left_draft_written_later);
}
