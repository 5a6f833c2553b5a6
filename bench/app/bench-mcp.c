/* bench-mcp.c — a minimal MCP client for the benchmark: triage-mcp on pipes
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "bench-mcp.h"

#include <string.h>

struct _BenchMcp
{
  GSubprocess      *process;
  GOutputStream    *input;
  GDataInputStream *output;
  gint64            next_id;
};

static void
send_line (BenchMcp   *self,
           const char *line)
{
  g_autoptr(GError) error = NULL;

  if (!g_output_stream_write_all (self->input, line, strlen (line), NULL, NULL, &error) ||
      !g_output_stream_write_all (self->input, "\n", 1, NULL, NULL, &error) ||
      !g_output_stream_flush (self->input, NULL, &error))
    g_error ("Cannot write to triage-mcp: %s", error->message);
}

BenchMcp *
bench_mcp_start (GSubprocessLauncher  *launcher,
                 const char           *mcp_path,
                 GError              **error)
{
  BenchMcp *self = g_new0 (BenchMcp, 1);
  g_autofree char *reply = NULL;

  g_subprocess_launcher_set_flags (launcher, G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                             G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  self->process = g_subprocess_launcher_spawn (launcher, error, mcp_path, NULL);
  g_subprocess_launcher_set_flags (launcher, G_SUBPROCESS_FLAGS_NONE);
  if (self->process == NULL)
    {
      g_free (self);
      return NULL;
    }
  self->input = g_object_ref (g_subprocess_get_stdin_pipe (self->process));
  self->output = g_data_input_stream_new (g_subprocess_get_stdout_pipe (self->process));
  self->next_id = 2;

  send_line (self, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", \"params\": "
                   "{\"protocolVersion\": \"2025-11-25\", \"capabilities\": {}, "
                   "\"clientInfo\": {\"name\": \"bench-mcp\", \"version\": \"1\"}}}");
  reply = g_data_input_stream_read_line (self->output, NULL, NULL, error);
  if (reply == NULL || strstr (reply, "\"result\"") == NULL)
    {
      if (reply != NULL)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "initialize: %s", reply);
      bench_mcp_stop (self);
      return NULL;
    }
  send_line (self, "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}");

  return self;
}

gint64
bench_mcp_ask (BenchMcp   *self,
               const char *title)
{
  g_autofree char *line = NULL;
  gint64 id = self->next_id++;

  /* Time-sensitive, as the ATP path's requests: the app sums up a flood of others. */
  line = g_strdup_printf ("{\"jsonrpc\": \"2.0\", \"id\": %" G_GINT64_FORMAT ", \"method\": "
                          "\"tools/call\", \"params\": {\"name\": \"request_approval\", "
                          "\"arguments\": {\"title\": \"%s\", \"description\": \"A request "
                          "asked by the benchmark.\", \"flags\": [\"time_sensitive\"]}}}",
                          id, title);
  send_line (self, line);
  return id;
}

void
bench_mcp_cancel (BenchMcp *self,
                  gint64    id)
{
  g_autofree char *line = NULL;

  line = g_strdup_printf ("{\"jsonrpc\": \"2.0\", \"method\": \"notifications/cancelled\", "
                          "\"params\": {\"requestId\": %" G_GINT64_FORMAT "}}", id);
  send_line (self, line);
}

void
bench_mcp_stop (BenchMcp *self)
{
  if (self == NULL)
    return;

  if (self->input != NULL)
    g_output_stream_close (self->input, NULL, NULL);
  g_subprocess_wait (self->process, NULL, NULL);
  g_clear_object (&self->input);
  g_clear_object (&self->output);
  g_clear_object (&self->process);
  g_free (self);
}
