/* attachment-view-common.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The fixture and helpers shared by the parts of test-attachment-view.
 */

#define G_LOG_DOMAIN "test-attachment-view"

#include "attachment-view-common.h"

gboolean
attachment_view_test_watchdog_cb (gpointer user_data)
{
  g_error ("Timed out waiting for %s", (const char *) user_data);
  return G_SOURCE_REMOVE;
}

gboolean
attachment_view_test_tick_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

void
attachment_view_test_setup (Fixture       *fixture,
                            gconstpointer  data)
{
  fixture->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 640, 480);
  fixture->view = TRIAGE_ATTACHMENT_VIEW (triage_attachment_view_new ());
  gtk_window_set_child (GTK_WINDOW (fixture->window), GTK_WIDGET (fixture->view));
  gtk_window_present (GTK_WINDOW (fixture->window));
}

void
attachment_view_test_teardown (Fixture       *fixture,
                               gconstpointer  data)
{
  g_object_add_weak_pointer (G_OBJECT (fixture->view), (gpointer *) &fixture->view);
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  /* Pending decodes and downloads are cancelled; the view must then go away. */
  WAIT_UNTIL (fixture->view == NULL);

  g_clear_pointer (&fixture->server, attachment_test_server_stop);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* ------------------------------------------------------------------ helpers */

void
attachment_view_test_attachment_free (AtpAttachment *attachment)
{
  g_free (attachment->type);
  g_free (attachment->description);
  g_free (attachment->uri);
  g_free (attachment->data);
  g_free (attachment);
}


AtpAttachment *
attachment_view_test_inline (const char *type,
                             const char *description,
                             const void *data,
                             gsize       size)
{
  AtpAttachment *attachment = g_new0 (AtpAttachment, 1);

  attachment->type = g_strdup (type);
  attachment->description = g_strdup (description);
  attachment->data = g_base64_encode (data, size);
  attachment->decoded_size = size;

  return attachment;
}

AtpAttachment *
attachment_view_test_uri (const char *type,
                          const char *description,
                          const char *uri)
{
  AtpAttachment *attachment = g_new0 (AtpAttachment, 1);

  attachment->type = g_strdup (type);
  attachment->description = g_strdup (description);
  attachment->uri = g_strdup (uri);

  return attachment;
}

/* The web server is started by the first test that needs it. */
AttachmentTestServer *
attachment_view_test_get_server (Fixture *fixture)
{
  if (fixture->server == NULL)
    fixture->server = attachment_test_server_start ();

  return fixture->server;
}

char *
attachment_view_test_server_uri (Fixture    *fixture,
                                 const char *path)
{
  return attachment_test_server_uri (attachment_view_test_get_server (fixture), path);
}

guint
attachment_view_test_requests (Fixture *fixture)
{
  return attachment_test_server_count_requests (attachment_view_test_get_server (fixture), NULL);
}

void
attachment_view_test_show (Fixture             *fixture,
                           const AtpAttachment *attachment)
{
  triage_attachment_view_set_attachment (fixture->view, attachment, "Build bot");
}

void
attachment_view_test_wait_for_kind (Fixture              *fixture,
                                    TriageAttachmentKind  kind)
{
  WAIT_UNTIL (triage_attachment_view_get_kind (fixture->view) == kind);
}

GtkWidget *
attachment_view_test_find_widget (GtkWidget  *root,
                                  gboolean  (*match) (GtkWidget *, gconstpointer),
                                  gconstpointer data)
{
  if (match (root, data))
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = attachment_view_test_find_widget (child, match, data);

      if (found != NULL)
        return found;
    }

  return NULL;
}

gboolean
attachment_view_test_label_contains (GtkWidget     *widget,
                                     gconstpointer  text)
{
  return GTK_IS_LABEL (widget) &&
         strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL;
}

gboolean
attachment_view_test_label_is (GtkWidget     *widget,
                               gconstpointer  text)
{
  return GTK_IS_LABEL (widget) && g_str_equal (gtk_label_get_text (GTK_LABEL (widget)), text);
}

gboolean
attachment_view_test_button_labelled (GtkWidget     *widget,
                                      gconstpointer  label)
{
  return GTK_IS_BUTTON (widget) &&
         g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0;
}

GtkLabel *
attachment_view_test_find_label (Fixture    *fixture,
                                 const char *text)
{
  GtkWidget *label = attachment_view_test_find_widget (GTK_WIDGET (fixture->view),
                                                       attachment_view_test_label_contains, text);

  if (label == NULL)
    {
      g_autofree char *kind = g_enum_to_string (TRIAGE_TYPE_ATTACHMENT_KIND,
                                                triage_attachment_view_get_kind (fixture->view));

      g_error ("No label shows “%s” (kind %s, notice %s, error %s)", text, kind,
               triage_attachment_view_get_notice (fixture->view),
               triage_attachment_view_get_error_message (fixture->view));
    }

  return GTK_LABEL (label);
}

/* A button the user can see and press. */
gboolean
attachment_view_test_button_usable (Fixture    *fixture,
                                    const char *label)
{
  GtkWidget *button = attachment_view_test_find_widget (GTK_WIDGET (fixture->view),
                                                        attachment_view_test_button_labelled, label);

  return button != NULL && gtk_widget_is_visible (button) && gtk_widget_is_sensitive (button);
}

void
attachment_view_test_assert_text (Fixture    *fixture,
                                  const char *expected)
{
  g_autofree char *text = triage_attachment_view_get_text (fixture->view);

  g_assert_cmpstr (text, ==, expected);
}

GBytes *
attachment_view_test_make_image (int         width,
                                 int         height,
                                 const char *format)
{
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, width, height);
  g_autoptr(GError) error = NULL;
  char *buffer = NULL;
  gsize size = 0;

  gdk_pixbuf_fill (pixbuf, 0x208040ff);
  g_assert_true (gdk_pixbuf_save_to_buffer (pixbuf, &buffer, &size, format, &error, NULL));
  g_assert_no_error (error);

  return g_bytes_new_take (buffer, size);
}

static gboolean
is_text_preview (GtkWidget     *widget,
                 gconstpointer  data)
{
  return TRIAGE_IS_TEXT_PREVIEW (widget);
}

/* Asserts that the preview's text, once all of it is in, is shown with no
 * hyphen added where a line wraps inside a word (ui_test_assert_unhyphenated()). */
void
attachment_view_test_assert_unhyphenated (Fixture *fixture)
{
  TriageTextPreview *preview = TRIAGE_TEXT_PREVIEW (attachment_view_test_find_widget (GTK_WIDGET (fixture->view),
                                                                                       is_text_preview, NULL));

  g_assert_nonnull (preview);
  WAIT_UNTIL (!triage_text_preview_get_loading (preview));
  ui_test_assert_unhyphenated (GTK_TEXT_VIEW (triage_text_preview_get_source_view (preview)));
}
