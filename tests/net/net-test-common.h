/* net-test-common.h — helpers for the libatp net tests (real triage-server)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <string.h>

#include "atp.h"
#include "atp-client.h"
#include "atp-local.h"
#include "atp-stream.h"
#include "triage-test-server.h"

#define net_test_wait_until triage_test_wait_until
#define net_test_sleep      triage_test_sleep

static inline void
net_test_result_array_cb (GObject      *object,
                          GAsyncResult *result,
                          gpointer      user_data)
{
  g_ptr_array_add (user_data, g_object_ref (result));
}

static inline void
net_test_result_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* Asserts @error is ATP_ERROR/@code and its message contains @needle (may be NULL). */
static inline void
net_test_assert_error (const GError *error,
                       int           code,
                       const char   *needle,
                       const char   *file,
                       int           line)
{
  if (error == NULL)
    g_error ("%s:%d: expected %s, got success", file, line, atp_error_code_to_string (code));
  if (error->domain != ATP_ERROR || error->code != code)
    g_error ("%s:%d: expected %s, got %s/%d: %s", file, line, atp_error_code_to_string (code),
             g_quark_to_string (error->domain), error->code, error->message);
  if (needle != NULL && strstr (error->message, needle) == NULL)
    g_error ("%s:%d: message “%s” lacks “%s”", file, line, error->message, needle);
}

#define net_assert_error(error, code, needle) \
  net_test_assert_error ((error), (code), (needle), __FILE__, __LINE__)

/* The hostile peer (tests/net/hostile-peer.py) in its own process */

typedef struct
{
  GSubprocess *process;
  char        *url;
} NetPeer;

static inline NetPeer *
net_peer_start (void)
{
  NetPeer *peer = g_new0 (NetPeer, 1);

  peer->process = triage_test_spawn_peer ("net/hostile-peer.py", NULL, &peer->url);
  return peer;
}

static inline void
net_peer_stop (NetPeer *peer)
{
  g_output_stream_close (g_subprocess_get_stdin_pipe (peer->process), NULL, NULL);
  g_subprocess_wait (peer->process, NULL, NULL);
  g_object_unref (peer->process);
  g_free (peer->url);
  g_free (peer);
}

/* A small valid submission with @title and the given actions JSON (NULL: one simple action). */
static inline char *
net_test_submission (const char *id,
                     const char *title,
                     const char *actions_json)
{
  return g_strdup_printf ("{%s%s%s\"context\":{\"title\":\"%s\",\"description\":\"Test request\"},"
                          "\"actions\":%s}",
                          id ? "\"id\":\"" : "", id ? id : "", id ? "\"," : "",
                          title,
                          actions_json ? actions_json
                                       : "[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]");
}

/* A real server with one user and one service addressed to that user. */
typedef struct
{
  TriageTestServer *server;
  char             *user_token;
  char             *service_id;
  char             *service_key;
  AtpClient        *user;      /* client role */
  AtpClient        *service;   /* service role */
} NetFixture;

static inline void
net_fixture_setup_with (NetFixture                    *fixture,
                        const TriageTestServerOptions *options)
{
  const char * const recipients[] = { "alice", NULL };
  g_autoptr(GError) error = NULL;

  fixture->server = triage_test_server_new (options, &error);
  g_assert_no_error (error);

  triage_test_server_create_user (fixture->server, "alice", &fixture->user_token, &error);
  g_assert_no_error (error);
  triage_test_server_create_service (fixture->server, "Test service", recipients, NULL,
                                     &fixture->service_id, &fixture->service_key, NULL, &error);
  g_assert_no_error (error);

  if (options != NULL && options->unix_socket)
    {
      fixture->user = atp_client_new_for_socket (triage_test_server_get_socket_path (fixture->server));
      fixture->service = atp_client_new_for_socket (triage_test_server_get_socket_path (fixture->server));
    }
  else
    {
      fixture->user = atp_client_new (triage_test_server_get_url (fixture->server), &error);
      g_assert_no_error (error);
      fixture->service = atp_client_new (triage_test_server_get_url (fixture->server), &error);
      g_assert_no_error (error);
    }
  atp_client_set_token (fixture->user, fixture->user_token);
  atp_client_set_token (fixture->service, fixture->service_key);
  atp_client_set_timeout (fixture->user, 10);
  atp_client_set_timeout (fixture->service, 10);
}

static inline void
net_fixture_setup (NetFixture    *fixture,
                   gconstpointer  data)
{
  net_fixture_setup_with (fixture, data);
}

static inline void
net_fixture_teardown (NetFixture    *fixture,
                      gconstpointer  data)
{
  g_assert_finalize_object (fixture->user);
  g_assert_finalize_object (fixture->service);
  triage_test_server_free (fixture->server);
  g_free (fixture->user_token);
  g_free (fixture->service_id);
  g_free (fixture->service_key);
}

/* Synchronous wrappers (they run the main loop, so streams keep working). */

static inline AtpPostResult *
net_post (AtpClient   *client,
          const char  *json,
          GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  atp_client_post_notification_data_async (client, json, -1, NULL, net_test_result_cb, &result);
  net_test_wait_until (result != NULL, "a post");
  return atp_client_post_notification_finish (client, result, error);
}

/* Posts a simple request and returns its id. */
static inline char *
net_post_simple (NetFixture *fixture,
                 const char *title)
{
  g_autofree char *json = net_test_submission (NULL, title, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpPostResult) post = net_post (fixture->service, json, &error);

  g_assert_no_error (error);
  return g_strdup (post->notification_id);
}

static inline AtpResponse *
net_respond (AtpClient   *client,
             const char  *id,
             const char  *action_id,
             const char  *data_json,
             GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonNode) data = data_json ? json_from_string (data_json, NULL) : NULL;

  atp_client_respond_async (client, id, action_id, data, NULL, net_test_result_cb, &result);
  net_test_wait_until (result != NULL, "a response");
  return atp_client_respond_finish (client, result, error);
}

static inline AtpNotification *
net_wait_notification (AtpClient   *client,
                       const char  *id,
                       guint        wait_seconds,
                       GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  atp_client_wait_notification_async (client, id, wait_seconds, NULL, net_test_result_cb, &result);
  net_test_wait_until (result != NULL, "a service GET");
  return atp_client_wait_notification_finish (client, result, error);
}

static inline AtpNotification *
net_get_notification (AtpClient   *client,
                      const char  *id,
                      GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  atp_client_get_notification_async (client, id, NULL, net_test_result_cb, &result);
  net_test_wait_until (result != NULL, "a client GET");
  return atp_client_get_notification_finish (client, result, error);
}

static inline gboolean
net_invalidate (AtpClient   *client,
                const char  *id,
                const char  *reason,
                GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  atp_client_invalidate_async (client, id, reason, NULL, net_test_result_cb, &result);
  net_test_wait_until (result != NULL, "an invalidation");
  return atp_client_invalidate_finish (client, result, error);
}

static inline JsonNode *
net_call (AtpClient   *client,
          const char  *method,
          const char  *path,
          const char  *body,
          gboolean     service_call,
          GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  atp_client_call_async (client, method, path, body, service_call, 0, NULL, net_test_result_cb,
                         &result);
  net_test_wait_until (result != NULL, "a call");
  return atp_client_call_finish (client, result, error);
}

static inline GPtrArray *
net_list_pending (AtpClient  *client,
                  GError    **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  atp_client_list_pending_async (client, NULL, net_test_result_cb, &result);
  net_test_wait_until (result != NULL, "the pending list");
  return atp_client_list_pending_finish (client, result, error);
}
