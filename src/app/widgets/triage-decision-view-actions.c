/* triage-decision-view-actions.c — the action cards, and an answer on its way out
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-decision-view"

#include "triage-decision-view-private.h"
#include "triage-response-editor.h"

/*
 * One TriageResponseEditor per action, in the order sent. An editor's
 * ::submit is checked once more, confirmed first when the action's flags ask
 * for it (destructive, irreversible, requires_confirmation), and then leaves
 * the view as its ::submit.
 */

static void on_editor_submit (TriageDecisionView   *self,
                              JsonNode             *response_data,
                              TriageResponseEditor *editor);

/* The cards */

void
_triage_decision_view_clear_editors (TriageDecisionView *self)
{
  for (guint i = 0; i < self->editors->len; i++)
    gtk_box_remove (self->editors_box, g_ptr_array_index (self->editors, i));
  g_ptr_array_set_size (self->editors, 0);
}

void
_triage_decision_view_build_editors (TriageDecisionView *self)
{
  GPtrArray *actions = self->notification->actions;

  _triage_decision_view_clear_editors (self);
  for (guint i = 0; i < actions->len; i++)
    {
      const AtpAction *action = g_ptr_array_index (actions, i);
      GtkWidget *editor = triage_response_editor_new (self->notification, action->id);

      g_signal_connect_object (editor, "submit", G_CALLBACK (on_editor_submit), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (editor, "changed", G_CALLBACK (triage_draft_keeper_changed),
                               self->drafts, G_CONNECT_SWAPPED);
      g_ptr_array_add (self->editors, editor);
      gtk_box_append (self->editors_box, editor);
    }
}

/* An answer on its way out */

typedef struct
{
  TriageDecisionView *self;
  char               *action_id;
  JsonNode           *response_data;
} PendingAnswer;

static void
pending_answer_free (PendingAnswer *pending)
{
  g_clear_object (&pending->self);
  g_free (pending->action_id);
  g_clear_pointer (&pending->response_data, json_node_unref);
  g_free (pending);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PendingAnswer, pending_answer_free)

static void
confirm_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(PendingAnswer) pending = user_data;
  TriageDecisionView *self = pending->self;
  g_autoptr(GError) error = NULL;
  gboolean confirmed;

  confirmed = triage_confirm_dialog_run_finish (TRIAGE_CONFIRM_DIALOG (object), result, &error);

  if (self->confirm_dialog == TRIAGE_CONFIRM_DIALOG (object))
    self->confirm_dialog = NULL;

  /* Cancelled: the request changed or turned read-only meanwhile. */
  if (error != NULL)
    return;

  g_clear_object (&self->confirm_cancellable);

  if (confirmed && !self->read_only)
    triage_request_view_submit_answer (TRIAGE_REQUEST_VIEW (self), pending->action_id,
                                       pending->response_data);
}

static void
on_editor_submit (TriageDecisionView   *self,
                  JsonNode             *response_data,
                  TriageResponseEditor *editor)
{
  const AtpAction *action = triage_response_editor_get_action (editor);
  g_autoptr(GError) error = NULL;
  PendingAnswer *pending;
  GtkRoot *root;

  /* An editor of the request shown: made for it as first received, it keeps
   * that copy when the same request is shown again (a resync). */
  if (self->read_only || self->notification == NULL ||
      !g_str_equal (triage_response_editor_get_notification (editor)->id, self->notification->id))
    return;

  /* The editor checked it; the view never lets an invalid answer out either. */
  if (!atp_action_validate_response (action, response_data, &error))
    {
      g_warning ("Invalid answer to %s not sent: %s", action->id, error->message);
      return;
    }

  if (!atp_action_needs_confirmation (action))
    {
      triage_request_view_submit_answer (TRIAGE_REQUEST_VIEW (self), action->id, response_data);
      return;
    }

  if (self->confirm_dialog != NULL)
    return;

  root = gtk_widget_get_root (GTK_WIDGET (self));
  self->confirm_dialog = triage_confirm_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                    self->notification->service.name,
                                                    action, response_data);
  triage_confirm_dialog_set_grace_period (self->confirm_dialog, self->confirm_grace_period);

  pending = g_new0 (PendingAnswer, 1);
  pending->self = g_object_ref (self);
  pending->action_id = g_strdup (action->id);
  pending->response_data = json_node_copy (response_data);

  /* The cancellable of a confirmation that ended without an answer (Escape,
   * its window closed: confirm_cb () keeps it then) is dropped here. */
  g_clear_object (&self->confirm_cancellable);
  self->confirm_cancellable = g_cancellable_new ();
  triage_confirm_dialog_run_async (self->confirm_dialog, self->confirm_cancellable,
                                   confirm_cb, pending);
}

void
_triage_decision_view_cancel_confirmation (TriageDecisionView *self)
{
  if (self->confirm_cancellable != NULL)
    g_cancellable_cancel (self->confirm_cancellable);
  g_clear_object (&self->confirm_cancellable);
  self->confirm_dialog = NULL;
}

/* The card of the action chosen — here, or on another device once that
 * answer is known — says so in a read-only view, with the answer in its
 * control where the control holds none (a request read back from the
 * history). */
void
_triage_decision_view_mark_chosen (TriageDecisionView *self,
                                   gboolean            read_only)
{
  const char *chosen = NULL;
  JsonNode *data = NULL;

  if (read_only && self->state.delivery != TRIAGE_DELIVERY_NONE &&
      self->state.sent_action_id != NULL)
    {
      chosen = self->state.sent_action_id;
      data = self->state.sent_response;
    }
  else if (read_only && self->state.status == ATP_STATUS_RESPONDED && self->state.response != NULL)
    {
      chosen = self->state.response->action_id;
      data = self->state.response->response_data;
    }

  for (guint i = 0; i < self->editors->len; i++)
    {
      TriageResponseEditor *editor = g_ptr_array_index (self->editors, i);
      gboolean is_chosen = chosen != NULL &&
                           g_str_equal (triage_response_editor_get_action_id (editor), chosen);

      triage_response_editor_set_chosen (editor, is_chosen, is_chosen ? data : NULL);
    }
}
