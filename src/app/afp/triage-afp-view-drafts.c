/* triage-afp-view-drafts.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-afp"

#include "triage-afp-view-private.h"

/* Drafts */

#define DRAFT_DELAY_MS 500

static void
save_draft_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!triage_store_save_draft_finish (TRIAGE_STORE (object), result, &error))
    g_message ("A review's draft was not kept: %s", error->message);
}

/* Saves the draft now (or deletes it when the editor is empty). */
void
_triage_afp_view_flush_draft (TriageAfpView *self)
{
  g_autoptr(JsonNode) feedback = NULL;
  g_autofree char *json = NULL;

  g_clear_handle_id (&self->draft_timeout, g_source_remove);
  if (self->store == NULL || self->notification == NULL || self->review == NULL || self->read_only)
    return;

  if (!triage_afp_editor_is_empty (self->editor))
    {
      feedback = triage_afp_editor_dup_feedback (self->editor);
      json = atp_json_to_string (feedback, NULL);
    }
  triage_store_save_draft_async (self->store, self->notification->id, json, NULL, save_draft_cb, NULL);
}

static gboolean
draft_timeout_cb (gpointer data)
{
  TriageAfpView *self = data;

  self->draft_timeout = 0;
  _triage_afp_view_flush_draft (self);
  return G_SOURCE_REMOVE;
}

void
_triage_afp_view_schedule_draft (TriageAfpView *self)
{
  if (self->store == NULL || self->read_only)
    return;

  g_clear_handle_id (&self->draft_timeout, g_source_remove);
  self->draft_timeout = g_timeout_add (DRAFT_DELAY_MS, draft_timeout_cb, self);
}

static void
load_draft_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(TriageAfpView) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = triage_store_load_draft_finish (TRIAGE_STORE (object), result, &error);
  g_autoptr(JsonNode) node = NULL;
  const char *id = g_task_get_task_data (G_TASK (result));

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (error != NULL)
    {
      g_message ("A review's draft could not be read: %s", error->message);
      return;
    }

  /* Only into the review it was written for, and never over what the person typed meanwhile. */
  if (json == NULL || self->notification == NULL || g_strcmp0 (id, self->notification->id) != 0 ||
      self->read_only || !triage_afp_editor_is_empty (self->editor))
    return;

  node = json_from_string (json, NULL);
  if (node != NULL)
    {
      triage_afp_editor_load (self->editor, node);
      _triage_afp_view_update_state (self);
    }
}

void
_triage_afp_view_load_draft (TriageAfpView *self)
{
  g_cancellable_cancel (self->draft_cancellable);
  g_clear_object (&self->draft_cancellable);
  if (self->store == NULL || self->notification == NULL || self->read_only)
    return;

  self->draft_cancellable = g_cancellable_new ();
  triage_store_load_draft_async (self->store, self->notification->id, self->draft_cancellable,
                                 load_draft_cb, g_object_ref (self));
}

