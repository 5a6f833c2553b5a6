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
 * lock_timeout fails with G_IO_ERROR_TIMED_OUT: the transaction is over
 * (its batch not stored), the session goes on.
 */

#define G_LOG_DOMAIN "triage-store-postgres"

#include <string.h>

#include "triage-pg-connection.h"

#define RECONNECT_INTERVAL_US G_USEC_PER_SEC

struct _TriagePgConnection
{
  PGconn     *conn;
  char       *uri;
  char       *password;
  char       *name;           /* the application name the database shows, unless the URI has one */
  char       *settings;       /* SQL run on every new connection */
  GHashTable *prepared;       /* SQL → statement name on this connection */
  guint       next_name;
  gint64      retry_at;       /* monotonic µs: no new connection before this */
  guint       pipeline_next;  /* the pipeline's statement whose results come next */
  gboolean    pipeline_seen;  /* a result of it was read */
  GError     *pipeline_failure;
};

/* libpq's messages end with a newline. */
static char *
message_of (const char *text)
{
  return g_strstrip (g_strdup (text && *text ? text : "unknown error"));
}

/* A URI that holds a password is refused: it would be on the command line,
 * which every user of the machine can read. */
gboolean
triage_pg_check_uri (const char *uri,
                     GError    **error)
{
  char *parse_error = NULL;
  PQconninfoOption *options = PQconninfoParse (uri, &parse_error);
  gboolean has_password = FALSE;

  if (options == NULL)
    {
      g_autofree char *message = message_of (parse_error);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "--database: not a PostgreSQL connection URI: %s", message);
      PQfreemem (parse_error);
      return FALSE;
    }
  for (PQconninfoOption *option = options; option->keyword != NULL; option++)
    if (strcmp (option->keyword, "password") == 0 && option->val != NULL && *option->val != '\0')
      has_password = TRUE;
  PQconninfoFree (options);
  if (has_password)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "--database: the URI holds a password, which the command line would show to "
                   "every user of this machine; give it in a file with --database-password-file, "
                   "or through PGPASSFILE or PGPASSWORD");
      return FALSE;
    }
  return TRUE;
}

/* The database's notices ("relation already exists, skipping") are no news
 * for an operator: debug output, not libpq's line on stderr. */
static void
on_notice (void       *data,
           const char *message)
{
  g_autofree char *text = message_of (message);

  g_debug ("%s", text);
}

static gboolean
connect_now (TriagePgConnection *self,
             GError            **error)
{
  /* The URI's own values override those before it, and the password file
   * overrides everything. */
  const char *keywords[] = { "connect_timeout", "fallback_application_name", "dbname",
                             self->password ? "password" : NULL, NULL };
  const char *values[] = { "10", self->name, self->uri, self->password, NULL };
  g_autoptr(PGresult) settings = NULL;

  g_clear_pointer (&self->conn, PQfinish);
  g_hash_table_remove_all (self->prepared);
  self->conn = PQconnectdbParams (keywords, values, 1);
  if (PQstatus (self->conn) != CONNECTION_OK)
    {
      g_autofree char *message = message_of (PQerrorMessage (self->conn));

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED,
                   "cannot connect to the PostgreSQL database: %s", message);
      self->retry_at = g_get_monotonic_time () + RECONNECT_INTERVAL_US;
      return FALSE;
    }
  PQsetNoticeProcessor (self->conn, on_notice, NULL);
  if (self->settings != NULL && (settings = triage_pg_exec (self, self->settings, error)) == NULL)
    {
      g_clear_pointer (&self->conn, PQfinish);
      return FALSE;
    }
  return TRUE;
}

TriagePgConnection *
triage_pg_connection_new (const char *uri,
                          const char *password,
                          const char *name,
                          const char *settings,
                          GError    **error)
{
  TriagePgConnection *self;

  if (!triage_pg_check_uri (uri, error))
    return NULL;
  self = g_new0 (TriagePgConnection, 1);
  self->uri = g_strdup (uri);
  self->password = g_strdup (password);
  self->name = g_strdup (name);
  self->settings = g_strdup (settings);
  self->prepared = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (!connect_now (self, error))
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
  g_clear_pointer (&self->conn, PQfinish);
  g_hash_table_unref (self->prepared);
  g_free (self->uri);
  if (self->password != NULL)
    memset (self->password, 0, strlen (self->password));
  g_free (self->password);
  g_free (self->name);
  g_free (self->settings);
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
  return self->conn == NULL || PQstatus (self->conn) != CONNECTION_OK;
}

/* Forgets the connection (its socket is closed); the next statement makes a
 * new one. */
void
triage_pg_connection_drop (TriagePgConnection *self)
{
  g_clear_pointer (&self->conn, PQfinish);
  g_hash_table_remove_all (self->prepared);
}

/* Makes sure there is a working connection, connecting again if it was lost
 * (no more than once a second). */
gboolean
triage_pg_connection_ensure (TriagePgConnection *self,
                             GError            **error)
{
  if (!triage_pg_connection_is_bad (self))
    return TRUE;
  if (g_get_monotonic_time () < self->retry_at)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                   "the connection to the PostgreSQL database was lost (trying again)");
      return FALSE;
    }
  g_message ("the connection to the PostgreSQL database was lost: connecting again");
  return connect_now (self, error);
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

static void
set_result_error (TriagePgConnection *self,
                  PGresult           *result,
                  GError            **error)
{
  const char *state = result ? PQresultErrorField (result, PG_DIAG_SQLSTATE) : NULL;
  g_autofree char *message = message_of (result && *PQresultErrorMessage (result)
                                           ? PQresultErrorMessage (result)
                                           : PQerrorMessage (self->conn));

  if (ends_session (state) || triage_pg_connection_is_bad (self))
    {
      /* Its next statement makes a new connection at once. */
      self->retry_at = 0;
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
                   "the database ended the session%s%s%s: %s", state ? " (" : "",
                   state ? state : "", state ? ")" : "", message);
      return;
    }
  if (g_strcmp0 (state, "55P03") == 0)
    {
      /* lock_timeout: a row or the event log held by another session (a
       * server stopped with a batch open, a reader of the log) past the
       * wait every session allows. The transaction is over, the session is
       * not. */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                   "the database gave up waiting for a lock (55P03): %s", message);
      return;
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "database error%s%s%s: %s",
               state ? " (" : "", state ? state : "", state ? ")" : "", message);
}

/* Whether @error says the session was ended (nothing more is to come on
 * it). */
static gboolean
session_ended (const GError *error)
{
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED);
}

/* The name @sql is prepared under on this connection, preparing it now if
 * it is new; NULL on error. */
static const char *
prepared_name (TriagePgConnection *self,
               const char         *sql,
               int                 n_params,
               GError            **error)
{
  const char *name = g_hash_table_lookup (self->prepared, sql);

  if (name == NULL)
    {
      g_autofree char *new_name = g_strdup_printf ("triage_%u", ++self->next_name);
      g_autoptr(PGresult) prepared = PQprepare (self->conn, new_name, sql, n_params, NULL);

      if (!result_ok (prepared))
        {
          set_result_error (self, prepared, error);
          return NULL;
        }
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
  const char *name = prepared_name (self, sql, n_params, error);
  PGresult *result;

  if (name == NULL)
    return NULL;
  result = PQexecPrepared (self->conn, name, n_params, params, NULL, NULL, 0);
  if (!result_ok (result))
    {
      set_result_error (self, result, error);
      g_clear_pointer (&result, PQclear);
    }
  return result;
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
  if (!connect_now (self, error))
    return NULL;
  return run_prepared (self, sql, n_params, params, error);
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
    if (prepared_name (self, statements[i].sql, statements[i].n_params, error) == NULL)
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
  gboolean end = FALSE;

  if (!wait && !PQconsumeInput (self->conn))
    end = TRUE;
  while (!end && (wait || !PQisBusy (self->conn)))
    end = pipeline_step (self, statements, n_statements);
  if (!end)
    return TRIAGE_PG_POLL_PENDING;
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
  return connect_now (self, error) && pipeline_once (self, statements, n_statements, error);
}

/* Runs @sql (one or more statements, no parameters) with the simple protocol;
 * returns the last statement's result. */
PGresult *
triage_pg_exec (TriagePgConnection *self,
                const char         *sql,
                GError            **error)
{
  PGresult *result;

  if (!triage_pg_connection_ensure (self, error))
    return NULL;
  result = PQexec (self->conn, sql);
  if (!result_ok (result))
    {
      set_result_error (self, result, error);
      g_clear_pointer (&result, PQclear);
    }
  return result;
}

char *
triage_pg_text (const PGresult *result,
                int             row,
                int             column)
{
  if (PQgetisnull (result, row, column))
    return NULL;
  return g_strdup (PQgetvalue (result, row, column));
}

/* A number column; 0 for NULL. */
gint64
triage_pg_int (const PGresult *result,
               int             row,
               int             column)
{
  if (PQgetisnull (result, row, column))
    return 0;
  return g_ascii_strtoll (PQgetvalue (result, row, column), NULL, 10);
}

/* The rows an INSERT, UPDATE or DELETE changed. */
gint64
triage_pg_changed (const PGresult *result)
{
  return g_ascii_strtoll (PQcmdTuples ((PGresult *) result), NULL, 10);
}

const char *
triage_pg_number (TriagePgNumber *slot,
                  gint64          value)
{
  g_snprintf (slot->text, sizeof slot->text, "%" G_GINT64_FORMAT, value);
  return slot->text;
}

/* One element of an array literal ("{…}"), quoted; NULL is SQL NULL. */
void
triage_pg_array_append (GString    *array,
                        const char *value)
{
  if (array->len > 1)
    g_string_append_c (array, ',');
  if (value == NULL)
    {
      g_string_append (array, "NULL");
      return;
    }
  g_string_append_c (array, '"');
  for (const char *p = value; *p != '\0'; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_c (array, '\\');
      g_string_append_c (array, *p);
    }
  g_string_append_c (array, '"');
}

/* @values (NULL-terminated) as a text[] literal. */
char *
triage_pg_text_array (const char * const *values)
{
  GString *array = g_string_new ("{");

  for (guint i = 0; values != NULL && values[i] != NULL; i++)
    triage_pg_array_append (array, values[i]);
  g_string_append_c (array, '}');
  return g_string_free (array, FALSE);
}
