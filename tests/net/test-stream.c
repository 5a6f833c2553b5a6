/* test-stream.c — AtpStream against a real triage-server: the feed, resyncs, reconnects;
 * the limits, waking up and the network are in test-stream-*.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "stream-test-common.h"
#include "triage-test-logind.h"

/* The feed */

static void
test_receive (StreamFixture *fixture,
              gconstpointer  data)
{
  g_autofree char *first = net_post_simple (&fixture->net, "Before start 1");
  g_autofree char *second = net_post_simple (&fixture->net, "Before start 2");
  g_autofree char *live = NULL;
  g_autoptr(AtpResponse) response = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (atp_stream_get_state (fixture->stream), ==, ATP_STREAM_STATE_DISCONNECTED);
  atp_stream_start (fixture->stream);
  stream_test_wait_state (fixture, ATP_STREAM_STATE_CONNECTED);
  net_test_wait_until (fixture->resyncs == 1, "the first resync");

  g_assert_cmpuint (stream_test_received_count (fixture, first), ==, 1);
  g_assert_cmpuint (stream_test_received_count (fixture, second), ==, 1);
  g_assert_cmpuint (fixture->pending->len, ==, 2);
  g_assert_true (stream_test_pending_has (fixture, first) &&
                 stream_test_pending_has (fixture, second));

  live = net_post_simple (&fixture->net, "Live");
  net_test_wait_until (stream_test_received_count (fixture, live) == 1, "the live notification");

  response = net_respond (fixture->net.user, first, "ok", NULL, &error);
  g_assert_no_error (error);
  net_test_wait_until (stream_test_update_for (fixture, first, ATP_STATUS_RESPONDED) != NULL,
                       "responded");

  g_assert_true (net_invalidate (fixture->net.service, second, "changed my mind", &error));
  net_test_wait_until (stream_test_update_for (fixture, second, ATP_STATUS_INVALIDATED) != NULL,
                       "invalidated");
  g_assert_cmpstr (stream_test_update_for (fixture, second, ATP_STATUS_INVALIDATED)->reason, ==,
                   "changed my mind");

  /* Let the on-connect burst and anything late arrive: still once each. */
  net_test_sleep (200);
  g_assert_cmpuint (fixture->order->len, ==, 3);
  g_assert_cmpuint (fixture->connecting, ==, 1);
  g_assert_cmpuint (fixture->resyncs, ==, 1);
}

/* Waits until the service sees the notification acknowledged; fails, naming
 * the status it stayed at, within the tests' watchdog (an acknowledgement never
 * sent had this loop run into meson's timeout, 480 s, with nothing said). */
static void
wait_acknowledged (StreamFixture *fixture,
                   const char    *id)
{
  g_autoptr(GError) error = NULL;
  gint64 limit = g_get_monotonic_time () + TRIAGE_TEST_WATCHDOG_S * G_USEC_PER_SEC;
  gboolean acknowledged = FALSE;

  while (!acknowledged)
    {
      g_autoptr(AtpNotification) seen = net_wait_notification (fixture->net.service, id, 0, &error);

      g_assert_no_error (error);
      acknowledged = seen->status == ATP_STATUS_ACKNOWLEDGED;
      if (!acknowledged && g_get_monotonic_time () > limit)
        g_error ("%s stayed %s: the acknowledgement never reached the server", id,
                 atp_status_to_string (seen->status));
      if (!acknowledged)
        net_test_sleep (50);
    }
}

static void
test_acknowledge (StreamFixture *fixture,
                  gconstpointer  data)
{
  g_autofree char *id = net_post_simple (&fixture->net, "To acknowledge");

  atp_stream_start (fixture->stream);
  stream_test_wait_state (fixture, ATP_STREAM_STATE_CONNECTED);

  atp_stream_acknowledge (fixture->stream, id);
  atp_stream_acknowledge (fixture->stream, id);   /* twice sends once; harmless anyway */

  wait_acknowledged (fixture, id);

  net_test_wait_until (stream_test_update_for (fixture, id, ATP_STATUS_ACKNOWLEDGED) != NULL,
                       "the ack's status update");
}

static void
ack_on_receipt (AtpStream       *stream,
                AtpNotification *notification,
                gpointer         data)
{
  atp_stream_acknowledge (stream, notification->id);
}

static void
test_acknowledge_while_resyncing (StreamFixture *fixture,
                                  gconstpointer  data)
{
  g_autofree char *id = net_post_simple (&fixture->net, "Acknowledged on receipt");

  g_signal_connect (fixture->stream, "notification-received", G_CALLBACK (ack_on_receipt), NULL);
  atp_stream_start (fixture->stream);
  stream_test_wait_state (fixture, ATP_STREAM_STATE_CONNECTED);

  wait_acknowledged (fixture, id);
}

/* Killed and restarted: what happened meanwhile arrives through the resync, once. */
static void
test_restart_resync (StreamFixture *fixture,
                     gconstpointer  data)
{
  g_autofree char *answered = net_post_simple (&fixture->net, "Answered while away");
  g_autofree char *kept = net_post_simple (&fixture->net, "Still pending");
  g_autofree char *missed = NULL;
  g_autoptr(AtpResponse) response = NULL;
  g_autoptr(GError) error = NULL;

  atp_stream_start (fixture->stream);
  net_test_wait_until (fixture->resyncs == 1, "the first resync");
  g_assert_cmpuint (fixture->order->len, ==, 2);

  atp_stream_set_backoff (fixture->stream, 60000, 60000);
  triage_test_server_kill (fixture->net.server);
  stream_test_wait_state (fixture, ATP_STREAM_STATE_RECONNECTING);
  net_assert_error (atp_stream_get_last_error (fixture->stream), ATP_ERROR_CONNECTION_FAILED, NULL);
  g_assert_cmpuint (atp_stream_get_retry_in_seconds (fixture->stream), <=, 60);

  /* The test decides when the stream comes back: the backoff is random
   * (0 to 60 s here), so a retry may fall while the server restarts. A stop
   * keeps what the stream emitted, as a reconnect does. */
  atp_stream_stop (fixture->stream);
  g_assert_true (triage_test_server_restart (fixture->net.server, &error));
  g_assert_no_error (error);
  missed = net_post_simple (&fixture->net, "Sent while away");
  response = net_respond (fixture->net.user, answered, "ok", NULL, &error);
  g_assert_no_error (error);

  atp_stream_start (fixture->stream);
  net_test_wait_until (fixture->resyncs == 2, "the second resync");

  g_assert_cmpuint (stream_test_received_count (fixture, answered), ==, 1);
  g_assert_cmpuint (stream_test_received_count (fixture, kept), ==, 1);
  g_assert_cmpuint (stream_test_received_count (fixture, missed), ==, 1);
  g_assert_cmpuint (fixture->pending->len, ==, 2);
  g_assert_true (stream_test_pending_has (fixture, kept));
  g_assert_true (stream_test_pending_has (fixture, missed));
  g_assert_false (stream_test_pending_has (fixture, answered));

  /* The server's on-connect burst came too; nothing doubled. */
  net_test_sleep (300);
  g_assert_cmpuint (fixture->order->len, ==, 3);
}

/* A clean shutdown and restart: the stream comes back by itself. */
static void
test_server_restart_reconnects (StreamFixture *fixture,
                                gconstpointer  data)
{
  g_autofree char *id = NULL;
  g_autoptr(GError) error = NULL;

  atp_stream_start (fixture->stream);
  stream_test_wait_state (fixture, ATP_STREAM_STATE_CONNECTED);

  triage_test_server_stop (fixture->net.server);
  stream_test_wait_state (fixture, ATP_STREAM_STATE_RECONNECTING);

  g_assert_true (triage_test_server_restart (fixture->net.server, &error));
  g_assert_no_error (error);
  stream_test_wait_state (fixture, ATP_STREAM_STATE_CONNECTED);
  g_assert_cmpuint (fixture->connected, ==, 2);

  id = net_post_simple (&fixture->net, "After the restart");
  net_test_wait_until (stream_test_received_count (fixture, id) == 1,
                       "a notification after the restart");
}

static void
test_backoff (StreamFixture *fixture,
              gconstpointer  data)
{
  guint seen = 0;

  triage_test_server_stop (fixture->net.server);
  atp_stream_set_backoff (fixture->stream, 40, 160);
  atp_stream_start (fixture->stream);

  /* Every wait is within [0, min(160, 40·2^n)] ms. */
  while (seen < 6)
    {
      gint64 left;

      stream_test_wait_state (fixture, ATP_STREAM_STATE_RECONNECTING);
      left = atp_stream_get_next_retry_time (fixture->stream) - g_get_monotonic_time ();
      g_assert_cmpint (left, <=, (gint64) MIN (160, 40 << MIN (seen, 8)) * 1000);
      g_assert_cmpuint (atp_stream_get_retry_in_seconds (fixture->stream), <=, 1);
      net_assert_error (atp_stream_get_last_error (fixture->stream), ATP_ERROR_CONNECTION_FAILED,
                        "Connection refused");
      seen++;
      stream_test_wait_state (fixture, ATP_STREAM_STATE_CONNECTING);
    }

  atp_stream_stop (fixture->stream);
  g_assert_cmpint (atp_stream_get_state (fixture->stream), ==, ATP_STREAM_STATE_DISCONNECTED);
  g_assert_cmpint (atp_stream_get_next_retry_time (fixture->stream), ==, 0);
  net_test_sleep (300);
  g_assert_cmpint (atp_stream_get_state (fixture->stream), ==, ATP_STREAM_STATE_DISCONNECTED);
}

static void
test_auth_failed (StreamFixture *fixture,
                  gconstpointer  data)
{
  guint connecting;

  atp_client_set_token (fixture->net.user, "wrong-token");
  atp_stream_start (fixture->stream);
  stream_test_wait_state (fixture, ATP_STREAM_STATE_AUTH_FAILED);
  net_assert_error (atp_stream_get_last_error (fixture->stream), ATP_ERROR_AUTH_INVALID_TOKEN, NULL);

  /* No retries while the credentials stay wrong. */
  connecting = fixture->connecting;
  net_test_sleep (400);
  g_assert_cmpuint (fixture->connecting, ==, connecting);
  g_assert_cmpint (atp_stream_get_state (fixture->stream), ==, ATP_STREAM_STATE_AUTH_FAILED);

  /* A valid token that is not a user's (403) is no better: no retries either. */
  atp_client_set_token (fixture->net.user, fixture->net.service_key);
  net_test_wait_until (g_error_matches (atp_stream_get_last_error (fixture->stream), ATP_ERROR,
                                        ATP_ERROR_AUTH_INSUFFICIENT_PERMISSIONS),
                       "the stream refused for a service key");
  g_assert_cmpint (atp_stream_get_state (fixture->stream), ==, ATP_STREAM_STATE_AUTH_FAILED);
  connecting = fixture->connecting;
  net_test_sleep (400);
  g_assert_cmpuint (fixture->connecting, ==, connecting);

  /* New credentials: it tries again by itself. */
  atp_client_set_token (fixture->net.user, fixture->net.user_token);
  stream_test_wait_state (fixture, ATP_STREAM_STATE_CONNECTED);
  g_assert_null (atp_stream_get_last_error (fixture->stream));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GSubprocess) system_bus = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  system_bus = triage_test_logind_start_bus ();

  stream_test_use_test_host ();

  STREAM_TEST_ADD ("/stream/receive", NULL, test_receive);
  STREAM_TEST_ADD ("/stream/acknowledge", NULL, test_acknowledge);
  STREAM_TEST_ADD ("/stream/acknowledge-while-resyncing", NULL, test_acknowledge_while_resyncing);
  STREAM_TEST_ADD ("/stream/restart-resync", NULL, test_restart_resync);
  STREAM_TEST_ADD ("/stream/server-restart-reconnects", NULL, test_server_restart_reconnects);
  STREAM_TEST_ADD ("/stream/backoff", NULL, test_backoff);
  STREAM_TEST_ADD ("/stream/auth-failed", NULL, test_auth_failed);
  stream_test_add_limits ();
  stream_test_add_wake ();
  stream_test_add_network ();

  status = g_test_run ();
  g_subprocess_force_exit (system_bus);

  return status;
}
