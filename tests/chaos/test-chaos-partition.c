/* test-chaos-partition.c — network partitions between a client and a team
 * server: AtpStream (the stream client the app uses for its live connection,
 * with the app's resync and the owner's view of what is pending kept here as
 * the app keeps it) reaches a real triage-server over TCP through
 * tests/chaos/partition-proxy.py, which stalls every byte, resets or
 * half-closes the connections on command. The server sends a heartbeat every
 * second; the stream's silence limit is 3 s (the app's are 30 s and 60 s).
 *
 * In each case a request is pending and seen; during the fault another device
 * answers it and a new one arrives. The stream must notice the dead link
 * (a stall within the silence limit, a reset or a FIN at once), reconnect,
 * resync, and end with exactly the server's pending set: the new request
 * received once, the answered one no longer pending (no stale request), and
 * nothing received twice.
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include <libsoup/soup.h>

#include "net-test-common.h"
#include "triage-test-proxy.h"

#define SILENCE_MS 3000
/* What a loaded machine may add to a detection. */
#define SLACK_S 10

typedef struct
{
  NetFixture        net;
  TriageTestProxy  *proxy;
  AtpClient        *through;    /* the user's client, through the proxy */
  AtpStream        *stream;
  GHashTable       *received;   /* id → times notification-received */
  GHashTable       *pending;    /* the owner's view: what waits for an answer */
  guint             resyncs;
  guint             lost;       /* times the state left CONNECTED */
  gint64            lost_at;    /* monotonic µs of the last loss */
  char             *lost_why;   /* the stream's error at that loss */
} Partition;

static void
on_received (AtpStream       *stream,
             AtpNotification *notification,
             Partition       *fixture)
{
  guint count = GPOINTER_TO_UINT (g_hash_table_lookup (fixture->received, notification->id));

  g_hash_table_insert (fixture->received, g_strdup (notification->id), GUINT_TO_POINTER (count + 1));
  g_hash_table_add (fixture->pending, g_strdup (notification->id));
}

static void
on_status_changed (AtpStream       *stream,
                   AtpStatusUpdate *update,
                   Partition       *fixture)
{
  if (!atp_status_is_pending (update->status))
    g_hash_table_remove (fixture->pending, update->notification_id);
}

/* As the app does: whatever it holds as pending that the server no longer
 * lists settled while it was away. */
static void
on_resynced (AtpStream *stream,
             GPtrArray *pending,
             Partition *fixture)
{
  g_autoptr(GHashTable) listed = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter iter;
  const char *id;

  for (guint i = 0; i < pending->len; i++)
    g_hash_table_add (listed, ((AtpNotification *) g_ptr_array_index (pending, i))->id);
  g_hash_table_iter_init (&iter, fixture->pending);
  while (g_hash_table_iter_next (&iter, (gpointer *) &id, NULL))
    if (!g_hash_table_contains (listed, id))
      g_hash_table_iter_remove (&iter);
  fixture->resyncs++;
}

static void
on_state (AtpStream  *stream,
          GParamSpec *pspec,
          Partition  *fixture)
{
  const GError *error = atp_stream_get_last_error (stream);

  if (atp_stream_get_state (stream) == ATP_STREAM_STATE_RECONNECTING && fixture->lost_at == 0)
    {
      fixture->lost++;
      fixture->lost_at = g_get_monotonic_time ();
      g_free (fixture->lost_why);
      fixture->lost_why = g_strdup (error ? error->message : "");
    }
  g_test_message ("state %d%s%s", atp_stream_get_state (stream), error ? ": " : "",
                  error ? error->message : "");
}

static const TriageTestServerOptions server_options = {
  .extra_args = (const char * const[]) { "--heartbeat-interval", "1", "--no-limits", NULL },
};

static void
partition_setup (Partition     *fixture,
                 gconstpointer  data)
{
  g_autoptr(GUri) uri = NULL;
  g_autofree char *port = NULL;
  g_autoptr(GError) error = NULL;

  net_fixture_setup_with (&fixture->net, &server_options);
  uri = g_uri_parse (triage_test_server_get_url (fixture->net.server), G_URI_FLAGS_NONE, &error);
  g_assert_no_error (error);
  port = g_strdup_printf ("%d", g_uri_get_port (uri));
  fixture->proxy = triage_test_proxy_new (port);

  fixture->through = atp_client_new (triage_test_proxy_get_url (fixture->proxy), &error);
  g_assert_no_error (error);
  atp_client_set_token (fixture->through, fixture->net.user_token);
  atp_client_set_timeout (fixture->through, 10);
  fixture->received = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  fixture->pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  fixture->stream = g_object_new (ATP_TYPE_STREAM,
                                  "client", fixture->through,
                                  "watch-system", FALSE,
                                  "backoff-initial-ms", 100,
                                  "backoff-max-ms", 500,
                                  NULL);
  atp_stream_set_silence_timeout (fixture->stream, SILENCE_MS);
  g_signal_connect (fixture->stream, "notification-received", G_CALLBACK (on_received), fixture);
  g_signal_connect (fixture->stream, "status-changed", G_CALLBACK (on_status_changed), fixture);
  g_signal_connect (fixture->stream, "resynced", G_CALLBACK (on_resynced), fixture);
  g_signal_connect (fixture->stream, "notify::state", G_CALLBACK (on_state), fixture);
}

static void
partition_teardown (Partition     *fixture,
                    gconstpointer  data)
{
  atp_stream_stop (fixture->stream);
  g_assert_finalize_object (fixture->stream);
  g_assert_finalize_object (fixture->through);
  g_clear_pointer (&fixture->proxy, triage_test_proxy_free);
  g_hash_table_unref (fixture->received);
  g_hash_table_unref (fixture->pending);
  g_free (fixture->lost_why);
  net_fixture_teardown (&fixture->net, data);
}

static guint
times_received (Partition  *fixture,
                const char *id)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (fixture->received, id));
}

/* The server's pending set, asked directly (not through the proxy). */
static GHashTable *
server_pending (Partition *fixture)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) list = net_list_pending (fixture->net.user, &error);
  GHashTable *ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_assert_no_error (error);
  for (guint i = 0; i < list->len; i++)
    g_hash_table_add (ids, g_strdup (((AtpNotification *) g_ptr_array_index (list, i))->id));
  return ids;
}

static gboolean
same_set (GHashTable *a,
          GHashTable *b)
{
  GHashTableIter iter;
  gpointer key;

  if (g_hash_table_size (a) != g_hash_table_size (b))
    return FALSE;
  g_hash_table_iter_init (&iter, a);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (b, key))
      return FALSE;
  return TRUE;
}

/* One fault: connected with one request seen; @fault; meanwhile the request
 * is answered elsewhere and a new one comes; then @after (NULL: nothing) and
 * the stream must converge. Returns how long the loss took to notice, in s. */
static double
run_fault (Partition  *fixture,
           const char *fault,
           const char *after)
{
  g_autofree char *seen = NULL, *fresh = NULL;
  g_autoptr(AtpResponse) response = NULL;
  g_autoptr(GHashTable) server = NULL;
  g_autoptr(GError) error = NULL;
  gint64 began;
  guint resyncs;
  double noticed;

  atp_stream_start (fixture->stream);
  seen = net_post_simple (&fixture->net, "Seen before the fault");
  net_test_wait_until (times_received (fixture, seen) == 1 && fixture->resyncs >= 1 &&
                       atp_stream_get_state (fixture->stream) == ATP_STREAM_STATE_CONNECTED,
                       "the stream connected with the first request");
  resyncs = fixture->resyncs;

  fixture->lost_at = 0;
  began = g_get_monotonic_time ();
  triage_test_proxy_command (fixture->proxy, fault);
  /* While the link is down: answered on another device, and a new request. */
  response = net_respond (fixture->net.user, seen, "ok", NULL, &error);
  g_assert_no_error (error);
  fresh = net_post_simple (&fixture->net, "Arrived during the fault");

  triage_test_wait_until_within (fixture->lost_at != 0, "the dead link noticed",
                                 SILENCE_MS / 1000 + SLACK_S + 5);
  noticed = (fixture->lost_at - began) / (double) G_USEC_PER_SEC;
  if (after != NULL)
    triage_test_proxy_command (fixture->proxy, after);

  net_test_wait_until (fixture->resyncs > resyncs &&
                       atp_stream_get_state (fixture->stream) == ATP_STREAM_STATE_CONNECTED &&
                       times_received (fixture, fresh) == 1,
                       "a reconnect and resync");
  /* The owner's view is the server's: the new request, not the answered one. */
  server = server_pending (fixture);
  g_assert_true (g_hash_table_contains (server, fresh));
  g_assert_false (g_hash_table_contains (server, seen));
  g_assert_true (same_set (fixture->pending, server));
  g_assert_cmpuint (times_received (fixture, seen), ==, 1);
  g_assert_cmpuint (times_received (fixture, fresh), ==, 1);
  g_test_message ("%s noticed after %.2f s: %s", fault, noticed, fixture->lost_why);
  return noticed;
}

/* Silence both ways: noticed by the silence limit, not before a heartbeat
 * could have come, not much after the limit. */
static void
test_stall (Partition     *fixture,
            gconstpointer  data)
{
  double noticed = run_fault (fixture, "stall", "heal");

  if (strstr (fixture->lost_why, "No message from") == NULL)
    g_error ("a stall noticed otherwise than by the silence: %s", fixture->lost_why);
  g_assert_cmpfloat (noticed, >=, SILENCE_MS / 1000.0 - 1.0);
  g_assert_cmpfloat (noticed, <=, SILENCE_MS / 1000.0 + SLACK_S);
}

/* A stall that lasts across several reconnect attempts: each new connection
 * is silent too (its handshake never answered), and the stream keeps trying. */
static void
test_long_stall (Partition     *fixture,
                 gconstpointer  data)
{
  g_autofree char *seen = NULL;
  guint lost;

  atp_stream_start (fixture->stream);
  seen = net_post_simple (&fixture->net, "Seen before the long stall");
  net_test_wait_until (times_received (fixture, seen) == 1 &&
                       atp_stream_get_state (fixture->stream) == ATP_STREAM_STATE_CONNECTED,
                       "the stream connected");
  triage_test_proxy_command (fixture->proxy, "stall");
  fixture->lost_at = 0;
  triage_test_wait_until_within (fixture->lost_at != 0, "the stall noticed", SILENCE_MS / 1000 + SLACK_S + 5);
  lost = fixture->lost;
  /* A silent handshake is given up too: the state goes back to RECONNECTING. */
  fixture->lost_at = 0;
  net_test_wait_until (atp_stream_get_state (fixture->stream) == ATP_STREAM_STATE_CONNECTING,
                       "a new attempt");
  triage_test_wait_until_within (atp_stream_get_state (fixture->stream) == ATP_STREAM_STATE_RECONNECTING,
                                 "the silent attempt given up", SILENCE_MS / 1000 + SLACK_S + 5);
  g_assert_cmpuint (fixture->lost, >, lost);
  triage_test_proxy_command (fixture->proxy, "heal");
  net_test_wait_until (atp_stream_get_state (fixture->stream) == ATP_STREAM_STATE_CONNECTED,
                       "connected once healed");
  g_assert_cmpuint (times_received (fixture, seen), ==, 1);
}

/* A reset or a FIN is on the socket at once: the stream must see it there.
 * The time alone cannot tell, as the silence limit (3 s) fires well within
 * the slack a loaded machine is given (10 s): the reason must not be the
 * silence. */
static void
run_fault_noticed_at_once (Partition  *fixture,
                           const char *fault)
{
  double noticed = run_fault (fixture, fault, NULL);

  if (strstr (fixture->lost_why, "No message from") != NULL)
    g_error ("a %s noticed only by the silence limit, after %.2f s: %s",
             fault, noticed, fixture->lost_why);
  g_assert_cmpfloat (noticed, <=, SLACK_S);
}

/* A reset: noticed at once. */
static void
test_reset (Partition     *fixture,
            gconstpointer  data)
{
  run_fault_noticed_at_once (fixture, "reset");
}

/* A FIN from the middle (the proxy half-closes the client's side): noticed at once. */
static void
test_half_close (Partition     *fixture,
                 gconstpointer  data)
{
  run_fault_noticed_at_once (fixture, "half-close");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Partition, NULL, partition_setup, func, partition_teardown)

  ADD ("/chaos/partition/stall", test_stall);
  ADD ("/chaos/partition/long-stall", test_long_stall);
  ADD ("/chaos/partition/reset", test_reset);
  ADD ("/chaos/partition/half-close", test_half_close);
#undef ADD

  return g_test_run ();
}
