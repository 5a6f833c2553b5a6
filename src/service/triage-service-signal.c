/* triage-service-signal.c — the terminal closing and closed standard descriptors, for the
 * programs that ask a person
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <glib-unix.h>

#include "triage-service.h"

/**
 * triage_service_add_sighup:
 * @func: called on SIGHUP (the terminal closed)
 * @data: for @func
 *
 * Withdrawing a question when its terminal closes is for a program started
 * from one; a program started under nohup (or anything else that ignores
 * SIGHUP before it runs) was asked to outlive its terminal, and keeps doing so.
 *
 * Returns: the source's id, or 0 when SIGHUP is ignored (nothing added)
 */
guint
triage_service_add_sighup (GSourceFunc func,
                           gpointer    data)
{
  struct sigaction current;

  if (sigaction (SIGHUP, NULL, &current) == 0 && current.sa_handler == SIG_IGN)
    return 0;
  return g_unix_signal_add (SIGHUP, func, data);
}

/**
 * triage_service_hold_standard_fds:
 *
 * A descriptor of 0, 1 or 2 the caller closed (`>&-`, `<&-`) would be the
 * next one opened: GLib's wakeup eventfd took it, and an answer was written
 * into it (EINVAL, exit 0, nothing printed), or standard input read from it
 * and never ended, or warnings went to a connection to the server. Each is
 * held by /dev/null, standard output opened for reading, so that writing to
 * it fails and says so. Call it first thing in main ().
 */
void
triage_service_hold_standard_fds (void)
{
  static const int flags[] = { O_RDONLY, O_RDONLY, O_WRONLY };

  for (int fd = 0; fd <= 2; fd++)
    if (fcntl (fd, F_GETFD) < 0 && errno == EBADF)
      {
        int held = open ("/dev/null", flags[fd]);

        if (held >= 0 && held != fd)
          {
            dup2 (held, fd);
            close (held);
          }
      }
}
