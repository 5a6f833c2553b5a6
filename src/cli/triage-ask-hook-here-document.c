/* triage-ask-hook-here-document.c — the shell's here-documents: their words, bodies and ends
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-ask"

#include "triage-ask-hook-here-document.h"

#include <string.h>

/* Where @p's line ends: its line break, or the end of the text. */
const char *
triage_ask_hook_end_of_line (const char *p)
{
  const char *end = strchr (p, '\n');

  return end != NULL ? end : p + strlen (p);
}

/* Reads the word after << (and its -) into @delimiters: the line that ends its
 * here-document, quotes taken off (<<'EOF' ends at EOF), with "-" before it for <<-
 * (tabs before the body's lines and the end are dropped) or " ". Returns where it ends. */
const char *
triage_ask_hook_read_here_document_word (const char *p,
                                         GPtrArray  *delimiters)
{
  g_autoptr(GString) word = g_string_new (*p == '-' ? "-" : " ");
  char quote = 0;

  if (*p == '-')
    p++;
  while (*p == ' ' || *p == '\t')
    p++;
  for (; *p != '\0'; p++)
    {
      if (quote != 0 && *p == quote)
        quote = 0;
      else if (quote != 0)
        g_string_append_c (word, *p);
      else if (*p == '\'' || *p == '"')
        quote = *p;
      else if (*p == '\\' && p[1] != '\0')
        g_string_append_c (word, *++p);
      else if (strchr (" \t\n;&|<>()", *p) != NULL)
        break;
      else
        g_string_append_c (word, *p);
    }
  if (word->len > 1)
    g_ptr_array_add (delimiters, g_string_free (g_steal_pointer (&word), FALSE));
  return p;
}

void
triage_ask_hook_here_document_ends_clear (TriageAskHookHereDocumentEnds *self)
{
  g_clear_pointer (&self->last, g_hash_table_unref);
  g_clear_pointer (&self->last_untabbed, g_hash_table_unref);
}

/* Whether the line that ends the here-document of @delimiter comes at or after @p. */
static gboolean
here_document_end_comes (TriageAskHookHereDocumentEnds *self,
                         const char                    *delimiter,
                         const char                    *p)
{
  gsize where;

  if (self->last == NULL)
    {
      self->last = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      self->last_untabbed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      for (const char *line = self->text; ; line++)
        {
          const char *line_end = triage_ask_hook_end_of_line (line);
          const char *untabbed = line;
          gpointer start = GSIZE_TO_POINTER (line - self->text + 1);

          while (*untabbed == '\t')
            untabbed++;
          g_hash_table_replace (self->last, g_strndup (line, line_end - line), start);
          g_hash_table_replace (self->last_untabbed,
                                g_strndup (untabbed, line_end - untabbed), start);
          if (*line_end == '\0')
            break;
          line = line_end;
        }
    }
  where = GPOINTER_TO_SIZE (g_hash_table_lookup (delimiter[0] == '-' ? self->last_untabbed
                                                                      : self->last,
                                                 delimiter + 1));
  return where > 0 && where - 1 >= (gsize) (p - self->text);
}

/* Takes the bodies of the here-documents @delimiters opened on the line before @p,
 * each up to its delimiter's line, into @bodies; returns where the shell reads
 * commands again. One whose delimiter's line never comes runs to the end at the top,
 * as in bash; below it, in a body or a quoted word, it was none (std::cout << "x" in
 * the C++ a here-document writes), and its lines are read as they are. */
const char *
triage_ask_hook_take_here_documents (const char                    *p,
                                     GPtrArray                     *delimiters,
                                     GPtrArray                     *bodies,
                                     gboolean                       top,
                                     gboolean                       in_substitution,
                                     TriageAskHookHereDocumentEnds *ends)
{
  for (guint i = 0; i < delimiters->len; i++)
    {
      const char *delimiter = g_ptr_array_index (delimiters, i);
      gsize length = strlen (delimiter + 1);
      const char *body = p;
      const char *body_end = p;

      if (!top && !here_document_end_comes (ends, delimiter, p))
        break;
      while (*p != '\0')
        {
          const char *line = p;
          const char *line_end = triage_ask_hook_end_of_line (p);
          const char *closing;

          p = *line_end == '\n' ? line_end + 1 : line_end;
          if (delimiter[0] == '-')
            while (*line == '\t')
              line++;
          if ((gsize) (line_end - line) == length && strncmp (line, delimiter + 1, length) == 0)
            break;
          /* In a "$(…)" bash 5.2 ends it at its word and the ) too: EOF)" && … */
          if (in_substitution && strncmp (line, delimiter + 1, length) == 0 &&
              *(closing = line + length + strspn (line + length, " \t")) == ')')
            {
              g_ptr_array_add (bodies, g_strndup (body, body_end - body));
              g_ptr_array_set_size (delimiters, 0);
              return closing;
            }
          body_end = line_end;
        }
      g_ptr_array_add (bodies, g_strndup (body, body_end - body));
    }
  g_ptr_array_set_size (delimiters, 0);
  return p;
}
