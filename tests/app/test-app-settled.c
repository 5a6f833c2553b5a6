/* test-app-settled.c — a settled request, the whole app in-process
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs under tests/fake-notifyd.py --private-bus (FAKE_NOTIFYD_LOG names
 * its log) against a real `triage-server --local`. A request with all seven
 * response types is open, half answered, when it is settled in each of the
 * five ways: answered on another device (the status update does not say
 * what: the app fetches the answer once, and the banner and the request's
 * bubble then name the action, the value and who gave it), withdrawn,
 * expired, answered here and delivered, and no longer on the server (it no
 * longer knows the request for this user: 404 to the answer). Every card
 * keeps its label and control, the banner names the outcome, the action
 * chosen is marked, and the bubble still on screen says what the banner
 * says.
 *
 * Also: an answer refused for good (the server's copy of the request takes
 * no such value: 422), its request kept in the inbox, answerable, and
 * answered again, or listed again, then settled elsewhere; and an answer
 * delivered is sent once, though the outbox is flushed while the store
 * records the delivery (hold-sql.c, linked in, holds that write: the store
 * may be busy for seconds behind a resync).
 */

#include <adwaita.h>
#include <sqlite3.h>

#include "app-test-server.h"
#include "app-test-application.h"
#include "app-test-hold.h"
#include "notifyd-test-log.h"
#include "atp-client-private.h"
#include "triage-application-private.h"
#include "triage-decision-view-private.h"
#include "triage-response-editor-private.h"

static const char seven_types[] =
  "["
  "{\"id\": \"stop\", \"label\": \"Stop\", \"response_type\": \"simple\"},"
  "{\"id\": \"logs\", \"label\": \"Include logs?\", \"response_type\": \"binary\","
  " \"options\": {\"true_label\": \"Yes\", \"false_label\": \"No\"}},"
  "{\"id\": \"env\", \"label\": \"Environment\", \"response_type\": \"choice\","
  " \"options\": [{\"value\": \"prod\", \"label\": \"Production\"}, {\"value\": \"stage\", \"label\": \"Staging\"}]},"
  "{\"id\": \"teams\", \"label\": \"Teams\", \"response_type\": \"multi_choice\","
  " \"options\": [{\"value\": \"eng\", \"label\": \"Engineering\"}, {\"value\": \"sec\", \"label\": \"Security\"}]},"
  "{\"id\": \"why\", \"label\": \"Comment\", \"response_type\": \"text\"},"
  "{\"id\": \"share\", \"label\": \"Rollout\", \"response_type\": \"number\","
  " \"constraints\": {\"min\": 0, \"max\": 100, \"unit\": \"%\"}},"
  "{\"id\": \"sure\", \"label\": \"Confidence\", \"response_type\": \"scale\","
  " \"constraints\": {\"min\": 1, \"max\": 5}}"
  "]";

static char *world;
static AppTestServer *server;
static TriageApplication *app;

/* hold-sql.c holds every "BEGIN IMMEDIATE" of the app's store while this
 * file exists (test_delivered_once () only). */
static char *hold_file;

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

static TriageResponseEditor *
editor (const char *action_id)
{
  GtkWidget *widget = triage_decision_view_get_editor (decision_view (), action_id);

  g_assert_nonnull (widget);
  return TRIAGE_RESPONSE_EDITOR (widget);
}

static const char *
banner_title (void)
{
  GObject *banner = gtk_widget_get_template_child (GTK_WIDGET (decision_view ()),
                                                   TRIAGE_TYPE_DECISION_VIEW, "banner");

  return triage_request_banner_get_title (TRIAGE_REQUEST_BANNER (banner));
}

/* Posted, in the inbox, and open in the window, with a draft in two cards. */
static char *
open_new_request (const char *title,
                  int         deadline_in)
{
  TriageInboxModel *inbox = triage_application_get_inbox (app);
  char *id;
  GtkWidget *spin;

  app_test_wait_for (triage_application_get_connection (app) == TRIAGE_CONNECTION_CONNECTED,
                     APP_TEST_WAIT_MS);
  id = app_test_server_post_full (server, title, seven_types, deadline_in);
  app_test_wait_for (triage_inbox_model_lookup (inbox, id) != NULL, APP_TEST_WAIT_MS);
  g_action_group_activate_action (G_ACTION_GROUP (app), "open-request", g_variant_new_string (id));
  app_test_wait_for (triage_window_get_current_request (window ()) != NULL &&
                     g_str_equal (triage_request_get_id (triage_window_get_current_request (window ())), id),
                     APP_TEST_WAIT_MS);

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (
    triage_response_editor_get_input (editor ("why")))), "half typed", -1);
  spin = triage_response_editor_get_input (editor ("share"));
  gtk_editable_set_text (GTK_EDITABLE (spin), "40");
  g_signal_emit_by_name (gtk_editable_get_delegate (GTK_EDITABLE (spin)), "activate");

  return id;
}

/* Every card kept: its control there, insensitive; the draft still in it. */
static void
assert_cards_kept (void)
{
  AtpNotification *notification = triage_decision_view_get_notification (decision_view ());
  GtkTextBuffer *buffer;
  GtkTextIter start, end;
  g_autofree char *kept = NULL;

  g_assert_true (triage_decision_view_get_read_only (decision_view ()));
  for (guint i = 0; i < notification->actions->len; i++)
    {
      const AtpAction *action = g_ptr_array_index (notification->actions, i);
      TriageResponseEditor *e = editor (action->id);
      GtkWidget *control = triage_response_editor_get_input (e);

      if (action->response_type == ATP_RESPONSE_TYPE_SIMPLE)
        control = triage_response_editor_get_submit_button (e);
      else if (action->response_type == ATP_RESPONSE_TYPE_BINARY)
        control = triage_response_editor_get_true_button (e);
      g_assert_false (triage_response_editor_get_editable (e));
      g_assert_true (gtk_widget_is_visible (control));
      g_assert_false (gtk_widget_is_sensitive (control));
    }

  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (triage_response_editor_get_input (editor ("why"))));
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  kept = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  g_assert_cmpstr (kept, ==, "half typed");
}

static const char *
chosen_mark (const char *action_id)
{
  TriageResponseEditor *e = editor (action_id);

  if (!triage_response_editor_get_chosen (e))
    return NULL;
  return gtk_label_get_text (GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (e),
                                                                       TRIAGE_TYPE_RESPONSE_EDITOR,
                                                                       "chosen_label")));
}

/* The fake notification server's log (notifyd-test-log.c) */

/* The body of the last Notify whose summary names @title (NULL if none). */
static char *
bubble_body (const char *title)
{
  g_autoptr(JsonNode) log = notifyd_read_log ();
  JsonObject *event = notifyd_find_event (log, "Notify", title, 0);

  return event != NULL ? g_strdup (json_object_get_string_member (event, "body")) : NULL;
}

static gboolean
bubble_says (const char *title,
             const char *body)
{
  g_autofree char *said = bubble_body (title);

  return g_strcmp0 (said, body) == 0;
}

/* Whether the bubble of @title was withdrawn (CloseNotification). */
static gboolean
bubble_withdrawn (const char *title)
{
  g_autoptr(JsonNode) log = notifyd_read_log ();
  JsonObject *notify = notifyd_find_event (log, "Notify", title, 0);

  return notify != NULL &&
         notifyd_find_event (log, "CloseNotification", NULL,
                             json_object_get_int_member (notify, "id")) != NULL;
}

/* What the bubble of the request shown should say: the banner's outcome,
 * and the server's reason on a line of its own; escaped for markup. */
static char *
expected_bubble (void)
{
  const char *reason = triage_request_get_status_reason (triage_window_get_current_request (window ()));
  g_autofree char *text = NULL;

  if (reason != NULL)
    text = g_strdup_printf ("%s\nReason: %s", banner_title (), reason);
  else
    text = g_strdup (banner_title ());
  return g_markup_escape_text (text, -1);
}

/* The five ways */

static void
test_answered_elsewhere (void)
{
  g_autofree char *id = open_new_request ("Settled elsewhere?", 0);
  g_autofree char *body = NULL;
  g_autoptr(JsonNode) reply = NULL;
  g_autofree char *expected = NULL;
  TriageRequest *request;
  guint status = 0;

  app_test_wait_for (bubble_body ("Settled elsewhere?") != NULL, APP_TEST_WAIT_MS);

  /* Another client of the same person answers 25 %. */
  body = g_strdup_printf ("{\"notification_id\": \"%s\", \"action_id\": \"share\", \"response_data\": 25}",
                          id);
  reply = app_test_server_call (server, "POST", "/api/v1/client/respond", body, &status);
  g_assert_cmpuint (status, ==, 200);

  /* The status first, then the answer the app fetched. */
  app_test_wait_for (triage_decision_view_get_status (decision_view ()) == ATP_STATUS_RESPONDED,
                     APP_TEST_WAIT_MS);
  request = triage_window_get_current_request (window ());
  app_test_wait_for (triage_request_get_response (request) != NULL, APP_TEST_WAIT_MS);
  g_assert_cmpstr (triage_request_get_response (request)->action_id, ==, "share");
  g_assert_true (triage_decision_view_get_response (decision_view ()) == triage_request_get_response (request));
  g_assert_true (g_str_has_prefix (banner_title (), "Answered ‘Rollout’: 25 % by default on another device at "));

  assert_cards_kept ();
  g_assert_cmpstr (chosen_mark ("share"), ==, "Chosen: 25 %");   /* the draft (40) is kept */
  g_assert_null (chosen_mark ("stop"));

  /* The bubble, still up, says what the banner says. */
  expected = expected_bubble ();
  app_test_wait_for (bubble_says ("Settled elsewhere?", expected), APP_TEST_WAIT_MS);
}

static void
test_withdrawn (void)
{
  g_autofree char *id = open_new_request ("Settled by withdrawal?", 0);
  g_autofree char *path = g_strconcat ("/api/v1/notifications/", id, NULL);
  g_autoptr(JsonNode) reply = NULL;
  g_autofree char *expected = NULL;
  guint status = 0;

  app_test_wait_for (bubble_body ("Settled by withdrawal?") != NULL, APP_TEST_WAIT_MS);
  reply = app_test_server_call (server, "PATCH", path,
                                "{\"status\": \"invalidated\", \"reason\": \"no longer needed\"}", &status);
  g_assert_cmpuint (status, ==, 200);

  app_test_wait_for (triage_decision_view_get_status (decision_view ()) == ATP_STATUS_INVALIDATED,
                     APP_TEST_WAIT_MS);
  g_assert_true (g_str_has_prefix (banner_title (), "Withdrawn by Test Bot at "));
  assert_cards_kept ();
  g_assert_null (chosen_mark ("share"));

  /* The bubble says it too, with the reason. */
  expected = expected_bubble ();
  g_assert_true (g_str_has_suffix (expected, "\nReason: no longer needed"));
  app_test_wait_for (bubble_says ("Settled by withdrawal?", expected), APP_TEST_WAIT_MS);
}

static void
test_expired (void)
{
  g_autofree char *id = open_new_request ("Settled by the clock?", APP_TEST_EXPIRES_IN_S);
  g_autofree char *expected = NULL;

  app_test_wait_for (triage_decision_view_get_status (decision_view ()) == ATP_STATUS_EXPIRED,
                     APP_TEST_WAIT_MS);
  g_assert_true (g_str_has_prefix (banner_title (), "Expired at "));
  assert_cards_kept ();
  g_assert_null (chosen_mark ("share"));

  expected = expected_bubble ();
  app_test_wait_for (bubble_says ("Settled by the clock?", expected), APP_TEST_WAIT_MS);
}

static void
test_delivered (void)
{
  g_autofree char *id = open_new_request ("Settled here?", 0);

  g_assert_true (triage_response_editor_submit (editor ("share")));
  app_test_wait_for (app_test_server_is_responded (server, id), APP_TEST_WAIT_MS);
  app_test_wait_for (triage_decision_view_get_delivery_state (decision_view ()) == TRIAGE_DELIVERY_SENT,
                     APP_TEST_WAIT_MS);

  g_assert_cmpstr (banner_title (), ==, "You answered ‘Rollout’: 40 %");
  assert_cards_kept ();
  g_assert_cmpstr (chosen_mark ("share"), ==, "Chosen");
  g_assert_null (chosen_mark ("logs"));
  /* Answered here: the bubble just goes. */
  app_test_wait_for (bubble_withdrawn ("Settled here?"), APP_TEST_WAIT_MS);
}

/* Runs @sql, which changes one row, on the server's database. */
static void
change_on_server (const char *sql)
{
  sqlite3 *db = NULL;
  char *message = NULL;

  g_assert_cmpint (sqlite3_open (server->database, &db), ==, SQLITE_OK);
  sqlite3_busy_timeout (db, 5000);
  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("Could not change the server's database (%s): %s", sql, message);
  g_assert_cmpint (sqlite3_changes (db), ==, 1);
  sqlite3_close (db);
}

/* The server forgets the request for this user (a 404 on the answer). */
static void
forget_on_server (const char *id)
{
  g_autofree char *sql = g_strdup_printf ("DELETE FROM notification_recipients WHERE notification_seq ="
                                          " (SELECT seq FROM notifications WHERE id = '%s')", id);

  change_on_server (sql);
}

/* The answer meets 404: the server no longer has the request for this
 * user. The view made it answerable again ("Your answer was not sent"),
 * in vain: every answer met the same 404, till the next resync's lookup
 * said it was no longer on the server. That is said at once now: it
 * leaves the inbox and the outbox, read-only, its bubble gone. */
static void
test_gone (void)
{
  /* Due within five minutes: urgent, so its bubble is not held back by
   * the bubbles of the tests before (five in ten seconds). */
  g_autofree char *id = open_new_request ("Settled by the server forgetting it?", 240);
  TriageOutbox *outbox = triage_application_get_outbox (app);

  app_test_wait_for (bubble_body ("Settled by the server forgetting it?") != NULL, APP_TEST_WAIT_MS);
  forget_on_server (id);
  g_assert_true (triage_response_editor_submit (editor ("share")));
  app_test_wait_for (g_strcmp0 (banner_title (), "No longer on the server") == 0, APP_TEST_WAIT_MS);

  g_assert_false (triage_outbox_has_answer (outbox, id));
  g_assert_null (triage_inbox_model_lookup (triage_application_get_inbox (app), id));
  g_assert_cmpint (triage_decision_view_get_delivery_state (decision_view ()), ==, TRIAGE_DELIVERY_NONE);
  assert_cards_kept ();
  g_assert_null (chosen_mark ("share"));
  app_test_wait_for (bubble_withdrawn ("Settled by the server forgetting it?"), APP_TEST_WAIT_MS);
}

/* The server's copy of the request takes at most 30 % (a 422 for the
 * draft's 40, which the app's copy allows). */
static void
narrow_on_server (const char *id)
{
  g_autofree char *sql = g_strdup_printf ("UPDATE notifications SET json ="
                                          " json_set (json, '$.actions[5].constraints.max', 30)"
                                          " WHERE id = '%s'", id);

  change_on_server (sql);
}

/* The server stops showing the request to this user (@away: its recipient
 * row moved aside, so an answer gets 404 and no status update of it is
 * pushed here), or shows it again. */
static void
hide_on_server (const char *id,
                gboolean    away)
{
  g_autofree char *sql = NULL;

  if (away)
    sql = g_strdup_printf ("UPDATE notification_recipients SET user_id = 'away:' || user_id"
                           " WHERE notification_seq = (SELECT seq FROM notifications WHERE id = '%s')",
                           id);
  else
    sql = g_strdup_printf ("UPDATE notification_recipients SET user_id = substr (user_id, 6)"
                           " WHERE notification_seq = (SELECT seq FROM notifications WHERE id = '%s')",
                           id);
  change_on_server (sql);
}

/* @id is in the inbox, its answer refused for good. */
static void
assert_refused_in_inbox (const char *id)
{
  TriageRequest *request = triage_inbox_model_lookup (triage_application_get_inbox (app), id);

  g_assert_nonnull (request);
  g_assert_cmpint (triage_request_get_answer_state (request), ==, TRIAGE_ANSWER_FAILED);
}

/* The answer to a request open in the window refused for good (422: the
 * server's copy takes no such value). The request stays in the inbox, its
 * answer failed (kept, never sent again): it left the inbox, and the stream
 * did not bring it back before another connection, so the person could not
 * answer it again. */
static char *
refused_request (const char *title)
{
  char *id = open_new_request (title, 0);

  narrow_on_server (id);
  g_assert_true (triage_response_editor_submit (editor ("share")));
  app_test_wait_for (triage_outbox_answer_failed (triage_application_get_outbox (app), id),
                     APP_TEST_WAIT_MS);
  app_test_wait_for (g_strcmp0 (banner_title (), "Your answer was not sent") == 0, APP_TEST_WAIT_MS);
  assert_refused_in_inbox (id);

  return id;
}

/* A refused answer is none: the view takes another, what was entered
 * kept, nothing marked chosen. */
static void
test_refused (void)
{
  g_autofree char *id = refused_request ("Settled by a refusal?");

  g_assert_cmpint (triage_decision_view_get_delivery_state (decision_view ()), ==, TRIAGE_DELIVERY_NONE);
  g_assert_null (chosen_mark ("share"));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (triage_response_editor_get_input (editor ("share")))),
                   ==, "40");
  g_assert_false (triage_decision_view_get_read_only (decision_view ()));
  g_assert_true (triage_response_editor_get_editable (editor ("share")));
}

/* Refused for good, then answered anew in the same view with a value the
 * server takes: the new answer takes the refused one's place, is
 * delivered, and the request leaves the inbox. */
static void
test_refused_then_answered_again (void)
{
  TriageInboxModel *inbox = triage_application_get_inbox (app);
  g_autofree char *id = refused_request ("Refused, then answered again?");
  GtkWidget *spin = triage_response_editor_get_input (editor ("share"));

  g_assert_false (triage_decision_view_get_read_only (decision_view ()));
  gtk_editable_set_text (GTK_EDITABLE (spin), "25");
  g_signal_emit_by_name (gtk_editable_get_delegate (GTK_EDITABLE (spin)), "activate");
  g_assert_true (triage_response_editor_submit (editor ("share")));
  app_test_wait_for (app_test_server_is_responded (server, id), APP_TEST_WAIT_MS);
  app_test_wait_for (triage_inbox_model_lookup (inbox, id) == NULL, APP_TEST_WAIT_MS);
  g_assert_false (triage_outbox_has_answer (triage_application_get_outbox (app), id));
}

/* A request whose answer the server refused for good, listed again as
 * pending after a reconnect: still in the inbox, its answer failed. */
static char *
refused_request_listed_again (const char *title)
{
  char *id = refused_request (title);

  g_action_group_activate_action (G_ACTION_GROUP (app), "reconnect", NULL);
  app_test_wait_for (triage_application_get_connection (app) == TRIAGE_CONNECTION_CONNECTED,
                     APP_TEST_WAIT_MS);
  assert_refused_in_inbox (id);

  return id;
}

/* Answered on another device after ours was refused: "responded" is not
 * ours (ours is never sent again), so the request leaves the inbox. It
 * stayed there, pending for good. */
static void
test_refused_then_answered_elsewhere (void)
{
  g_autofree char *id = refused_request_listed_again ("Refused, then answered elsewhere?");
  g_autofree char *body = NULL;
  g_autoptr(JsonNode) reply = NULL;
  guint status = 0;

  body = g_strdup_printf ("{\"notification_id\": \"%s\", \"action_id\": \"stop\","
                          " \"response_data\": null}", id);
  reply = app_test_server_call (server, "POST", "/api/v1/client/respond", body, &status);
  g_assert_cmpuint (status, ==, 200);

  app_test_wait_for (triage_inbox_model_lookup (triage_application_get_inbox (app), id) == NULL,
                     APP_TEST_WAIT_MS);
  g_assert_true (triage_outbox_answer_failed (triage_application_get_outbox (app), id));
}

/* Withdrawn while the app was away after ours was refused: the resync's
 * lookup asks what became of it (only an answer on its way is the
 * outbox's to settle), and it leaves the inbox. It stayed there, pending
 * for good. */
static void
test_refused_then_withdrawn_away (void)
{
  g_autofree char *id = refused_request_listed_again ("Refused, then withdrawn while away?");
  g_autofree char *path = g_strconcat ("/api/v1/notifications/", id, NULL);
  g_autoptr(JsonNode) reply = NULL;
  guint status = 0;

  hide_on_server (id, TRUE);
  reply = app_test_server_call (server, "PATCH", path, "{\"status\": \"invalidated\"}", &status);
  g_assert_cmpuint (status, ==, 200);
  hide_on_server (id, FALSE);
  g_assert_nonnull (triage_inbox_model_lookup (triage_application_get_inbox (app), id));

  g_action_group_activate_action (G_ACTION_GROUP (app), "reconnect", NULL);
  app_test_wait_for (triage_inbox_model_lookup (triage_application_get_inbox (app), id) == NULL,
                     APP_TEST_WAIT_MS);
}

/* Made once the answer is stored: the write held next is the one that
 * records what the server said of it. */
static void
on_queued_hold (TriageOutbox *outbox,
                const char   *notification_id)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (hold_file, "", 0, &error);
  g_assert_no_error (error);
}

static void
on_request_queued (SoupSession *session,
                   SoupMessage *message,
                   guint       *answers_sent)
{
  if (g_str_equal (soup_message_get_method (message), "POST") &&
      g_str_has_suffix (g_uri_get_path (soup_message_get_uri (message)), "/client/respond"))
    (*answers_sent)++;
}

static void
on_delivered (TriageOutbox *outbox,
              const char   *notification_id,
              guint        *delivered)
{
  (*delivered)++;
}

/* The outbox flushed (a reconnect, another answer's retry) while the store
 * records a delivery: the answer went out again, was settled twice (the
 * second finding no entry), and a server that takes no resend as a retry
 * would have answered it 409, "answered on another device". */
static void
test_delivered_once (void)
{
  TriageOutbox *outbox = triage_application_get_outbox (app);
  TriageInboxModel *inbox = triage_application_get_inbox (app);
  SoupSession *session;
  g_autofree char *id = NULL;
  guint answers_sent = 0;
  guint delivered = 0;

  app_test_wait_for (triage_application_get_connection (app) == TRIAGE_CONNECTION_CONNECTED,
                     APP_TEST_WAIT_MS);
  id = app_test_server_post (server, "Answered once?", seven_types);
  app_test_wait_for (triage_inbox_model_lookup (inbox, id) != NULL, APP_TEST_WAIT_MS);

  session = atp_client_get_session (triage_connection_get_client (app->connection));
  g_signal_connect (session, "request-queued", G_CALLBACK (on_request_queued), &answers_sent);
  g_signal_connect (outbox, "queued", G_CALLBACK (on_queued_hold), NULL);
  g_signal_connect (outbox, "delivered", G_CALLBACK (on_delivered), &delivered);
  triage_outbox_submit_async (outbox, id, "stop", NULL, NULL, NULL, NULL);

  /* The server has the answer, and the app is recording that it does. */
  app_test_wait_for (app_test_hold_reached (hold_file), APP_TEST_WAIT_MS);
  g_signal_handlers_disconnect_by_func (outbox, on_queued_hold, NULL);
  g_assert_true (app_test_server_is_responded (server, id));
  g_assert_cmpuint (answers_sent, ==, 1);

  triage_outbox_flush (outbox);
  g_assert_cmpuint (answers_sent, ==, 1);

  app_test_hold_release (hold_file);
  app_test_wait_for (delivered == 1 && !triage_outbox_has_answer (outbox, id), APP_TEST_WAIT_MS);

  /* Delivered, it is not sent again either. */
  triage_outbox_flush (outbox);
  g_assert_cmpuint (answers_sent, ==, 1);
  g_assert_cmpuint (delivered, ==, 1);

  g_signal_handlers_disconnect_by_data (session, &answers_sent);
  g_signal_handlers_disconnect_by_data (outbox, &delivered);
}

/* The server's row of the request is damaged (its stored JSON does not
 * read, as tests/server/test-server-damaged.c makes it): the answer gets 500
 * NOTIFICATION_UNREADABLE, which no resend mends. It leaves the outbox (it
 * was retried for ever) and the request says it is no longer readable. */
static void
test_unreadable (void)
{
  g_autofree char *id = open_new_request ("Settled by a damaged row?", 0);
  g_autofree char *sql = g_strdup_printf ("UPDATE notifications SET json = '{' WHERE id = '%s'", id);
  TriageOutbox *outbox = triage_application_get_outbox (app);

  change_on_server (sql);
  g_assert_true (triage_response_editor_submit (editor ("share")));
  app_test_wait_for (g_strcmp0 (banner_title (), "No longer readable on the server") == 0,
                     APP_TEST_WAIT_MS);
  g_assert_false (triage_outbox_has_answer (outbox, id));
  g_assert_cmpuint (triage_outbox_get_n_pending (outbox), ==, 0);
  g_assert_cmpint (triage_decision_view_get_delivery_state (decision_view ()), ==, TRIAGE_DELIVERY_NONE);
  assert_cards_kept ();
  /* The bubble goes: nothing can be answered from it. */
  app_test_wait_for (bubble_withdrawn ("Settled by a damaged row?"), APP_TEST_WAIT_MS);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  world = app_test_private_world ();
  hold_file = app_test_hold_sql (world, "hold-store", "BEGIN IMMEDIATE");
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  if (g_getenv ("FAKE_NOTIFYD_LOG") == NULL)
    g_error ("Runs under tests/fake-notifyd.py --log (FAKE_NOTIFYD_LOG unset)");

  server = g_new0 (AppTestServer, 1);
  app_test_server_start (server);

  app = app_test_application_new ();
  g_application_activate (G_APPLICATION (app));

  g_test_add_func ("/app-settled/answered-elsewhere", test_answered_elsewhere);
  g_test_add_func ("/app-settled/withdrawn", test_withdrawn);
  g_test_add_func ("/app-settled/expired", test_expired);
  g_test_add_func ("/app-settled/delivered", test_delivered);
  g_test_add_func ("/app-settled/gone", test_gone);
  g_test_add_func ("/app-settled/refused", test_refused);
  g_test_add_func ("/app-settled/unreadable", test_unreadable);
  g_test_add_func ("/app-settled/refused-then-answered-again", test_refused_then_answered_again);
  g_test_add_func ("/app-settled/refused-then-answered-elsewhere",
                   test_refused_then_answered_elsewhere);
  g_test_add_func ("/app-settled/refused-then-withdrawn-away", test_refused_then_withdrawn_away);
  g_test_add_func ("/app-settled/delivered-once", test_delivered_once);

  status = g_test_run ();

  g_clear_pointer (&app, app_test_application_free);
  app_test_server_free (server);
  app_test_rm_rf (world);
  g_free (world);
  g_free (hold_file);

  return status;
}
