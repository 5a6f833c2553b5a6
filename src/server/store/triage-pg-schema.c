/* triage-pg-schema.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The PostgreSQL schema, versioned: triage_schema holds the version, and
 * every migration up to this server's runs in a transaction of its own, all
 * under a session advisory lock, so that servers starting together on one
 * database migrate it once, one after the other. The tables are those of the
 * SQLite schema (times are unix µs, statuses AtpStatus numbers), plus the
 * rate limits that servers share and the notification an event is about.
 */

#define G_LOG_DOMAIN "triage-store-postgres"

#include "atp.h"
#include "triage-pg-schema.h"

/* Version N is migrations[N - 1]. */
static const char *migrations[] = {
  /* 1 */
  "CREATE TABLE users (id TEXT PRIMARY KEY, name TEXT, token_hash TEXT UNIQUE);"
  "CREATE TABLE services (id TEXT PRIMARY KEY, name TEXT UNIQUE NOT NULL, description TEXT,"
  "  callback_url TEXT, webhook_secret TEXT, key_hash TEXT UNIQUE);"
  "CREATE TABLE service_recipients (service_id TEXT NOT NULL, user_id TEXT NOT NULL,"
  "  PRIMARY KEY (service_id, user_id));"
  "CREATE TABLE notifications (seq BIGSERIAL PRIMARY KEY, id TEXT UNIQUE NOT NULL,"
  "  service_id TEXT NOT NULL, body TEXT NOT NULL, json TEXT NOT NULL, answer TEXT NOT NULL,"
  "  project TEXT, status INTEGER NOT NULL, created_at BIGINT NOT NULL, deadline BIGINT,"
  "  response TEXT, updated_at BIGINT NOT NULL);"
  /* Only pending notifications have a deadline to watch (0, 1, 2: created,
   * delivered, acknowledged). */
  "CREATE INDEX notifications_deadline ON notifications (deadline)"
  "  WHERE deadline IS NOT NULL AND status IN (0, 1, 2);"
  "CREATE TABLE notification_recipients (notification_seq BIGINT NOT NULL, user_id TEXT NOT NULL,"
  "  PRIMARY KEY (user_id, notification_seq));"
  "CREATE INDEX notification_recipients_seq ON notification_recipients (notification_seq);"
  "CREATE TABLE events (id BIGSERIAL PRIMARY KEY, user_id TEXT NOT NULL, type TEXT NOT NULL,"
  "  data TEXT NOT NULL, notification_id TEXT, created_at BIGINT NOT NULL);"
  "CREATE INDEX events_user ON events (user_id, id);"
  "CREATE INDEX events_age ON events (created_at);"
  "CREATE TABLE webhook_deliveries (id BIGSERIAL PRIMARY KEY, request_id TEXT UNIQUE NOT NULL,"
  "  service_id TEXT NOT NULL, notification_id TEXT NOT NULL, body TEXT NOT NULL,"
  "  attempts INTEGER NOT NULL DEFAULT 0, next_attempt BIGINT, last_error TEXT,"
  "  created_at BIGINT NOT NULL);"
  "CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt)"
  "  WHERE next_attempt IS NOT NULL;"
  /* GCRA state: key → theoretical arrival time (unix µs) */
  "CREATE TABLE rate_limits (key TEXT PRIMARY KEY, tat BIGINT NOT NULL);",
  /* 2: requests of every protocol (AtpProtocol; 0 = ATP): the agent's own id
   * of a request (an AITP request_decision.id) is unique per service and
   * protocol; an event knows the protocol of its request (the streams'
   * protocols= filter; -1 = every stream); a webhook carries its event name */
  "ALTER TABLE notifications ADD COLUMN protocol INTEGER NOT NULL DEFAULT 0;"
  "ALTER TABLE notifications ADD COLUMN protocol_id TEXT;"
  "CREATE UNIQUE INDEX notifications_protocol_id ON notifications (service_id, protocol, protocol_id)"
  "  WHERE protocol_id IS NOT NULL;"
  "ALTER TABLE events ADD COLUMN protocol INTEGER NOT NULL DEFAULT -1;"
  "ALTER TABLE webhook_deliveries ADD COLUMN event TEXT;",
  /* 3: AFP review sessions (triage-store-postgres-afp.c) */
  "CREATE TABLE afp_sessions (id TEXT PRIMARY KEY, service_id TEXT NOT NULL,"
  "  created_at BIGINT NOT NULL, last_iteration BIGINT NOT NULL);"
  "CREATE TABLE afp_reviews (notification_id TEXT PRIMARY KEY, session_id TEXT NOT NULL,"
  "  iteration BIGINT NOT NULL);"
  "CREATE INDEX afp_reviews_session ON afp_reviews (session_id, iteration);",
  /* 4: an event that announces a new notification may refer to it
   * (notification_id, data NULL) instead of holding another copy of its
   * JSON; a replay or a listener reads the notification's. */
  "ALTER TABLE events ALTER COLUMN data DROP NOT NULL;",
  /* 5: retention (--retain) finds the oldest settled requests (3, 4, 5:
   * responded, expired, invalidated) without reading the table. */
  "CREATE INDEX notifications_settled ON notifications (updated_at)"
  "  WHERE status IN (3, 4, 5);",
  /* 6: the service's reason for withdrawing a request, kept with it so a
   * read (a client's after it was away) says why, as the status update did. */
  "ALTER TABLE notifications ADD COLUMN reason TEXT;",
};

G_STATIC_ASSERT (ATP_STATUS_CREATED == 0 && ATP_STATUS_DELIVERED == 1 &&
                 ATP_STATUS_ACKNOWLEDGED == 2);

/* Every table and index the migrations above make (a key's or a UNIQUE
 * column's index by the name PostgreSQL gives it), in the order pg_restore
 * makes them: tables first, then their keys and indexes, built once their
 * rows are in. A database that lacks one is being restored, or a restore
 * was cut short (postgres_check ()): a token not found in it may be one not
 * loaded yet. Keep it in step with the migrations: a fresh server that is
 * not ready says which name is missing. */
static const char * const relations[] = {
  "triage_schema", "users", "services", "service_recipients", "notifications",
  "notification_recipients", "events", "webhook_deliveries", "rate_limits", "afp_sessions",
  "afp_reviews",
  "users_pkey", "users_token_hash_key", "services_pkey", "services_name_key",
  "services_key_hash_key", "service_recipients_pkey", "notifications_pkey",
  "notifications_id_key", "notifications_deadline", "notification_recipients_pkey",
  "notification_recipients_seq", "events_pkey", "events_user", "events_age",
  "webhook_deliveries_pkey", "webhook_deliveries_request_id_key", "webhook_deliveries_due",
  "rate_limits_pkey", "notifications_protocol_id", "afp_sessions_pkey", "afp_reviews_pkey",
  "afp_reviews_session", "notifications_settled",
  NULL
};
/* The first of relations[] are the tables: the rest are their indexes. */
#define N_TABLES 11

static gboolean
run (TriagePgConnection *conn,
     const char         *sql,
     GError            **error)
{
  g_autoptr(PGresult) result = triage_pg_exec (conn, sql, error);

  return result != NULL;
}

static gboolean
migrate_locked (TriagePgConnection *conn,
                GError            **error)
{
  g_autoptr(PGresult) current = NULL, exists = NULL;
  int version;

  /* A database at this server's version needs nothing created: a role that
   * may only read and write the tables (its owner migrates) starts too, where
   * the CREATE below was refused ("permission denied for schema"). */
  exists = triage_pg_exec (conn, "SELECT to_regclass ('triage_schema') IS NOT NULL", error);
  if (exists == NULL)
    return FALSE;
  if (g_strcmp0 (PQgetvalue (exists, 0, 0), "t") == 0)
    {
      if ((current = triage_pg_exec (conn, "SELECT version FROM triage_schema", error)) == NULL)
        return FALSE;
      if (PQntuples (current) == 1 &&
          triage_pg_int (current, 0, 0) == (gint64) G_N_ELEMENTS (migrations))
        return TRUE;
      g_clear_pointer (&current, PQclear);
    }
  if (!run (conn, "CREATE TABLE IF NOT EXISTS triage_schema (version INTEGER NOT NULL);"
                  "INSERT INTO triage_schema SELECT 0 WHERE NOT EXISTS (SELECT FROM triage_schema)",
            error) ||
      (current = triage_pg_exec (conn, "SELECT version FROM triage_schema", error)) == NULL)
    return FALSE;
  version = (int) triage_pg_int (current, 0, 0);
  if (version > (int) G_N_ELEMENTS (migrations))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "the database has schema version %d, newer than this server (%d)",
                   version, (int) G_N_ELEMENTS (migrations));
      return FALSE;
    }
  for (; version < (int) G_N_ELEMENTS (migrations); version++)
    {
      /* A migration may rewrite a large table: it gets the time it takes
       * (the server does not serve yet). */
      g_autofree char *sql = g_strdup_printf ("BEGIN; SET LOCAL statement_timeout = 0;"
                                              " SET LOCAL lock_timeout = 0; %s"
                                              " UPDATE triage_schema SET version = %d; COMMIT;",
                                              migrations[version], version + 1);

      if (!run (conn, sql, error))
        {
          g_autoptr(PGresult) rollback = triage_pg_exec (conn, "ROLLBACK", NULL);

          g_prefix_error (error, "schema version %d: ", version + 1);
          return FALSE;
        }
      g_message ("database schema migrated to version %d", version + 1);
    }
  return TRUE;
}

/* The schema version this server migrates a database to. */
int
triage_pg_schema_version (void)
{
  return (int) G_N_ELEMENTS (migrations);
}

/* The tables and indexes of this server's schema version, NULL-terminated. */
const char * const *
triage_pg_schema_relations (void)
{
  return relations;
}

/* A statement that takes the lock a write takes (ROW EXCLUSIVE) on every
 * table requests use, without waiting (NOWAIT: 55P03 at once if one is
 * held by another session in a mode that conflicts: LOCK TABLE, VACUUM
 * FULL, a restore's DROP or TRUNCATE, a CREATE INDEX), inside a transaction
 * the caller opens and ends. Not triage_schema: only a migration, at
 * start, locks it. */
char *
triage_pg_schema_lock_probe (void)
{
  GString *sql = g_string_new ("LOCK TABLE ");

  G_STATIC_ASSERT (N_TABLES < G_N_ELEMENTS (relations));
  for (guint i = 1; i < N_TABLES; i++)
    g_string_append_printf (sql, "%s%s", i > 1 ? ", " : "", relations[i]);
  g_string_append (sql, " IN ROW EXCLUSIVE MODE NOWAIT");
  return g_string_free (sql, FALSE);
}

/* Creates the schema, or brings it up to this server's version. */
gboolean
triage_pg_migrate (TriagePgConnection *conn,
                   GError            **error)
{
  /* Another server may be migrating a large table (an index of every
   * notification): wait for it as long as it takes, whatever the session's
   * lock_timeout and statement_timeout (the lock is the session's, it
   * outlasts the transaction that took it). */
  g_autofree char *lock = g_strdup_printf ("BEGIN; SET LOCAL lock_timeout = 0;"
                                           " SET LOCAL statement_timeout = 0;"
                                           " SELECT pg_advisory_lock (%" G_GINT64_FORMAT "); COMMIT;",
                                           TRIAGE_PG_MIGRATION_LOCK);
  g_autofree char *unlock = g_strdup_printf ("SELECT pg_advisory_unlock (%" G_GINT64_FORMAT ")",
                                             TRIAGE_PG_MIGRATION_LOCK);
  gboolean ok;

  triage_pg_connection_set_patient (conn, TRUE);
  if (!run (conn, lock, error))
    {
      g_autoptr(PGresult) rollback = triage_pg_exec (conn, "ROLLBACK", NULL);

      triage_pg_connection_set_patient (conn, FALSE);
      return FALSE;
    }
  ok = migrate_locked (conn, error);
  triage_pg_connection_set_patient (conn, FALSE);
  run (conn, unlock, NULL);
  return ok;
}
