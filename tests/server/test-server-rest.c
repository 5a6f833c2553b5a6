/* test-server-rest.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-server-rest"

#include <string.h>

#include "triage-test-server.h"

#define NOTIFICATION_ID "6f1d3c2a-1111-4222-8333-444455556666"
#define NOTIFICATION \
  "{\"id\":\"" NOTIFICATION_ID "\",\"context\":{\"title\":\"T\",\"description\":\"D\"}," \
  "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}," \
  "{\"id\":\"b\",\"label\":\"B\",\"response_type\":\"binary\"," \
  "\"options\":{\"true_label\":\"y\",\"false_label\":\"n\"}}]}"

static void
expect (TriageTestServer *server,
        const char       *method,
        const char       *path,
        const char       *token,
        const char       *body,
        guint             status,
        const char       *contains)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = NULL;
  guint got = 0;

  g_assert_true (triage_test_http (server, method, path, token, body, &got, &answer, &error));
  g_assert_no_error (error);
  if (got != status)
    g_error ("%s %s: expected %u, got %u: %s", method, path, status, got, answer);
  if (contains != NULL && strstr (answer, contains) == NULL)
    g_error ("%s %s: %s does not contain %s", method, path, answer, contains);
}

static void
test_lifecycle (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TriageTestServer) server = triage_test_server_new (NULL, &error);
  g_autofree char *alice = NULL, *bob = NULL, *service_id = NULL, *key = NULL, *secret = NULL;
  const char *recipients[] = { "alice", NULL };

  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_user (server, "alice", &alice, &error));
  g_assert_true (triage_test_server_create_user (server, "bob", &bob, &error));
  g_assert_true (triage_test_server_create_service (server, "svc", recipients, NULL,
                                                    &service_id, &key, &secret, &error));
  g_assert_no_error (error);

  expect (server, "POST", "/api/v1/admin/users", NULL, "{\"id\":\"x\"}", 401, "UNAUTHORIZED");
  expect (server, "POST", "/api/v1/admin/users", triage_test_server_get_admin_token (server),
          "{\"id\":\"alice\"}", 409, "USER_ALREADY_EXISTS");
  expect (server, "POST", "/api/v1/services", triage_test_server_get_admin_token (server),
          "{\"name\":\"svc\"}", 409, "SERVICE_ALREADY_EXISTS");
  expect (server, "POST", "/api/v1/services", triage_test_server_get_admin_token (server),
          "{\"name\":\"w\",\"callback_url\":\"http://example.com/x\"}", 400, "callback_url");
  expect (server, "POST", "/api/v1/notifications", key, "{", 400, "INVALID_JSON");
  expect (server, "POST", "/api/v1/notifications", key, NOTIFICATION, 201, "\"created\"");
  expect (server, "POST", "/api/v1/notifications", key, NOTIFICATION, 201, NOTIFICATION_ID);
  expect (server, "POST", "/api/v1/notifications", key,
          "{\"id\":\"" NOTIFICATION_ID "\",\"context\":{\"title\":\"X\",\"description\":\"D\"},"
          "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]}",
          409, "NOTIFICATION_ALREADY_EXISTS");
  expect (server, "GET", "/api/v1/client/notifications/" NOTIFICATION_ID, bob, NULL, 404, NULL);
  expect (server, "GET", "/api/v1/client/notifications?status=pending", alice, NULL, 200,
          "\"total_count\":1");
  expect (server, "GET", "/api/v1/client/notifications?limit=500", alice, NULL, 400, "limit");
  expect (server, "POST", "/api/v1/client/respond", alice,
          "{\"notification_id\":\"" NOTIFICATION_ID "\"}", 400, "MISSING_REQUIRED_FIELD");
  expect (server, "POST", "/api/v1/client/respond", alice,
          "{\"notification_id\":\"" NOTIFICATION_ID "\",\"action_id\":\"zz\"}", 400,
          "INVALID_ACTION_ID");
  expect (server, "POST", "/api/v1/client/respond", alice,
          "{\"notification_id\":\"" NOTIFICATION_ID "\",\"action_id\":\"b\",\"response_data\":3}",
          400, "INVALID_RESPONSE_DATA");
  expect (server, "POST", "/api/v1/client/respond", bob,
          "{\"notification_id\":\"" NOTIFICATION_ID "\",\"action_id\":\"b\",\"response_data\":true}",
          404, NULL);
  expect (server, "POST", "/api/v1/client/respond", alice,
          "{\"notification_id\":\"" NOTIFICATION_ID "\",\"action_id\":\"b\",\"response_data\":true}",
          200, "responded");
  expect (server, "POST", "/api/v1/client/respond", alice,
          "{\"notification_id\":\"" NOTIFICATION_ID "\",\"action_id\":\"b\",\"response_data\":true}",
          200, "responded");
  expect (server, "POST", "/api/v1/client/respond", alice,
          "{\"notification_id\":\"" NOTIFICATION_ID "\",\"action_id\":\"ok\"}",
          409, "NOTIFICATION_ALREADY_RESPONDED");
  expect (server, "PATCH", "/api/v1/notifications/" NOTIFICATION_ID, key,
          "{\"status\":\"invalidated\"}", 409, "ALREADY_RESPONDED");
  expect (server, "DELETE", "/api/v1/client/respond", alice, NULL, 405, NULL);
  expect (server, "GET", "/nothing", NULL, NULL, 404, "NOT_FOUND");

  /* Durability: kill -9 after the 201, restart on the same database. */
  triage_test_server_kill (server);
  g_assert_true (triage_test_server_restart (server, &error));
  g_assert_no_error (error);
  expect (server, "GET", "/api/v1/notifications/" NOTIFICATION_ID "?wait=1", key, NULL, 200,
          "\"response_data\":true");
}

static void
test_expiry_and_wait (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TriageTestServer) server = triage_test_server_new (NULL, &error);
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) later = g_date_time_add_seconds (now, 0.5);
  g_autofree char *deadline = g_date_time_format_iso8601 (later);
  g_autofree char *key = NULL, *body = NULL;

  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_service (server, "svc", NULL, NULL, NULL, &key, NULL,
                                                    &error));
  body = g_strdup_printf ("{\"id\":\"" NOTIFICATION_ID "\",\"deadline\":\"%s\","
                          "\"context\":{\"title\":\"T\",\"description\":\"D\"},"
                          "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]}",
                          deadline);
  expect (server, "POST", "/api/v1/notifications", key, body, 201, NULL);
  expect (server, "GET", "/api/v1/notifications/" NOTIFICATION_ID "?wait=5", key, NULL, 200,
          "\"expired\"");
}

static void
test_local_trust (void)
{
  g_autoptr(GError) error = NULL;
  TriageTestServerOptions options = { .unix_socket = TRUE };
  g_autoptr(TriageTestServer) server = triage_test_server_new (&options, &error);

  g_assert_no_error (error);
  g_assert_nonnull (triage_test_server_get_socket_path (server));
  expect (server, "POST", "/api/v1/notifications", NULL, NOTIFICATION, 201, NOTIFICATION_ID);
  expect (server, "GET", "/api/v1/client/notifications", NULL, NULL, 200, "\"id\":\"local\"");
  expect (server, "GET", "/api/v1/client/notifications", "ut_wrong", NULL, 401, "UNAUTHORIZED");
  expect (server, "POST", "/api/v1/admin/users", NULL, "{\"id\":\"carol\"}", 201, "ut_");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/server/rest/lifecycle", test_lifecycle);
  g_test_add_func ("/server/rest/expiry-and-wait", test_expiry_and_wait);
  g_test_add_func ("/server/rest/local-trust", test_local_trust);
  return g_test_run ();
}
