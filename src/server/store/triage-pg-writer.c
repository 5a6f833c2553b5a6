/* triage-pg-writer.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The PostgreSQL backend's batches. A batch is a transaction on the
 * writer's connection: it costs no round trip until it has a statement to
 * run (its BEGIN goes out with the first one), the first statement that
 * fails fails the whole batch (PostgreSQL refuses the rest of the
 * transaction, so later statements are not even sent), and its events are
 * written as it commits, under a transaction advisory lock, so their ids
 * increase in commit order across servers, and the commit NOTIFYs every
 * listener (triage-pg-listener.c).
 */

#define G_LOG_DOMAIN "triage-store-postgres"

#include "triage-pg-schema.h"
#include "triage-pg-writer.h"
#include "triage-store-private.h"

struct _TriagePgWriter
{
  TriagePgConnection *conn;
  gboolean            in_batch;
  gboolean            begun;          /* the batch's BEGIN went out (with its first statement) */
  char               *batch_error;    /* the first statement of the batch that failed */
  GPtrArray          *events;         /* the batch's, written with its COMMIT */
};

/* Takes @conn. */
TriagePgWriter *
triage_pg_writer_new (TriagePgConnection *conn)
{
  TriagePgWriter *self = g_new0 (TriagePgWriter, 1);

  self->conn = conn;
  return self;
}

void
triage_pg_writer_free (TriagePgWriter *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->conn, triage_pg_connection_free);
  g_free (self->batch_error);
  g_clear_pointer (&self->events, g_ptr_array_unref);
  g_free (self);
}

TriagePgConnection *
triage_pg_writer_connection (TriagePgWriter *self)
{
  return self->conn;
}

/* Runs @sql; NULL when it failed (logged). In a batch, the first failure
 * fails the whole batch. */
PGresult *
triage_pg_writer_query (TriagePgWriter      *self,
                        const char          *sql,
                        int                  n_params,
                        const TriagePgParam *params)
{
  g_autoptr(GError) error = NULL;
  PGresult *result = NULL;

  if (self->in_batch && self->batch_error != NULL)
    return NULL;
  if (self->in_batch && !self->begun)
    {
      TriagePgStatement pipeline[] = { { "BEGIN", 0, NULL, NULL }, { sql, n_params, params, NULL } };

      self->begun = TRUE;
      if (triage_pg_pipeline (self->conn, pipeline, G_N_ELEMENTS (pipeline), &error))
        result = g_steal_pointer (&pipeline[1].result);
      g_clear_pointer (&pipeline[0].result, PQclear);
      g_clear_pointer (&pipeline[1].result, PQclear);
    }
  else
    result = triage_pg_query (self->conn, sql, n_params, params, &error);
  if (result == NULL)
    {
      g_warning ("%s", error->message);
      if (self->in_batch)
        self->batch_error = g_strdup (error->message);
    }
  return result;
}

/* A batch costs no round trip until it has a statement to run. */
void
triage_pg_writer_begin (TriagePgWriter *self)
{
  self->in_batch = TRUE;
  self->begun = FALSE;
  g_clear_pointer (&self->batch_error, g_free);
  g_clear_pointer (&self->events, g_ptr_array_unref);
}

/* The batch's events are written with its COMMIT. */
void
triage_pg_writer_set_events (TriagePgWriter *self,
                             GPtrArray      *events)
{
  g_clear_pointer (&self->events, g_ptr_array_unref);
  self->events = g_ptr_array_ref (events);
}

/* @events as the arrays of one INSERT … SELECT FROM unnest (…). */
static GStrv
event_arrays (GPtrArray *events)
{
  GString *arrays[6];
  GStrv texts = g_new0 (char *, G_N_ELEMENTS (arrays) + 1);

  for (guint c = 0; c < G_N_ELEMENTS (arrays); c++)
    arrays[c] = g_string_new ("{");
  for (guint i = 0; i < events->len; i++)
    {
      TriageEventRow *event = events->pdata[i];

      triage_pg_array_append (arrays[0], event->user);
      triage_pg_array_append (arrays[1], event->type);
      triage_pg_array_append (arrays[2], event->data);
      triage_pg_array_append (arrays[3], event->notification_id);
      g_string_append_printf (arrays[4], "%s%" G_GINT64_FORMAT, i > 0 ? "," : "", event->created_at);
      g_string_append_printf (arrays[5], "%s%d", i > 0 ? "," : "", event->protocol);
    }
  for (guint c = 0; c < G_N_ELEMENTS (arrays); c++)
    {
      g_string_append_c (arrays[c], '}');
      texts[c] = g_string_free (arrays[c], FALSE);
    }
  return texts;
}

/* One round trip: the batch's BEGIN if no statement sent it, then its events
 * under the event-log lock (held until the commit is done, so a batch that
 * commits later gets larger ids than any batch that committed before,
 * whichever server wrote it), the NOTIFY that wakes every server's listener,
 * and the COMMIT. */
gboolean
triage_pg_writer_commit (TriagePgWriter *self,
                         GError        **error)
{
  g_auto(GStrv) arrays = NULL;
  TriagePgNumber key;
  TriagePgParam lock_params[] = { triage_pg_number (&key, TRIAGE_PG_EVENT_LOCK) };
  TriagePgStatement pipeline[5] = { { NULL } };
  TriagePgStatement *inserted = NULL, *committed;
  guint n = 0;
  gboolean ok;

  if (self->batch_error != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the batch was not stored: %s",
                   self->batch_error);
      return FALSE;
    }
  if (!self->begun && self->events == NULL)
    {
      self->in_batch = FALSE;
      return TRUE;
    }
  if (!self->begun)
    pipeline[n++] = (TriagePgStatement) { "BEGIN", 0, NULL, NULL };
  if (self->events != NULL)
    {
      arrays = event_arrays (self->events);
      pipeline[n++] = (TriagePgStatement) { "SELECT pg_advisory_xact_lock ($1::bigint)", 1,
                                            lock_params, NULL };
      inserted = &pipeline[n];
      pipeline[n++] = (TriagePgStatement) {
        "INSERT INTO events (user_id, type, data, notification_id, created_at, protocol)"
        " SELECT e.user_id, e.type, e.data, e.notification_id, e.created_at, e.protocol"
        " FROM unnest ($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::int[])"
        " WITH ORDINALITY AS e (user_id, type, data, notification_id, created_at, protocol, n)"
        " ORDER BY e.n RETURNING id", 6, (const TriagePgParam *) arrays, NULL };
      pipeline[n++] = (TriagePgStatement) { "NOTIFY " TRIAGE_PG_EVENT_CHANNEL, 0, NULL, NULL };
    }
  committed = &pipeline[n];
  pipeline[n++] = (TriagePgStatement) { "COMMIT", 0, NULL, NULL };
  ok = triage_pg_pipeline (self->conn, pipeline, n, error);
  self->in_batch = FALSE;
  /* A transaction that had failed ends with ROLLBACK, not an error. */
  if (ok && g_strcmp0 (PQcmdStatus (committed->result), "COMMIT") != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the batch was rolled back");
      ok = FALSE;
    }
  for (int i = 0; ok && inserted != NULL && i < PQntuples (inserted->result) &&
       i < (int) self->events->len; i++)
    ((TriageEventRow *) self->events->pdata[i])->id = triage_pg_int (inserted->result, i, 0);
  for (guint i = 0; i < n; i++)
    g_clear_pointer (&pipeline[i].result, PQclear);
  g_clear_pointer (&self->events, g_ptr_array_unref);
  return ok;
}

void
triage_pg_writer_rollback (TriagePgWriter *self)
{
  g_autoptr(PGresult) result = NULL;

  self->in_batch = FALSE;
  g_clear_pointer (&self->batch_error, g_free);
  g_clear_pointer (&self->events, g_ptr_array_unref);
  /* A lost connection took its transaction with it; an unsent BEGIN, none. */
  if (self->begun && !triage_pg_connection_is_bad (self->conn))
    result = triage_pg_exec (self->conn, "ROLLBACK", NULL);
}
