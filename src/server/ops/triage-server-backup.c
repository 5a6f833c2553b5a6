/* triage-server-backup.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * triage-server backup DEST: a consistent copy of a SQLite database, taken
 * while its server runs. It opens the same file (--database, the server's
 * default otherwise) read-only and copies it with SQLite's online backup API,
 * a thousand pages a step, inside one read transaction: in WAL mode that is
 * a snapshot of the last commit before the copy began, which the server's
 * writers never wait for and never restart. The copy is written beside DEST,
 * checked (integrity_check), made a single file (journal_mode DELETE),
 * synced and only then renamed to DEST (never the database itself, an existing
 * file only with --force: dest_refusal ()). The copy holds the webhook secrets
 * as given, so it is made readable by its owner only, whatever the umask.
 */

#define G_LOG_DOMAIN "triage-server"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <sqlite3.h>

#include "triage-server-private.h"

#define PAGES_PER_STEP 1000

static gboolean
exec (sqlite3     *db,
      const char  *sql,
      const char  *what,
      GError     **error)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) == SQLITE_OK)
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", what,
               message ? message : sqlite3_errmsg (db));
  sqlite3_free (message);
  return FALSE;
}

static gboolean
integrity_ok (sqlite3  *db,
              GError  **error)
{
  sqlite3_stmt *stmt = NULL;
  gboolean ok;

  if (sqlite3_prepare_v2 (db, "PRAGMA integrity_check", -1, &stmt, NULL) != SQLITE_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot check the copy: %s",
                   sqlite3_errmsg (db));
      return FALSE;
    }
  ok = sqlite3_step (stmt) == SQLITE_ROW &&
       g_strcmp0 ((const char *) sqlite3_column_text (stmt, 0), "ok") == 0;
  if (!ok)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the copy fails its integrity check: %s",
                 (const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  return ok;
}

static gboolean
sync_path (const char *path)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  gboolean ok = fd >= 0 && fsync (fd) == 0;

  if (fd >= 0)
    close (fd);
  return ok;
}

/* Copies @source to @temp; the number of pages copied in @pages. */
static gboolean
copy_database (const char  *source,
               const char  *temp,
               int         *pages,
               GError     **error)
{
  sqlite3 *from = NULL, *to = NULL;
  sqlite3_backup *backup = NULL;
  gboolean ok = FALSE;
  int rc;

  if (sqlite3_open_v2 (source, &from, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot open %s: %s", source,
                   from ? sqlite3_errmsg (from) : "out of memory");
      goto out;
    }
  sqlite3_busy_timeout (from, 5000);
  if (sqlite3_open_v2 (temp, &to, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot create %s: %s", temp,
                   to ? sqlite3_errmsg (to) : "out of memory");
      goto out;
    }
  /* One read transaction for every step: one snapshot, never restarted. */
  if (!exec (from, "BEGIN; SELECT COUNT (*) FROM sqlite_master;", source, error))
    goto out;
  backup = sqlite3_backup_init (to, "main", from, "main");
  if (backup == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot start the backup: %s",
                   sqlite3_errmsg (to));
      goto out;
    }
  do
    {
      rc = sqlite3_backup_step (backup, PAGES_PER_STEP);
      if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
        g_usleep (10 * 1000);
    }
  while (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED);
  *pages = sqlite3_backup_pagecount (backup);
  rc = sqlite3_backup_finish (backup);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the backup failed: %s",
                   sqlite3_errstr (rc));
      goto out;
    }
  ok = exec (from, "COMMIT", source, error) && integrity_ok (to, error) &&
       exec (to, "PRAGMA journal_mode=DELETE;", temp, error);
out:
  sqlite3_close (from);
  sqlite3_close (to);
  return ok;
}

/* Whether @path starts as a SQLite database does ("SQLite format 3\0"). */
static gboolean
is_sqlite_file (const char *path)
{
  static const char magic[16] = "SQLite format 3";
  char head[sizeof magic];
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  gboolean sqlite = fd >= 0 && read (fd, head, sizeof head) == sizeof head &&
                    memcmp (head, magic, sizeof magic) == 0;

  if (fd >= 0)
    close (fd);
  return sqlite;
}

/* NULL when the copy may be renamed to @dest; else why not. Never the
 * database itself (the same file by device and inode, whatever its name:
 * renamed over, the running server's file was gone); an existing file
 * only with --force (@force), or when it is empty and no database (a name
 * mktemp made), and never a running server's database: a slip of the arguments (the database given as DEST,
 * --database forgotten) replaced a database with another. */
static char *
dest_refusal (const char *database,
              const char *dest,
              gboolean    force)
{
  g_autofree char *holder = NULL;
  GStatBuf from, to;

  if (g_stat (dest, &to) != 0)
    return NULL;
  if (g_stat (database, &from) == 0 && from.st_dev == to.st_dev && from.st_ino == to.st_ino)
    return g_strdup_printf ("%s is the database being backed up (%s): give another file as DEST",
                            dest, database);
  if (S_ISDIR (to.st_mode))
    return g_strdup_printf ("%s is a folder: give a file name in it as DEST, e.g. "
                            "%s/server-backup.db", dest, dest);
  if (!S_ISREG (to.st_mode))
    return g_strdup_printf ("%s exists and is not a regular file: give a new file as DEST", dest);
  /* Replaced under it, a running server lost its file: not even with --force. */
  if ((holder = triage_server_database_holder (dest)) != NULL)
    return g_strdup_printf ("%s is the database of a running triage-server (pid %s): stop it "
                            "before its database is replaced", dest, holder);
  if (force || (to.st_size == 0 && !is_sqlite_file (dest)))
    return NULL;
  if (is_sqlite_file (dest))
    return g_strdup_printf ("%s is an existing SQLite database (is it a server's? was --database "
                            "forgotten?): give a new file as DEST, or --force to replace it",
                            dest);
  return g_strdup_printf ("%s exists: give a new file as DEST, or --force to replace it", dest);
}

static char *
default_database (void)
{
  return g_build_filename (g_get_user_data_dir (), "triage", "server.db", NULL);
}

/* triage-server backup [--database PATH] [--force] DEST */
int
triage_server_backup (int    argc,
                      char **argv)
{
  g_autofree char *database = NULL, *temp = NULL, *folder = NULL, *refusal = NULL;
  gboolean force = FALSE;
  GOptionEntry entries[] = {
    { "database", 0, 0, G_OPTION_ARG_FILENAME, &database,
      "The running server's SQLite database", "PATH" },
    { "force", 0, 0, G_OPTION_ARG_NONE, &force,
      "Replace DEST when it exists (never the database itself)", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("DEST - copy a running server's database");
  g_autoptr(GError) error = NULL;
  int pages = 0, fd;

  g_option_context_add_main_entries (context, entries, NULL);
  /* GOption's usage line starts with the program's name, which it would
   * take from argv[0]: "backup" alone. */
  g_set_prgname ("triage-server backup");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "triage-server backup: %s\n", error->message);
      return 2;
    }
  if (argc != 2)
    {
      fprintf (stderr, "triage-server backup: give one destination file, e.g. "
               "triage-server backup --database /var/lib/triage/server.db server-backup.db\n");
      return 2;
    }
  if (database == NULL)
    {
      database = default_database ();
      /* --database forgotten (the database given as DEST alone): a slip of
       * the arguments, said with both files. */
      if (!g_file_test (database, G_FILE_TEST_EXISTS))
        {
          fprintf (stderr, "triage-server backup: no --database given and no database at the "
                   "default %s; give the running server's database, e.g. triage-server backup "
                   "--database /var/lib/triage/server.db %s\n", database, argv[1]);
          return 2;
        }
    }
  if (triage_store_is_postgres (database))
    {
      fprintf (stderr, "triage-server backup: the database is PostgreSQL: back it up with "
               "pg_dump, which takes a consistent copy while the servers run, e.g. "
               "pg_dump --format=custom --file=triage.dump 'postgresql://…' "
               "(restore with pg_restore; see README, Several servers on PostgreSQL)\n");
      return 2;
    }
  if (!g_file_test (database, G_FILE_TEST_IS_REGULAR))
    {
      fprintf (stderr, "triage-server backup: no database at %s\n", database);
      return 2;
    }
  if ((refusal = dest_refusal (database, argv[1], force)) != NULL)
    {
      fprintf (stderr, "triage-server backup: %s\n", refusal);
      return 2;
    }
  temp = g_strconcat (argv[1], ".partial", NULL);
  g_unlink (temp);
  /* Made here, 0600, for SQLite to fill (its journal takes the same mode). */
  fd = g_open (temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      int saved = errno;

      fprintf (stderr, "triage-server backup: cannot create %s: %s\n", temp, g_strerror (saved));
      return 1;
    }
  close (fd);
  if (!copy_database (database, temp, &pages, &error))
    {
      g_unlink (temp);
      fprintf (stderr, "triage-server backup: %s\n", error->message);
      return 1;
    }
  folder = g_path_get_dirname (argv[1]);
  if (!sync_path (temp) || g_rename (temp, argv[1]) != 0 || !sync_path (folder))
    {
      int saved = errno;

      g_unlink (temp);
      fprintf (stderr, "triage-server backup: cannot write %s: %s\n", argv[1], g_strerror (saved));
      return 1;
    }
  printf ("backed up %s to %s (%d pages)\n", database, argv[1], pages);
  return 0;
}
