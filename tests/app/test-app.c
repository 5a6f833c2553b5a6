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
 *
 * The tests are in in-process-*.c by topic (decisions, history, desktop),
 * the app, its server and the helpers in in-process-common.c.
 */

#include "in-process-common.h"

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

int
main (int   argc,
      char *argv[])
{
  int status;

  test_app_world = app_test_private_world ();
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  test_app_server = g_new0 (AppTestServer, 1);
  app_test_server_start (test_app_server);

  test_app = app_test_application_new ();
  g_application_activate (G_APPLICATION (test_app));

  for (guint i = 0; i < G_N_ELEMENTS (type_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/app/response-type/%s", type_cases[i].name);

      g_test_add_data_func (path, &type_cases[i], test_app_response_type);
    }
  {
    static const char *flags[] = { "destructive", "irreversible", "requires_confirmation",
                                   "time_sensitive", "affects_others", "costly", "experimental" };

    for (guint i = 0; i < G_N_ELEMENTS (flags); i++)
      {
        g_autofree char *path = g_strdup_printf ("/app/confirmation/%s", flags[i]);

        g_test_add_data_func (path, flags[i], test_app_confirmation);
      }
  }
  g_test_add_func ("/app/answered-elsewhere-while-open", test_app_answered_elsewhere_while_open);
  g_test_add_func ("/app/invalidated-while-open", test_app_invalidated_while_open);
  g_test_add_func ("/app/expiry-while-open", test_app_expiry_while_open);
  g_test_add_func ("/app/conflict-told", test_app_conflict_told);
  g_test_add_func ("/app/settled-while-away", test_app_settled_while_away);
  g_test_add_func ("/app/withdrawn-while-away", test_app_withdrawn_while_away);
  g_test_add_func ("/app/withdrawn-no-reason-while-away", test_app_withdrawn_no_reason_while_away);
  g_test_add_func ("/app/history-recorded", test_app_history_recorded);
  g_test_add_func ("/app/attachments", test_app_attachments);
  g_test_add_func ("/app/history-retention", test_app_history_retention);
  g_test_add_func ("/app/autostart", test_app_autostart);
  g_test_add_func ("/app/shortcuts-listed", test_app_shortcuts_listed);
  g_test_add_func ("/app/tray-menu", test_app_tray_menu);
  g_test_add_func ("/app/answer-queued-not-waiting", test_app_answer_queued_not_waiting);
  /* Last: it moves the server to a new database. */
  g_test_add_func ("/app/gone-while-away", test_app_gone_while_away);

  status = g_test_run ();

  g_clear_pointer (&test_app, app_test_application_free);
  app_test_server_free (test_app_server);
  app_test_rm_rf (test_app_world);
  g_free (test_app_world);

  return status;
}
