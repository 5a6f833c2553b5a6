/* server-ops-test-common.c — the fixture and probes test-server-ops's parts share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-server-ops"

#include "server-ops-test-common.h"

void
server_ops_test_fixture_setup (ServerOpsFixture *fixture,
                               gconstpointer     data)
{
  TriageTestServerOptions options = { .extra_args = data };
  const char * const alice_only[] = { "alice", NULL };
  g_autoptr(GError) error = NULL;

  fixture->server = triage_test_server_new (&options, &error);
  g_assert_no_error (error);
  triage_test_server_create_user (fixture->server, "alice", &fixture->alice, &error);
  g_assert_no_error (error);
  triage_test_server_create_service (fixture->server, "deploy-bot", alice_only, NULL, NULL,
                                     &fixture->key, NULL, &error);
  g_assert_no_error (error);
}

void
server_ops_test_fixture_teardown (ServerOpsFixture *fixture,
                                  gconstpointer     data)
{
  g_assert_true (triage_test_server_stop (fixture->server));
  triage_test_server_free (fixture->server);
  g_free (fixture->alice);
  g_free (fixture->key);
}

/* @path answers @status with {"status": @state} and nothing else but a reason. */
void
server_ops_test_assert_probe (TriageTestServer *server,
                              const char       *path,
                              guint             status,
                              const char       *state)
{
  g_autoptr(SrvAnswer) answer = srv_request (server, "GET", path, NULL, NULL);
  g_autoptr(JsonObject) object = NULL;

  srv_assert_status (answer, status, NULL);
  object = srv_parse_object (answer->body);
  g_assert_cmpstr (json_object_get_string_member (object, "status"), ==, state);
  g_assert_cmpuint (json_object_get_size (object), ==, status == 200 ? 1 : 2);
  if (status != 200)
    g_assert_nonnull (json_object_get_string_member (object, "reason"));
}

gboolean
server_ops_test_readyz_says (TriageTestServer *server,
                             const char       *state)
{
  g_autoptr(SrvAnswer) answer = srv_request (server, "GET", "/readyz", NULL, NULL);
  g_autoptr(JsonObject) object = srv_parse_object (answer->body);

  return g_strcmp0 (json_object_get_string_member (object, "status"), state) == 0;
}
