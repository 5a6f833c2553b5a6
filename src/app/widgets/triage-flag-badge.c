/* triage-flag-badge.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-flag-badge"

#include "triage-atp-format.h"
#include "triage-decision-format.h"
#include "triage-flag-badge.h"

/**
 * triage_flag_badge_new:
 * @flag_name: a flag as sent, known or not
 *
 * A badge for an action's flag: an icon and a word, tinted by a theme
 * colour that is never the only sign. The tooltip and the accessible
 * description say what the flag means.
 *
 * Returns: (transfer floating): the badge
 */
GtkWidget *
triage_flag_badge_new (const char *flag_name)
{
  TriageFlagInfo info;
  GtkWidget *badge, *image, *label;

  g_return_val_if_fail (flag_name != NULL, NULL);

  triage_flag_info_init (&info, flag_name);

  badge = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  gtk_widget_add_css_class (badge, "flag-badge");
  if (info.style_class != NULL)
    {
      g_autofree char *css_class = g_strconcat ("flag-", info.style_class, NULL);

      gtk_widget_add_css_class (badge, css_class);
    }
  gtk_widget_set_valign (badge, GTK_ALIGN_CENTER);
  gtk_widget_set_halign (badge, GTK_ALIGN_START);
  gtk_widget_set_tooltip_text (badge, info.consequence);

  /* The word says it; the icon is decoration for assistive technologies. */
  image = g_object_new (GTK_TYPE_IMAGE,
                        "icon-name", info.icon_name,
                        "accessible-role", GTK_ACCESSIBLE_ROLE_PRESENTATION,
                        NULL);
  gtk_box_append (GTK_BOX (badge), image);

  label = gtk_label_new (info.label);
  gtk_label_set_use_markup (GTK_LABEL (label), FALSE);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_box_append (GTK_BOX (badge), label);

  gtk_accessible_update_property (GTK_ACCESSIBLE (badge),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, info.consequence, -1);
  g_object_set_data_full (G_OBJECT (badge), "triage-flag", g_strdup (flag_name), g_free);

  triage_flag_info_clear (&info);

  return badge;
}
