/* triage-rate-table.h — rates kept in memory, one entry a key
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _TriageRateTable TriageRateTable;

TriageRateTable *triage_rate_table_new  (void);
void             triage_rate_table_free (TriageRateTable *table);
gboolean         triage_rate_table_take (TriageRateTable *table,
                                         const char      *key,
                                         gint64           interval,
                                         gint64           window,
                                         gint64          *wait);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TriageRateTable, triage_rate_table_free)

G_END_DECLS
