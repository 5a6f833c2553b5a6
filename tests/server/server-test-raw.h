/* server-test-raw.h — the server tests' connection of their own: a request
 * sent when the test says, its answer read when it says; and the server
 * stopped while requests are sent, so that it reads them in one turn of its
 * main loop (part of server-test-util.h, which includes it)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For a server that listens on a Unix socket (TriageTestServerOptions
 * .unix_socket): a request written there is in the server's socket when the
 * write returns (on TCP, even through loopback, the kernel may hand it on
 * later under load). With the server stopped (srv_pause_server ()), requests
 * sent on connections it has already accepted and served are all read in
 * its next turn, the connection served first read first, however busy the
 * machine: a second request is read while the first one's batch is open.
 */

#pragma once

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <gio/gunixsocketaddress.h>

#include "server-test-util.h"

typedef struct
{
  GSocketConnection *conn;
  GDataInputStream  *in;
} SrvRaw;

static inline void
srv_raw_free (SrvRaw *raw)
{
  g_clear_object (&raw->in);
  g_clear_object (&raw->conn);
  g_free (raw);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SrvRaw, srv_raw_free)

static inline SrvRaw *
srv_raw_open (TriageTestServer *server)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketAddress) address =
    g_unix_socket_address_new (triage_test_server_get_socket_path (server));
  g_autoptr(GError) error = NULL;
  SrvRaw *raw = g_new0 (SrvRaw, 1);

  raw->conn = g_socket_client_connect (client, G_SOCKET_CONNECTABLE (address), NULL, &error);
  g_assert_no_error (error);
  /* A read that never ends fails the test instead of hanging it. */
  g_socket_set_timeout (g_socket_connection_get_socket (raw->conn), TRIAGE_TEST_WATCHDOG_S);
  raw->in = g_data_input_stream_new (g_io_stream_get_input_stream (G_IO_STREAM (raw->conn)));
  g_data_input_stream_set_newline_type (raw->in, G_DATA_STREAM_NEWLINE_TYPE_CR_LF);
  return raw;
}

static inline void
srv_raw_send (SrvRaw     *raw,
              const char *method,
              const char *path,
              const char *token,
              const char *body)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *request = g_strdup_printf ("%s %s HTTP/1.1\r\nHost: localhost\r\n"
                                              "Authorization: Bearer %s\r\n"
                                              "Content-Type: application/json\r\n"
                                              "Content-Length: %zu\r\n\r\n%s",
                                              method, path, token, body ? strlen (body) : 0,
                                              body ? body : "");
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (raw->conn));

  g_output_stream_write_all (out, request, strlen (request), NULL, NULL, &error);
  g_assert_no_error (error);
}

/* The next answer on @raw: its status and body. */
static inline SrvAnswer *
srv_raw_read (SrvRaw *raw)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *status_line = NULL;
  SrvAnswer *answer = g_new0 (SrvAnswer, 1);
  gssize length = -1;
  gsize got = 0;

  status_line = g_data_input_stream_read_line (raw->in, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (status_line);
  g_assert_true (g_str_has_prefix (status_line, "HTTP/1.1 "));
  answer->status = (guint) g_ascii_strtoull (status_line + strlen ("HTTP/1.1 "), NULL, 10);
  answer->headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_RESPONSE);
  for (;;)
    {
      g_autofree char *line = g_data_input_stream_read_line (raw->in, NULL, NULL, &error);
      char *colon;

      g_assert_no_error (error);
      g_assert_nonnull (line);
      if (*line == '\0')
        break;
      colon = strchr (line, ':');
      g_assert_nonnull (colon);
      *colon = '\0';
      soup_message_headers_append (answer->headers, line, g_strstrip (colon + 1));
    }
  length = soup_message_headers_get_content_length (answer->headers);
  g_assert_cmpint (soup_message_headers_get_encoding (answer->headers), ==,
                   SOUP_ENCODING_CONTENT_LENGTH);
  answer->body = g_malloc0 (length + 1);
  g_input_stream_read_all (G_INPUT_STREAM (raw->in), answer->body, length, &got, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (got, ==, length);
  return answer;
}

/* A connection the server has accepted and served once (it keeps it open);
 * @token is any valid one. */
static inline SrvRaw *
srv_raw_open_served (TriageTestServer *server,
                     const char       *token)
{
  SrvRaw *raw = srv_raw_open (server);
  g_autoptr(SrvAnswer) answer = NULL;

  srv_raw_send (raw, "GET", "/healthz", token, NULL);
  answer = srv_raw_read (raw);
  srv_assert_status (answer, 200, NULL);
  return raw;
}

/* Returns once the server is stopped (SIGSTOP): what is sent now is read in
 * one turn of its main loop once it goes on (srv_resume_server ()). */
static inline void
srv_pause_server (TriageTestServer *server)
{
  GPid pid = triage_test_server_get_pid (server);
  siginfo_t info = { 0 };

  g_assert_cmpint (kill (pid, SIGSTOP), ==, 0);
  /* Its stop is left to be reported (WNOWAIT), as its exit would be. */
  while (waitid (P_PID, (id_t) pid, &info, WSTOPPED | WEXITED | WNOWAIT) != 0)
    g_assert_cmpint (errno, ==, EINTR);
  g_assert_cmpint (info.si_code, ==, CLD_STOPPED);
}

static inline void
srv_resume_server (TriageTestServer *server)
{
  g_assert_cmpint (kill (triage_test_server_get_pid (server), SIGCONT), ==, 0);
}
