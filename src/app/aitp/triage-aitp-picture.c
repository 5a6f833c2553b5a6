/* triage-aitp-picture.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-aitp"

#include <glib/gi18n.h>

#include "triage-aitp-picture.h"

/*
 * An option's picture: a placeholder until the person asks to see pictures
 * from its host, then the picture, or a placeholder that says why it could
 * not be shown. It keeps every picture it was given by address, so an
 * option whose picture changes (a product's variant) shows the one for it.
 */

struct _TriageAitpPicture
{
  GtkWidget   parent_instance;

  char       *url;
  char       *description;
  GHashTable *images;        /* url -> GdkPaintable */
  GHashTable *errors;        /* url -> message */

  GtkStack   *stack;
  GtkImage   *placeholder;
  GtkPicture *picture;
};

G_DEFINE_FINAL_TYPE (TriageAitpPicture, triage_aitp_picture, GTK_TYPE_WIDGET)

static void
update (TriageAitpPicture *self)
{
  GdkPaintable *image = self->url ? g_hash_table_lookup (self->images, self->url) : NULL;
  const char *error = self->url ? g_hash_table_lookup (self->errors, self->url) : NULL;

  gtk_widget_set_visible (GTK_WIDGET (self), self->url != NULL);
  gtk_picture_set_paintable (self->picture, image);
  if (image != NULL)
    {
      gtk_picture_set_alternative_text (self->picture, self->description);
      gtk_stack_set_visible_child (self->stack, GTK_WIDGET (self->picture));
      return;
    }

  gtk_image_set_from_icon_name (self->placeholder, error ? "image-missing-symbolic"
                                                         : "image-x-generic-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->placeholder), error);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->placeholder),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  error ? _("The picture could not be shown") : _("Picture not shown"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, error ? error : "",
                                  -1);
  gtk_stack_set_visible_child (self->stack, GTK_WIDGET (self->placeholder));
}

static void
triage_aitp_picture_dispose (GObject *object)
{
  TriageAitpPicture *self = (TriageAitpPicture *)object;

  if (self->stack != NULL)
    {
      gtk_widget_unparent (GTK_WIDGET (self->stack));
      self->stack = NULL;
    }

  G_OBJECT_CLASS (triage_aitp_picture_parent_class)->dispose (object);
}

static void
triage_aitp_picture_finalize (GObject *object)
{
  TriageAitpPicture *self = (TriageAitpPicture *)object;

  g_free (self->url);
  g_free (self->description);
  g_clear_pointer (&self->images, g_hash_table_unref);
  g_clear_pointer (&self->errors, g_hash_table_unref);

  G_OBJECT_CLASS (triage_aitp_picture_parent_class)->finalize (object);
}

static void
triage_aitp_picture_class_init (TriageAitpPictureClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = triage_aitp_picture_dispose;
  object_class->finalize = triage_aitp_picture_finalize;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "aitppicture");
}

static void
triage_aitp_picture_init (TriageAitpPicture *self)
{
  self->images = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->errors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  self->stack = GTK_STACK (gtk_stack_new ());
  self->placeholder = GTK_IMAGE (gtk_image_new ());
  gtk_widget_add_css_class (GTK_WIDGET (self->placeholder), "dim-label");
  self->picture = GTK_PICTURE (gtk_picture_new ());
  gtk_picture_set_can_shrink (self->picture, TRUE);
  gtk_picture_set_content_fit (self->picture, GTK_CONTENT_FIT_CONTAIN);
  /* Titled: GTK 4.8 would name the pages "GtkStackPage". */
  gtk_stack_page_set_title (gtk_stack_add_child (self->stack, GTK_WIDGET (self->placeholder)),
                            _("No Image"));
  gtk_stack_page_set_title (gtk_stack_add_child (self->stack, GTK_WIDGET (self->picture)),
                            _("Image"));
  gtk_widget_set_parent (GTK_WIDGET (self->stack), GTK_WIDGET (self));
}

/**
 * triage_aitp_picture_new:
 * @url: (nullable): the picture's address (none: the widget hides)
 * @description: what the picture shows, for a screen reader (the option's name)
 * @size: its width and height, in pixels
 *
 * Returns: (transfer floating): a placeholder for the picture
 */
GtkWidget *
triage_aitp_picture_new (const char *url,
                         const char *description,
                         int         size)
{
  TriageAitpPicture *self = g_object_new (TRIAGE_TYPE_AITP_PICTURE, NULL);

  gtk_widget_set_size_request (GTK_WIDGET (self), size, size);
  gtk_widget_set_valign (GTK_WIDGET (self), GTK_ALIGN_START);
  gtk_image_set_pixel_size (self->placeholder, MAX (16, size / 2));
  triage_aitp_picture_set_url (self, url, description);

  return GTK_WIDGET (self);
}

const char *
triage_aitp_picture_get_url (TriageAitpPicture *self)
{
  g_return_val_if_fail (TRIAGE_IS_AITP_PICTURE (self), NULL);

  return self->url;
}

/**
 * triage_aitp_picture_set_url:
 * @self: a #TriageAitpPicture
 * @url: (nullable): the picture to show now
 * @description: (nullable): what it shows
 */
void
triage_aitp_picture_set_url (TriageAitpPicture *self,
                             const char        *url,
                             const char        *description)
{
  g_return_if_fail (TRIAGE_IS_AITP_PICTURE (self));

  g_free (self->url);
  self->url = g_strdup (url);
  g_free (self->description);
  self->description = g_strdup (description);
  update (self);
}

/**
 * triage_aitp_picture_take:
 * @self: a #TriageAitpPicture
 * @url: the address the picture came from
 * @image: (nullable): the picture, decoded
 * @error_message: (nullable): why it could not be shown (when @image is %NULL)
 */
void
triage_aitp_picture_take (TriageAitpPicture *self,
                          const char        *url,
                          GdkPaintable      *image,
                          const char        *error_message)
{
  g_return_if_fail (TRIAGE_IS_AITP_PICTURE (self));
  g_return_if_fail (url != NULL);

  if (image != NULL)
    g_hash_table_replace (self->images, g_strdup (url), g_object_ref (image));
  else
    g_hash_table_replace (self->errors, g_strdup (url),
                          g_strdup (error_message ? error_message : _("The picture could not be shown")));
  update (self);
}

/**
 * triage_aitp_picture_get_shown:
 *
 * Returns: whether the picture itself is shown (not a placeholder)
 */
gboolean
triage_aitp_picture_get_shown (TriageAitpPicture *self)
{
  g_return_val_if_fail (TRIAGE_IS_AITP_PICTURE (self), FALSE);

  return gtk_stack_get_visible_child (self->stack) == GTK_WIDGET (self->picture);
}
