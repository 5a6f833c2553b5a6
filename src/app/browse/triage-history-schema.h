/* triage-history-schema.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <sqlite3.h>

G_BEGIN_DECLS

/*
 * What a request became, as the history shows it: the store's outcome, or,
 * while that is still 'none', what the server's terminal status implies. The
 * same text is used in an expression index and in queries (SQLite only uses
 * such an index for the very same expression).
 */
#define TRIAGE_HISTORY_EFFECTIVE_OUTCOME_SQL \
  "(CASE WHEN outcome <> 'none' THEN outcome" \
  " WHEN status = 'responded' THEN 'answered-elsewhere'" \
  " WHEN status = 'expired' THEN 'expired'" \
  " WHEN status = 'invalidated' THEN 'invalidated'" \
  " ELSE 'none' END)"

gboolean triage_history_schema_ensure (sqlite3  *db,
                                       GError  **error);
gboolean triage_history_schema_check  (sqlite3  *db,
                                       GError  **error);

G_END_DECLS
