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
  g_autofree char *query = NULL;
  g_auto(GStrv) unspaced = NULL;

  g_return_val_if_fail (filter != NULL, TRUE);

  query = triage_history_fts_query (filter->text);
  unspaced = triage_history_unspaced_words (filter->text);

  return query == NULL && unspaced == NULL &&
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

/* A word of a script written without spaces (its first character's): the
 * index has no word starts inside such text to find it at. */
static gboolean
is_unspaced_word (const char *word)
{
  return triage_inbox_search_is_unspaced (g_utf8_get_char (word));
}

/* Appends @word to @query as a quoted prefix phrase ("deplo"*). */
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
 * becomes a quoted prefix phrase ("deplo"*), or two when the inbox's fold
 * changes it (("ＯＰＳ"* OR "ops"*)), and all of them must match.
 * Operators, quotes and parentheses typed by the person are plain text; a
 * word with no letter or digit ("-") is dropped, as the inbox's search does
 * (FTS5 would match nothing with it alone). The inbox follows the same rule
 * (triage-inbox-search.c). Words of scripts written without spaces are
 * left to triage_history_unspaced_words().
 *
 * Returns: (transfer full) (nullable): the MATCH expression, %NULL when @text has no words
 */
char *
triage_history_fts_query (const char *text)
{
  g_auto(GStrv) words = split_words (text);
  GString *query;

  if (words == NULL)
    return NULL;

  query = g_string_new (NULL);
  for (guint i = 0; words[i] != NULL; i++)
    {
      g_autofree char *folded = NULL;

      if (is_unspaced_word (words[i]))
        continue;

      folded = triage_format_fold (words[i]);
      if (query->len > 0)
        g_string_append (query, " AND ");   /* FTS5 has no implicit AND before a ( */
      /* Folded as the inbox folds it ("ＯＰＳ" is "ops", which the index has
       * for "Ops"), and as typed where the index folds otherwise ("straße"). */
      if (folded[0] != '\0' && !g_str_equal (folded, words[i]))
        {
          g_string_append_c (query, '(');
          append_phrase (query, words[i]);
          g_string_append (query, " OR ");
          append_phrase (query, folded);
          g_string_append_c (query, ')');
        }
      else
        append_phrase (query, words[i]);
    }

  if (query->len == 0)
    {
      g_string_free (query, TRUE);
      return NULL;
    }

  return g_string_free (query, FALSE);
}

/**
 * triage_history_unspaced_words:
 * @text: (nullable): what the person typed
 *
 * The words of scripts written without spaces (Han, Kana, Thai, …), which
 * triage_history_fts_query() leaves out: the full-text index keeps such a
 * run whole as one word, so they are looked for anywhere in the text, as
 * the inbox does (triage_inbox_search_is_unspaced()).
 *
 * Returns: (transfer full) (nullable): the words, %NULL when there are none
 */
GStrv
triage_history_unspaced_words (const char *text)
{
  g_auto(GStrv) words = split_words (text);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) unspaced = NULL;

  for (guint i = 0; words != NULL && words[i] != NULL; i++)
    if (is_unspaced_word (words[i]))
      g_strv_builder_add (builder, words[i]);

  unspaced = g_strv_builder_end (builder);
  return unspaced[0] != NULL ? g_steal_pointer (&unspaced) : NULL;
}
