/* triage-store-requests.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-store"

#include "triage-store-private.h"

/*
 * The requests seen (table notifications: the offline inbox, then the
 * history): saved as they come, in one transaction for those that come
 * together; what became of each; answers given elsewhere; pruning; the
 * pending ones read back when the app starts.
 */

/* Save a notification */

typedef struct
{
  AtpNotification *notification;
  char            *server;
} SaveJob;

static void
save_job_free (SaveJob *job)
{
  atp_notification_unref (job->notification);
  g_free (job->server);
  g_free (job);
}

static gboolean
save_one (TriageStore      *self,
          sqlite3_stmt     *stmt,
          SaveJob          *job,
          GError          **error)
{
  AtpNotification *notification = job->notification;
  g_autofree char *json = atp_notification_to_string (notification, NULL);

  sqlite3_reset (stmt);
  sqlite3_clear_bindings (stmt);
  bind_text (stmt, 1, notification->id);
  bind_text (stmt, 2, notification->service.id);
  bind_text (stmt, 3, notification->service.name);
  bind_text (stmt, 4, notification->context.project);
  bind_text (stmt, 5, notification->context.title);
  bind_text (stmt, 6, json);
  bind_text (stmt, 7, atp_status_to_string (notification->status));
  bind_time (stmt, 8, notification->timestamp);
  bind_time (stmt, 9, notification->deadline);
  sqlite3_bind_int64 (stmt, 10, now_usec ());
  bind_text (stmt, 11, job->server);

  if (sqlite3_step (stmt) != SQLITE_DONE)
    return set_sqlite_error (error, self->db, _("save a request"));

  return TRUE;
}

/* The saves of @batch in one transaction; each task gets the outcome. */
void
_triage_store_save_batch (TriageStore *self,
                          GPtrArray   *batch)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;
  gboolean in_transaction = FALSE;

  if (self->db == NULL)
    g_set_error_literal (&error, TRIAGE_STORE_ERROR, TRIAGE_STORE_ERROR_FAILED,
                         _("The local database is not open"));
  /* A request seen again (resync, reconnect) keeps its first_seen and
   * outcome; its body and status follow the server's — that server's only:
   * another one cannot rewrite a request by reusing its id. */
  else if ((stmt = prepare (self->db,
                            "INSERT INTO notifications (id, service_id, service_name, project,"
                            "  title, json, status, created_at, deadline, first_seen, updated_at,"
                            "  server)"
                            " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, ?11)"
                            " ON CONFLICT (id) DO UPDATE SET service_id = ?2, service_name = ?3,"
                            "  project = ?4, title = ?5, json = ?6, status = ?7, deadline = ?9,"
                            "  updated_at = ?10 WHERE server = ?11",
                            &error)) != NULL)
    in_transaction = exec_sql (self->db, "BEGIN IMMEDIATE", _("save a request"), &error);

  for (guint i = 0; in_transaction && i < batch->len; i++)
    {
      GTask *task = g_ptr_array_index (batch, i);

      if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
        continue;
      if (!save_one (self, stmt, g_task_get_task_data (task), &error))
        break;
    }

  if (in_transaction && error == NULL)
    exec_sql (self->db, "COMMIT", _("save a request"), &error);
  if (in_transaction && error != NULL)
    sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);

  for (guint i = 0; i < batch->len; i++)
    {
      GTask *task = g_ptr_array_index (batch, i);

      if (g_task_return_error_if_cancelled (task))
        continue;
      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_boolean (task, TRUE);
    }
}

/**
 * triage_store_save_notification_async:
 * @self: a #TriageStore
 * @notification: a request as received from the server
 * @cancellable: (nullable): a #GCancellable
 * @callback: (nullable): called when it is stored
 * @user_data: data for @callback
 *
 * Records a request (or refreshes one already known). Saves asked for one
 * after the other are written in one transaction.
 */
void
triage_store_save_notification_async (TriageStore         *self,
                                      AtpNotification     *notification,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  SaveJob *job;
  GTask *task;

  g_return_if_fail (TRIAGE_IS_STORE (self));
  g_return_if_fail (notification != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, triage_store_save_notification_async);
  job = g_new0 (SaveJob, 1);
  job->notification = atp_notification_ref (notification);
  job->server = g_strdup (self->server);
  g_task_set_task_data (task, job, (GDestroyNotify) save_job_free);
  g_task_set_return_on_cancel (task, FALSE);

  _triage_store_queue_save (self, task);
}

gboolean
triage_store_save_notification_finish (TriageStore   *self,
                                       GAsyncResult  *result,
                                       GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Set the outcome of a notification */

typedef struct
{
  char          *notification_id;
  AtpStatus      status;
  TriageOutcome  outcome;
  char          *reason;
} OutcomeData;

static void
outcome_data_free (OutcomeData *data)
{
  g_free (data->notification_id);
  g_free (data->reason);
  g_free (data);
}

static void
set_outcome_func (TriageStore *self,
                  GTask       *task,
                  gpointer     task_data)
{
  OutcomeData *data = task_data;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;

  /* An outcome already recorded (our own answer) is never overwritten by a
   * later status from the server. */
  stmt = prepare (self->db,
                  "UPDATE notifications SET status = ?2, status_reason = ?3, updated_at = ?4,"
                  "  outcome = CASE WHEN outcome = 'none' THEN ?5 ELSE outcome END"
                  " WHERE id = ?1",
                  &error);
  if (stmt == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  bind_text (stmt, 1, data->notification_id);
  bind_text (stmt, 2, atp_status_to_string (data->status));
  bind_text (stmt, 3, data->reason);
  sqlite3_bind_int64 (stmt, 4, now_usec ());
  bind_text (stmt, 5, triage_outcome_to_string (data->outcome));

  return_step (self, task, stmt, _("record what became of a request"));
}

/**
 * triage_store_set_outcome_async:
 * @self: a #TriageStore
 * @notification_id: the request
 * @status: its new server status
 * @outcome: what became of it
 * @reason: (nullable): the server's reason
 * @cancellable: (nullable): a #GCancellable
 * @callback: (nullable): called when it is stored
 * @user_data: data for @callback
 *
 * Records a status change pushed by the server. An outcome already set is kept.
 */
void
triage_store_set_outcome_async (TriageStore         *self,
                                const char          *notification_id,
                                AtpStatus            status,
                                TriageOutcome        outcome,
                                const char          *reason,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  OutcomeData *data;

  g_return_if_fail (TRIAGE_IS_STORE (self));
  g_return_if_fail (notification_id != NULL);

  data = g_new0 (OutcomeData, 1);
  data->notification_id = g_strdup (notification_id);
  data->status = status;
  data->outcome = outcome;
  data->reason = g_strdup (reason);

  _triage_store_run (self, set_outcome_func, data, (GDestroyNotify) outcome_data_free,
                     triage_store_set_outcome_async, cancellable, callback, user_data);
}

gboolean
triage_store_set_outcome_finish (TriageStore   *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Record an answer given elsewhere */

static void
set_response_func (TriageStore *self,
                   GTask       *task,
                   gpointer     task_data)
{
  AtpResponse *response = task_data;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = atp_json_to_string (response->response_data, NULL);

  /* Only for a request this app did not answer itself: an answer of ours
   * still in the outbox, or delivered, stays what the history shows. One
   * that lost to this one (a 409) was marked answered elsewhere and is
   * replaced by the answer that won. */
  stmt = prepare (self->db,
                  "UPDATE notifications SET outcome = 'answered-elsewhere', status = 'responded',"
                  "  action_id = ?2, response_data = ?3, responder_id = ?4, responder_type = ?5,"
                  "  answered_at = ?6, delivered_at = NULL, updated_at = ?7"
                  " WHERE id = ?1 AND outcome IN ('none', 'answered-elsewhere')"
                  "  AND NOT EXISTS (SELECT 1 FROM outbox WHERE notification_id = ?1)",
                  &error);
  if (stmt == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  bind_text (stmt, 1, response->notification_id);
  bind_text (stmt, 2, response->action_id);
  bind_text (stmt, 3, data);
  bind_text (stmt, 4, response->responder_id);
  bind_text (stmt, 5, atp_responder_type_to_string (response->responder_type));
  bind_time (stmt, 6, response->responded_at);
  sqlite3_bind_int64 (stmt, 7, now_usec ());

  return_step (self, task, stmt, _("record what became of a request"));
}

/**
 * triage_store_set_response_async:
 * @self: a #TriageStore
 * @response: the answer the server recorded from another device or person
 * @cancellable: (nullable): a #GCancellable
 * @callback: (nullable): called when it is stored
 * @user_data: data for @callback
 *
 * Records a request as answered elsewhere, with the answer: which action,
 * its data, who answered and when. An answer given here is never replaced.
 */
void
triage_store_set_response_async (TriageStore         *self,
                                 AtpResponse         *response,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_return_if_fail (TRIAGE_IS_STORE (self));
  g_return_if_fail (response != NULL);

  _triage_store_run (self, set_response_func, atp_response_ref (response),
                     (GDestroyNotify) atp_response_unref,
                     triage_store_set_response_async, cancellable, callback, user_data);
}

gboolean
triage_store_set_response_finish (TriageStore   *self,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Forget old history */

static void
prune_func (TriageStore *self,
            GTask       *task,
            gpointer     task_data)
{
  gint64 *before = task_data;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;

  /* Settled requests only (an outcome, or a final status from the server),
   * never one whose answer is still in the outbox. */
  stmt = prepare (self->db,
                  "DELETE FROM notifications WHERE updated_at < ?1"
                  "  AND (outcome != 'none' OR status IN ('responded', 'expired', 'invalidated'))"
                  "  AND id NOT IN (SELECT notification_id FROM outbox)",
                  &error);
  if (stmt == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  sqlite3_bind_int64 (stmt, 1, *before);
  if (sqlite3_step (stmt) != SQLITE_DONE)
    {
      set_sqlite_error (&error, self->db, _("remove old history"));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_int (task, sqlite3_changes (self->db));
}

/**
 * triage_store_prune_async:
 * @self: a #TriageStore
 * @before: settled requests last changed before this time are removed
 * @cancellable: (nullable): a #GCancellable
 * @callback: (nullable): called when done
 * @user_data: data for @callback
 *
 * Forgets the history older than the person wants kept (the
 * history-retention-days setting): answered, expired and withdrawn requests;
 * never a pending one, nor one whose answer waits in the outbox.
 */
void
triage_store_prune_async (TriageStore         *self,
                          GDateTime           *before,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  gint64 *usec;

  g_return_if_fail (TRIAGE_IS_STORE (self));
  g_return_if_fail (before != NULL);

  usec = g_new (gint64, 1);
  *usec = g_date_time_to_unix (before) * G_USEC_PER_SEC + g_date_time_get_microsecond (before);
  _triage_store_run (self, prune_func, usec, g_free, triage_store_prune_async,
                     cancellable, callback, user_data);
}

/**
 * triage_store_prune_finish:
 *
 * Returns: how many requests were removed, or -1 with @error set
 */
gssize
triage_store_prune_finish (TriageStore   *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), -1);

  return g_task_propagate_int (G_TASK (result), error);
}

/* Load the pending requests */

static gboolean
claim_unowned (TriageStore  *self,
               const char   *server,
               GError      **error)
{
  static const char *const updates[] = {
    "UPDATE notifications SET server = ?1 WHERE server = ''",
    "UPDATE outbox SET server = ?1 WHERE server = ''",
  };

  for (guint i = 0; i < G_N_ELEMENTS (updates); i++)
    {
      g_autoptr(sqlite3_stmt) stmt = prepare (self->db, updates[i], error);

      if (stmt == NULL)
        return FALSE;
      bind_text (stmt, 1, server);
      if (sqlite3_step (stmt) != SQLITE_DONE)
        return set_sqlite_error (error, self->db, _("read the pending requests"));
    }

  return TRUE;
}

static void
load_pending_func (TriageStore *self,
                   GTask       *task,
                   gpointer     task_data)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_store_record_free);
  const char *server = task_data;
  int rc;

  /* What version 1 kept belongs to the server the app was using then: the
   * one it loads first. */
  if (*server != '\0' && !claim_unowned (self, server, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  stmt = prepare (self->db,
                  "SELECT json, outcome, first_seen FROM notifications"
                  " WHERE server = ?1 AND outcome = 'none'"
                  "  AND status IN ('created', 'delivered', 'acknowledged')"
                  " ORDER BY deadline IS NULL, deadline, created_at",
                  &error);
  if (stmt == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  bind_text (stmt, 1, server);

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autoptr(GError) parse_error = NULL;
      const char *json = (const char *) sqlite3_column_text (stmt, 0);
      AtpNotification *notification;
      TriageStoreRecord *record;

      notification = atp_notification_new_from_data (json, -1, ATP_PARSE_DEFAULT, &parse_error);
      if (notification == NULL)
        {
          /* Only a corrupted file gets here; skip the row, keep the rest. */
          g_warning ("Skipping an unreadable request in the local database: %s",
                     parse_error->message);
          continue;
        }

      record = g_new0 (TriageStoreRecord, 1);
      record->notification = notification;
      record->outcome = triage_outcome_from_string ((const char *) sqlite3_column_text (stmt, 1));
      record->first_seen = column_time (stmt, 2);
      g_ptr_array_add (records, record);
    }

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (&error, self->db, _("read the pending requests"));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_pointer (task, g_steal_pointer (&records), (GDestroyNotify) g_ptr_array_unref);
}

/**
 * triage_store_load_pending_async:
 * @self: a #TriageStore
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the requests
 * @user_data: data for @callback
 *
 * Loads every request still pending as far as this app knows, by deadline
 * then age: the inbox to show before the server answers.
 */
void
triage_store_load_pending_async (TriageStore         *self,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_return_if_fail (TRIAGE_IS_STORE (self));

  _triage_store_run (self, load_pending_func, g_strdup (self->server), g_free,
                     triage_store_load_pending_async,
                     cancellable, callback, user_data);
}

/**
 * triage_store_load_pending_finish:
 *
 * Returns: (transfer container) (element-type TriageStoreRecord): the records
 */
GPtrArray *
triage_store_load_pending_finish (TriageStore   *self,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
