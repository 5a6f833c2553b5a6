/* triage-server.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-server"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <string.h>
#include <gio/gunixsocketaddress.h>
#include <libsoup/soup.h>

#include "triage-server-private.h"
#include "triage-server.h"

/* The shortest admin token taken: 16 characters of base64 are 96 bits, of
 * hex 64, beyond guessing at the rate wrong tokens are let through (10 an
 * hour an address); "admin" or a word is found by the first tries. */
#define ADMIN_TOKEN_MIN_LENGTH 16

/* Whether some user other than @st's owner (and root) can reach @file
 * (already stat()ed into @st) through the folders of its path: not when a
 * folder on the way belongs to its owner or root and lets neither group nor
 * others in (a test's temporary folder, /etc/triage made 0700 as the README
 * says, systemd's credentials folder). A second name elsewhere may be
 * anywhere. */
static gboolean
reachable_by_others (const char     *file,
                     const GStatBuf *st)
{
  g_autofree char *real = realpath (file, NULL);
  g_autofree char *folder = NULL;

  if (real == NULL || st->st_nlink > 1)
    return TRUE;
  folder = g_path_get_dirname (real);
  for (;;)
    {
      g_autofree char *parent = NULL;
      GStatBuf dir;

      if (g_stat (folder, &dir) == 0 && (dir.st_uid == st->st_uid || dir.st_uid == 0) &&
          (dir.st_mode & (S_IXGRP | S_IXOTH)) == 0)
        return FALSE;
      parent = g_path_get_dirname (folder);
      if (strcmp (parent, folder) == 0)
        return TRUE;
      g_free (folder);
      folder = g_steal_pointer (&parent);
    }
}

/* NULL when @file, a secret (@what names it), is its owner's alone; else
 * why not, and the chmod that mends it. As ssh has it for a private key,
 * no one but its owner may read or write a secret file of the server's own
 * user; one of another owner (root's, handed to the server's group, as
 * Debian's ssl-cert group has TLS keys) may be read by its group too. A
 * pipe or a terminal (--admin-token-file /dev/stdin) keeps nothing. */
static char *
secret_file_exposure (const char *file,
                      const char *what)
{
  GStatBuf st;
  gboolean ours;
  mode_t loose;

  if (g_stat (file, &st) != 0 || !S_ISREG (st.st_mode))
    return NULL;
  ours = st.st_uid == geteuid ();
  /* Read and write: an execute bit lets no one see or change it. */
  loose = st.st_mode & (ours ? (S_IRGRP | S_IWGRP | S_IROTH | S_IWOTH)
                             : (S_IWGRP | S_IROTH | S_IWOTH));
  if (loose == 0 || !reachable_by_others (file, &st))
    return NULL;
  if (ours)
    return g_strdup_printf ("the %s file %s (mode %04o) can be %s by other users; make it "
                            "yours alone: chmod 600 %s", what, file, st.st_mode & 07777,
                            loose & (S_IRGRP | S_IROTH) ? "read" : "changed", file);
  return g_strdup_printf ("the %s file %s (mode %04o, owner uid %u) can be %s by other users; "
                          "give it to this server's user (chown %u %s; chmod 600 %s), or let "
                          "only a group of this user's in (chgrp GROUP %s; chmod 640 %s)",
                          what, file, st.st_mode & 07777, (guint) st.st_uid,
                          loose & (S_IRGRP | S_IROTH) ? "read" : "changed", (guint) geteuid (),
                          file, file, file, file);
}

/* A secret file is a line: more than this is the wrong file (or an endless
 * one, /dev/zero), not read to the end. */
#define SECRET_FILE_MAX 4096

/* The contents of @file, without surrounding blanks; @what names it in
 * errors. A secret anyone may read is not used (see above). */
static char *
read_secret_file (const char *file,
                  const char *what,
                  GError    **error)
{
  g_autofree char *contents = NULL;
  g_autofree char *exposure = secret_file_exposure (file, what);
  g_autoptr(GFile) handle = g_file_new_for_path (file);
  g_autoptr(GFileInputStream) in = NULL;
  char buffer[SECRET_FILE_MAX + 1];
  gsize got = 0;

  if (exposure != NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED, exposure);
      return NULL;
    }
  in = g_file_read (handle, NULL, error);
  if (in == NULL ||
      !g_input_stream_read_all (G_INPUT_STREAM (in), buffer, sizeof buffer, &got, NULL, error))
    return NULL;
  if (got > SECRET_FILE_MAX || memchr (buffer, '\0', got) != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "the %s file %s is not one line of text (%s)", what, file,
                   got > SECRET_FILE_MAX ? "over 4 KiB" : "it holds a NUL byte");
      explicit_bzero (buffer, sizeof buffer);
      return NULL;
    }
  contents = g_strndup (buffer, got);
  explicit_bzero (buffer, sizeof buffer);
  g_strstrip (contents);
  if (*contents == '\0')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "the %s file %s is empty", what, file);
      return NULL;
    }
  return g_steal_pointer (&contents);
}

/* The admin token of --admin-token-file, or of TRIAGE_ADMIN_TOKEN (NULL
 * when neither gives one). It is the key to every user and service: one
 * that can be guessed, or that no client can send, is refused at start,
 * whatever the listener (a loopback one is what a TLS proxy forwards to). */
static char *
read_admin_token (const char *file,
                  GError    **error)
{
  g_autofree char *token = NULL;
  g_autofree char *source = NULL;
  gsize length;

  if (file == NULL)
    {
      token = g_strdup (g_getenv ("TRIAGE_ADMIN_TOKEN"));
      if (token == NULL || *token == '\0')
        return NULL;
      source = g_strdup ("of TRIAGE_ADMIN_TOKEN");
    }
  else
    {
      if ((token = read_secret_file (file, "admin token", error)) == NULL)
        return NULL;
      source = g_strdup_printf ("in %s", file);
    }
  length = strlen (token);
  for (gsize i = 0; i < length; i++)
    if (token[i] <= ' ' || token[i] >= 0x7f)
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     "the admin token %s holds a space, line break, control or non-ASCII "
                     "character (at character %" G_GSIZE_FORMAT "), which clients cannot send "
                     "as a bearer token: use printable ASCII only, e.g. head -c 32 /dev/urandom "
                     "| base64", source, i + 1);
        return NULL;
      }
  if (length < ADMIN_TOKEN_MIN_LENGTH)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "the admin token %s is %" G_GSIZE_FORMAT " characters long, too easy to "
                   "guess: it needs at least %d, e.g. head -c 32 /dev/urandom | base64",
                   source, length, ADMIN_TOKEN_MIN_LENGTH);
      return NULL;
    }
  return g_steal_pointer (&token);
}

/* Every stream is a descriptor: a server for a team needs more than the usual
 * soft limit of 1,024, and the hard limit is ours to take. */
static void
raise_file_limit (void)
{
  struct rlimit files;

  if (getrlimit (RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max)
    {
      files.rlim_cur = files.rlim_max;
      setrlimit (RLIMIT_NOFILE, &files);
    }
}

typedef struct
{
  guint   pending;
  GError *server_error;
  GError *client_error;
} TlsCheck;

static gboolean
on_check_accept_certificate (GTlsConnection       *connection,
                             GTlsCertificate      *peer,
                             GTlsCertificateFlags  errors,
                             gpointer              data)
{
  return TRUE;   /* whether clients trust it is theirs to say; only the key is checked */
}

static void
check_handshake_cb (GObject      *source,
                    GAsyncResult *result,
                    gpointer      data)
{
  TlsCheck *check = data;

  g_tls_connection_handshake_finish (G_TLS_CONNECTION (source), result,
                                     G_IS_TLS_SERVER_CONNECTION (source) ? &check->server_error
                                                                         : &check->client_error);
  check->pending--;
}

static gboolean
check_timed_out (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

/* One TLS handshake with ourselves, over a socket pair: glib-networking
 * loads a key that is not the certificate's without a word, and then every
 * client's handshake failed while the server ran, said it listened on
 * https:// and logged nothing. */
static gboolean
check_tls_pair (GTlsCertificate  *certificate,
                GError          **error)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GSocket) server_end = NULL, client_end = NULL;
  g_autoptr(GIOStream) server_plain = NULL, client_plain = NULL, server = NULL, client = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GSource) timeout = NULL;
  TlsCheck check = { 2, NULL, NULL };
  int fds[2];

  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), "socketpair: %s",
                   g_strerror (errno));
      return FALSE;
    }
  if ((server_end = g_socket_new_from_fd (fds[0], error)) == NULL)
    {
      close (fds[0]);
      close (fds[1]);
      return FALSE;
    }
  if ((client_end = g_socket_new_from_fd (fds[1], error)) == NULL)
    {
      close (fds[1]);
      return FALSE;
    }
  server_plain = G_IO_STREAM (g_socket_connection_factory_create_connection (server_end));
  client_plain = G_IO_STREAM (g_socket_connection_factory_create_connection (client_end));
  if ((server = g_tls_server_connection_new (server_plain, certificate, error)) == NULL ||
      (client = g_tls_client_connection_new (client_plain, NULL, error)) == NULL)
    return FALSE;
  g_signal_connect (client, "accept-certificate", G_CALLBACK (on_check_accept_certificate), NULL);
  g_main_context_push_thread_default (context);
  timeout = g_timeout_source_new_seconds (10);
  g_source_set_callback (timeout, check_timed_out, cancellable, NULL);
  g_source_attach (timeout, context);
  g_tls_connection_handshake_async (G_TLS_CONNECTION (server), G_PRIORITY_DEFAULT, cancellable,
                                    check_handshake_cb, &check);
  g_tls_connection_handshake_async (G_TLS_CONNECTION (client), G_PRIORITY_DEFAULT, cancellable,
                                    check_handshake_cb, &check);
  while (check.pending > 0)
    {
      g_main_context_iteration (context, TRUE);
      /* One end failed: the other would wait for the peer that gave up. */
      if (check.server_error != NULL || check.client_error != NULL)
        {
          g_cancellable_cancel (cancellable);
          g_socket_shutdown (server_end, TRUE, TRUE, NULL);
          g_socket_shutdown (client_end, TRUE, TRUE, NULL);
        }
    }
  g_source_destroy (timeout);
  g_main_context_pop_thread_default (context);
  if (check.server_error == NULL && check.client_error == NULL)
    return TRUE;
  /* The end that failed says why; the other was cancelled. */
  if (check.client_error == NULL ||
      (g_error_matches (check.client_error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
       check.server_error != NULL))
    g_propagate_error (error, g_steal_pointer (&check.server_error));
  else
    g_propagate_error (error, g_steal_pointer (&check.client_error));
  g_clear_error (&check.client_error);
  g_clear_error (&check.server_error);
  return FALSE;
}

/* SIGTERM/SIGINT: the drain (ops/triage-server-health.c). */
static gboolean
on_signal (gpointer user_data)
{
  triage_server_drain (user_data);
  return G_SOURCE_CONTINUE;
}

/* SIGHUP: the server has nothing to reload (its options are its command
 * line), and a daemon that dies of it (exit 129, no drain, no word in the
 * log) lost the answers in flight when a terminal closed or an operator
 * tried a reload. Said, then drained as for SIGTERM. */
static gboolean
on_hangup (gpointer user_data)
{
  g_message ("SIGHUP: triage-server has no configuration to reload (its options are its "
             "command line); draining as for SIGTERM");
  triage_server_drain (user_data);
  return G_SOURCE_CONTINUE;
}

/* The addresses of @option (--listen, --metrics-listen) HOST:PORT: an IP
 * literal ("[…]" around IPv6) or a host name, resolved now. @loopback says
 * whether every one is loopback. */
static GList *
resolve_listen (const char *option,
                const char *text,
                guint16    *port,
                gboolean   *loopback,
                GError    **error)
{
  g_autoptr(GSocketConnectable) parsed = NULL;
  g_autoptr(GInetAddress) literal = NULL;
  GList *addresses = NULL;
  const char *host;

  parsed = g_network_address_parse (text, 0, error);
  if (parsed == NULL || strrchr (text, ':') == NULL || strrchr (text, ':') < strrchr (text, ']'))
    {
      g_clear_error (error);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%s %s: expected HOST:PORT, e.g. 0.0.0.0:8443 or [::1]:8600", option, text);
      return NULL;
    }
  host = g_network_address_get_hostname (G_NETWORK_ADDRESS (parsed));
  *port = g_network_address_get_port (G_NETWORK_ADDRESS (parsed));
  literal = g_inet_address_new_from_string (host);
  if (literal != NULL)
    addresses = g_list_prepend (NULL, g_steal_pointer (&literal));
  else
    {
      g_autoptr(GError) lookup_error = NULL;

      addresses = g_resolver_lookup_by_name (g_resolver_get_default (), host, NULL, &lookup_error);
      if (addresses == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "%s %s: cannot resolve %s: %s", option, text, host,
                       lookup_error->message);
          return NULL;
        }
    }
  *loopback = TRUE;
  for (GList *l = addresses; l != NULL; l = l->next)
    *loopback = *loopback && g_inet_address_get_is_loopback (l->data);
  return addresses;
}

/* soup_server_listen() leaves GLib's listen backlog of 10: a thousand
 * clients reconnecting at once (a team server after a restart) would see
 * their connections dropped and retried for seconds. */
static GSocket *
listen_on (SoupServer               *server,
           GSocketAddress           *address,
           SoupServerListenOptions   options,
           GError                  **error)
{
  g_autoptr(GSocket) socket = g_socket_new (g_socket_address_get_family (address),
                                            G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_DEFAULT, error);

  if (socket == NULL)
    return NULL;
  g_socket_set_listen_backlog (socket, SOMAXCONN);
  if (!g_socket_bind (socket, address, TRUE, error) ||
      !g_socket_listen (socket, error) ||
      !soup_server_listen_socket (server, socket, options, error))
    return NULL;
  return g_steal_pointer (&socket);
}

/* Listens on every address of --listen; the URL of each listener (with the
 * port the system picked for port 0) goes to @urls. */
static gboolean
listen_tcp (SoupServer *server,
            GList      *addresses,
            guint16     port,
            gboolean    tls,
            GPtrArray  *urls,
            GError    **error)
{
  for (GList *l = addresses; l != NULL; l = l->next)
    {
      g_autoptr(GSocketAddress) address = g_inet_socket_address_new (l->data, port);
      g_autoptr(GSocketAddress) bound = NULL;
      g_autoptr(GSocket) socket = NULL;
      g_autofree char *host = NULL;
      guint16 bound_port;

      if (!(socket = listen_on (server, address, tls ? SOUP_SERVER_LISTEN_HTTPS : 0, error)) ||
          !(bound = g_socket_get_local_address (socket, error)))
        return FALSE;
      host = g_inet_address_to_string (g_inet_socket_address_get_address (G_INET_SOCKET_ADDRESS (bound)));
      bound_port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
      g_ptr_array_add (urls, g_strdup_printf (strchr (host, ':') ? "%s://[%s]:%u" : "%s://%s:%u",
                                              tls ? "https" : "http", host, bound_port));
      /* A free port picked by the system differs per address: one is enough. */
      if (port == 0)
        break;
    }
  return TRUE;
}

int
triage_server_run (int    argc,
                   char **argv)
{
  gboolean local = FALSE, print_address = FALSE, no_limits = FALSE;
  g_autofree char *socket_path = NULL, *listen_address = NULL, *database = NULL;
  g_autofree char *cert = NULL, *key = NULL, *admin_token_file = NULL, *password_file = NULL;
  g_autofree char *password = NULL, *log_format = NULL, *metrics_listen = NULL;
  g_auto(GStrv) limits = NULL;
  int heartbeat = 30, idle = 60, drain_delay = 0, request_timeout = 300, retain = 0;
  GStatBuf socket_stat;
  GOptionEntry entries[] = {
    { "local", 0, 0, G_OPTION_ARG_NONE, &local, "Listen on the local Unix socket", NULL },
    { "socket", 0, 0, G_OPTION_ARG_FILENAME, &socket_path, "Unix socket path", "PATH" },
    { "listen", 0, 0, G_OPTION_ARG_STRING, &listen_address, "TCP address", "HOST:PORT" },
    { "database", 0, 0, G_OPTION_ARG_FILENAME, &database,
      "SQLite database path, or postgresql:// URI", "PATH|URI" },
    { "database-password-file", 0, 0, G_OPTION_ARG_FILENAME, &password_file,
      "PostgreSQL password file", "F" },
    { "tls-certificate", 0, 0, G_OPTION_ARG_FILENAME, &cert, "TLS certificate", "F" },
    { "tls-key", 0, 0, G_OPTION_ARG_FILENAME, &key, "TLS key", "F" },
    { "admin-token-file", 0, 0, G_OPTION_ARG_FILENAME, &admin_token_file, "Admin token file", "F" },
    { "heartbeat-interval", 0, 0, G_OPTION_ARG_INT, &heartbeat, "Heartbeat interval", "S" },
    { "idle-timeout", 0, 0, G_OPTION_ARG_INT, &idle, "Idle timeout", "S" },
    { "request-timeout", 0, 0, G_OPTION_ARG_INT, &request_timeout,
      "Seconds a client has to send a whole request", "S" },
    { "retain", 0, 0, G_OPTION_ARG_INT, &retain,
      "Days a settled request is kept (0 = for ever)", "DAYS" },
    { "limit", 0, 0, G_OPTION_ARG_STRING_ARRAY, &limits, "Rate limit", "NAME=N" },
    { "no-limits", 0, 0, G_OPTION_ARG_NONE, &no_limits, "Disable rate limits", NULL },
    { "drain-delay", 0, 0, G_OPTION_ARG_INT, &drain_delay,
      "Seconds to keep serving after SIGTERM", "S" },
    { "metrics-listen", 0, 0, G_OPTION_ARG_STRING, &metrics_listen,
      "Serve /metrics without a token here", "HOST:PORT" },
    { "log-format", 0, 0, G_OPTION_ARG_STRING, &log_format,
      "Log format: auto, text or json", "FORMAT" },
    { "print-address", 0, 0, G_OPTION_ARG_NONE, &print_address, "Print listening addresses", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- ATP server");
  g_autoptr(GError) error = NULL;
  g_autoptr(SoupServer) server = NULL, metrics_server = NULL;
  g_autolist(GInetAddress) metrics_addresses = NULL;
  guint16 metrics_port = 0;
  g_autoptr(GMainLoop) loop = NULL;
  g_autofree char *admin_token = NULL;
  g_autoptr(GTlsCertificate) certificate = NULL;
  g_autolist(GInetAddress) addresses = NULL;
  guint16 port = 0;
  gboolean loopback = TRUE;
  TriageServer self = { 0 };
  int claim = -1;

  if (argc >= 2 && g_str_equal (argv[1], "backup"))
    return triage_server_backup (argc - 1, argv + 1);
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_summary (context, "A copy of a running server's SQLite database:\n"
                                "  triage-server backup [--database PATH] [--force] DEST");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "triage-server: %s\n", error->message);
      return 2;
    }
  if (argc > 1)
    {
      triage_server_say_unexpected (argv[1]);
      return 2;
    }
  if (!triage_server_setup_log (log_format, &error) ||
      !triage_limits_parse (self.limits, (const char * const *) limits, no_limits, &error))
    {
      fprintf (stderr, "triage-server: %s\n", error->message);
      return 2;
    }
  /* What main.c's start again set (tests/server/test-server-malloc.c). */
  g_debug ("glibc tunables: %s", g_getenv ("GLIBC_TUNABLES"));
  if (drain_delay < 0 || drain_delay > 3600)
    {
      fprintf (stderr, "triage-server: --drain-delay must be between 0 and 3600 seconds\n");
      return 2;
    }
  if (retain < 0 || retain > 36500)
    {
      fprintf (stderr, "triage-server: --retain must be between 0 (keep every request) and 36500 days\n");
      return 2;
    }
  if (heartbeat < 1 || idle < 1)
    {
      fprintf (stderr, "triage-server: --heartbeat-interval and --idle-timeout must be at least 1 second\n");
      return 2;
    }
  if (request_timeout < 1 || request_timeout > 86400)
    {
      fprintf (stderr, "triage-server: --request-timeout must be between 1 and 86400 seconds\n");
      return 2;
    }
  if ((cert == NULL) != (key == NULL))
    {
      fprintf (stderr, "triage-server: --tls-certificate and --tls-key go together\n");
      return 2;
    }
  if (key != NULL)
    {
      g_autofree char *exposure = secret_file_exposure (key, "TLS key");

      /* Said, not refused: keys are often shared between services and
       * kept by tools of their own (certbot, Debian's ssl-cert), and a
       * refusal would stop servers that ran; a stolen key serves only
       * from a place on the network between the clients and the server. */
      if (exposure != NULL)
        g_message ("%s", exposure);
    }
  if (cert != NULL && (certificate = g_tls_certificate_new_from_files (cert, key, &error)) == NULL)
    {
      fprintf (stderr, "triage-server: cannot load the TLS certificate %s with the key %s: %s\n",
               cert, key, error->message);
      return 2;
    }
  if (certificate != NULL && !check_tls_pair (certificate, &error))
    {
      fprintf (stderr, "triage-server: the TLS certificate %s and the key %s do not work together "
               "(is the key the certificate's?): a TLS handshake fails: %s\n", cert, key,
               error->message);
      return 2;
    }
  /* Neither a socket nor an address: a free port on loopback. */
  if (listen_address == NULL && socket_path == NULL && !local)
    listen_address = g_strdup ("127.0.0.1:0");
  if (listen_address != NULL)
    {
      addresses = resolve_listen ("--listen", listen_address, &port, &loopback, &error);
      if (addresses == NULL)
        {
          fprintf (stderr, "triage-server: %s\n", error->message);
          return 2;
        }
      if (!loopback && certificate == NULL)
        {
          fprintf (stderr, "triage-server: --listen %s is not a loopback address: tokens would "
                   "cross the network in the clear; give --tls-certificate and --tls-key "
                   "(or listen on 127.0.0.1 behind a TLS proxy)\n", listen_address);
          return 2;
        }
    }

  /* The metrics' own address: plain HTTP wherever it is (nothing secret). */
  if (metrics_listen != NULL)
    {
      gboolean metrics_loopback;

      metrics_addresses = resolve_listen ("--metrics-listen", metrics_listen, &metrics_port,
                                          &metrics_loopback, &error);
      if (metrics_addresses == NULL)
        {
          fprintf (stderr, "triage-server: %s\n", error->message);
          return 2;
        }
    }

  /* Local mode: the agreed socket, in a folder only this user may enter. */
  if (local && socket_path == NULL)
    {
      g_autofree char *dir = g_build_filename (g_get_user_runtime_dir (), "triage", NULL);

      if (g_mkdir_with_parents (dir, 0700) != 0 || g_chmod (dir, 0700) != 0)
        {
          fprintf (stderr, "triage-server: cannot create %s: %s\n", dir, g_strerror (errno));
          return 1;
        }
      socket_path = g_build_filename (dir, "triage.sock", NULL);
    }

  /* A Unix socket's address holds 107 bytes and a NUL: a longer path was
   * bound cut short, printed whole, and the cut name left behind. */
  if (socket_path != NULL && strlen (socket_path) >= sizeof (((struct sockaddr_un *) NULL)->sun_path))
    {
      fprintf (stderr, "triage-server: --socket %s: the path is %" G_GSIZE_FORMAT " bytes long, "
               "longer than the %" G_GSIZE_FORMAT " a Unix socket's address holds; give a "
               "shorter one\n", socket_path, strlen (socket_path),
               sizeof (((struct sockaddr_un *) NULL)->sun_path) - 1);
      return 2;
    }
  /* Only a socket is ours to replace when we listen: whatever else is there
   * is someone's file (a slip in --socket deleted it). */
  if (socket_path != NULL && g_lstat (socket_path, &socket_stat) == 0 &&
      !S_ISSOCK (socket_stat.st_mode))
    {
      fprintf (stderr, "triage-server: --socket %s: something other than a socket is there; "
               "it is left as it is\n", socket_path);
      return 2;
    }

  if (database == NULL)
    {
      g_autofree char *dir = g_build_filename (g_get_user_data_dir (), "triage", NULL);

      g_mkdir_with_parents (dir, 0700);
      database = g_build_filename (dir, "server.db", NULL);
    }
  admin_token = read_admin_token (admin_token_file, &error);
  if (error != NULL)
    {
      fprintf (stderr, "triage-server: cannot use the admin token: %s\n", error->message);
      return 2;
    }
  if (admin_token != NULL)
    self.admin_hash = triage_hash_token (admin_token);
  if (password_file != NULL && (password = read_secret_file (password_file, "database password",
                                                             &error)) == NULL)
    {
      fprintf (stderr, "triage-server: cannot read the database password: %s\n", error->message);
      return 2;
    }
  /* Before a file of that name is claimed (and made). */
  if (!triage_store_check_name (database, &error))
    {
      fprintf (stderr, "triage-server: %s\n", error->message);
      return 2;
    }
  /* A SQLite file is claimed before it is opened: a refused second server
   * must not migrate the schema under the first (a newer one would). The
   * user's local server is one, whoever started it: at login the app and the
   * user unit each start one, and the second finding the first is no failure
   * (exit 0: no restart loop of the unit, and the app waits for the first's
   * socket, triage-server-launcher.c). */
  if (!triage_store_is_postgres (database) &&
      (claim = triage_server_claim_database (database, socket_path, &error)) < 0)
    {
      fprintf (stderr, "triage-server: %s\n", error->message);
      return local && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS) ? 0 : 1;
    }
  self.store = triage_store_open (database, password, &error);
  if (self.store == NULL)
    {
      fprintf (stderr, "triage-server: %s\n", error->message);
      return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT) ? 2 : 1;
    }
  if (!triage_store_user_exists (self.store, TRIAGE_DEFAULT_USER, NULL))
    triage_store_add_user (self.store, TRIAGE_DEFAULT_USER, "Default user", NULL);
  raise_file_limit ();
  self.heartbeat = heartbeat;
  self.retain_days = retain;
  self.idle = idle;
  self.drain_delay = drain_delay;
  self.request_timeout = request_timeout;
  /* Signals are ours before anyone learns where we listen. */
  loop = g_main_loop_new (NULL, FALSE);
  self.loop = loop;
  g_unix_signal_add (SIGTERM, on_signal, &self);
  g_unix_signal_add (SIGINT, on_signal, &self);
  g_unix_signal_add (SIGHUP, on_hangup, &self);
  server = soup_server_new ("server-header", "triage-server", "tls-certificate", certificate, NULL);
  self.soup = server;
  triage_server_setup_requests (&self);
  triage_server_setup_health (&self);
  triage_server_setup_rest (&self);
  triage_server_setup_streams (&self);
  if (metrics_addresses != NULL)
    metrics_server = soup_server_new ("server-header", "triage-server", NULL);
  triage_server_setup_metrics (&self, metrics_server);
  triage_server_reschedule (&self);

  if (socket_path != NULL)
    {
      g_autoptr(GSocketAddress) address = g_unix_socket_address_new (socket_path);
      g_autoptr(GSocketClient) probe = g_socket_client_new ();
      g_autoptr(GSocketConnection) live = NULL;
      g_autoptr(GSocket) listener = NULL;
      g_autofree char *folder = g_path_get_dirname (socket_path);

      if (g_mkdir_with_parents (folder, 0700) != 0)
        {
          fprintf (stderr, "triage-server: cannot create %s\n", folder);
          g_object_unref (self.store);
          return 1;
        }
      live = g_socket_client_connect (probe, G_SOCKET_CONNECTABLE (address), NULL, NULL);
      if (live != NULL)
        {
          fprintf (stderr, "triage-server: already running: another server answers on %s\n",
                   socket_path);
          g_object_unref (self.store);
          return local ? 0 : 1;
        }
      g_unlink (socket_path);
      listener = listen_on (server, address, 0, &error);
      if (listener == NULL)
        {
          fprintf (stderr, "triage-server: cannot listen on %s: %s\n", socket_path, error->message);
          g_object_unref (self.store);
          return 1;
        }
      g_chmod (socket_path, 0600);
      if (print_address)
        printf ("listening on unix:%s\n", socket_path);
    }
  if (addresses != NULL)
    {
      g_autoptr(GPtrArray) urls = g_ptr_array_new_with_free_func (g_free);

      if (!listen_tcp (server, addresses, port, certificate != NULL, urls, &error))
        {
          fprintf (stderr, "triage-server: cannot listen on %s: %s\n", listen_address, error->message);
          g_object_unref (self.store);
          return 1;
        }
      for (guint i = 0; print_address && i < urls->len; i++)
        printf ("listening on %s\n", (char *) urls->pdata[i]);
    }
  if (metrics_server != NULL)
    {
      g_autoptr(GPtrArray) urls = g_ptr_array_new_with_free_func (g_free);

      if (!listen_tcp (metrics_server, metrics_addresses, metrics_port, FALSE, urls, &error))
        {
          fprintf (stderr, "triage-server: cannot listen on %s: %s\n", metrics_listen,
                   error->message);
          g_object_unref (self.store);
          return 1;
        }
      for (guint i = 0; print_address && i < urls->len; i++)
        printf ("metrics on %s/metrics\n", (char *) urls->pdata[i]);
    }
  fflush (stdout);

  /* Only now that this server is sure to serve (not a second one refused on
   * the same socket) does the queue an earlier run left go out. */
  triage_server_setup_webhooks (&self);
  self.state = TRIAGE_SERVER_READY;
  g_main_loop_run (loop);
  g_clear_handle_id (&self.drain_source, g_source_remove);
  g_clear_handle_id (&self.reading_sweep, g_source_remove);
  triage_server_shutdown_webhooks (&self);
  triage_store_commit (self.store, NULL);
  triage_server_shutdown_streams (&self);
  triage_server_shutdown_rest (&self);
  soup_server_disconnect (server);
  if (metrics_server != NULL)
    soup_server_disconnect (metrics_server);
  g_object_unref (self.store);
  /* Let go of the database once it is closed. */
  if (claim >= 0)
    close (claim);
  g_free (self.admin_hash);
  if (socket_path != NULL)
    g_unlink (socket_path);
  triage_server_log_flush ();
  return 0;
}
