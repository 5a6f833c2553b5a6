/* atp-stream-private.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libsoup/soup.h>

#include "atp-error.h"
#include "atp-message.h"
#include "atp-sleep-monitor.h"
#include "atp-stream.h"

G_BEGIN_DECLS

/*
 * AtpStream spans two files: atp-stream.c (the object, its state, the
 * backoff between attempts, the watch on the network and on sleep) and
 * atp-stream-connection.c (one connection attempt: the WebSocket, the
 * resync and the frames).
 */

struct _AtpStream
{
  GObject                  parent_instance;

  AtpClient               *client;
  gulong                   token_handler;

  AtpStreamState           state;
  GError                  *last_error;
  gint64                   next_retry_time;
  guint                    retry_in_seconds;

  guint                    silence_timeout_ms;
  guint                    backoff_initial_ms;
  guint                    backoff_max_ms;
  gboolean                 watch_system;

  gboolean                 started;
  guint                    attempt;         /* failures in a row, for the backoff */
  guint                    generation;      /* bumped whenever a connection ends */
  guint                    retry_id;
  guint                    silence_id;
  GCancellable            *cancellable;     /* the current attempt */
  SoupWebsocketConnection *connection;
  gboolean                 resyncing;
  GPtrArray               *held;            /* AtpMessage*, frames that came during the resync */
  GError                  *error_frame;     /* the last `error` frame of this connection */
  gboolean                 said_unreadable_heartbeat;  /* logged once a stream */

  GHashTable              *emitted;         /* ids emitted and still pending */
  GHashTable              *acks;            /* ids the owner acknowledged, still pending */

  GNetworkMonitor         *monitor;
  gulong                   network_handler;
  AtpSleepMonitor         *sleep_monitor;
  gulong                   woke_handler;
};

/* atp-stream.c */
void     atp_stream_set_state            (AtpStream        *self,
                                          AtpStreamState    state);
void     atp_stream_set_last_error       (AtpStream        *self,
                                          const GError     *error);
void     atp_stream_set_retry            (AtpStream        *self,
                                          gint64            next_retry_time,
                                          guint             retry_in_seconds);
void     atp_stream_schedule_retry       (AtpStream        *self,
                                          const GError     *error);
void     atp_stream_fail_with            (AtpStream        *self,
                                          AtpErrorCode      code,
                                          const char       *format,
                                          ...) G_GNUC_PRINTF (3, 4);
void     atp_stream_emit_notification    (AtpStream        *self,
                                          AtpNotification  *notification);
void     atp_stream_emit_status_changed  (AtpStream        *self,
                                          AtpStatusUpdate  *update);
void     atp_stream_emit_resynced        (AtpStream        *self,
                                          GPtrArray        *pending);

/* atp-stream-connection.c */
void     atp_stream_connect_now          (AtpStream        *self);
void     atp_stream_close_connection     (AtpStream        *self,
                                          gushort           code);
void     atp_stream_send_acknowledge     (AtpStream        *self,
                                          const char       *notification_id);

G_END_DECLS
