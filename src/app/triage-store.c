/* triage-store.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-store"

#include <glib/gi18n.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "triage-store-private.h"

/*
 * The app's own database: every request seen (the offline inbox, later the
 * history) and every answer not yet confirmed by the server (the outbox).
 *
 * All SQLite work happens on one worker thread that owns the connection, so
 * the main loop never waits for an fsync and operations run in the order
 * they were asked for: an answer queued before it is sent is on disk before
 * the send starts. The database runs in WAL mode with synchronous=FULL, so a
 * committed outbox row survives a kill -9 or a power cut.
 *
 * Requests arriving together (a resync brings the whole pending set) are
 * saved in one transaction: saves asked for one after the other, with no
 * other operation between them, join one queued write. 10,000 requests
 * saved one transaction (one fsync) each kept the worker busy for 40 s, and
 * an answer given meanwhile waited behind them.
 *
 * Times are stored as Unix microseconds (UTC).
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
};

G_DEFINE_FINAL_TYPE (TriageStore, triage_store, G_TYPE_OBJECT)
G_DEFINE_QUARK (triage-store-error-quark, triage_store_error)
G_DEFINE_BOXED_TYPE (TriageOutboxEntry, triage_outbox_entry,
                     triage_outbox_entry_copy, triage_outbox_entry_free)

typedef TriageStoreFunc StoreFunc;

typedef struct
{
  StoreFunc  func;
  GTask     *task;
  GPtrArray *batch;      /* or: saves of requests, written together */
} StoreOp;

static void save_batch (TriageStore *self,
                        GPtrArray   *batch);

static const char *outcome_names[] = {
  [TRIAGE_OUTCOME_NONE] = "none",
  [TRIAGE_OUTCOME_ANSWERED] = "answered",
  [TRIAGE_OUTCOME_ANSWERED_ELSEWHERE] = "answered-elsewhere",
  [TRIAGE_OUTCOME_EXPIRED] = "expired",
  [TRIAGE_OUTCOME_INVALIDATED] = "invalidated",
  [TRIAGE_OUTCOME_REJECTED] = "rejected",
};

const char *
triage_outcome_to_string (TriageOutcome outcome)
{
  g_return_val_if_fail (outcome < G_N_ELEMENTS (outcome_names), NULL);

  return outcome_names[outcome];
}

TriageOutcome
triage_outcome_from_string (const char *str)
{
  for (guint i = 0; str != NULL && i < G_N_ELEMENTS (outcome_names); i++)
    if (g_str_equal (str, outcome_names[i]))
      return i;

  return TRIAGE_OUTCOME_NONE;
}

TriageOutboxEntry *
triage_outbox_entry_copy (const TriageOutboxEntry *entry)
{
  TriageOutboxEntry *copy = g_new0 (TriageOutboxEntry, 1);

  copy->id = entry->id;
  copy->notification_id = g_strdup (entry->notification_id);
  copy->action_id = g_strdup (entry->action_id);
  copy->response_data = entry->response_data ? json_node_copy (entry->response_data) : NULL;
  copy->responded_at = entry->responded_at ? g_date_time_ref (entry->responded_at) : NULL;
  copy->state = entry->state;
  copy->attempts = entry->attempts;
  copy->last_error = g_strdup (entry->last_error);
  copy->server = g_strdup (entry->server);

  return copy;
}

void
triage_outbox_entry_free (TriageOutboxEntry *entry)
{
  if (entry == NULL)
    return;

  g_free (entry->notification_id);
  g_free (entry->server);
  g_free (entry->action_id);
  g_clear_pointer (&entry->response_data, json_node_unref);
  g_clear_pointer (&entry->responded_at, g_date_time_unref);
  g_free (entry->last_error);
  g_free (entry);
}

void
triage_store_record_free (TriageStoreRecord *record)
{
  if (record == NULL)
    return;

  g_clear_pointer (&record->notification, atp_notification_unref);
  g_clear_pointer (&record->first_seen, g_date_time_unref);
  g_free (record);
}

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

static gboolean
migrate (sqlite3  *db,
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

  if (!exec_sql (db, "PRAGMA user_version = " G_STRINGIFY (TRIAGE_STORE_SCHEMA_VERSION),
                 _("record the schema version"), error))
    goto rollback;

  return exec_sql (db, "COMMIT", _("finish the schema upgrade"), error);

rollback:
  sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
  return FALSE;
}

/* The worker */

static gboolean
unref_task_cb (gpointer data)
{
  g_object_unref (data);
  return G_SOURCE_REMOVE;
}

static void
release_task (GTask *task)
{
  GSource *source;

  /* The last reference to the task (and so perhaps to the store) is dropped
   * on the caller's thread, never here: the store must not finalize on its
   * own worker. */
  source = g_idle_source_new ();
  g_source_set_callback (source, unref_task_cb, task, NULL);
  g_source_set_static_name (source, "[triage-store] release task");
  g_source_attach (source, g_task_get_context (task));
  g_source_unref (source);
}

static void
store_worker (gpointer data,
              gpointer user_data)
{
  StoreOp *op = data;
  TriageStore *self = user_data;

  if (op->batch != NULL)
    {
      /* Saves asked for from now on queue a write of their own. */
      g_mutex_lock (&self->batch_lock);
      if (self->batch == op->batch)
        self->batch = NULL;
      g_mutex_unlock (&self->batch_lock);

      save_batch (self, op->batch);
      for (guint i = 0; i < op->batch->len; i++)
        release_task (g_ptr_array_index (op->batch, i));
      g_ptr_array_unref (op->batch);
      g_free (op);
      return;
    }

  if (g_task_return_error_if_cancelled (op->task))
    ;
  else if (self->db == NULL &&
           g_task_get_source_tag (op->task) != triage_store_open_async)
    g_task_return_new_error (op->task, TRIAGE_STORE_ERROR, TRIAGE_STORE_ERROR_FAILED,
                             "%s", _("The local database is not open"));
  else
    op->func (self, op->task, g_task_get_task_data (op->task));

  release_task (op->task);
  g_free (op);
}

static void
store_run (TriageStore         *self,
           StoreFunc            func,
           gpointer             task_data,
           GDestroyNotify       task_data_destroy,
           gpointer             source_tag,
           GCancellable        *cancellable,
           GAsyncReadyCallback  callback,
           gpointer             user_data)
{
  StoreOp *op = g_new0 (StoreOp, 1);

  op->func = func;
  op->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (op->task, source_tag);
  g_task_set_task_data (op->task, task_data, task_data_destroy);
  /* Results are never dropped: an answer stored must be reported as stored. */
  g_task_set_return_on_cancel (op->task, FALSE);

  /* Saves asked for after this operation run after it. */
  g_mutex_lock (&self->batch_lock);
  self->batch = NULL;
  g_thread_pool_push (self->pool, op, NULL);
  g_mutex_unlock (&self->batch_lock);
}

/* For the store's other files (triage-store-private.h). */
void
_triage_store_run (TriageStore         *self,
                   TriageStoreFunc      func,
                   gpointer             task_data,
                   GDestroyNotify       task_data_destroy,
                   gpointer             source_tag,
                   GCancellable        *cancellable,
                   GAsyncReadyCallback  callback,
                   gpointer             user_data)
{
  store_run (self, func, task_data, task_data_destroy, source_tag, cancellable, callback, user_data);
}

sqlite3 *
_triage_store_get_db (TriageStore *self)
{
  return self->db;
}

/* Open */

static void
open_func (TriageStore *self,
           GTask       *task,
           gpointer     task_data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_path_get_dirname (self->path);
  sqlite3 *db = NULL;

  if (self->db != NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;
      g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                               _("Could not create the folder “%s”: %s"),
                               dir, g_strerror (saved_errno));
      return;
    }

  if (sqlite3_open_v2 (self->path, &db,
                       SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                       NULL) != SQLITE_OK)
    {
      g_task_return_new_error (task, TRIAGE_STORE_ERROR, TRIAGE_STORE_ERROR_FAILED,
                               _("Could not open the local database “%s”: %s"),
                               self->path, db ? sqlite3_errmsg (db) : _("out of memory"));
      sqlite3_close (db);
      return;
    }

  sqlite3_busy_timeout (db, 5000);

  if (!exec_sql (db,
                 "PRAGMA journal_mode = WAL;"
                 "PRAGMA synchronous = FULL;"
                 "PRAGMA foreign_keys = ON;",
                 _("set up the journal"), &error) ||
      !migrate (db, &error))
    {
      sqlite3_close (db);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  self->db = db;
  g_task_return_boolean (task, TRUE);
}

/**
 * triage_store_open_async:
 * @self: a #TriageStore
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the database is ready
 * @user_data: data for @callback
 *
 * Creates the folder and the database if needed, switches it to WAL and
 * upgrades its schema. Every other operation needs this first.
 */
void
triage_store_open_async (TriageStore         *self,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_return_if_fail (TRIAGE_IS_STORE (self));

  store_run (self, open_func, NULL, NULL, triage_store_open_async,
             cancellable, callback, user_data);
}

gboolean
triage_store_open_finish (TriageStore   *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Save a notification */

typedef struct
{
  AtpNotification *notification;
  char            *server;
} SaveJob;

static void
save_job_free (SaveJob *job)
{
  atp_notification_unref (job->notification);
  g_free (job->server);
  g_free (job);
}

static gboolean
save_one (TriageStore      *self,
          sqlite3_stmt     *stmt,
          SaveJob          *job,
          GError          **error)
{
  AtpNotification *notification = job->notification;
  g_autofree char *json = atp_notification_to_string (notification, NULL);

  sqlite3_reset (stmt);
  sqlite3_clear_bindings (stmt);
  bind_text (stmt, 1, notification->id);
  bind_text (stmt, 2, notification->service.id);
  bind_text (stmt, 3, notification->service.name);
  bind_text (stmt, 4, notification->context.project);
  bind_text (stmt, 5, notification->context.title);
  bind_text (stmt, 6, json);
  bind_text (stmt, 7, atp_status_to_string (notification->status));
  bind_time (stmt, 8, notification->timestamp);
  bind_time (stmt, 9, notification->deadline);
  sqlite3_bind_int64 (stmt, 10, now_usec ());
  bind_text (stmt, 11, job->server);

  if (sqlite3_step (stmt) != SQLITE_DONE)
    return set_sqlite_error (error, self->db, _("save a request"));

  return TRUE;
}

/* The saves of @batch in one transaction; each task gets the outcome. */
static void
save_batch (TriageStore *self,
            GPtrArray   *batch)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;
  gboolean in_transaction = FALSE;

  if (self->db == NULL)
    g_set_error_literal (&error, TRIAGE_STORE_ERROR, TRIAGE_STORE_ERROR_FAILED,
                         _("The local database is not open"));
  /* A request seen again (resync, reconnect) keeps its first_seen and
   * outcome; its body and status follow the server's — that server's only:
   * another one cannot rewrite a request by reusing its id. */
  else if ((stmt = prepare (self->db,
                            "INSERT INTO notifications (id, service_id, service_name, project,"
                            "  title, json, status, created_at, deadline, first_seen, updated_at,"
                            "  server)"
                            " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, ?11)"
                            " ON CONFLICT (id) DO UPDATE SET service_id = ?2, service_name = ?3,"
                            "  project = ?4, title = ?5, json = ?6, status = ?7, deadline = ?9,"
                            "  updated_at = ?10 WHERE server = ?11",
                            &error)) != NULL)
    in_transaction = exec_sql (self->db, "BEGIN IMMEDIATE", _("save a request"), &error);

  for (guint i = 0; in_transaction && i < batch->len; i++)
    {
      GTask *task = g_ptr_array_index (batch, i);

      if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
        continue;
      if (!save_one (self, stmt, g_task_get_task_data (task), &error))
        break;
    }

  if (in_transaction && error == NULL)
    exec_sql (self->db, "COMMIT", _("save a request"), &error);
  if (in_transaction && error != NULL)
    sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);

  for (guint i = 0; i < batch->len; i++)
    {
      GTask *task = g_ptr_array_index (batch, i);

      if (g_task_return_error_if_cancelled (task))
        continue;
      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_boolean (task, TRUE);
    }
}

/**
 * triage_store_save_notification_async:
 * @self: a #TriageStore
 * @notification: a request as received from the server
 * @cancellable: (nullable): a #GCancellable
 * @callback: (nullable): called when it is stored
 * @user_data: data for @callback
 *
 * Records a request (or refreshes one already known). Saves asked for one
 * after the other are written in one transaction.
 */
void
triage_store_save_notification_async (TriageStore         *self,
                                      AtpNotification     *notification,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  SaveJob *job;
  GTask *task;

  g_return_if_fail (TRIAGE_IS_STORE (self));
  g_return_if_fail (notification != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, triage_store_save_notification_async);
  job = g_new0 (SaveJob, 1);
  job->notification = atp_notification_ref (notification);
  job->server = g_strdup (self->server);
  g_task_set_task_data (task, job, (GDestroyNotify) save_job_free);
  g_task_set_return_on_cancel (task, FALSE);

  g_mutex_lock (&self->batch_lock);
  if (self->batch != NULL)
    g_ptr_array_add (self->batch, task);   /* its write is still queued */
  else
    {
      StoreOp *op = g_new0 (StoreOp, 1);

      op->batch = g_ptr_array_new ();
      g_ptr_array_add (op->batch, task);
      self->batch = op->batch;
      g_thread_pool_push (self->pool, op, NULL);
    }
  g_mutex_unlock (&self->batch_lock);
}

gboolean
triage_store_save_notification_finish (TriageStore   *self,
                                       GAsyncResult  *result,
                                       GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Set the outcome of a notification */

typedef struct
{
  char          *notification_id;
  AtpStatus      status;
  TriageOutcome  outcome;
  char          *reason;
} OutcomeData;

static void
outcome_data_free (OutcomeData *data)
{
  g_free (data->notification_id);
  g_free (data->reason);
  g_free (data);
}

static void
set_outcome_func (TriageStore *self,
                  GTask       *task,
                  gpointer     task_data)
{
  OutcomeData *data = task_data;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;

  /* An outcome already recorded (our own answer) is never overwritten by a
   * later status from the server. */
  stmt = prepare (self->db,
                  "UPDATE notifications SET status = ?2, status_reason = ?3, updated_at = ?4,"
                  "  outcome = CASE WHEN outcome = 'none' THEN ?5 ELSE outcome END"
                  " WHERE id = ?1",
                  &error);
  if (stmt == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  bind_text (stmt, 1, data->notification_id);
  bind_text (stmt, 2, atp_status_to_string (data->status));
  bind_text (stmt, 3, data->reason);
  sqlite3_bind_int64 (stmt, 4, now_usec ());
  bind_text (stmt, 5, triage_outcome_to_string (data->outcome));

  return_step (self, task, stmt, _("record what became of a request"));
}

/**
 * triage_store_set_outcome_async:
 * @self: a #TriageStore
 * @notification_id: the request
 * @status: its new server status
 * @outcome: what became of it
 * @reason: (nullable): the server's reason
 * @cancellable: (nullable): a #GCancellable
 * @callback: (nullable): called when it is stored
 * @user_data: data for @callback
 *
 * Records a status change pushed by the server. An outcome already set is kept.
 */
void
triage_store_set_outcome_async (TriageStore         *self,
                                const char          *notification_id,
                                AtpStatus            status,
                                TriageOutcome        outcome,
                                const char          *reason,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  OutcomeData *data;

  g_return_if_fail (TRIAGE_IS_STORE (self));
  g_return_if_fail (notification_id != NULL);

  data = g_new0 (OutcomeData, 1);
  data->notification_id = g_strdup (notification_id);
  data->status = status;
  data->outcome = outcome;
  data->reason = g_strdup (reason);

  store_run (self, set_outcome_func, data, (GDestroyNotify) outcome_data_free,
             triage_store_set_outcome_async, cancellable, callback, user_data);
}

gboolean
triage_store_set_outcome_finish (TriageStore   *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Record an answer given elsewhere */

static void
set_response_func (TriageStore *self,
                   GTask       *task,
                   gpointer     task_data)
{
  AtpResponse *response = task_data;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = atp_json_to_string (response->response_data, NULL);

  /* Only for a request this app did not answer itself: an answer of ours
   * still in the outbox, or delivered, stays what the history shows. One
   * that lost to this one (a 409) was marked answered elsewhere and is
   * replaced by the answer that won. */
  stmt = prepare (self->db,
                  "UPDATE notifications SET outcome = 'answered-elsewhere', status = 'responded',"
                  "  action_id = ?2, response_data = ?3, responder_id = ?4, responder_type = ?5,"
                  "  answered_at = ?6, delivered_at = NULL, updated_at = ?7"
                  " WHERE id = ?1 AND outcome IN ('none', 'answered-elsewhere')"
                  "  AND NOT EXISTS (SELECT 1 FROM outbox WHERE notification_id = ?1)",
                  &error);
  if (stmt == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  bind_text (stmt, 1, response->notification_id);
  bind_text (stmt, 2, response->action_id);
  bind_text (stmt, 3, data);
  bind_text (stmt, 4, response->responder_id);
  bind_text (stmt, 5, atp_responder_type_to_string (response->responder_type));
  bind_time (stmt, 6, response->responded_at);
  sqlite3_bind_int64 (stmt, 7, now_usec ());

  return_step (self, task, stmt, _("record what became of a request"));
}

/**
 * triage_store_set_response_async:
 * @self: a #TriageStore
 * @response: the answer the server recorded from another device or person
 * @cancellable: (nullable): a #GCancellable
 * @callback: (nullable): called when it is stored
 * @user_data: data for @callback
 *
 * Records a request as answered elsewhere, with the answer: which action,
 * its data, who answered and when. An answer given here is never replaced.
 */
void
triage_store_set_response_async (TriageStore         *self,
                                 AtpResponse         *response,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_return_if_fail (TRIAGE_IS_STORE (self));
  g_return_if_fail (response != NULL);

  store_run (self, set_response_func, atp_response_ref (response),
             (GDestroyNotify) atp_response_unref,
             triage_store_set_response_async, cancellable, callback, user_data);
}

gboolean
triage_store_set_response_finish (TriageStore   *self,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Forget old history */

static void
prune_func (TriageStore *self,
            GTask       *task,
            gpointer     task_data)
{
  gint64 *before = task_data;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;

  /* Settled requests only (an outcome, or a final status from the server),
   * never one whose answer is still in the outbox. */
  stmt = prepare (self->db,
                  "DELETE FROM notifications WHERE updated_at < ?1"
                  "  AND (outcome != 'none' OR status IN ('responded', 'expired', 'invalidated'))"
                  "  AND id NOT IN (SELECT notification_id FROM outbox)",
                  &error);
  if (stmt == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  sqlite3_bind_int64 (stmt, 1, *before);
  if (sqlite3_step (stmt) != SQLITE_DONE)
    {
      set_sqlite_error (&error, self->db, _("remove old history"));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_int (task, sqlite3_changes (self->db));
}

/**
 * triage_store_prune_async:
 * @self: a #TriageStore
 * @before: settled requests last changed before this time are removed
 * @cancellable: (nullable): a #GCancellable
 * @callback: (nullable): called when done
 * @user_data: data for @callback
 *
 * Forgets the history older than the person wants kept (the
 * history-retention-days setting): answered, expired and withdrawn requests;
 * never a pending one, nor one whose answer waits in the outbox.
 */
void
triage_store_prune_async (TriageStore         *self,
                          GDateTime           *before,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  gint64 *usec;

  g_return_if_fail (TRIAGE_IS_STORE (self));
  g_return_if_fail (before != NULL);

  usec = g_new (gint64, 1);
  *usec = g_date_time_to_unix (before) * G_USEC_PER_SEC + g_date_time_get_microsecond (before);
  store_run (self, prune_func, usec, g_free, triage_store_prune_async,
             cancellable, callback, user_data);
}

/**
 * triage_store_prune_finish:
 *
 * Returns: how many requests were removed, or -1 with @error set
 */
gssize
triage_store_prune_finish (TriageStore   *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), -1);

  return g_task_propagate_int (G_TASK (result), error);
}

/* Load the pending requests */

static gboolean
claim_unowned (TriageStore  *self,
               const char   *server,
               GError      **error)
{
  static const char *const updates[] = {
    "UPDATE notifications SET server = ?1 WHERE server = ''",
    "UPDATE outbox SET server = ?1 WHERE server = ''",
  };

  for (guint i = 0; i < G_N_ELEMENTS (updates); i++)
    {
      g_autoptr(sqlite3_stmt) stmt = prepare (self->db, updates[i], error);

      if (stmt == NULL)
        return FALSE;
      bind_text (stmt, 1, server);
      if (sqlite3_step (stmt) != SQLITE_DONE)
        return set_sqlite_error (error, self->db, _("read the pending requests"));
    }

  return TRUE;
}

static void
load_pending_func (TriageStore *self,
                   GTask       *task,
                   gpointer     task_data)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_store_record_free);
  const char *server = task_data;
  int rc;

  /* What version 1 kept belongs to the server the app was using then: the
   * one it loads first. */
  if (*server != '\0' && !claim_unowned (self, server, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  stmt = prepare (self->db,
                  "SELECT json, outcome, first_seen FROM notifications"
                  " WHERE server = ?1 AND outcome = 'none'"
                  "  AND status IN ('created', 'delivered', 'acknowledged')"
                  " ORDER BY deadline IS NULL, deadline, created_at",
                  &error);
  if (stmt == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  bind_text (stmt, 1, server);

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autoptr(GError) parse_error = NULL;
      const char *json = (const char *) sqlite3_column_text (stmt, 0);
      AtpNotification *notification;
      TriageStoreRecord *record;

      notification = atp_notification_new_from_data (json, -1, ATP_PARSE_DEFAULT, &parse_error);
      if (notification == NULL)
        {
          /* Only a corrupted file gets here; skip the row, keep the rest. */
          g_warning ("Skipping an unreadable request in the local database: %s",
                     parse_error->message);
          continue;
        }

      record = g_new0 (TriageStoreRecord, 1);
      record->notification = notification;
      record->outcome = triage_outcome_from_string ((const char *) sqlite3_column_text (stmt, 1));
      record->first_seen = column_time (stmt, 2);
      g_ptr_array_add (records, record);
    }

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (&error, self->db, _("read the pending requests"));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_pointer (task, g_steal_pointer (&records), (GDestroyNotify) g_ptr_array_unref);
}

/**
 * triage_store_load_pending_async:
 * @self: a #TriageStore
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the requests
 * @user_data: data for @callback
 *
 * Loads every request still pending as far as this app knows, by deadline
 * then age: the inbox to show before the server answers.
 */
void
triage_store_load_pending_async (TriageStore         *self,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_return_if_fail (TRIAGE_IS_STORE (self));

  store_run (self, load_pending_func, g_strdup (self->server), g_free,
             triage_store_load_pending_async,
             cancellable, callback, user_data);
}

/**
 * triage_store_load_pending_finish:
 *
 * Returns: (transfer container) (element-type TriageStoreRecord): the records
 */
GPtrArray *
triage_store_load_pending_finish (TriageStore   *self,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Outbox: add */

static TriageOutboxEntry *
entry_from_row (sqlite3_stmt *stmt)
{
  TriageOutboxEntry *entry = g_new0 (TriageOutboxEntry, 1);
  const char *data = (const char *) sqlite3_column_text (stmt, 3);
  const char *state = (const char *) sqlite3_column_text (stmt, 5);

  entry->id = sqlite3_column_int64 (stmt, 0);
  entry->notification_id = g_strdup ((const char *) sqlite3_column_text (stmt, 1));
  entry->action_id = g_strdup ((const char *) sqlite3_column_text (stmt, 2));
  entry->response_data = atp_json_parse (data ? data : "null", -1, 0, NULL);
  if (entry->response_data == NULL)
    entry->response_data = json_node_new (JSON_NODE_NULL);
  entry->responded_at = column_time (stmt, 4);
  entry->state = g_strcmp0 (state, "failed") == 0 ? TRIAGE_OUTBOX_FAILED : TRIAGE_OUTBOX_QUEUED;
  entry->attempts = sqlite3_column_int (stmt, 6);
  entry->last_error = g_strdup ((const char *) sqlite3_column_text (stmt, 7));
  entry->server = g_strdup ((const char *) sqlite3_column_text (stmt, 8));

  return entry;
}

#define OUTBOX_COLUMNS \
  "id, notification_id, action_id, response_data, responded_at, state, attempts, last_error," \
  " server"

static void
outbox_add_func (TriageStore *self,
                 GTask       *task,
                 gpointer     task_data)
{
  TriageOutboxEntry *in = task_data;
  g_autoptr(sqlite3_stmt) insert = NULL;
  g_autoptr(sqlite3_stmt) mark = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = atp_json_to_string (in->response_data, NULL);
  TriageOutboxEntry *entry;
  gint64 id = 0;
  int rc;

  if (!exec_sql (self->db, "BEGIN IMMEDIATE", _("store the answer"), &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* An answer the server refused for good may be given anew; one still
   * on its way may not. */
  if (!(insert = prepare (self->db,
                          "INSERT INTO outbox (notification_id, action_id, response_data,"
                          "  responded_at, state, created_at, server)"
                          " VALUES (?1, ?2, ?3, ?4, 'queued', ?5, ?6)"
                          " ON CONFLICT (notification_id) DO UPDATE SET action_id = ?2,"
                          "  response_data = ?3, responded_at = ?4, state = 'queued',"
                          "  attempts = 0, last_error = NULL, created_at = ?5, server = ?6"
                          "  WHERE state = 'failed'"
                          " RETURNING id",
                          &error)) ||
      !(mark = prepare (self->db,
                        "UPDATE notifications SET action_id = ?2, response_data = ?3,"
                        "  answered_at = ?4, responder_type = 'human', updated_at = ?5,"
                        "  outcome = CASE outcome WHEN 'rejected' THEN 'none' ELSE outcome END"
                        " WHERE id = ?1",
                        &error)))
    goto rollback;

  bind_text (insert, 1, in->notification_id);
  bind_text (insert, 2, in->action_id);
  bind_text (insert, 3, data);
  bind_time (insert, 4, in->responded_at);
  sqlite3_bind_int64 (insert, 5, now_usec ());
  bind_text (insert, 6, in->server);

  rc = sqlite3_step (insert);
  if (rc == SQLITE_ROW)
    {
      id = sqlite3_column_int64 (insert, 0);
      rc = sqlite3_step (insert);
    }
  else if (rc == SQLITE_DONE)
    rc = SQLITE_CONSTRAINT;   /* one is still waiting */
  if (rc == SQLITE_CONSTRAINT)
    {
      g_set_error (&error, TRIAGE_STORE_ERROR, TRIAGE_STORE_ERROR_ALREADY_ANSWERED,
                   "%s", _("This request has already been answered here"));
      goto rollback;
    }
  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (&error, self->db, _("store the answer"));
      goto rollback;
    }

  bind_text (mark, 1, in->notification_id);
  bind_text (mark, 2, in->action_id);
  bind_text (mark, 3, data);
  bind_time (mark, 4, in->responded_at);
  sqlite3_bind_int64 (mark, 5, now_usec ());
  if (sqlite3_step (mark) != SQLITE_DONE)
    {
      set_sqlite_error (&error, self->db, _("store the answer"));
      goto rollback;
    }

  if (!exec_sql (self->db, "COMMIT", _("store the answer"), &error))
    goto rollback;

  entry = triage_outbox_entry_copy (in);
  entry->id = id;
  entry->state = TRIAGE_OUTBOX_QUEUED;
  g_task_return_pointer (task, entry, (GDestroyNotify) triage_outbox_entry_free);
  return;

rollback:
  sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
  g_task_return_error (task, g_steal_pointer (&error));
}

/**
 * triage_store_outbox_add_async:
 * @self: a #TriageStore
 * @notification_id: the request answered
 * @action_id: the action chosen
 * @response_data: (nullable): the answer; %NULL is JSON null
 * @responded_at: (nullable): when; %NULL is now
 * @cancellable: (nullable): a #GCancellable
 * @callback: called once the answer is on disk
 * @user_data: data for @callback
 *
 * Stores an answer durably before it is sent. Fails with
 * %TRIAGE_STORE_ERROR_ALREADY_ANSWERED when one is already waiting.
 */
void
triage_store_outbox_add_async (TriageStore         *self,
                               const char          *notification_id,
                               const char          *action_id,
                               JsonNode            *response_data,
                               GDateTime           *responded_at,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  TriageOutboxEntry *entry;

  g_return_if_fail (TRIAGE_IS_STORE (self));
  g_return_if_fail (notification_id != NULL);
  g_return_if_fail (action_id != NULL);

  entry = g_new0 (TriageOutboxEntry, 1);
  entry->notification_id = g_strdup (notification_id);
  entry->action_id = g_strdup (action_id);
  entry->response_data = response_data ? json_node_copy (response_data)
                                       : json_node_new (JSON_NODE_NULL);
  entry->responded_at = responded_at ? g_date_time_ref (responded_at)
                                     : g_date_time_new_now_utc ();
  entry->server = g_strdup (self->server);

  store_run (self, outbox_add_func, entry, (GDestroyNotify) triage_outbox_entry_free,
             triage_store_outbox_add_async, cancellable, callback, user_data);
}

/**
 * triage_store_outbox_add_finish:
 *
 * Returns: (transfer full): the stored entry
 */
TriageOutboxEntry *
triage_store_outbox_add_finish (TriageStore   *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Outbox: list */

static void
outbox_list_func (TriageStore *self,
                  GTask       *task,
                  gpointer     task_data)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_outbox_entry_free);
  int rc;

  if (!(stmt = prepare (self->db,
                        "SELECT " OUTBOX_COLUMNS " FROM outbox WHERE server = ?1 ORDER BY id",
                        &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  bind_text (stmt, 1, task_data);

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_ptr_array_add (entries, entry_from_row (stmt));

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (&error, self->db, _("read the outbox"));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_pointer (task, g_steal_pointer (&entries), (GDestroyNotify) g_ptr_array_unref);
}

/**
 * triage_store_outbox_list_async:
 * @self: a #TriageStore
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the entries
 * @user_data: data for @callback
 *
 * Lists every answer not yet confirmed (queued or failed), oldest first.
 */
void
triage_store_outbox_list_async (TriageStore         *self,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_return_if_fail (TRIAGE_IS_STORE (self));

  store_run (self, outbox_list_func, g_strdup (self->server), g_free,
             triage_store_outbox_list_async,
             cancellable, callback, user_data);
}

/**
 * triage_store_outbox_list_finish:
 *
 * Returns: (transfer container) (element-type TriageOutboxEntry): the entries
 */
GPtrArray *
triage_store_outbox_list_finish (TriageStore   *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Outbox: complete */

typedef struct
{
  gint64         entry_id;
  TriageOutcome  outcome;
  char          *responder_id;
  GDateTime     *delivered_at;
  gboolean       permanent;
  char          *message;
} OutboxUpdate;

static void
outbox_update_free (OutboxUpdate *update)
{
  g_free (update->responder_id);
  g_clear_pointer (&update->delivered_at, g_date_time_unref);
  g_free (update->message);
  g_free (update);
}

static void
outbox_complete_func (TriageStore *self,
                      GTask       *task,
                      gpointer     task_data)
{
  OutboxUpdate *update = task_data;
  g_autoptr(sqlite3_stmt) mark = NULL;
  g_autoptr(sqlite3_stmt) delete = NULL;
  g_autoptr(GError) error = NULL;

  if (!exec_sql (self->db, "BEGIN IMMEDIATE", _("clear a delivered answer"), &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* The answer moves from the outbox into the history in one transaction. */
  if (!(mark = prepare (self->db,
                        "UPDATE notifications SET outcome = ?2, responder_id = ?3,"
                        "  delivered_at = ?4, updated_at = ?5,"
                        "  status = CASE WHEN ?2 = 'answered' THEN 'responded' ELSE status END"
                        " WHERE id = (SELECT notification_id FROM outbox WHERE id = ?1)",
                        &error)) ||
      !(delete = prepare (self->db, "DELETE FROM outbox WHERE id = ?1", &error)))
    goto rollback;

  sqlite3_bind_int64 (mark, 1, update->entry_id);
  bind_text (mark, 2, triage_outcome_to_string (update->outcome));
  bind_text (mark, 3, update->responder_id);
  bind_time (mark, 4, update->delivered_at);
  sqlite3_bind_int64 (mark, 5, now_usec ());
  if (sqlite3_step (mark) != SQLITE_DONE)
    {
      set_sqlite_error (&error, self->db, _("clear a delivered answer"));
      goto rollback;
    }

  sqlite3_bind_int64 (delete, 1, update->entry_id);
  if (sqlite3_step (delete) != SQLITE_DONE)
    {
      set_sqlite_error (&error, self->db, _("clear a delivered answer"));
      goto rollback;
    }
  if (sqlite3_changes (self->db) == 0)
    {
      g_set_error (&error, TRIAGE_STORE_ERROR, TRIAGE_STORE_ERROR_NOT_FOUND,
                   _("No answer %lld in the outbox"), (long long) update->entry_id);
      goto rollback;
    }

  if (!exec_sql (self->db, "COMMIT", _("clear a delivered answer"), &error))
    goto rollback;

  g_task_return_boolean (task, TRUE);
  return;

rollback:
  sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
  g_task_return_error (task, g_steal_pointer (&error));
}

/**
 * triage_store_outbox_complete_async:
 * @self: a #TriageStore
 * @entry_id: the outbox entry
 * @outcome: %TRIAGE_OUTCOME_ANSWERED after a 200, %TRIAGE_OUTCOME_ANSWERED_ELSEWHERE,
 *   %TRIAGE_OUTCOME_EXPIRED or %TRIAGE_OUTCOME_INVALIDATED after a 409
 * @responder_id: (nullable): who the server recorded as the responder
 * @delivered_at: (nullable): when the server confirmed
 * @cancellable: (nullable): a #GCancellable
 * @callback: (nullable): called when done
 * @user_data: data for @callback
 *
 * Clears an answer the server has settled and records the outcome in the history.
 */
void
triage_store_outbox_complete_async (TriageStore         *self,
                                    gint64               entry_id,
                                    TriageOutcome        outcome,
                                    const char          *responder_id,
                                    GDateTime           *delivered_at,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  OutboxUpdate *update;

  g_return_if_fail (TRIAGE_IS_STORE (self));

  update = g_new0 (OutboxUpdate, 1);
  update->entry_id = entry_id;
  update->outcome = outcome;
  update->responder_id = g_strdup (responder_id);
  update->delivered_at = delivered_at ? g_date_time_ref (delivered_at) : g_date_time_new_now_utc ();

  store_run (self, outbox_complete_func, update, (GDestroyNotify) outbox_update_free,
             triage_store_outbox_complete_async, cancellable, callback, user_data);
}

gboolean
triage_store_outbox_complete_finish (TriageStore   *self,
                                     GAsyncResult  *result,
                                     GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Outbox: failed try */

static void
outbox_failed_func (TriageStore *self,
                    GTask       *task,
                    gpointer     task_data)
{
  OutboxUpdate *update = task_data;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(sqlite3_stmt) mark = NULL;
  g_autoptr(GError) error = NULL;

  if (!exec_sql (self->db, "BEGIN IMMEDIATE", _("record a failed delivery"), &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (!(stmt = prepare (self->db,
                        "UPDATE outbox SET attempts = attempts + 1, last_error = ?2,"
                        "  state = CASE WHEN ?3 THEN 'failed' ELSE state END"
                        " WHERE id = ?1",
                        &error)) ||
      !(mark = prepare (self->db,
                        "UPDATE notifications SET outcome = 'rejected', updated_at = ?2"
                        " WHERE ?3 AND id = (SELECT notification_id FROM outbox WHERE id = ?1)",
                        &error)))
    goto rollback;

  sqlite3_bind_int64 (stmt, 1, update->entry_id);
  bind_text (stmt, 2, update->message);
  sqlite3_bind_int (stmt, 3, update->permanent);
  if (sqlite3_step (stmt) != SQLITE_DONE)
    {
      set_sqlite_error (&error, self->db, _("record a failed delivery"));
      goto rollback;
    }
  if (sqlite3_changes (self->db) == 0)
    {
      g_set_error (&error, TRIAGE_STORE_ERROR, TRIAGE_STORE_ERROR_NOT_FOUND,
                   _("No answer %lld in the outbox"), (long long) update->entry_id);
      goto rollback;
    }

  sqlite3_bind_int64 (mark, 1, update->entry_id);
  sqlite3_bind_int64 (mark, 2, now_usec ());
  sqlite3_bind_int (mark, 3, update->permanent);
  if (sqlite3_step (mark) != SQLITE_DONE)
    {
      set_sqlite_error (&error, self->db, _("record a failed delivery"));
      goto rollback;
    }

  if (!exec_sql (self->db, "COMMIT", _("record a failed delivery"), &error))
    goto rollback;

  g_task_return_boolean (task, TRUE);
  return;

rollback:
  sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
  g_task_return_error (task, g_steal_pointer (&error));
}

/**
 * triage_store_outbox_failed_async:
 * @self: a #TriageStore
 * @entry_id: the outbox entry
 * @permanent: %TRUE when the server refused the answer for good (it stays,
 *   marked failed, and is not sent again)
 * @message: why it failed
 * @cancellable: (nullable): a #GCancellable
 * @callback: (nullable): called when done
 * @user_data: data for @callback
 *
 * Counts a failed try.
 */
void
triage_store_outbox_failed_async (TriageStore         *self,
                                  gint64               entry_id,
                                  gboolean             permanent,
                                  const char          *message,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  OutboxUpdate *update;

  g_return_if_fail (TRIAGE_IS_STORE (self));

  update = g_new0 (OutboxUpdate, 1);
  update->entry_id = entry_id;
  update->permanent = !!permanent;
  update->message = g_strdup (message);

  store_run (self, outbox_failed_func, update, (GDestroyNotify) outbox_update_free,
             triage_store_outbox_failed_async, cancellable, callback, user_data);
}

gboolean
triage_store_outbox_failed_finish (TriageStore   *self,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* GObject */

static void
triage_store_finalize (GObject *object)
{
  TriageStore *self = (TriageStore *)object;

  /* Every queued operation holds a reference, so the pool is idle here. */
  g_thread_pool_free (self->pool, FALSE, TRUE);
  g_mutex_clear (&self->batch_lock);
  g_clear_pointer (&self->db, sqlite3_close);
  g_free (self->path);
  g_free (self->server);

  G_OBJECT_CLASS (triage_store_parent_class)->finalize (object);
}

static void
triage_store_class_init (TriageStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = triage_store_finalize;
}

static void
triage_store_init (TriageStore *self)
{
  g_mutex_init (&self->batch_lock);
  self->pool = g_thread_pool_new (store_worker, self, 1, FALSE, NULL);
  self->server = g_strdup ("");
}

/**
 * triage_store_new:
 * @path: the database file
 *
 * Returns: (transfer full): a store; call triage_store_open_async() before using it
 */
TriageStore *
triage_store_new (const char *path)
{
  TriageStore *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (TRIAGE_TYPE_STORE, NULL);
  self->path = g_strdup (path);

  return self;
}

/**
 * triage_store_default_path:
 *
 * Returns: (transfer full): `$XDG_DATA_HOME/triage/triage.db`
 */
char *
triage_store_default_path (void)
{
  return g_build_filename (g_get_user_data_dir (), "triage", "triage.db", NULL);
}

const char *
triage_store_get_path (TriageStore *self)
{
  g_return_val_if_fail (TRIAGE_IS_STORE (self), NULL);

  return self->path;
}

/**
 * triage_store_set_server:
 * @self: a #TriageStore
 * @server: the server in use: "local", or a remote server's address
 *
 * Whose requests and answers the calls that follow mean: saves and answers
 * are kept as that server's, and only its pending requests and answers are
 * loaded back. Until set, the server is "".
 */
void
triage_store_set_server (TriageStore *self,
                         const char  *server)
{
  g_return_if_fail (TRIAGE_IS_STORE (self));
  g_return_if_fail (server != NULL);

  g_free (self->server);
  self->server = g_strdup (server);
}
