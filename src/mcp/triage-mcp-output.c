/* triage-mcp-output.c — the session's output, queued and written when the client reads
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-mcp"

#include "triage-mcp-server-private.h"

#include <limits.h>

/*
 * A client that stops reading standard output for a while (busy, paused in a
 * debugger, its event loop blocked) fills the pipe. A blocking write then held
 * the whole main loop: no answer read from the server, no cancellation, no
 * progress, a question the person answered waiting. So messages are queued in
 * order and written when the pipe takes them, a piece of at most PIPE_BUF bytes
 * at a time: the stream is a blocking descriptor shared with nobody's flags, and
 * poll () saying "writable" promises that much room, never more. What the queue
 * holds is bounded by the server (TRIAGE_MCP_OUTPUT_HIGH, triage-mcp-server.c).
 */

struct _TriageMcpOutput
{
  GOutputStream        *stream;
  GQueue               *pieces;     /* GBytes, written in order */
  gsize                 offset;     /* into the first piece */
  gsize                 queued;     /* bytes not written yet */
  GSource              *source;     /* waiting for the stream to be writable; NULL when not */
  GError               *error;      /* once a write failed; nothing is written after it */
  TriageMcpOutputFunc   func;
  gpointer              data;
};

TriageMcpOutput *
triage_mcp_output_new (GOutputStream       *stream,
                       TriageMcpOutputFunc  func,
                       gpointer             data)
{
  TriageMcpOutput *self = g_new0 (TriageMcpOutput, 1);

  self->stream = g_object_ref (stream);
  self->pieces = g_queue_new ();
  self->func = func;
  self->data = data;
  return self;
}

void
triage_mcp_output_free (TriageMcpOutput *self)
{
  if (self == NULL)
    return;

  if (self->source != NULL)
    {
      g_source_destroy (self->source);
      g_source_unref (self->source);
    }
  g_queue_free_full (self->pieces, (GDestroyNotify) g_bytes_unref);
  g_clear_error (&self->error);
  g_object_unref (self->stream);
  g_free (self);
}

static void
fail (TriageMcpOutput *self,
      GError          *error)
{
  self->error = error;
  g_queue_clear_full (self->pieces, (GDestroyNotify) g_bytes_unref);
  self->offset = 0;
  self->queued = 0;
}

static gboolean on_writable (GObject *stream,
                             gpointer data);

/* Writes what the stream takes now; TRUE when the queue is empty or the output failed. */
static gboolean
write_pending (TriageMcpOutput *self)
{
  gboolean pollable = G_IS_POLLABLE_OUTPUT_STREAM (self->stream) &&
                      g_pollable_output_stream_can_poll (G_POLLABLE_OUTPUT_STREAM (self->stream));

  while (self->error == NULL && !g_queue_is_empty (self->pieces))
    {
      GBytes *piece = g_queue_peek_head (self->pieces);
      gsize size = 0;
      const guint8 *data = g_bytes_get_data (piece, &size);
      GError *error = NULL;
      gssize written;

      if (pollable)
        written = g_pollable_output_stream_write_nonblocking (G_POLLABLE_OUTPUT_STREAM (self->stream),
                                                              data + self->offset,
                                                              MIN (size - self->offset, PIPE_BUF),
                                                              NULL, &error);
      else
        {
          gsize all = 0;

          /* Nothing to wait on (a file, a memory stream): it takes everything at once. */
          written = g_output_stream_write_all (self->stream, data + self->offset,
                                               size - self->offset, &all, NULL, &error)
                      ? (gssize) all : -1;
        }

      if (written < 0 && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
        {
          g_error_free (error);
          if (self->source == NULL)
            {
              self->source = g_pollable_output_stream_create_source (
                               G_POLLABLE_OUTPUT_STREAM (self->stream), NULL);
              g_source_set_callback (self->source, (GSourceFunc) G_CALLBACK (on_writable), self,
                                     NULL);
              g_source_attach (self->source, NULL);
            }
          return FALSE;
        }
      if (written < 0)
        {
          fail (self, error);
          break;
        }

      self->offset += written;
      self->queued -= written;
      if (self->offset == size)
        {
          g_bytes_unref (g_queue_pop_head (self->pieces));
          self->offset = 0;
        }
    }

  if (self->source != NULL)
    {
      g_source_destroy (self->source);
      g_clear_pointer (&self->source, g_source_unref);
    }
  return TRUE;
}

static gboolean
on_writable (GObject  *stream,
             gpointer  data)
{
  TriageMcpOutput *self = data;

  if (!write_pending (self))
    return G_SOURCE_CONTINUE;

  /* The source is gone now; tell the server the queue drained or the output failed. */
  self->func (self->data);
  return G_SOURCE_REMOVE;
}

void
triage_mcp_output_push (TriageMcpOutput *self,
                        GBytes          *bytes)
{
  if (self->error != NULL || g_bytes_get_size (bytes) == 0)
    return;

  g_queue_push_tail (self->pieces, g_bytes_ref (bytes));
  self->queued += g_bytes_get_size (bytes);
  /* Behind others, it waits its turn: the source writes them in order. */
  if (self->source == NULL)
    write_pending (self);
}

gsize
triage_mcp_output_get_queued (TriageMcpOutput *self)
{
  return self->queued;
}

const GError *
triage_mcp_output_get_error (TriageMcpOutput *self)
{
  return self->error;
}
