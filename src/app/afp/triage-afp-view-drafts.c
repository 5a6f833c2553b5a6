/* triage-afp-view-drafts.c — the feedback the person wrote and did not send
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-afp"

#include "triage-afp-view-private.h"

/*
 * Drafts: what the editor holds and was not sent, kept by a
 * TriageDraftKeeper (triage-draft-keeper.c: when it is written, read back
 * and dropped) in memory and, with the view's "store", on disk, as ATP's
 * decision view and AITP's view keep theirs. A draft is the feedback object
 * as triage_afp_editor_dup_feedback() gives it, complete or not: read back,
 * it goes only into an editor that holds nothing yet, never over what the
 * person wrote meanwhile.
 */

/* What the editor holds, or %NULL when it holds nothing. */
static JsonObject *
dup_entered (gpointer owner)
{
  TriageAfpView *self = owner;
  g_autoptr(JsonNode) feedback = NULL;

  if (self->review == NULL || triage_afp_editor_is_empty (self->editor))
    return NULL;

  feedback = triage_afp_editor_dup_feedback (self->editor);
  return JSON_NODE_HOLDS_OBJECT (feedback) ? json_object_ref (json_node_get_object (feedback)) : NULL;
}

static void
put_back (gpointer    owner,
          JsonObject *draft)
{
  TriageAfpView *self = owner;
  g_autoptr(JsonNode) feedback = NULL;

  if (self->review == NULL || !triage_afp_editor_is_empty (self->editor))
    return;

  feedback = json_node_init_object (json_node_alloc (), draft);
  triage_afp_editor_load (self->editor, feedback);
  _triage_afp_view_update_state (self);
}

/**
 * _triage_afp_view_new_drafts:
 *
 * Returns: (transfer full): the keeper of what the view's editor holds
 */
TriageDraftKeeper *
_triage_afp_view_new_drafts (TriageAfpView *self)
{
  return triage_draft_keeper_new (self, dup_entered, put_back);
}

/* TriageRequestView.get_drafts */
TriageDraftKeeper *
_triage_afp_view_get_drafts (TriageRequestView *view)
{
  return TRIAGE_AFP_VIEW (view)->drafts;
}
