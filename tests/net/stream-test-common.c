/* stream-test-common.c — the fixture of test-stream: what the owner of a stream sees
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "stream-test-common.h"

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

void
stream_test_on_state_changed (AtpStream     *stream,
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

AtpStream *
stream_test_new_stream (StreamFixture *fixture,
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
  g_signal_connect (stream, "notify::state", G_CALLBACK (stream_test_on_state_changed), fixture);

  return stream;
}

void
stream_test_setup (StreamFixture *fixture,
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
  fixture->stream = stream_test_new_stream (fixture, fixture->net.user, FALSE);
}

void
stream_test_teardown (StreamFixture *fixture,
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

guint
stream_test_received_count (StreamFixture *fixture,
                            const char    *id)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (fixture->received, id));
}

gboolean
stream_test_pending_has (StreamFixture *fixture,
                         const char    *id)
{
  for (guint i = 0; i < fixture->pending->len; i++)
    if (g_str_equal (fixture->pending->pdata[i], id))
      return TRUE;
  return FALSE;
}

AtpStatusUpdate *
stream_test_update_for (StreamFixture *fixture,
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
