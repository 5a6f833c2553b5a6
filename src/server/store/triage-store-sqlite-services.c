/* triage-store-sqlite-services.c — users and services in the SQLite backend
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A service never changes once registered (triage-store.h), so every one
 * found is kept in the backend's cache, as the PostgreSQL store does.
 */

#define G_LOG_DOMAIN "triage-store-sqlite"

#include <gio/gio.h>
#include <sqlite3.h>

#include "atp.h"
#include "triage-store-sqlite-private.h"

/* As many as the PostgreSQL store keeps (triage-store-postgres.c). */
#define SERVICES_KEPT   1024

/* A lookup whose step neither found a row nor ran out of them (SQLITE_BUSY,
 * an I/O error, …) failed: the database did not answer. */
static void
set_lookup_error (TriageStoreSqlite *self,
                  const char        *what,
                  GError           **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
               "the database did not answer the lookup of %s: %s", what,
               sqlite3_errmsg (self->db));
}

static gboolean
sqlite_user_exists (TriageStore *store,
                    const char  *id,
                    GError     **error)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  sqlite3_stmt *stmt = triage_store_sqlite_statement (self, "SELECT 1 FROM users WHERE id = ?");
  int rc;

  triage_store_sqlite_bind_text (stmt, 1, id);
  rc = triage_store_sqlite_step (self, stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    set_lookup_error (self, "a user", error);
  triage_store_sqlite_done (stmt);
  return rc == SQLITE_ROW;
}

/* What the step of an insert came to: a constraint (the id or name is
 * taken) is a row that exists; anything else (SQLITE_BUSY past the busy
 * timeout, an I/O error, a full disk) is a failure, which must not be told
 * as "already exists". */
static TriageStoreInsert
insert_result (int rc)
{
  if (rc == SQLITE_DONE)
    return TRIAGE_STORE_INSERTED;
  return (rc & 0xff) == SQLITE_CONSTRAINT ? TRIAGE_STORE_INSERT_EXISTS : TRIAGE_STORE_INSERT_FAILED;
}

static TriageStoreInsert
sqlite_add_user (TriageStore *store,
                 const char  *id,
                 const char  *name,
                 const char  *token_hash)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  sqlite3_stmt *stmt;
  TriageStoreInsert inserted;

  stmt = triage_store_sqlite_statement (self,
    "INSERT INTO users (id, name, token_hash) VALUES (?, ?, ?)");
  triage_store_sqlite_bind_text (stmt, 1, id);
  triage_store_sqlite_bind_text (stmt, 2, name);
  triage_store_sqlite_bind_text (stmt, 3, token_hash);
  inserted = insert_result (triage_store_sqlite_step (self, stmt));
  triage_store_sqlite_done (stmt);
  return inserted;
}

static char *
sqlite_user_by_token (TriageStore *store,
                      const char  *token_hash,
                      GError     **error)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  sqlite3_stmt *stmt = triage_store_sqlite_statement (self,
    "SELECT id FROM users WHERE token_hash = ?");
  char *id = NULL;
  int rc;

  triage_store_sqlite_bind_text (stmt, 1, token_hash);
  rc = triage_store_sqlite_step (self, stmt);
  if (rc == SQLITE_ROW)
    id = triage_store_sqlite_column_text (stmt, 0);
  else if (rc != SQLITE_DONE)
    set_lookup_error (self, "a user token", error);
  triage_store_sqlite_done (stmt);
  return id;
}

static TriageStoreInsert
sqlite_add_service (TriageStore        *store,
                    const char         *id,
                    const char         *name,
                    const char         *description,
                    const char         *callback_url,
                    const char         *webhook_secret,
                    const char         *key_hash,
                    const char * const *recipients)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  sqlite3_stmt *stmt;
  TriageStoreInsert inserted;

  if (!triage_store_sqlite_exec (self, "SAVEPOINT service", NULL))
    return TRIAGE_STORE_INSERT_FAILED;
  stmt = triage_store_sqlite_statement (self,
    "INSERT INTO services (id, name, description, callback_url,"
    " webhook_secret, key_hash) VALUES (?, ?, ?, ?, ?, ?)");
  triage_store_sqlite_bind_text (stmt, 1, id);
  triage_store_sqlite_bind_text (stmt, 2, name);
  triage_store_sqlite_bind_text (stmt, 3, description);
  triage_store_sqlite_bind_text (stmt, 4, callback_url);
  triage_store_sqlite_bind_text (stmt, 5, webhook_secret);
  triage_store_sqlite_bind_text (stmt, 6, key_hash);
  inserted = insert_result (triage_store_sqlite_step (self, stmt));
  triage_store_sqlite_done (stmt);
  for (guint i = 0; inserted == TRIAGE_STORE_INSERTED && recipients != NULL && recipients[i] != NULL;
       i++)
    {
      stmt = triage_store_sqlite_statement (self, "INSERT OR IGNORE INTO service_recipients"
                                   " (service_id, user_id) VALUES (?, ?)");
      triage_store_sqlite_bind_text (stmt, 1, id);
      triage_store_sqlite_bind_text (stmt, 2, recipients[i]);
      if (triage_store_sqlite_step (self, stmt) != SQLITE_DONE)
        inserted = TRIAGE_STORE_INSERT_FAILED;
      triage_store_sqlite_done (stmt);
    }
  if (inserted != TRIAGE_STORE_INSERTED)
    triage_store_sqlite_exec (self, "ROLLBACK TO service", NULL);
  triage_store_sqlite_exec (self, "RELEASE service", NULL);
  return inserted;
}

static TriageServiceRow *
service_by (TriageStoreSqlite *self,
            const char        *column,
            const char        *value,
            const char        *what,
            GError           **error)
{
  g_autofree char *key = g_strconcat (column, "\n", value, NULL);
  TriageServiceRow *row = g_hash_table_lookup (self->services, key);
  g_autofree char *sql = NULL;
  sqlite3_stmt *stmt;
  int rc;

  /* A service never changes once registered (triage-store.h): every one
   * found is kept, as the PostgreSQL store does; neither a miss nor a
   * failure (@error, naming @what) is. */
  if (row != NULL)
    return triage_service_row_copy (row);
  sql = g_strdup_printf ("SELECT id, name, callback_url, webhook_secret FROM services WHERE %s = ?",
                         column);
  stmt = triage_store_sqlite_statement (self, sql);
  triage_store_sqlite_bind_text (stmt, 1, value);
  rc = triage_store_sqlite_step (self, stmt);
  if (rc == SQLITE_ROW)
    {
      row = g_new0 (TriageServiceRow, 1);
      row->id = triage_store_sqlite_column_text (stmt, 0);
      row->name = triage_store_sqlite_column_text (stmt, 1);
      row->callback_url = triage_store_sqlite_column_text (stmt, 2);
      row->webhook_secret = triage_store_sqlite_column_text (stmt, 3);
    }
  else if (rc != SQLITE_DONE)
    set_lookup_error (self, what, error);
  triage_store_sqlite_done (stmt);
  if (row == NULL)
    return NULL;
  if (g_hash_table_size (self->services) >= SERVICES_KEPT)
    g_hash_table_remove_all (self->services);
  g_hash_table_insert (self->services, g_steal_pointer (&key), triage_service_row_copy (row));
  return row;
}

static TriageServiceRow *
sqlite_service_by_key (TriageStore *store,
                       const char  *key_hash,
                       GError     **error)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  return service_by (self, "key_hash", key_hash, "a service API key", error);
}

static TriageServiceRow *
sqlite_service_by_id (TriageStore *store,
                      const char  *id,
                      GError     **error)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  return service_by (self, "id", id, "a service", error);
}

static TriageServiceRow *
sqlite_service_by_name (TriageStore *store,
                        const char  *name,
                        GError     **error)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  return service_by (self, "name", name, "a service", error);
}

void
triage_store_sqlite_services_class_init (TriageStoreClass *store_class)
{
  store_class->user_exists = sqlite_user_exists;
  store_class->add_user = sqlite_add_user;
  store_class->user_by_token = sqlite_user_by_token;
  store_class->add_service = sqlite_add_service;
  store_class->service_by_key = sqlite_service_by_key;
  store_class->service_by_id = sqlite_service_by_id;
  store_class->service_by_name = sqlite_service_by_name;
}
