/* refuse-begin.c — a SQLite batch that cannot be opened, on command, for
 * test-server-sqlite-unbatched.c: preloaded (LD_PRELOAD) into the server
 * under test, it stands in front of SQLite's sqlite3_step ()
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The store refuses a change when the database would not open a batch (it
 * once wrote it on its own, without its events); a BEGIN that fails while
 * the write after it would succeed happens in a race (another process lets
 * go of the file between the two) that a test cannot set up. So:
 *   TRIAGE_TEST_REFUSE_BEGIN  a file: while it exists, a step of
 *                             "BEGIN IMMEDIATE" fails with SQLITE_BUSY
 *                             without running
 * Every other statement goes to SQLite as it is.
 */

#define _GNU_SOURCE

#include <dlfcn.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int (*StepFunc) (sqlite3_stmt *);

int
sqlite3_step (sqlite3_stmt *stmt)
{
  StepFunc next = (StepFunc) dlsym (RTLD_NEXT, "sqlite3_step");
  const char *file = getenv ("TRIAGE_TEST_REFUSE_BEGIN");
  const char *sql = stmt != NULL ? sqlite3_sql (stmt) : NULL;

  if (file != NULL && sql != NULL && strcmp (sql, "BEGIN IMMEDIATE") == 0 &&
      access (file, F_OK) == 0)
    return SQLITE_BUSY;
  return next (stmt);
}
