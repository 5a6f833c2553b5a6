/* hold-file.h — the wait of the LD_PRELOAD shims (tests/app/hold-sql.c,
 * tests/server/slow-lookup.c): a call held while a file exists
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * While @file exists the caller waits (60 s at most), having added a byte to
 * FILE.held to say so (one a call held); @who names the shim in its errors.
 */

#pragma once

#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define HOLD_MAX_MS 60000
#define HOLD_STEP_MS 20

static inline void
hold_while_file (const char *file,
                 const char *who)
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
        {
          char what[256];

          snprintf (what, sizeof what, "%s: HOLD.held", who);
          perror (what);
        }
      close (fd);
    }
  for (int waited = 0; waited < HOLD_MAX_MS && access (file, F_OK) == 0; waited += HOLD_STEP_MS)
    nanosleep (&step, NULL);
}
