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
  g_auto(GStrv) marked = NULL;

  g_return_val_if_fail (filter != NULL, TRUE);

  query = triage_history_fts_query (filter->text);
  unspaced = triage_history_unspaced_words (filter->text);
  marked = triage_history_marked_words (filter->text);

  return query == NULL && unspaced == NULL && marked == NULL &&
         filter->service == NULL &&
         filter->project == NULL &&
         filter->outcome == TRIAGE_HISTORY_OUTCOME_ANY &&
         filter->from_usec == 0 &&
         filter->to_usec == 0;
}

/* @text holds a letter, digit or mark (triage_inbox_search_is_word_char ()). */
static gboolean
has_word_char (const char *text)
{
  for (const char *c = text; *c != '\0'; c = g_utf8_next_char (c))
    if (triage_inbox_search_is_word_char (g_utf8_get_char (c)))
      return TRUE;

  return FALSE;
}

/* The words typed: any Unicode space separates them; none empty. NULL
 * when there are none. A word with no letter or digit as typed is dropped,
 * even where the inbox's fold makes letters of it ("™" is "tm", "№" "no"):
 * the index keeps no such symbol (unicode61 splits words at it), so the
 * text's "№ 42" is only "42" there and asking for "no"* would miss it,
 * and the scan that could find it as the inbox does reads every row
 * (about 0.3 s a 100,000). Dropped, it finds more than the inbox, never
 * less. */
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
    if (has_word_char (words[i]))
      g_strv_builder_add (builder, words[i]);

  return g_strv_builder_end (builder);
}

/* A word of a script written without spaces (its first character's): the
 * index has no word starts inside such text to find it at. */
static gboolean
is_unspaced_word (const char *word)
{
  return triage_inbox_search_is_unspaced (g_utf8_get_char (word));
}

/* A word the index may keep otherwise than the inbox's fold, with marks
 * that unicode61 takes off Latin letters only: one with a letter or mark
 * of another script written with spaces (Greek, Cyrillic, Hebrew, Arabic,
 * …), whose text may carry marks the word typed lacks ("καλημερα" for
 * "Καλημέρα", "елка" for "Ёлка"). */
static gboolean
is_marked_word (const char *word)
{
  if (is_unspaced_word (word))
    return FALSE;

  for (const char *c = word; *c != '\0'; c = g_utf8_next_char (c))
    {
      gunichar u = g_utf8_get_char (c);

      if (!triage_inbox_search_is_word_char (u) || g_unichar_isdigit (u))
        continue;
      switch (g_unichar_get_script (u))
        {
        case G_UNICODE_SCRIPT_LATIN:
        case G_UNICODE_SCRIPT_COMMON:
        case G_UNICODE_SCRIPT_INHERITED:
          break;
        default:
          return TRUE;
        }
    }

  return FALSE;
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

/* How the index may keep a run of "s" of the inbox's fold, the run as
 * folded first: g_utf8_casefold () makes ß (and ẞ) "ss", unicode61 keeps
 * a ß. A run that ends the word may end in the first half of a ß ("stras"
 * finds "Straße"). A longer run is looked for as folded only. */
static const char * const *
sharp_s_ways (gsize    length,
              gboolean ends_word)
{
  static const char * const ways[3][2][6] = {
    { { "s", NULL }, { "s", "ß", NULL } },
    { { "ss", "ß", NULL }, { "ss", "ß", "sß", NULL } },
    { { "sss", "sß", "ßs", NULL }, { "sss", "sß", "ßs", "ssß", "ßß", NULL } },
  };

  if (length == 0 || length > G_N_ELEMENTS (ways))
    return NULL;
  return ways[length - 1][ends_word ? 1 : 0];
}

/* At most this many forms of a word in the query, besides the word as typed. */
#define MAX_WORD_FORMS 8

typedef struct
{
  gsize               start;
  gsize               length;
  const char * const *ways;
  guint               n_ways;
} SharpSRun;

/* The forms of @folded (a word as the inbox folds it) that the index may
 * keep, @folded first: each run of "s" in every way of sharp_s_ways (), as
 * long as that makes at most MAX_WORD_FORMS forms (a later run is looked
 * for as folded). */
static GPtrArray *
word_forms (const char *folded)
{
  SharpSRun runs[MAX_WORD_FORMS];   /* each multiplies the forms by 2 or more */
  const char *word_end = folded;
  guint n_runs = 0;
  guint n_forms = folded[0] != '\0' ? 1 : 0;
  GPtrArray *forms = g_ptr_array_new_with_free_func (g_free);

  /* A run before the last letter or digit is inside the word. */
  for (const char *c = folded; *c != '\0'; c = g_utf8_next_char (c))
    if (triage_inbox_search_is_word_char (g_utf8_get_char (c)))
      word_end = g_utf8_next_char (c);

  /* The runs of "s" (a byte no other UTF-8 character holds). */
  for (const char *p = strchr (folded, 's'); p != NULL; p = strchr (p, 's'))
    {
      gsize length = strspn (p, "s");
      const char * const *ways = sharp_s_ways (length, p + length >= word_end);
      guint n_ways = ways != NULL ? g_strv_length ((char **) ways) : 1;

      if (n_ways > 1 && n_forms * n_ways <= MAX_WORD_FORMS)
        {
          runs[n_runs++] = (SharpSRun) { p - folded, length, ways, n_ways };
          n_forms *= n_ways;
        }
      p += length;
    }

  /* Form f takes way (f / the ways of the runs before) % n_ways of each
   * run: form 0 is @folded. */
  for (guint f = 0; f < n_forms; f++)
    {
      GString *form = g_string_sized_new (strlen (folded) + 2 * n_runs);
      gsize done = 0;
      guint way = f;

      for (guint r = 0; r < n_runs; r++)
        {
          g_string_append_len (form, folded + done, runs[r].start - done);
          g_string_append (form, runs[r].ways[way % runs[r].n_ways]);
          way /= runs[r].n_ways;
          done = runs[r].start + runs[r].length;
        }
      g_string_append (form, folded + done);
      g_ptr_array_add (forms, g_string_free (form, FALSE));
    }

  return forms;
}

/**
 * triage_history_fts_query:
 * @text: (nullable): what the person typed
 *
 * Turns free text into an FTS5 query that no input can break: every word
 * becomes a quoted prefix phrase ("deplo"*), all of which must match, or
 * several where the index may keep the word otherwise than the inbox's fold
 * (triage_format_fold ()) writes it: ("ＯＰＳ"* OR "ops"*) for a word the
 * fold changes in a way the index does not (width), ("strasse"* OR
 * "straße"*) where the fold made "ss" of a ß the index keeps (word_forms
 * ()). Operators, quotes and parentheses typed by the person are plain
 * text; a word with no letter or digit ("-", "™") is dropped (split_words
 * ()), as the inbox drops "-". The inbox follows the same rule
 * (triage-inbox-search.c). Words of scripts written without spaces are
 * left to triage_history_unspaced_words(), words whose marks the index
 * keeps to triage_history_marked_words().
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
      g_autofree char *lowered = NULL;
      g_autoptr(GPtrArray) forms = NULL;

      if (is_unspaced_word (words[i]) || is_marked_word (words[i]))
        continue;

      /* Folded as the inbox folds it ("ＯＰＳ" is "ops", which the index has
       * for "Ops"), in each form the index may keep for it ("straße"), and
       * as typed where the index folds it otherwise ("ｏｐｓ" for "ＯＰＳ":
       * not when it is one of those in lower case, as "Deploy" is). */
      folded = triage_format_fold (words[i]);
      forms = word_forms (folded);
      lowered = g_utf8_strdown (words[i], -1);
      if (!g_ptr_array_find_with_equal_func (forms, lowered, g_str_equal, NULL))
        g_ptr_array_add (forms, g_strdup (words[i]));

      if (query->len > 0)
        g_string_append (query, " AND ");   /* FTS5 has no implicit AND before a ( */
      if (forms->len > 1)
        g_string_append_c (query, '(');
      for (guint f = 0; f < forms->len; f++)
        {
          if (f > 0)
            g_string_append (query, " OR ");
          append_phrase (query, g_ptr_array_index (forms, f));
        }
      if (forms->len > 1)
        g_string_append_c (query, ')');
    }

  if (query->len == 0)
    {
      g_string_free (query, TRUE);
      return NULL;
    }

  return g_string_free (query, FALSE);
}

/* The words of @text that @keep says yes to, %NULL when there are none. */
static GStrv
words_that (const char *text,
            gboolean  (*keep) (const char *word))
{
  g_auto(GStrv) words = split_words (text);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) kept = NULL;

  for (guint i = 0; words != NULL && words[i] != NULL; i++)
    if (keep (words[i]))
      g_strv_builder_add (builder, words[i]);

  kept = g_strv_builder_end (builder);
  return kept[0] != NULL ? g_steal_pointer (&kept) : NULL;
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
  return words_that (text, is_unspaced_word);
}

/**
 * triage_history_marked_words:
 * @text: (nullable): what the person typed
 *
 * The words with letters of a script other than Latin written with spaces
 * (Greek, Cyrillic, Hebrew, Arabic, …), which triage_history_fts_query()
 * leaves out: the index keeps those letters with their marks (unicode61
 * takes off Latin ones only), so such a word is looked for at the start of
 * a word of every row, as the inbox folds both (triage_inbox_search_has_word()).
 *
 * Returns: (transfer full) (nullable): the words, %NULL when there are none
 */
GStrv
triage_history_marked_words (const char *text)
{
  return words_that (text, is_marked_word);
}
