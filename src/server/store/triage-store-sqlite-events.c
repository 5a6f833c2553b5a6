/* triage-store-sqlite-events.c — the per-user event log of the SQLite backend
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The events table (schema version 2, protocol since 5, a notification's
 * referred to since 7, no index of created_at since 8): SSE event ids and
 * Last-Event-ID resume; a batch's events are written as it commits.
 */

#define G_LOG_DOMAIN "triage-store-sqlite"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "atp.h"
#include "triage-store-sqlite-private.h"

#define EVENTS_PER_STATEMENT TRIAGE_STORE_SQLITE_EVENTS_PER_STATEMENT

/* The INSERT of @rows events, kept prepared (one for each count). Its text
 * is built and looked up once: every batch commits with one of them, and
 * the text of 6 events is 190 bytes to write and hash again. */
static sqlite3_stmt *
insert_statement (TriageStoreSqlite *self,
                  guint              rows)
{
  g_autoptr(GString) sql = NULL;

  g_assert (rows >= 1 && rows <= EVENTS_PER_STATEMENT);
  if (self->insert_events[rows - 1] != NULL)
    return self->insert_events[rows - 1];
  sql = g_string_new ("INSERT INTO events (user_id, type, data,"
                      " notification_id, created_at, protocol) VALUES ");
  for (guint i = 0; i < rows; i++)
    g_string_append (sql, i == 0 ? "(?, ?, ?, ?, ?, ?)" : ", (?, ?, ?, ?, ?, ?)");
  self->insert_events[rows - 1] = triage_store_sqlite_statement (self, sql->str);
  return self->insert_events[rows - 1];
}

/* The batch's events, as it commits: their ids follow the order of commits.
 * A new notification's event refers to the notification (its data is the
 * JSON just stored in it, triage-store.h): no second copy of that text.
 * Up to EVENTS_PER_STATEMENT go in one INSERT: the table's AUTOINCREMENT
 * sequence is read and written once a statement, not once an event, and the
 * rows of one statement get consecutive ids, in the order they are listed. */
static gboolean
sqlite_insert_events (TriageStore *store,
                      GPtrArray   *events,
                      GError     **error)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);

  for (guint first = 0; first < events->len; first += EVENTS_PER_STATEMENT)
    {
      guint rows = MIN (events->len - first, EVENTS_PER_STATEMENT);
      sqlite3_stmt *stmt = insert_statement (self, rows);
      gint64 last;

      for (guint i = 0; i < rows; i++)
        {
          TriageEventRow *event = events->pdata[first + i];
          gboolean refers = event->notification_id != NULL &&
                            g_str_equal (event->type, TRIAGE_EVENT_NOTIFICATION);
          int at = (int) i * 6;

          /* The events outlive the statement's done (): not copied. */
          triage_store_sqlite_bind_static (stmt, at + 1, event->user);
          triage_store_sqlite_bind_static (stmt, at + 2, event->type);
          triage_store_sqlite_bind_static (stmt, at + 3, refers ? NULL : event->data);
          triage_store_sqlite_bind_static (stmt, at + 4, refers ? event->notification_id : NULL);
          triage_store_sqlite_bind_int64 (stmt, at + 5, event->created_at);
          triage_store_sqlite_bind_int (stmt, at + 6, event->protocol);
        }
      if (triage_store_sqlite_step (self, stmt) != SQLITE_DONE)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot write an event: %s",
                       sqlite3_errmsg (self->db));
          triage_store_sqlite_done (stmt);
          return FALSE;
        }
      last = sqlite3_last_insert_rowid (self->db);
      triage_store_sqlite_done (stmt);
      for (guint i = 0; i < rows; i++)
        ((TriageEventRow *) events->pdata[first + i])->id = last - (gint64) (rows - 1 - i);
    }
  return TRUE;
}

/* The id of the newest event of any user (0 = none yet): where a snapshot of
 * the current state stands in the log. */
static gint64
sqlite_last_event (TriageStore *store)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  sqlite3_stmt *stmt = triage_store_sqlite_statement (self,
    "SELECT seq FROM sqlite_sequence WHERE name = 'events'");
  gint64 id = 0;

  if (triage_store_sqlite_step (self, stmt) == SQLITE_ROW)
    id = sqlite3_column_int64 (stmt, 0);
  triage_store_sqlite_done (stmt);
  return id;
}

/* @user's events after @after, oldest first, at most @limit. Returns NULL when
 * the log no longer reaches back to @after (pruned), never reached it (above
 * the newest id), or could not be read:
 * the caller starts over from a snapshot. */
static GPtrArray *
sqlite_events_after (TriageStore *store,
                     const char  *user,
                     gint64       after,
                     guint        limit)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  GPtrArray *rows;
  sqlite3_stmt *stmt;
  gint64 first = 0;
  gint64 last = sqlite_last_event (store);
  int rc;

  /* An id above the newest is none this log gave (a client of the server
   * before its database was restored from a backup): as one too old. */
  if (after > last)
    return NULL;
  if (after < last)
    {
      stmt = triage_store_sqlite_statement (self, "SELECT MIN (id) FROM events");
      if (triage_store_sqlite_step (self, stmt) == SQLITE_ROW)
        first = sqlite3_column_int64 (stmt, 0);
      triage_store_sqlite_done (stmt);
      if (first == 0 || after < first - 1)
        return NULL;
    }
  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_event_row_free);
  /* Stored data that does not read as an object (a damaged row), or that
   * would break the line of an SSE event (a raw line break), is no event's
   * data: NULL, left out by the stream (triage-server-stream-sse.c). A
   * client sent it whole would fail on it, resume from the event before it
   * and fail again for ever. Checked on a replay only, never as an event is
   * written; every event's data is an object, written compact (its text
   * starts with its brace). */
  stmt = triage_store_sqlite_statement (self,
    "SELECT id, type, CASE WHEN substr (data, 1, 1) = '{' AND json_valid (data)"
    " AND instr (data, char (10)) = 0"
    " AND instr (data, char (13)) = 0 THEN data END, protocol, notification_id FROM"
    " (SELECT e.id, e.type, COALESCE (e.data, n.json) AS data, e.protocol, e.notification_id"
    "  FROM events e LEFT JOIN notifications n ON e.data IS NULL AND n.id = e.notification_id"
    "  WHERE e.user_id = ? AND e.id > ?"
    /* not one of a request retention forgot */
    "  AND (e.data IS NOT NULL OR n.id IS NOT NULL) ORDER BY e.id LIMIT ?) ORDER BY id");
  triage_store_sqlite_bind_text (stmt, 1, user);
  triage_store_sqlite_bind_int64 (stmt, 2, after);
  triage_store_sqlite_bind_int64 (stmt, 3, limit + 1);
  while ((rc = triage_store_sqlite_step (self, stmt)) == SQLITE_ROW)
    {
      TriageEventRow *row = g_new0 (TriageEventRow, 1);

      row->id = sqlite3_column_int64 (stmt, 0);
      row->user = g_strdup (user);
      row->type = triage_store_sqlite_column_text (stmt, 1);
      row->data = triage_store_sqlite_column_text (stmt, 2);
      row->protocol = sqlite3_column_int (stmt, 3);
      row->notification_id = triage_store_sqlite_column_text (stmt, 4);
      g_ptr_array_add (rows, row);
    }
  /* A read that failed (an I/O error, a statement the database would not
   * prepare) was the events read till then, or none, taken for all of them:
   * the stream resumed without the rest, for good. */
  if (rc != SQLITE_DONE)
    triage_log_failure ("cannot read the events of %s to resume a stream (it starts over from "
                        "its pending requests): %s", user, sqlite3_errmsg (self->db));
  triage_store_sqlite_done (stmt);
  if (rc != SQLITE_DONE || rows->len > limit)
    g_clear_pointer (&rows, g_ptr_array_unref);
  return rows;
}

/* Forgets the events written before @before (unix µs): those before the
 * first one that is not that old, in id order. One server writes the log,
 * and a batch's events are stamped before it commits, so ids follow their
 * times: the oldest are read from the start of the table and no index of
 * created_at is kept up with every insert (schema version 8). Were the clock
 * set back, an event stamped before @before but written after a younger one
 * would only be kept until the next prune that reaches it. */
static void
sqlite_prune_events (TriageStore *store,
                     gint64       before)
{
  TriageStoreSqlite *self = TRIAGE_STORE_SQLITE (store);
  sqlite3_stmt *stmt;

  stmt = triage_store_sqlite_statement (self,
    "DELETE FROM events WHERE id < COALESCE ("
    "(SELECT id FROM events WHERE created_at >= ?1 ORDER BY id LIMIT 1),"
    " (SELECT MAX (id) FROM events) + 1)");
  triage_store_sqlite_bind_int64 (stmt, 1, before);
  triage_store_sqlite_step (self, stmt);
  triage_store_sqlite_done (stmt);
}

void
triage_store_sqlite_events_class_init (TriageStoreClass *store_class)
{
  store_class->insert_events = sqlite_insert_events;
  store_class->last_event = sqlite_last_event;
  store_class->events_after = sqlite_events_after;
  store_class->prune_events = sqlite_prune_events;
}
