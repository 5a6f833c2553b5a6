/* test-server-pg-failover.c — a multi-host PostgreSQL URI is failed over
 * when a host accepts connections and then says nothing
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A server ("far") is given two hosts: first 127.0.0.1 through
 * tests/chaos/partition-proxy.py (triage-test-proxy.c) to the tests'
 * PostgreSQL, then the database's own Unix socket. Stalled, the proxy
 * accepts every connection and passes nothing (a dropped route, a host
 * that hangs): libpq gives that host connect_timeout (2 s here), then
 * connects to the next, and so must the server, whether it starts with the
 * first host silent or the first host goes silent under it. Another server
 * ("near", on the socket) makes the service.
 *
 * A host name may have several addresses, the first of them silent (a
 * dead IPv6 address before a working IPv4 one): libpq gives each address
 * connect_timeout of its own. slow-lookup.c, preloaded into far, resolves
 * LOOKUP_NAME to two addresses where this test listens and never answers,
 * then to the proxy's.
 *
 * Waits are for answers, each bounded.
 */

#define G_LOG_DOMAIN "test-server-pg-failover"

#include <glib/gstdio.h>

#include "atp.h"
#include "pg-uri-test-util.h"
#include "server-test-util.h"
#include "triage-test-postgres.h"
#include "triage-test-proxy.h"

/* The least libpq gives a host. */
#define CONNECT_TIMEOUT_S 2
/* The wait for an answer the server keeps with the operator's
 * statement_timeout of 1 s: a stall is found within 1 + 2 s. */
#define OPERATOR_OPTIONS "-c statement_timeout=1000"
/* A wait on a silent host long enough to tell one from several, whatever
 * the load. */
#define STICKY_TIMEOUT_S 5
/* From the stall to a request stored: each of far's connections passes
 * over the silent host (CONNECT_TIMEOUT_S each), with room for a loaded
 * machine. */
#define RECOVER_S 60
/* The name slow-lookup.c resolves, and to what: two silent listeners of
 * the test, then the proxy (all on the proxy's port). */
#define LOOKUP_NAME "triage-test-database.invalid"
#define SILENT_ADDRESSES { "127.0.0.2", "127.0.0.3" }
#define LOOKUP_ADDRESSES "127.0.0.2,127.0.0.3,127.0.0.1"
/* Each address's connect_timeout there: far's first connection waits
 * about twice that. */
#define ADDRESS_TIMEOUT_S 3
/* The same, where the main loop's wait for a connection is measured: one
 * of it told from two (the old server's wait for two hosts) on a loaded
 * machine. */
#define HELD_TIMEOUT_S 4

typedef struct
{
  TriageTestServer *near;     /* on the database's Unix socket */
  TriageTestServer *far;      /* the proxy first, then the socket */
  TriageTestProxy  *proxy;
  char             *uri;      /* far's */
  char             *key;      /* a service */
  GPtrArray        *silent;   /* GSocket: listeners at SILENT_ADDRESSES, or NULL */
} Failover;

/* Far's URI: 127.0.0.1:@port, then the database's socket, each given
 * @connect_timeout. */
static char *
two_host_uri (Failover *fixture,
              guint     port,
              guint     connect_timeout)
{
  return pg_uri_through (triage_test_server_get_database (fixture->near), "127.0.0.1", port, TRUE,
                         connect_timeout, OPERATOR_OPTIONS);
}

static void
failover_setup (Failover      *fixture,
                gconstpointer  data)
{
  g_autofree char *socket_path = NULL;
  g_autoptr(GError) error = NULL;

  fixture->near = triage_test_server_new (NULL, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_is_postgres (fixture->near));
  socket_path = pg_uri_socket_path (triage_test_server_get_database (fixture->near));
  fixture->proxy = triage_test_proxy_new (socket_path);
  fixture->uri = two_host_uri (fixture, triage_test_proxy_get_port (fixture->proxy),
                               CONNECT_TIMEOUT_S);
  g_test_message ("far's database: %s", fixture->uri);
  triage_test_server_create_service (fixture->near, "failover-bot", NULL, NULL, NULL,
                                     &fixture->key, NULL, &error);
  g_assert_no_error (error);
}

static void
failover_teardown (Failover      *fixture,
                   gconstpointer  data)
{
  if (fixture->far != NULL)
    {
      g_assert_true (triage_test_server_stop (fixture->far));
      triage_test_server_free (fixture->far);
    }
  g_assert_true (triage_test_server_stop (fixture->near));
  triage_test_server_free (fixture->near);
  triage_test_proxy_free (fixture->proxy);
  g_clear_pointer (&fixture->silent, g_ptr_array_unref);
  g_free (fixture->uri);
  g_free (fixture->key);
}

static void
start_far (Failover *fixture)
{
  static const char * const far_args[] = { "--no-limits", NULL };
  TriageTestServerOptions options = { .extra_args = far_args, .database = fixture->uri };
  g_autoptr(GError) error = NULL;

  fixture->far = triage_test_server_new (&options, &error);
  g_assert_no_error (error);
}

/* A request stored on far, by its id: posted again while far answers 503
 * (it has not connected yet), within RECOVER_S. */
static void
post_until_stored (Failover *fixture)
{
  g_autofree char *id = atp_new_uuid ();
  g_autofree char *body = g_strdup_printf ("{\"id\":\"%s\",\"context\":{\"title\":\"Failover\","
                                           "\"description\":\"D\"},\"actions\":[{\"id\":\"ok\","
                                           "\"label\":\"OK\",\"response_type\":\"simple\"}]}", id);
  g_autofree char *sql = g_strdup_printf ("SELECT COUNT (*) FROM notifications WHERE id = '%s'",
                                          id);
  gint64 start = g_get_monotonic_time ();
  gint64 give_up = start + RECOVER_S * G_USEC_PER_SEC;
  g_autofree char *rows = NULL;
  g_autoptr(GError) error = NULL;

  for (;;)
    {
      g_autoptr(SrvAnswer) answer = srv_request (fixture->far, "POST", "/api/v1/notifications",
                                                 fixture->key, body);

      if (answer->status == 201)
        break;
      srv_assert_status (answer, 503, "STORAGE_UNAVAILABLE");
      if (g_get_monotonic_time () >= give_up)
        g_error ("far did not fail over to the second host within %d s", RECOVER_S);
      triage_test_sleep (200);
    }
  g_test_message ("stored in %.1f s", (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC);
  rows = triage_test_server_run_sql (fixture->near, sql, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_ascii_strtoull (rows, NULL, 10), ==, 1);
}

/* The first host is silent from the start: far starts on the second. */
static void
test_silent_at_start (Failover      *fixture,
                      gconstpointer  data)
{
  triage_test_proxy_command (fixture->proxy, "stall");
  start_far (fixture);
  post_until_stored (fixture);
}

/* With the first host silent, far's first connection waits
 * STICKY_TIMEOUT_S on it, then connects to the second, and its other
 * connections go to the second at once: far starts (its six connections
 * made) within three such waits (room for a loaded machine), not six. */
static void
test_silent_passed_once (Failover      *fixture,
                         gconstpointer  data)
{
  gint64 start;
  double took;

  g_free (fixture->uri);
  fixture->uri = two_host_uri (fixture, triage_test_proxy_get_port (fixture->proxy),
                               STICKY_TIMEOUT_S);
  triage_test_proxy_command (fixture->proxy, "stall");
  start = g_get_monotonic_time ();
  start_far (fixture);
  took = (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC;
  g_test_message ("far started in %.1f s", took);
  g_assert_cmpfloat (took, <, 3 * STICKY_TIMEOUT_S);
  post_until_stored (fixture);
}

/* Far works through the first host, which then goes silent (its open
 * connections too): far finds the stall, then connects to the second. */
static void
test_silent_later (Failover      *fixture,
                   gconstpointer  data)
{
  g_autoptr(SrvAnswer) answer = NULL;

  start_far (fixture);
  g_free (srv_post (fixture->far, fixture->key, "Before"));
  triage_test_proxy_command (fixture->proxy, "stall");
  /* Far was on the first host: a stall. */
  answer = srv_request (fixture->far, "POST", "/api/v1/notifications", fixture->key,
                        "{\"context\":{\"title\":\"Stalled\",\"description\":\"D\"},\"actions\":"
                        "[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]}");
  srv_assert_status (answer, 503, "STORAGE_UNAVAILABLE");
  post_until_stored (fixture);
}

#ifndef TRIAGE_TEST_SANITIZED
/* A listener at @address on @port that accepts nothing and says nothing:
 * the kernel takes the connection, libpq waits for its answer. */
static GSocket *
silent_listener (const char *address,
                 guint       port)
{
  g_autoptr(GInetAddress) inet = g_inet_address_new_from_string (address);
  g_autoptr(GSocketAddress) where = g_inet_socket_address_new (inet, (guint16) port);
  g_autoptr(GError) error = NULL;
  GSocket *socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                  G_SOCKET_PROTOCOL_TCP, &error);

  g_assert_no_error (error);
  g_socket_bind (socket, where, FALSE, &error);
  g_assert_no_error (error);
  g_socket_listen (socket, &error);
  g_assert_no_error (error);
  return socket;
}

/* Starts far with slow-lookup.c preloaded, its host LOOKUP_NAME (then the
 * database's socket if @then_socket) given @connect_timeout: LOOKUP_NAME
 * resolves to LOOKUP_ADDRESSES, SILENT_ADDRESSES listened at and never
 * answered, then the proxy. The seconds it took. */
static double
start_far_looking_up (Failover *fixture,
                      gboolean  then_socket,
                      guint     connect_timeout)
{
  const char *silent[] = SILENT_ADDRESSES;
  guint port = triage_test_proxy_get_port (fixture->proxy);
  gint64 start;
  double took;

  fixture->silent = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < G_N_ELEMENTS (silent); i++)
    g_ptr_array_add (fixture->silent, silent_listener (silent[i], port));
  g_free (fixture->uri);
  fixture->uri = pg_uri_through (triage_test_server_get_database (fixture->near), LOOKUP_NAME,
                                 port, then_socket, connect_timeout, OPERATOR_OPTIONS);
  g_test_message ("far's database: %s", fixture->uri);
  /* For far alone (the environment its launcher copies). */
  g_setenv ("LD_PRELOAD", SLOW_LOOKUP_PATH, TRUE);
  g_setenv ("TRIAGE_TEST_LOOKUP_NAME", LOOKUP_NAME, TRUE);
  g_setenv ("TRIAGE_TEST_LOOKUP_ADDRESSES", LOOKUP_ADDRESSES, TRUE);
  start = g_get_monotonic_time ();
  start_far (fixture);
  took = (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC;
  g_unsetenv ("LD_PRELOAD");
  g_unsetenv ("TRIAGE_TEST_LOOKUP_NAME");
  g_unsetenv ("TRIAGE_TEST_LOOKUP_ADDRESSES");
  g_test_message ("far started in %.1f s", took);
  return took;
}

/* Far is given LOOKUP_NAME, whose first two addresses are silent: its
 * first connection passes over both (ADDRESS_TIMEOUT_S each) and reaches
 * the third, so far starts (the old server gave the connection one
 * connect_timeout for its one host and exited), and its other connections
 * try that address first: far's six connections are made within three
 * such waits (room for a loaded machine), not six times two. */
static void
test_silent_addresses (Failover      *fixture,
                       gconstpointer  data)
{
  double took = start_far_looking_up (fixture, FALSE, ADDRESS_TIMEOUT_S);

  g_assert_cmpfloat (took, <, 3 * 2 * ADDRESS_TIMEOUT_S);
  post_until_stored (fixture);
}

/* Far serves on the working address of LOOKUP_NAME (its first host; the
 * database's socket is its second), which then goes silent, its open
 * connections reset: far connects again, and LOOKUP_NAME's three
 * addresses are silent now (HELD_TIMEOUT_S each). The main loop waits for
 * that connection no more than one connect_timeout, then the request that
 * needed it is answered 503 while the same try goes on in the background to
 * the socket: neither that request nor a /healthz after it is held much
 * longer than that (the old server held the main loop for every host, or
 * every address: 8 or 12 s), and a request is stored once the try is
 * done. */
static void
test_silent_addresses_held_once (Failover      *fixture,
                                 gconstpointer  data)
{
  g_autoptr(SrvAnswer) answer = NULL;
  gint64 sent, until;
  double longest;

  start_far_looking_up (fixture, TRUE, HELD_TIMEOUT_S);
  g_free (srv_post (fixture->far, fixture->key, "Before"));
  triage_test_proxy_command (fixture->proxy, "stall");
  triage_test_proxy_command (fixture->proxy, "reset");
  /* The request finds its connection reset and connects again, holding
   * the main loop; then the listener does; /healthz meanwhile. */
  sent = g_get_monotonic_time ();
  answer = srv_request (fixture->far, "POST", "/api/v1/notifications", fixture->key,
                        "{\"context\":{\"title\":\"Reset\",\"description\":\"D\"},"
                        "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":"
                        "\"simple\"}]}");
  longest = (double) (g_get_monotonic_time () - sent) / G_USEC_PER_SEC;
  g_test_message ("the request that connected again answered %u in %.1f s", answer->status,
                  longest);
  srv_assert_status (answer, 503, "STORAGE_UNAVAILABLE");
  until = g_get_monotonic_time () + 3 * HELD_TIMEOUT_S * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < until)
    {
      g_autoptr(SrvAnswer) health = NULL;

      sent = g_get_monotonic_time ();
      health = srv_request (fixture->far, "GET", "/healthz", NULL, NULL);
      g_assert_cmpuint (health->status, ==, 200);
      longest = MAX (longest, (double) (g_get_monotonic_time () - sent) / G_USEC_PER_SEC);
      triage_test_sleep (50);
    }
  g_test_message ("the main loop was held %.1f s at most", longest);
  /* One wait and what a loaded machine adds to it, short of the old two
   * (two silent addresses): 8 s. */
  g_assert_cmpfloat (longest, <, 1.9 * HELD_TIMEOUT_S);
  post_until_stored (fixture);
}
#else
static void
test_silent_addresses (Failover      *fixture,
                       gconstpointer  data)
{
  g_test_skip ("slow-lookup.c is not preloaded into a server built with sanitizers (their "
               "runtime must come first)");
}

static void
test_silent_addresses_held_once (Failover      *fixture,
                                 gconstpointer  data)
{
  test_silent_addresses (fixture, data);
}
#endif

/* Far's hosts are in a libpq service file (PGSERVICEFILE), which the
 * server does not read: the proxy, stalled, twice (two silent hosts), then
 * the database's socket. At start the server waits for its connection as
 * long as libpq takes (connect_timeout for each host), however many hosts
 * that file lists: far starts (the old server counted one host, waited
 * CONNECT_TIMEOUT_S, and exited). It learns the list from that connection,
 * so its other connections go to the socket first: far's six connections
 * are made within three waits of its first (room for a loaded machine),
 * not six. */
static void
test_service_file_hosts (Failover      *fixture,
                         gconstpointer  data)
{
  g_autofree char *dir = NULL, *file = NULL, *service = NULL, *options = NULL;
  g_autoptr(GError) error = NULL;
  guint port = triage_test_proxy_get_port (fixture->proxy);
  PgUriParts parts = { NULL };
  gint64 start;
  double took;

  pg_uri_parts (triage_test_server_get_database (fixture->near), &parts);
  options = g_strjoin (" ", parts.options, OPERATOR_OPTIONS, NULL);
  service = g_strdup_printf ("[far]\nhost=127.0.0.1,127.0.0.1,%s\nport=%u,%u,%s\n"
                             "dbname=%s\nuser=%s\noptions=%s\n", parts.dir, port, port,
                             parts.port, parts.dbname, parts.user, options);
  pg_uri_parts_clear (&parts);
  dir = g_dir_make_tmp ("triage-test-pg-failover-XXXXXX", &error);
  g_assert_no_error (error);
  file = g_build_filename (dir, "pg_service.conf", NULL);
  g_assert_true (g_file_set_contents (file, service, -1, NULL));
  g_test_message ("far's service file:\n%s", service);
  g_free (fixture->uri);
  fixture->uri = g_strdup_printf ("postgresql://?service=far&connect_timeout=%d",
                                  CONNECT_TIMEOUT_S);
  triage_test_proxy_command (fixture->proxy, "stall");
  /* For far alone (the environment its launcher copies). */
  g_setenv ("PGSERVICEFILE", file, TRUE);
  start = g_get_monotonic_time ();
  start_far (fixture);
  took = (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC;
  g_unsetenv ("PGSERVICEFILE");
  g_test_message ("far started in %.1f s", took);
  g_assert_cmpfloat (took, <, 3 * 2 * CONNECT_TIMEOUT_S);
  post_until_stored (fixture);
  g_unlink (file);
  g_rmdir (dir);
}

/* triage-server with @uri, PGCONNECT_TIMEOUT set to @env (unless NULL):
 * refused at start (exit status @status) with @message. */
static void
assert_refused (const char *uri,
                const char *env,
                int         status,
                const char *message)
{
  const char *argv[] = { g_getenv ("TRIAGE_SERVER"), "--database", uri, NULL };
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) server = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (argv[0]);
  if (env != NULL)
    g_subprocess_launcher_setenv (launcher, "PGCONNECT_TIMEOUT", env, TRUE);
  else
    g_subprocess_launcher_unsetenv (launcher, "PGCONNECT_TIMEOUT");
  server = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (server, NULL, NULL, NULL, &err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (server));
  g_assert_cmpint (g_subprocess_get_exit_status (server), ==, status);
  if (strstr (err, message) == NULL)
    g_error ("expected “%s” from triage-server, got: %s", message, err);
}

/* libpq is given the server's connect_timeout, so the server itself
 * refuses one that is not a number (the URI's, else PGCONNECT_TIMEOUT),
 * naming it. */
static void
test_bad_connect_timeout (void)
{
  assert_refused ("postgresql:///triage?host=/nonexistent&connect_timeout=2s", NULL, 2,
                  "--database: connect_timeout “2s” is not a whole number of seconds");
  assert_refused ("postgresql:///triage?host=/nonexistent", "ten", 2,
                  "PGCONNECT_TIMEOUT “ten” is not a whole number of seconds");
}

/* The server gives libpq the addresses of the host names it looked up
 * (and the names): libpq's message then quotes only an address, so the
 * server names its host, as libpq does for a name it looked up itself.
 * (Port 1 of 127.0.0.1 refuses.) */
static void
test_refused_named (void)
{
  assert_refused ("postgresql://localhost:1/triage?connect_timeout=2", NULL, 1,
                  "connection to server at \"localhost\" (");
}

int
main (int   argc,
      char *argv[])
{
  triage_test_postgres_init (&argc, &argv, "a multi-host PostgreSQL URI");
  g_test_add ("/server/pg-failover/silent-at-start", Failover, NULL, failover_setup,
              test_silent_at_start, failover_teardown);
  g_test_add ("/server/pg-failover/silent-later", Failover, NULL, failover_setup,
              test_silent_later, failover_teardown);
  g_test_add ("/server/pg-failover/silent-passed-once", Failover, NULL, failover_setup,
              test_silent_passed_once, failover_teardown);
  g_test_add ("/server/pg-failover/silent-addresses", Failover, NULL, failover_setup,
              test_silent_addresses, failover_teardown);
  g_test_add ("/server/pg-failover/silent-addresses-held-once", Failover, NULL, failover_setup,
              test_silent_addresses_held_once, failover_teardown);
  g_test_add ("/server/pg-failover/service-file-hosts", Failover, NULL, failover_setup,
              test_service_file_hosts, failover_teardown);
  g_test_add_func ("/server/pg-failover/bad-connect-timeout", test_bad_connect_timeout);
  g_test_add_func ("/server/pg-failover/refused-named", test_refused_named);
  return g_test_run ();
}
