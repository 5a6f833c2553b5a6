/* triage-status-page-a11y.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-widgets"

#include "triage-status-page-a11y.h"

/* The first label under @widget with the style class @css_class. */
static GtkWidget *
find_label (GtkWidget  *widget,
            const char *css_class)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_LABEL (child) && gtk_widget_has_css_class (child, css_class))
        return child;
      found = find_label (child, css_class);
      if (found != NULL)
        return found;
    }

  return NULL;
}

/* GTK 4.8 reads no description from a described-by relation: the text. */
static void
on_description_changed (GtkLabel   *description,
                        GParamSpec *pspec,
                        GtkWidget  *scroller)
{
  gtk_accessible_update_property (GTK_ACCESSIBLE (scroller),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  gtk_label_get_text (description), -1);
}

/**
 * triage_status_page_name_scroller:
 * @page: an #AdwStatusPage
 *
 * Names the scrolled window inside @page by the page's title and describes
 * it by the page's description, as they show, changes included. Without a
 * button or another control on the page, that scrolled window is a stop of
 * Tab (the keyboard scrolls a page taller than the window), and a screen
 * reader met it nameless, a "scroll pane" saying nothing: libadwaita 1.2
 * names the page, which never takes the keyboard. GTK 4.8 does not name a
 * widget by another one's relations, so the name comes from the page's own
 * title label, the description from its description label. Once a page.
 */
void
triage_status_page_name_scroller (AdwStatusPage *page)
{
  GtkWidget *scroller;
  GtkWidget *title;
  GtkWidget *description;

  g_return_if_fail (ADW_IS_STATUS_PAGE (page));

  scroller = gtk_widget_get_first_child (GTK_WIDGET (page));
  title = find_label (GTK_WIDGET (page), "title");
  description = find_label (GTK_WIDGET (page), "description");
  if (!GTK_IS_SCROLLED_WINDOW (scroller) || title == NULL || description == NULL)
    return;

  gtk_accessible_update_relation (GTK_ACCESSIBLE (scroller),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, title, NULL,
                                  -1);
  g_signal_connect_object (description, "notify::label", G_CALLBACK (on_description_changed),
                           scroller, 0);
  on_description_changed (GTK_LABEL (description), NULL, scroller);
}
