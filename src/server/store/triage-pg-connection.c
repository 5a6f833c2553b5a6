/* triage-pg-connection.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One libpq connection of the PostgreSQL backend: connected from the
 * --database URI (never holding a password), statements prepared once per
 * connection and run with text parameters, errors as GErrors naming the
 * database's message, and a connection that was lost made again (at most
 * once a second while the database is away).
 *
 * The database may end a session at any moment: its idle-in-transaction
 * timeout (a server whose main loop was held that long with a batch open),
 * pg_terminate_backend (), a restart. A statement that finds its session
 * ended fails with G_IO_ERROR_CONNECTION_CLOSED, which says so: inside a
 * transaction the transaction is gone with it (the caller's batch was not
 * stored, and its requests are told so); outside one, nothing had happened,
 * and the statement (or a pipeline that commits nothing) is run again at
 * once on a new connection. A lock not granted within the session's
 * lock_timeout fails with G_IO_ERROR_BUSY: the transaction is over (its
 * batch not stored), the session goes on, and the database is locked
 * (triage-pg-link.c): until a probe finds the lock free, a statement that
 * needs a table held fails at once with G_IO_ERROR_BUSY instead of waiting
 * lock_timeout again (pass_lock ()).
 *
 * No wait for the database is unbounded (triage-pg-link.c): the connection
 * does not block (libpq's non-blocking mode), and every wait for an answer,
 * for the socket to take what is sent, or for a new connection (made by a
 * thread of its own, triage-pg-dial.c), has a deadline. A wait past it
 * fails with G_IO_ERROR_TIMED_OUT and cuts every connection of the server (a
 * stall), whose next statements fail at once until a connection made in the
 * background answers. A pipeline whose answers the main loop takes (a
 * commit in flight, the listener's read) has a timer instead, with the same
 * effect.
 */

#define G_LOG_DOMAIN "triage-store-postgres"

#include <sys/socket.h>

#include "triage-pg-connection-private.h"

/* How often a session found read-only is made again (triage_pg_connection_renew ()). */
#define RENEW_INTERVAL_US (5 * G_USEC_PER_SEC)
/* The lock_timeout of a session while the database is locked: a wait for a
 * lock held by another session fails about at once, and a row lock that
 * two servers' batches take one after the other (held for a commit's
 * round trip) is still waited for. */
#define HASTY_LOCK_TIMEOUT "10ms"

TriagePgConnection *
triage_pg_connection_new (TriagePgLink *link,
                          const char   *name,
                          const char   *settings,
                          GError      **error)
{
  TriagePgConnection *self;

  self = g_new0 (TriagePgConnection, 1);
  self->link = triage_pg_link_ref (link);
  self->name = g_strdup (name);
  self->settings = g_strdup (settings);
  self->answer_us = TRIAGE_PG_DEFAULT_ANSWER_US;
  self->prepared = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->kept = g_array_new (FALSE, FALSE, sizeof (TriagePgStatement));
  triage_pg_link_add (link, self);
  if (!triage_pg_connection_connect (self, TRUE, error))
    {
      triage_pg_connection_free (self);
      return NULL;
    }
  return self;
}

void
triage_pg_connection_free (TriagePgConnection *self)
{
  if (self == NULL)
    return;
  triage_pg_connection_attempt_clear (self);
  triage_pg_connection_forget (self);
  triage_pg_link_remove (self->link, self);
  triage_pg_link_unref (self->link);
  g_hash_table_unref (self->prepared);
  g_array_unref (self->kept);
  g_free (self->name);
  g_free (self->settings);
  g_free (self->calm_lock_timeout);
  g_clear_error (&self->pipeline_failure);
  g_free (self);
}

/* The libpq connection: NULL while there is none. */
PGconn *
triage_pg_connection_get (TriagePgConnection *self)
{
  return self->conn;
}

gboolean
triage_pg_connection_is_bad (TriagePgConnection *self)
{
  return self->conn == NULL || self->cut || PQstatus (self->conn) != CONNECTION_OK;
}

/* The database stalled: the socket is shut down, so whoever watches it
 * (a commit in flight, the listener) finds it closed, from the main loop;
 * the connection is made again when next needed. */
void
triage_pg_connection_cut (TriagePgConnection *self)
{
  g_clear_handle_id (&self->answer_timer, g_source_remove);
  if (self->conn == NULL || self->cut)
    return;
  self->cut = TRUE;
  if (PQsocket (self->conn) >= 0)
    shutdown (PQsocket (self->conn), SHUT_RDWR);
}

/* Forgets the connection (its socket is closed); the next statement makes a
 * new one. */
void
triage_pg_connection_drop (TriagePgConnection *self)
{
  triage_pg_connection_forget (self);
}

/* The session was found read-only: a database made read-only with ALTER
 * DATABASE or ALTER ROLE … SET default_transaction_read_only, or reached on a
 * hot standby. The setting is the session's from its start, so a session
 * keeps it after the database is writable again: the next statement, once no
 * transaction is open, makes a new one (at most one every RENEW_INTERVAL_US). */
void
triage_pg_connection_renew (TriagePgConnection *self)
{
  self->renew = TRUE;
}

static PGresult *answer_of (TriagePgConnection *self,
                            gboolean            sent,
                            GError            **error);

/* Whether no table the server writes is held against writes by another
 * session: the link's probe (triage-pg-link.c), run now, without waiting.
 * FALSE with G_IO_ERROR_BUSY when one is (the database is then taken as
 * locked), or with the error that kept the probe from being made. A
 * session inside a transaction is not probed (TRUE). */
gboolean
triage_pg_connection_probe_lock (TriagePgConnection *self,
                                 GError            **error)
{
  const char *probe = triage_pg_link_get_lock_probe (self->link);
  g_autofree char *sql = NULL;
  g_autoptr(GError) local = NULL;
  g_autoptr(PGresult) probed = NULL;
  g_autoptr(PGresult) ended = NULL;
  gboolean ensured;

  if (probe == NULL || self->probing)
    return TRUE;
  self->probing = TRUE;
  ensured = triage_pg_connection_ensure (self, error);
  if (ensured && PQtransactionStatus (self->conn) == PQTRANS_IDLE)
    {
      sql = g_strdup_printf ("BEGIN; %s", probe);
      probed = answer_of (self, PQsendQuery (self->conn, sql), &local);
      /* Its locks let go at once, or its failed transaction ended. */
      if (!triage_pg_connection_is_bad (self) &&
          PQtransactionStatus (self->conn) != PQTRANS_IDLE)
        ended = answer_of (self, PQsendQuery (self->conn, "ROLLBACK"), NULL);
    }
  self->probing = FALSE;
  if (!ensured || sql == NULL)
    return ensured;
  if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_BUSY))
    triage_pg_link_set_locked (self->link, local->message);
  else
    /* Anything else (a table missing under a restore, a session ended)
     * is not a lock: the next statement meets it and says so. */
    triage_pg_link_lock_free (self->link);
  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  return TRUE;
}

/* Sets the session's lock_timeout to HASTY_LOCK_TIMEOUT (@hasty), keeping
 * the one it had, or back to that one. Outside a transaction only: a
 * transaction's rollback would undo it. */
static gboolean
set_hasty (TriagePgConnection *self,
           gboolean            hasty,
           GError            **error)
{
  g_autoptr(PGresult) result = NULL;
  const char *values[] = { self->calm_lock_timeout };

  if (hasty)
    result = answer_of (self, PQsendQuery (self->conn, "SELECT current_setting ('lock_timeout'),"
                                           " set_config ('lock_timeout', '"
                                           HASTY_LOCK_TIMEOUT "', false)"), error);
  else
    result = answer_of (self, PQsendQueryParams (self->conn, "SELECT set_config ('lock_timeout',"
                                                 " $1, false)", 1, NULL, values, NULL, NULL, 0),
                        error);
  if (result == NULL)
    return FALSE;
  if (hasty)
    {
      g_free (self->calm_lock_timeout);
      self->calm_lock_timeout = g_strdup (PQgetvalue (result, 0, 0));
    }
  self->hasty = hasty;
  return TRUE;
}

/* While the database is locked (triage-pg-link.c), the session gives up a
 * lock wait after HASTY_LOCK_TIMEOUT: a statement that needs a table held
 * fails at once (G_IO_ERROR_BUSY), one that does not runs as ever; once a
 * probe (at most one every LOCK_PROBE_INTERVAL_US, or /readyz's) finds the
 * lock free, the session waits as long as before again. */
static gboolean
pass_lock (TriagePgConnection *self,
           GError            **error)
{
  if (self->probing || PQtransactionStatus (self->conn) != PQTRANS_IDLE)
    return TRUE;
  if (triage_pg_link_get_locked (self->link) != NULL && triage_pg_link_take_probe (self->link))
    triage_pg_connection_probe_lock (self, NULL);
  if (self->hasty != (triage_pg_link_get_locked (self->link) != NULL))
    return set_hasty (self, !self->hasty, error);
  return TRUE;
}

/* Makes sure there is a working connection, connecting again if it was lost
 * (no more than once a second), or made read-only, and that the database
 * is not locked. */
gboolean
triage_pg_connection_ensure (TriagePgConnection *self,
                             GError            **error)
{
  gint64 now = g_get_monotonic_time ();

  /* A new connection holds the main loop while it is made: while the
   * database stays read-only, one every RENEW_INTERVAL_US is tried. */
  if (self->renew && !triage_pg_connection_is_bad (self) &&
      PQtransactionStatus (self->conn) == PQTRANS_IDLE &&
      now - self->renewed_at >= RENEW_INTERVAL_US)
    {
      self->renew = FALSE;
      self->renewed_at = now;
      triage_pg_connection_forget (self);
      return triage_pg_connection_connect (self, FALSE, error) && pass_lock (self, error);
    }
  if (!triage_pg_connection_is_bad (self))
    return pass_lock (self, error);
  if (now < self->retry_at)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                   "the connection to the PostgreSQL database was lost (trying again)");
      return FALSE;
    }
  if (!triage_pg_link_is_down (self->link))
    g_message ("the connection to the PostgreSQL database was lost: connecting again");
  return triage_pg_connection_connect (self, FALSE, error) && pass_lock (self, error);
}

static gboolean
result_ok (PGresult *result)
{
  ExecStatusType status = PQresultStatus (result);

  return status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK;
}

/* Whether @state (a SQLSTATE) says the database ended the session: class
 * 57 (operator intervention: pg_terminate_backend (), a shutdown) or the
 * idle-in-transaction timeout. */
static gboolean
ends_session (const char *state)
{
  return state != NULL && (g_str_has_prefix (state, "57P") || g_str_equal (state, "25P03"));
}

/* @result's error (or @conn's, without one) in @error; TRUE if it says the
 * session is over (@lost: the connection is known lost). */
gboolean
triage_pg_result_error (PGconn         *conn,
                        gboolean        lost,
                        const PGresult *result,
                        GError        **error)
{
  const char *state = result ? PQresultErrorField (result, PG_DIAG_SQLSTATE) : NULL;
  g_autofree char *message = triage_pg_message_of (result && *PQresultErrorMessage (result)
                                                     ? PQresultErrorMessage (result)
                                                     : PQerrorMessage (conn));

  if (ends_session (state) || lost)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
                   "the database ended the session%s%s%s: %s", state ? " (" : "",
                   state ? state : "", state ? ")" : "", message);
      return TRUE;
    }
  if (g_strcmp0 (state, "55P03") == 0)
    {
      /* lock_timeout: a table held by another session (LOCK TABLE, VACUUM
       * FULL, a restore), a row or the event log (a server stopped with a
       * batch open, a reader of the log) past the wait every session
       * allows. The transaction is over, the session is not. */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                   "the database did not grant a lock (55P03): %s", message);
      return FALSE;
    }
  if (g_strcmp0 (state, "57014") == 0)
    {
      /* query_canceled: the operator's statement_timeout (in the URI, or
       * set for the database or the role) ran out, or pg_cancel_backend ().
       * As a lock wait given up: the transaction is over, the session is
       * not, and the request is answered 503; the operator's choice, not a
       * fault of the server, so said once and then counted. */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                   "the database canceled the statement (57014): %s", message);
      return FALSE;
    }
  if (g_strcmp0 (state, "25006") == 0)
    {
      /* read_only_sql_transaction: the database takes no change (a hot
       * standby, default_transaction_read_only); said as what it is, once
       * then counted, like any database that cannot take a change. */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_READ_ONLY,
                   "the database is read-only (25006): %s", message);
      return FALSE;
    }
  if (g_strcmp0 (state, "42P01") == 0 || g_strcmp0 (state, "3F000") == 0)
    {
      /* No such table, or no such schema (the search_path's): the database
       * was emptied or is being restored under the server, which says so at
       * /readyz; every request fails the same way until it is back. */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                   "the database has no Triage schema, or not all of it (%s): %s", state,
                   message);
      return FALSE;
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "database error%s%s%s: %s",
               state ? " (" : "", state ? state : "", state ? ")" : "", message);
  return FALSE;
}

static void
set_result_error (TriagePgConnection *self,
                  PGresult           *result,
                  GError            **error)
{
  g_autoptr(GError) local = NULL;

  if (triage_pg_result_error (self->conn, triage_pg_connection_is_bad (self), result, &local))
    /* Its next statement makes a new connection at once. */
    self->retry_at = 0;
  else if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_READ_ONLY))
    /* The SQLSTATE's meaning is triage_pg_result_error ()'s alone. */
    triage_pg_connection_renew (self);
  else if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_BUSY) && !self->probing &&
           !self->hasty)
    /* A wait of lock_timeout given up (a probe never waits, nor does a
     * hasty session long). */
    triage_pg_link_lock_waited (self->link, local->message);
  g_propagate_error (error, g_steal_pointer (&local));
}

/* Whether @error says the session was ended (nothing more is to come on
 * it). */
static gboolean
session_ended (const GError *error)
{
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED);
}

/* When the wait for an answer that starts now ends. */
static gint64
answer_deadline (TriagePgConnection *self)
{
  return self->patient ? G_MAXINT64 : g_get_monotonic_time () + self->answer_us;
}

/* While @patient, answers are waited for as long as they take: a schema
 * migration (at start, before the server serves) may rewrite a large table.
 * The session's statement_timeout is the caller's to lift. */
void
triage_pg_connection_set_patient (TriagePgConnection *self,
                                  gboolean            patient)
{
  self->patient = patient;
}

/* Waits until libpq has an answer to give (PQgetResult () does not block),
 * sending first what it still holds; FALSE once @deadline passed (a stall,
 * @error set). A connection lost is no wait: PQgetResult () says so. */
static gboolean
await_answer (TriagePgConnection *self,
              gint64              deadline,
              GError            **error)
{
  for (;;)
    {
      int flushed = PQflush (self->conn);

      if (flushed < 0 || (flushed == 0 && !PQisBusy (self->conn)))
        return TRUE;
      if (!triage_pg_wait_socket (PQsocket (self->conn), TRUE, flushed > 0, deadline))
        {
          triage_pg_connection_set_stalled (self, "a statement", self->answer_us, error);
          return FALSE;
        }
      if (!PQconsumeInput (self->conn))
        return TRUE;
    }
}

/* The answer to what was just sent (@sent: whether it was): its last
 * result, as PQexec () gives it; NULL with @error set if it failed. */
static PGresult *
answer_of (TriagePgConnection *self,
           gboolean            sent,
           GError            **error)
{
  gint64 deadline = answer_deadline (self);
  PGresult *last = NULL, *result;

  while (sent)
    {
      if (!await_answer (self, deadline, error))
        {
          g_clear_pointer (&last, PQclear);
          return NULL;
        }
      if ((result = PQgetResult (self->conn)) == NULL)
        break;
      g_clear_pointer (&last, PQclear);
      last = result;
      if (PQstatus (self->conn) == CONNECTION_BAD)
        break;
    }
  if (!result_ok (last))
    {
      set_result_error (self, last, error);
      g_clear_pointer (&last, PQclear);
    }
  return last;
}

/* The name @sql is prepared under on this connection, preparing it now if
 * it is new; NULL on error. */
const char *
triage_pg_connection_prepare (TriagePgConnection *self,
                              const char         *sql,
                              int                 n_params,
                              GError            **error)
{
  const char *name = g_hash_table_lookup (self->prepared, sql);

  if (name == NULL)
    {
      g_autofree char *new_name = g_strdup_printf ("triage_%u", ++self->next_name);
      g_autoptr(PGresult) prepared = NULL;

      prepared = answer_of (self, PQsendPrepare (self->conn, new_name, sql, n_params, NULL), error);
      if (prepared == NULL)
        return NULL;
      name = new_name;
      g_hash_table_insert (self->prepared, g_strdup (sql), g_steal_pointer (&new_name));
    }
  return name;
}

static PGresult *
run_prepared (TriagePgConnection  *self,
              const char          *sql,
              int                  n_params,
              const TriagePgParam *params,
              GError             **error)
{
  const char *name = triage_pg_connection_prepare (self, sql, n_params, error);

  if (name == NULL)
    return NULL;
  return answer_of (self, PQsendQueryPrepared (self->conn, name, n_params, params, NULL, NULL, 0),
                    error);
}

/* @sql (with @n_params) is prepared on every new connection as it is set
 * up (and now, if it is up): a caller that takes the answers from the main
 * loop never waits for a preparation then (the listener's reads). */
gboolean
triage_pg_connection_keep_prepared (TriagePgConnection *self,
                                    const char         *sql,
                                    int                 n_params,
                                    GError            **error)
{
  TriagePgStatement kept = { sql, n_params, NULL, NULL };

  g_array_append_val (self->kept, kept);
  return triage_pg_connection_is_bad (self) ||
         triage_pg_connection_prepare (self, sql, n_params, error) != NULL;
}

/* Runs @sql (prepared on first use) with @params. A connection lost between
 * transactions is made again and the statement run once more: nothing of it
 * had happened. Inside a transaction the error stands (the transaction is
 * gone with the connection). */
PGresult *
triage_pg_query (TriagePgConnection  *self,
                 const char          *sql,
                 int                  n_params,
                 const TriagePgParam *params,
                 GError             **error)
{
  g_autoptr(GError) first = NULL;
  PGresult *result;
  gboolean idle;

  if (!triage_pg_connection_ensure (self, error))
    return NULL;
  idle = PQtransactionStatus (self->conn) == PQTRANS_IDLE;
  result = run_prepared (self, sql, n_params, params, &first);
  if (result != NULL || !idle || !session_ended (first))
    {
      if (first != NULL)
        g_propagate_error (error, g_steal_pointer (&first));
      return result;
    }
  g_message ("%s; connecting again to run the statement", first->message);
  if (!triage_pg_connection_connect (self, FALSE, error))
    return NULL;
  return run_prepared (self, sql, n_params, params, error);
}

/* Sends what libpq holds, taking what comes meanwhile; FALSE (a stall) if
 * the socket takes nothing within the wait for an answer. */
static gboolean
flush_all (TriagePgConnection *self,
           GError            **error)
{
  gint64 deadline = answer_deadline (self);

  while (PQflush (self->conn) > 0)
    {
      if (!triage_pg_wait_socket (PQsocket (self->conn), TRUE, TRUE, deadline))
        {
          triage_pg_connection_set_stalled (self, "sending statements", self->answer_us, error);
          return FALSE;
        }
      if (!PQconsumeInput (self->conn))
        break;
    }
  return TRUE;
}

/* The answers of a pipeline the main loop waits for did not come in time. */
static gboolean
on_answer_late (gpointer data)
{
  TriagePgConnection *self = data;

  self->answer_timer = 0;
  triage_pg_link_stall (self->link, "statements sent, their answers awaited");
  return G_SOURCE_REMOVE;
}

/* Sends @statements in one go (libpq's pipeline mode): each is sent before
 * the first result is read; triage_pg_pipeline_poll() reads the results.
 * Statements are prepared first, once per connection. */
gboolean
triage_pg_pipeline_send (TriagePgConnection *self,
                         TriagePgStatement  *statements,
                         guint               n_statements,
                         GError            **error)
{
  gboolean sent = TRUE;

  if (!triage_pg_connection_ensure (self, error))
    return FALSE;
  for (guint i = 0; i < n_statements; i++)
    if (triage_pg_connection_prepare (self, statements[i].sql, statements[i].n_params, error) == NULL)
      return FALSE;
  if (!PQenterPipelineMode (self->conn))
    {
      set_result_error (self, NULL, error);
      return FALSE;
    }
  for (guint i = 0; i < n_statements && sent; i++)
    sent = PQsendQueryPrepared (self->conn, g_hash_table_lookup (self->prepared, statements[i].sql),
                                statements[i].n_params, statements[i].params, NULL, NULL, 0);
  if (!sent || !PQpipelineSync (self->conn))
    {
      set_result_error (self, NULL, error);
      PQexitPipelineMode (self->conn);
      return FALSE;
    }
  /* All of it goes now: the main loop watches for answers only. */
  if (!flush_all (self, error))
    return FALSE;
  self->answer_timer = g_timeout_add ((guint) (self->answer_us / 1000), on_answer_late, self);
  self->pipeline_next = 0;
  self->pipeline_seen = FALSE;
  g_clear_error (&self->pipeline_failure);
  return TRUE;
}

/* Takes one result of the pipeline; TRUE once its end (the sync) is read. */
static gboolean
pipeline_step (TriagePgConnection *self,
               TriagePgStatement  *statements,
               guint               n_statements)
{
  PGresult *result = PQgetResult (self->conn);

  if (result == NULL)
    {
      /* The end of a statement's results; one with no result at all: the
       * connection is gone. */
      if (!self->pipeline_seen || self->pipeline_next >= n_statements)
        return TRUE;
      self->pipeline_next++;
      self->pipeline_seen = FALSE;
      return FALSE;
    }
  if (self->pipeline_next >= n_statements)
    {
      gboolean end = PQresultStatus (result) == PGRES_PIPELINE_SYNC;

      PQclear (result);
      return end;
    }
  if (self->pipeline_seen)
    PQclear (result);
  else if (!result_ok (result))
    {
      if (self->pipeline_failure == NULL && PQresultStatus (result) != PGRES_PIPELINE_ABORTED)
        set_result_error (self, result, &self->pipeline_failure);
      PQclear (result);
    }
  else
    statements[self->pipeline_next].result = result;
  self->pipeline_seen = TRUE;
  return FALSE;
}

/* Reads the results of the pipeline triage_pg_pipeline_send() sent: all of
 * them (@wait), or what has arrived (the socket was readable). A statement
 * that failed aborts those after it (their result stays NULL); the error is
 * the first failure's. */
TriagePgPoll
triage_pg_pipeline_poll (TriagePgConnection *self,
                         TriagePgStatement  *statements,
                         guint               n_statements,
                         gboolean            wait,
                         GError            **error)
{
  gint64 deadline = answer_deadline (self);
  gboolean end = FALSE, late = FALSE;

  if (!wait && !PQconsumeInput (self->conn))
    end = TRUE;
  while (!end && (wait || !PQisBusy (self->conn)))
    {
      g_autoptr(GError) stall = NULL;

      if (wait && !await_answer (self, deadline, &stall))
        {
          /* The connection is cut: nothing more is read from it. */
          g_clear_error (&self->pipeline_failure);
          self->pipeline_failure = g_steal_pointer (&stall);
          late = TRUE;
          break;
        }
      end = pipeline_step (self, statements, n_statements);
    }
  if (!end && !late)
    return TRIAGE_PG_POLL_PENDING;
  g_clear_handle_id (&self->answer_timer, g_source_remove);
  if (end)
    PQexitPipelineMode (self->conn);
  if (self->pipeline_failure == NULL && triage_pg_connection_is_bad (self))
    set_result_error (self, NULL, &self->pipeline_failure);
  if (self->pipeline_failure == NULL && self->pipeline_next < n_statements)
    g_set_error (&self->pipeline_failure, G_IO_ERROR, G_IO_ERROR_FAILED,
                 "database error: the answers stopped before the last statement");
  if (self->pipeline_failure != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&self->pipeline_failure));
      return TRIAGE_PG_POLL_FAILED;
    }
  return TRIAGE_PG_POLL_DONE;
}

/* Whether a pipeline of @statements may have committed something once it
 * was sent. */
static gboolean
may_commit (const TriagePgStatement *statements,
            guint                    n_statements)
{
  for (guint i = 0; i < n_statements; i++)
    if (g_ascii_strcasecmp (statements[i].sql, "COMMIT") == 0)
      return TRUE;
  return FALSE;
}

static gboolean
pipeline_once (TriagePgConnection *self,
               TriagePgStatement  *statements,
               guint               n_statements,
               GError            **error)
{
  return triage_pg_pipeline_send (self, statements, n_statements, error) &&
         triage_pg_pipeline_poll (self, statements, n_statements, TRUE, error) ==
           TRIAGE_PG_POLL_DONE;
}

/* Runs @statements in one round trip to the database (see
 * triage_pg_pipeline_send()). A session found ended when no transaction was
 * open is made again and the pipeline sent again, unless it holds a COMMIT
 * (which may have been done). */
gboolean
triage_pg_pipeline (TriagePgConnection *self,
                    TriagePgStatement  *statements,
                    guint               n_statements,
                    GError            **error)
{
  g_autoptr(GError) first = NULL;
  gboolean idle;

  if (!triage_pg_connection_ensure (self, error))
    return FALSE;
  idle = PQtransactionStatus (self->conn) == PQTRANS_IDLE;
  if (pipeline_once (self, statements, n_statements, &first))
    return TRUE;
  if (!idle || !session_ended (first) || may_commit (statements, n_statements))
    {
      g_propagate_error (error, g_steal_pointer (&first));
      return FALSE;
    }
  g_message ("%s; connecting again to send the statements", first->message);
  for (guint i = 0; i < n_statements; i++)
    g_clear_pointer (&statements[i].result, PQclear);
  return triage_pg_connection_connect (self, FALSE, error) && pipeline_once (self, statements, n_statements, error);
}

/* Runs @sql (one or more statements, no parameters) with the simple protocol;
 * returns the last statement's result. */
PGresult *
triage_pg_exec (TriagePgConnection *self,
                const char         *sql,
                GError            **error)
{
  if (!triage_pg_connection_ensure (self, error))
    return NULL;
  return answer_of (self, PQsendQuery (self->conn, sql), error);
}
