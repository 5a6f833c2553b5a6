/* attachment-view-inline.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Previews of inline attachments: text, JSON, code, images, files, and
 * what is malformed or not what it says.
 */

#define G_LOG_DOMAIN "test-attachment-view"

#include "attachment-view-common.h"

/* ------------------------------------------------------------------ inline previews */

void
attachment_view_test_text (Fixture       *fixture,
                           gconstpointer  data)
{
  static const char text[] = "Version 2.1.0 includes:\n- faster builds\n";
  g_autoptr(AtpAttachment) attachment = attachment_view_test_inline ("text/plain", "Release notes",
                                                                     text, strlen (text));

  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_NONE);
  g_assert_false (attachment_view_test_button_usable (fixture, "_Save As…"));

  attachment_view_test_show (fixture, attachment);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_TEXT);
  attachment_view_test_assert_text (fixture, text);
  attachment_view_test_assert_unhyphenated (fixture);
  g_assert_null (triage_attachment_view_get_language_id (fixture->view));
  g_assert_null (triage_attachment_view_get_notice (fixture->view));
  g_assert_nonnull (attachment_view_test_find_label (fixture, "Release notes"));
  g_assert_nonnull (attachment_view_test_find_label (fixture, "plain text document"));
  g_assert_true (attachment_view_test_button_usable (fixture, "_Save As…"));
  g_assert_true (attachment_view_test_button_usable (fixture, "_Open With…"));
  g_assert_cmpuint (g_bytes_get_size (triage_attachment_view_get_bytes (fixture->view)), ==,
                    strlen (text));

  triage_attachment_view_set_attachment (fixture->view, NULL, NULL);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_NONE);
  g_assert_null (triage_attachment_view_get_bytes (fixture->view));
  g_assert_false (attachment_view_test_button_usable (fixture, "_Save As…"));
}

typedef struct
{
  char     *text;
  gboolean  done;
} ReadText;

static void
read_text_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  ReadText *read = user_data;
  g_autoptr(GError) error = NULL;

  read->text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, &error);
  g_assert_no_error (error);
  read->done = TRUE;
}

/* What the clipboard holds, as another application pastes it. */
static char *
clipboard_text (GtkWidget *widget)
{
  ReadText read = { NULL, FALSE };

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, read_text_cb, &read);
  WAIT_UNTIL (read.done);
  return read.text;
}

/* A request's whole text ("Show the Whole Request"): a line without spaces
 * is shown in pieces GTK can wrap, a line of the display each, but what is
 * copied (Ctrl+C, the menu's Copy) is the text as it was sent, with no line
 * break of the display's in it. A U+2029 before it ends a line, as in the
 * buffer: counted otherwise, a real line end was hidden and a display's
 * break copied. */
void
attachment_view_test_whole_lines_copy (Fixture       *fixture,
                                       gconstpointer  data)
{
  g_autoptr(GString) digits = g_string_new (NULL);
  g_autofree char *whole = NULL;
  g_autoptr(AtpAttachment) attachment = NULL;
  TriageTextPreview *preview;
  GtkTextView *source_view;
  GtkTextBuffer *buffer;
  GtkTextIter start, end;
  GdkRectangle first, second;
  g_autofree char *shown = NULL;
  g_autofree char *copied = NULL;
  g_autofree char *match = NULL;

  /* "00000000010000200003…": the first piece ends inside "00399" "00400". */
  for (guint i = 0; digits->len < 5001; i++)
    g_string_append_printf (digits, "%05u", i);
  g_string_truncate (digits, 5001);
  whole = g_strconcat ("x\u2029y\n", digits->str, "\n\nshort line\n", NULL);
  attachment = attachment_view_test_inline ("text/plain", "The Whole Request", whole, strlen (whole));
  triage_attachment_view_set_whole_lines (fixture->view, TRUE);
  attachment_view_test_show (fixture, attachment);
  attachment_view_test_wait_for_kind (fixture, TRIAGE_ATTACHMENT_KIND_TEXT);
  preview = triage_attachment_view_get_text_preview (fixture->view);
  WAIT_UNTIL (!triage_text_preview_get_loading (preview));
  source_view = GTK_TEXT_VIEW (triage_text_preview_get_source_view (preview));
  buffer = gtk_text_view_get_buffer (source_view);

  /* Shown in pieces, each a line of its own (laid out alone: Pango's cost
   * of an unbroken run grows with its square), starting at the margin. */
  shown = triage_text_preview_dup_shown_text (preview);
  g_assert_nonnull (strstr (shown, "00399\n00400"));
  g_assert_cmpint (gtk_text_buffer_get_line_count (buffer), ==, 2 + 3 + 3);
  gtk_text_buffer_get_iter_at_line (buffer, &start, 2);
  gtk_text_buffer_get_iter_at_line (buffer, &end, 3);
  gtk_test_widget_wait_for_draw (fixture->window);
  gtk_text_view_get_iter_location (source_view, &start, &first);
  gtk_text_view_get_iter_location (source_view, &end, &second);
  g_assert_cmpint (second.y, >, first.y);
  g_assert_cmpint (second.x, ==, first.x);

  /* All of it, Ctrl+C: the text as sent. */
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_select_range (buffer, &start, &end);
  g_assert_true (ui_test_press_shortcut (GTK_WIDGET (source_view), "<Control>c"));
  copied = clipboard_text (GTK_WIDGET (source_view));
  g_assert_cmpstr (copied, ==, whole);

  /* A match across two pieces, the menu's Copy: the match alone. */
  g_assert_cmpuint (triage_text_preview_find (preview, "399004"), ==, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (source_view), "clipboard.copy", NULL));
  match = clipboard_text (GTK_WIDGET (source_view));
  g_assert_cmpstr (match, ==, "399004");
}

/* The find bar read as it is seen: the entry named (its placeholder goes
 * once something is typed, and Orca does not read it as a name), the count
 * of matches ("2 of 3", "No matches") beside it its description, told
 * anew at each change. */
void
attachment_view_test_find_named (Fixture       *fixture,
                                 gconstpointer  data)
{
  static const char text[] = "one two one\nthree one\n";
  g_autoptr(AtpAttachment) attachment = attachment_view_test_inline ("text/plain", "notes.txt",
                                                                     text, strlen (text));
  TriageTextPreview *preview;
  GtkWidget *entry, *count;

  attachment_view_test_show (fixture, attachment);
  attachment_view_test_wait_for_kind (fixture, TRIAGE_ATTACHMENT_KIND_TEXT);
  preview = triage_attachment_view_get_text_preview (fixture->view);
  entry = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (preview), TRIAGE_TYPE_TEXT_PREVIEW,
                                                     "search_entry"));
  count = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (preview), TRIAGE_TYPE_TEXT_PREVIEW,
                                                     "match_label"));

  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "Find in the whole text");
  g_assert_false (gtk_test_accessible_has_property (GTK_ACCESSIBLE (entry),
                                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION));
  g_assert_cmpuint (triage_text_preview_find (preview, "one"), ==, 3);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (count)), ==, "1 of 3");
  /* The entry's own description, not the label's by a relation: GTK 4.8
   * tells AT-SPI of a change of a widget's own properties only, so a screen
   * reader hears each new count while the keyboard is in the entry. */
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "1 of 3");
  g_assert_true (triage_text_preview_find_next (preview, FALSE));
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "2 of 3");
  g_assert_cmpuint (triage_text_preview_find (preview, "four"), ==, 0);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "No matches");
  triage_text_preview_find (preview, "");
  g_assert_false (gtk_test_accessible_has_property (GTK_ACCESSIBLE (entry),
                                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION));
}

void
attachment_view_test_json (Fixture       *fixture,
                           gconstpointer  data)
{
  static const char json[] = "{\"version\":\"2.1.0\",\"changes\":[1,2],\"ok\":true,"
                              " \"ratio\": 0.1, \"scale\": 1e3, \"id\": 123456789012345678901234567890}";
  static const char bad[] = "{\"version\": 2.1.0";
  g_autoptr(AtpAttachment) attachment = attachment_view_test_inline ("application/json",
                                                                     "metadata.json",
                                                                     json, strlen (json));
  g_autoptr(AtpAttachment) broken = attachment_view_test_inline ("application/json", NULL, bad,
                                                                 strlen (bad));
  g_autofree char *text = NULL;

  attachment_view_test_show (fixture, attachment);
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
  attachment_view_test_show (fixture, broken);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_TEXT);
  attachment_view_test_assert_text (fixture, bad);
  g_assert_nonnull (strstr (triage_attachment_view_get_notice (fixture->view), "not valid JSON"));
  g_assert_nonnull (attachment_view_test_find_label (fixture, "not valid JSON"));
}

void
attachment_view_test_code (Fixture       *fixture,
                           gconstpointer  data)
{
  static const char python[] = "import os\nprint(os.getcwd())\n";
  static const char shell[] = "#!/bin/sh\nset -e\nmake deploy\n";
  static const char c_code[] = "int main (void) { return 0; }\n";
  g_autoptr(AtpAttachment) by_type = attachment_view_test_inline ("text/x-python", "script",
                                                                  python, strlen (python));
  g_autoptr(AtpAttachment) by_type_sh = attachment_view_test_inline ("application/x-shellscript",
                                                                     "deploy",
                                                                     shell, strlen (shell));
  g_autoptr(AtpAttachment) by_name = attachment_view_test_inline ("text/plain", "main.c",
                                                                  c_code, strlen (c_code));

  attachment_view_test_show (fixture, by_type);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_CODE);
  g_assert_true (g_str_has_prefix (triage_attachment_view_get_language_id (fixture->view), "python"));
  attachment_view_test_assert_text (fixture, python);

  attachment_view_test_show (fixture, by_type_sh);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_CODE);
  g_assert_cmpstr (triage_attachment_view_get_language_id (fixture->view), ==, "sh");

  /* The description names the file: its extension picks the language. */
  attachment_view_test_show (fixture, by_name);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_CODE);
  g_assert_cmpstr (triage_attachment_view_get_language_id (fixture->view), ==, "c");
}

static gboolean
is_source_view (GtkWidget     *widget,
                gconstpointer  data)
{
  return GTK_SOURCE_IS_VIEW (widget);
}

void
attachment_view_test_code_view_settings (Fixture       *fixture,
                                         gconstpointer  data)
{
  static const char c_code[] = "int main (void) { return 0; }\n";
  g_autoptr(AtpAttachment) attachment = attachment_view_test_inline ("text/x-csrc", "main.c",
                                                                     c_code, strlen (c_code));
  AdwStyleManager *style = adw_style_manager_get_default ();
  GtkWidget *source_view;
  GtkSourceBuffer *buffer;

  attachment_view_test_show (fixture, attachment);
  source_view = attachment_view_test_find_widget (GTK_WIDGET (fixture->view), is_source_view, NULL);
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

void
attachment_view_test_html_is_source (Fixture       *fixture,
                                     gconstpointer  data)
{
  static const char html[] = "<html><body><script>alert(1)</script><b>bold</b>"
                             "<img src=\"https://tracker.example/p.gif\"></body></html>";
  g_autoptr(AtpAttachment) attachment = attachment_view_test_inline ("text/html", "page.html",
                                                                     html, strlen (html));
  static const char svg[] = "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>x()</script></svg>";
  g_autoptr(AtpAttachment) svg_attachment = attachment_view_test_inline ("image/svg+xml",
                                                                         "logo.svg",
                                                                         svg, strlen (svg));

  /* Markup is shown as its source text, never rendered. */
  attachment_view_test_show (fixture, attachment);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_CODE);
  g_assert_cmpstr (triage_attachment_view_get_language_id (fixture->view), ==, "html");
  attachment_view_test_assert_text (fixture, html);

  attachment_view_test_show (fixture, svg_attachment);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_CODE);
  g_assert_cmpstr (triage_attachment_view_get_language_id (fixture->view), ==, "xml");
  attachment_view_test_assert_text (fixture, svg);
}

static gboolean
is_picture (GtkWidget     *widget,
            gconstpointer  data)
{
  return GTK_IS_PICTURE (widget);
}

/* The width at which @node draws its first texture, or -1. */
static float
texture_width (GskRenderNode *node)
{
  graphene_rect_t bounds;

  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_TEXTURE_NODE:
      gsk_render_node_get_bounds (node, &bounds);
      return bounds.size.width;
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        {
          float width = texture_width (gsk_container_node_get_child (node, i));

          if (width >= 0)
            return width;
        }
      return -1;
    case GSK_TRANSFORM_NODE:
      return texture_width (gsk_transform_node_get_child (node));
    case GSK_CLIP_NODE:
      return texture_width (gsk_clip_node_get_child (node));
    default:
      return -1;
    }
}

/* The width at which the preview draws its picture, in its allocation. */
static float
drawn_picture_width (Fixture *fixture)
{
  GtkWidget *picture = attachment_view_test_find_widget (GTK_WIDGET (fixture->view), is_picture, NULL);
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  GtkSnapshot *snapshot;

  g_assert_nonnull (picture);
  WAIT_UNTIL (gtk_widget_get_width (picture) > 0);
  paintable = gtk_widget_paintable_new (picture);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, gtk_widget_get_width (picture),
                          gtk_widget_get_height (picture));
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  return texture_width (node);
}

void
attachment_view_test_image (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autoptr(GBytes) png = attachment_view_test_make_image (64, 48, "png");
  g_autoptr(GBytes) wide = attachment_view_test_make_image (3000, 100, "png");
  g_autoptr(AtpAttachment) attachment = attachment_view_test_inline ("image/png", "screenshot.png",
                                                                     g_bytes_get_data (png, NULL),
                                                                     g_bytes_get_size (png));
  g_autoptr(AtpAttachment) wide_attachment = attachment_view_test_inline ("image/png", NULL,
                                                                          g_bytes_get_data (wide,
                                                                                            NULL),
                                                                          g_bytes_get_size (wide));
  GdkPaintable *paintable;

  /* Decoding runs in a thread: first "loading", then the picture. */
  attachment_view_test_show (fixture, attachment);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_LOADING);
  attachment_view_test_wait_for_kind (fixture, TRIAGE_ATTACHMENT_KIND_IMAGE);
  paintable = triage_attachment_view_get_paintable (fixture->view);
  g_assert_true (GDK_IS_TEXTURE (paintable));
  g_assert_cmpint (gdk_paintable_get_intrinsic_width (paintable), ==, 64);
  g_assert_cmpint (gdk_paintable_get_intrinsic_height (paintable), ==, 48);
  g_assert_null (triage_attachment_view_get_notice (fixture->view));
  /* A small picture is shown at its own size, as image viewers do, not blown
   * up to the window's width (blurred, and no longer telling its size). */
  g_assert_cmpfloat (drawn_picture_width (fixture), ==, 64);

  attachment_view_test_show (fixture, wide_attachment);
  attachment_view_test_wait_for_kind (fixture, TRIAGE_ATTACHMENT_KIND_IMAGE);
  paintable = triage_attachment_view_get_paintable (fixture->view);
  g_assert_cmpint (gdk_paintable_get_intrinsic_width (paintable), ==,
                   TRIAGE_ATTACHMENT_IMAGE_MAX_DISPLAY_SIZE);
  g_assert_nonnull (strstr (triage_attachment_view_get_notice (fixture->view),
                            "scaled down from 3000 × 100"));
}

void
attachment_view_test_file (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *pdf = g_malloc0 (1000);
  g_autoptr(AtpAttachment) attachment = NULL;

  memcpy (pdf, "%PDF-1.4\n", 9);
  attachment = attachment_view_test_inline ("application/pdf", "invoice.pdf", pdf, 1000);

  attachment_view_test_show (fixture, attachment);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_FILE);
  /* g_format_size() puts a no-break space before the unit. */
  g_assert_nonnull (attachment_view_test_find_label (fixture, "PDF document, 1.0\xc2\xa0kB"));
  g_assert_nonnull (attachment_view_test_find_label (fixture, "PDF document · 1.0\xc2\xa0kB"));
  g_assert_true (attachment_view_test_button_usable (fixture, "_Save As…"));
  g_assert_true (attachment_view_test_button_usable (fixture, "_Open With…"));
  g_assert_null (triage_attachment_view_get_text (fixture->view));
}

/* ------------------------------------------------------------------ hostile input */

void
attachment_view_test_bad_base64 (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autoptr(AtpAttachment) attachment = g_new0 (AtpAttachment, 1);
  const GError *error;

  attachment->type = g_strdup ("text/plain");
  attachment->data = g_strdup ("SGVsbG8*!!not base64 at all");

  attachment_view_test_show (fixture, attachment);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_ERROR);
  error = triage_attachment_view_get_error (fixture->view);
  g_assert_error ((GError *) error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "base64"));
  g_assert_nonnull (attachment_view_test_find_label (fixture, "not valid base64"));
  /* Nothing to save: there are no bytes. */
  g_assert_null (triage_attachment_view_get_bytes (fixture->view));
  g_assert_false (attachment_view_test_button_usable (fixture, "_Save As…"));
}

void
attachment_view_test_huge_image_header (Fixture       *fixture,
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

  attachment = attachment_view_test_inline ("image/png", "huge.png", data_copy, sizeof data_copy);
  attachment_view_test_show (fixture, attachment);
  attachment_view_test_wait_for_kind (fixture, TRIAGE_ATTACHMENT_KIND_ERROR);
  error = triage_attachment_view_get_error (fixture->view);
  g_assert_error ((GError *) error, TRIAGE_ATTACHMENT_ERROR, TRIAGE_ATTACHMENT_ERROR_IMAGE_TOO_LARGE);
  g_assert_nonnull (attachment_view_test_find_label (fixture, "50000 × 50000"));
  g_assert_null (triage_attachment_view_get_paintable (fixture->view));
  /* The bytes can still be saved for inspection elsewhere. */
  g_assert_true (attachment_view_test_button_usable (fixture, "_Save As…"));
}

void
attachment_view_test_invalid_utf8 (Fixture       *fixture,
                                   gconstpointer  data)
{
  static const char latin1[] = "caf\xe9 \xff\xfe ok\0end";
  g_autoptr(AtpAttachment) attachment = attachment_view_test_inline ("text/plain", "log.txt",
                                                                     latin1, sizeof latin1 - 1);
  g_autoptr(AtpAttachment) declared = attachment_view_test_inline ("text/plain; charset=ISO-8859-1",
                                                                   NULL, "caf\xe9", 4);
  g_autofree char *text = NULL;

  attachment_view_test_show (fixture, attachment);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_TEXT);
  text = triage_attachment_view_get_text (fixture->view);
  g_assert_true (g_utf8_validate (text, -1, NULL));
  g_assert_cmpstr (text, ==, "caf\xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd ok\xef\xbf\xbd" "end");
  g_assert_nonnull (strstr (triage_attachment_view_get_notice (fixture->view), "not valid UTF-8"));

  /* A declared character set is honoured. */
  attachment_view_test_show (fixture, declared);
  attachment_view_test_assert_text (fixture, "caf\xc3\xa9");
  g_assert_null (triage_attachment_view_get_notice (fixture->view));
}

void
attachment_view_test_huge_text_truncated (Fixture       *fixture,
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
  attachment = attachment_view_test_inline ("text/plain", NULL, big, size);

  /* Prepared in a thread: the view says it is loading meanwhile. */
  attachment_view_test_show (fixture, attachment);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_LOADING);
  attachment_view_test_wait_for_kind (fixture, TRIAGE_ATTACHMENT_KIND_TEXT);
  text = triage_attachment_view_get_text (fixture->view);
  g_assert_cmpuint (strlen (text), ==, TRIAGE_ATTACHMENT_TEXT_MAX_SIZE - 1);
  g_assert_true (g_utf8_validate (text, -1, NULL));
  g_assert_nonnull (strstr (triage_attachment_view_get_notice (fixture->view), "Only the first"));
  g_assert_null (strstr (triage_attachment_view_get_notice (fixture->view), "UTF-8"));
  /* Loaded in steps, every step as the first. */
  attachment_view_test_assert_unhyphenated (fixture);
  /* Saving keeps everything. */
  g_assert_cmpuint (g_bytes_get_size (triage_attachment_view_get_bytes (fixture->view)), ==, size);
}

void
attachment_view_test_type_mismatch (Fixture       *fixture,
                                    gconstpointer  data)
{
  g_autoptr(GBytes) png = attachment_view_test_make_image (8, 8, "png");
  g_autoptr(AtpAttachment) png_as_text = attachment_view_test_inline ("text/plain", "notes.txt",
                                                                      g_bytes_get_data (png, NULL),
                                                                      g_bytes_get_size (png));
  g_autoptr(AtpAttachment) text_as_png = attachment_view_test_inline ("image/png", "photo.png",
                                                                      "just words", 10);

  g_autoptr(AtpAttachment) pdf = attachment_view_test_inline ("application/pdf", "plan.pdf", "%PDF-1.4\n", 9);
  GtkLabel *reason = GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (fixture->view), TRIAGE_TYPE_ATTACHMENT_VIEW,
                                                                "file_reason_label"));

  attachment_view_test_show (fixture, png_as_text);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_FILE);
  g_assert_nonnull (strstr (triage_attachment_view_get_notice (fixture->view), "looks like"));
  /* The page agrees with the notice: the kind is previewed, this content is not. */
  g_assert_null (strstr (gtk_label_get_label (reason), "this kind of file"));
  g_assert_nonnull (strstr (gtk_label_get_label (reason), "not what its type says"));

  attachment_view_test_show (fixture, text_as_png);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_FILE);
  g_assert_nonnull (strstr (triage_attachment_view_get_notice (fixture->view), "image/png"));
  g_assert_null (strstr (gtk_label_get_label (reason), "this kind of file"));

  /* A kind never previewed says so. */
  attachment_view_test_show (fixture, pdf);
  g_assert_cmpint (triage_attachment_view_get_kind (fixture->view), ==, TRIAGE_ATTACHMENT_KIND_FILE);
  g_assert_nonnull (strstr (gtk_label_get_label (reason), "does not preview this kind of file"));
}
