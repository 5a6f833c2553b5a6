/* triage-urgency.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "triage-inbox-model.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_URGENCY (triage_urgency_get_type ())

G_DECLARE_FINAL_TYPE (TriageUrgency, triage_urgency, TRIAGE, URGENCY, GObject)

TriageUrgency *triage_urgency_new        (TriageInboxModel *inbox);
void           triage_urgency_mark_told  (TriageUrgency    *self,
                                          const char       *notification_id);
gboolean       triage_urgency_was_told   (TriageUrgency    *self,
                                          const char       *notification_id);
gint64         triage_urgency_get_next   (TriageUrgency    *self);

G_END_DECLS
