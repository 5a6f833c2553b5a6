/* triage-mcp-input.c — the session's input: lines, over-long ones, and reading on
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-mcp"

#include "triage-mcp-server-private.h"

#include <string.h>

#include "atp.h"

#define send_error  triage_mcp_server_send_error
#define PARSE_ERROR      TRIAGE_MCP_PARSE_ERROR
#define INVALID_REQUEST  TRIAGE_MCP_INVALID_REQUEST

/*
 * Standard input is read a chunk at a time and cut into lines, each a JSON-RPC
 * message or a batch. A line over TRIAGE_MCP_MAX_LINE is not kept, only scanned for
 * its id (triage-mcp-id-scan.c). While the client leaves more than
 * TRIAGE_MCP_OUTPUT_HIGH of answers unread, nothing more is taken: the lines after
 * stay in the buffer, the rest of its input in the pipe, until the output drains.
 */

#define READ_CHUNK      (64 * 1024)

/* The id of a line that did not parse but is one whole object, from its first '{' to
 * its last '}': nested deeper than atp_json_parse () takes, or a string with an
 * unpaired surrogate escape, which JavaScript's JSON.stringify () writes for a string
 * cut in the middle of an emoji. Its id is there to read, and with id null the
 * client's call waited for its own timeout. NULL for anything else (a line cut short,
 * not JSON at all), as JSON-RPC has it. */
static JsonNode *
whole_line_id (const char *line,
               gsize       length)
{
  g_autoptr(JsonNode) id = NULL;
  TriageMcpIdScan *scan;
  gsize start = 0;

  while (start < length && g_ascii_isspace (line[start]))
    start++;
  while (length > start && g_ascii_isspace (line[length - 1]))
    length--;
  if (length - start < 2 || line[start] != '{' || line[length - 1] != '}')
    return NULL;

  scan = triage_mcp_id_scan_new ();
  triage_mcp_id_scan_feed (scan, (const guint8 *) line + start, length - start);
  if (triage_mcp_id_scan_get_id (scan) != NULL)
    id = json_node_copy (triage_mcp_id_scan_get_id (scan));
  triage_mcp_id_scan_free (scan);
  return g_steal_pointer (&id);
}

static void
handle_line (TriageMcpServer *self,
             const char      *line,
             gsize            length)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;

  root = atp_json_parse (line, length, TRIAGE_MCP_MAX_LINE, &error);
  if (root == NULL)
    {
      g_autoptr(JsonNode) id = whole_line_id (line, length);

      send_error (self, id, PARSE_ERROR, NULL, "Parse error: %s", error->message);
    }
  /* Batches are part of 2025-03-26 only (2024-11-05 had none, 2025-06-18 removed them),
   * and never hold the initialize. */
  else if (JSON_NODE_HOLDS_ARRAY (root) && g_strcmp0 (self->protocol_version, "2025-03-26") == 0)
    triage_mcp_batch_handle (self, json_node_get_array (root));
  else if (JSON_NODE_HOLDS_ARRAY (root) && self->protocol_version != NULL)
    send_error (self, NULL, INVALID_REQUEST, NULL,
                "Invalid Request: batches are part of MCP 2025-03-26 only (this session speaks "
                "%s); send one message a line", self->protocol_version);
  else if (JSON_NODE_HOLDS_ARRAY (root))
    send_error (self, NULL, INVALID_REQUEST, NULL,
                "Invalid Request: batches are part of MCP 2025-03-26 only (this session has "
                "not been initialized); send one message a line");
  else
    triage_mcp_server_handle_message (self, root);
}


/* At the end of an over-long line: answered with its id, if the scan found one, so the
 * client's call ends now rather than at its own timeout. */
static void
refuse_long_line (TriageMcpServer *self)
{
  send_error (self, triage_mcp_id_scan_get_id (self->discarding), INVALID_REQUEST, NULL,
              "Invalid Request: a message is longer than %d KiB; it was skipped",
              TRIAGE_MCP_MAX_LINE / 1024);
  g_clear_pointer (&self->discarding, triage_mcp_id_scan_free);
}

void
triage_mcp_input_take_lines (TriageMcpServer *self)
{
  guint8 *start;
  guint8 *newline;

  /* A client that leaves its answers unread gets no more until it reads them: the
   * lines after stay in the buffer, the rest of its input in the pipe. */
  while (!self->closing && !triage_mcp_server_output_backed_up (self) &&
         (newline = memchr (self->buffer->data, '\n', self->buffer->len)) != NULL)
    {
      gsize length = newline - self->buffer->data;

      start = self->buffer->data;
      if (self->discarding != NULL)
        {
          /* The end of the over-long line. */
          triage_mcp_id_scan_feed (self->discarding, start, length);
          refuse_long_line (self);
        }
      else
        {
          if (length > 0 && start[length - 1] == '\r')
            length--;
          /* Over the bound yet whole in the buffer: its end came in the same read. */
          if (length > TRIAGE_MCP_MAX_LINE)
            {
              self->discarding = triage_mcp_id_scan_new ();
              triage_mcp_id_scan_feed (self->discarding, start, length);
              refuse_long_line (self);
            }
          else if (length > 0)
            handle_line (self, (const char *) start, length);
        }
      g_byte_array_remove_range (self->buffer, 0, newline - self->buffer->data + 1);
    }

  /* An over-long line so far: not kept, only scanned for its id. */
  if (!self->closing && !triage_mcp_server_output_backed_up (self) &&
      (self->discarding != NULL || self->buffer->len > TRIAGE_MCP_MAX_LINE))
    {
      if (self->discarding == NULL)
        self->discarding = triage_mcp_id_scan_new ();
      triage_mcp_id_scan_feed (self->discarding, self->buffer->data, self->buffer->len);
      g_byte_array_set_size (self->buffer, 0);
    }
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(TriageMcpServer) self = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->closing)
    return;

  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      if (error != NULL)
        g_warning ("cannot read from the MCP client: %s", error->message);
      /* A last message without its newline still counts. */
      if (self->discarding != NULL)
        refuse_long_line (self);
      else if (self->buffer->len > 0)
        handle_line (self, (const char *) self->buffer->data, self->buffer->len);
      triage_mcp_server_close (self, "the agent went away (its MCP connection closed)");
      return;
    }

  g_byte_array_append (self->buffer, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  triage_mcp_input_take_lines (self);
  if (triage_mcp_server_output_backed_up (self))
    self->paused = TRUE;   /* on_output_drained () reads on */
  else
    triage_mcp_input_read_next (self);
}

void
triage_mcp_input_read_next (TriageMcpServer *self)
{
  if (self->closing)
    return;

  g_input_stream_read_bytes_async (self->input, READ_CHUNK, G_PRIORITY_DEFAULT, self->reading,
                                   read_cb, g_object_ref (self));
}
