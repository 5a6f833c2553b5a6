/* triage-widgets-style.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-widgets-style"

#include <adwaita.h>

#include "triage-widgets-style.h"

/**
 * triage_widgets_style_add:
 * @resource_path: a style sheet in the application's resources
 *
 * Adds the style sheet at @resource_path to the default display, once
 * (a view's own sheet, added when the first view is made). Main thread only.
 */
void
triage_widgets_style_add (const char *resource_path)
{
  static GHashTable *added = NULL;
  GdkDisplay *display = gdk_display_get_default ();
  g_autoptr(GtkCssProvider) provider = NULL;

  g_return_if_fail (resource_path != NULL);

  if (display == NULL)
    return;
  if (added == NULL)
    added = g_hash_table_new (g_str_hash, g_str_equal);
  if (!g_hash_table_add (added, (gpointer) g_intern_string (resource_path)))
    return;

  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (provider, resource_path);
  gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

/* In high contrast a dim label is dimmed less, as libadwaita's are (style.css). */
static void
update_high_contrast (AdwStyleManager *manager,
                      GParamSpec      *pspec,
                      GtkCssProvider  *dim_hc)
{
  GdkDisplay *display = gdk_display_get_default ();

  if (adw_style_manager_get_high_contrast (manager))
    gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (dim_hc),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION + 1);
  else
    gtk_style_context_remove_provider_for_display (display, GTK_STYLE_PROVIDER (dim_hc));
}

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
          AdwStyleManager *manager = adw_style_manager_get_default ();
          /* Kept for the display's life. */
          GtkCssProvider *dim_hc = gtk_css_provider_new ();

          triage_widgets_style_add (RESOURCE_BASE "/widgets/style.css");
          gtk_css_provider_load_from_resource (dim_hc, RESOURCE_BASE "/widgets/dim-hc.css");
          update_high_contrast (manager, NULL, dim_hc);
          g_signal_connect (manager, "notify::high-contrast", G_CALLBACK (update_high_contrast), dim_hc);
          gtk_icon_theme_add_resource_path (gtk_icon_theme_get_for_display (display),
                                            RESOURCE_BASE "/widgets/icons");
        }
      g_once_init_leave (&done, 1);
    }
}
