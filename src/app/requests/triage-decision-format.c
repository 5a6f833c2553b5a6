/* triage-decision-format.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-decision-format"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "triage-decision-format.h"

#define MAX_EXACT_INTEGER 9007199254740992.0 /* 2^53 */

/* Times */

/**
 * triage_format_duration:
 * @remaining: a positive time span
 *
 * Rounded up to the second, so a countdown reaches "0" only at the deadline:
 * "4 min 12 s", "2 h 5 min", "3 d 4 h", "42 s".
 *
 * Returns: (transfer full): the duration
 */
char *
triage_format_duration (GTimeSpan remaining)
{
  gint64 seconds = (MAX (remaining, 0) + G_TIME_SPAN_SECOND - 1) / G_TIME_SPAN_SECOND;
  int days = seconds / 86400;
  int hours = (seconds % 86400) / 3600;
  int minutes = (seconds % 3600) / 60;
  int secs = seconds % 60;

  if (seconds >= 86400)
    {
      if (hours == 0)
        /* Translators: a remaining time in days (abbreviated), e.g. "3 d" */
        return g_strdup_printf (_("%d d"), days);
      /* Translators: a remaining time in days and hours (abbreviated), e.g. "3 d 4 h" */
      return g_strdup_printf (_("%d d %d h"), days, hours);
    }
  if (seconds >= 3600)
    /* Translators: a remaining time in hours and minutes (abbreviated), e.g. "2 h 5 min" */
    return g_strdup_printf (_("%d h %d min"), hours, minutes);
  if (seconds >= 60)
    /* Translators: a remaining time in minutes and seconds (abbreviated), e.g. "4 min 12 s" */
    return g_strdup_printf (_("%d min %d s"), minutes, secs);

  /* Translators: a remaining time in seconds (abbreviated), e.g. "42 s" */
  return g_strdup_printf (_("%d s"), secs);
}

/**
 * triage_format_countdown:
 * @remaining: time left until the deadline
 *
 * Returns: (transfer full): "Due in 4 min 12 s", or "Expired" once nothing is left
 */
char *
triage_format_countdown (GTimeSpan remaining)
{
  g_autofree char *duration = NULL;

  if (remaining <= 0)
    return g_strdup (_("Expired"));

  duration = triage_format_duration (remaining);
  /* Translators: %s is a remaining time such as "4 min 12 s" */
  return g_strdup_printf (_("Due in %s"), duration);
}

/**
 * triage_format_countdown_spoken:
 * @remaining: time left until the deadline
 *
 * The countdown as a screen reader is told it, which changes once a minute
 * at most (a name that changes every second is read out every second):
 * "Due in 4 min", "Due in less than a minute", "Due in 2 h 5 min", "Expired".
 *
 * Returns: (transfer full): the countdown without its seconds
 */
char *
triage_format_countdown_spoken (GTimeSpan remaining)
{
  gint64 seconds = (MAX (remaining, 0) + G_TIME_SPAN_SECOND - 1) / G_TIME_SPAN_SECOND;

  if (remaining <= 0 || seconds >= 3600)
    return triage_format_countdown (remaining);
  if (seconds < 60)
    return g_strdup (_("Due in less than a minute"));

  /* Translators: a remaining time in whole minutes (abbreviated), e.g. "Due in 4 min" */
  return g_strdup_printf (_("Due in %d min"), (int) (seconds / 60));
}

/**
 * triage_format_time:
 * @when: a moment
 * @now: (nullable): the present (default: the current time)
 *
 * Returns: (transfer full): the local time of @when, with the date when it is
 *   not today: "14:05", "3 May, 14:05", "3 May 2025, 14:05"
 */
char *
triage_format_time (GDateTime *when,
                    GDateTime *now)
{
  g_autoptr(GDateTime) local = NULL;
  g_autoptr(GDateTime) local_now = NULL;

  g_return_val_if_fail (when != NULL, NULL);

  local = g_date_time_to_local (when);
  local_now = now ? g_date_time_to_local (now) : g_date_time_new_now_local ();

  if (g_date_time_get_year (local) == g_date_time_get_year (local_now) &&
      g_date_time_get_day_of_year (local) == g_date_time_get_day_of_year (local_now))
    /* Translators: a time of today, see the strftime manual page */
    return g_date_time_format (local, _("%H:%M"));

  if (g_date_time_get_year (local) == g_date_time_get_year (local_now))
    /* Translators: a date of this year and a time, see the strftime manual page */
    return g_date_time_format (local, _("%-d %b, %H:%M"));

  /* Translators: a date and a time, see the strftime manual page */
  return g_date_time_format (local, _("%-d %b %Y, %H:%M"));
}

/* Numbers */

/**
 * triage_number_digits:
 * @value: a number from a definition (a step, a bound)
 *
 * Returns: how many decimals @value needs (at most 12): 0.05 → 2, 10 → 0
 */
int
triage_number_digits (double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  const char *dot;
  int digits;

  if (!isfinite (value))
    return 0;

  g_ascii_formatd (buf, sizeof buf, "%.12f", fabs (value));
  dot = strchr (buf, '.');
  if (dot == NULL)
    return 0;

  digits = strlen (dot + 1);
  while (digits > 0 && dot[digits] == '0')
    digits--;

  return digits;
}

/**
 * triage_format_number:
 * @value: a number
 * @digits: decimals to show, or -1 for the shortest text that reads back as @value
 *
 * Returns: (transfer full): @value in the user's locale
 */
char *
triage_format_number (double value,
                      int    digits)
{
  char *text;

  if (digits >= 0)
    return g_strdup_printf ("%.*f", digits, value);

  text = g_strdup_printf ("%.15g", value);
  if (g_strtod (text, NULL) != value)
    {
      g_free (text);
      text = g_strdup_printf ("%.17g", value);
    }

  return text;
}

/**
 * triage_json_number_new:
 * @value: a finite number
 *
 * Returns: (transfer full): an integer node for an integral value that
 *   doubles hold exactly (42, not 42.0), a double node otherwise
 */
JsonNode *
triage_json_number_new (double value)
{
  JsonNode *node = json_node_alloc ();

  if (value == floor (value) && fabs (value) <= MAX_EXACT_INTEGER)
    json_node_init_int (node, (gint64) value);
  else
    json_node_init_double (node, value);

  return node;
}

/* Values */

/**
 * triage_format_is_hidden_char:
 * @c: a character of an agent's text
 *
 * Returns: whether @c would act on the text around it rather than show: a
 *   control character (C0, DEL, C1) other than the line break and the tab,
 *   or a bidirectional embedding, override or isolate (U+202A–U+202E,
 *   U+2066–U+2069), which would let an agent reorder what the person reads
 *   ("\u202e~/ fr- mr" shows as "rm -rf /~"). The marks right-to-left text
 *   needs (U+200E, U+200F, U+061C) are not among them.
 */
gboolean
triage_format_is_hidden_char (gunichar c)
{
  if (c < 0x20)
    return c != '\n' && c != '\t';
  if (c >= 0x7F && c <= 0x9F)
    return TRUE;

  return atp_unichar_is_bidi_override (c);
}

/**
 * triage_format_is_rtl_letter:
 * @c: a character
 *
 * Whether @c turns a paragraph right to left, as Pango decides a label's
 * direction: by its first strong character. Digits
 * are weak, Arabic-Indic ones (bidirectional type AN) too: a text of digits
 * alone takes the widget's direction, left to right in this app, so a row
 * under such a title stays left to right (triage_browse_dup_in_direction_of()).
 *
 * Returns: whether @c is a letter of a script written right to left (of
 *   bidirectional type R or AL: one that turns a run right to left)
 */
gboolean
triage_format_is_rtl_letter (gunichar c)
{
  switch (g_unichar_get_script (c))
    {
    case G_UNICODE_SCRIPT_ARABIC:
    case G_UNICODE_SCRIPT_HEBREW:
    case G_UNICODE_SCRIPT_SYRIAC:
    case G_UNICODE_SCRIPT_THAANA:
    case G_UNICODE_SCRIPT_NKO:
    case G_UNICODE_SCRIPT_SAMARITAN:
    case G_UNICODE_SCRIPT_MANDAIC:
    case G_UNICODE_SCRIPT_ADLAM:
    case G_UNICODE_SCRIPT_HANIFI_ROHINGYA:
    case G_UNICODE_SCRIPT_MENDE_KIKAKUI:
    case G_UNICODE_SCRIPT_YEZIDI:
      return g_unichar_isalpha (c);
    default:
      return FALSE;
    }
}

/* Whether @c is of bidirectional type AN (Arabic number: the Arabic-Indic
 * digits and their separators, the number signs), which GLib does not say.
 * The Extended Arabic-Indic digits (U+06F0–U+06F9) are EN, as ASCII digits. */
static gboolean
is_arabic_number (gunichar c)
{
  return (c >= 0x0600 && c <= 0x0605) || (c >= 0x0660 && c <= 0x0669) ||
         c == 0x066B || c == 0x066C || c == 0x06DD || c == 0x0890 || c == 0x0891 ||
         c == 0x08E2 || (c >= 0x10D30 && c <= 0x10D39) || (c >= 0x10E60 && c <= 0x10E7E);
}

/**
 * triage_format_in_sentence:
 * @text: an agent's text (a label, a name) to put in one of the app's
 *   sentences, which are written left to right
 *
 * Pango lays out "‘LABEL’: 40 %" by the Unicode bidirectional algorithm: after
 * a Hebrew or Arabic label, the quote, the colon and the number join the
 * label's right-to-left run, and the person read "‘40 :’LABEL %". Arabic-Indic
 * digits do it too, though they turn no paragraph right to left
 * (triage_format_is_rtl_letter()): between two Arabic numbers the quote and
 * the colon count as right to left (rule N1), so "‘١٢’: ٣٤" read "‘٣٤ :’١٢".
 * A LEFT-TO-RIGHT MARK after such a text ends its run there; it is no hidden
 * character (triage_format_is_hidden_char()), so it survives what shows the
 * sentence. (The app has no right-to-left translation: its sentences are
 * left to right.)
 *
 * Returns: (transfer full): @text, followed by U+200E when it has
 *   right-to-left letters or Arabic-Indic digits
 */
char *
triage_format_in_sentence (const char *text)
{
  g_return_val_if_fail (text != NULL, NULL);

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (triage_format_is_rtl_letter (c) || is_arabic_number (c))
        return g_strconcat (text, "\u200E", NULL);
    }

  return g_strdup (text);
}

/**
 * triage_format_visible_text:
 * @text: an agent's text (valid UTF-8)
 *
 * Returns: (transfer full): @text with every character
 *   triage_format_is_hidden_char() names replaced by U+FFFD REPLACEMENT
 *   CHARACTER, so the person sees that something is there and nothing is
 *   reordered or hidden
 */
char *
triage_format_visible_text (const char *text)
{
  GString *shown;
  const char *p;

  for (p = text; *p != '\0'; p = g_utf8_next_char (p))
    if (triage_format_is_hidden_char (g_utf8_get_char (p)))
      break;
  if (*p == '\0')
    return g_strdup (text);

  shown = g_string_sized_new (strlen (text) + 16);
  g_string_append_len (shown, text, p - text);
  for (; *p != '\0'; p = g_utf8_next_char (p))
    {
      if (triage_format_is_hidden_char (g_utf8_get_char (p)))
        g_string_append (shown, "\uFFFD");
      else
        g_string_append_len (shown, p, g_utf8_next_char (p) - p);
    }

  return g_string_free (shown, FALSE);
}

/**
 * triage_format_cut_text:
 * @text: a text
 * @max_chars: how many characters to keep at most (0: all)
 *
 * Every label of an agent's text goes through here (or
 * triage_format_shown_text(), which calls it).
 *
 * Returns: (transfer full): @text, cut with "…" when longer than @max_chars,
 *   its hidden characters made visible (triage_format_visible_text())
 */
char *
triage_format_cut_text (const char *text,
                        gsize       max_chars)
{
  /* No more bytes than @max_chars: no more characters either. */
  if (max_chars > 0 && strlen (text) > max_chars && (gsize) g_utf8_strlen (text, -1) > max_chars)
    {
      g_autofree char *head = g_utf8_substring (text, 0, max_chars);
      g_autofree char *visible = triage_format_visible_text (head);

      return g_strconcat (visible, "…", NULL);
    }

  return triage_format_visible_text (text);
}

/**
 * triage_format_is_break_char:
 * @c: a character
 *
 * Whether triage_format_shown_text() counts @c as a place to break a line:
 * white space, U+200B ZERO WIDTH SPACE or a hyphen-minus, as Pango (and a
 * notification server) breaks there before a letter. The spaces that glue
 * words together (U+00A0 NO-BREAK SPACE, U+2007, U+202F) are no place to
 * break: a run of words joined by them is one long word.
 *
 * Returns: %TRUE for a place to break
 */
gboolean
triage_format_is_break_char (gunichar c)
{
  if (c == 0x200B || c == '-')
    return TRUE;

  return g_unichar_isspace (c) && g_unichar_break_type (c) != G_UNICODE_BREAK_NON_BREAKING_GLUE;
}

/* @text without the whitespace at its ends: *@start and *@length. */
static void
trimmed (const char  *text,
         const char **start,
         gsize       *length)
{
  const char *end = text + strlen (text);

  while (g_ascii_isspace (*text))
    text++;
  while (end > text && g_ascii_isspace (end[-1]))
    end--;
  *start = text;
  *length = (gsize) (end - text);
}

/**
 * triage_format_get_description:
 * @notification: a request
 *
 * ATP requires a description, so a client that has only a title (triage-ask
 * without --description, an MCP tool call) sends the title again: shown, the
 * person would read the same sentence twice.
 *
 * Returns: (nullable): @notification's description, or %NULL when it is
 *   empty or its title again (both without the whitespace at their ends)
 */
const char *
triage_format_get_description (AtpNotification *notification)
{
  const char *description = notification->context.description;
  const char *title = notification->context.title ? notification->context.title : "";
  const char *d, *t;
  gsize d_length, t_length;

  if (description == NULL)
    return NULL;
  trimmed (description, &d, &d_length);
  trimmed (title, &t, &t_length);
  if (d_length == 0 || (d_length == t_length && memcmp (d, t, d_length) == 0))
    return NULL;
  return description;
}

/**
 * triage_format_shown_text:
 * @text: an agent's text, for a label that wraps
 * @max_chars: how many characters to keep at most (0: all)
 *
 * @text cut as triage_format_cut_text() does, with a place to break (U+200B
 * ZERO WIDTH SPACE) after every %TRIAGE_SHOWN_RUN_CHARS characters that have
 * none. Pango breaks a run with no break opportunity character by
 * character, at a cost that grows with the square of its length: a 1,000
 * character token in a label took a quarter of a second to lay out.
 *
 * Returns: (transfer full): the text to show
 */
char *
triage_format_shown_text (const char *text,
                          gsize       max_chars)
{
  g_autofree char *cut = triage_format_cut_text (text, max_chars);
  GString *shown;
  guint run = 0;

  if (strlen (cut) <= TRIAGE_SHOWN_RUN_CHARS)
    return g_steal_pointer (&cut);

  shown = g_string_sized_new (strlen (cut) + 16);
  for (const char *p = cut; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (triage_format_is_break_char (c))
        run = 0;
      else if (++run > TRIAGE_SHOWN_RUN_CHARS)
        {
          g_string_append (shown, "\u200B");
          run = 1;
        }
      g_string_append_len (shown, p, g_utf8_next_char (p) - p);
    }

  return g_string_free (shown, FALSE);
}

/**
 * triage_format_json_value:
 * @node: a metadata value
 * @max_chars: cut longer texts with "…" (0: never)
 *
 * Returns: (transfer full): a string as it is, anything else as compact JSON
 */
char *
triage_format_json_value (JsonNode *node,
                          gsize     max_chars)
{
  g_autofree char *text = NULL;

  if (node == NULL)
    return g_strdup ("null");

  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return triage_format_cut_text (json_node_get_string (node), max_chars);

  text = atp_json_to_string (node, NULL);
  return triage_format_cut_text (text, max_chars);
}

/**
 * triage_format_attachment_details:
 * @attachment: an attachment
 *
 * Returns: (transfer full): its type and its size ("text/plain · 1.2 kB") or
 *   the host it links to ("image/png · link to example.com", IDN hosts in
 *   their ASCII form so look-alike letters cannot pose as another host)
 */
char *
triage_format_attachment_details (const AtpAttachment *attachment)
{
  g_autoptr(GUri) uri = NULL;
  g_autofree char *host = NULL;

  g_return_val_if_fail (attachment != NULL, NULL);

  if (attachment->uri == NULL)
    {
      g_autofree char *size = g_format_size (attachment->decoded_size);

      /* Translators: an inline attachment: its MIME type and its size */
      return g_strdup_printf (_("%s · %s"), attachment->type, size);
    }

  uri = g_uri_parse (attachment->uri, G_URI_FLAGS_NONE, NULL);
  if (uri != NULL && g_uri_get_host (uri) != NULL && *g_uri_get_host (uri) != '\0')
    host = g_hostname_to_ascii (g_uri_get_host (uri));

  if (host != NULL)
    /* Translators: a linked attachment: its MIME type and the host it is on */
    return g_strdup_printf (_("%s · link to %s"), attachment->type, host);

  if (uri != NULL)
    /* Translators: a linked attachment without a host: its MIME type and the
     * address scheme, e.g. "urn" */
    return g_strdup_printf (_("%s · %s: link"), attachment->type, g_uri_get_scheme (uri));

  return g_strdup_printf (_("%s · link"), attachment->type);
}

/* What folding makes of @c (not ASCII) when that is plain to see, as the
 * whole normalization would: the fullwidth forms of ASCII (lower case),
 * unified Han ideographs and the commonest CJK punctuation (themselves), kana
 * (the voicing mark dropped); 0 for any other character. Each is a starter,
 * and so is what it becomes: a text of them and ASCII alone folds character
 * by character. */
static gunichar
fold_plain_char (gunichar c)
{
  gunichar base, mark;

  if (c >= 0xff01 && c <= 0xff5e)
    return g_ascii_tolower ((char) (c - 0xfee0));
  if ((c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) ||
      (c >= 0x3001 && c <= 0x3002) || (c >= 0x300c && c <= 0x3011))
    return c;
  if ((c >= 0x3041 && c <= 0x3096) || (c >= 0x30a1 && c <= 0x30fa))
    return g_unichar_decompose (c, &base, &mark) ? base : c;
  return 0;
}

/* @text (valid UTF-8) folded character by character (fold_plain_char ()),
 * or NULL when a character needs the whole normalization. The history folds
 * every row it scans for a word of a script written without spaces: the
 * normalization took about 1 s a 100,000 rows (four fields each), this a
 * fifth of it. */
static char *
fold_plain (const char *text)
{
  g_autoptr(GString) folded = g_string_sized_new (strlen (text));

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c;

      /* A byte at a time where most texts are (a fifth of the time). */
      if ((guchar) *p < 0x80)
        {
          g_string_append_c (folded, g_ascii_tolower (*p));
          continue;
        }
      if ((c = fold_plain_char (g_utf8_get_char (p))) == 0)
        return NULL;
      g_string_append_unichar (folded, c);
    }
  return g_string_free (g_steal_pointer (&folded), FALSE);
}

/**
 * triage_format_fold:
 * @text: (nullable): UTF-8 text (invalid sequences are replaced)
 *
 * @text made for matching what a person types, whatever the case
 * (g_utf8_casefold), accents (compatibility decomposition without the
 * combining marks) and width: "CAFÉ" and "café" are both "cafe", "ＡＰＩ"
 * is "api".
 *
 * Returns: (transfer full): @text folded; "" for %NULL
 */
char *
triage_format_fold (const char *text)
{
  g_autofree char *valid = NULL;
  g_autofree char *decomposed = NULL;
  g_autoptr(GString) bare = NULL;
  char *plain;

  if (text == NULL)
    return g_strdup ("");
  if (g_utf8_validate (text, -1, NULL) && (plain = fold_plain (text)) != NULL)
    return plain;

  valid = g_utf8_make_valid (text, -1);
  decomposed = g_utf8_normalize (valid, -1, G_NORMALIZE_ALL);
  if (decomposed == NULL)
    return g_strdup ("");

  bare = g_string_sized_new (strlen (decomposed));
  for (const char *p = decomposed; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_type (c) != G_UNICODE_NON_SPACING_MARK)
        g_string_append_unichar (bare, c);
    }

  return g_utf8_casefold (bare->str, bare->len);
}
