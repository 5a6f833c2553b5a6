/* test-server-pg-list.c — a list the database could not read is never empty
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A client resyncing takes what its list of pending requests lacks for
 * settled: the app's stream drops it from the inbox. So a server whose read
 * of a list failed (a lock or statement timeout, a session ended) must
 * answer 503 STORAGE_UNAVAILABLE with a Retry-After, never 200 with an
 * empty page (it did, "total_count": 0); and a stream's snapshot of the
 * pending set that cannot be read ends the stream (an `error` frame, close
 * code 1011) instead of sending part of it. Once the database answers, the
 * list is whole again.
 *
 * The reads fail by a lock the test holds on notification_recipients, which
 * every list joins, with the server's lock_timeout lowered in its URI
 * (pg-lock-test-util.h).
 */

#define G_LOG_DOMAIN "test-server-pg-list"

#include "pg-lock-test-util.h"

#define LIST_PATH "/api/v1/client/notifications?status=pending"

typedef PgLockFixture Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  pg_lock_fixture_setup (fixture, "list-bot", FALSE);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  pg_lock_fixture_teardown (fixture);
}

/* The page's notifications and total. */
static guint
listed (SrvAnswer *answer,
        gint64    *total)
{
  g_autoptr(JsonObject) object = srv_parse_object (answer->body);
  JsonObject *pagination = json_object_get_object_member (object, "pagination");

  *total = json_object_get_int_member (pagination, "total_count");
  return json_array_get_length (json_object_get_array_member (object, "notifications"));
}

static void
test_list_unread (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *id = srv_post (fixture->server, fixture->key, "Listed");
  g_autoptr(SrvAnswer) locked = NULL;
  g_autoptr(SrvAnswer) again = NULL;
  gint64 total;

  pg_lock_table (fixture, "notification_recipients");
  locked = srv_request (fixture->server, "GET", LIST_PATH, fixture->alice, NULL);
  srv_assert_unavailable (locked, "Cannot read the notifications now");
  pg_lock_release (fixture);

  again = srv_request (fixture->server, "GET", LIST_PATH, fixture->alice, NULL);
  srv_assert_status (again, 200, NULL);
  g_assert_cmpuint (listed (again, &total), ==, 1);
  g_assert_cmpint (total, ==, 1);
}

static void
test_snapshot_unread (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *id = srv_post (fixture->server, fixture->key, "Listed");
  g_autoptr(SrvSocket) locked = NULL;
  g_autoptr(SrvSocket) again = NULL;
  JsonObject *error;

  pg_lock_table (fixture, "notification_recipients");
  locked = srv_ws_open (fixture->server, fixture->alice, NULL);
  g_assert_nonnull (locked->ws);
  srv_wait_until (locked->closed, "the stream to end");
  pg_lock_release (fixture);
  g_assert_cmpuint (locked->close_code, ==, SOUP_WEBSOCKET_CLOSE_SERVER_ERROR);
  g_assert_cmpuint (srv_count_frames (locked, "notification", NULL), ==, 0);
  error = srv_find_frame (locked, "error", NULL);
  g_assert_nonnull (error);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (error, "data"),
                                                  "code"), ==, "STORAGE_UNAVAILABLE");

  again = srv_ws_open (fixture->server, fixture->alice, NULL);
  g_assert_nonnull (again->ws);
  srv_wait_until (srv_count_frames (again, "notification", id) == 1, "the snapshot");
  g_assert_false (again->closed);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/server/pg-list/list-unread", Fixture, NULL, fixture_setup, test_list_unread,
              fixture_teardown);
  g_test_add ("/server/pg-list/snapshot-unread", Fixture, NULL, fixture_setup,
              test_snapshot_unread, fixture_teardown);
  return g_test_run ();
}
