/* store-test-util.c — the app's store in a real SQLite file, for the views' draft tests
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <sqlite3.h>

#include "store-test-util.h"
#include "widgets-test-util.h"

static void
open_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  gboolean *opened = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (triage_store_open_finish (TRIAGE_STORE (object), result, &error));
  g_assert_no_error (error);
  *opened = TRUE;
}

/* The store at @path, open. */
TriageStore *
store_test_open (const char *path)
{
  TriageStore *store = triage_store_new (path);
  gboolean opened = FALSE;

  triage_store_open_async (store, NULL, open_cb, &opened);
  WAIT_UNTIL (opened);
  return store;
}

/* What was asked of *@store done, it goes (the views holding it gone first). */
void
store_test_close (TriageStore **store)
{
  triage_store_wait_all ();
  widgets_test_pump ();
  g_assert_finalize_object (g_steal_pointer (store));
}

/* The draft of @request_id as the database at @path holds it (read as another process would). */
char *
store_test_dup_draft (const char *path,
                      const char *request_id)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  char *json = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT json FROM drafts WHERE notification_id = ?1",
                                       -1, &stmt, NULL), ==, SQLITE_OK);
  sqlite3_bind_text (stmt, 1, request_id, -1, SQLITE_STATIC);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    json = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  return json;
}

gboolean
store_test_draft_is (const char *path,
                     const char *request_id,
                     const char *want)
{
  g_autofree char *json = store_test_dup_draft (path, request_id);

  return g_strcmp0 (json, want) == 0;
}
