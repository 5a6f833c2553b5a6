/* launcher-on-terminal.c — the app's local-mode start, alone: makes sure a
 * local triage-server answers (starting one, as the app does), prints
 * "ready SOCKET", then waits like the app until a signal ends it. For
 * test-launcher-terminal.py, which runs it on a pseudo-terminal.
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdio.h>

#include "triage-server-launcher.h"

static void
ensure_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *socket_path = NULL;
  gboolean started = FALSE;

  socket_path = triage_server_launcher_ensure_finish (result, &started, &error);
  if (socket_path == NULL)
    {
      g_printerr ("launcher-on-terminal: %s\n", error->message);
      exit (1);
    }

  g_print ("ready %s%s\n", socket_path, started ? " (started)" : "");
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);

  setvbuf (stdout, NULL, _IONBF, 0);
  triage_server_launcher_ensure_async (NULL, 0, NULL, ensure_cb, NULL);
  g_main_loop_run (loop);

  return 0;
}
