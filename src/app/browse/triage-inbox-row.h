/* triage-inbox-row.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "triage-request.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_INBOX_ROW (triage_inbox_row_get_type ())

G_DECLARE_FINAL_TYPE (TriageInboxRow, triage_inbox_row, TRIAGE, INBOX_ROW, GtkWidget)

GtkWidget     *triage_inbox_row_new             (void);
TriageRequest *triage_inbox_row_get_request     (TriageInboxRow *self);
void           triage_inbox_row_set_request     (TriageInboxRow *self,
                                                 TriageRequest  *request);
gboolean       triage_inbox_row_get_unread      (TriageInboxRow *self);
void           triage_inbox_row_set_unread      (TriageInboxRow *self,
                                                 gboolean        unread);
const char    *triage_inbox_row_get_title       (TriageInboxRow *self);
const char    *triage_inbox_row_get_subtitle    (TriageInboxRow *self);
void           triage_inbox_row_set_server_wait (TriageInboxRow *self,
                                                 GDateTime      *until);
void           triage_inbox_row_update          (TriageInboxRow *self);

G_END_DECLS
