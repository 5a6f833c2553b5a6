/* triage-attachment-view-address.c — an attachment's address, loaded only when asked
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-attachment-view"

#include <glib/gi18n.h>

#include "triage-attachment-error.h"
#include "triage-attachment-fetch.h"
#include "triage-attachment-view-private.h"
#include "triage-decision-format.h"

/* An address that does not even parse is shown escaped, and cut here. */
#define MAX_RAW_URI_DISPLAY 2048

/* Shown for an address that does not parse at all: escaped, no emphasis. */
static char *
escape_raw_uri (const char *uri)
{
  GString *string = g_string_new (NULL);

  for (const guchar *p = (const guchar *) uri; *p && string->len < MAX_RAW_URI_DISPLAY; p++)
    {
      if (*p <= 0x20 || *p >= 0x7f)
        g_string_append_printf (string, "%%%02X", *p);
      else
        g_string_append_c (string, *p);
    }

  if (uri[0] != '\0' && string->len >= MAX_RAW_URI_DISPLAY)
    g_string_append (string, "…");

  return g_string_free (string, FALSE);
}

/* Shows @display, emphasising its host, where the user decides whether to load it. */
static void
show_address (TriageAttachmentView *self,
              const char           *display,
              gsize                 host_start,
              gsize                 host_end)
{
  gtk_label_set_text (self->uri_label, display);
  gtk_label_set_attributes (self->uri_label, NULL);
  if (host_end > host_start)
    {
      /* Attributes built here, never markup: the address is untrusted text. */
      PangoAttrList *attrs = pango_attr_list_new ();
      PangoAttribute *weight = pango_attr_weight_new (PANGO_WEIGHT_BOLD);
      PangoAttribute *underline = pango_attr_underline_new (PANGO_UNDERLINE_SINGLE);

      weight->start_index = underline->start_index = host_start;
      weight->end_index = underline->end_index = host_end;
      pango_attr_list_insert (attrs, weight);
      pango_attr_list_insert (attrs, underline);
      gtk_label_set_attributes (self->uri_label, attrs);
      pango_attr_list_unref (attrs);
    }

  gtk_widget_set_visible (self->uri_box, TRUE);
  gtk_image_set_from_icon_name (self->type_icon, "web-browser-symbolic");
}

/* Offers to load self->uri, which passed the address rules. */
static void
offer_load (TriageAttachmentView *self)
{
  g_autofree char *load = NULL;
  GtkLabel *label;

  /* Translators: %s is a host name, e.g. "Load from example.com" */
  load = g_strdup_printf (_("Load from %s"), g_uri_get_host (self->uri));
  gtk_button_set_label (self->load_button, load);
  /* A long host name wraps rather than widening the window. */
  label = GTK_LABEL (gtk_button_get_child (self->load_button));
  gtk_label_set_wrap (label, TRUE);
  gtk_label_set_wrap_mode (label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_justify (label, GTK_JUSTIFY_CENTER);
  _triage_attachment_view_set_kind (self, TRIAGE_ATTACHMENT_KIND_REMOTE);
}

void
_triage_attachment_view_show_uri (TriageAttachmentView *self,
                                  const char           *uri)
{
  g_autoptr(GUri) parsed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *display = NULL;
  g_autofree char *intro = NULL;
  gsize host_start = 0;
  gsize host_end = 0;

  parsed = g_uri_parse (uri, G_URI_FLAGS_ENCODED, NULL);
  if (parsed != NULL)
    display = triage_attachment_uri_display (parsed, &host_start, &host_end);
  else
    display = escape_raw_uri (uri);

  show_address (self, display, host_start, host_end);

  if (self->service_name != NULL)
    /* Translators: %s is the name of the service (an AI agent) that sent the request */
    intro = g_strdup_printf (_("%s attached a link to a file on another server:"),
                             self->service_name);
  else
    intro = g_strdup (_("This attachment is a link to a file on another server:"));
  gtk_label_set_text (self->uri_intro_label, intro);

  self->uri = triage_attachment_check_uri (display, &error);
  if (self->uri == NULL)
    {
      _triage_attachment_view_show_error (self, error);
      return;
    }

  gtk_label_set_text (self->load_hint_label,
                      _("Nothing is downloaded until you choose to. The server will see "
                        "your address."));
  offer_load (self);
}

/*
 * The server sent the download on to another host. That address becomes the
 * one offered, shown whole, and nothing is loaded until the user chooses it.
 */
static void
show_redirect (TriageAttachmentView *self,
               GUri                 *redirect,
               GError               *error)
{
  g_autofree char *display = NULL;
  gsize host_start = 0;
  gsize host_end = 0;

  display = triage_attachment_uri_display (redirect, &host_start, &host_end);
  show_address (self, display, host_start, host_end);
  gtk_label_set_text (self->uri_intro_label, error->message);
  gtk_label_set_text (self->load_hint_label,
                      _("Nothing was downloaded from this address. The server there will "
                        "see your address."));

  g_clear_pointer (&self->uri, g_uri_unref);
  self->uri = g_uri_ref (redirect);
  offer_load (self);
}

static void
fetch_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(TriageAttachmentView) self = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GUri) redirect = NULL;
  g_autoptr(GError) error = NULL;

  bytes = triage_attachment_fetch_finish (result, NULL, &redirect, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_object (&self->fetch_cancellable);

  if (redirect != NULL)
    {
      show_redirect (self, redirect, error);
      return;
    }

  if (bytes == NULL)
    {
      _triage_attachment_view_show_error (self, error);
      return;
    }

  /* Previewed by the declared type, provided the content agrees with it. */
  _triage_attachment_view_show_bytes (self, bytes);
}

void
_triage_attachment_view_load_action (GtkWidget  *widget,
                                     const char *action_name,
                                     GVariant   *parameter)
{
  TriageAttachmentView *self = TRIAGE_ATTACHMENT_VIEW (widget);
  g_autofree char *loading = NULL;

  if (self->uri == NULL || self->bytes != NULL || self->fetch_cancellable != NULL)
    return;

  if (self->session == NULL)
    self->session = soup_session_new_with_options ("user-agent", "Triage/" PACKAGE_VERSION,
                                                   NULL);

  g_clear_error (&self->error);
  self->fetch_cancellable = g_cancellable_new ();

  /* Translators: %s is a host name */
  loading = g_strdup_printf (_("Loading from %s…"), g_uri_get_host (self->uri));
  gtk_label_set_text (self->loading_label, loading);
  _triage_attachment_view_set_kind (self, TRIAGE_ATTACHMENT_KIND_LOADING);

  triage_attachment_fetch_async (self->session, self->uri, self->max_download_size,
                                 self->download_timeout, self->fetch_cancellable,
                                 fetch_cb, g_object_ref (self));
}

void
_triage_attachment_view_cancel_action (GtkWidget  *widget,
                                       const char *action_name,
                                       GVariant   *parameter)
{
  TriageAttachmentView *self = TRIAGE_ATTACHMENT_VIEW (widget);

  if (self->fetch_cancellable == NULL)
    return;

  g_cancellable_cancel (self->fetch_cancellable);
  g_clear_object (&self->fetch_cancellable);
  _triage_attachment_view_set_kind (self, TRIAGE_ATTACHMENT_KIND_REMOTE);
}

