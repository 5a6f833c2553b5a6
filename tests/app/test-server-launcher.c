/* test-server-launcher.c — local mode: find the local server or start it
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <signal.h>

#include <glib/gstdio.h>

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

/* The local server's log (the started server's standard error) says @text. */
static gboolean
log_says (const char *text)
{
  g_autofree char *log_path = triage_server_launcher_log_path ();
  g_autofree char *contents = NULL;

  return g_file_get_contents (log_path, &contents, NULL, NULL) && strstr (contents, text) != NULL;
}

/* Starts `triage-server ARGS…` in this test's private world. */
static GSubprocess *
spawn_server (GSubprocessFlags flags,
              const char      *first_arg,
              ...)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (flags);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  GSubprocess *process;
  va_list args;

  g_ptr_array_add (argv, (char *) g_getenv ("TRIAGE_SERVER"));
  va_start (args, first_arg);
  for (const char *arg = first_arg; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  g_subprocess_launcher_set_child_setup (launcher, app_test_die_with_parent, NULL, NULL);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  return process;
}

/* At login the app and the user unit each start the local server. The one
 * that comes second finds the database held by the first, which serves on
 * the same socket, and exits 0; the app then waits for the first's socket.
 * It used to say its server "stopped before it was ready" (the second exited
 * 1) while the first was coming up. */
static void
test_another_starting (void)
{
  g_autofree char *folder = g_build_filename (g_get_user_data_dir (), "triage", NULL);
  g_autofree char *database = g_build_filename (folder, "server.db", NULL);
  g_autofree char *expected = triage_server_launcher_default_socket ();
  g_autoptr(GSubprocess) holder = NULL, unit = NULL;
  g_autoptr(GDataInputStream) holder_out = NULL;
  g_autofree char *listening = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  gboolean started = FALSE;

  if (!g_file_test (g_getenv ("TRIAGE_SERVER"), G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("triage-server is not built");
      return;
    }

  /* The first: the local server, its database claimed, its socket not there
   * yet (here: taken away once it was made). */
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  holder = spawn_server (G_SUBPROCESS_FLAGS_STDOUT_PIPE, "--socket", expected, "--print-address",
                         "--database", database, NULL);
  holder_out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (holder));
  listening = g_data_input_stream_read_line_utf8 (holder_out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (listening);
  g_assert_cmpint (g_unlink (expected), ==, 0);
  g_assert_false (app_test_socket_answers (expected));

  triage_server_launcher_ensure_async (NULL, APP_TEST_WAIT_MS, NULL, app_test_result_cb, &result);
  /* The app's server has said the first runs and ended (exit 0)… */
  app_test_wait_for (result != NULL || log_says ("already running"), APP_TEST_WAIT_MS);
  g_assert_null (result);
  /* …and the first comes up on the socket (here: another in its place). */
  g_subprocess_send_signal (holder, SIGTERM);
  g_assert_true (g_subprocess_wait_check (holder, NULL, &error));
  g_assert_no_error (error);
  unit = spawn_server (G_SUBPROCESS_FLAGS_NONE, "--local", NULL);
  app_test_wait_for (result != NULL, APP_TEST_WAIT_MS);
  path = triage_server_launcher_ensure_finish (result, &started, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (path, ==, expected);
  g_assert_true (started);

  g_subprocess_send_signal (unit, SIGTERM);
  g_assert_true (g_subprocess_wait_check (unit, NULL, &error));
  g_assert_no_error (error);
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
  g_test_add_func ("/server-launcher/another-starting", test_another_starting);
  g_test_add_func ("/server-launcher/starts-then-finds", test_starts_then_finds);

  status = g_test_run ();

  stop_started_server ();
  app_test_rm_rf (world);

  return status;
}
