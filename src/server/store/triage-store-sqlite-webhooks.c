/* triage-store-sqlite-webhooks.c — the webhook queue of the SQLite backend
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The webhook_deliveries table (schema version 3, event since 5); a row
 * whose next_attempt is NULL failed for good.
 */

#define G_LOG_DOMAIN "triage-store-sqlite"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "atp.h"
#include "triage-store-sqlite-private.h"

static gboolean
sqlite_add_webhook (TriageStore *store,
                    const char  *request_id,
                    const char  *service_id,
                    const char  *notification_id,
                    const char  *event,
                    const char  *body,
                    gint64       now)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  sqlite3_stmt *stmt;
  gboolean ok;

  stmt = triage_store_sqlite_statement (self,
    "INSERT INTO webhook_deliveries (request_id, service_id, notification_id,"
    " body, next_attempt, created_at, event) VALUES (?, ?, ?, ?, ?, ?, ?)");
  triage_store_sqlite_bind_text (stmt, 1, request_id);
  triage_store_sqlite_bind_text (stmt, 2, service_id);
  triage_store_sqlite_bind_text (stmt, 3, notification_id);
  triage_store_sqlite_bind_text (stmt, 4, body);
  triage_store_sqlite_bind_int64 (stmt, 5, now);
  triage_store_sqlite_bind_int64 (stmt, 6, now);
  triage_store_sqlite_bind_text (stmt, 7, event);
  ok = triage_store_sqlite_step (self, stmt) == SQLITE_DONE;
  triage_store_sqlite_done (stmt);
  return ok;
}

/* @strings as a JSON array, for json_each (). */
static char *
json_array_text (const char * const *strings)
{
  g_autoptr(JsonArray) array = json_array_new ();
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_ARRAY);

  for (guint i = 0; strings[i] != NULL; i++)
    json_array_add_string_element (array, strings[i]);
  json_node_set_array (node, array);
  return json_to_string (node, FALSE);
}

static GPtrArray *
sqlite_claim_webhooks (TriageStore        *store,
                       gint64              now,
                       gint64              lease_until,
                       const char * const *skip_services,
                       guint               per_service,
                       guint               limit)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  g_autofree char *skip = json_array_text (skip_services);
  sqlite3_stmt *stmt = triage_store_sqlite_statement (self,
    "SELECT w.id, w.request_id, w.service_id, w.notification_id, s.callback_url,"
    " s.webhook_secret, w.body, w.attempts, w.event"
    " FROM (SELECT *, ROW_NUMBER () OVER (PARTITION BY service_id ORDER BY next_attempt, id) AS rank"
    "       FROM webhook_deliveries WHERE next_attempt IS NOT NULL AND next_attempt <= ?1"
    "       AND service_id NOT IN (SELECT value FROM json_each (?4))) w"
    " LEFT JOIN services s ON s.id = w.service_id"
    " WHERE w.rank <= ?2 ORDER BY w.next_attempt, w.id LIMIT ?3");
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_webhook_row_free);

  triage_store_sqlite_bind_int64 (stmt, 1, now);
  triage_store_sqlite_bind_int64 (stmt, 2, per_service);
  triage_store_sqlite_bind_int64 (stmt, 3, limit);
  triage_store_sqlite_bind_text (stmt, 4, skip);
  while (triage_store_sqlite_step (self, stmt) == SQLITE_ROW)
    {
      TriageWebhookRow *row = g_new0 (TriageWebhookRow, 1);

      row->id = sqlite3_column_int64 (stmt, 0);
      row->request_id = triage_store_sqlite_column_text (stmt, 1);
      row->service_id = triage_store_sqlite_column_text (stmt, 2);
      row->notification_id = triage_store_sqlite_column_text (stmt, 3);
      row->callback_url = triage_store_sqlite_column_text (stmt, 4);
      row->webhook_secret = triage_store_sqlite_column_text (stmt, 5);
      row->body = triage_store_sqlite_column_text (stmt, 6);
      row->attempts = sqlite3_column_int (stmt, 7);
      row->event = triage_store_sqlite_column_text (stmt, 8);
      g_ptr_array_add (rows, row);
    }
  triage_store_sqlite_done (stmt);
  /* The claim: one server owns the database, so the lease only has to
   * outlive a crash of this one. */
  stmt = triage_store_sqlite_statement (self,
    "UPDATE webhook_deliveries SET next_attempt = ? WHERE id = ?");
  for (guint i = 0; i < rows->len; i++)
    {
      triage_store_sqlite_bind_int64 (stmt, 1, lease_until);
      triage_store_sqlite_bind_int64 (stmt, 2, ((TriageWebhookRow *) rows->pdata[i])->id);
      triage_store_sqlite_step (self, stmt);
      triage_store_sqlite_done (stmt);
    }
  return rows;
}

static gint64
sqlite_next_webhook (TriageStore *store)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  sqlite3_stmt *stmt = triage_store_sqlite_statement (self,
    "SELECT MIN (next_attempt) FROM webhook_deliveries"
    " WHERE next_attempt IS NOT NULL");
  gint64 next = 0;

  if (triage_store_sqlite_step (self, stmt) == SQLITE_ROW)
    next = sqlite3_column_int64 (stmt, 0);
  triage_store_sqlite_done (stmt);
  return next;
}

static void
sqlite_schedule_webhook (TriageStore *store,
                         gint64       id,
                         int          attempts,
                         gint64       next_attempt,
                         const char  *last_error)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  sqlite3_stmt *stmt;

  stmt = triage_store_sqlite_statement (self,
    "UPDATE webhook_deliveries SET attempts = ?, next_attempt = ?,"
    " last_error = COALESCE (?, last_error) WHERE id = ?");
  triage_store_sqlite_bind_int (stmt, 1, attempts);
  if (next_attempt > 0)
    triage_store_sqlite_bind_int64 (stmt, 2, next_attempt);
  else
    triage_store_sqlite_bind_text (stmt, 2, NULL);
  triage_store_sqlite_bind_text (stmt, 3, last_error);
  triage_store_sqlite_bind_int64 (stmt, 4, id);
  triage_store_sqlite_step (self, stmt);
  triage_store_sqlite_done (stmt);
}

static void
sqlite_remove_webhook (TriageStore *store,
                       gint64       id)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  sqlite3_stmt *stmt;

  stmt = triage_store_sqlite_statement (self, "DELETE FROM webhook_deliveries WHERE id = ?");
  triage_store_sqlite_bind_int64 (stmt, 1, id);
  triage_store_sqlite_step (self, stmt);
  triage_store_sqlite_done (stmt);
}

void
triage_store_sqlite_webhooks_class_init (TriageStoreClass *store_class)
{
  store_class->add_webhook = sqlite_add_webhook;
  store_class->claim_webhooks = sqlite_claim_webhooks;
  store_class->next_webhook = sqlite_next_webhook;
  store_class->schedule_webhook = sqlite_schedule_webhook;
  store_class->remove_webhook = sqlite_remove_webhook;
}
