/* triage-widgets-style.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

void triage_widgets_style_init (void);
void triage_widgets_style_add  (const char *resource_path);

G_END_DECLS
