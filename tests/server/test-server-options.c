/* test-server-options.c — triage-server's rate limits, TLS listener and
 * command line
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-server-options"

#include <glib/gstdio.h>

#include "server-test-util.h"

static TriageTestServer *
start (const char * const *args,
       gboolean            unix_socket,
       gboolean            tls)
{
  TriageTestServerOptions options = { .extra_args = args, .unix_socket = unix_socket, .tls = tls };
  g_autoptr(GError) error = NULL;
  TriageTestServer *server = triage_test_server_new (&options, &error);

  g_assert_no_error (error);
  return server;
}

static char *
create_user (TriageTestServer *server,
             const char       *id)
{
  g_autoptr(GError) error = NULL;
  char *token = NULL;

  triage_test_server_create_user (server, id, &token, &error);
  g_assert_no_error (error);
  return token;
}

static char *
create_service (TriageTestServer   *server,
                const char         *name,
                const char * const *recipients)
{
  g_autoptr(GError) error = NULL;
  char *key = NULL;

  triage_test_server_create_service (server, name, recipients, NULL, NULL, &key, NULL, &error);
  g_assert_no_error (error);
  return key;
}

/* A 429 with the error object, and a Retry-After of whole seconds within (0,
 * @most] that its message gives too. */
static void
assert_limited (SrvAnswer *answer,
                guint      most)
{
  const char *retry = soup_message_headers_get_one (answer->headers, "Retry-After");
  g_autofree char *when = NULL;
  guint64 seconds = 0;

  srv_assert_status (answer, 429, "RATE_LIMIT_EXCEEDED");
  /* RFC 6585's phrase: libsoup 3.2 has none ("429 Unknown Error"). */
  g_assert_cmpstr (answer->reason, ==, "Too Many Requests");
  g_assert_nonnull (retry);
  g_assert_true (g_ascii_string_to_unsigned (retry, 10, 1, most, &seconds, NULL));
  when = g_strdup_printf ("; try again in %s s", retry);
  srv_assert_message (answer, when);
}

static const char *const send_limits[] = { "--limit", "sends=3", "--limit", "status-updates=1", NULL };

/* Sends and status updates are counted per service: a service over its
 * limit is refused, its neighbour is not. */
static void
test_service_limits (void)
{
  g_autoptr(TriageTestServer) server = start (send_limits, FALSE, FALSE);
  const char *const alice_only[] = { "alice", NULL };
  g_autofree char *alice = create_user (server, "alice");
  g_autofree char *busy = create_service (server, "busy-bot", alice_only);
  g_autofree char *quiet = create_service (server, "quiet-bot", alice_only);
  g_autofree char *first = NULL, *path = NULL, *other = NULL;
  g_autoptr(SrvAnswer) over = NULL, neighbour = NULL, patch = NULL, patch_over = NULL;

  first = srv_post (server, busy, "One");
  g_free (srv_post (server, busy, "Two"));
  g_free (srv_post (server, busy, "Three"));
  over = srv_request (server, "POST", "/api/v1/notifications", busy,
                      "{\"context\":{\"title\":\"Four\",\"description\":\"D\"},"
                      "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]}");
  /* 3 a minute: the next one is allowed 20 s after the first. */
  assert_limited (over, 20);
  srv_assert_message (over, "Too many sends by this service: at most 3 a minute");
  other = srv_post (server, quiet, "Not counted against busy-bot");

  path = g_strconcat ("/api/v1/notifications/", first, NULL);
  patch = srv_request (server, "PATCH", path, busy, "{\"status\":\"invalidated\"}");
  srv_assert_status (patch, 200, NULL);
  patch_over = srv_request (server, "PATCH", path, busy, "{\"status\":\"invalidated\"}");
  assert_limited (patch_over, 60);

  /* The refused send was not stored. */
  {
    g_autoptr(SrvAnswer) list = srv_request (server, "GET", "/api/v1/client/notifications", alice, NULL);

    srv_assert_status (list, 200, NULL);
    g_assert_nonnull (strstr (list->body, "\"total_count\":4"));
    g_assert_null (strstr (list->body, "\"Four\""));
  }
}

static const char *const user_limits[] = { "--limit", "polling=2", "--limit", "responses=1", NULL };

/* Reads and responses are counted per user; the pages after the first of a
 * list walk are part of one read. */
static void
test_user_limits (void)
{
  g_autoptr(TriageTestServer) server = start (user_limits, FALSE, FALSE);
  const char *const both[] = { "alice", "bob", NULL };
  g_autofree char *alice = create_user (server, "alice");
  g_autofree char *bob = create_user (server, "bob");
  g_autofree char *key = create_service (server, "bot", both);
  g_autofree char *first = srv_post (server, key, "First");
  g_autofree char *second = srv_post (server, key, "Second");
  g_autofree char *respond_body = NULL, *next_path = NULL;
  g_autoptr(SrvAnswer) page = NULL, next = NULL, third = NULL, bobs = NULL;
  g_autoptr(SrvAnswer) respond_over = NULL;
  g_autoptr(JsonObject) object = NULL;

  page = srv_request (server, "GET", "/api/v1/client/notifications?limit=1", alice, NULL);
  srv_assert_status (page, 200, NULL);
  object = srv_parse_object (page->body);
  next_path = g_strdup_printf ("/api/v1/client/notifications?limit=1&cursor=%s",
                               json_object_get_string_member (json_object_get_object_member (object,
                                                                                             "pagination"),
                                                              "next_cursor"));
  /* One more read is allowed; the continuation does not count. */
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(SrvAnswer) more = srv_request (server, "GET", next_path, alice, NULL);

      srv_assert_status (more, 200, NULL);
    }
  next = srv_request (server, "GET", "/api/v1/client/notifications", alice, NULL);
  srv_assert_status (next, 200, NULL);
  third = srv_request (server, "GET", "/api/v1/client/notifications", alice, NULL);
  assert_limited (third, 30);
  bobs = srv_request (server, "GET", "/api/v1/client/notifications", bob, NULL);
  srv_assert_status (bobs, 200, NULL);

  srv_respond (server, alice, first);
  respond_body = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"ok\"}", second);
  respond_over = srv_request (server, "POST", "/api/v1/client/respond", alice, respond_body);
  assert_limited (respond_over, 60);
  /* Bob's allowance is his own. */
  srv_respond (server, bob, second);
}

static const char *const registration_limits[] = { "--limit", "registrations=2", NULL };

/* Registrations are counted per address once the admin token is right: a
 * flood without it took the administrator's allowance. */
static void
test_registration_limit (void)
{
  g_autoptr(TriageTestServer) server = start (registration_limits, FALSE, FALSE);
  const char *admin = triage_test_server_get_admin_token (server);
  g_autoptr(SrvAnswer) over = NULL;

  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(SrvAnswer) guess = srv_request (server, "POST", "/api/v1/services", NULL,
                                                "{\"name\":\"guess\"}");

      if (i < 2)
        srv_assert_status (guess, 401, "AUTH_INVALID_TOKEN");
      else
        assert_limited (guess, 1800);
    }
  g_free (create_service (server, "one", NULL));
  g_free (create_service (server, "two", NULL));
  over = srv_request (server, "POST", "/api/v1/services", admin, "{\"name\":\"three\"}");
  /* 2 an hour: the next is allowed half an hour after the first. */
  assert_limited (over, 1800);
  srv_assert_message (over, "Too many service registrations from this address: at most 2 an hour");
}

/* Wrong admin tokens are counted per address on every admin endpoint, and
 * refused 429 past the allowance; the right token never is, however many
 * came before it (it was, and the administrator was locked out). */
static void
test_admin_guessing (void)
{
  g_autoptr(TriageTestServer) server = start (registration_limits, FALSE, FALSE);
  const char *admin = triage_test_server_get_admin_token (server);
  g_autoptr(SrvAnswer) first = srv_request (server, "POST", "/api/v1/admin/users", "adm_guess1",
                                            "{\"id\":\"eve\"}");
  g_autoptr(SrvAnswer) second = srv_request (server, "GET", "/metrics", "adm_guess2", NULL);
  g_autoptr(SrvAnswer) third = srv_request (server, "POST", "/api/v1/admin/users", "adm_guess3",
                                            "{\"id\":\"eve\"}");
  g_autoptr(SrvAnswer) right = srv_request (server, "GET", "/metrics", admin, NULL);
  g_autoptr(SrvAnswer) user = srv_request (server, "POST", "/api/v1/admin/users", admin,
                                           "{\"id\":\"eve\"}");
  g_autoptr(SrvAnswer) service = srv_request (server, "POST", "/api/v1/services", admin,
                                              "{\"name\":\"bot\"}");
  g_autoptr(SrvAnswer) still = srv_request (server, "GET", "/metrics", "adm_guess4", NULL);

  srv_assert_status (first, 401, "AUTH_INVALID_TOKEN");
  srv_assert_status (second, 401, "AUTH_INVALID_TOKEN");
  /* 2 an hour: the next is allowed half an hour after the first. */
  assert_limited (third, 1800);
  srv_assert_message (third, "Too many wrong admin tokens from this address: at most 2 an hour");
  srv_assert_status (right, 200, NULL);
  srv_assert_status (user, 201, NULL);
  /* Not counted against the registrations either. */
  srv_assert_status (service, 201, NULL);
  /* The right token took nothing of the guesses' allowance. */
  assert_limited (still, 1800);
}

static const char *const tight_limits[] = { "--limit", "sends=1", "--limit", "polling=1", NULL };

/* The user who owns the local server, on its socket without a token, is not limited. */
static void
test_local_peer_unlimited (void)
{
  g_autoptr(TriageTestServer) server = start (tight_limits, TRUE, FALSE);

  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *id = srv_post (server, NULL, "Local");
      g_autoptr(SrvAnswer) list = srv_request (server, "GET", "/api/v1/client/notifications", NULL,
                                               NULL);

      srv_assert_status (list, 200, NULL);
    }
}

static const char *const no_limits[] = { "--limit", "sends=1", "--no-limits", NULL };

static void
test_no_limits (void)
{
  g_autoptr(TriageTestServer) server = start (no_limits, FALSE, FALSE);
  g_autofree char *key = create_service (server, "bot", NULL);

  for (guint i = 0; i < 5; i++)
    g_free (srv_post (server, key, "Unlimited"));
}

/* ---- TLS ---- */

static void
test_tls (void)
{
  g_autoptr(TriageTestServer) server = start (NULL, FALSE, TRUE);
  const char *const alice_only[] = { "alice", NULL };
  g_autofree char *alice = create_user (server, "alice");
  g_autofree char *key = create_service (server, "bot", alice_only);
  g_autofree char *id = srv_post (server, key, "Over TLS");
  g_autofree char *ws_query = g_strconcat ("?token=", alice, NULL);
  g_autoptr(SrvSocket) sock = NULL;
  g_autoptr(SrvAnswer) list = NULL;
  g_autoptr(SoupSession) untrusting = soup_session_new ();
  g_autoptr(SoupSession) plain = soup_session_new ();
  g_autofree char *plain_url = NULL, *https_url = NULL;
  g_autoptr(SoupMessage) refused = NULL, unencrypted = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_str_has_prefix (triage_test_server_get_url (server), "https://127.0.0.1:"));
  list = srv_request (server, "GET", "/api/v1/client/notifications", alice, NULL);
  srv_assert_status (list, 200, NULL);

  /* wss:// on the same listener. */
  sock = srv_ws_open (server, alice, NULL);
  g_assert_nonnull (sock->ws);
  srv_wait_until (srv_count_frames (sock, "notification", NULL) == 1, "the notification over wss");
  g_clear_pointer (&sock, srv_ws_free);
  sock = srv_ws_open (server, NULL, ws_query);
  g_assert_nonnull (sock->ws);

  /* A client that does not trust the certificate gets no answer... */
  https_url = g_strconcat (triage_test_server_get_url (server), "/api/v1/client/notifications", NULL);
  refused = soup_message_new ("GET", https_url);
  bytes = soup_session_send_and_read (untrusting, refused, NULL, &error);
  g_assert_null (bytes);
  g_assert_error (error, G_TLS_ERROR, G_TLS_ERROR_BAD_CERTIFICATE);
  g_clear_error (&error);

  /* ...nor one that speaks plain HTTP to the TLS port. */
  plain_url = g_strconcat ("http://", triage_test_server_get_url (server) + strlen ("https://"),
                           "/api/v1/client/notifications", NULL);
  unencrypted = soup_message_new ("GET", plain_url);
  bytes = soup_session_send_and_read (plain, unencrypted, NULL, &error);
  g_assert_null (bytes);
  g_assert_nonnull (error);
}

/* ---- the command line ---- */

static void
communicated_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      data)
{
  *(GAsyncResult **) data = g_object_ref (result);
}

/* Runs triage-server with @args; it must refuse them at once with exit
 * status @status and a message on stderr that contains @needle (one that
 * serves instead fails the test at the watchdog, and dies with it). */
static void
assert_refused (const char * const *args,
                int                 status,
                const char         *needle)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *dir = g_dir_make_tmp ("triage-server-args-XXXXXX", NULL);
  g_autofree char *database = g_build_filename (dir, "server.db", NULL);
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;

  g_subprocess_launcher_set_child_setup (launcher, triage_test_die_with_parent, NULL, NULL);
  g_ptr_array_add (argv, (gpointer) g_getenv ("TRIAGE_SERVER"));
  g_ptr_array_add (argv, "--database");
  g_ptr_array_add (argv, database);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8_async (process, NULL, NULL, communicated_cb, &result);
  srv_wait_until (result != NULL, "the server to refuse its arguments and exit");
  g_subprocess_communicate_utf8_finish (process, result, &out, &err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  if (g_subprocess_get_exit_status (process) != status || strstr (err, needle) == NULL)
    g_error ("%s: expected exit %d and \"%s\", got %d: %s", args[0], status, needle,
             g_subprocess_get_exit_status (process), err);
  /* Refused before anything was created. */
  g_assert_false (g_file_test (database, G_FILE_TEST_EXISTS));
  g_rmdir (dir);
}

static void
test_command_line (void)
{
  g_autofree char *cert = g_test_build_filename (G_TEST_DIST, "server", "tls", "cert.pem", NULL);
  g_autofree char *key = g_test_build_filename (G_TEST_DIST, "server", "tls", "key.pem", NULL);
  const char *open_plain[] = { "--listen", "0.0.0.0:0", NULL };
  const char *bad_address[] = { "--listen", "8443", NULL };
  const char *unresolvable[] = { "--listen", "no-such-host.invalid:8443", NULL };
  const char *cert_alone[] = { "--listen", "0.0.0.0:0", "--tls-certificate", cert, NULL };
  const char *key_as_cert[] = { "--listen", "0.0.0.0:0", "--tls-certificate", key, "--tls-key", key, NULL };
  /* A key of its own, not the certificate's: every handshake would fail. */
  g_autofree char *other_key = g_test_build_filename (G_TEST_DIST, "server", "tls", "other-key.pem",
                                                      NULL);
  const char *wrong_key[] = { "--listen", "127.0.0.1:0", "--tls-certificate", cert,
                              "--tls-key", other_key, NULL };
  const char *unknown_limit[] = { "--limit", "hugs=3", NULL };
  const char *bad_number[] = { "--limit", "sends=many", NULL };
  const char *bad_beat[] = { "--heartbeat-interval", "0", NULL };
  const char *bad_retain[] = { "--retain", "-1", NULL };
  const char *unknown[] = { "--frobnicate", NULL };
  const char *extra[] = { "extra-arg", NULL };
  const char *mistyped[] = { "bakup", "x.db", NULL };
  const char *uri_password[] = { "--database", "postgresql://alice:secret@localhost/triage", NULL };
  const char *query_password[] = { "--database", "postgres:///triage?host=/tmp&password=secret", NULL };
  const char *bad_uri[] = { "--database", "postgresql://[::1/triage", NULL };
  const char *no_password_file[] = { "--database", "postgresql:///triage",
                                     "--database-password-file", "/nonexistent/password", NULL };
  g_autofree char *dir = g_dir_make_tmp ("triage-server-password-XXXXXX", NULL);
  g_autofree char *password = g_build_filename (dir, "password", NULL);
  g_autofree char *empty = g_build_filename (dir, "empty", NULL);
  const char *key_value[] = { "--database", "dbname=triage user=triage", NULL };
  const char *socket_key_value[] = { "--database", "host=/run/postgresql dbname=triage", NULL };
  const char *bad_metrics[] = { "--metrics-listen", "0.0.0.0", NULL };
  const char *sqlite_password[] = { "--database-password-file", password, NULL };
  const char *empty_password[] = { "--database", "postgresql:///triage",
                                   "--database-password-file", empty, NULL };

  g_autoptr(GSubprocess) help = NULL;
  g_autofree char *help_text = NULL;
  g_autoptr(GError) error = NULL;

  /* --help names the backup subcommand too. */
  help = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, g_getenv ("TRIAGE_SERVER"),
                           "--help", NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (help, NULL, NULL, &help_text, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_successful (help));
  g_assert_nonnull (strstr (help_text, "triage-server backup [--database PATH] [--force] DEST"));
  g_clear_object (&help);
  g_clear_pointer (&help_text, g_free);

  /* backup --help names the whole command, not "backup" alone. */
  help = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, g_getenv ("TRIAGE_SERVER"),
                           "backup", "--help", NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (help, NULL, NULL, &help_text, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_successful (help));
  g_assert_nonnull (strstr (help_text, "Usage:\n  triage-server backup [OPTION?] DEST"));

  assert_refused (open_plain, 2, "not a loopback address");
  assert_refused (bad_address, 2, "expected HOST:PORT");
  /* Named as given: it said "--metrics-listen: --listen 0.0.0.0". */
  assert_refused (bad_metrics, 2, "triage-server: --metrics-listen 0.0.0.0: expected HOST:PORT");
  assert_refused (unresolvable, 2, "cannot resolve no-such-host.invalid");
  assert_refused (cert_alone, 2, "--tls-certificate and --tls-key go together");
  assert_refused (key_as_cert, 2, "cannot load the TLS certificate");
  assert_refused (wrong_key, 2, "do not work together (is the key the certificate's?)");
  assert_refused (unknown_limit, 2, "unknown limit \"hugs=3\"");
  assert_refused (bad_number, 2, "limit sends: \"many\" is not a whole number");
  assert_refused (bad_beat, 2, "at least 1 second");
  assert_refused (bad_retain, 2, "--retain must be between 0 (keep every request) and 36500 days");
  assert_refused (unknown, 2, "--frobnicate");
  /* Arguments the server takes none of: they started a server. */
  assert_refused (extra, 2, "unexpected argument \"extra-arg\": the server takes options only");
  assert_refused (mistyped, 2, "unexpected argument \"bakup\": did you mean "
                  "\"triage-server backup\"?");

  /* A password never on the command line; a password file is for PostgreSQL. */
  g_assert_true (g_file_set_contents (password, "secret\n", -1, NULL));
  g_assert_true (g_file_set_contents (empty, " \n", -1, NULL));
  assert_refused (uri_password, 2, "the URI holds a password");
  assert_refused (query_password, 2, "the URI holds a password");
  assert_refused (bad_uri, 2, "not a PostgreSQL connection URI");
  assert_refused (no_password_file, 2, "cannot read the database password");
  assert_refused (empty_password, 2, "the database password file");
  assert_refused (sqlite_password, 2, "not for the SQLite file");
  /* libpq's key=value pairs: once a new SQLite file of that name, served. */
  assert_refused (key_value, 2, "is a libpq key=value string, not a SQLite file: give "
                  "PostgreSQL as a URI");
  g_assert_false (g_file_test ("dbname=triage user=triage", G_FILE_TEST_EXISTS));
  assert_refused (socket_key_value, 2, "postgresql:///triage?host=/run/postgresql");
  g_unlink (password);
  g_unlink (empty);
  g_rmdir (dir);
}

/* --socket naming a file that is no socket (a slip of the operator's):
 * refused, and the file left as it was. */
static void
test_socket_not_a_socket (void)
{
  g_autofree char *dir = g_dir_make_tmp ("triage-server-socket-XXXXXX", NULL);
  g_autofree char *file = g_build_filename (dir, "notes.txt", NULL);
  const char *args[] = { "--socket", file, NULL };
  g_autofree char *kept = NULL;

  g_assert_true (g_file_set_contents (file, "mine\n", -1, NULL));
  assert_refused (args, 2, "something other than a socket is there");
  g_assert_true (g_file_get_contents (file, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, "mine\n");
  g_unlink (file);
  g_rmdir (dir);
}

/* A --socket path longer than a Unix socket's address holds (107 bytes):
 * refused naming the limit. It was bound cut short, printed whole, and the
 * cut name left behind. */
static void
test_socket_too_long (void)
{
  g_autofree char *dir = g_dir_make_tmp ("triage-server-socket-XXXXXX", NULL);
  g_autofree char *name = g_strnfill (120, 's');
  g_autofree char *path = g_build_filename (dir, name, NULL);
  const char *args[] = { "--socket", path, NULL };
  g_autoptr(GDir) left = NULL;

  assert_refused (args, 2, "longer than the 107 a Unix socket's address holds");
  /* Nothing bound under a cut name. */
  left = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (left);
  g_assert_null (g_dir_read_name (left));
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/server/limits/service", test_service_limits);
  g_test_add_func ("/server/limits/user", test_user_limits);
  g_test_add_func ("/server/limits/registration", test_registration_limit);
  g_test_add_func ("/server/limits/admin-guessing", test_admin_guessing);
  g_test_add_func ("/server/limits/local-peer", test_local_peer_unlimited);
  g_test_add_func ("/server/limits/none", test_no_limits);
  g_test_add_func ("/server/tls", test_tls);
  g_test_add_func ("/server/command-line", test_command_line);
  g_test_add_func ("/server/socket-not-a-socket", test_socket_not_a_socket);
  g_test_add_func ("/server/socket-too-long", test_socket_too_long);

  return g_test_run ();
}
