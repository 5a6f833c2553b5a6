/* test-attachment-view.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The attachment preview in a real window (suite 'ui': needs a display).
 */

#define G_LOG_DOMAIN "test-attachment-view"

#include <glib/gstdio.h>
#include <gtksourceview/gtksource.h>
#include <unistd.h>

#include "attachment-test-server.h"
#include "ui-test-util.h"
#include "triage-attachment-fetch.h"
#include "triage-attachment-file.h"
#include "triage-attachment-view.h"
#include "triage-attachment-window.h"
#include "triage-attachment-error.h"
#include "triage-image-decoder.h"

typedef struct
{
  GtkWidget            *window;
  TriageAttachmentView *view;
  AttachmentTestServer       *server;
} Fixture;

static gboolean
on_watchdog (gpointer user_data)
{
  g_error ("Timed out waiting for %s", (const char *) user_data);
  return G_SOURCE_REMOVE;
}

static gboolean
on_tick (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

/* Polls @condition, waking up at least every 10 ms, for at most 15 s. */
#define WAIT_UNTIL(condition) \
  G_STMT_START { \
    guint _watchdog = g_timeout_add_seconds (15, on_watchdog, (gpointer) #condition); \
    guint _tick = g_timeout_add (10, on_tick, NULL); \
    while (!(condition)) \
      g_main_context_iteration (NULL, TRUE); \
    g_source_remove (_tick); \
    g_source_remove (_watchdog); \
  } G_STMT_END

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  fixture->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 640, 480);
  fixture->view = TRIAGE_ATTACHMENT_VIEW (triage_attachment_view_new ());
  gtk_window_set_child (GTK_WINDOW (fixture->window), GTK_WIDGET (fixture->view));
  gtk_window_present (GTK_WINDOW (fixture->window));
}

static void
fixture_teardown (Fixture       *fixture,
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

static void
attachment_free (AtpAttachment *attachment)
{
  g_free (attachment->type);
  g_free (attachment->description);
  g_free (attachment->uri);
  g_free (attachment->data);
  g_free (attachment);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AtpAttachment, attachment_free)

static AtpAttachment *
inline_attachment (const char *type,
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

static AtpAttachment *
uri_attachment (const char *type,
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
static AttachmentTestServer *
get_server (Fixture *fixture)
{
  if (fixture->server == NULL)
    fixture->server = attachment_test_server_start ();

  return fixture->server;
}

static char *
server_uri (Fixture    *fixture,
            const char *path)
{
  return attachment_test_server_uri (get_server (fixture), path);
}

static guint
requests (Fixture *fixture)
{
  return attachment_test_server_count_requests (get_server (fixture), NULL);
}

static void
show (Fixture             *fixture,
      const AtpAttachment *attachment)
{
  triage_attachment_view_set_attachment (fixture->view, attachment, "Build bot");
}

static void
wait_for_kind (Fixture              *fixture,
               TriageAttachmentKind  kind)
{
  WAIT_UNTIL (triage_attachment_view_get_kind (fixture->view) == kind);
}

static GtkWidget *
find_widget (GtkWidget  *root,
             gboolean  (*match) (GtkWidget *, gconstpointer),
             gconstpointer data)
{
  if (match (root, data))
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, match, data);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static gboolean
label_contains (GtkWidget     *widget,
                gconstpointer  text)
{
  return GTK_IS_LABEL (widget) &&
         strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL;
}

static gboolean
label_is (GtkWidget     *widget,
          gconstpointer  text)
{
  return GTK_IS_LABEL (widget) && g_str_equal (gtk_label_get_text (GTK_LABEL (widget)), text);
}

static gboolean
button_labelled (GtkWidget     *widget,
                 gconstpointer  label)
{
  return GTK_IS_BUTTON (widget) &&
         g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0;
}

static GtkLabel *
find_label (Fixture    *fixture,
            const char *text)
{
  GtkWidget *label = find_widget (GTK_WIDGET (fixture->view), label_contains, text);

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
static gboolean
button_usable (Fixture    *fixture,
               const char *label)
{
  GtkWidget *button = find_widget (GTK_WIDGET (fixture->view), button_labelled, label);

  return button != NULL && gtk_widget_is_visible (button) && gtk_widget_is_sensitive (button);
}

static void
assert_text (Fixture    *fixture,
             const char *expected)
{
  g_autofree char *text = triage_attachment_view_get_text (fixture->view);

  g_assert_cmpstr (text, ==, expected);
}

static GBytes *
make_image (int         width,
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

/* ------------------------------------------------------------------ inline previews */

static void
test_text (Fixture       *fixture,
           gconstpointer  data)
{
  static const char text[] = "Version 2.1.0 includes:\n- faster builds\n";
  g_autoptr(AtpAttachment) attachment = inline_attachment ("text/plain", "Release notes",
                                                           text, strlen (text));

  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_NONE);
  g_assert_false (button_usable (fixture, "_Save As…"));

  show (fixture, attachment);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_TEXT);
  assert_text (fixture, text);
  g_assert_null (triage_attachment_view_get_language_id (fixture->view));
  g_assert_null (triage_attachment_view_get_notice (fixture->view));
  g_assert_nonnull (find_label (fixture, "Release notes"));
  g_assert_nonnull (find_label (fixture, "plain text document"));
  g_assert_true (button_usable (fixture, "_Save As…"));
  g_assert_true (button_usable (fixture, "_Open With…"));
  g_assert_cmpuint (g_bytes_get_size (triage_attachment_view_get_bytes (fixture->view)), ==,
                    strlen (text));

  triage_attachment_view_set_attachment (fixture->view, NULL, NULL);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_NONE);
  g_assert_null (triage_attachment_view_get_bytes (fixture->view));
  g_assert_false (button_usable (fixture, "_Save As…"));
}

static void
test_json (Fixture       *fixture,
           gconstpointer  data)
{
  static const char json[] = "{\"version\":\"2.1.0\",\"changes\":[1,2],\"ok\":true,"
                              " \"ratio\": 0.1, \"scale\": 1e3, \"id\": 123456789012345678901234567890}";
  static const char bad[] = "{\"version\": 2.1.0";
  g_autoptr(AtpAttachment) attachment = inline_attachment ("application/json", "metadata.json",
                                                           json, strlen (json));
  g_autoptr(AtpAttachment) broken = inline_attachment ("application/json", NULL, bad, strlen (bad));
  g_autofree char *text = NULL;

  show (fixture, attachment);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_JSON);
  g_assert_cmpstr (triage_attachment_view_get_language_id (fixture->view), ==, "json");
  text = triage_attachment_view_get_text (fixture->view);
  g_assert_cmpstr (text, ==,
                   "{\n"
                   "  \"version\": \"2.1.0\",\n"
                   "  \"changes\": [\n"
                   "    1,\n"
                   "    2\n"
                   "  ],\n"
                   "  \"ok\": true,\n"
                   "  \"ratio\": 0.1,\n"      /* numbers as written, not as a double prints */
                   "  \"scale\": 1e3,\n"
                   "  \"id\": 123456789012345678901234567890\n"
                   "}");

  /* Not JSON after all: shown as sent, with a notice. */
  show (fixture, broken);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_TEXT);
  assert_text (fixture, bad);
  g_assert_nonnull (strstr (triage_attachment_view_get_notice (fixture->view), "not valid JSON"));
  g_assert_nonnull (find_label (fixture, "not valid JSON"));
}

static void
test_code (Fixture       *fixture,
           gconstpointer  data)
{
  static const char python[] = "import os\nprint(os.getcwd())\n";
  static const char shell[] = "#!/bin/sh\nset -e\nmake deploy\n";
  static const char c_code[] = "int main (void) { return 0; }\n";
  g_autoptr(AtpAttachment) by_type = inline_attachment ("text/x-python", "script",
                                                        python, strlen (python));
  g_autoptr(AtpAttachment) by_type_sh = inline_attachment ("application/x-shellscript", "deploy",
                                                           shell, strlen (shell));
  g_autoptr(AtpAttachment) by_name = inline_attachment ("text/plain", "main.c",
                                                        c_code, strlen (c_code));

  show (fixture, by_type);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_CODE);
  g_assert_true (g_str_has_prefix (triage_attachment_view_get_language_id (fixture->view), "python"));
  assert_text (fixture, python);

  show (fixture, by_type_sh);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_CODE);
  g_assert_cmpstr (triage_attachment_view_get_language_id (fixture->view), ==, "sh");

  /* The description names the file: its extension picks the language. */
  show (fixture, by_name);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_CODE);
  g_assert_cmpstr (triage_attachment_view_get_language_id (fixture->view), ==, "c");
}

static gboolean
is_source_view (GtkWidget     *widget,
                gconstpointer  data)
{
  return GTK_SOURCE_IS_VIEW (widget);
}

static void
test_code_view_settings (Fixture       *fixture,
                         gconstpointer  data)
{
  static const char c_code[] = "int main (void) { return 0; }\n";
  g_autoptr(AtpAttachment) attachment = inline_attachment ("text/x-csrc", "main.c",
                                                           c_code, strlen (c_code));
  AdwStyleManager *style = adw_style_manager_get_default ();
  GtkWidget *source_view;
  GtkSourceBuffer *buffer;

  show (fixture, attachment);
  source_view = find_widget (GTK_WIDGET (fixture->view), is_source_view, NULL);
  g_assert_nonnull (source_view);
  buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (source_view)));

  g_assert_false (gtk_text_view_get_editable (GTK_TEXT_VIEW (source_view)));
  g_assert_true (gtk_text_view_get_monospace (GTK_TEXT_VIEW (source_view)));
  g_assert_true (gtk_source_buffer_get_highlight_syntax (buffer));
  g_assert_cmpstr (gtk_source_language_get_id (gtk_source_buffer_get_language (buffer)), ==, "c");

  /* The style scheme follows dark mode. */
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_DARK);
  WAIT_UNTIL (adw_style_manager_get_dark (style));
  g_assert_cmpstr (gtk_source_style_scheme_get_id (gtk_source_buffer_get_style_scheme (buffer)), ==,
                   "Adwaita-dark");
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_LIGHT);
  WAIT_UNTIL (!adw_style_manager_get_dark (style));
  g_assert_cmpstr (gtk_source_style_scheme_get_id (gtk_source_buffer_get_style_scheme (buffer)), ==,
                   "Adwaita");
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
}

static void
test_html_is_source (Fixture       *fixture,
                     gconstpointer  data)
{
  static const char html[] = "<html><body><script>alert(1)</script><b>bold</b>"
                             "<img src=\"https://tracker.example/p.gif\"></body></html>";
  g_autoptr(AtpAttachment) attachment = inline_attachment ("text/html", "page.html",
                                                           html, strlen (html));
  static const char svg[] = "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>x()</script></svg>";
  g_autoptr(AtpAttachment) svg_attachment = inline_attachment ("image/svg+xml", "logo.svg",
                                                               svg, strlen (svg));

  /* Markup is shown as its source text, never rendered. */
  show (fixture, attachment);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_CODE);
  g_assert_cmpstr (triage_attachment_view_get_language_id (fixture->view), ==, "html");
  assert_text (fixture, html);

  show (fixture, svg_attachment);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_CODE);
  g_assert_cmpstr (triage_attachment_view_get_language_id (fixture->view), ==, "xml");
  assert_text (fixture, svg);
}

static void
test_image (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(GBytes) png = make_image (64, 48, "png");
  g_autoptr(GBytes) wide = make_image (3000, 100, "png");
  g_autoptr(AtpAttachment) attachment = inline_attachment ("image/png", "screenshot.png",
                                                           g_bytes_get_data (png, NULL),
                                                           g_bytes_get_size (png));
  g_autoptr(AtpAttachment) wide_attachment = inline_attachment ("image/png", NULL,
                                                                g_bytes_get_data (wide, NULL),
                                                                g_bytes_get_size (wide));
  GdkPaintable *paintable;

  /* Decoding runs in a thread: first "loading", then the picture. */
  show (fixture, attachment);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_LOADING);
  wait_for_kind (fixture, TRIAGE_ATTACHMENT_KIND_IMAGE);
  paintable = triage_attachment_view_get_paintable (fixture->view);
  g_assert_true (GDK_IS_TEXTURE (paintable));
  g_assert_cmpint (gdk_paintable_get_intrinsic_width (paintable), ==, 64);
  g_assert_cmpint (gdk_paintable_get_intrinsic_height (paintable), ==, 48);
  g_assert_null (triage_attachment_view_get_notice (fixture->view));

  show (fixture, wide_attachment);
  wait_for_kind (fixture, TRIAGE_ATTACHMENT_KIND_IMAGE);
  paintable = triage_attachment_view_get_paintable (fixture->view);
  g_assert_cmpint (gdk_paintable_get_intrinsic_width (paintable), ==,
                   TRIAGE_ATTACHMENT_IMAGE_MAX_DISPLAY_SIZE);
  g_assert_nonnull (strstr (triage_attachment_view_get_notice (fixture->view),
                            "scaled down from 3000 × 100"));
}

static void
test_file (Fixture       *fixture,
           gconstpointer  data)
{
  g_autofree char *pdf = g_malloc0 (1000);
  g_autoptr(AtpAttachment) attachment = NULL;

  memcpy (pdf, "%PDF-1.4\n", 9);
  attachment = inline_attachment ("application/pdf", "invoice.pdf", pdf, 1000);

  show (fixture, attachment);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_FILE);
  /* g_format_size() puts a no-break space before the unit. */
  g_assert_nonnull (find_label (fixture, "PDF document, 1.0\xc2\xa0kB"));
  g_assert_nonnull (find_label (fixture, "PDF document · 1.0\xc2\xa0kB"));
  g_assert_true (button_usable (fixture, "_Save As…"));
  g_assert_true (button_usable (fixture, "_Open With…"));
  g_assert_null (triage_attachment_view_get_text (fixture->view));
}

/* ------------------------------------------------------------------ hostile input */

static void
test_bad_base64 (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(AtpAttachment) attachment = g_new0 (AtpAttachment, 1);
  const GError *error;

  attachment->type = g_strdup ("text/plain");
  attachment->data = g_strdup ("SGVsbG8*!!not base64 at all");

  show (fixture, attachment);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_ERROR);
  error = triage_attachment_view_get_error (fixture->view);
  g_assert_error ((GError *) error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "base64"));
  g_assert_nonnull (find_label (fixture, "not valid base64"));
  /* Nothing to save: there are no bytes. */
  g_assert_null (triage_attachment_view_get_bytes (fixture->view));
  g_assert_false (button_usable (fixture, "_Save As…"));
}

static void
test_huge_image_header (Fixture       *fixture,
                        gconstpointer  data)
{
  /* A valid PNG signature and IHDR claiming 50000 × 50000 (10 GB of pixels). */
  static const guint8 png[] = {
    0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n',
    0x00, 0x00, 0x00, 0x0d, 'I', 'H', 'D', 'R',
    0x00, 0x00, 0xc3, 0x50, 0x00, 0x00, 0xc3, 0x50, 0x08, 0x06, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00,   /* CRC, patched below */
    0x00, 0x00, 0x00, 0x02, 'I', 'D', 'A', 'T', 0x78, 0x9c, 0x00, 0x00, 0x00, 0x00,
  };
  guint8 data_copy[sizeof png];
  g_autoptr(AtpAttachment) attachment = NULL;
  guint32 crc = 0xffffffff;
  const GError *error;

  memcpy (data_copy, png, sizeof png);
  for (gsize i = 12; i < 29; i++)
    {
      crc ^= data_copy[i];
      for (int k = 0; k < 8; k++)
        crc = (crc >> 1) ^ (0xedb88320 & -(crc & 1));
    }
  crc ^= 0xffffffff;
  data_copy[29] = crc >> 24;
  data_copy[30] = crc >> 16;
  data_copy[31] = crc >> 8;
  data_copy[32] = crc;

  attachment = inline_attachment ("image/png", "huge.png", data_copy, sizeof data_copy);
  show (fixture, attachment);
  wait_for_kind (fixture, TRIAGE_ATTACHMENT_KIND_ERROR);
  error = triage_attachment_view_get_error (fixture->view);
  g_assert_error ((GError *) error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_IMAGE_TOO_LARGE);
  g_assert_nonnull (find_label (fixture, "50000 × 50000"));
  g_assert_null (triage_attachment_view_get_paintable (fixture->view));
  /* The bytes can still be saved for inspection elsewhere. */
  g_assert_true (button_usable (fixture, "_Save As…"));
}

static void
test_invalid_utf8 (Fixture       *fixture,
                   gconstpointer  data)
{
  static const char latin1[] = "caf\xe9 \xff\xfe ok\0end";
  g_autoptr(AtpAttachment) attachment = inline_attachment ("text/plain", "log.txt",
                                                           latin1, sizeof latin1 - 1);
  g_autoptr(AtpAttachment) declared = inline_attachment ("text/plain; charset=ISO-8859-1", NULL,
                                                         "caf\xe9", 4);
  g_autofree char *text = NULL;

  show (fixture, attachment);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_TEXT);
  text = triage_attachment_view_get_text (fixture->view);
  g_assert_true (g_utf8_validate (text, -1, NULL));
  g_assert_cmpstr (text, ==, "caf\xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd ok\xef\xbf\xbd" "end");
  g_assert_nonnull (strstr (triage_attachment_view_get_notice (fixture->view), "not valid UTF-8"));

  /* A declared character set is honoured. */
  show (fixture, declared);
  assert_text (fixture, "caf\xc3\xa9");
  g_assert_null (triage_attachment_view_get_notice (fixture->view));
}

static void
test_huge_text_truncated (Fixture       *fixture,
                          gconstpointer  data)
{
  gsize size = TRIAGE_ATTACHMENT_TEXT_MAX_SIZE + TRIAGE_ATTACHMENT_TEXT_MAX_SIZE / 2;
  g_autofree char *big = g_malloc (size);
  g_autoptr(AtpAttachment) attachment = NULL;
  g_autofree char *text = NULL;

  /* "é" is two bytes: the cut must not split one. */
  for (gsize i = 0; i + 1 < size; i += 2)
    {
      big[i] = '\xc3';
      big[i + 1] = '\xa9';
    }
  big[TRIAGE_ATTACHMENT_TEXT_MAX_SIZE - 1] = '\xc3';
  big[TRIAGE_ATTACHMENT_TEXT_MAX_SIZE] = '\xa9';
  big[TRIAGE_ATTACHMENT_TEXT_MAX_SIZE - 2] = 'x';
  attachment = inline_attachment ("text/plain", NULL, big, size);

  /* Prepared in a thread: the view says it is loading meanwhile. */
  show (fixture, attachment);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_LOADING);
  wait_for_kind (fixture, TRIAGE_ATTACHMENT_KIND_TEXT);
  text = triage_attachment_view_get_text (fixture->view);
  g_assert_cmpuint (strlen (text), ==, TRIAGE_ATTACHMENT_TEXT_MAX_SIZE - 1);
  g_assert_true (g_utf8_validate (text, -1, NULL));
  g_assert_nonnull (strstr (triage_attachment_view_get_notice (fixture->view), "Only the first"));
  g_assert_null (strstr (triage_attachment_view_get_notice (fixture->view), "UTF-8"));
  /* Saving keeps everything. */
  g_assert_cmpuint (g_bytes_get_size (triage_attachment_view_get_bytes (fixture->view)), ==, size);
}

static void
test_type_mismatch (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(GBytes) png = make_image (8, 8, "png");
  g_autoptr(AtpAttachment) png_as_text = inline_attachment ("text/plain", "notes.txt",
                                                            g_bytes_get_data (png, NULL),
                                                            g_bytes_get_size (png));
  g_autoptr(AtpAttachment) text_as_png = inline_attachment ("image/png", "photo.png",
                                                            "just words", 10);

  show (fixture, png_as_text);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_FILE);
  g_assert_nonnull (strstr (triage_attachment_view_get_notice (fixture->view), "looks like"));

  show (fixture, text_as_png);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_FILE);
  g_assert_nonnull (strstr (triage_attachment_view_get_notice (fixture->view), "image/png"));
}

/* ------------------------------------------------------------------ addresses */

static void
test_uri_refused (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(AtpAttachment) file = uri_attachment ("text/plain", "passwords", "file:///etc/passwd");
  g_autoptr(AtpAttachment) http = uri_attachment ("text/plain", NULL, "http://example.com/x.txt");
  const GError *error;

  show (fixture, file);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_ERROR);
  error = triage_attachment_view_get_error (fixture->view);
  g_assert_error ((GError *) error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_URI_REFUSED);
  g_assert_nonnull (find_label (fixture, "never loads “file:” addresses"));
  /* The address is still shown, and there is no way to load it. */
  g_assert_nonnull (find_label (fixture, "file:///etc/passwd"));
  g_assert_false (button_usable (fixture, "_Try Again"));
  gtk_widget_activate_action (GTK_WIDGET (fixture->view), "attachment.load", NULL);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_ERROR);

  show (fixture, http);
  error = triage_attachment_view_get_error (fixture->view);
  g_assert_error ((GError *) error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_URI_REFUSED);
  g_assert_nonnull (strstr (error->message, "example.com"));
  g_assert_false (button_usable (fixture, "Load from example.com"));
  gtk_widget_activate_action (GTK_WIDGET (fixture->view), "attachment.load", NULL);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_ERROR);
  g_assert_cmpuint (requests (fixture), ==, 0);
}

static void
test_uri_host_emphasised (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(AtpAttachment) attachment =
    uri_attachment ("application/pdf", "report", "https://Files.Example.com/r/<b>q</b>.pdf?x=1");
  const char *expected = "https://files.example.com/r/<b>q</b>.pdf?x=1";
  GtkLabel *label;
  PangoAttrList *attrs;
  GSList *list;
  gboolean bold_host = FALSE;
  PangoLayout *layout;

  show (fixture, attachment);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_REMOTE);
  g_assert_true (button_usable (fixture, "Load from files.example.com"));
  g_assert_nonnull (find_label (fixture, "Build bot attached a link"));

  /* The whole address, as text: markup in it stays visible characters. */
  label = find_label (fixture, "https://files.example.com/");
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

static void
test_uri_load (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *uri = server_uri (fixture, "/notes.txt");
  g_autoptr(AtpAttachment) attachment = uri_attachment ("text/plain", "notes", uri);

  show (fixture, attachment);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_REMOTE);
  g_assert_true (button_usable (fixture, "Load from 127.0.0.1"));

  /* Nothing is fetched until the user asks. */
  for (int i = 0; i < 10; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (requests (fixture), ==, 0);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->view), "attachment.load", NULL));
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_LOADING);
  wait_for_kind (fixture, TRIAGE_ATTACHMENT_KIND_TEXT);
  assert_text (fixture, "Downloaded notes\n");
  g_assert_cmpuint (requests (fixture), ==, 1);
  g_assert_true (button_usable (fixture, "_Save As…"));
  /* The address stays in view. */
  g_assert_nonnull (find_label (fixture, uri));
}

/* A redirect to another host is shown as the new address, loaded only when chosen. */
static void
test_uri_redirect_elsewhere (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autofree char *uri = server_uri (fixture, "/redirect-localhost");
  g_autoptr(AtpAttachment) attachment = uri_attachment ("text/plain", "greeting", uri);
  g_autofree char *port = g_strdup (strrchr (uri, ':'));
  g_autofree char *redirect = NULL;

  *strchr (port, '/') = '\0';
  redirect = g_strdup_printf ("http://localhost%s/hello.txt", port);

  show (fixture, attachment);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->view), "attachment.load", NULL));
  WAIT_UNTIL (requests (fixture) == 1 &&
              triage_attachment_view_get_kind (fixture->view) != TRIAGE_ATTACHMENT_KIND_LOADING);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_REMOTE);
  g_assert_null (triage_attachment_view_get_bytes (fixture->view));

  /* The new address is named and in view, and only it can be loaded. */
  g_assert_nonnull (find_label (fixture, "sent the attachment on to another address"));
  g_assert_nonnull (find_widget (GTK_WIDGET (fixture->view), label_is, redirect));
  g_assert_true (button_usable (fixture, "Load from localhost"));
  g_assert_false (button_usable (fixture, "Load from 127.0.0.1"));
  g_assert_cmpuint (attachment_test_server_count_requests (get_server (fixture), "/hello.txt"), ==, 0);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->view), "attachment.load", NULL));
  wait_for_kind (fixture, TRIAGE_ATTACHMENT_KIND_TEXT);
  assert_text (fixture, "hello world");
  g_assert_cmpuint (attachment_test_server_count_requests (get_server (fixture), "/hello.txt"), ==, 1);
}

static void
test_uri_size_limit (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autofree char *uri = server_uri (fixture, "/big");
  g_autoptr(AtpAttachment) attachment = uri_attachment ("text/plain", NULL, uri);
  const GError *error;

  triage_attachment_view_set_download_limits (fixture->view, 64 * 1024, 10);
  show (fixture, attachment);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->view), "attachment.load", NULL));
  wait_for_kind (fixture, TRIAGE_ATTACHMENT_KIND_ERROR);
  error = triage_attachment_view_get_error (fixture->view);
  g_assert_error ((GError *) error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_TOO_LARGE);
  g_assert_null (triage_attachment_view_get_bytes (fixture->view));
  g_assert_true (button_usable (fixture, "_Try Again"));
}

static void
test_uri_type_mismatch (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autofree char *uri = server_uri (fixture, "/picture.png");
  g_autoptr(AtpAttachment) attachment = uri_attachment ("image/png", "picture", uri);

  /* Declared a PNG, served text: not decoded as an image, offered as a file. */
  show (fixture, attachment);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->view), "attachment.load", NULL));
  wait_for_kind (fixture, TRIAGE_ATTACHMENT_KIND_FILE);
  g_assert_nonnull (strstr (triage_attachment_view_get_notice (fixture->view), "image/png"));
  g_assert_true (button_usable (fixture, "_Save As…"));
}

static void
test_uri_cancel (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *uri = server_uri (fixture, "/slow");
  g_autoptr(AtpAttachment) attachment = uri_attachment ("text/plain", NULL, uri);

  show (fixture, attachment);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->view), "attachment.load", NULL));
  WAIT_UNTIL (requests (fixture) == 1);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_LOADING);
  g_assert_true (button_usable (fixture, "_Cancel"));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->view), "attachment.cancel", NULL));
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_REMOTE);
  g_assert_true (button_usable (fixture, "Load from 127.0.0.1"));
}

static void
test_window (void)
{
  static const char text[] = "hello";
  g_autoptr(AtpAttachment) attachment = inline_attachment ("text/plain", "greeting <b>", text, 5);
  GtkWidget *window = triage_attachment_window_new (NULL, attachment, "Bot");
  TriageAttachmentView *view = triage_attachment_window_get_view (TRIAGE_ATTACHMENT_WINDOW (window));
  g_autofree char *shown = NULL;

  gtk_window_present (GTK_WINDOW (window));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "greeting <b>");
  g_assert_cmpint (triage_attachment_view_get_kind (view), ==, TRIAGE_ATTACHMENT_KIND_TEXT);
  shown = triage_attachment_view_get_text (view);
  g_assert_cmpstr (shown, ==, "hello");

  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  gtk_window_destroy (GTK_WINDOW (window));
  WAIT_UNTIL (window == NULL);
}

/* ------------------------------------------------------------------ save as, open with */

typedef struct
{
  gboolean  done;
  gboolean  saved;
  GFile    *copy;
  char     *content_type;
  GError   *error;
} Outcome;

static void
outcome_clear (Outcome *outcome)
{
  g_clear_object (&outcome->copy);
  g_clear_pointer (&outcome->content_type, g_free);
  g_clear_error (&outcome->error);
  memset (outcome, 0, sizeof *outcome);
}

static void
save_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->saved = triage_attachment_view_save_finish (TRIAGE_ATTACHMENT_VIEW (object), result,
                                                       &outcome->error);
  outcome->done = TRUE;
}

/* What "Save As…" does once the user has chosen @path. */
static void
save_to (Fixture    *fixture,
         const char *path,
         Outcome    *outcome)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  outcome_clear (outcome);
  triage_attachment_view_save_async (fixture->view, file, NULL, save_cb, outcome);
  WAIT_UNTIL (outcome->done);
}

static void
assert_saved (Fixture    *fixture,
              const char *path)
{
  GBytes *bytes = triage_attachment_view_get_bytes (fixture->view);
  g_autofree char *contents = NULL;
  gsize length = 0;
  Outcome outcome = { 0, };

  save_to (fixture, path, &outcome);
  g_assert_no_error (outcome.error);
  g_assert_true (outcome.saved);
  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_cmpmem (contents, length, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  outcome_clear (&outcome);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/* The names in @dir, sorted and joined by spaces: no temporary file is left behind. */
static char *
list_dir (const char *dir)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (handle != NULL && (name = g_dir_read_name (handle)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);

  return g_strjoinv (" ", (char **) names->pdata);
}

/* A toast the user sees. */
static gboolean
toast_shown (Fixture    *fixture,
             const char *text)
{
  GtkWidget *label = find_widget (GTK_WIDGET (fixture->view), label_contains, text);

  return label != NULL && gtk_widget_get_mapped (label);
}

static void
test_save (Fixture       *fixture,
           gconstpointer  data)
{
  static const char text[] = "Version 2.1.0\r\nno final newline";
  static const guint8 binary[] = { 0x00, 0xff, 0x7f, 0x80, 0x00, '\n', '\r', 0x1b, 0xc3 };
  g_autoptr(GBytes) png = make_image (16, 16, "png");
  g_autoptr(AtpAttachment) text_attachment = inline_attachment ("text/plain", "notes", text,
                                                                strlen (text));
  g_autoptr(AtpAttachment) binary_attachment = inline_attachment ("application/octet-stream",
                                                                  "blob", binary, sizeof binary);
  g_autoptr(AtpAttachment) image_attachment = inline_attachment ("image/png", "shot.png",
                                                                 g_bytes_get_data (png, NULL),
                                                                 g_bytes_get_size (png));
  g_autofree char *dir = g_dir_make_tmp ("triage-save-XXXXXX", NULL);
  g_autofree char *text_path = g_build_filename (dir, "notes.txt", NULL);
  g_autofree char *binary_path = g_build_filename (dir, "blob", NULL);
  g_autofree char *image_path = g_build_filename (dir, "shot.png", NULL);
  g_autofree char *listed = NULL;

  show (fixture, text_attachment);
  assert_saved (fixture, text_path);
  WAIT_UNTIL (toast_shown (fixture, "Saved as “notes.txt”"));

  show (fixture, binary_attachment);
  assert_saved (fixture, binary_path);

  /* An image is saved as sent, not as decoded; an existing file is replaced. */
  g_assert_true (g_file_set_contents (image_path, "an older, longer file of another kind", -1,
                                      NULL));
  show (fixture, image_attachment);
  wait_for_kind (fixture, TRIAGE_ATTACHMENT_KIND_IMAGE);
  assert_saved (fixture, image_path);

  listed = list_dir (dir);
  g_assert_cmpstr (listed, ==, "blob notes.txt shot.png");
  ui_test_remove_tree (dir);
}

static void
test_save_loaded_uri (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *uri = server_uri (fixture, "/notes.txt");
  g_autoptr(AtpAttachment) attachment = uri_attachment ("text/plain", "notes", uri);
  g_autofree char *dir = g_dir_make_tmp ("triage-save-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "notes.txt", NULL);
  g_autofree char *contents = NULL;

  show (fixture, attachment);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->view), "attachment.load", NULL));
  wait_for_kind (fixture, TRIAGE_ATTACHMENT_KIND_TEXT);
  assert_saved (fixture, path);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "Downloaded notes\n");
  ui_test_remove_tree (dir);
}

static void
assert_not_saved (Fixture    *fixture,
                  const char *path,
                  const char *reason)
{
  g_autofree char *name = g_path_get_basename (path);
  g_autofree char *message = g_strdup_printf ("Could not save “%s”: ", name);
  Outcome outcome = { 0, };
  GtkWidget *label;

  save_to (fixture, path, &outcome);
  g_assert_false (outcome.saved);
  g_assert_nonnull (outcome.error);
  g_assert_false (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  /* The error is in view, naming the file the user chose, and why. */
  WAIT_UNTIL (toast_shown (fixture, message));
  label = find_widget (GTK_WIDGET (fixture->view), label_contains, message);
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (label)), reason));
  outcome_clear (&outcome);
}

static void
test_save_unwritable (Fixture       *fixture,
                      gconstpointer  data)
{
  static const char text[] = "secret plan";
  g_autoptr(AtpAttachment) attachment = inline_attachment ("text/plain", "plan", text,
                                                           strlen (text));
  g_autofree char *dir = g_dir_make_tmp ("triage-save-XXXXXX", NULL);
  g_autofree char *folder = g_build_filename (dir, "plan.txt", NULL);
  g_autofree char *listed = NULL;

  show (fixture, attachment);

  /* The write succeeds and the rename over a folder fails: the copy is removed. */
  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  assert_not_saved (fixture, folder, "Is a directory");
  listed = list_dir (dir);
  g_assert_cmpstr (listed, ==, "plan.txt");
  g_assert_cmpint (g_rmdir (folder), ==, 0);

  /* A folder the user may not write to (root may write anywhere). */
  if (geteuid () != 0)
    {
      g_autofree char *read_only = g_build_filename (dir, "read-only", NULL);
      g_autofree char *path = g_build_filename (read_only, "plan.txt", NULL);

      g_assert_cmpint (g_mkdir (read_only, 0500), ==, 0);
      assert_not_saved (fixture, path, "Permission denied");
      g_assert_cmpint (g_chmod (read_only, 0700), ==, 0);
    }

  ui_test_remove_tree (dir);
}

static void
write_copy_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->copy = triage_attachment_view_write_copy_finish (TRIAGE_ATTACHMENT_VIEW (object),
                                                            result, &outcome->content_type,
                                                            &outcome->error);
  outcome->done = TRUE;
}

/*
 * What "Open With…" hands to the application the user picks: a private copy
 * of @attachment, byte for byte. Returns the copy's name and, in @content_type,
 * the type whose applications are offered.
 */
static char *
write_copy (Fixture              *fixture,
            const AtpAttachment  *attachment,
            char                **content_type)
{
  g_autofree char *cache_dir = triage_attachment_get_cache_dir ();
  g_autofree char *path = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GBytes) expected = NULL;
  Outcome outcome = { 0, };
  GStatBuf st;
  gsize length = 0;
  char *name;

  show (fixture, attachment);
  expected = g_bytes_ref (triage_attachment_view_get_bytes (fixture->view));
  triage_attachment_view_write_copy_async (fixture->view, NULL, write_copy_cb, &outcome);
  WAIT_UNTIL (outcome.done);
  g_assert_no_error (outcome.error);

  path = g_file_get_path (outcome.copy);
  name = g_file_get_basename (outcome.copy);
  folder = g_path_get_dirname (path);
  g_assert_true (g_str_has_prefix (path, cache_dir));

  /* Only the user can read it, or list its folder. */
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_cmpint (g_stat (folder, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);
  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_cmpmem (contents, length, g_bytes_get_data (expected, NULL),
                   g_bytes_get_size (expected));

  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (folder), ==, 0);
  *content_type = g_steal_pointer (&outcome.content_type);
  outcome_clear (&outcome);

  return name;
}

static void
assert_copy_named (Fixture    *fixture,
                   const char *description,
                   const char *expected)
{
  g_autoptr(AtpAttachment) attachment = inline_attachment ("text/plain", description, "hi", 2);
  g_autofree char *content_type = NULL;
  g_autofree char *name = write_copy (fixture, attachment, &content_type);

  g_assert_cmpstr (name, ==, expected);
  g_assert_cmpstr (content_type, ==, "text/plain");
}

static void
test_open_with_copy_name (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autofree char *long_ascii = g_strnfill (500, 'x');
  g_autoptr(GString) long_wide = g_string_new (NULL);
  g_autofree char *name = NULL;
  g_autofree char *content_type = NULL;
  g_autoptr(AtpAttachment) wide = NULL;

  /* No way out of the private folder, no hidden file. */
  assert_copy_named (fixture, "../../etc/passwd", "_.._etc_passwd");
  assert_copy_named (fixture, ".bashrc", "bashrc.txt");
  assert_copy_named (fixture, "/", "_.txt");
  assert_copy_named (fixture, NULL, "attachment.txt");

  /* A long description makes a short name, also in bytes (a name has at most 255). */
  for (int i = 0; i < 500; i++)
    g_string_append (long_wide, "\xf0\x9f\x98\x80");   /* 😀, four bytes */
  wide = inline_attachment ("text/plain", long_wide->str, "hi", 2);
  name = write_copy (fixture, wide, &content_type);
  g_assert_cmpuint (strlen (name), <=, 210);
  g_assert_true (g_str_has_prefix (name, "\xf0\x9f\x98\x80"));
  g_assert_true (g_str_has_suffix (name, ".txt"));
  g_assert_true (g_utf8_validate (name, -1, NULL));

  g_clear_pointer (&name, g_free);
  g_clear_pointer (&content_type, g_free);
  g_clear_pointer (&wide, attachment_free);
  wide = inline_attachment ("text/plain", long_ascii, "hi", 2);
  name = write_copy (fixture, wide, &content_type);
  g_assert_cmpuint (strlen (name), <=, 90);
  g_assert_true (g_str_has_suffix (name, ".txt"));
}

static void
assert_offered (Fixture    *fixture,
                const char *declared,
                GBytes     *bytes,
                const char *expected)
{
  g_autoptr(AtpAttachment) attachment = inline_attachment (declared, "file",
                                                           g_bytes_get_data (bytes, NULL),
                                                           g_bytes_get_size (bytes));
  g_autofree char *content_type = NULL;
  g_autofree char *name = write_copy (fixture, attachment, &content_type);

  g_assert_cmpstr (content_type, ==, expected);
}

/* The applications offered are for what the content is, when it is not what it says. */
static void
test_open_with_content_type (Fixture       *fixture,
                             gconstpointer  data)
{
  static const char html[] = "<!DOCTYPE html><html><head><title>x</title></head></html>\n";
  g_autoptr(GBytes) png = make_image (8, 8, "png");
  g_autoptr(GBytes) text = g_bytes_new_static ("just words\n", 11);
  g_autoptr(GBytes) page = g_bytes_new_static (html, strlen (html));
  g_autoptr(GBytes) shell = g_bytes_new_static ("#!/bin/sh\necho hi\n", 18);
  g_autoptr(GBytes) zeros = g_bytes_new_take (g_malloc0 (64), 64);

  /* Agreeing: the declared type, which may be the more precise one. */
  assert_offered (fixture, "text/plain", text, "text/plain");
  assert_offered (fixture, "image/png", png, "image/png");
  assert_offered (fixture, "text/plain", shell, "text/plain");
  assert_offered (fixture, "application/x-shellscript", shell, "application/x-shellscript");
  /* Nothing recognises the content: the declared type stands. */
  assert_offered (fixture, "application/x-custom-log", zeros, "application/x-custom-log");
  /* Disagreeing: the sniffed type. */
  assert_offered (fixture, "text/plain", png, "image/png");
  assert_offered (fixture, "image/png", page, "text/html");
  assert_offered (fixture, "application/pdf", png, "image/png");
}

/* ------------------------------------------------------------------ a narrow window */

static int
window_width (GtkWidget *window)
{
  return ui_test_window_width (window);
}

static int
minimum_width (GtkWidget *window)
{
  return ui_test_minimum_width (window, adw_window_get_content (ADW_WINDOW (window)));
}

static gboolean
is_save_button (GtkWidget     *widget,
                gconstpointer  data)
{
  return GTK_IS_BUTTON (widget) && gtk_widget_get_mapped (widget) &&
         g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), data) == 0;
}

/* Tab reaches a button for @action_name, which has a name to show and to read out. */
static void
assert_reachable (GtkWidget  *window,
                  const char *action_name)
{
  GtkWidget *button = find_widget (window, is_save_button, action_name);
  gboolean reached = FALSE;

  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_sensitive (button));
  /* Its text, or for an icon, a tooltip (also its accessible label, in the .ui). */
  g_assert_true (gtk_button_get_label (GTK_BUTTON (button)) != NULL ||
                 gtk_widget_get_tooltip_text (button) != NULL);
  for (int i = 0; i < 40 && !reached; i++)
    {
      gtk_widget_child_focus (window, GTK_DIR_TAB_FORWARD);
      reached = gtk_root_get_focus (GTK_ROOT (window)) == button;
    }
  g_assert_true (reached);
}

/* Each kind of attachment fits 360 pixels with large text (1.5 ×), in the dark style. */
static void
test_window_narrow (void)
{
  static const char text[] = "Version 2.1.0 includes faster builds and a long line of text "
                             "that must wrap or scroll, never widen the window.\n";
  static const char json[] = "{\"a_rather_long_member_name_for_a_narrow_window\": [1, 2, 3]}";
  g_autoptr(GBytes) png = make_image (800, 600, "png");
  g_autofree char *pdf = g_malloc0 (1000);
  const char *long_name = "Quarterly revenue report of the payments and invoicing platform";
  AtpAttachment *attachments[5];
  static const TriageAttachmentKind kinds[] = {
    TRIAGE_ATTACHMENT_KIND_TEXT, TRIAGE_ATTACHMENT_KIND_JSON, TRIAGE_ATTACHMENT_KIND_IMAGE,
    TRIAGE_ATTACHMENT_KIND_FILE, TRIAGE_ATTACHMENT_KIND_REMOTE,
  };
  GtkSettings *settings = gtk_settings_get_default ();
  AdwStyleManager *style = adw_style_manager_get_default ();
  int dpi = 0;

  memcpy (pdf, "%PDF-1.4\n", 9);
  attachments[0] = inline_attachment ("text/plain", long_name, text, strlen (text));
  attachments[1] = inline_attachment ("application/json", "metadata-of-the-release-candidate.json",
                                      json, strlen (json));
  attachments[2] = inline_attachment ("image/png", "screenshot-of-the-checkout-page.png",
                                      g_bytes_get_data (png, NULL), g_bytes_get_size (png));
  attachments[3] = inline_attachment ("application/pdf", long_name, pdf, 1000);
  attachments[4] = uri_attachment ("application/pdf", long_name,
                                   "https://files.storage-of-the-payments-and-invoicing-platform"
                                   ".example.com/reports/2026/q1/revenue.pdf");

  g_object_get (settings, "gtk-xft-dpi", &dpi, NULL);
  g_object_set (settings, "gtk-xft-dpi", 96 * 1024 * 3 / 2, NULL);
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_DARK);

  for (guint i = 0; i < G_N_ELEMENTS (attachments); i++)
    {
      GtkWidget *window = triage_attachment_window_new (NULL, attachments[i], "Build bot");
      TriageAttachmentView *view = triage_attachment_window_get_view (TRIAGE_ATTACHMENT_WINDOW (window));
      GtkWidget *content = adw_window_get_content (ADW_WINDOW (window));
      GdkRGBA color;

      gtk_window_set_default_size (GTK_WINDOW (window), 360, 640);
      gtk_window_present (GTK_WINDOW (window));
      WAIT_UNTIL (triage_attachment_view_get_kind (view) == kinds[i] &&
                  gtk_widget_get_mapped (content) && gtk_widget_get_width (content) > 0);
      for (int j = 0; j < 10; j++)
        g_main_context_iteration (NULL, FALSE);

      if (minimum_width (window) > 360)
        g_error ("the attachment window (%s) needs %d pixels, more than 360",
                 g_enum_to_string (TRIAGE_TYPE_ATTACHMENT_KIND, kinds[i]), minimum_width (window));
      g_assert_cmpint (window_width (window), ==, 360);

      /* Dark for real: the text is light. */
      g_assert_true (adw_style_manager_get_dark (style));
      gtk_style_context_get_color (gtk_widget_get_style_context (content), &color);
      g_assert_cmpfloat (color.red + color.green + color.blue, >, 1.5);

      /* The actions are still there, and reached with the keyboard. */
      if (kinds[i] != TRIAGE_ATTACHMENT_KIND_REMOTE)
        {
          assert_reachable (window, "attachment.save");
          assert_reachable (window, "attachment.open-with");
        }
      else
        {
          assert_reachable (window, "attachment.load");
        }

      g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
      gtk_window_destroy (GTK_WINDOW (window));
      WAIT_UNTIL (window == NULL);
      attachment_free (attachments[i]);
    }

  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
  g_object_set (settings, "gtk-xft-dpi", dpi, NULL);
}

static void
collect_keys (GtkWidget  *widget,
              GPtrArray  *keys)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          g_autofree char *action = gtk_shortcut_action_to_string (gtk_shortcut_get_action (shortcut));

          /* The window's and the view's own keys, not GTK's (F10, the inspector). */
          if (strstr (action, "attachment.") != NULL || strstr (action, "window.close") != NULL)
            g_ptr_array_add (keys, gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (shortcut)));
        }
    }
}

/* Every key of the attachment window is in the app's shortcuts window. */
static void
test_shortcuts_listed (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "src", "app", "gtk",
                                                 "help-overlay.ui", NULL);
  g_autoptr(GtkBuilder) builder = gtk_builder_new_from_file (path);
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) listed = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(AtpAttachment) attachment = inline_attachment ("text/plain", "notes", "hi", 2);
  GtkWidget *window = triage_attachment_window_new (NULL, attachment, NULL);
  GSList *objects = gtk_builder_get_objects (builder);

  for (GSList *l = objects; l != NULL; l = l->next)
    if (GTK_IS_SHORTCUTS_SHORTCUT (l->data))
      {
        g_autofree char *accelerator = NULL;
        g_auto(GStrv) accels = NULL;

        g_object_get (l->data, "accelerator", &accelerator, NULL);
        accels = g_strsplit (accelerator ? accelerator : "", " ", -1);
        for (guint i = 0; accels[i] != NULL; i++)
          if (accels[i][0] != '\0')
            g_ptr_array_add (listed, g_strdup (accels[i]));
      }
  g_slist_free (objects);

  collect_keys (window, keys);
  collect_keys (GTK_WIDGET (triage_attachment_window_get_view (TRIAGE_ATTACHMENT_WINDOW (window))),
                keys);
  g_assert_cmpuint (keys->len, >=, 4);   /* Escape, Ctrl+W, Ctrl+S, Ctrl+O */
  for (guint i = 0; i < keys->len; i++)
    if (!g_ptr_array_find_with_equal_func (listed, keys->pdata[i], g_str_equal, NULL))
      g_error ("the attachment window's %s is not in the shortcuts window",
               (char *) keys->pdata[i]);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *cache_home = NULL;
  int status;

  /* Private copies for "Open With…" go to a cache of our own, set before GLib reads it. */
  cache_home = g_dir_make_tmp ("triage-test-cache-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("XDG_CACHE_HOME", cache_home, TRUE);

  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/attachments/attachment-view/text", test_text);
  ADD ("/attachments/attachment-view/json", test_json);
  ADD ("/attachments/attachment-view/code", test_code);
  ADD ("/attachments/attachment-view/code-view-settings", test_code_view_settings);
  ADD ("/attachments/attachment-view/html-is-source", test_html_is_source);
  ADD ("/attachments/attachment-view/image", test_image);
  ADD ("/attachments/attachment-view/file", test_file);
  ADD ("/attachments/attachment-view/bad-base64", test_bad_base64);
  ADD ("/attachments/attachment-view/huge-image-header", test_huge_image_header);
  ADD ("/attachments/attachment-view/invalid-utf8", test_invalid_utf8);
  ADD ("/attachments/attachment-view/huge-text-truncated", test_huge_text_truncated);
  ADD ("/attachments/attachment-view/type-mismatch", test_type_mismatch);
  ADD ("/attachments/attachment-view/uri-refused", test_uri_refused);
  ADD ("/attachments/attachment-view/uri-host-emphasised", test_uri_host_emphasised);
  ADD ("/attachments/attachment-view/uri-load", test_uri_load);
  ADD ("/attachments/attachment-view/uri-redirect-elsewhere", test_uri_redirect_elsewhere);
  ADD ("/attachments/attachment-view/uri-size-limit", test_uri_size_limit);
  ADD ("/attachments/attachment-view/uri-type-mismatch", test_uri_type_mismatch);
  ADD ("/attachments/attachment-view/uri-cancel", test_uri_cancel);
  ADD ("/attachments/attachment-view/save", test_save);
  ADD ("/attachments/attachment-view/save-loaded-uri", test_save_loaded_uri);
  ADD ("/attachments/attachment-view/save-unwritable", test_save_unwritable);
  ADD ("/attachments/attachment-view/open-with-copy-name", test_open_with_copy_name);
  ADD ("/attachments/attachment-view/open-with-content-type", test_open_with_content_type);
  g_test_add_func ("/attachments/attachment-view/window", test_window);
  g_test_add_func ("/attachments/attachment-view/window-narrow", test_window_narrow);
  g_test_add_func ("/attachments/attachment-view/shortcuts-listed", test_shortcuts_listed);

#undef ADD

  status = g_test_run ();

  /* Everything the tests wrote there (and GL shader caches) lives under it. */
  g_assert_cmpstr (g_get_user_cache_dir (), ==, cache_home);
  ui_test_remove_tree (cache_home);

  return status;
}
