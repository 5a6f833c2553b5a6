/* triage-store-postgres-webhooks.c — the webhook queue of the PostgreSQL backend
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One queue for every server: a row is claimed by one server at a time
 * (FOR UPDATE SKIP LOCKED, then a lease), so each attempt is made once.
 */

#define G_LOG_DOMAIN "triage-store-postgres"

#include <gio/gio.h>

#include "triage-pg-connection.h"
#include "triage-store-postgres.h"

static gboolean
postgres_add_webhook (TriageStore *store,
                      const char  *request_id,
                      const char  *service_id,
                      const char  *notification_id,
                      const char  *event,
                      const char  *body,
                      gint64       now)
{
  TriagePgNumber when;
  TriagePgParam params[] = { request_id, service_id, notification_id, body,
                             triage_pg_number (&when, now), event };

  g_autoptr(PGresult) result = triage_store_postgres_query (TRIAGE_STORE_POSTGRES (store),
                            "INSERT INTO webhook_deliveries (request_id, service_id, notification_id,"
                            " body, next_attempt, created_at, event)"
                            " VALUES ($1, $2, $3, $4, $5::bigint, $5::bigint, $6)", 6, params);

  return result != NULL && triage_pg_changed (result) == 1;
}

/* Due rows are ranked per service as in the other backend; of those chosen,
 * the ones another server holds right now (its claim not yet committed) are
 * skipped, and those it has claimed meanwhile are due no more. */
static GPtrArray *
postgres_claim_webhooks (TriageStore        *store,
                         gint64              now,
                         gint64              lease_until,
                         const char * const *skip_services,
                         guint               per_service,
                         guint               limit)
{
  g_autofree char *skip = triage_pg_text_array (skip_services);
  TriagePgNumber when, lease, share, most;
  TriagePgParam params[] = { triage_pg_number (&when, now), triage_pg_number (&lease, lease_until),
                             skip, triage_pg_number (&share, per_service),
                             triage_pg_number (&most, limit) };
  g_autoptr(PGresult) result = triage_store_postgres_query (TRIAGE_STORE_POSTGRES (store),
    "WITH ranked AS (SELECT id, next_attempt, ROW_NUMBER () OVER (PARTITION BY service_id"
    "  ORDER BY next_attempt, id) AS rank FROM webhook_deliveries"
    "  WHERE next_attempt IS NOT NULL AND next_attempt <= $1::bigint"
    "  AND service_id <> ALL ($3::text[])),"
    " chosen AS (SELECT id FROM ranked WHERE rank <= $4::bigint ORDER BY next_attempt, id"
    "  LIMIT $5::bigint),"
    " claimed AS (SELECT w.id, w.next_attempt AS due FROM webhook_deliveries w"
    "  WHERE w.id IN (SELECT id FROM chosen) AND w.next_attempt <= $1::bigint"
    "  FOR UPDATE OF w SKIP LOCKED),"
    " updated AS (UPDATE webhook_deliveries w SET next_attempt = $2::bigint FROM claimed c"
    "  WHERE w.id = c.id RETURNING w.id, w.request_id, w.service_id, w.notification_id, w.body,"
    "  w.attempts, w.event, c.due)"
    " SELECT u.id, u.request_id, u.service_id, u.notification_id, s.callback_url,"
    "  s.webhook_secret, u.body, u.attempts, u.event"
    " FROM updated u LEFT JOIN services s ON s.id = u.service_id ORDER BY u.due, u.id",
    5, params);
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_webhook_row_free);

  for (int i = 0; result != NULL && i < PQntuples (result); i++)
    {
      TriageWebhookRow *row = g_new0 (TriageWebhookRow, 1);

      row->id = triage_pg_int (result, i, 0);
      row->request_id = triage_pg_text (result, i, 1);
      row->service_id = triage_pg_text (result, i, 2);
      row->notification_id = triage_pg_text (result, i, 3);
      row->callback_url = triage_pg_text (result, i, 4);
      row->webhook_secret = triage_pg_text (result, i, 5);
      row->body = triage_pg_text (result, i, 6);
      row->attempts = (int) triage_pg_int (result, i, 7);
      row->event = triage_pg_text (result, i, 8);
      g_ptr_array_add (rows, row);
    }
  return rows;
}

static gint64
postgres_next_webhook (TriageStore *store)
{
  g_autoptr(PGresult) result = triage_store_postgres_query (TRIAGE_STORE_POSTGRES (store),
                                                            "SELECT MIN (next_attempt)"
                                                            " FROM webhook_deliveries"
                                                            " WHERE next_attempt IS NOT NULL",
                                                            0, NULL);

  return result != NULL && PQntuples (result) > 0 ? triage_pg_int (result, 0, 0) : 0;
}

static void
postgres_schedule_webhook (TriageStore *store,
                           gint64       id,
                           int          attempts,
                           gint64       next_attempt,
                           const char  *last_error)
{
  TriagePgNumber row, count, next;
  TriagePgParam params[] = { triage_pg_number (&count, attempts),
                             next_attempt > 0 ? triage_pg_number (&next, next_attempt) : NULL,
                             last_error, triage_pg_number (&row, id) };
  g_autoptr(PGresult) result = triage_store_postgres_query (TRIAGE_STORE_POSTGRES (store),
                                      "UPDATE webhook_deliveries SET attempts = $1::int,"
                                      " next_attempt = $2::bigint,"
                                      " last_error = COALESCE ($3, last_error)"
                                      " WHERE id = $4::bigint", 4, params);
}

static void
postgres_remove_webhook (TriageStore *store,
                         gint64       id)
{
  TriagePgNumber row;
  TriagePgParam params[] = { triage_pg_number (&row, id) };
  g_autoptr(PGresult) result = triage_store_postgres_query (TRIAGE_STORE_POSTGRES (store),
                                      "DELETE FROM webhook_deliveries WHERE id = $1::bigint",
                                      1, params);
}

void
triage_store_postgres_webhooks_class_init (TriageStoreClass *store_class)
{
  store_class->add_webhook = postgres_add_webhook;
  store_class->claim_webhooks = postgres_claim_webhooks;
  store_class->next_webhook = postgres_next_webhook;
  store_class->schedule_webhook = postgres_schedule_webhook;
  store_class->remove_webhook = postgres_remove_webhook;
}
