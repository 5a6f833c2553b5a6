/* triage-image-types.c — the image types the app decodes
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "triage-image-types.h"

/*
 * Raster formats whose gdk-pixbuf loaders are widely used and maintained:
 * the one list for every image an agent sends (attachments, AITP pictures,
 * a bubble's service icon). SVG is deliberately absent: it is XML that can
 * reference other resources and cost unbounded time to render, so it is
 * previewed as source text. So are the rarer loaders (XPM, TGA, ICNS, ANI,
 * …), which no agent needs and which have had the most decoding bugs.
 */
static const char * const supported_types[] = {
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/bmp",
  "image/webp",
  "image/tiff",
  "image/x-icon",
  "image/vnd.microsoft.icon",
  NULL
};

/**
 * triage_image_type_is_supported:
 * @mime_type: a MIME type, lower case, without parameters
 *
 * Returns: %TRUE if images of this type are decoded
 */
gboolean
triage_image_type_is_supported (const char *mime_type)
{
  g_return_val_if_fail (mime_type != NULL, FALSE);

  return g_strv_contains (supported_types, mime_type);
}
