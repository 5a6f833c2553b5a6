/* triage-store-sqlite-afp.c — AFP review sessions in the SQLite backend
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tables (schema version 6 of triage-store-sqlite.c): afp_sessions (id,
 * service_id, created_at, last_iteration) and afp_reviews (notification_id,
 * session_id, iteration).
 */

#define G_LOG_DOMAIN "triage-store-sqlite"

#include <gio/gio.h>
#include <sqlite3.h>

#include "triage-store-sqlite-private.h"

static gboolean
sqlite_afp_add_session (TriageStore *store,
                        const char  *id,
                        const char  *service_id,
                        gint64       now)
{
  sqlite3_stmt *stmt = triage_store_sqlite_statement (TRIAGE_STORE_SQLITE (store),
    "INSERT INTO afp_sessions (id, service_id, created_at, last_iteration) VALUES (?, ?, ?, 0)");
  gboolean ok;

  triage_store_sqlite_bind_text (stmt, 1, id);
  triage_store_sqlite_bind_text (stmt, 2, service_id);
  triage_store_sqlite_bind_int64 (stmt, 3, now);
  ok = triage_store_sqlite_step (TRIAGE_STORE_SQLITE (store), stmt) == SQLITE_DONE;
  triage_store_sqlite_done (stmt);
  return ok;
}

static TriageAfpSessionRow *
sqlite_afp_get_session (TriageStore *store,
                        const char  *id,
                        GError     **error)
{
  sqlite3_stmt *stmt = triage_store_sqlite_statement (TRIAGE_STORE_SQLITE (store),
    "SELECT id, service_id, created_at, last_iteration FROM afp_sessions WHERE id = ?");
  TriageAfpSessionRow *row = NULL;
  int rc;

  triage_store_sqlite_bind_text (stmt, 1, id);
  rc = triage_store_sqlite_step (TRIAGE_STORE_SQLITE (store), stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                 "the database did not answer the lookup of a review session: %s",
                 sqlite3_errmsg (TRIAGE_STORE_SQLITE (store)->db));
  if (rc == SQLITE_ROW)
    {
      row = g_new0 (TriageAfpSessionRow, 1);
      row->id = triage_store_sqlite_column_text (stmt, 0);
      row->service_id = triage_store_sqlite_column_text (stmt, 1);
      row->created_at = sqlite3_column_int64 (stmt, 2);
      row->last_iteration = sqlite3_column_int64 (stmt, 3);
    }
  triage_store_sqlite_done (stmt);
  return row;
}

static gboolean
sqlite_afp_claim_iteration (TriageStore *store,
                            const char  *session_id,
                            gint64       iteration,
                            GError     **error)
{
  sqlite3_stmt *stmt = triage_store_sqlite_statement (TRIAGE_STORE_SQLITE (store),
    "UPDATE afp_sessions SET last_iteration = ?1 WHERE id = ?2 AND last_iteration < ?1"
    " RETURNING id");
  gboolean claimed;
  int rc;

  triage_store_sqlite_bind_int64 (stmt, 1, iteration);
  triage_store_sqlite_bind_text (stmt, 2, session_id);
  rc = triage_store_sqlite_step (TRIAGE_STORE_SQLITE (store), stmt);
  claimed = rc == SQLITE_ROW;
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                 "the database did not store a review session's iteration: %s",
                 sqlite3_errmsg (TRIAGE_STORE_SQLITE (store)->db));
  triage_store_sqlite_done (stmt);
  return claimed;
}

static void
sqlite_afp_release_iteration (TriageStore *store,
                              const char  *session_id,
                              gint64       iteration)
{
  sqlite3_stmt *stmt = triage_store_sqlite_statement (TRIAGE_STORE_SQLITE (store),
    "UPDATE afp_sessions SET last_iteration ="
    " (SELECT COALESCE (MAX (iteration), 0) FROM afp_reviews WHERE session_id = ?1)"
    " WHERE id = ?1 AND last_iteration = ?2");

  triage_store_sqlite_bind_text (stmt, 1, session_id);
  triage_store_sqlite_bind_int64 (stmt, 2, iteration);
  /* A failure fails the batch, which takes the claim back with it. */
  triage_store_sqlite_step (TRIAGE_STORE_SQLITE (store), stmt);
  triage_store_sqlite_done (stmt);
}

static gboolean
sqlite_afp_add_review (TriageStore *store,
                       const char  *notification_id,
                       const char  *session_id,
                       gint64       iteration)
{
  sqlite3_stmt *stmt = triage_store_sqlite_statement (TRIAGE_STORE_SQLITE (store),
    "INSERT INTO afp_reviews (notification_id, session_id, iteration) VALUES (?, ?, ?)");
  gboolean ok;

  triage_store_sqlite_bind_text (stmt, 1, notification_id);
  triage_store_sqlite_bind_text (stmt, 2, session_id);
  triage_store_sqlite_bind_int64 (stmt, 3, iteration);
  ok = triage_store_sqlite_step (TRIAGE_STORE_SQLITE (store), stmt) == SQLITE_DONE;
  triage_store_sqlite_done (stmt);
  return ok;
}

static gboolean
sqlite_afp_last_review (TriageStore *store,
                        const char  *session_id,
                        char       **notification_id,
                        gint64      *iteration,
                        GError     **error)
{
  sqlite3_stmt *stmt = triage_store_sqlite_statement (TRIAGE_STORE_SQLITE (store),
    "SELECT notification_id, iteration FROM afp_reviews WHERE session_id = ?"
    " ORDER BY iteration DESC LIMIT 1");
  gboolean found;
  int rc;

  triage_store_sqlite_bind_text (stmt, 1, session_id);
  rc = triage_store_sqlite_step (TRIAGE_STORE_SQLITE (store), stmt);
  found = rc == SQLITE_ROW;
  if (found)
    {
      *notification_id = triage_store_sqlite_column_text (stmt, 0);
      *iteration = sqlite3_column_int64 (stmt, 1);
    }
  else if (rc != SQLITE_DONE)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                 "the database did not answer the lookup of a session's latest review: %s",
                 sqlite3_errmsg (TRIAGE_STORE_SQLITE (store)->db));
  triage_store_sqlite_done (stmt);
  return found;
}

/* How many reviews the session has (listed ones: their request is kept). */
static gboolean
sqlite_afp_count_reviews (TriageStore *store,
                          const char  *session_id,
                          gint64      *total,
                          GError     **error)
{
  sqlite3_stmt *stmt = triage_store_sqlite_statement (TRIAGE_STORE_SQLITE (store),
    "SELECT count(*) FROM afp_reviews r JOIN notifications n ON n.id = r.notification_id"
    " WHERE r.session_id = ?");
  int rc;

  triage_store_sqlite_bind_text (stmt, 1, session_id);
  rc = triage_store_sqlite_step (TRIAGE_STORE_SQLITE (store), stmt);
  if (rc == SQLITE_ROW)
    *total = sqlite3_column_int64 (stmt, 0);
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                 "the database did not count a session's reviews: %s",
                 sqlite3_errmsg (TRIAGE_STORE_SQLITE (store)->db));
  triage_store_sqlite_done (stmt);
  return rc == SQLITE_ROW;
}

static GPtrArray *
sqlite_afp_reviews (TriageStore *store,
                    const char  *session_id,
                    gint64       after,
                    guint        limit,
                    gint64      *total,
                    GError     **error)
{
  sqlite3_stmt *stmt = NULL;
  GPtrArray *rows = NULL;
  int rc;

  if (total != NULL && !sqlite_afp_count_reviews (store, session_id, total, error))
    return NULL;
  stmt = triage_store_sqlite_statement (TRIAGE_STORE_SQLITE (store),
    "SELECT r.notification_id, r.iteration, n.status, n.response FROM afp_reviews r"
    " JOIN notifications n ON n.id = r.notification_id"
    " WHERE r.session_id = ? AND r.iteration > ? ORDER BY r.iteration LIMIT ?");
  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_afp_review_row_free);
  triage_store_sqlite_bind_text (stmt, 1, session_id);
  triage_store_sqlite_bind_int64 (stmt, 2, after);
  triage_store_sqlite_bind_int64 (stmt, 3, limit);
  while ((rc = triage_store_sqlite_step (TRIAGE_STORE_SQLITE (store), stmt)) == SQLITE_ROW)
    {
      TriageAfpReviewRow *row = g_new0 (TriageAfpReviewRow, 1);

      row->notification_id = triage_store_sqlite_column_text (stmt, 0);
      row->iteration = sqlite3_column_int64 (stmt, 1);
      row->status = sqlite3_column_int (stmt, 2);
      row->response = triage_store_sqlite_column_text (stmt, 3);
      g_ptr_array_add (rows, row);
    }
  if (rc != SQLITE_DONE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                   "the database did not answer the lookup of a session's reviews: %s",
                   sqlite3_errmsg (TRIAGE_STORE_SQLITE (store)->db));
      g_clear_pointer (&rows, g_ptr_array_unref);
    }
  triage_store_sqlite_done (stmt);
  return rows;
}

void
triage_store_sqlite_afp_class_init (TriageStoreClass *store_class)
{
  store_class->afp_add_session = sqlite_afp_add_session;
  store_class->afp_get_session = sqlite_afp_get_session;
  store_class->afp_claim_iteration = sqlite_afp_claim_iteration;
  store_class->afp_release_iteration = sqlite_afp_release_iteration;
  store_class->afp_add_review = sqlite_afp_add_review;
  store_class->afp_last_review = sqlite_afp_last_review;
  store_class->afp_reviews = sqlite_afp_reviews;
}
