/* triage-test-postgres.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* A throw-away PostgreSQL cluster for the tests of one process (initdb in a
 * temporary folder, listening only on a Unix socket there, on a free port),
 * started on first use and gone when the process ends, however it ends.
 * Its binaries are in $TRIAGE_PG_BINDIR. */
gboolean  triage_test_postgres_wanted       (void);
char     *triage_test_postgres_new_database (GError     **error);
char     *triage_test_postgres_run_sql      (const char  *uri,
                                             const char  *sql,
                                             GError     **error);

/* In place of g_test_init () in the main () of a test that runs only on
 * PostgreSQL: without TRIAGE_TEST_BACKEND=postgresql the whole test is
 * reported skipped, WHAT it needs saying why, and the process exits. */
void      triage_test_postgres_init         (int         *argc,
                                             char      ***argv,
                                             const char  *what);

G_END_DECLS
