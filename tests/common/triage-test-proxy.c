/* triage-test-proxy.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-test-proxy"

#include <string.h>

#include "triage-test-proxy.h"
#include "triage-test-server.h"

struct _TriageTestProxy
{
  GSubprocess      *process;
  GDataInputStream *out;       /* the answers to commands */
  char             *url;
  guint             port;
};

#define LISTENING "listening on "

/* Not triage_test_spawn_peer (): that closes the standard output after the
 * first line, and the answers to commands come there. */
TriageTestProxy *
triage_test_proxy_new (const char *upstream)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "chaos", "partition-proxy.py", NULL);
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  const char *argv[] = { "/usr/bin/python3", script, upstream, NULL };
  TriageTestProxy *self = g_new0 (TriageTestProxy, 1);
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;

  g_subprocess_launcher_set_child_setup (launcher, triage_test_die_with_parent, NULL, NULL);
  self->process = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  self->out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (self->process));
  line = g_data_input_stream_read_line (self->out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, LISTENING "http://127.0.0.1:"));
  self->url = g_strdup (line + strlen (LISTENING));
  self->port = (guint) g_ascii_strtoull (strrchr (line, ':') + 1, NULL, 10);
  g_assert_cmpuint (self->port, >, 0);
  return self;
}

const char *
triage_test_proxy_get_url (TriageTestProxy *self)
{
  return self->url;
}

guint
triage_test_proxy_get_port (TriageTestProxy *self)
{
  return self->port;
}

void
triage_test_proxy_command (TriageTestProxy *self,
                           const char      *command)
{
  GOutputStream *in = g_subprocess_get_stdin_pipe (self->process);
  g_autofree char *line = g_strdup_printf ("%s\n", command);
  g_autofree char *expected = g_strdup_printf ("ok %s", command);
  g_autofree char *answer = NULL;
  g_autoptr(GError) error = NULL;

  g_output_stream_write_all (in, line, strlen (line), NULL, NULL, &error);
  g_assert_no_error (error);
  answer = g_data_input_stream_read_line (self->out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (answer, ==, expected);
}

void
triage_test_proxy_free (TriageTestProxy *self)
{
  g_output_stream_close (g_subprocess_get_stdin_pipe (self->process), NULL, NULL);
  g_subprocess_wait (self->process, NULL, NULL);
  g_clear_object (&self->out);
  g_clear_object (&self->process);
  g_free (self->url);
  g_free (self);
}
