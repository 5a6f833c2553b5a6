/* triage-store-sqlite-schema.c — the SQLite database opened, its schema
 * made or brought up to date
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The schema's versions are SQLite's user_version; each migration runs in
 * the write transaction that read the version, so two servers started
 * together on one new file migrate it once.
 */

#define G_LOG_DOMAIN "triage-store-sqlite"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "triage-store-sqlite-private.h"

static const char *migrations[] = {
  "CREATE TABLE users (id TEXT PRIMARY KEY, name TEXT, token_hash TEXT UNIQUE);"
  "CREATE TABLE services (id TEXT PRIMARY KEY, name TEXT UNIQUE NOT NULL, description TEXT,"
  "  callback_url TEXT, webhook_secret TEXT, key_hash TEXT UNIQUE);"
  "CREATE TABLE service_recipients (service_id TEXT NOT NULL, user_id TEXT NOT NULL,"
  "  PRIMARY KEY (service_id, user_id));"
  "CREATE TABLE notifications (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT UNIQUE NOT NULL,"
  "  service_id TEXT NOT NULL, body TEXT NOT NULL, json TEXT NOT NULL, answer TEXT NOT NULL,"
  "  project TEXT, status INTEGER NOT NULL, created_at INTEGER NOT NULL, deadline INTEGER,"
  "  response TEXT, updated_at INTEGER NOT NULL);"
  "CREATE INDEX notifications_deadline ON notifications (deadline) WHERE deadline IS NOT NULL;"
  "CREATE TABLE notification_recipients (notification_seq INTEGER NOT NULL, user_id TEXT NOT NULL,"
  "  PRIMARY KEY (user_id, notification_seq));",
  /* 2: the per-user event log behind SSE event ids and Last-Event-ID */
  "CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, user_id TEXT NOT NULL,"
  "  type TEXT NOT NULL, data TEXT NOT NULL, created_at INTEGER NOT NULL);"
  "CREATE INDEX events_user ON events (user_id, id);"
  "CREATE INDEX events_age ON events (created_at);",
  /* 3: the webhook queue; next_attempt NULL = failed for good */
  "CREATE TABLE webhook_deliveries (id INTEGER PRIMARY KEY, request_id TEXT UNIQUE NOT NULL,"
  "  service_id TEXT NOT NULL, notification_id TEXT NOT NULL, body TEXT NOT NULL,"
  "  attempts INTEGER NOT NULL DEFAULT 0, next_attempt INTEGER, last_error TEXT,"
  "  created_at INTEGER NOT NULL);"
  "CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt)"
  "  WHERE next_attempt IS NOT NULL;",
  /* 4: who a notification goes to, found by the notification (every event
   * looks it up; the primary key only serves the per-user list) */
  "CREATE INDEX notification_recipients_seq ON notification_recipients (notification_seq);",
  /* 5: requests of every protocol (AtpProtocol; 0 = ATP): the agent's own id
   * of a request (an AITP request_decision.id) is unique per service and
   * protocol; an event knows the protocol of its request (the streams'
   * protocols= filter); a webhook carries its event name */
  "ALTER TABLE notifications ADD COLUMN protocol INTEGER NOT NULL DEFAULT 0;"
  "ALTER TABLE notifications ADD COLUMN protocol_id TEXT;"
  "CREATE UNIQUE INDEX notifications_protocol_id ON notifications (service_id, protocol, protocol_id)"
  "  WHERE protocol_id IS NOT NULL;"
  "ALTER TABLE events ADD COLUMN protocol INTEGER NOT NULL DEFAULT -1;"
  "ALTER TABLE webhook_deliveries ADD COLUMN event TEXT;",
  /* 6: AFP review sessions (triage-store-sqlite-afp.c) */
  "CREATE TABLE afp_sessions (id TEXT PRIMARY KEY, service_id TEXT NOT NULL,"
  "  created_at INTEGER NOT NULL, last_iteration INTEGER NOT NULL);"
  "CREATE TABLE afp_reviews (notification_id TEXT PRIMARY KEY, session_id TEXT NOT NULL,"
  "  iteration INTEGER NOT NULL);"
  "CREATE INDEX afp_reviews_session ON afp_reviews (session_id, iteration);",
  /* 7: an event that announces a new notification refers to it
   * (notification_id, data NULL) instead of holding another copy of its
   * JSON; a replay reads the notification's. SQLite cannot drop a NOT NULL:
   * the table is made again, its AUTOINCREMENT sequence carried over so an
   * id is never given twice (SSE resumes from ids). */
  "CREATE TABLE events7 (id INTEGER PRIMARY KEY AUTOINCREMENT, user_id TEXT NOT NULL,"
  "  type TEXT NOT NULL, data TEXT, notification_id TEXT, created_at INTEGER NOT NULL,"
  "  protocol INTEGER NOT NULL DEFAULT -1);"
  "INSERT INTO events7 (id, user_id, type, data, created_at, protocol)"
  "  SELECT id, user_id, type, data, created_at, protocol FROM events;"
  "DELETE FROM sqlite_sequence WHERE name = 'events7';"
  "INSERT INTO sqlite_sequence (name, seq) SELECT 'events7', seq FROM sqlite_sequence"
  "  WHERE name = 'events';"
  "DROP TABLE events;"
  "ALTER TABLE events7 RENAME TO events;"
  "CREATE INDEX events_user ON events (user_id, id);"
  "CREATE INDEX events_age ON events (created_at);"
  /* A new notification goes to its service's recipients in the statement
   * that inserts it: one statement, atomic as any, instead of a savepoint,
   * two inserts and its release. */
  "CREATE TRIGGER notification_recipients_of AFTER INSERT ON notifications BEGIN"
  "  INSERT INTO notification_recipients (notification_seq, user_id)"
  "    SELECT new.seq, user_id FROM service_recipients WHERE service_id = new.service_id"
  "    ORDER BY user_id;"
  " END;",
  /* 8: the events' age is read in id order (triage-store-sqlite-events.c):
   * no index of its own to keep up with two rows a notification. */
  "DROP INDEX events_age;",
  /* 9: retention (--retain) finds the oldest settled requests (3, 4, 5:
   * responded, expired, invalidated) without reading the table; a pending
   * request is not in it, so a new one costs nothing more. */
  "CREATE INDEX notifications_settled ON notifications (updated_at)"
  "  WHERE status IN (3, 4, 5);",
  /* 10: the same, as a range: SQLite checks a partial index's condition on
   * every insert, and an IN list is a small table it builds each time
   * (30,000 instructions, a twentieth of a POST's). 3 and above are the
   * settled statuses. */
  "DROP INDEX notifications_settled;"
  "CREATE INDEX notifications_settled ON notifications (updated_at) WHERE status >= 3;",
  /* 11: the service's reason for withdrawing a request, kept with it so a
   * read (a client's after it was away) says why, as the status update did. */
  "ALTER TABLE notifications ADD COLUMN reason TEXT;",
  /* 12: who a request goes to, kept in its primary key's b-tree alone
   * (WITHOUT ROWID): the rowid table beside it was a third b-tree to write
   * for every new request, a page more in a group commit's WAL frames
   * (bench/server/bench-cpu.c). The trigger that fills it names it: made
   * again after the table is. */
  "DROP TRIGGER notification_recipients_of;"
  "CREATE TABLE notification_recipients12 (notification_seq INTEGER NOT NULL,"
  "  user_id TEXT NOT NULL, PRIMARY KEY (user_id, notification_seq)) WITHOUT ROWID;"
  "INSERT INTO notification_recipients12 (notification_seq, user_id)"
  "  SELECT notification_seq, user_id FROM notification_recipients;"
  "DROP TABLE notification_recipients;"
  "ALTER TABLE notification_recipients12 RENAME TO notification_recipients;"
  "CREATE INDEX notification_recipients_seq ON notification_recipients (notification_seq);"
  "CREATE TRIGGER notification_recipients_of AFTER INSERT ON notifications BEGIN"
  "  INSERT INTO notification_recipients (notification_seq, user_id)"
  "    SELECT new.seq, user_id FROM service_recipients WHERE service_id = new.service_id"
  "    ORDER BY user_id;"
  " END;",
};

/* A database made before new ones were 0600 (or copied in with cp) stayed
 * readable by every user of the machine for ever: one of ours is made its
 * owner's only, and said once (the next start finds it so); one that is
 * not ours to change is refused, as what it holds would stay open to all. */
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

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                   "the database file %s (mode %04o, owner uid %u) is open to other users, "
                   "and this server (uid %u) cannot change that: %s; give it to this server's "
                   "user: chown %u %s", path, (guint) (st.st_mode & 07777), (guint) st.st_uid,
                   (guint) geteuid (), g_strerror (saved_errno), (guint) geteuid (), path);
      return FALSE;
    }
  g_message ("the database file %s was open to other users (mode %04o): now its owner's "
             "only (mode %04o)", path, (guint) (st.st_mode & 07777),
             (guint) (st.st_mode & S_IRWXU));
  return TRUE;
}

/* Opens (creating it if need be) the SQLite database at @path into @self
 * and brings its schema up to date. */
gboolean
triage_store_sqlite_open (TriageStoreSqlite *self,
                          const char        *path,
                          GError           **error)
{
  static const char *const suffixes[] = { "", "-wal", "-shm", "-journal" };
  sqlite3_stmt *stmt;
  int version, fd;

  if (!triage_store_sqlite_file_is_sqlite (path, error))
    return FALSE;
  /* A new database is its owner's only, whatever the umask: it holds the
   * services' webhook secrets as given (its -wal and -shm take its mode;
   * triage-server backup makes its copies so too). */
  if ((fd = g_open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) >= 0)
    close (fd);
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *file = g_strconcat (path, suffixes[i], NULL);

      if (!tighten_file (file, error))
        return FALSE;
    }
  if (sqlite3_open_v2 (path, &self->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                       SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot open database %s: %s",
                   path, self->db ? sqlite3_errmsg (self->db) : "out of memory");
      return FALSE;
    }
  /* Till it serves, a lock is waited for as long each time (the busy
   * handler that waits once is for serving, below). */
  sqlite3_busy_timeout (self->db, TRIAGE_STORE_SQLITE_BUSY_TIMEOUT_MS);
  triage_store_sqlite_watch_batch (self);
  /* Two servers started together on a new file: the second's switch to WAL
   * can meet the first's migration where SQLite answers busy at once,
   * without its busy handler (a lock it may not wait for, lest the two
   * deadlock). Tried again within the busy timeout; nothing is served yet. */
  for (gint64 until = g_get_monotonic_time () + TRIAGE_STORE_SQLITE_BUSY_TIMEOUT_MS * 1000;;)
    {
      g_autoptr(GError) busy = NULL;

      if (triage_store_sqlite_exec (self, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                                    "PRAGMA foreign_keys=ON;", &busy))
        break;
      if (sqlite3_errcode (self->db) != SQLITE_BUSY || g_get_monotonic_time () > until)
        {
          g_propagate_error (error, g_steal_pointer (&busy));
          return FALSE;
        }
      g_usleep (10 * 1000);
    }
  /* The version is read inside the write transaction that migrates: two
   * servers started together on a new file (the app's and the user unit's)
   * both read 0 before it, and the second ran the first migration again
   * ("table users already exists") once the first had committed. Now the
   * second waits for the first (the busy timeout) and finds nothing to do. */
  if (!triage_store_sqlite_exec (self, "BEGIN IMMEDIATE", NULL))
    {
      /* "database is locked" did not say by whom, nor what to do. */
      if (sqlite3_errcode (self->db) == SQLITE_BUSY)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                     "another process has held the database file %s for writing for %d s (a "
                     "sqlite3 shell inside a transaction, another server starting on it): this "
                     "server cannot check its schema; start it again once that process lets go",
                     path, TRIAGE_STORE_SQLITE_BUSY_TIMEOUT_MS / 1000);
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot open database %s: %s", path,
                     sqlite3_errmsg (self->db));
      return FALSE;
    }
  stmt = triage_store_sqlite_prepare (self, "PRAGMA user_version");
  if (triage_store_sqlite_step (self, stmt) != SQLITE_ROW)
    {
      /* Not taken for 0, which would migrate a database from its start. */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "cannot read the schema version of database %s: %s", path,
                   sqlite3_errmsg (self->db));
      sqlite3_finalize (stmt);
      triage_store_sqlite_exec (self, "ROLLBACK", NULL);
      return FALSE;
    }
  version = sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);
  if (version > (int) G_N_ELEMENTS (migrations))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "database %s has schema version %d, newer than this server (%d)",
                   path, version, (int) G_N_ELEMENTS (migrations));
      triage_store_sqlite_exec (self, "ROLLBACK", NULL);
      return FALSE;
    }
  for (; version < (int) G_N_ELEMENTS (migrations); version++)
    {
      g_autofree char *sql = g_strdup_printf ("%s PRAGMA user_version=%d;", migrations[version],
                                              version + 1);

      if (!triage_store_sqlite_exec (self, sql, error))
        {
          triage_store_sqlite_exec (self, "ROLLBACK", NULL);
          return FALSE;
        }
    }
  if (!triage_store_sqlite_exec (self, "COMMIT", error))
    {
      triage_store_sqlite_exec (self, "ROLLBACK", NULL);
      return FALSE;
    }
  return TRUE;
}

/* The schema version this server migrates a database to. */
int
triage_store_sqlite_schema_version (void)
{
  return (int) G_N_ELEMENTS (migrations);
}

