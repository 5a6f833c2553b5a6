/* triage-store-sqlite-batch.c — a batch the database rolled back stays
 * failed; a file another process holds stalls the server once at most
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The batch itself (BEGIN IMMEDIATE … COMMIT, or ROLLBACK) is run by
 * triage-store-sqlite.c; this watches it between the two, and the waits
 * for the write lock it takes.
 */

#define G_LOG_DOMAIN "triage-store-sqlite"

#include <gio/gio.h>
#include <sqlite3.h>

#include "triage-store-private.h"
#include "triage-store-sqlite-private.h"

/* A statement that fails may make SQLite roll back the whole transaction
 * (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM, a trigger's RAISE (ROLLBACK)):
 * then the statements after it would run on their own, each committed at
 * once (the batch's events among them, with the COMMIT failing after
 * them), while the batch's requests are told nothing was stored. So the
 * rollback hook notes it, and before the next statement the batch's
 * transaction is opened again, only to be rolled back with it: the batch
 * is failed, and nothing after the loss is stored. When that BEGIN fails
 * too, the connection refuses writes until the rollback. */
static void
on_rollback (void *data)
{
  TriageStoreSqlite *self = data;

  if (self->in_batch && !self->rolling_back)
    self->lost = TRUE;
}

void
triage_store_sqlite_watch_batch (TriageStoreSqlite *self)
{
  sqlite3_rollback_hook (self->db, on_rollback, self);
}

/* Before the next statement, after the database rolled the batch back. */
void
triage_store_sqlite_hold_lost_batch (TriageStoreSqlite *self)
{
  if (!self->lost)
    return;
  self->lost = FALSE;
  g_clear_error (&self->batch_error);
  g_set_error (&self->batch_error, G_IO_ERROR, G_IO_ERROR_FAILED,
               "the database rolled the batch back: %s", sqlite3_errmsg (self->db));
  /* Said once, then counted (triage-log-limit.h), as a batch that was not
   * stored: on a bad disk every batch may come here, and a warning each was
   * a line a batch, and the end of a server run with
   * G_DEBUG=fatal-warnings. The batch is failed all the same. */
  if (sqlite3_exec (self->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
    {
      triage_log_failure ("cannot hold the rest of a batch the database rolled back: %s",
                          sqlite3_errmsg (self->db));
      /* No transaction to hold it in: each later write of the batch would be
       * committed at once, stored while its request is told it was not. They
       * are refused instead (SQLITE_READONLY: their requests are answered 503
       * as the batch's) until the batch's rollback (a setting of the
       * connection, which touches no file and takes no lock). */
      self->refusing_writes = TRUE;
      sqlite3_exec (self->db, "PRAGMA query_only = ON", NULL, NULL, NULL);
    }
  triage_store_fail_batch (TRIAGE_STORE (self), self->batch_error);
}

/* The batch's rollback: writes are taken again, unless the file was
 * removed or replaced meanwhile (triage_store_sqlite_file_check ()). */
void
triage_store_sqlite_end_lost_batch (TriageStoreSqlite *self)
{
  if (!self->refusing_writes)
    return;
  self->refusing_writes = FALSE;
  if (self->file_error == NULL)
    sqlite3_exec (self->db, "PRAGMA query_only = OFF", NULL, NULL, NULL);
}

/* ---- another process's lock ---- */

/* What SQLite's own busy timeout sleeps between tries, in ms. */
static const int busy_delays_ms[] = { 1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100 };

/* The store runs on the server's main loop: while it waits for another
 * process's lock (an operator's sqlite3 shell in a transaction, a long
 * job on the file), every client waits with it, streams and /healthz too.
 * So the lock is waited for as long as the busy timeout once; when that
 * ran out, the file is taken as held, and every statement that meets the
 * lock fails at once (the request is answered 503 with Retry-After) until
 * a batch's BEGIN IMMEDIATE takes the lock again: the next write after the
 * other process let go of it. */
static int
on_busy (void *data,
         int   count)
{
  TriageStoreSqlite *self = data;
  gint64 now;

  if (self->held_elsewhere)
    return 0;
  now = g_get_monotonic_time ();
  if (count == 0)
    self->busy_since = now;
  else if (now - self->busy_since >= (gint64) self->busy_timeout_ms * 1000)
    {
      self->held_elsewhere = TRUE;
      g_message ("another process has held the database file for writing for %d ms: until "
                 "it lets go, a change is refused at once (503, try again) instead of "
                 "stalling every client", self->busy_timeout_ms);
      return 0;
    }
  sqlite3_sleep (busy_delays_ms[MIN ((guint) count, G_N_ELEMENTS (busy_delays_ms) - 1)]);
  return 1;
}

void
triage_store_sqlite_watch_busy (TriageStoreSqlite *self,
                                int                timeout_ms)
{
  self->busy_timeout_ms = timeout_ms;
  sqlite3_busy_handler (self->db, on_busy, self);
}

/* A batch's BEGIN IMMEDIATE took the write lock: the file is no longer
 * held, and the next lock is waited for again. */
void
triage_store_sqlite_lock_taken (TriageStoreSqlite *self)
{
  if (!self->held_elsewhere)
    return;
  self->held_elsewhere = FALSE;
  g_message ("the database file is free again: changes are stored again");
}
