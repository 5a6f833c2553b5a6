/* triage-pg-connect.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Making a connection of the PostgreSQL backend (triage-pg-connection.c),
 * never waiting without a deadline (triage-pg-link.c). A thread of its own
 * makes it (triage-pg-dial.c: the host name's lookup, the connection, the
 * session's settings and the statements kept prepared), so nothing of it
 * blocks the main loop. While the database answers, a statement that needs
 * a connection waits for it, as for any answer: at start connect_timeout
 * for each host and address libpq tries (the lookup of the URI's names
 * too), once the server serves one connect_timeout at most, past which a
 * try that libpq is still connecting goes on in the background; then the
 * wait for an answer for each of its first statements. While it does not
 * (after a stall), the connection is
 * made in the background and the main loop takes it once it answers, one
 * connection at a time for the whole server, and none while a try given up
 * still runs (its lookup hangs): triage_pg_link_let_go ().
 */

#define G_LOG_DOMAIN "triage-store-postgres"

#include "triage-pg-connection-private.h"

#define RECONNECT_INTERVAL_US G_USEC_PER_SEC

/* Every session's timeouts, unless the operator set them for Triage: in the
 * URI (its options, or PGOPTIONS), or for its role or database (ALTER ROLE,
 * ALTER DATABASE, ALTER ROLE … IN DATABASE). A cluster-wide value
 * (postgresql.conf, the command line) was not chosen for this server and
 * gives way to these.
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
  " AS d (name, value) JOIN pg_settings s ON s.name = d.name" \
  " WHERE s.source NOT IN ('client', 'user', 'database', 'database user')"
#define STATEMENT_TIMEOUT_SQL "SELECT setting FROM pg_settings WHERE name = 'statement_timeout'"

/* libpq's messages end with a newline. */
char *
triage_pg_message_of (const char *text)
{
  return g_strstrip (g_strdup (text && *text ? text : "unknown error"));
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
  /* A new session has the lock_timeout every session gets. */
  self->hasty = FALSE;
}

/* Gives up the connection being made in the background (another may be
 * tried). */
void
triage_pg_connection_attempt_clear (TriagePgConnection *self)
{
  g_clear_handle_id (&self->attempt_timer, g_source_remove);
  if (self->attempt != NULL)
    {
      triage_pg_link_let_go (self->link, g_steal_pointer (&self->attempt));
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

/* Starts making a new connection, with the session's settings and the
 * statements kept prepared; @done is called from the main loop once it is
 * made (or not), unless NULL. */
static TriagePgDial *
dial_start (TriagePgConnection *self,
            GSourceFunc         done,
            gboolean            at_start)
{
  g_autofree char *sql = g_strconcat (SESSION_DEFAULTS "; ", self->settings ? self->settings : "",
                                      self->settings ? "; " : "", STATEMENT_TIMEOUT_SQL, NULL);
  char **keywords, **values;
  TriagePgDial *dial;

  triage_pg_link_connect_params (self->link, self->name, &keywords, &values);
  /* libpq gives each host (each address) connect_timeout, one after the
   * other. Once the server serves, a connection awaited (the main loop
   * held) is waited for one connect_timeout, past which the try goes on in
   * the background (go_on_in_background ()). One made in the background,
   * or at start, is given as long as libpq takes: giving it up would gain
   * nothing, as no other starts while its thread runs (a lookup that hangs
   * would hang the next try too), and could lose one that connects (a
   * host, or a host name's address, that says nothing before one that
   * answers: however many there are, in the URI, PGHOST or a service
   * file); at start nothing is held yet, and the server needs it. */
  dial = triage_pg_dial_new (keywords, values,
                             done != NULL || at_start ? -1
                                                      : triage_pg_link_connect_timeout (self->link),
                             sql, self->patient ? -1 : TRIAGE_PG_DEFAULT_ANSWER_US);
  triage_pg_link_look_up (self->link, dial);
  for (guint i = 0; i < self->kept->len; i++)
    {
      TriagePgStatement *kept = &g_array_index (self->kept, TriagePgStatement, i);
      g_autofree char *name = g_strdup_printf ("triage_%u", ++self->next_name);

      triage_pg_dial_add_prepared (dial, name, kept->sql, kept->n_params);
    }
  triage_pg_dial_start (dial, done, self);
  return dial;
}

/* @dial connected and its first statements were not answered: the next
 * try starts at the URI's next host. */
static void
pass_over_if_unanswered (TriagePgConnection *self,
                         TriagePgDial       *dial)
{
  g_autofree char *host = NULL, *port = NULL;

  if (triage_pg_dial_get_unanswered (dial, &host, &port))
    triage_pg_link_unanswered (self->link, host, port);
}

/* The connection @dial made becomes this one. */
static void
take_connection (TriagePgConnection *self,
                 TriagePgDial       *dial)
{
  gint64 statement_ms;

  triage_pg_connection_forget (self);
  self->conn = triage_pg_dial_steal (dial, &statement_ms);
  triage_pg_link_learn_hosts (self->link, self->conn);
  triage_pg_link_connected (self->link, PQhost (self->conn), PQport (self->conn),
                            PQhostaddr (self->conn));
  self->answer_us = statement_ms > 0 ? (statement_ms + TRIAGE_PG_ANSWER_GRACE_MS) * 1000
                                     : TRIAGE_PG_DEFAULT_ANSWER_US;
  for (guint i = 0; i < triage_pg_dial_get_n_prepared (dial); i++)
    {
      const char *name, *sql;

      triage_pg_dial_get_prepared (dial, i, &name, &sql);
      g_hash_table_insert (self->prepared, g_strdup (sql), g_strdup (name));
    }
}

static void
attempt_end (TriagePgConnection *self,
             TriagePgDialOutcome outcome)
{
  g_autoptr(GError) error = NULL;
  TriagePgDial *dial = g_steal_pointer (&self->attempt);

  g_clear_handle_id (&self->attempt_timer, g_source_remove);
  if (outcome == TRIAGE_PG_DIAL_MADE)
    take_connection (self, dial);
  else if (triage_pg_dial_get_outcome (dial, &error) == TRIAGE_PG_DIAL_LATE)
    {
      gint64 waited_us;
      const char *what = triage_pg_dial_get_late (dial, &waited_us);

      g_debug ("connecting again in the background: no answer within %.0f s (%s)",
               (double) waited_us / G_USEC_PER_SEC, what);
      pass_over_if_unanswered (self, dial);
    }
  else
    g_debug ("connecting again in the background: %s", error ? error->message : "failed");
  triage_pg_link_let_go (self->link, dial);
  triage_pg_link_attempt_done (self->link, outcome == TRIAGE_PG_DIAL_MADE);
}

static gboolean
on_attempt_done (gpointer data)
{
  TriagePgConnection *self = data;

  attempt_end (self, triage_pg_dial_get_outcome (self->attempt, NULL));
  return G_SOURCE_REMOVE;
}

static void
attempt_watch_deadline (TriagePgConnection *self,
                        gint64              deadline);

/* The wait under way passed its deadline, or a later one replaced it. */
static gboolean
on_attempt_late (gpointer data)
{
  TriagePgConnection *self = data;
  gint64 deadline;
  TriagePgDialOutcome outcome;

  self->attempt_timer = 0;
  outcome = triage_pg_dial_check (self->attempt, &deadline);
  if (outcome == TRIAGE_PG_DIAL_RUNNING)
    attempt_watch_deadline (self, deadline);
  else
    attempt_end (self, outcome);
  return G_SOURCE_REMOVE;
}

static void
attempt_watch_deadline (TriagePgConnection *self,
                        gint64              deadline)
{
  gint64 left = MAX (deadline - g_get_monotonic_time (), 0);

  /* A wait with no deadline is looked at again now and then. */
  self->attempt_timer = g_timeout_add ((guint) MIN (left / 1000 + 1, G_MAXINT32 / 2),
                                       on_attempt_late, self);
}

/* While the database does not answer, a connection is made in the
 * background (taken by the main loop once it is set up), one at a time. */
static void
attempt_in_background (TriagePgConnection *self)
{
  gint64 deadline;

  if (self->attempt != NULL || !triage_pg_link_may_attempt (self->link))
    return;
  triage_pg_link_attempt_started (self->link);
  self->attempt = dial_start (self, on_attempt_done, FALSE);
  triage_pg_dial_check (self->attempt, &deadline);
  attempt_watch_deadline (self, deadline);
}

/* @dial, awaited, was late connecting (one connect_timeout: libpq is still
 * at a silent host or address, or a lookup): it goes on as the link's try
 * in the background, taken once it is made, unless a try is under way. */
static gboolean
go_on_in_background (TriagePgConnection *self,
                     TriagePgDial       *dial)
{
  gint64 deadline;

  if (self->attempt != NULL || !triage_pg_link_may_attempt (self->link) ||
      !triage_pg_dial_go_on (dial, on_attempt_done, self))
    return FALSE;
  g_debug ("the new connection goes on in the background");
  triage_pg_link_attempt_started (self->link);
  self->attempt = dial;
  triage_pg_dial_check (self->attempt, &deadline);
  attempt_watch_deadline (self, deadline);
  return TRUE;
}

/* Makes a new connection, waiting for it (@at_start: for every host and
 * address libpq tries; else for one connect_timeout at most). */
gboolean
triage_pg_connection_connect (TriagePgConnection *self,
                              gboolean            at_start,
                              GError            **error)
{
  g_autoptr(GError) failure = NULL;
  TriagePgDial *dial;
  TriagePgDialOutcome outcome;
  gboolean made;

  triage_pg_connection_forget (self);
  if (triage_pg_link_is_down (self->link))
    {
      attempt_in_background (self);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                   "the PostgreSQL database does not answer (connecting again)");
      return FALSE;
    }
  dial = dial_start (self, NULL, at_start);
  outcome = triage_pg_dial_wait (dial);
  made = outcome == TRIAGE_PG_DIAL_MADE;
  if (made)
    take_connection (self, dial);
  else if (outcome == TRIAGE_PG_DIAL_LATE)
    {
      gint64 waited_us;
      const char *what = triage_pg_dial_get_late (dial, &waited_us);

      triage_pg_connection_set_stalled (self, what, waited_us, error);
      g_prefix_error (error, "cannot connect to the PostgreSQL database: ");
      pass_over_if_unanswered (self, dial);
      if (!at_start && go_on_in_background (self, dial))
        return FALSE;
    }
  else if (triage_pg_dial_get_outcome (dial, &failure) == TRIAGE_PG_DIAL_REFUSED)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED,
                   "cannot connect to the PostgreSQL database: %s", failure->message);
      self->retry_at = g_get_monotonic_time () + RECONNECT_INTERVAL_US;
    }
  else
    {
      /* Its setup failed: a session ended is made again at once. */
      if (g_error_matches (failure, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED))
        self->retry_at = 0;
      g_propagate_error (error, g_steal_pointer (&failure));
    }
  triage_pg_link_let_go (self->link, dial);
  return made;
}
