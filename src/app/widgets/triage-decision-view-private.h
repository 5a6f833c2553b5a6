/* triage-decision-view-private.h — for the tests
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-confirm-dialog.h"
#include "triage-decision-view.h"

G_BEGIN_DECLS

/* The confirmation dialog on screen, if any. The template's parts are found
 * with gtk_widget_get_template_child (view, TRIAGE_TYPE_DECISION_VIEW, "id"). */
TriageConfirmDialog *triage_decision_view_get_confirm_dialog (TriageDecisionView *self);

G_END_DECLS
