/* test-server-connections.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Connections end: a client that sends a request on a kept-alive HTTP/1.1
 * connection and then goes away leaves nothing open in the server (libsoup
 * 3.2 kept each such socket for ever, until accept() failed and a bench's
 * POST waited 60 s for nobody), and a kept-alive connection that stays idle
 * longer than --request-timeout is closed by the server. An event stream
 * its client closes frees its slot of the user's cap at once.
 */

#include <gio/gio.h>

#include "server-test-util.h"

#define CONNECTIONS 200

/* How many files @pid has open now. */
static guint
open_files (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/fd", (int) pid);
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  guint n = 0;

  g_assert_nonnull (dir);
  while (g_dir_read_name (dir) != NULL)
    n++;
  return n;
}

/* @request sent on a new connection of its own, its answer read into
 * @answer until it holds @until. The connection is returned open. */
static GSocketConnection *
send_raw (TriageTestServer *server,
          const char       *request,
          const char       *until,
          GString          *answer)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GError) error = NULL;
  GSocketConnection *connection;
  char buffer[1024];

  connection = g_socket_client_connect_to_uri (client, triage_test_server_get_url (server), 0, NULL,
                                              &error);
  g_assert_no_error (error);
  /* A read that would wait for ever fails instead (the watchdog needs the
   * main loop, and these reads block). */
  g_socket_set_timeout (g_socket_connection_get_socket (connection), TRIAGE_TEST_WATCHDOG_S);
  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (connection)), request,
                             strlen (request), NULL, NULL, &error);
  g_assert_no_error (error);
  while (strstr (answer->str, until) == NULL)
    {
      gssize n = g_input_stream_read (g_io_stream_get_input_stream (G_IO_STREAM (connection)),
                                      buffer, sizeof buffer, NULL, &error);

      g_assert_no_error (error);
      if (n <= 0)
        g_error ("the connection ended before \"%s\": %s", until, answer->str);
      g_string_append_len (answer, buffer, n);
    }
  return connection;
}

/* A GET /healthz on a new connection of its own, kept alive (HTTP/1.1, no
 * Connection: close); the answer read whole. The connection is returned open. */
static GSocketConnection *
ask_health (TriageTestServer *server)
{
  g_autoptr(GString) answer = g_string_new (NULL);
  GSocketConnection *connection = send_raw (server, "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n",
                                            "}", answer);

  g_assert_true (g_str_has_prefix (answer->str, "HTTP/1.1 200"));
  g_assert_null (strstr (answer->str, "Connection: close"));
  return connection;
}

static gboolean
tick (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

static void
test_closed_by_clients (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TriageTestServer) server = triage_test_server_new (NULL, &error);
  GPid pid;
  guint before, ticker;

  g_assert_no_error (error);
  pid = triage_test_server_get_pid (server);
  /* One first, so that whatever the server opens once is open. */
  g_object_unref (ask_health (server));
  before = open_files (pid);
  ticker = g_timeout_add (50, tick, NULL);
  for (guint i = 0; i < CONNECTIONS; i++)
    {
      GSocketConnection *connection = ask_health (server);

      g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
      g_object_unref (connection);
    }
  srv_wait_until (open_files (pid) <= before, "the server to close what its clients closed");
  g_source_remove (ticker);
  /* And it still answers. */
  g_object_unref (ask_health (server));
  g_assert_true (triage_test_server_stop (server));
}

static void
test_idle_closed (void)
{
  const char * const args[] = { "--request-timeout", "1", NULL };
  TriageTestServerOptions options = { .extra_args = args };
  g_autoptr(GError) error = NULL;
  g_autoptr(TriageTestServer) server = triage_test_server_new (&options, &error);
  g_autoptr(GSocketConnection) idle = NULL;
  char byte;
  gssize n;

  g_assert_no_error (error);
  idle = ask_health (server);
  /* Blocks until the server ends it (or the socket's timeout says never). */
  n = g_input_stream_read (g_io_stream_get_input_stream (G_IO_STREAM (idle)), &byte, 1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (n, ==, 0);
  g_assert_true (triage_test_server_stop (server));
}

/* GET /api/v1/client/events as @token on a connection of its own, read up
 * to its first ping (the snapshot is sent): the connection is returned open. */
static GSocketConnection *
open_events (TriageTestServer *server,
             const char       *token)
{
  g_autofree char *request = g_strdup_printf ("GET /api/v1/client/events HTTP/1.1\r\n"
                                              "Host: localhost\r\n"
                                              "Authorization: Bearer %s\r\n\r\n", token);
  g_autoptr(GString) answer = g_string_new (NULL);
  GSocketConnection *connection = send_raw (server, request, "event: ping", answer);

  g_assert_true (g_str_has_prefix (answer->str, "HTTP/1.1 200"));
  return connection;
}

/* The server's count of open event streams, from /metrics. */
static guint64
sse_open (TriageTestServer *server)
{
  return srv_sample (server, "triage_stream_connections{kind=\"sse\"}");
}

/* Event streams their client closed (curl ended, a browser tab gone) stop
 * counting toward the cap of 10 a user at once, not at the next ping: with
 * pings an hour apart, ten streams opened and closed leave room for ten
 * more. They counted until a ping's write failed. */
static void
test_closed_streams_free_the_cap (void)
{
  const char * const args[] = { "--heartbeat-interval", "3600", NULL };
  TriageTestServerOptions options = { .extra_args = args };
  g_autoptr(GError) error = NULL;
  g_autoptr(TriageTestServer) server = triage_test_server_new (&options, &error);
  g_autoptr(GPtrArray) open = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *alice = NULL;
  guint ticker;

  g_assert_no_error (error);
  triage_test_server_create_user (server, "alice", &alice, &error);
  g_assert_no_error (error);
  ticker = g_timeout_add (50, tick, NULL);
  for (guint round = 0; round < 2; round++)
    {
      for (guint i = 0; i < 10; i++)
        g_ptr_array_add (open, open_events (server, alice));
      g_assert_cmpuint (sse_open (server), ==, 10);
      g_ptr_array_set_size (open, 0);
      srv_wait_until (sse_open (server) == 0, "the server to see the closed streams");
    }
  g_source_remove (ticker);
  g_assert_true (triage_test_server_stop (server));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/server/connections/closed-by-clients", test_closed_by_clients);
  g_test_add_func ("/server/connections/idle-closed", test_idle_closed);
  g_test_add_func ("/server/connections/closed-streams", test_closed_streams_free_the_cap);
  return g_test_run ();
}
