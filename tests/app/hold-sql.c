/* hold-sql.c — a statement of the app's that waits on command, for
 * test-tray-scenarios.py: preloaded (LD_PRELOAD) into the app under test, it
 * stands in front of SQLite's sqlite3_exec ()
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

#define HOLD_MAX_MS 60000
#define HOLD_STEP_MS 20

typedef int (*ExecFunc) (sqlite3 *, const char *, int (*) (void *, int, char **, char **),
                         void *, char **);

static void
hold (const char *file)
{
  struct timespec step = { 0, HOLD_STEP_MS * 1000000L };
  char held[4096];
  int fd;

  if (access (file, F_OK) != 0)
    return;
  snprintf (held, sizeof held, "%s.held", file);
  fd = open (held, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd >= 0)
    {
      if (write (fd, ".", 1) != 1)
        perror ("hold-sql: HOLD.held");
      close (fd);
    }
  for (int waited = 0; waited < HOLD_MAX_MS && access (file, F_OK) == 0; waited += HOLD_STEP_MS)
    nanosleep (&step, NULL);
}

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
    hold (file);
  return next (db, sql, callback, data, errmsg);
}
