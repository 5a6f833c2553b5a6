/* in-process-history.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The history: every request and its outcome in the store and the view,
 * attachments in preview windows, and history-retention-days.
 */

#include "in-process-common.h"
#include "triage-request-banner.h"

/* Every request and its outcome, in the store and in the history view */
/* Pages of the history are read on its page thread: an entry is a
 * placeholder (no id) until its page arrives. */
static gboolean
history_entry_is_read (GListModel *list,
                       guint       position)
{
  g_autoptr(TriageHistoryEntry) entry = g_list_model_get_item (list, position);

  return entry != NULL && triage_history_entry_get_id (entry) != NULL;
}

/* Searches the history view for what names exactly one request, and waits
 * until its page is read. */
static void
search_history_one (TriageHistoryView *history,
                    const char        *text)
{
#define MODEL G_LIST_MODEL (triage_history_view_get_model (history))
  triage_history_view_set_search_text (history, text);
  app_test_wait_for (!triage_history_view_get_loading (history) && g_list_model_get_n_items (MODEL) == 1,
                     APP_TEST_WAIT_MS);
  app_test_wait_for (history_entry_is_read (MODEL, 0), APP_TEST_WAIT_MS);
#undef MODEL
}

void
test_app_history_recorded (void)
{
  const char *simple = "[{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"},"
                       " {\"id\": \"why\", \"label\": \"Why\", \"response_type\": \"text\"}]";
  g_autofree char *here = NULL;
  g_autofree char *elsewhere = NULL;
  g_autofree char *withdrawn = NULL;
  g_autofree char *expiring = NULL;
  g_autofree char *body = NULL;
  g_autofree char *path = NULL;
  g_autoptr(JsonNode) reply = NULL;
  TriageHistoryView *history;
  guint status = 0;

  test_app_wait_connected ();
  here = app_test_server_post (test_app_server, "History answered here?", simple);
  elsewhere = app_test_server_post (test_app_server, "History answered elsewhere?", simple);
  withdrawn = app_test_server_post (test_app_server, "History withdrawn?", simple);
  expiring = app_test_server_post_full (test_app_server, "History expired?", simple,
                                        APP_TEST_EXPIRES_IN_S);
  app_test_wait_for (triage_inbox_model_lookup (triage_application_get_inbox (test_app), here) != NULL &&
                     triage_inbox_model_lookup (triage_application_get_inbox (test_app), expiring) != NULL,
                     APP_TEST_WAIT_MS);

  /* Seen: every one reaches the history, pending. The store writes on its
   * worker thread, so the row lands a moment after the inbox has it: wait
   * for the save to complete (it returns to the main loop), not for the inbox. */
  app_test_wait_for (test_app_history_matches (here, "outcome = 'none'"
                                                     " AND title = 'History answered here?'"),
                     APP_TEST_WAIT_MS);

  test_app_respond (here, "why", "\"Because the tests pass\"");
  body = g_strdup_printf ("{\"notification_id\": \"%s\", \"action_id\": \"why\","
                          " \"response_data\": \"From my phone\"}", elsewhere);
  reply = app_test_server_call (test_app_server, "POST", "/api/v1/client/respond", body, &status);
  g_assert_cmpuint (status, ==, 200);
  g_clear_pointer (&reply, json_node_unref);
  path = g_strconcat ("/api/v1/notifications/", withdrawn, NULL);
  reply = app_test_server_call (test_app_server, "PATCH", path,
                                "{\"status\": \"invalidated\", \"reason\": \"Not needed after all\"}",
                                &status);
  g_assert_cmpuint (status, ==, 200);

  /* Answered here: the action, the data, by a person, when; delivered. */
  app_test_wait_for (test_app_history_matches (here, "outcome = 'answered' AND action_id = 'why'"
                                                     " AND response_data = '\"Because the tests pass\"'"
                                                     " AND responder_type = 'human'"
                                                     " AND answered_at >= created_at"
                                                     " AND delivered_at IS NOT NULL"),
                     APP_TEST_WAIT_MS);
  /* Answered elsewhere: what the server recorded, who, when. */
  app_test_wait_for (test_app_history_matches (elsewhere, "outcome = 'answered-elsewhere'"
                                                          " AND action_id = 'why'"
                                                          " AND response_data = '\"From my phone\"'"
                                                          " AND responder_id = 'default'"
                                                          " AND answered_at >= created_at"),
                     APP_TEST_WAIT_MS);
  app_test_wait_for (test_app_history_matches (withdrawn, "outcome = 'invalidated'"
                                                          " AND status_reason = 'Not needed after all'"),
                     APP_TEST_WAIT_MS);
  app_test_wait_for (test_app_history_matches (expiring, "outcome = 'expired' AND status = 'expired'"),
                     APP_TEST_WAIT_MS);

  /* And the window's history view finds them. */
  history = triage_window_get_history_view (test_app_window ());
  app_test_wait_for (triage_history_view_get_db (history) != NULL, APP_TEST_WAIT_MS);
  triage_window_show_view (test_app_window (), "history");
  search_history_one (history, "History answered elsewhere");
  {
    g_autoptr(TriageHistoryEntry) entry =
      g_list_model_get_item (G_LIST_MODEL (triage_history_view_get_model (history)), 0);
    g_autofree char *answer = triage_history_entry_dup_answer_text (entry);
    g_autofree char *who = triage_history_entry_dup_responder_text (entry);

    g_assert_cmpstr (triage_history_entry_get_id (entry), ==, elsewhere);
    g_assert_cmpint (triage_history_entry_get_outcome (entry), ==, TRIAGE_OUTCOME_ANSWERED_ELSEWHERE);
    g_assert_cmpstr (answer, ==, "‘Why’: “From my phone”");
    g_assert_cmpstr (who, ==, "default");
    g_assert_cmpint (triage_history_entry_get_response_time (entry), >=, 0);
  }
  /* Who answered here: the person using the app (the server's reply to an
   * answer names no responder). */
  search_history_one (history, "History answered here");
  {
    g_autoptr(TriageHistoryEntry) entry =
      g_list_model_get_item (G_LIST_MODEL (triage_history_view_get_model (history)), 0);
    g_autofree char *who = triage_history_entry_dup_responder_text (entry);

    g_assert_cmpstr (triage_history_entry_get_id (entry), ==, here);
    g_assert_cmpint (triage_history_entry_get_outcome (entry), ==, TRIAGE_OUTCOME_ANSWERED);
    g_assert_cmpstr (who, ==, "You");
    g_assert_cmpint (triage_history_entry_get_response_time (entry), >=, 0);
  }
  triage_history_view_set_search_text (history, "");
  triage_window_show_view (test_app_window (), "inbox");
}

/* Attachments open in a preview over the request, in the main window, by
 * type; nothing is fetched by itself, and a file: address is refused. */

static char *
png_base64 (void)
{
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, 40, 30);
  g_autofree char *buffer = NULL;
  gsize size = 0;

  gdk_pixbuf_fill (pixbuf, 0x3584e4ff);
  g_assert_true (gdk_pixbuf_save_to_buffer (pixbuf, &buffer, &size, "png", NULL, NULL));
  return g_base64_encode ((const guchar *) buffer, size);
}

void
test_app_attachments (void)
{
  const char *plan = "{\"replicas\":3,\"zone\":\"eu\"}";
  g_autofree char *json = g_base64_encode ((const guchar *) plan, strlen (plan));
  g_autofree char *png = png_base64 ();
  g_autofree char *body = NULL;
  g_autofree char *id = g_uuid_string_random ();
  g_autoptr(JsonNode) reply = NULL;
  guint n_toplevels;
  struct { TriageAttachmentKind kind; } expected[] = {
    { TRIAGE_ATTACHMENT_KIND_JSON },
    { TRIAGE_ATTACHMENT_KIND_IMAGE },
    { TRIAGE_ATTACHMENT_KIND_REMOTE },
    { TRIAGE_ATTACHMENT_KIND_ERROR },
  };
  guint status = 0;

  test_app_wait_connected ();
  body = g_strdup_printf ("{\"id\": \"%s\", \"context\": {\"title\": \"Attachments?\","
                          " \"description\": \"Four of them.\", \"attachments\": ["
                          "  {\"type\": \"application/json\", \"description\": \"plan.json\", \"data\": \"%s\"},"
                          "  {\"type\": \"image/png\", \"description\": \"graph\", \"data\": \"%s\"},"
                          "  {\"type\": \"text/plain\", \"description\": \"log\","
                          "   \"uri\": \"https://logs.example.com/run/42.txt\"},"
                          "  {\"type\": \"text/plain\", \"description\": \"secrets\","
                          "   \"uri\": \"file:///etc/passwd\"}]},"
                          " \"actions\": [{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}]}",
                          id, json, png);
  reply = app_test_server_call (test_app_server, "POST", "/api/v1/notifications", body, &status);
  g_assert_cmpuint (status, ==, 201);
  test_app_open_request (id);
  g_assert_cmpuint (triage_decision_view_get_notification (test_app_decision_view ())
                      ->context.attachments->len, ==, 4);

  n_toplevels = g_list_model_get_n_items (gtk_window_get_toplevels ());
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      TriageAttachmentView *view;

      g_signal_emit_by_name (test_app_decision_view (), "attachment-activated", i);
      view = triage_window_get_attachment_view (test_app_window ());
      g_assert_nonnull (view);
      g_assert_cmpuint (g_list_model_get_n_items (gtk_window_get_toplevels ()), ==, n_toplevels);
      app_test_wait_for (triage_attachment_view_get_kind (view) == expected[i].kind, APP_TEST_WAIT_MS);
      if (expected[i].kind == TRIAGE_ATTACHMENT_KIND_JSON)
        {
          g_autofree char *text = triage_attachment_view_get_text (view);

          /* Pretty-printed: one member a line, indented. */
          g_assert_nonnull (strstr (text, "\n  \"replicas\""));
        }
      else if (expected[i].kind == TRIAGE_ATTACHMENT_KIND_IMAGE)
        g_assert_cmpint (gdk_paintable_get_intrinsic_width (triage_attachment_view_get_paintable (view)), ==, 40);
      else if (expected[i].kind == TRIAGE_ATTACHMENT_KIND_ERROR)
        g_assert_error ((GError *) triage_attachment_view_get_error (view),
                        TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_URI_REFUSED);
      /* The https one is an address to load on request: nothing fetched. */

      /* Back to the request, as it was. */
      gtk_widget_activate_action (GTK_WIDGET (test_app_window ()), "win.back", NULL);
      g_assert_null (triage_window_get_attachment_view (test_app_window ()));
      g_assert_cmpstr (triage_request_get_id (triage_window_get_current_request (test_app_window ())),
                       ==, id);
    }
}

/* The history keeps what history-retention-days says: older settled
 * requests go when the setting changes (and at start, and daily). */
void
test_app_history_retention (void)
{
  g_autoptr(GSettings) settings = g_settings_new (TRIAGE_SETTINGS_SCHEMA);
  g_autofree char *path = g_build_filename (g_get_user_data_dir (), "triage", "triage.db", NULL);
  g_autofree char *old = NULL;
  g_autofree char *recent = NULL;
  sqlite3 *db = NULL;

  test_app_wait_connected ();
  old = app_test_server_post (test_app_server, "Long forgotten?",
                              "[{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}]");
  recent = app_test_server_post (test_app_server, "Recently settled?",
                                 "[{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}]");
  app_test_wait_for (triage_inbox_model_lookup (triage_application_get_inbox (test_app), old) != NULL &&
                     triage_inbox_model_lookup (triage_application_get_inbox (test_app), recent) != NULL,
                     APP_TEST_WAIT_MS);
  test_app_respond (old, "ok", "null");
  test_app_respond (recent, "ok", "null");
  app_test_wait_for (test_app_history_matches (old, "outcome = 'answered'") &&
                     test_app_history_matches (recent, "outcome = 'answered'"), APP_TEST_WAIT_MS);

  /* One of them last changed 100 days ago. */
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  sqlite3_busy_timeout (db, 5000);
  {
    g_autofree char *sql = g_strdup_printf ("UPDATE notifications SET updated_at = updated_at - %"
                                            G_GINT64_FORMAT " WHERE id = '%s'",
                                            (gint64) 100 * 24 * 3600 * G_USEC_PER_SEC, old);

    g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  }
  sqlite3_close (db);

  g_settings_set_uint (settings, "history-retention-days", 30);
  app_test_wait_for (!test_app_history_matches (old, "1"), APP_TEST_WAIT_MS);
  g_assert_true (test_app_history_matches (recent, "1"));
  g_settings_reset (settings, "history-retention-days");
}

/* A request the server no longer has when the app asks what became of it
 * (here: the server came back on a new database while the app was away;
 * likewise one settled and then forgotten by retention, or a token of
 * another user): 404. It leaves the inbox, and the view and the history say
 * it is no longer on the server, not that it was answered elsewhere, which
 * is not known. Run last: the server keeps the new database. */
void
test_app_gone_while_away (void)
{
  g_autofree char *id = NULL;
  GObject *banner;

  test_app_wait_connected ();
  id = app_test_server_post (test_app_server, "Gone while away?",
                             "[{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}]");
  test_app_open_request (id);
  app_test_wait_for (test_app_history_matches (id, "outcome = 'none'"), APP_TEST_WAIT_MS);

  app_test_server_stop (test_app_server, TRUE);
  app_test_wait_for (triage_application_get_connection (test_app) != TRIAGE_CONNECTION_CONNECTED,
                     APP_TEST_WAIT_MS);
  g_free (test_app_server->database);
  test_app_server->database = g_build_filename (g_get_user_data_dir (), "server-new.db", NULL);
  app_test_server_start (test_app_server);
  g_action_group_activate_action (G_ACTION_GROUP (test_app), "retry", NULL);

  app_test_wait_for (test_app_history_matches (id, "outcome = 'gone'"), APP_TEST_WAIT_MS);
  g_assert_null (triage_inbox_model_lookup (triage_application_get_inbox (test_app), id));
  banner = gtk_widget_get_template_child (GTK_WIDGET (test_app_decision_view ()),
                                          TRIAGE_TYPE_DECISION_VIEW, "banner");
  g_assert_cmpstr (triage_request_banner_get_title (TRIAGE_REQUEST_BANNER (banner)), ==,
                   "No longer on the server");
  g_assert_nonnull (strstr (triage_request_banner_get_detail (TRIAGE_REQUEST_BANNER (banner)),
                            "Whether it was answered is not known"));
  g_assert_true (triage_decision_view_get_read_only (test_app_decision_view ()));
}
