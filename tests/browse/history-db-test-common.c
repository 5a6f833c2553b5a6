/* history-db-test-common.c — test-history-db's fixture: a store and its history on a real SQLite file
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "history-db-test-common.h"

void
history_db_test_setup (Fixture       *f,
                       gconstpointer  data)
{
  f->dir = g_dir_make_tmp ("triage-history-XXXXXX", NULL);
  f->path = g_build_filename (f->dir, "triage.db", NULL);
  f->store = browse_test_open_store (f->path);
}

/* Rows first, history opened after: the full-text index is built from them. */
void
history_db_test_setup_rows (Fixture       *f,
                            gconstpointer  data)
{
  history_db_test_setup (f, data);
  f->rows = browse_test_generate (f->path, N_ROWS, BROWSE_TEST_BASE_USEC, 10 * G_TIME_SPAN_MINUTE);
  f->db = browse_test_open_history (f->path);
}

void
history_db_test_teardown (Fixture       *f,
                          gconstpointer  data)
{
  if (f->db != NULL)
    browse_test_finalize (g_steal_pointer (&f->db));
  browse_test_close_store (&f->store);
  g_clear_pointer (&f->rows, browse_test_rows_free);
  browse_test_rm_rf (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

void
history_db_test_count_signal (guint *count)
{
  (*count)++;
}
