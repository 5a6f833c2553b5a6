/* triage-pg-connection.h — one libpq connection of the PostgreSQL backend
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <libpq-fe.h>

#include "triage-pg-link.h"

G_BEGIN_DECLS

/* The settings of a session that plans no sequential scan (the writer's,
 * the listener's): a plan kept from when a new database's tables were empty
 * reads through the keys as they grow. JIT compilation goes with it: a
 * statement with no key to read by (triage_schema's one row, a count for
 * /metrics) still gets a sequential scan, costed at PostgreSQL's penalty
 * for a plan it was told not to make (10^10), far above jit_above_cost, so
 * every run of it was compiled first: 20 to 200 ms of the database's CPU
 * for a statement of a millisecond (35 ms a /readyz, 0.3 s a new schema's
 * migration). */
#define TRIAGE_PG_NO_SEQSCAN "SET enable_seqscan = off; SET jit = off"

/* A parameter of a statement, as text: NULL is SQL NULL. */
typedef const char *TriagePgParam;

TriagePgConnection *triage_pg_connection_new     (TriagePgLink *link,
                                                  const char   *name,
                                                  const char   *settings,
                                                  GError      **error);
void                triage_pg_connection_free    (TriagePgConnection *self);
PGconn             *triage_pg_connection_get     (TriagePgConnection *self);
gboolean            triage_pg_connection_ensure  (TriagePgConnection *self,
                                                  GError            **error);
gboolean            triage_pg_connection_is_bad  (TriagePgConnection *self);
void                triage_pg_connection_drop    (TriagePgConnection *self);
void                triage_pg_connection_cut     (TriagePgConnection *self);
void                triage_pg_connection_renew   (TriagePgConnection *self);
gboolean            triage_pg_connection_probe_lock (TriagePgConnection *self,
                                                 GError            **error);
void                triage_pg_connection_set_patient (TriagePgConnection *self,
                                                      gboolean            patient);
gboolean            triage_pg_connection_keep_prepared (TriagePgConnection *self,
                                                        const char         *sql,
                                                        int                 n_params,
                                                        GError            **error);

PGresult           *triage_pg_query              (TriagePgConnection  *self,
                                                  const char          *sql,
                                                  int                  n_params,
                                                  const TriagePgParam *params,
                                                  GError             **error);
/* One statement of a pipeline: its result is set (or NULL) once it ran. */
typedef struct
{
  const char          *sql;
  int                  n_params;
  const TriagePgParam *params;
  PGresult            *result;
} TriagePgStatement;

gboolean            triage_pg_pipeline           (TriagePgConnection  *self,
                                                  TriagePgStatement   *statements,
                                                  guint                n_statements,
                                                  GError             **error);
/* The same in two halves, for a caller that watches the socket. */
typedef enum
{
  TRIAGE_PG_POLL_PENDING,
  TRIAGE_PG_POLL_DONE,
  TRIAGE_PG_POLL_FAILED,
} TriagePgPoll;

gboolean            triage_pg_pipeline_send      (TriagePgConnection  *self,
                                                  TriagePgStatement   *statements,
                                                  guint                n_statements,
                                                  GError             **error);
TriagePgPoll        triage_pg_pipeline_poll      (TriagePgConnection  *self,
                                                  TriagePgStatement   *statements,
                                                  guint                n_statements,
                                                  gboolean             wait,
                                                  GError             **error);
PGresult           *triage_pg_exec               (TriagePgConnection  *self,
                                                  const char          *sql,
                                                  GError             **error);

/* Reading a result. */
char               *triage_pg_text               (const PGresult *result,
                                                  int             row,
                                                  int             column);
gint64              triage_pg_int                (const PGresult *result,
                                                  int             row,
                                                  int             column);
gint64              triage_pg_changed            (const PGresult *result);
gboolean            triage_pg_event_data_reads   (const PGresult *result,
                                                  int             row,
                                                  int             column);

/* Writing parameters: a number as text, and text[] / bigint[] literals. */
typedef struct
{
  char text[24];
} TriagePgNumber;

const char         *triage_pg_number             (TriagePgNumber *slot,
                                                  gint64          value);
void                triage_pg_array_append       (GString        *array,
                                                  const char     *value);
char               *triage_pg_text_array         (const char * const *values);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PGresult, PQclear)

G_END_DECLS
