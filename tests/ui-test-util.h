/* ui-test-util.h — small helpers shared by the tests of windows (attachments, app)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void ui_test_remove_tree   (const char *path);
int  ui_test_window_width  (GtkWidget  *window);
int  ui_test_minimum_width (GtkWidget  *window,
                            GtkWidget  *content);

G_END_DECLS
