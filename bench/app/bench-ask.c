/* bench-ask.c — triage-ask runs for bench-app: started, then interrupted
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What an agent pays for asking through the command line: a triage-ask
 * process started for each request, in AFP (--afp, a Request Object on its
 * standard input) and in ATP (options only), timed by bench-app from the
 * spawn to the app's bubble.
 */

#include <signal.h>
#include <string.h>

#include "bench-ask.h"

GSubprocess *
bench_ask_start (GSubprocessLauncher *launcher,
                 const char * const  *argv,
                 const char          *input)
{
  g_autoptr(GSubprocess) ask = NULL;
  g_autoptr(GError) error = NULL;
  GOutputStream *stdin_pipe;

  g_subprocess_launcher_set_flags (launcher, G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                             G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
  ask = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_subprocess_launcher_set_flags (launcher, G_SUBPROCESS_FLAGS_NONE);
  g_assert_no_error (error);

  stdin_pipe = g_subprocess_get_stdin_pipe (ask);
  if (input != NULL)
    g_output_stream_write_all (stdin_pipe, input, strlen (input), NULL, NULL, &error);
  g_assert_no_error (error);
  g_output_stream_close (stdin_pipe, NULL, NULL);

  return g_steal_pointer (&ask);
}

void
bench_ask_interrupt (GSubprocess *ask)
{
  g_subprocess_send_signal (ask, SIGTERM);
  g_subprocess_wait (ask, NULL, NULL);
}
