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
