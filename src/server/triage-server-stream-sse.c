/* triage-server-stream-sse.c — the Server-Sent Events stream
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GET /api/v1/client/events (profile §5): events `notification`,
 * `status_update`, `error` and `ping` with the bare object as `data`, each
 * with the id of the user's event log, so a client resumes with
 * Last-Event-ID (or ?last_event_id=) from any event the log still holds;
 * from further back it is sent the pending set again.
 */

#define G_LOG_DOMAIN "triage-server-stream"
#define _GNU_SOURCE   /* POLLRDHUP */

#include <poll.h>
#include <string.h>

#include "triage-metrics.h"
#include "triage-server-stream-private.h"

#define EVENTS_PATH  "/api/v1/client/events"
#define MAX_REPLAY   10000                     /* events replayed on resume, else a snapshot */

GBytes *
triage_stream_sse_text (const char *type,
          const char *data,
          gint64      id)
{
  char *text;

  /* The data is single-line JSON (no raw newlines), so one data: line holds it. */
  /* Joined, not printed (as the WebSocket frame, frame_text ()). */
  if (id > 0)
    {
      char number[32];

      g_snprintf (number, sizeof number, "%" G_GINT64_FORMAT, id);
      text = g_strconcat ("id: ", number, "\nevent: ", type, "\ndata: ", data, "\n\n", NULL);
    }
  else
    text = g_strconcat ("event: ", type, "\ndata: ", data, "\n\n", NULL);
  return g_bytes_new_take (text, strlen (text));
}

void
triage_stream_sse_append (Stream *stream,
            GBytes *text)
{
  soup_message_body_append_bytes (soup_server_message_get_response_body (stream->sse), text);
  soup_server_message_unpause (stream->sse);
}

void
triage_stream_sse_write (Stream     *stream,
           const char *type,
           const char *data,
           gint64      id)
{
  g_autoptr(GBytes) text = triage_stream_sse_text (type, data, id);

  triage_stream_sse_append (stream, text);
}

static void
on_sse_finished (SoupServerMessage *msg,
                 gpointer           user_data)
{
  Stream *stream = user_data;

  g_signal_handlers_disconnect_by_data (msg, stream);
  triage_stream_remove (stream);
}

/* The client closed its end: the stream's slot (one of the user's cap) is
 * free at once. libsoup 3.2 learns it only when it next writes, and an SSE
 * response writes only the next event or ping (--heartbeat-interval, 30 s):
 * meanwhile a client that reconnected ten times was refused 429. The
 * response is ended for libsoup to close the connection. */
static gboolean
on_sse_hangup (GSocket      *socket,
               GIOCondition  condition,
               gpointer      user_data)
{
  Stream *stream = user_data;
  g_autoptr(SoupServerMessage) msg = g_object_ref (stream->sse);

  g_debug ("an event stream's client closed its connection");
  g_signal_handlers_disconnect_by_data (msg, stream);
  triage_stream_remove (stream);
  soup_message_body_complete (soup_server_message_get_response_body (msg));
  soup_server_message_unpause (msg);
  return G_SOURCE_REMOVE;
}

/* Watches the end of @stream's connection: POLLRDHUP (Linux) says the peer
 * shut its side down, whatever it sent before (a TLS close_notify), and
 * never wakes the loop for data (a request pipelined behind the stream,
 * which libsoup reads once the response ends). */
static void
watch_hangup (Stream *stream)
{
  GSocket *socket = soup_server_message_get_socket (stream->sse);

  if (socket == NULL)
    return;
  stream->hangup = g_socket_create_source (socket, G_IO_HUP | G_IO_ERR | (GIOCondition) POLLRDHUP,
                                           NULL);
  g_source_set_callback (stream->hangup, G_SOURCE_FUNC (on_sse_hangup), stream, NULL);
  g_source_attach (stream->hangup, NULL);
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
  if (triage_stream_refuse_if_draining (self, msg))
    return;
  if ((user = triage_stream_user (self, msg, query)) == NULL ||
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
  if (cap != 0 && triage_stream_count (self, user, FALSE) >= cap)
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
  triage_stream_add (self, stream);
  g_signal_connect (msg, "finished", G_CALLBACK (on_sse_finished), stream);
  watch_hangup (stream);

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

          /* No data: what is stored of it does not read (the store said so);
           * left out, as a list or a snapshot leaves a damaged row out. */
          if (event->data == NULL && event->notification_id != NULL)
            triage_server_log_unreadable (event->notification_id);
          else if (event->data == NULL)
            triage_log_failure ("event %" G_GINT64_FORMAT " of the log: its stored data does not "
                                "read as JSON on one line (a damaged row?); left out of a replay",
                                event->id);
          else if (triage_stream_wants (stream, event->protocol))
            triage_stream_sse_write (stream, event->type, event->data, event->id);
          stream->last_event = event->id;
        }
    }
  else
    {
      stream->last_event = triage_store_last_event (self->store);
      if (!triage_stream_send_snapshot (stream, stream->last_event))
        return;
    }
  /* Headers go out now even when there is nothing to say yet. */
  triage_stream_sse_write (stream, "ping", "{}", 0);
}

void
triage_server_setup_events (TriageServer *self)
{
  soup_server_add_handler (self->soup, EVENTS_PATH, events_handler, self, NULL);
}
