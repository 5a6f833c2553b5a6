/* triage-pg-listener.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Several servers on one database: the event log is the truth and NOTIFY the
 * wake-up. Every batch that wrote events sends a NOTIFY once committed; this
 * connection LISTENs, its socket watched by the GLib main loop, and on each
 * wake-up reads the events after the last one it handed on, in id order,
 * from every server. A lost connection is made again with a growing pause,
 * and the first read after it catches up on whatever was committed
 * meanwhile: a NOTIFY may be lost, an event never is.
 *
 * Batches write their events under the event-log lock taken shared, so
 * batches of several servers commit together (triage-pg-writer.c): a batch
 * with smaller ids may commit after one with larger ids. A read of the log
 * hands on the events after the last one only as far as their ids follow
 * each other: an id missing is a batch still committing (its NOTIFY brings
 * the next read) or one that never will (rolled back). A gap that stays
 * GAP_WAIT_MS is settled by a read under the lock taken exclusive
 * (triage_pg_log_read ()), which reads once every batch that had taken ids
 * has committed, and before any takes more: then a missing id is gone for
 * good. So readers seldom hold writers up. Reads go out in one round trip
 * and their answers are taken when the socket is readable: no wait holds the
 * main loop.
 */

#define G_LOG_DOMAIN "triage-store-postgres"

#include <glib-unix.h>

#include "triage-pg-listener.h"
#include "triage-pg-schema.h"

#define FETCH_LIMIT       500
#define RETRY_FIRST_MS    100
#define RETRY_MAX_MS      5000
#define FETCH_RETRY_MS    1000
#define GAP_WAIT_MS       50

/* An event with no data of its own is a new notification's: its JSON is the
 * notification's, committed with it (schema version 4, triage-pg-writer.c),
 * looked up by its id for that event alone. The statement is prepared once
 * and its plan kept: one made while the tables were small (a server started
 * on a new database) scanned both whole, and every read grew with them (7 ms
 * a read, 0.8 ms of the database's CPU per notification, after a few
 * thousand); planning it for each read cost more than running it. Without
 * sequential scans on this connection (it runs nothing else), any plan reads
 * the new events through the key, however small the tables were. */
#define FETCH_SQL \
  "SELECT e.id, e.user_id, e.type," \
  " COALESCE (e.data, (SELECT n.json FROM notifications n WHERE n.id = e.notification_id))," \
  " e.notification_id, e.created_at, e.protocol FROM events e" \
  " WHERE e.id > $1::bigint ORDER BY e.id LIMIT " G_STRINGIFY (FETCH_LIMIT)

/* A read of the log under its lock: BEGIN, the lock, the read, COMMIT. */
#define LOG_READ_STEPS 4

struct _TriagePgListener
{
  TriagePgConnection *conn;
  TriagePgEventFunc   func;
  gpointer            data;
  gint64              last_id;     /* events handed on up to this id */
  guint               watch;       /* the socket */
  int                 watched_fd;
  guint               retry;       /* a new connection after a loss */
  guint               retry_ms;
  guint               fetch;       /* a read of new events, soon */
  gboolean            fetching;    /* a read is out, its answer awaited */
  gboolean            again;       /* woken while it was: read once more */
  gboolean            locked;      /* the read out is under the lock */
  gboolean            want_lock;   /* the next one is */
  guint               gap;         /* a read under the lock, if an id stays missing */
  TriagePgStatement   read[LOG_READ_STEPS];
  TriagePgNumber      key, after;
  TriagePgParam       lock_params[1], after_params[1];
};

/* @sql (with @params) as the read of the log in @steps, under its lock. */
static void
log_read_steps (TriagePgStatement   *steps,
                TriagePgNumber      *key,
                TriagePgParam       *lock_params,
                const char          *sql,
                int                  n_params,
                const TriagePgParam *params)
{
  lock_params[0] = triage_pg_number (key, TRIAGE_PG_EVENT_LOCK);
  steps[0] = (TriagePgStatement) { "BEGIN", 0, NULL, NULL };
  steps[1] = (TriagePgStatement) { "SELECT pg_advisory_xact_lock ($1::bigint)", 1, lock_params,
                                   NULL };
  steps[2] = (TriagePgStatement) { sql, n_params, params, NULL };
  steps[3] = (TriagePgStatement) { "COMMIT", 0, NULL, NULL };
}

static void
log_read_clear (TriagePgStatement *steps)
{
  for (guint i = 0; i < LOG_READ_STEPS; i++)
    g_clear_pointer (&steps[i].result, PQclear);
}

/* Runs @sql, a read of the event log, on @conn (with no transaction open)
 * once no batch of any server is between taking event ids and committing
 * them, and before any takes more: it sees every event up to the largest id
 * it sees. Returns its result, or NULL (@error set). */
PGresult *
triage_pg_log_read (TriagePgConnection  *conn,
                    const char          *sql,
                    int                  n_params,
                    const TriagePgParam *params,
                    GError             **error)
{
  TriagePgStatement steps[LOG_READ_STEPS];
  TriagePgNumber key;
  TriagePgParam lock_params[1];
  PGresult *result = NULL;

  log_read_steps (steps, &key, lock_params, sql, n_params, params);
  if (triage_pg_pipeline (conn, steps, LOG_READ_STEPS, error))
    result = g_steal_pointer (&steps[2].result);
  log_read_clear (steps);
  return result;
}

static void fetch_events (TriagePgListener *self);

static gboolean
on_fetch (gpointer data)
{
  TriagePgListener *self = data;

  self->fetch = 0;
  fetch_events (self);
  return G_SOURCE_REMOVE;
}

/* Takes the wake-ups libpq has read; TRUE if there was one. */
static gboolean
drain_notifies (TriagePgListener *self)
{
  PGconn *conn = triage_pg_connection_get (self->conn);
  PGnotify *notify;
  gboolean any = FALSE;

  while (conn != NULL && (notify = PQnotifies (conn)) != NULL)
    {
      any = TRUE;
      PQfreemem (notify);
    }
  return any;
}

static gboolean on_readable (int fd, GIOCondition condition, gpointer data);
static void connection_lost (TriagePgListener *self);

static void
watch_socket (TriagePgListener *self)
{
  PGconn *conn = triage_pg_connection_get (self->conn);

  g_clear_handle_id (&self->watch, g_source_remove);
  self->watched_fd = PQsocket (conn);
  self->watch = g_unix_fd_add (self->watched_fd, G_IO_IN | G_IO_ERR | G_IO_HUP, on_readable, self);
}

static gboolean
on_retry (gpointer data)
{
  TriagePgListener *self = data;
  g_autoptr(GError) error = NULL;

  self->retry = 0;
  if (!triage_pg_connection_ensure (self->conn, &error))
    {
      g_debug ("listening again: %s", error->message);
      connection_lost (self);
      return G_SOURCE_REMOVE;
    }
  g_message ("listening for the events of the other servers again");
  self->retry_ms = 0;
  watch_socket (self);
  /* Whatever was committed while nobody listened. */
  fetch_events (self);
  return G_SOURCE_REMOVE;
}

static void
connection_lost (TriagePgListener *self)
{
  if (self->retry != 0)
    return;
  if (self->retry_ms == 0)
    g_message ("the connection listening for events was lost; streams here hear nothing new "
               "until it is back");
  g_clear_handle_id (&self->watch, g_source_remove);
  g_clear_handle_id (&self->fetch, g_source_remove);
  g_clear_handle_id (&self->gap, g_source_remove);
  self->fetching = FALSE;
  log_read_clear (self->read);
  triage_pg_connection_drop (self->conn);
  self->retry_ms = self->retry_ms == 0 ? RETRY_FIRST_MS : MIN (2 * self->retry_ms, RETRY_MAX_MS);
  self->retry = g_timeout_add (self->retry_ms, on_retry, self);
}

static void fetch_answered (TriagePgListener *self);

static gboolean
on_readable (int          fd,
             GIOCondition condition,
             gpointer     data)
{
  TriagePgListener *self = data;
  PGconn *conn = triage_pg_connection_get (self->conn);

  if (self->fetching)
    {
      fetch_answered (self);
      /* A lost connection removed this source. */
      return self->watch != 0 ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
    }
  if (!PQconsumeInput (conn) || PQstatus (conn) != CONNECTION_OK)
    {
      self->watch = 0;
      connection_lost (self);
      return G_SOURCE_REMOVE;
    }
  if (drain_notifies (self))
    fetch_events (self);
  return G_SOURCE_CONTINUE;
}

/* The read failed: a lost connection is made again, anything else is tried
 * again in a moment. */
static void
fetch_failed (TriagePgListener *self,
              const GError     *error)
{
  self->fetching = FALSE;
  log_read_clear (self->read);
  if (triage_pg_connection_is_bad (self->conn))
    {
      connection_lost (self);
      return;
    }
  g_warning ("cannot read the event log: %s", error->message);
  if (self->fetch == 0)
    self->fetch = g_timeout_add (FETCH_RETRY_MS, on_fetch, self);
}

/* The statements of the read out: the read alone, or BEGIN, the lock, the
 * read, COMMIT. */
static guint
read_steps (TriagePgListener *self)
{
  return self->locked ? LOG_READ_STEPS : 1;
}

/* Sends the read of the events after the last one handed on; its answer is
 * taken when the socket is readable (fetch_answered ()). */
static void
fetch_events (TriagePgListener *self)
{
  g_autoptr(GError) error = NULL;

  if (self->retry != 0)
    return;
  if (self->fetching)
    {
      self->again = TRUE;
      return;
    }
  self->again = FALSE;
  self->locked = self->want_lock;
  self->want_lock = FALSE;
  self->after_params[0] = triage_pg_number (&self->after, self->last_id);
  if (self->locked)
    log_read_steps (self->read, &self->key, self->lock_params, FETCH_SQL, 1, self->after_params);
  else
    self->read[0] = (TriagePgStatement) { FETCH_SQL, 1, self->after_params, NULL };
  if (!triage_pg_pipeline_send (self->conn, self->read, read_steps (self), &error))
    {
      fetch_failed (self, error);
      return;
    }
  self->fetching = TRUE;
  /* libpq may have made the connection again to send it. */
  if (PQsocket (triage_pg_connection_get (self->conn)) != self->watched_fd)
    {
      watch_socket (self);
      self->again = TRUE;
    }
}

/* Hands on the events the read found, in id order; reads again when it
 * found a full page, or a wake-up came meanwhile (for a commit after its
 * snapshot, maybe: that event would wait for the next wake-up, which may
 * never come). */
static gboolean
on_gap (gpointer data)
{
  TriagePgListener *self = data;

  self->gap = 0;
  self->want_lock = TRUE;
  fetch_events (self);
  return G_SOURCE_REMOVE;
}

static void
fetch_answered (TriagePgListener *self)
{
  g_autoptr(GError) error = NULL;
  gboolean gap = FALSE;
  TriagePgPoll poll;
  PGresult *result;
  guint count;

  poll = triage_pg_pipeline_poll (self->conn, self->read, read_steps (self), FALSE, &error);
  if (poll == TRIAGE_PG_POLL_PENDING)
    return;
  if (poll == TRIAGE_PG_POLL_FAILED)
    {
      fetch_failed (self, error);
      return;
    }
  self->fetching = FALSE;
  result = self->read[self->locked ? 2 : 0].result;
  count = result != NULL ? (guint) PQntuples (result) : 0;
  for (guint i = 0; i < count; i++)
    {
      TriageEventRow event = {
        .id = triage_pg_int (result, (int) i, 0),
        .user = PQgetvalue (result, (int) i, 1),
        .type = PQgetvalue (result, (int) i, 2),
        .data = PQgetvalue (result, (int) i, 3),
        .notification_id = PQgetisnull (result, (int) i, 4) ? NULL
                                                            : PQgetvalue (result, (int) i, 4),
        .created_at = triage_pg_int (result, (int) i, 5),
        .protocol = (int) triage_pg_int (result, (int) i, 6),
      };

      /* Past a missing id only under the lock. */
      if (!self->locked && event.id != self->last_id + 1)
        {
          gap = TRUE;
          break;
        }
      self->last_id = event.id;
      self->func (&event, self->data);
    }
  log_read_clear (self->read);
  if (!gap)
    g_clear_handle_id (&self->gap, g_source_remove);
  else if (self->gap == 0)
    self->gap = g_timeout_add (GAP_WAIT_MS, on_gap, self);
  if (drain_notifies (self) || self->again || self->want_lock || (count == FETCH_LIMIT && !gap))
    fetch_events (self);
}

TriagePgListener *
triage_pg_listener_new (const char        *uri,
                        const char        *password,
                        TriagePgEventFunc  func,
                        gpointer           data,
                        GError           **error)
{
  g_autoptr(PGresult) last = NULL;
  TriagePgListener *self = g_new0 (TriagePgListener, 1);

  self->func = func;
  self->data = data;
  self->conn = triage_pg_connection_new (uri, password, "triage-server events",
                                         "SET lock_timeout = '5s'; SET enable_seqscan = off;"
                                         " LISTEN " TRIAGE_PG_EVENT_CHANNEL, error);
  /* Listening before the newest id is read: nothing falls in between. */
  if (self->conn == NULL ||
      (last = triage_pg_log_read (self->conn, "SELECT COALESCE (MAX (id), 0) FROM events", 0,
                                  NULL, error)) == NULL)
    {
      triage_pg_listener_free (self);
      return NULL;
    }
  self->last_id = triage_pg_int (last, 0, 0);
  watch_socket (self);
  return self;
}

void
triage_pg_listener_free (TriagePgListener *self)
{
  if (self == NULL)
    return;
  g_clear_handle_id (&self->watch, g_source_remove);
  g_clear_handle_id (&self->retry, g_source_remove);
  g_clear_handle_id (&self->fetch, g_source_remove);
  g_clear_handle_id (&self->gap, g_source_remove);
  log_read_clear (self->read);
  g_clear_pointer (&self->conn, triage_pg_connection_free);
  g_free (self);
}
