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
 *
 * Here: the table of streams, the events pushed and the WebSocket; the SSE
 * endpoint is in triage-server-stream-sse.c, heartbeats and idle connections
 * in triage-server-stream-tick.c, new requests delivered in the batch that
 * makes them in triage-server-stream-deliver.c.
 */

#define G_LOG_DOMAIN "triage-server-stream"

#include <string.h>

#include "triage-metrics.h"
#include "triage-server-stream-private.h"

#define STREAM_PATH  "/api/v1/client/stream"
#define USER_KEY     "triage-stream-user"
#define PROTOCOLS_KEY "triage-stream-protocols"
#define NO_SNAPSHOT_KEY "triage-stream-no-snapshot"
/* libsoup drops a connection whose frame is over its limit without a close
 * frame; reading up to this much lets a frame over ATP_MAX_FRAME_SIZE get the
 * close code 1009 the profile promises. Beyond it, the connection just ends. */
#define READ_LIMIT   (4 * ATP_MAX_FRAME_SIZE)

void
triage_stream_free (Stream *stream)
{
  g_free (stream->user);
  g_clear_pointer (&stream->snapshot_ids, g_hash_table_unref);
  g_clear_object (&stream->ws);
  g_clear_object (&stream->socket);
  g_clear_object (&stream->sse);
  if (stream->hangup != NULL)
    {
      g_source_destroy (stream->hangup);
      g_source_unref (stream->hangup);
    }
  g_free (stream);
}

GPtrArray *
triage_stream_list (TriageServer *self,
            const char   *user)
{
  return g_hash_table_lookup (self->streams, user);
}

guint
triage_stream_count (TriageServer *self,
               const char   *user,
               gboolean      websocket)
{
  GPtrArray *streams = triage_stream_list (self, user);
  guint count = 0;

  for (guint i = 0; streams != NULL && i < streams->len; i++)
    count += (((Stream *) streams->pdata[i])->ws != NULL) == websocket;
  return count;
}

void
triage_stream_add (TriageServer *self,
            Stream       *stream)
{
  GPtrArray *streams = triage_stream_list (self, stream->user);

  if (streams == NULL)
    {
      streams = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_stream_free);
      g_hash_table_insert (self->streams, g_strdup (stream->user), streams);
    }
  stream->last_heard = stream->last_beat = g_get_monotonic_time ();
  g_ptr_array_add (streams, stream);
  triage_metrics_stream_opened (stream->ws != NULL);
}

void
triage_stream_remove (Stream *stream)
{
  TriageServer *self = stream->server;
  g_autofree char *user = g_strdup (stream->user);
  GPtrArray *streams = triage_stream_list (self, user);

  if (streams == NULL || !g_ptr_array_remove (streams, stream))
    return;
  if (streams->len == 0)
    g_hash_table_remove (self->streams, user);
}

/* ---- frames and events ---- */

/* A WebSocket frame is {"type": …, "data": …}. The data is a text our JSON
 * writer made (the stored envelope, a status update): one event goes to
 * every stream in one frame, and parsing it into a tree again only to write
 * the same text out would cost a push as much as the rest of it. The type is
 * one of the profile's event names (our store writes them), a plain token. */
static char *
frame_text (const char *type,
            const char *data)
{
  /* Joined, not printed: a printf of the 2 KiB envelope grew its buffer as
   * it went (three times the instructions). */
  return g_strconcat ("{\"type\":\"", type, "\",\"data\":", data, "}", NULL);
}

void
triage_stream_send (Stream     *stream,
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
      triage_server_cork_turn (stream->socket);
      soup_websocket_connection_send_text (stream->ws, frame);
    }
  else
    triage_stream_sse_write (stream, type, data, id);
}

static void
stream_send_error (Stream       *stream,
                   AtpErrorCode  code,
                   const char   *message)
{
  g_autofree char *request_id = atp_new_uuid ();
  g_autofree char *data = atp_json_error_body (atp_error_code_to_string (code), message, NULL,
                                               request_id);

  triage_stream_send (stream, "error", data, 0);
}

/* Ends @stream: a WebSocket is closed with @code and @reason (unless it is
 * closing already), an SSE response ends. It leaves the table as its
 * connection closes. */
static void
stream_end (Stream     *stream,
            gushort     code,
            const char *reason)
{
  if (stream->ws != NULL)
    {
      if (soup_websocket_connection_get_state (stream->ws) == SOUP_WEBSOCKET_STATE_OPEN)
        soup_websocket_connection_close (stream->ws, code, reason);
    }
  else
    {
      soup_message_body_complete (soup_server_message_get_response_body (stream->sse));
      soup_server_message_unpause (stream->sse);
    }
}

/* The pending requests could not be read for a snapshot: sent part of it,
 * the client would take what it lacks for settled. The stream says why and
 * ends, and the client connects again (close code 1011: a server error). */
static void
stream_end_unread (Stream       *stream,
                   const GError *error)
{
  triage_log_failure ("cannot read the pending requests of %s for a stream: %s", stream->user,
                      error->message);
  stream_send_error (stream, ATP_ERROR_STORAGE_UNAVAILABLE,
                     "The pending requests cannot be read now (the server's database did not "
                     "answer); connect again later");
  stream_end (stream, SOUP_WEBSOCKET_CLOSE_SERVER_ERROR, "database unavailable: connect again");
}

/* The text of status_update_node (), written without the tree. */
static char *
status_update_text (const char *id,
                    int         status,
                    const char *reason)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(AtpStatusUpdate) update = atp_status_update_new (id, status, reason, now);

  return atp_status_update_to_string (update);
}

/* A stream is sent the requests of the protocols it asked for, and every
 * status update (one about a request it never saw is ignored by clients). */
gboolean
triage_stream_wants (Stream *stream,
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
      /* The frames of one commit leave together. */
      triage_server_cork_turn (stream->socket);
      soup_websocket_connection_send_text (stream->ws, *frame);
    }
  else
    {
      if (*sse == NULL)
        *sse = triage_stream_sse_text (event->type, event->data, event->id);
      triage_stream_sse_append (stream, *sse);
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
  /* Before any request read after the push: a client that got the frame and
   * asks at once finds the notification delivered. */
  if (self->pushed_source == 0)
    self->pushed_source = g_idle_add_full (G_PRIORITY_HIGH, mark_pushed_delivered, self, NULL);
}

/* Whether @event is a new notification the snapshot of @stream already
 * sent. Another server may commit one after the stream read where it starts
 * in the log and before it read its snapshot: then the notification is in
 * both, and its event comes live after the start. Every notification in the
 * snapshot was committed, with its event, before the log's newest was read
 * again (snapshot_until), so the events after that one are new to the
 * stream: the first of them ends the look-up. */
static gboolean
stream_snapshot_held (Stream               *stream,
                      const TriageEventRow *event)
{
  if (stream->snapshot_ids == NULL)
    return FALSE;
  if (event->id > stream->snapshot_until)
    {
      g_clear_pointer (&stream->snapshot_ids, g_hash_table_unref);
      return FALSE;
    }
  return event->notification_id != NULL && g_str_equal (event->type, "notification") &&
         g_hash_table_contains (stream->snapshot_ids, event->notification_id);
}

/* A durable event (of this server, or of any server when the store is
 * shared): to every stream of its user; a new notification pushed to one is
 * delivered. */
static void
on_store_event (const TriageEventRow *event,
                gpointer              data)
{
  TriageServer *self = data;
  GPtrArray *streams = self->streams ? triage_stream_list (self, event->user) : NULL;
  g_autofree char *frame = NULL;
  g_autoptr(GBytes) sse = NULL;
  gboolean pushed = FALSE;

  for (guint i = 0; streams != NULL && i < streams->len; i++)
    {
      Stream *stream = streams->pdata[i];

      /* Already in what a replay or a snapshot sent it, or of a protocol it
       * did not ask for. */
      if (event->id <= stream->last_event || stream_snapshot_held (stream, event) ||
          !triage_stream_wants (stream, event->protocol))
        continue;
      stream_send_event (stream, event, &frame, &sse);
      pushed = TRUE;
    }
  if (pushed && event->notification_id != NULL && g_str_equal (event->type, "notification"))
    {
      triage_metrics_delivery (g_get_real_time () - event->created_at);
      if (triage_store_is_shared (self->store))
        mark_delivered_soon (self, event->notification_id);
      /* Unless its batch marked it already (deliver_in_batch ()). */
      else if (self->premarked == NULL ||
               !g_hash_table_remove (self->premarked, event->notification_id))
        mark_delivered (self, event->notification_id);
    }
  triage_server_event_seen (self, event);
}

/* Every transition of notification @id (and its creation) goes to every
 * stream of every recipient (a creation only to those that take its
 * @protocol; -1 for a transition): logged in the batch, pushed once durable.
 * A creation passes the notification's JSON as it was stored, when the
 * caller has it. A change whose recipients (or JSON) cannot be read fails
 * the batch: it is stored with its event or not at all, never committed
 * unseen by the streams (a stream resumed from the log would miss it too). */
void
triage_server_publish (TriageServer *self,
                       const char   *id,
                       int           protocol,
                       int           status,
                       const char   *reason,
                       const char   *notification_json)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) users = triage_store_recipients (self->store, id, &error);
  g_autofree char *data = NULL;
  const char *type;

  if (users == NULL)
    {
      triage_server_fail_change (self, error, "the change of notification %s: its recipients "
                                 "cannot be read", id);
      return;
    }
  if (status == ATP_STATUS_CREATED)
    {
      if (notification_json != NULL)
        data = g_strdup (notification_json);
      else
        {
          g_autoptr(TriageNotificationRow) row = triage_store_get_notification (self->store, id,
                                                                                &error);
          g_autoptr(JsonNode) node = row ? notification_node (row, FALSE) : NULL;

          if (error != NULL)
            {
              triage_server_fail_change (self, error, "notification %s: it cannot be read back",
                                         id);
            }
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
  if (triage_store_is_shared (self->store) || !triage_store_in_batch (self->store))
    return;
  if (status != ATP_STATUS_CREATED)
    triage_stream_fresh_moved (self, id);
  else if (users[0] != NULL)
    triage_stream_remember_fresh (self, id, protocol);
}

/* The user's pending notifications, oldest first, each sent as a `notification`
 * with event id @id (a snapshot: resuming from @id gets what came after it).
 * The stream's last_event is where it starts in the log, read before: the
 * notifications committed since may come live too, and are sent once
 * (stream_snapshot_held ()). FALSE when they could not be read: the stream
 * is then ended (stream_end_unread ()). */
gboolean
triage_stream_send_snapshot (Stream *stream,
                             gint64  id)
{
  TriageServer *self = stream->server;
  /* Large pages, not counted (no total is sent here). */
  TriageListQuery query = { .user = stream->user, .status_mask = TRIAGE_PENDING_MASK,
                            .protocol_mask = stream->protocols, .limit = 1000 };
  g_autoptr(GPtrArray) created = g_ptr_array_new_with_free_func (g_free);
  /* Only another server can commit between the two reads. */
  g_autoptr(GHashTable) sent = triage_store_is_shared (self->store)
                               ? g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL)
                               : NULL;
  gboolean has_more = TRUE;

  while (has_more)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) rows = triage_store_list (self->store, &query, NULL, &has_more, &error);

      if (rows == NULL)
        {
          stream_end_unread (stream, error);
          return FALSE;
        }
      for (guint i = 0; i < rows->len; i++)
        {
          TriageNotificationRow *row = rows->pdata[i];
          g_autoptr(JsonNode) node = notification_node (row, FALSE);
          g_autofree char *data = NULL;

          query.after = row->seq;
          /* A damaged row (said once) is left out, not the rest of the snapshot. */
          if (node == NULL)
            continue;
          data = atp_json_to_string (node, NULL);
          triage_stream_send (stream, "notification", data, id);
          if (sent != NULL)
            g_hash_table_add (sent, g_strdup (row->id));
          if (row->status == ATP_STATUS_CREATED)
            g_ptr_array_add (created, g_strdup (row->id));
        }
    }
  /* Read after the snapshot (and before its deliveries log anything): the
   * events of what it sent are at most this one. None after the start: no
   * live event can repeat it. */
  if (sent != NULL && g_hash_table_size (sent) > 0)
    {
      stream->snapshot_until = triage_store_last_event (self->store);
      if (stream->snapshot_until > stream->last_event)
        stream->snapshot_ids = g_steal_pointer (&sent);
    }
  for (guint i = 0; i < created->len; i++)
    mark_delivered (self, created->pdata[i]);
  return TRUE;
}

/* ---- WebSocket ---- */

static void
acknowledge (Stream     *stream,
             const char *id)
{
  TriageServer *self = stream->server;
  g_autofree char *lower = g_ascii_strdown (id, -1);
  g_autoptr(GError) error = NULL;

  if (!triage_store_is_recipient (self->store, lower, stream->user, &error))
    {
      /* Not known to be missing: the client may acknowledge it again. */
      if (error != NULL)
        stream_send_error (stream, ATP_ERROR_STORAGE_UNAVAILABLE,
                           "Cannot read the notification now (the server's database did not "
                           "answer); try again later");
      else
        stream_send_error (stream, ATP_ERROR_NOTIFICATION_NOT_FOUND, "No such notification");
      return;
    }
  /* Acknowledging twice, or after the end, changes nothing and is no error:
   * the status update about the end is on its way. */
  if (triage_store_transition (self->store, lower,
                               (1u << ATP_STATUS_CREATED) | (1u << ATP_STATUS_DELIVERED),
                               ATP_STATUS_ACKNOWLEDGED, NULL, NULL, g_get_real_time (), &error))
    triage_server_changed (self, lower, ATP_STATUS_ACKNOWLEDGED, NULL);
  else if (error != NULL)
    stream_send_error (stream, ATP_ERROR_STORAGE_UNAVAILABLE,
                       "Cannot store the acknowledgement now (the server's database did not "
                       "answer); try again later");
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
  triage_stream_remove (stream);
}

/* A draining server takes no new stream: the client goes to another. */
gboolean
triage_stream_refuse_if_draining (TriageServer      *self,
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
char *
triage_stream_user (TriageServer      *self,
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
  if (triage_stream_refuse_if_draining (self, msg))
    return;
  user = triage_stream_user (self, msg, query);
  if (user == NULL)
    return;
  if (!triage_server_parse_protocols (msg, query, &protocols))
    {
      g_free (user);
      return;
    }
  /* A plain GET (a browser, curl) gets an error object, not libsoup's HTML
   * page; a handshake that libsoup finds wrong in its details still gets
   * libsoup's 400. */
  if (!soup_message_headers_header_equals (soup_server_message_get_request_headers (msg),
                                           "Upgrade", "websocket") ||
      !soup_message_headers_header_contains (soup_server_message_get_request_headers (msg),
                                             "Connection", "upgrade"))
    {
      g_free (user);
      reply_error (msg, ATP_ERROR_INVALID_REQUEST,
                   "This is a WebSocket stream: a WebSocket handshake is expected "
                   "(Upgrade: websocket); /api/v1/client/events serves the same as Server-Sent Events");
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
  if (soup_server_message_get_socket (msg) != NULL)
    stream->socket = g_object_ref (soup_server_message_get_socket (msg));
  soup_websocket_connection_set_max_incoming_payload_size (ws, READ_LIMIT);
  soup_websocket_connection_set_keepalive_interval (ws, 0);
  if (cap != 0 && triage_stream_count (self, user, TRUE) >= cap)
    {
      g_autofree char *message = g_strdup_printf ("Too many open streams for this account "
                                                  "(at most %u)", cap);

      triage_metrics_rate_limited (TRIAGE_LIMIT_WEBSOCKETS);
      stream_send_error (stream, ATP_ERROR_RATE_LIMIT_EXCEEDED, message);
      /* Kept alive until the close handshake is over. */
      g_signal_connect (ws, "closed", G_CALLBACK (g_object_unref), NULL);
      g_object_ref (ws);
      soup_websocket_connection_close (ws, 4029, "too many connections");
      triage_stream_free (stream);
      return;
    }
  triage_stream_add (self, stream);
  g_signal_connect (ws, "message", G_CALLBACK (on_ws_message), stream);
  g_signal_connect (ws, "closed", G_CALLBACK (on_ws_closed), stream);
  /* What the log held before the snapshot is in it. */
  stream->last_event = triage_store_last_event (self->store);
  if (g_object_get_data (G_OBJECT (msg), NO_SNAPSHOT_KEY) == NULL)
    triage_stream_send_snapshot (stream, 0);
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
  triage_server_setup_events (self);
  triage_store_set_event_func (self->store, on_store_event, self);
  if (!triage_store_is_shared (self->store))
    triage_server_setup_deliver_in_batch (self);
  triage_server_start_stream_ticks (self);
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
    stream_end (all->pdata[i], SOUP_WEBSOCKET_CLOSE_GOING_AWAY, "server draining: reconnect");
}

/* Frees what is left, once the main loop has stopped. */
void
triage_server_shutdown_streams (TriageServer *self)
{
  g_autoptr(GHashTable) streams = g_steal_pointer (&self->streams);
  GHashTableIter iter;
  GPtrArray *list;

  triage_store_set_event_func (self->store, NULL, NULL);
  triage_server_shutdown_deliver_in_batch (self);
  /* Delivery is a courtesy: what was pushed last stays created. */
  g_clear_handle_id (&self->pushed_source, g_source_remove);
  g_clear_pointer (&self->pushed, g_ptr_array_unref);
  g_clear_handle_id (&self->stream_tick, g_source_remove);
  g_clear_handle_id (&self->prune_source, g_source_remove);
  g_clear_handle_id (&self->forget_source, g_source_remove);
  g_hash_table_iter_init (&iter, streams);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &list))
    for (guint i = 0; i < list->len; i++)
      {
        Stream *stream = list->pdata[i];

        g_signal_handlers_disconnect_by_data (stream->ws ? (gpointer) stream->ws
                                                         : (gpointer) stream->sse, stream);
      }
}
