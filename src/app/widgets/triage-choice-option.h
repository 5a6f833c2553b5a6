/* triage-choice-option.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define TRIAGE_TYPE_CHOICE_OPTION (triage_choice_option_get_type ())

G_DECLARE_FINAL_TYPE (TriageChoiceOption, triage_choice_option, TRIAGE, CHOICE_OPTION, GObject)

TriageChoiceOption *triage_choice_option_new         (guint               position,
                                                      const char         *label);
guint               triage_choice_option_get_position (TriageChoiceOption *self);
const char         *triage_choice_option_get_shown_label (TriageChoiceOption *self);
gboolean            triage_choice_option_matches     (TriageChoiceOption *self,
                                                      const char         *folded_query);
gboolean            triage_choice_option_get_active  (TriageChoiceOption *self);
void                triage_choice_option_set_active  (TriageChoiceOption *self,
                                                      gboolean            active);

G_END_DECLS
