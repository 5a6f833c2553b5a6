/* triage-response-editor-private.h — the editor's parts, for the tests
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-response-editor.h"

G_BEGIN_DECLS

/* The input: GtkTextView, GtkSpinButton, GtkScale, GtkDropDown, or the GtkBox
 * holding the radio/check buttons; NULL for simple and binary. */
GtkWidget *triage_response_editor_get_input          (TriageResponseEditor *self);
/* The radio or check buttons of a choice/multi_choice, in option order. */
GPtrArray *triage_response_editor_get_option_buttons (TriageResponseEditor *self);
/* The button that sends (simple: the only button; binary: NULL). */
GtkWidget *triage_response_editor_get_submit_button  (TriageResponseEditor *self);
GtkWidget *triage_response_editor_get_true_button    (TriageResponseEditor *self);
GtkWidget *triage_response_editor_get_false_button   (TriageResponseEditor *self);
GtkWidget *triage_response_editor_get_counter_label  (TriageResponseEditor *self);
GtkWidget *triage_response_editor_get_reason_label   (TriageResponseEditor *self);
GtkWidget *triage_response_editor_get_placeholder_label (TriageResponseEditor *self);
GtkWidget *triage_response_editor_get_badges         (TriageResponseEditor *self);

G_END_DECLS
