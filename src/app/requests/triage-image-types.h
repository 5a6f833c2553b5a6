/* triage-image-types.h — the image types the app decodes
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean triage_image_type_is_supported (const char *mime_type);

G_END_DECLS
