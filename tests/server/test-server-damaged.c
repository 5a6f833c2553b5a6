/* test-server-damaged.c — a damaged row in the database does not take the
 * server down
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A stored notification whose JSON does not read (a damaged row, a bad edit
 * by hand, a row an older broken version wrote) aborted the whole server at
 * the first read of it (g_error ()): every other user's inbox went with it,
 * and again at each restart. Now a read of that one is 500
 * NOTIFICATION_UNREADABLE at once (a long-poll too), lists, snapshots and
 * resumed streams leave it out and go on, the server says its id once, and
 * everything else is served. The row is damaged with
 * SQL while the server is stopped, then the server is used as a client and
 * a service would. On both databases: the PostgreSQL store replayed a
 * damaged event as it was stored, and sent another server's as it read it
 * (live-event, PostgreSQL's only). The damaged file's cases are SQLite's, and
 * so is a file that is no SQLite database at all (not-sqlite).
 */

#define G_LOG_DOMAIN "test-server-damaged"

#include <glib/gstdio.h>

#include "server-test-util.h"

typedef struct
{
  TriageTestServer *server;
  char             *dir;
  char             *log;
  char             *alice;
  char             *key;
  char             *ids[3];     /* oldest first; ids[1] is damaged */
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  const char * const alice[] = { "alice", NULL };
  g_autoptr(GError) error = NULL;
  TriageTestServerOptions options = { 0 };

  fixture->dir = g_dir_make_tmp ("triage-damaged-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->log = g_build_filename (fixture->dir, "server.log", NULL);
  options.log_file = fixture->log;
  fixture->server = triage_test_server_new (&options, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_user (fixture->server, "alice", &fixture->alice,
                                                 &error));
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_service (fixture->server, "deploy-bot", alice, NULL,
                                                    NULL, &fixture->key, NULL, &error));
  g_assert_no_error (error);
  fixture->ids[0] = srv_post (fixture->server, fixture->key, "First");
  fixture->ids[1] = srv_post (fixture->server, fixture->key, "Damaged");
  fixture->ids[2] = srv_post (fixture->server, fixture->key, "Third");
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_assert_true (triage_test_server_stop (fixture->server));
  triage_test_server_free (fixture->server);
  triage_test_remove_tree (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->log);
  g_free (fixture->alice);
  g_free (fixture->key);
  for (guint i = 0; i < G_N_ELEMENTS (fixture->ids); i++)
    g_free (fixture->ids[i]);
}

/* Stops the server, runs @sql on its database, starts it again. */
static void
damage (Fixture    *fixture,
        const char *sql)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (triage_test_server_stop (fixture->server));
  g_free (srv_run_sql (fixture->server, sql));
  g_assert_true (triage_test_server_restart (fixture->server, &error));
  g_assert_no_error (error);
}

static SrvAnswer *
client_get (Fixture    *fixture,
            const char *id)
{
  g_autofree char *path = g_strconcat ("/api/v1/client/notifications/", id, NULL);

  return srv_request (fixture->server, "GET", path, fixture->alice, NULL);
}

/* 500 NOTIFICATION_UNREADABLE naming notification @id. */
static void
assert_unreadable (SrvAnswer  *answer,
                   const char *id)
{
  g_autoptr(JsonObject) object = NULL;

  srv_assert_status (answer, 500, "NOTIFICATION_UNREADABLE");
  srv_assert_message (answer, "cannot be read");
  srv_assert_message (answer, id);
  object = srv_parse_object (answer->body);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (object, "details"),
                                                  "notification_id"), ==, id);
  /* Not something to try again every second. */
  g_assert_null (soup_message_headers_get_one (answer->headers, "Retry-After"));
}

/* The ids a list page holds, in its order, joined by ','. */
static char *
listed_ids (SrvAnswer *answer)
{
  g_autoptr(JsonObject) page = srv_parse_object (answer->body);
  JsonArray *items = json_object_get_array_member (page, "notifications");
  g_autoptr(GString) ids = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (items); i++)
    g_string_append_printf (ids, "%s%s", i > 0 ? "," : "",
                            json_object_get_string_member (json_array_get_object_element (items, i),
                                                           "id"));
  return g_string_free (g_steal_pointer (&ids), FALSE);
}

static guint
count_in_log (Fixture    *fixture,
              const char *needle)
{
  return srv_count_in_file (fixture->log, needle);
}

/* The stored JSON of one notification does not read as an object: @data is
 * what it becomes (JSON that does not parse, or JSON that is no object). */
static void
test_damaged_json (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *sql = g_strdup_printf ("UPDATE notifications SET json = '%s' WHERE id = '%s'",
                                          (const char *) data, fixture->ids[1]);
  g_autofree char *first_event = NULL, *expected = NULL, *ids = NULL, *said = NULL;
  g_autofree char *service_path = g_strconcat ("/api/v1/notifications/", fixture->ids[1], NULL);
  g_autofree char *respond = NULL;
  g_autoptr(SrvAnswer) answer = NULL;
  g_autoptr(SrvSocket) sock = NULL;
  g_autoptr(SrvEvents) events = NULL;
  g_autoptr(SrvEvents) resumed = NULL;
  g_autoptr(JsonObject) page = NULL;

  first_event = srv_run_sql (fixture->server, "SELECT MIN (id) FROM events");
  g_strchomp (first_event);
  damage (fixture, sql);

  /* A client's and a service's read of it: 500, and the server goes on. */
  answer = client_get (fixture, fixture->ids[1]);
  assert_unreadable (answer, fixture->ids[1]);
  g_clear_pointer (&answer, srv_answer_free);
  answer = srv_request (fixture->server, "GET", service_path, fixture->key, NULL);
  assert_unreadable (answer, fixture->ids[1]);
  g_clear_pointer (&answer, srv_answer_free);
  /* The service's long-poll, answered at once, not when its wait is over:
   * the client's 30 s timeout fails the request before the 60 s pass. */
  {
    g_autofree char *wait_path = g_strconcat (service_path, "?wait=60", NULL);

    answer = srv_request (fixture->server, "GET", wait_path, fixture->key, NULL);
    assert_unreadable (answer, fixture->ids[1]);
    g_clear_pointer (&answer, srv_answer_free);
  }
  answer = client_get (fixture, fixture->ids[0]);
  srv_assert_status (answer, 200, NULL);
  g_clear_pointer (&answer, srv_answer_free);

  /* The list: the page without it, the rest whole. */
  answer = srv_request (fixture->server, "GET", "/api/v1/client/notifications?sort=oldest",
                        fixture->alice, NULL);
  srv_assert_status (answer, 200, NULL);
  ids = listed_ids (answer);
  expected = g_strconcat (fixture->ids[0], ",", fixture->ids[2], NULL);
  g_assert_cmpstr (ids, ==, expected);
  g_clear_pointer (&answer, srv_answer_free);
  g_clear_pointer (&ids, g_free);
  /* Paged one by one: the page of the damaged row is empty, and the next
   * one follows it. */
  answer = srv_request (fixture->server, "GET",
                        "/api/v1/client/notifications?sort=oldest&limit=1", fixture->alice, NULL);
  srv_assert_status (answer, 200, NULL);
  page = srv_parse_object (answer->body);
  {
    const char *cursor = json_object_get_string_member (json_object_get_object_member (page,
                                                                                       "pagination"),
                                                        "next_cursor");
    g_autofree char *path = g_strconcat ("/api/v1/client/notifications?sort=oldest&limit=1&cursor=",
                                         cursor, NULL);
    g_autoptr(SrvAnswer) second = srv_request (fixture->server, "GET", path, fixture->alice, NULL);
    g_autoptr(JsonObject) second_page = NULL;
    g_autofree char *second_ids = NULL;

    srv_assert_status (second, 200, NULL);
    second_ids = listed_ids (second);
    g_assert_cmpstr (second_ids, ==, "");
    second_page = srv_parse_object (second->body);
    g_assert_true (json_object_get_boolean_member (json_object_get_object_member (second_page,
                                                                                  "pagination"),
                                                   "has_more"));
  }
  g_clear_pointer (&answer, srv_answer_free);

  /* A stream's snapshot: the others. */
  sock = srv_ws_open (fixture->server, fixture->alice, NULL);
  g_assert_nonnull (sock->ws);
  srv_wait_until (srv_find_frame (sock, "notification", fixture->ids[2]) != NULL, "the snapshot");
  g_assert_nonnull (srv_find_frame (sock, "notification", fixture->ids[0]));
  g_assert_null (srv_find_frame (sock, "notification", fixture->ids[1]));
  events = srv_events_open (fixture->server, fixture->alice, NULL, NULL);
  g_assert_cmpuint (events->status, ==, 200);
  srv_wait_until (srv_find_event (events, "notification", fixture->ids[2]) != NULL,
                  "the SSE snapshot");
  g_assert_null (srv_find_event (events, "notification", fixture->ids[1]));

  /* A stream resumed from the first request's event: the log's events of
   * the other two, the damaged one left out (sent as it is stored, it was
   * an event whose data no client can read, asked for again at each
   * reconnect). */
  resumed = srv_events_open (fixture->server, fixture->alice, NULL, first_event);
  g_assert_cmpuint (resumed->status, ==, 200);
  srv_wait_until (srv_find_event (resumed, "ping", NULL) != NULL, "the replay");
  g_assert_nonnull (srv_find_event (resumed, "notification", fixture->ids[2]));
  for (guint i = 0; i < resumed->events->len; i++)
    {
      SrvEvent *event = resumed->events->pdata[i];
      g_autoptr(JsonNode) node = json_from_string (event->data, NULL);

      g_assert_nonnull (node);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
      g_assert_null (strstr (event->data, fixture->ids[1]));
    }
  /* The third's event (the first's is the one resumed from) and the ping. */
  g_assert_cmpuint (resumed->events->len, ==, 2);

  /* An answer to it is refused; one to another is taken. */
  respond = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"ok\"}", fixture->ids[1]);
  answer = srv_request (fixture->server, "POST", "/api/v1/client/respond", fixture->alice, respond);
  assert_unreadable (answer, fixture->ids[1]);
  g_clear_pointer (&answer, srv_answer_free);
  g_clear_pointer (&respond, g_free);
  respond = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"ok\"}", fixture->ids[2]);
  answer = srv_request (fixture->server, "POST", "/api/v1/client/respond", fixture->alice, respond);
  srv_assert_status (answer, 200, NULL);
  g_clear_pointer (&answer, srv_answer_free);
  srv_wait_until (srv_find_update (sock, fixture->ids[2], "responded") != NULL, "the answer's push");

  /* Said once, however often it was met. */
  said = g_strdup_printf ("notification %s in the database", fixture->ids[1]);
  g_assert_cmpuint (count_in_log (fixture, said), ==, 1);
}

/* The stored answer of an answered notification does not parse: the
 * notification is shown without it, to the person and to the service. */
static void
test_damaged_response (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *respond = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"ok\"}",
                                              fixture->ids[1]);
  g_autofree char *sql = g_strdup_printf ("UPDATE notifications SET response = '{\"x' WHERE id = '%s'",
                                          fixture->ids[1]);
  g_autofree char *service_path = g_strconcat ("/api/v1/notifications/", fixture->ids[1], NULL);
  g_autoptr(SrvAnswer) answer = NULL;
  g_autoptr(JsonObject) object = NULL;

  answer = srv_request (fixture->server, "POST", "/api/v1/client/respond", fixture->alice, respond);
  srv_assert_status (answer, 200, NULL);
  g_clear_pointer (&answer, srv_answer_free);
  damage (fixture, sql);

  answer = srv_request (fixture->server, "GET", service_path, fixture->key, NULL);
  srv_assert_status (answer, 200, NULL);
  object = srv_parse_object (answer->body);
  g_assert_cmpstr (json_object_get_string_member (object, "status"), ==, "responded");
  g_assert_false (json_object_has_member (object, "response"));
  g_clear_pointer (&answer, srv_answer_free);
  /* The same answer again: not taken for the one recorded, which does not
   * read; refused as an answer after another, the server still up. */
  answer = srv_request (fixture->server, "POST", "/api/v1/client/respond", fixture->alice, respond);
  srv_assert_status (answer, 409, "NOTIFICATION_ALREADY_RESPONDED");
  g_clear_pointer (&answer, srv_answer_free);
  answer = client_get (fixture, fixture->ids[1]);
  srv_assert_status (answer, 200, NULL);
}

/* The stored data of a status update in the event log is damaged (a raw
 * line break in it, which would end its SSE data line halfway): a stream
 * resumed from before it gets every other event, each a whole JSON text. */
static void
test_damaged_event (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *respond = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"ok\"}",
                                              fixture->ids[0]);
  g_autofree char *first_event = NULL;
  g_autoptr(SrvAnswer) answer = NULL;
  g_autoptr(SrvEvents) resumed = NULL;

  first_event = srv_run_sql (fixture->server, "SELECT MIN (id) FROM events");
  g_strchomp (first_event);
  answer = srv_request (fixture->server, "POST", "/api/v1/client/respond", fixture->alice, respond);
  srv_assert_status (answer, 200, NULL);
  /* SQLite's char () is PostgreSQL's chr (). */
  if (triage_test_server_is_postgres (fixture->server))
    damage (fixture, "UPDATE events SET data = '{\"type\":' || chr (10) || '\"x\"}'"
                     " WHERE type = 'status_update'");
  else
    damage (fixture, "UPDATE events SET data = '{\"type\":' || char (10) || '\"x\"}'"
                     " WHERE type = 'status_update'");

  resumed = srv_events_open (fixture->server, fixture->alice, NULL, first_event);
  g_assert_cmpuint (resumed->status, ==, 200);
  srv_wait_until (srv_find_event (resumed, "ping", NULL) != NULL, "the replay");
  g_assert_nonnull (srv_find_event (resumed, "notification", fixture->ids[1]));
  g_assert_nonnull (srv_find_event (resumed, "notification", fixture->ids[2]));
  g_assert_null (srv_find_event (resumed, "status_update", NULL));
  for (guint i = 0; i < resumed->events->len; i++)
    {
      SrvEvent *event = resumed->events->pdata[i];
      g_autoptr(JsonNode) node = json_from_string (event->data, NULL);

      g_assert_nonnull (node);
    }
}

/* Another server on the database (PostgreSQL) writes a status update whose
 * stored data is damaged (a trigger puts a raw line break in it): a stream
 * on this server, which reads that server's events back from the log as
 * they come, is not sent it, and hears the next one. It was sent as
 * stored, an event no client could read (as a replay was, f4c7e3f). */
static void
test_damaged_live_event (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(TriageTestServer) peer = NULL;
  g_autoptr(SrvEvents) events = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *after = NULL;

  if (!triage_test_server_is_postgres (fixture->server))
    {
      g_test_skip ("another server's events, read back from a database they share "
                   "(PostgreSQL)");
      return;
    }
  peer = triage_test_server_new_peer (fixture->server, NULL, &error);
  g_assert_no_error (error);
  events = srv_events_open (fixture->server, fixture->alice, NULL, NULL);
  g_assert_cmpuint (events->status, ==, 200);
  srv_wait_until (srv_find_event (events, "ping", NULL) != NULL, "the snapshot");
  g_free (srv_run_sql (fixture->server,
                       "CREATE FUNCTION damage_events () RETURNS trigger LANGUAGE plpgsql"
                       " AS $$ BEGIN IF NEW.type = 'status_update' THEN"
                       " NEW.data := '{\"type\":' || chr (10) || '\"x\"}'; END IF;"
                       " RETURN NEW; END $$;"
                       " CREATE TRIGGER damage_events BEFORE INSERT ON events"
                       " FOR EACH ROW EXECUTE FUNCTION damage_events ()"));

  /* On the other server: the answer's event is damaged, the next request's not. */
  srv_respond (peer, fixture->alice, fixture->ids[0]);
  after = srv_post (peer, fixture->key, "After");
  srv_wait_until (srv_find_event (events, "notification", after) != NULL,
                  "the other server's next event");
  for (guint i = 0; i < events->events->len; i++)
    {
      SrvEvent *event = events->events->pdata[i];
      g_autoptr(JsonNode) node = json_from_string (event->data, NULL);

      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        g_error ("the stream was sent an event that does not read: %s", event->data);
    }
  g_assert_null (srv_find_event (events, "status_update", "responded"));
  g_assert_cmpuint (count_in_log (fixture, "left out of the streams"), ==, 1);
  g_free (srv_run_sql (fixture->server, "DROP TRIGGER damage_events ON events;"
                                        " DROP FUNCTION damage_events ()"));
  g_assert_true (triage_test_server_stop (peer));
}

static gboolean
readyz_says (Fixture    *fixture,
             const char *state,
             const char *reason)
{
  g_autoptr(SrvAnswer) answer = srv_request (fixture->server, "GET", "/readyz", NULL, NULL);
  g_autoptr(JsonObject) object = srv_parse_object (answer->body);

  return g_strcmp0 (json_object_get_string_member (object, "status"), state) == 0 &&
         (reason == NULL ||
          strstr (json_object_get_string_member_with_default (object, "reason", ""), reason));
}

/* A page of the file itself is damaged (the notifications table's first):
 * the reads of it are 503 as any failed read, but the server says once that
 * the file is damaged and what to do, and /readyz is unavailable, since
 * trying again will not mend it. */
static void
test_damaged_file (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SrvAnswer) answer = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileIOStream) stream = NULL;
  g_autofree char *root = NULL, *page_size = NULL;
  guchar garbage[64];
  goffset offset;

  if (triage_test_server_is_postgres (fixture->server))
    {
      g_test_skip ("a SQLite file (PostgreSQL's files are the database server's)");
      return;
    }
  g_assert_true (readyz_says (fixture, "ready", NULL));
  g_assert_true (triage_test_server_stop (fixture->server));
  root = srv_run_sql (fixture->server,
                      "SELECT rootpage FROM sqlite_master WHERE name = 'notifications'");
  page_size = srv_run_sql (fixture->server, "PRAGMA page_size");
  offset = (g_ascii_strtoll (root, NULL, 10) - 1) * g_ascii_strtoll (page_size, NULL, 10);
  g_assert_cmpint (offset, >, 0);
  memset (garbage, 0xff, sizeof garbage);
  file = g_file_new_for_path (triage_test_server_get_database (fixture->server));
  stream = g_file_open_readwrite (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_seekable_seek (G_SEEKABLE (stream), offset, G_SEEK_SET, NULL, &error));
  g_assert_true (g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (stream)),
                                            garbage, sizeof garbage, NULL, NULL, &error));
  g_assert_true (g_io_stream_close (G_IO_STREAM (stream), NULL, &error));
  g_assert_no_error (error);
  g_assert_true (triage_test_server_restart (fixture->server, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < 2; i++)
    {
      answer = srv_request (fixture->server, "GET", "/api/v1/client/notifications",
                            fixture->alice, NULL);
      /* Its message is the failed read's, or the failed commit's of a write
       * that met the damage meanwhile (its answer held for that commit). */
      srv_assert_status (answer, 503, "STORAGE_UNAVAILABLE");
      g_assert_cmpstr (soup_message_headers_get_one (answer->headers, "Retry-After"), ==, "1");
      g_clear_pointer (&answer, srv_answer_free);
    }
  g_assert_true (readyz_says (fixture, "unavailable", "is damaged"));
  g_assert_cmpuint (count_in_log (fixture, "PRAGMA integrity_check"), ==, 1);
  /* Still up for what does not touch the damage. */
  answer = srv_request (fixture->server, "GET", "/healthz", NULL, NULL);
  srv_assert_status (answer, 200, NULL);
}

/* The file is found damaged as the server opens it (here a row of
 * sqlite_schema that no longer reads, as a damaged page or a bad edit makes
 * it): the server does not start, and says which file is damaged and what
 * to do. It said "database error: malformed database schema (…)", naming
 * no file, and its damaged file's message named an empty one. */
static void
test_damaged_at_start (Fixture       *fixture,
                       gconstpointer  data)
{
  const char *database = triage_test_server_get_database (fixture->server);
  g_autoptr(GError) error = NULL;
  g_autofree char *said = NULL, *check = NULL;

  if (triage_test_server_is_postgres (fixture->server))
    {
      g_test_skip ("a SQLite file (PostgreSQL's files are the database server's)");
      return;
    }
  g_assert_true (triage_test_server_stop (fixture->server));
  g_free (srv_run_sql (fixture->server, "PRAGMA writable_schema = ON;"
                                        "UPDATE sqlite_master SET sql = 'CREATE TABLE afp_reviews ('"
                                        " WHERE name = 'afp_reviews'"));
  g_assert_false (triage_test_server_restart (fixture->server, &error));
  said = g_strdup_printf ("the database file %s is damaged (malformed database schema", database);
  g_assert_cmpuint (count_in_log (fixture, said), ==, 1);
  check = g_strdup_printf ("sqlite3 %s 'PRAGMA integrity_check'", database);
  g_assert_cmpuint (count_in_log (fixture, check), ==, 1);
}

/* A file that was never a SQLite database (a text file given as --database)
 * is said to be that, with what to do, not "damaged (file is not a
 * database)" with a check and a mend that cannot apply; and it is left as
 * it was. */
static void
test_not_sqlite_at_start (Fixture       *fixture,
                          gconstpointer  data)
{
  static const char text[] = "host=db.example port=5432\n";
  const char *database = triage_test_server_get_database (fixture->server);
  g_autofree char *wal = g_strconcat (database, "-wal", NULL);
  g_autofree char *shm = g_strconcat (database, "-shm", NULL);
  g_autofree char *said = NULL, *kept = NULL;
  g_autoptr(GError) error = NULL;
  GStatBuf st;

  if (triage_test_server_is_postgres (fixture->server))
    {
      g_test_skip ("a SQLite file (PostgreSQL's files are the database server's)");
      return;
    }
  g_assert_true (triage_test_server_stop (fixture->server));
  g_assert_true (g_file_set_contents (database, text, -1, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (database, 0644), ==, 0);
  g_remove (wal);
  g_remove (shm);
  g_assert_false (triage_test_server_restart (fixture->server, &error));
  said = g_strdup_printf ("the file %s is not a SQLite database", database);
  g_assert_cmpuint (count_in_log (fixture, said), ==, 1);
  g_assert_cmpuint (count_in_log (fixture, "give --database the server's own database file"),
                    ==, 1);
  g_assert_cmpuint (count_in_log (fixture, "is damaged"), ==, 0);
  g_assert_true (g_file_get_contents (database, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, text);
  g_assert_cmpint (g_stat (database, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0644);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/server/damaged/json", Fixture, "{broken", fixture_setup, test_damaged_json,
              fixture_teardown);
  g_test_add ("/server/damaged/not-an-object", Fixture, "[1]", fixture_setup, test_damaged_json,
              fixture_teardown);
  g_test_add ("/server/damaged/response", Fixture, NULL, fixture_setup, test_damaged_response,
              fixture_teardown);
  g_test_add ("/server/damaged/event", Fixture, NULL, fixture_setup, test_damaged_event,
              fixture_teardown);
  g_test_add ("/server/damaged/live-event", Fixture, NULL, fixture_setup,
              test_damaged_live_event, fixture_teardown);
  g_test_add ("/server/damaged/file", Fixture, NULL, fixture_setup, test_damaged_file,
              fixture_teardown);
  g_test_add ("/server/damaged/at-start", Fixture, NULL, fixture_setup, test_damaged_at_start,
              fixture_teardown);
  g_test_add ("/server/damaged/not-sqlite", Fixture, NULL, fixture_setup,
              test_not_sqlite_at_start, fixture_teardown);
  return g_test_run ();
}
