/* test-server-launcher.c — local mode: find the local server or start it
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <signal.h>

#include "app-test-server.h"
#include "triage-server-launcher.h"

static char *
ensure (const char  *socket_path,
        guint        timeout_ms,
        gboolean    *started,
        GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  triage_server_launcher_ensure_async (socket_path, timeout_ms, NULL, app_test_result_cb, &result);
  app_test_wait_for (result != NULL, timeout_ms + APP_TEST_WAIT_MS);

  return triage_server_launcher_ensure_finish (result, started, error);
}

static void
test_program_fails (void)
{
  g_autofree char *saved = g_strdup (g_getenv ("TRIAGE_SERVER"));
  g_autofree char *dir = g_dir_make_tmp ("triage-launcher-XXXXXX", NULL);
  g_autofree char *socket_path = g_build_filename (dir, "triage.sock", NULL);
  g_autofree char *log_path = triage_server_launcher_log_path ();
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  gboolean started = FALSE;

  /* A program that exits at once: the error says so instead of waiting it out. */
  g_setenv ("TRIAGE_SERVER", "/bin/false", TRUE);
  path = ensure (socket_path, 5000, &started, &error);
  g_assert_null (path);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "stopped before it was ready"));
  /* Its messages are not on the app's terminal: the error says where they are
   * (in the private world). */
  g_assert_nonnull (strstr (error->message, log_path));
  g_assert_true (g_file_test (log_path, G_FILE_TEST_EXISTS));
  g_assert_true (g_str_has_prefix (log_path, g_getenv ("XDG_STATE_HOME")));
  g_assert_true (started);

  if (saved != NULL)
    g_setenv ("TRIAGE_SERVER", saved, TRUE);
  else
    g_unsetenv ("TRIAGE_SERVER");
  app_test_rm_rf (dir);
}

static void
test_starts_then_finds (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *again = NULL;
  g_autofree char *expected = triage_server_launcher_default_socket ();
  gboolean started = FALSE;

  if (!g_file_test (g_getenv ("TRIAGE_SERVER"), G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("triage-server is not built");
      return;
    }

  /* Nothing answers in this private runtime folder: the server is started. */
  path = ensure (NULL, 10000, &started, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (path, ==, expected);
  g_assert_true (started);
  g_assert_true (app_test_socket_answers (path));

  /* Now it is found, not started again. */
  again = ensure (NULL, 10000, &started, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (again, ==, expected);
  g_assert_false (started);
}

static void
stop_started_server (void)
{
  g_autofree char *self_runtime = g_strconcat ("XDG_RUNTIME_DIR=", g_get_user_runtime_dir (), NULL);
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;

  /* The launcher leaves the server running (agents share it); this test ends it:
   * the triage-server whose environment names our private runtime folder. */
  while (proc != NULL && (name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *environ_path = g_build_filename ("/proc", name, "environ", NULL);
      g_autofree char *cmdline_path = g_build_filename ("/proc", name, "cmdline", NULL);
      g_autofree char *environ_data = NULL;
      g_autofree char *cmdline = NULL;
      gsize length = 0;
      gboolean ours = FALSE;

      if (!g_ascii_isdigit (*name) ||
          !g_file_get_contents (environ_path, &environ_data, &length, NULL) ||
          !g_file_get_contents (cmdline_path, &cmdline, NULL, NULL) ||
          !g_str_has_suffix (cmdline, "triage-server"))
        continue;

      for (gsize i = 0; i < length; i += strlen (environ_data + i) + 1)
        if (g_str_equal (environ_data + i, self_runtime))
          ours = TRUE;

      if (ours)
        kill (atoi (name), SIGTERM);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *world = app_test_private_world ();
  int status;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/server-launcher/program-fails", test_program_fails);
  g_test_add_func ("/server-launcher/starts-then-finds", test_starts_then_finds);

  status = g_test_run ();

  stop_started_server ();
  app_test_rm_rf (world);

  return status;
}
