/* test-server-pg-afp-claim.c — an AFP review refused after its iteration was
 * claimed gives the claim back; a retry whose claim loses to its own first
 * post (on another server) gets that post's answer
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

/* POSTs @body (kept alive by the message) as a review to @server, without
 * waiting: @wait gets the result. */
static SoupMessage *
post_started (TriageTestServer *server,
              const char       *key,
              const char       *body,
              SrvWait          *wait)
{
  g_autofree char *url = g_strconcat (triage_test_server_get_url (server), REVIEWS, NULL);
  g_autofree char *auth = g_strconcat ("Bearer ", key, NULL);
  g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));
  SoupMessage *msg = soup_message_new ("POST", url);

  soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
  soup_message_set_request_body_from_bytes (msg, "application/json", bytes);
  soup_session_send_and_read_async (triage_test_server_get_session (server), msg,
                                    G_PRIORITY_DEFAULT, NULL, srv_result_cb, wait);
  return msg;
}

/* The answer's body of post_started (), once it came; its status in @status. */
static char *
post_finished (TriageTestServer *server,
               SoupMessage      *msg,
               SrvWait          *wait,
               guint            *status)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;

  srv_wait_until (wait->result != NULL, "a review's answer");
  bytes = soup_session_send_and_read_finish (triage_test_server_get_session (server),
                                             wait->result, &error);
  g_clear_object (&wait->result);
  g_assert_no_error (error);
  *status = soup_message_get_status (msg);
  return g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
}

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
  g_autofree char *last = NULL, *text = NULL;
  g_autoptr(SoupMessage) msg = NULL;
  SrvWait wait = { NULL };
  guint status;
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
  msg = post_started (first, key, next_body, &wait);
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
  text = post_finished (first, msg, &wait, &status);
  g_assert_cmpuint (status, ==, 413);
  refused = srv_parse_object (text);
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

/* The agent's retry of a review (the same id and body) on a second server
 * of the database while its first post is under way on the first: the
 * claim of the retry finds the iteration taken, by that very review, which
 * was then stored. It was answered 422 "must be greater than 2" (and
 * triage-ask told the agent its request was invalid) while the review
 * waited for the person; now it gets the first post's 201. The test holds
 * the session table so that both claims wait, then lets them through. */
static void
test_retry_racing (void)
{
  const char * const alice[] = { "alice", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *uri = triage_test_postgres_new_database (&error);
  TriageTestServerOptions options = { .database = uri };
  g_autoptr(TriageTestServer) first = NULL, second = NULL;
  g_autofree char *user = NULL, *key = NULL, *id = g_uuid_string_random ();
  g_autofree char *next_body = NULL, *first_text = NULL, *second_text = NULL;
  g_autoptr(SrvAnswer) posted = NULL;
  g_autoptr(JsonObject) review = NULL;
  g_autoptr(SoupMessage) first_msg = NULL, second_msg = NULL;
  SrvWait first_wait = { NULL }, second_wait = { NULL };
  guint first_status, second_status;
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

  posted = srv_request (first, "POST", REVIEWS, key,
                        "{\"request\":{\"iteration\":1,\"artifact\":{\"media_type\":"
                        "\"text/plain\",\"content\":\"a\"}}}");
  srv_assert_status (posted, 201, NULL);
  review = srv_parse_object (posted->body);
  next_body = g_strdup_printf ("{\"id\":\"%s\",\"session_id\":\"%s\",\"request\":"
                               "{\"iteration\":2,\"artifact\":{\"media_type\":\"text/plain\","
                               "\"content\":\"b\"}}}",
                               id, json_object_get_string_member (review, "session_id"));

  g_free (pg_query_value (conn, "BEGIN; LOCK TABLE afp_sessions IN SHARE MODE"));
  first_msg = post_started (first, key, next_body, &first_wait);
  second_msg = post_started (second, key, next_body, &second_wait);
  pg_query_wait_for (conn, "SELECT COUNT (*) = 2 FROM pg_locks"
                           " WHERE relation = 'afp_sessions'::regclass AND NOT granted",
                     "both claims, held up", WAIT_S);
  g_free (pg_query_value (conn, "ROLLBACK"));

  first_text = post_finished (first, first_msg, &first_wait, &first_status);
  second_text = post_finished (second, second_msg, &second_wait, &second_status);
  if (first_status != 201 || second_status != 201)
    g_error ("expected 201 twice, got %u: %s and %u: %s", first_status, first_text,
             second_status, second_text);
  g_assert_cmpstr (first_text, ==, second_text);
  g_assert_nonnull (strstr (first_text, id));

  PQfinish (conn);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/server/pg-afp-claim/refused-after-claim", test_refused_after_claim);
  g_test_add_func ("/server/pg-afp-claim/retry-racing", test_retry_racing);
  return g_test_run ();
}
