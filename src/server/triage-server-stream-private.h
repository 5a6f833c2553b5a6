/* triage-server-stream-private.h — what the stream files share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One open client stream (a WebSocket or an SSE response) and what the
 * files of the streams share: triage-server-stream.c (the table of streams,
 * the events pushed, the WebSocket), triage-server-stream-sse.c (Server-Sent
 * Events), triage-server-stream-tick.c (heartbeats, pings, idle
 * connections, the event log's pruning) and triage-server-stream-deliver.c
 * (new requests delivered in the batch that makes them).
 */

#pragma once

#include "triage-server-private.h"

G_BEGIN_DECLS

typedef struct
{
  TriageServer            *server;
  char                    *user;
  SoupWebsocketConnection *ws;          /* a WebSocket stream, or */
  GSocket                 *socket;      /* its connection's (triage_server_cork_turn ()) */
  SoupServerMessage       *sse;         /* an SSE response */
  GSource                 *hangup;      /* its client's end of the connection (SSE) */
  gint64                   last_heard;  /* monotonic µs: the client's last frame (WebSocket) */
  gint64                   last_beat;   /* monotonic µs: our last heartbeat or ping */
  gint64                   last_event;  /* the log's id the stream is up to (a replay or snapshot) */
  guint                    protocols;   /* bit per AtpProtocol: the requests it is sent (protocols=) */
  /* The notifications its snapshot sent, while a live event may be one of
   * them: until an event after snapshot_until (the log's newest once the
   * snapshot was read) comes, or NULL. */
  GHashTable              *snapshot_ids;
  gint64                   snapshot_until;
} Stream;

void       triage_stream_free                (Stream            *stream);
GPtrArray *triage_stream_list                (TriageServer      *self,
                                              const char        *user);
guint      triage_stream_count               (TriageServer      *self,
                                              const char        *user,
                                              gboolean           websocket);
void       triage_stream_add                 (TriageServer      *self,
                                              Stream            *stream);
void       triage_stream_remove              (Stream            *stream);
void       triage_stream_send                (Stream            *stream,
                                              const char        *type,
                                              const char        *data,
                                              gint64             id);
gboolean   triage_stream_wants               (Stream            *stream,
                                              int                protocol);
gboolean   triage_stream_send_snapshot       (Stream            *stream,
                                              gint64             id);
gboolean   triage_stream_refuse_if_draining  (TriageServer      *self,
                                              SoupServerMessage *msg);
char      *triage_stream_user                (TriageServer      *self,
                                              SoupServerMessage *msg,
                                              GHashTable        *query);

/* triage-server-stream-sse.c */
GBytes    *triage_stream_sse_text            (const char        *type,
                                              const char        *data,
                                              gint64             id);
void       triage_stream_sse_append          (Stream            *stream,
                                              GBytes            *text);
void       triage_stream_sse_write           (Stream            *stream,
                                              const char        *type,
                                              const char        *data,
                                              gint64             id);
void       triage_server_setup_events        (TriageServer      *self);

/* triage-server-stream-deliver.c */
void       triage_server_setup_deliver_in_batch    (TriageServer *self);
void       triage_server_shutdown_deliver_in_batch (TriageServer *self);
void       triage_stream_remember_fresh      (TriageServer      *self,
                                              const char        *id,
                                              int                protocol);
void       triage_stream_fresh_moved         (TriageServer      *self,
                                              const char        *id);

/* triage-server-stream-tick.c */
void       triage_server_start_stream_ticks  (TriageServer      *self);

G_END_DECLS
