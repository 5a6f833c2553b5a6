/* triage-flag-badge.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

GtkWidget *triage_flag_badge_new (const char *flag_name);

G_END_DECLS
