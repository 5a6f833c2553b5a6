/* triage-store-postgres-ops.c — what operators ask of the PostgreSQL backend
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The readiness check and the pending count of /metrics. The count is of
 * the whole database: every server on it reports the same figure.
 */

#define G_LOG_DOMAIN "triage-store-postgres"

#include <string.h>

#include <gio/gio.h>

#include "atp.h"
#include "triage-pg-connection.h"
#include "triage-pg-schema.h"
#include "triage-store-postgres.h"

/* A table held against writes (a LOCK TABLE, VACUUM FULL, a restore):
 * every request that needs it is refused (503), so the server is not
 * ready; said as a lock, not "does not answer", so that the operator looks
 * for who holds it (pg_locks), not at the network. */
static gboolean
say_locked (TriageStorePostgres *self,
            const GError        *probe_error,
            GError             **error)
{
  const char *locked = triage_store_postgres_get_locked (self);

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY,
               "the database is locked (%s): ready once the lock is free",
               locked != NULL ? locked : probe_error->message);
  return FALSE;
}

/* The database answers, and its schema is whole and the version this
 * server knows (a newer server migrating it during a rolling upgrade makes
 * this one unready rather than wrong: G_IO_ERROR_FAILED). A database that
 * answers with no schema at all was dropped and made again, or emptied,
 * under the running server; one with some of the tables or indexes, or no
 * version yet, is being restored (pg_restore makes the tables, loads them
 * one by one, then builds keys and indexes) or a restore was cut short:
 * G_IO_ERROR_NOT_INITIALIZED, said so, as "does not answer" sent the
 * operator after the network, and a token not found then is not judged
 * (triage-server-rest.c: 503, not 401). The server does not make a new
 * schema, as it does at start: a restore running into that new, empty
 * database would fail on tables already there. */
static gboolean
postgres_check (TriageStore  *store,
                GError      **error)
{
  TriageStorePostgres *self = TRIAGE_STORE_POSTGRES (store);
  const char * const *relations = triage_pg_schema_relations ();
  g_autofree char *names = triage_pg_text_array (relations);
  TriagePgParam params[] = { names };
  g_autoptr(PGresult) missing = NULL;
  g_autoptr(PGresult) result = NULL;
  gint64 n_missing;
  int version;
  g_autoptr(GError) probe_error = NULL;
  gboolean locked;

  /* First, so that the statements below run with the sessions' lock waits
   * cut short if a table is held (none of them reads one that is). */
  locked = !triage_store_postgres_probe_lock (self, &probe_error) &&
           g_error_matches (probe_error, G_IO_ERROR, G_IO_ERROR_BUSY);
  /* Asked first, so that a probe of an emptied database is no failed
   * statement (a warning in the log at every probe of a load balancer). */
  missing = triage_store_postgres_query (self,
                                         "SELECT COUNT (*), (array_agg (name ORDER BY n))[1]"
                                         " FROM unnest ($1::text[]) WITH ORDINALITY AS r (name, n)"
                                         " WHERE to_regclass (name) IS NULL", 1, params);
  if (missing == NULL && locked)
    return say_locked (self, probe_error, error);
  if (missing == NULL || PQntuples (missing) != 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED, "the database does not answer");
      return FALSE;
    }
  n_missing = triage_pg_int (missing, 0, 0);
  if (n_missing == (gint64) g_strv_length ((GStrv) relations))
    {
      triage_store_postgres_distrust_schema (self);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                   "the database has no Triage schema: it was emptied or made again while "
                   "this server ran; restore it (with the servers stopped), or restart the "
                   "server to make a new one");
      return FALSE;
    }
  if (n_missing > 0)
    {
      triage_store_postgres_distrust_schema (self);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                   "the database's Triage schema is incomplete (%s and %" G_GINT64_FORMAT
                   " more missing): it is being restored, or a restore was cut short; "
                   "ready once it is whole", PQgetvalue (missing, 0, 1), n_missing - 1);
      return FALSE;
    }
  result = triage_store_postgres_query (self, "SELECT version, current_setting"
                                        " ('transaction_read_only') FROM triage_schema", 0, NULL);
  if (result == NULL && locked)
    return say_locked (self, probe_error, error);
  if (result == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED, "the database does not answer");
      return FALSE;
    }
  if (PQntuples (result) != 1)
    {
      triage_store_postgres_distrust_schema (self);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                   "the database's Triage schema is incomplete (triage_schema holds %d rows, "
                   "not its version): it is being restored, or a restore was cut short; "
                   "ready once it is whole", PQntuples (result));
      return FALSE;
    }
  version = (int) triage_pg_int (result, 0, 0);
  if (version != triage_pg_schema_version ())
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "the database has schema version %d, this server expects %d", version,
                   triage_pg_schema_version ());
      return FALSE;
    }
  /* The schema is whole (G_IO_ERROR_BUSY: a token not found is judged),
   * a table is held. */
  if (locked)
    return say_locked (self, probe_error, error);
  /* Every change would fail (503): a load balancer is to send its work to
   * a server that can store it. The session is made again before its next
   * statement, which finds the database writable once it is. */
  if (g_strcmp0 (PQgetvalue (result, 0, 1), "on") == 0)
    {
      triage_store_postgres_renew_session (self);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_READ_ONLY,
                   "the database is read-only (a hot standby, or "
                   "default_transaction_read_only): it takes no change; ready once it does");
      return FALSE;
    }
  return TRUE;
}

static gboolean
postgres_count_pending (TriageStore *store,
                        gint64      *counts,
                        guint        n_counts)
{
  g_autoptr(PGresult) result = NULL;

  G_STATIC_ASSERT (ATP_STATUS_CREATED == 0 && ATP_STATUS_DELIVERED == 1 &&
                   ATP_STATUS_ACKNOWLEDGED == 2);
  result = triage_store_postgres_query (TRIAGE_STORE_POSTGRES (store),
                                        "SELECT protocol, COUNT (*) FROM notifications"
                                        " WHERE status IN (0, 1, 2) GROUP BY protocol", 0, NULL);
  for (int i = 0; result != NULL && i < PQntuples (result); i++)
    {
      gint64 protocol = triage_pg_int (result, i, 0);

      if (protocol >= 0 && (guint64) protocol < n_counts)
        counts[protocol] = triage_pg_int (result, i, 1);
    }
  return result != NULL;
}

static gboolean
postgres_count_webhooks (TriageStore *store,
                         gint64      *queued,
                         gint64      *failed)
{
  g_autoptr(PGresult) result = NULL;

  result = triage_store_postgres_query (TRIAGE_STORE_POSTGRES (store),
                                        "SELECT COUNT (next_attempt), COUNT (*) - COUNT (next_attempt)"
                                        " FROM webhook_deliveries", 0, NULL);
  if (result == NULL || PQntuples (result) != 1)
    return FALSE;
  *queued = triage_pg_int (result, 0, 0);
  *failed = triage_pg_int (result, 0, 1);
  return TRUE;
}

/* The oldest requests settled before @before, at most @limit, go with what
 * refers to them in one statement (found through the index of settled
 * requests' times, schema version 5); rows another server is forgetting at
 * the same time are skipped, not waited for (a wait past lock_timeout
 * would fail the clients' writes of the same batch). */
static guint
postgres_forget_settled (TriageStore *store,
                         gint64       before,
                         guint        limit)
{
  TriageStorePostgres *self = TRIAGE_STORE_POSTGRES (store);
  TriagePgNumber when, most;
  TriagePgParam params[] = { triage_pg_number (&when, before), triage_pg_number (&most, limit) };
  g_autoptr(PGresult) result = NULL, sessions = NULL;

  G_STATIC_ASSERT (ATP_STATUS_RESPONDED == 3 && ATP_STATUS_EXPIRED == 4 &&
                   ATP_STATUS_INVALIDATED == 5);
  result = triage_store_postgres_query (self,
                                        "WITH gone AS (SELECT seq, id FROM notifications"
                                        "  WHERE status IN (3, 4, 5) AND updated_at < $1::bigint"
                                        "  ORDER BY updated_at LIMIT $2::bigint FOR UPDATE SKIP LOCKED),"
                                        " recipients AS (DELETE FROM notification_recipients"
                                        "  WHERE notification_seq IN (SELECT seq FROM gone)),"
                                        " reviews AS (DELETE FROM afp_reviews"
                                        "  WHERE notification_id IN (SELECT id FROM gone))"
                                        " DELETE FROM notifications WHERE seq IN (SELECT seq FROM gone)",
                                        2, params);
  if (result == NULL)
    return 0;
  sessions = triage_store_postgres_query (self,
                                          "DELETE FROM afp_sessions WHERE id IN (SELECT s.id"
                                          " FROM afp_sessions s WHERE s.created_at < $1::bigint"
                                          " AND NOT EXISTS (SELECT 1 FROM afp_reviews r"
                                          " WHERE r.session_id = s.id) FOR UPDATE SKIP LOCKED)",
                                          1, params);
  return (guint) triage_pg_changed (result);
}

static guint64
postgres_count_lock_waits (TriageStore *store,
                           gboolean    *locked)
{
  TriageStorePostgres *self = TRIAGE_STORE_POSTGRES (store);

  *locked = triage_store_postgres_get_locked (self) != NULL;
  return triage_store_postgres_count_lock_waits (self);
}

void
triage_store_postgres_ops_class_init (TriageStoreClass *store_class)
{
  store_class->count_lock_waits = postgres_count_lock_waits;
  store_class->forget_settled = postgres_forget_settled;
  store_class->check = postgres_check;
  store_class->count_pending = postgres_count_pending;
  store_class->count_webhooks = postgres_count_webhooks;
}
