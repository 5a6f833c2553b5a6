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
 * what triage_response_editor_dup_draft() gives), kept by a
 * TriageDraftKeeper (triage-draft-keeper.c: when it is written, read back
 * and dropped) in memory and, with the view's "store", on disk.
 */

/* What the cards hold, or %NULL when they hold nothing. */
static JsonObject *
dup_entered (gpointer owner)
{
  TriageDecisionView *self = owner;
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
put_back (gpointer    owner,
          JsonObject *draft)
{
  TriageDecisionView *self = owner;

  for (guint i = 0; i < self->editors->len; i++)
    {
      TriageResponseEditor *editor = g_ptr_array_index (self->editors, i);
      JsonNode *entered = json_object_get_member (draft, triage_response_editor_get_action_id (editor));

      /* Only into a control that holds nothing: never over what was typed meanwhile. */
      if (entered != NULL)
        triage_response_editor_restore_draft (editor, entered);
    }
}

/**
 * _triage_decision_view_new_drafts:
 *
 * Returns: (transfer full): the keeper of what the view's cards hold
 */
TriageDraftKeeper *
_triage_decision_view_new_drafts (TriageDecisionView *self)
{
  return triage_draft_keeper_new (self, dup_entered, put_back);
}

/* TriageRequestView.get_drafts */
TriageDraftKeeper *
_triage_decision_view_get_drafts (TriageRequestView *view)
{
  return TRIAGE_DECISION_VIEW (view)->drafts;
}
