/* triage-scroll-chain.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-scroll-chain"

#include <math.h>

#include "triage-scroll-chain.h"

/*
 * A scrolled window inside a scrolling page (a text answer, an AFP
 * artifact) takes every turn of the wheel over it in GTK 4.8, even with
 * nothing to scroll or at its end: the page under the pointer then no
 * longer scrolls. Here the inner one keeps the wheel only while it can move
 * that way; otherwise the page moves, by the step GtkScrolledWindow gives a
 * wheel click (the page size to the power 2/3) or by the touchpad's pixels.
 */

#define EDGE_EPSILON 0.5

static gboolean
can_scroll (GtkAdjustment *adjustment,
            double         delta)
{
  double value = gtk_adjustment_get_value (adjustment);

  if (delta > 0)
    return value < gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment) -
                   EDGE_EPSILON;
  if (delta < 0)
    return value > gtk_adjustment_get_lower (adjustment) + EDGE_EPSILON;
  return FALSE;
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           GtkScrolledWindow        *inner)
{
  GtkWidget *parent = gtk_widget_get_parent (GTK_WIDGET (inner));
  GtkWidget *outer = parent != NULL ? gtk_widget_get_ancestor (parent, GTK_TYPE_SCROLLED_WINDOW) : NULL;
  GtkAdjustment *adjustment;
  double step;

  if (dy == 0 || outer == NULL || can_scroll (gtk_scrolled_window_get_vadjustment (inner), dy))
    return GDK_EVENT_PROPAGATE;

  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (outer));
  step = dy;
  if (gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL)
    step *= pow (gtk_adjustment_get_page_size (adjustment), 2.0 / 3.0);
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_value (adjustment) + step);

  return GDK_EVENT_STOP;
}

/**
 * triage_scroll_chain_attach:
 * @inner: a scrolled window inside another
 *
 * Hands the wheel over @inner to the scrolled window around it whenever
 * @inner cannot move that way (nothing to scroll, or at its end).
 */
void
triage_scroll_chain_attach (GtkScrolledWindow *inner)
{
  GtkEventController *controller;

  g_return_if_fail (GTK_IS_SCROLLED_WINDOW (inner));

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect_object (controller, "scroll", G_CALLBACK (on_scroll), inner, 0);
  gtk_widget_add_controller (GTK_WIDGET (inner), controller);
}
