/* triage-choice-option-list.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "atp.h"
#include "triage-choice-option.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_CHOICE_OPTION_LIST (triage_choice_option_list_get_type ())

G_DECLARE_FINAL_TYPE (TriageChoiceOptionList, triage_choice_option_list, TRIAGE, CHOICE_OPTION_LIST, GObject)

TriageChoiceOptionList *triage_choice_option_list_new  (const AtpAction        *action);
TriageChoiceOption     *triage_choice_option_list_peek (TriageChoiceOptionList *self,
                                                        guint                   position);

G_END_DECLS
