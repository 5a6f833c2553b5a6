/* triage-server-stream.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The client streams of profile §5: the WebSocket at /api/v1/client/stream and
 * Server-Sent Events at /api/v1/client/events. Every event a user's streams are
 * sent (a new notification, a status update) is first queued for the user's
 * event log in the open batch, then pushed once the store says it is durable,
 * so a client never sees what a crash could take back and an SSE client can
 * resume from any event id the log still holds. When several servers share
 * the database, the store hands every server each event of any of them, so a
 * stream hears of everything whichever server it is connected to.
 */

#define G_LOG_DOMAIN "triage-server-stream"

#include <string.h>

#include "triage-metrics.h"
#include "triage-server-private.h"

#define STREAM_PATH  "/api/v1/client/stream"
#define EVENTS_PATH  "/api/v1/client/events"
#define USER_KEY     "triage-stream-user"
#define PROTOCOLS_KEY "triage-stream-protocols"
#define NO_SNAPSHOT_KEY "triage-stream-no-snapshot"
#define EVENT_LOG_US (24 * G_TIME_SPAN_HOUR)   /* how long the log keeps an event */
#define MAX_REPLAY   10000                     /* events replayed on resume, else a snapshot */
#define TICK_US      G_USEC_PER_SEC            /* heartbeats and idle checks */
/* libsoup drops a connection whose frame is over its limit without a close
 * frame; reading up to this much lets a frame over ATP_MAX_FRAME_SIZE get the
 * close code 1009 the profile promises. Beyond it, the connection just ends. */
#define READ_LIMIT   (4 * ATP_MAX_FRAME_SIZE)

typedef struct
{
  TriageServer            *server;
  char                    *user;
  SoupWebsocketConnection *ws;          /* a WebSocket stream, or */
  SoupServerMessage       *sse;         /* an SSE response */
  gint64                   last_heard;  /* monotonic µs: the client's last frame (WebSocket) */
  gint64                   last_beat;   /* monotonic µs: our last heartbeat or ping */
  gint64                   last_event;  /* the log's id the stream is up to (a replay or snapshot) */
  guint                    protocols;   /* bit per AtpProtocol: the requests it is sent (protocols=) */
} Stream;

static void
stream_free (Stream *stream)
{
  g_free (stream->user);
  g_clear_object (&stream->ws);
  g_clear_object (&stream->sse);
  g_free (stream);
}

static GPtrArray *
streams_of (TriageServer *self,
            const char   *user)
{
  return g_hash_table_lookup (self->streams, user);
}

static guint
count_streams (TriageServer *self,
               const char   *user,
               gboolean      websocket)
{
  GPtrArray *streams = streams_of (self, user);
  guint count = 0;

  for (guint i = 0; streams != NULL && i < streams->len; i++)
    count += (((Stream *) streams->pdata[i])->ws != NULL) == websocket;
  return count;
}

static void
add_stream (TriageServer *self,
            Stream       *stream)
{
  GPtrArray *streams = streams_of (self, stream->user);

  if (streams == NULL)
    {
      streams = g_ptr_array_new_with_free_func ((GDestroyNotify) stream_free);
      g_hash_table_insert (self->streams, g_strdup (stream->user), streams);
    }
  stream->last_heard = stream->last_beat = g_get_monotonic_time ();
  g_ptr_array_add (streams, stream);
  triage_metrics_stream_opened (stream->ws != NULL);
}

static void
remove_stream (Stream *stream)
{
  TriageServer *self = stream->server;
  g_autofree char *user = g_strdup (stream->user);
  GPtrArray *streams = streams_of (self, user);

  if (streams == NULL || !g_ptr_array_remove (streams, stream))
    return;
  if (streams->len == 0)
    g_hash_table_remove (self->streams, user);
}

/* ---- frames and events ---- */

static char *
frame_text (const char *type,
            const char *data)
{
  return g_strdup_printf ("{\"type\":\"%s\",\"data\":%s}", type, data);
}

static GBytes *
sse_text (const char *type,
          const char *data,
          gint64      id)
{
  char *text;

  /* The data is single-line JSON (no raw newlines), so one data: line holds it. */
  if (id > 0)
    text = g_strdup_printf ("id: %" G_GINT64_FORMAT "\nevent: %s\ndata: %s\n\n", id, type, data);
  else
    text = g_strdup_printf ("event: %s\ndata: %s\n\n", type, data);
  return g_bytes_new_take (text, strlen (text));
}

static void
sse_append (Stream *stream,
            GBytes *text)
{
  soup_message_body_append_bytes (soup_server_message_get_response_body (stream->sse), text);
  soup_server_message_unpause (stream->sse);
}

static void
sse_write (Stream     *stream,
           const char *type,
           const char *data,
           gint64      id)
{
  g_autoptr(GBytes) text = sse_text (type, data, id);

  sse_append (stream, text);
}

static void
stream_send (Stream     *stream,
             const char *type,
             const char *data,
             gint64      id)
{
  if (stream->ws != NULL)
    {
      g_autofree char *frame = NULL;

      if (soup_websocket_connection_get_state (stream->ws) != SOUP_WEBSOCKET_STATE_OPEN)
        return;
      frame = frame_text (type, data);
      soup_websocket_connection_send_text (stream->ws, frame);
    }
  else
    sse_write (stream, type, data, id);
}

static void
stream_send_error (Stream       *stream,
                   AtpErrorCode  code,
                   const char   *message)
{
  g_autofree char *request_id = atp_new_uuid ();
  g_autofree char *data = atp_json_error_body (atp_error_code_to_string (code), message, NULL,
                                               request_id);

  stream_send (stream, "error", data, 0);
}

static char *
status_update_text (const char *id,
                    int         status,
                    const char *reason)
{
  g_autoptr(JsonNode) node = status_update_node (id, status, reason);

  return atp_json_to_string (node, NULL);
}

/* A stream is sent the requests of the protocols it asked for, and every
 * status update (one about a request it never saw is ignored by clients). */
static gboolean
stream_wants (Stream *stream,
              int     protocol)
{
  return protocol < 0 || (stream->protocols & (1u << protocol)) != 0;
}

static void
mark_delivered (TriageServer *self,
                const char   *id)
{
  if (triage_store_mark_delivered (self->store, id, g_get_real_time ()))
    triage_server_changed (self, id, ATP_STATUS_DELIVERED, NULL);
}

/* @event as @stream is sent it; its text for each kind of stream is made
 * once, by the first stream of that kind, in *@frame and *@sse. */
static void
stream_send_event (Stream               *stream,
                   const TriageEventRow *event,
                   char                **frame,
                   GBytes              **sse)
{
  if (stream->ws != NULL)
    {
      if (soup_websocket_connection_get_state (stream->ws) != SOUP_WEBSOCKET_STATE_OPEN)
        return;
      if (*frame == NULL)
        *frame = frame_text (event->type, event->data);
      soup_websocket_connection_send_text (stream->ws, *frame);
    }
  else
    {
      if (*sse == NULL)
        *sse = sse_text (event->type, event->data, event->id);
      sse_append (stream, *sse);
    }
}

/* The notifications pushed since the last turn of the main loop, marked
 * delivered in one statement: the listener of a shared store hands on every
 * event one read of the log found at once, and a round trip to the database
 * for each would hold the main loop that many times. */
static gboolean
mark_pushed_delivered (gpointer data)
{
  TriageServer *self = data;
  g_autoptr(GPtrArray) ids = g_steal_pointer (&self->pushed);
  g_autoptr(GHashTable) moved = NULL;
  g_auto(GStrv) moved_ids = NULL;

  self->pushed_source = 0;
  g_ptr_array_add (ids, NULL);
  moved_ids = triage_store_mark_delivered_all (self->store, (const char * const *) ids->pdata,
                                               g_get_real_time ());
  moved = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; moved_ids[i] != NULL; i++)
    g_hash_table_add (moved, moved_ids[i]);
  /* In the order they were pushed. */
  for (guint i = 0; i + 1 < ids->len; i++)
    if (g_hash_table_remove (moved, ids->pdata[i]))
      triage_server_changed (self, ids->pdata[i], ATP_STATUS_DELIVERED, NULL);
  return G_SOURCE_REMOVE;
}

static void
mark_delivered_soon (TriageServer *self,
                     const char   *id)
{
  if (self->pushed == NULL)
    self->pushed = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->pushed, g_strdup (id));
  if (self->pushed_source == 0)
    self->pushed_source = g_idle_add_full (G_PRIORITY_DEFAULT, mark_pushed_delivered, self, NULL);
}

/* A durable event (of this server, or of any server when the store is
 * shared): to every stream of its user; a new notification pushed to one is
 * delivered. */
static void
on_store_event (const TriageEventRow *event,
                gpointer              data)
{
  TriageServer *self = data;
  GPtrArray *streams = self->streams ? streams_of (self, event->user) : NULL;
  g_autofree char *frame = NULL;
  g_autoptr(GBytes) sse = NULL;
  gboolean pushed = FALSE;

  for (guint i = 0; streams != NULL && i < streams->len; i++)
    {
      Stream *stream = streams->pdata[i];

      /* Already in what a replay or a snapshot sent it, or of a protocol it
       * did not ask for. */
      if (event->id <= stream->last_event || !stream_wants (stream, event->protocol))
        continue;
      stream_send_event (stream, event, &frame, &sse);
      pushed = TRUE;
    }
  if (pushed && event->notification_id != NULL && g_str_equal (event->type, "notification"))
    {
      triage_metrics_delivery (g_get_real_time () - event->created_at);
      if (triage_store_is_shared (self->store))
        mark_delivered_soon (self, event->notification_id);
      else
        mark_delivered (self, event->notification_id);
    }
  triage_server_event_seen (self, event);
}

/* Every transition of notification @id (and its creation) goes to every
 * stream of every recipient (a creation only to those that take its
 * @protocol; -1 for a transition): logged in the batch, pushed once durable.
 * A creation passes the notification's JSON as it was stored, when the
 * caller has it. */
void
triage_server_publish (TriageServer *self,
                       const char   *id,
                       int           protocol,
                       int           status,
                       const char   *reason,
                       const char   *notification_json)
{
  g_auto(GStrv) users = triage_store_recipients (self->store, id);
  g_autofree char *data = NULL;
  const char *type;

  if (status == ATP_STATUS_CREATED)
    {
      if (notification_json != NULL)
        data = g_strdup (notification_json);
      else
        {
          g_autoptr(TriageNotificationRow) row = triage_store_get_notification (self->store, id);
          g_autoptr(JsonNode) node = row ? notification_node (row, FALSE) : NULL;

          if (node == NULL)
            return;
          data = atp_json_to_string (node, NULL);
        }
      type = "notification";
    }
  else
    {
      type = "status_update";
      data = status_update_text (id, status, reason);
    }
  triage_store_add_events (self->store, (const char * const *) users, type,
                           status == ATP_STATUS_CREATED ? protocol : -1, data, id,
                           g_get_real_time ());
}

/* The user's pending notifications, oldest first, each sent as a `notification`
 * with event id @id (a snapshot: resuming from @id gets what came after it). */
static void
send_snapshot (Stream *stream,
               gint64  id)
{
  TriageServer *self = stream->server;
  /* Large pages: each counts the matches again (the total is not used here). */
  TriageListQuery query = { .user = stream->user, .status_mask = TRIAGE_PENDING_MASK,
                            .protocol_mask = stream->protocols, .limit = 1000 };
  g_autoptr(GPtrArray) created = g_ptr_array_new_with_free_func (g_free);
  gboolean has_more = TRUE;
  gint64 total;

  while (has_more)
    {
      g_autoptr(GPtrArray) rows = triage_store_list (self->store, &query, &total, &has_more);

      for (guint i = 0; i < rows->len; i++)
        {
          TriageNotificationRow *row = rows->pdata[i];
          g_autoptr(JsonNode) node = notification_node (row, FALSE);
          g_autofree char *data = atp_json_to_string (node, NULL);

          stream_send (stream, "notification", data, id);
          if (row->status == ATP_STATUS_CREATED)
            g_ptr_array_add (created, g_strdup (row->id));
          query.after = row->seq;
        }
    }
  for (guint i = 0; i < created->len; i++)
    mark_delivered (self, created->pdata[i]);
}

/* ---- heartbeats, pings and idle connections ---- */

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

        if (stream->ws != NULL && now - stream->last_heard >= self->idle * G_USEC_PER_SEC)
          {
            /* Once its close is sent, a connection waits for the peer's
             * (which a busy peer may take long to send): closed once. */
            if (soup_websocket_connection_get_state (stream->ws) == SOUP_WEBSOCKET_STATE_OPEN)
              g_ptr_array_add (idle, stream);
            continue;
          }
        /* Half a tick early rather than a whole tick late. */
        if (now - stream->last_beat >= self->heartbeat * G_USEC_PER_SEC - TICK_US / 2)
          {
            g_autoptr(GDateTime) time = g_date_time_new_now_utc ();
            g_autofree char *stamp = atp_format_timestamp (time);
            g_autofree char *beat = g_strdup_printf ("{\"timestamp\":\"%s\"}", stamp);

            stream_send (stream, stream->ws ? "heartbeat" : "ping", beat, 0);
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
  return G_SOURCE_CONTINUE;
}

/* ---- WebSocket ---- */

static void
acknowledge (Stream     *stream,
             const char *id)
{
  TriageServer *self = stream->server;
  g_autofree char *lower = g_ascii_strdown (id, -1);

  if (!triage_store_is_recipient (self->store, lower, stream->user))
    {
      stream_send_error (stream, ATP_ERROR_NOTIFICATION_NOT_FOUND, "No such notification");
      return;
    }
  /* Acknowledging twice, or after the end, changes nothing and is no error:
   * the status update about the end is on its way. */
  if (triage_store_transition (self->store, lower,
                               (1u << ATP_STATUS_CREATED) | (1u << ATP_STATUS_DELIVERED),
                               ATP_STATUS_ACKNOWLEDGED, NULL, g_get_real_time ()))
    triage_server_changed (self, lower, ATP_STATUS_ACKNOWLEDGED, NULL);
}

static void
on_ws_message (SoupWebsocketConnection *ws,
               int                      type,
               GBytes                  *message,
               gpointer                 user_data)
{
  Stream *stream = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpMessage) frame = NULL;
  gsize length;
  const char *text = g_bytes_get_data (message, &length);

  stream->last_heard = g_get_monotonic_time ();
  if (length > ATP_MAX_FRAME_SIZE)
    {
      soup_websocket_connection_close (ws, SOUP_WEBSOCKET_CLOSE_TOO_BIG, "frame larger than 1 MiB");
      return;
    }
  if (type != SOUP_WEBSOCKET_DATA_TEXT)
    {
      stream_send_error (stream, ATP_ERROR_PROTOCOL, "Frames must be text frames holding JSON");
      return;
    }
  frame = atp_message_new_from_data (text, (gssize) length, &error);
  if (frame == NULL)
    {
      stream_send_error (stream, error->domain == ATP_ERROR ? error->code : ATP_ERROR_PROTOCOL,
                         error->message);
      return;
    }
  switch (frame->type)
    {
    case ATP_MESSAGE_ACKNOWLEDGE:
      acknowledge (stream, frame->notification_id);
      break;
    case ATP_MESSAGE_HEARTBEAT_ACK:
    case ATP_MESSAGE_UNKNOWN:
      break;
    case ATP_MESSAGE_NOTIFICATION:
    case ATP_MESSAGE_STATUS_UPDATE:
    case ATP_MESSAGE_HEARTBEAT:
    case ATP_MESSAGE_ERROR:
    default:
      stream_send_error (stream, ATP_ERROR_PROTOCOL,
                         "Clients send only acknowledge and heartbeat_ack frames; "
                         "responses go over REST");
      break;
    }
}

static void
on_ws_closed (SoupWebsocketConnection *ws,
              gpointer                 user_data)
{
  Stream *stream = user_data;

  g_signal_handlers_disconnect_by_data (ws, stream);
  remove_stream (stream);
}

/* A draining server takes no new stream: the client goes to another. */
static gboolean
refuse_if_draining (TriageServer      *self,
                    SoupServerMessage *msg)
{
  if (self->state != TRIAGE_SERVER_DRAINING)
    return FALSE;
  soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Retry-After", "1");
  reply_error (msg, ATP_ERROR_SERVICE_UNAVAILABLE,
               "This server is shutting down: connect to another one");
  return TRUE;
}

/* A stream's token may also come as ?token=, for clients that cannot set headers. */
static char *
stream_user (TriageServer      *self,
             SoupServerMessage *msg,
             GHashTable        *query)
{
  return authenticate_user (self, msg, query ? g_hash_table_lookup (query, "token") : NULL);
}

/* Before the upgrade: a bad or missing token is a plain 401 with the error body. */
static void
stream_http_handler (SoupServer        *soup,
                     SoupServerMessage *msg,
                     const char        *path,
                     GHashTable        *query,
                     gpointer           user_data)
{
  TriageServer *self = user_data;
  guint protocols;
  char *user;

  if (strcmp (soup_server_message_get_method (msg), "GET") != 0)
    {
      reply_method_not_allowed (msg, "GET");
      return;
    }
  if (refuse_if_draining (self, msg))
    return;
  user = stream_user (self, msg, query);
  if (user == NULL)
    return;
  if (!triage_server_parse_protocols (msg, query, &protocols))
    {
      g_free (user);
      return;
    }
  g_object_set_data_full (G_OBJECT (msg), USER_KEY, user, g_free);
  g_object_set_data (G_OBJECT (msg), PROTOCOLS_KEY, GUINT_TO_POINTER (protocols));
  /* A client that lists the pending set itself (the app's resync) would
   * only drop the snapshot's copy of it: 10,000 frames built, sent and
   * parsed for nothing, ahead of the list it waits for. */
  if (query != NULL && g_strcmp0 (g_hash_table_lookup (query, "snapshot"), "false") == 0)
    g_object_set_data (G_OBJECT (msg), NO_SNAPSHOT_KEY, GINT_TO_POINTER (TRUE));
}

static void
stream_ws_handler (SoupServer              *soup,
                   SoupServerMessage       *msg,
                   const char              *path,
                   SoupWebsocketConnection *ws,
                   gpointer                 user_data)
{
  TriageServer *self = user_data;
  Stream *stream;
  const char *user = g_object_get_data (G_OBJECT (msg), USER_KEY);
  guint cap = self->limits[TRIAGE_LIMIT_WEBSOCKETS];

  triage_server_request_done (self, msg);
  if (user == NULL)
    return;
  stream = g_new0 (Stream, 1);
  stream->server = self;
  stream->user = g_strdup (user);
  stream->protocols = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (msg), PROTOCOLS_KEY));
  stream->ws = g_object_ref (ws);
  soup_websocket_connection_set_max_incoming_payload_size (ws, READ_LIMIT);
  soup_websocket_connection_set_keepalive_interval (ws, 0);
  if (cap != 0 && count_streams (self, user, TRUE) >= cap)
    {
      g_autofree char *message = g_strdup_printf ("Too many open streams for this account "
                                                  "(at most %u)", cap);

      triage_metrics_rate_limited (TRIAGE_LIMIT_WEBSOCKETS);
      stream_send_error (stream, ATP_ERROR_RATE_LIMIT_EXCEEDED, message);
      /* Kept alive until the close handshake is over. */
      g_signal_connect (ws, "closed", G_CALLBACK (g_object_unref), NULL);
      g_object_ref (ws);
      soup_websocket_connection_close (ws, 4029, "too many connections");
      stream_free (stream);
      return;
    }
  add_stream (self, stream);
  g_signal_connect (ws, "message", G_CALLBACK (on_ws_message), stream);
  g_signal_connect (ws, "closed", G_CALLBACK (on_ws_closed), stream);
  /* What the log held before the snapshot is in it. */
  stream->last_event = triage_store_last_event (self->store);
  if (g_object_get_data (G_OBJECT (msg), NO_SNAPSHOT_KEY) == NULL)
    send_snapshot (stream, 0);
}

/* ---- Server-Sent Events ---- */

static void
on_sse_finished (SoupServerMessage *msg,
                 gpointer           user_data)
{
  Stream *stream = user_data;

  g_signal_handlers_disconnect_by_data (msg, stream);
  remove_stream (stream);
}

static gboolean
parse_event_id (const char *text,
                gint64     *id)
{
  g_autofree char *copy = g_strdup (text);
  guint64 value;

  if (!g_ascii_string_to_unsigned (g_strstrip (copy), 10, 0, G_MAXINT64, &value, NULL))
    return FALSE;
  *id = (gint64) value;
  return TRUE;
}

static void
events_handler (SoupServer        *soup,
                SoupServerMessage *msg,
                const char        *path,
                GHashTable        *query,
                gpointer           user_data)
{
  TriageServer *self = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);
  const char *last_text = soup_message_headers_get_one (soup_server_message_get_request_headers (msg),
                                                        "Last-Event-ID");
  guint cap = self->limits[TRIAGE_LIMIT_SSE];
  g_autofree char *user = NULL;
  g_autoptr(GPtrArray) replay = NULL;
  gint64 last = 0;
  guint protocols;
  Stream *stream;

  if (strcmp (soup_server_message_get_method (msg), "GET") != 0)
    {
      reply_method_not_allowed (msg, "GET");
      return;
    }
  if (refuse_if_draining (self, msg))
    return;
  if ((user = stream_user (self, msg, query)) == NULL ||
      !triage_server_parse_protocols (msg, query, &protocols))
    return;
  if (last_text == NULL && query != NULL)
    last_text = g_hash_table_lookup (query, "last_event_id");
  if (last_text != NULL && !parse_event_id (last_text, &last))
    {
      reply_error_field (msg, ATP_ERROR_INVALID_PARAMETER,
                         "Last-Event-ID must be an event id from this server", "last_event_id");
      return;
    }
  if (cap != 0 && count_streams (self, user, FALSE) >= cap)
    {
      g_autofree char *message = g_strdup_printf ("Too many open event streams for this account "
                                                  "(at most %u)", cap);

      triage_metrics_rate_limited (TRIAGE_LIMIT_SSE);
      soup_message_headers_replace (headers, "Retry-After", "60");
      reply_error (msg, ATP_ERROR_RATE_LIMIT_EXCEEDED, message);
      return;
    }

  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  soup_message_headers_set_content_type (headers, "text/event-stream", NULL);
  soup_message_headers_replace (headers, "Cache-Control", "no-cache");
  soup_message_headers_replace (headers, "X-Accel-Buffering", "no");

  stream = g_new0 (Stream, 1);
  stream->server = self;
  stream->user = g_steal_pointer (&user);
  stream->protocols = protocols;
  stream->sse = g_object_ref (msg);
  add_stream (self, stream);
  g_signal_connect (msg, "finished", G_CALLBACK (on_sse_finished), stream);

  /* Resume from the log when it still reaches back that far, else start over
   * from the pending set. */
  if (last_text != NULL)
    replay = triage_store_events_after (self->store, stream->user, last, MAX_REPLAY);
  if (replay != NULL)
    {
      stream->last_event = last;
      for (guint i = 0; i < replay->len; i++)
        {
          TriageEventRow *event = replay->pdata[i];

          if (stream_wants (stream, event->protocol))
            sse_write (stream, event->type, event->data, event->id);
          stream->last_event = event->id;
        }
    }
  else
    {
      stream->last_event = triage_store_last_event (self->store);
      send_snapshot (stream, stream->last_event);
    }
  /* Headers go out now even when there is nothing to say yet. */
  sse_write (stream, "ping", "{}", 0);
}

/* The open streams of every user, for /metrics. */
void
triage_server_count_streams (TriageServer *self,
                             guint        *websockets,
                             guint        *sse)
{
  GHashTableIter iter;
  GPtrArray *list;

  *websockets = *sse = 0;
  g_hash_table_iter_init (&iter, self->streams);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &list))
    for (guint i = 0; i < list->len; i++)
      {
        if (((Stream *) list->pdata[i])->ws != NULL)
          (*websockets)++;
        else
          (*sse)++;
      }
}

/* ---- setup ---- */

void
triage_server_setup_streams (TriageServer *self)
{
  self->streams = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) g_ptr_array_unref);
  soup_server_add_handler (self->soup, STREAM_PATH, stream_http_handler, self, NULL);
  soup_server_add_websocket_handler (self->soup, STREAM_PATH, NULL, NULL, stream_ws_handler,
                                     self, NULL);
  soup_server_add_handler (self->soup, EVENTS_PATH, events_handler, self, NULL);
  triage_store_set_event_func (self->store, on_store_event, self);
  /* Every second, so a heartbeat or an idle close is never more than a second late. */
  self->stream_tick = g_timeout_add (TICK_US / 1000, on_tick, self);
  on_prune (self);
  self->prune_source = g_timeout_add_seconds (3600, on_prune, self);
}

/* Tells every stream the server is going away (the drain): WebSockets get
 * close code 1001 (going away: reconnect, to another server behind the same
 * address), SSE responses end. They leave the table as their connections
 * close. */
void
triage_server_close_streams (TriageServer *self)
{
  g_autoptr(GPtrArray) all = g_ptr_array_new ();
  GHashTableIter iter;
  GPtrArray *list;

  g_hash_table_iter_init (&iter, self->streams);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &list))
    for (guint i = 0; i < list->len; i++)
      g_ptr_array_add (all, list->pdata[i]);
  for (guint i = 0; i < all->len; i++)
    {
      Stream *stream = all->pdata[i];

      if (stream->ws != NULL)
        {
          if (soup_websocket_connection_get_state (stream->ws) == SOUP_WEBSOCKET_STATE_OPEN)
            soup_websocket_connection_close (stream->ws, SOUP_WEBSOCKET_CLOSE_GOING_AWAY,
                                             "server draining: reconnect");
        }
      else
        {
          soup_message_body_complete (soup_server_message_get_response_body (stream->sse));
          soup_server_message_unpause (stream->sse);
        }
    }
}

/* Frees what is left, once the main loop has stopped. */
void
triage_server_shutdown_streams (TriageServer *self)
{
  g_autoptr(GHashTable) streams = g_steal_pointer (&self->streams);
  GHashTableIter iter;
  GPtrArray *list;

  triage_store_set_event_func (self->store, NULL, NULL);
  /* Delivery is a courtesy: what was pushed last stays created. */
  g_clear_handle_id (&self->pushed_source, g_source_remove);
  g_clear_pointer (&self->pushed, g_ptr_array_unref);
  g_clear_handle_id (&self->stream_tick, g_source_remove);
  g_clear_handle_id (&self->prune_source, g_source_remove);
  g_hash_table_iter_init (&iter, streams);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &list))
    for (guint i = 0; i < list->len; i++)
      {
        Stream *stream = list->pdata[i];

        g_signal_handlers_disconnect_by_data (stream->ws ? (gpointer) stream->ws
                                                         : (gpointer) stream->sse, stream);
      }
}
