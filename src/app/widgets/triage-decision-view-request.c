/* triage-decision-view-request.c — what the request says
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-decision-view"

#include <glib/gi18n.h>

#include "triage-countdown-chip.h"
#include "triage-decision-format.h"
#include "triage-decision-view-private.h"
#include "triage-whole-text.h"

/*
 * Who asks (service name and id, project), what (title, description,
 * metadata, attachments) and by when (a countdown that turns critical under
 * five minutes). Everything here is the service's untrusted text: plain-text
 * labels, never markup.
 */

#define MAX_METADATA_ROWS 200

static void
clear_list (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

static GtkWidget *
metadata_row_new (const char *key,
                  JsonNode   *value)
{
  g_autofree char *text = triage_format_json_value (value, TRIAGE_SHOWN_VALUE_CHARS);
  g_autofree char *shown = triage_format_shown_text (text, 0);
  g_autofree char *key_text = triage_format_shown_text (key, TRIAGE_SHOWN_NAME_CHARS);
  GtkWidget *row, *box, *key_label, *value_label;

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  gtk_widget_add_css_class (box, "metadata-row");

  key_label = gtk_label_new (key_text);
  gtk_label_set_use_markup (GTK_LABEL (key_label), FALSE);
  gtk_label_set_wrap (GTK_LABEL (key_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (key_label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (key_label), 0);
  gtk_widget_add_css_class (key_label, "caption");
  gtk_widget_add_css_class (key_label, "dim-label");
  gtk_box_append (GTK_BOX (box), key_label);

  value_label = gtk_label_new (shown);
  gtk_label_set_use_markup (GTK_LABEL (value_label), FALSE);
  gtk_label_set_wrap (GTK_LABEL (value_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (value_label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (value_label), 0);
  gtk_label_set_selectable (GTK_LABEL (value_label), TRUE);
  /* Selectable with the pointer, but not one tab stop per value; nor a trap:
   * GTK 4.8's selectable label takes Tab even when it cannot be focused,
   * and the keyboard stayed where it was at every press. */
  gtk_widget_set_focusable (value_label, FALSE);
  gtk_widget_set_can_focus (value_label, FALSE);
  if (value != NULL && !JSON_NODE_HOLDS_VALUE (value))
    gtk_widget_add_css_class (value_label, "monospace");
  gtk_box_append (GTK_BOX (box), value_label);

  row = gtk_list_box_row_new ();
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_set_focusable (row, FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, key_text,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text,
                                  -1);

  return row;
}

void
_triage_decision_view_build_metadata (TriageDecisionView *self)
{
  JsonObject *metadata = self->notification->context.metadata;
  g_autoptr(GList) members = NULL;
  guint n = 0, total;

  clear_list (self->metadata_list);
  gtk_widget_set_visible (GTK_WIDGET (self->metadata_more), FALSE);

  total = metadata ? json_object_get_size (metadata) : 0;
  gtk_widget_set_visible (self->metadata_section, total > 0);
  if (total == 0)
    return;

  /* In the order sent. */
  members = json_object_get_members (metadata);
  for (GList *l = members; l != NULL && n < MAX_METADATA_ROWS; l = l->next, n++)
    gtk_list_box_append (self->metadata_list,
                         metadata_row_new (l->data, json_object_get_member (metadata, l->data)));

  if (total > MAX_METADATA_ROWS)
    {
      g_autofree char *more = NULL;

      /* Translators: %u is a number of metadata entries not shown */
      more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u more entry not shown",
                                           "%u more entries not shown", total - MAX_METADATA_ROWS),
                              total - MAX_METADATA_ROWS);
      gtk_label_set_label (self->metadata_more, more);
      gtk_widget_set_visible (GTK_WIDGET (self->metadata_more), TRUE);
    }
}

static GtkWidget *
attachment_row_new (const AtpAttachment *attachment)
{
  g_autofree char *details = triage_format_attachment_details (attachment);
  g_autofree char *content_type = g_content_type_from_mime_type (attachment->type);
  g_autofree char *title = triage_format_shown_text (attachment->description && *attachment->description
                                                     ? attachment->description : attachment->type,
                                                   TRIAGE_SHOWN_ROW_CHARS);
  g_autoptr(GIcon) icon = NULL;
  GtkWidget *row, *image;

  row = adw_action_row_new ();
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), details);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);

  if (content_type != NULL)
    icon = g_content_type_get_symbolic_icon (content_type);
  image = icon ? gtk_image_new_from_gicon (icon)
               : gtk_image_new_from_icon_name ("mail-attachment-symbolic");
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), image);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("go-next-symbolic"));
  gtk_widget_set_tooltip_text (row, _("Preview"));

  return row;
}

void
_triage_decision_view_build_attachments (TriageDecisionView *self)
{
  GPtrArray *attachments = self->notification->context.attachments;

  clear_list (self->attachment_list);
  gtk_widget_set_visible (self->attachments_section, attachments->len > 0);

  for (guint i = 0; i < attachments->len; i++)
    gtk_list_box_append (self->attachment_list, attachment_row_new (g_ptr_array_index (attachments, i)));
}

void
_triage_decision_view_build_header (TriageDecisionView *self)
{
  AtpNotification *notification = self->notification;
  g_autofree char *received = NULL;
  g_autofree char *sent_at = NULL;
  g_autofree char *request_id = NULL;

  g_autofree char *service = triage_format_cut_text (notification->service.name,
                                                     TRIAGE_SHOWN_NAME_CHARS);
  /* Labels that wrap: places to break a long word, as the title has. */
  g_autofree char *shown_service = triage_format_shown_text (notification->service.name,
                                                             TRIAGE_SHOWN_NAME_CHARS);
  g_autofree char *service_id = triage_format_shown_text (notification->service.id ? notification->service.id : "",
                                                          TRIAGE_SHOWN_NAME_CHARS);
  g_autofree char *title = triage_format_shown_text (notification->context.title,
                                                   TRIAGE_SHOWN_TITLE_CHARS);
  const char *shown_description = triage_format_get_description (notification);
  g_autofree char *description = triage_format_shown_text (shown_description ? shown_description : "",
                                                         TRIAGE_SHOWN_DESCRIPTION_CHARS);
  g_autofree char *project = triage_format_cut_text (notification->context.project ? notification->context.project : "",
                                                     TRIAGE_SHOWN_NAME_CHARS);

  adw_avatar_set_text (self->service_avatar, service);
  gtk_label_set_label (self->service_label, shown_service);
  gtk_label_set_label (self->service_id_label, service_id);
  gtk_widget_set_visible (GTK_WIDGET (self->service_id_label), notification->service.id != NULL);

  gtk_label_set_label (self->title_label, title);
  gtk_label_set_label (self->description_label, description);
  gtk_widget_set_visible (GTK_WIDGET (self->description_label), shown_description != NULL);
  gtk_widget_set_visible (self->whole_text_button, triage_whole_text_is_cut (notification));

  gtk_label_set_label (self->project_label, project);
  gtk_widget_set_visible (self->project_chip, notification->context.project != NULL);

  received = triage_format_time (notification->timestamp, NULL);
  /* Translators: when the service sent the request; %s is a time */
  sent_at = g_strdup_printf (_("Sent %s"), received);
  gtk_label_set_label (self->received_label, sent_at);

  /* Translators: %s is the request's id (a UUID), for quoting it */
  request_id = g_strdup_printf (_("Request %s"), notification->id);
  gtk_label_set_label (self->id_label, request_id);
}

void
_triage_decision_view_show_whole_text (TriageDecisionView *self)
{
  if (self->notification != NULL)
    triage_whole_text_show (GTK_WIDGET (self), self->notification);
}

/* Forgets the request's rows (the view shows no request). */
void
_triage_decision_view_clear_request (TriageDecisionView *self)
{
  clear_list (self->metadata_list);
  clear_list (self->attachment_list);
}

/* The countdown */

static void
countdown_cb (gpointer data)
{
  TriageDecisionView *self = data;

  self->countdown_id = 0;
  _triage_decision_view_update_countdown (self);
}

void
_triage_decision_view_update_countdown (TriageDecisionView *self)
{
  GTimeSpan remaining;

  g_clear_handle_id (&self->countdown_id, g_source_remove);

  /* Settled, or answered and recorded: the deadline no longer matters. */
  if (self->notification == NULL || self->notification->deadline == NULL ||
      atp_status_is_terminal (self->state.status) || self->state.delivery == TRIAGE_DELIVERY_SENT)
    {
      gtk_widget_set_visible (self->countdown_box, FALSE);
      return;
    }

  remaining = triage_countdown_chip_update (self->countdown_box, self->countdown_label,
                                            &self->spoken_countdown, self->notification->deadline);
  if (remaining <= 0)
    {
      if (!self->expired_locally)
        {
          self->expired_locally = TRUE;
          _triage_decision_view_update_state (self);
        }
      return;
    }

  /* Wake up when the shown second changes (the text rounds up). */
  self->countdown_id = g_timeout_add_once ((((remaining - 1) % G_TIME_SPAN_SECOND) + 1) / 1000 + 1,
                                           countdown_cb, self);
}
