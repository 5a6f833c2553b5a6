/* triage-store-postgres-events.c — the event log of the PostgreSQL backend
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One log for every server: a reader never sees an id while a smaller one
 * may still be committed, whichever server wrote it (triage-pg-writer.c), so
 * a stream resumes anywhere from the id it last got.
 */

#define G_LOG_DOMAIN "triage-store-postgres"

#include <gio/gio.h>

#include "triage-pg-connection.h"
#include "triage-store-postgres.h"

/* The first column of the first row of @sql as a number, 0 when none or NULL. */
static gint64
number (TriageStorePostgres *self,
        const char          *sql)
{
  g_autoptr(PGresult) result = triage_store_postgres_query (self, sql, 0, NULL);

  return result != NULL && PQntuples (result) > 0 ? triage_pg_int (result, 0, 0) : 0;
}

/* An event's stored data (@column of @row) when it reads
 * (triage_pg_event_data_reads ()); NULL, left out by the stream
 * (triage-server-stream-sse.c), when it does not. */
static char *
readable_data (const PGresult *result,
               int             row,
               int             column)
{
  if (!triage_pg_event_data_reads (result, row, column))
    return NULL;
  return g_strdup (PQgetvalue (result, row, column));
}

/* Every event up to it is committed, none smaller is to come. */
static gint64
postgres_last_event (TriageStore *store)
{
  return triage_store_postgres_last_event (TRIAGE_STORE_POSTGRES (store));
}

static GPtrArray *
postgres_events_after (TriageStore *store,
                       const char  *user,
                       gint64       after,
                       guint        limit)
{
  TriageStorePostgres *self = TRIAGE_STORE_POSTGRES (store);
  g_autoptr(PGresult) result = NULL;
  gint64 last = postgres_last_event (store);
  TriagePgNumber from, most, newest;
  TriagePgParam params[] = { user, triage_pg_number (&from, after),
                             triage_pg_number (&most, (gint64) limit + 1),
                             triage_pg_number (&newest, last) };
  GPtrArray *rows;

  /* An id above the newest is none this log gave (a client of the servers
   * before the database was restored from a backup): as one too old. */
  if (after > last)
    return NULL;
  if (after < last)
    {
      gint64 first = number (self, "SELECT MIN (id) FROM events");

      if (first == 0 || after < first - 1)
        return NULL;
    }
  /* An event with no data of its own is a new notification's: its JSON is
   * the notification's (schema version 4). Up to the newest committed with
   * none smaller to come: what is after it comes live, from the listener. */
  result = triage_store_postgres_query (self, "SELECT e.id, e.type, COALESCE (e.data, n.json),"
                                             " e.notification_id, e.protocol FROM events e"
                                             " LEFT JOIN notifications n"
                                             " ON e.data IS NULL AND n.id = e.notification_id"
                                             " WHERE e.user_id = $1 AND e.id > $2::bigint"
                                             " AND e.id <= $4::bigint"
                                             /* a request retention forgot */
                                             " AND (e.data IS NOT NULL OR n.id IS NOT NULL)"
                                             " ORDER BY e.id LIMIT $3::bigint", 4, params);
  if (result == NULL || PQntuples (result) > (int) limit)
    return NULL;
  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_event_row_free);
  for (int i = 0; i < PQntuples (result); i++)
    {
      TriageEventRow *row = g_new0 (TriageEventRow, 1);

      row->id = triage_pg_int (result, i, 0);
      row->user = g_strdup (user);
      row->type = triage_pg_text (result, i, 1);
      row->data = readable_data (result, i, 2);
      row->notification_id = triage_pg_text (result, i, 3);
      row->protocol = (int) triage_pg_int (result, i, 4);
      g_ptr_array_add (rows, row);
    }
  return rows;
}

static void
postgres_prune_events (TriageStore *store,
                       gint64       before)
{
  TriagePgNumber when;
  TriagePgParam params[] = { triage_pg_number (&when, before) };
  g_autoptr(PGresult) result = triage_store_postgres_query (TRIAGE_STORE_POSTGRES (store),
                                                            "DELETE FROM events"
                                                            " WHERE created_at < $1::bigint",
                                                            1, params);
}

void
triage_store_postgres_events_class_init (TriageStoreClass *store_class)
{
  store_class->last_event = postgres_last_event;
  store_class->events_after = postgres_events_after;
  store_class->prune_events = postgres_prune_events;
}
