/* triage-image-decoder.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-image"

#include <glib/gi18n.h>

#include "triage-attachment-error.h"
#include "triage-image-decoder.h"

/* Bytes handed to the loader at a time, so cancellation is noticed quickly. */
#define DECODE_CHUNK_SIZE (64 * 1024)

typedef struct
{
  GBytes *bytes;
  char   *mime_type;
  int     max_display_size;
  int     width;
  int     height;
  guint   refused : 1;
} DecodeData;

static void
decode_data_free (gpointer data)
{
  DecodeData *dd = data;

  g_clear_pointer (&dd->bytes, g_bytes_unref);
  g_clear_pointer (&dd->mime_type, g_free);
  g_free (dd);
}

/*
 * Called by the loader once the header is read and before it allocates the
 * pixel buffer. Setting the size to 0×0 makes every gdk-pixbuf loader stop
 * there (the same trick gdk_pixbuf_get_file_info() uses).
 */
static void
on_loader_size_prepared (GdkPixbufLoader *loader,
                         int              width,
                         int              height,
                         gpointer         user_data)
{
  DecodeData *dd = user_data;

  dd->width = width;
  dd->height = height;

  if (width <= 0 || height <= 0 ||
      width > TRIAGE_IMAGE_MAX_SIDE || height > TRIAGE_IMAGE_MAX_SIDE ||
      (guint64) width * (guint64) height > TRIAGE_IMAGE_MAX_PIXELS)
    {
      dd->refused = TRUE;
      gdk_pixbuf_loader_set_size (loader, 0, 0);
      return;
    }

  if (dd->max_display_size > 0 && MAX (width, height) > dd->max_display_size)
    {
      double scale = (double) dd->max_display_size / MAX (width, height);

      gdk_pixbuf_loader_set_size (loader,
                                  MAX (1, (int) (width * scale)),
                                  MAX (1, (int) (height * scale)));
    }
}

/* Says which limit a refused image broke: its sides, or its area. */
static void
set_too_large_error (int      width,
                     int      height,
                     GError **error)
{
  guint64 pixels = (guint64) MAX (width, 0) * (guint64) MAX (height, 0);

  if (width <= 0 || height <= 0)
    g_set_error (error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_IMAGE_TOO_LARGE,
                 _("The image claims to be %d × %d pixels, which is not a size"), width, height);
  else if (width > TRIAGE_IMAGE_MAX_SIDE || height > TRIAGE_IMAGE_MAX_SIDE)
    g_set_error (error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_IMAGE_TOO_LARGE,
                 /* Translators: an image refused for a side longer than the limit */
                 _("The image claims to be %d × %d pixels; sides up to %d pixels are shown"),
                 width, height, TRIAGE_IMAGE_MAX_SIDE);
  else
    {
      double megapixels = pixels / 1e6;
      double limit = TRIAGE_IMAGE_MAX_PIXELS / 1e6;
      /* Whole megapixels, unless rounding would make it look within the limit. */
      int digits = (pixels + 500000) / 1000000 <= TRIAGE_IMAGE_MAX_PIXELS / 1000000 ? 2 : 0;

      g_set_error (error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_IMAGE_TOO_LARGE,
                   /* Translators: an image refused for its area, e.g. "The image claims
                    * to be 16000 × 16000 pixels, 256 megapixels; up to 100 are shown" */
                   _("The image claims to be %d × %d pixels, %.*f megapixels; up to %.0f are "
                     "shown"),
                   width, height, digits, megapixels, limit);
    }
}

static GdkPixbuf *
decode (DecodeData    *dd,
        GCancellable  *cancellable,
        GError       **error)
{
  g_autoptr(GdkPixbufLoader) loader = NULL;
  g_autoptr(GError) local_error = NULL;
  const guint8 *data;
  gsize size;
  gsize offset = 0;
  gboolean ok = TRUE;
  GdkPixbuf *pixbuf;

  data = g_bytes_get_data (dd->bytes, &size);

  if (size > TRIAGE_IMAGE_MAX_ENCODED_SIZE)
    {
      g_autofree char *have = g_format_size (size);
      g_autofree char *limit = g_format_size (TRIAGE_IMAGE_MAX_ENCODED_SIZE);

      g_set_error (error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_TOO_LARGE,
                   _("The image is %s; images larger than %s are not shown"), have, limit);
      return NULL;
    }

  if (!triage_image_type_is_supported (dd->mime_type))
    {
      g_set_error (error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_BAD_IMAGE,
                   _("Images of type “%s” are not shown"), dd->mime_type);
      return NULL;
    }

  /* The declared type picks the decoder: data of another format fails. */
  loader = gdk_pixbuf_loader_new_with_mime_type (dd->mime_type, &local_error);
  if (loader == NULL)
    {
      g_set_error (error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_BAD_IMAGE,
                   _("Images of type “%s” cannot be decoded here: %s"),
                   dd->mime_type, local_error->message);
      return NULL;
    }

  g_signal_connect (loader, "size-prepared", G_CALLBACK (on_loader_size_prepared), dd);

  while (offset < size)
    {
      gsize chunk = MIN (DECODE_CHUNK_SIZE, size - offset);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          gdk_pixbuf_loader_close (loader, NULL);
          return NULL;
        }

      ok = gdk_pixbuf_loader_write (loader, data + offset, chunk, &local_error);
      offset += chunk;
      if (!ok || dd->refused)
        break;
    }

  /* A loader must always be closed; after a failure its error adds nothing. */
  if (ok && !dd->refused)
    ok = gdk_pixbuf_loader_close (loader, &local_error);
  else
    gdk_pixbuf_loader_close (loader, NULL);

  if (dd->refused)
    {
      set_too_large_error (dd->width, dd->height, error);
      return NULL;
    }

  if (!ok)
    {
      g_set_error (error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_BAD_IMAGE,
                   _("The image is damaged or not really of type “%s”: %s"),
                   dd->mime_type, local_error ? local_error->message : _("unknown error"));
      return NULL;
    }

  pixbuf = gdk_pixbuf_loader_get_pixbuf (loader);
  if (pixbuf == NULL)
    {
      g_set_error (error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_BAD_IMAGE,
                   _("The image of type “%s” holds no picture"), dd->mime_type);
      return NULL;
    }

  return g_object_ref (pixbuf);
}

static void
decode_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  GError *error = NULL;
  GdkPixbuf *pixbuf;

  pixbuf = decode (task_data, cancellable, &error);
  if (pixbuf == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, pixbuf, g_object_unref);
}

/**
 * triage_image_decode_async:
 * @bytes: the encoded image
 * @mime_type: its declared type, lower case, without parameters; the decoder
 *   for this type is used, so data of another format fails
 * @max_display_size: scale so the longer side is at most this (0: no scaling)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Decodes an untrusted image in a worker thread. Images whose header claims
 * more than %TRIAGE_IMAGE_MAX_SIDE pixels on a side or more than
 * %TRIAGE_IMAGE_MAX_PIXELS pixels are refused before any pixel memory is
 * allocated, as are inputs over %TRIAGE_IMAGE_MAX_ENCODED_SIZE bytes.
 */
void
triage_image_decode_async (GBytes              *bytes,
                           const char          *mime_type,
                           int                  max_display_size,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  DecodeData *dd;

  g_return_if_fail (bytes != NULL);
  g_return_if_fail (mime_type != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  dd = g_new0 (DecodeData, 1);
  dd->bytes = g_bytes_ref (bytes);
  dd->mime_type = g_strdup (mime_type);
  dd->max_display_size = max_display_size;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, triage_image_decode_async);
  g_task_set_task_data (task, dd, decode_data_free);
  g_task_run_in_thread (task, decode_thread);
}

/**
 * triage_image_decode_finish:
 * @result: the #GAsyncResult
 * @original_width: (out) (optional): the width the image header declared
 * @original_height: (out) (optional): the height the image header declared
 * @error: a %TRIAGE_ATTACHMENT_ERROR or %G_IO_ERROR_CANCELLED
 *
 * The dimensions are set whenever the header could be read, also when the
 * image was refused for its size.
 *
 * Returns: (transfer full): the decoded, possibly scaled, image
 */
GdkPixbuf *
triage_image_decode_finish (GAsyncResult  *result,
                            int           *original_width,
                            int           *original_height,
                            GError       **error)
{
  DecodeData *dd;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == triage_image_decode_async, NULL);

  dd = g_task_get_task_data (G_TASK (result));
  if (original_width != NULL)
    *original_width = dd->width;
  if (original_height != NULL)
    *original_height = dd->height;

  return g_task_propagate_pointer (G_TASK (result), error);
}
