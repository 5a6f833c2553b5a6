/* triage-pg-listener.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Several servers on one database: the event log is the truth and NOTIFY the
 * wake-up. Every batch that wrote events sends a NOTIFY as it commits (event
 * ids increase in commit order: see insert_events in triage-store-postgres.c);
 * this connection LISTENs, its socket watched by the GLib main loop, and on
 * each wake-up reads the events after the last one it handed on, in id
 * order, from every server. A lost connection is made again with a growing
 * pause, and the first read after it catches up on whatever was committed
 * meanwhile: a NOTIFY may be lost, an event never is.
 *
 * The connection commits asynchronously (synchronous_commit off), which
 * suits the rate limits (triage_pg_listener_query()): shared, approximate
 * state that need not survive a crash.
 */

#define G_LOG_DOMAIN "triage-store-postgres"

#include <glib-unix.h>

#include "triage-pg-listener.h"
#include "triage-pg-schema.h"

#define FETCH_LIMIT       500
#define RETRY_FIRST_MS    100
#define RETRY_MAX_MS      5000
#define FETCH_RETRY_MS    1000

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
  gboolean            fetching;
};

static void fetch_events (TriagePgListener *self);

static gboolean
on_fetch (gpointer data)
{
  TriagePgListener *self = data;

  self->fetch = 0;
  fetch_events (self);
  return G_SOURCE_REMOVE;
}

static void
fetch_soon (TriagePgListener *self)
{
  if (self->fetch == 0)
    self->fetch = g_idle_add_full (G_PRIORITY_DEFAULT, on_fetch, self, NULL);
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

/* After a statement: a lost connection is made again later; one that
 * libpq made again by itself (between statements) has a new socket to
 * watch, and may have missed wake-ups meanwhile. */
static void
check_connection (TriagePgListener *self)
{
  if (triage_pg_connection_is_bad (self->conn))
    connection_lost (self);
  else if (PQsocket (triage_pg_connection_get (self->conn)) != self->watched_fd)
    {
      watch_socket (self);
      fetch_soon (self);
    }
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
  triage_pg_connection_drop (self->conn);
  self->retry_ms = self->retry_ms == 0 ? RETRY_FIRST_MS : MIN (2 * self->retry_ms, RETRY_MAX_MS);
  self->retry = g_timeout_add (self->retry_ms, on_retry, self);
}

static gboolean
on_readable (int          fd,
             GIOCondition condition,
             gpointer     data)
{
  TriagePgListener *self = data;
  PGconn *conn = triage_pg_connection_get (self->conn);

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

/* Hands on every event after the last one, in id order. */
static void
fetch_events (TriagePgListener *self)
{
  static const char sql[] =
    "SELECT id, user_id, type, data, notification_id, created_at, protocol FROM events"
    " WHERE id > $1::bigint ORDER BY id LIMIT " G_STRINGIFY (FETCH_LIMIT);
  guint count;
  gboolean woken;

  if (self->fetching || self->retry != 0)
    return;
  self->fetching = TRUE;
  do
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(PGresult) result = NULL;
      TriagePgNumber after;
      TriagePgParam params[] = { triage_pg_number (&after, self->last_id) };

      result = triage_pg_query (self->conn, sql, 1, params, &error);
      if (result == NULL)
        {
          self->fetching = FALSE;
          if (triage_pg_connection_is_bad (self->conn))
            connection_lost (self);
          else
            {
              g_warning ("cannot read the event log: %s", error->message);
              if (self->fetch == 0)
                self->fetch = g_timeout_add (FETCH_RETRY_MS, on_fetch, self);
            }
          return;
        }
      count = (guint) PQntuples (result);
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

          self->last_id = event.id;
          self->func (&event, self->data);
        }
      /* A wake-up read while the query ran (libpq takes them in with its
       * answer) may be for a commit after the query's snapshot: read again,
       * or that event waits for the next one, which may never come. */
      woken = drain_notifies (self);
    }
  while (count == FETCH_LIMIT || woken);
  self->fetching = FALSE;
  check_connection (self);
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
                                         "SET synchronous_commit = off;"
                                         " LISTEN " TRIAGE_PG_EVENT_CHANNEL, error);
  /* Listening before the newest id is read: nothing falls in between. */
  if (self->conn == NULL ||
      (last = triage_pg_exec (self->conn, "SELECT COALESCE (MAX (id), 0) FROM events",
                              error)) == NULL)
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
  g_clear_pointer (&self->conn, triage_pg_connection_free);
  g_free (self);
}

/* Runs @sql on this connection (each statement commits on its own, without
 * waiting for the disk). A wake-up that arrives meanwhile is read soon. */
PGresult *
triage_pg_listener_query (TriagePgListener    *self,
                          const char          *sql,
                          int                  n_params,
                          const TriagePgParam *params,
                          GError             **error)
{
  PGresult *result;

  if (self->retry != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                   "the second connection to the database is being made again");
      return NULL;
    }
  result = triage_pg_query (self->conn, sql, n_params, params, error);
  check_connection (self);
  if (self->retry == 0 && drain_notifies (self))
    fetch_soon (self);
  return result;
}
