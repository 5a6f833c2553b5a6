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

/* The notifications a page moved, each with who it goes to, in order:
 * rows of (id, user), the user NULL when it goes to nobody. */
static GStrv
moved_of (TriageStorePostgres *self,
          const PGresult      *result)
{
  GPtrArray *moved = g_ptr_array_new ();
  int rows = result != NULL ? PQntuples (result) : 0;

  for (int i = 0; i < rows;)
    {
      const char *id = PQgetvalue (result, i, 0);
      GPtrArray *users = g_ptr_array_new ();

      for (; i < rows && g_str_equal (PQgetvalue (result, i, 0), id); i++)
        if (!PQgetisnull (result, i, 1))
          g_ptr_array_add (users, triage_pg_text (result, i, 1));
      g_ptr_array_add (users, NULL);
      g_ptr_array_add (moved, g_strdup (id));
      triage_store_postgres_remember_recipients (self, id, (GStrv) g_ptr_array_free (users, FALSE));
    }
  g_ptr_array_add (moved, NULL);
  return (GStrv) g_ptr_array_free (moved, FALSE);
}

/* Each notification moved is announced to who it goes to at once: the same
 * statement says who (kept, they never change). On a stream's server, most
 * were posted to another server, and a read of their recipients each was a
 * round trip (a transaction of the database's) per notification. */
static GStrv
postgres_mark_delivered_all (TriageStore        *store,
                             const char * const *ids,
                             gint64              now)
{
  TriageStorePostgres *self = TRIAGE_STORE_POSTGRES (store);
  g_autofree char *array = triage_pg_text_array (ids);
  g_autoptr(PGresult) result = NULL;
  TriagePgNumber when;
  TriagePgParam params[] = { array, triage_pg_number (&when, now) };

  G_STATIC_ASSERT (ATP_STATUS_CREATED == 0 && ATP_STATUS_DELIVERED == 1);
  /* A row of the commit in flight is skipped as locked, as another server's. */
  result = triage_store_postgres_write (self,
                                        "WITH moved AS (UPDATE notifications SET status = 1,"
                                        "  updated_at = $2::bigint"
                                        "  WHERE seq IN (SELECT seq FROM notifications"
                                        "   WHERE id = ANY ($1::text[]) AND status = 0"
                                        "   FOR UPDATE SKIP LOCKED) RETURNING seq, id)"
                                        " SELECT m.id, r.user_id FROM moved m"
                                        " LEFT JOIN notification_recipients r"
                                        " ON r.notification_seq = m.seq ORDER BY m.seq",
                                        2, params);
  return moved_of (self, result);
}

void
triage_store_postgres_delivered_class_init (TriageStoreClass *store_class)
{
  store_class->mark_delivered_all = postgres_mark_delivered_all;
}
