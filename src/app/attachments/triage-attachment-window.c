/* triage-attachment-window.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-attachment-window"

#include <glib/gi18n.h>

#include "triage-attachment-window.h"
#include "triage-decision-format.h"

/* A window around one TriageAttachmentView, for the app to open on "attachment-activated". */
struct _TriageAttachmentWindow
{
  AdwWindow             parent_instance;

  GtkLabel             *title_label;
  TriageAttachmentView *view;
};

G_DEFINE_FINAL_TYPE (TriageAttachmentWindow, triage_attachment_window, ADW_TYPE_WINDOW)

static void
triage_attachment_window_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), TRIAGE_TYPE_ATTACHMENT_WINDOW);

  G_OBJECT_CLASS (triage_attachment_window_parent_class)->dispose (object);
}

static void
triage_attachment_window_class_init (TriageAttachmentWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = triage_attachment_window_dispose;

  g_type_ensure (TRIAGE_TYPE_ATTACHMENT_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/attachments/triage-attachment-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentWindow, view);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK,
                                       "window.close", NULL);
}

static void
triage_attachment_window_init (TriageAttachmentWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * triage_attachment_window_new:
 * @parent: (nullable): the window it belongs to
 * @attachment: the attachment to show; copied
 * @service_name: (nullable): the name of the service that sent it
 *
 * Returns: (transfer floating): a new window; present it with gtk_window_present()
 */
GtkWidget *
triage_attachment_window_new (GtkWindow           *parent,
                              const AtpAttachment *attachment,
                              const char          *service_name)
{
  TriageAttachmentWindow *self;
  g_autofree char *title = NULL;

  g_return_val_if_fail (!parent || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (attachment != NULL, NULL);

  self = g_object_new (TRIAGE_TYPE_ATTACHMENT_WINDOW,
                       "transient-for", parent,
                       NULL);

  title = triage_format_cut_text (attachment->description ? attachment->description
                                                         : _("Attachment"),
                                  TRIAGE_SHOWN_ROW_CHARS);
  gtk_label_set_text (self->title_label, title);
  gtk_window_set_title (GTK_WINDOW (self), title);
  triage_attachment_view_set_attachment (self->view, attachment, service_name);

  return GTK_WIDGET (self);
}

/**
 * triage_attachment_window_get_view:
 * @self: a #TriageAttachmentWindow
 *
 * Returns: (transfer none): the view inside
 */
TriageAttachmentView *
triage_attachment_window_get_view (TriageAttachmentWindow *self)
{
  g_return_val_if_fail (TRIAGE_IS_ATTACHMENT_WINDOW (self), NULL);

  return self->view;
}
