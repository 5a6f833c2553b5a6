/* triage-history-filter.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-history"

#include <string.h>

#include "triage-decision-format.h"
#include "triage-history-filter.h"
#include "triage-inbox-search.h"

G_DEFINE_BOXED_TYPE (TriageHistoryFilter, triage_history_filter,
                     triage_history_filter_copy, triage_history_filter_free)

/**
 * triage_history_filter_new:
 *
 * Returns: (transfer full): a filter that lets everything through
 */
TriageHistoryFilter *
triage_history_filter_new (void)
{
  TriageHistoryFilter *filter = g_new0 (TriageHistoryFilter, 1);

  filter->outcome = TRIAGE_HISTORY_OUTCOME_ANY;

  return filter;
}

TriageHistoryFilter *
triage_history_filter_copy (const TriageHistoryFilter *filter)
{
  TriageHistoryFilter *copy;

  g_return_val_if_fail (filter != NULL, NULL);

  copy = g_new0 (TriageHistoryFilter, 1);
  copy->text = g_strdup (filter->text);
  copy->service = g_strdup (filter->service);
  copy->project = g_strdup (filter->project);
  copy->outcome = filter->outcome;
  copy->from_usec = filter->from_usec;
  copy->to_usec = filter->to_usec;

  return copy;
}

void
triage_history_filter_free (TriageHistoryFilter *filter)
{
  if (filter == NULL)
    return;

  g_free (filter->text);
  g_free (filter->service);
  g_free (filter->project);
  g_free (filter);
}

gboolean
triage_history_filter_equal (const TriageHistoryFilter *a,
                             const TriageHistoryFilter *b)
{
  if (a == b)
    return TRUE;
  if (a == NULL || b == NULL)
    return FALSE;

  return g_strcmp0 (a->text, b->text) == 0 &&
         g_strcmp0 (a->service, b->service) == 0 &&
         g_strcmp0 (a->project, b->project) == 0 &&
         a->outcome == b->outcome &&
         a->from_usec == b->from_usec &&
         a->to_usec == b->to_usec;
}

/**
 * triage_history_filter_is_empty:
 *
 * Returns: %TRUE if the filter lets every entry through
 */
gboolean
triage_history_filter_is_empty (const TriageHistoryFilter *filter)
{
  g_auto(GStrv) words = NULL;

  g_return_val_if_fail (filter != NULL, TRUE);

  words = triage_history_search_words (filter->text);

  return words == NULL &&
         filter->service == NULL &&
         filter->project == NULL &&
         filter->outcome == TRIAGE_HISTORY_OUTCOME_ANY &&
         filter->from_usec == 0 &&
         filter->to_usec == 0;
}

/* The words typed: any Unicode space separates them; none empty. NULL
 * when there are none. */
static GStrv
split_words (const char *text)
{
  g_autofree char *valid = NULL;
  g_autofree char *normal = NULL;
  g_auto(GStrv) words = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;

  if (text == NULL)
    return NULL;

  valid = g_utf8_make_valid (text, -1);
  normal = g_utf8_normalize (valid, -1, G_NORMALIZE_DEFAULT_COMPOSE);
  if (normal == NULL)
    return NULL;

  /* Any Unicode space separates words; tabs and newlines too. */
  for (char *p = normal; *p != '\0'; p = g_utf8_next_char (p))
    if (g_unichar_isspace (g_utf8_get_char (p)))
      memset (p, ' ', g_utf8_next_char (p) - p);

  words = g_strsplit (normal, " ", -1);
  builder = g_strv_builder_new ();
  for (guint i = 0; words[i] != NULL; i++)
    {
      gboolean has_word_char = FALSE;

      for (const char *c = words[i]; *c != '\0' && !has_word_char; c = g_utf8_next_char (c))
        has_word_char = triage_inbox_search_is_word_char (g_utf8_get_char (c));
      if (has_word_char)
        g_strv_builder_add (builder, words[i]);
    }

  return g_strv_builder_end (builder);
}

/* A word with a character of a script written without spaces: the index
 * keeps a run of such text as one word ("删除ａｐｉ旧密钥吗"), with no word
 * start inside it to find the word at; only the scan can. */
static gboolean
has_unspaced_char (const char *word)
{
  for (const char *c = word; *c != '\0'; c = g_utf8_next_char (c))
    if (triage_inbox_search_is_unspaced (g_utf8_get_char (c)))
      return TRUE;

  return FALSE;
}

/* @word as FTS5 sees it without the inbox's fold: lower case, Latin accents
 * dropped (unicode61 remove_diacritics 2), nothing else. */
static char *
index_form (const char *word)
{
  g_autofree char *decomposed = g_utf8_normalize (word, -1, G_NORMALIZE_DEFAULT);
  g_autoptr(GString) bare = g_string_new (NULL);

  for (const char *p = decomposed; p != NULL && *p != '\0'; p = g_utf8_next_char (p))
    if (g_unichar_type (g_utf8_get_char (p)) != G_UNICODE_NON_SPACING_MARK)
      g_string_append_unichar (bare, g_utf8_get_char (p));

  return g_utf8_strdown (bare->str, bare->len);
}

/* @word as a quoted prefix phrase ("deplo"*): operators, quotes and
 * parentheses typed are plain text. */
static void
append_phrase (GString    *query,
               const char *word)
{
  g_string_append_c (query, '"');
  for (const char *c = word; *c != '\0'; c++)
    {
      if (*c == '"')
        g_string_append_c (query, '"');
      g_string_append_c (query, *c);
    }
  g_string_append (query, "\"*");
}

/**
 * triage_history_fts_query:
 * @text: (nullable): what the person typed
 *
 * Turns free text into an FTS5 query that no input can break: every word
 * becomes a quoted prefix phrase ("deplo"*), and all of them must match.
 * Operators, quotes and parentheses typed by the person are plain text; a
 * word with no letter or digit ("-") is dropped, as the inbox's search does
 * (FTS5 would match nothing with it alone). The inbox follows the same rule
 * (triage-inbox-search.c).
 *
 * Each word is folded as the inbox folds it (triage_format_fold (): "ＯＰＳ"
 * is "ops", which the index's own folding leaves fullwidth); where that
 * differs from what the index makes of the word as typed ("straße" folds to
 * "strasse", the index keeps "straße"), either form matches. A word with a
 * character of a script written without spaces cannot be found in the
 * index: there is no query then, and the scan of the rows with such text
 * decides alone (triage_history_search_words()).
 *
 * Returns: (transfer full) (nullable): the MATCH expression, %NULL when @text
 *   has no words or the index cannot find one of them
 */
char *
triage_history_fts_query (const char *text)
{
  g_auto(GStrv) words = split_words (text);
  g_autoptr(GString) query = NULL;

  if (words == NULL || words[0] == NULL)
    return NULL;

  query = g_string_new (NULL);
  for (guint i = 0; words[i] != NULL; i++)
    {
      g_autofree char *folded = triage_format_fold (words[i]);
      g_autofree char *indexed = NULL;
      gboolean has_word_char = FALSE;

      if (has_unspaced_char (words[i]) || has_unspaced_char (folded))
        return NULL;
      /* Only marks, which folding drops: no word to the inbox either. */
      for (const char *c = folded; *c != '\0' && !has_word_char; c = g_utf8_next_char (c))
        has_word_char = triage_inbox_search_is_word_char (g_utf8_get_char (c));
      if (!has_word_char)
        continue;

      if (query->len > 0)
        g_string_append (query, " AND ");
      indexed = index_form (words[i]);
      if (strcmp (indexed, folded) == 0)
        append_phrase (query, folded);
      else
        {
          g_string_append_c (query, '(');
          append_phrase (query, folded);
          g_string_append (query, " OR ");
          append_phrase (query, words[i]);
          g_string_append_c (query, ')');
        }
    }

  return query->len > 0 ? g_string_free (g_steal_pointer (&query), FALSE) : NULL;
}

/**
 * triage_history_scan_covers:
 * @c: a character
 *
 * Returns: %TRUE if a row with @c in its text is among those the search
 *   scans besides the full-text index's matches (TRIAGE_HISTORY_UNSPACED_SQL,
 *   which has the same ranges)
 */
gboolean
triage_history_scan_covers (gunichar c)
{
  return (c >= 0x0e00 && c <= 0x109f) || (c >= 0x1780 && c <= 0x17ff) ||
         (c >= 0x2e80 && c <= 0xa4cf) || (c >= 0xf900 && c <= 0xfaff) ||
         (c >= 0xff00 && c <= 0xffef);
}

/**
 * triage_history_scan_covers_words:
 * @words: words from triage_history_search_words()
 *
 * Whether the rows the partial index keeps are all a scan need read for
 * @words: those the full-text index cannot find are among them, but for a
 * word with a character of a script written without spaces the partial
 * index does not cover (Balinese, Tai Tham, Han beyond the Basic
 * Multilingual Plane, …), which only a scan of every row finds.
 *
 * Returns: %TRUE if scanning the rows with such text is enough
 */
gboolean
triage_history_scan_covers_words (const char * const *words)
{
  for (guint i = 0; words != NULL && words[i] != NULL; i++)
    for (const char *c = words[i]; *c != '\0'; c = g_utf8_next_char (c))
      {
        gunichar u = g_utf8_get_char (c);

        if (triage_inbox_search_is_unspaced (u) && !triage_history_scan_covers (u))
          return FALSE;
      }

  return TRUE;
}

/**
 * triage_history_search_words:
 * @text: (nullable): what the person typed
 *
 * The words the history's scan looks for in the rows whose text the index
 * cannot search as the inbox does (TRIAGE_HISTORY_UNSPACED_SQL), or in every
 * row (triage_history_scan_covers_words()): the inbox's own
 * (triage_inbox_search_parse()), matched by its own rule.
 *
 * Returns: (transfer full) (nullable): the words, %NULL when there are none
 */
GStrv
triage_history_search_words (const char *text)
{
  g_auto(GStrv) words = triage_inbox_search_parse (text);

  return words[0] != NULL ? g_steal_pointer (&words) : NULL;
}
