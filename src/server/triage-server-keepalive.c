/* triage-server-keepalive.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A kept-alive connection between two requests.
 *
 * libsoup 3.2 (Debian 12's) never closes a kept-alive connection that its
 * client closes between requests: the message that waits for the next
 * request has no completion callback until its first byte arrives, so the
 * end of the stream finishes it without a word to the server, and nothing
 * disconnects the connection (later libsoup releases restructured this).
 * Every HTTP/1.1 client that sends a request and then goes away — curl,
 * triage-ask, an agent's one-off POST — left a file descriptor open for
 * good, until accept() failed and the server answered nobody.
 *
 * So once an answer is written on a connection that stays open, this watches
 * its socket: the next request's first byte ends the watch (libsoup reads
 * it, and its request-started ends the watch), the client's end of the
 * stream or an error closes the socket, and so does --request-timeout of
 * idleness, as it would for a request sent only in part.
 *
 * The watch begins once the connection has been idle for WATCH_DELAY_MS: a
 * client that keeps its connection busy (an agent posting, a benchmark's
 * closed loop) sends its next request before, and its connection is never
 * watched. Watched after each answer, each request added a socket to the
 * main loop's poll and took it out again, and GLib wakes its loop for each
 * (an eventfd write and an extra turn of the loop: a third of the server's
 * poll () calls under full load, bench/server/bench-cpu.c). A client that
 * goes away between requests has its socket closed WATCH_DELAY_MS later.
 */

#define G_LOG_DOMAIN "triage-server"

#include <errno.h>
#include <sys/socket.h>

#include "triage-server-private.h"

typedef struct
{
  GSource              *readable;
  TriageServerDeadline *idle;   /* --request-timeout of idleness */
} Watch;

#define WATCH_DELAY_MS 100

static GQuark watch_quark;     /* on a GSocket: its Watch */
static GQuark started_quark;   /* on a GSocket: how many requests began on it */

static void
watch_free (gpointer data)
{
  Watch *watch = data;

  if (watch->readable != NULL)
    {
      g_source_destroy (watch->readable);
      g_source_unref (watch->readable);
    }
  g_clear_pointer (&watch->idle, triage_server_deadline_free);
  g_free (watch);
}

static void
unwatch (GSocket *socket)
{
  g_object_set_qdata (G_OBJECT (socket), watch_quark, NULL);
}

/* libsoup is done with this connection but will never close it. */
static void
close_socket (GSocket    *socket,
              const char *why)
{
  g_object_ref (socket);
  unwatch (socket);
  g_debug ("closing a kept-alive connection: %s", why);
  g_socket_close (socket, NULL);
  g_object_unref (socket);
}

static gboolean
readable (GSocket      *socket,
          GIOCondition  condition,
          gpointer      data)
{
  char byte;
  gssize n;

  if (g_socket_is_closed (socket))
    {
      unwatch (socket);
      return G_SOURCE_REMOVE;
    }
  n = recv (g_socket_get_fd (socket), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  /* The next request (or, under TLS, a record that may be one): libsoup
   * reads it; its request-started ends this watch. */
  if (n > 0 || (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)))
    return G_SOURCE_CONTINUE;
  close_socket (socket, n == 0 ? "the client closed it" : g_strerror (errno));
  return G_SOURCE_REMOVE;
}

static void
idle_too_long (GObject *owner)
{
  close_socket (G_SOCKET (owner), "idle for longer than --request-timeout");
}

typedef struct
{
  TriageServer *server;
  GSocket      *socket;
  gsize         started;   /* requests begun on it when the answer was written */
  gint64        due;       /* monotonic µs: when its watch begins */
} Pending;

static GQueue pending_watches = G_QUEUE_INIT;   /* Pending*, oldest first */
static guint pending_source;

static gsize
requests_started (GSocket *socket)
{
  return GPOINTER_TO_SIZE (g_object_get_qdata (G_OBJECT (socket), started_quark));
}

/* Once the connection has been idle for WATCH_DELAY_MS: a connection
 * libsoup closed itself (not kept alive, or broken) needs no watch, nor
 * one on which the next request has begun meanwhile. */
static void
start_watch (Pending *pending)
{
  GSocket *socket = pending->socket;
  Watch *watch;

  if (!g_socket_is_closed (socket) && requests_started (socket) == pending->started)
    {
      watch = g_new0 (Watch, 1);
      watch->readable = g_socket_create_source (socket, G_IO_IN | G_IO_HUP | G_IO_ERR, NULL);
      g_source_set_callback (watch->readable, G_SOURCE_FUNC (readable), NULL, NULL);
      g_source_attach (watch->readable, NULL);
      watch->idle = triage_server_deadline_new (pending->server, G_OBJECT (socket), idle_too_long);
      g_object_set_qdata_full (G_OBJECT (socket), watch_quark, watch, watch_free);
    }
  g_object_unref (socket);
  g_free (pending);
}

static gboolean
watches_due (gpointer data)
{
  gint64 now = g_get_monotonic_time ();
  Pending *pending;

  while ((pending = g_queue_peek_head (&pending_watches)) != NULL && pending->due <= now)
    start_watch (g_queue_pop_head (&pending_watches));
  if (g_queue_is_empty (&pending_watches))
    {
      pending_source = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

void
triage_server_setup_keepalive (void)
{
  watch_quark = g_quark_from_static_string ("triage-keepalive-watch");
  started_quark = g_quark_from_static_string ("triage-keepalive-started");
}

/* @msg's answer is written. */
void
triage_server_keepalive_watch (TriageServer      *self,
                               SoupServerMessage *msg)
{
  GSocket *socket = soup_server_message_get_socket (msg);
  Pending *pending;

  if (socket == NULL)
    return;
  pending = g_new (Pending, 1);
  pending->socket = g_object_ref (socket);
  pending->server = self;
  pending->started = requests_started (socket);
  pending->due = g_get_monotonic_time () + WATCH_DELAY_MS * 1000;
  g_queue_push_tail (&pending_watches, pending);
  /* Not at idle priority: a busy server would never get to it. */
  if (pending_source == 0)
    pending_source = g_timeout_add (WATCH_DELAY_MS, watches_due, NULL);
}

/* A request begins on @msg's connection: libsoup is reading again. */
void
triage_server_keepalive_unwatch (SoupServerMessage *msg)
{
  GSocket *socket = soup_server_message_get_socket (msg);

  if (socket == NULL)
    return;
  g_object_set_qdata (G_OBJECT (socket), started_quark,
                      GSIZE_TO_POINTER (requests_started (socket) + 1));
  unwatch (socket);
}
