/* triage-pg-connect.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Making a connection of the PostgreSQL backend (triage-pg-connection.c),
 * never waiting without a deadline (triage-pg-link.c): with one, at
 * connect_timeout, while the database answers; in the background, its
 * answers taken by the main loop, while it does not (after a stall), one
 * connection at a time for the whole server. A new connection gets the
 * session's settings, and the wait for its answers.
 */

#define G_LOG_DOMAIN "triage-store-postgres"

#include <glib-unix.h>

#include "triage-pg-connection-private.h"

#define RECONNECT_INTERVAL_US G_USEC_PER_SEC

/* Every session's timeouts, unless the URI (its options, or PGOPTIONS) set
 * them: the operator's win.
 *   - A server whose batch stays open 5 s is stuck (stopped, frozen): the
 *     database ends its session, so its row locks stop holding the others
 *     up; and nobody waits longer than 5 s for a lock.
 *   - A statement runs at most TRIAGE_PG_STATEMENT_TIMEOUT_MS: a database
 *     alive but slow answers with an error before the server stops waiting.
 * The last statement reads the statement_timeout in force: the server
 * waits for an answer that long and TRIAGE_PG_ANSWER_GRACE_MS more. */
#define SESSION_DEFAULTS \
  "SELECT set_config (d.name, d.value, false) FROM (VALUES" \
  " ('statement_timeout', '" G_STRINGIFY (TRIAGE_PG_STATEMENT_TIMEOUT_MS) "ms')," \
  " ('lock_timeout', '5s'), ('idle_in_transaction_session_timeout', '5s'))" \
  " AS d (name, value) JOIN pg_settings s ON s.name = d.name WHERE s.source <> 'client'"
#define STATEMENT_TIMEOUT_SQL "SELECT setting FROM pg_settings WHERE name = 'statement_timeout'"

/* libpq's messages end with a newline. */
char *
triage_pg_message_of (const char *text)
{
  return g_strstrip (g_strdup (text && *text ? text : "unknown error"));
}

/* The database's notices ("relation already exists, skipping") are no news
 * for an operator: debug output, not libpq's line on stderr. */
static void
on_notice (void       *data,
           const char *message)
{
  g_autofree char *text = triage_pg_message_of (message);

  g_debug ("%s", text);
}

/* Forgets the connection (its socket is closed); the next statement makes a
 * new one. */
void
triage_pg_connection_forget (TriagePgConnection *self)
{
  g_clear_handle_id (&self->answer_timer, g_source_remove);
  /* Non-blocking: its goodbye is not waited for. */
  g_clear_pointer (&self->conn, PQfinish);
  g_hash_table_remove_all (self->prepared);
  self->cut = FALSE;
}

/* Gives up the connection being made (the link's, if it was in the
 * background: another may be tried). */
void
triage_pg_connection_attempt_clear (TriagePgConnection *self)
{
  g_clear_handle_id (&self->attempt_watch, g_source_remove);
  g_clear_handle_id (&self->attempt_timer, g_source_remove);
  g_clear_pointer (&self->attempt, PQfinish);
  if (self->background)
    {
      self->background = FALSE;
      triage_pg_link_attempt_done (self->link, FALSE);
    }
}

/* A wait for the database passed @deadline: the link is told (every
 * connection is cut). */
void
triage_pg_connection_set_stalled (TriagePgConnection *self,
                                  const char         *what,
                                  gint64              waited_us,
                                  GError            **error)
{
  triage_pg_link_stall (self->link, what);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
               "the PostgreSQL database did not answer within %.0f s (%s)",
               (double) waited_us / G_USEC_PER_SEC, what);
}

/* A new connection is made: its settings, and the wait for its answers. */
static gboolean
setup (TriagePgConnection *self,
       GError            **error)
{
  g_autofree char *sql = g_strconcat (SESSION_DEFAULTS "; ", self->settings ? self->settings : "",
                                      self->settings ? "; " : "", STATEMENT_TIMEOUT_SQL, NULL);
  g_autoptr(PGresult) result = NULL;
  gint64 statement_ms;

  PQsetNoticeProcessor (self->conn, on_notice, NULL);
  self->answer_us = TRIAGE_PG_DEFAULT_ANSWER_US;
  if (PQsetnonblocking (self->conn, 1) != 0 ||
      (result = triage_pg_connection_exec_now (self, sql, error)) == NULL)
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
                     "the PostgreSQL connection failed as it was set up");
      triage_pg_connection_forget (self);
      return FALSE;
    }
  statement_ms = PQntuples (result) == 1 ? triage_pg_int (result, 0, 0) : 0;
  if (statement_ms > 0)
    self->answer_us = (statement_ms + TRIAGE_PG_ANSWER_GRACE_MS) * 1000;
  for (guint i = 0; i < self->kept->len; i++)
    {
      TriagePgStatement *kept = &g_array_index (self->kept, TriagePgStatement, i);

      if (triage_pg_connection_prepare (self, kept->sql, kept->n_params, error) == NULL)
        {
          triage_pg_connection_forget (self);
          return FALSE;
        }
    }
  return TRUE;
}

static void
attempt_watch (TriagePgConnection *self);

static void
attempt_end (TriagePgConnection *self,
             const char         *failure)
{
  gboolean made = failure == NULL;

  g_clear_handle_id (&self->attempt_timer, g_source_remove);
  g_clear_handle_id (&self->attempt_watch, g_source_remove);
  self->background = FALSE;
  if (made)
    {
      g_autoptr(GError) error = NULL;

      triage_pg_connection_forget (self);
      self->conn = g_steal_pointer (&self->attempt);
      if (!setup (self, &error))
        {
          g_debug ("connecting again in the background: %s", error->message);
          made = FALSE;
        }
    }
  else
    {
      g_debug ("connecting again in the background: %s", failure);
      g_clear_pointer (&self->attempt, PQfinish);
    }
  triage_pg_link_attempt_done (self->link, made);
}

static gboolean
on_attempt_ready (int          fd,
                  GIOCondition condition,
                  gpointer     data)
{
  TriagePgConnection *self = data;

  self->attempt_watch = 0;
  self->attempt_poll = PQconnectPoll (self->attempt);
  if (self->attempt_poll == PGRES_POLLING_READING || self->attempt_poll == PGRES_POLLING_WRITING)
    attempt_watch (self);
  else if (self->attempt_poll == PGRES_POLLING_OK)
    attempt_end (self, NULL);
  else
    {
      g_autofree char *message = triage_pg_message_of (PQerrorMessage (self->attempt));

      attempt_end (self, message);
    }
  return G_SOURCE_REMOVE;
}

static gboolean
on_attempt_late (gpointer data)
{
  TriagePgConnection *self = data;

  self->attempt_timer = 0;
  attempt_end (self, "no answer");
  return G_SOURCE_REMOVE;
}

static void
attempt_watch (TriagePgConnection *self)
{
  GIOCondition condition = self->attempt_poll == PGRES_POLLING_READING ? G_IO_IN : G_IO_OUT;

  self->attempt_watch = g_unix_fd_add (PQsocket (self->attempt), condition | G_IO_ERR | G_IO_HUP,
                                       on_attempt_ready, self);
}

/* Starts making a connection; FALSE (the attempt cleared, @failure set) if
 * it failed at once. */
static gboolean
attempt_start (TriagePgConnection *self,
               char              **failure)
{
  triage_pg_connection_attempt_clear (self);
  self->attempt = triage_pg_link_connect_start (self->link, self->name);
  self->attempt_poll = PGRES_POLLING_WRITING;
  if (self->attempt == NULL || PQstatus (self->attempt) == CONNECTION_BAD ||
      PQsocket (self->attempt) < 0)
    {
      *failure = triage_pg_message_of (self->attempt ? PQerrorMessage (self->attempt)
                                                     : "out of memory");
      g_clear_pointer (&self->attempt, PQfinish);
      return FALSE;
    }
  return TRUE;
}

/* While the database does not answer, a connection is made in the
 * background (its answer taken by the main loop), one at a time. */
static void
attempt_in_background (TriagePgConnection *self)
{
  g_autofree char *failure = NULL;

  if (self->attempt != NULL || !triage_pg_link_may_attempt (self->link))
    return;
  if (!attempt_start (self, &failure))
    {
      triage_pg_link_attempt_done (self->link, FALSE);
      g_debug ("connecting again in the background: %s", failure);
      return;
    }
  triage_pg_link_attempt_started (self->link);
  self->background = TRUE;
  attempt_watch (self);
  self->attempt_timer = g_timeout_add ((guint) (triage_pg_link_connect_timeout (self->link) / 1000),
                                       on_attempt_late, self);
}

gboolean
triage_pg_connection_connect (TriagePgConnection *self,
                              GError            **error)
{
  g_autofree char *failure = NULL;
  gint64 timeout, deadline;

  triage_pg_connection_forget (self);
  if (triage_pg_link_is_down (self->link))
    {
      attempt_in_background (self);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                   "the PostgreSQL database does not answer (connecting again)");
      return FALSE;
    }
  timeout = triage_pg_link_connect_timeout (self->link);
  deadline = g_get_monotonic_time () + timeout;
  if (attempt_start (self, &failure))
    while (self->attempt_poll == PGRES_POLLING_READING ||
           self->attempt_poll == PGRES_POLLING_WRITING)
      {
        if (!triage_pg_wait_socket (PQsocket (self->attempt),
                                    self->attempt_poll == PGRES_POLLING_READING,
                                    self->attempt_poll == PGRES_POLLING_WRITING, deadline))
          {
            triage_pg_connection_attempt_clear (self);
            triage_pg_connection_set_stalled (self, "a new connection", timeout, error);
            g_prefix_error (error, "cannot connect to the PostgreSQL database: ");
            return FALSE;
          }
        self->attempt_poll = PQconnectPoll (self->attempt);
      }
  if (failure == NULL && self->attempt_poll != PGRES_POLLING_OK)
    failure = triage_pg_message_of (PQerrorMessage (self->attempt));
  if (failure != NULL)
    {
      triage_pg_connection_attempt_clear (self);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED,
                   "cannot connect to the PostgreSQL database: %s", failure);
      self->retry_at = g_get_monotonic_time () + RECONNECT_INTERVAL_US;
      return FALSE;
    }
  self->conn = g_steal_pointer (&self->attempt);
  return setup (self, error);
}

