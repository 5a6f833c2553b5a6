/* triage-history-db.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-history"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "triage-browse-error.h"
#include "triage-history-db-private.h"
#include "triage-history-schema.h"

/*
 * The history's own connections to the app's database (the store's file):
 * WAL lets them read while the store writes, and they never hold the
 * store's worker up.
 *
 * - On one worker thread: a read-write connection for the history's schema
 *   additions and the read marks, and a read-only one for queries (filters,
 *   full-text search, facets, chart statistics). Queries run one after the
 *   other; a cancelled one is interrupted by SQLite's progress handler.
 * - On a second worker thread: a read-only connection that pages entries in
 *   by rowid (a page of 200 takes about a millisecond, longer when the disk
 *   is slow), so scrolling never waits for the disk nor for a query.
 * - On the main thread: a read-only connection that only checks
 *   PRAGMA data_version to tell whether anyone wrote since the last look
 *   (it reads the WAL index in shared memory, not the file).
 *
 * A query returns only (rowid, updated_at) pairs, read from covering
 * indexes; the model pages the rows in when the list shows them.
 *
 * What the filters offer and the chart's statistics are in
 * triage-history-db-summary.c, the read marks in
 * triage-history-db-read-marks.c, the SQL the model and the export share in
 * triage-history-sql.c.
 */

G_DEFINE_FINAL_TYPE (TriageHistoryDb, triage_history_db, G_TYPE_OBJECT)

typedef struct
{
  HistoryFunc  func;
  GTask       *task;
} HistoryOp;

/* The worker */

static gboolean
unref_task_cb (gpointer data)
{
  g_object_unref (data);
  return G_SOURCE_REMOVE;
}

/* A cancelled query stops at SQLite's next progress check. */
static int
progress_cb (gpointer data)
{
  return g_cancellable_is_cancelled (data) ? 1 : 0;
}

/* The last reference to the task (and so perhaps to self) is dropped on
 * the caller's thread, never on a worker. */
static void
release_op (HistoryOp *op)
{
  GSource *source = g_idle_source_new ();

  g_source_set_callback (source, unref_task_cb, op->task, NULL);
  g_source_set_static_name (source, "[triage-history] release task");
  g_source_attach (source, g_task_get_context (op->task));
  g_source_unref (source);
  g_free (op);
}

/* FALSE, with the task answered, when it was cancelled before it ran or
 * the history is not open. */
static gboolean
op_can_run (HistoryOp *op,
            gboolean   open)
{
  if (g_task_return_error_if_cancelled (op->task))
    return FALSE;

  if (!open)
    {
      g_task_return_new_error (op->task, TRIAGE_BROWSE_ERROR, TRIAGE_BROWSE_ERROR_NOT_OPEN,
                               "%s", _("The history is not open"));
      return FALSE;
    }

  return TRUE;
}

static void
history_worker (gpointer data,
                gpointer user_data)
{
  HistoryOp *op = data;
  TriageHistoryDb *self = g_task_get_source_object (op->task);
  GCancellable *cancellable = g_task_get_cancellable (op->task);

  if (op_can_run (op, self->rw != NULL ||
                      g_task_get_source_tag (op->task) == triage_history_db_open_async))
    {
      if (self->query != NULL && cancellable != NULL)
        sqlite3_progress_handler (self->query, 1000, progress_cb, cancellable);
      op->func (self, op->task, g_task_get_task_data (op->task));
      if (self->query != NULL)
        sqlite3_progress_handler (self->query, 0, NULL, NULL);
    }

  release_op (op);
}

/* Pages: a page waits for no query, and one scrolled past is dropped unread. */
static void
page_worker (gpointer data,
             gpointer user_data)
{
  HistoryOp *op = data;
  TriageHistoryDb *self = g_task_get_source_object (op->task);

  if (op_can_run (op, self->pages != NULL))
    op->func (self, op->task, g_task_get_task_data (op->task));

  release_op (op);
}

/* Queues @func on @pool: self->pool (queries, read marks) or self->page_pool. */
void
triage_history_db_run (TriageHistoryDb     *self,
                       GThreadPool         *pool,
                       HistoryFunc          func,
                       gpointer             task_data,
                       GDestroyNotify       task_data_destroy,
                       gpointer             source_tag,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  HistoryOp *op = g_new0 (HistoryOp, 1);

  op->func = func;
  op->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (op->task, source_tag);
  g_task_set_task_data (op->task, task_data, task_data_destroy);

  g_thread_pool_push (pool, op, NULL);
}

/* An error from an interrupted statement is the cancellation. */
void
triage_history_db_return_query_error (GTask  *task,
                                      GError *error)
{
  if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    {
      g_error_free (error);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               "%s", _("The search was cancelled"));
      return;
    }

  g_task_return_error (task, error);
}

/* Open */

typedef struct
{
  sqlite3 *main;
} OpenData;

static void
open_data_free (OpenData *data)
{
  g_clear_pointer (&data->main, sqlite3_close);
  g_free (data);
}

static void
open_func (TriageHistoryDb *self,
           GTask           *task,
           gpointer         task_data)
{
  OpenData *data = task_data;
  g_autoptr(GError) error = NULL;
  sqlite3 *rw = NULL;
  sqlite3 *query = NULL;
  sqlite3 *pages = NULL;
  sqlite3_stmt *fetch = NULL;

  if (self->rw != NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  if (!(rw = triage_history_open_connection (self->path, FALSE, &error)) ||
      !triage_history_schema_ensure (rw, &error) ||
      !(query = triage_history_open_connection (self->path, TRUE, &error)) ||
      !(pages = triage_history_open_connection (self->path, TRUE, &error)) ||
      !(fetch = triage_history_prepare_fetch (pages, &error)) ||
      !(data->main = triage_history_open_connection (self->path, TRUE, &error)))
    {
      sqlite3_finalize (fetch);
      sqlite3_close (pages);
      sqlite3_close (rw);
      sqlite3_close (query);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* Handed to the page thread: no page is asked for before the open ends. */
  self->pages = pages;
  self->fetch = fetch;
  self->rw = rw;
  self->query = query;
  g_task_return_boolean (task, TRUE);
}

/**
 * triage_history_db_open_async:
 * @self: a #TriageHistoryDb
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the history can be read
 * @user_data: data for @callback
 *
 * Opens the app's database (the store must have opened it before, so its
 * tables exist) and adds the history's indexes the first time; indexing a
 * large existing history takes a moment, on the worker.
 */
void
triage_history_db_open_async (TriageHistoryDb     *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_return_if_fail (TRIAGE_IS_HISTORY_DB (self));

  triage_history_db_run (self, self->pool, open_func, g_new0 (OpenData, 1),
                         (GDestroyNotify) open_data_free, triage_history_db_open_async,
                         cancellable, callback, user_data);
}

gboolean
triage_history_db_open_finish (TriageHistoryDb  *self,
                               GAsyncResult     *result,
                               GError          **error)
{
  OpenData *data;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;

  /* The main thread's connection changes hands here, once. */
  data = g_task_get_task_data (G_TASK (result));
  if (self->main == NULL && data->main != NULL)
    {
      self->main = g_steal_pointer (&data->main);
      self->is_open = TRUE;
      triage_history_db_check_changed (self);
    }

  return TRUE;
}

gboolean
triage_history_db_is_open (TriageHistoryDb *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_DB (self), FALSE);

  return self->is_open;
}

/* Query */

static void
query_func (TriageHistoryDb *self,
            GTask           *task,
            gpointer         task_data)
{
  TriageHistoryFilter *filter = task_data;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (TriageHistoryKey));
  g_autoptr(GArray) matches = NULL;
  int rc;

  /* Newest first. updated_at before rowid: the order of the covering
   * indexes (created_at or a filtered column, created_at, updated_at, rowid),
   * so no sort is needed (it took half the time of a query of every row);
   * it matters only for requests created in the same microsecond. */
  stmt = triage_history_prepare_filtered (self->query, "rowid, updated_at", filter, 0, 0,
                                          "created_at DESC, updated_at DESC, rowid DESC",
                                          &matches, &error);
  if (stmt == NULL)
    {
      triage_history_db_return_query_error (task, g_steal_pointer (&error));
      return;
    }

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      TriageHistoryKey key = {
        .rowid = sqlite3_column_int64 (stmt, 0),
        .updated_at = sqlite3_column_int64 (stmt, 1),
      };

      if (triage_history_matches_contain (matches, key.rowid))
        g_array_append_val (keys, key);
    }

  if (rc != SQLITE_DONE)
    {
      triage_history_set_error (&error, self->query,
                                _("Could not search the history in the local database"));
      triage_history_db_return_query_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_pointer (task, g_steal_pointer (&keys), (GDestroyNotify) g_array_unref);
}

/**
 * triage_history_db_query_async:
 * @self: an open #TriageHistoryDb
 * @filter: what to find
 * @cancellable: (nullable): cancels the query, also while SQLite runs it
 * @callback: called with the result
 * @user_data: data for @callback
 *
 * Finds every entry through @filter, newest first.
 */
void
triage_history_db_query_async (TriageHistoryDb           *self,
                               const TriageHistoryFilter *filter,
                               GCancellable              *cancellable,
                               GAsyncReadyCallback        callback,
                               gpointer                   user_data)
{
  g_return_if_fail (TRIAGE_IS_HISTORY_DB (self));
  g_return_if_fail (filter != NULL);

  triage_history_db_run (self, self->pool, query_func, triage_history_filter_copy (filter),
                         (GDestroyNotify) triage_history_filter_free,
                         triage_history_db_query_async, cancellable, callback, user_data);
}

/**
 * triage_history_db_query_finish:
 *
 * Returns: (transfer full) (element-type TriageHistoryKey): the keys, newest first
 */
GArray *
triage_history_db_query_finish (TriageHistoryDb  *self,
                                GAsyncResult     *result,
                                GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Fetch (page thread) */

static void
fetch_func (TriageHistoryDb *self,
            GTask           *task,
            gpointer         task_data)
{
  GArray *rowids = task_data;
  g_autoptr(GError) error = NULL;
  GPtrArray *entries;

  entries = triage_history_fetch_rows (self->pages, self->fetch,
                                       (const gint64 *) (gpointer) rowids->data, rowids->len,
                                       &error);
  if (entries == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, entries, (GDestroyNotify) g_ptr_array_unref);
}

/**
 * triage_history_db_fetch_async:
 * @self: an open #TriageHistoryDb
 * @rowids: (array length=n_rowids): rows from a query
 * @n_rowids: how many
 * @cancellable: (nullable): a #GCancellable; a page no longer wanted is not read
 * @callback: called with the entries
 * @user_data: data for @callback
 *
 * Reads entries on the history's page thread, which no query holds up: a
 * lookup by rowid each, in one read transaction (a page of 200 takes about
 * a millisecond).
 */
void
triage_history_db_fetch_async (TriageHistoryDb     *self,
                               const gint64        *rowids,
                               guint                n_rowids,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GArray *copy;

  g_return_if_fail (TRIAGE_IS_HISTORY_DB (self));
  g_return_if_fail (rowids != NULL || n_rowids == 0);

  copy = g_array_sized_new (FALSE, FALSE, sizeof (gint64), n_rowids);
  g_array_append_vals (copy, rowids, n_rowids);

  triage_history_db_run (self, self->page_pool, fetch_func, copy, (GDestroyNotify) g_array_unref,
                         triage_history_db_fetch_async, cancellable, callback, user_data);
}

/**
 * triage_history_db_fetch_finish:
 *
 * Returns: (transfer container) (element-type TriageHistoryEntry): the entries,
 *   in the order asked; a row that no longer exists gives an entry with only its rowid
 */
GPtrArray *
triage_history_db_fetch_finish (TriageHistoryDb  *self,
                                GAsyncResult     *result,
                                GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * triage_history_db_check_changed:
 * @self: an open #TriageHistoryDb
 *
 * Asks SQLite whether any connection (the store's, this one's read marks)
 * committed since the last call. Cheap: it reads the WAL index in shared
 * memory. Main thread.
 *
 * Returns: %TRUE if the database changed
 */
gboolean
triage_history_db_check_changed (TriageHistoryDb *self)
{
  sqlite3_stmt *stmt = NULL;
  gint64 version = self->data_version;

  g_return_val_if_fail (TRIAGE_IS_HISTORY_DB (self), FALSE);

  if (self->main == NULL)
    return FALSE;

  if (sqlite3_prepare_v2 (self->main, "PRAGMA data_version", -1, &stmt, NULL) == SQLITE_OK &&
      sqlite3_step (stmt) == SQLITE_ROW)
    version = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);

  if (version == self->data_version)
    return FALSE;

  self->data_version = version;
  return TRUE;
}

/* One request as received */

static void
load_notification_func (TriageHistoryDb *self,
                        GTask           *task,
                        gpointer         task_data)
{
  const char *id = task_data;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;
  AtpNotification *notification;
  const char *json;
  int rc;

  if (sqlite3_prepare_v2 (self->query, "SELECT json FROM notifications WHERE id = ?1",
                          -1, &stmt, NULL) != SQLITE_OK)
    {
      triage_history_set_error (&error, self->query,
                                _("Could not read a request in the local database"));
      triage_history_db_return_query_error (task, g_steal_pointer (&error));
      return;
    }

  sqlite3_bind_text (stmt, 1, id, -1, SQLITE_TRANSIENT);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_DONE)
    {
      g_task_return_new_error (task, TRIAGE_BROWSE_ERROR, TRIAGE_BROWSE_ERROR_FAILED,
                               _("The request %s is not in the history"), id);
      return;
    }
  if (rc != SQLITE_ROW)
    {
      triage_history_set_error (&error, self->query,
                                _("Could not read a request in the local database"));
      triage_history_db_return_query_error (task, g_steal_pointer (&error));
      return;
    }

  /* Stored as the app received it, which it had checked then. */
  json = (const char *) sqlite3_column_text (stmt, 0);
  notification = atp_notification_new_from_data (json ? json : "", -1, ATP_PARSE_DEFAULT, &error);
  if (notification == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_pointer (task, notification, (GDestroyNotify) atp_notification_unref);
}

/**
 * triage_history_db_load_notification_async:
 * @self: an open #TriageHistoryDb
 * @notification_id: a request in the history
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the request
 * @user_data: data for @callback
 *
 * Reads a request as the app received it (its whole definition, which the
 * history's rows do not carry), to show it again.
 */
void
triage_history_db_load_notification_async (TriageHistoryDb     *self,
                                           const char          *notification_id,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data)
{
  g_return_if_fail (TRIAGE_IS_HISTORY_DB (self));
  g_return_if_fail (notification_id != NULL);

  triage_history_db_run (self, self->pool, load_notification_func, g_strdup (notification_id),
                         g_free, triage_history_db_load_notification_async, cancellable, callback,
                         user_data);
}

/**
 * triage_history_db_load_notification_finish:
 *
 * Returns: (transfer full): the request
 */
AtpNotification *
triage_history_db_load_notification_finish (TriageHistoryDb  *self,
                                            GAsyncResult     *result,
                                            GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* GObject */

static void
triage_history_db_finalize (GObject *object)
{
  TriageHistoryDb *self = (TriageHistoryDb *)object;

  /* Every queued operation holds a reference, so the pools are idle here. */
  g_thread_pool_free (self->pool, FALSE, TRUE);
  g_thread_pool_free (self->page_pool, FALSE, TRUE);
  g_clear_pointer (&self->fetch, sqlite3_finalize);
  g_clear_pointer (&self->pages, sqlite3_close);
  g_clear_pointer (&self->main, sqlite3_close);
  g_clear_pointer (&self->query, sqlite3_close);
  g_clear_pointer (&self->rw, sqlite3_close);
  g_free (self->path);

  G_OBJECT_CLASS (triage_history_db_parent_class)->finalize (object);
}

static void
triage_history_db_class_init (TriageHistoryDbClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = triage_history_db_finalize;
}

static void
triage_history_db_init (TriageHistoryDb *self)
{
  self->pool = g_thread_pool_new (history_worker, self, 1, FALSE, NULL);
  self->page_pool = g_thread_pool_new (page_worker, self, 1, FALSE, NULL);
}

/**
 * triage_history_db_new:
 * @path: the app's database, as triage_store_get_path() gives it
 *
 * Returns: (transfer full): a history reader; open it with triage_history_db_open_async()
 *   once the store is open
 */
TriageHistoryDb *
triage_history_db_new (const char *path)
{
  TriageHistoryDb *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (TRIAGE_TYPE_HISTORY_DB, NULL);
  self->path = g_strdup (path);

  return self;
}

const char *
triage_history_db_get_path (TriageHistoryDb *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_DB (self), NULL);

  return self->path;
}
