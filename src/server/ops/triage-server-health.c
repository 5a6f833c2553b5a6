/* triage-server-health.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a load balancer or an orchestrator asks, and the drain on SIGTERM.
 *
 *   - GET /healthz: the process serves (200 whatever else holds);
 *   - GET /readyz: the server takes work: it has started, is not draining,
 *     and the database answers with the schema version this server knows;
 *     503 with the reason otherwise. Neither needs a token or says anything
 *     about the requests held.
 *
 * SIGTERM (or SIGINT) drains: /readyz turns 503, streams get close code 1001
 * and new ones are refused (503), requests keep being served for
 * --drain-delay seconds so a load balancer sees /readyz fail and moves
 * traffic away; then long-polls are answered with what they would get now,
 * and the server exits once no request is open (at most DRAIN_TIMEOUT_S
 * later). A second signal skips what is left of the delay.
 */

#define G_LOG_DOMAIN "triage-server"

#include <string.h>

#include "triage-server-private.h"

#define DRAIN_TIMEOUT_S   10    /* what open requests get to finish once the delay is over */
#define DRAIN_POLL_MS     50
/* A WebSocket's close frame is queued at once but written by the main loop;
 * the peer's answer to it is not waited for (a client busy elsewhere may take
 * long): this is what the frame gets to go out. */
#define CLOSE_GRACE_US    (G_USEC_PER_SEC / 4)

static void
reply_state (SoupServerMessage *msg,
             guint              status,
             const char        *state,
             const char        *reason)
{
  g_autoptr(JsonObject) object = json_object_new ();

  json_object_set_string_member (object, "status", state);
  if (reason != NULL)
    json_object_set_string_member (object, "reason", reason);
  soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                "Cache-Control", "no-store");
  reply_text (msg, status, object_to_string (object));
}

static gboolean
is_get (SoupServerMessage *msg)
{
  const char *method = soup_server_message_get_method (msg);

  if (strcmp (method, "GET") == 0 || strcmp (method, "HEAD") == 0)
    return TRUE;
  reply_method_not_allowed (msg, "GET, HEAD");
  return FALSE;
}

static void
healthz_handler (SoupServer        *soup,
                 SoupServerMessage *msg,
                 const char        *path,
                 GHashTable        *query,
                 gpointer           user_data)
{
  if (strcmp (path, TRIAGE_HEALTHZ_PATH) != 0)
    reply_error (msg, ATP_ERROR_NOT_FOUND, "No such endpoint");
  else if (is_get (msg))
    reply_state (msg, SOUP_STATUS_OK, "ok", NULL);
}

static void
readyz_handler (SoupServer        *soup,
                SoupServerMessage *msg,
                const char        *path,
                GHashTable        *query,
                gpointer           user_data)
{
  TriageServer *self = user_data;
  g_autoptr(GError) error = NULL;

  if (strcmp (path, TRIAGE_READYZ_PATH) != 0)
    reply_error (msg, ATP_ERROR_NOT_FOUND, "No such endpoint");
  else if (!is_get (msg))
    return;
  else if (self->state == TRIAGE_SERVER_STARTING)
    reply_state (msg, SOUP_STATUS_SERVICE_UNAVAILABLE, "starting", "the server is starting");
  else if (self->state == TRIAGE_SERVER_DRAINING)
    reply_state (msg, SOUP_STATUS_SERVICE_UNAVAILABLE, "draining",
                 "the server is shutting down: use another one");
  else if (!triage_store_check (self->store, &error))
    reply_state (msg, SOUP_STATUS_SERVICE_UNAVAILABLE, "unavailable", error->message);
  else
    reply_state (msg, SOUP_STATUS_OK, "ready", NULL);
}

void
triage_server_setup_health (TriageServer *self)
{
  soup_server_add_handler (self->soup, TRIAGE_HEALTHZ_PATH, healthz_handler, self, NULL);
  soup_server_add_handler (self->soup, TRIAGE_READYZ_PATH, readyz_handler, self, NULL);
}

/* ---- the drain ---- */

static gboolean
drain_poll (gpointer data)
{
  TriageServer *self = data;

  gint64 now = g_get_monotonic_time ();

  if (self->inflight > 0 ||
      (g_hash_table_size (self->streams) > 0 && now - self->streams_closed_at < CLOSE_GRACE_US))
    {
      if (now < self->drain_deadline)
        return G_SOURCE_CONTINUE;
      g_message ("drain: %u requests still open after %d s; stopping", self->inflight,
                 DRAIN_TIMEOUT_S);
    }
  self->drain_source = 0;
  g_main_loop_quit (self->loop);
  return G_SOURCE_REMOVE;
}

/* The delay is over: answer what waits, then stop once nothing is open. */
static void
drain_finish (TriageServer *self)
{
  self->stopping = TRUE;
  g_clear_handle_id (&self->drain_source, g_source_remove);
  triage_server_answer_waiters (self);
  self->drain_deadline = g_get_monotonic_time () + DRAIN_TIMEOUT_S * G_USEC_PER_SEC;
  self->drain_source = g_timeout_add (DRAIN_POLL_MS, drain_poll, self);
}

static gboolean
drain_delay_over (gpointer data)
{
  TriageServer *self = data;

  self->drain_source = 0;
  drain_finish (self);
  return G_SOURCE_REMOVE;
}

/* SIGTERM/SIGINT: the first starts the drain, another ends the delay. */
void
triage_server_drain (TriageServer *self)
{
  if (self->state == TRIAGE_SERVER_DRAINING)
    {
      if (!self->stopping)
        drain_finish (self);
      return;
    }
  self->state = TRIAGE_SERVER_DRAINING;
  g_message ("draining: /readyz answers 503, streams are closed (1001), %d s until stop",
             self->drain_delay);
  triage_server_close_streams (self);
  self->streams_closed_at = g_get_monotonic_time ();
  if (self->drain_delay > 0)
    self->drain_source = g_timeout_add_seconds ((guint) self->drain_delay, drain_delay_over, self);
  else
    drain_finish (self);
}
