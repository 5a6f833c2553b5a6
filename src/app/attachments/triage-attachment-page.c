/* triage-attachment-page.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-attachment-page"

#include <glib/gi18n.h>

#include "triage-attachment-page.h"
#include "triage-decision-format.h"

/*
 * One TriageAttachmentView under a header bar with a back button and the
 * attachment's name: the page the main window shows over the request to
 * preview an attachment (or a request's whole text), as GNOME apps show a
 * detail, rather than in a window of its own. With GTK's GL renderer every
 * new toplevel makes a GL context of its own, and on a software GL (Mesa's
 * llvmpipe, as under Xvfb or on a machine without a GPU driver) its first
 * frame cost the main thread 60–127 ms, compiling shaders for that context;
 * a page of the main window draws with the context the window already has.
 *
 * Back (the button, Escape) emits ::back: the window decides where the
 * keyboard goes (the attachment row the person came from).
 */

struct _TriageAttachmentPage
{
  AdwBin                parent_instance;

  GtkLabel             *title_label;
  TriageAttachmentView *view;
};

G_DEFINE_FINAL_TYPE (TriageAttachmentPage, triage_attachment_page, ADW_TYPE_BIN)

enum {
  BACK,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static void
back_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  g_signal_emit (widget, signals [BACK], 0);
}

static void
triage_attachment_page_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), TRIAGE_TYPE_ATTACHMENT_PAGE);

  G_OBJECT_CLASS (triage_attachment_page_parent_class)->dispose (object);
}

static void
triage_attachment_page_class_init (TriageAttachmentPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = triage_attachment_page_dispose;

  /**
   * TriageAttachmentPage::back:
   * @self: the page
   *
   * The person is done with the preview (the back button, Escape).
   */
  signals [BACK] =
    g_signal_new ("back", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  g_type_ensure (TRIAGE_TYPE_ATTACHMENT_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/attachments/triage-attachment-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentPage, title_label);
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentPage, view);

  gtk_widget_class_install_action (widget_class, "page.back", NULL, back_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "page.back", NULL);
}

static void
triage_attachment_page_init (TriageAttachmentPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * triage_attachment_page_new:
 *
 * Returns: (transfer floating): a new, empty page
 */
GtkWidget *
triage_attachment_page_new (void)
{
  return g_object_new (TRIAGE_TYPE_ATTACHMENT_PAGE, NULL);
}

/**
 * triage_attachment_page_set_attachment:
 * @self: a #TriageAttachmentPage
 * @attachment: (nullable): the attachment to show, copied; %NULL empties the page
 * @service_name: (nullable): the name of the service that sent it
 *
 * Shows @attachment, its description as the title.
 */
void
triage_attachment_page_set_attachment (TriageAttachmentPage *self,
                                       const AtpAttachment  *attachment,
                                       const char           *service_name)
{
  g_autofree char *title = NULL;

  g_return_if_fail (TRIAGE_IS_ATTACHMENT_PAGE (self));

  if (attachment != NULL)
    title = triage_format_cut_text (attachment->description ? attachment->description
                                                            : _("Attachment"),
                                    TRIAGE_SHOWN_ROW_CHARS);
  gtk_label_set_text (self->title_label, title ? title : "");
  triage_attachment_view_set_attachment (self->view, attachment, service_name);
}

/**
 * triage_attachment_page_get_title:
 * @self: a #TriageAttachmentPage
 *
 * Returns: the title shown: the attachment's description, cut to a line
 */
const char *
triage_attachment_page_get_title (TriageAttachmentPage *self)
{
  g_return_val_if_fail (TRIAGE_IS_ATTACHMENT_PAGE (self), NULL);

  return gtk_label_get_text (self->title_label);
}

/**
 * triage_attachment_page_get_view:
 * @self: a #TriageAttachmentPage
 *
 * Returns: (transfer none): the view inside
 */
TriageAttachmentView *
triage_attachment_page_get_view (TriageAttachmentPage *self)
{
  g_return_val_if_fail (TRIAGE_IS_ATTACHMENT_PAGE (self), NULL);

  return self->view;
}
