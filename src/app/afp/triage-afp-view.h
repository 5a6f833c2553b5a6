/* triage-afp-view.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "triage-afp-editor.h"
#include "triage-request-view.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_AFP_VIEW (triage_afp_view_get_type ())

G_DECLARE_FINAL_TYPE (TriageAfpView, triage_afp_view, TRIAGE, AFP_VIEW, AdwBin)

GtkWidget       *triage_afp_view_new        (void);

/* For the tests and the bench. */
TriageAfpEditor *triage_afp_view_get_editor   (TriageAfpView *self);
GtkWidget       *triage_afp_view_get_artifact (TriageAfpView *self);
GtkWidget       *triage_afp_view_get_applied  (TriageAfpView *self);
void             triage_afp_view_decline      (TriageAfpView *self,
                                               const char    *message);

G_END_DECLS
