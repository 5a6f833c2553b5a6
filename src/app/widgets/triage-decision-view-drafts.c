/* triage-decision-view-drafts.c — what the person entered and did not send
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-decision-view"

#include "triage-decision-view-private.h"
#include "triage-response-editor.h"

/*
 * Drafts: what the cards hold and was not sent, per request (action id →
 * what triage_response_editor_dup_draft() gives). Kept in memory for as long
 * as the view lives: when the person opens another request, put back when
 * they return (from the list, or as a resync gives the request again). With
 * the app's store (the "store" property) a draft is kept on disk too, so
 * quitting, a crash or a lost session loses nothing: written on the store's
 * worker, half a second after the last change (not at each key), at once
 * when another request is opened or the view goes, and read back when a
 * request with no draft in memory is opened, into the controls still empty.
 *
 * A request answered here or settled keeps none: the view drops it from
 * memory and stops writing it, and the database drops it by itself (its
 * triggers: the answer entering the outbox, a settled status or outcome),
 * whichever connection records that, and refuses a write that comes after.
 * A write that fails (a full disk) leaves the draft in memory and in the
 * controls, and is said once in the log until one succeeds again.
 */

#define DRAFT_DELAY_MS 500

/* What the cards hold, or %NULL when they hold nothing. */
static JsonObject *
dup_entered (TriageDecisionView *self)
{
  g_autoptr(JsonObject) draft = json_object_new ();

  for (guint i = 0; i < self->editors->len; i++)
    {
      TriageResponseEditor *editor = g_ptr_array_index (self->editors, i);
      JsonNode *entered = triage_response_editor_dup_draft (editor);

      if (entered != NULL)
        json_object_set_member (draft, triage_response_editor_get_action_id (editor), entered);
    }

  return json_object_get_size (draft) > 0 ? g_steal_pointer (&draft) : NULL;
}

static void
write_draft_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(TriageDecisionView) self = user_data;
  g_autoptr(GError) error = NULL;

  if (triage_store_save_draft_finish (TRIAGE_STORE (object), result, &error))
    {
      self->draft_write_failed = FALSE;
      return;
    }

  /* The draft stays in the controls (and in memory once another request is
   * opened); the next change tries again. */
  if (!self->draft_write_failed)
    g_message ("A draft is kept in memory only, not on disk: %s", error->message);
  self->draft_write_failed = TRUE;
}

/* Writes @draft (%NULL: none) as the stored draft of request @id. */
static void
write_draft (TriageDecisionView *self,
             const char         *id,
             JsonObject         *draft)
{
  g_autofree char *json = NULL;

  if (draft != NULL)
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), draft);

      json = json_to_string (node, FALSE);
    }
  triage_store_save_draft_async (self->store, id, json, NULL, write_draft_cb, g_object_ref (self));
}

static gboolean
draft_timeout_cb (gpointer data)
{
  TriageDecisionView *self = data;

  self->draft_timeout = 0;
  _triage_decision_view_flush_draft (self);
  return G_SOURCE_REMOVE;
}

/**
 * _triage_decision_view_schedule_draft:
 *
 * What a card holds changed: the draft is written once the person has
 * stopped for a moment.
 */
void
_triage_decision_view_schedule_draft (TriageDecisionView *self)
{
  if (self->store == NULL || self->notification == NULL || self->read_only)
    return;

  g_clear_handle_id (&self->draft_timeout, g_source_remove);
  self->draft_timeout = g_timeout_add (DRAFT_DELAY_MS, draft_timeout_cb, self);
}

/**
 * _triage_decision_view_flush_draft:
 *
 * Writes the draft of the request shown now, if one waits to be written.
 */
void
_triage_decision_view_flush_draft (TriageDecisionView *self)
{
  g_autoptr(JsonObject) draft = NULL;

  g_clear_handle_id (&self->draft_timeout, g_source_remove);
  if (self->store == NULL || self->notification == NULL || self->read_only)
    return;

  draft = dup_entered (self);
  write_draft (self, self->notification->id, draft);
}

/**
 * _triage_decision_view_save_draft:
 *
 * The request shown leaves the view: what its cards hold is kept for its
 * return, in memory, and written now if it was waiting to be.
 */
void
_triage_decision_view_save_draft (TriageDecisionView *self)
{
  g_autoptr(JsonObject) draft = NULL;

  if (self->notification == NULL)
    return;

  g_hash_table_remove (self->drafts, self->notification->id);
  if (self->read_only)
    return;

  draft = dup_entered (self);
  if (self->draft_timeout != 0 && self->store != NULL)
    write_draft (self, self->notification->id, draft);
  g_clear_handle_id (&self->draft_timeout, g_source_remove);

  if (draft != NULL)
    g_hash_table_insert (self->drafts, g_strdup (self->notification->id), g_steal_pointer (&draft));
}

static void
put_back (TriageDecisionView *self,
          JsonObject         *draft)
{
  for (guint i = 0; i < self->editors->len; i++)
    {
      TriageResponseEditor *editor = g_ptr_array_index (self->editors, i);
      JsonNode *entered = json_object_get_member (draft, triage_response_editor_get_action_id (editor));

      /* Only into a control that holds nothing: never over what was typed meanwhile. */
      if (entered != NULL)
        triage_response_editor_restore_draft (editor, entered);
    }
}

static void
read_draft_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(TriageDecisionView) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = triage_store_load_draft_finish (TRIAGE_STORE (object), result, &error);
  const char *id = g_task_get_task_data (G_TASK (result));
  g_autoptr(JsonNode) node = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (error != NULL)
    {
      g_message ("A draft could not be read back: %s", error->message);
      return;
    }

  /* Only into the request it was written for, and one still to be answered. */
  if (json == NULL || self->notification == NULL || g_strcmp0 (id, self->notification->id) != 0 ||
      self->read_only)
    return;

  node = json_from_string (json, NULL);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_message ("The stored draft of %s is not one: left aside", id);
      return;
    }
  put_back (self, json_node_get_object (node));
}

/* Reads back the stored draft of the request shown. */
static void
read_draft (TriageDecisionView *self)
{
  g_cancellable_cancel (self->draft_cancellable);
  g_clear_object (&self->draft_cancellable);
  if (self->store == NULL || self->notification == NULL)
    return;

  self->draft_cancellable = g_cancellable_new ();
  triage_store_load_draft_async (self->store, self->notification->id, self->draft_cancellable,
                                 read_draft_cb, g_object_ref (self));
}

/**
 * _triage_decision_view_restore_draft:
 *
 * A request is shown with new cards: what was entered for it is put back,
 * from memory, else from the store (once read, if it may still be answered).
 */
void
_triage_decision_view_restore_draft (TriageDecisionView *self)
{
  JsonObject *draft = g_hash_table_lookup (self->drafts, self->notification->id);

  g_cancellable_cancel (self->draft_cancellable);
  g_clear_object (&self->draft_cancellable);

  if (draft != NULL)
    put_back (self, draft);
  else
    read_draft (self);
}

/**
 * _triage_decision_view_drop_draft:
 *
 * The request shown was answered here or settled: nothing is left to come
 * back to. The store drops what it has by itself (see above).
 */
void
_triage_decision_view_drop_draft (TriageDecisionView *self)
{
  g_clear_handle_id (&self->draft_timeout, g_source_remove);
  g_cancellable_cancel (self->draft_cancellable);
  g_clear_object (&self->draft_cancellable);
  if (self->notification != NULL)
    g_hash_table_remove (self->drafts, self->notification->id);
}

/**
 * _triage_decision_view_set_store:
 *
 * Where drafts are kept on disk; %NULL for memory only. The draft of a
 * request shown is read back from the new store (a window opens a request
 * before its database is open).
 */
gboolean
_triage_decision_view_set_store (TriageDecisionView *self,
                                 TriageStore        *store)
{
  if (self->draft_timeout != 0)
    _triage_decision_view_flush_draft (self);

  if (!g_set_object (&self->store, store))
    return FALSE;

  self->draft_write_failed = FALSE;
  if (self->notification != NULL && !self->read_only &&
      g_hash_table_lookup (self->drafts, self->notification->id) == NULL)
    read_draft (self);

  return TRUE;
}

/**
 * _triage_decision_view_close_drafts:
 *
 * The view goes (the window closes, the app quits): a draft waiting to be
 * written is written now.
 */
void
_triage_decision_view_close_drafts (TriageDecisionView *self)
{
  if (self->draft_timeout != 0)
    _triage_decision_view_flush_draft (self);
  g_cancellable_cancel (self->draft_cancellable);
  g_clear_object (&self->draft_cancellable);
}
