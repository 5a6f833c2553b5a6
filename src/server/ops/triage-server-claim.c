/* triage-server-claim.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A SQLite database is one server's: a second server on the same file
 * served, but neither saw the other's changes (its streams and long polls
 * are woken by its own writes only). The server claims the file for its life
 * with flock () on a side file, FILE.lock, holding its pid: never a lock on
 * the database's own file, whose every descriptor closed in this process
 * would drop SQLite's POSIX locks. The kernel lets go of it when the server
 * ends however it ends (kill -9 too); the file stays, empty of meaning.
 * `triage-server backup` reads through SQLite and takes no claim, and
 * never replaces a database a server holds (triage_server_database_holder ()).
 */

#define G_LOG_DOMAIN "triage-server"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "triage-server-private.h"

/* The pid the holder of @fd wrote (a string; "unknown" when not yet). */
static char *
holder_pid (int fd)
{
  char text[32] = { 0 };
  ssize_t got = pread (fd, text, sizeof text - 1, 0);

  if (got <= 0)
    return g_strdup ("unknown");
  text[got] = '\0';
  return g_strdup (g_strstrip (text));
}

/* Claims the SQLite file @database for this server: the descriptor that
 * holds the claim, to keep open while the server runs; -1 (and @error)
 * when another server holds it or the side file cannot be made. */
int
triage_server_claim_database (const char  *database,
                              GError     **error)
{
  g_autofree char *path = g_strconcat (database, ".lock", NULL);
  char pid[32];
  int fd = g_open (path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);

  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "cannot create %s, which claims the database %s for this server: %s",
                   path, database, g_strerror (saved));
      return -1;
    }
  if (flock (fd, LOCK_EX | LOCK_NB) != 0)
    {
      int saved = errno;
      g_autofree char *holder = saved == EWOULDBLOCK ? holder_pid (fd) : NULL;

      close (fd);
      if (holder != NULL)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                     "%s is in use by another triage-server (pid %s): a SQLite database "
                     "serves one server (several servers share a PostgreSQL database)",
                     database, holder);
      else
        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "cannot lock %s: %s",
                     path, g_strerror (saved));
      return -1;
    }
  g_snprintf (pid, sizeof pid, "%ld\n", (long) getpid ());
  if (ftruncate (fd, 0) != 0 || pwrite (fd, pid, strlen (pid), 0) < 0)
    g_debug ("cannot write the pid into %s: %s", path, g_strerror (errno));
  return fd;
}

/* The pid of the server that holds @database (a string, "unknown" when it
 * has not written it yet), or NULL when none does. */
char *
triage_server_database_holder (const char *database)
{
  g_autofree char *path = g_strconcat (database, ".lock", NULL);
  char *holder = NULL;
  int fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0);

  if (fd < 0)
    return NULL;
  if (flock (fd, LOCK_SH | LOCK_NB) != 0)
    holder = errno == EWOULDBLOCK ? holder_pid (fd) : NULL;
  close (fd);
  return holder;
}
