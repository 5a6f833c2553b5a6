/* test-stream-limits.c — AtpStream and the server's limits: heartbeats, silence, too many
 * streams, many pending requests, the local socket
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "stream-test-common.h"

/* With heartbeats every second and an idle limit of three, only a stream that
 * answers them stays up. (Three, not two: an answer may take a second longer
 * than the one before on a loaded machine.) */
static const TriageTestServerOptions heartbeat_args = {
  .extra_args = (const char * const[]) { "--heartbeat-interval", "1", "--idle-timeout", "3", NULL },
};

static void
test_heartbeat (StreamFixture *fixture,
                gconstpointer  data)
{
  g_autofree char *id = NULL;

  atp_stream_start (fixture->stream);
  stream_test_wait_state (fixture, ATP_STREAM_STATE_CONNECTED);

  net_test_sleep (4500);
  g_assert_cmpint (atp_stream_get_state (fixture->stream), ==, ATP_STREAM_STATE_CONNECTED);
  g_assert_cmpuint (fixture->connecting, ==, 1);

  id = net_post_simple (&fixture->net, "Still listening");
  net_test_wait_until (stream_test_received_count (fixture, id) == 1,
                       "a notification after heartbeats");
}

/* The silence limit of the tests that let it run out. A healthy server's
 * handshake and resync must fit in it, and so must the test's own wait
 * between connecting and seeing the connection: a test process held up
 * 500 ms on a loaded machine (injected at connect ()) once made a 400 ms
 * limit end the handshake first, so that silence never connected and
 * handshake-silence found the attempt given up when its connection came. */
#define SHORT_SILENCE_MS 3000

/* Heartbeats far apart; our silence limit short: the stream gives the connection up. */
static const TriageTestServerOptions silent_args = {
  .extra_args = (const char * const[]) { "--heartbeat-interval", "30", NULL },
};

static void
test_silence (StreamFixture *fixture,
              gconstpointer  data)
{
  atp_stream_set_silence_timeout (fixture->stream, SHORT_SILENCE_MS);
  atp_stream_start (fixture->stream);
  stream_test_wait_state (fixture, ATP_STREAM_STATE_CONNECTED);

  stream_test_wait_state (fixture, ATP_STREAM_STATE_RECONNECTING);
  net_assert_error (atp_stream_get_last_error (fixture->stream), ATP_ERROR_CONNECTION_FAILED,
                    "No message from");
  /* And it comes back. */
  stream_test_wait_state (fixture, ATP_STREAM_STATE_CONNECTED);
}

static void
test_too_many (StreamFixture *fixture,
               gconstpointer  data)
{
  g_autoptr(GPtrArray) others = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(AtpStream) extra = NULL;
  gboolean refused = FALSE;

  /* The server allows 5 streams per user. */
  for (guint i = 0; i < 5; i++)
    {
      AtpStream *stream = g_object_new (ATP_TYPE_STREAM, "client", fixture->net.user,
                                        "watch-system", FALSE, NULL);

      atp_stream_start (stream);
      net_test_wait_until (atp_stream_get_state (stream) == ATP_STREAM_STATE_CONNECTED, "a stream");
      g_ptr_array_add (others, stream);
    }

  atp_stream_set_backoff (fixture->stream, 60000, 60000);
  atp_stream_start (fixture->stream);
  stream_test_wait_state (fixture, ATP_STREAM_STATE_RECONNECTING);
  refused = g_error_matches (atp_stream_get_last_error (fixture->stream), ATP_ERROR,
                             ATP_ERROR_RATE_LIMIT_EXCEEDED);
  if (!refused)
    g_error ("expected “too many”, got: %s", atp_stream_get_last_error (fixture->stream)->message);
  g_assert_nonnull (strstr (atp_stream_get_last_error (fixture->stream)->message,
                            "Too many open streams"));

  /* The others close; a place comes free once the server has seen a close,
   * which may be a moment after our side closed (on a loaded machine, after
   * the next try): until then a try is refused like the first. */
  for (guint i = 0; i < others->len; i++)
    atp_stream_stop (others->pdata[i]);
  for (guint tries = 0; atp_stream_get_state (fixture->stream) != ATP_STREAM_STATE_CONNECTED; tries++)
    {
      guint connecting = fixture->connecting;

      g_assert_cmpuint (tries, <, 100);
      atp_stream_reconnect_now (fixture->stream);
      net_test_wait_until (fixture->connecting > connecting
                           && (atp_stream_get_state (fixture->stream) == ATP_STREAM_STATE_CONNECTED
                               || atp_stream_get_state (fixture->stream) == ATP_STREAM_STATE_RECONNECTING),
                           "the next try to get in or to be refused");
      if (atp_stream_get_state (fixture->stream) == ATP_STREAM_STATE_RECONNECTING)
        g_assert_true (g_error_matches (atp_stream_get_last_error (fixture->stream), ATP_ERROR,
                                        ATP_ERROR_RATE_LIMIT_EXCEEDED));
    }
}

/* A server that accepts the connection and never answers the upgrade (wedged,
 * or a proxy that swallows it) is given up on like a silent one. */
static gboolean
on_silent_accept (GSocketService     *service,
                  GSocketConnection  *connection,
                  GObject            *source,
                  GPtrArray          *held)
{
  g_ptr_array_add (held, g_object_ref (connection));
  return TRUE;
}

static void
test_handshake_silence (StreamFixture *fixture,
                        gconstpointer  data)
{
  g_autoptr(GSocketService) service = g_socket_service_new ();
  g_autoptr(GPtrArray) held = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpClient) client = NULL;
  g_autoptr(AtpStream) stream = NULL;
  g_autofree char *url = NULL;
  guint16 port;

  port = g_socket_listener_add_any_inet_port (G_SOCKET_LISTENER (service), NULL, &error);
  g_assert_no_error (error);
  g_signal_connect (service, "incoming", G_CALLBACK (on_silent_accept), held);
  url = g_strdup_printf ("http://127.0.0.1:%u", port);
  client = atp_client_new (url, &error);
  g_assert_no_error (error);
  atp_client_set_token (client, "ut_unused");
  stream = g_object_new (ATP_TYPE_STREAM, "client", client, "watch-system", FALSE,
                         "backoff-initial-ms", 60000, "backoff-max-ms", 60000, NULL);
  atp_stream_set_silence_timeout (stream, SHORT_SILENCE_MS);
  atp_stream_start (stream);
  net_test_wait_until (held->len == 1, "the connection");
  g_assert_cmpint (atp_stream_get_state (stream), ==, ATP_STREAM_STATE_CONNECTING);
  net_test_wait_until (atp_stream_get_state (stream) == ATP_STREAM_STATE_RECONNECTING,
                       "the handshake to be given up");
  net_assert_error (atp_stream_get_last_error (stream), ATP_ERROR_CONNECTION_FAILED, "No message from");
  atp_stream_stop (stream);
  g_socket_service_stop (service);
}

/* More pending requests than the server pushes in one go is no reason to
 * fail the resync: every one arrives, once. */
static const TriageTestServerOptions no_limits = {
  .extra_args = (const char * const[]) { "--no-limits", NULL },
  .bulk = TRUE,
};

static void
test_many_pending (StreamFixture *fixture,
                   gconstpointer  data)
{
  const guint count = 10100;
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) posters = g_ptr_array_new_with_free_func (g_object_unref);
  guint sent = 0;

  /* Posted 32 at a time, over 16 clients: a client keeps at most two
   * connections to a server, and each commit (an fsync) covers only the
   * requests that came together. */
  for (guint i = 0; i < 16; i++)
    {
      g_autoptr(GError) error = NULL;
      AtpClient *poster = atp_client_new (triage_test_server_get_url (fixture->net.server), &error);

      g_assert_no_error (error);
      atp_client_set_token (poster, fixture->net.service_key);
      g_ptr_array_add (posters, poster);
    }
  while (results->len < count)
    {
      while (sent < count && sent - results->len < 32)
        {
          g_autofree char *title = g_strdup_printf ("Pending %u", sent);
          g_autofree char *json = net_test_submission (NULL, title, NULL);

          atp_client_post_notification_data_async (posters->pdata[sent % posters->len], json, -1,
                                                   NULL, net_test_result_array_cb, results);
          sent++;
        }
      g_main_context_iteration (NULL, TRUE);
    }
  for (guint i = 0; i < results->len; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GObject) poster = g_async_result_get_source_object (results->pdata[i]);
      g_autoptr(AtpPostResult) post = atp_client_post_notification_finish (ATP_CLIENT (poster),
                                                                           results->pdata[i], &error);

      g_assert_no_error (error);
    }

  /* The whole resync is one wait, and a long one on a loaded machine: the
   * stream lists 11 pages, each marking its 1,000 delivered (a status
   * update each, held meanwhile; seconds even on an idle machine), so a
   * page may wait well beyond the fixture's 10 s. */
  atp_client_set_timeout (fixture->net.user, 60);
  atp_stream_start (fixture->stream);
  triage_test_wait_until_within (atp_stream_get_state (fixture->stream) == ATP_STREAM_STATE_CONNECTED,
                                 "the resync of 10,100 pending requests", 120);
  g_assert_cmpuint (g_hash_table_size (fixture->received), ==, count);
  g_assert_cmpuint (fixture->order->len, ==, count);
  g_assert_cmpuint (fixture->pending->len, ==, count);
  g_assert_cmpuint (fixture->connecting, ==, 1);
}

/* Over the trusted local socket: no token at all */
static const TriageTestServerOptions local_socket = { .unix_socket = TRUE };

static void
test_local_socket (StreamFixture *fixture,
                   gconstpointer  data)
{
  g_autoptr(AtpClient) agent = atp_client_new_for_socket (triage_test_server_get_socket_path (fixture->net.server));
  g_autofree char *json = net_test_submission (NULL, "Over the socket", NULL);
  g_autoptr(AtpPostResult) post = NULL;
  g_autoptr(AtpResponse) response = NULL;
  g_autoptr(GError) error = NULL;

  atp_stream_start (fixture->stream);
  stream_test_wait_state (fixture, ATP_STREAM_STATE_CONNECTED);

  atp_client_set_service (agent, "local-agent", NULL);
  post = net_post (agent, json, &error);
  g_assert_no_error (error);
  net_test_wait_until (stream_test_received_count (fixture, post->notification_id) == 1,
                       "the local notification");

  response = net_respond (fixture->net.user, post->notification_id, "ok", NULL, &error);
  g_assert_no_error (error);
  net_test_wait_until (stream_test_update_for (fixture, post->notification_id,
                                               ATP_STATUS_RESPONDED) != NULL,
                       "the local status update");
}

void
stream_test_add_limits (void)
{
  STREAM_TEST_ADD ("/stream/heartbeat", &heartbeat_args, test_heartbeat);
  STREAM_TEST_ADD ("/stream/silence", &silent_args, test_silence);
  STREAM_TEST_ADD ("/stream/too-many", NULL, test_too_many);
  STREAM_TEST_ADD ("/stream/handshake-silence", NULL, test_handshake_silence);
  STREAM_TEST_ADD ("/stream/many-pending", &no_limits, test_many_pending);
  STREAM_TEST_ADD ("/stream/local-socket", &local_socket, test_local_socket);
}
