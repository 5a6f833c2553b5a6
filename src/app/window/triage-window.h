/* triage-window.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "triage-attachment-view.h"
#include "triage-connection.h"
#include "triage-history-view.h"
#include "triage-inbox-model.h"
#include "triage-inbox-pane.h"
#include "triage-read-state.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_WINDOW (triage_window_get_type ())

G_DECLARE_FINAL_TYPE (TriageWindow, triage_window, TRIAGE, WINDOW, AdwApplicationWindow)

TriageWindow          *triage_window_new                  (GtkApplication        *application,
                                                           TriageInboxModel      *model);
void                   triage_window_set_connection       (TriageWindow          *self,
                                                           TriageConnectionState  state,
                                                           const char            *message,
                                                           gint64                 retry_at);
void                   triage_window_set_connection_status (TriageWindow           *self,
                                                            TriageConnectionState   state,
                                                            TriageConnectionProblem problem,
                                                            const char             *message,
                                                            gint64                  retry_at);
void                   triage_window_set_server_wait      (TriageWindow          *self,
                                                           gint64                 until);
TriageConnectionState  triage_window_get_connection       (TriageWindow          *self);
const char            *triage_window_get_connection_text  (TriageWindow          *self);
void                   triage_window_add_toast            (TriageWindow          *self,
                                                           const char            *message);
gboolean               triage_window_show_request         (TriageWindow          *self,
                                                           const char            *notification_id);
TriageRequest         *triage_window_get_current_request  (TriageWindow          *self);
GtkWidget             *triage_window_get_decision_view    (TriageWindow          *self);
TriageInboxPane       *triage_window_get_inbox_pane       (TriageWindow          *self);
TriageHistoryView     *triage_window_get_history_view     (TriageWindow          *self);
GtkWidget             *triage_window_get_past_view        (TriageWindow          *self);
void                   triage_window_set_history_db       (TriageWindow          *self,
                                                           TriageHistoryDb       *db);
void                   triage_window_show_gone            (TriageWindow          *self,
                                                           const char            *notification_id);
void                   triage_window_show_unreadable      (TriageWindow          *self,
                                                           const char            *notification_id);
void                   triage_window_set_history_problem  (TriageWindow          *self,
                                                           const char            *problem);
void                   triage_window_set_read_state       (TriageWindow          *self,
                                                           TriageReadState       *read_state);
void                   triage_window_show_view            (TriageWindow          *self,
                                                           const char            *name);
const char            *triage_window_get_view             (TriageWindow          *self);
void                   triage_window_show_attachment      (TriageWindow          *self,
                                                           const AtpAttachment   *attachment,
                                                           const char            *service_name);
TriageAttachmentView  *triage_window_get_attachment_view  (TriageWindow          *self);
void                   triage_window_show_error           (TriageWindow          *self,
                                                           const char            *notification_id,
                                                           const char            *message);
void                   triage_window_show_delivery_error  (TriageWindow          *self,
                                                           const char            *notification_id,
                                                           const char            *message);

G_END_DECLS
