/* triage-server-requests.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every HTTP request, from the moment it has been read to the moment its
 * answer has been written (or the connection broke): how many are open (the
 * drain waits for them) and when each began. And the time a client has to
 * send a whole request (--request-timeout): a connection that sends half a
 * request and then nothing, or sits idle between requests, is closed once it
 * is up, so that clients that never finish cannot hold sockets and memory
 * for ever.
 */

#define G_LOG_DOMAIN "triage-server"

#include "triage-server-private.h"

static GQuark started_quark;   /* monotonic µs + 1 when the request was read; absent = not counted */
static GQuark reading_quark;   /* the --request-timeout source while the request is being read */

static void
remove_source (gpointer id)
{
  g_source_remove (GPOINTER_TO_UINT (id));
}

/* The request was not read in time: the connection is shut down, which ends
 * libsoup's read (the message is aborted and the connection dropped). */
static gboolean
read_timed_out (gpointer data)
{
  SoupServerMessage *msg = data;
  GSocket *socket;

  /* The source is done: the qdata must not remove it again. */
  g_object_steal_qdata (G_OBJECT (msg), reading_quark);
  socket = soup_server_message_get_socket (msg);
  g_debug ("a client did not send a whole request in time: closing its connection");
  if (socket != NULL)
    g_socket_shutdown (socket, TRUE, TRUE, NULL);
  return G_SOURCE_REMOVE;
}

/* A new request begins to be read (on a kept-alive connection: as soon as
 * the previous one is answered). The timer dies with the message. */
static void
on_request_started (SoupServer        *soup,
                    SoupServerMessage *msg,
                    gpointer           user_data)
{
  TriageServer *self = user_data;
  guint id = g_timeout_add_seconds (self->request_timeout, read_timed_out, msg);

  g_object_set_qdata_full (G_OBJECT (msg), reading_quark, GUINT_TO_POINTER (id), remove_source);
}

static void
on_request_read (SoupServer        *soup,
                 SoupServerMessage *msg,
                 gpointer           user_data)
{
  TriageServer *self = user_data;

  g_object_set_qdata (G_OBJECT (msg), reading_quark, NULL);   /* read in time */
  g_object_set_qdata (G_OBJECT (msg), started_quark,
                      GSIZE_TO_POINTER ((gsize) g_get_monotonic_time () + 1));
  self->inflight++;
}

/* The answer is written (or the connection broke). A WebSocket upgrade never
 * finishes as a request: its handler calls this once it has the connection. */
void
triage_server_request_done (TriageServer      *self,
                            SoupServerMessage *msg)
{
  if (g_object_steal_qdata (G_OBJECT (msg), started_quark) == NULL)
    return;
  self->inflight--;
}

static void
on_request_done (SoupServer        *soup,
                 SoupServerMessage *msg,
                 gpointer           user_data)
{
  triage_server_request_done (user_data, msg);
}

void
triage_server_setup_requests (TriageServer *self)
{
  G_STATIC_ASSERT (sizeof (gsize) >= sizeof (gint64));
  started_quark = g_quark_from_static_string ("triage-request-started");
  reading_quark = g_quark_from_static_string ("triage-request-reading");
  if (self->request_timeout > 0)
    g_signal_connect (self->soup, "request-started", G_CALLBACK (on_request_started), self);
  g_signal_connect (self->soup, "request-read", G_CALLBACK (on_request_read), self);
  g_signal_connect (self->soup, "request-finished", G_CALLBACK (on_request_done), self);
  g_signal_connect (self->soup, "request-aborted", G_CALLBACK (on_request_done), self);
}
