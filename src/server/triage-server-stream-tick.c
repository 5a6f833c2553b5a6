/* triage-server-stream-tick.c — heartbeats, pings and idle connections
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Once a second: a WebSocket that sent nothing for the idle time is closed
 * (close code 4000), every stream due one is sent a heartbeat (WebSocket) or
 * a ping (SSE). Once an hour the event log forgets what is older than a day.
 */

#define G_LOG_DOMAIN "triage-server-stream"

#include "triage-server-stream-private.h"

#define EVENT_LOG_US (24 * G_TIME_SPAN_HOUR)   /* how long the log keeps an event */
#define TICK_US      G_USEC_PER_SEC            /* heartbeats and idle checks */

static gboolean
on_tick (gpointer data)
{
  TriageServer *self = data;
  gint64 now = g_get_monotonic_time ();
  g_autoptr(GPtrArray) idle = g_ptr_array_new ();
  GHashTableIter iter;
  GPtrArray *streams;

  g_hash_table_iter_init (&iter, self->streams);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &streams))
    for (guint i = 0; i < streams->len; i++)
      {
        Stream *stream = streams->pdata[i];

        if (stream->ws != NULL && now - stream->last_heard >= (gint64) self->idle * G_USEC_PER_SEC)
          {
            /* Once its close is sent, a connection waits for the peer's
             * (which a busy peer may take long to send): closed once. */
            if (soup_websocket_connection_get_state (stream->ws) == SOUP_WEBSOCKET_STATE_OPEN)
              g_ptr_array_add (idle, stream);
            continue;
          }
        /* Half a tick early rather than a whole tick late. */
        if (now - stream->last_beat >= (gint64) self->heartbeat * G_USEC_PER_SEC - TICK_US / 2)
          {
            g_autoptr(GDateTime) time = g_date_time_new_now_utc ();
            g_autofree char *stamp = atp_format_timestamp (time);
            g_autoptr(JsonObject) body = json_object_new ();
            g_autofree char *beat = NULL;

            json_object_set_string_member (body, "timestamp", stamp);
            beat = atp_json_object_to_string (body, NULL);

            triage_stream_send (stream, stream->ws ? "heartbeat" : "ping", beat, 0);
            stream->last_beat = now;
          }
      }
  /* Closing emits "closed", which removes the stream: not while iterating. */
  for (guint i = 0; i < idle->len; i++)
    {
      Stream *stream = idle->pdata[i];

      soup_websocket_connection_close (stream->ws, 4000, "idle: nothing received");
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
on_prune (gpointer data)
{
  TriageServer *self = data;

  triage_store_prune_events (self->store, g_get_real_time () - EVENT_LOG_US);
  /* After the events: none is left that refers to a request forgotten
   * (--retain is a day at least, the log a day at most). */
  triage_server_forget_settled (self);
  return G_SOURCE_CONTINUE;
}

void
triage_server_start_stream_ticks (TriageServer *self)
{
  /* Every second, so a heartbeat or an idle close is never more than a second late. */
  self->stream_tick = g_timeout_add (TICK_US / 1000, on_tick, self);
  on_prune (self);
  self->prune_source = g_timeout_add_seconds (3600, on_prune, self);
}
