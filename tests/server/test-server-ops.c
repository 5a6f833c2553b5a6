/* test-server-ops.c — what an operator relies on: /healthz, /readyz and the
 * drain on SIGTERM, through start, serve, drain and stop
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-server-ops"

#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "server-ops-test-common.h"

typedef struct
{
  GBytes *body;
  guint   status;
  gboolean done;
} Pending;

static void
long_poll_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      data)
{
  Pending *pending = data;
  g_autoptr(GError) error = NULL;

  pending->body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  g_assert_no_error (error);
  pending->status = soup_message_get_status (soup_session_get_async_result_message (SOUP_SESSION (object),
                                                                                    result));
  pending->done = TRUE;
}

/* No token, nothing but the state; a wrong method or a longer path is no probe. */
static void
test_probes (ServerOpsFixture *fixture,
             gconstpointer     data)
{
  g_autoptr(SrvAnswer) post = NULL, deeper = NULL, head = NULL;

  server_ops_test_assert_probe (fixture->server, "/healthz", 200, "ok");
  server_ops_test_assert_probe (fixture->server, "/readyz", 200, "ready");
  post = srv_request (fixture->server, "POST", "/readyz", NULL, "{}");
  srv_assert_status (post, 405, "METHOD_NOT_ALLOWED");
  deeper = srv_request (fixture->server, "GET", "/healthz/more", NULL, NULL);
  srv_assert_status (deeper, 404, "NOT_FOUND");
  head = srv_request (fixture->server, "HEAD", "/readyz", NULL, NULL);
  g_assert_cmpuint (head->status, ==, 200);
}

/* Start, serve, drain, stop, start again: what /readyz says at each step,
 * and what streams, new streams, requests and long-polls get. */
static void
test_lifecycle (ServerOpsFixture *fixture,
                gconstpointer     data)
{
  g_autofree char *id = srv_post (fixture->server, fixture->key, "Before the drain");
  g_autofree char *during = NULL, *path = NULL, *url = NULL;
  g_autoptr(SrvSocket) sock = srv_ws_open (fixture->server, fixture->alice, NULL);
  g_autoptr(SrvEvents) events = srv_events_open (fixture->server, fixture->alice, NULL, NULL);
  g_autoptr(SrvSocket) refused = NULL;
  g_autoptr(SrvEvents) refused_events = NULL;
  g_autoptr(SoupMessage) msg = NULL;
  g_autoptr(JsonObject) view = NULL;
  g_autoptr(GError) error = NULL;
  Pending pending = { NULL };
  GPid pid = triage_test_server_get_pid (fixture->server);

  /* Serving. */
  server_ops_test_assert_probe (fixture->server, "/readyz", 200, "ready");
  g_assert_nonnull (sock->ws);
  srv_wait_until (srv_find_event (events, "ping", NULL) != NULL, "the first ping");
  path = g_strdup_printf ("/api/v1/notifications/%s?wait=30", id);
  url = g_strconcat (triage_test_server_get_url (fixture->server), path, NULL);
  msg = soup_message_new ("GET", url);
  {
    g_autofree char *auth = g_strconcat ("Bearer ", fixture->key, NULL);

    soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
  }
  soup_session_send_and_read_async (triage_test_server_get_session (fixture->server), msg,
                                    G_PRIORITY_DEFAULT, NULL, long_poll_cb, &pending);

  /* Draining: not ready, streams told to go elsewhere and refused, requests served. */
  kill (pid, SIGTERM);
  srv_wait_until (sock->closed && events->ended, "the streams to end");
  g_assert_cmpuint (sock->close_code, ==, SOUP_WEBSOCKET_CLOSE_GOING_AWAY);
  server_ops_test_assert_probe (fixture->server, "/readyz", 503, "draining");
  server_ops_test_assert_probe (fixture->server, "/healthz", 200, "ok");
  refused = srv_ws_open (fixture->server, fixture->alice, NULL);
  g_assert_null (refused->ws);
  g_assert_cmpuint (refused->status, ==, 503);
  refused_events = srv_events_open (fixture->server, fixture->alice, NULL, NULL);
  g_assert_cmpuint (refused_events->status, ==, 503);
  during = srv_post (fixture->server, fixture->key, "During the drain");
  g_assert_false (pending.done);

  /* A second signal ends the delay: the long-poll gets its answer, the server exits 0. */
  kill (pid, SIGTERM);
  srv_wait_until (pending.done, "the long-poll's answer");
  g_assert_cmpuint (pending.status, ==, 200);
  {
    g_autofree char *text = g_strndup (g_bytes_get_data (pending.body, NULL),
                                       g_bytes_get_size (pending.body));

    view = srv_parse_object (text);
  }
  g_assert_cmpstr (json_object_get_string_member (view, "id"), ==, id);
  g_bytes_unref (pending.body);
  g_assert_true (triage_test_server_stop (fixture->server));

  /* Stopped: nothing answers. */
  {
    g_autoptr(SoupSession) session = soup_session_new ();
    g_autofree char *probe = g_strconcat (triage_test_server_get_url (fixture->server), "/healthz",
                                          NULL);
    g_autoptr(SoupMessage) stopped = soup_message_new ("GET", probe);
    g_autoptr(GBytes) nothing = soup_session_send_and_read (session, stopped, NULL, &error);

    g_assert_null (nothing);
    g_assert_nonnull (error);
    g_clear_error (&error);
  }

  /* Started again on the same database: ready, and what was posted is there. */
  g_assert_true (triage_test_server_restart (fixture->server, NULL));
  server_ops_test_assert_probe (fixture->server, "/readyz", 200, "ready");
  {
    g_autofree char *state = srv_status_of (fixture->server, fixture->key, during);

    g_assert_cmpstr (state, ==, "created");
  }

  /* Drained with nothing open: the second signal (the teardown's) stops it at once. */
  kill (triage_test_server_get_pid (fixture->server), SIGTERM);
  /* The signal arrives when it arrives: ask again every few milliseconds. */
  for (guint tries = 0; !server_ops_test_readyz_says (fixture->server, "draining"); tries++)
    {
      g_assert_cmpuint (tries, <, TRIAGE_TEST_WATCHDOG_S * 50);
      srv_sleep (20);
    }
  server_ops_test_assert_probe (fixture->server, "/readyz", 503, "draining");
}

/* A database whose schema another (newer) server moved on: not ready, and
 * the reason says why; ready again once it is back. */
static void
test_readyz_schema (ServerOpsFixture *fixture,
                    gconstpointer     data)
{
  gboolean pg = triage_test_server_is_postgres (fixture->server);
  g_autoptr(GError) error = NULL;
  g_autofree char *version = triage_test_server_run_sql (fixture->server,
                                                         pg ? "SELECT version FROM triage_schema"
                                                            : "PRAGMA user_version", &error);
  g_autofree char *newer = NULL, *back = NULL, *done = NULL;
  g_autoptr(SrvAnswer) answer = NULL;
  g_autoptr(JsonObject) object = NULL;
  int current;

  g_assert_no_error (error);
  current = atoi (version);
  g_assert_cmpint (current, >, 0);
  newer = g_strdup_printf (pg ? "UPDATE triage_schema SET version = %d" : "PRAGMA user_version = %d",
                           current + 1);
  done = triage_test_server_run_sql (fixture->server, newer, &error);
  g_assert_no_error (error);
  answer = srv_request (fixture->server, "GET", "/readyz", NULL, NULL);
  srv_assert_status (answer, 503, NULL);
  object = srv_parse_object (answer->body);
  g_assert_cmpstr (json_object_get_string_member (object, "status"), ==, "unavailable");
  g_assert_nonnull (strstr (json_object_get_string_member (object, "reason"), "schema version"));
  server_ops_test_assert_probe (fixture->server, "/healthz", 200, "ok");
  /* The database answers: a wrong token is still wrong, not "try again". */
  {
    g_autoptr(SrvAnswer) wrong = srv_request (fixture->server, "GET", "/api/v1/client/notifications",
                                              "not-a-token-of-anyone", NULL);

    srv_assert_status (wrong, 401, "AUTH_INVALID_TOKEN");
  }

  back = g_strdup_printf (pg ? "UPDATE triage_schema SET version = %d" : "PRAGMA user_version = %d",
                          current);
  g_free (done);
  done = triage_test_server_run_sql (fixture->server, back, &error);
  g_assert_no_error (error);
  server_ops_test_assert_probe (fixture->server, "/readyz", 200, "ready");
}

/* SIGHUP (a terminal closed, a reload tried): said in the log, then drained
 * as for SIGTERM, and a clean exit. The server died of it (129), with no
 * drain and no word. */
static void
test_hangup (void)
{
  static const char * const delay[] = { "--drain-delay", "60", NULL };
  g_autofree char *dir = g_dir_make_tmp ("triage-test-hangup-XXXXXX", NULL);
  g_autofree char *log = g_build_filename (dir, "server.log", NULL);
  TriageTestServerOptions options = { .extra_args = delay, .log_file = log };
  g_autoptr(GError) error = NULL;
  g_autoptr(TriageTestServer) server = triage_test_server_new (&options, &error);
  g_autofree char *said = NULL;

  g_assert_no_error (error);
  server_ops_test_assert_probe (server, "/readyz", 200, "ready");
  kill (triage_test_server_get_pid (server), SIGHUP);
  srv_wait_until (server_ops_test_readyz_says (server, "draining"), "the drain after SIGHUP");
  server_ops_test_assert_probe (server, "/healthz", 200, "ok");
  /* A second signal ends the delay; the exit is clean. */
  g_assert_true (triage_test_server_stop (server));
  g_assert_true (g_file_get_contents (log, &said, NULL, NULL));
  g_assert_nonnull (strstr (said, "SIGHUP: triage-server has no configuration to reload"));
  triage_test_server_free (g_steal_pointer (&server));
  triage_test_remove_tree (dir);
}

/* ---- backup ---- */

#define POSTERS 4

typedef struct
{
  TriageTestServer *server;
  const char       *key;
  GPtrArray        *acknowledged;   /* ids answered 201, in order */
  guint             running;        /* posts under way */
  gboolean          stop;
} Posters;

static void post_next (Posters *posters);

static void
posted_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      data)
{
  Posters *posters = data;
  SoupMessage *msg = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  g_autoptr(GBytes) body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, NULL);

  posters->running--;
  if (body != NULL && soup_message_get_status (msg) == 201)
    {
      g_autofree char *text = g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
      g_autoptr(JsonObject) answer = srv_parse_object (text);

      g_ptr_array_add (posters->acknowledged,
                       g_strdup (json_object_get_string_member (answer, "notification_id")));
    }
  if (!posters->stop)
    post_next (posters);
}

static void
post_next (Posters *posters)
{
  g_autofree char *url = g_strconcat (triage_test_server_get_url (posters->server),
                                      "/api/v1/notifications", NULL);
  g_autofree char *auth = g_strconcat ("Bearer ", posters->key, NULL);
  static const char body[] = "{\"context\":{\"title\":\"Backed up\",\"description\":\"D\"},"
                             "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\","
                             "\"response_type\":\"simple\"}]}";
  g_autoptr(SoupMessage) msg = soup_message_new ("POST", url);
  g_autoptr(GBytes) bytes = g_bytes_new_static (body, strlen (body));

  soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
  soup_message_set_request_body_from_bytes (msg, "application/json", bytes);
  posters->running++;
  soup_session_send_and_read_async (triage_test_server_get_session (posters->server), msg,
                                    G_PRIORITY_DEFAULT, NULL, posted_cb, posters);
}

static void
backup_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      data)
{
  gboolean *done = data;

  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  *done = TRUE;
}

/* A backup taken while four clients post holds every notification whose 201
 * came before it started, and opens cleanly. */
static void
test_backup (ServerOpsFixture *fixture,
             gconstpointer     data)
{
  g_autofree char *dir = g_dir_make_tmp ("triage-test-backup-XXXXXX", NULL);
  g_autofree char *copy = g_build_filename (dir, "copy.db", NULL);
  g_autoptr(GPtrArray) before = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GSubprocess) backup = NULL;
  g_autoptr(GError) error = NULL;
  Posters posters = { fixture->server, fixture->key, g_ptr_array_new_with_free_func (g_free) };
  gboolean done = FALSE;
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  GStatBuf st;
  mode_t umask_before;

  if (triage_test_server_is_postgres (fixture->server))
    {
      /* PostgreSQL: the subcommand points to pg_dump. */
      g_autofree char *err = NULL;

      backup = g_subprocess_new (G_SUBPROCESS_FLAGS_STDERR_PIPE, &error, g_getenv ("TRIAGE_SERVER"),
                                 "backup", "--database",
                                 triage_test_server_get_database (fixture->server), copy, NULL);
      g_assert_no_error (error);
      g_subprocess_communicate_utf8 (backup, NULL, NULL, NULL, &err, &error);
      g_assert_no_error (error);
      g_assert_cmpint (g_subprocess_get_exit_status (backup), ==, 2);
      g_assert_nonnull (strstr (err, "pg_dump"));
      triage_test_remove_tree (dir);
      g_ptr_array_unref (posters.acknowledged);
      return;
    }

  for (guint i = 0; i < POSTERS; i++)
    post_next (&posters);
  srv_wait_until (posters.acknowledged->len >= 40, "the first answers");
  /* What was acknowledged before the backup starts must be in it. */
  for (guint i = 0; i < posters.acknowledged->len; i++)
    g_ptr_array_add (before, g_strdup (posters.acknowledged->pdata[i]));
  /* The usual umask, which would leave the copy readable by everybody. */
  umask_before = umask (022);
  backup = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error, g_getenv ("TRIAGE_SERVER"),
                             "backup", "--database",
                             triage_test_server_get_database (fixture->server), copy, NULL);
  umask (umask_before);
  g_assert_no_error (error);
  g_subprocess_wait_async (backup, NULL, backup_done_cb, &done);
  srv_wait_until (done, "the backup");
  g_assert_true (g_subprocess_get_if_exited (backup));
  g_assert_cmpint (g_subprocess_get_exit_status (backup), ==, 0);
  g_test_message ("%u acknowledged before the backup, %u when it ended", before->len,
                  posters.acknowledged->len);
  posters.stop = TRUE;
  srv_wait_until (posters.running == 0, "the posts under way");

  /* It holds the webhook secrets as given: its owner's only. */
  g_assert_cmpint (g_stat (copy, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_cmpint (sqlite3_open_v2 (copy, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA integrity_check", -1, &stmt, NULL), ==,
                   SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 0), ==, "ok");
  sqlite3_finalize (stmt);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT 1 FROM notifications WHERE id = ?", -1, &stmt,
                                       NULL), ==, SQLITE_OK);
  for (guint i = 0; i < before->len; i++)
    {
      sqlite3_bind_text (stmt, 1, before->pdata[i], -1, SQLITE_STATIC);
      if (sqlite3_step (stmt) != SQLITE_ROW)
        g_error ("notification %s, acknowledged before the backup, is not in it",
                 (char *) before->pdata[i]);
      sqlite3_reset (stmt);
    }
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  g_ptr_array_unref (posters.acknowledged);
  triage_test_remove_tree (dir);
}

/* triage-server backup with @args: its exit status, its standard error in @err. */
static int
run_backup (const char * const *args,
            char              **err)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) backup = NULL;
  g_autoptr(GError) error = NULL;

  g_ptr_array_add (argv, (gpointer) g_getenv ("TRIAGE_SERVER"));
  g_ptr_array_add (argv, "backup");
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  backup = g_subprocess_newv ((const char * const *) argv->pdata,
                              G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                              &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (backup, NULL, NULL, NULL, err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (backup));
  return g_subprocess_get_exit_status (backup);
}

/* The running server's database is never a backup's DEST, by its name or
 * another (the server stays ready); an existing file only with --force. */
static void
test_backup_dest (ServerOpsFixture *fixture,
                  gconstpointer     data)
{
  const char *database = triage_test_server_get_database (fixture->server);
  g_autofree char *dir = g_dir_make_tmp ("triage-test-backup-XXXXXX", NULL);
  g_autofree char *copy = g_build_filename (dir, "copy.db", NULL);
  g_autofree char *other_name = g_build_filename (dir, "same.db", NULL);
  g_autofree char *notes = g_build_filename (dir, "notes.txt", NULL);
  g_autofree char *empty = g_build_filename (dir, "empty", NULL);
  g_autofree char *err = NULL, *kept = NULL;
  const char *onto_itself[] = { "--database", database, database, NULL };
  const char *onto_link[] = { "--database", database, other_name, NULL };
  const char *fresh[] = { "--database", database, copy, NULL };
  const char *forced[] = { "--database", database, "--force", copy, NULL };
  const char *forced_itself[] = { "--database", database, "--force", other_name, NULL };
  const char *onto_notes[] = { "--database", database, notes, NULL };
  const char *onto_empty[] = { "--database", database, empty, NULL };
  const char *onto_folder[] = { "--database", database, dir, NULL };
  const char *forgotten[] = { database, NULL };
  GStatBuf before, after;

  if (triage_test_server_is_postgres (fixture->server))
    {
      triage_test_remove_tree (dir);
      g_test_skip ("a SQLite file's backup");
      return;
    }
  g_free (srv_post (fixture->server, fixture->key, "Kept"));
  g_assert_cmpint (g_stat (database, &before), ==, 0);
  g_assert_cmpint (link (database, other_name), ==, 0);
  g_assert_cmpint (run_backup (onto_itself, &err), ==, 2);
  g_assert_nonnull (strstr (err, "is the database being backed up"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_backup (onto_link, &err), ==, 2);
  g_assert_nonnull (strstr (err, "is the database being backed up"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_backup (forced_itself, &err), ==, 2);
  g_clear_pointer (&err, g_free);
  /* --database forgotten, no database where it would be by default. */
  g_assert_cmpint (run_backup (forgotten, &err), ==, 2);
  g_assert_nonnull (strstr (err, "no --database given"));
  g_assert_nonnull (strstr (err, database));
  g_clear_pointer (&err, g_free);
  /* The server's file itself, not a copy renamed over it. */
  g_assert_cmpint (g_stat (database, &after), ==, 0);
  g_assert_cmpuint (after.st_ino, ==, before.st_ino);
  server_ops_test_assert_probe (fixture->server, "/readyz", 200, "ready");

  g_assert_cmpint (run_backup (fresh, &err), ==, 0);
  g_clear_pointer (&err, g_free);
  /* Another database there (a server's, --database forgotten). */
  g_assert_cmpint (run_backup (fresh, &err), ==, 2);
  g_assert_nonnull (strstr (err, "is an existing SQLite database"));
  g_assert_nonnull (strstr (err, "--force"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_backup (forced, &err), ==, 0);
  g_clear_pointer (&err, g_free);

  g_assert_true (g_file_set_contents (notes, "mine\n", -1, NULL));
  g_assert_cmpint (run_backup (onto_notes, &err), ==, 2);
  g_assert_nonnull (strstr (err, "exists: give a new file as DEST, or --force"));
  g_clear_pointer (&err, g_free);
  g_assert_true (g_file_get_contents (notes, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, "mine\n");
  g_assert_cmpint (run_backup (onto_folder, &err), ==, 2);
  g_assert_nonnull (strstr (err, "is a folder"));
  g_clear_pointer (&err, g_free);
  /* Another running server's database: not even with --force. */
  {
    g_autofree char *served = g_build_filename (dir, "served.db", NULL);
    TriageTestServerOptions options = { .database = served };
    g_autoptr(TriageTestServer) other = triage_test_server_new (&options, NULL);
    const char *onto_served[] = { "--database", database, "--force", served, NULL };
    g_autofree char *expected = NULL;

    g_assert_nonnull (other);
    expected = g_strdup_printf ("%s is the database of a running triage-server (pid %d)", served,
                                (int) triage_test_server_get_pid (other));
    g_assert_cmpint (run_backup (onto_served, &err), ==, 2);
    if (strstr (err, expected) == NULL)
      g_error ("expected \"%s\", got %s", expected, err);
    g_clear_pointer (&err, g_free);
    g_assert_true (triage_test_server_stop (other));
    /* Stopped, it is a file like another. */
    g_assert_cmpint (run_backup (onto_served, &err), ==, 0);
    g_clear_pointer (&err, g_free);
  }
  /* An empty file (mktemp's) is taken. */
  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  g_assert_cmpint (run_backup (onto_empty, &err), ==, 0);
  triage_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  static const char * const delay[] = { "--drain-delay", "60", NULL };

  g_test_init (&argc, &argv, NULL);
  g_test_add ("/server/ops/probes", ServerOpsFixture, NULL, server_ops_test_fixture_setup,
              test_probes, server_ops_test_fixture_teardown);
  g_test_add ("/server/ops/lifecycle", ServerOpsFixture, delay, server_ops_test_fixture_setup,
              test_lifecycle, server_ops_test_fixture_teardown);
  g_test_add ("/server/ops/readyz-schema", ServerOpsFixture, NULL, server_ops_test_fixture_setup,
              test_readyz_schema, server_ops_test_fixture_teardown);
  g_test_add_func ("/server/ops/hangup", test_hangup);
  g_test_add ("/server/ops/backup", ServerOpsFixture, NULL, server_ops_test_fixture_setup,
              test_backup, server_ops_test_fixture_teardown);
  g_test_add ("/server/ops/backup-dest", ServerOpsFixture, NULL, server_ops_test_fixture_setup,
              test_backup_dest, server_ops_test_fixture_teardown);
  server_ops_test_add_database ();
  return g_test_run ();
}
