/* triage-read-state.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "triage-history-db.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_READ_STATE (triage_read_state_get_type ())

G_DECLARE_FINAL_TYPE (TriageReadState, triage_read_state, TRIAGE, READ_STATE, GObject)

TriageReadState *triage_read_state_new        (TriageHistoryDb *db);
gboolean         triage_read_state_is_read    (TriageReadState *self,
                                               const char      *notification_id);
void             triage_read_state_set_read   (TriageReadState *self,
                                               const char      *notification_id,
                                               gboolean         read);
void             triage_read_state_set_db     (TriageReadState *self,
                                               TriageHistoryDb *db);
void             triage_read_state_retry      (TriageReadState *self);
gboolean         triage_read_state_get_loaded (TriageReadState *self);

G_END_DECLS
