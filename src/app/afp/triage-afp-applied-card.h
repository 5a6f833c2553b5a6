/* triage-afp-applied-card.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "triage-afp-applied-item.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_AFP_APPLIED_CARD (triage_afp_applied_card_get_type ())

G_DECLARE_FINAL_TYPE (TriageAfpAppliedCard, triage_afp_applied_card, TRIAGE, AFP_APPLIED_CARD, GtkBox)

GtkWidget            *triage_afp_applied_card_new         (void);
void                  triage_afp_applied_card_set_item    (TriageAfpAppliedCard *self,
                                                           TriageAfpAppliedItem *item);
TriageAfpAppliedItem *triage_afp_applied_card_get_item    (TriageAfpAppliedCard *self);
const char           *triage_afp_applied_card_get_title   (TriageAfpAppliedCard *self);
char                 *triage_afp_applied_card_dup_summary (TriageAfpAppliedCard *self);

G_END_DECLS
