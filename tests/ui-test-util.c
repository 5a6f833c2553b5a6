/* ui-test-util.c — small helpers shared by the tests of windows (attachments, app)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>

#include "ui-test-util.h"

/* Removes @path and everything below it, not following symbolic links. */
void
ui_test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        ui_test_remove_tree (child);
      else
        g_unlink (child);
    }

  g_rmdir (path);
}

/* The window's width on screen, as its default size counts it (with the
 * border it draws around itself). */
int
ui_test_window_width (GtkWidget *window)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));

  return surface ? gdk_surface_get_width (surface) : 0;
}

/* The narrowest @window can be with its @content, on the same terms. */
int
ui_test_minimum_width (GtkWidget *window,
                       GtkWidget *content)
{
  int frame = ui_test_window_width (window) - gtk_widget_get_width (content);
  int min = 0;

  gtk_widget_measure (content, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
  return min + frame;
}
