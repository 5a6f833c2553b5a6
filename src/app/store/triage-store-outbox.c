/* triage-store-outbox.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-store"

#include "triage-store-private.h"

/*
 * The outbox: every answer given here until the server confirmed it, kept
 * durably before it is sent, with its tries and the last error.
 */

/* Outbox: add */

static TriageOutboxEntry *
entry_from_row (sqlite3_stmt *stmt)
{
  TriageOutboxEntry *entry = g_new0 (TriageOutboxEntry, 1);
  const char *data = (const char *) sqlite3_column_text (stmt, 3);
  const char *state = (const char *) sqlite3_column_text (stmt, 5);

  entry->id = sqlite3_column_int64 (stmt, 0);
  entry->notification_id = g_strdup ((const char *) sqlite3_column_text (stmt, 1));
  entry->action_id = g_strdup ((const char *) sqlite3_column_text (stmt, 2));
  entry->response_data = atp_json_parse (data ? data : "null", -1, 0, NULL);
  if (entry->response_data == NULL)
    entry->response_data = json_node_new (JSON_NODE_NULL);
  entry->responded_at = column_time (stmt, 4);
  entry->state = g_strcmp0 (state, "failed") == 0 ? TRIAGE_OUTBOX_FAILED : TRIAGE_OUTBOX_QUEUED;
  entry->attempts = sqlite3_column_int (stmt, 6);
  entry->last_error = g_strdup ((const char *) sqlite3_column_text (stmt, 7));
  entry->server = g_strdup ((const char *) sqlite3_column_text (stmt, 8));

  return entry;
}

/* Each operation on the outbox runs its writes, to the outbox and to the
 * history, in one transaction. */

/* Runs @stmt, one write of the transaction; @what names it in an error. */
static gboolean
step_write (TriageStore   *self,
            sqlite3_stmt  *stmt,
            const char    *what,
            GError       **error)
{
  if (sqlite3_step (stmt) != SQLITE_DONE)
    return set_sqlite_error (error, self->db, what);

  return TRUE;
}

/* After a write of the outbox entry @entry_id: whether there was one. */
static gboolean
found_entry (TriageStore  *self,
             gint64        entry_id,
             GError      **error)
{
  if (sqlite3_changes (self->db) > 0)
    return TRUE;

  g_set_error (error, TRIAGE_STORE_ERROR, TRIAGE_STORE_ERROR_NOT_FOUND,
               _("No answer %lld in the outbox"), (long long) entry_id);
  return FALSE;
}

/* Commits the transaction when all its writes went well (@ok), else, or when
 * the commit fails, rolls it back. */
static gboolean
end_transaction (TriageStore  *self,
                 gboolean      ok,
                 const char   *what,
                 GError      **error)
{
  if (ok && exec_sql (self->db, "COMMIT", what, error))
    return TRUE;

  sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
  return FALSE;
}

/* Runs @insert, which returns the id of the answer it stored, or nothing
 * when one is still waiting. */
static gboolean
insert_answer (TriageStore   *self,
               sqlite3_stmt  *insert,
               gint64        *id,
               GError       **error)
{
  int rc = sqlite3_step (insert);

  if (rc == SQLITE_ROW)
    {
      *id = sqlite3_column_int64 (insert, 0);
      rc = sqlite3_step (insert);
    }
  else if (rc == SQLITE_DONE)
    rc = SQLITE_CONSTRAINT;   /* one is still waiting */
  if (rc == SQLITE_CONSTRAINT)
    {
      g_set_error (error, TRIAGE_STORE_ERROR, TRIAGE_STORE_ERROR_ALREADY_ANSWERED,
                   "%s", _("This request has already been answered here"));
      return FALSE;
    }
  if (rc != SQLITE_DONE)
    return set_sqlite_error (error, self->db, _("store the answer"));

  return TRUE;
}

#define OUTBOX_COLUMNS \
  "id, notification_id, action_id, response_data, responded_at, state, attempts, last_error," \
  " server"

static void
outbox_add_func (TriageStore *self,
                 GTask       *task,
                 gpointer     task_data)
{
  TriageOutboxEntry *in = task_data;
  const char *what = _("store the answer");
  g_autoptr(sqlite3_stmt) insert = NULL;
  g_autoptr(sqlite3_stmt) mark = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = atp_json_to_string (in->response_data, NULL);
  TriageOutboxEntry *entry;
  gint64 id = 0;
  gboolean ok;

  if (!exec_sql (self->db, "BEGIN IMMEDIATE", what, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* An answer the server refused for good may be given anew; one still
   * on its way may not. */
  ok = (insert = prepare (self->db,
                          "INSERT INTO outbox (notification_id, action_id, response_data,"
                          "  responded_at, state, created_at, server)"
                          " VALUES (?1, ?2, ?3, ?4, 'queued', ?5, ?6)"
                          " ON CONFLICT (notification_id) DO UPDATE SET action_id = ?2,"
                          "  response_data = ?3, responded_at = ?4, state = 'queued',"
                          "  attempts = 0, last_error = NULL, created_at = ?5, server = ?6"
                          "  WHERE state = 'failed'"
                          " RETURNING id",
                          &error)) != NULL &&
       (mark = prepare (self->db,
                        "UPDATE notifications SET action_id = ?2, response_data = ?3,"
                        "  answered_at = ?4, responder_type = 'human', updated_at = ?5,"
                        "  outcome = CASE outcome WHEN 'rejected' THEN 'none' ELSE outcome END"
                        " WHERE id = ?1",
                        &error)) != NULL;
  if (ok)
    {
      bind_text (insert, 1, in->notification_id);
      bind_text (insert, 2, in->action_id);
      bind_text (insert, 3, data);
      bind_time (insert, 4, in->responded_at);
      sqlite3_bind_int64 (insert, 5, now_usec ());
      bind_text (insert, 6, in->server);
      ok = insert_answer (self, insert, &id, &error);
    }
  if (ok)
    {
      bind_text (mark, 1, in->notification_id);
      bind_text (mark, 2, in->action_id);
      bind_text (mark, 3, data);
      bind_time (mark, 4, in->responded_at);
      sqlite3_bind_int64 (mark, 5, now_usec ());
      ok = step_write (self, mark, what, &error);
    }

  if (!end_transaction (self, ok, what, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  entry = triage_outbox_entry_copy (in);
  entry->id = id;
  entry->state = TRIAGE_OUTBOX_QUEUED;
  g_task_return_pointer (task, entry, (GDestroyNotify) triage_outbox_entry_free);
}

/**
 * triage_store_outbox_add_async:
 * @self: a #TriageStore
 * @notification_id: the request answered
 * @action_id: the action chosen
 * @response_data: (nullable): the answer; %NULL is JSON null
 * @responded_at: (nullable): when; %NULL is now
 * @cancellable: (nullable): a #GCancellable
 * @callback: called once the answer is on disk
 * @user_data: data for @callback
 *
 * Stores an answer durably before it is sent. Fails with
 * %TRIAGE_STORE_ERROR_ALREADY_ANSWERED when one is already waiting.
 */
void
triage_store_outbox_add_async (TriageStore         *self,
                               const char          *notification_id,
                               const char          *action_id,
                               JsonNode            *response_data,
                               GDateTime           *responded_at,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  TriageOutboxEntry *entry;

  g_return_if_fail (TRIAGE_IS_STORE (self));
  g_return_if_fail (notification_id != NULL);
  g_return_if_fail (action_id != NULL);

  entry = g_new0 (TriageOutboxEntry, 1);
  entry->notification_id = g_strdup (notification_id);
  entry->action_id = g_strdup (action_id);
  entry->response_data = response_data ? json_node_copy (response_data)
                                       : json_node_new (JSON_NODE_NULL);
  entry->responded_at = responded_at ? g_date_time_ref (responded_at)
                                     : g_date_time_new_now_utc ();
  entry->server = g_strdup (self->server);

  _triage_store_run (self, outbox_add_func, entry, (GDestroyNotify) triage_outbox_entry_free,
                     triage_store_outbox_add_async, cancellable, callback, user_data);
}

/**
 * triage_store_outbox_add_finish:
 *
 * Returns: (transfer full): the stored entry
 */
TriageOutboxEntry *
triage_store_outbox_add_finish (TriageStore   *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Outbox: list */

static void
outbox_list_func (TriageStore *self,
                  GTask       *task,
                  gpointer     task_data)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_outbox_entry_free);
  int rc;

  if (!(stmt = prepare (self->db,
                        "SELECT " OUTBOX_COLUMNS " FROM outbox WHERE server = ?1 ORDER BY id",
                        &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  bind_text (stmt, 1, task_data);

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_ptr_array_add (entries, entry_from_row (stmt));

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (&error, self->db, _("read the outbox"));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_pointer (task, g_steal_pointer (&entries), (GDestroyNotify) g_ptr_array_unref);
}

/**
 * triage_store_outbox_list_async:
 * @self: a #TriageStore
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the entries
 * @user_data: data for @callback
 *
 * Lists every answer not yet confirmed (queued or failed), oldest first.
 */
void
triage_store_outbox_list_async (TriageStore         *self,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_return_if_fail (TRIAGE_IS_STORE (self));

  _triage_store_run (self, outbox_list_func, g_strdup (self->server), g_free,
                     triage_store_outbox_list_async,
                     cancellable, callback, user_data);
}

/**
 * triage_store_outbox_list_finish:
 *
 * Returns: (transfer container) (element-type TriageOutboxEntry): the entries
 */
GPtrArray *
triage_store_outbox_list_finish (TriageStore   *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Outbox: complete */

typedef struct
{
  gint64         entry_id;
  TriageOutcome  outcome;
  char          *responder_id;
  GDateTime     *delivered_at;
  gboolean       permanent;
  char          *message;
} OutboxUpdate;

static void
outbox_update_free (OutboxUpdate *update)
{
  g_free (update->responder_id);
  g_clear_pointer (&update->delivered_at, g_date_time_unref);
  g_free (update->message);
  g_free (update);
}

static void
outbox_complete_func (TriageStore *self,
                      GTask       *task,
                      gpointer     task_data)
{
  OutboxUpdate *update = task_data;
  const char *what = _("clear a delivered answer");
  g_autoptr(sqlite3_stmt) mark = NULL;
  g_autoptr(sqlite3_stmt) delete = NULL;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (!exec_sql (self->db, "BEGIN IMMEDIATE", what, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* The answer moves from the outbox into the history in one transaction. */
  ok = (mark = prepare (self->db,
                        "UPDATE notifications SET outcome = ?2, responder_id = ?3,"
                        "  delivered_at = ?4, updated_at = ?5,"
                        "  status = CASE WHEN ?2 = 'answered' THEN 'responded' ELSE status END"
                        " WHERE id = (SELECT notification_id FROM outbox WHERE id = ?1)",
                        &error)) != NULL &&
       (delete = prepare (self->db, "DELETE FROM outbox WHERE id = ?1", &error)) != NULL;
  if (ok)
    {
      sqlite3_bind_int64 (mark, 1, update->entry_id);
      bind_text (mark, 2, triage_outcome_to_string (update->outcome));
      bind_text (mark, 3, update->responder_id);
      bind_time (mark, 4, update->delivered_at);
      sqlite3_bind_int64 (mark, 5, now_usec ());
      sqlite3_bind_int64 (delete, 1, update->entry_id);
      ok = step_write (self, mark, what, &error) &&
           step_write (self, delete, what, &error) &&
           found_entry (self, update->entry_id, &error);
    }

  if (end_transaction (self, ok, what, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, g_steal_pointer (&error));
}

/**
 * triage_store_outbox_complete_async:
 * @self: a #TriageStore
 * @entry_id: the outbox entry
 * @outcome: %TRIAGE_OUTCOME_ANSWERED after a 200, %TRIAGE_OUTCOME_ANSWERED_ELSEWHERE,
 *   %TRIAGE_OUTCOME_EXPIRED or %TRIAGE_OUTCOME_INVALIDATED after a 409,
 *   %TRIAGE_OUTCOME_GONE after a 500 NOTIFICATION_UNREADABLE or a 404 (or ATP's 403 twin)
 * @responder_id: (nullable): who the server recorded as the responder
 * @delivered_at: (nullable): when the server confirmed
 * @cancellable: (nullable): a #GCancellable
 * @callback: (nullable): called when done
 * @user_data: data for @callback
 *
 * Clears an answer the server has settled and records the outcome in the history.
 */
void
triage_store_outbox_complete_async (TriageStore         *self,
                                    gint64               entry_id,
                                    TriageOutcome        outcome,
                                    const char          *responder_id,
                                    GDateTime           *delivered_at,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  OutboxUpdate *update;

  g_return_if_fail (TRIAGE_IS_STORE (self));

  update = g_new0 (OutboxUpdate, 1);
  update->entry_id = entry_id;
  update->outcome = outcome;
  update->responder_id = g_strdup (responder_id);
  update->delivered_at = delivered_at ? g_date_time_ref (delivered_at) : g_date_time_new_now_utc ();

  _triage_store_run (self, outbox_complete_func, update, (GDestroyNotify) outbox_update_free,
                     triage_store_outbox_complete_async, cancellable, callback, user_data);
}

gboolean
triage_store_outbox_complete_finish (TriageStore   *self,
                                     GAsyncResult  *result,
                                     GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Outbox: failed try */

static void
outbox_failed_func (TriageStore *self,
                    GTask       *task,
                    gpointer     task_data)
{
  OutboxUpdate *update = task_data;
  const char *what = _("record a failed delivery");
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(sqlite3_stmt) mark = NULL;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (!exec_sql (self->db, "BEGIN IMMEDIATE", what, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  ok = (stmt = prepare (self->db,
                        "UPDATE outbox SET attempts = attempts + 1, last_error = ?2,"
                        "  state = CASE WHEN ?3 THEN 'failed' ELSE state END"
                        " WHERE id = ?1",
                        &error)) != NULL &&
       (mark = prepare (self->db,
                        "UPDATE notifications SET outcome = 'rejected', updated_at = ?2"
                        " WHERE ?3 AND id = (SELECT notification_id FROM outbox WHERE id = ?1)",
                        &error)) != NULL;
  if (ok)
    {
      sqlite3_bind_int64 (stmt, 1, update->entry_id);
      bind_text (stmt, 2, update->message);
      sqlite3_bind_int (stmt, 3, update->permanent);
      sqlite3_bind_int64 (mark, 1, update->entry_id);
      sqlite3_bind_int64 (mark, 2, now_usec ());
      sqlite3_bind_int (mark, 3, update->permanent);
      ok = step_write (self, stmt, what, &error) &&
           found_entry (self, update->entry_id, &error) &&
           step_write (self, mark, what, &error);
    }

  if (end_transaction (self, ok, what, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, g_steal_pointer (&error));
}

/**
 * triage_store_outbox_failed_async:
 * @self: a #TriageStore
 * @entry_id: the outbox entry
 * @permanent: %TRUE when the server refused the answer for good (it stays,
 *   marked failed, and is not sent again)
 * @message: why it failed
 * @cancellable: (nullable): a #GCancellable
 * @callback: (nullable): called when done
 * @user_data: data for @callback
 *
 * Counts a failed try.
 */
void
triage_store_outbox_failed_async (TriageStore         *self,
                                  gint64               entry_id,
                                  gboolean             permanent,
                                  const char          *message,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  OutboxUpdate *update;

  g_return_if_fail (TRIAGE_IS_STORE (self));

  update = g_new0 (OutboxUpdate, 1);
  update->entry_id = entry_id;
  update->permanent = !!permanent;
  update->message = g_strdup (message);

  _triage_store_run (self, outbox_failed_func, update, (GDestroyNotify) outbox_update_free,
                     triage_store_outbox_failed_async, cancellable, callback, user_data);
}

gboolean
triage_store_outbox_failed_finish (TriageStore   *self,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
