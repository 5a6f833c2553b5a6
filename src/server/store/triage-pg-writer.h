/* triage-pg-writer.h — the PostgreSQL backend's batches: the transaction
 * every write joins, and its commit
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-pg-connection.h"
#include "triage-store.h"

G_BEGIN_DECLS

typedef struct _TriagePgWriter TriagePgWriter;

/* Commits in flight at once, each on a connection of its own, and one more
 * connection for the batch that gathers meanwhile. */
#define TRIAGE_PG_WRITER_FLIGHTS 3

/* @error: why the batch was not committed (NULL when @committed). */
typedef void (*TriagePgCommitFunc) (gboolean      committed,
                                    const GError *error,
                                    gpointer      data);

TriagePgWriter     *triage_pg_writer_new        (TriagePgConnection **conns);
void                triage_pg_writer_free       (TriagePgWriter      *self);
TriagePgConnection *triage_pg_writer_connection (TriagePgWriter      *self);

void                triage_pg_writer_begin      (TriagePgWriter      *self);
PGresult           *triage_pg_writer_query      (TriagePgWriter      *self,
                                                 const char          *sql,
                                                 int                  n_params,
                                                 const TriagePgParam *params);
void                triage_pg_writer_set_events (TriagePgWriter      *self,
                                                 GPtrArray           *events);
gboolean            triage_pg_writer_commit     (TriagePgWriter      *self,
                                                 GError             **error);
void                triage_pg_writer_rollback   (TriagePgWriter      *self);
void                triage_pg_writer_commit_async (TriagePgWriter    *self,
                                                 TriagePgCommitFunc  func,
                                                 gpointer            data);
gboolean            triage_pg_writer_in_flight  (TriagePgWriter      *self);
gboolean            triage_pg_writer_owns_backend (TriagePgWriter    *self,
                                                 int                 backend_pid);
void                triage_pg_writer_wait       (TriagePgWriter      *self);
gboolean            triage_pg_writer_take_schema_doubt (TriagePgWriter *self);

G_END_DECLS
