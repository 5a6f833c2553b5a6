/* triage-widgets-style.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-widgets-style"

#include <gtk/gtk.h>

#include "triage-widgets-style.h"

/**
 * triage_widgets_style_init:
 *
 * Adds the widgets' style sheet and icons (in their own resource, so they
 * work in any application and in the tests) to the default display, once.
 */
void
triage_widgets_style_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      GdkDisplay *display = gdk_display_get_default ();

      if (display != NULL)
        {
          g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();

          gtk_css_provider_load_from_resource (provider, RESOURCE_BASE "/widgets/style.css");
          gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (provider),
                                                      GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
          gtk_icon_theme_add_resource_path (gtk_icon_theme_get_for_display (display),
                                            RESOURCE_BASE "/widgets/icons");
        }
      g_once_init_leave (&done, 1);
    }
}
