/* triage-server-requests.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every HTTP request, from the moment it has been read to the moment its
 * answer has been written (or the connection broke): how many are open (the
 * drain waits for them) and when each began.
 */

#define G_LOG_DOMAIN "triage-server"

#include "triage-server-private.h"

static GQuark started_quark;   /* monotonic µs + 1 when the request was read; absent = not counted */

static void
on_request_read (SoupServer        *soup,
                 SoupServerMessage *msg,
                 gpointer           user_data)
{
  TriageServer *self = user_data;

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
  g_signal_connect (self->soup, "request-read", G_CALLBACK (on_request_read), self);
  g_signal_connect (self->soup, "request-finished", G_CALLBACK (on_request_done), self);
  g_signal_connect (self->soup, "request-aborted", G_CALLBACK (on_request_done), self);
}
