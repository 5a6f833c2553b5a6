/* test-store-mode.c — the app's database is its owner's only, even one made
 * before new ones were
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>
#include <sys/stat.h>

#include "app-test-common.h"
#include "store-test-common.h"

/* What the store said at G_LOG_LEVEL_MESSAGE (from its worker thread). */
static GMutex said_lock;
static GPtrArray *said;

static void
on_store_message (const char     *domain,
                  GLogLevelFlags  level,
                  const char     *message,
                  gpointer        data)
{
  g_mutex_lock (&said_lock);
  g_ptr_array_add (said, g_strdup (message));
  g_mutex_unlock (&said_lock);
}

static guint
said_about (const char *file)
{
  g_autofree char *needle = g_strdup_printf ("the database file %s was open to other users "
                                             "(mode 0644): now its owner's only (mode 0600)",
                                             file);
  guint count = 0;

  g_mutex_lock (&said_lock);
  for (guint i = 0; i < said->len; i++)
    count += strcmp (said->pdata[i], needle) == 0;
  g_mutex_unlock (&said_lock);
  return count;
}

static guint
pending_count (TriageStore *store)
{
  g_autoptr(GPtrArray) records = store_test_load_pending (store);

  return records->len;
}

static void
assert_mode (const char *file,
             int         mode)
{
  GStatBuf st;

  g_assert_cmpint (g_stat (file, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, mode);
}

/* A database left 0644 by an older app (its -wal and -shm too, after a
 * crash) is made 0600 when it is opened, said once, its requests kept. */
static void
test_old_database_tightened (void)
{
  g_autofree char *dir = g_dir_make_tmp ("triage-store-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "triage.db", NULL);
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (path, "-shm", NULL);
  g_autoptr(AtpNotification) notification = app_test_notification ("6f1c2a4e-3b7d-4c8e-9a0f-1d2e3f4a5b6c", 0, 0, NULL);
  TriageStore *store;

  said = g_ptr_array_new_with_free_func (g_free);
  g_log_set_handler ("triage-store", G_LOG_LEVEL_MESSAGE, on_store_message, NULL);

  store = store_test_open (path);
  store_test_save (store, notification);
  app_test_finalize_object (store);

  g_assert_cmpint (g_chmod (path, 0644), ==, 0);
  g_assert_true (g_file_set_contents (wal, "", 0, NULL));
  g_assert_true (g_file_set_contents (shm, "", 0, NULL));
  g_assert_cmpint (g_chmod (wal, 0644), ==, 0);
  g_assert_cmpint (g_chmod (shm, 0644), ==, 0);

  store = store_test_open (path);
  assert_mode (path, 0600);
  assert_mode (wal, 0600);
  assert_mode (shm, 0600);
  g_assert_cmpuint (said_about (path), ==, 1);
  g_assert_cmpuint (said_about (wal), ==, 1);
  g_assert_cmpuint (said_about (shm), ==, 1);
  g_assert_cmpuint (pending_count (store), ==, 1);
  app_test_finalize_object (store);

  /* Said once: the next open finds it so. */
  store = store_test_open (path);
  g_assert_cmpuint (said_about (path), ==, 1);
  assert_mode (path, 0600);
  app_test_finalize_object (store);

  g_clear_pointer (&said, g_ptr_array_unref);
  app_test_rm_rf (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/store/old-database-tightened", test_old_database_tightened);

  return g_test_run ();
}
