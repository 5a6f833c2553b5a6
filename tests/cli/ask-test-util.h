/* ask-test-util.h — running the built triage-ask against a real triage-server,
 * and the person the tests play
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "atp.h"
#include "atp-client.h"
#include "triage-test-server.h"

#define wait_until triage_test_wait_until
#define sleep_ms   triage_test_sleep

static inline void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* Fixture: a server, a person (user token) and the service key triage-ask uses */

typedef struct
{
  TriageTestServer *server;
  char             *user_token;
  char             *service_key;
  AtpClient        *person;
  AtpClient        *service;
  char             *runtime_dir;   /* local mode: $XDG_RUNTIME_DIR with triage/triage.sock */
} Fixture;

static inline void
fixture_setup_with (Fixture  *fixture,
                    gboolean  local)
{
  TriageTestServerOptions options = { .unix_socket = local };
  const char * const recipients[] = { "alice", NULL };
  g_autoptr(GError) error = NULL;

  fixture->server = triage_test_server_new (&options, &error);
  g_assert_no_error (error);

  if (local)
    {
      g_autofree char *dir = NULL;
      g_autofree char *link = NULL;

      /* The contract path, pointing at the test server's socket. */
      fixture->runtime_dir = g_dir_make_tmp ("triage-ask-runtime-XXXXXX", &error);
      g_assert_no_error (error);
      dir = g_build_filename (fixture->runtime_dir, "triage", NULL);
      g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
      link = g_build_filename (dir, "triage.sock", NULL);
      g_assert_cmpint (symlink (triage_test_server_get_socket_path (fixture->server), link), ==, 0);

      fixture->person = atp_client_new_for_socket (triage_test_server_get_socket_path (fixture->server));
      fixture->service = atp_client_new_for_socket (triage_test_server_get_socket_path (fixture->server));
      atp_client_set_service (fixture->service, "triage-ask", NULL);
      return;
    }

  triage_test_server_create_user (fixture->server, "alice", &fixture->user_token, &error);
  g_assert_no_error (error);
  triage_test_server_create_service (fixture->server, "Scripts", recipients, NULL, NULL,
                                     &fixture->service_key, NULL, &error);
  g_assert_no_error (error);

  fixture->person = atp_client_new (triage_test_server_get_url (fixture->server), &error);
  g_assert_no_error (error);
  atp_client_set_token (fixture->person, fixture->user_token);
  fixture->service = atp_client_new (triage_test_server_get_url (fixture->server), &error);
  g_assert_no_error (error);
  atp_client_set_token (fixture->service, fixture->service_key);
}

static inline void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  fixture_setup_with (fixture, FALSE);
}

static inline void
local_setup (Fixture       *fixture,
             gconstpointer  data)
{
  fixture_setup_with (fixture, TRUE);
}

static inline void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  if (fixture->runtime_dir != NULL)
    {
      g_autofree char *link = g_build_filename (fixture->runtime_dir, "triage", "triage.sock", NULL);
      g_autofree char *dir = g_build_filename (fixture->runtime_dir, "triage", NULL);

      g_unlink (link);
      g_rmdir (dir);
      g_rmdir (fixture->runtime_dir);
      g_free (fixture->runtime_dir);
    }
  g_clear_object (&fixture->person);
  g_clear_object (&fixture->service);
  triage_test_server_free (fixture->server);
  g_free (fixture->user_token);
  g_free (fixture->service_key);
}

/* Running triage-ask */

typedef struct
{
  GSubprocess  *process;
  GAsyncResult *result;
  char         *out;
  char         *err;
  int           status;
  gboolean      unread;   /* ASK_STDOUT_UNREAD */
} Run;

static inline void
run_free (Run *run)
{
  g_clear_object (&run->process);
  g_clear_object (&run->result);
  g_free (run->out);
  g_free (run->err);
  g_free (run);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Run, run_free)

/* Where triage-ask's standard output goes. */
typedef enum
{
  ASK_STDOUT_PIPE,     /* read into Run.out */
  ASK_STDOUT_FULL,     /* /dev/full: every write fails (a full disk) */
  ASK_STDOUT_CLOSED,   /* closed, as by `>&-` */
  ASK_STDOUT_UNREAD,   /* a pipe the test closes (ask_stop_reading ()), then ask_finish () */
} AskStdout;

static inline void
close_stdout_cb (gpointer data)
{
  close (STDOUT_FILENO);
}

/* Starts triage-ask with @args; against the fixture's server unless @args has --server.
 * @wrapper (may be NULL): a command it runs under, as `nohup`. */
static inline Run *
ask_start_full (Fixture            *fixture,
                const char         *wrapper,
                const char * const *args,
                const char         *input,
                const char * const *env,
                AskStdout           out)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *binary = g_getenv ("TRIAGE_ASK");
  g_autofree char *stdin_path = NULL;
  gboolean has_server = FALSE;
  Run *run = g_new0 (Run, 1);
  int stdin_fd;

  g_assert_nonnull (binary);
  if (wrapper != NULL)
    g_ptr_array_add (argv, (gpointer) wrapper);
  g_ptr_array_add (argv, (gpointer) binary);
  for (guint i = 0; args[i] != NULL; i++)
    {
      has_server |= g_str_has_prefix (args[i], "--server");
      g_ptr_array_add (argv, (gpointer) args[i]);
    }
  if (!has_server && fixture != NULL && fixture->runtime_dir == NULL)
    {
      g_ptr_array_add (argv, "--server");
      g_ptr_array_add (argv, (gpointer) triage_test_server_get_url (fixture->server));
    }
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (out == ASK_STDOUT_PIPE || out == ASK_STDOUT_UNREAD
                                        ? G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                          G_SUBPROCESS_FLAGS_STDERR_PIPE
                                        : G_SUBPROCESS_FLAGS_STDERR_PIPE);
  if (out == ASK_STDOUT_FULL)
    g_subprocess_launcher_set_stdout_file_path (launcher, "/dev/full");
  else if (out == ASK_STDOUT_CLOSED)
    g_subprocess_launcher_set_child_setup (launcher, close_stdout_cb, NULL, NULL);
  /* Standard input is a file, not a pipe: a triage-ask that exits before it
   * reads (a usage error) must not make our write fail (EPIPE, or SIGPIPE
   * killing the test), as it did when the exit won the race. */
  stdin_fd = g_file_open_tmp ("triage-test-ask-stdin-XXXXXX", &stdin_path, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (stdin_path, input ? input : "", -1, &error));
  g_assert_no_error (error);
  g_subprocess_launcher_set_stdin_file_path (launcher, stdin_path);
  if (fixture != NULL && fixture->service_key != NULL)
    g_subprocess_launcher_setenv (launcher, "TRIAGE_API_KEY", fixture->service_key, TRUE);
  else
    g_subprocess_launcher_unsetenv (launcher, "TRIAGE_API_KEY");
  if (fixture != NULL && fixture->runtime_dir != NULL)
    g_subprocess_launcher_setenv (launcher, "XDG_RUNTIME_DIR", fixture->runtime_dir, TRUE);
  /* No keyring here: a lookup must fail fast, not wait for a bus. */
  g_subprocess_launcher_setenv (launcher, "DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent", TRUE);
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      g_auto(GStrv) pair = g_strsplit (env[i], "=", 2);

      g_subprocess_launcher_setenv (launcher, pair[0], pair[1], TRUE);
    }

  run->process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_unlink (stdin_path);
  close (stdin_fd);
  run->unread = out == ASK_STDOUT_UNREAD;
  if (run->unread)
    g_subprocess_wait_async (run->process, NULL, result_cb, &run->result);
  else
    g_subprocess_communicate_utf8_async (run->process, NULL, NULL, result_cb, &run->result);

  return run;
}

/* ASK_STDOUT_UNREAD: the reader of triage-ask's standard output goes away. */
static inline void
ask_stop_reading (Run *run)
{
  g_autoptr(GError) error = NULL;

  g_input_stream_close (g_subprocess_get_stdout_pipe (run->process), NULL, &error);
  g_assert_no_error (error);
}

static inline Run *
ask_start_wrapped (Fixture            *fixture,
                   const char         *wrapper,
                   const char * const *args,
                   const char         *input,
                   const char * const *env)
{
  return ask_start_full (fixture, wrapper, args, input, env, ASK_STDOUT_PIPE);
}

static inline Run *
ask_start_env (Fixture            *fixture,
               const char * const *args,
               const char         *input,
               const char * const *env)
{
  return ask_start_wrapped (fixture, NULL, args, input, env);
}

static inline Run *
ask_start (Fixture            *fixture,
           const char * const *args,
           const char         *input)
{
  return ask_start_env (fixture, args, input, NULL);
}

static inline int
ask_finish (Run *run)
{
  g_autoptr(GError) error = NULL;

  wait_until (run->result != NULL, "triage-ask to exit");
  if (run->unread)
    {
      /* It has exited; all it said on standard error is in the pipe. */
      g_autoptr(GString) err = g_string_new (NULL);
      char buffer[4096];
      gssize n;

      g_assert_true (g_subprocess_wait_finish (run->process, run->result, &error));
      while ((n = g_input_stream_read (g_subprocess_get_stderr_pipe (run->process), buffer,
                                       sizeof buffer, NULL, &error)) > 0)
        g_string_append_len (err, buffer, n);
      g_assert_no_error (error);
      run->err = g_string_free (g_steal_pointer (&err), FALSE);
    }
  else
    g_subprocess_communicate_utf8_finish (run->process, run->result, &run->out, &run->err, &error);
  g_assert_no_error (error);
  g_subprocess_wait (run->process, NULL, NULL);

  if (g_subprocess_get_if_exited (run->process))
    run->status = g_subprocess_get_exit_status (run->process);
  else
    run->status = 128 + g_subprocess_get_term_sig (run->process);

  g_test_message ("exit %d; stdout: %s; stderr: %s", run->status, run->out, run->err);
  return run->status;
}

static inline Run *
ask (Fixture            *fixture,
     const char * const *args,
     const char         *input)
{
  Run *run = ask_start (fixture, args, input);

  ask_finish (run);
  return run;
}

/* The person: waits for the request titled @title to reach the inbox. */
static inline AtpNotification *
person_wait_for (Fixture    *fixture,
                 const char *title)
{
  guint watchdog = g_timeout_add_seconds (TRIAGE_TEST_WATCHDOG_S, triage_test_watchdog_cb,
                                         (gpointer) title);

  for (;;)
    {
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GPtrArray) pending = NULL;
      g_autoptr(GError) error = NULL;

      atp_client_list_pending_async (fixture->person, NULL, result_cb, &result);
      wait_until (result != NULL, "the pending list");
      pending = atp_client_list_pending_finish (fixture->person, result, &error);

      for (guint i = 0; pending != NULL && i < pending->len; i++)
        {
          AtpNotification *notification = g_ptr_array_index (pending, i);

          if (g_str_equal (notification->context.title, title))
            {
              g_source_remove (watchdog);
              return atp_notification_ref (notification);
            }
        }
      sleep_ms (50);
    }
}

static inline void
person_answers (Fixture    *fixture,
                const char *id,
                const char *action_id,
                const char *data_json)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(AtpResponse) response = NULL;
  g_autoptr(JsonNode) data = data_json ? json_from_string (data_json, NULL) : NULL;
  g_autoptr(GError) error = NULL;

  atp_client_respond_async (fixture->person, id, action_id, data, NULL, result_cb, &result);
  wait_until (result != NULL, "the answer");
  response = atp_client_respond_finish (fixture->person, result, &error);
  g_assert_no_error (error);
}

static inline JsonObject *
parse_output (const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = json_from_string (text, &error);

  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_object_ref (json_node_get_object (node));
}
