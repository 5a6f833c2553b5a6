/* test-server-file-size.c — a file size limit is a full disk, not the
 * server's death
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tests of a full disk set the server's RLIMIT_FSIZE with their own
 * SIGXFSZ ignored, which the server inherited: a write past the limit then
 * failed with EFBIG, as on a full disk. A server started under a limit by
 * an operator (systemd's LimitFSIZE=, ulimit -f) inherited no such thing,
 * and SIGXFSZ's default action killed it at the first write past the limit.
 * Here the test leaves SIGXFSZ as it comes (its default): the server must
 * answer 503 STORAGE_UNAVAILABLE, keep its database whole, and store the
 * same request once the limit is lifted. SQLite only (the limit is the
 * server process's own files). And it says so once, not once a batch: each
 * failed commit was a warning line of its own, a line every few ms under
 * load for as long as the disk stayed full.
 */

#define G_LOG_DOMAIN "test-server-file-size"

#include <signal.h>

#include "server-test-util.h"

#define BODY "{\"id\":\"6d1b9f2e-58a4-4c38-9a34-0a6f1f0c2a11\",\"context\":{\"title\":\"Full\"," \
             "\"description\":\"D\"},\"actions\":[{\"id\":\"ok\",\"label\":\"OK\"," \
             "\"response_type\":\"simple\"}]}"

static void
test_limit (void)
{
  const char * const alice[] = { "alice", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("triage-file-size-XXXXXX", &error);
  g_autofree char *log = g_build_filename (dir, "server.log", NULL);
  TriageTestServerOptions options = { .log_file = log };
  g_autoptr(TriageTestServer) server = triage_test_server_new (&options, &error);
  g_autofree char *token = NULL, *key = NULL, *check = NULL, *listed = NULL, *filled = NULL;
  g_autofree char *expected = NULL;
  guint64 count;
  g_autoptr(SrvAnswer) answer = NULL;

  g_assert_no_error (error);
  g_assert_false (triage_test_server_is_postgres (server));
  g_assert_true (triage_test_server_create_user (server, "alice", &token, &error));
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_service (server, "deploy-bot", alice, NULL, NULL, &key,
                                                    NULL, &error));
  g_assert_no_error (error);

  /* Above the server's log (its standard error, a file here, under the
   * same limit), below what the database's WAL soon takes. */
  triage_test_server_set_file_size_limit (server, 128 * 1024);
  for (guint i = 0; i < 500; i++)
    {
      g_autofree char *title = g_strdup_printf ("Filler %u", i);
      g_autofree char *body = g_strdup_printf ("{\"context\":{\"title\":\"%s\","
                                               "\"description\":\"D\"},\"actions\":[{\"id\":"
                                               "\"ok\",\"label\":\"OK\",\"response_type\":"
                                               "\"simple\"}]}", title);

      answer = srv_request (server, "POST", "/api/v1/notifications", key, body);
      if (answer->status != 201)
        break;
      g_clear_pointer (&answer, srv_answer_free);
    }
  g_assert_nonnull (answer);
  srv_assert_status (answer, 503, "STORAGE_UNAVAILABLE");
  g_clear_pointer (&answer, srv_answer_free);
  filled = srv_run_sql (server, "SELECT COUNT (*) FROM notifications");
  for (guint i = 0; i < 3; i++)
    {
      answer = srv_request (server, "POST", "/api/v1/notifications", key, BODY);
      srv_assert_status (answer, 503, "STORAGE_UNAVAILABLE");
      g_assert_cmpstr (soup_message_headers_get_one (answer->headers, "Retry-After"), ==, "1");
      g_clear_pointer (&answer, srv_answer_free);
    }
  /* Four batches failed, one line said so (the next after 10 s). */
  g_assert_cmpuint (srv_count_in_file (log, "a batch was not stored"), ==, 1);
  /* Reads go on. */
  answer = srv_request (server, "GET", "/api/v1/client/notifications", token, NULL);
  srv_assert_status (answer, 200, NULL);
  g_clear_pointer (&answer, srv_answer_free);

  triage_test_server_set_file_size_limit (server, G_MAXUINT64);
  answer = srv_request (server, "POST", "/api/v1/notifications", key, BODY);
  srv_assert_status (answer, 201, NULL);
  g_clear_pointer (&answer, srv_answer_free);
  /* Nothing of the failed ones stored, the one retried stored once. */
  count = g_ascii_strtoull (filled, NULL, 10);
  expected = g_strdup_printf ("%" G_GUINT64_FORMAT "\n", count + 1);
  listed = srv_run_sql (server, "SELECT COUNT (*) FROM notifications");
  g_assert_cmpstr (listed, ==, expected);
  check = srv_run_sql (server, "PRAGMA integrity_check");
  g_assert_cmpstr (check, ==, "ok\n");
  g_assert_true (triage_test_server_stop (server));
  g_clear_pointer (&server, triage_test_server_free);
  triage_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  /* As an operator's shell or service manager starts the server: SIGXFSZ
   * not ignored (an ignored one would be inherited, and hide the fault). */
  signal (SIGXFSZ, SIG_DFL);

  g_test_add_func ("/server/file-size/limit", test_limit);
  return g_test_run ();
}
