/* triage-attachment-text.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-attachment-text"

#include <glib/gi18n.h>
#include <locale.h>
#include <string.h>

#include "atp-json.h"
#include "triage-attachment-text.h"

/*
 * An attachment's bytes made into text to show: converted from its declared
 * character set, made valid UTF-8, JSON pretty-printed, and every line too
 * long for Pango cut for display. No GTK here: a large text is prepared in a
 * thread, so the main loop never waits for it.
 */

void
triage_attachment_text_free (TriageAttachmentText *text)
{
  if (text == NULL)
    return;

  g_free (text->text);
  g_free (text->display);
  g_clear_pointer (&text->line_starts, g_array_unref);
  g_clear_pointer (&text->cuts, g_array_unref);
  g_clear_pointer (&text->notices, g_ptr_array_unref);
  g_free (text);
}

/**
 * triage_attachment_text_format_count:
 * @count: a number
 *
 * Returns: (transfer full): @count with its thousands grouped, "600,000", by
 *   the locale's separator (a comma where the locale has none)
 */
char *
triage_attachment_text_format_count (guint64 count)
{
  g_autofree char *digits = g_strdup_printf ("%" G_GUINT64_FORMAT, count);
  const char *separator = localeconv ()->thousands_sep;
  gsize n = strlen (digits);
  GString *out = g_string_new (NULL);

  if (separator == NULL || *separator == '\0')
    separator = ",";

  for (gsize i = 0; i < n; i++)
    {
      if (i > 0 && (n - i) % 3 == 0)
        g_string_append (out, separator);
      g_string_append_c (out, digits[i]);
    }

  return g_string_free (out, FALSE);
}

static void
add_notice (TriageAttachmentText *text,
            char                 *notice)
{
  g_ptr_array_add (text->notices, notice);
}

/* Makes ->text from the bytes: at most TRIAGE_ATTACHMENT_TEXT_MAX_SIZE of them,
 * converted, valid UTF-8, JSON pretty-printed when it parses. */
static void
decode_text (TriageAttachmentText *text,
             GBytes               *bytes,
             const char           *charset,
             gboolean              json)
{
  g_autofree char *converted = NULL;
  g_autofree char *valid = NULL;
  const char *data;
  gsize size;
  gsize length;
  gboolean truncated;

  data = g_bytes_get_data (bytes, &size);
  if (data == NULL)
    data = "";
  truncated = size > TRIAGE_ATTACHMENT_TEXT_MAX_SIZE;
  length = MIN (size, TRIAGE_ATTACHMENT_TEXT_MAX_SIZE);

  if (charset != NULL &&
      g_ascii_strcasecmp (charset, "utf-8") != 0 &&
      g_ascii_strcasecmp (charset, "utf8") != 0 &&
      g_ascii_strcasecmp (charset, "us-ascii") != 0)
    {
      g_autoptr(GError) error = NULL;
      gsize read = 0;
      gsize written = 0;

      /* The cut may fall inside a character (a Shift_JIS pair, a UTF-16 surrogate
       * pair): asked for what it read, g_convert stops before that character
       * instead of failing the whole text. */
      converted = g_convert_with_fallback (data, length, "UTF-8", charset, NULL,
                                           truncated ? &read : NULL, &written, &error);
      if (converted != NULL)
        {
          data = converted;
          length = written;
        }
      else
        {
          add_notice (text, g_strdup_printf (_("The text could not be converted from its "
                                               "declared character set (%s); it is shown as "
                                               "UTF-8."), error->message));
        }
    }

  /* Cut at the start of a character, so the cut itself is not an error. */
  if (truncated && converted == NULL)
    {
      for (guint i = 0; i < 3 && length > 0 && ((guchar) data[length] & 0xC0) == 0x80; i++)
        length--;
    }

  if (!g_utf8_validate_len (data, length, NULL))
    {
      valid = g_utf8_make_valid (data, length);
      data = valid;
      length = strlen (valid);
      add_notice (text, g_strdup (_("This text is not valid UTF-8 (or holds NUL characters): "
                                    "the invalid bytes are shown as �. Save it to see the "
                                    "original.")));
    }

  if (truncated)
    {
      g_autofree char *shown = g_format_size (TRIAGE_ATTACHMENT_TEXT_MAX_SIZE);
      g_autofree char *total = g_format_size (size);

      if (g_str_equal (shown, total))
        {
          /* Not "the first 1.0 MB of 1.0 MB": the bytes tell them apart. */
          g_autofree char *shown_bytes =
            triage_attachment_text_format_count (TRIAGE_ATTACHMENT_TEXT_MAX_SIZE);
          g_autofree char *total_bytes = triage_attachment_text_format_count (size);

          g_free (shown);
          g_free (total);
          shown = g_strdup_printf (_("%s bytes"), shown_bytes);
          total = g_strdup_printf (_("%s bytes"), total_bytes);
        }

      add_notice (text, g_strdup_printf (_("Only the first %s of %s are shown. Save the "
                                           "attachment to see all of it."), shown, total));
    }

  if (json && !truncated)
    {
      g_autoptr(GError) error = NULL;

      /* Laid out, with every number and string as it was written. */
      text->text = atp_json_pretty (data, length, TRIAGE_ATTACHMENT_TEXT_MAX_SIZE, &error);
      if (text->text != NULL)
        {
          text->length = strlen (text->text);
          text->json = TRUE;
          return;
        }

      add_notice (text, g_strdup_printf (_("This is not valid JSON (%s); it is shown as it "
                                           "was sent."), error->message));
    }

  text->text = g_strndup (data, length);
  text->length = length;
}

/* U+2029 PARAGRAPH SEPARATOR, which ends a line of a GtkTextBuffer as "\n" does. */
#define PARAGRAPH_SEPARATOR "\xe2\x80\xa9"

static gboolean
is_paragraph_separator (const char *p,
                        const char *end)
{
  return end - p >= 3 && memcmp (p, PARAGRAPH_SEPARATOR, 3) == 0;
}

/* Where the line at @p ends: at "\r\n", "\n", "\r" or U+2029, each the end of
 * a line in a GtkTextBuffer (a line counted otherwise shifts every line after
 * it against the buffer's: the notes, the search and the pieces of a long line
 * shown whole). */
static const char *
find_line_end (const char *p,
               const char *end)
{
  while (p < end && *p != '\n' && *p != '\r' && !is_paragraph_separator (p, end))
    p++;

  return p;
}

/* The length of the line end at @eol, before @end. */
static gsize
line_end_length (const char *eol,
                 const char *end)
{
  if (is_paragraph_separator (eol, end))
    return 3;
  return eol[0] == '\r' && eol + 1 < end && eol[1] == '\n' ? 2 : 1;
}

/* Makes ->display: ->text with every line longer than the limit cut, and "…". */
static void
cut_lines (TriageAttachmentText *text)
{
  GString *display = g_string_sized_new (MIN (text->length, 64 * 1024) + 16);
  const char *p = text->text;
  const char *end = text->text + text->length;
  guint line = 0;

  for (;;)
    {
      const char *eol = find_line_end (p, end);
      gsize start = p - text->text;
      gsize length = eol - p;
      const char *cut = eol;
      gsize kept = 0;

      g_array_append_val (text->line_starts, start);

      /* A line of fewer bytes than the limit has fewer characters too. */
      if (length > TRIAGE_ATTACHMENT_TEXT_MAX_LINE_CHARS)
        {
          for (cut = p; cut < eol && kept < TRIAGE_ATTACHMENT_TEXT_MAX_LINE_CHARS; kept++)
            cut = g_utf8_next_char (cut);
        }

      g_string_append_len (display, p, cut - p);
      if (cut < eol)
        {
          TriageAttachmentTextCut entry = {
            .line = line,
            .start = start,
            .length = length,
            .chars = kept + g_utf8_strlen (cut, eol - cut),
          };

          g_array_append_val (text->cuts, entry);
          g_string_append (display, "…");
        }

      if (eol == end)
        break;

      p = eol + line_end_length (eol, end);
      g_string_append_len (display, eol, p - eol);
      line++;
    }

  text->display_length = display->len;
  text->display = g_string_free (display, FALSE);
}

/* Where to end a piece of a long line that starts at @p: after at most the
 * limit's characters, after the last space in its last quarter if there is
 * one (the break then falls where wrapping would put one). */
static const char *
piece_end (const char *p,
           const char *eol)
{
  const char *end = p;
  const char *after_space = NULL;

  for (gsize n = 0; end < eol && n < TRIAGE_ATTACHMENT_TEXT_MAX_LINE_CHARS; n++)
    {
      gboolean space = *end == ' ' || *end == '\t';

      end = g_utf8_next_char (end);
      if (space && n >= TRIAGE_ATTACHMENT_TEXT_MAX_LINE_CHARS * 3 / 4)
        after_space = end;
    }

  return end < eol && after_space != NULL ? after_space : end;
}

/* Makes ->display: ->text with every line longer than the limit shown whole,
 * in pieces of at most the limit's characters, each a line of the display
 * (and of ->line_starts): Pango lays out a line whole, at a cost that grows
 * with the square of a run without a place to break, and wraps each piece
 * at once. */
static void
split_lines (TriageAttachmentText *text)
{
  GString *display = g_string_sized_new (text->length + text->length / 1024 + 16);
  const char *p = text->text;
  const char *end = text->text + text->length;

  for (;;)
    {
      const char *eol = find_line_end (p, end);

      /* A line of fewer bytes than the limit has fewer characters too. */
      while ((gsize) (eol - p) > TRIAGE_ATTACHMENT_TEXT_MAX_LINE_CHARS)
        {
          const char *piece = piece_end (p, eol);
          gsize start = p - text->text;

          if (piece == eol)
            break;
          g_array_append_val (text->line_starts, start);
          g_string_append_len (display, p, piece - p);
          g_string_append_c (display, '\n');
          p = piece;
        }

      {
        gsize start = p - text->text;

        g_array_append_val (text->line_starts, start);
      }
      g_string_append_len (display, p, eol - p);
      if (eol == end)
        break;

      p = eol + line_end_length (eol, end);
      g_string_append_len (display, eol, p - eol);
    }

  text->display_length = display->len;
  text->display = g_string_free (display, FALSE);
}

static void
add_cut_notice (TriageAttachmentText *text)
{
  const TriageAttachmentTextCut *longest = NULL;
  g_autofree char *chars = NULL;

  if (text->cuts->len == 0)
    return;

  for (guint i = 0; i < text->cuts->len; i++)
    {
      const TriageAttachmentTextCut *cut = &g_array_index (text->cuts, TriageAttachmentTextCut, i);

      if (longest == NULL || cut->chars > longest->chars)
        longest = cut;
    }

  chars = triage_attachment_text_format_count (longest->chars);

  if (text->cuts->len == 1)
    /* Translators: %u is a line number, %s a number of characters, e.g. "600,000" */
    add_notice (text, g_strdup_printf (_("Line %u shortened: %s characters; Save As… or Open "
                                         "With… for the whole file"), longest->line + 1, chars));
  else
    /* Translators: the first %u is a number of lines, the second a line number, %s a number
     * of characters */
    add_notice (text, g_strdup_printf (_("%u lines shortened, the longest (line %u) %s "
                                         "characters; Save As… or Open With… for the whole "
                                         "file"), text->cuts->len, longest->line + 1, chars));
}

/* Shows the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069: atp_unichar_is_bidi_override ()) as U+FFFD, as every label
 * does: obeyed, they let a text (a script, an artifact under review) read in
 * another order than it runs ("Trojan Source"). Both are three bytes: every
 * offset stays. Saving keeps the bytes as sent. */
static void
show_bidi_controls (TriageAttachmentText *text)
{
  guint64 count = 0;

  for (gsize i = 0; i + 2 < text->length; i++)
    {
      guchar *p = (guchar *) text->text + i;

      /* Each of them is three bytes starting 0xE2: only such a character is read. */
      if (p[0] == 0xE2 && (p[1] & 0xC0) == 0x80 && (p[2] & 0xC0) == 0x80 &&
          atp_unichar_is_bidi_override (g_utf8_get_char ((const char *) p)))
        {
          p[0] = 0xEF;
          p[1] = 0xBF;
          p[2] = 0xBD;
          count++;
          i += 2;
        }
    }

  if (count > 0)
    {
      g_autofree char *number = triage_attachment_text_format_count (count);

      add_notice (text, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                      /* Translators: %s is a number, e.g. "3" */
                                                      "This text holds %s character that would change the "
                                                      "order it reads in; it is shown as �.",
                                                      "This text holds %s characters that would change the "
                                                      "order it reads in; they are shown as �.",
                                                      count > G_MAXULONG ? G_MAXULONG : (gulong) count),
                                         number));
    }
}

/**
 * triage_attachment_text_prepare:
 * @bytes: the attachment's content
 * @charset: (nullable): its declared character set
 * @json: whether it is declared JSON, to be pretty-printed
 *
 * Makes the text to show from @bytes, its long lines cut. Takes time in
 * proportion to their size: the view calls it directly only for small texts.
 *
 * Returns: (transfer full): the text
 */
TriageAttachmentText *
triage_attachment_text_prepare (GBytes     *bytes,
                                const char *charset,
                                gboolean    json)
{
  return triage_attachment_text_prepare_full (bytes, charset, json, FALSE);
}

/**
 * triage_attachment_text_prepare_full:
 * @bytes: the attachment's content
 * @charset: (nullable): its declared character set
 * @json: whether it is declared JSON, to be pretty-printed
 * @whole: show long lines whole, split into lines of the display of at
 *   most %TRIAGE_ATTACHMENT_TEXT_MAX_LINE_CHARS characters (for a text
 *   that wraps), rather than cut
 *
 * Returns: (transfer full): the text
 */
TriageAttachmentText *
triage_attachment_text_prepare_full (GBytes     *bytes,
                                     const char *charset,
                                     gboolean    json,
                                     gboolean    whole)
{
  TriageAttachmentText *text = g_new0 (TriageAttachmentText, 1);

  g_return_val_if_fail (bytes != NULL, NULL);

  text->line_starts = g_array_new (FALSE, FALSE, sizeof (gsize));
  text->cuts = g_array_new (FALSE, FALSE, sizeof (TriageAttachmentTextCut));
  text->notices = g_ptr_array_new_with_free_func (g_free);

  decode_text (text, bytes, charset, json);
  show_bidi_controls (text);
  if (whole)
    split_lines (text);
  else
    cut_lines (text);
  add_cut_notice (text);

  return text;
}

typedef struct
{
  GBytes   *bytes;
  char     *charset;
  gboolean  json;
  gboolean  whole;
} PrepareData;

static void
prepare_data_free (PrepareData *data)
{
  g_bytes_unref (data->bytes);
  g_free (data->charset);
  g_free (data);
}

static void
prepare_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  PrepareData *data = task_data;
  TriageAttachmentText *text;

  if (g_task_return_error_if_cancelled (task))
    return;

  text = triage_attachment_text_prepare_full (data->bytes, data->charset, data->json, data->whole);
  g_task_return_pointer (task, text, (GDestroyNotify) triage_attachment_text_free);
}

/**
 * triage_attachment_text_prepare_async:
 * @bytes: the attachment's content
 * @charset: (nullable): its declared character set
 * @json: whether it is declared JSON
 * @whole: long lines shown whole (triage_attachment_text_prepare_full())
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * triage_attachment_text_prepare_full() in a thread.
 */
void
triage_attachment_text_prepare_async (GBytes              *bytes,
                                      const char          *charset,
                                      gboolean             json,
                                      gboolean             whole,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  PrepareData *data;

  g_return_if_fail (bytes != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, triage_attachment_text_prepare_async);

  data = g_new0 (PrepareData, 1);
  data->bytes = g_bytes_ref (bytes);
  data->charset = g_strdup (charset);
  data->json = json;
  data->whole = whole;
  g_task_set_task_data (task, data, (GDestroyNotify) prepare_data_free);
  g_task_run_in_thread (task, prepare_thread);
}

/**
 * triage_attachment_text_prepare_finish:
 * @result: the #GAsyncResult
 * @error: %G_IO_ERROR_CANCELLED when cancelled
 *
 * Returns: (transfer full) (nullable): the text
 */
TriageAttachmentText *
triage_attachment_text_prepare_finish (GAsyncResult  *result,
                                       GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * triage_attachment_text_line_at:
 * @text: a prepared text
 * @offset: a byte offset in ->text
 *
 * Returns: the number of the line (from 0) that holds @offset
 */
guint
triage_attachment_text_line_at (const TriageAttachmentText *text,
                                gsize                       offset)
{
  guint low = 0;
  guint high = text->line_starts->len;

  /* The last line that starts at or before @offset. */
  while (high - low > 1)
    {
      guint middle = low + (high - low) / 2;

      if (g_array_index (text->line_starts, gsize, middle) <= offset)
        low = middle;
      else
        high = middle;
    }

  return low;
}

/**
 * triage_attachment_text_line_continues:
 * @text: a prepared text
 * @line: a line of the display (from 0)
 *
 * Returns: whether @line goes on from the line before it, a piece of a long
 *   line shown whole: the display's line break before it is not in the text
 */
gboolean
triage_attachment_text_line_continues (const TriageAttachmentText *text,
                                       guint                       line)
{
  gsize start;

  if (line == 0 || line >= text->line_starts->len)
    return FALSE;

  start = g_array_index (text->line_starts, gsize, line);
  return start > 0 && text->text[start - 1] != '\n' && text->text[start - 1] != '\r' &&
         !(start >= 3 && is_paragraph_separator (text->text + start - 3, text->text + start));
}

/**
 * triage_attachment_text_find_cut:
 * @text: a prepared text
 * @line: a line number, from 0
 *
 * Returns: (nullable): how @line was shortened, or %NULL when it is shown whole
 */
const TriageAttachmentTextCut *
triage_attachment_text_find_cut (const TriageAttachmentText *text,
                                 guint                       line)
{
  guint low = 0;
  guint high = text->cuts->len;

  while (low < high)
    {
      guint middle = low + (high - low) / 2;
      const TriageAttachmentTextCut *cut = &g_array_index (text->cuts, TriageAttachmentTextCut,
                                                           middle);

      if (cut->line == line)
        return cut;
      if (cut->line < line)
        low = middle + 1;
      else
        high = middle;
    }

  return NULL;
}
