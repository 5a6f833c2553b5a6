/* attachment-view-uri.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Attachments by address: refused, shown, loaded on request, redirected,
 * too large, mistyped, cancelled.
 */

#define G_LOG_DOMAIN "test-attachment-view"

#include "attachment-view-common.h"

/* ------------------------------------------------------------------ addresses */

void
attachment_view_test_uri_refused (Fixture       *fixture,
                                  gconstpointer  data)
{
  g_autoptr(AtpAttachment) file = attachment_view_test_uri ("text/plain", "passwords",
                                                            "file:///etc/passwd");
  g_autoptr(AtpAttachment) http = attachment_view_test_uri ("text/plain", NULL,
                                                            "http://example.com/x.txt");
  const GError *error;

  attachment_view_test_show (fixture, file);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_ERROR);
  error = triage_attachment_view_get_error (fixture->view);
  g_assert_error ((GError *) error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_URI_REFUSED);
  g_assert_nonnull (attachment_view_test_find_label (fixture, "never loads “file:” addresses"));
  /* The address is still shown, and there is no way to load it. */
  g_assert_nonnull (attachment_view_test_find_label (fixture, "file:///etc/passwd"));
  g_assert_false (attachment_view_test_button_usable (fixture, "_Try Again"));
  gtk_widget_activate_action (GTK_WIDGET (fixture->view), "attachment.load", NULL);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_ERROR);

  attachment_view_test_show (fixture, http);
  error = triage_attachment_view_get_error (fixture->view);
  g_assert_error ((GError *) error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_URI_REFUSED);
  g_assert_nonnull (strstr (error->message, "example.com"));
  g_assert_false (attachment_view_test_button_usable (fixture, "Load from example.com"));
  gtk_widget_activate_action (GTK_WIDGET (fixture->view), "attachment.load", NULL);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_ERROR);
  g_assert_cmpuint (attachment_view_test_requests (fixture), ==, 0);
}

void
attachment_view_test_uri_host_emphasised (Fixture       *fixture,
                                          gconstpointer  data)
{
  g_autoptr(AtpAttachment) attachment =
    attachment_view_test_uri ("application/pdf", "report",
                              "https://Files.Example.com/r/<b>q</b>.pdf?x=1");
  const char *expected = "https://files.example.com/r/<b>q</b>.pdf?x=1";
  GtkLabel *label;
  PangoAttrList *attrs;
  GSList *list;
  gboolean bold_host = FALSE;
  PangoLayout *layout;

  attachment_view_test_show (fixture, attachment);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_REMOTE);
  g_assert_true (attachment_view_test_button_usable (fixture, "Load from files.example.com"));
  g_assert_nonnull (attachment_view_test_find_label (fixture, "Build bot attached a link"));

  /* The whole address, as text: markup in it stays visible characters. */
  label = attachment_view_test_find_label (fixture, "https://files.example.com/");
  g_assert_cmpstr (gtk_label_get_text (label), ==, expected);
  g_assert_false (gtk_label_get_use_markup (label));
  layout = gtk_label_get_layout (label);
  g_assert_cmpstr (pango_layout_get_text (layout), ==, expected);

  /* The host, and only the host, is bold. */
  attrs = gtk_label_get_attributes (label);
  g_assert_nonnull (attrs);
  list = pango_attr_list_get_attributes (attrs);
  for (GSList *l = list; l; l = l->next)
    {
      PangoAttribute *attr = l->data;

      if (attr->klass->type == PANGO_ATTR_WEIGHT &&
          ((PangoAttrInt *) attr)->value == PANGO_WEIGHT_BOLD)
        {
          g_assert_cmpuint (attr->start_index, ==, strlen ("https://"));
          g_assert_cmpuint (attr->end_index, ==, strlen ("https://files.example.com"));
          bold_host = TRUE;
        }
    }
  g_slist_free_full (list, (GDestroyNotify) pango_attribute_destroy);
  g_assert_true (bold_host);
  g_assert_null (triage_attachment_view_get_bytes (fixture->view));
}

void
attachment_view_test_uri_load (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autofree char *uri = attachment_view_test_server_uri (fixture, "/notes.txt");
  g_autoptr(AtpAttachment) attachment = attachment_view_test_uri ("text/plain", "notes", uri);

  attachment_view_test_show (fixture, attachment);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_REMOTE);
  g_assert_true (attachment_view_test_button_usable (fixture, "Load from 127.0.0.1"));

  /* Nothing is fetched until the user asks. */
  for (int i = 0; i < 10; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (attachment_view_test_requests (fixture), ==, 0);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->view), "attachment.load", NULL));
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_LOADING);
  attachment_view_test_wait_for_kind (fixture, TRIAGE_ATTACHMENT_KIND_TEXT);
  attachment_view_test_assert_text (fixture, "Downloaded notes\n");
  g_assert_cmpuint (attachment_view_test_requests (fixture), ==, 1);
  g_assert_true (attachment_view_test_button_usable (fixture, "_Save As…"));
  /* The address stays in view. */
  g_assert_nonnull (attachment_view_test_find_label (fixture, uri));
}

/* A redirect to another host is shown as the new address, loaded only when chosen. */
void
attachment_view_test_uri_redirect_elsewhere (Fixture       *fixture,
                                             gconstpointer  data)
{
  g_autofree char *uri = attachment_view_test_server_uri (fixture, "/redirect-localhost");
  g_autoptr(AtpAttachment) attachment = attachment_view_test_uri ("text/plain", "greeting", uri);
  g_autofree char *port = g_strdup (strrchr (uri, ':'));
  g_autofree char *redirect = NULL;

  *strchr (port, '/') = '\0';
  redirect = g_strdup_printf ("http://localhost%s/hello.txt", port);

  attachment_view_test_show (fixture, attachment);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->view), "attachment.load", NULL));
  WAIT_UNTIL (attachment_view_test_requests (fixture) == 1 &&
              triage_attachment_view_get_kind (fixture->view) != TRIAGE_ATTACHMENT_KIND_LOADING);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_REMOTE);
  g_assert_null (triage_attachment_view_get_bytes (fixture->view));

  /* The new address is named and in view, and only it can be loaded. */
  g_assert_nonnull (attachment_view_test_find_label (fixture,
                                                     "sent the attachment on to another address"));
  g_assert_nonnull (attachment_view_test_find_widget (GTK_WIDGET (fixture->view),
                                                      attachment_view_test_label_is, redirect));
  g_assert_true (attachment_view_test_button_usable (fixture, "Load from localhost"));
  g_assert_false (attachment_view_test_button_usable (fixture, "Load from 127.0.0.1"));
  g_assert_cmpuint (attachment_test_server_count_requests (attachment_view_test_get_server (fixture),
                                                          "/hello.txt"), ==, 0);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->view), "attachment.load", NULL));
  attachment_view_test_wait_for_kind (fixture, TRIAGE_ATTACHMENT_KIND_TEXT);
  attachment_view_test_assert_text (fixture, "hello world");
  g_assert_cmpuint (attachment_test_server_count_requests (attachment_view_test_get_server (fixture),
                                                          "/hello.txt"), ==, 1);
}

void
attachment_view_test_uri_size_limit (Fixture       *fixture,
                                     gconstpointer  data)
{
  g_autofree char *uri = attachment_view_test_server_uri (fixture, "/big");
  g_autoptr(AtpAttachment) attachment = attachment_view_test_uri ("text/plain", NULL, uri);
  const GError *error;

  triage_attachment_view_set_download_limits (fixture->view, 64 * 1024, 10);
  attachment_view_test_show (fixture, attachment);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->view), "attachment.load", NULL));
  attachment_view_test_wait_for_kind (fixture, TRIAGE_ATTACHMENT_KIND_ERROR);
  error = triage_attachment_view_get_error (fixture->view);
  g_assert_error ((GError *) error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_TOO_LARGE);
  g_assert_null (triage_attachment_view_get_bytes (fixture->view));
  g_assert_true (attachment_view_test_button_usable (fixture, "_Try Again"));
}

void
attachment_view_test_uri_type_mismatch (Fixture       *fixture,
                                        gconstpointer  data)
{
  g_autofree char *uri = attachment_view_test_server_uri (fixture, "/picture.png");
  g_autoptr(AtpAttachment) attachment = attachment_view_test_uri ("image/png", "picture", uri);

  /* Declared a PNG, served text: not decoded as an image, offered as a file. */
  attachment_view_test_show (fixture, attachment);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->view), "attachment.load", NULL));
  attachment_view_test_wait_for_kind (fixture, TRIAGE_ATTACHMENT_KIND_FILE);
  g_assert_nonnull (strstr (triage_attachment_view_get_notice (fixture->view), "image/png"));
  g_assert_true (attachment_view_test_button_usable (fixture, "_Save As…"));
}

void
attachment_view_test_uri_cancel (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autofree char *uri = attachment_view_test_server_uri (fixture, "/slow");
  g_autoptr(AtpAttachment) attachment = attachment_view_test_uri ("text/plain", NULL, uri);

  attachment_view_test_show (fixture, attachment);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->view), "attachment.load", NULL));
  WAIT_UNTIL (attachment_view_test_requests (fixture) == 1);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_LOADING);
  g_assert_true (attachment_view_test_button_usable (fixture, "_Cancel"));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->view), "attachment.cancel", NULL));
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_REMOTE);
  g_assert_true (attachment_view_test_button_usable (fixture, "Load from 127.0.0.1"));
}
