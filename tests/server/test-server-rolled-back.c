/* test-server-rolled-back.c — a batch the database rolled back halfway is
 * not stored in part
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A statement that fails may make SQLite roll back the whole transaction it
 * is in (a full disk, an I/O error, a trigger's RAISE (ROLLBACK)); the
 * statements of the batch after it then ran on their own, each committed at
 * once (the batch's events among them), while its requests were told
 * "nothing was changed". The test makes the insert of an AFP review roll
 * its transaction back (a trigger on afp_reviews; on PostgreSQL one that
 * raises, which fails the batch) and posts a session's second review, which
 * also withdraws the first: the answer is 503, and neither the withdrawal
 * nor the new review reaches the event log the streams resume from.
 */

#define G_LOG_DOMAIN "test-server-rolled-back"

#include "server-test-util.h"

#define REVIEWS "/api/v1/afp/reviews"
#define ARTIFACT "\"artifact\":{\"media_type\":\"text/plain\",\"content\":\"a\"}"

typedef struct
{
  TriageTestServer *server;
  char             *key;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  const char * const alice[] = { "alice", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;

  fixture->server = triage_test_server_new (NULL, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_user (fixture->server, "alice", &token, &error));
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_service (fixture->server, "review-bot", alice, NULL,
                                                    NULL, &fixture->key, NULL, &error));
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_assert_true (triage_test_server_stop (fixture->server));
  triage_test_server_free (fixture->server);
  g_free (fixture->key);
}

static SrvAnswer *
post_review (Fixture    *fixture,
             const char *session,
             int         iteration)
{
  g_autofree char *body = NULL;

  if (session == NULL)
    body = g_strdup_printf ("{\"request\":{\"iteration\":%d," ARTIFACT "}}", iteration);
  else
    body = g_strdup_printf ("{\"session_id\":\"%s\",\"request\":{\"iteration\":%d," ARTIFACT "}}",
                            session, iteration);
  return srv_request (fixture->server, "POST", REVIEWS, fixture->key, body);
}

static char *
review_status (Fixture    *fixture,
               const char *id)
{
  g_autofree char *path = g_strconcat (REVIEWS "/", id, NULL);
  g_autoptr(SrvAnswer) answer = srv_request (fixture->server, "GET", path, fixture->key, NULL);
  g_autoptr(JsonObject) object = NULL;

  srv_assert_status (answer, 200, NULL);
  object = srv_parse_object (answer->body);
  return g_strdup (json_object_get_string_member (object, "status"));
}

static void
test_nothing_after_the_loss (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autoptr(SrvAnswer) first = NULL, refused = NULL, taken = NULL;
  g_autoptr(JsonObject) review = NULL;
  g_autofree char *session = NULL, *first_id = NULL, *events = NULL, *requests = NULL;
  g_autofree char *events_after = NULL, *requests_after = NULL, *status = NULL;
  g_autofree char *events_taken = NULL;

  first = post_review (fixture, NULL, 1);
  srv_assert_status (first, 201, NULL);
  review = srv_parse_object (first->body);
  session = g_strdup (json_object_get_string_member (review, "session_id"));
  first_id = g_strdup (json_object_get_string_member (review, "id"));
  events = srv_run_sql (fixture->server, "SELECT COUNT (*) FROM events");
  requests = srv_run_sql (fixture->server, "SELECT COUNT (*) FROM notifications");

  /* Every insert of a review rolls its transaction back. */
  srv_refuse_inserts (fixture->server, "afp_reviews", "rolled back", TRUE);
  refused = post_review (fixture, session, 2);
  srv_assert_status (refused, 503, "STORAGE_UNAVAILABLE");
  /* Answered once its batch was done: nothing of it is in the database. */
  events_after = srv_run_sql (fixture->server, "SELECT COUNT (*) FROM events");
  g_assert_cmpstr (events_after, ==, events);
  requests_after = srv_run_sql (fixture->server, "SELECT COUNT (*) FROM notifications");
  g_assert_cmpstr (requests_after, ==, requests);
  status = review_status (fixture, first_id);
  g_assert_cmpstr (status, ==, "pending");

  srv_allow_inserts (fixture->server, "afp_reviews");
  taken = post_review (fixture, session, 2);
  srv_assert_status (taken, 201, NULL);
  events_taken = srv_run_sql (fixture->server, "SELECT COUNT (*) FROM events");
  g_assert_cmpstr (events_taken, !=, events);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  /* For the server: the batch the test makes fail is warned of, and that
   * is not fatal for it here. */
  g_unsetenv ("G_DEBUG");

  g_test_add ("/server/rolled-back/nothing-after-the-loss", Fixture, NULL, fixture_setup,
              test_nothing_after_the_loss, fixture_teardown);
  return g_test_run ();
}
