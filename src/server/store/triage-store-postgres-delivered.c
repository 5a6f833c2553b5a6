/* triage-store-postgres-delivered.c — a page of rows marked delivered at once (PostgreSQL)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A list page of 1,000 was 1,000 round trips to the database; it is one
 * statement now. As for one row, a row another server is changing right now
 * is left to it (delivery is a courtesy, never worth a wait).
 */

#define G_LOG_DOMAIN "triage-store-postgres"

#include <gio/gio.h>

#include "atp.h"
#include "triage-pg-connection.h"
#include "triage-store-postgres.h"

static GStrv
postgres_mark_delivered_all (TriageStore        *store,
                             const char * const *ids,
                             gint64              now)
{
  g_autofree char *array = triage_pg_text_array (ids);
  g_autoptr(PGresult) result = NULL;
  GPtrArray *moved = g_ptr_array_new ();
  TriagePgNumber when;
  TriagePgParam params[] = { array, triage_pg_number (&when, now) };

  G_STATIC_ASSERT (ATP_STATUS_CREATED == 0 && ATP_STATUS_DELIVERED == 1);
  /* A row of the commit in flight is skipped as locked, as another server's. */
  result = triage_store_postgres_write (TRIAGE_STORE_POSTGRES (store),
                                        "UPDATE notifications SET status = 1, updated_at = $2::bigint"
                                        " WHERE seq IN (SELECT seq FROM notifications"
                                        "  WHERE id = ANY ($1::text[]) AND status = 0"
                                        "  FOR UPDATE SKIP LOCKED) RETURNING id", 2, params);
  for (int i = 0; result != NULL && i < PQntuples (result); i++)
    g_ptr_array_add (moved, triage_pg_text (result, i, 0));
  g_ptr_array_add (moved, NULL);
  return (GStrv) g_ptr_array_free (moved, FALSE);
}

void
triage_store_postgres_delivered_class_init (TriageStoreClass *store_class)
{
  store_class->mark_delivered_all = postgres_mark_delivered_all;
}
