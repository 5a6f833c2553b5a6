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

/*
 * A row with text the full-text index cannot search as the inbox does: a
 * character of a script written without spaces (the index keeps a run of it,
 * Latin within included, as one word), of Thai, Lao, Tibetan, Myanmar, Khmer
 * or CJK (Han, Kana, Bopomofo, Yi, their radicals, punctuation and
 * compatibility forms), or a fullwidth or halfwidth form (which the index
 * does not fold); not the rarer such scripts (Balinese, Tai Tham, Han
 * beyond the Basic Multilingual Plane, …), whose words the search looks for
 * in every row. triage_history_scan_covers () says the same of a character.
 * A text all ASCII is passed at once (1 µs a kB); any other costs about
 * 45 µs a kB, a class of more ranges more (16: 150 µs). Built-in functions
 * only, as the store's connection writes the rows. The same text is used in
 * a partial index and in queries.
 */
#define TRIAGE_HISTORY_UNSPACED_TEXT(column) \
  "(length (" column ") <> length (CAST (" column " AS BLOB)) AND " column " GLOB" \
  " '*[\u0E00-\u109F\u1780-\u17FF\u2E80-\uA4CF\uF900-\uFAFF\uFF00-\uFFEF]*')"
#define TRIAGE_HISTORY_UNSPACED_SQL \
  "(" TRIAGE_HISTORY_UNSPACED_TEXT ("title") \
  " OR " TRIAGE_HISTORY_UNSPACED_TEXT ("json_extract (json, '$.context.description')") \
  " OR " TRIAGE_HISTORY_UNSPACED_TEXT ("service_name") \
  " OR " TRIAGE_HISTORY_UNSPACED_TEXT ("project") ")"

gboolean triage_history_schema_ensure (sqlite3  *db,
                                       GError  **error);
gboolean triage_history_schema_check  (sqlite3  *db,
                                       GError  **error);

G_END_DECLS
