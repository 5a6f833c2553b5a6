/* triage-attachment-window.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-attachment-window"

#include <glib/gi18n.h>

#include "triage-attachment-window.h"
#include "triage-decision-format.h"

/*
 * A window around one TriageAttachmentView, for the app to open on
 * "attachment-activated". A preview the person closes is kept, hidden and
 * emptied, for the next one (triage_attachment_window_show()): with GTK's GL
 * renderer every new toplevel makes a GL context of its own, and on a
 * software GL (Mesa's llvmpipe, as under Xvfb or on a machine without a
 * GPU driver) its first frame costs 65–90 ms of the main thread, spent
 * compiling shaders for that context; a window shown again draws its first
 * frame in about 5 ms. One is kept at most.
 */

/* The preview closed last, hidden, for the next one; NULL when none is. */
static TriageAttachmentWindow *spare;
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

/* Closed by the person: kept as the spare if there is none, emptied. */
static gboolean
triage_attachment_window_close_request (GtkWindow *window)
{
  TriageAttachmentWindow *self = TRIAGE_ATTACHMENT_WINDOW (window);

  if (spare != NULL)
    return GTK_WINDOW_CLASS (triage_attachment_window_parent_class)->close_request (window);

  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  triage_attachment_view_set_attachment (self->view, NULL, NULL);
  gtk_window_set_transient_for (window, NULL);
  spare = self;
  g_object_add_weak_pointer (G_OBJECT (spare), (gpointer *) &spare);

  return TRUE;
}

static void
triage_attachment_window_class_init (TriageAttachmentWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = triage_attachment_window_dispose;
  GTK_WINDOW_CLASS (klass)->close_request = triage_attachment_window_close_request;

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

static void
show_attachment (TriageAttachmentWindow *self,
                 const AtpAttachment    *attachment,
                 const char             *service_name)
{
  g_autofree char *title = triage_format_cut_text (attachment->description ? attachment->description
                                                                           : _("Attachment"),
                                                   TRIAGE_SHOWN_ROW_CHARS);

  gtk_label_set_text (self->title_label, title);
  gtk_window_set_title (GTK_WINDOW (self), title);
  triage_attachment_view_set_attachment (self->view, attachment, service_name);
}

/**
 * triage_attachment_window_show:
 * @parent: (nullable): the window it belongs to
 * @attachment: the attachment to show; copied
 * @service_name: (nullable): the name of the service that sent it
 *
 * Shows @attachment in the preview window closed last, if one is kept, or
 * in a new one, and presents it.
 *
 * Returns: (transfer none): the window
 */
GtkWidget *
triage_attachment_window_show (GtkWindow           *parent,
                               const AtpAttachment *attachment,
                               const char          *service_name)
{
  TriageAttachmentWindow *self;

  g_return_val_if_fail (!parent || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (attachment != NULL, NULL);

  if (spare == NULL)
    {
      GtkWidget *window = triage_attachment_window_new (parent, attachment, service_name);

      gtk_window_present (GTK_WINDOW (window));
      return window;
    }

  self = spare;
  g_object_remove_weak_pointer (G_OBJECT (spare), (gpointer *) &spare);
  spare = NULL;
  gtk_window_set_transient_for (GTK_WINDOW (self), parent);
  show_attachment (self, attachment, service_name);
  gtk_window_present (GTK_WINDOW (self));

  return GTK_WIDGET (self);
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

  g_return_val_if_fail (!parent || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (attachment != NULL, NULL);

  self = g_object_new (TRIAGE_TYPE_ATTACHMENT_WINDOW,
                       "transient-for", parent,
                       NULL);

  show_attachment (self, attachment, service_name);

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
