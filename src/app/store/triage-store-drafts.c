/* triage-store-drafts.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-store"

#include <glib/gi18n.h>

#include "triage-store-private.h"

/*
 * Drafts: an answer being written (an AFP review's feedback, what an ATP
 * request's controls hold), kept in the store as the person types so that
 * closing the window, quitting or a crash loses nothing. One draft per
 * request, its JSON as the view wrote it. The database drops a request's
 * draft by itself when its answer enters the outbox, when the request leaves
 * the history (triggers of schema 3), and when it is settled: answered
 * elsewhere, withdrawn or expired (schema 4). A settled request, or one whose
 * answer waits in the outbox, gets no draft written, so a save that was on
 * its way when the request settled cannot bring one back.
 *
 * A draft that cannot be written (a full disk) stays with its view, in
 * memory; once one is written again, ::drafts-writable tells every view
 * to write those it kept, whichever view's write it was.
 */

typedef struct
{
  char *notification_id;
  char *json;            /* NULL: delete */
} DraftData;

static void
draft_data_free (DraftData *data)
{
  g_free (data->notification_id);
  g_free (data->json);
  g_free (data);
}

static void
save_draft_func (TriageStore *self,
                 GTask       *task,
                 gpointer     task_data)
{
  DraftData *data = task_data;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  GError *error = NULL;

  stmt = prepare (_triage_store_get_db (self),
                  data->json != NULL
                  ? "INSERT INTO drafts (notification_id, json, updated_at) SELECT ?1, ?2, ?3"
                    " WHERE NOT EXISTS (SELECT 1 FROM outbox WHERE notification_id = ?1"
                    "   AND state != 'failed')"
                    "  AND NOT EXISTS (SELECT 1 FROM notifications WHERE id = ?1"
                    "   AND (status IN ('responded', 'expired', 'invalidated') OR outcome != 'none'))"
                    " ON CONFLICT (notification_id) DO UPDATE SET json = ?2, updated_at = ?3"
                  : "DELETE FROM drafts WHERE notification_id = ?1",
                  &error);
  if (stmt == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  bind_text (stmt, 1, data->notification_id);
  if (data->json != NULL)
    {
      bind_text (stmt, 2, data->json);
      sqlite3_bind_int64 (stmt, 3, now_usec ());
    }
  return_step (self, task, stmt, _("keep a draft"));
}

/* The write is told to its caller first, then, the first after one that
 * failed, to every view with drafts left unwritten. */
static void
save_draft_done (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  TriageStore *self = TRIAGE_STORE (object);
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      self->draft_failed = TRUE;
      g_task_return_error (task, error);
      return;
    }

  g_task_return_boolean (task, TRUE);
  if (self->draft_failed)
    {
      self->draft_failed = FALSE;
      _triage_store_emit_drafts_writable (self);
    }
}

/**
 * triage_store_save_draft_async:
 * @self: a #TriageStore
 * @notification_id: the request the draft answers
 * @json: (nullable): the draft; %NULL deletes it
 * @cancellable: (nullable): a #GCancellable
 * @callback: (nullable): called when it is stored
 * @user_data: data for @callback
 *
 * Keeps (or replaces, or with %NULL deletes) the draft of an answer. A
 * request whose answer is in the outbox (and not refused), or that the
 * store knows settled, keeps none.
 */
void
triage_store_save_draft_async (TriageStore         *self,
                               const char          *notification_id,
                               const char          *json,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  DraftData *data;
  GTask *task;

  g_return_if_fail (TRIAGE_IS_STORE (self));
  g_return_if_fail (notification_id != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, triage_store_save_draft_async);
  /* Its result is the write's, even cancelled (a write done is reported). */
  g_task_set_check_cancellable (task, FALSE);

  data = g_new0 (DraftData, 1);
  data->notification_id = g_strdup (notification_id);
  data->json = g_strdup (json);
  _triage_store_run (self, save_draft_func, data, (GDestroyNotify) draft_data_free,
                     save_draft_done, cancellable, save_draft_done, task);
}

gboolean
triage_store_save_draft_finish (TriageStore   *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
load_draft_func (TriageStore *self,
                 GTask       *task,
                 gpointer     task_data)
{
  const char *notification_id = task_data;
  sqlite3 *db = _triage_store_get_db (self);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  GError *error = NULL;
  int rc;

  if (!(stmt = prepare (db, "SELECT json FROM drafts WHERE notification_id = ?1", &error)))
    {
      g_task_return_error (task, error);
      return;
    }

  bind_text (stmt, 1, notification_id);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    g_task_return_pointer (task, g_strdup ((const char *) sqlite3_column_text (stmt, 0)), g_free);
  else if (rc == SQLITE_DONE)
    g_task_return_pointer (task, NULL, NULL);
  else
    {
      set_sqlite_error (&error, db, _("read a draft"));
      g_task_return_error (task, error);
    }
}

/**
 * triage_store_load_draft_async:
 * @self: a #TriageStore
 * @notification_id: a request
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the draft
 * @user_data: data for @callback
 *
 * Reads back the draft of an answer to the request, if one is kept.
 */
void
triage_store_load_draft_async (TriageStore         *self,
                               const char          *notification_id,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_return_if_fail (TRIAGE_IS_STORE (self));
  g_return_if_fail (notification_id != NULL);

  _triage_store_run (self, load_draft_func, g_strdup (notification_id), g_free,
                     triage_store_load_draft_async, cancellable, callback, user_data);
}

/**
 * triage_store_load_draft_finish:
 *
 * Returns: (transfer full) (nullable): the draft, %NULL when there is none
 *   (@error unset) or it could not be read (@error set)
 */
char *
triage_store_load_draft_finish (TriageStore   *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
