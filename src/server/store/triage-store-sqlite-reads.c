/* triage-store-sqlite-reads.c — reading notifications in the SQLite backend
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One notification by its id, an agent's request by its own id, a page of a
 * person's list (its total counted apart, ignoring the cursor), that page's
 * answer made by SQLite's JSON functions, and whether a person is among a
 * notification's recipients.
 */

#define G_LOG_DOMAIN "triage-store-sqlite"

#include <sqlite3.h>

#include "atp.h"
#include "triage-store-private.h"
#include "triage-store-sqlite-private.h"

#define NOTIFICATION_COLUMNS \
  "n.seq, n.id, n.service_id, n.body, n.json, n.answer, n.status, n.deadline, n.response," \
  " n.updated_at, n.protocol, n.protocol_id, n.created_at, n.reason"

static TriageNotificationRow *
notification_row (sqlite3_stmt *stmt)
{
  TriageNotificationRow *row = g_new0 (TriageNotificationRow, 1);

  row->seq = sqlite3_column_int64 (stmt, 0);
  row->id = triage_store_sqlite_column_text (stmt, 1);
  row->service_id = triage_store_sqlite_column_text (stmt, 2);
  row->body = triage_store_sqlite_column_text (stmt, 3);
  row->json = triage_store_sqlite_column_text (stmt, 4);
  row->answer = triage_store_sqlite_column_text (stmt, 5);
  row->status = sqlite3_column_int (stmt, 6);
  row->deadline = sqlite3_column_int64 (stmt, 7);
  row->response = triage_store_sqlite_column_text (stmt, 8);
  row->updated_at = sqlite3_column_int64 (stmt, 9);
  row->protocol = sqlite3_column_int (stmt, 10);
  row->protocol_id = triage_store_sqlite_column_text (stmt, 11);
  row->created_at = sqlite3_column_int64 (stmt, 12);
  row->reason = triage_store_sqlite_column_text (stmt, 13);
  return row;
}

static TriageNotificationRow *
sqlite_get_notification (TriageStore *store,
                         const char  *id,
                         GError     **error)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  sqlite3_stmt *stmt = triage_store_sqlite_statement (self,
    "SELECT " NOTIFICATION_COLUMNS " FROM notifications n WHERE n.id = ?");
  TriageNotificationRow *row = NULL;
  int rc;

  triage_store_sqlite_bind_text (stmt, 1, id);
  rc = triage_store_sqlite_step (self, stmt);
  if (rc == SQLITE_ROW)
    row = notification_row (stmt);
  else if (rc != SQLITE_DONE)
    /* SQLITE_BUSY, an I/O error, …: the database did not answer */
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                 "the database did not answer the lookup of a notification: %s",
                 sqlite3_errmsg (self->db));
  triage_store_sqlite_done (stmt);
  return row;
}

static TriageNotificationRow *
sqlite_find_request (TriageStore *store,
                     const char  *service_id,
                     int          protocol,
                     const char  *protocol_id,
                     GError     **error)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  sqlite3_stmt *stmt = triage_store_sqlite_statement (self,
    "SELECT " NOTIFICATION_COLUMNS " FROM notifications n"
    " WHERE n.service_id = ? AND n.protocol = ? AND n.protocol_id = ?");
  TriageNotificationRow *row = NULL;
  int rc;

  triage_store_sqlite_bind_text (stmt, 1, service_id);
  triage_store_sqlite_bind_int (stmt, 2, protocol);
  triage_store_sqlite_bind_text (stmt, 3, protocol_id);
  rc = triage_store_sqlite_step (self, stmt);
  if (rc == SQLITE_ROW)
    row = notification_row (stmt);
  else if (rc != SQLITE_DONE)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                 "the database did not answer the lookup of a request by its agent's id: %s",
                 sqlite3_errmsg (self->db));
  triage_store_sqlite_done (stmt);
  return row;
}

/* One page of a user's notifications, by seq (the cursor), newest or oldest
 * first; *total (unless NULL) counts every match, ignoring the cursor. */
static GPtrArray *
sqlite_list (TriageStore           *store,
             const TriageListQuery *query,
             gint64                *total,
             gboolean              *has_more,
             GError               **error)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  g_autoptr(GString) where = g_string_new ("r.user_id = ?1");
  g_autofree char *sql = NULL, *count_sql = NULL;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                              triage_notification_row_free);
  sqlite3_stmt *stmt;
  int rc;

  if (query->status_mask != 0)
    g_string_append_printf (where, " AND ((1 << n.status) & %u) != 0", query->status_mask);
  if (query->service_id != NULL)
    g_string_append (where, " AND n.service_id = ?2");
  if (query->project != NULL)
    g_string_append (where, " AND n.project = ?3");
  if (query->protocol_mask != 0)
    g_string_append_printf (where, " AND ((1 << n.protocol) & %u) != 0", query->protocol_mask);

  count_sql = g_strdup_printf ("SELECT COUNT (*) FROM notifications n JOIN notification_recipients r"
                               " ON r.notification_seq = n.seq WHERE %s", where->str);
  /* Ordered and bounded by the recipient's index (r.notification_seq is
   * n.seq): by n.seq, SQLite read every row after the cursor, whole, into a
   * temporary B-tree to sort it before taking a page, so listing 10,000
   * pending 100 at a time read 50 times the table (bench/app: 5.7 s). */
  sql = g_strdup_printf ("SELECT " NOTIFICATION_COLUMNS " FROM notifications n"
                         " JOIN notification_recipients r ON r.notification_seq = n.seq"
                         " WHERE %s%s ORDER BY r.notification_seq %s LIMIT ?5",
                         where->str,
                         query->after == 0 ? "" : query->newest ? " AND r.notification_seq < ?4"
                                                                : " AND r.notification_seq > ?4",
                         query->newest ? "DESC" : "ASC");
  for (guint pass = total != NULL ? 0 : 1; pass < 2; pass++)
    {
      stmt = triage_store_sqlite_prepare (self, pass == 0 ? count_sql : sql);
      triage_store_sqlite_bind_text (stmt, 1, query->user);
      if (query->service_id != NULL)
        triage_store_sqlite_bind_text (stmt, 2, query->service_id);
      if (query->project != NULL)
        triage_store_sqlite_bind_text (stmt, 3, query->project);
      if (pass == 0)
        {
          rc = triage_store_sqlite_step (self, stmt);
          if (rc == SQLITE_ROW)
            *total = sqlite3_column_int64 (stmt, 0);
        }
      else
        {
          if (query->after != 0)
            triage_store_sqlite_bind_int64 (stmt, 4, query->after);
          triage_store_sqlite_bind_int64 (stmt, 5, (gint64) query->limit + 1);
          *has_more = FALSE;
          while ((rc = triage_store_sqlite_step (self, stmt)) == SQLITE_ROW)
            {
              if (rows->len == query->limit)
                {
                  *has_more = TRUE;
                  break;
                }
              g_ptr_array_add (rows, notification_row (stmt));
            }
        }
      if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        {
          /* SQLITE_BUSY, an I/O error, …: the database did not answer */
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                       "the database did not answer the read of a list: %s",
                       sqlite3_errmsg (self->db));
          sqlite3_finalize (stmt);
          return NULL;
        }
      sqlite3_finalize (stmt);
    }
  return g_steal_pointer (&rows);
}

/* The statement that makes a list page's answer: each row's stored JSON with
 * its status now (the page's delivered marks are in) and the reason it was
 * withdrawn if one was given (json_set () of '$.reason' only then: a NULL
 * would be written as null), in the page's order, and the pagination. The
 * server parsed each row's JSON with json-glib, set its status and wrote it
 * all again: two thirds of the server's time on a page of 1,000 (bench/app's
 * full day); SQLite's JSON functions do it in one pass over the rows. CROSS JOIN keeps json_each () the outer loop, so the
 * rows are aggregated in the order of the seqs given.
 *
 * A row whose JSON does not read (a damaged row) fails the statement
 * (json_set () of malformed JSON), and the server makes that page itself,
 * leaving the row out (triage-server-client.c). So does one that reads but
 * is no object (json_set () would have kept it as it is, an item no client
 * takes for a notification): its text with " !" after it is malformed. Our
 * rows are written compact, so an object's text starts with its brace. */
static const char *
page_sql (void)
{
  static gsize sql;

  if (g_once_init_enter (&sql))
    {
      g_autoptr(GString) status = g_string_new ("CASE n.status");
      GString *text;

      for (int value = ATP_STATUS_CREATED; value <= ATP_STATUS_INVALIDATED; value++)
        g_string_append_printf (status, " WHEN %d THEN '%s'", value, atp_status_to_string (value));
      g_string_append (status, " END");
      text = g_string_new (NULL);
      g_string_append_printf (text, "SELECT json_object ('notifications', json_group_array ("
                                    "CASE WHEN substr (n.json, 1, 1) != '{' THEN json (n.json || ' !')"
                                    " WHEN n.reason IS NULL THEN json_set (n.json, '$.status', %s)"
                                    " ELSE json_set (n.json, '$.status', %s, '$.reason', n.reason)"
                                    " END), 'pagination', json (?2))"
                                    " FROM json_each (?1) e CROSS JOIN notifications n"
                                    " ON n.seq = e.value", status->str, status->str);
      g_once_init_leave (&sql, (gsize) g_string_free (text, FALSE));
    }
  return (const char *) sql;
}

static char *
sqlite_page_json (TriageStore *store,
                  GPtrArray   *rows,
                  const char  *pagination)
{
  /* The seqs as a JSON array of numbers: no json-glib for a list of integers. */
  g_autoptr(GString) seqs = g_string_sized_new (rows->len * 8 + 2);
  sqlite3_stmt *stmt;
  char *answer = NULL;

  g_string_append_c (seqs, '[');
  for (guint i = 0; i < rows->len; i++)
    g_string_append_printf (seqs, "%s%" G_GINT64_FORMAT, i > 0 ? "," : "",
                            ((TriageNotificationRow *) rows->pdata[i])->seq);
  g_string_append_c (seqs, ']');

  stmt = triage_store_sqlite_statement (TRIAGE_STORE_SQLITE (store), page_sql ());
  triage_store_sqlite_bind_static (stmt, 1, seqs->str);
  triage_store_sqlite_bind_text (stmt, 2, pagination);
  if (triage_store_sqlite_step (TRIAGE_STORE_SQLITE (store), stmt) == SQLITE_ROW)
    answer = triage_store_sqlite_column_text (stmt, 0);
  triage_store_sqlite_done (stmt);
  return answer;
}

static gboolean
sqlite_is_recipient (TriageStore *store,
                     const char  *notification_id,
                     const char  *user_id,
                     GError     **error)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  sqlite3_stmt *stmt = triage_store_sqlite_statement (self,
    "SELECT 1 FROM notification_recipients r JOIN notifications n ON n.seq = r.notification_seq"
    " WHERE n.id = ? AND r.user_id = ?");
  gboolean found;
  int rc;

  triage_store_sqlite_bind_text (stmt, 1, notification_id);
  triage_store_sqlite_bind_text (stmt, 2, user_id);
  rc = triage_store_sqlite_step (self, stmt);
  found = rc == SQLITE_ROW;
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                 "the database did not answer the lookup of a notification's recipient: %s",
                 sqlite3_errmsg (self->db));
  triage_store_sqlite_done (stmt);
  return found;
}

void
triage_store_sqlite_reads_class_init (TriageStoreClass *store_class)
{
  store_class->get_notification = sqlite_get_notification;
  store_class->find_request = sqlite_find_request;
  store_class->list = sqlite_list;
  store_class->page_json = sqlite_page_json;
  store_class->is_recipient = sqlite_is_recipient;
}
