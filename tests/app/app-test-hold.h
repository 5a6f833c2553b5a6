/* app-test-hold.h — one statement of the app's held on command, for the tests
 * that link tests/app/hold-sql.c (it stands in front of SQLite's sqlite3_exec ())
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <glib/gstdio.h>

/* The file that holds every statement holding @part while it exists (in the
 * test's @world, named @name). Call in main() before anything runs a
 * statement: hold-sql.c reads the environment at each one. */
static inline char *
app_test_hold_sql (const char *world,
                   const char *name,
                   const char *part)
{
  char *file = g_build_filename (world, name, NULL);

  g_setenv ("TRIAGE_TEST_HOLD_SQL", part, TRUE);
  g_setenv ("TRIAGE_TEST_HOLD_FILE", file, TRUE);

  return file;
}

/* Whether a statement has been held by @file (hold-sql.c adds a byte to
 * FILE.held for each). */
static inline gboolean
app_test_hold_reached (const char *file)
{
  g_autofree char *held = g_strconcat (file, ".held", NULL);

  return g_file_test (held, G_FILE_TEST_EXISTS);
}

/* Lets the held statements go. */
static inline void
app_test_hold_release (const char *file)
{
  g_assert_cmpint (g_unlink (file), ==, 0);
}
