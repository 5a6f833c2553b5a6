/* attachment-test-server.c — tests/attachments/attachment-server.py, run for a test
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "attachment-test-server"

#include <glib/gstdio.h>
#include <unistd.h>
#include <signal.h>
#include <sys/prctl.h>

#include "attachment-test-server.h"

struct _AttachmentTestServer
{
  GSubprocess *process;
  char        *base;       /* http://127.0.0.1:PORT */
  char        *log_path;
};

/* The server also dies with the test when an assertion aborts it. */
static void
die_with_parent (gpointer user_data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

AttachmentTestServer *
attachment_test_server_start (void)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GDataInputStream) output = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  g_autofree char *script = NULL;
  AttachmentTestServer *server = g_new0 (AttachmentTestServer, 1);
  int fd;

  fd = g_file_open_tmp ("attachment-test-server-XXXXXX.log", &server->log_path, &error);
  g_assert_no_error (error);
  close (fd);

  script = g_test_build_filename (G_TEST_DIST, "attachments", "attachment-server.py", NULL);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                        G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
  server->process = g_subprocess_launcher_spawn (launcher, &error, "/usr/bin/python3", script,
                                                 "--log", server->log_path, NULL);
  g_assert_no_error (error);

  output = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server->process));
  line = g_data_input_stream_read_line_utf8 (output, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, "listening on http://127.0.0.1:"));
  server->base = g_strdup (line + strlen ("listening on "));

  return server;
}

/* The address of @path on the server. */
char *
attachment_test_server_uri (AttachmentTestServer *server,
                      const char     *path)
{
  return g_strconcat (server->base, path, NULL);
}

/* How many requests for @path (all paths if %NULL) the server received. */
guint
attachment_test_server_count_requests (AttachmentTestServer *server,
                                 const char     *path)
{
  g_autofree char *log = NULL;
  g_auto(GStrv) lines = NULL;
  guint count = 0;

  g_assert_true (g_file_get_contents (server->log_path, &log, NULL, NULL));
  lines = g_strsplit (log, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (lines[i][0] != '\0' && (path == NULL || g_str_equal (lines[i], path)))
        count++;
    }

  return count;
}

void
attachment_test_server_stop (AttachmentTestServer *server)
{
  /* Closing its input ends the server. */
  g_output_stream_close (g_subprocess_get_stdin_pipe (server->process), NULL, NULL);
  if (!g_subprocess_wait (server->process, NULL, NULL))
    g_subprocess_force_exit (server->process);

  g_unlink (server->log_path);
  g_clear_object (&server->process);
  g_free (server->base);
  g_free (server->log_path);
  g_free (server);
}
