/* triage-server-claim.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A SQLite database is one server's: a second server on the same file
 * served, but neither saw the other's changes (its streams and long polls
 * are woken by its own writes only). The server claims the file for its life
 * with flock () on a side file, FILE.lock (FILE's real path: a symbolic link
 * to it claims the same), holding its pid and the socket it serves on (a
 * second `--local` server then knows the first for the same local server,
 * already running): never a lock on
 * the database's own file, whose every descriptor closed in this process
 * would drop SQLite's POSIX locks. The kernel lets go of it when the server
 * ends however it ends (kill -9 too); the file stays, empty of meaning.
 * `triage-server backup` reads through SQLite and takes no claim, and
 * never replaces a database a server holds (triage_server_database_holder ()).
 */

#define G_LOG_DOMAIN "triage-server"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "triage-server-private.h"

/* The side file that claims @database: beside the file itself, its
 * symbolic links followed (a second server given a link to the file claimed
 * the link's name and served beside the first). A file not made yet is
 * named by its folder's real path. */
static char *
lock_path (const char *database)
{
  g_autofree char *real = realpath (database, NULL);
  g_autofree char *folder = NULL, *real_folder = NULL, *name = NULL;

  if (real != NULL)
    return g_strconcat (real, ".lock", NULL);
  folder = g_path_get_dirname (database);
  name = g_path_get_basename (database);
  real_folder = realpath (folder, NULL);
  if (real_folder == NULL)
    return g_strconcat (database, ".lock", NULL);
  return g_strconcat (real_folder, G_DIR_SEPARATOR_S, name, ".lock", NULL);
}

/* Whether @pid, a record's first line, is a number that names no process:
 * the record of a server gone. */
static gboolean
pid_gone (const char *pid)
{
  gint64 number;

  return g_ascii_string_to_signed (pid, 10, 1, G_MAXINT, &number, NULL) &&
         kill ((pid_t) number, 0) != 0 && errno == ESRCH;
}

/* What the holder of @fd wrote: its pid (a string; "unknown" when not yet)
 * and, in @socket_path, the Unix socket it serves on ("" when none).
 * Returns whether the record is the holder's, whole: both lines, as a holder
 * writes them just after it locks (read in between, the file is empty, or
 * still holds the record of a server gone, whose pid is no process); or the
 * pid line alone of a live process, a server from before the socket line
 * (still running across an upgrade), which will write no more. */
static gboolean
holder_of (int    fd,
           char **pid,
           char **socket_path)
{
  char text[4200] = { 0 };
  ssize_t got = pread (fd, text, sizeof text - 1, 0);
  g_auto(GStrv) lines = NULL;

  *pid = g_strdup ("unknown");
  if (socket_path != NULL)
    *socket_path = g_strdup ("");
  if (got <= 0)
    return FALSE;
  text[got] = '\0';
  lines = g_strsplit (text, "\n", 3);
  if (lines[0] != NULL && *lines[0] != '\0')
    {
      g_free (*pid);
      *pid = g_strdup (lines[0]);
    }
  if (socket_path != NULL && lines[0] != NULL && lines[1] != NULL)
    {
      g_free (*socket_path);
      *socket_path = g_strdup (lines[1]);
    }
  if (lines[0] == NULL || lines[1] == NULL)
    return FALSE;
  /* The pid line alone ("N\n") is an old server's only if N is a process:
   * a number, alive. */
  if (lines[2] == NULL)
    return *lines[1] == '\0' &&
           g_ascii_string_to_signed (lines[0], 10, 1, G_MAXINT, NULL, NULL) &&
           !pid_gone (lines[0]);
  /* Whole, and not the record of a holder gone before this one wrote its own. */
  return !pid_gone (lines[0]);
}

/* How long a second server waits for the holder it found to write who it
 * is (a server locks, then writes: both started at once, the second read
 * an empty file and called a server of its own socket another one, exit 1). */
#define HOLDER_RECORD_WAIT_US (10 * G_USEC_PER_SEC)

/* Locks @fd for this server; else the holder's pid and socket, read once
 * it has written them (or once it waited HOLDER_RECORD_WAIT_US): errno is
 * flock ()'s. */
static gboolean
lock_or_read_holder (int          fd,
                     const char  *path,
                     char       **pid,
                     char       **socket_path)
{
  gint64 until = g_get_monotonic_time () + HOLDER_RECORD_WAIT_US;

  for (gboolean said = FALSE;; said = TRUE)
    {
      int saved;

      if (flock (fd, LOCK_EX | LOCK_NB) == 0)
        return TRUE;
      saved = errno;
      if (saved != EWOULDBLOCK)
        return FALSE;
      g_clear_pointer (pid, g_free);
      g_clear_pointer (socket_path, g_free);
      if (holder_of (fd, pid, socket_path) || g_get_monotonic_time () >= until)
        {
          errno = saved;
          return FALSE;
        }
      if (!said)
        g_debug ("waiting for the server that holds %s to write who it is", path);
      g_usleep (10 * 1000);
    }
}

/* Claims the SQLite file @database for this server, which serves on
 * @socket_path (NULL: on none): the descriptor that holds the claim, to keep
 * open while the server runs; -1 (and @error) when the side file cannot be
 * made, or another server holds it: G_IO_ERROR_EXISTS when that one serves
 * on @socket_path too (the same local server, already running), else
 * G_IO_ERROR_BUSY. */
int
triage_server_claim_database (const char  *database,
                              const char  *socket_path,
                              GError     **error)
{
  g_autofree char *path = lock_path (database);
  g_autofree char *mine = NULL, *holder = NULL, *socket = NULL;
  int fd = g_open (path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  ssize_t written;

  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "cannot create %s, which claims the database %s for this server: %s",
                   path, database, g_strerror (saved));
      return -1;
    }
  if (!lock_or_read_holder (fd, path, &holder, &socket))
    {
      int saved = errno;

      close (fd);
      if (saved != EWOULDBLOCK)
        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "cannot lock %s: %s",
                     path, g_strerror (saved));
      else if (socket_path != NULL && g_str_equal (socket, socket_path))
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                     "already running: the server (pid %s) that serves on %s holds %s",
                     holder, socket_path, database);
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                     "%s is in use by another triage-server (pid %s): a SQLite database "
                     "serves one server (several servers share a PostgreSQL database)",
                     database, holder);
      return -1;
    }
  mine = g_strdup_printf ("%ld\n%s\n", (long) getpid (), socket_path != NULL ? socket_path : "");
  written = ftruncate (fd, 0) == 0 ? pwrite (fd, mine, strlen (mine), 0) : -1;
  /* The claim holds without it, but a second server on the file waits for
   * the record (HOLDER_RECORD_WAIT_US) and then names no pid: said where
   * an operator sees it, as the server says a full disk. */
  if (written != (ssize_t) strlen (mine))
    g_message ("cannot write this server's pid and socket into %s (%s): a second server on "
               "the database waits %d s for them, then says the pid is unknown", path,
               written < 0 ? g_strerror (errno) : "written in part",
               (int) (HOLDER_RECORD_WAIT_US / G_USEC_PER_SEC));
  return fd;
}

/* The pid of the server that holds @database (a string, "unknown" when it
 * has not written it yet), or NULL when none does. */
char *
triage_server_database_holder (const char *database)
{
  g_autofree char *path = lock_path (database);
  char *holder = NULL;
  int fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0);

  if (fd < 0)
    return NULL;
  if (flock (fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK)
    holder_of (fd, &holder, NULL);
  close (fd);
  return holder;
}
