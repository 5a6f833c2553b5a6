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
 * GAP_WAIT_MS is settled by the lock taken exclusive (as in
 * triage_pg_log_read ()): the newest id under it is read once every batch
 * that had taken ids has committed, and before any takes more, so a missing
 * id up to it is gone for good. So readers seldom hold writers up. Reads go out in one round trip
 * and their answers are taken when the socket is readable: no wait holds the
 * main loop.
 *
 * This server's own batches are not read back: the store hands their events
 * on as they commit (triage_pg_listener_add_own (), with the ids their
 * INSERT returned), and the NOTIFY of this server's own connections wakes no
 * read. Own events and the rows a read found wait in one queue, ordered by
 * id, for the ids before them (pending): each is handed on once the one
 * before it was, from one place and in id order, whichever way it came, and
 * an id already handed on is dropped, so a stream gets every event once, in
 * the log's order, as from a read of the whole log. A read leaves out the
 * ids it already holds. A read that settles a gap reads the newest id under
 * the lock (H), then, the lock let go, the events: every id up to H is
 * committed or gone for good by then, own events included, so what waits
 * up to H goes on, gaps or not.
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
/* A read once the connection has been quiet this long: the log is read
 * even if a NOTIFY was lost, and a connection that stalled (a partition, a
 * backend that hangs: TCP may not tell for many minutes) is found by its
 * read's deadline (triage-pg-connection.c) and made again. */
#define IDLE_READ_S       5

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
  " WHERE e.id > $1::bigint AND e.id <> ALL ($2::bigint[]) ORDER BY e.id" \
  " LIMIT " G_STRINGIFY (FETCH_LIMIT)

/* A read of the log under its lock: BEGIN, the lock, the read, COMMIT. */
#define LOG_READ_STEPS 4
/* The listener's, which settles a gap: the newest id under the lock, then,
 * the lock let go, the events (a page of them is large, and its answer is
 * taken by the main loop: a main loop held up meanwhile, in a wait of its
 * own for the lock, would hold the lock too). */
#define HORIZON_SQL "SELECT COALESCE (MAX (id), 0) FROM events"
#define SETTLE_STEPS (LOG_READ_STEPS + 1)

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
  TriagePgStatement   read[SETTLE_STEPS];
  TriagePgNumber      key, after;
  TriagePgParam       lock_params[1], after_params[2];
  char               *held;        /* the ids the read out leaves out (bigint[]) */
  GTree              *pending;     /* &id → TriageEventRow*: committed, after a missing id */
  guint               hand_on;     /* own events to hand on, soon */
  guint               idle;        /* a read after IDLE_READ_S of quiet */
  gint64              heard_at;    /* monotonic µs: the connection last answered */
  TriagePgOwnFunc     own;
  gpointer            own_data;
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

static void
read_clear (TriagePgListener *self)
{
  for (guint i = 0; i < SETTLE_STEPS; i++)
    g_clear_pointer (&self->read[i].result, PQclear);
}

static gint
compare_ids (gconstpointer a,
             gconstpointer b,
             gpointer      data)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* Keeps a copy of @event until the ids before it are handed on, unless it
 * was handed on or is kept already. */
static void
pending_add (TriagePgListener     *self,
             const TriageEventRow *event)
{
  TriageEventRow *copy;

  if (event->id <= self->last_id || g_tree_lookup (self->pending, &event->id) != NULL)
    return;
  copy = g_new0 (TriageEventRow, 1);
  copy->id = event->id;
  copy->user = g_strdup (event->user);
  copy->type = g_strdup (event->type);
  copy->data = g_strdup (event->data);
  copy->notification_id = g_strdup (event->notification_id);
  copy->created_at = event->created_at;
  copy->protocol = event->protocol;
  g_tree_insert (self->pending, &copy->id, copy);
}

/* Hands on the events kept, in id order, while each follows the last one
 * handed on, or is at most @horizon (every id up to it is committed or gone
 * for good). The function called may add more (a read's wait in the store:
 * their commit was handed on). */
static void
hand_on_pending (TriagePgListener *self,
                 gint64            horizon)
{
  GTreeNode *first;

  while ((first = g_tree_node_first (self->pending)) != NULL)
    {
      TriageEventRow *event = g_tree_node_value (first);

      if (event->id > self->last_id + 1 && event->id > horizon)
        break;
      g_tree_steal (self->pending, &event->id);
      if (event->id > self->last_id)
        {
          self->last_id = event->id;
          if (event->data != NULL)
            self->func (event, self->data);
        }
      triage_event_row_free (event);
    }
}

static gboolean
append_held (gpointer key,
             gpointer value,
             gpointer data)
{
  GString *array = data;

  g_string_append_printf (array, "%s%" G_GINT64_FORMAT, array->len > 1 ? "," : "",
                          *(gint64 *) key);
  return FALSE;
}

/* The ids the next read leaves out, a bigint[]: those that wait. */
static char *
held_ids (TriagePgListener *self)
{
  GString *held = g_string_new ("{");

  g_tree_foreach (self->pending, append_held, held);
  g_string_append_c (held, '}');
  return g_string_free (held, FALSE);
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
      /* This server's own commits are handed on as they are done. */
      if (self->own == NULL || !self->own (notify->be_pid, self->own_data))
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
  read_clear (self);
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
  if (!PQconsumeInput (conn) || triage_pg_connection_is_bad (self->conn))
    {
      self->watch = 0;
      connection_lost (self);
      return G_SOURCE_REMOVE;
    }
  self->heard_at = g_get_monotonic_time ();
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
  read_clear (self);
  if (triage_pg_connection_is_bad (self->conn))
    {
      connection_lost (self);
      return;
    }
  /* A writer that held the log's lock past the wait, or a database locked
   * (triage-pg-link.c): not a fault. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_BUSY))
    g_message ("cannot read the event log yet: %s", error->message);
  else
    g_warning ("cannot read the event log: %s", error->message);
  if (self->fetch == 0)
    self->fetch = g_timeout_add (FETCH_RETRY_MS, on_fetch, self);
}

/* The statements of the read out: the read alone, or BEGIN, the lock, the
 * read, COMMIT. */
static guint
read_steps (TriagePgListener *self)
{
  return self->locked ? SETTLE_STEPS : 1;
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
  /* What waits is left out. */
  g_free (self->held);
  self->held = held_ids (self);
  self->locked = self->want_lock;
  self->want_lock = FALSE;
  self->after_params[0] = triage_pg_number (&self->after, self->last_id);
  self->after_params[1] = self->held;
  if (self->locked)
    {
      log_read_steps (self->read, &self->key, self->lock_params, HORIZON_SQL, 0, NULL);
      self->read[LOG_READ_STEPS] = (TriagePgStatement) { FETCH_SQL, 2, self->after_params, NULL };
    }
  else
    self->read[0] = (TriagePgStatement) { FETCH_SQL, 2, self->after_params, NULL };
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

static gboolean
on_idle (gpointer data)
{
  TriagePgListener *self = data;

  if (!self->fetching && self->fetch == 0 &&
      g_get_monotonic_time () - self->heard_at >= IDLE_READ_S * G_USEC_PER_SEC)
    fetch_events (self);
  return G_SOURCE_CONTINUE;
}

static gboolean
on_gap (gpointer data)
{
  TriagePgListener *self = data;

  self->gap = 0;
  self->want_lock = TRUE;
  fetch_events (self);
  return G_SOURCE_REMOVE;
}

/* Whatever still waits for a missing id is settled by a read under the
 * lock if the id stays missing GAP_WAIT_MS. */
static void
watch_gap (TriagePgListener *self)
{
  if (g_tree_nnodes (self->pending) == 0)
    g_clear_handle_id (&self->gap, g_source_remove);
  else if (self->gap == 0)
    self->gap = g_timeout_add (GAP_WAIT_MS, on_gap, self);
}

/* Hands on the events the read found with those that waited, in id order:
 * past a missing id only under the lock, and up to the largest id it
 * found. Reads again when it found a full page, or a wake-up came meanwhile
 * (for a commit after its snapshot, maybe: that event would wait for the
 * next wake-up, which may never come). */
static void
fetch_answered (TriagePgListener *self)
{
  g_autoptr(GError) error = NULL;
  gint64 horizon = 0;
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
  self->heard_at = g_get_monotonic_time ();
  result = g_steal_pointer (&self->read[self->locked ? LOG_READ_STEPS : 0].result);
  if (self->locked && self->read[2].result != NULL && PQntuples (self->read[2].result) == 1)
    horizon = triage_pg_int (self->read[2].result, 0, 0);
  read_clear (self);
  count = result != NULL ? (guint) PQntuples (result) : 0;
  /* A full page settles no further than its last row: the rest is unread. */
  if (count == FETCH_LIMIT)
    horizon = MIN (horizon, triage_pg_int (result, (int) count - 1, 0));
  for (guint i = 0; i < count; i++)
    {
      TriageEventRow event = {
        .id = triage_pg_int (result, (int) i, 0),
        .user = PQgetvalue (result, (int) i, 1),
        .type = PQgetvalue (result, (int) i, 2),
        /* NULL: an event of a request retention forgot (--retain), its
         * id kept in order and nothing handed on. */
        .data = PQgetisnull (result, (int) i, 3) ? NULL : PQgetvalue (result, (int) i, 3),
        .notification_id = PQgetisnull (result, (int) i, 4) ? NULL
                                                            : PQgetvalue (result, (int) i, 4),
        .created_at = triage_pg_int (result, (int) i, 5),
        .protocol = (int) triage_pg_int (result, (int) i, 6),
      };

      /* What waited before it goes first. */
      hand_on_pending (self, MIN (horizon, event.id - 1));
      if (event.id <= self->last_id)
        continue;
      /* Another server's event whose stored data does not read (a damaged
       * row): left out, its id kept in order, as a replay leaves it out. */
      if (event.data != NULL && !triage_pg_event_data_reads (result, (int) i, 3))
        {
          triage_log_failure ("event %" G_GINT64_FORMAT " of the log (notification %s): its "
                              "stored data does not read as JSON on one line (a damaged "
                              "row?); left out of the streams", event.id,
                              event.notification_id ? event.notification_id : "none");
          event.data = NULL;
        }
      if (event.id == self->last_id + 1 || event.id <= horizon)
        {
          g_tree_remove (self->pending, &event.id);
          self->last_id = event.id;
          if (event.data != NULL)
            self->func (&event, self->data);
        }
      else
        pending_add (self, &event);
    }
  g_clear_pointer (&result, PQclear);
  hand_on_pending (self, horizon);
  watch_gap (self);
  /* Past a full page, unless it stopped at a missing id (the read under
   * the lock settles it). */
  if (drain_notifies (self) || self->again || self->want_lock ||
      (count == FETCH_LIMIT && g_tree_nnodes (self->pending) == 0))
    fetch_events (self);
}

static gboolean
on_hand_on (gpointer data)
{
  TriagePgListener *self = data;

  self->hand_on = 0;
  hand_on_pending (self, 0);
  watch_gap (self);
  return G_SOURCE_REMOVE;
}

/* @events, a batch of this server's just committed with their ids (or not,
 * @committed FALSE), handed on with every server's in id order, from the
 * main loop (not from the middle of whatever waited for the commit). A
 * batch not known to be committed may be anyway (its answer lost with its
 * connection): the log is read for it. */
void
triage_pg_listener_add_own (TriagePgListener *self,
                            GPtrArray        *events,
                            gboolean          committed)
{
  if (!committed)
    {
      if (self->fetch == 0)
        self->fetch = g_idle_add_full (G_PRIORITY_HIGH, on_fetch, self, NULL);
      return;
    }
  for (guint i = 0; i < events->len; i++)
    pending_add (self, events->pdata[i]);
  if (g_tree_nnodes (self->pending) > 0 && self->hand_on == 0)
    self->hand_on = g_idle_add_full (G_PRIORITY_DEFAULT, on_hand_on, self, NULL);
}

static gboolean
keep_reads_prepared (TriagePgConnection *conn,
                     GError            **error)
{
  TriagePgStatement steps[SETTLE_STEPS];
  TriagePgNumber key;
  TriagePgParam lock_params[1];

  log_read_steps (steps, &key, lock_params, HORIZON_SQL, 0, NULL);
  steps[LOG_READ_STEPS] = (TriagePgStatement) { FETCH_SQL, 2, NULL, NULL };
  for (guint i = 0; i < SETTLE_STEPS; i++)
    if (!triage_pg_connection_keep_prepared (conn, steps[i].sql, steps[i].n_params, error))
      return FALSE;
  return TRUE;
}

TriagePgListener *
triage_pg_listener_new (TriagePgLink      *link,
                        TriagePgEventFunc  func,
                        TriagePgOwnFunc    own,
                        gpointer           data,
                        GError           **error)
{
  g_autoptr(PGresult) last = NULL;
  TriagePgListener *self = g_new0 (TriagePgListener, 1);

  self->func = func;
  self->data = data;
  self->pending = g_tree_new_full (compare_ids, NULL, NULL, (GDestroyNotify) triage_event_row_free);
  self->conn = triage_pg_connection_new (link, "triage-server events",
                                         TRIAGE_PG_NO_SEQSCAN "; LISTEN " TRIAGE_PG_EVENT_CHANNEL,
                                         error);
  /* Listening before the newest id is read: nothing falls in between. Its
   * reads' statements are prepared as it connects: a read never waits for
   * a preparation (the main loop takes its answers). */
  if (self->conn == NULL || !keep_reads_prepared (self->conn, error) ||
      (last = triage_pg_log_read (self->conn, "SELECT COALESCE (MAX (id), 0) FROM events", 0,
                                  NULL, error)) == NULL)
    {
      triage_pg_listener_free (self);
      return NULL;
    }
  self->last_id = triage_pg_int (last, 0, 0);
  self->own = own;
  self->own_data = data;
  watch_socket (self);
  self->heard_at = g_get_monotonic_time ();
  self->idle = g_timeout_add_seconds (1, on_idle, self);
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
  g_clear_handle_id (&self->hand_on, g_source_remove);
  g_clear_handle_id (&self->idle, g_source_remove);
  read_clear (self);
  g_clear_pointer (&self->conn, triage_pg_connection_free);
  g_clear_pointer (&self->pending, g_tree_destroy);
  g_free (self->held);
  g_free (self);
}
