/* test-stream-peer.c — AtpStream against a peer that sends what triage-server never does
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <libsoup/soup.h>

#include "net-test-common.h"

/* A peer the real server never is: unknown frame types, garbage, binary frames */

static void
peer_on_state (AtpStream  *stream,
               GParamSpec *pspec,
               guint      *connecting)
{
  if (atp_stream_get_state (stream) == ATP_STREAM_STATE_CONNECTING)
    (*connecting)++;
}

static void
peer_on_received (AtpStream       *stream,
                  AtpNotification *notification,
                  guint           *count)
{
  g_assert_cmpstr (notification->context.title, ==, "Peer");
  (*count)++;
}

/* Whether the peer got a heartbeat_ack from us that echoes @timestamp (the
 * text frames it got are a JSON array of strings). */
static gboolean
peer_got_heartbeat_ack (NetPeer    *peer,
                        const char *timestamp)
{
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *url = g_strconcat (peer->url, "/peer/frames", NULL);
  g_autoptr(SoupMessage) message = soup_message_new ("GET", url);
  g_autoptr(GBytes) body = NULL;
  g_autoptr(JsonNode) frames = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *array;

  body = soup_session_send_and_read (session, message, NULL, &error);
  g_assert_no_error (error);
  frames = json_from_string (g_bytes_get_data (body, NULL), &error);
  g_assert_no_error (error);
  array = json_node_get_array (frames);

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      const char *frame = json_array_get_string_element (array, i);

      if (strstr (frame, "\"heartbeat_ack\"") != NULL &&
          strstr (frame, timestamp) != NULL)
        return TRUE;
    }
  return FALSE;
}

static void
peer_on_resynced (AtpStream *stream,
                  GPtrArray *pending,
                  guint     *count)
{
  (*count)++;
}

/* @token "repeat": the peer's pending list holds its notification, which
 * comes again, live, with one already settled (never shown). */
static void
test_peer_frames (gconstpointer data)
{
  const char *token = data;
  NetPeer *peer = net_peer_start ();
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpClient) client = NULL;
  AtpStream *stream;
  guint received = 0;
  guint connecting = 0;
  guint resynced = 0;

  client = atp_client_new (peer->url, &error);
  g_assert_no_error (error);
  atp_client_set_token (client, token);
  stream = g_object_new (ATP_TYPE_STREAM, "client", client, "watch-system", FALSE, NULL);
  g_signal_connect (stream, "notification-received", G_CALLBACK (peer_on_received), &received);
  g_signal_connect (stream, "notify::state", G_CALLBACK (peer_on_state), &connecting);
  g_signal_connect (stream, "resynced", G_CALLBACK (peer_on_resynced), &resynced);
  atp_stream_start (stream);

  /* The frames held while the list was read are handled once it is in. */
  net_test_wait_until (resynced == 1 && received >= 1, "the peer's notification");
  net_test_wait_until (peer_got_heartbeat_ack (peer, "\"2026-05-01T12:00:00Z\""),
                       "the heartbeat answer");
  /* A heartbeat whose timestamp is no RFC 3339 time (another server's) got
   * no ack, and that server closed the stream as idle: acked, echoed. */
  net_test_wait_until (peer_got_heartbeat_ack (peer, "\"Fri, 01 May 2026 12:00:00 GMT\""),
                       "the answer to a heartbeat whose timestamp does not parse");

  /* Nothing above broke the connection. */
  net_test_sleep (100);
  g_assert_cmpint (atp_stream_get_state (stream), ==, ATP_STREAM_STATE_CONNECTED);
  g_assert_cmpuint (connecting, ==, 1);
  g_assert_cmpuint (received, ==, 1);

  atp_stream_stop (stream);
  g_assert_finalize_object (stream);
  net_peer_stop (peer);
}

/* A server that closes with 4029 and no error frame first: too many streams
 * all the same. */
static void
test_peer_too_many (void)
{
  NetPeer *peer = net_peer_start ();
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpClient) client = NULL;
  AtpStream *stream;

  client = atp_client_new (peer->url, &error);
  g_assert_no_error (error);
  atp_client_set_token (client, "full");
  stream = g_object_new (ATP_TYPE_STREAM, "client", client, "watch-system", FALSE, NULL);
  atp_stream_set_backoff (stream, 60000, 60000);
  atp_stream_start (stream);

  net_test_wait_until (atp_stream_get_state (stream) == ATP_STREAM_STATE_RECONNECTING, "the refusal");
  net_assert_error (atp_stream_get_last_error (stream), ATP_ERROR_RATE_LIMIT_EXCEEDED,
                    "too many open connections");

  /* The resync's read of the pending list, cut short, lets go of it once
   * its callback has run. */
  atp_stream_stop (stream);
  g_object_add_weak_pointer (G_OBJECT (stream), (gpointer *) &stream);
  g_object_unref (stream);
  net_test_wait_until (stream == NULL, "the stream to be let go");
  net_peer_stop (peer);
}

/* A handshake answered 503 with a Retry-After of 30 s (a server draining):
 * the stream came back on its own backoff (a second here), not when asked. */
static void
test_peer_retry_after (void)
{
  NetPeer *peer = net_peer_start ();
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpClient) client = NULL;
  AtpStream *stream;
  gint64 asked;

  client = atp_client_new (peer->url, &error);
  g_assert_no_error (error);
  atp_client_set_token (client, "busy");
  stream = g_object_new (ATP_TYPE_STREAM, "client", client, "watch-system", FALSE, NULL);
  atp_stream_set_backoff (stream, 1000, 1000);
  asked = g_get_monotonic_time ();
  atp_stream_start (stream);

  net_test_wait_until (atp_stream_get_state (stream) == ATP_STREAM_STATE_RECONNECTING, "the refusal");
  net_assert_error (atp_stream_get_last_error (stream), ATP_ERROR_SERVICE_UNAVAILABLE, "HTTP 503");
  g_assert_cmpint (atp_stream_get_next_retry_time (stream) - asked, >=, 30 * G_USEC_PER_SEC);
  g_assert_cmpuint (atp_stream_get_retry_in_seconds (stream), >=, 29);

  atp_stream_stop (stream);
  g_assert_finalize_object (stream);
  net_peer_stop (peer);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_data_func ("/stream/peer-frames", "t", test_peer_frames);
  g_test_add_data_func ("/stream/peer-repeats", "repeat", test_peer_frames);
  g_test_add_func ("/stream/peer-too-many", test_peer_too_many);
  g_test_add_func ("/stream/peer-retry-after", test_peer_retry_after);

  return g_test_run ();
}
