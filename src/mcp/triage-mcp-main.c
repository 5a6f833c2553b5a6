/* triage-mcp-main.c — options, the connection, and the session on standard input/output
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-mcp"

#include "triage-mcp.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <glib-unix.h>
#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>

#include "atp-client.h"
#include "atp-json.h"
#include "triage-mcp-server.h"
#include "triage-service.h"

static const char help_description[] =
  "An MCP server on standard input and output: an MCP client (an agent, a chat app) starts\n"
  "it and calls its tools request_approval, ask_human and ask_choice, which ask the person\n"
  "through Triage and return the answer.\n"
  "MCP protocol versions " TRIAGE_MCP_PROTOCOL_MODERN ", " TRIAGE_MCP_PROTOCOL_VERSIONS ".\n"
  "\n"
  "Server: without --server, the local server at $XDG_RUNTIME_DIR/triage/triage.sock, with no\n"
  "key, as a service named after the MCP client (\"mcp-\" and its name; --service sets it).\n"
  "With --server URL (https://, or http:// to this computer) the service API key comes from\n"
  "the environment variable TRIAGE_API_KEY or the keyring (schema " TRIAGE_SERVICE_KEY_SCHEMA
  ",\nattribute server=URL), never from the command line.\n"
  "\n"
  "Standard error carries warnings only; standard output is the MCP session. When standard\n"
  "input closes, or on SIGTERM/SIGINT/SIGHUP, every question still waiting is withdrawn and\n"
  "the program exits 0, within 5 s (at once on a second signal); a withdrawal the server\n"
  "cannot take by then is kept in $XDG_STATE_HOME/triage/ for the next run to make.\n"
  "Exit status 2: a bad option, or no key for --server.";

void
triage_mcp_options_free (TriageMcpOptions *self)
{
  if (self == NULL)
    return;

  g_free (self->server_url);
  g_free (self->socket_path);
  g_free (self->service_id);
  g_free (self->service_name);
  g_free (self);
}

/* The service's id and name travel in request headers, where a control character
 * (a line break would end the header) has no place; a huge one made the local server
 * close the connection, and every call failed as if no server ran. */
static gboolean
check_header_value (const char  *option,
                    const char  *value,
                    glong        max,
                    GError     **error)
{
  if (value == NULL)
    return TRUE;

  for (const char *p = value; *p != '\0'; p++)
    if (g_ascii_iscntrl (*p))
      {
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     "%s: control characters (line breaks, tabs) are not allowed", option);
        return FALSE;
      }
  /* Blank, it was sent as it is: the server took it for no service, "local". */
  if (atp_str_is_blank (value))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s: must not be empty",
                   option);
      return FALSE;
    }
  if (g_utf8_strlen (value, -1) > max)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "%s: %ld characters, more than the %ld it may have", option,
                   g_utf8_strlen (value, -1), max);
      return FALSE;
    }

  return TRUE;
}

TriageMcpOptions *
triage_mcp_options_parse (GStrv   *argv,
                          GError **error)
{
  g_autoptr(TriageMcpOptions) self = g_new0 (TriageMcpOptions, 1);
  g_autoptr(GOptionContext) context = NULL;
  g_autofree char *retry_for = NULL;
  int progress_interval = TRIAGE_MCP_DEFAULT_PROGRESS_INTERVAL_S;
  const GOptionEntry entries[] = {
    { "server", 's', 0, G_OPTION_ARG_STRING, &self->server_url,
      "Use the ATP server at URL instead of the local one", "URL" },
    { "socket", 0, 0, G_OPTION_ARG_FILENAME, &self->socket_path,
      "The local server's socket (default $XDG_RUNTIME_DIR/triage/triage.sock)", "PATH" },
    { "service", 0, 0, G_OPTION_ARG_STRING, &self->service_id,
      "The service id on the local server (default: mcp- and the MCP client's name)", "ID" },
    { "service-name", 0, 0, G_OPTION_ARG_STRING, &self->service_name,
      "The service's display name on the local server (default: the MCP client's)", "NAME" },
    { "retry-for", 0, 0, G_OPTION_ARG_STRING, &retry_for,
      "How long a call keeps retrying an unreachable server (default 30s)", "DURATION" },
    { "progress-interval", 0, 0, G_OPTION_ARG_INT, &progress_interval,
      "Seconds between progress notifications while the person has not answered (default 10)",
      "SECONDS" },
    { NULL }
  };

  self->retry_for_us = (gint64) TRIAGE_MCP_DEFAULT_RETRY_FOR_S * G_USEC_PER_SEC;

  if (!triage_service_refuse_secrets (*argv, error))
    return NULL;

  context = g_option_context_new ("— ask the person through Triage from any MCP client");
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context, help_description);
  if (!g_option_context_parse_strv (context, argv, error))
    return NULL;

  if (g_strv_length (*argv) > 1)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "unexpected argument “%s” (triage-mcp takes options only; see --help)",
                   (*argv)[1]);
      return NULL;
    }
  if (!check_header_value ("--service", self->service_id, TRIAGE_SERVICE_ID_MAX, error) ||
      !check_header_value ("--service-name", self->service_name, TRIAGE_SERVICE_NAME_MAX, error))
    return NULL;
  /* An empty path names no socket: refused, not taken for the default. */
  if (self->socket_path != NULL && *self->socket_path == '\0')
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           "--socket: must not be empty");
      return NULL;
    }
  if (self->server_url != NULL && !atp_client_check_url (self->server_url, error))
    {
      g_prefix_error (error, "--server: ");
      return NULL;
    }
  if (retry_for != NULL && !triage_service_parse_duration (retry_for, &self->retry_for_us))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--retry-for “%s”: %s", retry_for, triage_service_duration_problem (retry_for));
      return NULL;
    }
  if (progress_interval < 1 || progress_interval > 3600)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--progress-interval %d: expected 1 to 3600 seconds", progress_interval);
      return NULL;
    }
  self->progress_interval_s = (guint) progress_interval;

  return g_steal_pointer (&self);
}

typedef struct
{
  GMainLoop       *loop;
  TriageMcpServer *server;
  gboolean         signalled;
} Run;

static void
on_closed (TriageMcpServer *server,
           gpointer         data)
{
  g_main_loop_quit (((Run *) data)->loop);
}

/* The first signal ends the session as standard input closing does; another (an MCP
 * client's SIGTERM after it closed standard input and waited, a second Ctrl-C) ends it
 * at once: what is still owed is left to the next run. */
static gboolean
on_signal (gpointer data)
{
  Run *run = data;

  if (run->signalled || triage_mcp_server_is_closing (run->server))
    triage_mcp_server_close_now (run->server, "the agent's MCP server was stopped");
  else
    triage_mcp_server_close (run->server, "the agent's MCP server was stopped");
  run->signalled = TRUE;
  return G_SOURCE_CONTINUE;
}

int
triage_mcp_main (int    argc,
                 char **argv)
{
  g_autoptr(TriageMcpOptions) options = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpClient) client = NULL;
  g_autoptr(GInputStream) input = NULL;
  g_autoptr(GOutputStream) output = NULL;
  g_auto(GStrv) args = g_new0 (char *, argc + 1);
  Run run = { 0 };
  guint sigint_id;
  guint sigterm_id;
  guint sighup_id;

  triage_service_hold_standard_fds ();

  /* Standard output is the JSON-RPC stream and nothing else: GLib prints debug
   * and info lines there when G_MESSAGES_DEBUG is set (GIO's GSocketClient
   * among them), which the MCP client would read as broken messages. */
  g_log_writer_default_set_use_stderr (TRUE);

  for (int i = 0; i < argc; i++)
    args[i] = g_strdup (argv[i]);

  options = triage_mcp_options_parse (&args, &error);
  if (options == NULL)
    {
      fprintf (stderr, "triage-mcp: %s\n", error->message);
      return 2;
    }

  /* The session's peer is a pipe: a client gone mid-write is an error to handle,
   * not a signal that kills the program before it withdraws anything. */
  signal (SIGPIPE, SIG_IGN);

  /* Over the local socket each call asks as the service its MCP client names
   * (triage_mcp_server_client_for ()), unless --service gave one; this connection
   * is the pattern, and the one a remote server (which knows the service from the
   * key) is asked through. */
  client = triage_service_connect (options->server_url, options->socket_path,
                                   options->service_id ? options->service_id : "triage-mcp",
                                   options->service_name, &error);
  if (client == NULL)
    {
      fprintf (stderr, "triage-mcp: %s\n", error->message);
      return 2;
    }

  run.loop = g_main_loop_new (NULL, FALSE);
  run.server = triage_mcp_server_new (client, options->service_id, options->service_name,
                                      options->retry_for_us, options->progress_interval_s);
  g_signal_connect (run.server, "closed", G_CALLBACK (on_closed), &run);
  sigint_id = g_unix_signal_add (SIGINT, on_signal, &run);
  sigterm_id = g_unix_signal_add (SIGTERM, on_signal, &run);
  /* The terminal of the client closed (it started us in its process group). */
  sighup_id = triage_service_add_sighup (on_signal, &run);

  input = g_unix_input_stream_new (STDIN_FILENO, FALSE);
  output = g_unix_output_stream_new (STDOUT_FILENO, FALSE);
  triage_mcp_server_start (run.server, input, output);
  g_main_loop_run (run.loop);

  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);
  g_clear_handle_id (&sighup_id, g_source_remove);
  g_clear_object (&run.server);
  /* Let cancelled calls finish so nothing is left for the leak checker. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_main_loop_unref (run.loop);

  return 0;
}
