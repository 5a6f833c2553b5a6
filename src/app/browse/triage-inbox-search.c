/* triage-inbox-search.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-inbox"

#include <string.h>

#include "triage-decision-format.h"
#include "triage-inbox-search.h"

/*
 * Search in the inbox, by the history's rule (its FTS5 index, tokenizer
 * unicode61 with remove_diacritics 2, and triage_history_fts_query()): every
 * word typed must start a word of the title, description, service or
 * project, whatever the case (g_utf8_casefold) and accents (compatibility
 * decomposition without the combining marks), so "depl" finds "Deploy" and
 * "cafe" finds "Café", but "ploy" finds nothing. Words are runs of letters,
 * digits and marks; anything else separates them, in the text as in what is
 * typed, so "2.1" finds "2.1" and "2-1" (a phrase of the words 2 and 1…).
 * Substrings are not matched: the history could only do that with a trigram
 * index, which in SQLite 3.40 cannot fold accents. Scripts written without
 * spaces (Han, Kana, Thai, …) have no word starts to go by: there a word
 * typed matches anywhere (triage_inbox_search_is_unspaced(); the history
 * looks for such words outside its index, triage_history_unspaced_words(),
 * as it does words of scripts whose marks its index keeps: Greek, Cyrillic,
 * …, triage_history_marked_words()).
 *
 * Both sides are kept as words separated by one space (fields by a newline),
 * so a typed word is a strstr() hit that begins a word.
 *
 * The folded text of each request is computed once and kept on the request
 * (object data), together with the notification it was made from: a
 * refreshed request (a resync may change its body) is folded again on its
 * next match. A search over 10,000 requests is then 10,000 strstr() calls.
 */

typedef struct
{
  AtpNotification *notification;   /* what the text was made from (a reference) */
  char            *text;
} Haystack;

static void
haystack_free (gpointer data)
{
  Haystack *haystack = data;

  atp_notification_unref (haystack->notification);
  g_free (haystack->text);
  g_free (haystack);
}

/**
 * triage_inbox_search_is_word_char:
 * @c: a character
 *
 * Returns: %TRUE if @c belongs to a word (as the unicode61 tokenizer sees
 *   it: letters, digits, private use; marks too, which folding mostly drops)
 */
gboolean
triage_inbox_search_is_word_char (gunichar c)
{
  switch (g_unichar_type (c))
    {
    case G_UNICODE_PRIVATE_USE:
    case G_UNICODE_SPACING_MARK:
    case G_UNICODE_ENCLOSING_MARK:
    case G_UNICODE_NON_SPACING_MARK:
      return TRUE;
    default:
      return g_unichar_isalnum (c);
    }
}

/* Between fields while folding: a control character that folding keeps and
 * no request carries; it becomes the newline between fields. */
#define FIELD_SEPARATOR 0x1f

/* Every run of non-word characters becomes one space, none at either end of
 * a field; fields are separated by newlines. */
static char *
join_words (const char *folded)
{
  GString *words = g_string_sized_new (strlen (folded));
  gboolean gap = FALSE;
  gboolean field_start = TRUE;

  for (const char *p = folded; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == FIELD_SEPARATOR)
        {
          g_string_append_c (words, '\n');
          field_start = TRUE;
          gap = FALSE;
          continue;
        }
      if (!triage_inbox_search_is_word_char (c))
        {
          gap = TRUE;
          continue;
        }
      if (gap && !field_start)
        g_string_append_c (words, ' ');
      gap = FALSE;
      field_start = FALSE;
      g_string_append_unichar (words, c);
    }

  return g_string_free (words, FALSE);
}

/**
 * triage_inbox_search_fold:
 * @text: (nullable): UTF-8 text (invalid sequences are replaced)
 *
 * Returns: (transfer full): @text folded for matching
 */
char *
triage_inbox_search_fold (const char *text)
{
  return triage_format_fold (text);
}

/**
 * triage_inbox_search_parse:
 * @text: (nullable): what the person typed
 *
 * Returns: (transfer full): the folded words, possibly none; a word typed
 *   with separators inside ("2.1") is its words joined by one space ("2 1")
 */
GStrv
triage_inbox_search_parse (const char *text)
{
  g_autofree char *folded = triage_inbox_search_fold (text);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  const char *start = NULL;

  for (const char *p = folded; ; p = g_utf8_next_char (p))
    {
      gboolean end = *p == '\0' || g_unichar_isspace (g_utf8_get_char (p));

      if (!end && start == NULL)
        start = p;
      else if (end && start != NULL)
        {
          g_autofree char *word = g_strndup (start, p - start);
          g_autofree char *joined = join_words (word);

          /* Only separators ("-"): nothing to find, as in the history. */
          if (joined[0] != '\0')
            g_strv_builder_add (builder, joined);
          start = NULL;
        }

      if (*p == '\0')
        break;
    }

  return g_strv_builder_end (builder);
}

/**
 * triage_inbox_search_is_unspaced:
 * @c: a character
 *
 * Returns: %TRUE if @c belongs to a script written without spaces between
 *   words (Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar, …), where any
 *   character may start a word
 */
gboolean
triage_inbox_search_is_unspaced (gunichar c)
{
  switch (g_unichar_get_script (c))
    {
    case G_UNICODE_SCRIPT_HAN:
    case G_UNICODE_SCRIPT_HIRAGANA:
    case G_UNICODE_SCRIPT_KATAKANA:
    case G_UNICODE_SCRIPT_BOPOMOFO:
    case G_UNICODE_SCRIPT_YI:
    case G_UNICODE_SCRIPT_THAI:
    case G_UNICODE_SCRIPT_LAO:
    case G_UNICODE_SCRIPT_KHMER:
    case G_UNICODE_SCRIPT_MYANMAR:
    case G_UNICODE_SCRIPT_TIBETAN:
    case G_UNICODE_SCRIPT_TAI_LE:
    case G_UNICODE_SCRIPT_NEW_TAI_LUE:
    case G_UNICODE_SCRIPT_TAI_THAM:
    case G_UNICODE_SCRIPT_TAI_VIET:
    case G_UNICODE_SCRIPT_BALINESE:
    case G_UNICODE_SCRIPT_JAVANESE:
      return TRUE;
    default:
      return FALSE;
    }
}

/* @word occurs in @text where a word starts (@text as the haystack is kept):
 * after a space or newline, or anywhere within or next to a script written
 * without spaces ("备份" in "要删除旧备份吗"). */
static gboolean
starts_a_word (const char *text,
               const char *word)
{
  gboolean unspaced_word = triage_inbox_search_is_unspaced (g_utf8_get_char (word));

  for (const char *hit = strstr (text, word); hit != NULL; hit = strstr (hit + 1, word))
    {
      if (hit == text || hit[-1] == ' ' || hit[-1] == '\n' || unspaced_word)
        return TRUE;
      if (triage_inbox_search_is_unspaced (g_utf8_get_char (g_utf8_prev_char (hit))))
        return TRUE;
    }

  return FALSE;
}

/**
 * triage_inbox_search_match:
 * @haystack: text from triage_inbox_search_haystack()
 * @words: (nullable): words from triage_inbox_search_parse()
 *
 * Returns: %TRUE if every word starts a word of the text, or, for a script
 *   written without spaces, occurs anywhere in it (no words: always)
 */
gboolean
triage_inbox_search_match (const char         *haystack,
                           const char * const *words)
{
  if (words == NULL)
    return TRUE;

  for (guint i = 0; words[i] != NULL; i++)
    if (!starts_a_word (haystack, words[i]))
      return FALSE;

  return TRUE;
}

/**
 * triage_inbox_search_has_word:
 * @text: (nullable): a field of a request, as written
 * @word: a word from triage_inbox_search_parse()
 *
 * For the history, which looks for a word the same way where its index
 * cannot (triage_history_marked_words()).
 *
 * Returns: %TRUE if @word starts a word of @text, folded as the inbox
 *   folds what it searches
 */
gboolean
triage_inbox_search_has_word (const char *text,
                              const char *word)
{
  g_autofree char *folded = NULL;
  g_autofree char *words = NULL;

  if (text == NULL)
    return FALSE;

  folded = triage_inbox_search_fold (text);
  words = join_words (folded);
  return starts_a_word (words, word);
}

/**
 * triage_inbox_search_words_narrow:
 * @old_words: (nullable): the previous search
 * @new_words: (nullable): the new one
 *
 * Returns: %TRUE if everything the new search matches was matched by the old
 *   one (each old word starts a word within a new word), so a filter need
 *   only look at what it already shows
 */
gboolean
triage_inbox_search_words_narrow (const char * const *old_words,
                                  const char * const *new_words)
{
  if (old_words == NULL || old_words[0] == NULL)
    return TRUE;
  if (new_words == NULL)
    return FALSE;

  for (guint i = 0; old_words[i] != NULL; i++)
    {
      gboolean found = FALSE;

      for (guint j = 0; new_words[j] != NULL && !found; j++)
        found = starts_a_word (new_words[j], old_words[i]);

      if (!found)
        return FALSE;
    }

  return TRUE;
}

static GQuark
haystack_quark (void)
{
  static GQuark quark;

  if (G_UNLIKELY (quark == 0))
    quark = g_quark_from_static_string ("triage-inbox-search-haystack");

  return quark;
}

/**
 * triage_inbox_search_haystack:
 * @request: a request
 *
 * Returns: (transfer none): the request's title, description, service and
 *   project, folded, each its words separated by one space, one a line;
 *   valid until the request changes
 */
const char *
triage_inbox_search_haystack (TriageRequest *request)
{
  AtpNotification *notification = triage_request_get_notification (request);
  Haystack *haystack = g_object_get_qdata (G_OBJECT (request), haystack_quark ());
  const char separator[] = { FIELD_SEPARATOR, '\0' };
  g_autofree char *joined = NULL;
  g_autofree char *folded = NULL;

  if (haystack != NULL && haystack->notification == notification)
    return haystack->text;

  /* Folded at once (a quarter of the calls), the fields kept apart: a
   * phrase ("2.1") never spans two of them, as in FTS5. */
  joined = g_strjoin (separator,
                      notification->context.title ? notification->context.title : "",
                      notification->context.description ? notification->context.description : "",
                      notification->service.name ? notification->service.name : "",
                      notification->context.project ? notification->context.project : "",
                      NULL);
  folded = triage_inbox_search_fold (joined);

  haystack = g_new0 (Haystack, 1);
  haystack->notification = atp_notification_ref (notification);
  haystack->text = join_words (folded);
  g_object_set_qdata_full (G_OBJECT (request), haystack_quark (), haystack, haystack_free);

  return haystack->text;
}
