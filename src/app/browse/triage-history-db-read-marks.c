/* triage-history-db-read-marks.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-history"

#include <glib/gi18n.h>

#include "triage-browse-error.h"
#include "triage-history-db-private.h"

/*
 * Which requests the person opened: kept in the history's own table on the
 * worker's read-write connection.
 */

static void
load_read_func (TriageHistoryDb *self,
                GTask           *task,
                gpointer         task_data)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  int rc;

  /* Only the marks that matter to the inbox: requests still pending, or not
   * saved by the store yet. */
  if (sqlite3_prepare_v2 (self->rw,
                          "SELECT r.notification_id FROM triage_read AS r"
                          " LEFT JOIN notifications AS n ON n.id = r.notification_id"
                          " WHERE n.id IS NULL OR n.outcome = 'none'",
                          -1, &stmt, NULL) != SQLITE_OK)
    {
      triage_history_set_error (&error, self->rw,
                                _("Could not read which requests were opened in the local database"));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_hash_table_add (ids, triage_history_column_text (stmt, 0));

  if (rc != SQLITE_DONE)
    {
      triage_history_set_error (&error, self->rw,
                                _("Could not read which requests were opened in the local database"));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_pointer (task, g_steal_pointer (&ids), (GDestroyNotify) g_hash_table_unref);
}

/**
 * triage_history_db_load_read_async:
 * @self: an open #TriageHistoryDb
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the ids
 * @user_data: data for @callback
 *
 * Loads which pending requests the person has opened.
 */
void
triage_history_db_load_read_async (TriageHistoryDb     *self,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_return_if_fail (TRIAGE_IS_HISTORY_DB (self));

  triage_history_db_run (self, self->pool, load_read_func, NULL, NULL,
                         triage_history_db_load_read_async, cancellable, callback, user_data);
}

/**
 * triage_history_db_load_read_finish:
 *
 * Returns: (transfer full) (element-type utf8 utf8): a set of request ids
 */
GHashTable *
triage_history_db_load_read_finish (TriageHistoryDb  *self,
                                    GAsyncResult     *result,
                                    GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

typedef struct
{
  char     *id;
  gboolean  read;
} ReadData;

static void
read_data_free (ReadData *data)
{
  g_free (data->id);
  g_free (data);
}

static void
set_read_func (TriageHistoryDb *self,
               GTask           *task,
               gpointer         task_data)
{
  ReadData *data = task_data;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;
  const char *sql = data->read
    ? "INSERT INTO triage_read (notification_id, read_at) VALUES (?1, ?2)"
      " ON CONFLICT (notification_id) DO NOTHING"
    : "DELETE FROM triage_read WHERE notification_id = ?1";

  if (sqlite3_prepare_v2 (self->rw, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      triage_history_set_error (&error, self->rw,
                                _("Could not remember that a request was opened in the local database"));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  sqlite3_bind_text (stmt, 1, data->id, -1, SQLITE_STATIC);
  if (data->read)
    sqlite3_bind_int64 (stmt, 2, g_get_real_time ());

  if (sqlite3_step (stmt) != SQLITE_DONE)
    {
      triage_history_set_error (&error, self->rw,
                                _("Could not remember that a request was opened in the local database"));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_boolean (task, TRUE);
}

/**
 * triage_history_db_set_read_async:
 * @self: an open #TriageHistoryDb
 * @notification_id: a request
 * @read: %TRUE once opened, %FALSE to mark it unread again
 * @cancellable: (nullable): a #GCancellable
 * @callback: (nullable): called when it is stored
 * @user_data: data for @callback
 */
void
triage_history_db_set_read_async (TriageHistoryDb     *self,
                                  const char          *notification_id,
                                  gboolean             read,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  ReadData *data;

  g_return_if_fail (TRIAGE_IS_HISTORY_DB (self));
  g_return_if_fail (notification_id != NULL);

  data = g_new0 (ReadData, 1);
  data->id = g_strdup (notification_id);
  data->read = !!read;

  triage_history_db_run (self, self->pool, set_read_func, data, (GDestroyNotify) read_data_free,
                         triage_history_db_set_read_async, cancellable, callback, user_data);
}

gboolean
triage_history_db_set_read_finish (TriageHistoryDb  *self,
                                   GAsyncResult     *result,
                                   GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
