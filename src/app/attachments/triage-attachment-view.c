/* triage-attachment-view.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-attachment-view"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <gtksourceview/gtksource.h>

#include "triage-attachment-fetch.h"
#include "triage-attachment-file.h"
#include "triage-attachment-view-private.h"
#include "triage-decision-format.h"
#include "triage-attachment-error.h"
#include "triage-image-decoder.h"
#include "triage-text-preview.h"


/*
 * Shows one attachment of a request. Everything about it is untrusted: the
 * type, the description, the data, the address. Text goes into a read-only
 * GtkSourceView as text (HTML and SVG included: shown as source, never
 * rendered; a large text prepared in a thread, long lines cut, see
 * TriageTextPreview), images are decoded off the main thread with hard size limits,
 * and an address is fetched only when the user presses "Load from HOST".
 */

enum {
  PROP_0,
  PROP_KIND,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TriageAttachmentView, triage_attachment_view, ADW_TYPE_BIN)

void
_triage_attachment_view_set_kind (TriageAttachmentView *self,
                                  TriageAttachmentKind  kind)
{
  static const char * const pages[] = {
    [TRIAGE_ATTACHMENT_KIND_NONE] = "empty",
    [TRIAGE_ATTACHMENT_KIND_TEXT] = "text",
    [TRIAGE_ATTACHMENT_KIND_JSON] = "text",
    [TRIAGE_ATTACHMENT_KIND_CODE] = "text",
    [TRIAGE_ATTACHMENT_KIND_IMAGE] = "image",
    [TRIAGE_ATTACHMENT_KIND_FILE] = "file",
    [TRIAGE_ATTACHMENT_KIND_REMOTE] = "remote",
    [TRIAGE_ATTACHMENT_KIND_LOADING] = "loading",
    [TRIAGE_ATTACHMENT_KIND_ERROR] = "error",
  };
  gboolean have_bytes = self->bytes != NULL;
  GtkWidget *shown = gtk_stack_get_visible_child (self->stack);

  gtk_stack_set_visible_child_name (self->stack, pages[kind]);
  /* GTK 4.8's homogeneous stack only queues an allocation for the page it
   * now shows, so a view already drawn (a preview shown while its text was
   * prepared) is reached by GTK's pass over children that need one, not
   * allocated itself. There, the text view, wrapping at its first width,
   * queues a resize from its size_allocate: the view's ancestors are marked
   * and allocated again, but the preview's page (TriageAttachmentPage)
   * kept its mark and was drawn without an allocation (a warning, fatal in
   * the tests). A resize allocates the whole view again instead, where a
   * resize from within is settled, as when the view is drawn first. */
  if (gtk_stack_get_visible_child (self->stack) != shown)
    gtk_widget_queue_resize (GTK_WIDGET (self->stack));
  gtk_spinner_set_spinning (self->spinner, kind == TRIAGE_ATTACHMENT_KIND_LOADING);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "attachment.save", have_bytes);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "attachment.open-with", have_bytes);
  gtk_widget_set_visible (self->actions_squeezer, have_bytes);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "attachment.load",
                                 self->uri != NULL && !have_bytes &&
                                 (kind == TRIAGE_ATTACHMENT_KIND_REMOTE ||
                                  kind == TRIAGE_ATTACHMENT_KIND_ERROR));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "attachment.cancel",
                                 kind == TRIAGE_ATTACHMENT_KIND_LOADING &&
                                 self->fetch_cancellable != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->retry_button),
                          self->uri != NULL && !have_bytes && kind == TRIAGE_ATTACHMENT_KIND_ERROR);

  if (self->kind == kind)
    return;

  self->kind = kind;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KIND]);
}

void
_triage_attachment_view_add_notice (TriageAttachmentView *self,
                                    const char           *notice)
{
  char *joined;

  if (self->notice == NULL)
    joined = g_strdup (notice);
  else
    joined = g_strconcat (self->notice, "\n", notice, NULL);

  g_free (self->notice);
  self->notice = joined;

  gtk_label_set_text (self->notice_label, self->notice);
  gtk_widget_set_visible (GTK_WIDGET (self->notice_label), TRUE);
}

void
_triage_attachment_view_show_error (TriageAttachmentView *self,
                                    GError               *error)
{
  g_clear_error (&self->error);
  self->error = g_error_copy (error);
  gtk_label_set_text (self->error_label, error->message);
  _triage_attachment_view_set_kind (self, TRIAGE_ATTACHMENT_KIND_ERROR);
}

static void
reset (TriageAttachmentView *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  if (self->fetch_cancellable != NULL)
    g_cancellable_cancel (self->fetch_cancellable);
  g_clear_object (&self->fetch_cancellable);

  g_clear_pointer (&self->mime_type, g_free);
  g_clear_pointer (&self->charset, g_free);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->service_name, g_free);
  g_clear_pointer (&self->uri, g_uri_unref);
  g_clear_pointer (&self->bytes, g_bytes_unref);
  g_clear_error (&self->error);
  g_clear_pointer (&self->notice, g_free);
  self->language_id = NULL;

  gtk_label_set_text (self->title_label, "");
  gtk_label_set_text (self->subtitle_label, "");
  gtk_image_set_from_icon_name (self->type_icon, "mail-attachment-symbolic");
  gtk_widget_set_visible (self->uri_box, FALSE);
  gtk_label_set_text (self->uri_label, "");
  gtk_label_set_attributes (self->uri_label, NULL);
  gtk_label_set_text (self->notice_label, "");
  gtk_widget_set_visible (GTK_WIDGET (self->notice_label), FALSE);
  triage_text_preview_clear (self->text_preview);
  gtk_picture_set_paintable (self->picture, NULL);
  gtk_label_set_text (self->error_label, "");
}

/* "Text/Plain; charset=ISO-8859-1" → "text/plain" and "ISO-8859-1". */
static void
parse_type (const char  *type,
            char       **mime_type,
            char       **charset)
{
  g_auto(GStrv) parts = NULL;
  g_autofree char *mime = NULL;

  *charset = NULL;

  parts = g_strsplit (type ? type : "", ";", -1);
  mime = g_ascii_strdown (g_strstrip (parts[0] ? parts[0] : ""), -1);

  for (guint i = 1; parts[0] && parts[i]; i++)
    {
      char *param = g_strstrip (parts[i]);

      if (g_ascii_strncasecmp (param, "charset=", 8) == 0 && *charset == NULL)
        {
          char *value = param + 8;
          gsize len = strlen (value);

          if (len >= 2 && value[0] == '"' && value[len - 1] == '"')
            *charset = g_strndup (value + 1, len - 2);
          else
            *charset = g_strdup (value);
        }
    }

  /* A MIME type is type "/" subtype in printable ASCII; anything else is unknown. */
  if (strchr (mime, '/') == NULL || !g_str_is_ascii (mime) || strpbrk (mime, " \t\"\\") != NULL)
    {
      g_free (mime);
      mime = g_strdup ("application/octet-stream");
    }

  *mime_type = g_steal_pointer (&mime);
}

static gboolean
data_is_canonical_base64 (const char *data,
                          GBytes     *decoded)
{
  g_autofree char *encoded = NULL;
  const guchar *bytes;
  gsize size;

  bytes = g_bytes_get_data (decoded, &size);
  encoded = g_base64_encode (bytes, size);

  return g_str_equal (encoded, data);
}

/**
 * triage_attachment_view_set_attachment:
 * @self: a #TriageAttachmentView
 * @attachment: (nullable): the attachment to show; copied, not kept
 * @service_name: (nullable): the name of the service that sent it
 *
 * Shows @attachment. Inline data is decoded and previewed by its type; an
 * address is shown with its host emphasised and loaded only when the user
 * activates the `attachment.load` action.
 */
void
triage_attachment_view_set_attachment (TriageAttachmentView *self,
                                       const AtpAttachment  *attachment,
                                       const char           *service_name)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (TRIAGE_IS_ATTACHMENT_VIEW (self));

  reset (self);

  if (attachment == NULL)
    {
      _triage_attachment_view_set_kind (self, TRIAGE_ATTACHMENT_KIND_NONE);
      return;
    }

  parse_type (attachment->type, &self->mime_type, &self->charset);
  self->description = g_strdup (attachment->description);
  self->service_name = g_strdup (service_name);

  {
    g_autofree char *title = triage_format_cut_text (attachment->description
                                                       ? attachment->description : _("Attachment"),
                                                     TRIAGE_SHOWN_ROW_CHARS);
    g_autofree char *tooltip = attachment->description
                                 ? triage_format_cut_text (attachment->description,
                                                           TRIAGE_SHOWN_TITLE_CHARS)
                                 : NULL;

    gtk_label_set_text (self->title_label, title);
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->title_label), tooltip);
  }

  if (attachment->uri != NULL)
    {
      _triage_attachment_view_show_uri (self, attachment->uri);
      return;
    }

  bytes = atp_attachment_decode (attachment, &error);
  if (bytes == NULL)
    {
      g_autoptr(GError) wrapped = NULL;

      wrapped = g_error_new (TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_INVALID_DATA,
                             _("The attachment’s data is damaged: %s"), error->message);
      _triage_attachment_view_show_error (self, wrapped);
      return;
    }

  /*
   * The decoder skips what is not base64. Canonical base64 is the only text
   * that encodes its own decoding, so the round trip catches damaged data
   * whichever way the attachment was built.
   */
  if (!data_is_canonical_base64 (attachment->data, bytes))
    {
      g_autoptr(GError) invalid = NULL;

      g_clear_pointer (&bytes, g_bytes_unref);
      invalid = g_error_new_literal (TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_INVALID_DATA,
                                     _("The attachment’s data is not valid base64, so it "
                                       "cannot be shown or saved"));
      _triage_attachment_view_show_error (self, invalid);
      return;
    }

  _triage_attachment_view_show_bytes (self, bytes);
}

/* Ctrl+F and Ctrl+G work wherever the focus is in the window. */
static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TriageAttachmentView *self = TRIAGE_ATTACHMENT_VIEW (widget);
  const char *forward = g_str_equal (action_name, "attachment.find") ? "text.find"
                        : g_str_equal (action_name, "attachment.find-next") ? "text.find-next"
                        : "text.find-previous";

  if (g_str_equal (gtk_stack_get_visible_child_name (self->stack), "text"))
    gtk_widget_activate_action (GTK_WIDGET (self->text_preview), forward, NULL);
}

static void
triage_attachment_view_dispose (GObject *object)
{
  TriageAttachmentView *self = TRIAGE_ATTACHMENT_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  if (self->fetch_cancellable != NULL)
    g_cancellable_cancel (self->fetch_cancellable);
  if (self->save_dialog != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->save_dialog));
  g_clear_object (&self->save_dialog);

  /* AdwBin unparents its child itself; take it away first so it is not done twice. */
  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), TRIAGE_TYPE_ATTACHMENT_VIEW);

  G_OBJECT_CLASS (triage_attachment_view_parent_class)->dispose (object);
}

static void
triage_attachment_view_finalize (GObject *object)
{
  TriageAttachmentView *self = TRIAGE_ATTACHMENT_VIEW (object);

  g_clear_object (&self->cancellable);
  g_clear_object (&self->fetch_cancellable);
  g_clear_object (&self->session);
  g_clear_pointer (&self->mime_type, g_free);
  g_clear_pointer (&self->charset, g_free);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->service_name, g_free);
  g_clear_pointer (&self->uri, g_uri_unref);
  g_clear_pointer (&self->bytes, g_bytes_unref);
  g_clear_error (&self->error);
  g_clear_pointer (&self->notice, g_free);

  G_OBJECT_CLASS (triage_attachment_view_parent_class)->finalize (object);
}

static void
triage_attachment_view_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  TriageAttachmentView *self = TRIAGE_ATTACHMENT_VIEW (object);

  switch (prop_id)
    {
    case PROP_KIND:
      g_value_set_enum (value, self->kind);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_attachment_view_class_init (TriageAttachmentViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = triage_attachment_view_dispose;
  object_class->finalize = triage_attachment_view_finalize;
  object_class->get_property = triage_attachment_view_get_property;

  /**
   * TriageAttachmentView:kind:
   *
   * What the view shows now.
   */
  properties[PROP_KIND] =
    g_param_spec_enum ("kind", NULL, NULL,
                       TRIAGE_TYPE_ATTACHMENT_KIND, TRIAGE_ATTACHMENT_KIND_NONE,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (TRIAGE_TYPE_TEXT_PREVIEW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/attachments/triage-attachment-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentView, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentView, type_icon);
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentView, title_label);
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentView, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentView, actions_squeezer);
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentView, uri_box);
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentView, uri_intro_label);
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentView, uri_label);
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentView, notice_label);
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentView, stack);
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentView, text_preview);
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentView, picture);
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentView, file_icon);
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentView, file_label);
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentView, file_reason_label);
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentView, load_button);
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentView, load_hint_label);
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentView, spinner);
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentView, loading_label);
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentView, error_label);
  gtk_widget_class_bind_template_child (widget_class, TriageAttachmentView, retry_button);

  gtk_widget_class_install_action (widget_class, "attachment.load", NULL, _triage_attachment_view_load_action);
  gtk_widget_class_install_action (widget_class, "attachment.cancel", NULL, _triage_attachment_view_cancel_action);
  gtk_widget_class_install_action (widget_class, "attachment.save", NULL, _triage_attachment_view_save_action);
  gtk_widget_class_install_action (widget_class, "attachment.open-with", NULL, _triage_attachment_view_open_with_action);
  gtk_widget_class_install_action (widget_class, "attachment.find", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "attachment.find-next", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "attachment.find-previous", NULL, find_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK,
                                       "attachment.save", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK,
                                       "attachment.open-with", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK,
                                       "attachment.find", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK,
                                       "attachment.find-next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "attachment.find-previous", NULL);
}

static void
load_css_once (void)
{
  static gsize loaded = 0;

  if (g_once_init_enter (&loaded))
    {
      GdkDisplay *display = gdk_display_get_default ();

      if (display != NULL)
        {
          g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();

          gtk_css_provider_load_from_resource (provider, RESOURCE_BASE "/attachments/style.css");
          gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (provider),
                                                      GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
        }
      g_once_init_leave (&loaded, 1);
    }
}

static void
triage_attachment_view_init (TriageAttachmentView *self)
{
  load_css_once ();
  gtk_widget_init_template (GTK_WIDGET (self));

  self->cancellable = g_cancellable_new ();
  self->max_download_size = TRIAGE_ATTACHMENT_FETCH_MAX_SIZE;
  self->download_timeout = TRIAGE_ATTACHMENT_FETCH_TIMEOUT;

  _triage_attachment_view_set_kind (self, TRIAGE_ATTACHMENT_KIND_NONE);
}

/**
 * triage_attachment_view_new:
 *
 * Returns: (transfer floating): a new, empty #TriageAttachmentView
 */
GtkWidget *
triage_attachment_view_new (void)
{
  return g_object_new (TRIAGE_TYPE_ATTACHMENT_VIEW, NULL);
}

/**
 * triage_attachment_view_set_whole_lines:
 * @self: a #TriageAttachmentView
 * @whole_lines: show a text's long lines whole, wrapped, rather than cut
 *   (for a request's whole text, which is never larger than a request)
 *
 * Applies to the attachments set after it.
 */
void
triage_attachment_view_set_whole_lines (TriageAttachmentView *self,
                                        gboolean              whole_lines)
{
  g_return_if_fail (TRIAGE_IS_ATTACHMENT_VIEW (self));

  self->whole_lines = !!whole_lines;
}

/**
 * triage_attachment_view_set_session:
 * @self: a #TriageAttachmentView
 * @session: (nullable): the session used for downloads; %NULL makes a private one
 */
void
triage_attachment_view_set_session (TriageAttachmentView *self,
                                    SoupSession          *session)
{
  g_return_if_fail (TRIAGE_IS_ATTACHMENT_VIEW (self));
  g_return_if_fail (!session || SOUP_IS_SESSION (session));

  g_set_object (&self->session, session);
}

/**
 * triage_attachment_view_set_download_limits:
 * @self: a #TriageAttachmentView
 * @max_size: the largest download accepted, in bytes
 *   (default %TRIAGE_ATTACHMENT_FETCH_MAX_SIZE)
 * @timeout_seconds: the time a download may take
 *   (default %TRIAGE_ATTACHMENT_FETCH_TIMEOUT)
 *
 * Applies to downloads started afterwards.
 */
void
triage_attachment_view_set_download_limits (TriageAttachmentView *self,
                                            gsize                 max_size,
                                            guint                 timeout_seconds)
{
  g_return_if_fail (TRIAGE_IS_ATTACHMENT_VIEW (self));
  g_return_if_fail (max_size > 0);
  g_return_if_fail (timeout_seconds > 0);

  self->max_download_size = max_size;
  self->download_timeout = timeout_seconds;
}

TriageAttachmentKind
triage_attachment_view_get_kind (TriageAttachmentView *self)
{
  g_return_val_if_fail (TRIAGE_IS_ATTACHMENT_VIEW (self), TRIAGE_ATTACHMENT_KIND_NONE);

  return self->kind;
}

/**
 * triage_attachment_view_get_bytes:
 * @self: a #TriageAttachmentView
 *
 * Returns: (transfer none) (nullable): the decoded or downloaded content
 */
GBytes *
triage_attachment_view_get_bytes (TriageAttachmentView *self)
{
  g_return_val_if_fail (TRIAGE_IS_ATTACHMENT_VIEW (self), NULL);

  return self->bytes;
}

/**
 * triage_attachment_view_get_text:
 * @self: a #TriageAttachmentView
 *
 * Returns: (transfer full) (nullable): the text previewed, for the text
 *   kinds: all of it, lines shortened for display included whole
 */
char *
triage_attachment_view_get_text (TriageAttachmentView *self)
{
  const TriageAttachmentText *text;

  g_return_val_if_fail (TRIAGE_IS_ATTACHMENT_VIEW (self), NULL);

  text = triage_text_preview_get_text (self->text_preview);
  if (text == NULL ||
      (self->kind != TRIAGE_ATTACHMENT_KIND_TEXT &&
       self->kind != TRIAGE_ATTACHMENT_KIND_JSON &&
       self->kind != TRIAGE_ATTACHMENT_KIND_CODE))
    return NULL;

  return g_strndup (text->text, text->length);
}

/**
 * triage_attachment_view_get_text_preview:
 * @self: a #TriageAttachmentView
 *
 * Returns: (transfer none): the text view and its search, for the text kinds
 */
TriageTextPreview *
triage_attachment_view_get_text_preview (TriageAttachmentView *self)
{
  g_return_val_if_fail (TRIAGE_IS_ATTACHMENT_VIEW (self), NULL);

  return self->text_preview;
}

/**
 * triage_attachment_view_get_language_id:
 * @self: a #TriageAttachmentView
 *
 * Returns: (nullable): the GtkSourceView language highlighting the text
 */
const char *
triage_attachment_view_get_language_id (TriageAttachmentView *self)
{
  g_return_val_if_fail (TRIAGE_IS_ATTACHMENT_VIEW (self), NULL);

  return self->language_id;
}

/**
 * triage_attachment_view_get_paintable:
 * @self: a #TriageAttachmentView
 *
 * Returns: (transfer none) (nullable): the image shown
 */
GdkPaintable *
triage_attachment_view_get_paintable (TriageAttachmentView *self)
{
  g_return_val_if_fail (TRIAGE_IS_ATTACHMENT_VIEW (self), NULL);

  return gtk_picture_get_paintable (self->picture);
}

/**
 * triage_attachment_view_get_notice:
 * @self: a #TriageAttachmentView
 *
 * Returns: (nullable): the warnings shown above the preview (truncation,
 *   invalid text, scaling, a type mismatch), one per line
 */
const char *
triage_attachment_view_get_notice (TriageAttachmentView *self)
{
  g_return_val_if_fail (TRIAGE_IS_ATTACHMENT_VIEW (self), NULL);

  return self->notice;
}

/**
 * triage_attachment_view_get_error:
 * @self: a #TriageAttachmentView
 *
 * Returns: (nullable): why the attachment cannot be shown, when the kind is
 *   %TRIAGE_ATTACHMENT_KIND_ERROR
 */
const GError *
triage_attachment_view_get_error (TriageAttachmentView *self)
{
  g_return_val_if_fail (TRIAGE_IS_ATTACHMENT_VIEW (self), NULL);

  return self->kind == TRIAGE_ATTACHMENT_KIND_ERROR ? self->error : NULL;
}

/**
 * triage_attachment_view_get_error_message:
 * @self: a #TriageAttachmentView
 *
 * Returns: (nullable): the message of triage_attachment_view_get_error()
 */
const char *
triage_attachment_view_get_error_message (TriageAttachmentView *self)
{
  const GError *error = triage_attachment_view_get_error (self);

  return error ? error->message : NULL;
}
