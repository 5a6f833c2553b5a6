/* test-server-list-held.c — a list page waits for the group commit only for what a reader could lose
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * docs/protocol.md: a list page's answer waits for the group commit only when
 * the batch not yet durable holds more than delivered marks. A resync reads
 * its pages one after the other, each marking its rows; the next page is read
 * while the marks of the one before are still in the open batch, and is
 * answered at once. A page read in a batch that holds a new request (or any
 * other change a crash could take back) waits for that batch's commit.
 *
 * Which answers waited is made visible by failing the commit: SQLite's file
 * size limit is 0 (its commit fails with EFBIG), PostgreSQL's notifications
 * have a deferred trigger that fails the COMMIT. An answer held for the batch
 * then becomes 503 STORAGE_UNAVAILABLE; one that did not wait is 200. The two
 * requests of a case are read in one turn of the server's main loop: the
 * server is stopped (SIGSTOP) while they are sent on connections it has
 * already accepted and served (on a Unix socket), so the second is read
 * while the first one's batch is open, however busy the machine; the
 * connection served first is read first.
 */

#define G_LOG_DOMAIN "test-server-list-held"

#include "server-test-util.h"

/* Alice's list, and deploy-bot (a service for her alone) to fill it. */
typedef SrvTeam Fixture;

/* The team on a server that listens on a Unix socket (server-test-raw.h). */
static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  TriageTestServerOptions options = { .unix_socket = TRUE };

  srv_team_setup_with (fixture, &options);
}

/* ---- the server's commits failing ---- */

static void
run_sql (Fixture    *fixture,
         const char *sql)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *rows = triage_test_server_run_sql (fixture->server, sql, &error);

  g_assert_no_error (error);
}

/* From now on every commit that writes a notification fails. */
static void
fail_commits (Fixture *fixture)
{
  if (!triage_test_server_is_postgres (fixture->server))
    {
      triage_test_server_set_file_size_limit (fixture->server, 0);
      return;
    }
  /* At the COMMIT, not at the statement: the batch's reads and writes go on
   * as they would, and only its end fails. */
  run_sql (fixture,
           "CREATE FUNCTION fail_commit () RETURNS trigger LANGUAGE plpgsql AS"
           " $$ BEGIN RAISE EXCEPTION 'this commit fails (test-server-list-held)'; END $$;"
           "CREATE CONSTRAINT TRIGGER fail_commits AFTER INSERT OR UPDATE ON notifications"
           " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION fail_commit ()");
}

static void
mend_commits (Fixture *fixture)
{
  if (!triage_test_server_is_postgres (fixture->server))
    triage_test_server_set_file_size_limit (fixture->server, G_MAXUINT64);
  else
    run_sql (fixture, "DROP TRIGGER fail_commits ON notifications; DROP FUNCTION fail_commit ()");
}

static void
wait_for_commit_failure (Fixture *fixture)
{
  for (guint i = 0; srv_commit_failures (fixture->server) == 0; i++)
    {
      g_assert_cmpuint (i, <, 3000);
      srv_sleep (10);
    }
}

/* ---- pages ---- */

static JsonObject *
list_page (Fixture    *fixture,
           const char *query)
{
  g_autofree char *path = g_strconcat ("/api/v1/client/notifications", query, NULL);
  g_autoptr(SrvAnswer) answer = srv_request (fixture->server, "GET", path, fixture->alice, NULL);

  srv_assert_status (answer, 200, NULL);
  return srv_parse_object (answer->body);
}

/* Asserts that @page lists @ids (NULL-terminated), in that order, as @status. */
static void
assert_page (JsonObject         *page,
             const char * const *ids,
             const char         *status)
{
  JsonArray *items = json_object_get_array_member (page, "notifications");

  g_assert_cmpuint (json_array_get_length (items), ==, g_strv_length ((GStrv) ids));
  for (guint i = 0; ids[i] != NULL; i++)
    {
      JsonObject *item = json_array_get_object_element (items, i);

      g_assert_cmpstr (json_object_get_string_member (item, "id"), ==, ids[i]);
      g_assert_cmpstr (json_object_get_string_member (item, "status"), ==, status);
    }
}

static void
assert_status (Fixture    *fixture,
               const char *id,
               const char *status)
{
  g_autofree char *now = srv_status_of (fixture->server, fixture->key, id);

  g_assert_cmpstr (now, ==, status);
}

#define N_POSTED 4

/* Two pages read in one turn: the second is read while the batch holds the
 * first one's delivered marks (and nothing else), and is answered at once
 * with its own rows as delivered, before that batch's commit; the commit
 * fails, the marks are lost, and the rows are simply created again. With
 * the answer held for the commit, the second page was 503. */
static void
test_page_not_held_by_marks_before (Fixture       *fixture,
                                    gconstpointer  data)
{
  g_auto(GStrv) ids = g_new0 (char *, N_POSTED + 1);
  g_autoptr(JsonObject) first = NULL, again = NULL;
  g_autoptr(SrvRaw) a = NULL, b = NULL;
  g_autoptr(SrvAnswer) newest = NULL, next = NULL;
  g_autoptr(JsonObject) newest_page = NULL, next_page = NULL;
  g_autofree char *escaped = NULL, *path = NULL;

  for (guint i = 0; i < N_POSTED; i++)
    {
      g_autofree char *title = g_strdup_printf ("request %u", i);

      ids[i] = srv_post (fixture->server, fixture->key, title);
    }
  /* The first page, committed: its cursor leads to the next. */
  first = list_page (fixture, "?status=pending&limit=1&sort=oldest");
  assert_page (first, (const char *[]) { ids[0], NULL }, "delivered");
  /* A service's read waits for the commit of what it sees: its mark is in. */
  assert_status (fixture, ids[0], "delivered");
  escaped = g_uri_escape_string (json_object_get_string_member (
                                   json_object_get_object_member (first, "pagination"),
                                   "next_cursor"), NULL, TRUE);
  path = g_strconcat ("/api/v1/client/notifications?status=pending&limit=2&sort=oldest&cursor=",
                      escaped, NULL);

  fail_commits (fixture);
  a = srv_raw_open_served (fixture->server, fixture->alice);
  b = srv_raw_open_served (fixture->server, fixture->alice);
  srv_pause_server (fixture->server);
  srv_raw_send (a, "GET", "/api/v1/client/notifications?status=pending&limit=1", fixture->alice,
                NULL);
  srv_raw_send (b, "GET", path, fixture->alice, NULL);
  srv_resume_server (fixture->server);

  newest = srv_raw_read (a);
  srv_assert_status (newest, 200, NULL);
  newest_page = srv_parse_object (newest->body);
  assert_page (newest_page, (const char *[]) { ids[3], NULL }, "delivered");
  next = srv_raw_read (b);
  srv_assert_status (next, 200, NULL);
  next_page = srv_parse_object (next->body);
  assert_page (next_page, (const char *[]) { ids[1], ids[2], NULL }, "delivered");

  /* Their batch did not commit: the marks are gone, and the rows are
   * delivered by the next read. */
  wait_for_commit_failure (fixture);
  mend_commits (fixture);
  for (guint i = 1; i < N_POSTED; i++)
    assert_status (fixture, ids[i], "created");
  again = list_page (fixture, "?status=pending&sort=oldest");
  assert_page (again, (const char *[]) { ids[0], ids[1], ids[2], ids[3], NULL }, "delivered");
  for (guint i = 0; i < N_POSTED; i++)
    assert_status (fixture, ids[i], "delivered");
}

/* A page read in the batch of a new request lists it, and so waits for that
 * batch's commit: the commit fails, and the page is 503 as the POST is,
 * never a page that shows a request the server then lost. */
static void
test_page_held_by_new_request (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autofree char *before = NULL;
  g_autoptr(SrvRaw) a = NULL, b = NULL;
  g_autoptr(SrvAnswer) posted = NULL, page = NULL;
  g_autoptr(JsonObject) after = NULL;

  before = srv_post (fixture->server, fixture->key, "before");

  fail_commits (fixture);
  a = srv_raw_open_served (fixture->server, fixture->alice);
  b = srv_raw_open_served (fixture->server, fixture->alice);
  srv_pause_server (fixture->server);
  srv_raw_send (a, "POST", "/api/v1/notifications", fixture->key,
            "{\"id\":\"6d5b8a3e-0f1c-4b7a-9e2d-3c4f5a6b7c8d\",\"context\":{\"title\":\"lost\","
            "\"description\":\"D\"},\"actions\":[{\"id\":\"ok\",\"label\":\"OK\","
            "\"response_type\":\"simple\"}]}");
  srv_raw_send (b, "GET", "/api/v1/client/notifications?status=pending", fixture->alice,
                NULL);
  srv_resume_server (fixture->server);

  posted = srv_raw_read (a);
  srv_assert_status (posted, 503, "STORAGE_UNAVAILABLE");
  page = srv_raw_read (b);
  srv_assert_status (page, 503, "STORAGE_UNAVAILABLE");

  wait_for_commit_failure (fixture);
  mend_commits (fixture);
  after = list_page (fixture, "?status=pending");
  assert_page (after, (const char *[]) { before, NULL }, "delivered");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  /* For the server: a write past its file size limit fails (EFBIG) instead
   * of killing it, and the failed commit it warns of is not fatal. */
  signal (SIGXFSZ, SIG_IGN);
  g_unsetenv ("G_DEBUG");

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, srv_team_teardown)

  ADD ("/server/list-held/page-not-held-by-marks-before", test_page_not_held_by_marks_before);
  ADD ("/server/list-held/page-held-by-new-request", test_page_held_by_new_request);
#undef ADD

  return g_test_run ();
}
