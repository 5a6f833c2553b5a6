/* service-request-test-common.c — what the files of test-service-request share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "service-request-test-common.h"

void
service_request_test_result_cb (GObject      *object,
                                GAsyncResult *result,
                                gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

void
service_request_test_setup (ServiceRequestFixture *fixture,
                            gconstpointer          data)
{
  TriageTestServerOptions options = { .unix_socket = TRUE };
  g_autoptr(GError) error = NULL;
  const char *socket_path;

  fixture->server = triage_test_server_new (&options, &error);
  g_assert_no_error (error);
  socket_path = triage_test_server_get_socket_path (fixture->server);
  fixture->person = atp_client_new_for_socket (socket_path);
  fixture->service = atp_client_new_for_socket (socket_path);
  atp_client_set_service (fixture->service, "scripts", NULL);
}

void
service_request_test_teardown (ServiceRequestFixture *fixture,
                               gconstpointer          data)
{
  g_clear_object (&fixture->person);
  g_clear_object (&fixture->service);
  triage_test_server_free (fixture->server);
}

char *
service_request_test_new_body (const char *id,
                               const char *title)
{
  return g_strdup_printf ("{\"id\":\"%s\",\"version\":\"1.0\",\"context\":{\"title\":\"%s\","
                          "\"description\":\"d\"},\"actions\":[{\"id\":\"ok\",\"label\":\"OK\","
                          "\"response_type\":\"simple\"}]}", id, title);
}
