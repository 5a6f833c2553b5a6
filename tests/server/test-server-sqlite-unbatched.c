/* test-server-sqlite-unbatched.c — events that could not be written on
 * their own are said once, then counted
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * When the database would not open a batch, the store writes each change
 * on its own, and then its events. Events that could not be written were a
 * warning each time (a line a request for as long as it lasted; a server
 * run with G_DEBUG=fatal-warnings, as here, died of the first). Now they
 * go the way of every database failure (triage-log-limit.h): the first
 * said at once, the next ones counted. The batch is refused by
 * refuse-begin.c, preloaded into the server, and the events by a trigger.
 * SQLite only.
 */

#define G_LOG_DOMAIN "test-server-sqlite-unbatched"

#include <glib/gstdio.h>

#include "server-test-util.h"

#ifndef TRIAGE_TEST_SANITIZED
static void
test_events_refused (void)
{
  const char * const alice[] = { "alice", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("triage-unbatched-XXXXXX", &error);
  g_autofree char *log = g_build_filename (dir, "server.log", NULL);
  g_autofree char *refuse = g_build_filename (dir, "refuse-begin", NULL);
  TriageTestServerOptions options = { .log_file = log };
  g_autoptr(TriageTestServer) server = NULL;
  g_autofree char *key = NULL, *token = NULL;

  g_assert_no_error (error);
  /* For the server alone (the environment its launcher copies). */
  g_setenv ("LD_PRELOAD", REFUSE_BEGIN_PATH, TRUE);
  g_setenv ("TRIAGE_TEST_REFUSE_BEGIN", refuse, TRUE);
  server = triage_test_server_new (&options, &error);
  g_unsetenv ("LD_PRELOAD");
  g_unsetenv ("TRIAGE_TEST_REFUSE_BEGIN");
  g_assert_no_error (error);
  g_assert_false (triage_test_server_is_postgres (server));
  g_assert_true (triage_test_server_create_user (server, "alice", &token, &error));
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_service (server, "deploy-bot", alice, NULL, NULL, &key,
                                                    NULL, &error));
  g_assert_no_error (error);

  srv_refuse_inserts (server, "events", "events refused by the test", FALSE);
  g_assert_true (g_file_set_contents (refuse, "", 0, NULL));
  /* Each request stored on its own, its event not. */
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *id = srv_post (server, key, "Unbatched");

      g_assert_nonnull (id);
    }
  g_assert_cmpuint (srv_count_in_file (log, "cannot write events"), ==, 1);
  g_assert_cmpuint (srv_count_in_file (log, "events refused by the test"), ==, 1);

  g_assert_cmpint (g_remove (refuse), ==, 0);
  g_assert_true (triage_test_server_stop (server));
  g_clear_pointer (&server, triage_test_server_free);
  triage_test_remove_tree (dir);
}
#else
static void
test_events_refused (void)
{
  g_test_skip ("refuse-begin.c is not preloaded into a server built with sanitizers (their "
               "runtime must come first)");
}
#endif

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/server/sqlite-unbatched/events-refused", test_events_refused);
  return g_test_run ();
}
