/* test-connection-local.c — the connection to the local server, lost and looked for again
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A TriageConnection in local mode (the settings' default) in a private
 * world, with a real `triage-server --local` the test starts and kills.
 * The server started again in its place (5 s later, by the launcher, from
 * $TRIAGE_SERVER) is tests/app/busy-local-server.py, which serves on the
 * socket but answers every request 503.
 */

#include <signal.h>
#include <string.h>

#include "app-test-server.h"
#include "triage-connection.h"
#include "triage-server-launcher.h"

typedef struct
{
  guint local_starts;   /* "Starting the local server…" said */
} Seen;

static void
on_changed (TriageConnection *connection,
            Seen             *seen)
{
  if (triage_connection_get_state (connection) == TRIAGE_CONNECTION_CONNECTING &&
      g_strcmp0 (triage_connection_get_message (connection), "Starting the local server…") == 0)
    seen->local_starts++;
}

/* The local server stopped (a crash, a kill): the connection was lost. 5 s
 * on it is looked for and started again; when that one does not serve
 * either, the window said "Not connected" as if there had never been a
 * connection. It is still one lost. */
static void
test_lost_after_recheck (void)
{
  g_autofree char *socket_path = triage_server_launcher_default_socket ();
  g_autofree char *busy = g_test_build_filename (G_TEST_DIST, "app", "busy-local-server.py", NULL);
  g_autofree char *pid_file = g_build_filename (g_get_user_runtime_dir (), "busy.pid", NULL);
  g_autofree char *real = g_strdup (g_getenv ("TRIAGE_SERVER"));
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr(GSubprocess) server = NULL;
  g_autoptr(GSettings) settings = g_settings_new ("io.github.atptriage.Triage");
  g_autoptr(TriageCredentials) credentials = triage_credentials_new_in_memory ();
  g_autoptr(TriageConnection) connection = NULL;
  g_autofree char *pid = NULL;
  g_autoptr(GError) error = NULL;
  Seen seen = { 0 };

  if (real == NULL || !g_file_test (real, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("triage-server is not built");
      return;
    }

  g_subprocess_launcher_set_child_setup (launcher, app_test_die_with_parent, NULL, NULL);
  server = g_subprocess_launcher_spawn (launcher, &error, real, "--local", NULL);
  g_assert_no_error (error);
  app_test_wait_for (app_test_socket_answers (socket_path), APP_TEST_WAIT_MS);

  connection = triage_connection_new (settings, credentials);
  g_signal_connect (connection, "changed", G_CALLBACK (on_changed), &seen);
  triage_connection_start (connection);
  app_test_wait_for (triage_connection_get_state (connection) == TRIAGE_CONNECTION_CONNECTED,
                     APP_TEST_WAIT_MS);
  g_assert_cmpuint (seen.local_starts, ==, 1);

  g_setenv ("BUSY_LOCAL_SERVER_PID_FILE", pid_file, TRUE);
  g_setenv ("TRIAGE_SERVER", busy, TRUE);
  g_subprocess_force_exit (server);
  g_subprocess_wait (server, NULL, NULL);
  app_test_wait_for (triage_connection_get_state (connection) == TRIAGE_CONNECTION_RECONNECTING,
                     APP_TEST_WAIT_MS);
  g_assert_cmpint (triage_connection_get_problem (connection), ==, TRIAGE_CONNECTION_PROBLEM_LOST);

  /* Looked for and started again, and that one does not serve. */
  app_test_wait_for (seen.local_starts == 2 &&
                     triage_connection_get_state (connection) == TRIAGE_CONNECTION_RECONNECTING,
                     APP_TEST_WAIT_MS);
  g_assert_cmpint (triage_connection_get_problem (connection), ==, TRIAGE_CONNECTION_PROBLEM_LOST);
  g_assert_nonnull (strstr (triage_connection_get_message (connection), "HTTP 503"));

  triage_connection_stop (connection);
  g_assert_true (g_file_get_contents (pid_file, &pid, NULL, NULL));
  kill (atoi (pid), SIGTERM);
  g_setenv ("TRIAGE_SERVER", real, TRUE);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *world = app_test_private_world ();
  int status;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/connection/local/lost-after-recheck", test_lost_after_recheck);

  status = g_test_run ();
  app_test_rm_rf (world);

  return status;
}
