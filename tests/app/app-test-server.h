/* app-test-server.h — a real triage-server in local mode for the app's C tests
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The app always talks to a local server through $XDG_RUNTIME_DIR/triage/
 * triage.sock, so these tests point XDG_RUNTIME_DIR (and the other XDG
 * folders) at a temporary tree before anything reads them, start
 * `triage-server --local` there, and speak REST to it over the socket as a
 * service (trusted socket: the X-Triage-Service header names the service).
 */

#pragma once

#include <gio/gunixsocketaddress.h>
#include <libsoup/soup.h>
#include <signal.h>
#include <sys/prctl.h>

#include "app-test-common.h"

typedef struct
{
  char        *root;
  char        *runtime;
  char        *socket_path;
  char        *database;
  GSubprocess *process;
  SoupSession *session;
} AppTestServer;

/* Call first thing in main(): GLib caches the XDG folders on first use. */
static inline char *
app_test_private_world (void)
{
  g_autoptr(GError) error = NULL;
  char *root = g_dir_make_tmp ("triage-app-test-XXXXXX", &error);
  g_autofree char *runtime = NULL;
  g_autofree char *data = NULL;
  g_autofree char *config = NULL;
  g_autofree char *state = NULL;

  g_assert_no_error (error);
  runtime = g_build_filename (root, "runtime", NULL);
  data = g_build_filename (root, "data", NULL);
  config = g_build_filename (root, "config", NULL);
  state = g_build_filename (root, "state", NULL);   /* a started server's log */
  g_mkdir_with_parents (runtime, 0700);
  g_mkdir_with_parents (data, 0700);
  g_mkdir_with_parents (config, 0700);
  g_setenv ("XDG_RUNTIME_DIR", runtime, TRUE);
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_setenv ("XDG_STATE_HOME", state, TRUE);

  return root;
}

static inline gboolean
app_test_socket_answers (const char *path)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketAddress) address = g_unix_socket_address_new (path);
  g_autoptr(GSocketConnection) connection = NULL;

  connection = g_socket_client_connect (client, G_SOCKET_CONNECTABLE (address), NULL, NULL);
  return connection != NULL;
}

/* The server dies with the test: a test that aborts must not leave it holding
 * the test's stderr open (meson would wait for it until the timeout). */
static inline void
app_test_die_with_parent (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static inline void
app_test_server_start (AppTestServer *server)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
  g_autoptr(GError) error = NULL;
  const char *program = g_getenv ("TRIAGE_SERVER");
  gint64 end;

  g_assert_nonnull (program);
  if (server->socket_path == NULL)
    {
      server->runtime = g_strdup (g_get_user_runtime_dir ());
      server->socket_path = g_build_filename (server->runtime, "triage", "triage.sock", NULL);
      server->database = g_build_filename (g_get_user_data_dir (), "server.db", NULL);
    }

  g_subprocess_launcher_set_child_setup (launcher, app_test_die_with_parent, NULL, NULL);
  server->process = g_subprocess_launcher_spawn (launcher, &error, program,
                                                 "--local", "--database", server->database,
                                                 "--heartbeat-interval", "2", NULL);
  g_assert_no_error (error);

  end = g_get_monotonic_time () + APP_TEST_WAIT_MS * 1000;
  while (!app_test_socket_answers (server->socket_path))
    {
      if (g_get_monotonic_time () > end || g_subprocess_get_identifier (server->process) == NULL)
        g_error ("triage-server did not answer on %s", server->socket_path);
      g_usleep (20000);
    }

  if (server->session == NULL)
    {
      g_autoptr(GSocketAddress) address = g_unix_socket_address_new (server->socket_path);

      server->session = soup_session_new_with_options ("remote-connectable", address, NULL);
    }
}

static inline void
app_test_server_stop (AppTestServer *server,
                      gboolean       kill_it)
{
  if (server->process == NULL)
    return;

  if (kill_it)
    g_subprocess_force_exit (server->process);
  else
    g_subprocess_send_signal (server->process, SIGTERM);
  g_subprocess_wait (server->process, NULL, NULL);
  g_clear_object (&server->process);
}

static inline void
app_test_server_free (AppTestServer *server)
{
  app_test_server_stop (server, FALSE);
  g_clear_object (&server->session);
  g_free (server->runtime);
  g_free (server->socket_path);
  g_free (server->database);
  g_free (server);
}

/* One REST call as the service "tests"; returns the parsed body (or NULL), sets *status. */
static inline JsonNode *
app_test_server_call (AppTestServer *server,
                      const char    *method,
                      const char    *path,
                      const char    *body,
                      guint         *status)
{
  g_autofree char *url = g_strconcat ("http://localhost", path, NULL);
  g_autoptr(SoupMessage) message = soup_message_new (method, url);
  g_autoptr(GBytes) reply = NULL;
  g_autoptr(GError) error = NULL;
  gsize size;
  const char *data;

  soup_message_headers_replace (soup_message_get_request_headers (message),
                                "X-Triage-Service", "tests");
  soup_message_headers_replace (soup_message_get_request_headers (message),
                                "X-Triage-Service-Name", "Test Bot");
  if (body != NULL)
    soup_message_set_request_body_from_bytes (message, "application/json",
                                              g_bytes_new (body, strlen (body)));

  /* A blocking call in a test is fine: the app under test runs on the same
   * main context only between these calls. */
  reply = soup_session_send_and_read (server->session, message, NULL, &error);
  g_assert_no_error (error);
  *status = soup_message_get_status (message);

  data = g_bytes_get_data (reply, &size);
  if (size == 0)
    return NULL;

  return atp_json_parse (data, size, 0, NULL);
}

/* Posts a request with @actions (a JSON array) and a deadline @deadline_in
 * seconds from now (0: none); returns its id. */
static inline char *
app_test_server_post_full (AppTestServer *server,
                           const char    *title,
                           const char    *actions,
                           int            deadline_in)
{
  g_autofree char *id = g_uuid_string_random ();
  g_autofree char *body = NULL;
  g_autofree char *deadline = NULL;
  g_autoptr(JsonNode) reply = NULL;
  guint status = 0;

  if (deadline_in != 0)
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
      g_autoptr(GDateTime) then = g_date_time_add_seconds (now, deadline_in);
      g_autofree char *text = atp_format_timestamp (then);

      deadline = g_strdup_printf (" \"deadline\": \"%s\",", text);
    }

  body = g_strdup_printf ("{\"id\": \"%s\",%s \"context\": {\"title\": \"%s\","
                          " \"description\": \"A test request.\"}, \"actions\": %s}",
                          id, deadline ? deadline : "", title, actions);
  reply = app_test_server_call (server, "POST", "/api/v1/notifications", body, &status);
  g_assert_cmpuint (status, ==, 201);

  return g_steal_pointer (&id);
}

static inline char *
app_test_server_post (AppTestServer *server,
                      const char    *title,
                      const char    *actions)
{
  return app_test_server_post_full (server, title, actions, 0);
}

/* The notification as the service sees it (status, response). */
static inline JsonObject *
app_test_server_get (AppTestServer *server,
                     const char    *id)
{
  g_autofree char *path = g_strconcat ("/api/v1/notifications/", id, NULL);
  g_autoptr(JsonNode) reply = NULL;
  guint status = 0;

  reply = app_test_server_call (server, "GET", path, NULL, &status);
  g_assert_cmpuint (status, ==, 200);
  g_assert_nonnull (reply);

  return json_object_ref (json_node_get_object (reply));
}

static inline gboolean
app_test_server_is_responded (AppTestServer *server,
                              const char    *id)
{
  g_autoptr(JsonObject) notification = app_test_server_get (server, id);

  return g_strcmp0 (json_object_get_string_member_with_default (notification, "status", ""),
                    "responded") == 0;
}
