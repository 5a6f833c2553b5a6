/* pg-proxy-test-util.h — a TCP proxy to the tests' PostgreSQL that can
 * stall, and can answer new connections itself: the startup exchange, then
 * silence
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For test-server-pg-reconnect.c. tests/chaos/partition-proxy.py
 * (triage-test-proxy.c) stalls and heals too, but has no mode that answers
 * the startup exchange itself, and its connection counts cannot be read
 * from C (triage_test_proxy_command () expects "ok COMMAND" back).
 */

#pragma once

#include <string.h>

#include <gio/gio.h>
#include <gio/gunixsocketaddress.h>

/* ---- the proxy ---- */

/* PostgreSQL's codes in a first packet that is not a startup packet. */
#define SSL_REQUEST_CODE    80877103
#define GSSENC_REQUEST_CODE 80877104

/* It runs in a thread of its own (the test's main loop is not always
 * running: the helpers that start a server wait for it without it); the
 * test sets @mute and @stalled_below and reads @answered, atomically. */
typedef struct
{
  GSocketService *service;
  guint16         port;
  char           *upstream;      /* the database's Unix socket */
  GMainContext   *context;
  GMainLoop      *loop;
  GThread        *thread;
  gint            mute;          /* new connections: answered here, then silence */
  gint            answered;      /* connections answered so far */
  gint            accepted;
  gint            stalled_below; /* the connections accepted before pass nothing */
  GPtrArray      *links;         /* PgProxyLink */
} PgProxy;

typedef struct
{
  PgProxy        *proxy;
  gint          serial;
  GIOStream    *client;
  GIOStream    *upstream;
  gboolean      stalled;       /* nothing goes either way */
  GCancellable *cancellable;
  guint8        head[8];
  guint8       *body;
} PgProxyLink;

typedef struct
{
  PgProxyLink          *link;
  GCancellable  *cancellable;   /* the link's: cancelled once it is freed */
  GInputStream  *from;
  GOutputStream *to;
  guint8         buffer[16384];
} PgProxyPump;

static inline void
pg_proxy_link_free (gpointer data)
{
  PgProxyLink *link = data;

  g_cancellable_cancel (link->cancellable);
  if (link->client != NULL)
    g_io_stream_close (link->client, NULL, NULL);
  if (link->upstream != NULL)
    g_io_stream_close (link->upstream, NULL, NULL);
  g_clear_object (&link->client);
  g_clear_object (&link->upstream);
  g_clear_object (&link->cancellable);
  g_free (link->body);
  g_free (link);
}

static inline gboolean
pg_proxy_link_stalled (PgProxyLink *link)
{
  return link->stalled || link->serial < g_atomic_int_get (&link->proxy->stalled_below);
}

/* The link is over: closed, unless stalled (a partition tells nobody). */
static inline void
pg_proxy_link_end (PgProxyLink *link)
{
  if (pg_proxy_link_stalled (link))
    return;
  g_ptr_array_remove (link->proxy->links, link);
}

static inline void pg_proxy_pump_read (PgProxyPump *pump);

/* The pump is done: the link ends with it, unless it was freed. */
static inline void
pg_proxy_pump_end (PgProxyPump *pump)
{
  if (!g_cancellable_is_cancelled (pump->cancellable))
    pg_proxy_link_end (pump->link);
  g_object_unref (pump->cancellable);
  g_free (pump);
}

static inline void
pg_proxy_pump_written_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      data)
{
  PgProxyPump *pump = data;

  if (!g_output_stream_write_all_finish (G_OUTPUT_STREAM (source), result, NULL, NULL))
    {
      pg_proxy_pump_end (pump);
      return;
    }
  pg_proxy_pump_read (pump);
}

static inline void
pg_proxy_pump_read_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  PgProxyPump *pump = data;
  gssize n = g_input_stream_read_finish (G_INPUT_STREAM (source), result, NULL);

  if (n <= 0)
    {
      pg_proxy_pump_end (pump);
      return;
    }
  if (pg_proxy_link_stalled (pump->link))
    {
      /* Swallowed. */
      pg_proxy_pump_read (pump);
      return;
    }
  g_output_stream_write_all_async (pump->to, pump->buffer, (gsize) n, G_PRIORITY_DEFAULT,
                                   pump->cancellable, pg_proxy_pump_written_cb, pump);
}

static inline void
pg_proxy_pump_read (PgProxyPump *pump)
{
  g_input_stream_read_async (pump->from, pump->buffer, sizeof pump->buffer, G_PRIORITY_DEFAULT,
                             pump->cancellable, pg_proxy_pump_read_cb, pump);
}

static inline void
pg_proxy_pump_start (PgProxyLink      *link,
            GIOStream *from,
            GIOStream *to)
{
  PgProxyPump *pump = g_new0 (PgProxyPump, 1);

  pump->link = link;
  pump->cancellable = g_object_ref (link->cancellable);
  pump->from = g_io_stream_get_input_stream (from);
  pump->to = g_io_stream_get_output_stream (to);
  pg_proxy_pump_read (pump);
}

/* ---- a connection answered by the proxy: startup, then silence ---- */

static inline void pg_proxy_answer_packet (PgProxyLink *link);

static inline void
pg_proxy_answer_written_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      data)
{
  PgProxyLink *link = data;

  if (!g_output_stream_write_all_finish (G_OUTPUT_STREAM (source), result, NULL, NULL))
    return;
  if (link->body == NULL)
    {
      /* The startup packet was answered: the client is connected. */
      g_atomic_int_inc (&link->proxy->answered);
      /* The test waits for it in its main loop. */
      g_main_context_wakeup (NULL);
      link->stalled = TRUE;
      pg_proxy_pump_start (link, link->client, link->client);
      return;
    }
  g_clear_pointer (&link->body, g_free);
  pg_proxy_answer_packet (link);
}

static inline void
pg_proxy_answer_body_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      data)
{
  /* AuthenticationOk, then ReadyForQuery (idle). */
  static const guint8 ready[] = { 'R', 0, 0, 0, 8, 0, 0, 0, 0, 'Z', 0, 0, 0, 5, 'I' };
  static const guint8 no[] = { 'N' };
  PgProxyLink *link = data;
  guint32 code;

  if (!g_input_stream_read_all_finish (G_INPUT_STREAM (source), result, NULL, NULL))
    return;
  memcpy (&code, link->head + 4, 4);
  code = GUINT32_FROM_BE (code);
  if (code == SSL_REQUEST_CODE || code == GSSENC_REQUEST_CODE)
    g_output_stream_write_all_async (g_io_stream_get_output_stream (link->client), no, sizeof no,
                                     G_PRIORITY_DEFAULT, link->cancellable, pg_proxy_answer_written_cb,
                                     link);
  else
    {
      g_clear_pointer (&link->body, g_free);
      g_output_stream_write_all_async (g_io_stream_get_output_stream (link->client), ready,
                                       sizeof ready, G_PRIORITY_DEFAULT, link->cancellable,
                                       pg_proxy_answer_written_cb, link);
    }
}

static inline void
pg_proxy_answer_head_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      data)
{
  PgProxyLink *link = data;
  guint32 length;

  if (!g_input_stream_read_all_finish (G_INPUT_STREAM (source), result, NULL, NULL))
    return;
  memcpy (&length, link->head, 4);
  length = GUINT32_FROM_BE (length);
  g_assert_cmpuint (length, >=, 8);
  g_assert_cmpuint (length, <=, 10000);
  /* The code is read with the head; the rest (a startup packet's
   * parameters) is read and dropped. */
  link->body = g_malloc (length - 8 + 1);
  g_input_stream_read_all_async (G_INPUT_STREAM (source), link->body, length - 8,
                                 G_PRIORITY_DEFAULT, link->cancellable, pg_proxy_answer_body_cb, link);
}

/* Reads a packet of the startup exchange (length, code, the rest). */
static inline void
pg_proxy_answer_packet (PgProxyLink *link)
{
  g_input_stream_read_all_async (g_io_stream_get_input_stream (link->client), link->head,
                                 sizeof link->head, G_PRIORITY_DEFAULT, link->cancellable,
                                 pg_proxy_answer_head_cb, link);
}

static inline gboolean
pg_proxy_on_incoming (GSocketService    *service,
             GSocketConnection *connection,
             GObject           *source,
             gpointer           data)
{
  PgProxy *proxy = data;
  PgProxyLink *link = g_new0 (PgProxyLink, 1);
  g_autoptr(GSocketClient) client = NULL;
  g_autoptr(GSocketAddress) address = NULL;
  g_autoptr(GError) error = NULL;

  link->proxy = proxy;
  link->serial = g_atomic_int_add (&proxy->accepted, 1);
  link->client = G_IO_STREAM (g_object_ref (connection));
  link->cancellable = g_cancellable_new ();
  g_ptr_array_add (proxy->links, link);
  if (g_atomic_int_get (&proxy->mute))
    {
      pg_proxy_answer_packet (link);
      return TRUE;
    }
  client = g_socket_client_new ();
  address = g_unix_socket_address_new (proxy->upstream);
  link->upstream = G_IO_STREAM (g_socket_client_connect (client, G_SOCKET_CONNECTABLE (address),
                                                         NULL, &error));
  g_assert_no_error (error);
  pg_proxy_pump_start (link, link->client, link->upstream);
  pg_proxy_pump_start (link, link->upstream, link->client);
  return TRUE;
}

static inline gpointer
pg_proxy_thread (gpointer data)
{
  PgProxy *proxy = data;

  g_main_context_push_thread_default (proxy->context);
  g_signal_connect (proxy->service, "incoming", G_CALLBACK (pg_proxy_on_incoming), proxy);
  g_socket_service_start (proxy->service);
  g_main_loop_run (proxy->loop);
  g_socket_service_stop (proxy->service);
  g_socket_listener_close (G_SOCKET_LISTENER (proxy->service));
  g_clear_pointer (&proxy->links, g_ptr_array_unref);
  /* What the links' cancellation queued. */
  while (g_main_context_iteration (proxy->context, FALSE))
    ;
  g_main_context_pop_thread_default (proxy->context);
  return NULL;
}

static inline PgProxy *
pg_proxy_new (const char *upstream)
{
  PgProxy *proxy = g_new0 (PgProxy, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;

  proxy->upstream = g_strdup (upstream);
  proxy->links = g_ptr_array_new_with_free_func (pg_proxy_link_free);
  proxy->context = g_main_context_new ();
  proxy->loop = g_main_loop_new (proxy->context, FALSE);
  /* Started by its thread: its accepts run in that thread's context. */
  proxy->service = g_object_new (G_TYPE_SOCKET_SERVICE, "active", FALSE, NULL);
  g_socket_listener_add_address (G_SOCKET_LISTENER (proxy->service), address, G_SOCKET_TYPE_STREAM,
                                 G_SOCKET_PROTOCOL_TCP, NULL, &bound, &error);
  g_assert_no_error (error);
  proxy->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  proxy->thread = g_thread_new ("proxy", pg_proxy_thread, proxy);
  return proxy;
}

static inline void
pg_proxy_free (PgProxy *proxy)
{
  g_main_loop_quit (proxy->loop);
  g_thread_join (proxy->thread);
  g_clear_object (&proxy->service);
  g_main_loop_unref (proxy->loop);
  g_main_context_unref (proxy->context);
  g_free (proxy->upstream);
  g_free (proxy);
}

/* The open connections pass nothing from now on, and new ones are
 * accepted but get nothing through (a partition)... */
static inline void
pg_proxy_stall (PgProxy *proxy)
{
  g_atomic_int_set (&proxy->stalled_below, G_MAXINT);
}

/* ... until now, for new connections (the open ones stay dead, as a real
 * peer would have given up on them); nor are they answered here. */
static inline void
pg_proxy_heal (PgProxy *proxy)
{
  g_atomic_int_set (&proxy->mute, FALSE);
  g_atomic_int_set (&proxy->stalled_below, g_atomic_int_get (&proxy->accepted));
}
