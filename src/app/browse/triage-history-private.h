/* triage-history-private.h — SQL shared by the history's database, model and export
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <sqlite3.h>

#include "triage-history-entry.h"
#include "triage-history-filter.h"

G_BEGIN_DECLS

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

sqlite3       *triage_history_open_connection (const char                 *path,
                                               gboolean                    read_only,
                                               GError                    **error);
gboolean       triage_history_set_error       (GError                    **error,
                                               sqlite3                    *db,
                                               const char                 *failure);
char          *triage_history_column_text     (sqlite3_stmt               *stmt,
                                               int                         column);
sqlite3_stmt  *triage_history_prepare_fetch   (sqlite3                    *db,
                                               GError                    **error);
GPtrArray     *triage_history_fetch_rows      (sqlite3                    *db,
                                               sqlite3_stmt               *stmt,
                                               const gint64               *rowids,
                                               guint                       n_rowids,
                                               GError                    **error);
sqlite3_stmt  *triage_history_prepare_filtered (sqlite3                   *db,
                                                const char                *columns,
                                                const TriageHistoryFilter *filter,
                                                gint64                     from_usec,
                                                gint64                     to_usec,
                                                const char                *order,
                                                GArray                   **matches,
                                                GError                   **error);
gboolean       triage_history_matches_contain (GArray                     *matches,
                                               gint64                      rowid);

G_END_DECLS
