/* test-server-secrets.c — what triage-server takes as a secret at start: the
 * admin token's length, the modes of its secret files and of its database
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-server-secrets"

#include <signal.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

#include "server-test-util.h"

/* A token as the README makes one: 32 random bytes in base64. */
#define GOOD_TOKEN "q3Hw0f8Zk1vM2pXn7RtY4bLc9sEa6uJd0iOg5hKz8Ww="

typedef struct
{
  gboolean  served;   /* it printed "listening on" (then was stopped with SIGTERM) */
  int       status;   /* its exit status */
  char     *err;      /* its standard error */
} Run;

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->err, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

/* Runs the real triage-server on @database with @args, TRIAGE_ADMIN_TOKEN
 * set to @env_token (unset when NULL): it either refuses at once, or serves,
 * and is then stopped. */
static void
run_server (Run                *run,
            const char         *database,
            const char         *env_token,
            const char * const *args)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *line = NULL, *rest = NULL;
  g_autoptr(GError) error = NULL;

  g_ptr_array_add (argv, (gpointer) g_getenv ("TRIAGE_SERVER"));
  g_ptr_array_add (argv, "--database");
  g_ptr_array_add (argv, (gpointer) database);
  g_ptr_array_add (argv, "--print-address");
  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_child_setup (launcher, triage_test_die_with_parent, NULL, NULL);
  if (env_token != NULL)
    g_subprocess_launcher_setenv (launcher, "TRIAGE_ADMIN_TOKEN", env_token, TRUE);
  else
    g_subprocess_launcher_unsetenv (launcher, "TRIAGE_ADMIN_TOKEN");
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  line = g_data_input_stream_read_line (out, NULL, NULL, &error);
  g_assert_no_error (error);
  run->served = line != NULL && g_str_has_prefix (line, "listening on ");
  if (run->served)
    g_subprocess_send_signal (process, SIGTERM);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &rest, &run->err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  run->status = g_subprocess_get_exit_status (process);
}

/* Run as run_server () runs it: refused at once with exit status 2 and
 * @needles on standard error. */
static void
assert_refused (const char         *database,
                const char         *env_token,
                const char * const *args,
                const char * const *needles)
{
  g_auto(Run) run = { 0 };

  run_server (&run, database, env_token, args);
  g_assert_false (run.served);
  for (guint i = 0; needles[i] != NULL; i++)
    if (strstr (run.err, needles[i]) == NULL)
      g_error ("expected \"%s\" on stderr, got: %s", needles[i], run.err);
  g_assert_cmpint (run.status, ==, 2);
}

/* Run as run_server () runs it: it serves (and stops with exit status 0);
 * its standard error. */
static char *
assert_served (const char         *database,
               const char         *env_token,
               const char * const *args)
{
  g_auto(Run) run = { 0 };

  run_server (&run, database, env_token, args);
  if (!run.served || run.status != 0)
    g_error ("expected the server to serve, got exit %d: %s", run.status, run.err);
  return g_steal_pointer (&run.err);
}

static char *
write_file (const char *dir,
            const char *name,
            const char *contents,
            int         mode)
{
  char *file = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (file, contents, -1, NULL));
  g_assert_cmpint (g_chmod (file, mode), ==, 0);
  return file;
}

/* A temporary folder of @mode; one others may enter is made in /tmp, not in
 * a TMPDIR that may be a folder of the user's own (/run/user/UID, 0700),
 * which would keep what is in it from them. */
static char *
make_dir (const char *template,
          int         mode)
{
  char *dir = (mode & S_IXOTH) ? g_build_filename ("/tmp", template, NULL)
                               : g_build_filename (g_get_tmp_dir (), template, NULL);

  g_assert_nonnull (g_mkdtemp (dir));
  g_assert_cmpint (g_chmod (dir, mode), ==, 0);
  return dir;
}

/* @dir and the files in it. */
static void
remove_dir (const char *dir)
{
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;

  while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *file = g_build_filename (dir, name, NULL);

      g_unlink (file);
    }
  g_rmdir (dir);
}

/* An admin token that can be guessed ("admin", a word) or that no client
 * can send (a line break inside) is refused at start, from the environment
 * and from a file, naming the minimum; 16 characters serve. */
static void
test_short_token (void)
{
  g_autofree char *dir = make_dir ("triage-secrets-XXXXXX", 0700);
  g_autofree char *database = g_build_filename (dir, "server.db", NULL);
  g_autofree char *word = write_file (dir, "word", "password\n", 0600);
  g_autofree char *two_lines = write_file (dir, "two-lines", GOOD_TOKEN "\n# made today\n", 0600);
  g_autofree char *filler = g_strnfill (5000, 'a');
  g_autofree char *large = write_file (dir, "large", filler, 0600);
  g_autofree char *nul = g_build_filename (dir, "nul", NULL);
  const char *word_args[] = { "--admin-token-file", word, NULL };
  const char *two_lines_args[] = { "--admin-token-file", two_lines, NULL };
  const char *from_env[] = { "is 5 characters long", "at least 16", "TRIAGE_ADMIN_TOKEN", NULL };
  const char *from_file[] = { "is 8 characters long", "at least 16", word, NULL };
  const char *line_break[] = { "line break", two_lines, NULL };
  const char *open_listen[] = { "--listen", "127.0.0.1:0", NULL };

  g_assert_true (g_file_set_contents_full (nul, GOOD_TOKEN "\0" GOOD_TOKEN, 2 * strlen (GOOD_TOKEN) + 1,
                                           G_FILE_SET_CONTENTS_NONE, 0600, NULL));
  assert_refused (database, "admin", open_listen, from_env);
  assert_refused (database, NULL, word_args, from_file);
  assert_refused (database, NULL, two_lines_args, line_break);
  /* Not a line: the wrong file, or an endless one, is not read to the end. */
  {
    const char *zero_args[] = { "--admin-token-file", "/dev/zero", NULL };
    const char *zero[] = { "/dev/zero is not one line of text", NULL };
    const char *large_args[] = { "--admin-token-file", large, NULL };
    const char *too_large[] = { "is not one line of text (over 4 KiB)", large, NULL };
    const char *nul_args[] = { "--admin-token-file", nul, NULL };
    const char *nul_byte[] = { "is not one line of text (it holds a NUL byte)", nul, NULL };

    assert_refused (database, NULL, zero_args, zero);
    assert_refused (database, NULL, large_args, too_large);
    assert_refused (database, NULL, nul_args, nul_byte);
  }
  /* Refused before the database was made. */
  g_assert_false (g_file_test (database, G_FILE_TEST_EXISTS));
  g_free (assert_served (database, "0123456789abcdef", NULL));
  remove_dir (dir);
}

/* A secret file other users can read or change is refused, naming the
 * file, its mode and the chmod that mends it; the same mode in a folder
 * only its owner enters is no exposure. */
static void
test_exposed_files (void)
{
  g_autofree char *open_dir = make_dir ("triage-secrets-XXXXXX", 0755);
  g_autofree char *private_dir = make_dir ("triage-secrets-XXXXXX", 0700);
  g_autofree char *database = g_build_filename (private_dir, "server.db", NULL);
  g_autofree char *token = write_file (open_dir, "admin-token", GOOD_TOKEN "\n", 0644);
  g_autofree char *shared = write_file (open_dir, "shared-token", GOOD_TOKEN "\n", 0620);
  g_autofree char *hidden = write_file (private_dir, "admin-token", GOOD_TOKEN "\n", 0644);
  g_autofree char *password = write_file (open_dir, "db-password", "secret\n", 0604);
  g_autofree char *chmod_token = g_strdup_printf ("chmod 600 %s", token);
  g_autofree char *chmod_password = g_strdup_printf ("chmod 600 %s", password);
  const char *token_args[] = { "--admin-token-file", token, NULL };
  const char *shared_args[] = { "--admin-token-file", shared, NULL };
  const char *hidden_args[] = { "--admin-token-file", hidden, NULL };
  const char *password_args[] = { "--database", "postgresql:///triage",
                                  "--database-password-file", password, NULL };
  const char *token_refused[] = { token, "(mode 0644)", "can be read by other users",
                                  chmod_token, NULL };
  const char *shared_refused[] = { shared, "(mode 0620)", "can be changed by other users", NULL };
  const char *password_refused[] = { "database password", password, "(mode 0604)",
                                     chmod_password, NULL };

  assert_refused (database, NULL, token_args, token_refused);
  assert_refused (database, NULL, shared_args, shared_refused);
  assert_refused (database, NULL, password_args, password_refused);
  g_assert_false (g_file_test (database, G_FILE_TEST_EXISTS));
  g_free (assert_served (database, NULL, hidden_args));
  g_assert_cmpint (g_chmod (token, 0600), ==, 0);
  g_free (assert_served (database, NULL, token_args));
  remove_dir (open_dir);
  remove_dir (private_dir);
}

/* A TLS key others can read is said in the log, not refused (see
 * triage-server.c). */
static void
test_exposed_tls_key (void)
{
  g_autofree char *dir = make_dir ("triage-secrets-XXXXXX", 0755);
  g_autofree char *database = g_build_filename (dir, "server.db", NULL);
  g_autofree char *cert = g_test_build_filename (G_TEST_DIST, "server", "tls", "cert.pem", NULL);
  g_autofree char *source = g_test_build_filename (G_TEST_DIST, "server", "tls", "key.pem", NULL);
  g_autofree char *pem = NULL;
  g_autofree char *key = NULL, *err = NULL;
  const char *args[] = { "--tls-certificate", cert, "--tls-key", NULL, NULL };

  g_assert_true (g_file_get_contents (source, &pem, NULL, NULL));
  key = write_file (dir, "key.pem", pem, 0644);
  args[3] = key;
  err = assert_served (database, NULL, args);
  g_assert_nonnull (strstr (err, "TLS key file"));
  g_assert_nonnull (strstr (err, key));
  remove_dir (dir);
}

static void
assert_mode (const char *file,
             int         mode)
{
  GStatBuf st;

  g_assert_cmpint (g_stat (file, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, mode);
}

/* A database made 0644 before new ones were 0600 (and its -wal and -shm,
 * left by a crash) is made its owner's at the next start, said once in the
 * log, and its contents kept. */
static void
test_database_tightened (void)
{
  g_autofree char *dir = make_dir ("triage-secrets-XXXXXX", 0755);
  g_autofree char *database = g_build_filename (dir, "server.db", NULL);
  g_autofree char *wal = g_strconcat (database, "-wal", NULL);
  g_autofree char *shm = g_strconcat (database, "-shm", NULL);
  g_autofree char *said = g_strdup_printf ("the database file %s was open to other users "
                                           "(mode 0644)", database);
  g_autofree char *said_wal = g_strdup_printf ("the database file %s was open", wal);
  g_autofree char *said_shm = g_strdup_printf ("the database file %s was open", shm);
  g_autoptr(TriageTestServer) server = NULL;
  g_autofree char *token = NULL;
  TriageTestServerOptions options = { .database = database };
  g_autoptr(GError) error = NULL;

  /* A database with a user in it, as an older server left it. */
  server = triage_test_server_new (&options, &error);
  g_assert_no_error (error);
  triage_test_server_create_user (server, "alice", &token, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_stop (server));
  g_assert_cmpint (g_chmod (database, 0644), ==, 0);
  g_assert_true (g_file_set_contents (wal, "", 0, NULL));
  g_assert_true (g_file_set_contents (shm, "", 0, NULL));
  g_assert_cmpint (g_chmod (wal, 0644), ==, 0);
  g_assert_cmpint (g_chmod (shm, 0644), ==, 0);

  {
    g_autofree char *err = assert_served (database, GOOD_TOKEN, NULL);

    g_assert_nonnull (strstr (err, said));
    g_assert_nonnull (strstr (err, said_wal));
    g_assert_nonnull (strstr (err, said_shm));
    assert_mode (database, 0600);
  }
  {
    /* Said once: the next start finds it so. */
    g_autofree char *err = assert_served (database, GOOD_TOKEN, NULL);

    g_assert_null (strstr (err, "open to other users"));
    assert_mode (database, 0600);
  }
  /* The same database, alice in it. */
  g_assert_true (triage_test_server_restart (server, &error));
  g_assert_no_error (error);
  {
    guint status = 0;

    g_assert_true (triage_test_http (server, "GET", "/api/v1/client/notifications", token, NULL,
                                     &status, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (status, ==, 200);
  }
  g_assert_true (triage_test_server_stop (server));
  g_clear_pointer (&server, triage_test_server_free);
  remove_dir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/server/secrets/short-token", test_short_token);
  g_test_add_func ("/server/secrets/exposed-files", test_exposed_files);
  g_test_add_func ("/server/secrets/exposed-tls-key", test_exposed_tls_key);
  g_test_add_func ("/server/secrets/database-tightened", test_database_tightened);

  return g_test_run ();
}
