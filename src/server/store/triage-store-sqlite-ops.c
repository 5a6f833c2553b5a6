/* triage-store-sqlite-ops.c — what operators ask of the SQLite backend
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The readiness check and the pending count of /metrics: both are one
 * statement each, cached like every other.
 */

#define G_LOG_DOMAIN "triage-store-sqlite"

#include <gio/gio.h>
#include <sqlite3.h>

#include "atp.h"
#include "triage-store-sqlite-private.h"

/* The database file is the one opened, the database answers, and nobody (a
 * newer server on the same file) moved its schema past ours. */
static gboolean
sqlite_check (TriageStore  *store,
              GError      **error)
{
  sqlite3_stmt *stmt;
  int rc, version;

  if (!triage_store_sqlite_file_check (TRIAGE_STORE_SQLITE (store), error))
    return FALSE;
  stmt = triage_store_sqlite_statement (TRIAGE_STORE_SQLITE (store), "PRAGMA user_version");
  rc = triage_store_sqlite_step (TRIAGE_STORE_SQLITE (store), stmt);
  version = rc == SQLITE_ROW ? sqlite3_column_int (stmt, 0) : -1;

  triage_store_sqlite_done (stmt);
  if (rc != SQLITE_ROW)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED, "the database does not answer: %s",
                   sqlite3_errstr (rc));
      return FALSE;
    }
  if (version != triage_store_sqlite_schema_version ())
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "the database has schema version %d, this server expects %d", version,
                   triage_store_sqlite_schema_version ());
      return FALSE;
    }
  return TRUE;
}

static gboolean
sqlite_count_pending (TriageStore *store,
                      gint64      *counts,
                      guint        n_counts)
{
  sqlite3_stmt *stmt = triage_store_sqlite_statement (TRIAGE_STORE_SQLITE (store),
                                                      "SELECT protocol, COUNT (*) FROM notifications"
                                                      " WHERE status IN (0, 1, 2) GROUP BY protocol");
  int status;

  G_STATIC_ASSERT (ATP_STATUS_CREATED == 0 && ATP_STATUS_DELIVERED == 1 &&
                   ATP_STATUS_ACKNOWLEDGED == 2);
  while ((status = triage_store_sqlite_step (TRIAGE_STORE_SQLITE (store), stmt)) == SQLITE_ROW)
    {
      int protocol = sqlite3_column_int (stmt, 0);

      if (protocol >= 0 && (guint) protocol < n_counts)
        counts[protocol] = sqlite3_column_int64 (stmt, 1);
    }
  triage_store_sqlite_done (stmt);
  return status == SQLITE_DONE;
}

static gboolean
sqlite_count_webhooks (TriageStore *store,
                       gint64      *queued,
                       gint64      *failed)
{
  sqlite3_stmt *stmt = triage_store_sqlite_statement (TRIAGE_STORE_SQLITE (store),
                                                      "SELECT COUNT (next_attempt),"
                                                      " COUNT (*) - COUNT (next_attempt)"
                                                      " FROM webhook_deliveries");
  gboolean counted = triage_store_sqlite_step (TRIAGE_STORE_SQLITE (store), stmt) == SQLITE_ROW;

  if (counted)
    {
      *queued = sqlite3_column_int64 (stmt, 0);
      *failed = sqlite3_column_int64 (stmt, 1);
    }
  triage_store_sqlite_done (stmt);
  return counted;
}

/* Deletes the row(s) @sql finds by the one text or integer parameter;
 * FALSE if it failed. */
static gboolean
delete_by (TriageStoreSqlite *self,
           const char        *sql,
           const char        *id,
           gint64             seq)
{
  sqlite3_stmt *stmt = triage_store_sqlite_statement (self, sql);
  gboolean done;

  if (id != NULL)
    triage_store_sqlite_bind_text (stmt, 1, id);
  else
    triage_store_sqlite_bind_int64 (stmt, 1, seq);
  done = triage_store_sqlite_step (self, stmt) == SQLITE_DONE;
  triage_store_sqlite_done (stmt);
  return done;
}

/* The oldest requests settled before @before are read first (through the
 * index of settled requests' times, schema version 10), then deleted one by
 * one with what refers to them: at most @limit, so a first run on a large
 * database holds the main loop in short turns. */
static guint
sqlite_forget_settled (TriageStore *store,
                       gint64       before,
                       guint        limit)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  g_autoptr(GArray) seqs = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  sqlite3_stmt *stmt;

  G_STATIC_ASSERT (ATP_STATUS_RESPONDED == 3 && ATP_STATUS_EXPIRED == 4 &&
                   ATP_STATUS_INVALIDATED == 5);
  stmt = triage_store_sqlite_statement (self,
                                        "SELECT seq, id FROM notifications"
                                        " WHERE status >= 3 AND updated_at < ?"
                                        " ORDER BY updated_at LIMIT ?");
  triage_store_sqlite_bind_int64 (stmt, 1, before);
  triage_store_sqlite_bind_int64 (stmt, 2, limit);
  while (triage_store_sqlite_step (self, stmt) == SQLITE_ROW)
    {
      gint64 seq = sqlite3_column_int64 (stmt, 0);

      g_array_append_val (seqs, seq);
      g_ptr_array_add (ids, triage_store_sqlite_column_text (stmt, 1));
    }
  triage_store_sqlite_done (stmt);

  /* A failed delete (an I/O error) fails the batch's commit too: what was
   * deleted comes back with the rollback, and is forgotten another time. */
  for (guint i = 0; i < seqs->len; i++)
    {
      gint64 seq = g_array_index (seqs, gint64, i);

      if (!delete_by (self, "DELETE FROM notification_recipients WHERE notification_seq = ?",
                      NULL, seq) ||
          !delete_by (self, "DELETE FROM afp_reviews WHERE notification_id = ?", ids->pdata[i], 0) ||
          !delete_by (self, "DELETE FROM notifications WHERE seq = ?", NULL, seq))
        return i;
    }
  stmt = triage_store_sqlite_statement (self,
                                        "DELETE FROM afp_sessions WHERE created_at < ? AND NOT EXISTS"
                                        " (SELECT 1 FROM afp_reviews r WHERE r.session_id = afp_sessions.id)");
  triage_store_sqlite_bind_int64 (stmt, 1, before);
  triage_store_sqlite_step (self, stmt);
  triage_store_sqlite_done (stmt);
  return seqs->len;
}

void
triage_store_sqlite_ops_class_init (TriageStoreClass *store_class)
{
  store_class->forget_settled = sqlite_forget_settled;
  store_class->check = sqlite_check;
  store_class->count_pending = sqlite_count_pending;
  store_class->count_webhooks = sqlite_count_webhooks;
}
