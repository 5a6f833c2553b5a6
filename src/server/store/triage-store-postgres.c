/* triage-store-postgres.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The PostgreSQL backend: several servers on one database. Each holds
 * TRIAGE_PG_WRITER_FLIGHTS + 3 connections: one for each commit in flight
 * and one for the batch that gathers meanwhile, taking turns
 * (triage-pg-writer.c), one that listens for the events of every server
 * (triage-pg-listener.c), and one that keeps the shared rate limits. What the other backend gets from owning its
 * database, this one gets from the database:
 *
 *   - a batch is a transaction; a statement that may meet another server's
 *     row (an id posted twice, a name registered twice) never fails the
 *     batch: ON CONFLICT DO NOTHING, and the caller learns the row exists;
 *   - transitions are single UPDATEs with the allowed statuses in their
 *     WHERE: of two servers the second waits for the first's batch, then
 *     finds nothing to change;
 *   - expiries, deliveries and webhook claims skip rows another server has
 *     locked (FOR UPDATE SKIP LOCKED): each is done once, nobody waits;
 *   - events are written as the batch commits, under a transaction advisory
 *     lock, so their ids increase in commit order across servers, and the
 *     commit NOTIFYs every listener.
 *
 * Each statement holds the main loop for one round trip to the database
 * (tens of µs on a local socket); a commit does not: the main loop serves
 * other requests while the database syncs, and answers the requests of the
 * batch once it has. A read waits for the commits in flight, so it sees
 * everything this server wrote before it; the hot writes (a notification's
 * insert, its delivery) and the read of the recipients of a notification
 * another server wrote do not (write_query ()).
 */

#define G_LOG_DOMAIN "triage-store-postgres"

#include "atp.h"
#include "triage-pg-connection.h"
#include "triage-pg-listener.h"
#include "triage-pg-schema.h"
#include "triage-pg-writer.h"
#include "triage-store-postgres.h"
#include "triage-store-private.h"

/* Every session's timeouts are the connection's (triage-pg-connection.c).
 * The statements of a batch find their rows by key, and each is planned once
 * on its connection, its plan kept: one made while a new database's tables
 * were empty scanned them whole, and grew with them, until the database's
 * next ANALYZE (a minute). With no sequential scan planned (and so no JIT:
 * TRIAGE_PG_NO_SEQSCAN), a kept plan reads through the keys however small
 * the tables were. (The counts of /metrics read whole tables through their
 * keys instead.) */
#define PENDING_IN "(0, 1, 2)"   /* created, delivered, acknowledged (see triage-pg-schema.c) */
#define RATE_SWEEP_US G_TIME_SPAN_MINUTE

struct _TriageStorePostgres
{
  TriageStore         parent_instance;
  TriagePgWriter     *writer;
  TriagePgListener   *listener;
  TriagePgConnection *side;           /* rate limits, reads of the log under its lock */
  TriagePgLink       *link;
  gboolean            schema_trusted; /* found whole, and no cause to doubt it since */
  guint               trusted_connections; /* connections made when it was found whole */
  GHashTable         *services;       /* "query\nvalue" → TriageServiceRow: they never change */
  GHashTable         *recipients;     /* notification id → GStrv: who it goes to, never changes */
  GQueue             *recipients_age; /* its keys, oldest first */
  gint64              rates_swept;
};

#define RECIPIENTS_KEPT 4096

G_DEFINE_FINAL_TYPE (TriageStorePostgres, triage_store_postgres, TRIAGE_TYPE_STORE)

/* Runs @sql; NULL when it failed (logged), which fails the open batch. It
 * first waits for the commits in flight, if any, so that it sees what this
 * server wrote before (see triage-pg-writer.c). */
static PGresult *
query (TriageStorePostgres *self,
       const char          *sql,
       int                  n_params,
       const TriagePgParam *params)
{
  triage_pg_writer_wait (self->writer);
  return triage_pg_writer_query (self->writer, sql, n_params, params);
}

/* The same for a statement that need not wait: a write that changes only
 * rows the commits in flight did not write, or waits for them in the
 * database, and reads nothing that batch wrote; a read of rows that batch
 * cannot have written (postgres_recipients ()). */
static PGresult *
write_query (TriageStorePostgres *self,
             const char          *sql,
             int                  n_params,
             const TriagePgParam *params)
{
  return triage_pg_writer_query (self->writer, sql, n_params, params);
}

PGresult *
triage_store_postgres_write (TriageStorePostgres *self,
                             const char          *sql,
                             int                  n_params,
                             const TriagePgParam *params)
{
  return write_query (self, sql, n_params, params);
}

PGresult *
triage_store_postgres_query (TriageStorePostgres *self,
                             const char          *sql,
                             int                  n_params,
                             const TriagePgParam *params)
{
  return query (self, sql, n_params, params);
}

/* The first column of the first row as a number, 0 when none or NULL. */
gint64
triage_store_postgres_number (TriageStorePostgres *self,
                              const char          *sql,
                              int                  n_params,
                              const TriagePgParam *params)
{
  g_autoptr(PGresult) result = query (self, sql, n_params, params);

  return result != NULL && PQntuples (result) > 0 ? triage_pg_int (result, 0, 0) : 0;
}

/* The first column of every row of @result (NULL: none), NULL-terminated. */
static GStrv
strings_of (const PGresult *result)
{
  GPtrArray *strings = g_ptr_array_new ();

  for (int i = 0; result != NULL && i < PQntuples (result); i++)
    g_ptr_array_add (strings, triage_pg_text (result, i, 0));
  g_ptr_array_add (strings, NULL);
  return (GStrv) g_ptr_array_free (strings, FALSE);
}

static GStrv
query_strings (TriageStorePostgres *self,
               const char          *sql,
               int                  n_params,
               const TriagePgParam *params)
{
  g_autoptr(PGresult) result = query (self, sql, n_params, params);

  return strings_of (result);
}

void
triage_store_postgres_remember_recipients (TriageStorePostgres *self,
                                           const char          *id,
                                           GStrv                users)
{
  char *key = g_strdup (id);

  if (g_hash_table_contains (self->recipients, id))
    {
      g_hash_table_insert (self->recipients, key, users);
      return;
    }
  if (g_queue_get_length (self->recipients_age) >= RECIPIENTS_KEPT)
    {
      g_autofree char *oldest = g_queue_pop_head (self->recipients_age);

      g_hash_table_remove (self->recipients, oldest);
    }
  g_queue_push_tail (self->recipients_age, g_strdup (id));
  g_hash_table_insert (self->recipients, key, users);
}

/* The bits of @mask (statuses, protocols) as an int[] literal. */
char *
triage_store_postgres_int_array (guint mask)
{
  GString *array = g_string_new ("{");

  for (int status = 0; status < 32; status++)
    if (mask & (1u << status))
      g_string_append_printf (array, "%s%d", array->len > 1 ? "," : "", status);
  g_string_append_c (array, '}');
  return g_string_free (array, FALSE);
}

/* The services found so far: "query\nvalue" → TriageServiceRow. */
GHashTable *
triage_store_postgres_services (TriageStorePostgres *self)
{
  return self->services;
}

/* ---- the batch (triage-pg-writer.c) ---- */

static gboolean
postgres_begin (TriageStore *store,
                GError     **error)
{
  triage_pg_writer_begin (TRIAGE_STORE_POSTGRES (store)->writer);
  return TRUE;
}

static gboolean
postgres_insert_events (TriageStore *store,
                        GPtrArray   *events,
                        GError     **error)
{
  triage_pg_writer_set_events (TRIAGE_STORE_POSTGRES (store)->writer, events);
  return TRUE;
}

static gboolean
postgres_commit (TriageStore *store,
                 GError     **error)
{
  return triage_pg_writer_commit (TRIAGE_STORE_POSTGRES (store)->writer, error);
}

static void
committed_cb (gboolean      committed,
              const GError *error,
              gpointer      data)
{
  TriageStorePostgres *self = data;

  if (!committed)
    {
      /* Notifications of the batch are gone: what was kept of them goes too. */
      g_hash_table_remove_all (self->recipients);
      g_queue_clear_full (self->recipients_age, g_free);
      /* And a service registered in the batch (a local one, at its first request). */
      g_hash_table_remove_all (self->services);
    }
  triage_store_committed (TRIAGE_STORE (self), committed, error);
}

static void
postgres_commit_start (TriageStore *store)
{
  TriageStorePostgres *self = TRIAGE_STORE_POSTGRES (store);

  triage_pg_writer_commit_async (self->writer, committed_cb, self);
}

static void
postgres_commit_wait (TriageStore *store)
{
  triage_pg_writer_wait (TRIAGE_STORE_POSTGRES (store)->writer);
}

static void
postgres_rollback (TriageStore *store)
{
  TriageStorePostgres *self = TRIAGE_STORE_POSTGRES (store);

  /* Notifications of the batch are gone: what was kept of them goes too. */
  g_hash_table_remove_all (self->recipients);
  g_queue_clear_full (self->recipients_age, g_free);
  g_hash_table_remove_all (self->services);
  triage_pg_writer_rollback (self->writer);
}

/* ---- notifications ---- */

static TriageStoreInsert
postgres_insert_notification (TriageStore *store,
                              const char  *id,
                              const char  *service_id,
                              int          protocol,
                              const char  *protocol_id,
                              const char  *body,
                              const char  *json,
                              const char  *answer,
                              const char  *project,
                              gint64       created_at,
                              gint64       deadline)
{
  TriagePgNumber created, due, kind;
  TriagePgParam params[] = { id, service_id, body, json, answer, project,
                             triage_pg_number (&created, created_at),
                             deadline > 0 ? triage_pg_number (&due, deadline) : NULL,
                             triage_pg_number (&kind, protocol), protocol_id };
  /* Another server's insert of the same id (or the same agent's id of the
   * request) makes this one wait for its batch, then do nothing; so does
   * this server's commit in flight. */
  TriageStorePostgres *self = TRIAGE_STORE_POSTGRES (store);
  g_autoptr(PGresult) result = write_query (self,
    "WITH n AS (INSERT INTO notifications (id, service_id, body, json, answer, project, status,"
    "  created_at, deadline, updated_at, protocol, protocol_id) VALUES ($1, $2, $3, $4, $5, $6, 0,"
    "  $7::bigint, $8::bigint, $7::bigint, $9::int, $10) ON CONFLICT DO NOTHING RETURNING seq),"
    " r AS (INSERT INTO notification_recipients (notification_seq, user_id)"
    "  SELECT n.seq, s.user_id FROM n, service_recipients s WHERE s.service_id = $2"
    "  RETURNING user_id)"
    " SELECT n.seq, r.user_id FROM n LEFT JOIN r ON TRUE", 10, params);
  GPtrArray *users;

  if (result == NULL)
    return TRIAGE_STORE_INSERT_FAILED;
  if (PQntuples (result) == 0)
    return TRIAGE_STORE_INSERT_EXISTS;
  /* Who it goes to is known now, and for good: publishing it costs no query. */
  users = g_ptr_array_new ();
  for (int i = 0; i < PQntuples (result); i++)
    if (!PQgetisnull (result, i, 1))
      g_ptr_array_add (users, triage_pg_text (result, i, 1));
  g_ptr_array_add (users, NULL);
  triage_store_postgres_remember_recipients (self, id, (GStrv) g_ptr_array_free (users, FALSE));
  return TRIAGE_STORE_INSERTED;
}

static gboolean
postgres_is_recipient (TriageStore *store,
                       const char  *notification_id,
                       const char  *user_id,
                       GError     **error)
{
  TriagePgParam params[] = { notification_id, user_id };
  g_autoptr(PGresult) result = query (TRIAGE_STORE_POSTGRES (store),
                                      "SELECT 1 FROM notification_recipients r"
                                      " JOIN notifications n ON n.seq = r.notification_seq"
                                      " WHERE n.id = $1 AND r.user_id = $2", 2, params);

  if (result == NULL)
    {
      /* the query's writer logged why (a lock or statement timeout, …) */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                   "the database did not answer the lookup of a notification's recipient");
      return FALSE;
    }
  return PQntuples (result) > 0;
}

#define RECIPIENTS_SQL \
  "SELECT r.user_id FROM notification_recipients r JOIN notifications n" \
  " ON n.seq = r.notification_seq WHERE n.id = $1"

/* A notification's recipients never change: the last few thousand are kept. */
static GStrv
postgres_recipients (TriageStore *store,
                     const char  *notification_id,
                     GError     **error)
{
  TriageStorePostgres *self = TRIAGE_STORE_POSTGRES (store);
  TriagePgParam params[] = { notification_id };
  g_autoptr(PGresult) result = NULL;
  GStrv users = g_hash_table_lookup (self->recipients, notification_id);

  if (users != NULL)
    return g_strdupv (users);
  /* A notification this server did not keep came from another server (its
   * event was read from the log), or was written by this one long ago:
   * committed, and its recipients never change, so the read need not wait
   * for the commit in flight (on another server's stream, every delivery of
   * a notification posted elsewhere asks; waiting held the main loop for a
   * commit each time). Only one of the flight's own, no longer kept, is not
   * found then: it is read again once the flight is done. */
  result = write_query (self, RECIPIENTS_SQL, 1, params);
  if (result != NULL && PQntuples (result) == 0 && triage_pg_writer_in_flight (self->writer))
    {
      g_clear_pointer (&result, PQclear);
      result = query (self, RECIPIENTS_SQL, 1, params);
    }
  if (result == NULL)
    {
      /* the query's writer logged why */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                   "the database did not answer the lookup of a notification's recipients");
      return NULL;
    }
  users = strings_of (result);
  if (users[0] != NULL)
    triage_store_postgres_remember_recipients (self, notification_id, g_strdupv (users));
  return users;
}

static gboolean
postgres_transition (TriageStore *store,
                     const char  *id,
                     guint        from_mask,
                     int          status,
                     const char  *response,
                     const char  *reason,
                     gint64       now,
                     GError     **error)
{
  g_autofree char *from = triage_store_postgres_int_array (from_mask);
  TriagePgNumber to, when;
  TriagePgParam params[] = { triage_pg_number (&to, status), response,
                             triage_pg_number (&when, now), id, from, reason };
  g_autoptr(PGresult) result = query (TRIAGE_STORE_POSTGRES (store),
                                      "UPDATE notifications SET status = $1::int,"
                                      " response = COALESCE ($2, response),"
                                      " reason = COALESCE ($6, reason),"
                                      " updated_at = $3::bigint"
                                      " WHERE id = $4 AND status = ANY ($5::int[])",
                                      6, params);

  if (result == NULL)
    {
      /* the query's writer logged why (and the batch fails with it) */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                   "the database did not store a change of status");
      return FALSE;
    }
  return triage_pg_changed (result) == 1;
}

static gboolean
postgres_mark_delivered (TriageStore *store,
                         const char  *id,
                         gint64       now)
{
  TriagePgNumber when;
  TriagePgParam params[] = { id, triage_pg_number (&when, now) };
  g_autoptr(PGresult) result = NULL;

  /* A row of the commit in flight is skipped as locked: a courtesy. */
  result = write_query (TRIAGE_STORE_POSTGRES (store),
                        "UPDATE notifications SET status = 1, updated_at = $2::bigint"
                        " WHERE seq = (SELECT seq FROM notifications WHERE id = $1 AND status = 0"
                        "  FOR UPDATE SKIP LOCKED)", 2, params);
  return result != NULL && triage_pg_changed (result) == 1;
}

static gint64
postgres_next_deadline (TriageStore *store,
                        GError     **error)
{
  g_autoptr(PGresult) result = query (TRIAGE_STORE_POSTGRES (store),
                                      "SELECT MIN (deadline) FROM notifications"
                                      " WHERE deadline IS NOT NULL AND status IN " PENDING_IN,
                                      0, NULL);

  if (result == NULL)
    {
      /* the query's writer logged why */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                   "the database did not answer the lookup of the next deadline");
      return 0;
    }
  return PQntuples (result) > 0 ? triage_pg_int (result, 0, 0) : 0;
}

static GStrv
postgres_expire_overdue (TriageStore *store,
                         gint64       now,
                         const char  *reason)
{
  TriagePgNumber when;
  TriagePgParam params[] = { triage_pg_number (&when, now), reason };

  G_STATIC_ASSERT (ATP_STATUS_EXPIRED == 4);
  return query_strings (TRIAGE_STORE_POSTGRES (store),
                        "UPDATE notifications SET status = 4, updated_at = $1::bigint,"
                        " reason = COALESCE ($2, reason)"
                        " WHERE seq IN (SELECT seq FROM notifications WHERE deadline IS NOT NULL"
                        "  AND deadline <= $1::bigint AND status IN " PENDING_IN
                        "  FOR UPDATE SKIP LOCKED) RETURNING id", 2, params);
}

/* ---- rate limits, shared by every server (wall-clock time) ---- */

static gboolean
postgres_take_rate (TriageStore *store,
                    const char  *key,
                    gint64       interval,
                    gint64       window,
                    gint64      *wait)
{
  TriageStorePostgres *self = TRIAGE_STORE_POSTGRES (store);
  g_autoptr(GError) error = NULL;
  g_autoptr(PGresult) taken = NULL, current = NULL;
  gint64 now = g_get_real_time ();
  TriagePgNumber when, step, span;
  TriagePgParam params[] = { key, triage_pg_number (&when, now), triage_pg_number (&step, interval),
                             triage_pg_number (&span, window) };

  if (now - self->rates_swept >= RATE_SWEEP_US)
    {
      g_autoptr(PGresult) swept = triage_pg_query (self->side,
                                                   "DELETE FROM rate_limits WHERE tat < $1::bigint",
                                                   1, params + 1, NULL);

      self->rates_swept = now;
    }
  /* One statement counts the request if the allowance holds it. */
  taken = triage_pg_query (self->side,
    "INSERT INTO rate_limits AS r (key, tat) VALUES ($1, $2::bigint + $3::bigint)"
    " ON CONFLICT (key) DO UPDATE SET tat = GREATEST (r.tat, $2::bigint) + $3::bigint"
    "  WHERE GREATEST (r.tat, $2::bigint) + $3::bigint - $2::bigint <= $4::bigint"
    " RETURNING tat", 4, params, &error);
  if (taken == NULL)
    {
      /* Limits are a protection, not a duty: without the database, let it be. */
      g_debug ("rate limit %s not counted: %s", key, error->message);
      return TRUE;
    }
  if (PQntuples (taken) == 1)
    return TRUE;
  current = triage_pg_query (self->side, "SELECT tat FROM rate_limits WHERE key = $1", 1, params,
                             NULL);
  if (current != NULL && PQntuples (current) == 1)
    *wait = MAX (0, triage_pg_int (current, 0, 0) + interval - window - now);
  return FALSE;
}

/* ---- the event log's horizon ---- */

/* The newest event id, read once no batch of any server is between taking
 * event ids and committing them (triage_pg_log_read ()): every event up to
 * it is committed, and none smaller appears later, so a stream that starts
 * after it misses nothing. Waits for the commits in flight, if any. */
gint64
triage_store_postgres_last_event (TriageStorePostgres *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(PGresult) result = triage_pg_log_read (self->side,
                                                   "SELECT COALESCE (MAX (id), 0) FROM events", 0,
                                                   NULL, &error);

  if (result == NULL)
    {
      /* A database that does not answer now is no fault of ours. */
      if (triage_store_error_expected (error))
        g_message ("cannot read the event log: %s", error->message);
      else
        g_warning ("cannot read the event log: %s", error->message);
      return 0;
    }
  return triage_pg_int (result, 0, 0);
}

/* ---- the schema requests rely on ---- */

/* Whether requests may use the database: its schema was found whole since
 * the server last made a connection (a new one may meet a database dropped
 * and made again under it), met a statement with no table, or was told
 * the schema is incomplete (a restore under way). The database is asked
 * only after one of those: a statement then, none otherwise. A whole schema
 * of another version counts (postgres_check (): G_IO_ERROR_FAILED), and so
 * does one that is read-only (G_IO_ERROR_READ_ONLY: reads go on) or has a
 * table locked (G_IO_ERROR_BUSY: what does not need it goes on). */
static gboolean
postgres_trust_schema (TriageStore  *store,
                       GError      **error)
{
  TriageStorePostgres *self = TRIAGE_STORE_POSTGRES (store);
  g_autoptr(GError) local = NULL;

  if (triage_pg_writer_take_schema_doubt (self->writer))
    self->schema_trusted = FALSE;
  if (self->schema_trusted &&
      self->trusted_connections == triage_pg_link_get_connections (self->link))
    return TRUE;
  if (!triage_store_check (store, &local) &&
      !g_error_matches (local, G_IO_ERROR, G_IO_ERROR_FAILED) &&
      !g_error_matches (local, G_IO_ERROR, G_IO_ERROR_READ_ONLY) &&
      !g_error_matches (local, G_IO_ERROR, G_IO_ERROR_BUSY))
    {
      self->schema_trusted = FALSE;
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  /* Counted after the check, which may have made a connection to ask. */
  self->schema_trusted = !triage_pg_writer_take_schema_doubt (self->writer);
  self->trusted_connections = triage_pg_link_get_connections (self->link);
  return TRUE;
}

/* Whether no table is held against writes (triage-pg-link.c), asked now
 * on the connection of rate limits (the writer's may be inside a batch). */
gboolean
triage_store_postgres_probe_lock (TriageStorePostgres *self,
                                  GError             **error)
{
  return triage_pg_connection_probe_lock (self->side, error);
}

/* What made the database locked (the server's statements fail at once until
 * the lock is free), or NULL. */
const char *
triage_store_postgres_get_locked (TriageStorePostgres *self)
{
  return triage_pg_link_get_locked (self->link);
}

guint64
triage_store_postgres_count_lock_waits (TriageStorePostgres *self)
{
  return triage_pg_link_get_lock_waits (self->link);
}

/* postgres_check () found the schema incomplete. */
void
triage_store_postgres_distrust_schema (TriageStorePostgres *self)
{
  self->schema_trusted = FALSE;
}

/* postgres_check () found the session read-only. */
void
triage_store_postgres_renew_session (TriageStorePostgres *self)
{
  triage_pg_connection_renew (triage_pg_writer_connection (self->writer));
}

/* ---- the object ---- */

static void
on_listener_event (const TriageEventRow *event,
                   gpointer              data)
{
  triage_store_emit_event (TRIAGE_STORE (data), event);
}

static gboolean
owns_backend (int      backend_pid,
              gpointer data)
{
  TriageStorePostgres *self = data;

  return self->writer != NULL && triage_pg_writer_owns_backend (self->writer, backend_pid);
}

/* A batch of this server's is done: its events go to the streams here
 * without a read of the log, in id order with every other server's
 * (triage-pg-listener.c). */
static void
postgres_own_events (TriageStore *store,
                     GPtrArray   *events,
                     gboolean     committed)
{
  TriageStorePostgres *self = TRIAGE_STORE_POSTGRES (store);

  if (self->listener != NULL && (events->len > 0 || !committed))
    triage_pg_listener_add_own (self->listener, events, committed);
}

/* Connects to the database @uri names (a libpq URI without a password;
 * @password, if not NULL, is used), creates or migrates its schema, and
 * starts listening for the events of every server on it. */
TriageStore *
triage_store_postgres_new (const char *uri,
                           const char *password,
                           GError    **error)
{
  g_autoptr(TriageStorePostgres) self = NULL;
  g_autoptr(TriagePgLink) link = triage_pg_link_new (uri, password, error);
  TriagePgConnection *conns[TRIAGE_PG_WRITER_FLIGHTS + 1];
  g_autofree char *probe = NULL;

  if (link == NULL)
    return NULL;
  self = g_object_new (TRIAGE_TYPE_STORE_POSTGRES, NULL);
  self->link = triage_pg_link_ref (link);
  for (guint i = 0; i < G_N_ELEMENTS (conns); i++)
    {
      conns[i] = triage_pg_connection_new (link, "triage-server", TRIAGE_PG_NO_SEQSCAN, error);
      if (conns[i] == NULL)
        {
          while (i-- > 0)
            triage_pg_connection_free (conns[i]);
          return NULL;
        }
    }
  self->writer = triage_pg_writer_new (conns);
  if (!triage_pg_migrate (conns[0], error))
    return NULL;
  probe = triage_pg_schema_lock_probe ();
  triage_pg_link_set_lock_probe (link, probe);
  /* Rate limits are shared, approximate state that need not survive a
   * crash: this connection commits without waiting for the disk. */
  self->side = triage_pg_connection_new (link, "triage-server", "SET synchronous_commit = off",
                                         error);
  if (self->side == NULL)
    return NULL;
  self->listener = triage_pg_listener_new (link, on_listener_event, owns_backend, self, error);
  if (self->listener == NULL)
    return NULL;
  return TRIAGE_STORE (g_steal_pointer (&self));
}

static void
triage_store_postgres_dispose (GObject *object)
{
  TriageStorePostgres *self = TRIAGE_STORE_POSTGRES (object);

  /* No event is handed on while the server takes itself apart. */
  g_clear_pointer (&self->listener, triage_pg_listener_free);
  G_OBJECT_CLASS (triage_store_postgres_parent_class)->dispose (object);
}

static void
triage_store_postgres_finalize (GObject *object)
{
  TriageStorePostgres *self = TRIAGE_STORE_POSTGRES (object);

  /* The base class committed the open batch in its dispose. */
  g_clear_pointer (&self->writer, triage_pg_writer_free);
  g_clear_pointer (&self->side, triage_pg_connection_free);
  g_clear_pointer (&self->link, triage_pg_link_unref);
  g_hash_table_unref (self->services);
  g_hash_table_unref (self->recipients);
  g_queue_free_full (self->recipients_age, g_free);
  G_OBJECT_CLASS (triage_store_postgres_parent_class)->finalize (object);
}

static void
triage_store_postgres_class_init (TriageStorePostgresClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TriageStoreClass *store_class = TRIAGE_STORE_CLASS (klass);

  object_class->dispose = triage_store_postgres_dispose;
  object_class->finalize = triage_store_postgres_finalize;

  store_class->shared = TRUE;
  store_class->flights = TRIAGE_PG_WRITER_FLIGHTS;

  store_class->trust_schema = postgres_trust_schema;
  store_class->begin = postgres_begin;
  store_class->insert_events = postgres_insert_events;
  store_class->commit = postgres_commit;
  store_class->commit_start = postgres_commit_start;
  store_class->commit_wait = postgres_commit_wait;
  store_class->rollback = postgres_rollback;
  store_class->own_events = postgres_own_events;

  store_class->insert_notification = postgres_insert_notification;
  store_class->is_recipient = postgres_is_recipient;
  store_class->recipients = postgres_recipients;
  store_class->transition = postgres_transition;
  store_class->mark_delivered = postgres_mark_delivered;
  store_class->next_deadline = postgres_next_deadline;
  store_class->expire_overdue = postgres_expire_overdue;

  store_class->take_rate = postgres_take_rate;

  triage_store_postgres_services_class_init (store_class);
  triage_store_postgres_reads_class_init (store_class);
  triage_store_postgres_afp_class_init (store_class);
  triage_store_postgres_webhooks_class_init (store_class);
  triage_store_postgres_events_class_init (store_class);
  triage_store_postgres_ops_class_init (store_class);
  triage_store_postgres_delivered_class_init (store_class);
}

static void
triage_store_postgres_init (TriageStorePostgres *self)
{
  self->services = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                          (GDestroyNotify) triage_service_row_free);
  self->recipients = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                            (GDestroyNotify) g_strfreev);
  self->recipients_age = g_queue_new ();
}
