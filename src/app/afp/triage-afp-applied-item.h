/* triage-afp-applied-item.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "atp-afp.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_AFP_APPLIED_ITEM (triage_afp_applied_item_get_type ())

G_DECLARE_FINAL_TYPE (TriageAfpAppliedItem, triage_afp_applied_item, TRIAGE, AFP_APPLIED_ITEM, GObject)

TriageAfpAppliedItem    *triage_afp_applied_item_new_earlier       (AtpAfpReview             *review,
                                                                    const AtpAfpImprovement  *earlier,
                                                                    const AtpAfpAppliedItem  *applied);
TriageAfpAppliedItem    *triage_afp_applied_item_new_unknown       (AtpAfpReview             *review,
                                                                    const AtpAfpAppliedItem  *applied,
                                                                    gboolean                  first);
const char              *triage_afp_applied_item_get_id            (TriageAfpAppliedItem     *self);
const AtpAfpImprovement *triage_afp_applied_item_get_earlier       (TriageAfpAppliedItem     *self);
const AtpAfpAppliedItem *triage_afp_applied_item_get_applied       (TriageAfpAppliedItem     *self);
gboolean                 triage_afp_applied_item_get_first_unknown (TriageAfpAppliedItem     *self);
const char              *triage_afp_applied_item_get_status        (TriageAfpAppliedItem     *self,
                                                                    const char              **icon_name,
                                                                    const char              **css_class);
gboolean                 triage_afp_applied_item_get_carried       (TriageAfpAppliedItem     *self);
void                     triage_afp_applied_item_set_carried       (TriageAfpAppliedItem     *self,
                                                                    gboolean                  carried);
gboolean                 triage_afp_applied_item_get_editable      (TriageAfpAppliedItem     *self);
void                     triage_afp_applied_item_set_editable      (TriageAfpAppliedItem     *self,
                                                                    gboolean                  editable);

G_END_DECLS
