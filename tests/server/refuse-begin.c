/* refuse-begin.c — a SQLite batch that cannot be opened, or held again, on
 * command, for test-server-sqlite-unbatched.c: preloaded (LD_PRELOAD) into
 * the server under test, it stands in front of SQLite's sqlite3_step ()
 * and sqlite3_exec () (whose own steps do not come through here)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The store refuses a change when the database would not open a batch (it
 * once wrote it on its own, without its events); a BEGIN that fails while
 * the write after it would succeed happens in a race (another process lets
 * go of the file between the two) that a test cannot set up. Nor can it
 * time one between a transaction the database rolled back (a full disk, a
 * trigger's RAISE (ROLLBACK)) and the BEGIN that holds the rest of its
 * batch. So:
 *   TRIAGE_TEST_REFUSE_BEGIN  a file: while it exists, a step of
 *                             "BEGIN IMMEDIATE" fails with SQLITE_BUSY
 *                             without running
 *   TRIAGE_TEST_REFUSE_HOLD   a file: while it exists, so does the step of
 *                             "BEGIN IMMEDIATE" that comes right after a
 *                             statement whose failure ended its transaction
 * Every other statement goes to SQLite as it is.
 */

#define _GNU_SOURCE

#include <dlfcn.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int (*StepFunc) (sqlite3_stmt *);
typedef int (*ExecFunc) (sqlite3 *, const char *, int (*) (void *, int, char **, char **),
                         void *, char **);

/* The statement stepped last failed, and the database rolled its
 * transaction back (the server runs its store on one thread). */
static int rolled_back;

static int
file_exists (const char *variable)
{
  const char *file = getenv (variable);

  return file != NULL && access (file, F_OK) == 0;
}

/* Whether @sql is a BEGIN to refuse now. */
static int
refused (const char *sql)
{
  int after_rollback = rolled_back;

  rolled_back = 0;
  return sql != NULL && strcmp (sql, "BEGIN IMMEDIATE") == 0 &&
         (file_exists ("TRIAGE_TEST_REFUSE_BEGIN") ||
          (after_rollback && file_exists ("TRIAGE_TEST_REFUSE_HOLD")));
}

int
sqlite3_exec (sqlite3    *db,
              const char *sql,
              int       (*callback) (void *, int, char **, char **),
              void       *data,
              char      **message)
{
  ExecFunc next = (ExecFunc) dlsym (RTLD_NEXT, "sqlite3_exec");

  if (refused (sql))
    return SQLITE_BUSY;
  return next (db, sql, callback, data, message);
}

int
sqlite3_step (sqlite3_stmt *stmt)
{
  StepFunc next = (StepFunc) dlsym (RTLD_NEXT, "sqlite3_step");
  sqlite3 *db = stmt != NULL ? sqlite3_db_handle (stmt) : NULL;
  int in_transaction, rc;

  if (refused (stmt != NULL ? sqlite3_sql (stmt) : NULL))
    return SQLITE_BUSY;
  in_transaction = db != NULL && !sqlite3_get_autocommit (db);
  rc = next (stmt);
  rolled_back = rc != SQLITE_ROW && rc != SQLITE_DONE && in_transaction &&
                sqlite3_get_autocommit (db);
  return rc;
}
