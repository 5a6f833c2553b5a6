/* triage-history-row.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "triage-history-entry.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_HISTORY_ROW (triage_history_row_get_type ())

G_DECLARE_FINAL_TYPE (TriageHistoryRow, triage_history_row, TRIAGE, HISTORY_ROW, GtkWidget)

GtkWidget          *triage_history_row_new        (void);
TriageHistoryEntry *triage_history_row_get_entry  (TriageHistoryRow   *self);
void                triage_history_row_set_entry  (TriageHistoryRow   *self,
                                                   TriageHistoryEntry *entry);
const char         *triage_history_row_get_title  (TriageHistoryRow   *self);
const char         *triage_history_row_get_details (TriageHistoryRow  *self);

G_END_DECLS
