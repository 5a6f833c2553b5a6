/* triage-server-cork.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Small writes that go out together leave in one TCP segment (TCP_CORK).
 *
 * libsoup writes an answer's headers and its body with a send () each, and
 * every WebSocket frame with one of its own: a group commit of ten
 * notifications ended in ten frames to a person's stream, ten status
 * updates, and twenty sends for the ten 201s. On Linux each send of a
 * socket with TCP_NODELAY is a segment of its own, and the kernel's work
 * for a segment (the transmit, and on loopback the receiver's side too, run
 * by the sender) was a third of the server's system time under full load
 * (bench/server/bench-cpu.c). A socket corked while the writes of one turn
 * are made sends them as one segment when it is uncorked (and full
 * segments at once meanwhile, as ever): nothing is held past the writes
 * that belong together.
 *
 * - triage_server_cork_turn (): the frames pushed to a stream in one turn
 *   of the main loop (the events of a commit), uncorked at the start of the
 *   next turn (a high-priority idle), before anything else runs.
 * - triage_server_cork_answer (): an answer held for a group commit, from
 *   its unpause until libsoup has written it (request-finished or aborted).
 *
 * The kernel sends what a cork holds after 200 ms in any case.
 */

#define G_LOG_DOMAIN "triage-server"

#include <netinet/in.h>
#include <netinet/tcp.h>

#include "triage-server-private.h"

static GPtrArray *corked;   /* GSocket*: corked for this turn */
static guint uncork_source;
static GQuark answer_quark; /* on a SoupServerMessage: its corked GSocket */

static gboolean
set_cork (GSocket *socket,
          int      on)
{
  if (g_socket_is_closed (socket) || g_socket_get_family (socket) == G_SOCKET_FAMILY_UNIX)
    return FALSE;
  return g_socket_set_option (socket, IPPROTO_TCP, TCP_CORK, on, NULL);
}

static void
uncork (gpointer data)
{
  GSocket *socket = data;

  set_cork (socket, 0);
  g_object_unref (socket);
}

static gboolean
uncork_turn (gpointer data)
{
  g_autoptr(GPtrArray) sockets = g_steal_pointer (&corked);

  uncork_source = 0;
  return G_SOURCE_REMOVE;
}

/* What is written to @socket until this turn of the main loop ends goes out
 * together. */
void
triage_server_cork_turn (GSocket *socket)
{
  if (socket == NULL)
    return;
  if (corked != NULL)
    for (guint i = 0; i < corked->len; i++)
      if (corked->pdata[i] == socket)
        return;
  if (!set_cork (socket, 1))
    return;
  if (corked == NULL)
    corked = g_ptr_array_new_with_free_func (uncork);
  g_ptr_array_add (corked, g_object_ref (socket));
  if (uncork_source == 0)
    uncork_source = g_idle_add_full (G_PRIORITY_HIGH, uncork_turn, NULL, NULL);
}

/* @msg's answer (its headers and body) goes out together: corked until
 * triage_server_uncork_answer (). */
void
triage_server_cork_answer (SoupServerMessage *msg)
{
  GSocket *socket = soup_server_message_get_socket (msg);

  if (answer_quark == 0)
    answer_quark = g_quark_from_static_string ("triage-corked-answer");
  if (socket == NULL || g_object_get_qdata (G_OBJECT (msg), answer_quark) != NULL ||
      !set_cork (socket, 1))
    return;
  g_object_set_qdata_full (G_OBJECT (msg), answer_quark, g_object_ref (socket), uncork);
}

/* @msg's answer is written (or never will be). */
void
triage_server_uncork_answer (SoupServerMessage *msg)
{
  if (answer_quark != 0)
    g_object_set_qdata (G_OBJECT (msg), answer_quark, NULL);
}
