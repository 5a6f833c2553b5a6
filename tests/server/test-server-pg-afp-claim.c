/* test-server-pg-afp-claim.c — an AFP review refused after its iteration was
 * claimed gives the claim back
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A review's envelope is measured before the session's iteration is
 * claimed; when the review waiting in the session was answered meanwhile,
 * on another server of the database, the envelope is made again after the
 * claim with that feedback in it, and may no longer fit a frame. That 413
 * left the iteration claimed: the agent's retry of the same iteration,
 * smaller, was refused 422 "must be greater than 2". The test makes the
 * race happen: it holds the session table (SHARE: reads go on, the claim
 * waits), answers the waiting review through a second server while the
 * first server's claim waits, then lets the claim through.
 */

#define G_LOG_DOMAIN "test-server-pg-afp-claim"

#include "pg-query-test-util.h"
#include "server-test-util.h"
#include "triage-test-postgres.h"
#include "afp-test-util.h"

#define REVIEWS "/api/v1/afp/reviews"
#define WAIT_S 30

static void
test_refused_after_claim (void)
{
  const char * const alice[] = { "alice", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *uri = triage_test_postgres_new_database (&error);
  TriageTestServerOptions options = { .database = uri };
  g_autoptr(TriageTestServer) first = NULL, second = NULL;
  g_autofree char *user = NULL, *key = NULL;
  g_autofree char *first_request = afp_test_large_request (1, 'a');
  g_autofree char *first_body = g_strdup_printf ("{\"request\":%s}", first_request);
  g_autoptr(SrvAnswer) posted = NULL, answered = NULL, retry = NULL;
  g_autoptr(JsonObject) review = NULL, refused = NULL;
  g_autofree char *session = NULL, *id = NULL;
  g_autofree char *next_request = afp_test_large_request (2, 'b');
  /* The previous artifact, this one and the title fit a frame (1 MiB) by
   * some 30 KB; with a 60 KB feedback beside them they do not. */
  g_autofree char *title = g_strnfill (199000, 't');
  g_autofree char *summary = g_strnfill (60000, 's');
  g_autofree char *next_body = NULL, *feedback = NULL, *small_body = NULL, *sql = NULL;
  g_autofree char *url = NULL, *auth = NULL, *last = NULL;
  g_autoptr(SoupMessage) msg = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) body = NULL;   /* next_body's, which outlives it and msg */
  SrvWait wait = { NULL };
  PGconn *conn;

  g_assert_no_error (error);
  first = triage_test_server_new (&options, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_user (first, "alice", &user, &error));
  g_assert_true (triage_test_server_create_service (first, "planner", alice, NULL, NULL, &key,
                                                    NULL, &error));
  second = triage_test_server_new_peer (first, NULL, &error);
  g_assert_no_error (error);
  conn = PQconnectdb (uri);
  if (PQstatus (conn) != CONNECTION_OK)
    g_error ("cannot connect to %s: %s", uri, PQerrorMessage (conn));

  posted = srv_request (first, "POST", REVIEWS, key, first_body);
  srv_assert_status (posted, 201, NULL);
  review = srv_parse_object (posted->body);
  session = g_strdup (json_object_get_string_member (review, "session_id"));
  id = g_strdup (json_object_get_string_member (review, "id"));

  /* The next review, read and measured (no feedback yet), then its claim
   * held up by the test's lock. */
  g_free (pg_query_value (conn, "BEGIN; LOCK TABLE afp_sessions IN SHARE MODE"));
  next_body = g_strdup_printf ("{\"session_id\":\"%s\",\"title\":\"%s\",\"request\":%s}",
                               session, title, next_request);
  url = g_strconcat (triage_test_server_get_url (first), REVIEWS, NULL);
  msg = soup_message_new ("POST", url);
  auth = g_strconcat ("Bearer ", key, NULL);
  soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
  body = g_bytes_new_static (next_body, strlen (next_body));
  soup_message_set_request_body_from_bytes (msg, "application/json", body);
  soup_session_send_and_read_async (triage_test_server_get_session (first), msg,
                                    G_PRIORITY_DEFAULT, NULL, srv_result_cb, &wait);
  pg_query_wait_for (conn, "SELECT COUNT (*) > 0 FROM pg_locks"
                           " WHERE relation = 'afp_sessions'::regclass AND NOT granted",
                     "the next review's claim, held up", WAIT_S);

  /* Meanwhile the person answers the first review on the other server. */
  feedback = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"feedback\","
                              "\"response_data\":{\"confidence\":{\"level\":\"high\","
                              "\"justification\":\"Read it all.\"},\"positive_points\":[{\"aspect\":\"Scope\","
                              "\"justification\":\"Clear.\"}],"
                              "\"areas_for_improvement\":[],\"general_summary\":\"%s\"}}",
                              id, summary);
  answered = srv_request (second, "POST", "/api/v1/client/respond", user, feedback);
  srv_assert_status (answered, 200, NULL);
  g_free (pg_query_value (conn, "ROLLBACK"));

  /* Made again with that feedback, the review no longer fits: refused... */
  srv_wait_until (wait.result != NULL, "the next review's answer");
  bytes = soup_session_send_and_read_finish (triage_test_server_get_session (first), wait.result,
                                             &error);
  g_object_unref (wait.result);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 413);
  {
    g_autofree char *text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));

    refused = srv_parse_object (text);
  }
  g_assert_cmpstr (json_object_get_string_member (refused, "code"), ==, "PAYLOAD_TOO_LARGE");

  /* ...and the session's last iteration is where it was: the same
   * iteration, smaller, goes through. */
  sql = g_strdup_printf ("SELECT last_iteration FROM afp_sessions WHERE id = '%s'", session);
  last = pg_query_value (conn, sql);
  g_assert_cmpstr (last, ==, "1");
  small_body = g_strdup_printf ("{\"session_id\":\"%s\",\"request\":{\"iteration\":2,"
                                "\"artifact\":{\"media_type\":\"text/plain\",\"content\":\"b\"}}}",
                                session);
  retry = srv_request (first, "POST", REVIEWS, key, small_body);
  srv_assert_status (retry, 201, NULL);

  PQfinish (conn);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/server/pg-afp-claim/refused-after-claim", test_refused_after_claim);
  return g_test_run ();
}
