/* triage-inbox-search.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-inbox"

#include <string.h>

#include "triage-inbox-search.h"

/*
 * Search in the inbox: every word typed must occur somewhere in the title,
 * description, service or project, whatever the case (g_utf8_casefold) and
 * accents (compatibility decomposition without the combining marks, so
 * "cafe" finds "Café" and "ﬁle" finds "file").
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
 * triage_inbox_search_fold:
 * @text: (nullable): UTF-8 text (invalid sequences are replaced)
 *
 * Returns: (transfer full): @text folded for matching
 */
char *
triage_inbox_search_fold (const char *text)
{
  g_autofree char *valid = NULL;
  g_autofree char *decomposed = NULL;
  GString *bare;

  if (text == NULL)
    return g_strdup ("");

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

  {
    char *folded = g_utf8_casefold (bare->str, bare->len);

    g_string_free (bare, TRUE);
    return folded;
  }
}

/**
 * triage_inbox_search_parse:
 * @text: (nullable): what the person typed
 *
 * Returns: (transfer full): the folded words, possibly none
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

          g_strv_builder_add (builder, word);
          start = NULL;
        }

      if (*p == '\0')
        break;
    }

  return g_strv_builder_end (builder);
}

/**
 * triage_inbox_search_match:
 * @folded_haystack: text folded with triage_inbox_search_fold()
 * @words: (nullable): words from triage_inbox_search_parse()
 *
 * Returns: %TRUE if every word occurs in the text (no words: always)
 */
gboolean
triage_inbox_search_match (const char         *folded_haystack,
                           const char * const *words)
{
  if (words == NULL)
    return TRUE;

  for (guint i = 0; words[i] != NULL; i++)
    if (strstr (folded_haystack, words[i]) == NULL)
      return FALSE;

  return TRUE;
}

/**
 * triage_inbox_search_words_narrow:
 * @old_words: (nullable): the previous search
 * @new_words: (nullable): the new one
 *
 * Returns: %TRUE if everything the new search matches was matched by the old
 *   one (each old word is within a new word), so a filter need only look at
 *   what it already shows
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
        found = strstr (new_words[j], old_words[i]) != NULL;

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
 *   project, folded; valid until the request changes
 */
const char *
triage_inbox_search_haystack (TriageRequest *request)
{
  AtpNotification *notification = triage_request_get_notification (request);
  Haystack *haystack = g_object_get_qdata (G_OBJECT (request), haystack_quark ());
  g_autofree char *joined = NULL;

  if (haystack != NULL && haystack->notification == notification)
    return haystack->text;

  joined = g_strjoin ("\n",
                      notification->context.title ? notification->context.title : "",
                      notification->context.description ? notification->context.description : "",
                      notification->service.name ? notification->service.name : "",
                      notification->context.project ? notification->context.project : "",
                      NULL);

  haystack = g_new0 (Haystack, 1);
  haystack->notification = atp_notification_ref (notification);
  haystack->text = triage_inbox_search_fold (joined);
  g_object_set_qdata_full (G_OBJECT (request), haystack_quark (), haystack, haystack_free);

  return haystack->text;
}
