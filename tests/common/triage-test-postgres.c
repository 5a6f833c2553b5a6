/* triage-test-postgres.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tests' own PostgreSQL: a cluster made with initdb in a temporary
 * folder, its postmaster a child of the test process that listens on a Unix
 * socket in that folder only. initdb and postgres refuse to run as root (CI
 * runs as root): then they run as the `postgres` user, which owns the folder.
 * The postmaster is killed with the test however the test ends (the parent's
 * death signal), and stopped at exit; its children follow it. Durability is
 * off (fsync, synchronous_commit): a test cluster never survives a power cut,
 * and no benchmark uses it. pg_stat_statements is loaded: a test may ask
 * what the servers' statements cost the database.
 *
 * Each server of a test gets a schema of its own in one database (a URI
 * whose options set the search_path): a new schema costs a few
 * milliseconds, a new database a second or more.
 *
 * initdb costs about a second of CPU, and the build's tests make 39
 * clusters: the first test makes the cluster's files and leaves a copy of
 * them beside its build ($TRIAGE_PG_TEMPLATE), named by what made them; the
 * others copy it (a tenth of the cost). It is put in place by a rename, so a
 * test sees a whole copy or none.
 */

#define G_LOG_DOMAIN "triage-test-postgres"

#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <libpq-fe.h>

#include "triage-test-postgres.h"
#include "triage-test-server.h"

#define START_TIMEOUT_US (60 * G_USEC_PER_SEC)

typedef struct
{
  gboolean switch_user;
  uid_t    uid;
  gid_t    gid;
} Identity;

typedef struct
{
  char        *dir;          /* the socket, the log, data/ */
  guint        port;
  GSubprocess *postmaster;
  guint        databases;
  Identity     identity;
} Cluster;

static Cluster *cluster;

gboolean
triage_test_postgres_wanted (void)
{
  return g_strcmp0 (g_getenv ("TRIAGE_TEST_BACKEND"), "postgresql") == 0;
}

void
triage_test_postgres_init (int         *argc,
                           char      ***argv,
                           const char  *what)
{
  char *why;

  g_test_init (argc, argv, NULL);
  if (triage_test_postgres_wanted ())
    return;
  why = g_strdup_printf ("%s (TRIAGE_TEST_BACKEND=postgresql)", what);
  g_test_skip (why);
  g_free (why);
  exit (g_test_run ());
}

/* In the child, before exec: become `postgres` when we are root, and die
 * with the test. */
static void
child_setup (gpointer data)
{
  Identity *identity = data;

  if (identity->switch_user &&
      (setgroups (0, NULL) != 0 || setgid (identity->gid) != 0 || setuid (identity->uid) != 0))
    _exit (126);
  /* After the change of user, which clears it. */
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static GSubprocessLauncher *
launcher_new (Cluster *self)
{
  GSubprocessLauncher *launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autofree char *log = g_build_filename (self->dir, "postgres.log", NULL);

  g_subprocess_launcher_set_child_setup (launcher, child_setup, &self->identity, NULL);
  g_subprocess_launcher_set_stdout_file_path (launcher, log);
  g_subprocess_launcher_set_stderr_file_path (launcher, log);
  /* Not the test's locale or options: the cluster's own. */
  g_subprocess_launcher_unsetenv (launcher, "PGOPTIONS");
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C", TRUE);
  return launcher;
}

static char *
tool (const char *name)
{
  const char *bindir = g_getenv ("TRIAGE_PG_BINDIR");

  return g_build_filename (bindir ? bindir : "/usr/lib/postgresql/15/bin", name, NULL);
}

static char *
log_tail (Cluster *self)
{
  g_autofree char *path = g_build_filename (self->dir, "postgres.log", NULL);
  g_autofree char *text = NULL;
  gsize length = 0;

  if (!g_file_get_contents (path, &text, &length, NULL))
    return g_strdup ("(no log)");
  return g_strdup (length > 2000 ? text + length - 2000 : text);
}

static guint
free_port (void)
{
  g_autoptr(GSocket) socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                            G_SOCKET_PROTOCOL_DEFAULT, NULL);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;

  if (socket == NULL || !g_socket_bind (socket, any, FALSE, NULL) ||
      (bound = g_socket_get_local_address (socket, NULL)) == NULL)
    return 5432;
  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

static char *
uri_of (Cluster    *self,
        const char *database,
        const char *schema)
{
  GString *uri = g_string_new (NULL);

  g_string_printf (uri, "postgresql:///%s?host=%s&port=%u&user=postgres", database, self->dir,
                   self->port);
  if (schema != NULL)
    g_string_append_printf (uri, "&options=-csearch_path%%3D%s", schema);
  return g_string_free (uri, FALSE);
}

static void
stop_cluster (void)
{
  if (cluster == NULL)
    return;
  if (cluster->postmaster != NULL)
    {
      /* Immediate shutdown: nothing here is worth a checkpoint. */
      g_subprocess_send_signal (cluster->postmaster, SIGQUIT);
      g_subprocess_wait (cluster->postmaster, NULL, NULL);
      g_clear_object (&cluster->postmaster);
    }
  triage_test_remove_tree (cluster->dir);
  g_free (cluster->dir);
  g_clear_pointer (&cluster, g_free);
}

/* cp -a: the owner (postgres, when we are root) and the modes kept. */
static gboolean
copy_tree (const char  *from,
           const char  *to,
           GError     **error)
{
  g_autoptr(GSubprocess) cp = g_subprocess_new (G_SUBPROCESS_FLAGS_STDERR_MERGE, error,
                                                "cp", "-a", from, to, NULL);

  if (cp == NULL || !g_subprocess_wait_check (cp, NULL, error))
    {
      g_prefix_error (error, "cannot copy %s to %s: ", from, to);
      return FALSE;
    }
  return TRUE;
}

/* The template beside the build for the files `@initdb -D … @options`
 * makes, or NULL without $TRIAGE_PG_TEMPLATE. */
static char *
template_path (const char         *initdb,
               const char * const *options)
{
  const char *base = g_getenv ("TRIAGE_PG_TEMPLATE");
  g_autofree char *joined = NULL, *command = NULL, *key = NULL;

  if (base == NULL || *base == '\0')
    return NULL;
  joined = g_strjoinv (" ", (char **) options);
  command = g_strconcat (initdb, " ", joined, NULL);
  key = g_compute_checksum_for_string (G_CHECKSUM_SHA256, command, -1);
  return g_strdup_printf ("%s-%.12s", base, key);
}

/* The cluster's files in @data: a copy of the template, or initdb's (then
 * left as the template when there is none yet). */
static gboolean
make_data (Cluster              *self,
           GSubprocessLauncher  *launcher,
           const char           *initdb_path,
           const char           *data,
           GError              **error)
{
  static const char * const options[] = { "-A", "trust", "-U", "postgres", "-E", "UTF8",
                                          "--locale=C", "--no-sync", "--no-instructions", NULL };
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autofree char *template = template_path (initdb_path, options);
  g_autofree char *staged = NULL;
  g_auto(GStrv) argv = NULL;
  g_autoptr(GSubprocess) initdb = NULL;
  g_autoptr(GError) local_error = NULL;

  if (template != NULL && g_file_test (template, G_FILE_TEST_IS_DIR))
    return copy_tree (template, data, error);

  g_strv_builder_add_many (builder, initdb_path, "-D", data, NULL);
  g_strv_builder_addv (builder, (const char **) options);
  argv = g_strv_builder_end (builder);
  initdb = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv, error);
  if (initdb == NULL || !g_subprocess_wait_check (initdb, NULL, error))
    {
      g_autofree char *tail = log_tail (self);

      g_prefix_error (error, "initdb failed (%s): ", tail);
      return FALSE;
    }
  if (template == NULL)
    return TRUE;

  /* Another test may put its copy in place first: then this one goes. A
   * template that could not be left costs the next test an initdb, no more. */
  staged = g_strdup_printf ("%s.%d", template, (int) getpid ());
  if (!copy_tree (data, staged, &local_error) || g_rename (staged, template) != 0)
    triage_test_remove_tree (staged);
  return TRUE;
}

static gboolean
start_cluster (GError **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autofree char *data = NULL, *initdb_path = NULL, *postgres_path = NULL, *port = NULL;
  g_autofree char *uri = NULL, *answer = NULL;
  Cluster *self;
  gint64 give_up;

  self = g_new0 (Cluster, 1);
  cluster = self;
  atexit (stop_cluster);
  if (getuid () == 0)
    {
      struct passwd *user = getpwnam ("postgres");

      if (user == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       "running as root, and there is no `postgres` user to run PostgreSQL as "
                       "(build-aux/install-deps.sh installs the postgresql package)");
          return FALSE;
        }
      self->identity = (Identity) { TRUE, user->pw_uid, user->pw_gid };
    }
  self->dir = g_dir_make_tmp ("triage-test-pg-XXXXXX", error);
  if (self->dir == NULL)
    return FALSE;
  data = g_build_filename (self->dir, "data", NULL);
  /* The other user must reach the folder and write its socket there. */
  if (g_chmod (self->dir, 0755) != 0 ||
      (self->identity.switch_user && chown (self->dir, self->identity.uid, self->identity.gid) != 0))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED, "cannot hand %s to postgres",
                   self->dir);
      return FALSE;
    }
  initdb_path = tool ("initdb");
  postgres_path = tool ("postgres");
  if (!g_file_test (initdb_path, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "%s is missing (build-aux/install-deps.sh installs the postgresql package)",
                   initdb_path);
      return FALSE;
    }

  launcher = launcher_new (self);
  if (!make_data (self, launcher, initdb_path, data, error))
    return FALSE;

  self->port = free_port ();
  port = g_strdup_printf ("%u", self->port);
  self->postmaster = g_subprocess_launcher_spawn (launcher, error, postgres_path, "-D", data,
                                                  "-k", self->dir, "-p", port,
                                                  "-c", "listen_addresses=",
                                                  "-c", "fsync=off",
                                                  "-c", "synchronous_commit=off",
                                                  "-c", "full_page_writes=off",
                                                  "-c", "max_connections=200",
                                                  "-c", "log_lock_waits=on",
                                                  "-c", "shared_preload_libraries=pg_stat_statements",
                                                  "-c", "log_min_duration_statement=1000",
                                                  "-c", "log_line_prefix=%m [%p] %a: ", NULL);
  if (self->postmaster == NULL)
    return FALSE;
  uri = uri_of (self, "postgres", NULL);
  give_up = g_get_monotonic_time () + START_TIMEOUT_US;
  /* Ready once it accepts connections (a bounded poll: there is no event). */
  while (PQping (uri) != PQPING_OK)
    {
      if (g_subprocess_get_identifier (self->postmaster) == NULL || g_get_monotonic_time () > give_up)
        {
          g_autofree char *tail = log_tail (self);

          g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                       "the test PostgreSQL did not start: %s", tail);
          return FALSE;
        }
      g_usleep (20 * 1000);
    }
  answer = triage_test_postgres_run_sql (uri, "CREATE DATABASE triage", error);
  return answer != NULL;
}

/* A new, empty database in the cluster (started on first use): the URI of a
 * schema of its own. */
char *
triage_test_postgres_new_database (GError **error)
{
  g_autofree char *name = NULL, *create = NULL, *admin = NULL, *answer = NULL;
  static gboolean failed;

  if (failed || (cluster == NULL && !start_cluster (error)))
    {
      if (failed)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the test PostgreSQL did not start");
      failed = TRUE;
      return NULL;
    }
  name = g_strdup_printf ("server_%u", ++cluster->databases);
  create = g_strdup_printf ("CREATE SCHEMA %s", name);
  admin = uri_of (cluster, "triage", NULL);
  answer = triage_test_postgres_run_sql (admin, create, error);
  if (answer == NULL)
    return NULL;
  return uri_of (cluster, "triage", name);
}

/* Runs @sql on the database at @uri; the rows it gave, a line each, columns
 * separated by '|' (NULL as NULL). */
char *
triage_test_postgres_run_sql (const char *uri,
                              const char *sql,
                              GError    **error)
{
  PGconn *conn = PQconnectdb (uri);
  PGresult *result = NULL;
  GString *rows = NULL;
  ExecStatusType status;

  if (PQstatus (conn) != CONNECTION_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot connect to %s: %s", uri,
                   PQerrorMessage (conn));
      PQfinish (conn);
      return NULL;
    }
  result = PQexec (conn, sql);
  status = PQresultStatus (result);
  if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", sql, PQresultErrorMessage (result));
  else
    {
      rows = g_string_new (NULL);
      for (int i = 0; i < PQntuples (result); i++)
        {
          for (int c = 0; c < PQnfields (result); c++)
            g_string_append_printf (rows, "%s%s", c ? "|" : "",
                                    PQgetisnull (result, i, c) ? "NULL" : PQgetvalue (result, i, c));
          g_string_append_c (rows, '\n');
        }
    }
  PQclear (result);
  PQfinish (conn);
  return rows ? g_string_free (rows, FALSE) : NULL;
}
