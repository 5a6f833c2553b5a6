/* triage-store-schema.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-store"

#include "triage-store-private.h"

/*
 * The store's schema and its upgrades: each version's statements, run in
 * one transaction when the database is opened (triage_store_open_async()).
 */

/* Schema. Version 1: the inbox/history and the outbox. */
static const char schema_v1[] =
  "CREATE TABLE notifications ("
  "  id             TEXT PRIMARY KEY,"
  "  service_id     TEXT,"
  "  service_name   TEXT NOT NULL,"
  "  project        TEXT,"
  "  title          TEXT NOT NULL,"
  "  json           TEXT NOT NULL,"           /* the notification as received */
  "  status         TEXT NOT NULL,"           /* last known server status */
  "  status_reason  TEXT,"
  "  created_at     INTEGER NOT NULL,"        /* the notification's timestamp */
  "  deadline       INTEGER,"
  "  first_seen     INTEGER NOT NULL,"
  "  updated_at     INTEGER NOT NULL,"
  "  outcome        TEXT NOT NULL DEFAULT 'none',"
  "  action_id      TEXT,"                    /* the answer, once given */
  "  response_data  TEXT,"
  "  responder_id   TEXT,"
  "  responder_type TEXT,"
  "  answered_at    INTEGER,"
  "  delivered_at   INTEGER"
  ");"
  "CREATE INDEX notifications_outcome ON notifications (outcome, deadline, created_at);"
  "CREATE INDEX notifications_first_seen ON notifications (first_seen);"
  "CREATE TABLE outbox ("
  "  id              INTEGER PRIMARY KEY AUTOINCREMENT,"
  "  notification_id TEXT NOT NULL UNIQUE,"
  "  action_id       TEXT NOT NULL,"
  "  response_data   TEXT NOT NULL,"
  "  responded_at    INTEGER NOT NULL,"
  "  state           TEXT NOT NULL DEFAULT 'queued',"
  "  attempts        INTEGER NOT NULL DEFAULT 0,"
  "  last_error      TEXT,"
  "  created_at      INTEGER NOT NULL"
  ");";

/* Version 2: every request and answer belongs to the server it came from
 * (local mode's, or a remote one's address), so that an answer is only ever
 * sent to that server and each server's inbox shows its own requests. Rows
 * from version 1 have no server yet: the first one the app loads claims them. */
static const char schema_v2[] =
  "ALTER TABLE notifications ADD COLUMN server TEXT NOT NULL DEFAULT '';"
  "ALTER TABLE outbox ADD COLUMN server TEXT NOT NULL DEFAULT '';"
  "CREATE INDEX notifications_server ON notifications (server, outcome);";

/* Version 3: drafts of answers being written (an AFP review's feedback), kept
 * as the person types, so closing the window or a crash loses nothing; an
 * answer entering the outbox takes its draft with it. */
static const char schema_v3[] =
  "CREATE TABLE drafts ("
  "  notification_id TEXT PRIMARY KEY,"
  "  json            TEXT NOT NULL,"
  "  updated_at      INTEGER NOT NULL"
  ");"
  "CREATE TRIGGER outbox_takes_draft AFTER INSERT ON outbox BEGIN"
  "  DELETE FROM drafts WHERE notification_id = NEW.notification_id;"
  " END;"
  "CREATE TRIGGER outbox_retakes_draft AFTER UPDATE ON outbox BEGIN"
  "  DELETE FROM drafts WHERE notification_id = NEW.notification_id;"
  " END;"
  "CREATE TRIGGER notification_drops_draft AFTER DELETE ON notifications BEGIN"
  "  DELETE FROM drafts WHERE notification_id = OLD.id;"
  " END;";

/* Version 4: drafts of any request's answer (the decision view keeps what
 * its controls hold, too), so a settled request (answered elsewhere,
 * withdrawn, expired: a status the server pushed or a resync brought, or an
 * outcome recorded here) takes its draft with it, whichever connection
 * wrote either. */
static const char schema_v4[] =
  "CREATE TRIGGER settled_drops_draft AFTER UPDATE OF status, outcome ON notifications"
  "  WHEN NEW.status IN ('responded', 'expired', 'invalidated') OR NEW.outcome != 'none' BEGIN"
  "  DELETE FROM drafts WHERE notification_id = NEW.id;"
  " END;"
  "DELETE FROM drafts WHERE notification_id IN (SELECT id FROM notifications"
  "  WHERE status IN ('responded', 'expired', 'invalidated') OR outcome != 'none');";

/* Brings the schema of @db to TRIAGE_STORE_SCHEMA_VERSION, in one transaction. */
gboolean
_triage_store_migrate (sqlite3  *db,
                       GError  **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int version;

  if (!(stmt = prepare (db, "PRAGMA user_version", error)))
    return FALSE;
  if (sqlite3_step (stmt) != SQLITE_ROW)
    return set_sqlite_error (error, db, _("read the schema version"));
  version = sqlite3_column_int (stmt, 0);

  if (version > TRIAGE_STORE_SCHEMA_VERSION)
    {
      g_set_error (error, TRIAGE_STORE_ERROR, TRIAGE_STORE_ERROR_TOO_NEW,
                   _("The local database was written by a newer version of Triage "
                     "(schema %d, this version knows %d)"),
                   version, TRIAGE_STORE_SCHEMA_VERSION);
      return FALSE;
    }

  if (version == TRIAGE_STORE_SCHEMA_VERSION)
    return TRUE;

  if (!exec_sql (db, "BEGIN IMMEDIATE", _("start the schema upgrade"), error))
    return FALSE;

  if (version < 1 && !exec_sql (db, schema_v1, _("create the tables"), error))
    goto rollback;
  if (version < 2 && !exec_sql (db, schema_v2, _("upgrade the tables"), error))
    goto rollback;
  if (version < 3 && !exec_sql (db, schema_v3, _("upgrade the tables"), error))
    goto rollback;

  if (version < 4 && !exec_sql (db, schema_v4, _("upgrade the tables"), error))
    goto rollback;

  if (!exec_sql (db, "PRAGMA user_version = " G_STRINGIFY (TRIAGE_STORE_SCHEMA_VERSION),
                 _("record the schema version"), error))
    goto rollback;

  return exec_sql (db, "COMMIT", _("finish the schema upgrade"), error);

rollback:
  sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
  return FALSE;
}
