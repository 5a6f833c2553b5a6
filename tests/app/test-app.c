/* test-app.c — the application in-process against a real triage-server
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The whole app (store, outbox, inbox, stream, window, decision view) runs in
 * this process with a private XDG tree; a real `triage-server --local` runs
 * in that tree, so the app finds it by itself. For each of the seven
 * response types a request is posted as a service and checked end to end:
 * the window renders an editor for it, an invalid answer is refused before
 * it leaves (the server never sees it), a valid one is recorded by the
 * server. Confirmation is asked exactly for destructive, irreversible and
 * requires_confirmation. A request answered elsewhere, withdrawn or expiring
 * while it is open turns read-only and says so, also when that happened
 * while the app was away; a 409 on a queued answer is told, not dropped.
 *
 * The history is real: every request and what became of it (answered here
 * or elsewhere, with the action, the data, who and when; expired; withdrawn
 * with the reason) is in the app's database and in the window's history
 * view. Attachments open in previews by type (JSON pretty-printed, an image
 * decoded, an https address only offered, file: refused). Start at login
 * writes and removes the XDG autostart entry; the
 * status icon's menu (called over D-Bus as a tray would) opens a request,
 * Preferences and the window, and toggles do-not-disturb; every shortcut is
 * in the shortcuts window.
 */

#include <adwaita.h>
#include <sqlite3.h>
#include <unistd.h>

#include "app-test-server.h"
#include "app-test-application.h"
#include "triage-attachment-window.h"
#include "triage-confirm-dialog.h"
#include "triage-attachment-error.h"
#include "triage-preferences-window.h"
#include "triage-decision-view.h"
#include "triage-response-editor-private.h"

typedef struct
{
  const char *name;
  const char *action;       /* the action, as JSON */
  const char *invalid;      /* an answer that breaks its constraints */
  const char *valid;        /* one that does not */
  gboolean    blank_valid;  /* whether the editor's untouched answer is valid */
} TypeCase;

static const TypeCase type_cases[] = {
  { "simple",
    "{\"id\": \"a\", \"label\": \"Approve\", \"response_type\": \"simple\"}",
    "true", "null", TRUE },
  { "binary",
    "{\"id\": \"a\", \"label\": \"Logs?\", \"response_type\": \"binary\","
    " \"options\": {\"true_label\": \"Yes\", \"false_label\": \"No\"}}",
    "\"yes\"", "true", TRUE },
  { "choice",
    "{\"id\": \"a\", \"label\": \"Priority\", \"response_type\": \"choice\","
    " \"options\": [{\"value\": \"high\", \"label\": \"High\"}, {\"value\": \"low\", \"label\": \"Low\"}]}",
    "\"urgent\"", "\"low\"", FALSE },
  { "multi_choice",
    "{\"id\": \"a\", \"label\": \"Teams\", \"response_type\": \"multi_choice\","
    " \"options\": [{\"value\": \"eng\", \"label\": \"Eng\"}, {\"value\": \"sec\", \"label\": \"Sec\"},"
    "  {\"value\": \"ops\", \"label\": \"Ops\"}],"
    " \"constraints\": {\"min_selections\": 1, \"max_selections\": 2}}",
    "[\"eng\", \"sec\", \"ops\"]", "[\"eng\", \"ops\"]", FALSE },
  { "text",
    "{\"id\": \"a\", \"label\": \"Reason\", \"response_type\": \"text\","
    " \"constraints\": {\"min_length\": 5, \"max_length\": 20}}",
    "\"no\"", "\"Tests pass\"", FALSE },
  { "number",
    "{\"id\": \"a\", \"label\": \"Threshold\", \"response_type\": \"number\","
    " \"constraints\": {\"min\": 0.1, \"max\": 0.9, \"step\": 0.05}}",
    "0.93", "0.35", FALSE },
  { "scale",
    "{\"id\": \"a\", \"label\": \"Confidence\", \"response_type\": \"scale\","
    " \"constraints\": {\"min\": 1, \"max\": 5}}",
    "6", "4", FALSE },
};

static char *world;
static AppTestServer *server;
static TriageApplication *app;

static void
wait_connected (void)
{
  app_test_wait_for (triage_application_get_connection (app) == TRIAGE_CONNECTION_CONNECTED,
                     APP_TEST_WAIT_MS);
}

static TriageWindow *
window (void)
{
  app_test_wait_for (triage_application_get_window (app) != NULL, APP_TEST_WAIT_MS);
  return triage_application_get_window (app);
}

static TriageDecisionView *
decision_view (void)
{
  return TRIAGE_DECISION_VIEW (triage_window_get_decision_view (window ()));
}

static void
open_request (const char *id)
{
  TriageInboxModel *inbox = triage_application_get_inbox (app);

  app_test_wait_for (triage_inbox_model_lookup (inbox, id) != NULL, APP_TEST_WAIT_MS);
  g_action_group_activate_action (G_ACTION_GROUP (app), "open-request", g_variant_new_string (id));
  app_test_wait_for (triage_window_get_current_request (window ()) != NULL &&
                     g_str_equal (triage_request_get_id (triage_window_get_current_request (window ())), id),
                     APP_TEST_WAIT_MS);
}

/* An answer as the decision view gives it (no D-Bus action answers: any
 * program on the session bus could use it to skip a confirmation). */
static void
respond (const char *id,
         const char *action_id,
         const char *json)
{
  g_autoptr(JsonNode) data = atp_json_parse (json, -1, 0, NULL);

  g_assert_nonnull (data);
  g_signal_emit_by_name (window (), "submit", id, action_id, data);
}

static gboolean
outbox_empty (void)
{
  return triage_outbox_get_n_pending (triage_application_get_outbox (app)) == 0;
}

/* The app's database, as the history reads it */

static gboolean
history_matches (const char *id,
                 const char *condition)
{
  g_autofree char *path = g_build_filename (g_get_user_data_dir (), "triage", "triage.db", NULL);
  g_autofree char *sql = g_strdup_printf ("SELECT count(*) FROM notifications WHERE id = ?1 AND %s",
                                          condition);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gboolean found = FALSE;

  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
      sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) == SQLITE_OK)
    {
      sqlite3_bind_text (stmt, 1, id, -1, SQLITE_STATIC);
      found = sqlite3_step (stmt) == SQLITE_ROW && sqlite3_column_int (stmt, 0) == 1;
    }
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  return found;
}

static void
test_response_type (gconstpointer data)
{
  const TypeCase *tc = data;
  g_autofree char *actions = g_strdup_printf ("[%s]", tc->action);
  g_autofree char *title = g_strdup_printf ("Type %s?", tc->name);
  g_autofree char *id = NULL;
  g_autoptr(JsonObject) recorded = NULL;
  g_autoptr(JsonNode) expected = atp_json_parse (tc->valid, -1, 0, NULL);
  GtkWidget *editor;
  JsonObject *response;

  wait_connected ();
  id = app_test_server_post (server, title, actions);
  open_request (id);

  /* Rendered: an editor for the action; the description taking the focus
   * (as when a request opens) is not turned into one selected block. */
  {
    GtkWidget *description = GTK_WIDGET (gtk_widget_get_template_child (
      GTK_WIDGET (decision_view ()), TRIAGE_TYPE_DECISION_VIEW, "description_label"));
    int start, end;

    g_assert_true (gtk_widget_grab_focus (description));
    g_assert_false (gtk_label_get_selection_bounds (GTK_LABEL (description), &start, &end));
  }
  editor = triage_decision_view_get_editor (decision_view (), "a");
  g_assert_nonnull (editor);
  g_assert_cmpstr (triage_response_editor_get_action_id (TRIAGE_RESPONSE_EDITOR (editor)), ==, "a");

  /* Untouched: the editor holds its send control back and says why. */
  g_assert_cmpint (triage_response_editor_get_valid (TRIAGE_RESPONSE_EDITOR (editor)), ==, tc->blank_valid);
  if (!tc->blank_valid)
    {
      g_assert_false (triage_response_editor_submit (TRIAGE_RESPONSE_EDITOR (editor)));
      g_assert_nonnull (triage_response_editor_get_reason (TRIAGE_RESPONSE_EDITOR (editor)));
    }

  /* Invalid: refused here, the server never sees it. */
  respond (id, "a", tc->invalid);
  app_test_spin (300);
  g_assert_true (outbox_empty ());
  g_assert_false (app_test_server_is_responded (server, id));

  /* Valid: stored, sent, recorded. */
  respond (id, "a", tc->valid);
  app_test_wait_for (app_test_server_is_responded (server, id), APP_TEST_WAIT_MS);
  recorded = app_test_server_get (server, id);
  response = json_object_get_object_member (recorded, "response");
  g_assert_cmpstr (json_object_get_string_member (response, "action_id"), ==, "a");
  g_assert_true (atp_json_node_equal (json_object_get_member (response, "response_data"), expected));

  /* Delivered: the inbox lets it go, the outbox is empty. */
  app_test_wait_for (triage_inbox_model_lookup (triage_application_get_inbox (app), id) == NULL,
                     APP_TEST_WAIT_MS);
  app_test_wait_for (outbox_empty (), APP_TEST_WAIT_MS);
}

static TriageConfirmDialog *
find_confirm_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();   /* transfer none */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (toplevels, i);

      if (TRIAGE_IS_CONFIRM_DIALOG (item) && gtk_widget_get_visible (GTK_WIDGET (item)))
        return TRIAGE_CONFIRM_DIALOG (item);
    }

  return NULL;
}

static void
test_confirmation (gconstpointer data)
{
  const char *flag = data;
  gboolean needs = g_str_equal (flag, "destructive") || g_str_equal (flag, "irreversible") ||
                   g_str_equal (flag, "requires_confirmation");
  g_autofree char *actions = g_strdup_printf ("[{\"id\": \"go\", \"label\": \"Go ahead\","
                                              " \"response_type\": \"simple\", \"flags\": [\"%s\"]}]",
                                              flag);
  g_autofree char *title = g_strdup_printf ("Flag %s?", flag);
  g_autofree char *id = NULL;
  GtkWidget *editor;
  TriageConfirmDialog *dialog;

  wait_connected ();
  id = app_test_server_post (server, title, actions);
  open_request (id);
  triage_decision_view_set_confirm_grace_period (decision_view (), 0);

  editor = triage_decision_view_get_editor (decision_view (), "go");
  g_assert_nonnull (editor);
  g_assert_true (triage_response_editor_submit (TRIAGE_RESPONSE_EDITOR (editor)));

  if (!needs)
    {
      /* Straight through: no dialog, the server records it. */
      g_assert_null (find_confirm_dialog ());
      app_test_wait_for (app_test_server_is_responded (server, id), APP_TEST_WAIT_MS);
      return;
    }

  app_test_wait_for ((dialog = find_confirm_dialog ()) != NULL, APP_TEST_WAIT_MS);
  app_test_spin (200);
  g_assert_false (app_test_server_is_responded (server, id));

  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), TRIAGE_CONFIRM_RESPONSE_CONFIRM);
  app_test_wait_for (app_test_server_is_responded (server, id), APP_TEST_WAIT_MS);
}

static void
test_answered_elsewhere_while_open (void)
{
  g_autofree char *id = NULL;
  g_autofree char *body = NULL;
  g_autoptr(JsonNode) reply = NULL;
  guint status = 0;

  wait_connected ();
  id = app_test_server_post (server, "Answered elsewhere?",
                             "[{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}]");
  open_request (id);
  g_assert_false (triage_decision_view_get_read_only (decision_view ()));

  /* Another device (the same user, over the trusted socket) answers first. */
  body = g_strdup_printf ("{\"notification_id\": \"%s\", \"action_id\": \"ok\", \"response_data\": null}", id);
  reply = app_test_server_call (server, "POST", "/api/v1/client/respond", body, &status);
  g_assert_cmpuint (status, ==, 200);

  app_test_wait_for (triage_decision_view_get_read_only (decision_view ()), APP_TEST_WAIT_MS);
  g_assert_cmpint (triage_decision_view_get_status (decision_view ()), ==, ATP_STATUS_RESPONDED);
  /* Still the request shown, though it left the list. */
  g_assert_cmpstr (triage_request_get_id (triage_window_get_current_request (window ())), ==, id);
  g_assert_null (triage_inbox_model_lookup (triage_application_get_inbox (app), id));
}

static void
test_invalidated_while_open (void)
{
  g_autofree char *id = NULL;
  g_autofree char *path = NULL;
  g_autoptr(JsonNode) reply = NULL;
  guint status = 0;

  wait_connected ();
  id = app_test_server_post (server, "Withdrawn while open?",
                             "[{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}]");
  open_request (id);

  /* The service changes its mind. */
  path = g_strconcat ("/api/v1/notifications/", id, NULL);
  reply = app_test_server_call (server, "PATCH", path,
                                "{\"status\": \"invalidated\", \"reason\": \"Rolled back instead\"}",
                                &status);
  g_assert_cmpuint (status, ==, 200);

  app_test_wait_for (triage_decision_view_get_status (decision_view ()) == ATP_STATUS_INVALIDATED,
                     APP_TEST_WAIT_MS);
  g_assert_true (triage_decision_view_get_read_only (decision_view ()));
  g_assert_cmpstr (triage_request_get_status_reason (triage_window_get_current_request (window ())),
                   ==, "Rolled back instead");
}

static void
test_expiry_while_open (void)
{
  g_autofree char *id = NULL;

  wait_connected ();
  id = app_test_server_post_full (server, "Expiring while open?",
                                  "[{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}]",
                                  2);
  open_request (id);

  app_test_wait_for (triage_decision_view_get_status (decision_view ()) == ATP_STATUS_EXPIRED,
                     APP_TEST_WAIT_MS);
  g_assert_true (triage_decision_view_get_read_only (decision_view ()));
}

static char *
editor_text (GtkWidget *editor)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (
    GTK_TEXT_VIEW (triage_response_editor_get_input (TRIAGE_RESPONSE_EDITOR (editor))));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static void
test_settled_while_away (void)
{
  g_autofree char *id = NULL;
  g_autofree char *kept = NULL;
  GtkWidget *editor;

  wait_connected ();
  id = app_test_server_post_full (server, "Expiring while away?",
                                  "[{\"id\": \"why\", \"label\": \"Why\", \"response_type\": \"text\"}]",
                                  2);
  open_request (id);
  editor = triage_decision_view_get_editor (decision_view (), "why");
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (
    GTK_TEXT_VIEW (triage_response_editor_get_input (TRIAGE_RESPONSE_EDITOR (editor)))),
    "half typed", -1);

  /* The server goes away; the deadline passes meanwhile. */
  app_test_server_stop (server, TRUE);
  app_test_wait_for (triage_application_get_connection (app) != TRIAGE_CONNECTION_CONNECTED,
                     APP_TEST_WAIT_MS);
  app_test_spin (2500);
  app_test_server_start (server);
  g_action_group_activate_action (G_ACTION_GROUP (app), "retry", NULL);

  /* After the resync the app asks what became of it: expired, not "answered". */
  app_test_wait_for (triage_decision_view_get_status (decision_view ()) == ATP_STATUS_EXPIRED,
                     APP_TEST_WAIT_MS);
  g_assert_true (triage_decision_view_get_read_only (decision_view ()));
  g_assert_null (triage_inbox_model_lookup (triage_application_get_inbox (app), id));
  /* What was typed stays visible. */
  kept = editor_text (editor);
  g_assert_cmpstr (kept, ==, "half typed");
  g_assert_false (triage_response_editor_get_editable (TRIAGE_RESPONSE_EDITOR (editor)));
}

static void
test_conflict_told (void)
{
  g_autofree char *id = NULL;
  g_autofree char *body = NULL;
  g_autoptr(JsonNode) reply = NULL;
  guint status = 0;

  wait_connected ();
  id = app_test_server_post (server, "Race?",
                             "[{\"id\": \"yes\", \"label\": \"Yes\", \"response_type\": \"simple\"},"
                             " {\"id\": \"no\", \"label\": \"No\", \"response_type\": \"simple\"}]");
  open_request (id);

  /* The app goes offline from the server's point of view: answer while it is away. */
  app_test_server_stop (server, TRUE);
  app_test_wait_for (triage_application_get_connection (app) != TRIAGE_CONNECTION_CONNECTED,
                     APP_TEST_WAIT_MS);
  respond (id, "yes", "null");
  app_test_wait_for (triage_outbox_get_n_pending (triage_application_get_outbox (app)) == 1,
                     APP_TEST_WAIT_MS);

  /* Meanwhile another device answers "no". */
  app_test_server_start (server);
  body = g_strdup_printf ("{\"notification_id\": \"%s\", \"action_id\": \"no\", \"response_data\": null}", id);
  reply = app_test_server_call (server, "POST", "/api/v1/client/respond", body, &status);
  g_assert_cmpuint (status, ==, 200);

  /* Our queued answer gets 409 on reconnect: cleared, and the person is told. */
  g_action_group_activate_action (G_ACTION_GROUP (app), "retry", NULL);
  app_test_wait_for (outbox_empty (), 30000);
  app_test_wait_for (triage_decision_view_get_status (decision_view ()) == ATP_STATUS_RESPONDED,
                     APP_TEST_WAIT_MS);
  {
    g_autoptr(JsonObject) recorded = app_test_server_get (server, id);
    JsonObject *response = json_object_get_object_member (recorded, "response");

    g_assert_cmpstr (json_object_get_string_member (response, "action_id"), ==, "no");
  }
  /* The history shows the answer that won, not ours. */
  app_test_wait_for (history_matches (id, "outcome = 'answered-elsewhere' AND action_id = 'no'"),
                     APP_TEST_WAIT_MS);
}


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

static void
test_history_recorded (void)
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

  wait_connected ();
  here = app_test_server_post (server, "History answered here?", simple);
  elsewhere = app_test_server_post (server, "History answered elsewhere?", simple);
  withdrawn = app_test_server_post (server, "History withdrawn?", simple);
  expiring = app_test_server_post_full (server, "History expired?", simple, 2);
  app_test_wait_for (triage_inbox_model_lookup (triage_application_get_inbox (app), here) != NULL &&
                     triage_inbox_model_lookup (triage_application_get_inbox (app), expiring) != NULL,
                     APP_TEST_WAIT_MS);

  /* Seen: every one reaches the history, pending. The store writes on its
   * worker thread, so the row lands a moment after the inbox has it: wait
   * for the save to complete (it returns to the main loop), not for the inbox. */
  app_test_wait_for (history_matches (here, "outcome = 'none' AND title = 'History answered here?'"),
                     APP_TEST_WAIT_MS);

  respond (here, "why", "\"Because the tests pass\"");
  body = g_strdup_printf ("{\"notification_id\": \"%s\", \"action_id\": \"why\","
                          " \"response_data\": \"From my phone\"}", elsewhere);
  reply = app_test_server_call (server, "POST", "/api/v1/client/respond", body, &status);
  g_assert_cmpuint (status, ==, 200);
  g_clear_pointer (&reply, json_node_unref);
  path = g_strconcat ("/api/v1/notifications/", withdrawn, NULL);
  reply = app_test_server_call (server, "PATCH", path,
                                "{\"status\": \"invalidated\", \"reason\": \"Not needed after all\"}",
                                &status);
  g_assert_cmpuint (status, ==, 200);

  /* Answered here: the action, the data, by a person, when; delivered. */
  app_test_wait_for (history_matches (here, "outcome = 'answered' AND action_id = 'why'"
                                            " AND response_data = '\"Because the tests pass\"'"
                                            " AND responder_type = 'human'"
                                            " AND answered_at >= created_at AND delivered_at IS NOT NULL"),
                     APP_TEST_WAIT_MS);
  /* Answered elsewhere: what the server recorded, who, when. */
  app_test_wait_for (history_matches (elsewhere, "outcome = 'answered-elsewhere' AND action_id = 'why'"
                                                 " AND response_data = '\"From my phone\"'"
                                                 " AND responder_id = 'default'"
                                                 " AND answered_at >= created_at"),
                     APP_TEST_WAIT_MS);
  app_test_wait_for (history_matches (withdrawn, "outcome = 'invalidated'"
                                                 " AND status_reason = 'Not needed after all'"),
                     APP_TEST_WAIT_MS);
  app_test_wait_for (history_matches (expiring, "outcome = 'expired' AND status = 'expired'"),
                     APP_TEST_WAIT_MS);

  /* And the window's history view finds them. */
  history = triage_window_get_history_view (window ());
  app_test_wait_for (triage_history_view_get_db (history) != NULL, APP_TEST_WAIT_MS);
  triage_window_show_view (window (), "history");
  search_history_one (history, "History answered elsewhere");
  {
    g_autoptr(TriageHistoryEntry) entry =
      g_list_model_get_item (G_LIST_MODEL (triage_history_view_get_model (history)), 0);
    g_autofree char *answer = triage_history_entry_dup_answer_text (entry);
    g_autofree char *who = triage_history_entry_dup_responder_text (entry);

    g_assert_cmpstr (triage_history_entry_get_id (entry), ==, elsewhere);
    g_assert_cmpint (triage_history_entry_get_outcome (entry), ==, TRIAGE_OUTCOME_ANSWERED_ELSEWHERE);
    g_assert_cmpstr (answer, ==, "Why: \"From my phone\"");
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
  triage_window_show_view (window (), "inbox");
}

/* Attachments open in a preview window of their own, by type; nothing is
 * fetched by itself, and a file: address is refused. */

/* An attachment window not in @seen, or NULL. */
static TriageAttachmentWindow *
new_attachment_window (GHashTable *seen)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (toplevels, i);

      if (TRIAGE_IS_ATTACHMENT_WINDOW (item) && !g_hash_table_contains (seen, item))
        return TRIAGE_ATTACHMENT_WINDOW (item);
    }

  return NULL;
}

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

static void
test_attachments (void)
{
  const char *plan = "{\"replicas\":3,\"zone\":\"eu\"}";
  g_autofree char *json = g_base64_encode ((const guchar *) plan, strlen (plan));
  g_autofree char *png = png_base64 ();
  g_autofree char *body = NULL;
  g_autofree char *id = g_uuid_string_random ();
  g_autoptr(JsonNode) reply = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  struct { TriageAttachmentKind kind; } expected[] = {
    { TRIAGE_ATTACHMENT_KIND_JSON },
    { TRIAGE_ATTACHMENT_KIND_IMAGE },
    { TRIAGE_ATTACHMENT_KIND_REMOTE },
    { TRIAGE_ATTACHMENT_KIND_ERROR },
  };
  guint status = 0;

  wait_connected ();
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
  reply = app_test_server_call (server, "POST", "/api/v1/notifications", body, &status);
  g_assert_cmpuint (status, ==, 201);
  open_request (id);
  g_assert_cmpuint (triage_decision_view_get_notification (decision_view ())->context.attachments->len, ==, 4);

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      TriageAttachmentWindow *window;
      TriageAttachmentView *view;

      g_signal_emit_by_name (decision_view (), "attachment-activated", i);
      app_test_wait_for (new_attachment_window (seen) != NULL, APP_TEST_WAIT_MS);
      window = new_attachment_window (seen);
      g_hash_table_add (seen, window);
      view = triage_attachment_window_get_view (window);
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
    }

  {
    GHashTableIter iter;
    gpointer window;

    g_hash_table_iter_init (&iter, seen);
    while (g_hash_table_iter_next (&iter, &window, NULL))
      gtk_window_destroy (GTK_WINDOW (window));
  }
}

/* The history keeps what history-retention-days says: older settled
 * requests go when the setting changes (and at start, and daily). */
static void
test_history_retention (void)
{
  g_autoptr(GSettings) settings = g_settings_new (TRIAGE_SETTINGS_SCHEMA);
  g_autofree char *path = g_build_filename (g_get_user_data_dir (), "triage", "triage.db", NULL);
  g_autofree char *old = NULL;
  g_autofree char *recent = NULL;
  sqlite3 *db = NULL;

  wait_connected ();
  old = app_test_server_post (server, "Long forgotten?",
                              "[{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}]");
  recent = app_test_server_post (server, "Recently settled?",
                                 "[{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}]");
  app_test_wait_for (triage_inbox_model_lookup (triage_application_get_inbox (app), old) != NULL &&
                     triage_inbox_model_lookup (triage_application_get_inbox (app), recent) != NULL,
                     APP_TEST_WAIT_MS);
  respond (old, "ok", "null");
  respond (recent, "ok", "null");
  app_test_wait_for (history_matches (old, "outcome = 'answered'") &&
                     history_matches (recent, "outcome = 'answered'"), APP_TEST_WAIT_MS);

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
  app_test_wait_for (!history_matches (old, "1"), APP_TEST_WAIT_MS);
  g_assert_true (history_matches (recent, "1"));
  g_settings_reset (settings, "history-retention-days");
}

/* Start at login */

static void
test_autostart (void)
{
  g_autoptr(GSettings) settings = g_settings_new (TRIAGE_SETTINGS_SCHEMA);
  g_autofree char *path = g_build_filename (g_get_user_config_dir (), "autostart",
                                            "io.github.atptriage.Triage.desktop", NULL);
  g_autoptr(GKeyFile) entry = g_key_file_new ();
  g_autofree char *exec = NULL;
  g_autofree char *validate = g_find_program_in_path ("desktop-file-validate");

  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_settings_set_boolean (settings, "autostart", TRUE);
  /* Written in place when new: wait for the whole of it. */
  app_test_wait_for (g_key_file_load_from_file (entry, path, G_KEY_FILE_NONE, NULL) &&
                     g_key_file_has_key (entry, "Desktop Entry", "X-GNOME-UsesNotifications", NULL),
                     APP_TEST_WAIT_MS);
  exec = g_key_file_get_string (entry, "Desktop Entry", "Exec", NULL);
  g_assert_cmpstr (exec, ==, "triage --gapplication-service");
  if (validate != NULL)
    {
      const char *argv[] = { validate, path, NULL };
      int wait_status = 0;

      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                   NULL, NULL, &wait_status, NULL));
      g_assert_true (g_spawn_check_wait_status (wait_status, NULL));
    }

  g_settings_set_boolean (settings, "autostart", FALSE);
  app_test_wait_for (!g_file_test (path, G_FILE_TEST_EXISTS), APP_TEST_WAIT_MS);
}

/* Every shortcut the app sets is listed in the shortcuts window, and every
 * shortcut listed there by action is set. */
static void
test_shortcuts_listed (void)
{
  g_autoptr(GtkBuilder) builder =
    gtk_builder_new_from_resource ("/io/github/atptriage/Triage/gtk/help-overlay.ui");
  g_autoptr(GHashTable) listed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) actions = gtk_application_list_action_descriptions (GTK_APPLICATION (app));
  GSList *objects = gtk_builder_get_objects (builder);
  const struct { const char *action; const char *accel; } expected[] = {
    { "win.search", "<Control>f" },
    { "win.next-request", "<Control>Page_Down" },
    { "win.previous-request", "<Control>Page_Up" },
    { "win.open-request", "<Alt>Right" },
    { "win.back", "<Alt>Left" },
    { "win.show-view::history", "<Control>h" },
    { "app.quit", "<Control>q" },
    { "win.show-help-overlay", "<Control>question" },
  };

  window ();
  for (GSList *l = objects; l != NULL; l = l->next)
    if (GTK_IS_SHORTCUTS_SHORTCUT (l->data))
      {
        g_autofree char *name = NULL;

        g_object_get (l->data, "action-name", &name, NULL);
        if (name != NULL)
          {
            g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), name);

            if (accels[0] == NULL)
              g_error ("the shortcuts window lists %s, which has no key", name);
            g_hash_table_add (listed, g_steal_pointer (&name));
          }
      }
  g_slist_free (objects);

  for (guint i = 0; actions[i] != NULL; i++)
    if (!g_hash_table_contains (listed, actions[i]))
      g_error ("%s has a key but is not in the shortcuts window", actions[i]);

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app),
                                                                     expected[i].action);

      g_assert_true (g_strv_contains ((const char * const *) accels, expected[i].accel));
    }
}

/* The status icon's menu, used as a tray would: over D-Bus, from a
 * connection of its own (the app answers on the main loop). */

typedef struct
{
  GDBusConnection *bus;
  char            *name;
} TrayHost;

static void
tray_host_init (TrayHost *host)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *address = g_dbus_address_get_for_bus_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_autofree char *prefix = g_strdup_printf ("org.kde.StatusNotifierItem-%d-", getpid ());
  g_autoptr(GVariant) names = NULL;
  g_autofree const char **list = NULL;

  g_assert_no_error (error);
  host->bus = g_dbus_connection_new_for_address_sync (address,
                                                      G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                      G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                      NULL, NULL, &error);
  g_assert_no_error (error);
  /* The bus answers this one itself: a synchronous call is fine. */
  names = g_dbus_connection_call_sync (host->bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "ListNames", NULL,
                                       G_VARIANT_TYPE ("(as)"), G_DBUS_CALL_FLAGS_NONE, 5000,
                                       NULL, &error);
  g_assert_no_error (error);
  g_variant_get (names, "(^a&s)", &list);
  for (guint i = 0; list[i] != NULL && host->name == NULL; i++)
    if (g_str_has_prefix (list[i], prefix))
      host->name = g_strdup (list[i]);
  if (host->name == NULL)
    g_error ("the app's status icon is not on the bus");
}

static void
tray_host_clear (TrayHost *host)
{
  g_clear_object (&host->bus);
  g_clear_pointer (&host->name, g_free);
}

/* Calls the menu while the main loop runs (the app answers on it). */
static GVariant *
tray_host_call (TrayHost   *host,
                const char *method,
                GVariant   *parameters)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GVariant *reply;

  g_dbus_connection_call (host->bus, host->name, "/MenuBar", "com.canonical.dbusmenu", method,
                          parameters, NULL, G_DBUS_CALL_FLAGS_NONE, 5000, NULL,
                          app_test_result_cb, &result);
  app_test_wait_result (result);
  reply = g_dbus_connection_call_finish (host->bus, result, &error);
  g_assert_no_error (error);

  return reply;
}

/* Clicks the menu item whose label starts with @label (unless @click is
 * FALSE); its id, -1 if none. */
static int
tray_host_find (TrayHost   *host,
                const char *label,
                gboolean    click)
{
  g_autoptr(GVariant) layout = tray_host_call (host, "GetLayout",
                                               g_variant_new ("(ii^as)", 0, -1, (const char *[]) { NULL }));
  g_autoptr(GVariant) root = g_variant_get_child_value (layout, 1);
  g_autoptr(GVariant) children = g_variant_get_child_value (root, 2);

  for (gsize i = 0; i < g_variant_n_children (children); i++)
    {
      g_autoptr(GVariant) boxed = g_variant_get_child_value (children, i);
      g_autoptr(GVariant) item = g_variant_get_variant (boxed);
      g_autoptr(GVariant) props = g_variant_get_child_value (item, 1);
      const char *text = NULL;
      int id;

      g_variant_get_child (item, 0, "i", &id);
      if (g_variant_lookup (props, "label", "&s", &text) && g_str_has_prefix (text, label))
        {
          if (click)
            g_variant_unref (tray_host_call (host, "Event",
                                             g_variant_new ("(isvu)", id, "clicked",
                                                            g_variant_new_int32 (0), 0)));
          return id;
        }
    }

  return -1;
}

static int
tray_host_click (TrayHost   *host,
                 const char *label)
{
  return tray_host_find (host, label, TRUE);
}

static gboolean
preferences_shown (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (toplevels, i);

      if (TRIAGE_IS_PREFERENCES_WINDOW (item) && gtk_widget_get_visible (GTK_WIDGET (item)))
        return TRUE;
    }

  return FALSE;
}

static void
test_tray_menu (void)
{
  g_autoptr(GSettings) settings = g_settings_new (TRIAGE_SETTINGS_SCHEMA);
  TrayHost host = { 0 };
  g_autofree char *id = NULL;

  wait_connected ();
  tray_host_init (&host);
  id = app_test_server_post (server, "Opened from the tray menu?",
                             "[{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}]");
  app_test_wait_for (triage_inbox_model_lookup (triage_application_get_inbox (app), id) != NULL,
                     APP_TEST_WAIT_MS);
  /* The menu follows the inbox on an idle. */
  app_test_wait_for (tray_host_find (&host, "Opened from the tray menu?", FALSE) > 0,
                     APP_TEST_WAIT_MS);

  /* A request: the window shows it. */
  g_assert_cmpint (tray_host_click (&host, "Opened from the tray menu?"), >, 0);
  app_test_wait_for (triage_window_get_current_request (window ()) != NULL &&
                     g_str_equal (triage_request_get_id (triage_window_get_current_request (window ())), id),
                     APP_TEST_WAIT_MS);
  g_assert_true (triage_read_state_is_read (triage_inbox_pane_get_read_state (
                   triage_window_get_inbox_pane (window ())), id));

  /* Do Not Disturb: the setting, both ways. */
  g_assert_false (g_settings_get_boolean (settings, "do-not-disturb"));
  tray_host_click (&host, "_Do Not Disturb");
  app_test_wait_for (g_settings_get_boolean (settings, "do-not-disturb"), APP_TEST_WAIT_MS);
  tray_host_click (&host, "_Do Not Disturb");
  app_test_wait_for (!g_settings_get_boolean (settings, "do-not-disturb"), APP_TEST_WAIT_MS);

  /* Preferences: its window. */
  g_assert_false (preferences_shown ());
  tray_host_click (&host, "_Preferences");
  app_test_wait_for (preferences_shown (), APP_TEST_WAIT_MS);

  /* Open Triage: the window again once closed. */
  gtk_window_destroy (GTK_WINDOW (window ()));
  app_test_wait_for (triage_application_get_window (app) == NULL, APP_TEST_WAIT_MS);
  tray_host_click (&host, "_Open Triage");
  app_test_wait_for (triage_application_get_window (app) != NULL &&
                     gtk_widget_get_visible (GTK_WIDGET (triage_application_get_window (app))),
                     APP_TEST_WAIT_MS);

  tray_host_clear (&host);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  world = app_test_private_world ();
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  server = g_new0 (AppTestServer, 1);
  app_test_server_start (server);

  app = app_test_application_new ();
  g_application_activate (G_APPLICATION (app));

  for (guint i = 0; i < G_N_ELEMENTS (type_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/app/response-type/%s", type_cases[i].name);

      g_test_add_data_func (path, &type_cases[i], test_response_type);
    }
  {
    static const char *flags[] = { "destructive", "irreversible", "requires_confirmation",
                                   "time_sensitive", "affects_others", "costly", "experimental" };

    for (guint i = 0; i < G_N_ELEMENTS (flags); i++)
      {
        g_autofree char *path = g_strdup_printf ("/app/confirmation/%s", flags[i]);

        g_test_add_data_func (path, flags[i], test_confirmation);
      }
  }
  g_test_add_func ("/app/answered-elsewhere-while-open", test_answered_elsewhere_while_open);
  g_test_add_func ("/app/invalidated-while-open", test_invalidated_while_open);
  g_test_add_func ("/app/expiry-while-open", test_expiry_while_open);
  g_test_add_func ("/app/conflict-told", test_conflict_told);
  g_test_add_func ("/app/settled-while-away", test_settled_while_away);
  g_test_add_func ("/app/history-recorded", test_history_recorded);
  g_test_add_func ("/app/attachments", test_attachments);
  g_test_add_func ("/app/history-retention", test_history_retention);
  g_test_add_func ("/app/autostart", test_autostart);
  g_test_add_func ("/app/shortcuts-listed", test_shortcuts_listed);
  g_test_add_func ("/app/tray-menu", test_tray_menu);

  status = g_test_run ();

  g_clear_pointer (&app, app_test_application_free);
  app_test_server_free (server);
  app_test_rm_rf (world);
  g_free (world);

  return status;
}
