/* triage-send-shortcut.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void triage_send_shortcut_attach (GtkWidget         *widget,
                                  GtkShortcutAction *action);

G_END_DECLS
