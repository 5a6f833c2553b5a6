/* triage-decision-view.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "atp.h"
#include "triage-request-view.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_DECISION_VIEW (triage_decision_view_get_type ())

G_DECLARE_FINAL_TYPE (TriageDecisionView, triage_decision_view, TRIAGE, DECISION_VIEW, AdwBin)

GtkWidget           *triage_decision_view_new                      (void);
AtpNotification     *triage_decision_view_get_notification         (TriageDecisionView  *self);
void                 triage_decision_view_set_notification         (TriageDecisionView  *self,
                                                                    AtpNotification     *notification);
AtpStatus            triage_decision_view_get_status               (TriageDecisionView  *self);
void                 triage_decision_view_set_status               (TriageDecisionView  *self,
                                                                    AtpStatus            status,
                                                                    const char          *reason,
                                                                    GDateTime           *when,
                                                                    const char          *detail);
void                 triage_decision_view_set_response             (TriageDecisionView  *self,
                                                                    AtpResponse         *response);
AtpResponse         *triage_decision_view_get_response             (TriageDecisionView  *self);
TriageDeliveryState  triage_decision_view_get_delivery_state       (TriageDecisionView  *self);
void                 triage_decision_view_set_delivery_state       (TriageDecisionView  *self,
                                                                    TriageDeliveryState  state);
void                 triage_decision_view_set_sent_answer          (TriageDecisionView  *self,
                                                                    const char          *action_id,
                                                                    JsonNode            *response_data);
gboolean             triage_decision_view_focus_heading             (TriageDecisionView  *self);
void                 triage_decision_view_show_delivery_error      (TriageDecisionView  *self,
                                                                    const char          *message);
void                 triage_decision_view_show_answer_error        (TriageDecisionView  *self,
                                                                    const char          *message);
void                 triage_decision_view_show_error               (TriageDecisionView  *self,
                                                                    const char          *message);
gboolean             triage_decision_view_get_read_only            (TriageDecisionView  *self);
GtkWidget           *triage_decision_view_get_editor               (TriageDecisionView  *self,
                                                                    const char          *action_id);
guint                triage_decision_view_get_confirm_grace_period (TriageDecisionView  *self);
void                 triage_decision_view_set_confirm_grace_period (TriageDecisionView  *self,
                                                                    guint                msec);

G_END_DECLS
