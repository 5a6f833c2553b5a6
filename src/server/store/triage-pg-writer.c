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
 * written as it commits, under the event-log lock taken SHARED: batches of
 * every server commit side by side, and the database syncs their commits
 * together, while a reader of the log takes the lock EXCLUSIVE, so it reads
 * only once every batch that had written events has committed, and none
 * writes more until it has read (triage-pg-listener.c): whatever id a reader
 * saw, no smaller one appears later. Once committed, a NOTIFY (a transaction
 * of its own, in the same round trip, with nothing to sync) wakes every
 * listener. Neither lock nor NOTIFY is held across the sync of the log, so
 * two servers' commits no longer wait for each other's.
 *
 * The commit does not hold the main loop while the database syncs its log:
 * the writer has TRIAGE_PG_WRITER_FLIGHTS + 1 connections, and a batch
 * commits on one (its socket watched by the main loop) while the next batch
 * gathers on the next, whose commit goes as soon as it is due, without
 * waiting for the one before: up to TRIAGE_PG_WRITER_FLIGHTS commits are in
 * flight at once. PostgreSQL syncs its log for every commit written before
 * the sync starts; with one commit in flight a server's next batch always
 * missed the sync of the one before (and of the other servers' batches) and
 * waited for a sync of its own. The database may finish the flights in any
 * order; their answers are taken as they come but handed on in the order the
 * flights went, so whoever waits for a commit learns of those before it
 * first, and once the last is done everything written before is durable (or
 * known lost). What was written by a batch in flight is invisible to the
 * other connections until it is committed, so a read first waits for every
 * commit in flight (triage_pg_writer_wait()); a write need not: the database
 * makes it wait for any row of a flight it touches, as it would for another
 * server's. The flights' event ids may commit out of their order: the
 * listener waits for a missing id, as for another server's
 * (triage-pg-listener.c).
 */

#define G_LOG_DOMAIN "triage-store-postgres"

#include <glib-unix.h>

#include "triage-pg-schema.h"
#include "triage-pg-writer.h"
#include "triage-store-private.h"

/* A commit in flight: the pipeline sent, its answers awaited, or taken and
 * held until the flights before it are done. */
typedef struct
{
  TriagePgWriter      *writer;
  TriagePgConnection  *conn;
  TriagePgStatement    pipeline[5];
  guint                n;
  int                  inserted;      /* the index of the events' INSERT, or -1 */
  guint                commit;        /* the index of the COMMIT */
  GStrv                arrays;        /* the events' parameters */
  TriagePgNumber       key;
  TriagePgParam        lock_params[1];
  GPtrArray           *events;
  guint                watch;
  TriagePgCommitFunc   func;
  gpointer             data;
  gboolean             done;          /* its answers are in */
  gboolean             committed;
  GError              *error;         /* why not */
} Flight;

#define CONNECTIONS (TRIAGE_PG_WRITER_FLIGHTS + 1)

struct _TriagePgWriter
{
  TriagePgConnection *conns[CONNECTIONS];
  guint               current;        /* the open batch's and the reads' connection */
  TriagePgConnection *conn;           /* conns[current] */
  GQueue              flights;        /* Flight*, in the order they went: on the ones before */
  gboolean            in_batch;
  gboolean            begun;          /* the batch's BEGIN went out (with its first statement) */
  char               *batch_error;    /* the first statement of the batch that failed */
  gint                batch_code;     /* its GIOErrorEnum (triage_store_error_expected ()) */
  GPtrArray          *events;         /* the batch's, written with its COMMIT */
  gboolean            schema_doubted; /* a statement met no table or schema since asked */
};

/* Takes @conns, TRIAGE_PG_WRITER_FLIGHTS + 1 connections to the same
 * database. */
TriagePgWriter *
triage_pg_writer_new (TriagePgConnection **conns)
{
  TriagePgWriter *self = g_new0 (TriagePgWriter, 1);

  for (guint i = 0; i < CONNECTIONS; i++)
    self->conns[i] = conns[i];
  self->conn = conns[0];
  return self;
}

void
triage_pg_writer_free (TriagePgWriter *self)
{
  if (self == NULL)
    return;
  /* The store waited for the commits in flight before it let go. */
  g_assert (g_queue_is_empty (&self->flights));
  for (guint i = 0; i < CONNECTIONS; i++)
    g_clear_pointer (&self->conns[i], triage_pg_connection_free);
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
 * fails the whole batch, and is said with it (triage-store.c). */
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
      /* A session the database ended, or a lock another session held past
       * the wait every session allows, is no fault of ours: the batch is
       * answered as not stored (the next statement connects again), and
       * the store says so in one line with the requests it failed; a
       * statement outside a batch is said here. */
      if (!triage_store_error_expected (error))
        g_warning ("%s", error->message);
      else if (!self->in_batch)
        triage_log_failure ("%s", error->message);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED))
        self->schema_doubted = TRUE;
      if (self->in_batch)
        {
          self->batch_error = g_strdup (error->message);
          self->batch_code = error->code;
        }
    }
  return result;
}

/* Whether a statement met no table or no schema (the database emptied or
 * being restored under the server) since the last call. */
gboolean
triage_pg_writer_take_schema_doubt (TriagePgWriter *self)
{
  gboolean doubted = self->schema_doubted;

  self->schema_doubted = FALSE;
  return doubted;
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

/* @events as the arrays of one INSERT … SELECT FROM unnest (…). A new
 * notification's event refers to the notification (its data is the JSON the
 * batch stores in it, triage-store.h): data NULL, no second copy of that
 * text; the readers of the log read the notification's (schema version 4). */
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
      gboolean refers = event->notification_id != NULL &&
                        g_str_equal (event->type, TRIAGE_EVENT_NOTIFICATION);

      triage_pg_array_append (arrays[0], event->user);
      triage_pg_array_append (arrays[1], event->type);
      triage_pg_array_append (arrays[2], refers ? NULL : event->data);
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

/* The batch's last statements, in one pipeline: its BEGIN if no statement
 * sent it, then its events under the event-log lock, shared (held until the
 * commit is done, so no reader of the log reads while their ids are taken
 * but not committed), the COMMIT, and after it the NOTIFY that wakes every
 * server's listener. NULL when there is nothing to commit. */
static Flight *
flight_new (TriagePgWriter *self)
{
  Flight *flight;

  if (!self->begun && self->events == NULL)
    return NULL;
  flight = g_new0 (Flight, 1);
  flight->writer = self;
  flight->conn = self->conn;
  flight->inserted = -1;
  flight->events = g_steal_pointer (&self->events);
  if (!self->begun)
    flight->pipeline[flight->n++] = (TriagePgStatement) { "BEGIN", 0, NULL, NULL };
  if (flight->events != NULL)
    {
      flight->arrays = event_arrays (flight->events);
      flight->lock_params[0] = triage_pg_number (&flight->key, TRIAGE_PG_EVENT_LOCK);
      flight->pipeline[flight->n++] = (TriagePgStatement) {
        "SELECT pg_advisory_xact_lock_shared ($1::bigint)", 1, flight->lock_params, NULL };
      flight->inserted = (int) flight->n;
      flight->pipeline[flight->n++] = (TriagePgStatement) {
        "INSERT INTO events (user_id, type, data, notification_id, created_at, protocol)"
        " SELECT e.user_id, e.type, e.data, e.notification_id, e.created_at, e.protocol"
        " FROM unnest ($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::int[])"
        " WITH ORDINALITY AS e (user_id, type, data, notification_id, created_at, protocol, n)"
        " ORDER BY e.n RETURNING id", 6, (const TriagePgParam *) flight->arrays, NULL };
    }
  flight->commit = flight->n;
  flight->pipeline[flight->n++] = (TriagePgStatement) { "COMMIT", 0, NULL, NULL };
  if (flight->events != NULL)
    flight->pipeline[flight->n++] = (TriagePgStatement) { "NOTIFY " TRIAGE_PG_EVENT_CHANNEL, 0,
                                                          NULL, NULL };
  self->in_batch = FALSE;
  return flight;
}

static void
flight_free (Flight *flight)
{
  g_clear_handle_id (&flight->watch, g_source_remove);
  for (guint i = 0; i < flight->n; i++)
    g_clear_pointer (&flight->pipeline[i].result, PQclear);
  g_strfreev (flight->arrays);
  g_clear_pointer (&flight->events, g_ptr_array_unref);
  g_clear_error (&flight->error);
  g_free (flight);
}

/* Whether the answers of a sent flight say it committed; its events get
 * their ids. A transaction that had failed ends with ROLLBACK, not an error:
 * then, or after an error, the connection is left with no transaction. A
 * NOTIFY that failed after the COMMIT leaves the batch committed (the
 * listeners read it with the next one). */
static gboolean
flight_committed (Flight  *flight,
                  gboolean ok,
                  GError **error)
{
  PGresult *committed = flight->pipeline[flight->commit].result;
  PGconn *conn = triage_pg_connection_get (flight->conn);

  if (!ok && committed != NULL && g_strcmp0 (PQcmdStatus (committed), "COMMIT") == 0)
    {
      /* Its NOTIFY failed, or its answer was lost with the connection (a
       * stall): the other servers read the batch with their next wake-up,
       * or their listener's next read while idle. Not a fault of ours. */
      g_message ("the batch was committed, but the other servers may not have been woken for it");
      ok = TRUE;
    }
  else if (ok && (committed == NULL || g_strcmp0 (PQcmdStatus (committed), "COMMIT") != 0))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the batch was rolled back");
      ok = FALSE;
    }
  /* Not on a connection cut for a stall: nothing more goes on it. */
  if (!ok && !triage_pg_connection_is_bad (flight->conn) &&
      PQtransactionStatus (conn) != PQTRANS_IDLE)
    {
      g_autoptr(PGresult) result = triage_pg_exec (flight->conn, "ROLLBACK", NULL);
    }
  for (int i = 0; ok && flight->inserted >= 0 &&
       i < PQntuples (flight->pipeline[flight->inserted].result) &&
       i < (int) flight->events->len; i++)
    ((TriageEventRow *) flight->events->pdata[i])->id =
      triage_pg_int (flight->pipeline[flight->inserted].result, i, 0);
  return ok;
}

/* Commits the open batch, in one round trip, and returns once it is durable. */
gboolean
triage_pg_writer_commit (TriagePgWriter *self,
                         GError        **error)
{
  g_autoptr(GError) failure = NULL;
  Flight *flight;
  gboolean ok;

  triage_pg_writer_wait (self);
  if (self->batch_error != NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, self->batch_code, self->batch_error);
      return FALSE;
    }
  flight = flight_new (self);
  if (flight == NULL)
    {
      self->in_batch = FALSE;
      return TRUE;
    }
  ok = triage_pg_pipeline (flight->conn, flight->pipeline, flight->n, &failure);
  ok = flight_committed (flight, ok, failure ? NULL : &failure);
  flight_free (flight);
  if (!ok)
    g_propagate_error (error, g_steal_pointer (&failure));
  return ok;
}

/* Hands on the answers of the flights that are done, in the order they
 * went: up to the first still awaited. A function called may wait for the
 * rest (a read): they are handed on from there, still in order. */
static void
release (TriagePgWriter *self)
{
  Flight *flight;

  while ((flight = g_queue_peek_head (&self->flights)) != NULL && flight->done)
    {
      g_queue_pop_head (&self->flights);
      flight->func (flight->committed, flight->error, flight->data);
      flight_free (flight);
    }
}

/* @flight's answers are in (@ok: all of them, @error: why not). */
static void
flight_done (Flight   *flight,
             gboolean  ok,
             GError   *error)
{
  flight->committed = flight_committed (flight, ok, error ? NULL : &error);
  flight->error = error;
  flight->done = TRUE;
  g_clear_handle_id (&flight->watch, g_source_remove);
}

/* The answers of a commit in flight, as they come. */
static void
flight_poll (Flight  *flight,
             gboolean wait)
{
  TriagePgWriter *self = flight->writer;
  GError *error = NULL;
  TriagePgPoll poll;

  poll = triage_pg_pipeline_poll (flight->conn, flight->pipeline, flight->n, wait, &error);
  if (poll == TRIAGE_PG_POLL_PENDING)
    return;
  flight_done (flight, poll == TRIAGE_PG_POLL_DONE, error);
  release (self);
}

static gboolean
on_flight_readable (int          fd,
                    GIOCondition condition,
                    gpointer     data)
{
  flight_poll (data, FALSE);
  /* flight_done () removed this source when the commit was done. */
  return G_SOURCE_CONTINUE;
}

/* A batch that did not go: answered in its turn, after the flights before
 * it. */
static void
flight_refused (TriagePgWriter     *self,
                Flight             *flight,
                gboolean            committed,
                GError             *error,
                TriagePgCommitFunc  func,
                gpointer            data)
{
  if (flight == NULL)
    flight = g_new0 (Flight, 1);
  flight->func = func;
  flight->data = data;
  flight->done = TRUE;
  flight->committed = committed;
  flight->error = error;
  g_queue_push_tail (&self->flights, flight);
  release (self);
}

/* Sends the open batch's commit and returns at once: @func is called from
 * the main loop once the database has answered and the flights before it
 * are done (from triage_pg_writer_wait() if a read comes first). The next
 * batch gathers on the next connection meanwhile. */
void
triage_pg_writer_commit_async (TriagePgWriter     *self,
                               TriagePgCommitFunc  func,
                               gpointer            data)
{
  GError *error = NULL;
  Flight *flight;

  g_return_if_fail (g_queue_get_length (&self->flights) < TRIAGE_PG_WRITER_FLIGHTS);
  if (self->batch_error != NULL)
    {
      g_set_error_literal (&error, G_IO_ERROR, self->batch_code, self->batch_error);
      /* Its transaction is over: the connection takes the next batch. */
      triage_pg_writer_rollback (self);
      flight_refused (self, NULL, FALSE, error, func, data);
      return;
    }
  flight = flight_new (self);
  if (flight == NULL)
    {
      self->in_batch = FALSE;
      flight_refused (self, NULL, TRUE, NULL, func, data);
      return;
    }
  if (!triage_pg_pipeline_send (flight->conn, flight->pipeline, flight->n, &error))
    {
      flight_committed (flight, FALSE, NULL);
      flight_refused (self, flight, FALSE, error, func, data);
      return;
    }
  flight->func = func;
  flight->data = data;
  flight->watch = g_unix_fd_add (PQsocket (triage_pg_connection_get (flight->conn)),
                                 G_IO_IN | G_IO_ERR | G_IO_HUP, on_flight_readable, flight);
  g_queue_push_tail (&self->flights, flight);
  /* The oldest connection: its flight, if it had one, was handed on (the
   * store keeps no more than TRIAGE_PG_WRITER_FLIGHTS in flight). */
  self->current = (self->current + 1) % CONNECTIONS;
  self->conn = self->conns[self->current];
}

/* Whether @backend_pid is the server process of one of the writer's
 * connections (a NOTIFY it sent is of a batch of this server). */
gboolean
triage_pg_writer_owns_backend (TriagePgWriter *self,
                               int             backend_pid)
{
  for (guint i = 0; i < CONNECTIONS; i++)
    {
      PGconn *conn = triage_pg_connection_get (self->conns[i]);

      if (conn != NULL && PQbackendPID (conn) == backend_pid)
        return TRUE;
    }
  return FALSE;
}

gboolean
triage_pg_writer_in_flight (TriagePgWriter *self)
{
  return !g_queue_is_empty (&self->flights);
}

/* Returns once every commit in flight (if any) is done, its function
 * called. */
void
triage_pg_writer_wait (TriagePgWriter *self)
{
  Flight *flight;

  while ((flight = g_queue_peek_head (&self->flights)) != NULL)
    if (flight->done)
      release (self);
    else
      flight_poll (flight, TRUE);
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
