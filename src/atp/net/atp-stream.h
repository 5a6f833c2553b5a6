/* atp-stream.h — the client's live connection: WebSocket, heartbeats, reconnect, resync
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "atp-client.h"
#include "atp-notification.h"
#include "atp-response.h"

G_BEGIN_DECLS

/* Defaults of the tunable properties (docs/protocol.md). */
#define ATP_STREAM_DEFAULT_SILENCE_TIMEOUT_MS  60000
#define ATP_STREAM_DEFAULT_BACKOFF_INITIAL_MS   1000
#define ATP_STREAM_DEFAULT_BACKOFF_MAX_MS      60000

/**
 * AtpStreamState:
 * @ATP_STREAM_STATE_DISCONNECTED: not started, or stopped
 * @ATP_STREAM_STATE_CONNECTING: opening the WebSocket and resyncing; nothing
 *   is emitted until the resync is done
 * @ATP_STREAM_STATE_CONNECTED: resynced and live
 * @ATP_STREAM_STATE_RECONNECTING: the connection failed or was lost; the next
 *   attempt is at #AtpStream:next-retry-time (#AtpStream:retry-in-seconds
 *   from when the state was entered); #AtpStream:last-error says why
 * @ATP_STREAM_STATE_AUTH_FAILED: the server refused the credentials (401), or
 *   they are not a user's (403, e.g. a service key);
 *   no retries until the client's token changes or
 *   atp_stream_reconnect_now() is called
 * @ATP_STREAM_STATE_OFFLINE: as RECONNECTING, and the system reports no
 *   network to reach a remote server: the backoff goes on (the report can be
 *   wrong), and the next attempt is made at once when the network is back
 */
typedef enum
{
  ATP_STREAM_STATE_DISCONNECTED,
  ATP_STREAM_STATE_CONNECTING,
  ATP_STREAM_STATE_CONNECTED,
  ATP_STREAM_STATE_RECONNECTING,
  ATP_STREAM_STATE_AUTH_FAILED,
  ATP_STREAM_STATE_OFFLINE,
} AtpStreamState;

#define ATP_TYPE_STREAM_STATE (atp_stream_state_get_type ())
GType atp_stream_state_get_type (void) G_GNUC_CONST;

#define ATP_TYPE_STREAM (atp_stream_get_type ())

/**
 * AtpStream:
 *
 * Keeps a WebSocket to `/api/v1/client/stream` of an #AtpClient's server
 * and turns it into a dependable feed for the owner (the app's inbox):
 *
 * - answers every `heartbeat` with a `heartbeat_ack`; hearing nothing for
 *   #AtpStream:silence-timeout-ms (60 s) counts as a dead connection;
 * - reconnects with exponential backoff and full jitter (a random delay in
 *   [0, min(max, initial·2^n)], initial 1 s, max 60 s); a 401 or 403 stops retries
 *   (%ATP_STREAM_STATE_AUTH_FAILED); close codes 4029 (too many connections)
 *   and 1009 (message too big) retry with a message saying so;
 * - after every (re)connect, resyncs with the REST list of pending
 *   notifications before emitting anything. Frames that arrive during the
 *   resync are held back, then replayed; a notification already emitted on
 *   this stream is never emitted again while it stays pending;
 * - with #AtpStream:watch-system, reconnects at once when the network comes
 *   back (#GNetworkMonitor) and after the machine wakes (#AtpSleepMonitor:
 *   logind's PrepareForSleep(false) on the system bus), and reports
 *   %ATP_STREAM_STATE_OFFLINE instead of RECONNECTING while there is no
 *   network (only for remote servers: the local socket needs no network).
 *
 * Acknowledgement is the owner's decision: the stream sends `acknowledge`
 * only through atp_stream_acknowledge(), so a notification is acknowledged
 * once the owner holds it (stored, shown), not merely when it arrived.
 *
 * Signals, in the order an owner sees them after every (re)connect:
 * #AtpStream::notification-received for each pending notification new to
 * this stream, then #AtpStream::resynced with the whole pending set, then
 * the live feed (#AtpStream::notification-received,
 * #AtpStream::status-changed), and #AtpStream:state becomes
 * %ATP_STREAM_STATE_CONNECTED just before #AtpStream::resynced.
 *
 * Signals:
 * - `notification-received (AtpStream*, AtpNotification*)`: a pending
 *   notification new to this stream (from the resync or live);
 * - `status-changed (AtpStream*, AtpStatusUpdate*)`: a `status_update`
 *   frame, live only (what changed while disconnected shows in `resynced`);
 * - `resynced (AtpStream*, GPtrArray* of AtpNotification*)`: after every
 *   (re)connect, the server's complete pending set: whatever the owner holds
 *   as pending and is not in it was settled meanwhile and can be dropped.
 *   The array belongs to the stream; ref the items you keep.
 *
 * Properties: `client` (construct only), `state`, `last-error` (boxed
 * #GError, nullable), `next-retry-time`, `retry-in-seconds` (read-only),
 * `silence-timeout-ms`, `backoff-initial-ms`, `backoff-max-ms`,
 * `watch-system` (construct only, default %TRUE; tests turn it off).
 */
G_DECLARE_FINAL_TYPE (AtpStream, atp_stream, ATP, STREAM, GObject)

AtpStream      *atp_stream_new                  (AtpClient     *client);

AtpClient      *atp_stream_get_client           (AtpStream     *self);

/* Start connecting (and keep connected) / close and stop retrying. */
void            atp_stream_start                (AtpStream     *self);
void            atp_stream_stop                 (AtpStream     *self);

/*
 * Try now: ends a backoff wait, the offline wait or the auth-failed stop
 * (with a fresh backoff); does nothing while connecting or connected.
 */
void            atp_stream_reconnect_now        (AtpStream     *self);

/*
 * Send `acknowledge` for a notification the owner now holds. While not
 * connected it is kept and sent after the next resync if the notification
 * is still pending there. Acknowledging twice sends once.
 */
void            atp_stream_acknowledge          (AtpStream     *self,
                                                 const char    *notification_id);

AtpStreamState  atp_stream_get_state            (AtpStream     *self);
/* Why the stream is not connected (NULL when it is, or before any failure). */
const GError   *atp_stream_get_last_error       (AtpStream     *self);
/* In RECONNECTING: when the next attempt is made (g_get_monotonic_time()
 * scale, µs), else 0. */
gint64          atp_stream_get_next_retry_time  (AtpStream     *self);
/* In RECONNECTING: the wait chosen, rounded up to whole seconds, else 0. */
guint           atp_stream_get_retry_in_seconds (AtpStream     *self);

/* Tunables (tests make them short). Values take effect at the next use. */
void            atp_stream_set_silence_timeout  (AtpStream     *self,
                                                 guint          milliseconds);
void            atp_stream_set_backoff          (AtpStream     *self,
                                                 guint          initial_ms,
                                                 guint          max_ms);

G_END_DECLS
