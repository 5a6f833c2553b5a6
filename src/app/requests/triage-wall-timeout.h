/* triage-wall-timeout.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

guint triage_wall_timeout_add (gint64      wall_us,
                               GSourceFunc func,
                               gpointer    data);

G_END_DECLS
