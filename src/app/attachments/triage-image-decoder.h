/* triage-image-decoder.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <gio/gio.h>

#include "triage-image-types.h"

G_BEGIN_DECLS

/* Limits for untrusted images: checked before any pixel memory is allocated. */
#define TRIAGE_IMAGE_MAX_ENCODED_SIZE (32 * 1024 * 1024)
#define TRIAGE_IMAGE_MAX_SIDE         16384
#define TRIAGE_IMAGE_MAX_PIXELS       (G_GUINT64_CONSTANT (100000000))

void       triage_image_decode_async      (GBytes               *bytes,
                                           const char           *mime_type,
                                           int                   max_display_size,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data);
GdkPixbuf *triage_image_decode_finish     (GAsyncResult         *result,
                                           int                  *original_width,
                                           int                  *original_height,
                                           GError              **error);

G_END_DECLS
