/* triage-store-sqlite-file.c — the SQLite database file, watched while the
 * server has it open
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SQLite keeps the file it opened: removed or replaced under the running
 * server (an operator's rm to start afresh, a backup moved over it, a
 * cleaner of old files), the server went on writing into a file nobody will
 * open again, answered 201 to each request, and said it was ready; at its
 * next start all of it was gone. The file (and its WAL, which holds the
 * commits not yet checkpointed) is looked at once a second: once either is
 * not the one opened, the server says so, takes no more writes (503
 * STORAGE_UNAVAILABLE: the connection is made query-only) and is not ready
 * (/readyz) until it is started again on the file it should use.
 *
 * A file a statement found damaged (SQLITE_CORRUPT) is not ready either:
 * each request that reads the damaged part fails however often it is
 * tried, and the operator is told once what to do.
 */

#define G_LOG_DOMAIN "triage-store-sqlite"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "triage-store-sqlite-private.h"

/* A stat () of each path, not a GFileMonitor: GLib's inotify monitor of a
 * file watches the folder it is in, and so tells a removal, a rename of the
 * file or one moved over it, but not a rename of that folder or of any
 * folder above it (checked with GLib 2.74: nothing at all, seconds later),
 * after which the path names no file and the server would write into one
 * nobody opens again. Two stat () calls a second cost nothing. */
#define WATCH_INTERVAL_S 1

/* FALSE (@error set) when the file at @path is not the one with @id (0: none
 * was there at the start, and none is looked for). */
static gboolean
still_there (const char                   *path,
             const TriageStoreSqliteFileId *id,
             GError                      **error)
{
  GStatBuf st;

  if (id->ino == 0)
    return TRUE;
  if (g_stat (path, &st) != 0)
    {
      int saved_errno = errno;

      /* Only a file that is gone says so: a stat that failed otherwise (no
       * memory, an I/O error) is no proof. */
      if (saved_errno != ENOENT && saved_errno != ENOTDIR)
        return TRUE;
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "the database file %s was removed "
                   "while the server had it open", path);
      return FALSE;
    }
  if ((guint64) st.st_dev != id->dev || (guint64) st.st_ino != id->ino)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS, "the database file %s was replaced by "
                   "another file while the server had it open", path);
      return FALSE;
    }
  return TRUE;
}

static void
take_id (const char              *path,
         TriageStoreSqliteFileId *id)
{
  GStatBuf st;

  id->dev = 0;
  id->ino = 0;
  if (g_stat (path, &st) == 0)
    {
      id->dev = (guint64) st.st_dev;
      id->ino = (guint64) st.st_ino;
    }
}

/* Looks at the files now; FALSE (@error set) once either is not the one opened. */
gboolean
triage_store_sqlite_file_check (TriageStoreSqlite *self,
                                GError           **error)
{
  g_autoptr(GError) gone = NULL;

  if (self->file_error == NULL && self->path != NULL &&
      (!still_there (self->path, &self->file_id, &gone) ||
       !still_there (self->wal_path, &self->wal_id, &gone)))
    {
      self->file_error = g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED,
                                      "%s: what the server writes now would be lost at its "
                                      "next start, so it takes no more writes; restart it on "
                                      "the file it should use (replace a database file only "
                                      "while the server is stopped)", gone->message);
      g_message ("%s", self->file_error->message);
      /* Every write fails from now on (SQLITE_READONLY), reads go on. */
      triage_store_sqlite_exec (self, "PRAGMA query_only = ON", NULL);
    }
  if (self->file_error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->file_error));
      return FALSE;
    }
  return TRUE;
}

/* FALSE (@error set) when the file at @path is there but no SQLite
 * database: not empty (a new database), nor beginning as every SQLite
 * database does (its header string). A file that cannot be read is left to
 * SQLite to say so. Asked before the file is opened, or changed at all (its
 * mode tightened): a text file, or another program's named by mistake, is
 * no damage to mend. */
gboolean
triage_store_sqlite_file_is_sqlite (const char *path,
                                    GError    **error)
{
  static const char header[16] = "SQLite format 3";
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = g_file_read (file, NULL, NULL);
  char start[sizeof header];
  gsize length = 0;

  if (stream == NULL ||
      !g_input_stream_read_all (G_INPUT_STREAM (stream), start, sizeof start, &length, NULL,
                                NULL) ||
      length == 0 || (length == sizeof start && memcmp (start, header, sizeof header) == 0))
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               "the file %s is not a SQLite database (it does not begin as one): the server "
               "cannot start on it, and left it as it was; give --database the server's own "
               "database file, or a path where no file is yet for a new database (or a "
               "postgresql:// URI)", path);
  return FALSE;
}

void
triage_store_sqlite_file_damaged (TriageStoreSqlite *self,
                                  const char        *reason)
{
  /* Not watched yet: it is being opened, and the server will not start. */
  gboolean serving = self->file_watch != 0;

  if (self->file_error != NULL)
    return;
  self->file_error = g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED,
                                  "the database file %s is damaged (%s): %s keep a copy of "
                                  "the file, check it (sqlite3 %s 'PRAGMA integrity_check') and "
                                  "mend it (sqlite3's .recover makes a new one) before starting "
                                  "the server again", self->path, reason,
                                  serving ? "a request that reads what is damaged fails however "
                                            "often it is tried; stop the server,"
                                          : "the server cannot start on it;", self->path);
  if (!serving)
    return;
  g_message ("%s", self->file_error->message);
  g_clear_handle_id (&self->file_watch, g_source_remove);
}

static gboolean
watch_cb (gpointer data)
{
  TriageStoreSqlite *self = data;

  if (!triage_store_sqlite_file_check (self, NULL))
    {
      self->file_watch = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

void
triage_store_sqlite_name_file (TriageStoreSqlite *self,
                               const char        *path)
{
  g_return_if_fail (self->path == NULL);

  self->path = g_strdup (path);
  self->wal_path = g_strconcat (path, "-wal", NULL);
}

/* From now on the files named (and its WAL) must stay the ones open. */
void
triage_store_sqlite_watch_file (TriageStoreSqlite *self)
{
  take_id (self->path, &self->file_id);
  take_id (self->wal_path, &self->wal_id);
  self->file_watch = g_timeout_add_seconds (WATCH_INTERVAL_S, watch_cb, self);
}

void
triage_store_sqlite_unwatch_file (TriageStoreSqlite *self)
{
  g_clear_handle_id (&self->file_watch, g_source_remove);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->wal_path, g_free);
  g_clear_error (&self->file_error);
}
