/* test-stream.c — AtpStream against a real triage-server
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <libsoup/soup.h>
#include <signal.h>
#include <sys/prctl.h>

#include "net-test-common.h"

/* What the owner of a stream sees */

typedef struct
{
  NetFixture  net;
  AtpStream  *stream;
  GHashTable *received;      /* id → number of notification-received */
  GPtrArray  *order;         /* ids in the order received */
  GPtrArray  *updates;       /* AtpStatusUpdate* */
  GPtrArray  *pending;       /* ids of the last resynced set */
  guint       resyncs;
  guint       connecting;    /* times the state became CONNECTING */
  guint       connected;     /* times it became CONNECTED */
} StreamFixture;

static void
on_notification_received (AtpStream       *stream,
                          AtpNotification *notification,
                          StreamFixture   *fixture)
{
  guint count = GPOINTER_TO_UINT (g_hash_table_lookup (fixture->received, notification->id));

  g_hash_table_insert (fixture->received, g_strdup (notification->id), GUINT_TO_POINTER (count + 1));
  g_ptr_array_add (fixture->order, g_strdup (notification->id));
  /* New pending items come before CONNECTED (from the resync) or live after it. */
  g_assert_true (atp_stream_get_state (stream) == ATP_STREAM_STATE_CONNECTING ||
                 atp_stream_get_state (stream) == ATP_STREAM_STATE_CONNECTED);
}

static void
on_status_changed (AtpStream       *stream,
                   AtpStatusUpdate *update,
                   StreamFixture   *fixture)
{
  g_ptr_array_add (fixture->updates, atp_status_update_ref (update));
}

static void
on_resynced (AtpStream     *stream,
             GPtrArray     *pending,
             StreamFixture *fixture)
{
  g_assert_cmpint (atp_stream_get_state (stream), ==, ATP_STREAM_STATE_CONNECTED);

  g_ptr_array_set_size (fixture->pending, 0);
  for (guint i = 0; i < pending->len; i++)
    {
      AtpNotification *notification = g_ptr_array_index (pending, i);

      /* Everything pending was emitted by now, once. */
      g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (fixture->received, notification->id)), ==, 1);
      g_ptr_array_add (fixture->pending, g_strdup (notification->id));
    }
  fixture->resyncs++;
}

static void
on_state_changed (AtpStream     *stream,
                  GParamSpec    *pspec,
                  StreamFixture *fixture)
{
  const GError *error = atp_stream_get_last_error (stream);

  switch (atp_stream_get_state (stream))
    {
    case ATP_STREAM_STATE_CONNECTING:
      fixture->connecting++;
      break;
    case ATP_STREAM_STATE_CONNECTED:
      fixture->connected++;
      g_assert_null (error);
      g_assert_cmpint (atp_stream_get_next_retry_time (stream), ==, 0);
      break;
    case ATP_STREAM_STATE_RECONNECTING:
      g_assert_nonnull (error);
      g_assert_cmpint (atp_stream_get_next_retry_time (stream), >, 0);
      break;
    case ATP_STREAM_STATE_AUTH_FAILED:
      g_assert_nonnull (error);
      g_assert_cmpint (atp_stream_get_next_retry_time (stream), ==, 0);
      break;
    case ATP_STREAM_STATE_DISCONNECTED:
    case ATP_STREAM_STATE_OFFLINE:
    default:
      break;
    }
  g_test_message ("state %d%s%s", atp_stream_get_state (stream), error ? ": " : "",
                  error ? error->message : "");
}

static AtpStream *
new_stream (StreamFixture *fixture,
            AtpClient     *client,
            gboolean       watch_system)
{
  AtpStream *stream = g_object_new (ATP_TYPE_STREAM,
                                    "client", client,
                                    "watch-system", watch_system,
                                    "backoff-initial-ms", 50,
                                    "backoff-max-ms", 200,
                                    NULL);

  g_signal_connect (stream, "notification-received", G_CALLBACK (on_notification_received), fixture);
  g_signal_connect (stream, "status-changed", G_CALLBACK (on_status_changed), fixture);
  g_signal_connect (stream, "resynced", G_CALLBACK (on_resynced), fixture);
  g_signal_connect (stream, "notify::state", G_CALLBACK (on_state_changed), fixture);

  return stream;
}

static void
stream_setup (StreamFixture *fixture,
              gconstpointer  data)
{
  const TriageTestServerOptions *options = data;

  net_fixture_setup_with (&fixture->net, options);

  fixture->received = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  fixture->order = g_ptr_array_new_with_free_func (g_free);
  fixture->updates = g_ptr_array_new_with_free_func ((GDestroyNotify) atp_status_update_unref);
  fixture->pending = g_ptr_array_new_with_free_func (g_free);
  /* Over the socket it is the person's app: the server's default user,
   * trusted by peer credentials. */
  if (options != NULL && options->unix_socket)
    atp_client_set_token (fixture->net.user, NULL);
  fixture->stream = new_stream (fixture, fixture->net.user, FALSE);
}

static void
stream_teardown (StreamFixture *fixture,
                 gconstpointer  data)
{
  atp_stream_stop (fixture->stream);
  g_assert_finalize_object (fixture->stream);
  g_hash_table_unref (fixture->received);
  g_ptr_array_unref (fixture->order);
  g_ptr_array_unref (fixture->updates);
  g_ptr_array_unref (fixture->pending);
  net_fixture_teardown (&fixture->net, NULL);
}

static guint
received_count (StreamFixture *fixture,
                const char    *id)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (fixture->received, id));
}

static gboolean
pending_has (StreamFixture *fixture,
             const char    *id)
{
  for (guint i = 0; i < fixture->pending->len; i++)
    if (g_str_equal (fixture->pending->pdata[i], id))
      return TRUE;
  return FALSE;
}

static AtpStatusUpdate *
update_for (StreamFixture *fixture,
            const char    *id,
            AtpStatus      status)
{
  for (guint i = 0; i < fixture->updates->len; i++)
    {
      AtpStatusUpdate *update = g_ptr_array_index (fixture->updates, i);

      if (g_str_equal (update->notification_id, id) && update->status == status)
        return update;
    }
  return NULL;
}

#define wait_state(fixture, wanted) \
  net_test_wait_until (atp_stream_get_state ((fixture)->stream) == (wanted), "state " #wanted)

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
  wait_state (fixture, ATP_STREAM_STATE_CONNECTED);
  net_test_wait_until (fixture->resyncs == 1, "the first resync");

  g_assert_cmpuint (received_count (fixture, first), ==, 1);
  g_assert_cmpuint (received_count (fixture, second), ==, 1);
  g_assert_cmpuint (fixture->pending->len, ==, 2);
  g_assert_true (pending_has (fixture, first) && pending_has (fixture, second));

  live = net_post_simple (&fixture->net, "Live");
  net_test_wait_until (received_count (fixture, live) == 1, "the live notification");

  response = net_respond (fixture->net.user, first, "ok", NULL, &error);
  g_assert_no_error (error);
  net_test_wait_until (update_for (fixture, first, ATP_STATUS_RESPONDED) != NULL, "responded");

  g_assert_true (net_invalidate (fixture->net.service, second, "changed my mind", &error));
  net_test_wait_until (update_for (fixture, second, ATP_STATUS_INVALIDATED) != NULL, "invalidated");
  g_assert_cmpstr (update_for (fixture, second, ATP_STATUS_INVALIDATED)->reason, ==, "changed my mind");

  /* Let the on-connect burst and anything late arrive: still once each. */
  net_test_sleep (200);
  g_assert_cmpuint (fixture->order->len, ==, 3);
  g_assert_cmpuint (fixture->connecting, ==, 1);
  g_assert_cmpuint (fixture->resyncs, ==, 1);
}

static void
test_acknowledge (StreamFixture *fixture,
                  gconstpointer  data)
{
  g_autofree char *id = net_post_simple (&fixture->net, "To acknowledge");
  g_autoptr(GError) error = NULL;
  gboolean acknowledged = FALSE;

  atp_stream_start (fixture->stream);
  wait_state (fixture, ATP_STREAM_STATE_CONNECTED);

  atp_stream_acknowledge (fixture->stream, id);
  atp_stream_acknowledge (fixture->stream, id);   /* twice sends once; harmless anyway */

  while (!acknowledged)
    {
      g_autoptr(AtpNotification) seen = net_wait_notification (fixture->net.service, id, 0, &error);

      g_assert_no_error (error);
      acknowledged = seen->status == ATP_STATUS_ACKNOWLEDGED;
      if (!acknowledged)
        net_test_sleep (50);
    }

  net_test_wait_until (update_for (fixture, id, ATP_STATUS_ACKNOWLEDGED) != NULL, "the ack's status update");
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
  g_autoptr(GError) error = NULL;
  gboolean acknowledged = FALSE;

  g_signal_connect (fixture->stream, "notification-received", G_CALLBACK (ack_on_receipt), NULL);
  atp_stream_start (fixture->stream);
  wait_state (fixture, ATP_STREAM_STATE_CONNECTED);

  while (!acknowledged)
    {
      g_autoptr(AtpNotification) seen = net_wait_notification (fixture->net.service, id, 0, &error);

      g_assert_no_error (error);
      acknowledged = seen->status == ATP_STATUS_ACKNOWLEDGED;
      if (!acknowledged)
        net_test_sleep (50);
    }
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
  wait_state (fixture, ATP_STREAM_STATE_RECONNECTING);
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

  g_assert_cmpuint (received_count (fixture, answered), ==, 1);
  g_assert_cmpuint (received_count (fixture, kept), ==, 1);
  g_assert_cmpuint (received_count (fixture, missed), ==, 1);
  g_assert_cmpuint (fixture->pending->len, ==, 2);
  g_assert_true (pending_has (fixture, kept));
  g_assert_true (pending_has (fixture, missed));
  g_assert_false (pending_has (fixture, answered));

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
  wait_state (fixture, ATP_STREAM_STATE_CONNECTED);

  triage_test_server_stop (fixture->net.server);
  wait_state (fixture, ATP_STREAM_STATE_RECONNECTING);

  g_assert_true (triage_test_server_restart (fixture->net.server, &error));
  g_assert_no_error (error);
  wait_state (fixture, ATP_STREAM_STATE_CONNECTED);
  g_assert_cmpuint (fixture->connected, ==, 2);

  id = net_post_simple (&fixture->net, "After the restart");
  net_test_wait_until (received_count (fixture, id) == 1, "a notification after the restart");
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

      wait_state (fixture, ATP_STREAM_STATE_RECONNECTING);
      left = atp_stream_get_next_retry_time (fixture->stream) - g_get_monotonic_time ();
      g_assert_cmpint (left, <=, (gint64) MIN (160, 40 << MIN (seen, 8)) * 1000);
      g_assert_cmpuint (atp_stream_get_retry_in_seconds (fixture->stream), <=, 1);
      net_assert_error (atp_stream_get_last_error (fixture->stream), ATP_ERROR_CONNECTION_FAILED,
                        "Connection refused");
      seen++;
      wait_state (fixture, ATP_STREAM_STATE_CONNECTING);
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
  wait_state (fixture, ATP_STREAM_STATE_AUTH_FAILED);
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
  wait_state (fixture, ATP_STREAM_STATE_CONNECTED);
  g_assert_null (atp_stream_get_last_error (fixture->stream));
}

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
  wait_state (fixture, ATP_STREAM_STATE_CONNECTED);

  net_test_sleep (4500);
  g_assert_cmpint (atp_stream_get_state (fixture->stream), ==, ATP_STREAM_STATE_CONNECTED);
  g_assert_cmpuint (fixture->connecting, ==, 1);

  id = net_post_simple (&fixture->net, "Still listening");
  net_test_wait_until (received_count (fixture, id) == 1, "a notification after heartbeats");
}

/* Heartbeats far apart; our silence limit short: the stream gives the connection up. */
static const TriageTestServerOptions silent_args = {
  .extra_args = (const char * const[]) { "--heartbeat-interval", "30", NULL },
};

static void
test_silence (StreamFixture *fixture,
              gconstpointer  data)
{
  atp_stream_set_silence_timeout (fixture->stream, 400);
  atp_stream_start (fixture->stream);
  wait_state (fixture, ATP_STREAM_STATE_CONNECTED);

  wait_state (fixture, ATP_STREAM_STATE_RECONNECTING);
  net_assert_error (atp_stream_get_last_error (fixture->stream), ATP_ERROR_CONNECTION_FAILED,
                    "No message from");
  /* And it comes back. */
  wait_state (fixture, ATP_STREAM_STATE_CONNECTED);
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
  wait_state (fixture, ATP_STREAM_STATE_RECONNECTING);
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
  atp_stream_set_silence_timeout (stream, 400);
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
  wait_state (fixture, ATP_STREAM_STATE_CONNECTED);

  atp_client_set_service (agent, "local-agent", NULL);
  post = net_post (agent, json, &error);
  g_assert_no_error (error);
  net_test_wait_until (received_count (fixture, post->notification_id) == 1, "the local notification");

  response = net_respond (fixture->net.user, post->notification_id, "ok", NULL, &error);
  g_assert_no_error (error);
  net_test_wait_until (update_for (fixture, post->notification_id, ATP_STATUS_RESPONDED) != NULL,
                       "the local status update");
}

/* Waking up. A bus of the test's own stands in for the system bus (started in
 * main(), before anything asks for the system bus), and the test plays logind
 * on it. */

static void
die_with_parent (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static GSubprocess *
start_fake_system_bus (void)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GDataInputStream) output = NULL;
  g_autofree char *address = NULL;
  g_autoptr(GError) error = NULL;
  GSubprocess *daemon;

  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
  daemon = g_subprocess_launcher_spawn (launcher, &error, "dbus-daemon", "--session", "--nofork",
                                        "--nopidfile", "--print-address=1", NULL);
  g_assert_no_error (error);
  output = g_data_input_stream_new (g_subprocess_get_stdout_pipe (daemon));
  address = g_data_input_stream_read_line (output, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (address);
  g_setenv ("DBUS_SYSTEM_BUS_ADDRESS", address, TRUE);

  return daemon;
}

static void
emit_prepare_for_sleep (GDBusConnection *logind,
                        gboolean         sleeping)
{
  g_autoptr(GError) error = NULL;

  g_dbus_connection_emit_signal (logind, NULL, "/org/freedesktop/login1",
                                 "org.freedesktop.login1.Manager", "PrepareForSleep",
                                 g_variant_new ("(b)", sleeping), &error);
  g_assert_no_error (error);
}

static gboolean
emit_wake_cb (gpointer data)
{
  emit_prepare_for_sleep (data, FALSE);
  return G_SOURCE_CONTINUE;
}

/* Counts the PrepareForSleep(true) signals heard on this process's system bus
 * connection, the one the stream listens on. Signal callbacks run in the
 * order the signals arrived, so once this one has heard a signal, the stream
 * has handled every signal sent before it. */
static void
on_sleep_heard (GDBusConnection *bus,
                const char      *sender,
                const char      *path,
                const char      *interface,
                const char      *signal,
                GVariant        *parameters,
                gpointer         user_data)
{
  gboolean sleeping = FALSE;

  g_variant_get (parameters, "(b)", &sleeping);
  if (sleeping)
    (*(guint *) user_data)++;
}

/* Sends PrepareForSleep(true) and waits until the stream has handled it and
 * everything sent before it. */
static void
sleep_and_wait_heard (GDBusConnection *logind,
                      guint           *heard)
{
  guint before = *heard;

  emit_prepare_for_sleep (logind, TRUE);
  net_test_wait_until (*heard == before + 1, "PrepareForSleep(true) to be heard");
}

static void
test_wake_reconnects (StreamFixture *fixture,
                      gconstpointer  data)
{
  g_autoptr(GDBusConnection) logind = NULL;
  g_autoptr(GDBusConnection) system = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  guint waking, subscription, sleeps_heard = 0;
  guint before;

  logind = g_dbus_connection_new_for_address_sync (g_getenv ("DBUS_SYSTEM_BUS_ADDRESS"),
                                                   G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                   G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                   NULL, NULL, &error);
  g_assert_no_error (error);
  reply = g_dbus_connection_call_sync (logind, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "RequestName",
                                       g_variant_new ("(su)", "org.freedesktop.login1", 4),
                                       G_VARIANT_TYPE ("(u)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);

  /* This fixture's stream watches the system. */
  atp_stream_stop (fixture->stream);
  g_assert_finalize_object (fixture->stream);
  fixture->stream = new_stream (fixture, fixture->net.user, TRUE);
  atp_stream_start (fixture->stream);
  wait_state (fixture, ATP_STREAM_STATE_CONNECTED);
  g_assert_cmpuint (fixture->connecting, ==, 1);

  /* The same connection as the stream's (the process's shared one). */
  system = g_bus_get_sync (G_BUS_TYPE_SYSTEM, NULL, &error);
  g_assert_no_error (error);
  subscription = g_dbus_connection_signal_subscribe (system, "org.freedesktop.login1",
                                                     "org.freedesktop.login1.Manager",
                                                     "PrepareForSleep", "/org/freedesktop/login1",
                                                     NULL, G_DBUS_SIGNAL_FLAGS_NONE, on_sleep_heard,
                                                     &sleeps_heard, NULL);

  /* It finds the system bus on its own time: wake until it hears, and it
   * connects anew, though its connection looked fine. Wakes sent meanwhile
   * may still be on their way: they are handled before the sleep signal that
   * follows them. */
  waking = g_timeout_add (100, emit_wake_cb, logind);
  net_test_wait_until (fixture->connecting >= 2, "a reconnect after waking up");
  g_source_remove (waking);
  sleep_and_wait_heard (logind, &sleeps_heard);
  wait_state (fixture, ATP_STREAM_STATE_CONNECTED);

  /* Going to sleep changes nothing; waking up reconnects at once. */
  before = fixture->connecting;
  sleep_and_wait_heard (logind, &sleeps_heard);
  g_assert_cmpuint (fixture->connecting, ==, before);
  g_assert_cmpint (atp_stream_get_state (fixture->stream), ==, ATP_STREAM_STATE_CONNECTED);
  emit_prepare_for_sleep (logind, FALSE);
  net_test_wait_until (fixture->connecting == before + 1, "a reconnect after the second wake");
  wait_state (fixture, ATP_STREAM_STATE_CONNECTED);
  g_dbus_connection_signal_unsubscribe (system, subscription);
}

/* The network, as GIO reports it: a monitor the test turns on and off (the
 * machine's own cannot be), and a name that is not a loopback name, so the
 * stream believes it needs the network (for 127.0.0.1 it rightly ignores
 * it): triage.localhost, resolved here to 127.0.0.1, in the test
 * certificate. */

typedef struct
{
  GObject  parent_instance;
  gboolean available;
} TestMonitor;

typedef GObjectClass TestMonitorClass;

GType test_monitor_get_type (void);
static void test_monitor_iface_init (GNetworkMonitorInterface *iface);

static gboolean
test_monitor_init_initable (GInitable     *initable,
                            GCancellable  *cancellable,
                            GError       **error)
{
  return TRUE;
}

static void
test_monitor_initable_iface_init (GInitableIface *iface)
{
  iface->init = test_monitor_init_initable;
}

G_DEFINE_TYPE_WITH_CODE (TestMonitor, test_monitor, G_TYPE_OBJECT,
                         G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, test_monitor_initable_iface_init)
                         G_IMPLEMENT_INTERFACE (G_TYPE_NETWORK_MONITOR, test_monitor_iface_init))

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TestMonitor, g_object_unref)

enum { MONITOR_PROP_AVAILABLE = 1, MONITOR_PROP_METERED, MONITOR_PROP_CONNECTIVITY };

static void
test_monitor_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  TestMonitor *self = (TestMonitor *) object;

  switch (prop_id)
    {
    case MONITOR_PROP_AVAILABLE:
      g_value_set_boolean (value, self->available);
      break;
    case MONITOR_PROP_METERED:
      g_value_set_boolean (value, FALSE);
      break;
    case MONITOR_PROP_CONNECTIVITY:
      g_value_set_enum (value, self->available ? G_NETWORK_CONNECTIVITY_FULL
                                               : G_NETWORK_CONNECTIVITY_LOCAL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static gboolean
test_monitor_can_reach (GNetworkMonitor     *monitor,
                        GSocketConnectable  *connectable,
                        GCancellable        *cancellable,
                        GError             **error)
{
  return ((TestMonitor *) monitor)->available;
}

static void
test_monitor_iface_init (GNetworkMonitorInterface *iface)
{
  iface->can_reach = test_monitor_can_reach;
}

static void
test_monitor_class_init (TestMonitorClass *klass)
{
  klass->get_property = test_monitor_get_property;
  g_object_class_override_property (klass, MONITOR_PROP_AVAILABLE, "network-available");
  g_object_class_override_property (klass, MONITOR_PROP_METERED, "network-metered");
  g_object_class_override_property (klass, MONITOR_PROP_CONNECTIVITY, "connectivity");
}

static void
test_monitor_init (TestMonitor *self)
{
  self->available = TRUE;
}

static void
test_monitor_set_available (TestMonitor *self,
                            gboolean     available)
{
  self->available = available;
  g_object_notify (G_OBJECT (self), "network-available");
  g_signal_emit_by_name (self, "network-changed", available);
}

#define TEST_HOST "triage.localhost"

typedef GResolver TestResolver;
typedef GResolverClass TestResolverClass;

GType test_resolver_get_type (void);

G_DEFINE_TYPE (TestResolver, test_resolver, G_TYPE_RESOLVER)

static GResolver *system_resolver;

static GList *
test_resolver_lookup_by_name_with_flags (GResolver                 *resolver,
                                         const char                *hostname,
                                         GResolverNameLookupFlags   flags,
                                         GCancellable              *cancellable,
                                         GError                   **error)
{
  if (g_strcmp0 (hostname, TEST_HOST) != 0)
    return g_resolver_lookup_by_name_with_flags (system_resolver, hostname, flags, cancellable, error);
  if (flags & G_RESOLVER_NAME_LOOKUP_FLAGS_IPV6_ONLY)
    {
      g_set_error (error, G_RESOLVER_ERROR, G_RESOLVER_ERROR_NOT_FOUND, "no IPv6 address");
      return NULL;
    }

  return g_list_prepend (NULL, g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4));
}

static GList *
test_resolver_lookup_by_name (GResolver     *resolver,
                              const char    *hostname,
                              GCancellable  *cancellable,
                              GError       **error)
{
  return test_resolver_lookup_by_name_with_flags (resolver, hostname,
                                                  G_RESOLVER_NAME_LOOKUP_FLAGS_DEFAULT,
                                                  cancellable, error);
}

static void
test_resolver_lookup_by_name_with_flags_async (GResolver                *resolver,
                                               const char               *hostname,
                                               GResolverNameLookupFlags  flags,
                                               GCancellable             *cancellable,
                                               GAsyncReadyCallback       callback,
                                               gpointer                  user_data)
{
  g_autoptr(GTask) task = g_task_new (resolver, cancellable, callback, user_data);
  GError *error = NULL;
  GList *addresses;

  addresses = test_resolver_lookup_by_name_with_flags (resolver, hostname, flags, cancellable, &error);
  if (addresses != NULL)
    g_task_return_pointer (task, addresses, (GDestroyNotify) g_resolver_free_addresses);
  else
    g_task_return_error (task, error);
}

static void
test_resolver_lookup_by_name_async (GResolver           *resolver,
                                    const char          *hostname,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  test_resolver_lookup_by_name_with_flags_async (resolver, hostname,
                                                 G_RESOLVER_NAME_LOOKUP_FLAGS_DEFAULT,
                                                 cancellable, callback, user_data);
}

static GList *
test_resolver_lookup_by_name_finish (GResolver     *resolver,
                                     GAsyncResult  *result,
                                     GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_resolver_class_init (TestResolverClass *klass)
{
  klass->lookup_by_name = test_resolver_lookup_by_name;
  klass->lookup_by_name_async = test_resolver_lookup_by_name_async;
  klass->lookup_by_name_finish = test_resolver_lookup_by_name_finish;
  klass->lookup_by_name_with_flags = test_resolver_lookup_by_name_with_flags;
  klass->lookup_by_name_with_flags_async = test_resolver_lookup_by_name_with_flags_async;
  klass->lookup_by_name_with_flags_finish = test_resolver_lookup_by_name_finish;
}

static void
test_resolver_init (TestResolver *self)
{
}

static const TriageTestServerOptions tls_server = { .tls = TRUE };

/* Network gone: the stream says offline; back: it connects at once, not
 * when its backoff (up to a minute here) would have it try. */
static void
test_network_back (StreamFixture *fixture,
                   gconstpointer  data)
{
  g_autoptr(TestMonitor) monitor = g_object_new (test_monitor_get_type (), NULL);
  g_autoptr(AtpClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  const char *port;
  gint64 due;

  port = strrchr (triage_test_server_get_url (fixture->net.server), ':') + 1;
  url = g_strdup_printf ("https://" TEST_HOST ":%s", port);
  client = atp_client_new (url, &error);
  g_assert_no_error (error);
  atp_client_set_token (client, fixture->net.user_token);

  atp_stream_stop (fixture->stream);
  g_assert_finalize_object (fixture->stream);
  fixture->stream = g_object_new (ATP_TYPE_STREAM,
                                  "client", client,
                                  "network-monitor", monitor,
                                  "backoff-initial-ms", 4000,
                                  "backoff-max-ms", 60000,
                                  NULL);
  g_signal_connect (fixture->stream, "notify::state", G_CALLBACK (on_state_changed), fixture);
  atp_stream_start (fixture->stream);
  wait_state (fixture, ATP_STREAM_STATE_CONNECTED);

  /* The server goes (a network drop, as the client sees it) and stays away
   * until the next try is far off. */
  triage_test_server_kill (fixture->net.server);
  net_test_wait_until (atp_stream_get_state (fixture->stream) == ATP_STREAM_STATE_RECONNECTING &&
                       atp_stream_get_next_retry_time (fixture->stream) >
                       g_get_monotonic_time () + 5 * G_USEC_PER_SEC,
                       "a retry more than 5 s away");
  due = atp_stream_get_next_retry_time (fixture->stream);

  test_monitor_set_available (monitor, FALSE);
  g_assert_cmpint (atp_stream_get_state (fixture->stream), ==, ATP_STREAM_STATE_OFFLINE);

  g_assert_true (triage_test_server_restart (fixture->net.server, &error));
  g_assert_no_error (error);
  test_monitor_set_available (monitor, TRUE);
  net_test_wait_until (atp_stream_get_state (fixture->stream) == ATP_STREAM_STATE_CONNECTED,
                       "connected as the network came back");
  g_assert_cmpint (g_get_monotonic_time (), <, due);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GSubprocess) system_bus = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  system_bus = start_fake_system_bus ();

  /* The test certificate is the only one trusted, and triage.localhost is
   * 127.0.0.1, in this process. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GTlsDatabase) trusted = triage_test_server_new_tls_database (&error);
    g_autoptr(GResolver) resolver = g_object_new (test_resolver_get_type (), NULL);

    g_assert_no_error (error);
    g_tls_backend_set_default_database (g_tls_backend_get_default (), trusted);
    system_resolver = g_resolver_get_default ();
    g_resolver_set_default (resolver);
  }

#define ADD(path, args, func) \
  g_test_add (path, StreamFixture, args, stream_setup, func, stream_teardown)

  ADD ("/stream/receive", NULL, test_receive);
  ADD ("/stream/acknowledge", NULL, test_acknowledge);
  ADD ("/stream/acknowledge-while-resyncing", NULL, test_acknowledge_while_resyncing);
  ADD ("/stream/restart-resync", NULL, test_restart_resync);
  ADD ("/stream/server-restart-reconnects", NULL, test_server_restart_reconnects);
  ADD ("/stream/backoff", NULL, test_backoff);
  ADD ("/stream/auth-failed", NULL, test_auth_failed);
  ADD ("/stream/heartbeat", &heartbeat_args, test_heartbeat);
  ADD ("/stream/silence", &silent_args, test_silence);
  ADD ("/stream/too-many", NULL, test_too_many);
  ADD ("/stream/handshake-silence", NULL, test_handshake_silence);
  ADD ("/stream/many-pending", &no_limits, test_many_pending);
  ADD ("/stream/local-socket", &local_socket, test_local_socket);
  ADD ("/stream/wake-reconnects", NULL, test_wake_reconnects);
  ADD ("/stream/network-back", &tls_server, test_network_back);
#undef ADD

  status = g_test_run ();
  g_subprocess_force_exit (system_bus);

  return status;
}
