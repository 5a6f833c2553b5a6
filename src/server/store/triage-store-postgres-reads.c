/* triage-store-postgres-reads.c — reading notifications in the PostgreSQL backend
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One notification by its id, an agent's request by its own id, and a page
 * of a person's list (its total counted apart, ignoring the cursor). Each
 * waits for this server's commits in flight, so it sees what this server
 * wrote before it (triage-store-postgres.c).
 */

#define G_LOG_DOMAIN "triage-store-postgres"

#include "triage-pg-connection.h"
#include "triage-store-postgres.h"

#define NOTIFICATION_COLUMNS \
  "n.seq, n.id, n.service_id, n.body, n.json, n.answer, n.status, n.deadline, n.response," \
  " n.updated_at, n.protocol, n.protocol_id, n.created_at, n.reason"

static TriageNotificationRow *
notification_row (const PGresult *result,
                  int             i)
{
  TriageNotificationRow *row = g_new0 (TriageNotificationRow, 1);

  row->seq = triage_pg_int (result, i, 0);
  row->id = triage_pg_text (result, i, 1);
  row->service_id = triage_pg_text (result, i, 2);
  row->body = triage_pg_text (result, i, 3);
  row->json = triage_pg_text (result, i, 4);
  row->answer = triage_pg_text (result, i, 5);
  row->status = (int) triage_pg_int (result, i, 6);
  row->deadline = triage_pg_int (result, i, 7);
  row->response = triage_pg_text (result, i, 8);
  row->updated_at = triage_pg_int (result, i, 9);
  row->protocol = (int) triage_pg_int (result, i, 10);
  row->protocol_id = triage_pg_text (result, i, 11);
  row->created_at = triage_pg_int (result, i, 12);
  row->reason = triage_pg_text (result, i, 13);
  return row;
}

static TriageNotificationRow *
postgres_get_notification (TriageStore *store,
                           const char  *id,
                           GError     **error)
{
  TriagePgParam params[] = { id };
  g_autoptr(PGresult) result = triage_store_postgres_query (TRIAGE_STORE_POSTGRES (store),
                                                             "SELECT " NOTIFICATION_COLUMNS
                                                             " FROM notifications n WHERE n.id = $1",
                                                             1, params);

  if (result == NULL)
    {
      /* the query's writer logged why: a lock or statement timeout, a
       * session ended inside a batch, a stall */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                   "the database did not answer the lookup of a notification");
      return NULL;
    }
  return PQntuples (result) > 0 ? notification_row (result, 0) : NULL;
}

static TriageNotificationRow *
postgres_find_request (TriageStore *store,
                       const char  *service_id,
                       int          protocol,
                       const char  *protocol_id,
                       GError     **error)
{
  TriagePgNumber number;
  TriagePgParam params[] = { service_id, triage_pg_number (&number, protocol), protocol_id };
  g_autoptr(PGresult) result = triage_store_postgres_query (TRIAGE_STORE_POSTGRES (store),
                                                             "SELECT " NOTIFICATION_COLUMNS
                                                             " FROM notifications n"
                                                             " WHERE n.service_id = $1"
                                                             " AND n.protocol = $2::int"
                                                             " AND n.protocol_id = $3", 3, params);

  if (result == NULL)
    {
      /* the query's writer logged why */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                   "the database did not answer the lookup of a request by its agent's id");
      return NULL;
    }
  return PQntuples (result) > 0 ? notification_row (result, 0) : NULL;
}

static GPtrArray *
postgres_list (TriageStore           *store,
               const TriageListQuery *list,
               gint64                *total,
               gboolean              *has_more,
               GError               **error)
{
  TriageStorePostgres *self = TRIAGE_STORE_POSTGRES (store);
  g_autoptr(GString) where = g_string_new ("r.user_id = $1");
  g_autofree char *statuses = triage_store_postgres_int_array (list->status_mask);
  g_autofree char *protocols = triage_store_postgres_int_array (list->protocol_mask);
  g_autofree char *count_sql = NULL, *sql = NULL, *cursor = NULL;
  g_autoptr(PGresult) counted = NULL;
  g_autoptr(PGresult) result = NULL;
  GPtrArray *rows;
  TriagePgParam params[7] = { list->user };
  TriagePgNumber after, limit;
  int n = 1, n_where;

  if (list->status_mask != 0)
    {
      params[n++] = statuses;
      g_string_append_printf (where, " AND n.status = ANY ($%d::int[])", n);
    }
  if (list->service_id != NULL)
    {
      params[n++] = list->service_id;
      g_string_append_printf (where, " AND n.service_id = $%d", n);
    }
  if (list->project != NULL)
    {
      params[n++] = list->project;
      g_string_append_printf (where, " AND n.project = $%d", n);
    }
  if (list->protocol_mask != 0)
    {
      params[n++] = protocols;
      g_string_append_printf (where, " AND n.protocol = ANY ($%d::int[])", n);
    }
  /* The total counts every match, ignoring the cursor. */
  n_where = n;
  if (list->after != 0)
    {
      params[n++] = triage_pg_number (&after, list->after);
      cursor = g_strdup_printf (" AND n.seq %s $%d::bigint", list->newest ? "<" : ">", n);
    }
  params[n++] = triage_pg_number (&limit, (gint64) list->limit + 1);

  count_sql = g_strdup_printf ("SELECT COUNT (*) FROM notifications n JOIN notification_recipients r"
                               " ON r.notification_seq = n.seq WHERE %s", where->str);
  sql = g_strdup_printf ("SELECT " NOTIFICATION_COLUMNS " FROM notifications n"
                         " JOIN notification_recipients r ON r.notification_seq = n.seq"
                         " WHERE %s%s ORDER BY n.seq %s LIMIT $%d::bigint",
                         where->str, cursor ? cursor : "", list->newest ? "DESC" : "ASC", n);
  if (total != NULL)
    {
      counted = triage_store_postgres_query (self, count_sql, n_where, params);
      if (counted != NULL && PQntuples (counted) > 0)
        *total = triage_pg_int (counted, 0, 0);
    }
  if (total == NULL || counted != NULL)
    result = triage_store_postgres_query (self, sql, n, params);
  if (result == NULL)
    {
      /* the query's writer logged why */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                   "the database did not answer the read of a list");
      return NULL;
    }
  *has_more = FALSE;
  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_notification_row_free);
  for (int i = 0; i < PQntuples (result); i++)
    {
      if (rows->len == list->limit)
        {
          *has_more = TRUE;
          break;
        }
      g_ptr_array_add (rows, notification_row (result, i));
    }
  return rows;
}

void
triage_store_postgres_reads_class_init (TriageStoreClass *store_class)
{
  store_class->get_notification = postgres_get_notification;
  store_class->find_request = postgres_find_request;
  store_class->list = postgres_list;
}
