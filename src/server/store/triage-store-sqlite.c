/* triage-store-sqlite.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The SQLite backend: one database file in WAL mode with synchronous=FULL,
 * the embedded default. One process owns it (local mode, a team server on
 * one machine).
 */

#define G_LOG_DOMAIN "triage-store-sqlite"

#include <string.h>
#include <gio/gio.h>

#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "atp.h"
#include "triage-store-private.h"
#include "triage-store-sqlite-private.h"

/* As many as the PostgreSQL store keeps (triage-store-postgres.c). */
#define RECIPIENTS_KEPT 4096
#define SERVICE_RECIPIENTS_KEPT 1024

G_DEFINE_FINAL_TYPE (TriageStoreSqlite, triage_store_sqlite, TRIAGE_TYPE_STORE)

#define PENDING_MASK ((1u << ATP_STATUS_CREATED) | (1u << ATP_STATUS_DELIVERED) | \
                      (1u << ATP_STATUS_ACKNOWLEDGED))

/* SQLite says the file is damaged (SQLITE_CORRUPT, SQLITE_NOTADB) wherever
 * it meets the damage: in a step, and in a prepare, which reads the schema
 * when the connection has none loaded (at its first statement, or after a
 * step found it changed and dropped it); sqlite3_exec () does both. Each
 * time the store is told (triage_store_sqlite_file_damaged ()). */
static void
note_damage (TriageStoreSqlite *self,
             int                rc)
{
  if (G_UNLIKELY ((rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB))
    triage_store_sqlite_file_damaged (self, sqlite3_errmsg (self->db));
}

gboolean
triage_store_sqlite_exec (TriageStoreSqlite *self,
                          const char        *sql,
                          GError           **error)
{
  char *message = NULL;
  int rc;

  triage_store_sqlite_hold_lost_batch (self);
  if ((rc = sqlite3_exec (self->db, sql, NULL, NULL, &message)) != SQLITE_OK)
    {
      note_damage (self, rc);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "database error: %s",
                   message ? message : sqlite3_errmsg (self->db));
      sqlite3_free (message);
      return FALSE;
    }
  return TRUE;
}

/* A statement the database would not prepare. Not only bad SQL of ours: the
 * schema is read again when another connection changed it (an operator's
 * ALTER or VACUUM), and that read meets an I/O error, a damaged file or no
 * memory; or the schema changed under the server is not ours any more. It
 * aborted the server (g_error ()), every request with it; now the statement
 * fails as a step fails (SQLITE_ERROR, the reason left in sqlite3_errmsg ()),
 * its request is answered as for any database failure (503
 * STORAGE_UNAVAILABLE), and it is prepared again the next time. */
static void
log_unprepared (TriageStoreSqlite *self,
                const char        *sql,
                int                rc)
{
  note_damage (self, rc);
  triage_log_failure ("the database would not prepare a statement (%s): %s",
                      sqlite3_errmsg (self->db), sql);
}

sqlite3_stmt *
triage_store_sqlite_prepare (TriageStoreSqlite *self,
                             const char        *sql)
{
  sqlite3_stmt *stmt = NULL;
  int rc;

  triage_store_sqlite_hold_lost_batch (self);
  if ((rc = sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL)) != SQLITE_OK)
    {
      log_unprepared (self, sql, rc);
      sqlite3_finalize (stmt);
      return NULL;
    }
  return stmt;
}

/* The key of a cached statement: its length and last 24 bytes, where the
 * statements differ (g_str_hash () read every byte of a long statement, a
 * dozen times a request); g_str_equal () settles the rest. */
static guint
sql_hash (gconstpointer key)
{
  const char *sql = key;
  gsize length = strlen (sql);
  guint hash = (guint) length;

  for (gsize i = length > 24 ? length - 24 : 0; i < length; i++)
    hash = hash * 31 + (guchar) sql[i];
  return hash;
}

/* The statements of the hot paths are prepared once and kept: callers get
 * one ready to bind and hand it back with done(), never sqlite3_finalize(). */
static sqlite3_stmt *
cached (TriageStoreSqlite *self,
        const char        *sql)
{
  sqlite3_stmt *stmt = g_hash_table_lookup (self->statements, sql);
  int rc;

  triage_store_sqlite_hold_lost_batch (self);
  if (stmt == NULL)
    {
      /* Not kept when it failed: tried again the next time. */
      rc = sqlite3_prepare_v3 (self->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL);
      if (rc != SQLITE_OK)
        {
          log_unprepared (self, sql, rc);
          sqlite3_finalize (stmt);
          return NULL;
        }
      g_hash_table_insert (self->statements, g_strdup (sql), stmt);
    }
  return stmt;
}

sqlite3_stmt *
triage_store_sqlite_statement (TriageStoreSqlite *self,
                               const char        *sql)
{
  return cached (self, sql);
}

static void
finalize_statement (gpointer stmt)
{
  sqlite3_finalize (stmt);
}

/* A statement that could not be prepared (NULL) steps as one that failed.
 * One that meets a damaged file (SQLITE_CORRUPT, SQLITE_NOTADB) fails as any
 * (503 to its request, "try again later"), but trying again will not mend
 * the file: that is said once, with what to do, and the store is not ready
 * from then on (triage_store_sqlite_file_check ()). */
static int
step (TriageStoreSqlite *self,
      sqlite3_stmt      *stmt)
{
  int rc;

  if (stmt == NULL)
    return SQLITE_ERROR;
  rc = sqlite3_step (stmt);
  note_damage (self, rc);
  return rc;
}

static void
done (sqlite3_stmt *stmt)
{
  if (stmt == NULL)
    return;
  sqlite3_reset (stmt);
  sqlite3_clear_bindings (stmt);
}

static void
bind_int (sqlite3_stmt *stmt,
          int           index,
          int           value)
{
  if (stmt != NULL)
    sqlite3_bind_int (stmt, index, value);
}

static void
bind_int64 (sqlite3_stmt *stmt,
            int           index,
            gint64        value)
{
  if (stmt != NULL)
    sqlite3_bind_int64 (stmt, index, value);
}

/* A statement without parameters or rows that runs on every request (BEGIN,
 * COMMIT, the savepoint of an insert): prepared once, as sqlite3_exec ()
 * would parse it again each time. */
static gboolean
run_cached (TriageStoreSqlite *self,
            const char        *sql,
            GError           **error)
{
  sqlite3_stmt *stmt = cached (self, sql);
  int status = step (self, stmt);

  if (status != SQLITE_DONE && status != SQLITE_ROW)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "database error: %s",
                   sqlite3_errmsg (self->db));
      done (stmt);
      return FALSE;
    }
  done (stmt);
  return TRUE;
}

/* Opens (creating it if need be) the SQLite database at @path and brings its
 * schema up to date (triage-store-sqlite-schema.c). */
TriageStore *
triage_store_sqlite_new (const char *path,
                         GError    **error)
{
  g_autoptr(TriageStoreSqlite) self = g_object_new (TRIAGE_TYPE_STORE_SQLITE, NULL);
  g_autoptr(GError) failure = NULL;

  /* Named first, so that damage met while opening it names it. */
  triage_store_sqlite_name_file (self, path);
  if (!triage_store_sqlite_open (self, path, &failure))
    {
      /* A damaged file: that, and what to do, rather than SQLite's words alone. */
      g_propagate_error (error, self->file_error != NULL ? g_steal_pointer (&self->file_error)
                                                         : g_steal_pointer (&failure));
      return NULL;
    }
  triage_store_sqlite_watch_busy (self, TRIAGE_STORE_SQLITE_BUSY_TIMEOUT_MS);
  triage_store_sqlite_watch_file (self);
  return TRIAGE_STORE (g_steal_pointer (&self));
}

/* ---- the batch ---- */

static gboolean
sqlite_begin (TriageStore  *store,
              GError      **error)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);

  self->lost = FALSE;
  g_clear_error (&self->batch_error);
  self->in_batch = run_cached (self, "BEGIN IMMEDIATE", error);
  if (self->in_batch)
    triage_store_sqlite_lock_taken (self);
  return self->in_batch;
}

static gboolean
sqlite_commit (TriageStore  *store,
               GError      **error)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);

  triage_store_sqlite_hold_lost_batch (self);
  if (self->batch_error != NULL)
    {
      /* What came after the loss is rolled back with the batch. */
      g_propagate_error (error, g_steal_pointer (&self->batch_error));
      return FALSE;
    }
  self->in_batch = FALSE;
  return run_cached (self, "COMMIT", error);
}

static void
sqlite_rollback (TriageStore *store)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);

  /* Notifications of the batch are gone: what was kept of them goes too. */
  g_hash_table_remove_all (self->recipients);
  g_queue_clear_full (self->recipients_age, g_free);
  g_hash_table_remove_all (self->service_recipients);
  /* And a service registered in the batch (a local one, at its first request). */
  g_hash_table_remove_all (self->services);
  self->lost = FALSE;
  g_clear_error (&self->batch_error);
  self->in_batch = FALSE;
  self->rolling_back = TRUE;
  sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
  self->rolling_back = FALSE;
  triage_store_sqlite_end_lost_batch (self);
}

static char *
column_text (sqlite3_stmt *stmt,
             int           column)
{
  const unsigned char *text = sqlite3_column_text (stmt, column);

  return text ? g_strdup ((const char *) text) : NULL;
}

static void
bind_text (sqlite3_stmt *stmt,
           int           index,
           const char   *text)
{
  if (stmt == NULL)
    return;
  if (text == NULL)
    sqlite3_bind_null (stmt, index);
  else
    sqlite3_bind_text (stmt, index, text, -1, SQLITE_TRANSIENT);
}

/* @text bound without a copy: it must outlive the statement's step and
 * done () (which unbinds it); for the long texts of the hot inserts. */
void
triage_store_sqlite_bind_static (sqlite3_stmt *stmt,
                                 int           index,
                                 const char   *text)
{
  if (stmt == NULL)
    return;
  if (text == NULL)
    sqlite3_bind_null (stmt, index);
  else
    sqlite3_bind_text (stmt, index, text, -1, SQLITE_STATIC);
}

/* For the backend's other files (triage-store-sqlite.h). */
void
triage_store_sqlite_done (sqlite3_stmt *stmt)
{
  done (stmt);
}

int
triage_store_sqlite_step (TriageStoreSqlite *self,
                          sqlite3_stmt      *stmt)
{
  return step (self, stmt);
}

void
triage_store_sqlite_bind_int (sqlite3_stmt *stmt,
                              int           index,
                              int           value)
{
  bind_int (stmt, index, value);
}

void
triage_store_sqlite_bind_int64 (sqlite3_stmt *stmt,
                                int           index,
                                gint64        value)
{
  bind_int64 (stmt, index, value);
}

void
triage_store_sqlite_bind_text (sqlite3_stmt *stmt,
                               int           index,
                               const char   *text)
{
  bind_text (stmt, index, text);
}

char *
triage_store_sqlite_column_text (sqlite3_stmt *stmt,
                                 int           column)
{
  return column_text (stmt, column);
}

/* Who notification @id goes to, kept (when it goes to anyone): asked for at
 * its creation and again at its delivery, and it never changes, as the
 * PostgreSQL store keeps it too. */
static void
keep_recipients (TriageStoreSqlite *self,
                 const char        *id,
                 GStrv              users)
{
  if (users[0] == NULL || g_hash_table_contains (self->recipients, id))
    return;
  if (g_queue_get_length (self->recipients_age) >= RECIPIENTS_KEPT)
    {
      g_autofree char *oldest = g_queue_pop_head (self->recipients_age);

      g_hash_table_remove (self->recipients, oldest);
    }
  g_queue_push_tail (self->recipients_age, g_strdup (id));
  g_hash_table_insert (self->recipients, g_strdup (id), g_strdupv (users));
}

/* Who the requests of service @service_id go to, in the order they are
 * inserted: read once, as a service never changes once registered. NULL
 * when the read failed: that is not kept (it would be "nobody", or some of
 * them, for as long as the server runs). */
static GStrv
service_recipients (TriageStoreSqlite *self,
                    const char        *service_id)
{
  GStrv users = g_hash_table_lookup (self->service_recipients, service_id);
  GPtrArray *found;
  sqlite3_stmt *stmt;
  int rc;

  if (users != NULL)
    return users;
  stmt = cached (self,
    "SELECT user_id FROM service_recipients WHERE service_id = ? ORDER BY user_id");
  found = g_ptr_array_new ();
  bind_text (stmt, 1, service_id);
  while ((rc = step (self, stmt)) == SQLITE_ROW)
    g_ptr_array_add (found, column_text (stmt, 0));
  g_ptr_array_add (found, NULL);
  users = (GStrv) g_ptr_array_free (found, FALSE);
  if (rc != SQLITE_DONE)
    {
      triage_log_failure ("cannot read the recipients of service %s (its new request is "
                          "delivered by its push): %s", service_id, sqlite3_errmsg (self->db));
      done (stmt);
      g_strfreev (users);
      return NULL;
    }
  done (stmt);
  if (g_hash_table_size (self->service_recipients) >= SERVICE_RECIPIENTS_KEPT)
    g_hash_table_remove_all (self->service_recipients);
  g_hash_table_insert (self->service_recipients, g_strdup (service_id), users);
  return users;
}

static TriageStoreInsert
sqlite_insert_notification (TriageStore *store,
                            const char  *id,
                            const char  *service_id,
                            int          protocol,
                            const char  *protocol_id,
                            const char  *body,
                            const char  *json,
                            const char  *answer,
                            const char  *project,
                            gint64       created_at,
                            gint64       deadline)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  /* Its recipients are inserted by the trigger notification_recipients_of
   * (schema version 7), within this one statement: the service's. */
  GStrv users = service_recipients (self, service_id);
  static const char * const unknown[] = { NULL };
  /* Already delivered when the server will push it to a stream once the
   * batch is durable: one write of the row, not an insert and an update.
   * Its recipients unknown (their read failed), created: the push reads
   * them again and marks it. */
  int status = triage_store_insert_status (store, id, protocol,
                                           users != NULL ? (const char * const *) users : unknown);
  sqlite3_stmt *stmt;
  gboolean ok, exists;

  stmt = cached (self,
    "INSERT INTO notifications (id, service_id, body, json, answer, project, status,"
    " created_at, deadline, updated_at, protocol, protocol_id)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  /* The caller's texts live until done () below: not copied. */
  triage_store_sqlite_bind_static (stmt, 1, id);
  triage_store_sqlite_bind_static (stmt, 2, service_id);
  triage_store_sqlite_bind_static (stmt, 3, body);
  triage_store_sqlite_bind_static (stmt, 4, json);
  triage_store_sqlite_bind_static (stmt, 5, answer);
  triage_store_sqlite_bind_static (stmt, 6, project);
  bind_int (stmt, 7, status);
  bind_int64 (stmt, 8, created_at);
  if (deadline > 0)
    bind_int64 (stmt, 9, deadline);
  else
    bind_text (stmt, 9, NULL);
  bind_int64 (stmt, 10, created_at);
  bind_int (stmt, 11, protocol);
  triage_store_sqlite_bind_static (stmt, 12, protocol_id);
  ok = step (self, stmt) == SQLITE_DONE;
  exists = !ok && sqlite3_extended_errcode (self->db) == SQLITE_CONSTRAINT_UNIQUE;
  done (stmt);
  /* Those are the service's recipients, which the publish right after this
   * asks for: kept now rather than read back with a join. */
  if (ok && users != NULL)
    keep_recipients (self, id, users);
  return ok ? TRIAGE_STORE_INSERTED : exists ? TRIAGE_STORE_INSERT_EXISTS : TRIAGE_STORE_INSERT_FAILED;
}

static GStrv
sqlite_recipients (TriageStore *store,
                   const char  *notification_id,
                   GError     **error)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  GStrv kept = g_hash_table_lookup (self->recipients, notification_id);
  sqlite3_stmt *stmt;
  GPtrArray *users;
  int rc;

  /* Asked for at its creation and again at its delivery: kept, as the
   * PostgreSQL store does (who a notification goes to never changes). */
  if (kept != NULL)
    return g_strdupv (kept);
  stmt = cached (self,
    "SELECT r.user_id FROM notification_recipients r JOIN notifications n"
    " ON n.seq = r.notification_seq WHERE n.id = ?");
  users = g_ptr_array_new ();
  bind_text (stmt, 1, notification_id);
  while ((rc = step (self, stmt)) == SQLITE_ROW)
    g_ptr_array_add (users, column_text (stmt, 0));
  if (rc != SQLITE_DONE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                   "the database did not answer the lookup of a notification's recipients: %s",
                   sqlite3_errmsg (self->db));
      done (stmt);
      g_ptr_array_add (users, NULL);
      g_strfreev ((GStrv) g_ptr_array_free (users, FALSE));
      return NULL;
    }
  done (stmt);
  g_ptr_array_add (users, NULL);
  keep_recipients (self, notification_id, (GStrv) users->pdata);
  return (GStrv) g_ptr_array_free (users, FALSE);
}

static gboolean
sqlite_transition (TriageStore *store,
                   const char  *id,
                   guint        from_mask,
                   int          status,
                   const char  *response,
                   const char  *reason,
                   gint64       now,
                   GError     **error)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  sqlite3_stmt *stmt;
  gboolean changed;
  int rc;

  stmt = cached (self,
    "UPDATE notifications SET status = ?, response = COALESCE (?, response),"
    " reason = COALESCE (?, reason), updated_at = ? WHERE id = ? AND ((1 << status) & ?) != 0");

  bind_int (stmt, 1, status);
  bind_text (stmt, 2, response);
  bind_text (stmt, 3, reason);
  bind_int64 (stmt, 4, now);
  bind_text (stmt, 5, id);
  bind_int64 (stmt, 6, from_mask);
  rc = step (self, stmt);
  changed = rc == SQLITE_DONE && sqlite3_changes (self->db) == 1;
  if (rc != SQLITE_DONE)
    /* SQLITE_BUSY (another writer held the file past the busy timeout), an
     * I/O error, …: the database did not answer */
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                 "the database did not store a change of status: %s", sqlite3_errmsg (self->db));
  done (stmt);
  return changed;
}

static gboolean
sqlite_mark_delivered (TriageStore *store,
                       const char  *id,
                       gint64       now)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  sqlite3_stmt *stmt;
  gboolean changed;

  /* One server owns the database: nobody else is changing the row. The
   * transition created → delivered of every push, with nothing else to
   * set or test. */
  G_STATIC_ASSERT (ATP_STATUS_CREATED == 0 && ATP_STATUS_DELIVERED == 1);
  stmt = cached (self,
    "UPDATE notifications SET status = 1, updated_at = ? WHERE id = ? AND status = 0");
  bind_int64 (stmt, 1, now);
  bind_text (stmt, 2, id);
  changed = step (self, stmt) == SQLITE_DONE && sqlite3_changes (self->db) == 1;
  done (stmt);
  return changed;
}

static gint64
sqlite_next_deadline (TriageStore *store,
                      GError     **error)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  g_autofree char *sql = g_strdup_printf ("SELECT MIN (deadline) FROM notifications"
                                          " WHERE deadline IS NOT NULL AND ((1 << status) & %u) != 0",
                                          PENDING_MASK);
  sqlite3_stmt *stmt = cached (self, sql);
  gint64 deadline = 0;
  int rc = step (self, stmt);

  if (rc == SQLITE_ROW)
    deadline = sqlite3_column_int64 (stmt, 0);
  else if (rc != SQLITE_DONE)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                 "the database did not answer the lookup of the next deadline: %s",
                 sqlite3_errmsg (self->db));
  done (stmt);
  return deadline;
}

static GStrv
sqlite_expire_overdue (TriageStore *store,
                       gint64       now,
                       const char  *reason)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  g_autofree char *sql = g_strdup_printf ("SELECT id FROM notifications WHERE deadline IS NOT NULL"
                                          " AND deadline <= ? AND ((1 << status) & %u) != 0",
                                          PENDING_MASK);
  sqlite3_stmt *stmt = cached (self, sql);
  g_autoptr(GPtrArray) overdue = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *expired = g_ptr_array_new ();

  bind_int64 (stmt, 1, now);
  while (step (self, stmt) == SQLITE_ROW)
    g_ptr_array_add (overdue, column_text (stmt, 0));
  done (stmt);
  for (guint i = 0; i < overdue->len; i++)
    if (sqlite_transition (store, overdue->pdata[i], PENDING_MASK, ATP_STATUS_EXPIRED, NULL,
                           reason, now, NULL))
      g_ptr_array_add (expired, g_steal_pointer (&overdue->pdata[i]));
  g_ptr_array_add (expired, NULL);
  return (GStrv) g_ptr_array_free (expired, FALSE);
}

/* ---- the object ---- */

static void
triage_store_sqlite_finalize (GObject *object)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (object);

  /* The base class committed the open batch in its dispose. */
  memset (self->insert_events, 0, sizeof self->insert_events);
  g_clear_error (&self->batch_error);
  triage_store_sqlite_unwatch_file (self);
  g_clear_pointer (&self->statements, g_hash_table_unref);
  g_clear_pointer (&self->services, g_hash_table_unref);
  g_clear_pointer (&self->recipients, g_hash_table_unref);
  g_clear_pointer (&self->service_recipients, g_hash_table_unref);
  if (self->recipients_age != NULL)
    g_queue_free_full (self->recipients_age, g_free);
  sqlite3_close (self->db);
  G_OBJECT_CLASS (triage_store_sqlite_parent_class)->finalize (object);
}

static void
triage_store_sqlite_class_init (TriageStoreSqliteClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TriageStoreClass *store_class = TRIAGE_STORE_CLASS (klass);

  object_class->finalize = triage_store_sqlite_finalize;

  store_class->begin = sqlite_begin;
  store_class->commit = sqlite_commit;
  store_class->rollback = sqlite_rollback;

  store_class->insert_notification = sqlite_insert_notification;
  store_class->recipients = sqlite_recipients;
  store_class->transition = sqlite_transition;
  store_class->mark_delivered = sqlite_mark_delivered;
  store_class->next_deadline = sqlite_next_deadline;
  store_class->expire_overdue = sqlite_expire_overdue;

  triage_store_sqlite_reads_class_init (store_class);
  triage_store_sqlite_services_class_init (store_class);
  triage_store_sqlite_events_class_init (store_class);
  triage_store_sqlite_webhooks_class_init (store_class);
  triage_store_sqlite_afp_class_init (store_class);
  triage_store_sqlite_ops_class_init (store_class);
  triage_store_sqlite_delivered_class_init (store_class);
}

static void
triage_store_sqlite_init (TriageStoreSqlite *self)
{
  self->statements = g_hash_table_new_full (sql_hash, g_str_equal, g_free, finalize_statement);
  self->services = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                          (GDestroyNotify) triage_service_row_free);
  self->recipients = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                            (GDestroyNotify) g_strfreev);
  self->recipients_age = g_queue_new ();
  self->service_recipients = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                    (GDestroyNotify) g_strfreev);
}
