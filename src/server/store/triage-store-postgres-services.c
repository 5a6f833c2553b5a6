/* triage-store-postgres-services.c — users and services in the PostgreSQL backend
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A name or an id registered twice (by two servers at once) is no error:
 * ON CONFLICT DO NOTHING, and the caller learns the row exists. A service
 * never changes once registered, so every one found is kept.
 */

#define G_LOG_DOMAIN "triage-store-postgres"

#include "triage-pg-connection.h"
#include "triage-store-postgres.h"

#define SERVICES_KEPT 1024

/* A lookup the database did not answer (the writer logged why: a session
 * ended inside a batch, a lock or statement timeout, a stall). */
static void
set_lookup_error (GError    **error,
                  const char *what)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
               "the database did not answer the lookup of %s", what);
}

static gboolean
postgres_user_exists (TriageStore *store,
                      const char  *id,
                      GError     **error)
{
  TriagePgParam params[] = { id };
  g_autoptr(PGresult) result = triage_store_postgres_query (TRIAGE_STORE_POSTGRES (store),
                                                             "SELECT 1 FROM users WHERE id = $1",
                                                             1, params);

  if (result == NULL)
    set_lookup_error (error, "a user");
  return result != NULL && PQntuples (result) > 0;
}

/* An insert ON CONFLICT DO NOTHING: no row is a row that exists; no result
 * is a failure (the writer logged why), never told as "already exists". */
static TriageStoreInsert
postgres_add_user (TriageStore *store,
                   const char  *id,
                   const char  *name,
                   const char  *token_hash)
{
  TriagePgParam params[] = { id, name, token_hash };
  g_autoptr(PGresult) result = triage_store_postgres_query (TRIAGE_STORE_POSTGRES (store),
                                                             "INSERT INTO users (id, name, token_hash)"
                                                             " VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                                                             3, params);

  if (result == NULL)
    return TRIAGE_STORE_INSERT_FAILED;
  return triage_pg_changed (result) == 1 ? TRIAGE_STORE_INSERTED : TRIAGE_STORE_INSERT_EXISTS;
}

static char *
postgres_user_by_token (TriageStore *store,
                        const char  *token_hash,
                        GError     **error)
{
  TriagePgParam params[] = { token_hash };
  g_autoptr(PGresult) result = triage_store_postgres_query (TRIAGE_STORE_POSTGRES (store),
                                                             "SELECT id FROM users"
                                                             " WHERE token_hash = $1", 1, params);

  if (result == NULL)
    {
      set_lookup_error (error, "a user token");
      return NULL;
    }
  return PQntuples (result) > 0 ? triage_pg_text (result, 0, 0) : NULL;
}

static TriageStoreInsert
postgres_add_service (TriageStore        *store,
                      const char         *id,
                      const char         *name,
                      const char         *description,
                      const char         *callback_url,
                      const char         *webhook_secret,
                      const char         *key_hash,
                      const char * const *recipients)
{
  g_autofree char *users = triage_pg_text_array (recipients);
  TriagePgParam params[] = { id, name, description, callback_url, webhook_secret, key_hash, users };
  g_autoptr(PGresult) result = triage_store_postgres_query (TRIAGE_STORE_POSTGRES (store),
    "WITH s AS (INSERT INTO services (id, name, description, callback_url, webhook_secret, key_hash)"
    "  VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING id),"
    " r AS (INSERT INTO service_recipients (service_id, user_id)"
    "  SELECT s.id, u FROM s, unnest ($7::text[]) AS u ON CONFLICT DO NOTHING)"
    " SELECT COUNT (*) FROM s", 7, params);

  if (result == NULL)
    return TRIAGE_STORE_INSERT_FAILED;
  return PQntuples (result) > 0 && triage_pg_int (result, 0, 0) == 1 ? TRIAGE_STORE_INSERTED
                                                                     : TRIAGE_STORE_INSERT_EXISTS;
}

/* A service never changes once registered (triage-store.h), so every one
 * found is kept: authenticating an agent's request costs no round trip.
 * Neither a miss nor a failure (@error, naming @what) is kept. */
static TriageServiceRow *
service_by (TriageStore *store,
            const char  *sql,
            const char  *value,
            const char  *what,
            GError     **error)
{
  TriageStorePostgres *self = TRIAGE_STORE_POSTGRES (store);
  GHashTable *services = triage_store_postgres_services (self);
  g_autofree char *key = g_strconcat (sql, "\n", value, NULL);
  TriagePgParam params[] = { value };
  g_autoptr(PGresult) result = NULL;
  TriageServiceRow *row = g_hash_table_lookup (services, key);

  if (row != NULL)
    return triage_service_row_copy (row);
  result = triage_store_postgres_query (self, sql, 1, params);
  if (result == NULL)
    {
      set_lookup_error (error, what);
      return NULL;
    }
  if (PQntuples (result) == 0)
    return NULL;
  row = g_new0 (TriageServiceRow, 1);
  row->id = triage_pg_text (result, 0, 0);
  row->name = triage_pg_text (result, 0, 1);
  row->callback_url = triage_pg_text (result, 0, 2);
  row->webhook_secret = triage_pg_text (result, 0, 3);
  if (g_hash_table_size (services) >= SERVICES_KEPT)
    g_hash_table_remove_all (services);
  g_hash_table_insert (services, g_steal_pointer (&key), triage_service_row_copy (row));
  return row;
}

#define SERVICE_SELECT "SELECT id, name, callback_url, webhook_secret FROM services WHERE "

static TriageServiceRow *
postgres_service_by_key (TriageStore *store,
                         const char  *key_hash,
                         GError     **error)
{
  return service_by (store, SERVICE_SELECT "key_hash = $1", key_hash, "a service API key", error);
}

static TriageServiceRow *
postgres_service_by_id (TriageStore *store,
                        const char  *id,
                        GError     **error)
{
  return service_by (store, SERVICE_SELECT "id = $1", id, "a service", error);
}

static TriageServiceRow *
postgres_service_by_name (TriageStore *store,
                          const char  *name,
                          GError     **error)
{
  return service_by (store, SERVICE_SELECT "name = $1", name, "a service", error);
}

void
triage_store_postgres_services_class_init (TriageStoreClass *store_class)
{
  store_class->user_exists = postgres_user_exists;
  store_class->add_user = postgres_add_user;
  store_class->user_by_token = postgres_user_by_token;
  store_class->add_service = postgres_add_service;
  store_class->service_by_key = postgres_service_by_key;
  store_class->service_by_id = postgres_service_by_id;
  store_class->service_by_name = postgres_service_by_name;
}
