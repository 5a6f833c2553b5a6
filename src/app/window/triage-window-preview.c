/* triage-window-preview.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-window"

#include <glib/gi18n.h>
#include <string.h>

#include "triage-window-private.h"

/*
 * A preview, of an attachment or of a request's whole text, is a page
 * shown over the window's views (TriageAttachmentPage, in preview_stack),
 * with a back button and the attachment's name, as GNOME apps show a
 * detail. It used to be a window of its own; with GTK's GL renderer every
 * new toplevel makes a GL context, and on a software GL (Mesa's llvmpipe)
 * the first frame of that context cost the main thread 60–127 ms of shader
 * compiling, over issue 16's 100 ms. This window's context is made once, at
 * start. The page is shown without a transition: AdwLeaflet's slide (its
 * shadow and dimming drawn over the views) cost 270–500 ms of the main
 * thread there, compiled again for each new size.
 *
 * Back (the button, Escape, Alt+Left) returns to the request exactly as it
 * was, the keyboard on the attachment row (or the button) the preview was
 * opened from. Going anywhere else (Alt+1, Alt+2, the next request, a
 * bubble) closes the preview first.
 */

gboolean
_triage_window_preview_shown (TriageWindow *self)
{
  return self->attachment_page != NULL;
}

static void
on_page_back (TriageWindow *self)
{
  _triage_window_close_preview (self);
}

/* @whole_lines: a text's long lines shown whole, wrapped (a request's text). */
static void
show_attachment (TriageWindow        *self,
                 const AtpAttachment *attachment,
                 const char          *service_name,
                 gboolean             whole_lines)
{
  GtkWidget *page, *shown;
  TriageAttachmentView *view;

  if (self->attachment_page == NULL)
    g_set_weak_pointer (&self->preview_return, gtk_root_get_focus (GTK_ROOT (self)));

  /* A page of its own each time: GTK 4.8 left a page shown again with a
   * scrollbar's trough waiting for an allocation it never got ("Trying to
   * snapshot GtkGizmo without a current allocation"). */
  shown = GTK_WIDGET (self->attachment_page);
  page = triage_attachment_page_new ();
  view = triage_attachment_page_get_view (TRIAGE_ATTACHMENT_PAGE (page));
  triage_attachment_view_set_whole_lines (view, whole_lines);
  g_signal_connect_object (page, "back", G_CALLBACK (on_page_back), self, G_CONNECT_SWAPPED);
  triage_attachment_page_set_attachment (TRIAGE_ATTACHMENT_PAGE (page), attachment, service_name);
  gtk_stack_page_set_title (gtk_stack_add_child (self->preview_stack, page), _("Preview"));
  self->attachment_page = TRIAGE_ATTACHMENT_PAGE (page);
  gtk_stack_set_visible_child (self->preview_stack, page);
  if (shown != NULL)
    gtk_stack_remove (self->preview_stack, shown);

  /* Where GTK puts it in a new window: the view's first control. */
  if (!gtk_widget_child_focus (GTK_WIDGET (triage_attachment_page_get_view (self->attachment_page)),
                               GTK_DIR_TAB_FORWARD))
    gtk_widget_child_focus (page, GTK_DIR_TAB_FORWARD);
}

/**
 * triage_window_show_attachment:
 * @self: a #TriageWindow
 * @attachment: the attachment to show; copied
 * @service_name: (nullable): the name of the service that sent it
 *
 * Previews @attachment over the window's views, the keyboard in the
 * preview. A preview shown already is replaced; back returns to where the
 * keyboard was before the first.
 */
void
triage_window_show_attachment (TriageWindow        *self,
                               const AtpAttachment *attachment,
                               const char          *service_name)
{
  g_return_if_fail (TRIAGE_IS_WINDOW (self));
  g_return_if_fail (attachment != NULL);

  show_attachment (self, attachment, service_name, FALSE);
}

/**
 * triage_window_get_attachment_view:
 * @self: a #TriageWindow
 *
 * Returns: (transfer none) (nullable): the view of the preview shown, or
 *   %NULL when none is
 */
TriageAttachmentView *
triage_window_get_attachment_view (TriageWindow *self)
{
  g_return_val_if_fail (TRIAGE_IS_WINDOW (self), NULL);

  if (self->attachment_page == NULL)
    return NULL;

  return triage_attachment_page_get_view (self->attachment_page);
}

/* Back to the views (they were left as they were), the keyboard where it
 * was, unless it moved on meanwhile; the page goes (a load in progress
 * stops, the text is freed). */
void
_triage_window_close_preview (TriageWindow *self)
{
  GtkWidget *page = GTK_WIDGET (self->attachment_page);
  GtkWidget *focus;

  if (page == NULL)
    return;

  focus = gtk_root_get_focus (GTK_ROOT (self));
  self->attachment_page = NULL;
  gtk_stack_set_visible_child (self->preview_stack, GTK_WIDGET (self->views));
  if (self->preview_return != NULL &&
      (focus == NULL || focus == page || gtk_widget_is_ancestor (focus, page)) &&
      gtk_widget_get_root (self->preview_return) == GTK_ROOT (self))
    gtk_widget_grab_focus (self->preview_return);
  g_clear_weak_pointer (&self->preview_return);
  gtk_stack_remove (self->preview_stack, page);
}

/* win.preview-text (sss): a title, a text and the name of the service that
 * sent it, as a text attachment ("Show the Whole Request",
 * triage-whole-text.c). */
void
_triage_window_preview_text_action (GtkWidget  *widget,
                                    const char *action_name,
                                    GVariant   *parameter)
{
  TriageWindow *self = TRIAGE_WINDOW (widget);
  AtpAttachment attachment = { 0 };
  const char *title, *text, *service_name;
  gsize length;

  g_variant_get (parameter, "(&s&s&s)", &title, &text, &service_name);
  length = strlen (text);
  attachment.type = (char *) "text/plain";
  attachment.description = (char *) title;
  attachment.data = g_base64_encode ((const guchar *) text, length);
  attachment.decoded_size = length;
  show_attachment (self, &attachment, *service_name ? service_name : NULL, TRUE);
  g_free (attachment.data);
}
