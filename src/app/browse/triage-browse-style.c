/* triage-browse-style.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-browse"

#include <gtk/gtk.h>

#include "triage-browse-style.h"

/**
 * triage_browse_style_init:
 *
 * Adds the inbox and history style sheet to the default display, once. The
 * app's own style.css is loaded by AdwApplication; this one lives under
 * browse/ and is loaded by the widgets that need it, so tests and other
 * hosts get it too.
 */
void
triage_browse_style_init (void)
{
  static gsize loaded = 0;

  if (g_once_init_enter (&loaded))
    {
      GdkDisplay *display = gdk_display_get_default ();

      if (display != NULL)
        {
          g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();

          gtk_css_provider_load_from_resource (provider, RESOURCE_BASE "/browse/style.css");
          gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (provider),
                                                      GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
        }
      g_once_init_leave (&loaded, 1);
    }
}
