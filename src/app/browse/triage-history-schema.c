/* triage-history-schema.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-history"

#include <glib/gi18n.h>

#include "triage-browse-error.h"
#include "triage-history-private.h"
#include "triage-history-schema.h"

/*
 * What the inbox and the history add to the app's database (the store's
 * schema is the store's; these are additions it never touches):
 *
 * - triage_read: which requests the person has opened (the unread dot). A
 *   table of its own, so marking a request read never races with the store
 *   saving it, and the store's upserts never reset it.
 * - covering indexes for the history's filters, all ending in
 *   (created_at, updated_at) so a filtered list comes out of one index in
 *   order with what the reload diff needs, without touching the table;
 * - history_fts: an FTS5 index over title, description, service and project,
 *   kept in step by triggers. Its external content is a view (the description
 *   lives inside the stored JSON), so 'rebuild' recreates it from the table.
 *
 * Every step is idempotent and recorded in triage_history_meta, so it runs
 * once per database, whatever opened it first.
 */

#define HISTORY_SCHEMA_VERSION 1

static const char history_schema_v1[] =
  "CREATE TABLE IF NOT EXISTS triage_read ("
  "  notification_id TEXT PRIMARY KEY,"
  "  read_at         INTEGER NOT NULL"
  ") WITHOUT ROWID;"
  "CREATE INDEX IF NOT EXISTS history_created"
  "  ON notifications (created_at, updated_at);"
  "CREATE INDEX IF NOT EXISTS history_service"
  "  ON notifications (service_name, created_at, updated_at);"
  "CREATE INDEX IF NOT EXISTS history_project"
  "  ON notifications (project, created_at, updated_at);"
  "CREATE INDEX IF NOT EXISTS history_outcome"
  "  ON notifications (" TRIAGE_HISTORY_EFFECTIVE_OUTCOME_SQL ", created_at, updated_at);"
  "CREATE VIEW IF NOT EXISTS history_fts_source AS"
  "  SELECT rowid AS rid, title, json_extract (json, '$.context.description') AS description,"
  "    service_name, project FROM notifications;"
  "CREATE VIRTUAL TABLE IF NOT EXISTS history_fts USING fts5 ("
  "  title, description, service_name, project,"
  "  content = 'history_fts_source', content_rowid = 'rid',"
  "  tokenize = 'unicode61 remove_diacritics 2');"
  "CREATE TRIGGER IF NOT EXISTS history_fts_insert AFTER INSERT ON notifications BEGIN"
  "  INSERT INTO history_fts (rowid, title, description, service_name, project)"
  "    VALUES (new.rowid, new.title, json_extract (new.json, '$.context.description'),"
  "            new.service_name, new.project);"
  "END;"
  /* The store rewrites every column on each resync: only real changes reindex. */
  "CREATE TRIGGER IF NOT EXISTS history_fts_update"
  "  AFTER UPDATE OF title, json, service_name, project ON notifications"
  "  WHEN old.title IS NOT new.title OR old.json IS NOT new.json"
  "    OR old.service_name IS NOT new.service_name OR old.project IS NOT new.project BEGIN"
  "  INSERT INTO history_fts (history_fts, rowid, title, description, service_name, project)"
  "    VALUES ('delete', old.rowid, old.title, json_extract (old.json, '$.context.description'),"
  "            old.service_name, old.project);"
  "  INSERT INTO history_fts (rowid, title, description, service_name, project)"
  "    VALUES (new.rowid, new.title, json_extract (new.json, '$.context.description'),"
  "            new.service_name, new.project);"
  "END;"
  "CREATE TRIGGER IF NOT EXISTS history_fts_delete AFTER DELETE ON notifications BEGIN"
  "  INSERT INTO history_fts (history_fts, rowid, title, description, service_name, project)"
  "    VALUES ('delete', old.rowid, old.title, json_extract (old.json, '$.context.description'),"
  "            old.service_name, old.project);"
  "  DELETE FROM triage_read WHERE notification_id = old.id;"
  "END;"
  /* Rows the store wrote before the index existed. */
  "INSERT INTO history_fts (history_fts) VALUES ('rebuild');";

/* Every column of the store's table the history reads. */
static const char store_columns_probe[] =
  "SELECT rowid, id, service_id, service_name, project, title, json, status, status_reason,"
  "  created_at, deadline, first_seen, updated_at, outcome, action_id, response_data,"
  "  responder_id, responder_type, answered_at, delivered_at"
  " FROM notifications LIMIT 0";

/**
 * triage_history_schema_check:
 * @db: a connection to the app's database
 * @error: %TRIAGE_BROWSE_ERROR_NO_DATABASE when the store has not created its
 *   tables (or they lack a column the history reads)
 *
 * Returns: %TRUE if the store's tables are there
 */
gboolean
triage_history_schema_check (sqlite3  *db,
                             GError  **error)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (db, store_columns_probe, -1, &stmt, NULL) != SQLITE_OK)
    {
      g_set_error (error, TRIAGE_BROWSE_ERROR, TRIAGE_BROWSE_ERROR_NO_DATABASE,
                   _("The local database has no readable requests table (%s); "
                     "it is created when Triage first starts"),
                   sqlite3_errmsg (db));
      sqlite3_finalize (stmt);
      return FALSE;
    }

  sqlite3_finalize (stmt);
  return TRUE;
}

static int
read_version (sqlite3 *db)
{
  sqlite3_stmt *stmt = NULL;
  int version = 0;

  /* A missing table reads as version 0. */
  if (sqlite3_prepare_v2 (db,
                          "SELECT value FROM triage_history_meta WHERE key = 'schema'",
                          -1, &stmt, NULL) == SQLITE_OK &&
      sqlite3_step (stmt) == SQLITE_ROW)
    version = sqlite3_column_int (stmt, 0);

  sqlite3_finalize (stmt);
  return version;
}

/**
 * triage_history_schema_ensure:
 * @db: a read-write connection to the app's database (the store's tables must exist)
 * @error: where to put an error
 *
 * Adds the history's indexes, full-text index and read marks if they are not
 * there yet. Safe to run on every start and from several connections.
 *
 * Returns: %TRUE on success
 */
gboolean
triage_history_schema_ensure (sqlite3  *db,
                              GError  **error)
{
  g_return_val_if_fail (db != NULL, FALSE);

  if (!triage_history_schema_check (db, error))
    return FALSE;

  if (read_version (db) >= HISTORY_SCHEMA_VERSION)
    return TRUE;

  if (sqlite3_exec (db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
    return triage_history_set_error (error, db,
                                     _("Could not start preparing the history in the local database"));

  /* Someone else may have done it while we waited for the lock. */
  if (read_version (db) >= HISTORY_SCHEMA_VERSION)
    {
      sqlite3_exec (db, "COMMIT", NULL, NULL, NULL);
      return TRUE;
    }

  if (sqlite3_exec (db,
                    "CREATE TABLE IF NOT EXISTS triage_history_meta ("
                    "  key   TEXT PRIMARY KEY,"
                    "  value INTEGER NOT NULL"
                    ") WITHOUT ROWID;",
                    NULL, NULL, NULL) != SQLITE_OK ||
      sqlite3_exec (db, history_schema_v1, NULL, NULL, NULL) != SQLITE_OK)
    {
      triage_history_set_error (error, db,
                                _("Could not create the history's search index in the local database"));
      goto rollback;
    }

  if (sqlite3_exec (db,
                    "INSERT OR REPLACE INTO triage_history_meta (key, value)"
                    " VALUES ('schema', " G_STRINGIFY (HISTORY_SCHEMA_VERSION) ")",
                    NULL, NULL, NULL) != SQLITE_OK)
    {
      triage_history_set_error (error, db,
                                _("Could not record the history's schema version in the local database"));
      goto rollback;
    }

  if (sqlite3_exec (db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
    {
      triage_history_set_error (error, db,
                                _("Could not finish preparing the history in the local database"));
      goto rollback;
    }

  return TRUE;

rollback:
  sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
  return FALSE;
}
