/* triage-ask-hook-flags.c — the flags a coding agent's command earns: destructive, irreversible
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-ask"

#include "triage-ask-hook-flags.h"

#include <string.h>

/* Commands that destroy or cannot be undone: the flags the person is shown,
 * and that make the app ask for a confirmation before Allow is sent. */
static const struct
{
  const char *pattern;
  gboolean    irreversible;
} dangerous_commands[] = {
  /* rm -rf, rm -r, and GNU's rm DIR -rf: options after the files, up to the end of
   * that command (;, &, |). */
  { "\\brm\\s+([^\\s;&|]+\\s+)*(-[a-zA-Z]*[rR]|--recursive\\b)", TRUE },
  { "\\bfind\\b.*\\s-delete\\b", TRUE },
  { "\\bgit\\s+push\\b.*(\\s--force(-with-lease)?\\b|\\s-[a-zA-Z]*f\\b|\\s\\+\\S)", TRUE },
  { "\\bgit\\s+push\\b[^;&|]*(\\s--delete\\b|\\s-d\\b|\\s:[^\\s;&|])", TRUE }, /* a remote branch */
  { "\\bgit\\s+(checkout|restore)\\s+(--\\s+)?\\.(\\s|[;&|]|$)", TRUE }, /* uncommitted work */
  { "\\bgit\\s+reset\\s+(\\S+\\s+)*--hard\\b", TRUE },
  { "\\bgit\\s+clean\\s+(\\S+\\s+)*-[a-zA-Z]*f", TRUE },
  { "\\bgit\\s+branch\\s+(\\S+\\s+)*-D\\b", FALSE },
  { "(?i)\\bdrop\\s+(table|database|schema|index|view)\\b", TRUE },
  { "(?i)\\btruncate\\s+(table\\s+)?\\w", TRUE },
  { "(?i)\\bdelete\\s+from\\b", TRUE },
  { "\\bmkfs(\\.\\w+)?\\b|\\bwipefs\\b|\\bshred\\b|\\bdd\\s+(\\S+\\s+)*of=", TRUE },
  { ">\\s*/dev/(sd|nvme|hd|vd)", TRUE },
  { "\\b(chmod|chown)\\s+(\\S+\\s+)*-[a-zA-Z]*R", FALSE },
  { "\\bkubectl\\s+delete\\b|\\bterraform\\s+destroy\\b|\\bhelm\\s+uninstall\\b", TRUE },
  { "\\bdocker\\s+(system\\s+prune|volume\\s+(rm|prune)|rm|rmi)\\b", FALSE },
  { "(?i)\\bRemove-Item\\b.*-Recurse", TRUE },
};

/* A command is checked one command at a time (between ;, &, | and line ends, a line
 * continued with \ kept whole: `.` matches its newline too), at most this much of each and of the whole: the
 * patterns' cost grows with the square of what they scan, and 10,000 "git push "
 * on one line held the hook for 49 s. What is left unchecked makes Allow ask for
 * a confirmation all the same. */
#define FLAG_CHECK_MAX          (64 * 1024)
#define FLAG_CHECK_MAX_SEGMENT  4096

/* @length cut back to the start of the UTF-8 character it would split. */
static gsize
whole_characters (const char *text,
                  gsize       length)
{
  while (length > 0 && (text[length] & 0xC0) == 0x80)
    length--;
  return length;
}

/* Matches @patterns against @text one command at a time, as said above. */
static void
match_commands (GRegex     **patterns,
                const char  *text,
                const char  *end,
                gboolean    *destructive,
                gboolean    *irreversible,
                gboolean    *unchecked)
{
  for (const char *p = text; p < end; )
    {
      const char *q = p;
      g_autofree char *segment = NULL;
      gsize length;

      while (q < end && *q != ';' && *q != '&' && *q != '|' &&
             !(*q == '\n' && !(q > text && q[-1] == '\\')))
        q++;
      length = q - p;
      if (length > FLAG_CHECK_MAX_SEGMENT)
        {
          length = whole_characters (p, FLAG_CHECK_MAX_SEGMENT);
          *unchecked = TRUE;
        }
      segment = g_strndup (p, length);
      for (guint i = 0; i < G_N_ELEMENTS (dangerous_commands); i++)
        if (g_regex_match (patterns[i], segment, 0, NULL))
          {
            *destructive = TRUE;
            *irreversible |= dangerous_commands[i].irreversible;
          }
      p = q + 1;
    }
}

/* How many times quotes are taken off: `bash -c "'rm' -rf x"` needs two. */
#define FLAG_UNQUOTE_DEPTH 4

void
triage_ask_hook_flag_command (const char *command,
                              JsonArray  *flags)
{
  GRegex *patterns[G_N_ELEMENTS (dangerous_commands)];
  gsize total = strlen (command);
  gsize checked = whole_characters (command, MIN (total, FLAG_CHECK_MAX));
  g_autofree char *text = g_strndup (command, checked);
  gboolean unchecked = total > FLAG_CHECK_MAX;
  gboolean destructive = FALSE;
  gboolean irreversible = FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (dangerous_commands); i++)
    patterns[i] = g_regex_new (dangerous_commands[i].pattern,
                               G_REGEX_MULTILINE | G_REGEX_DOTALL | G_REGEX_OPTIMIZE, 0, NULL);

  match_commands (patterns, text, text + checked, &destructive, &irreversible, &unchecked);

  /* The command again with its words as the shell reads them: 'rm', r""m and r\m
   * are rm. Words are joined by spaces (a line break between two commands is
   * lost, which can only flag more). A command whose quotes do not close is not
   * what it seems to the patterns: the person confirms it. Quotes inside a quoted
   * word (bash -c "…") are taken off the next time round, where an unclosed one
   * is only text ("don't"). */
  for (guint depth = 0; depth < FLAG_UNQUOTE_DEPTH; depth++)
    {
      g_auto(GStrv) words = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *joined = NULL;

      if (!g_shell_parse_argv (text, NULL, &words, &error))
        {
          if (depth == 0 && !unchecked &&
              g_error_matches (error, G_SHELL_ERROR, G_SHELL_ERROR_BAD_QUOTING))
            unchecked = TRUE;
          break;
        }
      joined = g_strjoinv (" ", words);
      if (g_str_equal (joined, text))
        break;
      match_commands (patterns, joined, joined + strlen (joined),
                      &destructive, &irreversible, &unchecked);
      g_free (text);
      text = g_steal_pointer (&joined);
    }

  for (guint i = 0; i < G_N_ELEMENTS (dangerous_commands); i++)
    g_regex_unref (patterns[i]);

  if (destructive)
    json_array_add_string_element (flags, "destructive");
  if (irreversible)
    json_array_add_string_element (flags, "irreversible");
  if (unchecked)
    json_array_add_string_element (flags, "requires_confirmation");
}
