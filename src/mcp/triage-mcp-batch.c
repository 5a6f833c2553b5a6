/* triage-mcp-batch.c — JSON-RPC batches, which MCP 2025-03-26 requires a server to receive
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-mcp"

#include "triage-mcp-server-private.h"

/*
 * MCP 2025-03-26 says implementations MUST support receiving JSON-RPC batches
 * (2025-06-18 removed them), so a session that agreed on 2025-03-26 takes an
 * array of requests and notifications. As JSON-RPC 2.0 says, the answer is one
 * array of the responses, sent once every request of the batch has one: a
 * tools/call's when the person answers (a client that wants the answers to its
 * other requests sooner sends them on their own). A call cancelled meanwhile
 * has no response, and a batch left with none is answered with nothing.
 */

struct _TriageMcpBatch
{
  JsonArray *responses;
  guint      outstanding;   /* calls of the batch still waiting for the person */
  gboolean   reading;       /* its messages are still being handled */
  gboolean   sent;
};

static void
batch_clear (TriageMcpBatch *batch)
{
  json_array_unref (batch->responses);
}

TriageMcpBatch *
triage_mcp_batch_ref (TriageMcpBatch *batch)
{
  return g_rc_box_acquire (batch);
}

void
triage_mcp_batch_unref (TriageMcpBatch *batch)
{
  g_rc_box_release_full (batch, (GDestroyNotify) batch_clear);
}

void
triage_mcp_batch_add_response (TriageMcpBatch *batch,
                               JsonObject     *response)
{
  json_array_add_object_element (batch->responses, json_object_ref (response));
}

void
triage_mcp_batch_call_started (TriageMcpBatch *batch)
{
  batch->outstanding++;
}

void
triage_mcp_batch_call_ended (TriageMcpServer *self,
                             TriageMcpBatch  *batch)
{
  g_return_if_fail (batch->outstanding > 0);

  batch->outstanding--;
  triage_mcp_batch_maybe_send (self, batch);
}

void
triage_mcp_batch_maybe_send (TriageMcpServer *self,
                             TriageMcpBatch  *batch)
{
  g_autoptr(JsonNode) node = NULL;

  /* Closing, the client reads no more: the calls left are withdrawn unanswered. */
  if (batch->reading || batch->outstanding > 0 || batch->sent || self->closing)
    return;

  batch->sent = TRUE;
  if (json_array_get_length (batch->responses) == 0)
    return;   /* only notifications, or calls cancelled: JSON-RPC sends nothing */
  node = json_node_init_array (json_node_alloc (), batch->responses);
  triage_mcp_server_write (self, node);
}

void
triage_mcp_batch_handle (TriageMcpServer *self,
                         JsonArray       *messages)
{
  TriageMcpBatch *batch;
  TriageMcpBatch *outer = self->batch;

  if (json_array_get_length (messages) == 0)
    {
      triage_mcp_server_send_error (self, NULL, TRIAGE_MCP_INVALID_REQUEST, NULL,
                                    "Invalid Request: an empty batch");
      return;
    }

  batch = g_rc_box_new0 (TriageMcpBatch);
  batch->responses = json_array_new ();
  batch->reading = TRUE;

  self->batch = batch;
  for (guint i = 0; i < json_array_get_length (messages) && !self->closing; i++)
    {
      JsonNode *message = json_array_get_element (messages, i);

      if (JSON_NODE_HOLDS_ARRAY (message))
        triage_mcp_server_send_error (self, NULL, TRIAGE_MCP_INVALID_REQUEST, NULL,
                                      "Invalid Request: a batch inside a batch");
      else
        triage_mcp_server_handle_message (self, message);
    }
  self->batch = outer;

  batch->reading = FALSE;
  triage_mcp_batch_maybe_send (self, batch);
  triage_mcp_batch_unref (batch);
}
