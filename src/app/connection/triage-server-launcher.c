/* triage-server-launcher.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-server-launcher"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <gio/gunixsocketaddress.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "triage-server-launcher.h"

/*
 * Local mode: find the local triage-server (its socket answers) or start it.
 *
 * The server is started as `triage-server --local`, found in $TRIAGE_SERVER
 * (tests, development), next to our own executable (an installed Triage),
 * then on PATH. It keeps running when the app quits: agents on this
 * computer (triage-ask) use the same server.
 *
 * So it is detached from the app's terminal: a session of its own (setsid),
 * so the terminal's Ctrl+C (SIGINT to its foreground process group) and its
 * hangup reach the app alone; standard input from /dev/null; its log (one
 * line a request) not in the person's shell. When the app's standard error
 * is the journal (started from the desktop), the server's is too; otherwise
 * it goes to `$XDG_STATE_HOME/triage/triage-server.log`, begun again at each
 * start.
 *
 * "Answers" means a connect() on the socket succeeds; a stale socket file
 * left by a crashed server refuses the connection, and the new server
 * replaces it.
 */

#define POLL_INTERVAL_MS 50

typedef struct
{
  char        *socket_path;
  char        *log_path;      /* where the started server writes; NULL: the journal */
  GSubprocess *process;
  guint        timeout_id;
  guint        poll_id;
  gboolean     started;
  gboolean     timed_out;
  guint        timeout_ms;
  gboolean     connecting;
} Ensure;

static void
ensure_free (Ensure *ensure)
{
  g_clear_handle_id (&ensure->timeout_id, g_source_remove);
  g_clear_handle_id (&ensure->poll_id, g_source_remove);
  g_clear_object (&ensure->process);
  g_free (ensure->socket_path);
  g_free (ensure->log_path);
  g_free (ensure);
}

/**
 * triage_server_launcher_default_socket:
 *
 * Returns: (transfer full): `$XDG_RUNTIME_DIR/triage/triage.sock`
 */
char *
triage_server_launcher_default_socket (void)
{
  return g_build_filename (g_get_user_runtime_dir (), "triage", "triage.sock", NULL);
}

/**
 * triage_server_launcher_find_program:
 *
 * Returns: (transfer full) (nullable): the triage-server to start
 */
char *
triage_server_launcher_find_program (void)
{
  const char *env = g_getenv ("TRIAGE_SERVER");
  g_autofree char *self_exe = NULL;

  if (env != NULL && *env != '\0' && g_file_test (env, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (env);

  self_exe = g_file_read_link ("/proc/self/exe", NULL);
  if (self_exe != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (self_exe);
      g_autofree char *beside = g_build_filename (dir, "triage-server", NULL);

      if (g_file_test (beside, G_FILE_TEST_IS_EXECUTABLE))
        return g_steal_pointer (&beside);
    }

  return g_find_program_in_path ("triage-server");
}

/**
 * triage_server_launcher_log_path:
 *
 * Returns: (transfer full): where a started server writes its log when the
 *   app's own standard error is not the journal
 */
char *
triage_server_launcher_log_path (void)
{
  return g_build_filename (g_get_user_state_dir (), "triage", "triage-server.log", NULL);
}

static void
detach_child_setup (gpointer user_data)
{
  /* In the child, before exec: async-signal-safe calls only. */
  setsid ();
}

static GSubprocessLauncher *
new_detached_launcher (char   **log_path_out,
                       GError **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autofree char *log_path = NULL;
  g_autofree char *log_dir = NULL;
  int fd, out;

  /* No STDIN_INHERIT: standard input is /dev/null. */
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_subprocess_launcher_set_child_setup (launcher, detach_child_setup, NULL, NULL);

  if (g_log_writer_is_journald (STDERR_FILENO))
    return g_steal_pointer (&launcher);   /* inherited: the server logs to the journal */

  log_path = triage_server_launcher_log_path ();
  log_dir = g_path_get_dirname (log_path);
  if (g_mkdir_with_parents (log_dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Could not create %s for the local server's log: %s"),
                   log_dir, g_strerror (saved_errno));
      return NULL;
    }

  fd = g_open (log_path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Could not open the local server's log %s: %s"),
                   log_path, g_strerror (saved_errno));
      return NULL;
    }

  out = fcntl (fd, F_DUPFD_CLOEXEC, 3);
  if (out < 0)
    {
      int saved_errno = errno;

      close (fd);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Could not open the local server's log %s: %s"),
                   log_path, g_strerror (saved_errno));
      return NULL;
    }
  g_subprocess_launcher_take_stdout_fd (launcher, out);
  g_subprocess_launcher_take_stderr_fd (launcher, fd);
  *log_path_out = g_steal_pointer (&log_path);

  return g_steal_pointer (&launcher);
}

static void try_connect (GTask *task);

static gboolean
poll_cb (gpointer data)
{
  GTask *task = data;
  Ensure *ensure = g_task_get_task_data (task);

  ensure->poll_id = 0;
  try_connect (task);

  return G_SOURCE_REMOVE;
}

static void
start_server (GTask *task)
{
  Ensure *ensure = g_task_get_task_data (task);
  g_autofree char *program = triage_server_launcher_find_program ();
  g_autofree char *default_socket = triage_server_launcher_default_socket ();
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;

  if (program == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s",
                               _("The local server (triage-server) is not installed, "
                                 "and none is running"));
      g_object_unref (task);
      return;
    }

  g_ptr_array_add (argv, program);
  g_ptr_array_add (argv, (char *) "--local");
  if (g_strcmp0 (ensure->socket_path, default_socket) != 0)
    {
      g_ptr_array_add (argv, (char *) "--socket");
      g_ptr_array_add (argv, ensure->socket_path);
    }
  g_ptr_array_add (argv, NULL);

  g_debug ("Starting %s", program);
  launcher = new_detached_launcher (&ensure->log_path, &error);
  if (launcher != NULL)
    ensure->process = g_subprocess_launcher_spawnv (launcher,
                                                    (const char * const *) argv->pdata,
                                                    &error);
  if (ensure->process == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED,
                               _("Could not start the local server: %s"), error->message);
      g_object_unref (task);
      return;
    }

  ensure->started = TRUE;
  ensure->poll_id = g_timeout_add (POLL_INTERVAL_MS, poll_cb, task);
}

static void
connect_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GTask *task = user_data;
  Ensure *ensure = g_task_get_task_data (task);
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GError) error = NULL;

  ensure->connecting = FALSE;
  connection = g_socket_client_connect_finish (G_SOCKET_CLIENT (object), result, &error);

  if (connection != NULL || ensure->timed_out || g_task_get_completed (task) ||
      g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    g_clear_handle_id (&ensure->timeout_id, g_source_remove);

  if (connection != NULL)
    {
      g_io_stream_close_async (G_IO_STREAM (connection), G_PRIORITY_DEFAULT, NULL, NULL, NULL);
      g_task_return_pointer (task, g_strdup (ensure->socket_path), g_free);
      g_object_unref (task);
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    {
      g_object_unref (task);
      return;
    }

  if (ensure->timed_out)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                               g_dngettext (GETTEXT_PACKAGE,
                                            "The local server did not start within %u second",
                                            "The local server did not start within %u seconds",
                                            (ensure->timeout_ms + 999) / 1000),
                               (ensure->timeout_ms + 999) / 1000);
      g_object_unref (task);
      return;
    }

  if (!ensure->started)
    {
      start_server (task);
      return;
    }

  if (ensure->process != NULL && g_subprocess_get_identifier (ensure->process) == NULL)
    {
      int status = g_subprocess_get_if_exited (ensure->process)
                   ? g_subprocess_get_exit_status (ensure->process) : -1;

      /* 0: it found another local server (the user unit's, started at the same
       * login), which holds the database and answers, or soon will, on the
       * socket: wait for that one, within the same timeout. */
      if (status == 0)
        {
          g_debug ("Another local server is running; waiting for its socket");
          g_clear_object (&ensure->process);
          ensure->poll_id = g_timeout_add (POLL_INTERVAL_MS, poll_cb, task);
          return;
        }
      if (ensure->log_path != NULL)
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED,
                                 _("The local server stopped before it was ready "
                                   "(exit status %d); see its messages in %s"),
                                 status, ensure->log_path);
      else
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED,
                                 _("The local server stopped before it was ready "
                                   "(exit status %d); see its messages in the journal"), status);
      g_object_unref (task);
      return;
    }

  ensure->poll_id = g_timeout_add (POLL_INTERVAL_MS, poll_cb, task);
}

static void
try_connect (GTask *task)
{
  Ensure *ensure = g_task_get_task_data (task);
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketAddress) address = g_unix_socket_address_new (ensure->socket_path);

  ensure->connecting = TRUE;
  g_socket_client_connect_async (client, G_SOCKET_CONNECTABLE (address),
                                 g_task_get_cancellable (task), connect_cb, task);
}

static gboolean
timeout_cb (gpointer data)
{
  GTask *task = data;
  Ensure *ensure = g_task_get_task_data (task);

  ensure->timeout_id = 0;
  ensure->timed_out = TRUE;

  /* Between two polls: answer now; during a connect: its callback will. */
  if (!ensure->connecting)
    {
      g_clear_handle_id (&ensure->poll_id, g_source_remove);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                               g_dngettext (GETTEXT_PACKAGE,
                                            "The local server did not start within %u second",
                                            "The local server did not start within %u seconds",
                                            (ensure->timeout_ms + 999) / 1000),
                               (ensure->timeout_ms + 999) / 1000);
      g_object_unref (task);
    }

  return G_SOURCE_REMOVE;
}

/**
 * triage_server_launcher_ensure_async:
 * @socket_path: (nullable): the socket, %NULL for the default one
 * @timeout_ms: how long a started server may take to accept
 * @cancellable: (nullable): a #GCancellable
 * @callback: called once the socket answers, or on failure
 * @user_data: data for @callback
 *
 * Makes sure a local triage-server answers on @socket_path, starting one if
 * none does.
 */
void
triage_server_launcher_ensure_async (const char          *socket_path,
                                     guint                timeout_ms,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  Ensure *ensure = g_new0 (Ensure, 1);

  g_task_set_source_tag (task, triage_server_launcher_ensure_async);
  ensure->socket_path = socket_path ? g_strdup (socket_path)
                                    : triage_server_launcher_default_socket ();
  ensure->timeout_ms = timeout_ms ? timeout_ms : TRIAGE_SERVER_LAUNCHER_DEFAULT_TIMEOUT_MS;
  g_task_set_task_data (task, ensure, (GDestroyNotify) ensure_free);

  ensure->timeout_id = g_timeout_add (ensure->timeout_ms, timeout_cb, task);
  try_connect (task);
}

/**
 * triage_server_launcher_ensure_finish:
 * @result: the result
 * @started: (out) (optional): whether a server was started
 * @error: why no server answers
 *
 * Returns: (transfer full): the socket path that answers
 */
char *
triage_server_launcher_ensure_finish (GAsyncResult  *result,
                                      gboolean      *started,
                                      GError       **error)
{
  Ensure *ensure;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  ensure = g_task_get_task_data (G_TASK (result));
  if (started != NULL)
    *started = ensure->started;

  return g_task_propagate_pointer (G_TASK (result), error);
}
