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
#include "triage-history-db.h"
#include "triage-history-private.h"
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
 */

struct _TriageHistoryDb
{
  GObject       parent_instance;

  char         *path;
  GThreadPool  *pool;       /* one thread: the only user of rw and query */
  GThreadPool  *page_pool;  /* one thread: the only user of pages and fetch */
  sqlite3      *rw;         /* worker thread */
  sqlite3      *query;      /* worker thread */
  sqlite3      *pages;      /* page thread, once open */
  sqlite3_stmt *fetch;      /* page thread */
  sqlite3      *main;       /* main thread, once open */
  gint64        data_version;
  gboolean      is_open;    /* main thread */
};

G_DEFINE_FINAL_TYPE (TriageHistoryDb, triage_history_db, G_TYPE_OBJECT)

typedef void (*HistoryFunc) (TriageHistoryDb *self,
                             GTask           *task,
                             gpointer         task_data);

typedef struct
{
  HistoryFunc  func;
  GTask       *task;
} HistoryOp;

void
triage_history_facets_free (TriageHistoryFacets *facets)
{
  if (facets == NULL)
    return;

  g_strfreev (facets->services);
  g_strfreev (facets->projects);
  g_free (facets);
}

/* SQL helpers, shared with the model and the export (any thread, own connection) */

/*
 * @failure is a whole sentence ("Could not search the history in the local database"); SQLite's own
 * explanation follows it.
 */
gboolean
triage_history_set_error (GError     **error,
                          sqlite3     *db,
                          const char  *failure)
{
  g_set_error (error, TRIAGE_BROWSE_ERROR, TRIAGE_BROWSE_ERROR_FAILED,
               /* Translators: a failure such as "Could not search the history", then
                * the database's explanation */
               _("%s: %s"),
               failure, db ? sqlite3_errmsg (db) : _("out of memory"));
  return FALSE;
}

/**
 * triage_history_open_connection:
 * @path: the app's database (the store's file)
 * @read_only: open it read-only
 * @error: %TRIAGE_BROWSE_ERROR_NO_DATABASE if the file is not there
 *
 * Returns: (transfer full) (nullable): a connection, used by one thread at a time
 */
sqlite3 *
triage_history_open_connection (const char  *path,
                                gboolean     read_only,
                                GError     **error)
{
  sqlite3 *db = NULL;
  int flags = (read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX;
  int rc;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, TRIAGE_BROWSE_ERROR, TRIAGE_BROWSE_ERROR_NO_DATABASE,
                   _("The local database “%s” does not exist yet; it is created when Triage first starts"),
                   path);
      return NULL;
    }

  rc = sqlite3_open_v2 (path, &db, flags, NULL);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, TRIAGE_BROWSE_ERROR, TRIAGE_BROWSE_ERROR_FAILED,
                   _("Could not open the local database “%s”: %s"),
                   path, db ? sqlite3_errmsg (db) : _("out of memory"));
      sqlite3_close (db);
      return NULL;
    }

  sqlite3_busy_timeout (db, 5000);
  sqlite3_extended_result_codes (db, 1);
  /* Reads by rowid and index scans gain little from a large page cache;
   * three connections of SQLite's default 2 MiB each would be 6 MiB. */
  sqlite3_exec (db, "PRAGMA cache_size = -1024", NULL, NULL, NULL);

  return db;
}

#define ENTRY_SQL \
  "SELECT n.rowid, n.id, n.service_id, n.service_name, n.project, n.title," \
  "  json_extract (n.json, '$.context.description'), n.status, n.status_reason, n.outcome," \
  "  n.action_id," \
  "  (SELECT json_extract (a.value, '$.label') FROM json_each (n.json, '$.actions') AS a" \
  "    WHERE json_extract (a.value, '$.id') = n.action_id LIMIT 1)," \
  "  n.response_data, n.responder_id, n.responder_type, n.created_at, n.deadline," \
  "  n.first_seen, n.updated_at, n.answered_at, n.delivered_at, json_extract (n.json, '$.protocol')" \
  " FROM notifications AS n WHERE n.rowid = ?1"

sqlite3_stmt *
triage_history_prepare_fetch (sqlite3  *db,
                              GError  **error)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v3 (db, ENTRY_SQL, -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL) != SQLITE_OK)
    {
      triage_history_set_error (error, db, _("Could not read the history in the local database"));
      sqlite3_finalize (stmt);
      return NULL;
    }

  return stmt;
}

static char *
column_text (sqlite3_stmt *stmt,
             int           column)
{
  const char *text = (const char *) sqlite3_column_text (stmt, column);

  return text ? g_utf8_make_valid (text, -1) : NULL;
}

static void
read_entry (sqlite3_stmt           *stmt,
            TriageHistoryEntryData *data)
{
  const char *status = (const char *) sqlite3_column_text (stmt, 7);
  AtpStatus parsed = ATP_STATUS_CREATED;

  if (status != NULL)
    atp_status_from_string (status, &parsed);

  data->rowid = sqlite3_column_int64 (stmt, 0);
  data->id = column_text (stmt, 1);
  data->service_id = column_text (stmt, 2);
  data->service_name = column_text (stmt, 3);
  data->project = column_text (stmt, 4);
  data->title = column_text (stmt, 5);
  data->description = column_text (stmt, 6);
  data->status = parsed;
  data->status_reason = column_text (stmt, 8);
  data->stored_outcome = triage_outcome_from_string ((const char *) sqlite3_column_text (stmt, 9));
  data->action_id = column_text (stmt, 10);
  data->action_label = column_text (stmt, 11);
  data->response_data = column_text (stmt, 12);
  data->responder_id = column_text (stmt, 13);
  data->responder_type = column_text (stmt, 14);
  data->created_at = sqlite3_column_int64 (stmt, 15);
  data->deadline = sqlite3_column_int64 (stmt, 16);
  data->first_seen = sqlite3_column_int64 (stmt, 17);
  data->updated_at = sqlite3_column_int64 (stmt, 18);
  data->answered_at = sqlite3_column_int64 (stmt, 19);
  data->delivered_at = sqlite3_column_int64 (stmt, 20);
  /* No member: ATP's own envelope (docs/architecture.md). */
  if (sqlite3_column_text (stmt, 21) == NULL ||
      !atp_protocol_from_string ((const char *) sqlite3_column_text (stmt, 21), &data->protocol))
    data->protocol = ATP_PROTOCOL_ATP;
}

/**
 * triage_history_fetch_rows:
 * @db: a connection
 * @stmt: from triage_history_prepare_fetch() on @db
 * @rowids: (array length=n_rowids): the rows
 * @n_rowids: how many
 * @error: where to put an error
 *
 * Returns: (transfer container) (element-type TriageHistoryEntry): one entry
 *   per row id, in order; a row that no longer exists gives an entry with
 *   only its rowid
 */
GPtrArray *
triage_history_fetch_rows (sqlite3       *db,
                           sqlite3_stmt  *stmt,
                           const gint64  *rowids,
                           guint          n_rowids,
                           GError       **error)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new_full (n_rowids, g_object_unref);
  gboolean in_transaction;

  /* One read transaction for the page: a lookup each would take and drop
   * SQLite's locks (and check the WAL) every time. */
  in_transaction = sqlite3_get_autocommit (db) &&
                   sqlite3_exec (db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;

  for (guint i = 0; i < n_rowids; i++)
    {
      TriageHistoryEntryData data = { 0 };
      int rc;

      sqlite3_reset (stmt);
      sqlite3_bind_int64 (stmt, 1, rowids[i]);
      rc = sqlite3_step (stmt);

      if (rc == SQLITE_ROW)
        read_entry (stmt, &data);
      else if (rc == SQLITE_DONE)
        data.rowid = rowids[i];
      else
        {
          triage_history_set_error (error, db,
                                    _("Could not read the history in the local database"));
          sqlite3_reset (stmt);
          if (in_transaction)
            sqlite3_exec (db, "COMMIT", NULL, NULL, NULL);
          return NULL;
        }

      g_ptr_array_add (entries, triage_history_entry_new (&data));
    }

  sqlite3_reset (stmt);
  if (in_transaction)
    sqlite3_exec (db, "COMMIT", NULL, NULL, NULL);

  return g_steal_pointer (&entries);
}

static int
compare_rowids (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* The rows the full-text search matches, ascending. */
static GArray *
load_matches (sqlite3     *db,
              const char  *match,
              GError     **error)
{
  g_autoptr(GArray) rowids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  if (sqlite3_prepare_v2 (db, "SELECT rowid FROM history_fts WHERE history_fts MATCH ?1"
                              " ORDER BY rowid", -1, &stmt, NULL) != SQLITE_OK)
    {
      triage_history_set_error (error, db, _("Could not search the history in the local database"));
      return NULL;
    }

  sqlite3_bind_text (stmt, 1, match, -1, SQLITE_STATIC);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 rowid = sqlite3_column_int64 (stmt, 0);

      g_array_append_val (rowids, rowid);
    }

  if (rc != SQLITE_DONE)
    {
      triage_history_set_error (error, db, _("Could not search the history in the local database"));
      return NULL;
    }

  return g_steal_pointer (&rowids);
}

/**
 * triage_history_matches_contain:
 * @matches: (nullable): what triage_history_prepare_filtered() gave
 * @rowid: a row
 *
 * Returns: %TRUE if the row matches the search (every row does without one)
 */
gboolean
triage_history_matches_contain (GArray *matches,
                                gint64  rowid)
{
  return matches == NULL ||
         bsearch (&rowid, matches->data, matches->len, sizeof (gint64), compare_rowids) != NULL;
}

/**
 * triage_history_prepare_filtered:
 * @db: a connection
 * @columns: what to select from notifications (unqualified column names),
 *   `rowid` first
 * @filter: the filter
 * @from_usec: an extra lower bound on created_at (0: none)
 * @to_usec: an extra upper bound on created_at, exclusive (0: none)
 * @order: (nullable): an ORDER BY clause without the keywords
 * @matches: (out) (transfer full) (nullable): the rows the search text matches,
 *   %NULL without one
 * @error: where to put an error
 *
 * The statement applies every filter but the search text: a row is a result
 * when triage_history_matches_contain() also says so of its rowid. Testing
 * the rows of a covering index, walked in date order, against the matches
 * in C takes a third of what SQLite's IN (SELECT … MATCH …) takes when most
 * rows match (100,000 matches: about 20 ms against 55), and no longer when
 * few do (the index is walked either way).
 *
 * Returns: (transfer full) (nullable): the statement, bound
 */
sqlite3_stmt *
triage_history_prepare_filtered (sqlite3                   *db,
                                 const char                *columns,
                                 const TriageHistoryFilter *filter,
                                 gint64                     from_usec,
                                 gint64                     to_usec,
                                 const char                *order,
                                 GArray                   **matches,
                                 GError                   **error)
{
  g_autoptr(GString) sql = g_string_new (NULL);
  g_autofree char *match = triage_history_fts_query (filter->text);
  g_autoptr(GArray) matched = NULL;
  const char *texts[4];
  int n_texts = 0;
  gint64 lower = MAX (filter->from_usec, from_usec);
  gint64 upper;
  sqlite3_stmt *stmt = NULL;
  int param = 0;

  if (filter->to_usec != 0 && to_usec != 0)
    upper = MIN (filter->to_usec, to_usec);
  else
    upper = filter->to_usec != 0 ? filter->to_usec : to_usec;

  if (match != NULL && (matched = load_matches (db, match, error)) == NULL)
    return NULL;

  g_string_append_printf (sql, "SELECT %s FROM notifications WHERE 1", columns);
  if (filter->service != NULL)
    {
      g_string_append_printf (sql, " AND service_name = ?%d", ++param);
      texts[n_texts++] = filter->service;
    }
  if (filter->project != NULL && filter->project[0] == '\0')
    g_string_append (sql, " AND project IS NULL");
  else if (filter->project != NULL)
    {
      g_string_append_printf (sql, " AND project = ?%d", ++param);
      texts[n_texts++] = filter->project;
    }
  if (filter->outcome != TRIAGE_HISTORY_OUTCOME_ANY)
    {
      g_string_append_printf (sql, " AND " TRIAGE_HISTORY_EFFECTIVE_OUTCOME_SQL " = ?%d", ++param);
      texts[n_texts++] = triage_outcome_to_string (filter->outcome);
    }
  if (lower != 0)
    g_string_append_printf (sql, " AND created_at >= %" G_GINT64_FORMAT, lower);
  if (upper != 0)
    g_string_append_printf (sql, " AND created_at < %" G_GINT64_FORMAT, upper);
  if (order != NULL)
    g_string_append_printf (sql, " ORDER BY %s", order);

  if (sqlite3_prepare_v2 (db, sql->str, -1, &stmt, NULL) != SQLITE_OK)
    {
      triage_history_set_error (error, db, _("Could not search the history in the local database"));
      sqlite3_finalize (stmt);
      return NULL;
    }

  for (int i = 0; i < n_texts; i++)
    sqlite3_bind_text (stmt, i + 1, texts[i], -1, SQLITE_TRANSIENT);

  *matches = g_steal_pointer (&matched);
  return stmt;
}

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
static void
history_run (TriageHistoryDb     *self,
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
static void
return_query_error (GTask   *task,
                    GError  *error)
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

  history_run (self, self->pool, open_func, g_new0 (OpenData, 1), (GDestroyNotify) open_data_free,
               triage_history_db_open_async, cancellable, callback, user_data);
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
      return_query_error (task, g_steal_pointer (&error));
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
      return_query_error (task, g_steal_pointer (&error));
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

  history_run (self, self->pool, query_func, triage_history_filter_copy (filter),
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

  history_run (self, self->page_pool, fetch_func, copy, (GDestroyNotify) g_array_unref,
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

/* Facets */

static GStrv
collect_strings (sqlite3_stmt *stmt,
                 int          *rc)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  while ((*rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autofree char *text = column_text (stmt, 0);

      if (text != NULL)
        g_strv_builder_add (builder, text);
    }

  return g_strv_builder_end (builder);
}

static void
facets_func (TriageHistoryDb *self,
             GTask           *task,
             gpointer         task_data)
{
  g_autoptr(TriageHistoryFacets) facets = g_new0 (TriageHistoryFacets, 1);
  g_autoptr(sqlite3_stmt) services = NULL;
  g_autoptr(sqlite3_stmt) projects = NULL;
  g_autoptr(sqlite3_stmt) no_project = NULL;
  g_autoptr(GError) error = NULL;
  int rc = SQLITE_OK;

  /* Each walks an index: one step per distinct value. */
  if (sqlite3_prepare_v2 (self->query,
                          "SELECT DISTINCT service_name FROM notifications ORDER BY service_name",
                          -1, &services, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (self->query,
                          "SELECT DISTINCT project FROM notifications WHERE project IS NOT NULL"
                          " ORDER BY project",
                          -1, &projects, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (self->query,
                          "SELECT EXISTS (SELECT 1 FROM notifications WHERE project IS NULL)",
                          -1, &no_project, NULL) != SQLITE_OK)
    goto failed;

  facets->services = collect_strings (services, &rc);
  if (rc != SQLITE_DONE)
    goto failed;
  facets->projects = collect_strings (projects, &rc);
  if (rc != SQLITE_DONE)
    goto failed;
  if (sqlite3_step (no_project) != SQLITE_ROW)
    goto failed;
  facets->has_no_project = sqlite3_column_int (no_project, 0) != 0;

  g_task_return_pointer (task, g_steal_pointer (&facets),
                         (GDestroyNotify) triage_history_facets_free);
  return;

failed:
  triage_history_set_error (&error, self->query,
                            _("Could not list the services and projects in the local database"));
  return_query_error (task, g_steal_pointer (&error));
}

/**
 * triage_history_db_facets_async:
 * @self: an open #TriageHistoryDb
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the facets
 * @user_data: data for @callback
 *
 * Lists the services and projects the history's filters offer.
 */
void
triage_history_db_facets_async (TriageHistoryDb     *self,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_return_if_fail (TRIAGE_IS_HISTORY_DB (self));

  history_run (self, self->pool, facets_func, NULL, NULL, triage_history_db_facets_async,
               cancellable, callback, user_data);
}

/**
 * triage_history_db_facets_finish:
 *
 * Returns: (transfer full): the facets
 */
TriageHistoryFacets *
triage_history_db_facets_finish (TriageHistoryDb  *self,
                                 GAsyncResult     *result,
                                 GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
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
      return_query_error (task, g_steal_pointer (&error));
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
      return_query_error (task, g_steal_pointer (&error));
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

  history_run (self, self->pool, load_notification_func, g_strdup (notification_id), g_free,
               triage_history_db_load_notification_async, cancellable, callback, user_data);
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

/* Statistics */

typedef struct
{
  TriageHistoryFilter *filter;
  TriageHistoryStats  *stats;
} StatsData;

static void
stats_data_free (StatsData *data)
{
  triage_history_filter_free (data->filter);
  g_clear_pointer (&data->stats, triage_history_stats_unref);
  g_free (data);
}

static void
stats_func (TriageHistoryDb *self,
            GTask           *task,
            gpointer         task_data)
{
  StatsData *data = task_data;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GArray) matches = NULL;
  g_autoptr(GError) error = NULL;
  int rc;

  stmt = triage_history_prepare_filtered (self->query,
                                          "rowid, created_at, " TRIAGE_HISTORY_EFFECTIVE_OUTCOME_SQL ","
                                          " answered_at, service_name",
                                          data->filter,
                                          triage_history_stats_get_start (data->stats),
                                          triage_history_stats_get_end (data->stats),
                                          NULL, &matches, &error);
  if (stmt == NULL)
    {
      return_query_error (task, g_steal_pointer (&error));
      return;
    }

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 created_at = sqlite3_column_int64 (stmt, 1);
      TriageOutcome outcome;
      gint64 response_time = -1;

      if (!triage_history_matches_contain (matches, sqlite3_column_int64 (stmt, 0)))
        continue;

      outcome = triage_outcome_from_string ((const char *) sqlite3_column_text (stmt, 2));
      if (sqlite3_column_type (stmt, 3) != SQLITE_NULL)
        {
          gint64 answered_at = sqlite3_column_int64 (stmt, 3);

          if (answered_at >= created_at)
            response_time = answered_at - created_at;
        }

      triage_history_stats_add (data->stats, (const char *) sqlite3_column_text (stmt, 4),
                                created_at, outcome, response_time);
    }

  if (rc != SQLITE_DONE)
    {
      triage_history_set_error (&error, self->query,
                                _("Could not count the decisions in the local database"));
      return_query_error (task, g_steal_pointer (&error));
      return;
    }

  triage_history_stats_finish (data->stats);
  g_task_return_pointer (task, triage_history_stats_ref (data->stats),
                         (GDestroyNotify) triage_history_stats_unref);
}

/**
 * triage_history_db_stats_async:
 * @self: an open #TriageHistoryDb
 * @filter: which requests count (its date bounds narrow the days further)
 * @first_day: any time on the first day (local time zone)
 * @n_days: how many days
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the statistics
 * @user_data: data for @callback
 *
 * Counts the requests of those days by outcome, with median response times.
 */
void
triage_history_db_stats_async (TriageHistoryDb           *self,
                               const TriageHistoryFilter *filter,
                               GDateTime                 *first_day,
                               guint                      n_days,
                               GCancellable              *cancellable,
                               GAsyncReadyCallback        callback,
                               gpointer                   user_data)
{
  StatsData *data;

  g_return_if_fail (TRIAGE_IS_HISTORY_DB (self));
  g_return_if_fail (filter != NULL);
  g_return_if_fail (first_day != NULL);
  g_return_if_fail (n_days >= 1);

  data = g_new0 (StatsData, 1);
  data->filter = triage_history_filter_copy (filter);
  data->stats = triage_history_stats_new (first_day, n_days);

  history_run (self, self->pool, stats_func, data, (GDestroyNotify) stats_data_free,
               triage_history_db_stats_async, cancellable, callback, user_data);
}

/**
 * triage_history_db_stats_finish:
 *
 * Returns: (transfer full): the statistics
 */
TriageHistoryStats *
triage_history_db_stats_finish (TriageHistoryDb  *self,
                                GAsyncResult     *result,
                                GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Read marks */

static void
load_read_func (TriageHistoryDb *self,
                GTask           *task,
                gpointer         task_data)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  int rc;

  /* Only the marks that matter to the inbox: requests still pending, or not
   * saved by the store yet. */
  if (sqlite3_prepare_v2 (self->rw,
                          "SELECT r.notification_id FROM triage_read AS r"
                          " LEFT JOIN notifications AS n ON n.id = r.notification_id"
                          " WHERE n.id IS NULL OR n.outcome = 'none'",
                          -1, &stmt, NULL) != SQLITE_OK)
    {
      triage_history_set_error (&error, self->rw,
                                _("Could not read which requests were opened in the local database"));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_hash_table_add (ids, column_text (stmt, 0));

  if (rc != SQLITE_DONE)
    {
      triage_history_set_error (&error, self->rw,
                                _("Could not read which requests were opened in the local database"));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_pointer (task, g_steal_pointer (&ids), (GDestroyNotify) g_hash_table_unref);
}

/**
 * triage_history_db_load_read_async:
 * @self: an open #TriageHistoryDb
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the ids
 * @user_data: data for @callback
 *
 * Loads which pending requests the person has opened.
 */
void
triage_history_db_load_read_async (TriageHistoryDb     *self,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_return_if_fail (TRIAGE_IS_HISTORY_DB (self));

  history_run (self, self->pool, load_read_func, NULL, NULL, triage_history_db_load_read_async,
               cancellable, callback, user_data);
}

/**
 * triage_history_db_load_read_finish:
 *
 * Returns: (transfer full) (element-type utf8 utf8): a set of request ids
 */
GHashTable *
triage_history_db_load_read_finish (TriageHistoryDb  *self,
                                    GAsyncResult     *result,
                                    GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

typedef struct
{
  char     *id;
  gboolean  read;
} ReadData;

static void
read_data_free (ReadData *data)
{
  g_free (data->id);
  g_free (data);
}

static void
set_read_func (TriageHistoryDb *self,
               GTask           *task,
               gpointer         task_data)
{
  ReadData *data = task_data;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;
  const char *sql = data->read
    ? "INSERT INTO triage_read (notification_id, read_at) VALUES (?1, ?2)"
      " ON CONFLICT (notification_id) DO NOTHING"
    : "DELETE FROM triage_read WHERE notification_id = ?1";

  if (sqlite3_prepare_v2 (self->rw, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      triage_history_set_error (&error, self->rw,
                                _("Could not remember that a request was opened in the local database"));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  sqlite3_bind_text (stmt, 1, data->id, -1, SQLITE_STATIC);
  if (data->read)
    sqlite3_bind_int64 (stmt, 2, g_get_real_time ());

  if (sqlite3_step (stmt) != SQLITE_DONE)
    {
      triage_history_set_error (&error, self->rw,
                                _("Could not remember that a request was opened in the local database"));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_boolean (task, TRUE);
}

/**
 * triage_history_db_set_read_async:
 * @self: an open #TriageHistoryDb
 * @notification_id: a request
 * @read: %TRUE once opened, %FALSE to mark it unread again
 * @cancellable: (nullable): a #GCancellable
 * @callback: (nullable): called when it is stored
 * @user_data: data for @callback
 */
void
triage_history_db_set_read_async (TriageHistoryDb     *self,
                                  const char          *notification_id,
                                  gboolean             read,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  ReadData *data;

  g_return_if_fail (TRIAGE_IS_HISTORY_DB (self));
  g_return_if_fail (notification_id != NULL);

  data = g_new0 (ReadData, 1);
  data->id = g_strdup (notification_id);
  data->read = !!read;

  history_run (self, self->pool, set_read_func, data, (GDestroyNotify) read_data_free,
               triage_history_db_set_read_async, cancellable, callback, user_data);
}

gboolean
triage_history_db_set_read_finish (TriageHistoryDb  *self,
                                   GAsyncResult     *result,
                                   GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
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
