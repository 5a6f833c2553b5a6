/* service-test-fixture.h — the fixture of the src/service tests: a real
 * triage-server on a Unix socket, a person's and a service's libatp clients
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <signal.h>
#include <string.h>
#include <gio/gunixsocketaddress.h>

#include "atp.h"
#include "atp-stream.h"
#include "triage-service-request.h"
#include "triage-test-server.h"

/* ATP's own endpoints stand in for another protocol's: the JSON mode knows
 * only paths and the `status` member. */
#define COLLECTION "/api/v1/notifications"

typedef struct
{
  TriageTestServer *server;
  AtpClient        *person;
  AtpClient        *service;
} Fixture;

static inline void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static inline void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
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

static inline void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_clear_object (&fixture->person);
  g_clear_object (&fixture->service);
  triage_test_server_free (fixture->server);
}

static inline char *
new_body (const char *id,
          const char *title)
{
  return g_strdup_printf ("{\"id\":\"%s\",\"version\":\"1.0\",\"context\":{\"title\":\"%s\","
                          "\"description\":\"d\"},\"actions\":[{\"id\":\"ok\",\"label\":\"OK\","
                          "\"response_type\":\"simple\"}]}", id, title);
}
