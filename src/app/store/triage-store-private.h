/* triage-store-private.h — what the store's files share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib/gi18n.h>
#include <sqlite3.h>

#include "triage-store.h"

G_BEGIN_DECLS

/*
 * TriageStore spans five files:
 *
 *   triage-store.c           the object, its worker thread, opening the database
 *   triage-store-schema.c    the schema and its upgrades
 *   triage-store-requests.c  the requests seen: inbox, history, pruning
 *   triage-store-outbox.c    the answers not yet confirmed by the server
 *   triage-store-drafts.c    the drafts of answers being written
 */

struct _TriageStore
{
  GObject      parent_instance;

  char        *path;
  GThreadPool *pool;     /* one thread: the only user of db */
  sqlite3     *db;       /* touched on the worker thread only */

  GMutex       batch_lock;
  GPtrArray   *batch;    /* GTask* of saves that a queued write will take, or NULL */

  char        *server;   /* main thread: whose requests and answers are meant */
  gboolean     draft_failed;  /* main thread: the last draft could not be written */
};

/* Runs on the store's one worker thread, the only user of its database. */
typedef void (*TriageStoreFunc) (TriageStore *self,
                                 GTask       *task,
                                 gpointer     task_data);

void     _triage_store_run    (TriageStore         *self,
                               TriageStoreFunc      func,
                               gpointer             task_data,
                               GDestroyNotify       task_data_destroy,
                               gpointer             source_tag,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data);
/* On the worker thread only. */
sqlite3 *_triage_store_get_db (TriageStore         *self);

/* triage-store.c */
void     _triage_store_emit_drafts_writable (TriageStore *self);

void     _triage_store_queue_save (TriageStore     *self,
                                   GTask           *task);

/* triage-store-schema.c */
gboolean _triage_store_migrate    (sqlite3         *db,
                                   GError         **error);

/* triage-store-requests.c */
void     _triage_store_save_batch (TriageStore     *self,
                                   GPtrArray       *batch);

/* SQLite helpers, for the store's files (worker thread) */

static inline gboolean
set_sqlite_error (GError     **error,
                  sqlite3     *db,
                  const char  *what)
{
  g_set_error (error, TRIAGE_STORE_ERROR, TRIAGE_STORE_ERROR_FAILED,
               _("Could not %s in the local database: %s"),
               what, db ? sqlite3_errmsg (db) : _("out of memory"));
  return FALSE;
}

static inline gboolean
exec_sql (sqlite3     *db,
          const char  *sql,
          const char  *what,
          GError     **error)
{
  if (sqlite3_exec (db, sql, NULL, NULL, NULL) != SQLITE_OK)
    return set_sqlite_error (error, db, what);

  return TRUE;
}

static inline sqlite3_stmt *
prepare (sqlite3     *db,
         const char  *sql,
         GError     **error)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      set_sqlite_error (error, db, _("prepare a query"));
      return NULL;
    }

  return stmt;
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

static inline void
bind_text (sqlite3_stmt *stmt,
           int           index,
           const char   *text)
{
  if (text != NULL)
    sqlite3_bind_text (stmt, index, text, -1, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null (stmt, index);
}

/* GLib 2.74 has no usec variants of the Unix time conversions. */
static inline gint64
time_to_usec (GDateTime *time)
{
  return g_date_time_to_unix (time) * G_USEC_PER_SEC + g_date_time_get_microsecond (time);
}

static inline GDateTime *
time_from_usec (gint64 usec)
{
  g_autoptr(GDateTime) seconds = g_date_time_new_from_unix_utc (usec / G_USEC_PER_SEC);

  return g_date_time_add (seconds, usec % G_USEC_PER_SEC);
}

static inline void
bind_time (sqlite3_stmt *stmt,
           int           index,
           GDateTime    *time)
{
  if (time != NULL)
    sqlite3_bind_int64 (stmt, index, time_to_usec (time));
  else
    sqlite3_bind_null (stmt, index);
}

static inline GDateTime *
column_time (sqlite3_stmt *stmt,
             int           column)
{
  if (sqlite3_column_type (stmt, column) == SQLITE_NULL)
    return NULL;

  return time_from_usec (sqlite3_column_int64 (stmt, column));
}

static inline gint64
now_usec (void)
{
  return g_get_real_time ();
}


/* Runs @stmt, a write, and gives @task its outcome; @what names it in an error. */
static inline void
return_step (TriageStore  *self,
             GTask        *task,
             sqlite3_stmt *stmt,
             const char   *what)
{
  GError *error = NULL;

  if (sqlite3_step (stmt) != SQLITE_DONE)
    {
      set_sqlite_error (&error, _triage_store_get_db (self), what);
      g_task_return_error (task, error);
      return;
    }

  g_task_return_boolean (task, TRUE);
}

G_END_DECLS
