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

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/server/protocols/atp-endpoint", Fixture, NULL, fixture_set_up,
              test_atp_endpoint_takes_atp, fixture_tear_down);
  g_test_add ("/server/protocols/bad-parameter", Fixture, NULL, fixture_set_up,
              test_bad_protocols_parameter, fixture_tear_down);

  return g_test_run ();
}
