/* triage-countdown-chip.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-countdown-chip"

#include <glib/gi18n.h>

#include "triage-countdown-chip.h"
#include "triage-decision-format.h"

/**
 * triage_countdown_chip_update:
 * @box: the chip, whose accessible name is the countdown
 * @label: the label in it, which ticks (a presentation to a screen reader)
 * @spoken: (inout) (transfer full) (nullable): the name last given to @box
 * @deadline: when the request is due
 *
 * Shows the time left until @deadline on a request's countdown chip:
 * the label to the second, the deadline's time as its tooltip and
 * description, critical under five minutes, expired at zero. Its name has
 * no seconds and, like its description, is set only when it changes: GTK
 * tells a screen reader of every change, and one a second is noise.
 *
 * Returns: the time left, as shown
 */
GTimeSpan
triage_countdown_chip_update (GtkWidget  *box,
                              GtkLabel   *label,
                              char      **spoken,
                              GDateTime  *deadline)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *text = NULL;
  g_autofree char *time = NULL;
  g_autofree char *tooltip = NULL;
  g_autofree char *name = NULL;
  GTimeSpan remaining;

  g_return_val_if_fail (GTK_IS_WIDGET (box), 0);
  g_return_val_if_fail (GTK_IS_LABEL (label), 0);
  g_return_val_if_fail (spoken != NULL, 0);
  g_return_val_if_fail (deadline != NULL, 0);

  remaining = g_date_time_difference (deadline, now);
  text = triage_format_countdown (remaining);
  gtk_label_set_label (label, text);

  time = triage_format_time (deadline, now);
  /* Translators: %s is the time of a deadline */
  tooltip = g_strdup_printf (_("Deadline: %s"), time);
  if (g_strcmp0 (tooltip, gtk_widget_get_tooltip_text (box)) != 0)
    {
      gtk_widget_set_tooltip_text (box, tooltip);
      gtk_accessible_update_property (GTK_ACCESSIBLE (box),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, tooltip, -1);
    }
  name = triage_format_countdown_spoken (remaining);
  if (g_strcmp0 (name, *spoken) != 0)
    {
      g_free (*spoken);
      *spoken = g_steal_pointer (&name);
      gtk_accessible_update_property (GTK_ACCESSIBLE (box),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, *spoken, -1);
    }
  gtk_widget_set_visible (box, TRUE);

  if (remaining < TRIAGE_COUNTDOWN_CRITICAL)
    gtk_widget_add_css_class (box, "critical");
  else
    gtk_widget_remove_css_class (box, "critical");
  if (remaining <= 0)
    gtk_widget_add_css_class (box, "expired");
  else
    gtk_widget_remove_css_class (box, "expired");

  return remaining;
}
