/* triage-afp-editor.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "atp-afp.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_AFP_EDITOR (triage_afp_editor_get_type ())

G_DECLARE_FINAL_TYPE (TriageAfpEditor, triage_afp_editor, TRIAGE, AFP_EDITOR, GtkBox)

GtkWidget  *triage_afp_editor_new               (void);
void        triage_afp_editor_set_review        (TriageAfpEditor         *self,
                                                 AtpAfpReview            *review);
JsonNode   *triage_afp_editor_dup_feedback      (TriageAfpEditor         *self);
void        triage_afp_editor_load              (TriageAfpEditor         *self,
                                                 JsonNode                *feedback);
gboolean    triage_afp_editor_carry_over        (TriageAfpEditor         *self,
                                                 const AtpAfpImprovement *item);
gboolean    triage_afp_editor_has_item          (TriageAfpEditor         *self,
                                                 const char              *id);
void        triage_afp_editor_set_editable      (TriageAfpEditor         *self,
                                                 gboolean                 editable);
const char *triage_afp_editor_get_problem       (TriageAfpEditor         *self);
gboolean    triage_afp_editor_is_empty          (TriageAfpEditor         *self);

/* For the tests and the view: add an item, as the Add buttons do. */
void        triage_afp_editor_add_positive      (TriageAfpEditor         *self);
void        triage_afp_editor_add_area          (TriageAfpEditor         *self);
guint       triage_afp_editor_get_n_areas       (TriageAfpEditor         *self);
guint       triage_afp_editor_get_n_positive    (TriageAfpEditor         *self);

G_END_DECLS
