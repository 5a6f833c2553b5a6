/* triage-wrap-box.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-wrap-box"

#include "triage-wrap-box.h"

/*
 * Children side by side at their natural width, packed at the start and
 * wrapped onto more lines when the width runs out (flag badges, the chips
 * under a title). GtkFlowBox spreads a line over the whole width and makes
 * its children focusable; AdwWrapBox is libadwaita 1.7.
 */

#define SPACING 6
#define LINE_SPACING 6

struct _TriageWrapBox
{
  GtkWidget parent_instance;
};

static void triage_wrap_box_buildable_init (GtkBuildableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TriageWrapBox, triage_wrap_box, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_BUILDABLE, triage_wrap_box_buildable_init))

static GtkBuildableIface *parent_buildable_iface;

/* Lays the children out in @width; returns the height used. Allocates when @allocate. */
static int
layout (GtkWidget *widget,
        int        width,
        gboolean   allocate)
{
  gboolean rtl = gtk_widget_get_direction (widget) == GTK_TEXT_DIR_RTL;
  int x = 0, y = 0, line_height = 0;
  gboolean any = FALSE;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int min_width, nat_width, child_width, child_height;

      if (!gtk_widget_should_layout (child))
        continue;

      gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &min_width, &nat_width, NULL, NULL);
      child_width = width >= 0 ? CLAMP (nat_width, min_width, MAX (width, min_width)) : nat_width;
      gtk_widget_measure (child, GTK_ORIENTATION_VERTICAL, child_width, NULL, &child_height, NULL, NULL);

      if (any && width >= 0 && x + child_width > width)
        {
          y += line_height + LINE_SPACING;
          x = 0;
          line_height = 0;
        }

      if (allocate)
        gtk_widget_size_allocate (child,
                                  &(GtkAllocation) {
                                    rtl ? width - x - child_width : x, y, child_width, child_height
                                  }, -1);

      x += child_width + SPACING;
      line_height = MAX (line_height, child_height);
      any = TRUE;
    }

  return any ? y + line_height : 0;
}

static GtkSizeRequestMode
triage_wrap_box_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
triage_wrap_box_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int min = 0, nat = 0, n = 0;

      for (GtkWidget *child = gtk_widget_get_first_child (widget);
           child != NULL;
           child = gtk_widget_get_next_sibling (child))
        {
          int child_min, child_nat;

          if (!gtk_widget_should_layout (child))
            continue;

          gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &child_min, &child_nat, NULL, NULL);
          min = MAX (min, child_min);
          nat += child_nat + (n > 0 ? SPACING : 0);
          n++;
        }

      *minimum = min;
      *natural = nat;
    }
  else
    {
      *minimum = *natural = layout (widget, for_size, FALSE);
    }
}

static void
triage_wrap_box_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  layout (widget, width, TRUE);
}

static void
triage_wrap_box_dispose (GObject *object)
{
  triage_wrap_box_remove_all (TRIAGE_WRAP_BOX (object));

  G_OBJECT_CLASS (triage_wrap_box_parent_class)->dispose (object);
}

static void
triage_wrap_box_class_init (TriageWrapBoxClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = triage_wrap_box_dispose;

  widget_class->get_request_mode = triage_wrap_box_get_request_mode;
  widget_class->measure = triage_wrap_box_measure;
  widget_class->size_allocate = triage_wrap_box_size_allocate;

  gtk_widget_class_set_css_name (widget_class, "wrapbox");
}

static void
triage_wrap_box_init (TriageWrapBox *self)
{
}

static void
triage_wrap_box_buildable_add_child (GtkBuildable *buildable,
                                     GtkBuilder   *builder,
                                     GObject      *child,
                                     const char   *type)
{
  if (GTK_IS_WIDGET (child))
    triage_wrap_box_append (TRIAGE_WRAP_BOX (buildable), GTK_WIDGET (child));
  else
    parent_buildable_iface->add_child (buildable, builder, child, type);
}

static void
triage_wrap_box_buildable_init (GtkBuildableIface *iface)
{
  parent_buildable_iface = g_type_interface_peek_parent (iface);
  iface->add_child = triage_wrap_box_buildable_add_child;
}

/**
 * triage_wrap_box_new:
 *
 * Returns: (transfer floating): a new, empty wrap box
 */
GtkWidget *
triage_wrap_box_new (void)
{
  return g_object_new (TRIAGE_TYPE_WRAP_BOX, NULL);
}

void
triage_wrap_box_append (TriageWrapBox *self,
                        GtkWidget     *child)
{
  g_return_if_fail (TRIAGE_IS_WRAP_BOX (self));
  g_return_if_fail (GTK_IS_WIDGET (child));
  g_return_if_fail (gtk_widget_get_parent (child) == NULL);

  gtk_widget_insert_before (child, GTK_WIDGET (self), NULL);
}

void
triage_wrap_box_remove_all (TriageWrapBox *self)
{
  GtkWidget *child;

  g_return_if_fail (TRIAGE_IS_WRAP_BOX (self));

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
}
