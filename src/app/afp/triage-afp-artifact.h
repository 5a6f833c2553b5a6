/* triage-afp-artifact.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "atp-afp.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_AFP_ARTIFACT (triage_afp_artifact_get_type ())

G_DECLARE_FINAL_TYPE (TriageAfpArtifact, triage_afp_artifact, TRIAGE, AFP_ARTIFACT, GtkBox)

GtkWidget  *triage_afp_artifact_new              (void);
void        triage_afp_artifact_set_review       (TriageAfpArtifact    *self,
                                                  AtpAfpReview         *review);
char       *triage_afp_artifact_dup_text         (const AtpAfpArtifact *artifact);
const char *triage_afp_artifact_get_language_id  (TriageAfpArtifact    *self);
/* For the tests: the text shown as the artifact and as the changes ("" without). */
char       *triage_afp_artifact_dup_shown_text   (TriageAfpArtifact    *self);
char       *triage_afp_artifact_dup_changes_text (TriageAfpArtifact    *self);

G_END_DECLS
