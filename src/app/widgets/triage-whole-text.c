/* triage-whole-text.c — a request's whole text, in the text preview
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-whole-text"

#include <glib/gi18n.h>
#include <string.h>

#include "triage-decision-format.h"
#include "triage-whole-text.h"

/*
 * What a view shows of a request is cut (triage-decision-format.h: Pango
 * lays out a label whole at every measure, and an agent's 100 kB
 * description kept the main loop busy for a tenth of a second). The whole
 * text stays one click away: its title, description and metadata as a text
 * attachment in the attachment preview, which prepares a large text in a
 * thread, loads it in steps, cuts its long lines for display and searches
 * all of it.
 */

/**
 * triage_whole_text_is_cut:
 * @notification: a request
 *
 * Returns: whether a view shows less than the whole of its title,
 *   description or a metadata value
 */
gboolean
triage_whole_text_is_cut (AtpNotification *notification)
{
  JsonObject *metadata = notification->context.metadata;
  const char *description = notification->context.description;
  g_autoptr(GList) members = NULL;

  /* No more bytes than the limit: no more characters either. */
  if (strlen (notification->context.title) > TRIAGE_SHOWN_TITLE_CHARS &&
      (gsize) g_utf8_strlen (notification->context.title, -1) > TRIAGE_SHOWN_TITLE_CHARS)
    return TRUE;
  if (description != NULL && strlen (description) > TRIAGE_SHOWN_DESCRIPTION_CHARS &&
      (gsize) g_utf8_strlen (description, -1) > TRIAGE_SHOWN_DESCRIPTION_CHARS)
    return TRUE;
  if (metadata == NULL)
    return FALSE;

  members = json_object_get_members (metadata);
  for (GList *l = members; l != NULL; l = l->next)
    {
      g_autofree char *value = triage_format_json_value (json_object_get_member (metadata, l->data), 0);

      if ((gsize) g_utf8_strlen (value, -1) > TRIAGE_SHOWN_VALUE_CHARS)
        return TRUE;
    }

  return FALSE;
}

/**
 * triage_whole_text_dup:
 * @notification: a request
 *
 * Returns: (transfer full): its title, description and metadata ("key: value"
 *   lines), whole
 */
char *
triage_whole_text_dup (AtpNotification *notification)
{
  JsonObject *metadata = notification->context.metadata;
  GString *text = g_string_new (notification->context.title);
  g_autoptr(GList) members = NULL;

  if (triage_format_get_description (notification) != NULL)
    g_string_append_printf (text, "\n\n%s", notification->context.description);

  if (metadata != NULL && json_object_get_size (metadata) > 0)
    {
      g_string_append (text, "\n");
      members = json_object_get_members (metadata);
      for (GList *l = members; l != NULL; l = l->next)
        {
          g_autofree char *value = triage_format_json_value (json_object_get_member (metadata, l->data), 0);

          g_string_append_printf (text, "\n%s: %s", (const char *) l->data, value);
        }
    }
  g_string_append_c (text, '\n');

  return g_string_free (text, FALSE);
}

/**
 * triage_whole_text_show_text:
 * @from: the widget the person asked from
 * @text: a request's whole text, as a view of its protocol puts it together
 * @service_name: (nullable): the name of the service that sent the request
 *
 * Opens @text in the text preview, through the `win.preview-text` action of
 * the window @from is in (the main window shows it over the request).
 *
 * Returns: whether a window took it (%FALSE for a view outside the main
 *   window, which has no preview)
 */
gboolean
triage_whole_text_show_text (GtkWidget  *from,
                             const char *text,
                             const char *service_name)
{
  g_return_val_if_fail (GTK_IS_WIDGET (from), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  /* Translators: the title of the preview that shows a request's whole text */
  return gtk_widget_activate_action (from, "win.preview-text", "(sss)", _("The Whole Request"),
                                     text, service_name ? service_name : "");
}

/**
 * triage_whole_text_show:
 * @from: the widget the person asked from
 * @notification: a request
 *
 * Opens the request's whole text (triage_whole_text_dup()) in the text
 * preview (triage_whole_text_show_text()).
 *
 * Returns: whether a window took it
 */
gboolean
triage_whole_text_show (GtkWidget       *from,
                        AtpNotification *notification)
{
  g_autofree char *text = triage_whole_text_dup (notification);

  return triage_whole_text_show_text (from, text, notification->service.name);
}
