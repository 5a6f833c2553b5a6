/* app-test-stall-window.h — the windows in which the stall cases are shown
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by tests/app/test-stall.c (which asserts a bound) and
 * bench/app/bench-preview.c (which prints the figures), beside
 * app-test-stall.h, which needs no display.
 */

#pragma once

#include <adwaita.h>

#include "app-test-common.h"
#include "app-test-stall.h"
#include "triage-attachment-page.h"
#include "triage-decision-view.h"
#include "triage-history-entry.h"
#include "triage-history-row.h"
#include "triage-inbox-row.h"
#include "triage-request.h"
#include "triage-window.h"

/* An AFP review of one line without spaces, as long as AFP takes (a request
 * is at most 400 KiB of JSON). */
static inline AtpNotification *
app_test_stall_afp_long_line (void)
{
  g_autoptr(GBytes) line = app_test_stall_long_line ();
  g_autofree char *content = g_strndup (g_bytes_get_data (line, NULL), 400000);
  g_autofree char *json = g_strdup_printf ("{\"iteration\": 1, \"artifact\": {\"media_type\": \"text/plain\","
                                           " \"content\": \"%s\"}}", content);
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAfpRequest) request = atp_afp_request_new_from_data (json, -1, &error);
  g_autoptr(AtpAfpReview) review = NULL;
  g_autofree char *id = g_uuid_string_random ();

  g_assert_no_error (error);
  review = atp_afp_review_new ("ses_0123456789abcdefABCDEF", request);

  return app_test_afp_notification_new (id, "One long line", review);
}

/*
 * An AITP request of @type ("radio", "checkbox", "products") of @n_options
 * options, each product with @n_variants variants: at most 100 of each
 * (ATP_AITP_MAX_OPTIONS), every one a widget of its own in the view.
 */
static inline AtpNotification *
app_test_stall_aitp_options (const char *type,
                             guint       n_options,
                             guint       n_variants)
{
  g_autoptr(GString) message = g_string_new (NULL);
  g_autofree char *id = g_uuid_string_random ();

  g_string_append_printf (message, "{\"$schema\": \"https://aitp.dev/v1/decisions/schema.json\","
                          " \"request_decision\": {\"id\": \"many\", \"title\": \"Pick\","
                          " \"type\": \"%s\", \"options\": [", type);
  for (guint i = 0; i < n_options; i++)
    {
      g_string_append_printf (message, "%s{\"id\": \"o%u\", \"name\": \"Option %u\","
                              " \"description\": \"What option %u is\"",
                              i ? ", " : "", i, i, i);
      if (n_variants > 0)
        {
          g_string_append (message, ", \"variants\": [");
          for (guint v = 0; v < n_variants; v++)
            g_string_append_printf (message, "%s{\"id\": \"o%u-v%u\", \"name\": \"Option %u, variant %u\","
                                    " \"short_variant_name\": \"Variant %u\"}",
                                    v ? ", " : "", i, v, i, v, v);
          g_string_append (message, "]");
        }
      g_string_append (message, "}");
    }
  g_string_append (message, "]}}");

  return app_test_aitp_notification_new (id, "Many options", message->str);
}

/* A history entry of @notification, as the history reads it back. */
static inline TriageHistoryEntry *
app_test_stall_history_entry (AtpNotification *notification)
{
  TriageHistoryEntryData data = { 0 };

  data.id = g_strdup (notification->id);
  data.title = g_strdup (notification->context.title);
  data.description = g_strdup (notification->context.description);
  data.service_name = g_strdup (notification->service.name);
  data.created_at = g_get_real_time ();

  return triage_history_entry_new (&data);
}

/*
 * @notification shown as the app shows it, in @window (presented): an inbox
 * row of @request and a history row of @entry in a list, beside a new
 * decision view, in place of what @window showed. @inbox_row and
 * @history_row are set to the rows (transfer none).
 */
static inline void
app_test_stall_request_show (GtkWidget           *window,
                             AtpNotification     *notification,
                             TriageRequest       *request,
                             TriageHistoryEntry  *entry,
                             GtkWidget          **inbox_row,
                             GtkWidget          **history_row)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *list = gtk_list_box_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *decision_view = triage_decision_view_new ();

  gtk_widget_set_size_request (list, 300, -1);
  *inbox_row = triage_inbox_row_new ();
  triage_inbox_row_set_request (TRIAGE_INBOX_ROW (*inbox_row), request);
  gtk_list_box_append (GTK_LIST_BOX (list), *inbox_row);
  *history_row = triage_history_row_new ();
  triage_history_row_set_entry (TRIAGE_HISTORY_ROW (*history_row), entry);
  gtk_list_box_append (GTK_LIST_BOX (list), *history_row);
  gtk_box_append (GTK_BOX (box), list);

  triage_decision_view_set_notification (TRIAGE_DECISION_VIEW (decision_view), notification);
  gtk_widget_set_hexpand (scrolled, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), decision_view);
  gtk_box_append (GTK_BOX (box), scrolled);
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_present (GTK_WINDOW (window));
}

/*
 * app_test_stall_request_show() in a new window.
 *
 * Returns: (transfer none): the window; the caller destroys it
 */
static inline GtkWidget *
app_test_stall_request_window (AtpNotification     *notification,
                               TriageRequest       *request,
                               TriageHistoryEntry  *entry,
                               GtkWidget          **inbox_row,
                               GtkWidget          **history_row)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  app_test_stall_request_show (window, notification, request, entry, inbox_row, history_row);

  return window;
}

/*
 * The app's main window (made once, at start, and drawn), in which the app
 * previews attachments: over its views, with the GL context it has had since
 * its first frame. Its inbox is empty; @wait_drawn waits for its frames.
 *
 * Returns: (transfer full): the window; the caller destroys it
 */
static inline TriageWindow *
app_test_stall_app_window (void (*wait_drawn) (GtkWidget *window))
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  TriageWindow *window = triage_window_new (NULL, model);

  /* The app's size (960 × 640): a preview covers it, and with a software
   * GL each frame's cost grows with the pixels drawn. */
  gtk_window_present (GTK_WINDOW (window));
  wait_drawn (GTK_WIDGET (window));

  return window;
}

/*
 * What the app has done long before a request comes: fonts, styles, the
 * source view's languages loaded once, the rows' and the view's templates,
 * with small texts: an attachment page of a small JSON text, in a window
 * destroyed after (its GL context with it: it warms up nothing of the main
 * window's), and @notification in app_test_stall_request_window(), each
 * waited for with @wait_drawn. With @main_window, that window is kept (as
 * the app's main window is, made once) and returned there for the caller to
 * destroy.
 */
static inline void
app_test_stall_warm_up (AtpNotification *notification,
                        void           (*wait_drawn) (GtkWidget *window),
                        GtkWidget      **main_window)
{
  static const char small[] = "{\"a\": 1}";
  g_autoptr(GBytes) bytes = g_bytes_new_static (small, strlen (small));
  AppTestStallCase json = { "warm-up", "application/json", "a.json", NULL, NULL };
  AtpAttachment *attachment = app_test_stall_attachment (&json, bytes);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *page = triage_attachment_page_new ();
  g_autoptr(TriageRequest) request = triage_request_new (notification);
  g_autoptr(TriageHistoryEntry) entry = app_test_stall_history_entry (notification);
  GtkWidget *view_window, *inbox_row, *history_row;

  triage_attachment_page_set_attachment (TRIAGE_ATTACHMENT_PAGE (page), attachment, "Warm-up");
  gtk_window_present (GTK_WINDOW (window));
  wait_drawn (window);
  gtk_window_set_child (GTK_WINDOW (window), page);
  view_window = app_test_stall_request_window (notification, request, entry, &inbox_row, &history_row);
  wait_drawn (window);
  wait_drawn (view_window);
  gtk_window_destroy (GTK_WINDOW (window));
  if (main_window != NULL)
    *main_window = view_window;
  else
    gtk_window_destroy (GTK_WINDOW (view_window));
  app_test_stall_attachment_free (attachment);
}
