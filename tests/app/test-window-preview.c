/* test-window-preview.c — test-window's previews over the request: an
 * attachment and a request's whole text, opened in the window and closed back
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "triage-attachment-page.h"
#include "triage-attachment-view.h"
#include "window-test-common.h"

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
                                           WINDOW_TEST_ID_A, data);
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
  window = window_test_new_window (model);
  n_toplevels = g_list_model_get_n_items (gtk_window_get_toplevels ());
  g_assert_true (triage_window_show_request (window, WINDOW_TEST_ID_A));
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
  g_assert_true (window_test_focus_inside (window, GTK_WIDGET (page)));

  /* Ctrl+F (the application's) searches the preview, not the inbox. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.search", NULL);
  g_assert_true (window_test_focus_inside (window, GTK_WIDGET (page)));

  /* Escape (the page's back): the request as it was, the keyboard on the
   * row; the page gone, with what it held. */
  g_object_add_weak_pointer (G_OBJECT (page), (gpointer *) &page);
  gtk_widget_activate_action (GTK_WIDGET (view), "page.back", NULL);
  g_assert_null (triage_window_get_attachment_view (window));
  g_assert_cmpstr (window_test_current_id (window), ==, WINDOW_TEST_ID_A);
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
  g_assert_true (window_test_focus_inside (window,
                                           GTK_WIDGET (triage_window_get_history_view (window))));

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

  window_test_destroy_window (window);
}

void
window_test_add_preview (void)
{
  g_test_add_func ("/window/preview", test_preview);
}
