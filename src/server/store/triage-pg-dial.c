/* triage-pg-dial.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A new connection of the PostgreSQL backend is made by a thread of its own:
 * libpq looks host names up with a blocking getaddrinfo (), and a new
 * connection's first statements (its session settings, the statements kept
 * prepared) are answered only if the database answers. Neither may hold
 * the main loop: a partition that cuts DNS holds a lookup for the
 * resolver's timeout, and a database that takes connections but answers no
 * query holds the statements to their deadline.
 *
 * The thread runs libpq as it is (the URI, its service file, PG*
 * variables, TLS and its host name checks untouched) and connects with
 * libpq's own blocking PQconnectdbParams (): it gives each host of a
 * multi-host URI (each address of it) connect_timeout of its own and
 * passes on to the next when one refuses, does not resolve, or accepts and
 * then says nothing; the thread is there so that it may block. The host
 * names the URI lists are looked up first, here, and handed to libpq as
 * addresses (hostaddr, the name kept for TLS and the password file), so
 * that the address connected to last is tried first (a name with a silent
 * IPv6 address and a working IPv4 one: dial_look_up ()). It then
 * waits for each statement's answer with the deadline the main loop would
 * have used. The main loop is told once it is done (a background attempt,
 * triage-pg-connect.c: libpq's timeouts bound its connection, a lookup
 * that hangs holds it), or waits for it (a connection needed now, as a
 * store call waits for any statement) with the same deadlines: for the
 * connection, one connect_timeout (past it, a try libpq is still
 * connecting may go on in the background: triage_pg_dial_go_on ()). A try
 * given up (past them: a lookup libpq cannot be woken from) goes on in its
 * thread until libpq gives the connection back, which it then closes
 * without setting it up;
 * nothing else touches it, and while it runs no new try starts
 * (triage_pg_dial_is_running (), triage-pg-link.c), so a lookup that hangs
 * leaves one thread, not one a try.
 */

#define G_LOG_DOMAIN "triage-store-postgres"

#include <string.h>

#include "triage-pg-dial.h"

#include "triage-pg-addresses.h"
#include "triage-pg-connection-private.h"

/* A wait with no deadline (a migration's) is still woken this often. */
#define WAIT_SLICE_US (60 * G_USEC_PER_SEC)

/* What a wait for an answer is for (triage_pg_dial_get_late ()). */
static const char STATEMENT_WAIT[] = "a statement";

typedef struct
{
  char *name;
  char *sql;
  int   n_params;
} Prepared;

struct _TriagePgDial
{
  gint                ref_count;
  GMutex              lock;
  GCond               cond;

  /* Set before the thread starts; the thread reads them. */
  char              **keywords;
  char              **values;       /* the password among them: zeroed when freed */
  gint64              connect_us;   /* the connection's wait; -1: as long as libpq takes */
  char              **look_up;      /* the host names to look up here (NULL: none) */
  char              **look_up_ports; /* their ports (NULL, one for all, or one each) */
  char               *last_host;    /* the host and address connected to last: tried first */
  char               *last_address;
  TriagePgAddresses  *addresses;    /* the names looked up (NULL: none) */
  char               *setup_sql;
  GArray             *prepared;     /* Prepared */
  gint64              answer_us;    /* the wait for each statement's answer; -1: none */

  /* The main loop's. */
  GMainContext       *context;
  GSourceFunc         done;         /* NULL once abandoned */
  gpointer            done_data;

  /* Under the lock. */
  TriagePgDialOutcome outcome;
  gint64              deadline;     /* of the wait under way */
  const char         *late;         /* what that wait is for */
  gint64              wait_us;
  gboolean            abandoned;
  gboolean            finished;     /* the thread is done with libpq */
  gboolean            dropped;      /* the thread closes what it made, given up */
  gboolean            looking_up;   /* in dial_look_up () */
  PGconn             *conn;         /* made and set up, until stolen */
  char               *host;         /* PQhost () and PQport () once connected */
  char               *port;
  GError             *error;
  gint64              statement_ms;
};

static void
prepared_clear (gpointer data)
{
  Prepared *prepared = data;

  g_free (prepared->name);
  g_free (prepared->sql);
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

/* A dial that connects with libpq's @keywords and @values (taken; their
 * connect_timeout is each host's and each address's), gives the
 * connection @connect_us (-1: as long as libpq takes), then runs
 * @setup_sql, whose last statement reads the statement_timeout in force,
 * and prepares the statements added, waiting @answer_us for each answer
 * (-1: as long as it takes). */
TriagePgDial *
triage_pg_dial_new (char      **keywords,
                    char      **values,
                    gint64      connect_us,
                    const char *setup_sql,
                    gint64      answer_us)
{
  TriagePgDial *self = g_new0 (TriagePgDial, 1);

  self->ref_count = 1;
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->keywords = keywords;
  self->values = values;
  self->connect_us = connect_us;
  self->setup_sql = g_strdup (setup_sql);
  self->answer_us = answer_us;
  self->prepared = g_array_new (FALSE, FALSE, sizeof (Prepared));
  g_array_set_clear_func (self->prepared, prepared_clear);
  return self;
}

static TriagePgDial *
dial_ref (TriagePgDial *self)
{
  g_atomic_int_inc (&self->ref_count);
  return self;
}

static void
dial_unref (gpointer data)
{
  TriagePgDial *self = data;

  if (!g_atomic_int_dec_and_test (&self->ref_count))
    return;
  for (guint i = 0; self->values != NULL && self->values[i] != NULL; i++)
    memset (self->values[i], 0, strlen (self->values[i]));
  g_strfreev (self->keywords);
  g_strfreev (self->values);
  g_free (self->setup_sql);
  g_strfreev (self->look_up);
  g_strfreev (self->look_up_ports);
  g_free (self->last_host);
  g_free (self->last_address);
  g_clear_pointer (&self->addresses, triage_pg_addresses_free);
  g_array_unref (self->prepared);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_pointer (&self->conn, PQfinish);
  g_clear_error (&self->error);
  g_free (self->host);
  g_free (self->port);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  g_free (self);
}

/* @sql (@n_params) is to be prepared as @name on the new connection. */
void
triage_pg_dial_add_prepared (TriagePgDial *self,
                             const char   *name,
                             const char   *sql,
                             int           n_params)
{
  Prepared prepared = { g_strdup (name), g_strdup (sql), n_params };

  g_array_append_val (self->prepared, prepared);
}

guint
triage_pg_dial_get_n_prepared (TriagePgDial *self)
{
  return self->prepared->len;
}

void
triage_pg_dial_get_prepared (TriagePgDial *self,
                             guint         i,
                             const char  **name,
                             const char  **sql)
{
  Prepared *prepared = &g_array_index (self->prepared, Prepared, i);

  *name = prepared->name;
  *sql = prepared->sql;
}

/* The host names @hosts (with @ports: NULL, one for all, or one each) are
 * to be looked up by the thread, and libpq given their addresses, the
 * address @last_address of @last_host (if any) first. */
void
triage_pg_dial_look_up (TriagePgDial       *self,
                        const char * const *hosts,
                        const char * const *ports,
                        const char         *last_host,
                        const char         *last_address)
{
  self->look_up = g_strdupv ((char **) hosts);
  self->look_up_ports = g_strdupv ((char **) ports);
  self->last_host = g_strdup (last_host);
  self->last_address = g_strdup (last_address);
}

/* The thread's: the wait under way. */
static void
set_wait (TriagePgDial *self,
          gint64        deadline,
          const char   *what,
          gint64        wait_us)
{
  g_mutex_lock (&self->lock);
  self->deadline = deadline;
  self->late = what;
  self->wait_us = wait_us;
  g_mutex_unlock (&self->lock);
}

/* @key = @value after the parameters so far: it overrides them. */
static void
dial_add_param (TriagePgDial *self,
                const char   *key,
                char         *value)
{
  guint n = g_strv_length (self->keywords);

  self->keywords = g_renew (char *, self->keywords, n + 2);
  self->values = g_renew (char *, self->values, n + 2);
  self->keywords[n] = g_strdup (key);
  self->values[n] = value;
  self->keywords[n + 1] = NULL;
  self->values[n + 1] = NULL;
}

/* The host names to look up are, each of its addresses an entry of
 * libpq's host, hostaddr and port lists (triage-pg-addresses.c): libpq
 * then tries each address with connect_timeout, as it would have, the one
 * that answered last first. */
static void
dial_look_up (TriagePgDial *self)
{
  TriagePgAddresses *addresses;
  char *ports;

  if (self->look_up == NULL)
    return;
  g_mutex_lock (&self->lock);
  self->looking_up = TRUE;
  g_mutex_unlock (&self->lock);
  addresses = triage_pg_addresses_look_up ((const char * const *) self->look_up,
                                           (const char * const *) self->look_up_ports,
                                           self->last_host, self->last_address);
  g_mutex_lock (&self->lock);
  self->looking_up = FALSE;
  g_mutex_unlock (&self->lock);
  if (addresses == NULL)
    return;
  self->addresses = addresses;
  dial_add_param (self, "host", triage_pg_addresses_dup_hosts (addresses));
  dial_add_param (self, "hostaddr", triage_pg_addresses_dup_hostaddrs (addresses));
  if ((ports = triage_pg_addresses_dup_ports (addresses)) != NULL)
    dial_add_param (self, "port", ports);
}

/* libpq's blocking connect: each host (each of its addresses) in turn,
 * each given connect_timeout. */
static TriagePgDialOutcome
dial_connect (TriagePgDial *self,
              PGconn      **conn,
              GError      **error)
{
  g_autofree char *message = NULL;

  *conn = PQconnectdbParams ((const char * const *) self->keywords,
                             (const char * const *) self->values, 1);
  if (*conn == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED, "out of memory");
      return TRIAGE_PG_DIAL_REFUSED;
    }
  if (PQstatus (*conn) == CONNECTION_OK)
    {
      g_mutex_lock (&self->lock);
      self->host = g_strdup (PQhost (*conn));
      self->port = g_strdup (PQport (*conn));
      g_mutex_unlock (&self->lock);
      return TRIAGE_PG_DIAL_MADE;
    }
  message = triage_pg_message_of (PQerrorMessage (*conn));
  if (self->addresses != NULL)
    {
      char *named = triage_pg_addresses_name (self->addresses, message);

      g_free (message);
      message = named;
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED, "%s", message);
  return TRIAGE_PG_DIAL_REFUSED;
}

/* Whether the main loop gave up on the dial (abandoned it, or found it
 * late): what it made is of no use. */
static gboolean
dial_given_up (TriagePgDial *self)
{
  gboolean given_up;

  g_mutex_lock (&self->lock);
  given_up = self->abandoned || self->outcome != TRIAGE_PG_DIAL_RUNNING;
  self->dropped = given_up;
  g_mutex_unlock (&self->lock);
  return given_up;
}

static gboolean
result_ok (const PGresult *result)
{
  ExecStatusType status = PQresultStatus (result);

  return status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK;
}

/* The last result of what was just sent (@sent: whether it was) in
 * @last, its answer awaited within @answer_us. */
static TriagePgDialOutcome
dial_exec (TriagePgDial *self,
           PGconn       *conn,
           gboolean      sent,
           PGresult    **last,
           GError      **error)
{
  gint64 deadline = self->answer_us < 0 ? G_MAXINT64 : g_get_monotonic_time () + self->answer_us;
  PGresult *result;

  g_clear_pointer (last, PQclear);
  set_wait (self, deadline, STATEMENT_WAIT, self->answer_us);
  while (sent)
    {
      for (;;)
        {
          int flushed = PQflush (conn);

          if (flushed < 0 || (flushed == 0 && !PQisBusy (conn)))
            break;
          if (!triage_pg_wait_socket (PQsocket (conn), TRUE, flushed > 0, deadline))
            return TRIAGE_PG_DIAL_LATE;
          if (!PQconsumeInput (conn))
            break;
        }
      if ((result = PQgetResult (conn)) == NULL)
        break;
      g_clear_pointer (last, PQclear);
      *last = result;
      if (PQstatus (conn) == CONNECTION_BAD)
        break;
    }
  if (!result_ok (*last))
    {
      triage_pg_result_error (conn, PQstatus (conn) != CONNECTION_OK, *last, error);
      return TRIAGE_PG_DIAL_FAILED;
    }
  return TRIAGE_PG_DIAL_MADE;
}

/* The session's settings, then the statements kept prepared. */
static TriagePgDialOutcome
dial_setup (TriagePgDial *self,
            PGconn       *conn,
            gint64       *statement_ms,
            GError      **error)
{
  g_autoptr(PGresult) result = NULL;
  TriagePgDialOutcome outcome;

  PQsetNoticeProcessor (conn, on_notice, NULL);
  if (PQsetnonblocking (conn, 1) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
                   "the PostgreSQL connection failed as it was set up");
      return TRIAGE_PG_DIAL_FAILED;
    }
  outcome = dial_exec (self, conn, PQsendQuery (conn, self->setup_sql), &result, error);
  if (outcome != TRIAGE_PG_DIAL_MADE)
    return outcome;
  *statement_ms = PQntuples (result) == 1 ? triage_pg_int (result, 0, 0) : 0;
  if (*statement_ms > 0 && self->answer_us >= 0)
    self->answer_us = (*statement_ms + TRIAGE_PG_ANSWER_GRACE_MS) * 1000;
  for (guint i = 0; i < self->prepared->len; i++)
    {
      Prepared *prepared = &g_array_index (self->prepared, Prepared, i);

      outcome = dial_exec (self, conn, PQsendPrepare (conn, prepared->name, prepared->sql,
                                                      prepared->n_params, NULL),
                           &result, error);
      if (outcome != TRIAGE_PG_DIAL_MADE)
        return outcome;
    }
  return TRIAGE_PG_DIAL_MADE;
}

static gboolean
on_done (gpointer data)
{
  TriagePgDial *self = data;

  if (self->done != NULL)
    self->done (self->done_data);
  return G_SOURCE_REMOVE;
}

static gpointer
dial_thread (gpointer data)
{
  TriagePgDial *self = data;
  g_autoptr(GError) error = NULL;
  PGconn *conn = NULL;
  gint64 statement_ms = 0;
  TriagePgDialOutcome outcome;
  gboolean notify = FALSE;

  dial_look_up (self);
  outcome = dial_connect (self, &conn, &error);
  /* A connection given up on while it was made (its lookup hung past the
   * deadline) is closed, not set up. */
  if (outcome == TRIAGE_PG_DIAL_MADE)
    outcome = dial_given_up (self) ? TRIAGE_PG_DIAL_LATE
                                   : dial_setup (self, conn, &statement_ms, &error);
  g_mutex_lock (&self->lock);
  /* Unless the main loop gave up on it meanwhile (a lookup past the
   * deadline). */
  if (self->outcome == TRIAGE_PG_DIAL_RUNNING && !self->abandoned)
    {
      self->outcome = outcome;
      self->error = g_steal_pointer (&error);
      self->statement_ms = statement_ms;
      if (outcome == TRIAGE_PG_DIAL_MADE)
        self->conn = g_steal_pointer (&conn);
      notify = self->context != NULL;
    }
  else
    self->dropped = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  g_clear_pointer (&conn, PQfinish);
  g_mutex_lock (&self->lock);
  self->finished = TRUE;
  g_mutex_unlock (&self->lock);
  if (notify)
    g_main_context_invoke_full (self->context, G_PRIORITY_DEFAULT, on_done, dial_ref (self),
                                dial_unref);
  dial_unref (self);
  return NULL;
}

/* Starts the thread; @done (if any) is called from the main loop once it
 * is done, unless the dial was abandoned first. */
void
triage_pg_dial_start (TriagePgDial *self,
                      GSourceFunc   done,
                      gpointer      data)
{
  g_autoptr(GError) error = NULL;
  GThread *thread;

  self->done = done;
  self->done_data = data;
  if (done != NULL)
    self->context = g_main_context_ref_thread_default ();
  self->wait_us = self->connect_us;
  self->deadline = self->wait_us < 0 ? G_MAXINT64 : g_get_monotonic_time () + self->wait_us;
  self->late = "a new connection";
  thread = g_thread_try_new ("triage-pg-dial", dial_thread, dial_ref (self), &error);
  if (thread == NULL)
    {
      dial_unref (self);
      self->outcome = TRIAGE_PG_DIAL_REFUSED;
      self->finished = TRUE;
      g_set_error (&self->error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED,
                   "cannot start a thread to connect: %s", error->message);
      if (done != NULL)
        g_main_context_invoke_full (self->context, G_PRIORITY_DEFAULT, on_done, dial_ref (self),
                                    dial_unref);
      return;
    }
  g_thread_unref (thread);
}

/* Locked: the outcome, LATE once the wait under way passed its deadline
 * (a lookup libpq cannot be woken from). */
static TriagePgDialOutcome
check_locked (TriagePgDial *self)
{
  if (self->outcome == TRIAGE_PG_DIAL_RUNNING && g_get_monotonic_time () >= self->deadline)
    self->outcome = TRIAGE_PG_DIAL_LATE;
  return self->outcome;
}

/* The outcome so far, and the deadline of the wait under way. */
TriagePgDialOutcome
triage_pg_dial_check (TriagePgDial *self,
                      gint64       *deadline)
{
  TriagePgDialOutcome outcome;

  g_mutex_lock (&self->lock);
  outcome = check_locked (self);
  *deadline = self->deadline;
  g_mutex_unlock (&self->lock);
  return outcome;
}

/* Waits until it is done, or a wait of it passed its deadline. */
TriagePgDialOutcome
triage_pg_dial_wait (TriagePgDial *self)
{
  TriagePgDialOutcome outcome;

  g_mutex_lock (&self->lock);
  while ((outcome = check_locked (self)) == TRIAGE_PG_DIAL_RUNNING)
    g_cond_wait_until (&self->cond, &self->lock,
                       MIN (self->deadline, g_get_monotonic_time () + WAIT_SLICE_US));
  g_mutex_unlock (&self->lock);
  return outcome;
}

/* A dial found late while libpq connected (at a silent host or address;
 * not in the lookup of the URI's names, which may hang for long, nor in its
 * first statements) goes on as one made in the background, with no
 * deadline for the connection: @done is called from the main loop once it
 * is done. FALSE if it cannot (late for something else, or its thread is
 * closing what it made). */
gboolean
triage_pg_dial_go_on (TriagePgDial *self,
                      GSourceFunc   done,
                      gpointer      data)
{
  gboolean going_on;

  g_mutex_lock (&self->lock);
  going_on = self->outcome == TRIAGE_PG_DIAL_LATE && self->late != STATEMENT_WAIT &&
             !self->looking_up && !self->dropped && !self->finished && !self->abandoned;
  if (going_on)
    {
      self->outcome = TRIAGE_PG_DIAL_RUNNING;
      self->connect_us = -1;
      self->deadline = G_MAXINT64;
      self->wait_us = -1;
      self->done = done;
      self->done_data = data;
      if (self->context == NULL)
        self->context = g_main_context_ref_thread_default ();
    }
  g_mutex_unlock (&self->lock);
  return going_on;
}

/* The outcome, and the error it came with (none if made or late). */
TriagePgDialOutcome
triage_pg_dial_get_outcome (TriagePgDial *self,
                            GError      **error)
{
  TriagePgDialOutcome outcome;

  g_mutex_lock (&self->lock);
  outcome = self->outcome;
  if (self->error != NULL && outcome != TRIAGE_PG_DIAL_LATE)
    g_propagate_error (error, g_error_copy (self->error));
  g_mutex_unlock (&self->lock);
  return outcome;
}

/* What was awaited when it was late, and for how long. */
const char *
triage_pg_dial_get_late (TriagePgDial *self,
                         gint64       *waited_us)
{
  const char *late;

  g_mutex_lock (&self->lock);
  late = self->late;
  *waited_us = self->wait_us;
  g_mutex_unlock (&self->lock);
  return late;
}

/* The connection made and set up (non-blocking), and the statement_timeout
 * it read (0: none). */
PGconn *
triage_pg_dial_steal (TriagePgDial *self,
                      gint64       *statement_ms)
{
  PGconn *conn;

  g_mutex_lock (&self->lock);
  conn = g_steal_pointer (&self->conn);
  *statement_ms = self->statement_ms;
  g_mutex_unlock (&self->lock);
  return conn;
}

/* Whether it connected and then was late for the answer to one of its
 * first statements: the host (PQhost ()) and port it connected to in @host
 * and @port (NULL if not; free them). */
gboolean
triage_pg_dial_get_unanswered (TriagePgDial *self,
                               char        **host,
                               char        **port)
{
  gboolean unanswered;

  g_mutex_lock (&self->lock);
  unanswered = self->outcome == TRIAGE_PG_DIAL_LATE && self->late == STATEMENT_WAIT &&
               self->host != NULL;
  *host = unanswered ? g_strdup (self->host) : NULL;
  *port = unanswered ? g_strdup (self->port) : NULL;
  g_mutex_unlock (&self->lock);
  return unanswered;
}

/* Whether its thread still runs libpq (a lookup, a connection, its close):
 * TRUE until it is done with it, abandoned or not. */
gboolean
triage_pg_dial_is_running (TriagePgDial *self)
{
  gboolean running;

  g_mutex_lock (&self->lock);
  running = !self->finished;
  g_mutex_unlock (&self->lock);
  return running;
}

TriagePgDial *
triage_pg_dial_ref (TriagePgDial *self)
{
  return dial_ref (self);
}

void
triage_pg_dial_unref (TriagePgDial *self)
{
  dial_unref (self);
}

/* The owner lets go (done or not): its callback is not called; a
 * connection not stolen is closed, by the thread if it is still running. */
void
triage_pg_dial_abandon (TriagePgDial *self)
{
  PGconn *conn;

  if (self == NULL)
    return;
  self->done = NULL;
  g_mutex_lock (&self->lock);
  self->abandoned = TRUE;
  conn = g_steal_pointer (&self->conn);
  g_mutex_unlock (&self->lock);
  g_clear_pointer (&conn, PQfinish);
  dial_unref (self);
}
