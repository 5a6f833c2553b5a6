/* test-server-sqlite-file.c — a database file removed under the running
 * server is not written into the void
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * SQLite keeps the file it opened. Removed (or moved away, or replaced by
 * another) while the server ran, the server went on answering 201 to every
 * request, stored in a file nobody would open again, and /readyz said
 * ready; at the next start all of it was gone. Now, within a second, the
 * server says so, refuses writes (503 STORAGE_UNAVAILABLE) and /readyz is
 * 503 unavailable with the reason. SQLite only.
 */

#define G_LOG_DOMAIN "test-server-sqlite-file"

#include <glib/gstdio.h>

#include "server-test-util.h"

static gboolean
readyz_says (TriageTestServer *server,
             const char       *state,
             const char       *reason)
{
  g_autoptr(SrvAnswer) answer = srv_request (server, "GET", "/readyz", NULL, NULL);
  g_autoptr(JsonObject) object = srv_parse_object (answer->body);

  return g_strcmp0 (json_object_get_string_member (object, "status"), state) == 0 &&
         (reason == NULL ||
          strstr (json_object_get_string_member_with_default (object, "reason", ""), reason));
}

#define AFTER "{\"context\":{\"title\":\"After\",\"description\":\"D\"}," \
              "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]}"

/* Posts until a POST is refused (the server looks at its file once a
 * second, with nobody asking /readyz); the watchdog fails the test if none
 * ever is. */
static SrvAnswer *
post_until_refused (TriageTestServer *server,
                    const char       *key)
{
  guint watchdog = g_timeout_add_seconds (TRIAGE_TEST_WATCHDOG_S, triage_test_watchdog_cb,
                                          (gpointer) "a POST refused once the file is gone");
  SrvAnswer *answer;

  while ((answer = srv_request (server, "POST", "/api/v1/notifications", key, AFTER))->status == 201)
    {
      srv_answer_free (answer);
      triage_test_sleep (50);
    }
  g_source_remove (watchdog);
  return answer;
}

static void
test_removed (void)
{
  const char * const alice[] = { "alice", NULL };
  /* The posts until it is refused are not to meet the rate limit. */
  const char * const args[] = { "--no-limits", NULL };
  TriageTestServerOptions options = { .extra_args = args };
  g_autoptr(GError) error = NULL;
  g_autoptr(TriageTestServer) server = triage_test_server_new (&options, &error);
  g_autofree char *key = NULL, *token = NULL, *moved = NULL, *moved_wal = NULL, *wal = NULL;
  g_autofree char *stored = NULL;
  g_autoptr(SrvAnswer) answer = NULL;
  const char *database;

  g_assert_no_error (error);
  g_assert_false (triage_test_server_is_postgres (server));
  g_assert_true (triage_test_server_create_user (server, "alice", &token, &error));
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_service (server, "deploy-bot", alice, NULL, NULL, &key,
                                                    NULL, &error));
  g_assert_no_error (error);
  stored = srv_post (server, key, "Before");
  g_assert_true (readyz_says (server, "ready", NULL));

  /* Moved away, as an operator's mv or rm (the server's open file is the
   * same either way); its WAL with it. */
  database = triage_test_server_get_database (server);
  moved = g_strconcat (database, ".moved", NULL);
  wal = g_strconcat (database, "-wal", NULL);
  moved_wal = g_strconcat (database, "-wal.moved", NULL);
  g_assert_cmpint (g_rename (database, moved), ==, 0);
  g_assert_cmpint (g_rename (wal, moved_wal), ==, 0);

  answer = post_until_refused (server, key);
  srv_assert_status (answer, 503, "STORAGE_UNAVAILABLE");
  g_assert_cmpstr (soup_message_headers_get_one (answer->headers, "Retry-After"), ==, "1");
  g_clear_pointer (&answer, srv_answer_free);
  g_assert_true (readyz_says (server, "unavailable", "was removed while the server had it open"));
  /* Still up: it answers what it has. */
  answer = srv_request (server, "GET", "/api/v1/client/notifications", token, NULL);
  srv_assert_status (answer, 200, NULL);
  g_assert_nonnull (strstr (answer->body, stored));
  g_clear_pointer (&answer, srv_answer_free);

  /* The file back where it was: the server stays out until it is started
   * again (it cannot know what was done to the file meanwhile), and then
   * serves from it. */
  g_assert_true (triage_test_server_stop (server));
  g_assert_cmpint (g_rename (moved, database), ==, 0);
  g_assert_cmpint (g_rename (moved_wal, wal), ==, 0);
  g_assert_true (triage_test_server_restart (server, &error));
  g_assert_no_error (error);
  g_assert_true (readyz_says (server, "ready", NULL));
  g_free (srv_post (server, key, "Again"));
  g_assert_true (triage_test_server_stop (server));
}

/* The folder the file is in renamed (an operator moving a data folder):
 * the path names no file any more, as when the file itself is removed. A
 * GFileMonitor of the file would not tell this (triage-store-sqlite-file.c). */
static void
test_folder_moved (void)
{
  const char * const alice[] = { "alice", NULL };
  const char * const args[] = { "--no-limits", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("triage-sqlite-file-XXXXXX", &error);
  g_autofree char *folder = g_build_filename (dir, "data", NULL);
  g_autofree char *moved = g_build_filename (dir, "data.moved", NULL);
  g_autofree char *database = g_build_filename (folder, "server.db", NULL);
  TriageTestServerOptions options = { .extra_args = args, .database = database };
  g_autoptr(TriageTestServer) server = NULL;
  g_autofree char *key = NULL;
  g_autoptr(SrvAnswer) answer = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  server = triage_test_server_new (&options, &error);
  g_assert_no_error (error);
  g_assert_false (triage_test_server_is_postgres (server));
  g_assert_true (triage_test_server_create_user (server, "alice", NULL, &error));
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_service (server, "deploy-bot", alice, NULL, NULL, &key,
                                                    NULL, &error));
  g_assert_no_error (error);
  g_free (srv_post (server, key, "Before"));
  g_assert_true (readyz_says (server, "ready", NULL));

  g_assert_cmpint (g_rename (folder, moved), ==, 0);
  answer = post_until_refused (server, key);
  srv_assert_status (answer, 503, "STORAGE_UNAVAILABLE");
  g_assert_true (readyz_says (server, "unavailable", "was removed while the server had it open"));
  g_assert_true (triage_test_server_stop (server));
  g_clear_pointer (&server, triage_test_server_free);
  triage_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/server/sqlite-file/removed", test_removed);
  g_test_add_func ("/server/sqlite-file/folder-moved", test_folder_moved);
  return g_test_run ();
}
