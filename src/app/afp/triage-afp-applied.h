/* triage-afp-applied.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "atp-afp.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_AFP_APPLIED (triage_afp_applied_get_type ())

/* The height the items' list scrolls within, in pixels: three or four cards. */
#define TRIAGE_AFP_APPLIED_MAX_HEIGHT 600

G_DECLARE_FINAL_TYPE (TriageAfpApplied, triage_afp_applied, TRIAGE, AFP_APPLIED, GtkBox)

GtkWidget *triage_afp_applied_new            (void);
void       triage_afp_applied_set_review     (TriageAfpApplied *self,
                                              AtpAfpReview     *review);
/* Carry Over is offered for the items @carried (a set of ids) does not hold. */
void       triage_afp_applied_sync_carried   (TriageAfpApplied *self,
                                              GHashTable       *carried);
void       triage_afp_applied_set_editable   (TriageAfpApplied *self,
                                              gboolean          editable);

G_END_DECLS
