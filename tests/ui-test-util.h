/* ui-test-util.h — small helpers shared by the tests of windows (attachments, app, browse)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* One shortcut of a widget's shortcut controllers, its trigger and action as
 * GTK writes them ("<Control>f", "action(inbox.focus-search)"). */
typedef struct
{
  GtkShortcutController *controller;
  GtkShortcut           *shortcut;
  char                  *trigger;
  char                  *action;
} UiTestShortcut;

void                   ui_test_remove_tree      (const char         *path);
int                    ui_test_window_width     (GtkWidget          *window);
int                    ui_test_minimum_width    (GtkWidget          *window,
                                                 GtkWidget          *content);
GPtrArray             *ui_test_list_shortcuts   (GtkWidget          *widget);
GtkShortcutController *ui_test_find_shortcut    (GtkWidget          *widget,
                                                 const char         *trigger,
                                                 const char         *action);
gboolean               ui_test_press_shortcut   (GtkWidget          *widget,
                                                 const char         *trigger);
gboolean               ui_test_press_key        (GtkWidget          *window,
                                                 const char         *trigger);
gboolean               ui_test_wheel_over       (GtkWidget          *inner,
                                                 double              dy);
void                   ui_test_assert_unhyphenated (GtkTextView     *view);

G_END_DECLS
