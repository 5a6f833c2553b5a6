/* triage-server.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-server"

#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <string.h>
#include <gio/gunixsocketaddress.h>
#include <libsoup/soup.h>

#include "triage-server-private.h"
#include "triage-server.h"

static char *
read_admin_token (const char *file,
                  GError    **error)
{
  g_autofree char *contents = NULL;

  if (file == NULL)
    return g_strdup (g_getenv ("TRIAGE_ADMIN_TOKEN"));
  if (!g_file_get_contents (file, &contents, NULL, error))
    return NULL;
  g_strstrip (contents);
  if (*contents == '\0')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "the admin token file %s is empty", file);
      return NULL;
    }
  return g_steal_pointer (&contents);
}

const char * const triage_limit_names[TRIAGE_N_LIMITS] = {
  "registrations", "sends", "status-updates", "polling", "responses", "websockets", "sse",
};

const guint triage_limit_defaults[TRIAGE_N_LIMITS] = { 10, 100, 200, 60, 100, 5, 10 };

/* Fills @limits from the defaults, then "NAME=N" overrides; --no-limits wins. */
gboolean
triage_limits_parse (guint               limits[TRIAGE_N_LIMITS],
                     const char * const *specs,
                     gboolean            no_limits,
                     GError            **error)
{
  for (guint i = 0; i < TRIAGE_N_LIMITS; i++)
    limits[i] = no_limits ? 0 : triage_limit_defaults[i];
  for (guint s = 0; specs != NULL && specs[s] != NULL; s++)
    {
      const char *eq = strchr (specs[s], '=');
      guint64 value;
      guint i;

      for (i = 0; i < TRIAGE_N_LIMITS; i++)
        if (eq != NULL && strlen (triage_limit_names[i]) == (gsize) (eq - specs[s]) &&
            strncmp (specs[s], triage_limit_names[i], eq - specs[s]) == 0)
          break;
      if (i == TRIAGE_N_LIMITS)
        {
          g_autofree char *known = g_strjoinv (", ", (char **) triage_limit_names);

          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "unknown limit \"%s\" (expected NAME=N with NAME one of %s)", specs[s], known);
          return FALSE;
        }
      if (!g_ascii_string_to_unsigned (eq + 1, 10, 0, G_MAXUINT, &value, NULL))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "limit %s: \"%s\" is not a whole number (0 = unlimited)",
                       triage_limit_names[i], eq + 1);
          return FALSE;
        }
      if (!no_limits)
        limits[i] = (guint) value;
    }
  return TRUE;
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

static gboolean
quit_now (gpointer user_data)
{
  TriageServer *self = user_data;

  g_main_loop_quit (self->loop);
  return G_SOURCE_REMOVE;
}

/* SIGTERM/SIGINT: streams are told (1001) and given a moment to hear it. */
static gboolean
on_signal (gpointer user_data)
{
  TriageServer *self = user_data;

  triage_server_close_streams (self);
  g_timeout_add (g_hash_table_size (self->streams) > 0 ? 250 : 0, quit_now, self);
  return G_SOURCE_CONTINUE;
}

int
triage_server_run (int    argc,
                   char **argv)
{
  gboolean local = FALSE, print_address = FALSE, no_limits = FALSE;
  g_autofree char *socket_path = NULL, *listen_address = NULL, *database = NULL;
  g_autofree char *cert = NULL, *key = NULL, *admin_token_file = NULL;
  g_auto(GStrv) limits = NULL;
  int heartbeat = 30, idle = 60;
  GOptionEntry entries[] = {
    { "local", 0, 0, G_OPTION_ARG_NONE, &local, "Listen on the local Unix socket", NULL },
    { "socket", 0, 0, G_OPTION_ARG_FILENAME, &socket_path, "Unix socket path", "PATH" },
    { "listen", 0, 0, G_OPTION_ARG_STRING, &listen_address, "TCP address", "HOST:PORT" },
    { "database", 0, 0, G_OPTION_ARG_FILENAME, &database, "Database path", "PATH" },
    { "tls-certificate", 0, 0, G_OPTION_ARG_FILENAME, &cert, "TLS certificate", "F" },
    { "tls-key", 0, 0, G_OPTION_ARG_FILENAME, &key, "TLS key", "F" },
    { "admin-token-file", 0, 0, G_OPTION_ARG_FILENAME, &admin_token_file, "Admin token file", "F" },
    { "heartbeat-interval", 0, 0, G_OPTION_ARG_INT, &heartbeat, "Heartbeat interval", "S" },
    { "idle-timeout", 0, 0, G_OPTION_ARG_INT, &idle, "Idle timeout", "S" },
    { "limit", 0, 0, G_OPTION_ARG_STRING_ARRAY, &limits, "Rate limit", "NAME=N" },
    { "no-limits", 0, 0, G_OPTION_ARG_NONE, &no_limits, "Disable rate limits", NULL },
    { "print-address", 0, 0, G_OPTION_ARG_NONE, &print_address, "Print listening addresses", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- ATP server");
  g_autoptr(GError) error = NULL;
  g_autoptr(SoupServer) server = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GSList) uris = NULL;
  g_autofree char *admin_token = NULL;
  TriageServer self = { 0 };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "triage-server: %s\n", error->message);
      return 2;
    }
  if (!triage_limits_parse (self.limits, (const char * const *) limits, no_limits, &error))
    {
      fprintf (stderr, "triage-server: %s\n", error->message);
      return 2;
    }
  if (heartbeat < 1 || idle < 1)
    {
      fprintf (stderr, "triage-server: --heartbeat-interval and --idle-timeout must be at least 1 second\n");
      return 2;
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

  if (database == NULL)
    {
      g_autofree char *dir = g_build_filename (g_get_user_data_dir (), "triage", NULL);

      g_mkdir_with_parents (dir, 0700);
      database = g_build_filename (dir, "server.db", NULL);
    }
  admin_token = read_admin_token (admin_token_file, &error);
  if (admin_token_file != NULL && admin_token == NULL)
    {
      fprintf (stderr, "triage-server: cannot read the admin token: %s\n", error->message);
      return 2;
    }
  if (admin_token != NULL && *admin_token != '\0')
    self.admin_hash = triage_hash_token (admin_token);
  self.store = triage_store_open (database, &error);
  if (self.store == NULL)
    {
      fprintf (stderr, "triage-server: %s\n", error->message);
      return 1;
    }
  if (!triage_store_user_exists (self.store, TRIAGE_DEFAULT_USER))
    triage_store_add_user (self.store, TRIAGE_DEFAULT_USER, "Default user", NULL);
  raise_file_limit ();
  self.heartbeat = heartbeat;
  self.idle = idle;
  server = soup_server_new ("server-header", "triage-server", NULL);
  self.soup = server;
  triage_server_setup_rest (&self);
  triage_server_setup_streams (&self);
  triage_server_reschedule (&self);

  if (local && socket_path == NULL)
    socket_path = g_build_filename (g_get_user_runtime_dir (), "triage", "triage.sock", NULL);
  if (socket_path != NULL)
    {
      g_autoptr(GSocketAddress) address = g_unix_socket_address_new (socket_path);
      g_autoptr(GSocketClient) probe = g_socket_client_new ();
      g_autoptr(GSocketConnection) live = NULL;
      g_autofree char *folder = g_path_get_dirname (socket_path);

      if (g_mkdir_with_parents (folder, 0700) != 0)
        {
          fprintf (stderr, "triage-server: cannot create %s\n", folder);
          triage_store_free (self.store);
          return 1;
        }
      live = g_socket_client_connect (probe, G_SOCKET_CONNECTABLE (address), NULL, NULL);
      if (live != NULL)
        {
          fprintf (stderr, "triage-server: already running: another server answers on %s\n",
                   socket_path);
          triage_store_free (self.store);
          return 1;
        }
      g_unlink (socket_path);
      if (!soup_server_listen (server, address, 0, &error))
        {
          fprintf (stderr, "triage-server: cannot listen on %s: %s\n", socket_path, error->message);
          triage_store_free (self.store);
          return 1;
        }
      g_chmod (socket_path, 0600);
      if (print_address)
        printf ("listening on unix:%s\n", socket_path);
    }
  if (listen_address != NULL || (socket_path == NULL && !local))
    {
      const char *colon = listen_address ? strrchr (listen_address, ':') : NULL;
      guint port = colon ? (guint) g_ascii_strtoull (colon + 1, NULL, 10) : 0;

      if (listen_address != NULL && (colon == NULL || (strncmp (listen_address, "127.0.0.1:", 10) != 0 &&
                                               strncmp (listen_address, "localhost:", 10) != 0)))
        {
          fprintf (stderr, "triage-server: only loopback TCP addresses are supported: %s\n", listen_address);
          return 2;
        }
      if (!soup_server_listen_local (server, port, SOUP_SERVER_LISTEN_IPV4_ONLY, &error))
        {
          fprintf (stderr, "triage-server: cannot listen: %s\n", error->message);
          return 1;
        }
      uris = soup_server_get_uris (server);
      for (GSList *l = uris; l != NULL; l = l->next)
        {
          g_autofree char *text = g_uri_to_string (l->data);

          if (print_address && g_str_has_prefix (text, "http://"))
            {
              gsize len = strlen (text);

              if (len > 0 && text[len - 1] == '/')
                text[len - 1] = '\0';
              printf ("listening on %s\n", text);
            }
        }
      g_slist_free_full (g_steal_pointer (&uris), (GDestroyNotify) g_uri_unref);
    }
  fflush (stdout);

  /* Only now that this is the one server on the database does the queue
   * an earlier run left go out. */
  triage_server_setup_webhooks (&self);
  loop = g_main_loop_new (NULL, FALSE);
  self.loop = loop;
  g_unix_signal_add (SIGTERM, on_signal, &self);
  g_unix_signal_add (SIGINT, on_signal, &self);
  g_main_loop_run (loop);
  triage_server_shutdown_webhooks (&self);
  triage_store_commit (self.store, NULL);
  triage_server_shutdown_streams (&self);
  triage_server_shutdown_rest (&self);
  soup_server_disconnect (server);
  triage_store_free (self.store);
  g_free (self.admin_hash);
  if (socket_path != NULL)
    g_unlink (socket_path);
  return 0;
}
