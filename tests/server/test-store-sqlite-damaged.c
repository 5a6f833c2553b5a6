/* test-store-sqlite-damaged.c — a damaged SQLite file met in a prepare is
 * the damaged file too
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SQLite says a file is damaged (SQLITE_CORRUPT, SQLITE_NOTADB) where it
 * meets the damage: in a step, or in a prepare, which reads the schema when
 * the connection has none loaded. The store took the damaged file's path
 * (said once, /readyz unavailable) for a step only; met in a prepare, it
 * was one more statement the database would not prepare, tried again for
 * ever, and the store said it was ready. Here the store (no server: the
 * connection's schema has to be dropped between two statements) opens a
 * file whose schema another connection then damages, as a bad edit of
 * sqlite_schema does. SQLite only.
 */

#define G_LOG_DOMAIN "test-store-sqlite-damaged"

#include <gio/gio.h>
#include <sqlite3.h>

#include "triage-store-sqlite-private.h"
#include "triage-test-server.h"

static void
run (sqlite3    *db,
     const char *sql)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
}

static void
test_prepare (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("triage-store-damaged-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "server.db", NULL);
  g_autoptr(TriageStore) store = NULL;
  g_autofree char *user = NULL;
  sqlite3 *other = NULL;

  g_assert_no_error (error);
  store = triage_store_sqlite_new (path, &error);
  g_assert_no_error (error);
  g_assert_true (triage_store_check (store, &error));
  g_assert_no_error (error);

  /* A row of sqlite_schema that does not read, and a new schema version. */
  g_assert_cmpint (sqlite3_open (path, &other), ==, SQLITE_OK);
  run (other, "PRAGMA writable_schema = ON;"
              "UPDATE sqlite_master SET sql = 'CREATE TABLE afp_reviews (' WHERE name = 'afp_reviews';"
              "PRAGMA schema_version = 1000");
  sqlite3_close (other);
  /* The store's connection drops the schema it had (as after a step that
   * found it changed): its next prepare reads it, and meets the damage. */
  run (TRIAGE_STORE_SQLITE (store)->db, "PRAGMA writable_schema = RESET");

  user = triage_store_user_by_token (store, "no such hash", &error);
  g_assert_null (user);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED);
  g_clear_error (&error);
  g_assert_false (triage_store_check (store, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "is damaged (malformed database schema"));
  g_assert_nonnull (strstr (error->message, path));

  g_clear_object (&store);
  triage_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/store/sqlite-damaged/prepare", test_prepare);
  return g_test_run ();
}
