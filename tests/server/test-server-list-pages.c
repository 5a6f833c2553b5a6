/* test-server-list-pages.c — a client's list read page after page: its total, its delivered marks
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * docs/protocol.md: the total of a list read is counted for its first page
 * and carried in the cursor (a resync of 10,000 pending counted them again
 * for each of its ten pages); a cursor of before counts again. A page's
 * answer does not wait for the commit of its own `delivered` marks, as a
 * lost mark is harmless: with the server's disk full the page is still
 * answered, and once there is space again the rows are delivered anew.
 */

#define G_LOG_DOMAIN "test-server-list-pages"

#include <signal.h>

#include "server-test-util.h"

/* Alice's list, and deploy-bot (a service for her alone) to fill it. */
typedef SrvTeam Fixture;

/* A page of alice's list: its answer (status 200 asserted). */
static JsonObject *
list_page (Fixture    *fixture,
           const char *query)
{
  g_autofree char *path = g_strconcat ("/api/v1/client/notifications", query, NULL);
  g_autoptr(SrvAnswer) answer = srv_request (fixture->server, "GET", path, fixture->alice, NULL);

  srv_assert_status (answer, 200, NULL);
  return srv_parse_object (answer->body);
}

static gint64
total_of (JsonObject *page)
{
  return json_object_get_int_member (json_object_get_object_member (page, "pagination"),
                                     "total_count");
}

static const char *
cursor_of (JsonObject *page)
{
  return json_object_get_string_member (json_object_get_object_member (page, "pagination"),
                                        "next_cursor");
}

/* The pages after the first carry the first page's total: one more
 * request made meanwhile is listed, but not counted; a new read counts it,
 * and so does a page asked for with a cursor of before (v1: no total). */
static void
test_total_of_first_page (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(JsonObject) first = NULL, second = NULL, again = NULL, old = NULL;
  g_autofree char *query = NULL, *old_query = NULL, *old_cursor = NULL, *escaped = NULL;
  g_autofree guchar *raw = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) parts = NULL;
  gsize length;

  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *title = g_strdup_printf ("request %u", i);

      g_free (srv_post (fixture->server, fixture->key, title));
    }
  first = list_page (fixture, "?status=pending&limit=2&sort=oldest");
  g_assert_cmpint (total_of (first), ==, 3);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (first, "notifications")),
                    ==, 2);
  g_assert_nonnull (cursor_of (first));

  g_free (srv_post (fixture->server, fixture->key, "made between the pages"));
  escaped = g_uri_escape_string (cursor_of (first), NULL, TRUE);
  query = g_strconcat ("?status=pending&limit=2&sort=oldest&cursor=", escaped, NULL);
  second = list_page (fixture, query);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (second, "notifications")),
                    ==, 2);
  g_assert_cmpint (total_of (second), ==, 3);

  again = list_page (fixture, "?status=pending&limit=2&sort=oldest");
  g_assert_cmpint (total_of (again), ==, 4);

  /* The same place with a cursor as servers before this made it. */
  raw = g_base64_decode (cursor_of (first), &length);
  text = g_strndup ((const char *) raw, length);
  parts = g_strsplit (text, ":", -1);
  g_assert_cmpuint (g_strv_length (parts), ==, 3);
  g_assert_cmpstr (parts[0], ==, "v2");
  g_assert_cmpstr (parts[2], ==, "3");
  g_free (text);
  text = g_strconcat ("v1:", parts[1], NULL);
  old_cursor = g_base64_encode ((const guchar *) text, strlen (text));
  g_free (escaped);
  escaped = g_uri_escape_string (old_cursor, NULL, TRUE);
  old_query = g_strconcat ("?status=pending&limit=2&sort=oldest&cursor=", escaped, NULL);
  old = list_page (fixture, old_query);
  g_assert_cmpint (total_of (old), ==, 4);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (old, "notifications")),
                    ==, 2);
}

/* The ids of a page's items, in its order, each asserted to be @status. */
static GStrv
ids_of (JsonObject *page,
        const char *status)
{
  JsonArray *items = json_object_get_array_member (page, "notifications");
  g_autoptr(GStrvBuilder) ids = g_strv_builder_new ();

  for (guint i = 0; i < json_array_get_length (items); i++)
    {
      JsonObject *item = json_array_get_object_element (items, i);

      g_assert_cmpstr (json_object_get_string_member (item, "status"), ==, status);
      g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (item, "context"),
                                                      "description"), ==, "D");
      g_strv_builder_add (ids, json_object_get_string_member (item, "id"));
    }
  return g_strv_builder_end (ids);
}

/* A page lists its items in the order asked for, each whole with its status
 * as it is after the page's own delivered marks (the SQLite store makes the
 * page's JSON itself, in one statement). */
static void
test_pages_in_order (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(JsonObject) first = NULL, second = NULL, newest = NULL, empty = NULL;
  g_auto(GStrv) posted = NULL, first_ids = NULL, second_ids = NULL, newest_ids = NULL;
  g_auto(GStrv) empty_ids = NULL;
  g_autofree char *escaped = NULL, *query = NULL;

  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *title = g_strdup_printf ("in order %u", i);
      g_autofree char *id = srv_post (fixture->server, fixture->key, title);

      g_strv_builder_add (builder, id);
    }
  posted = g_strv_builder_end (builder);

  first = list_page (fixture, "?status=pending&limit=3&sort=oldest");
  first_ids = ids_of (first, "delivered");
  g_assert_cmpuint (g_strv_length (first_ids), ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpstr (first_ids[i], ==, posted[i]);
  g_assert_cmpint (total_of (first), ==, 5);
  g_assert_true (json_object_get_boolean_member (json_object_get_object_member (first, "pagination"),
                                                 "has_more"));

  escaped = g_uri_escape_string (cursor_of (first), NULL, TRUE);
  query = g_strconcat ("?status=pending&limit=3&sort=oldest&cursor=", escaped, NULL);
  second = list_page (fixture, query);
  second_ids = ids_of (second, "delivered");
  g_assert_cmpuint (g_strv_length (second_ids), ==, 2);
  g_assert_cmpstr (second_ids[0], ==, posted[3]);
  g_assert_cmpstr (second_ids[1], ==, posted[4]);
  g_assert_null (cursor_of (second));
  g_assert_false (json_object_get_boolean_member (json_object_get_object_member (second, "pagination"),
                                                  "has_more"));

  /* Newest first, every one read before: delivered already. */
  newest = list_page (fixture, "?status=pending&limit=5");
  newest_ids = ids_of (newest, "delivered");
  g_assert_cmpuint (g_strv_length (newest_ids), ==, 5);
  for (guint i = 0; i < 5; i++)
    g_assert_cmpstr (newest_ids[i], ==, posted[4 - i]);

  /* An empty page is an empty list. */
  empty = list_page (fixture, "?status=responded");
  empty_ids = ids_of (empty, "responded");
  g_assert_cmpuint (g_strv_length (empty_ids), ==, 0);
  g_assert_cmpint (total_of (empty), ==, 0);
}

/* The server cannot write (its file size limit is 0: every write fails with
 * EFBIG, SIGXFSZ is ignored): the delivered marks of a list read cannot be
 * committed, and the page is answered all the same, as delivered. Once it
 * can write again the rows are still created (the marks were rolled back),
 * and the next read delivers them. */
static void
test_page_not_held_by_its_marks (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autofree char *id = NULL, *status = NULL;
  g_autoptr(JsonObject) page = NULL, again = NULL;
  JsonArray *items;

  if (triage_test_server_is_postgres (fixture->server))
    {
      g_test_skip ("the database server writes, not triage-server");
      return;
    }
  id = srv_post (fixture->server, fixture->key, "Listed while the disk is full");
  status = srv_status_of (fixture->server, fixture->key, id);
  g_assert_cmpstr (status, ==, "created");

  triage_test_server_set_file_size_limit (fixture->server, 0);
  page = list_page (fixture, "?status=pending");
  items = json_object_get_array_member (page, "notifications");
  g_assert_cmpuint (json_array_get_length (items), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (items, 0), "id"),
                   ==, id);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (items, 0),
                                                  "status"), ==, "delivered");
  /* Its marks are not committed (and not left to commit once it can). */
  for (guint i = 0; srv_commit_failures (fixture->server) == 0; i++)
    {
      g_assert_cmpuint (i, <, 3000);
      srv_sleep (10);
    }
  triage_test_server_set_file_size_limit (fixture->server, G_MAXUINT64);

  g_free (status);
  status = srv_status_of (fixture->server, fixture->key, id);
  g_assert_cmpstr (status, ==, "created");
  again = list_page (fixture, "?status=pending");
  items = json_object_get_array_member (again, "notifications");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (items, 0),
                                                  "status"), ==, "delivered");
  g_free (status);
  status = srv_status_of (fixture->server, fixture->key, id);
  g_assert_cmpstr (status, ==, "delivered");
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
  g_test_add (path, Fixture, NULL, srv_team_setup, func, srv_team_teardown)

  ADD ("/server/list-pages/total-of-first-page", test_total_of_first_page);
  ADD ("/server/list-pages/page-not-held-by-its-marks", test_page_not_held_by_its_marks);
  ADD ("/server/list-pages/pages-in-order", test_pages_in_order);
#undef ADD

  return g_test_run ();
}
