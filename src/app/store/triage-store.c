/* triage-store.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-store"

#include <glib/gi18n.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
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

G_DEFINE_FINAL_TYPE (TriageStore, triage_store, G_TYPE_OBJECT)
G_DEFINE_QUARK (triage-store-error-quark, triage_store_error)
G_DEFINE_BOXED_TYPE (TriageOutboxEntry, triage_outbox_entry,
                     triage_outbox_entry_copy, triage_outbox_entry_free)

typedef struct
{
  TriageStoreFunc  func;
  GTask           *task;
  GPtrArray       *batch;      /* or: saves of requests, written together */
} StoreOp;

static const char *outcome_names[] = {
  [TRIAGE_OUTCOME_NONE] = "none",
  [TRIAGE_OUTCOME_ANSWERED] = "answered",
  [TRIAGE_OUTCOME_ANSWERED_ELSEWHERE] = "answered-elsewhere",
  [TRIAGE_OUTCOME_EXPIRED] = "expired",
  [TRIAGE_OUTCOME_INVALIDATED] = "invalidated",
  [TRIAGE_OUTCOME_REJECTED] = "rejected",
  [TRIAGE_OUTCOME_GONE] = "gone",
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

static void store_worker_run (TriageStore *self,
                              StoreOp     *op);

/* Operations asked of any store and not yet run: the app waits for none
 * left before it exits (triage_store_wait_all ()). */
static GMutex queued_lock;
static GCond queued_cond;
static guint n_queued;

static void
count_queued (int change)
{
  g_mutex_lock (&queued_lock);
  n_queued += change;
  if (n_queued == 0)
    g_cond_broadcast (&queued_cond);
  g_mutex_unlock (&queued_lock);
}

static void
store_worker (gpointer data,
              gpointer user_data)
{
  StoreOp *op = data;
  TriageStore *self = user_data;

  store_worker_run (self, op);
  count_queued (-1);
}

/**
 * triage_store_wait_all:
 *
 * Waits until every operation asked of any store so far has run (their
 * callbacks are not called). For the end of the app, once nothing is shown:
 * what was asked as it quit (a draft, a request received) is on disk before
 * the process exits, where the worker threads would otherwise die with it.
 */
void
triage_store_wait_all (void)
{
  g_mutex_lock (&queued_lock);
  while (n_queued > 0)
    g_cond_wait (&queued_cond, &queued_lock);
  g_mutex_unlock (&queued_lock);
}

static void
store_worker_run (TriageStore *self,
                  StoreOp     *op)
{
  if (op->batch != NULL)
    {
      /* Saves asked for from now on queue a write of their own. */
      g_mutex_lock (&self->batch_lock);
      if (self->batch == op->batch)
        self->batch = NULL;
      g_mutex_unlock (&self->batch_lock);

      _triage_store_save_batch (self, op->batch);
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

/* Queues @func, to run on the worker with @task_data, for a task of @source_tag. */
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
  count_queued (1);
  g_thread_pool_push (self->pool, op, NULL);
  g_mutex_unlock (&self->batch_lock);
}

/* Queues the save of a request, @task: in the write queued last when that is a
 * write of saves still waiting, else in a write of its own. */
void
_triage_store_queue_save (TriageStore *self,
                          GTask       *task)
{
  g_mutex_lock (&self->batch_lock);
  if (self->batch != NULL)
    g_ptr_array_add (self->batch, task);   /* its write is still queued */
  else
    {
      StoreOp *op = g_new0 (StoreOp, 1);

      op->batch = g_ptr_array_new ();
      g_ptr_array_add (op->batch, task);
      self->batch = op->batch;
      count_queued (1);
      g_thread_pool_push (self->pool, op, NULL);
    }
  g_mutex_unlock (&self->batch_lock);
}

sqlite3 *
_triage_store_get_db (TriageStore *self)
{
  return self->db;
}

/* Open */

/* A database made before new ones were 0600 stayed readable by every user
 * of the machine for ever: one of ours is made its owner's only, and said
 * once (the next start finds it so); one that is not ours to change is
 * refused, as the server's is (src/server/store/triage-store-sqlite.c). */
static gboolean
tighten_file (const char  *path,
              GError     **error)
{
  GStatBuf st;

  if (g_stat (path, &st) != 0 || (st.st_mode & (S_IRWXG | S_IRWXO)) == 0)
    return TRUE;
  if (g_chmod (path, st.st_mode & S_IRWXU) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, TRIAGE_STORE_ERROR, TRIAGE_STORE_ERROR_FAILED,
                   /* Translators: %04o is a file mode such as 0644 */
                   _("The local database “%s” (mode %04o) is open to other users and cannot be "
                     "made yours alone: %s. Make it yours: “chown %u %s”."),
                   path, (guint) (st.st_mode & 07777), g_strerror (saved_errno),
                   (guint) geteuid (), path);
      return FALSE;
    }
  g_message ("the database file %s was open to other users (mode %04o): now its owner's only "
             "(mode %04o)", path, (guint) (st.st_mode & 07777), (guint) (st.st_mode & S_IRWXU));
  return TRUE;
}

static void
open_func (TriageStore *self,
           GTask       *task,
           gpointer     task_data)
{
  g_autoptr(GError) error = NULL;
  static const char *const suffixes[] = { "", "-wal", "-shm", "-journal" };
  g_autofree char *dir = g_path_get_dirname (self->path);
  sqlite3 *db = NULL;
  int fd;

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

  /* A new database is its owner's only, whatever the umask: it holds the
   * person's requests and answers (its -wal and -shm take its mode), as the
   * server's does. */
  if ((fd = g_open (self->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) >= 0)
    close (fd);
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *file = g_strconcat (self->path, suffixes[i], NULL);

      if (!tighten_file (file, &error))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
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
      !_triage_store_migrate (db, &error))
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

  _triage_store_run (self, open_func, NULL, NULL, triage_store_open_async,
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

enum {
  DRAFTS_WRITABLE,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

void
_triage_store_emit_drafts_writable (TriageStore *self)
{
  g_signal_emit (self, signals [DRAFTS_WRITABLE], 0);
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

  /**
   * TriageStore::drafts-writable:
   * @self: the store
   *
   * A draft was written after one could not be (a full disk that has room
   * again): drafts kept in memory for that reason can be written now.
   */
  signals [DRAFTS_WRITABLE] =
    g_signal_new ("drafts-writable", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
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
