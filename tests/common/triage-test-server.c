/* triage-test-server.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-test-server"
#define _GNU_SOURCE   /* prlimit () */

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <gio/gunixsocketaddress.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <sqlite3.h>

#include "triage-test-postgres.h"
#include "triage-test-server.h"

struct _TriageTestServer
{
  GSubprocess *process;
  char        *dir;
  char        *database;
  char        *socket_path;
  char        *url;
  char        *admin_token;
  char        *log_file;
  GStrv        extra_args;
  GStrv        environment;
  gboolean     unix_socket;
  gboolean     tls;
  gboolean     bulk;
  guint        port;
  SoupSession *session;
};

/* The test certificate of tests/server/tls (self-signed, localhost,
 * 127.0.0.1, ::1 and triage.localhost, valid for a century; its key is
 * public and for tests only). */
static char *
tls_file (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "server", "tls", name, NULL);
}

/* The server dies with its test: a test that aborts must not leave it holding
 * the test's stderr open, or meson waits for it until the timeout. */
void
triage_test_die_with_parent (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static gboolean
start_process (TriageTestServer *self,
               GError          **error)
{
  const char *binary = g_getenv ("TRIAGE_SERVER");
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GDataInputStream) input = NULL;
  g_autofree char *line = NULL;

  if (binary == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "TRIAGE_SERVER is not set in the environment");
      return FALSE;
    }
  g_ptr_array_add (argv, g_strdup (binary));
  g_ptr_array_add (argv, g_strdup ("--database"));
  g_ptr_array_add (argv, g_strdup (self->database));
  g_ptr_array_add (argv, g_strdup ("--print-address"));
  if (self->unix_socket)
    {
      g_ptr_array_add (argv, g_strdup ("--socket"));
      g_ptr_array_add (argv, g_strdup (self->socket_path));
    }
  else
    {
      g_ptr_array_add (argv, g_strdup ("--listen"));
      g_ptr_array_add (argv, g_strdup_printf ("127.0.0.1:%u", self->port));
    }
  if (self->tls)
    {
      g_ptr_array_add (argv, g_strdup ("--tls-certificate"));
      g_ptr_array_add (argv, tls_file ("cert.pem"));
      g_ptr_array_add (argv, g_strdup ("--tls-key"));
      g_ptr_array_add (argv, tls_file ("key.pem"));
    }
  for (guint i = 0; self->extra_args != NULL && self->extra_args[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup (self->extra_args[i]));
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_subprocess_launcher_set_child_setup (launcher, triage_test_die_with_parent, NULL, NULL);
  if (self->log_file != NULL)
    g_subprocess_launcher_set_stderr_file_path (launcher, self->log_file);
  if (g_getenv ("ASAN_OPTIONS") != NULL)
    {
      /* tests/lsan.supp names libsoup's own leaks by function, which needs
       * whole stacks: the fast unwinder stops at libglib (no frame pointers).
       * The slow one makes every allocation cost some 30 µs, though, and a
       * server that takes thousands of requests minutes; such a server keeps
       * the fast stacks and leaves the leak check to the other tests. The
       * slow one's cost is by the frame: 12 reach the suppressed functions
       * (g_socket_accept is the 10th) and took a server test's CPU from 6.4
       * to 4.7 s, against the default 30. */
      g_autofree char *options = g_strconcat (g_getenv ("ASAN_OPTIONS"),
                                              self->bulk ? ":detect_leaks=0"
                                                         : ":fast_unwind_on_malloc=0"
                                                           ":malloc_context_size=12",
                                              NULL);

      g_subprocess_launcher_setenv (launcher, "ASAN_OPTIONS", options, TRUE);
    }
  for (guint i = 0; self->environment != NULL && self->environment[i] != NULL; i++)
    {
      g_auto(GStrv) pair = g_strsplit (self->environment[i], "=", 2);

      g_assert_nonnull (pair[1]);
      g_subprocess_launcher_setenv (launcher, pair[0], pair[1], TRUE);
    }
  g_subprocess_launcher_setenv (launcher, "TRIAGE_ADMIN_TOKEN", self->admin_token, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_RUNTIME_DIR", self->dir, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", self->dir, TRUE);
  self->process = g_subprocess_launcher_spawnv (launcher,
                                                (const char * const *) argv->pdata,
                                                error);
  if (self->process == NULL)
    return FALSE;

  input = g_data_input_stream_new (g_subprocess_get_stdout_pipe (self->process));
  line = g_data_input_stream_read_line (input, NULL, NULL, error);
  if (line == NULL)
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                     "triage-server exited before printing its address");
      g_subprocess_force_exit (self->process);
      g_subprocess_wait (self->process, NULL, NULL);
      g_clear_object (&self->process);
      return FALSE;
    }
  if (g_str_has_prefix (line, "listening on unix:"))
    {
      g_clear_pointer (&self->url, g_free);
      self->url = g_strdup ("http://localhost");
    }
  else if (g_str_has_prefix (line, "listening on http"))
    {
      const char *url = line + strlen ("listening on ");
      const char *colon = strrchr (url, ':');

      g_clear_pointer (&self->url, g_free);
      self->url = g_strdup (url);
      self->port = colon ? (guint) g_ascii_strtoull (colon + 1, NULL, 10) : 0;
    }
  else
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "unexpected line from triage-server: %s", line);
      g_subprocess_force_exit (self->process);
      g_subprocess_wait (self->process, NULL, NULL);
      g_clear_object (&self->process);
      return FALSE;
    }

  /* Many connections at once: every open event stream holds one. */
  g_clear_object (&self->session);
  if (self->unix_socket)
    {
      g_autoptr(GSocketAddress) address = g_unix_socket_address_new (self->socket_path);

      self->session = soup_session_new_with_options ("timeout", 30, "max-conns", 256,
                                                     "max-conns-per-host", 128,
                                                     "remote-connectable", address, NULL);
    }
  else
    self->session = soup_session_new_with_options ("timeout", 30, "max-conns", 256,
                                                   "max-conns-per-host", 128, NULL);
  if (self->tls)
    {
      g_autoptr(GTlsDatabase) trusted = triage_test_server_new_tls_database (error);

      if (trusted == NULL)
        return FALSE;
      soup_session_set_tls_database (self->session, trusted);
    }
  return TRUE;
}

static TriageTestServer *
server_new (const TriageTestServerOptions *opts,
            const char                    *admin_token,
            GError                       **error)
{
  g_autoptr(TriageTestServer) self = g_new0 (TriageTestServer, 1);

  self->dir = g_dir_make_tmp ("triage-test-server-XXXXXX", error);
  if (self->dir == NULL)
    return NULL;
  if (opts != NULL && opts->database != NULL)
    self->database = g_strdup (opts->database);
  else if (triage_test_postgres_wanted ())
    self->database = triage_test_postgres_new_database (error);
  else
    self->database = g_build_filename (self->dir, "server.db", NULL);
  if (self->database == NULL)
    return NULL;
  self->socket_path = g_build_filename (self->dir, "triage.sock", NULL);
  if (admin_token != NULL)
    self->admin_token = g_strdup (admin_token);
  else
    {
      guint8 random[16];
      GString *token = g_string_new ("adm_");

      for (guint i = 0; i < G_N_ELEMENTS (random); i++)
        {
          random[i] = (guint8) g_random_int_range (0, 256);
          g_string_append_printf (token, "%02x", random[i]);
        }
      self->admin_token = g_string_free (token, FALSE);
    }
  if (opts != NULL)
    {
      self->unix_socket = opts->unix_socket;
      self->tls = opts->tls;
      self->bulk = opts->bulk;
      self->log_file = g_strdup (opts->log_file);
      self->extra_args = g_strdupv ((char **) opts->extra_args);
      self->environment = g_strdupv ((char **) opts->environment);
    }
  if (!start_process (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

TriageTestServer *
triage_test_server_new (const TriageTestServerOptions *opts,
                        GError                       **error)
{
  return server_new (opts, NULL, error);
}

/* Another server on @other's database (a PostgreSQL one, for several
 * servers at once), with the same admin token; @opts->database is ignored. */
TriageTestServer *
triage_test_server_new_peer (TriageTestServer              *other,
                             const TriageTestServerOptions *opts,
                             GError                       **error)
{
  TriageTestServerOptions peer = { 0 };

  if (opts != NULL)
    peer = *opts;
  peer.database = other->database;
  return server_new (&peer, other->admin_token, error);
}

static gboolean
wait_process (TriageTestServer *self)
{
  gboolean ok;

  if (self->process == NULL)
    return TRUE;
  g_subprocess_wait (self->process, NULL, NULL);
  ok = g_subprocess_get_if_exited (self->process) &&
       g_subprocess_get_exit_status (self->process) == 0;
  g_clear_object (&self->process);
  g_clear_object (&self->session);
  return ok;
}

/* SIGTERM and wait; TRUE if the server exited cleanly with status 0. */
gboolean
triage_test_server_stop (TriageTestServer *self)
{
  if (self->process == NULL)
    return TRUE;
  g_subprocess_send_signal (self->process, SIGTERM);
  g_subprocess_wait (self->process, NULL, NULL);
  if (g_subprocess_get_if_signaled (self->process))
    g_test_message ("triage-server ended by signal %d", g_subprocess_get_term_sig (self->process));
  else if (g_subprocess_get_exit_status (self->process) != 0)
    g_test_message ("triage-server exited with status %d", g_subprocess_get_exit_status (self->process));
  return wait_process (self);
}

void
triage_test_server_kill (TriageTestServer *self)
{
  if (self->process == NULL)
    return;
  g_subprocess_force_exit (self->process);
  wait_process (self);
}

gboolean
triage_test_server_restart (TriageTestServer *self,
                            GError          **error)
{
  triage_test_server_stop (self);
  return start_process (self, error);
}

/* A database that trusts the test certificate (and nothing else), for
 * clients of a server started with the tls option. */
GTlsDatabase *
triage_test_server_new_tls_database (GError **error)
{
  g_autofree char *cert = tls_file ("cert.pem");

  return g_tls_file_database_new (cert, error);
}

/* The session the helper talks to the server with (its socket or TLS set up);
 * NULL while the server is stopped. */
SoupSession *
triage_test_server_get_session (TriageTestServer *self)
{
  return self->session;
}

const char *
triage_test_server_get_url (TriageTestServer *self)
{
  return self->url;
}

const char *
triage_test_server_get_socket_path (TriageTestServer *self)
{
  return self->unix_socket ? self->socket_path : NULL;
}

const char *
triage_test_server_get_admin_token (TriageTestServer *self)
{
  return self->admin_token;
}

const char *
triage_test_server_get_database (TriageTestServer *self)
{
  return self->database;
}

gboolean
triage_test_server_is_postgres (TriageTestServer *self)
{
  return g_str_has_prefix (self->database, "postgresql://");
}

static int
add_row_text (void  *data,
              int    columns,
              char **values,
              char **names)
{
  GString *rows = data;

  for (int i = 0; i < columns; i++)
    g_string_append_printf (rows, "%s%s", i ? "|" : "", values[i] ? values[i] : "NULL");
  g_string_append_c (rows, '\n');
  return 0;
}

/* Runs @sql on the server's database (running or not) and returns the rows
 * it gave, a line each, columns separated by '|' (NULL as NULL). Write SQL
 * both backends read alike (no booleans: SQLite has 1, PostgreSQL t). */
char *
triage_test_server_run_sql (TriageTestServer *self,
                            const char       *sql,
                            GError          **error)
{
  sqlite3 *db = NULL;
  char *message = NULL;
  GString *rows;

  if (triage_test_server_is_postgres (self))
    return triage_test_postgres_run_sql (self->database, sql, error);
  if (sqlite3_open (self->database, &db) != SQLITE_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot open %s: %s", self->database,
                   sqlite3_errmsg (db));
      sqlite3_close (db);
      return NULL;
    }
  sqlite3_busy_timeout (db, 5000);
  rows = g_string_new (NULL);
  if (sqlite3_exec (db, sql, add_row_text, rows, &message) != SQLITE_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", sql, message);
      sqlite3_free (message);
      g_string_free (rows, TRUE);
      rows = NULL;
    }
  sqlite3_close (db);
  return rows ? g_string_free (rows, FALSE) : NULL;
}

/* The running server's process id, 0 when it is not running. */
GPid
triage_test_server_get_pid (TriageTestServer *self)
{
  const char *id = self->process ? g_subprocess_get_identifier (self->process) : NULL;

  return id ? (GPid) g_ascii_strtoll (id, NULL, 10) : 0;
}

/* The running server's largest file (its soft RLIMIT_FSIZE; the hard one
 * stays, so that the soft one can go back): 0 makes every write of its
 * database fail with EFBIG (the server ignores SIGXFSZ); G_MAXUINT64 is no
 * limit. */
void
triage_test_server_set_file_size_limit (TriageTestServer *self,
                                        guint64           limit)
{
  GPid pid = triage_test_server_get_pid (self);
  struct rlimit value;

  g_assert_cmpint (pid, >, 0);
  if (prlimit (pid, RLIMIT_FSIZE, NULL, &value) != 0)
    g_error ("prlimit: %s", g_strerror (errno));
  value.rlim_cur = MIN ((rlim_t) limit, value.rlim_max);
  if (prlimit (pid, RLIMIT_FSIZE, &value, NULL) != 0)
    g_error ("prlimit: %s", g_strerror (errno));
}

gboolean
triage_test_http (TriageTestServer *self,
                  const char       *method,
                  const char       *path,
                  const char       *token,
                  const char       *body,
                  guint            *status,
                  char            **body_out,
                  GError          **error)
{
  g_autofree char *uri = g_strconcat (self->url, path, NULL);
  g_autoptr(SoupMessage) msg = soup_message_new (method, uri);
  g_autoptr(GBytes) bytes = NULL;

  if (msg == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "invalid URI %s", uri);
      return FALSE;
    }
  if (self->session == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED, "server is not running");
      return FALSE;
    }
  if (token != NULL)
    {
      g_autofree char *auth = g_strconcat ("Bearer ", token, NULL);

      soup_message_headers_replace (soup_message_get_request_headers (msg),
                                    "Authorization", auth);
    }
  if (body != NULL)
    {
      g_autoptr(GBytes) request = g_bytes_new (body, strlen (body));

      soup_message_set_request_body_from_bytes (msg, "application/json", request);
    }
  bytes = soup_session_send_and_read (self->session, msg, NULL, error);
  if (bytes == NULL)
    return FALSE;
  if (status != NULL)
    *status = soup_message_get_status (msg);
  if (body_out != NULL)
    *body_out = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  return TRUE;
}

static char *
member_string (JsonObject *object,
               const char *name)
{
  if (object == NULL || !json_object_has_member (object, name) ||
      json_object_get_string_member (object, name) == NULL)
    return NULL;
  return g_strdup (json_object_get_string_member (object, name));
}

static JsonObject *
post_admin (TriageTestServer *self,
            const char       *path,
            const char       *body,
            GError          **error)
{
  g_autofree char *answer = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  guint status = 0;
  JsonNode *root;

  if (!triage_test_http (self, "POST", path, self->admin_token, body, &status, &answer, error))
    return NULL;
  if (status != 201)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "POST %s answered %u: %s", path, status, answer);
      return NULL;
    }
  if (!json_parser_load_from_data (parser, answer, -1, error))
    return NULL;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "POST %s answered a non-object", path);
      return NULL;
    }
  return json_object_ref (json_node_get_object (root));
}

gboolean
triage_test_server_create_user (TriageTestServer *self,
                                const char       *id,
                                char            **token,
                                GError          **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *body = NULL;
  g_autoptr(JsonObject) answer = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, id);
  json_builder_end_object (builder);
  node = json_builder_get_root (builder);
  body = json_to_string (node, FALSE);
  answer = post_admin (self, "/api/v1/admin/users", body, error);
  if (answer == NULL)
    return FALSE;
  if (token != NULL)
    *token = member_string (answer, "token");
  return TRUE;
}

gboolean
triage_test_server_create_service (TriageTestServer   *self,
                                   const char         *name,
                                   const char * const *recipients,
                                   const char         *callback_url,
                                   char              **service_id,
                                   char              **api_key,
                                   char              **webhook_secret,
                                   GError            **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *body = NULL;
  g_autoptr(JsonObject) answer = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, name);
  json_builder_set_member_name (builder, "description");
  json_builder_add_string_value (builder, name);
  if (callback_url != NULL)
    {
      json_builder_set_member_name (builder, "callback_url");
      json_builder_add_string_value (builder, callback_url);
    }
  if (recipients != NULL)
    {
      json_builder_set_member_name (builder, "recipients");
      json_builder_begin_array (builder);
      for (guint i = 0; recipients[i] != NULL; i++)
        json_builder_add_string_value (builder, recipients[i]);
      json_builder_end_array (builder);
    }
  json_builder_end_object (builder);
  node = json_builder_get_root (builder);
  body = json_to_string (node, FALSE);
  answer = post_admin (self, "/api/v1/services", body, error);
  if (answer == NULL)
    return FALSE;
  if (service_id != NULL)
    *service_id = member_string (answer, "service_id");
  if (api_key != NULL)
    *api_key = member_string (answer, "api_key");
  if (webhook_secret != NULL)
    *webhook_secret = member_string (answer, "webhook_secret");
  return TRUE;
}

void
triage_test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        triage_test_remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

void
triage_test_server_free (TriageTestServer *self)
{
  if (self == NULL)
    return;
  triage_test_server_stop (self);
  g_clear_object (&self->session);
  if (self->dir != NULL)
    triage_test_remove_tree (self->dir);
  g_free (self->dir);
  g_free (self->database);
  g_free (self->socket_path);
  g_free (self->url);
  g_free (self->admin_token);
  g_free (self->log_file);
  g_strfreev (self->extra_args);
  g_strfreev (self->environment);
  g_free (self);
}

GSubprocess *
triage_test_spawn_peer (const char         *script,
                        const char * const *args,
                        char              **url)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, script, NULL);
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GDataInputStream) input = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;

  g_ptr_array_add (argv, "/usr/bin/python3");
  g_ptr_array_add (argv, path);
  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_subprocess_launcher_set_child_setup (launcher, triage_test_die_with_parent, NULL, NULL);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  input = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  line = g_data_input_stream_read_line (input, NULL, NULL, &error);
  g_assert_no_error (error);
  if (line == NULL || !g_str_has_prefix (line, "listening on "))
    g_error ("%s did not say where it listens: %s", script, line ? line : "(nothing)");
  *url = g_strdup (line + strlen ("listening on "));
  return g_steal_pointer (&process);
}

gboolean
triage_test_watchdog_cb (gpointer what)
{
  g_printerr ("watchdog: gave up waiting for %s\n", (const char *) what);
  g_test_fail ();
  abort ();
  return G_SOURCE_REMOVE;
}

static void
set_true (gpointer data)
{
  *(gboolean *) data = TRUE;
}

/* Runs the main context for @ms. */
void
triage_test_sleep (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add_once (ms, set_true, &done);
  triage_test_wait_until (done, "a pause");
}
