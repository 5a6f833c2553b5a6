/* triage-response-editor.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "atp.h"

G_BEGIN_DECLS

/* Options up to this many are radio buttons; more are a drop-down. */
#define TRIAGE_CHOICE_MAX_RADIO_OPTIONS 5

#define TRIAGE_TYPE_RESPONSE_EDITOR (triage_response_editor_get_type ())

G_DECLARE_FINAL_TYPE (TriageResponseEditor, triage_response_editor, TRIAGE, RESPONSE_EDITOR, AdwBin)

GtkWidget       *triage_response_editor_new           (AtpNotification      *notification,
                                                       const char           *action_id);
AtpNotification *triage_response_editor_get_notification (TriageResponseEditor *self);
const AtpAction *triage_response_editor_get_action    (TriageResponseEditor *self);
const char      *triage_response_editor_get_action_id (TriageResponseEditor *self);
gboolean         triage_response_editor_get_valid     (TriageResponseEditor *self);
const char      *triage_response_editor_get_reason    (TriageResponseEditor *self);
JsonNode        *triage_response_editor_dup_response  (TriageResponseEditor *self);
gboolean         triage_response_editor_get_editable  (TriageResponseEditor *self);
void             triage_response_editor_set_editable  (TriageResponseEditor *self,
                                                       gboolean              editable);
gboolean         triage_response_editor_get_chosen    (TriageResponseEditor *self);
void             triage_response_editor_set_chosen    (TriageResponseEditor *self,
                                                       gboolean              chosen,
                                                       JsonNode             *response_data);
gboolean         triage_response_editor_submit        (TriageResponseEditor *self);
JsonNode        *triage_response_editor_dup_draft     (TriageResponseEditor *self);
void             triage_response_editor_restore_draft (TriageResponseEditor *self,
                                                       JsonNode             *draft);

G_END_DECLS
