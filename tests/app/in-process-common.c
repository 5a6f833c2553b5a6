/* in-process-common.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The app, its server and the helpers shared by the parts of test-app.
 */

#include "in-process-common.h"

char *world;
AppTestServer *server;
TriageApplication *app;

void
wait_connected (void)
{
  app_test_wait_for (triage_application_get_connection (app) == TRIAGE_CONNECTION_CONNECTED,
                     APP_TEST_WAIT_MS);
}

TriageWindow *
window (void)
{
  app_test_wait_for (triage_application_get_window (app) != NULL, APP_TEST_WAIT_MS);
  return triage_application_get_window (app);
}

TriageDecisionView *
decision_view (void)
{
  return TRIAGE_DECISION_VIEW (triage_window_get_decision_view (window ()));
}

void
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
void
respond (const char *id,
         const char *action_id,
         const char *json)
{
  g_autoptr(JsonNode) data = atp_json_parse (json, -1, 0, NULL);

  g_assert_nonnull (data);
  g_signal_emit_by_name (window (), "submit", id, action_id, data);
}

gboolean
outbox_empty (void)
{
  return triage_outbox_get_n_pending (triage_application_get_outbox (app)) == 0;
}

/* The app's database, as the history reads it */

gboolean
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
