/* triage-list-item-a11y.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-widgets"

#include "triage-list-item-a11y.h"

/*
 * GTK 4.8 gives a GtkGridView the role "grid" and each of its items a grid
 * cell, which a screen reader reads as a table ("row 1 column 1"). The
 * app's one-column grid views are lists (a grid view only because it keeps
 * fewer rows than GTK 4.8's GtkListView): the view is made with the role
 * "list" (its accessible-role, at construction), and its items are made
 * list items here. GTK makes the items, with their role, and a role can
 * change only while no assistive technology has read it (GTK 4.8 checks
 * that its AT context is unrealized, else it is critical). The moment
 * taken is when the item takes its child: that happens as the new item
 * joins the window (GtkListItemWidget's root, before any reader can have
 * seen it), and a recycled item keeps its role.
 */

static void
on_child_parent_changed (GtkWidget  *child,
                         GParamSpec *pspec,
                         gpointer    user_data)
{
  GtkWidget *item = gtk_widget_get_parent (child);

  if (item == NULL ||
      gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (item)) != GTK_ACCESSIBLE_ROLE_GRID_CELL)
    return;

  g_object_set (item, "accessible-role", GTK_ACCESSIBLE_ROLE_LIST_ITEM, NULL);
}

/**
 * triage_list_item_a11y_read_as_list_item:
 * @child: what an item of a one-column #GtkGridView shows, not yet in it
 *   (from the factory's setup)
 *
 * Makes every item of the grid view that holds @child a list item for
 * a screen reader, not a grid cell. The grid view itself is made with the
 * accessible role %GTK_ACCESSIBLE_ROLE_LIST.
 */
void
triage_list_item_a11y_read_as_list_item (GtkWidget *child)
{
  g_return_if_fail (GTK_IS_WIDGET (child));

  g_signal_connect (child, "notify::parent", G_CALLBACK (on_child_parent_changed), NULL);
  on_child_parent_changed (child, NULL, NULL);
}
