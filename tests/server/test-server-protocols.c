/* test-server-protocols.c — one server, several protocols: the ATP endpoint
 * takes ATP only, clients opt in to the others with protocols=
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-server-protocols"

#include "server-test-util.h"

typedef struct
{
  TriageTestServer *server;
  char             *user;
  char             *key;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  const char *recipients[] = { "alice", NULL };

  fixture->server = triage_test_server_new (NULL, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_user (fixture->server, "alice", &fixture->user, &error));
  g_assert_true (triage_test_server_create_service (fixture->server, "svc", recipients, NULL, NULL,
                                                    &fixture->key, NULL, &error));
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_pointer (&fixture->server, triage_test_server_free);
  g_free (fixture->user);
  g_free (fixture->key);
}

static gint64
total_count (Fixture    *fixture,
             const char *query)
{
  g_autofree char *path = g_strconcat ("/api/v1/client/notifications", query, NULL);
  g_autoptr(SrvAnswer) answer = srv_request (fixture->server, "GET", path, fixture->user, NULL);
  g_autoptr(JsonObject) object = NULL;

  srv_assert_status (answer, 200, NULL);
  object = srv_parse_object (answer->body);
  return json_object_get_int_member (json_object_get_object_member (object, "pagination"),
                                     "total_count");
}

static void
test_atp_endpoint_takes_atp (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autoptr(SrvAnswer) answer = NULL;

  /* An envelope of another protocol is not an ATP notification: refused, nothing stored. */
  answer = srv_request (fixture->server, "POST", "/api/v1/notifications", fixture->key,
                        "{\"protocol\":\"aitp\",\"context\":{\"title\":\"T\"},"
                        "\"aitp\":{\"request_decision\":{\"id\":\"x\",\"options\":[{\"id\":\"a\"}]}}}");
  srv_assert_status (answer, 400, "INVALID_FIELD_VALUE");
  srv_assert_field (answer, "protocol");
  g_assert_nonnull (strstr (answer->body, "this endpoint takes ATP notifications"));
  g_clear_pointer (&answer, srv_answer_free);

  /* The same without the other protocol's member: the endpoint is what is
   * wrong, not a member missing (that was 400 MISSING_REQUIRED_FIELD). */
  answer = srv_request (fixture->server, "POST", "/api/v1/notifications", fixture->key,
                        "{\"protocol\":\"aitp\",\"context\":{\"title\":\"T\",\"description\":\"D\"},"
                        "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]}");
  srv_assert_status (answer, 400, "INVALID_FIELD_VALUE");
  srv_assert_field (answer, "protocol");
  g_assert_nonnull (strstr (answer->body, "a request of protocol aitp goes to its own endpoint"));
  g_clear_pointer (&answer, srv_answer_free);

  answer = srv_request (fixture->server, "POST", "/api/v1/notifications", fixture->key,
                        "{\"protocol\":\"smtp\",\"context\":{\"title\":\"T\",\"description\":\"D\"},"
                        "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]}");
  srv_assert_status (answer, 400, "INVALID_FIELD_VALUE");
  g_assert_nonnull (strstr (answer->body, "protocol: must be one of atp, aitp, afp"));
  g_assert_cmpint (total_count (fixture, "?protocols=all"), ==, 0);

  /* "protocol": "atp" is ATP. */
  g_clear_pointer (&answer, srv_answer_free);
  answer = srv_request (fixture->server, "POST", "/api/v1/notifications", fixture->key,
                        "{\"protocol\":\"atp\",\"context\":{\"title\":\"T\",\"description\":\"D\"},"
                        "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]}");
  srv_assert_status (answer, 201, NULL);
  g_assert_cmpint (total_count (fixture, ""), ==, 1);
  g_assert_cmpint (total_count (fixture, "?protocols=atp"), ==, 1);
  g_assert_cmpint (total_count (fixture, "?protocols=aitp"), ==, 0);
  g_assert_cmpint (total_count (fixture, "?protocols=aitp,afp,atp"), ==, 1);
}

static void
test_bad_protocols_parameter (Fixture       *fixture,
                              gconstpointer  data)
{
  const char *bad[] = { "?protocols=", "?protocols=mcp", "?protocols=atp,%20aitp", "?protocols=ATP" };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *path = g_strconcat ("/api/v1/client/notifications", bad[i], NULL);
      g_autoptr(SrvAnswer) answer = srv_request (fixture->server, "GET", path, fixture->user, NULL);
      g_autoptr(SrvSocket) sock = srv_ws_open (fixture->server, fixture->user, bad[i]);
      g_autoptr(SrvEvents) events = srv_events_open (fixture->server, fixture->user, bad[i], NULL);

      g_test_message ("%s", bad[i]);
      srv_assert_status (answer, 400, "INVALID_PARAMETER");
      srv_assert_field (answer, "protocols");
      g_assert_null (sock->ws);
      g_assert_cmpuint (sock->status, ==, 400);
      g_assert_cmpuint (events->status, ==, 400);
      g_assert_nonnull (strstr (events->error_body, "\"protocols\""));
    }
}

#define RADIO \
  "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"request_decision\":{\"id\":\"%s\"," \
  "\"description\":\"Select your favorite number:\",\"options\":[{\"id\":\"0\",\"name\":\"0\"}," \
  "{\"id\":\"7\",\"name\":\"7\"}]}}"

static char *
post_decision (Fixture    *fixture,
               const char *request_decision_id)
{
  g_autofree char *body = g_strdup_printf (RADIO, request_decision_id);
  g_autoptr(SrvAnswer) answer = srv_request (fixture->server, "POST", "/api/v1/aitp/decisions",
                                             fixture->key, body);
  g_autoptr(JsonObject) object = NULL;

  srv_assert_status (answer, 201, NULL);
  object = srv_parse_object (answer->body);
  return g_strdup (json_object_get_string_member (object, "id"));
}

static gboolean
decision_delivered (Fixture    *fixture,
                    const char *id)
{
  g_autofree char *path = g_strconcat ("/api/v1/aitp/decisions/", id, NULL);
  g_autoptr(SrvAnswer) answer = srv_request (fixture->server, "GET", path, fixture->key, NULL);
  g_autoptr(JsonObject) object = NULL;

  srv_assert_status (answer, 200, NULL);
  object = srv_parse_object (answer->body);
  return json_object_get_boolean_member (object, "delivered");
}

/* A stream gets the requests of the protocols it asked for; a request only
 * a stream that did not ask for it saw is not delivered. */
static void
test_streams_opt_in (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(SrvSocket) plain = srv_ws_open (fixture->server, fixture->user, NULL);
  g_autoptr(SrvEvents) plain_events = srv_events_open (fixture->server, fixture->user, NULL, NULL);
  g_autofree char *early = post_decision (fixture, "early");
  g_autofree char *atp = srv_post (fixture->server, fixture->key, "An ATP one");
  g_autoptr(SrvSocket) aitp = NULL, all = NULL, plain_again = NULL;
  g_autoptr(SrvEvents) aitp_events = NULL;
  g_autofree char *live = NULL, *last = NULL;
  JsonObject *frame;

  /* The ATP one came after the decision: once it is there, the decision
   * would have been too. */
  srv_wait_until (srv_find_frame (plain, "notification", atp) != NULL, "the ATP notification");
  srv_wait_until (srv_find_event (plain_events, "notification", atp) != NULL, "the ATP event");
  g_assert_null (srv_find_frame (plain, "notification", early));
  g_assert_null (srv_find_event (plain_events, "notification", early));
  g_assert_false (decision_delivered (fixture, early));

  /* On connect: the pending requests of the protocols asked for. */
  aitp = srv_ws_open (fixture->server, fixture->user, "?protocols=aitp");
  all = srv_ws_open (fixture->server, fixture->user, "?protocols=atp,aitp");
  plain_again = srv_ws_open (fixture->server, fixture->user, "?protocols=atp");
  srv_wait_until (srv_find_frame (aitp, "notification", early) != NULL, "the snapshot (aitp)");
  srv_wait_until (srv_count_frames (all, "notification", NULL) == 2, "the snapshot (all)");
  srv_wait_until (srv_find_frame (plain_again, "notification", atp) != NULL, "the snapshot (atp)");
  g_assert_null (srv_find_frame (aitp, "notification", atp));
  g_assert_null (srv_find_frame (plain_again, "notification", early));
  frame = srv_find_frame (aitp, "notification", early);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (frame, "data"),
                                                  "protocol"), ==, "aitp");
  srv_wait_until (decision_delivered (fixture, early), "the decision delivered");

  /* Live: to the streams that asked; its status updates to every stream. */
  aitp_events = srv_events_open (fixture->server, fixture->user, "?protocols=aitp", NULL);
  live = post_decision (fixture, "live");
  srv_wait_until (srv_find_frame (aitp, "notification", live) != NULL, "the live decision (aitp)");
  srv_wait_until (srv_find_frame (all, "notification", live) != NULL, "the live decision (all)");
  srv_wait_until (srv_find_event (aitp_events, "notification", live) != NULL, "the live decision (sse)");
  srv_wait_until (srv_find_update (plain, live, "delivered") != NULL, "its status update");
  g_assert_null (srv_find_frame (plain, "notification", live));
  g_assert_null (srv_find_event (plain_events, "notification", live));

  /* A resumed ATP-only event stream replays no decision either. */
  last = g_strdup (srv_find_event (plain_events, "notification", atp)->id);
  {
    g_autoptr(SrvEvents) resumed = srv_events_open (fixture->server, fixture->user, NULL, last);
    g_autoptr(SrvEvents) resumed_aitp = srv_events_open (fixture->server, fixture->user,
                                                         "?protocols=aitp", last);

    srv_wait_until (srv_find_event (resumed, "status_update", live) != NULL, "the replay");
    srv_wait_until (srv_find_event (resumed_aitp, "notification", live) != NULL, "the replay (aitp)");
    g_assert_null (srv_find_event (resumed, "notification", live));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/server/protocols/atp-endpoint", Fixture, NULL, fixture_set_up,
              test_atp_endpoint_takes_atp, fixture_tear_down);
  g_test_add ("/server/protocols/bad-parameter", Fixture, NULL, fixture_set_up,
              test_bad_protocols_parameter, fixture_tear_down);
  g_test_add ("/server/protocols/streams-opt-in", Fixture, NULL, fixture_set_up,
              test_streams_opt_in, fixture_tear_down);

  return g_test_run ();
}
