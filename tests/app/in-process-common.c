/* in-process-common.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The app, its server and the helpers shared by the parts of test-app.
 */

#include "in-process-common.h"

char *test_app_world;
AppTestServer *test_app_server;
TriageApplication *test_app;

void
test_app_wait_connected (void)
{
  app_test_wait_for (triage_application_get_connection (test_app) == TRIAGE_CONNECTION_CONNECTED,
                     APP_TEST_WAIT_MS);
}

TriageWindow *
test_app_window (void)
{
  app_test_wait_for (triage_application_get_window (test_app) != NULL, APP_TEST_WAIT_MS);
  return triage_application_get_window (test_app);
}

TriageDecisionView *
test_app_decision_view (void)
{
  return TRIAGE_DECISION_VIEW (triage_window_get_decision_view (test_app_window ()));
}

gboolean
test_app_shows_request (const char *id)
{
  TriageRequest *current = triage_window_get_current_request (test_app_window ());

  return current != NULL && g_str_equal (triage_request_get_id (current), id);
}

void
test_app_open_request (const char *id)
{
  TriageInboxModel *inbox = triage_application_get_inbox (test_app);

  app_test_wait_for (triage_inbox_model_lookup (inbox, id) != NULL, APP_TEST_WAIT_MS);
  g_action_group_activate_action (G_ACTION_GROUP (test_app), "open-request",
                                  g_variant_new_string (id));
  app_test_wait_for (test_app_shows_request (id), APP_TEST_WAIT_MS);
}

/* An answer as the decision view gives it (no D-Bus action answers: any
 * program on the session bus could use it to skip a confirmation). */
void
test_app_respond (const char *id,
                  const char *action_id,
                  const char *json)
{
  g_autoptr(JsonNode) data = atp_json_parse (json, -1, 0, NULL);

  g_assert_nonnull (data);
  g_signal_emit_by_name (test_app_window (), "submit", id, action_id, data);
}

gboolean
test_app_outbox_empty (void)
{
  return triage_outbox_get_n_pending (triage_application_get_outbox (test_app)) == 0;
}

/* The app's database, as the history reads it */

gboolean
test_app_history_matches (const char *id,
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
