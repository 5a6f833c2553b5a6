/* triage-store-sqlite-batch.c — a batch the database rolled back stays failed
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The batch itself (BEGIN IMMEDIATE … COMMIT, or ROLLBACK) is run by
 * triage-store-sqlite.c; this watches it between the two.
 */

#define G_LOG_DOMAIN "triage-store-sqlite"

#include <gio/gio.h>

#include "triage-store-private.h"
#include "triage-store-sqlite-private.h"

/* A statement that fails may make SQLite roll back the whole transaction
 * (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM, a trigger's RAISE (ROLLBACK)):
 * then the statements after it would run on their own, each committed at
 * once (the batch's events among them, with the COMMIT failing after
 * them), while the batch's requests are told nothing was stored. So the
 * rollback hook notes it, and before the next statement the batch's
 * transaction is opened again, only to be rolled back with it: the batch
 * is failed, and nothing after the loss is stored. */
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
  if (sqlite3_exec (self->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
    g_warning ("cannot hold the rest of a batch the database rolled back: %s",
               sqlite3_errmsg (self->db));
  triage_store_fail_batch (TRIAGE_STORE (self), self->batch_error);
}
