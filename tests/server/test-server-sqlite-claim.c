/* test-server-sqlite-claim.c — a SQLite file serves one server
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A server claims its SQLite database for its life (FILE.lock): a second
 * one on the same file, which would never see the first's changes, is
 * refused naming the first's pid; the claim ends with the server, even
 * killed; a backup still reads the file while the server runs. SQLite only
 * (several servers share a PostgreSQL database: test-server-cluster-start.c).
 */

#define G_LOG_DOMAIN "test-server-sqlite-claim"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "server-test-util.h"

/* Starts triage-server on the SQLite file @database; its stdout and stderr piped. */
static GSubprocess *
spawn_on_file (const char *database)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GError) error = NULL;
  GSubprocess *process;

  g_subprocess_launcher_set_child_setup (launcher, triage_test_die_with_parent, NULL, NULL);
  process = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("TRIAGE_SERVER"),
                                         "--listen", "127.0.0.1:0", "--print-address",
                                         "--database", database, NULL);
  g_assert_no_error (error);
  return process;
}

/* Two servers started at once on a new SQLite file (the app's own and the
 * user unit's, say): neither trips over the other's migration (each round
 * used to end with one refusing to start, "table users already exists"),
 * and only one serves: the other, which would never see its changes (its
 * streams and long polls woken by its own writes only), says the file is in
 * use by the first, naming its pid, and exits 1. Both used to serve. The
 * file they made is their owner's only. */
static void
test_start_together (void)
{
  for (guint round = 0; round < 3; round++)
    {
      g_autofree char *dir = g_dir_make_tmp ("triage-test-together-XXXXXX", NULL);
      g_autofree char *database = g_build_filename (dir, "server.db", NULL);
      g_autofree char *wal = g_strconcat (database, "-wal", NULL);
      GSubprocess *servers[2];
      char *lines[2], *errs[2], *pids[2];
      guint serving = 2;
      mode_t umask_before;

      /* The usual umask, which would leave the database readable by everybody. */
      umask_before = umask (022);
      for (guint i = 0; i < G_N_ELEMENTS (servers); i++)
        {
          servers[i] = spawn_on_file (database);
          pids[i] = g_strdup (g_subprocess_get_identifier (servers[i]));
        }
      umask (umask_before);
      for (guint i = 0; i < G_N_ELEMENTS (servers); i++)
        {
          g_autoptr(GDataInputStream) out =
            g_data_input_stream_new (g_subprocess_get_stdout_pipe (servers[i]));
          g_autoptr(GError) error = NULL;

          /* Read on by g_subprocess_communicate_utf8 () below. */
          g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (out), FALSE);
          /* Its first line once it serves, or the end of its output. */
          lines[i] = g_data_input_stream_read_line_utf8 (out, NULL, NULL, &error);
          g_assert_no_error (error);
          if (lines[i] != NULL)
            {
              /* It holds the webhook secrets as given: its owner's only. */
              GStatBuf st;

              g_assert_true (g_str_has_prefix (lines[i], "listening on http://"));
              g_assert_cmpuint (serving, ==, 2);
              serving = i;
              g_assert_cmpint (g_stat (database, &st), ==, 0);
              g_assert_cmpint (st.st_mode & 0777, ==, 0600);
              g_assert_cmpint (g_stat (wal, &st), ==, 0);
              g_assert_cmpint (st.st_mode & 0777, ==, 0600);
            }
        }
      if (serving == 2)
        g_error ("round %u: neither of two servers started together on a file serves", round);
      for (guint i = 0; i < G_N_ELEMENTS (servers); i++)
        {
          g_autoptr(GError) error = NULL;

          if (i == serving)
            g_subprocess_send_signal (servers[i], SIGTERM);
          g_subprocess_communicate_utf8 (servers[i], NULL, NULL, NULL, &errs[i], &error);
          g_assert_no_error (error);
          g_assert_true (g_subprocess_get_if_exited (servers[i]));
        }
      for (guint i = 0; i < G_N_ELEMENTS (servers); i++)
        {
          if (i == serving)
            g_assert_cmpint (g_subprocess_get_exit_status (servers[i]), ==, 0);
          else
            {
              g_autofree char *expected =
                g_strdup_printf ("%s is in use by another triage-server (pid %s)", database,
                                 pids[serving]);

              if (g_subprocess_get_exit_status (servers[i]) != 1 ||
                  strstr (errs[i], expected) == NULL)
                g_error ("round %u: the second server on a file: expected exit 1 and \"%s\", "
                         "got %d: %s", round, expected, g_subprocess_get_exit_status (servers[i]),
                         errs[i]);
            }
          g_object_unref (servers[i]);
          g_free (lines[i]);
          g_free (errs[i]);
        }
      for (guint i = 0; i < G_N_ELEMENTS (servers); i++)
        g_free (pids[i]);
      triage_test_remove_tree (dir);
    }
}

/* A second server on a running server's file is refused; once the first
 * was killed (no chance to let go itself), a server starts on it again. */
static void
test_claim_after_kill (void)
{
  g_autofree char *dir = g_dir_make_tmp ("triage-test-claim-XXXXXX", NULL);
  g_autofree char *database = g_build_filename (dir, "server.db", NULL);
  TriageTestServerOptions options = { .database = database };
  g_autoptr(TriageTestServer) first = NULL;
  g_autoptr(GSubprocess) second = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL, *expected = NULL;

  first = triage_test_server_new (&options, &error);
  g_assert_no_error (error);
  second = spawn_on_file (database);
  g_subprocess_communicate_utf8 (second, NULL, NULL, NULL, &err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (second));
  expected = g_strdup_printf ("%s is in use by another triage-server (pid %d)", database,
                              (int) triage_test_server_get_pid (first));
  if (g_subprocess_get_exit_status (second) != 1 || strstr (err, expected) == NULL)
    g_error ("expected exit 1 and \"%s\", got %d: %s", expected,
             g_subprocess_get_exit_status (second), err);
  /* The first serves on. */
  {
    g_autoptr(SrvAnswer) ready = srv_request (first, "GET", "/readyz", NULL, NULL);

    srv_assert_status (ready, 200, NULL);
  }
  triage_test_server_kill (first);
  g_assert_true (triage_test_server_restart (first, &error));
  g_assert_no_error (error);
  g_assert_true (triage_test_server_stop (first));
  g_clear_pointer (&first, triage_test_server_free);
  triage_test_remove_tree (dir);
}

/* Starts `triage-server --local` in the private world @dir (its runtime and
 * data folders), its debug messages on (it says when it waits for the
 * holder's record): its standard error piped. */
static GSubprocess *
spawn_local (const char *dir)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GError) error = NULL;
  GSubprocess *process;

  g_subprocess_launcher_setenv (launcher, "XDG_RUNTIME_DIR", dir, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", dir, TRUE);
  g_subprocess_launcher_setenv (launcher, "G_MESSAGES_DEBUG", "triage-server", TRUE);
  g_subprocess_launcher_set_child_setup (launcher, triage_test_die_with_parent, NULL, NULL);
  process = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("TRIAGE_SERVER"), "--local",
                                         NULL);
  g_assert_no_error (error);
  return process;
}

/* Runs `triage-server --local` in the private world @dir to its end: its
 * exit status, its standard error in @err. */
static int
run_local (const char  *dir,
           char       **err)
{
  g_autoptr(GSubprocess) process = spawn_local (dir);
  g_autoptr(GError) error = NULL;

  g_subprocess_communicate_utf8 (process, NULL, NULL, NULL, err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  return g_subprocess_get_exit_status (process);
}

/* The user's local server is one, whoever started it (at login the app and
 * the user unit each start one): a second `--local` that finds the database
 * held by the server of the same socket says it is already running and exits
 * 0, so the unit does not restart it over and over (Restart=on-failure) and
 * the app waits for the first's socket (it exited 1). Held by a server of
 * another socket, or of none (`--listen` without `--database` uses the same
 * file), no local socket will come: that is exit 1, saying so. */
static void
test_local_second (void)
{
  g_autofree char *dir = g_dir_make_tmp ("triage-test-local-XXXXXX", NULL);
  g_autofree char *folder = g_build_filename (dir, "triage", NULL);
  g_autofree char *database = g_build_filename (folder, "server.db", NULL);
  g_autofree char *socket_path = g_build_filename (folder, "triage.sock", NULL);
  const char * const local_args[] = { "--socket", socket_path, NULL };
  TriageTestServerOptions local = { .database = database, .extra_args = local_args };
  TriageTestServerOptions other = { .database = database };
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  for (guint round = 0; round < 2; round++)
    {
      g_autoptr(TriageTestServer) first = NULL;
      g_autofree char *err = NULL;
      const char *expected = round == 0 ? "already running" : "is in use by another triage-server";
      int status;

      first = triage_test_server_new (round == 0 ? &local : &other, &error);
      g_assert_no_error (error);
      status = run_local (dir, &err);
      if (status != (round == 0 ? 0 : 1) || strstr (err, expected) == NULL)
        g_error ("a second local server on a database held by a server %s: expected exit %d and "
                 "\"%s\", got %d: %s", round == 0 ? "of its socket" : "of none", round == 0 ? 0 : 1,
                 expected, status, err);
      g_assert_true (triage_test_server_stop (first));
    }
  triage_test_remove_tree (dir);
}

/* Holds the claim of the local database in the private world @dir as a
 * server does (flock on FILE.lock beside its real path), @record written
 * in it: the descriptor that holds it. */
static int
hold_local_claim (const char *dir,
                  const char *record)
{
  g_autofree char *folder = g_build_filename (dir, "triage", NULL);
  g_autofree char *real_folder = NULL, *lock = NULL;
  int fd;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  real_folder = realpath (folder, NULL);
  lock = g_build_filename (real_folder, "server.db.lock", NULL);
  fd = g_open (lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (flock (fd, LOCK_EX | LOCK_NB), ==, 0);
  g_assert_cmpint (pwrite (fd, record, strlen (record), 0), ==, (ssize_t) strlen (record));
  return fd;
}

/* Two `--local` started at once: the first locks the file, then writes
 * who it is; the second, reading in between, found the file empty and
 * called the first a server of another socket (exit 1, 1 in ~150 runs).
 * Or it read the record of a server gone, of another socket, not yet
 * replaced. Here the test holds the lock with that gone server's record;
 * once the second says it waits for the holder's, the test writes its pid
 * and the local socket: the second knows the local server, already
 * running, exit 0. */
static void
test_local_record_awaited (void)
{
  g_autofree char *dir = g_dir_make_tmp ("triage-test-record-XXXXXX", NULL);
  g_autofree char *socket_path = g_build_filename (dir, "triage", "triage.sock", NULL);
  g_autofree char *record = NULL, *err = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GDataInputStream) stderr_lines = NULL;
  g_autoptr(GError) error = NULL;
  GPid gone;
  int fd;

  /* A pid that is no process: a child ended and reaped. */
  g_assert_true (g_spawn_async (NULL, (char *[]) { (char *) "true", NULL }, NULL,
                                G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                                &gone, &error));
  g_assert_no_error (error);
  g_assert_cmpint (waitpid (gone, NULL, 0), ==, gone);
  record = g_strdup_printf ("%ld\n%s/elsewhere.sock\n", (long) gone, dir);
  fd = hold_local_claim (dir, record);
  g_clear_pointer (&record, g_free);

  process = spawn_local (dir);
  stderr_lines = g_data_input_stream_new (g_subprocess_get_stderr_pipe (process));
  for (g_autoptr(GString) said = g_string_new (NULL);;)
    {
      g_autofree char *line = g_data_input_stream_read_line_utf8 (stderr_lines, NULL, NULL, &error);

      g_assert_no_error (error);
      if (line == NULL)
        g_error ("triage-server --local ended without waiting for the holder to write who it "
                 "is; it said: %s", said->str);
      if (strstr (line, "to write who it is") != NULL)
        break;
      g_string_append_printf (said, "%s\n", line);
    }

  record = g_strdup_printf ("%ld\n%s\n", (long) getpid (), socket_path);
  g_assert_cmpint (ftruncate (fd, 0), ==, 0);
  g_assert_cmpint (pwrite (fd, record, strlen (record), 0), ==, (ssize_t) strlen (record));
  err = g_data_input_stream_read_upto (stderr_lines, "", 0, NULL, NULL, &error);
  g_assert_no_error (error);
  g_subprocess_wait (process, NULL, &error);
  g_assert_no_error (error);
  if (!g_subprocess_get_if_exited (process) || g_subprocess_get_exit_status (process) != 0 ||
      strstr (err, "already running") == NULL)
    g_error ("the local server, its record written late: expected exit 0 and \"already "
             "running\", got %d: %s", g_subprocess_get_exit_status (process), err);
  close (fd);
  triage_test_remove_tree (dir);
}

/* A server from before the socket line (e86e64b), still running across an
 * upgrade, wrote its pid alone and will write no more: a second server
 * waited 10 s for a socket line, then exited 1. The test holds the lock
 * with its own pid alone and never writes more: the second knows it for a
 * server of no socket at once (it never says it waits), exit 1 naming it. */
static void
test_local_old_holder (void)
{
  g_autofree char *dir = g_dir_make_tmp ("triage-test-old-holder-XXXXXX", NULL);
  g_autofree char *record = g_strdup_printf ("%ld\n", (long) getpid ());
  g_autofree char *expected = NULL, *err = NULL;
  int fd = hold_local_claim (dir, record);
  int status = run_local (dir, &err);

  expected = g_strdup_printf ("is in use by another triage-server (pid %ld)", (long) getpid ());
  if (status != 1 || strstr (err, expected) == NULL || strstr (err, "to write who it is") != NULL)
    g_error ("a local server on a database held by a server that wrote its pid alone: expected "
             "exit 1 and \"%s\" at once, without waiting for more, got %d: %s", expected, status,
             err);
  close (fd);
  triage_test_remove_tree (dir);
}

/* Dies with the test, with no room on its disk (RLIMIT_FSIZE 0: every write
 * fails with EFBIG, as on a full disk; the server ignores SIGXFSZ). */
static void
die_with_parent_disk_full (gpointer data)
{
  struct rlimit none = { 0, 0 };

  triage_test_die_with_parent (data);
  setrlimit (RLIMIT_FSIZE, &none);
}

/* A server that cannot write its record into FILE.lock (a full disk) holds
 * the claim all the same, and a second server waits 10 s for the record,
 * then names no pid: the holder says so in its log (only a debug message
 * did, which no operator sees). */
static void
test_record_unwritten (void)
{
  g_autofree char *dir = g_dir_make_tmp ("triage-test-unwritten-XXXXXX", NULL);
  g_autofree char *database = g_build_filename (dir, "server.db", NULL);
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GDataInputStream) stderr_lines = NULL;
  g_autoptr(GString) said = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  g_subprocess_launcher_set_child_setup (launcher, die_with_parent_disk_full, NULL, NULL);
  process = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("TRIAGE_SERVER"),
                                         "--listen", "127.0.0.1:0", "--database", database, NULL);
  g_assert_no_error (error);
  stderr_lines = g_data_input_stream_new (g_subprocess_get_stderr_pipe (process));
  for (;;)
    {
      g_autofree char *line = g_data_input_stream_read_line_utf8 (stderr_lines, NULL, NULL, &error);

      g_assert_no_error (error);
      if (line == NULL)
        g_error ("a server that cannot write its record into %s.lock did not say so; it said: %s",
                 database, said->str);
      if (strstr (line, "cannot write this server's pid and socket into") != NULL)
        break;
      g_string_append_printf (said, "%s\n", line);
    }
  /* Whatever it does next on a full disk, it is not this test's. */
  g_subprocess_send_signal (process, SIGKILL);
  g_subprocess_wait (process, NULL, &error);
  g_assert_no_error (error);
  triage_test_remove_tree (dir);
}

/* A symbolic link to a held file is the same file: a second server given
 * the link claimed the link's name and served beside the first. */
static void
test_claim_through_link (void)
{
  g_autofree char *dir = g_dir_make_tmp ("triage-test-claim-XXXXXX", NULL);
  g_autofree char *database = g_build_filename (dir, "server.db", NULL);
  g_autofree char *link = g_build_filename (dir, "link.db", NULL);
  TriageTestServerOptions options = { .database = database };
  g_autoptr(TriageTestServer) first = NULL;
  g_autoptr(GSubprocess) second = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;

  first = triage_test_server_new (&options, &error);
  g_assert_no_error (error);
  g_assert_cmpint (symlink (database, link), ==, 0);
  second = spawn_on_file (link);
  g_subprocess_communicate_utf8 (second, NULL, NULL, NULL, &err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (second));
  if (g_subprocess_get_exit_status (second) != 1 ||
      strstr (err, "is in use by another triage-server") == NULL)
    g_error ("a second server on a link to a held file: expected exit 1, got %d: %s",
             g_subprocess_get_exit_status (second), err);
  g_assert_true (triage_test_server_stop (first));
  g_clear_pointer (&first, triage_test_server_free);
  triage_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/server/sqlite-claim/start-together", test_start_together);
  g_test_add_func ("/server/sqlite-claim/killed", test_claim_after_kill);
  g_test_add_func ("/server/sqlite-claim/local-second", test_local_second);
  g_test_add_func ("/server/sqlite-claim/local-record-awaited", test_local_record_awaited);
  g_test_add_func ("/server/sqlite-claim/local-old-holder", test_local_old_holder);
  g_test_add_func ("/server/sqlite-claim/record-unwritten", test_record_unwritten);
  g_test_add_func ("/server/sqlite-claim/through-link", test_claim_through_link);
  return g_test_run ();
}
