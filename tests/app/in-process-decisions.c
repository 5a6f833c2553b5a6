/* in-process-decisions.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Decisions end to end: each response type, confirmation, and a request
 * answered elsewhere, withdrawn, expiring or settled while open or away;
 * a 409 on a queued answer.
 */

#include "in-process-common.h"

void
test_app_response_type (gconstpointer data)
{
  const TypeCase *tc = data;
  g_autofree char *actions = g_strdup_printf ("[%s]", tc->action);
  g_autofree char *title = g_strdup_printf ("Type %s?", tc->name);
  g_autofree char *id = NULL;
  g_autoptr(JsonObject) recorded = NULL;
  g_autoptr(JsonNode) expected = atp_json_parse (tc->valid, -1, 0, NULL);
  GtkWidget *editor;
  JsonObject *response;

  test_app_wait_connected ();
  id = app_test_server_post (test_app_server, title, actions);
  test_app_open_request (id);

  /* Rendered: an editor for the action; the description taking the focus
   * (as when a request opens) is not turned into one selected block. */
  {
    GtkWidget *description = GTK_WIDGET (gtk_widget_get_template_child (
      GTK_WIDGET (test_app_decision_view ()), TRIAGE_TYPE_DECISION_VIEW, "description_label"));
    int start, end;

    g_assert_true (gtk_widget_grab_focus (description));
    g_assert_false (gtk_label_get_selection_bounds (GTK_LABEL (description), &start, &end));
  }
  editor = triage_decision_view_get_editor (test_app_decision_view (), "a");
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
  test_app_respond (id, "a", tc->invalid);
  app_test_spin (300);
  g_assert_true (test_app_outbox_empty ());
  g_assert_false (app_test_server_is_responded (test_app_server, id));

  /* Valid: stored, sent, recorded. */
  test_app_respond (id, "a", tc->valid);
  app_test_wait_for (app_test_server_is_responded (test_app_server, id), APP_TEST_WAIT_MS);
  recorded = app_test_server_get (test_app_server, id);
  response = json_object_get_object_member (recorded, "response");
  g_assert_cmpstr (json_object_get_string_member (response, "action_id"), ==, "a");
  g_assert_true (atp_json_node_equal (json_object_get_member (response, "response_data"), expected));

  /* Delivered: the inbox lets it go, the outbox is empty. */
  app_test_wait_for (triage_inbox_model_lookup (triage_application_get_inbox (test_app), id) == NULL,
                     APP_TEST_WAIT_MS);
  app_test_wait_for (test_app_outbox_empty (), APP_TEST_WAIT_MS);
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

void
test_app_confirmation (gconstpointer data)
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

  test_app_wait_connected ();
  id = app_test_server_post (test_app_server, title, actions);
  test_app_open_request (id);
  triage_decision_view_set_confirm_grace_period (test_app_decision_view (), 0);

  editor = triage_decision_view_get_editor (test_app_decision_view (), "go");
  g_assert_nonnull (editor);
  g_assert_true (triage_response_editor_submit (TRIAGE_RESPONSE_EDITOR (editor)));

  if (!needs)
    {
      /* Straight through: no dialog, the server records it. */
      g_assert_null (find_confirm_dialog ());
      app_test_wait_for (app_test_server_is_responded (test_app_server, id), APP_TEST_WAIT_MS);
      return;
    }

  app_test_wait_for ((dialog = find_confirm_dialog ()) != NULL, APP_TEST_WAIT_MS);
  app_test_spin (200);
  g_assert_false (app_test_server_is_responded (test_app_server, id));

  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), TRIAGE_CONFIRM_RESPONSE_CONFIRM);
  app_test_wait_for (app_test_server_is_responded (test_app_server, id), APP_TEST_WAIT_MS);
}

void
test_app_answered_elsewhere_while_open (void)
{
  g_autofree char *id = NULL;
  g_autofree char *body = NULL;
  g_autoptr(JsonNode) reply = NULL;
  guint status = 0;

  test_app_wait_connected ();
  id = app_test_server_post (test_app_server, "Answered elsewhere?",
                             "[{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}]");
  test_app_open_request (id);
  g_assert_false (triage_decision_view_get_read_only (test_app_decision_view ()));

  /* Another device (the same user, over the trusted socket) answers first. */
  body = g_strdup_printf ("{\"notification_id\": \"%s\", \"action_id\": \"ok\", \"response_data\": null}", id);
  reply = app_test_server_call (test_app_server, "POST", "/api/v1/client/respond", body, &status);
  g_assert_cmpuint (status, ==, 200);

  app_test_wait_for (triage_decision_view_get_read_only (test_app_decision_view ()),
                     APP_TEST_WAIT_MS);
  g_assert_cmpint (triage_decision_view_get_status (test_app_decision_view ()), ==,
                   ATP_STATUS_RESPONDED);
  /* Still the request shown, though it left the list. */
  g_assert_true (test_app_shows_request (id));
  g_assert_null (triage_inbox_model_lookup (triage_application_get_inbox (test_app), id));
}

/* A request titled @title with one action, OK, posted and open; its id. */
static char *
post_and_open (const char *title)
{
  char *id;

  test_app_wait_connected ();
  id = app_test_server_post (test_app_server, title,
                             "[{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}]");
  test_app_open_request (id);
  return id;
}

/* The service changes its mind about request @id: withdrawn, "Rolled back
 * instead" (or with no reason, @with_reason FALSE). */
static void
withdraw (const char *id,
          gboolean    with_reason)
{
  g_autofree char *path = g_strconcat ("/api/v1/notifications/", id, NULL);
  g_autoptr(JsonNode) reply = NULL;
  guint status = 0;

  reply = app_test_server_call (test_app_server, "PATCH", path,
                                with_reason ? "{\"status\": \"invalidated\", \"reason\": "
                                              "\"Rolled back instead\"}"
                                            : "{\"status\": \"invalidated\"}",
                                &status);
  g_assert_cmpuint (status, ==, 200);
}

/* The open request @id turns read-only, withdrawn, and says why, in the
 * view and in the history; with no reason given, says none. */
static void
assert_withdrawn_shown (const char *id,
                        gboolean    with_reason)
{
  app_test_wait_for (triage_decision_view_get_status (test_app_decision_view ()) ==
                     ATP_STATUS_INVALIDATED, APP_TEST_WAIT_MS);
  g_assert_true (triage_decision_view_get_read_only (test_app_decision_view ()));
  g_assert_cmpstr (triage_request_get_status_reason (
                     triage_window_get_current_request (test_app_window ())),
                   ==, with_reason ? "Rolled back instead" : NULL);
  app_test_wait_for (test_app_history_matches (id, with_reason
                                                     ? "outcome = 'invalidated'"
                                                       " AND status_reason = 'Rolled back instead'"
                                                     : "outcome = 'invalidated'"
                                                       " AND status_reason IS NULL"),
                     APP_TEST_WAIT_MS);
}

void
test_app_invalidated_while_open (void)
{
  g_autofree char *id = post_and_open ("Withdrawn while open?");

  withdraw (id, TRUE);
  assert_withdrawn_shown (id, TRUE);
}

void
test_app_expiry_while_open (void)
{
  g_autofree char *id = NULL;

  test_app_wait_connected ();
  id = app_test_server_post_full (test_app_server, "Expiring while open?",
                                  "[{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}]",
                                  APP_TEST_EXPIRES_IN_S);
  test_app_open_request (id);

  app_test_wait_for (triage_decision_view_get_status (test_app_decision_view ()) ==
                     ATP_STATUS_EXPIRED, APP_TEST_WAIT_MS);
  g_assert_true (triage_decision_view_get_read_only (test_app_decision_view ()));
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

void
test_app_settled_while_away (void)
{
  g_autofree char *id = NULL;
  g_autofree char *kept = NULL;
  GtkWidget *editor;
  gint64 expires;

  test_app_wait_connected ();
  expires = g_get_monotonic_time () + APP_TEST_EXPIRES_IN_S * G_USEC_PER_SEC;
  id = app_test_server_post_full (test_app_server, "Expiring while away?",
                                  "[{\"id\": \"why\", \"label\": \"Why\", \"response_type\": \"text\"}]",
                                  APP_TEST_EXPIRES_IN_S);
  test_app_open_request (id);
  editor = triage_decision_view_get_editor (test_app_decision_view (), "why");
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (
    GTK_TEXT_VIEW (triage_response_editor_get_input (TRIAGE_RESPONSE_EDITOR (editor)))),
    "half typed", -1);

  /* The server goes away shortly before the deadline, which passes
   * meanwhile, and comes back within the 5 s after which the app would
   * start a local server of its own (on another database). */
  app_test_spin ((guint) (MAX (0, expires - 2 * G_USEC_PER_SEC - g_get_monotonic_time ()) / 1000));
  app_test_server_stop (test_app_server, TRUE);
  app_test_wait_for (triage_application_get_connection (test_app) != TRIAGE_CONNECTION_CONNECTED,
                     APP_TEST_WAIT_MS);
  app_test_spin ((guint) (MAX (0, expires - g_get_monotonic_time ()) / 1000) + 500);
  app_test_server_start (test_app_server);
  g_action_group_activate_action (G_ACTION_GROUP (test_app), "retry", NULL);

  /* After the resync the app asks what became of it: expired, not "answered",
   * and why, in the view and the history, as the status update would have
   * said (it came to nobody). */
  app_test_wait_for (triage_decision_view_get_status (test_app_decision_view ()) ==
                     ATP_STATUS_EXPIRED, APP_TEST_WAIT_MS);
  g_assert_true (triage_decision_view_get_read_only (test_app_decision_view ()));
  g_assert_cmpstr (triage_request_get_status_reason (
                     triage_window_get_current_request (test_app_window ())),
                   ==, "deadline passed");
  app_test_wait_for (test_app_history_matches (id, "outcome = 'expired'"
                                                   " AND status_reason = 'deadline passed'"),
                     APP_TEST_WAIT_MS);
  g_assert_null (triage_inbox_model_lookup (triage_application_get_inbox (test_app), id));
  /* What was typed stays visible. */
  kept = editor_text (editor);
  g_assert_cmpstr (kept, ==, "half typed");
  g_assert_false (triage_response_editor_get_editable (TRIAGE_RESPONSE_EDITOR (editor)));
}

/* Withdrawn while the app was away, with a reason (@with_reason) or
 * none (as a request withdrawn before the server kept reasons reads): the
 * resync's lookup brings the reason, and the view and the history say it as
 * the status update would have (it came to nobody), or say none. */
static void
withdrawn_while_away (gboolean with_reason)
{
  g_autofree char *id = post_and_open (with_reason ? "Withdrawn while away?"
                                                   : "Withdrawn while away, no reason?");

  app_test_server_stop (test_app_server, TRUE);
  app_test_wait_for (triage_application_get_connection (test_app) != TRIAGE_CONNECTION_CONNECTED,
                     APP_TEST_WAIT_MS);
  /* The calls block: the app does not run (nor reconnect) till the retry. */
  app_test_server_start (test_app_server);
  withdraw (id, with_reason);
  g_action_group_activate_action (G_ACTION_GROUP (test_app), "retry", NULL);
  assert_withdrawn_shown (id, with_reason);
}

void
test_app_withdrawn_while_away (void)
{
  withdrawn_while_away (TRUE);
}

void
test_app_withdrawn_no_reason_while_away (void)
{
  withdrawn_while_away (FALSE);
}

void
test_app_conflict_told (void)
{
  g_autofree char *id = NULL;
  g_autofree char *body = NULL;
  g_autoptr(JsonNode) reply = NULL;
  guint status = 0;

  test_app_wait_connected ();
  id = app_test_server_post (test_app_server, "Race?",
                             "[{\"id\": \"yes\", \"label\": \"Yes\", \"response_type\": \"simple\"},"
                             " {\"id\": \"no\", \"label\": \"No\", \"response_type\": \"simple\"}]");
  test_app_open_request (id);

  /* The app goes offline from the server's point of view: answer while it is away. */
  app_test_server_stop (test_app_server, TRUE);
  app_test_wait_for (triage_application_get_connection (test_app) != TRIAGE_CONNECTION_CONNECTED,
                     APP_TEST_WAIT_MS);
  test_app_respond (id, "yes", "null");
  app_test_wait_for (triage_outbox_get_n_pending (triage_application_get_outbox (test_app)) == 1,
                     APP_TEST_WAIT_MS);

  /* Meanwhile another device answers "no". */
  app_test_server_start (test_app_server);
  body = g_strdup_printf ("{\"notification_id\": \"%s\", \"action_id\": \"no\", \"response_data\": null}", id);
  reply = app_test_server_call (test_app_server, "POST", "/api/v1/client/respond", body, &status);
  g_assert_cmpuint (status, ==, 200);

  /* Our queued answer gets 409 on reconnect: cleared, and the person is told. */
  g_action_group_activate_action (G_ACTION_GROUP (test_app), "retry", NULL);
  app_test_wait_for (test_app_outbox_empty (), 30000);
  app_test_wait_for (triage_decision_view_get_status (test_app_decision_view ()) ==
                     ATP_STATUS_RESPONDED, APP_TEST_WAIT_MS);
  {
    g_autoptr(JsonObject) recorded = app_test_server_get (test_app_server, id);
    JsonObject *response = json_object_get_object_member (recorded, "response");

    g_assert_cmpstr (json_object_get_string_member (response, "action_id"), ==, "no");
  }
  /* The history shows the answer that won, not ours. */
  app_test_wait_for (test_app_history_matches (id, "outcome = 'answered-elsewhere'"
                                                   " AND action_id = 'no'"),
                     APP_TEST_WAIT_MS);
}
