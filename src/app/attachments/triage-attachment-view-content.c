/* triage-attachment-view-content.c — an attachment's bytes shown as what they are
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-attachment-view"

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>

#include "triage-attachment-error.h"
#include "triage-attachment-text.h"
#include "triage-attachment-view-private.h"
#include "triage-image-decoder.h"
#include "triage-text-preview.h"

/*
 * The bytes of an attachment (decoded inline data or a download) shown as
 * the type declared, when the content agrees: text and code in the text
 * preview (a large text prepared in a thread first), JSON pretty-printed,
 * images decoded off the main thread with hard size limits; anything else,
 * or content that contradicts its type, as a file to save or open with
 * another application.
 */

/*
 * Whether the content looks like what it claims to be. Text agrees unless the
 * bytes are recognisably something else (a PNG sent as text/plain); bytes
 * nothing recognises are allowed, so text with a few invalid bytes still
 * shows. An image must be recognised as its declared type.
 */
static gboolean
content_agrees (GBytes      *bytes,
                const char  *mime_type,
                gboolean     as_text,
                char       **sniffed_type)
{
  g_autofree char *sniffed = NULL;
  const guchar *data;
  gsize size;
  gboolean uncertain;
  gboolean agrees;

  data = g_bytes_get_data (bytes, &size);
  if (size == 0)
    return as_text;

  sniffed = g_content_type_guess (NULL, data, MIN (size, SNIFF_SIZE), &uncertain);

  if (as_text)
    agrees = g_content_type_is_a (sniffed, "text/plain") ||
             g_content_type_equals (sniffed, "application/octet-stream");
  else
    agrees = g_content_type_is_a (sniffed, mime_type);

  *sniffed_type = g_steal_pointer (&sniffed);

  return agrees;
}

/* A description such as "deploy.sh" helps guess the language; a sentence does not. */
static const char *
description_as_filename (const char *description)
{
  if (description == NULL || strlen (description) > 255 ||
      strchr (description, '.') == NULL || strpbrk (description, " /\\\n\t") != NULL)
    return NULL;

  return description;
}

/* Shown as a file: of a kind never previewed, or (@mismatch) of a kind that
 * is, whose content is something else (the notice says what). */
static void
show_as_file (TriageAttachmentView *self,
              gboolean              mismatch)
{
  g_autofree char *description = g_content_type_get_description (self->mime_type);
  g_autofree char *size = g_format_size (g_bytes_get_size (self->bytes));
  g_autofree char *text = NULL;
  g_autoptr(GIcon) icon = g_content_type_get_icon (self->mime_type);

  /* Translators: a file's type and size, e.g. "PDF document, 1.2 MB" */
  text = g_strdup_printf (_("%s, %s"), description, size);
  gtk_label_set_text (self->file_label, text);
  gtk_image_set_from_gicon (self->file_icon, icon);
  gtk_label_set_text (self->file_reason_label,
                      mismatch ? _("Its content is not what its type says, so it is not previewed. "
                                   "Save it, or open it with another application.")
                               : _("Triage does not preview this kind of file. "
                                   "Save it, or open it with another application."));
  _triage_attachment_view_set_kind (self, TRIAGE_ATTACHMENT_KIND_FILE);
}

/* Shows a prepared text: its notices, highlighted by its language up to a size. */
static void
show_prepared_text (TriageAttachmentView *self,
                    TriageAttachmentText *text)
{
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
  GtkSourceLanguage *language = NULL;
  TriageAttachmentKind kind = TRIAGE_ATTACHMENT_KIND_TEXT;

  for (guint i = 0; i < text->notices->len; i++)
    _triage_attachment_view_add_notice (self, g_ptr_array_index (text->notices, i));

  if (atp_attachment_type_is_json (self->mime_type))
    {
      language = gtk_source_language_manager_get_language (languages, "json");
      if (text->json)
        kind = TRIAGE_ATTACHMENT_KIND_JSON;
    }
  else
    {
      language = gtk_source_language_manager_guess_language (languages,
                                                             description_as_filename (self->description),
                                                             self->mime_type);
      if (language != NULL)
        kind = TRIAGE_ATTACHMENT_KIND_CODE;
    }

  /* Highlighting a text this large, or a line this long, would keep the main
   * loop busy for seconds (and a line cut mid-token highlights wrongly). */
  if (language != NULL && text->cuts->len > 0)
    {
      _triage_attachment_view_add_notice (self, _("Highlighting is off for texts with lines this long."));
      language = NULL;
    }
  else if (language != NULL && text->display_length > TRIAGE_ATTACHMENT_TEXT_HIGHLIGHT_MAX_SIZE)
    {
      g_autofree char *limit = g_format_size (TRIAGE_ATTACHMENT_TEXT_HIGHLIGHT_MAX_SIZE);
      g_autofree char *notice = NULL;

      /* Translators: %s is a size, e.g. "262.1 kB" */
      notice = g_strdup_printf (_("Highlighting is off for texts over %s."), limit);
      _triage_attachment_view_add_notice (self, notice);
      language = NULL;
    }

  self->language_id = language ? gtk_source_language_get_id (language) : NULL;
  triage_text_preview_set_text (self->text_preview, text, language,
                                kind == TRIAGE_ATTACHMENT_KIND_TEXT);
  _triage_attachment_view_set_kind (self, kind);
}

static void
prepare_text_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(TriageAttachmentView) self = user_data;
  g_autoptr(GError) error = NULL;
  TriageAttachmentText *text;

  text = triage_attachment_text_prepare_finish (result, &error);
  if (text == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _triage_attachment_view_show_error (self, error);
      return;
    }

  show_prepared_text (self, text);
}

/* A small text is shown at once; a large one is prepared in a thread first. */
static void
show_text (TriageAttachmentView *self)
{
  gboolean json = atp_attachment_type_is_json (self->mime_type);

  if (g_bytes_get_size (self->bytes) <= TRIAGE_ATTACHMENT_TEXT_SYNC_SIZE)
    {
      show_prepared_text (self, triage_attachment_text_prepare_full (self->bytes, self->charset,
                                                                     json, self->whole_lines));
      return;
    }

  gtk_label_set_text (self->loading_label, _("Preparing the text…"));
  _triage_attachment_view_set_kind (self, TRIAGE_ATTACHMENT_KIND_LOADING);
  triage_attachment_text_prepare_async (self->bytes, self->charset, json, self->whole_lines,
                                        self->cancellable,
                                        prepare_text_cb, g_object_ref (self));
}

static void
decode_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(TriageAttachmentView) self = user_data;
  g_autoptr(GdkPixbuf) pixbuf = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;
  int width = 0;
  int height = 0;

  pixbuf = triage_image_decode_finish (result, &width, &height, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (pixbuf == NULL)
    {
      _triage_attachment_view_show_error (self, error);
      return;
    }

  texture = gdk_texture_new_for_pixbuf (pixbuf);
  gtk_picture_set_paintable (self->picture, GDK_PAINTABLE (texture));
  gtk_picture_set_alternative_text (self->picture, self->description);

  if (gdk_pixbuf_get_width (pixbuf) != width || gdk_pixbuf_get_height (pixbuf) != height)
    {
      g_autofree char *notice = NULL;

      notice = g_strdup_printf (_("Shown scaled down from %d × %d pixels."), width, height);
      _triage_attachment_view_add_notice (self, notice);
    }

  _triage_attachment_view_set_kind (self, TRIAGE_ATTACHMENT_KIND_IMAGE);
}

void
_triage_attachment_view_show_bytes (TriageAttachmentView *self,
                                    GBytes               *bytes)
{
  g_autofree char *type_description = g_content_type_get_description (self->mime_type);
  g_autofree char *size = g_format_size (g_bytes_get_size (bytes));
  g_autofree char *subtitle = NULL;
  g_autofree char *sniffed = NULL;
  g_autoptr(GIcon) icon = g_content_type_get_symbolic_icon (self->mime_type);
  gboolean image;

  g_clear_pointer (&self->bytes, g_bytes_unref);
  self->bytes = g_bytes_ref (bytes);

  /* Translators: a file's type and size, e.g. "PDF document · 1.2 MB" */
  subtitle = g_strdup_printf (_("%s · %s"), type_description, size);
  gtk_label_set_text (self->subtitle_label, subtitle);
  gtk_image_set_from_gicon (self->type_icon, icon);

  image = triage_image_type_is_supported (self->mime_type);
  if (!image && !atp_attachment_type_is_text (self->mime_type))
    {
      show_as_file (self, FALSE);
      return;
    }

  if (!content_agrees (bytes, self->mime_type, !image, &sniffed))
    {
      g_autofree char *notice = NULL;
      g_autofree char *sniffed_description = g_content_type_get_description (sniffed);

      notice = g_strdup_printf (_("The attachment says it is “%s”, but its content looks "
                                  "like %s, so it is not previewed."),
                                self->mime_type, sniffed_description);
      _triage_attachment_view_add_notice (self, notice);
      show_as_file (self, TRUE);
      return;
    }

  if (!image)
    {
      show_text (self);
      return;
    }

  gtk_label_set_text (self->loading_label, _("Decoding the image…"));
  _triage_attachment_view_set_kind (self, TRIAGE_ATTACHMENT_KIND_LOADING);
  triage_image_decode_async (bytes, self->mime_type, TRIAGE_ATTACHMENT_IMAGE_MAX_DISPLAY_SIZE,
                             self->cancellable, decode_cb, g_object_ref (self));
}
