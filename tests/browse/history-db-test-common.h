/* history-db-test-common.h — what the parts of test-history-db share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "browse-test-common.h"

G_BEGIN_DECLS

#define N_ROWS 2400

typedef struct
{
  char            *dir;
  char            *path;
  TriageStore     *store;
  TriageHistoryDb *db;
  GArray          *rows;   /* BrowseTestRow */
} Fixture;

void history_db_test_setup        (Fixture       *f,
                                   gconstpointer  data);
/* Rows first, history opened after: the full-text index is built from them. */
void history_db_test_setup_rows   (Fixture       *f,
                                   gconstpointer  data);
void history_db_test_teardown     (Fixture       *f,
                                   gconstpointer  data);
void history_db_test_count_signal (guint         *count);

#define HISTORY_DB_TEST_ADD(path, setup, func) \
  g_test_add (path, Fixture, NULL, setup, func, history_db_test_teardown)

/* Each part of test-history-db adds its tests; main() calls them in this
 * order among its own, so the test paths and their order stay as they were
 * in one file. */
void history_db_test_add_stats (void);
void history_db_test_add_model (void);

G_END_DECLS
