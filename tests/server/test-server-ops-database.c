/* test-server-ops-database.c — the server's database taken away, emptied and
 * restored under it, and a role that may only read and write its tables
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-server-ops"

#include <string.h>

#include <glib/gstdio.h>

#include "server-ops-test-common.h"
#include "atp.h"

/* The server's /metrics, scraped with the admin token. */
static char *
scrape (TriageTestServer *server)
{
  g_autoptr(SrvAnswer) answer = srv_request (server, "GET", "/metrics",
                                             triage_test_server_get_admin_token (server), NULL);

  g_assert_cmpuint (answer->status, ==, 200);
  return g_strdup (answer->body);
}

/* The server's database's name. */
static char *
database_name (TriageTestServer *server)
{
  const char *database = triage_test_server_get_database (server);

  return g_strndup (database + strlen ("postgresql:///"),
                    strcspn (database + strlen ("postgresql:///"), "?"));
}

/* Runs @sql in the cluster's own database (the server's may refuse
 * connections): the rows it gave. */
static char *
in_cluster (TriageTestServer *server,
            const char       *sql)
{
  const char *database = triage_test_server_get_database (server);
  g_autofree char *uri = g_strconcat ("postgresql:///postgres", strchr (database, '?'), NULL);
  g_autoptr(GError) error = NULL;
  char *out;

  out = triage_test_postgres_run_sql (uri, sql, &error);
  g_assert_no_error (error);
  return out;
}

/* Runs @before, the server's database name, @after in the cluster's own
 * database. */
static void
run_in_cluster (TriageTestServer *server,
                const char       *before,
                const char       *after)
{
  g_autofree char *name = database_name (server);
  g_autofree char *statement = g_strconcat (before, name, after, NULL);

  g_free (in_cluster (server, statement));
}

/* Ends every session of the server's database (the server connects again). */
static void
end_sessions (TriageTestServer *server)
{
  run_in_cluster (server, "SELECT pg_terminate_backend (pid) FROM pg_stat_activity"
                          " WHERE datname = '", "'");
}

/* The database goes away under a running server and comes back: /readyz
 * says unavailable (503) while /healthz stays 200, writes answer 503, and
 * /metrics leaves out what only the database knows (the pending requests,
 * the webhook queue) instead of saying 0; all is back once it is. */
static void
test_database_away (void)
{
  g_autofree char *id = NULL, *up = NULL, *down = NULL, *back = NULL;
  g_autofree char *debug = g_strdup (g_getenv ("G_DEBUG"));
  g_autoptr(SrvAnswer) refused = NULL;
  ServerOpsFixture storage = { NULL }, *fixture = &storage;

  if (!triage_test_postgres_wanted ())
    {
      g_test_skip ("a PostgreSQL database to take away (SQLite is a file of the server's)");
      return;
    }
  /* The server warns that its database went away: not fatal for it here. */
  g_unsetenv ("G_DEBUG");
  server_ops_test_fixture_setup (fixture, NULL);
  if (debug != NULL)
    g_setenv ("G_DEBUG", debug, TRUE);
  id = srv_post (fixture->server, fixture->key, "Waiting");
  up = scrape (fixture->server);
  g_assert_nonnull (strstr (up, "\ntriage_ready 1\n"));
  g_assert_nonnull (strstr (up, "\ntriage_requests_pending{protocol=\"atp\"} 1\n"));
  g_assert_nonnull (strstr (up, "\ntriage_webhook_queue_depth 0\n"));

  run_in_cluster (fixture->server, "ALTER DATABASE \"", "\" ALLOW_CONNECTIONS false");
  end_sessions (fixture->server);
  srv_wait_until (server_ops_test_readyz_says (fixture->server, "unavailable"),
                  "/readyz without the database");
  server_ops_test_assert_probe (fixture->server, "/readyz", 503, "unavailable");
  server_ops_test_assert_probe (fixture->server, "/healthz", 200, "ok");
  refused = srv_request (fixture->server, "POST", "/api/v1/notifications", fixture->key,
                         "{\"context\":{\"title\":\"T\",\"description\":\"D\"},\"actions\":"
                         "[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]}");
  g_assert_cmpuint (refused->status, ==, 503);
  down = scrape (fixture->server);
  g_assert_nonnull (strstr (down, "\ntriage_ready 0\n"));
  /* Declared, with no sample: unknown, not zero. */
  g_assert_nonnull (strstr (down, "# TYPE triage_requests_pending gauge\n"));
  g_assert_null (strstr (down, "\ntriage_requests_pending{"));
  g_assert_null (strstr (down, "\ntriage_webhook_queue_depth "));
  g_assert_null (strstr (down, "\ntriage_webhook_failed "));

  run_in_cluster (fixture->server, "ALTER DATABASE \"", "\" ALLOW_CONNECTIONS true");
  srv_wait_until (server_ops_test_readyz_says (fixture->server, "ready"),
                  "/readyz with the database back");
  back = scrape (fixture->server);
  g_assert_nonnull (strstr (back, "\ntriage_ready 1\n"));
  g_assert_nonnull (strstr (back, "\ntriage_requests_pending{protocol=\"atp\"} 1\n"));
  g_free (srv_post (fixture->server, fixture->key, "After"));
  server_ops_test_fixture_teardown (fixture, NULL);
}

/* What /readyz gives as its reason, "" when it gives none. */
static char *
readyz_reason (TriageTestServer *server)
{
  g_autoptr(SrvAnswer) answer = srv_request (server, "GET", "/readyz", NULL, NULL);
  g_autoptr(JsonObject) object = srv_parse_object (answer->body);

  return g_strdup (json_object_get_string_member_with_default (object, "reason", ""));
}

static gboolean
readyz_reason_has (TriageTestServer *server,
                   const char       *words)
{
  g_autofree char *reason = readyz_reason (server);

  return strstr (reason, words) != NULL;
}

/* The database dropped and made again (empty) under a running server: it
 * answers, so /readyz says what is wrong — no schema — rather than "does
 * not answer", and the server does not make one of its own (a restore
 * going into that database would meet its tables); ready again once a
 * schema is back (here: another server started on the database made it). */
static void
test_database_emptied (void)
{
  g_autofree char *tables = NULL, *search_path = NULL, *create = NULL;
  g_autoptr(GError) error = NULL;
  TriageTestServerOptions options = { 0 };
  TriageTestServer *other = NULL;
  ServerOpsFixture storage = { NULL }, *fixture = &storage;

  if (!triage_test_postgres_wanted ())
    {
      g_test_skip ("a PostgreSQL database to drop (SQLite is a file of the server's)");
      return;
    }
  server_ops_test_fixture_setup (fixture, NULL);
  g_free (srv_post (fixture->server, fixture->key, "Before"));

  run_in_cluster (fixture->server, "DROP DATABASE \"", "\" WITH (FORCE)");
  run_in_cluster (fixture->server, "CREATE DATABASE \"", "\"");
  srv_wait_until (readyz_reason_has (fixture->server, "no Triage schema"),
                  "/readyz saying the database has no schema");
  server_ops_test_assert_probe (fixture->server, "/readyz", 503, "unavailable");
  server_ops_test_assert_probe (fixture->server, "/healthz", 200, "ok");
  tables = triage_test_server_run_sql (fixture->server, "SELECT count (*) FROM pg_tables WHERE"
                                       " schemaname NOT IN ('pg_catalog', 'information_schema')",
                                       &error);
  g_assert_no_error (error);
  g_assert_cmpstr (g_strstrip (tables), ==, "0");

  /* The tests' servers each have a schema of the one database (the
   * search_path of their URI): made again, and another server started on it. */
  search_path = triage_test_server_run_sql (fixture->server, "SHOW search_path", &error);
  g_assert_no_error (error);
  create = g_strconcat ("CREATE SCHEMA ", g_strstrip (search_path), NULL);
  g_free (triage_test_server_run_sql (fixture->server, create, &error));
  g_assert_no_error (error);
  options.database = triage_test_server_get_database (fixture->server);
  other = triage_test_server_new (&options, &error);
  g_assert_no_error (error);
  srv_wait_until (server_ops_test_readyz_says (fixture->server, "ready"),
                  "/readyz once the schema is back");
  g_assert_true (triage_test_server_stop (other));
  triage_test_server_free (other);
  server_ops_test_fixture_teardown (fixture, NULL);
}

/* A user GET with @token answers @status (the user's own list). */
static void
assert_user_get (TriageTestServer *server,
                 const char       *token,
                 guint             status)
{
  g_autoptr(SrvAnswer) answer = srv_request (server, "GET", "/api/v1/client/notifications", token,
                                             NULL);

  srv_assert_status (answer, status, status == 503 ? "STORAGE_UNAVAILABLE" : NULL);
}

/* A service's POST with @key answers @status; returns its request id. */
static char *
post_answered (TriageTestServer *server,
               const char       *key,
               guint             status)
{
  g_autoptr(SrvAnswer) answer = NULL;
  const char *request_id;

  answer = srv_request (server, "POST", "/api/v1/notifications", key,
                        "{\"context\":{\"title\":\"T\",\"description\":\"D\"},\"actions\":"
                        "[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]}");
  srv_assert_status (answer, status, status == 503 ? "STORAGE_UNAVAILABLE" : NULL);
  request_id = soup_message_headers_get_one (answer->headers, "X-Request-ID");
  g_assert_nonnull (request_id);
  return g_strdup (request_id);
}

static void
assert_post (TriageTestServer *server,
             const char       *key,
             guint             status)
{
  g_free (post_answered (server, key, status));
}

/* The lines of the log at @path that hold @part. */
static GStrv
lines_with (const char *path,
            const char *part)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GStrvBuilder) found = g_strv_builder_new ();

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], part) != NULL)
      g_strv_builder_add (found, lines[i]);
  return g_strv_builder_end (found);
}

/* A server on PostgreSQL with user alice (@alice, her token) and service
 * deploy-bot (@key) sending to her. */
static TriageTestServer *
restoring_server_new (TriageTestServerOptions *options,
                      char                   **alice,
                      char                   **key)
{
  const char * const alice_only[] = { "alice", NULL };
  g_autoptr(GError) error = NULL;
  TriageTestServer *server = triage_test_server_new (options, &error);

  g_assert_no_error (error);
  triage_test_server_create_user (server, "alice", alice, &error);
  g_assert_no_error (error);
  triage_test_server_create_service (server, "deploy-bot", alice_only, NULL, NULL, key, NULL,
                                     &error);
  g_assert_no_error (error);
  return server;
}

/* The database made read-only under running servers (ALTER DATABASE … SET
 * default_transaction_read_only, as a hot standby would be): /readyz says
 * so (503, and triage_ready 0) instead of "ready" while every change gets
 * 503, a wrong key is still 401 (the database reads), and the server is
 * ready and takes changes again once the database is writable, with no
 * restart and no session ended by anyone (the setting is a session's from
 * its start: the server makes new ones). */
static void
test_database_read_only (void)
{
  g_autoptr(SrvAnswer) wrong = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *down = NULL, *dir = NULL, *log = NULL, *refused = NULL;
  g_auto(GStrv) said = NULL;
  TriageTestServerOptions options = { 0 };
  ServerOpsFixture storage = { NULL }, *fixture = &storage;

  if (!triage_test_postgres_wanted ())
    {
      g_test_skip ("a PostgreSQL database to make read-only");
      return;
    }
  dir = g_dir_make_tmp ("triage-read-only-XXXXXX", &error);
  g_assert_no_error (error);
  log = g_build_filename (dir, "server.log", NULL);
  options.log_file = log;
  fixture->server = restoring_server_new (&options, &fixture->alice, &fixture->key);
  assert_post (fixture->server, fixture->key, 201);

  run_in_cluster (fixture->server, "ALTER DATABASE \"",
                  "\" SET default_transaction_read_only = on");
  end_sessions (fixture->server);
  srv_wait_until (readyz_reason_has (fixture->server, "read-only"),
                  "/readyz saying the database is read-only");
  server_ops_test_assert_probe (fixture->server, "/readyz", 503, "unavailable");
  server_ops_test_assert_probe (fixture->server, "/healthz", 200, "ok");
  refused = post_answered (fixture->server, fixture->key, 503);
  wrong = srv_request (fixture->server, "GET", "/api/v1/notifications/any", "sk_wrong", NULL);
  g_assert_cmpuint (wrong->status, ==, 401);
  down = scrape (fixture->server);
  g_assert_nonnull (strstr (down, "\ntriage_ready 0\n"));
  /* Said for what it is, in one line (not the statement's and then the
   * batch's, nor "not stored: not stored"), which names the request it
   * failed by its request id, as the request's line in the access log. */
  said = lines_with (log, "the database is read-only (25006)");
  g_assert_cmpuint (g_strv_length (said), ==, 1);
  g_assert_nonnull (strstr (said[0], "a batch was not stored (request "));
  g_assert_nonnull (strstr (said[0], refused));
  g_assert_cmpuint (srv_count_in_file (log, refused), ==, 2);
  g_assert_cmpuint (srv_count_in_file (log, "not stored: the batch was not stored"), ==, 0);

  run_in_cluster (fixture->server, "ALTER DATABASE \"",
                  "\" SET default_transaction_read_only = off");
  srv_wait_until (server_ops_test_readyz_says (fixture->server, "ready"),
                  "/readyz once the database is writable");
  assert_post (fixture->server, fixture->key, 201);
  server_ops_test_fixture_teardown (fixture, NULL);
  g_unlink (log);
  g_rmdir (dir);
}

/* Two tables restored under a running server as pg_restore does it: users
 * missing, made with no rows nor keys, loaded, then its keys built; the
 * webhook queue missing until the end. Until the schema is whole /readyz
 * says it is incomplete and nothing is served: no token is told 401 (a
 * client may drop it) and nothing is stored (a row could take an id the
 * restore loads next): 503. The scrapes that meet the missing queue are one
 * line in the log, not a warning each (fatal here). */
static void
test_database_restoring (void)
{
  g_autofree char *dir = g_dir_make_tmp ("triage-test-restoring-XXXXXX", NULL);
  g_autofree char *log = g_build_filename (dir, "server.log", NULL);
  TriageTestServerOptions options = { .log_file = log };
  g_autoptr(TriageTestServer) server = NULL;
  g_autofree char *alice = NULL, *key = NULL, *said = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  gint64 incomplete_since, incomplete_s;
  guint missing = 0;

  if (!triage_test_postgres_wanted ())
    {
      g_test_skip ("a PostgreSQL database restored under the server");
      return;
    }
  server = restoring_server_new (&options, &alice, &key);
  assert_post (server, key, 201);

  incomplete_since = g_get_monotonic_time ();
  g_free (triage_test_server_run_sql (server, "CREATE TABLE users_saved AS SELECT * FROM users;"
                                      " DROP TABLE users; ALTER TABLE webhook_deliveries"
                                      " RENAME TO webhook_deliveries_away", &error));
  g_assert_no_error (error);
  assert_user_get (server, alice, 503);
  g_assert_true (readyz_reason_has (server, "incomplete (users and "));
  for (guint i = 0; i < 12; i++)
    g_free (scrape (server));
  assert_post (server, key, 503);

  g_free (triage_test_server_run_sql (server, "CREATE TABLE users (id TEXT, name TEXT,"
                                      " token_hash TEXT)", &error));
  g_assert_no_error (error);
  g_assert_true (readyz_reason_has (server, "incomplete (webhook_deliveries and "));
  assert_user_get (server, alice, 503);
  assert_user_get (server, "not-a-token-of-anyone", 503);

  g_free (triage_test_server_run_sql (server, "INSERT INTO users SELECT * FROM users_saved;"
                                      " ALTER TABLE webhook_deliveries_away"
                                      " RENAME TO webhook_deliveries", &error));
  g_assert_no_error (error);
  g_assert_true (readyz_reason_has (server, "incomplete (users_pkey and 1 more missing)"));
  assert_user_get (server, alice, 503);
  assert_user_get (server, "not-a-token-of-anyone", 503);
  assert_post (server, key, 503);

  g_free (triage_test_server_run_sql (server, "ALTER TABLE users ADD PRIMARY KEY (id),"
                                      " ADD UNIQUE (token_hash); DROP TABLE users_saved", &error));
  g_assert_no_error (error);
  server_ops_test_assert_probe (server, "/readyz", 200, "ready");
  assert_user_get (server, alice, 200);
  assert_user_get (server, "not-a-token-of-anyone", 401);
  assert_post (server, key, 201);
  g_assert_true (triage_test_server_stop (server));
  /* Up to the stop, not the schema made whole: a count of failures held
   * back is said 10 s after the first failure, which may come after the
   * schema is whole again (a loaded machine took 9.4 s for the restore). */
  incomplete_s = (g_get_monotonic_time () - incomplete_since) / G_USEC_PER_SEC;

  g_assert_true (g_file_get_contents (log, &said, NULL, NULL));
  lines = g_strsplit (said, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    missing += strstr (lines[i], "42P01") != NULL;
  /* The first, then a count of the rest for every 10 s the failures went
   * on (more than one only on a busy machine): never one a scrape. */
  g_assert_cmpuint (missing, >=, 1);
  g_assert_cmpuint (missing, <=, 2 + incomplete_s / 10);
  triage_test_remove_tree (dir);
}

/* The status the database holds for request @id (AtpStatus). */
static int
stored_status (TriageTestServer *server,
               const char       *id)
{
  g_autofree char *sql = g_strdup_printf ("SELECT status FROM notifications WHERE id = '%s'", id);
  g_autoptr(GError) error = NULL;
  g_autofree char *status = triage_test_server_run_sql (server, sql, &error);

  g_assert_no_error (error);
  return (int) g_ascii_strtoll (g_strstrip (status), NULL, 10);
}

/* A request whose deadline passes while a table is missing under the
 * server (a restore under way) does not expire then: its events would take
 * ids the restore is about to load. It expires once the schema is whole. */
static void
test_database_restoring_expiry (void)
{
  TriageTestServerOptions options = { 0 };
  g_autoptr(TriageTestServer) server = NULL;
  g_autofree char *alice = NULL, *key = NULL;
  g_autoptr(GDateTime) deadline = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;
  gint64 give_up;

  if (!triage_test_postgres_wanted ())
    {
      g_test_skip ("a PostgreSQL database restored under the server");
      return;
    }
  server = restoring_server_new (&options, &alice, &key);
  /* The restore must begin before the deadline: a machine too slow for
   * that (a loaded one: the request posted, the table renamed) has the
   * request expire first, as it should, which tests nothing; then again,
   * with twice the time. */
  for (guint seconds = 2; ; seconds *= 2)
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
      g_autofree char *body = NULL, *deadline_text = NULL;
      g_autoptr(SrvAnswer) answer = NULL;
      g_autoptr(JsonObject) created = NULL;

      g_clear_pointer (&deadline, g_date_time_unref);
      deadline = g_date_time_add_seconds (now, seconds);
      deadline_text = atp_format_timestamp (deadline);
      body = g_strdup_printf ("{\"context\":{\"title\":\"T\",\"description\":\"D\"},"
                              "\"deadline\":\"%s\",\"actions\":[{\"id\":\"ok\",\"label\":\"OK\","
                              "\"response_type\":\"simple\"}]}", deadline_text);
      answer = srv_request (server, "POST", "/api/v1/notifications", key, body);
      srv_assert_status (answer, 201, NULL);
      created = srv_parse_object (answer->body);
      g_free (id);
      id = g_strdup (json_object_get_string_member (created, "notification_id"));

      g_free (triage_test_server_run_sql (server, "ALTER TABLE users RENAME TO users_away", &error));
      g_assert_no_error (error);
      if (g_get_real_time () < g_date_time_to_unix (deadline) * G_USEC_PER_SEC)
        break;
      g_free (triage_test_server_run_sql (server, "ALTER TABLE users_away RENAME TO users", &error));
      g_assert_no_error (error);
      g_assert_cmpuint (seconds, <, 64);
    }
  assert_user_get (server, alice, 503);
  /* Past the deadline and a retry of the server's timer after it. */
  while (g_get_real_time () < g_date_time_to_unix (deadline) * G_USEC_PER_SEC + 2 * G_USEC_PER_SEC)
    triage_test_sleep (100);
  g_assert_cmpint (stored_status (server, id), <, ATP_STATUS_RESPONDED);

  g_free (triage_test_server_run_sql (server, "ALTER TABLE users_away RENAME TO users", &error));
  g_assert_no_error (error);
  /* Expired by the timer's next try, within its retry (no event to wait for). */
  give_up = g_get_monotonic_time () + TRIAGE_TEST_WATCHDOG_S * G_USEC_PER_SEC;
  while (stored_status (server, id) != ATP_STATUS_EXPIRED)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, give_up);
      triage_test_sleep (100);
    }
  g_assert_true (triage_test_server_stop (server));
}

/* A role that may only read and write the tables (their owner made and
 * migrates them, as least privilege would have it) starts a server on the
 * database and serves: it used to be refused at start, as the schema
 * migration's CREATE ran even on a database that needed none. */
static void
test_dml_role (ServerOpsFixture *fixture,
               gconstpointer     data)
{
  const char *database = triage_test_server_get_database (fixture->server);
  TriageTestServerOptions options = { 0 };
  g_autoptr(TriageTestServer) server = NULL;
  g_autofree char *schema = NULL, *grants = NULL, *done = NULL, *uri = NULL, *id = NULL;
  g_auto(GStrv) parts = NULL;
  g_autoptr(GError) error = NULL;
  const char *at;

  if (!triage_test_server_is_postgres (fixture->server))
    {
      g_test_skip ("PostgreSQL's roles");
      return;
    }
  /* The test's schema: options=-csearch_path=NAME in the URI. */
  at = strstr (database, "search_path%3D");
  g_assert_nonnull (at);
  schema = g_strndup (at + strlen ("search_path%3D"), strcspn (at + strlen ("search_path%3D"), "&"));
  grants = g_strdup_printf ("CREATE ROLE triage_dml LOGIN;"
                            " GRANT USAGE ON SCHEMA %s TO triage_dml;"
                            " GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA %s"
                            " TO triage_dml;"
                            " GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA %s"
                            " TO triage_dml", schema, schema, schema);
  done = triage_test_server_run_sql (fixture->server, grants, &error);
  g_assert_no_error (error);
  parts = g_strsplit (database, "user=postgres", 2);
  g_assert_cmpuint (g_strv_length (parts), ==, 2);
  uri = g_strjoinv ("user=triage_dml", parts);

  options.database = uri;
  server = triage_test_server_new (&options, &error);
  g_assert_no_error (error);
  server_ops_test_assert_probe (server, "/readyz", 200, "ready");
  id = srv_post (server, fixture->key, "Through the role that only writes");
  g_assert_nonnull (id);
  g_assert_true (triage_test_server_stop (server));
}

/* No statement of the server is compiled by PostgreSQL's JIT: its writers
 * and listener plan no sequential scan, and a statement that has one
 * anyway (the read of triage_schema's row for /readyz, the counts of
 * /metrics, the migration's) was costed so high that each run of it was
 * compiled first: tens of milliseconds of the database's CPU for every
 * probe, 0.3 s for a new schema. */
static void
test_no_jit (void)
{
  g_autofree char *available = NULL, *name = NULL, *count = NULL, *compiled = NULL;
  ServerOpsFixture storage = { NULL }, *fixture = &storage;

  if (!triage_test_postgres_wanted ())
    {
      g_test_skip ("PostgreSQL's JIT compiler");
      return;
    }
  /* pg_stat_statements counts every statement of the cluster from its
   * start (triage-test-postgres.c), the migration's below too. */
  server_ops_test_fixture_setup (fixture, NULL);
  available = in_cluster (fixture->server, "SELECT pg_jit_available ()");
  if (g_strcmp0 (available, "t\n") != 0)
    {
      server_ops_test_fixture_teardown (fixture, NULL);
      g_test_skip ("PostgreSQL without its JIT compiler (llvmjit)");
      return;
    }
  for (guint i = 0; i < 3; i++)
    {
      server_ops_test_assert_probe (fixture->server, "/readyz", 200, "ready");
      g_free (scrape (fixture->server));
    }
  g_free (srv_post (fixture->server, fixture->key, "Compiled by nobody"));

  name = database_name (fixture->server);
  count = g_strdup_printf ("CREATE EXTENSION IF NOT EXISTS pg_stat_statements SCHEMA public;"
                           " SELECT COALESCE (SUM (jit_functions), 0),"
                           " BOOL_OR (query LIKE '%%FROM triage_schema%%' AND calls >= 3)"
                           " FROM public.pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid"
                           " WHERE d.datname = '%s'", name);
  compiled = in_cluster (fixture->server, count);
  /* None compiled; the probes' statement was counted. */
  g_assert_cmpstr (compiled, ==, "0|t\n");
  server_ops_test_fixture_teardown (fixture, NULL);
}

void
server_ops_test_add_database (void)
{
  g_test_add_func ("/server/ops/database-away", test_database_away);
  g_test_add_func ("/server/ops/database-emptied", test_database_emptied);
  g_test_add_func ("/server/ops/database-read-only", test_database_read_only);
  g_test_add_func ("/server/ops/database-restoring", test_database_restoring);
  g_test_add_func ("/server/ops/database-restoring-expiry", test_database_restoring_expiry);
  g_test_add ("/server/ops/dml-role", ServerOpsFixture, NULL, server_ops_test_fixture_setup,
              test_dml_role, server_ops_test_fixture_teardown);
  g_test_add_func ("/server/ops/no-jit", test_no_jit);
}
