/* hold-sql.c — a statement of the app's that waits on command: preloaded
 * (LD_PRELOAD) into the app under test-tray-scenarios.py, linked into
 * test-app-history-late (the app in-process), it stands in front of SQLite's
 * sqlite3_exec ()
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A disk shared with builds makes the app's first writes slow, and its
 * history opens (on a worker of its own) after the inbox has shown the
 * first requests; a test cannot slow one part of the app's start, so this
 * holds one statement:
 *   TRIAGE_TEST_HOLD_SQL   a part of the statement's text
 *   TRIAGE_TEST_HOLD_FILE  a file: while it exists, such a statement waits
 *                          (60 s at most), having added a byte to the file
 *                          FILE.held to say so (one a statement held)
 * Every other statement goes to SQLite as it is.
 */

#define _GNU_SOURCE

#include <dlfcn.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../hold-file.h"

typedef int (*ExecFunc) (sqlite3 *, const char *, int (*) (void *, int, char **, char **),
                         void *, char **);

int
sqlite3_exec (sqlite3     *db,
              const char  *sql,
              int        (*callback) (void *, int, char **, char **),
              void        *data,
              char       **errmsg)
{
  ExecFunc next = (ExecFunc) dlsym (RTLD_NEXT, "sqlite3_exec");
  const char *part = getenv ("TRIAGE_TEST_HOLD_SQL");
  const char *file = getenv ("TRIAGE_TEST_HOLD_FILE");

  if (sql != NULL && part != NULL && *part != '\0' && file != NULL && strstr (sql, part) != NULL)
    hold_while_file (file, "hold-sql");
  return next (db, sql, callback, data, errmsg);
}
