/* test-server-cluster-start.c — several triage-server instances starting
 * together on one empty PostgreSQL database
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The schema is made and migrated under a lock: whichever server comes
 * first does it, the others wait and then serve. (Moved out of
 * test-server-cluster.c, which grew past the house's ~800 lines.)
 */

#define G_LOG_DOMAIN "test-server-cluster-start"

#include <signal.h>
#include <string.h>
#include <libpq-fe.h>

#include "server-test-util.h"
#include "triage-test-postgres.h"

#define MAX_SERVERS 3
/* src/server/store/triage-pg-schema.h's TRIAGE_PG_MIGRATION_LOCK */
#define MIGRATION_LOCK "8390884922812071937"

/* Three servers started at the same moment on an empty database: one
 * creates the schema (each version is made once), the others wait for it;
 * all serve. */
static void
test_start_together (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *database = triage_test_postgres_new_database (&error);
  g_autofree char *version = NULL, *expected = NULL;
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GString) logs = g_string_new (NULL);
  GSubprocess *servers[MAX_SERVERS];
  guint created = 0, newest = 0;

  g_assert_no_error (error);
  g_subprocess_launcher_set_child_setup (launcher, triage_test_die_with_parent, NULL, NULL);
  /* As tests/common starts a server: whole stacks for the leak suppressions. */
  if (g_getenv ("ASAN_OPTIONS") != NULL)
    {
      g_autofree char *options = g_strconcat (g_getenv ("ASAN_OPTIONS"), ":fast_unwind_on_malloc=0",
                                              NULL);

      g_subprocess_launcher_setenv (launcher, "ASAN_OPTIONS", options, TRUE);
    }
  for (guint i = 0; i < MAX_SERVERS; i++)
    {
      servers[i] = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("TRIAGE_SERVER"),
                                                "--database", database, "--print-address",
                                                "--listen", "127.0.0.1:0", NULL);
      g_assert_no_error (error);
    }
  for (guint i = 0; i < MAX_SERVERS; i++)
    {
      g_autoptr(GDataInputStream) out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (servers[i]));
      g_autofree char *line = g_data_input_stream_read_line (out, NULL, NULL, &error);

      g_assert_no_error (error);
      g_assert_true (g_str_has_prefix (line, "listening on http://127.0.0.1:"));
    }
  for (guint i = 0; i < MAX_SERVERS; i++)
    {
      GInputStream *err = g_subprocess_get_stderr_pipe (servers[i]);
      g_autoptr(GBytes) chunk = NULL;

      g_subprocess_send_signal (servers[i], SIGTERM);
      /* Its messages are few: they fit in the pipe until it has exited. */
      g_assert_true (g_subprocess_wait_check (servers[i], NULL, &error));
      g_assert_no_error (error);
      while ((chunk = g_input_stream_read_bytes (err, 65536, NULL, &error)) != NULL &&
             g_bytes_get_size (chunk) > 0)
        {
          g_string_append_len (logs, g_bytes_get_data (chunk, NULL), g_bytes_get_size (chunk));
          g_clear_pointer (&chunk, g_bytes_unref);
        }
      g_assert_no_error (error);
      g_object_unref (servers[i]);
    }
  for (const char *at = logs->str; (at = strstr (at, "schema migrated to version ")) != NULL; at++)
    {
      guint number = (guint) g_ascii_strtoull (at + strlen ("schema migrated to version "), NULL, 10);

      created += number == 1;
      newest = MAX (newest, number);
    }
  g_assert_cmpuint (created, ==, 1);
  version = triage_test_postgres_run_sql (database, "SELECT version FROM triage_schema", &error);
  g_assert_no_error (error);
  expected = g_strdup_printf ("%u\n", newest);
  g_assert_cmpstr (version, ==, expected);
}

/* @sql's one value, on @conn. */
static gint64
value_of (PGconn     *conn,
          const char *sql)
{
  PGresult *result = PQexec (conn, sql);
  gint64 value;

  g_assert_cmpint (PQresultStatus (result), ==, PGRES_TUPLES_OK);
  value = PQgetisnull (result, 0, 0) ? -1 : g_ascii_strtoll (PQgetvalue (result, 0, 0), NULL, 10);
  PQclear (result);
  return value;
}

static void
on_server_exit (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  *(gboolean *) data = TRUE;
}

/* A server that finds another migrating (here: a session holding the
 * migration lock) waits for it as long as it takes, not the sessions'
 * 5 s lock_timeout: a migration that indexes a large table takes longer,
 * and the servers started beside it exited. */
static void
test_wait_for_migration (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *database = triage_test_postgres_new_database (&error);
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_autoptr(GSubprocess) server = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autofree char *line = NULL;
  gboolean exited = FALSE;
  PGconn *holder;
  PGresult *result;

  g_assert_no_error (error);
  holder = PQconnectdb (database);
  g_assert_cmpint (PQstatus (holder), ==, CONNECTION_OK);
  result = PQexec (holder, "SELECT pg_advisory_lock (" MIGRATION_LOCK ")");
  g_assert_cmpint (PQresultStatus (result), ==, PGRES_TUPLES_OK);
  PQclear (result);

  g_subprocess_launcher_set_child_setup (launcher, triage_test_die_with_parent, NULL, NULL);
  server = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("TRIAGE_SERVER"),
                                        "--database", database, "--print-address",
                                        "--listen", "127.0.0.1:0", NULL);
  g_assert_no_error (error);
  g_subprocess_wait_async (server, NULL, on_server_exit, &exited);
  /* Until the database's own clock says the server has waited for the lock
   * past the 5 s that ended it before. */
  while (value_of (holder, "SELECT COALESCE (MAX (EXTRACT (EPOCH FROM now () - a.state_change)),"
                           " 0)::bigint FROM pg_stat_activity a JOIN pg_locks l ON l.pid = a.pid"
                           " WHERE l.locktype = 'advisory' AND NOT l.granted") < 7)
    {
      triage_test_sleep (100);
      g_assert_false (exited);
    }

  result = PQexec (holder, "SELECT pg_advisory_unlock (" MIGRATION_LOCK ")");
  g_assert_cmpint (PQresultStatus (result), ==, PGRES_TUPLES_OK);
  PQclear (result);
  PQfinish (holder);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server));
  line = g_data_input_stream_read_line (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (line, "listening on http://127.0.0.1:"));
  g_subprocess_send_signal (server, SIGTERM);
  g_assert_true (g_subprocess_wait_check (server, NULL, &error));
  g_assert_no_error (error);
}

int
main (int    argc,
      char **argv)
{
  triage_test_postgres_init (&argc, &argv, "several servers share a PostgreSQL database");
  g_test_add_func ("/cluster/start-together", test_start_together);
  g_test_add_func ("/cluster/wait-for-migration", test_wait_for_migration);
  return g_test_run ();
}
