/* test-attachment-text.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An attachment's text made ready to show (no display): long lines cut for
 * display with a note that says which and how long, the whole text kept for
 * search, line ends of every kind, JSON pretty-printed, in a thread too.
 */

#include <locale.h>
#include <string.h>

#include "triage-attachment-text.h"

static TriageAttachmentText *
prepare (const char *data,
         gssize      length,
         gboolean    json)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, length < 0 ? strlen (data) : (gsize) length);

  return triage_attachment_text_prepare (bytes, NULL, json);
}

static char *
repeat (char  c,
        gsize n)
{
  char *text = g_malloc (n + 1);

  memset (text, c, n);
  text[n] = '\0';
  return text;
}

static void
test_short_lines_untouched (void)
{
  g_autoptr(TriageAttachmentText) text = prepare ("one\r\ntwo\rthree\nfour", -1, FALSE);

  g_assert_cmpstr (text->display, ==, "one\r\ntwo\rthree\nfour");
  g_assert_cmpstr (text->text, ==, text->display);
  g_assert_cmpuint (text->cuts->len, ==, 0);
  g_assert_cmpuint (text->notices->len, ==, 0);
  /* "\r\n", "\r" and "\n" each end a line, as in a GtkTextBuffer. */
  g_assert_cmpuint (text->line_starts->len, ==, 4);
  g_assert_cmpuint (triage_attachment_text_line_at (text, 0), ==, 0);
  g_assert_cmpuint (triage_attachment_text_line_at (text, 5), ==, 1);
  g_assert_cmpuint (triage_attachment_text_line_at (text, 9), ==, 2);
  g_assert_cmpuint (triage_attachment_text_line_at (text, 15), ==, 3);
  g_assert_cmpuint (triage_attachment_text_line_at (text, 18), ==, 3);
}

static void
test_long_line_cut (void)
{
  g_autofree char *line = repeat ('x', 600000);
  g_autoptr(TriageAttachmentText) text = prepare (line, -1, FALSE);
  const TriageAttachmentTextCut *cut;

  /* Shown: the first characters and "…"; kept: all of it. */
  g_assert_cmpuint (text->length, ==, 600000);
  g_assert_cmpuint (g_utf8_strlen (text->display, -1), ==, TRIAGE_ATTACHMENT_TEXT_MAX_LINE_CHARS + 1);
  g_assert_true (g_str_has_suffix (text->display, "x…"));
  cut = triage_attachment_text_find_cut (text, 0);
  g_assert_nonnull (cut);
  g_assert_cmpuint (cut->chars, ==, 600000);
  g_assert_cmpuint (cut->length, ==, 600000);
  g_assert_null (triage_attachment_text_find_cut (text, 1));
  g_assert_cmpuint (text->notices->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (text->notices, 0), ==,
                   "Line 1 shortened: 600,000 characters; Save As… or Open With… for the "
                   "whole file");
}

/* "Show the Whole Request": long lines whole, in pieces of the display of at
 * most the limit's characters (each wraps at once), a piece a line of
 * ->line_starts, so a match anywhere is found in its piece. */
static void
test_long_line_whole (void)
{
  g_autofree char *unbroken = repeat ('x', 100000);
  g_autofree char *words = NULL;
  g_autofree char *data = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TriageAttachmentText) text = NULL;
  g_auto(GStrv) pieces = NULL;
  g_autoptr(GString) rejoined = g_string_new (NULL);
  GString *spaced = g_string_new (NULL);

  for (guint i = 0; i < 1000; i++)
    g_string_append (spaced, "word ");
  words = g_string_free (spaced, FALSE);
  data = g_strconcat (unbroken, "\n\nshort\r\n", words, NULL);
  bytes = g_bytes_new_static (data, strlen (data));
  text = triage_attachment_text_prepare_full (bytes, NULL, FALSE, TRUE);

  /* Nothing cut, nothing to say. */
  g_assert_cmpuint (text->cuts->len, ==, 0);
  g_assert_cmpuint (text->notices->len, ==, 0);
  g_assert_null (strstr (text->display, "…"));

  /* The unbroken line in pieces of the limit; the spaced one broken after
   * a space; every piece starts a line of ->line_starts. */
  pieces = g_strsplit (text->display, "\n", -1);
  for (guint i = 0; pieces[i] != NULL; i++)
    {
      gsize start = g_array_index (text->line_starts, gsize, i);

      g_assert_cmpuint (g_utf8_strlen (pieces[i], -1), <=, TRIAGE_ATTACHMENT_TEXT_MAX_LINE_CHARS);
      g_assert_cmpuint (i, <, text->line_starts->len);
      g_assert_true (strncmp (text->text + start, pieces[i], strlen (pieces[i])) == 0);
      if (i < 50)
        g_assert_cmpuint (strlen (pieces[i]), ==, TRIAGE_ATTACHMENT_TEXT_MAX_LINE_CHARS);
      if (g_str_has_prefix (pieces[i], "word") && pieces[i + 1] != NULL)
        g_assert_true (g_str_has_suffix (pieces[i], "word "));
      g_string_append (rejoined, pieces[i]);
    }
  g_assert_cmpuint (g_strv_length (pieces), ==, text->line_starts->len);
  g_assert_cmpuint (g_strv_length (pieces), ==, 50 + 1 + 1 + 3);
  g_assert_cmpstr (pieces[50], ==, "");
  g_assert_cmpstr (pieces[51], ==, "short\r");
  g_assert_true (g_str_has_prefix (rejoined->str, unbroken));
  g_assert_true (g_str_has_suffix (rejoined->str, words));

  /* An offset in the 42nd piece is on line 41. */
  g_assert_cmpuint (triage_attachment_text_line_at (text, 41 * 2000 + 7), ==, 41);
}

static void
test_several_lines_cut (void)
{
  g_autofree char *long_line = repeat ('y', 3000);
  g_autofree char *longer_line = g_strnfill (5000, 'z');
  /* Two-byte characters: the cut counts characters, never splits one. */
  GString *accents = g_string_new (NULL);
  g_autofree char *data = NULL;
  g_autoptr(TriageAttachmentText) text = NULL;
  g_auto(GStrv) lines = NULL;

  for (guint i = 0; i < 2500; i++)
    g_string_append (accents, "é");
  data = g_strconcat ("short\n", long_line, "\n", accents->str, "\r\n", longer_line, "\nend", NULL);
  g_string_free (accents, TRUE);
  text = prepare (data, -1, FALSE);

  g_assert_cmpuint (text->cuts->len, ==, 3);
  g_assert_null (triage_attachment_text_find_cut (text, 0));
  g_assert_cmpuint (triage_attachment_text_find_cut (text, 1)->chars, ==, 3000);
  g_assert_cmpuint (triage_attachment_text_find_cut (text, 2)->chars, ==, 2500);
  g_assert_cmpuint (triage_attachment_text_find_cut (text, 2)->length, ==, 5000);
  g_assert_cmpuint (triage_attachment_text_find_cut (text, 3)->chars, ==, 5000);
  g_assert_true (g_utf8_validate (text->display, -1, NULL));
  lines = g_strsplit (text->display, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 5);
  g_assert_cmpuint (g_utf8_strlen (lines[2], -1), ==, TRIAGE_ATTACHMENT_TEXT_MAX_LINE_CHARS + 2);  /* …\r */
  g_assert_cmpstr (lines[4], ==, "end");
  g_assert_cmpstr (g_ptr_array_index (text->notices, 0), ==,
                   "3 lines shortened, the longest (line 4) 5,000 characters; Save As… or Open "
                   "With… for the whole file");
  g_assert_cmpuint (triage_attachment_text_line_at (text, strlen (data) - 1), ==, 4);
}

static void
test_json_pretty (void)
{
  g_autoptr(TriageAttachmentText) text = prepare ("{\"a\":[1,2],\"b\":\"c\"}", -1, TRUE);
  g_autoptr(TriageAttachmentText) broken = prepare ("{\"a\":", -1, TRUE);

  g_assert_true (text->json);
  g_assert_nonnull (strstr (text->text, "\n  \"a\""));
  g_assert_cmpstr (text->text, ==, text->display);

  g_assert_false (broken->json);
  g_assert_cmpstr (broken->text, ==, "{\"a\":");
  g_assert_nonnull (strstr (g_ptr_array_index (broken->notices, 0), "not valid JSON"));
}

static void
test_invalid_and_charset (void)
{
  g_autoptr(GBytes) latin1 = g_bytes_new ("caf\xe9", 4);
  g_autoptr(TriageAttachmentText) converted = triage_attachment_text_prepare (latin1, "ISO-8859-1", FALSE);
  g_autoptr(TriageAttachmentText) invalid = prepare ("a\xff" "b", 3, FALSE);
  g_autoptr(TriageAttachmentText) empty = prepare ("", 0, FALSE);

  g_assert_cmpstr (converted->text, ==, "caf\xc3\xa9");
  g_assert_cmpuint (converted->notices->len, ==, 0);
  g_assert_true (g_utf8_validate (invalid->text, -1, NULL));
  g_assert_nonnull (strstr (g_ptr_array_index (invalid->notices, 0), "not valid UTF-8"));
  g_assert_cmpstr (empty->text, ==, "");
  g_assert_cmpstr (empty->display, ==, "");
  g_assert_cmpuint (empty->line_starts->len, ==, 1);
}

/* A text over the size shown, in a character set of several bytes a character, cut
 * inside one: the characters before the cut are shown, not a page of �. */
static void
test_charset_cut_inside_character (void)
{
  gsize size = 1 + 2 * (TRIAGE_ATTACHMENT_TEXT_MAX_SIZE / 2 + 1);   /* 'A' and あ in Shift_JIS */
  char *data = g_malloc (size);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TriageAttachmentText) text = NULL;
  const char *notice;

  data[0] = 'A';
  for (gsize i = 1; i < size; i += 2)
    memcpy (data + i, "\x82\xa0", 2);
  bytes = g_bytes_new_take (data, size);
  text = triage_attachment_text_prepare (bytes, "shift_jis", FALSE);

  g_assert_true (g_str_has_prefix (text->text, "A\xe3\x81\x82\xe3\x81\x82"));
  g_assert_null (strstr (text->text, "\xef\xbf\xbd"));   /* no U+FFFD */
  g_assert_cmpuint (g_utf8_strlen (text->text, -1), ==, 1 + (TRIAGE_ATTACHMENT_TEXT_MAX_SIZE - 1) / 2);
  /* "Only the first …", then the long line's; no "could not be converted" */
  g_assert_cmpuint (text->notices->len, ==, 2);
  notice = g_ptr_array_index (text->notices, 0);
  g_assert_cmpstr (notice, ==, "Only the first 1,048,576 bytes of 1,048,579 bytes are shown. "
                               "Save the attachment to see all of it.");
}

static void
prepared_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static void
test_async (void)
{
  g_autofree char *line = repeat ('q', 200000);
  g_autoptr(GBytes) bytes = g_bytes_new_take (g_steal_pointer (&line), 200000);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) cancelled_result = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(TriageAttachmentText) text = NULL;
  g_autoptr(GError) error = NULL;

  triage_attachment_text_prepare_async (bytes, NULL, FALSE, FALSE, NULL, prepared_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  text = triage_attachment_text_prepare_finish (result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (text->cuts->len, ==, 1);

  g_cancellable_cancel (cancellable);
  triage_attachment_text_prepare_async (bytes, NULL, FALSE, FALSE, cancellable, prepared_cb,
                                        &cancelled_result);
  while (cancelled_result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_null (triage_attachment_text_prepare_finish (cancelled_result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* A bidirectional override is shown, not obeyed ("Trojan Source"); every
 * offset stays, and right-to-left text is left alone. */
static void
test_bidi_controls (void)
{
  static const char sent[] = "access = \"user\u202e \u2066// if admin\u2069 \u2066\" # \u05e9\u05dc\u05d5\u05dd\n";
  g_autoptr(GBytes) bytes = g_bytes_new_static (sent, strlen (sent));
  g_autoptr(TriageAttachmentText) text = triage_attachment_text_prepare (bytes, NULL, FALSE);
  g_autoptr(GBytes) plain = g_bytes_new_static ("plain\n", 6);
  g_autoptr(TriageAttachmentText) untouched = triage_attachment_text_prepare (plain, NULL, FALSE);

  g_assert_cmpstr (text->text, ==,
                   "access = \"user\uFFFD \uFFFD// if admin\uFFFD \uFFFD\" # \u05e9\u05dc\u05d5\u05dd\n");
  g_assert_cmpuint (text->length, ==, strlen (sent));
  g_assert_cmpuint (text->notices->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (text->notices, 0), "4 characters"));
  g_assert_cmpuint (untouched->notices->len, ==, 0);
}

static void
test_format_count (void)
{
  g_autofree char *zero = triage_attachment_text_format_count (0);
  g_autofree char *three = triage_attachment_text_format_count (999);
  g_autofree char *four = triage_attachment_text_format_count (1000);
  g_autofree char *seven = triage_attachment_text_format_count (1234567);

  g_assert_cmpstr (zero, ==, "0");
  g_assert_cmpstr (three, ==, "999");
  g_assert_cmpstr (four, ==, "1,000");
  g_assert_cmpstr (seven, ==, "1,234,567");
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/attachment-text/short-lines-untouched", test_short_lines_untouched);
  g_test_add_func ("/attachment-text/long-line-cut", test_long_line_cut);
  g_test_add_func ("/attachment-text/several-lines-cut", test_several_lines_cut);
  g_test_add_func ("/attachment-text/long-line-whole", test_long_line_whole);
  g_test_add_func ("/attachment-text/json-pretty", test_json_pretty);
  g_test_add_func ("/attachment-text/invalid-and-charset", test_invalid_and_charset);
  g_test_add_func ("/attachment-text/charset-cut-inside-character",
                   test_charset_cut_inside_character);
  g_test_add_func ("/attachment-text/async", test_async);
  g_test_add_func ("/attachment-text/bidi-controls", test_bidi_controls);
  g_test_add_func ("/attachment-text/format-count", test_format_count);

  return g_test_run ();
}
