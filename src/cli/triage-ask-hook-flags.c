/* triage-ask-hook-flags.c — the flags a coding agent's command earns: destructive, irreversible
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-ask"

#include "triage-ask-hook-flags.h"
#include "triage-ask-hook-ansi-c.h"
#include "triage-ask-hook-here-document.h"
#include "triage-ask-hook-patterns.h"

#include <string.h>

/* A command is checked one command at a time (between ;, &, | and line ends, the ; kept
 * on its end, as SQL's statements end; a line continued with \ kept whole: `.` matches
 * its newline too), at most this much of each and of the whole: the patterns cost what
 * they scan (10,000 "git push " on one line once held the hook for 49 s), and the
 * reading below several times that. What is left unchecked makes Allow ask for a
 * confirmation all the same. */
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

/* Whether the ;, &, | or line end at @p of @text ends a command: not the & of a
 * redirection (>&2, 2>&1, &>FILE), nor a line end continued with \. */
static gboolean
ends_command (const char *text,
              const char *p)
{
  if (*p == '&')
    return !((p > text && (p[-1] == '>' || p[-1] == '<')) || p[1] == '>');
  if (*p == '\n')
    return !(p > text && p[-1] == '\\');
  return *p == ';' || *p == '|';
}

/* Matches @patterns against @text one command at a time, as said above. */
static void
match_commands (TriageAskHookPatterns *patterns,
                const char            *text,
                const char            *end,
                TriageAskHookVerdict  *verdict)
{
  for (const char *p = text; p < end; )
    {
      const char *q = p;
      g_autofree char *segment = NULL;
      gsize length;

      while (q < end && !ends_command (text, q))
        q++;
      length = q - p + (q < end && *q == ';');
      if (length > FLAG_CHECK_MAX_SEGMENT)
        {
          length = whole_characters (p, FLAG_CHECK_MAX_SEGMENT);
          verdict->unchecked = TRUE;
        }
      segment = g_strndup (p, length);
      triage_ask_hook_patterns_match (patterns, segment, verdict);
      p = q + 1;
    }
}

/* How many times quotes are taken off: `bash -c "'rm' -rf x"` needs two. */
#define FLAG_UNQUOTE_DEPTH 4

/* How far on its line arithmetic, $(( )) or (( )), is looked for: a << in it shifts
 * and opens no here-document. Past this, (( is two parentheses, so that 64 KiB of (((…
 * take no square time; a << then taken for a here-document hides nothing, as a
 * body is read too (below). */
#define FLAG_ARITHMETIC_MAX 256

/* Where the arithmetic that opened with (( just before @p ends, after its )); NULL when
 * its parentheses do not close so on its line (then it was none). */
static const char *
end_of_arithmetic (const char *p)
{
  guint open = 0;

  for (gsize i = 0; i < FLAG_ARITHMETIC_MAX && p[i] != '\0' && p[i] != '\n'; i++)
    if (p[i] == '(')
      open++;
    else if (p[i] == ')' && open > 0)
      open--;
    else if (p[i] == ')')
      return p[i + 1] == ')' ? p + i + 2 : NULL;
  return NULL;
}

/* The shell's quoting at a point: the quotes open there, the innermost last: ' " and `
 * (in "…" too; it ends at the next `, quoted or not, as bash finds its end), $ for
 * bash's $'…' (a backslash escapes in it as in "…"), and ( for a $( inside "…", where
 * quotes open anew ("$(echo "it's")" is one word). */
typedef struct
{
  char  open[32];
  guint depth;
} Quoting;

static char
quoting_top (const Quoting *q)
{
  return q->depth > 0 ? q->open[MIN (q->depth, G_N_ELEMENTS (q->open)) - 1] : 0;
}

static void
quoting_push (Quoting *q,
              char     c)
{
  if (q->depth < G_N_ELEMENTS (q->open))
    q->open[q->depth] = c;
  q->depth++;   /* past the bound, counted: the levels are closed all the same */
}

/* Whether a " at this point lies within an outer "…" (inside its $(…)), which
 * g_shell_parse_argv () would take it to end. */
static gboolean
quoting_within_double (const Quoting *q)
{
  guint below = MIN (q->depth, G_N_ELEMENTS (q->open));

  if (quoting_top (q) == '"')
    below--;   /* a " here closes that one */
  for (guint i = 0; i < below; i++)
    if (q->open[i] == '"')
      return TRUE;
  return FALSE;
}

/* One step of the shell's quoting at @p, @q updated for what is there; returns where
 * the next step starts (after a backslash and what it escapes, after $', $( or $$). */
static const char *
quote_step (const char *p,
            Quoting    *q)
{
  char top = quoting_top (q);

  if (top == '\'')
    {
      if (*p == '\'')
        q->depth--;
      return p + 1;
    }
  if (*p == '\\')
    return p + 1 + (p[1] != '\0');
  if (p[0] == '$' && p[1] == '$')
    return p + 2;   /* the shell's pid: $$'…' is no $'…' */
  if ((top == 0 || top == '(') && p[0] == '$' && p[1] == '\'')
    {
      quoting_push (q, '$');
      return p + 2;
    }
  if (top == '"' && p[0] == '$' && p[1] == '(')
    {
      quoting_push (q, '(');
      return p + 2;
    }
  if (((top == 0 || top == '(') && (*p == '\'' || *p == '"' || *p == '`')) ||
      (top == '"' && *p == '`'))
    quoting_push (q, *p);
  else if (top == '(' && *p == '(')
    quoting_push (q, '(');
  else if ((top == '"' && *p == '"') || (top == '`' && *p == '`') ||
           (top == '$' && *p == '\'') || (top == '(' && *p == ')'))
    q->depth--;
  return p + 1;
}

/* @command with bash's quotes that g_shell_parse_argv () does not know written as ones
 * it does: $'…' (ANSI-C quoting: $'\x72\x6d' is rm, and \' in it is a quote) as '…',
 * and $"…" (a string to translate) as "…"; # as \#: shell_commands () took the
 * comments out, and g_shell_parse_argv () would take `x\ #y` for one; and the quotes
 * of a "$(…)" inside as \". Valid UTF-8. */
static char *
without_bash_quotes (const char *command)
{
  g_autoptr(GString) out = g_string_sized_new (strlen (command));
  Quoting q = { 0 };

  for (const char *p = command; *p != '\0'; )
    {
      char top = quoting_top (&q);
      const char *next;

      if (top == 0 && p[0] == '$' && p[1] == '"')
        next = p + 1;
      else if ((top == 0 || top == '(') && p[0] == '$' && p[1] == '\'')
        next = triage_ask_hook_append_ansi_c_quoted (out, p + 2);
      else if ((top == 0 || top == '`') && *p == '#')
        {
          g_string_append (out, "\\#");
          next = p + 1;
        }
      else if (*p == '"' && quoting_within_double (&q))
        {
          g_string_append (out, "\\\"");   /* "$(echo "a")": the inner quotes escaped */
          next = quote_step (p, &q);
        }
      else
        {
          next = quote_step (p, &q);
          g_string_append_len (out, p, next - p);
        }
      p = next;
    }
  return g_utf8_make_valid (out->str, out->len);
}

/* Where the parameter expansion that opened with ${ just before @p ends, after its },
 * within FLAG_ARITHMETIC_MAX bytes of its line; NULL when it does not close so. */
static const char *
end_of_braces (const char *p)
{
  const char *end = p;
  guint open = 1;
  Quoting q = { 0 };

  while (*end != '\0' && *end != '\n' && end - p < FLAG_ARITHMETIC_MAX)
    {
      if (q.depth == 0 && end[0] == '$' && end[1] == '{')
        open++;   /* a { alone opens nothing: ${x:-{} is "{" */
      else if (q.depth == 0 && *end == '}' && --open == 0)
        return end + 1;
      end = quote_step (end, &q);
    }
  return NULL;
}

/* How many `…` bodies of a text are read at most, each on its own: 11,600 `'x'` took
 * 0.1 s. */
#define FLAG_BACKTICKS_MAX 512

/* @text's commands as the shell splits them: at a ;, &, | or line end outside quotes,
 * without a # comment (a # that starts a word: `x\ #y` has none); a here-document's
 * body (<<WORD, <<'WORD', <<-WORD: its lines up to WORD) is in none, but in @bodies:
 * what reads it may be a shell; so is a `…`'s body, which is in its command too, and
 * read as a command then ("`{rm,-rf,x}`"; past FLAG_BACKTICKS_MAX, @unchecked). A <<
 * inside $(( )) or (( )) is a shift, and a #, ;, & or | inside ${…} is a word's (one
 * that does not close soon is @unchecked). A quote that never closes runs to the end. */
static GPtrArray *
shell_commands (const char *text,
                gboolean    top,
                GPtrArray  *bodies,
                GArray     *comments,
                gboolean   *unchecked)
{
  GPtrArray *commands = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) delimiters = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) command = g_string_new (NULL);   /* the command up to @start */
  TriageAskHookHereDocumentEnds ends = { .text = text };
  const char *start = text;
  const char *p = text;
  gboolean word_start = TRUE;   /* @p starts a word: a # there starts a comment */
  gboolean comment_end = FALSE;   /* @p ends a comment's line: a \ before is the comment's */
  const char *backtick = NULL;   /* where the `…` open at @p starts */
  guint backticks = 0;   /* how many `…` bodies are in @bodies */
  Quoting q = { 0 };

  while (*p != '\0')
    {
      /* Where the shell reads commands: at the top, or in a "$(…)" */
      gboolean code = q.depth == 0 || quoting_top (&q) == '(';
      gboolean after_comment = comment_end;
      const char *arithmetic_end = NULL;

      comment_end = FALSE;
      if (code && *p == '#' && word_start)
        {
          g_string_append_len (command, start, p - start);
          if (comments != NULL)
            g_array_append_vals (comments,
                                 (gsize[]) { p - text, triage_ask_hook_end_of_line (p) - text },
                                 2);
          p = start = triage_ask_hook_end_of_line (p);   /* the comment left out */
          comment_end = TRUE;
          continue;
        }
      else if (code && p[0] == '$' && p[1] == '{')
        {
          const char *braces_end = end_of_braces (p + 2);

          if (braces_end != NULL)
            p = braces_end - 1;
          else
            {
              *unchecked = TRUE;   /* read as it is: what it holds may hide */
              p++;
            }
        }
      else if (code && p[0] == '(' && p[1] == '(' &&
               (arithmetic_end = end_of_arithmetic (p + 2)) != NULL)
        p = arithmetic_end - 1;
      else if (quoting_top (&q) == '"' && p[0] == '$' && p[1] == '(' && p[2] == '(' &&
               (arithmetic_end = end_of_arithmetic (p + 3)) != NULL)
        p = arithmetic_end - 1;   /* "$((1<<3))" */
      else if (code && p[0] == '<' && p[1] == '<' && p[2] != '<' &&
               (p == text || p[-1] != '<'))
        p = triage_ask_hook_read_here_document_word (p + 2, delimiters) - 1;
      else if (q.depth == 0 && (ends_command (text, p) || (after_comment && *p == '\n')))
        {
          g_string_append_len (command, start, p - start);
          g_ptr_array_add (commands, g_strdup (command->str));
          g_string_truncate (command, 0);
          start = *p == '\n' ? triage_ask_hook_take_here_documents (p + 1, delimiters, bodies,
                                                                     top, FALSE, &ends)
                             : p + 1;
          p = start;
          word_start = TRUE;
          continue;
        }
      else if (code && *p == '\n' && delimiters->len > 0)
        {
          /* A here-document in a "$(…)": git commit -m "$(cat <<'EOF' …)". Its body is
           * left out of the command, as at the top. */
          g_string_append_len (command, start, p + 1 - start);
          p = start = triage_ask_hook_take_here_documents (p + 1, delimiters, bodies, top, TRUE,
                                                           &ends);
          word_start = TRUE;
          continue;
        }
      else if (code && p[0] == '\\' && p[1] == '\n')
        {
          p += 2;   /* a continued line: gone for the shell, `a \⏎#` is `a #` */
          continue;
        }
      else
        {
          /* A backslash takes what it escapes. $(…)# and x\ # start no word; "$(# does. */
          guint depth = q.depth;
          const char *next = quote_step (p, &q);

          if (q.depth > depth && quoting_top (&q) == '`')
            backtick = next;
          else if (q.depth < depth && *p == '`' && backtick != NULL)
            {
              g_autofree char *body = g_strndup (backtick, p - backtick);
              /* One with no braces, $ or quotes reads as it is written: 17,500 `x⏎`
               * read again took half as long again. */
              gboolean read = strpbrk (body, "{$'\"\\") != NULL;

              if (read && ++backticks <= FLAG_BACKTICKS_MAX)
                g_ptr_array_add (bodies, g_steal_pointer (&body));
              else if (read)
                *unchecked = TRUE;
              backtick = NULL;
            }

          word_start = (code && next == p + 1 && strchr (" \t\n(;&|", *p) != NULL) ||
                       (*p == '$' && p[1] == '(' && quoting_top (&q) == '(');
          p = next;
          continue;
        }
      word_start = FALSE;
      p++;
    }
  g_string_append_len (command, start, p - start);
  g_ptr_array_add (commands, g_string_free (g_steal_pointer (&command), FALSE));
  triage_ask_hook_here_document_ends_clear (&ends);
  return commands;
}

/* @text with its continued lines joined, as the shell joins them: a \ that ends a
 * line taken out with the line end (not an escaped one: a\\⏎b is two lines). */
static char *
continued_lines_joined (const char *text)
{
  GString *whole = g_string_sized_new (strlen (text));

  for (const char *p = text; *p != '\0'; p++)
    if (p[0] == '\\' && p[1] == '\n')
      p++;
    else if (p[0] == '\\' && p[1] == '\\')
      g_string_append_len (whole, p++, 2);
    else
      g_string_append_c (whole, *p);
  return g_string_free (whole, FALSE);
}

/* A line below the top whose quotes do not close, which the shell would refuse: a
 * here-document's prose ("It's a dog's life"), or a command hidden after a stray
 * quote ("It's; r''m -rf x"). Matched with bash's quotes read and then every quote and
 * backslash taken out, the words run together as they would be had the quotes
 * closed. */
static void
match_without_quotes (TriageAskHookPatterns *patterns,
                      const char            *line,
                      TriageAskHookVerdict  *verdict)
{
  g_autofree char *plain = without_bash_quotes (line);
  g_autoptr(GString) bare = g_string_sized_new (strlen (plain));
  Quoting q = { 0 };

  for (const char *p = plain; *p != '\0'; )
    {
      gboolean quoted = q.depth > 0;
      const char *next = quote_step (p, &q);

      for (; p < next; p++)
        if (quoted && strchr (";&|", *p) != NULL)
          g_string_append_c (bare, ' ');   /* rm "a;b" -rf: one command */
        else if (strchr ("'\"\\", *p) == NULL)
          g_string_append_c (bare, *p);
    }
  match_commands (patterns, bare->str, bare->str + bare->len, verdict);
}

/* The letters of bash's sequence expression {X..Y} or {X..Y..STEP} from @start to @end
 * ({r..r} is r, {Z..a} runs through [ \ ] ^ _ ` too, each then escaped); NULL when it is
 * none. A numeric one ({1..100}) makes no command's name and is left as it is. */
static GPtrArray *
letter_sequence (const char *start,
                 const char *end)
{
  GPtrArray *letters;
  char first, last;
  gint64 step = 1;

  if (end - start < 4 || !g_ascii_isalpha (start[0]) || strncmp (start + 1, "..", 2) != 0 ||
      !g_ascii_isalpha (start[3]))
    return NULL;
  first = start[0];
  last = start[3];
  if (end - start > 4)
    {
      g_autofree char *text = NULL;

      if (end - start < 7 || strncmp (start + 4, "..", 2) != 0)
        return NULL;
      text = g_strndup (start + 6, end - start - 6);
      if (!g_ascii_string_to_signed (text, 10, G_MININT32, G_MAXINT32, &step, NULL))
        return NULL;
      step = CLAMP (ABS (step), 1, 64);   /* past z from A in one */
    }
  letters = g_ptr_array_new_with_free_func (g_free);
  for (int c = first; first <= last ? c <= last : c >= last; c += first <= last ? step : -step)
    g_ptr_array_add (letters, g_ascii_isalpha (c) ? g_strdup_printf ("%c", c)
                                                  : g_strdup_printf ("\\%c", c));
  return letters;
}

/* @command with its first brace expansion done, as bash does it: {rm,-rf,x} is rm -rf x,
 * r{m,} is rm r, {r..r}m is rm; NULL when it has none (outside quotes, a {…} in one word
 * with a , at its own level, or a sequence of letters), or when it would make more than
 * @most bytes (@too_long). */
static char *
first_braces_expanded (const char *command,
                       gsize       most,
                       gboolean   *too_long)
{
  const char *word = command;   /* where the word around @p starts */
  Quoting q = { 0 };

  for (const char *p = command; *p != '\0'; )
    {
      g_autoptr(GPtrArray) commas = NULL;   /* the , of the braces, then their } */
      g_autoptr(GPtrArray) alternatives = NULL;   /* what the braces make, in turn */
      const char *end;
      guint open = 0;

      if (q.depth == 0 && strchr (" \t\n;&|()<>", *p) != NULL)
        word = p + 1;
      if (q.depth > 0 || *p != '{' || (p > command && p[-1] == '$'))
        {
          p = quote_step (p, &q);
          continue;
        }
      commas = g_ptr_array_new ();
      for (end = p; *end != '\0'; )
        {
          if (q.depth == 0 && strchr (" \t\n;&|()<>", *end) != NULL)
            break;
          if (q.depth == 0 && *end == '{')
            open++;
          else if (q.depth == 0 && *end == ',' && open == 1)
            g_ptr_array_add (commas, (gpointer) end);
          else if (q.depth == 0 && *end == '}' && --open == 0)
            break;
          end = quote_step (end, &q);
        }
      if (*end == '}' && commas->len > 0)
        {
          alternatives = g_ptr_array_new_with_free_func (g_free);
          g_ptr_array_add (commas, (gpointer) end);
          for (guint i = 0; i < commas->len; i++)
            {
              const char *alternative = i == 0 ? p + 1 : (const char *) commas->pdata[i - 1] + 1;

              g_ptr_array_add (alternatives,
                               g_strndup (alternative, (const char *) commas->pdata[i] - alternative));
            }
        }
      else if (*end == '}')
        alternatives = letter_sequence (p + 1, end);
      if (alternatives != NULL)
        {
          const char *word_end = end;
          GString *out = g_string_new_len (command, word - command);

          while (*word_end != '\0' && (q.depth > 0 || strchr (" \t\n;&|()<>", *word_end) == NULL))
            word_end = quote_step (word_end, &q);
          for (guint i = 0; i < alternatives->len; i++)
            {
              g_string_append_len (out, word, p - word);
              g_string_append (out, alternatives->pdata[i]);
              g_string_append_len (out, end + 1, word_end - end - 1);
              if (i + 1 < alternatives->len)
                g_string_append_c (out, ' ');
              if (out->len > most)
                {
                  *too_long = TRUE;   /* {a,a,…} 10,000 times after a long word */
                  g_string_free (out, TRUE);
                  return NULL;
                }
            }
          g_string_append (out, word_end);
          return g_string_free (out, FALSE);
        }
      p = end;   /* what follows is read on from where these braces broke off */
    }
  return NULL;
}

/* How many brace expansions a command is read with at most, and how much longer than
 * the command what they make may be: mkdir -p src/{a,b}/{c,d}/{e,f} takes 7. */
#define FLAG_BRACES_MAX 64
#define FLAG_BRACES_GROWTH 1024

/* @command with its brace expansions done; NULL when it has none, or when they are
 * too many or make too much to read, or it is longer than is checked (@unchecked). */
static char *
brace_expanded (const char *command,
                gboolean   *unchecked)
{
  gsize most = 2 * strlen (command) + FLAG_BRACES_GROWTH;
  gboolean too_long = FALSE;
  g_autofree char *expanded = NULL;

  if (strlen (command) > FLAG_CHECK_MAX_SEGMENT)
    {
      /* Not checked whole anyway; its braces would cost the square of it. */
      *unchecked |= strchr (command, '{') != NULL;
      return NULL;
    }
  expanded = first_braces_expanded (command, most, &too_long);

  for (guint i = 1; expanded != NULL; i++)
    {
      char *next = first_braces_expanded (expanded, most, &too_long);

      if (next == NULL)
        break;
      g_free (expanded);
      expanded = next;
      if (i == FLAG_BRACES_MAX)
        {
          too_long = TRUE;
          break;
        }
    }
  if (too_long)
    {
      *unchecked = TRUE;
      return NULL;
    }
  return g_steal_pointer (&expanded);
}

/* Matches @patterns against each command of @text again with its words as the shell
 * reads them ('rm', r""m, r\m and $'\x72m' are rm), joined by spaces, and so on down to
 * FLAG_UNQUOTE_DEPTH for the quotes inside a quoted word (bash -c "…"). A command whose
 * quotes do not close is not what it seems to the patterns: @unchecked, for the person
 * to confirm; below the top, an unclosed quote is only text ("don't"): the lines after
 * it are read one at a time, and its own line with its quotes taken out. A
 * here-document's body is read so too, one level down: whether it is data (cat) or
 * commands (bash, ssh, python's os.system) the text cannot tell, and as written the
 * first reading flags it all the same. One nested deeper than FLAG_UNQUOTE_DEPTH, with
 * quotes left to take off, is @unchecked. */
static void
match_unquoted_commands (TriageAskHookPatterns *patterns,
                         const char            *text,
                         guint                  depth,
                         GArray                *comments,
                         TriageAskHookVerdict  *verdict)
{
  g_autoptr(GPtrArray) bodies = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) commands = shell_commands (text, depth == 0, bodies, comments,
                                                    &verdict->unchecked);

  for (guint i = 0; i < commands->len; i++)
    {
      const char *command = g_ptr_array_index (commands, i);
      g_autofree char *plain = without_bash_quotes (command);
      g_auto(GStrv) words = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *joined = NULL;
      g_autofree char *flat = NULL;
      gboolean spaced = FALSE;   /* a word has white space in it */
      g_autofree char *expanded = brace_expanded (command, &verdict->unchecked);

      if (expanded != NULL)
        {
          match_commands (patterns, expanded, expanded + strlen (expanded), verdict);
          if (depth + 1 < FLAG_UNQUOTE_DEPTH)
            match_unquoted_commands (patterns, expanded, depth + 1, NULL, verdict);
          else
            verdict->unchecked = TRUE;
        }
      if (!g_shell_parse_argv (plain, NULL, &words, &error))
        {
          if (!g_error_matches (error, G_SHELL_ERROR, G_SHELL_ERROR_BAD_QUOTING))
            continue;
          if (depth == 0)
            verdict->unchecked = TRUE;
          else if (strchr (command, '\n') != NULL)
            {
              g_autofree char *whole = continued_lines_joined (command);
              g_auto(GStrv) lines = g_strsplit (whole, "\n", -1);

              for (guint j = 0; lines[j] != NULL; j++)
                match_unquoted_commands (patterns, lines[j], depth, NULL, verdict);
            }
          else
            match_without_quotes (patterns, command, verdict);
          continue;
        }
      joined = g_strjoinv (" ", words);
      if (g_str_equal (joined, command))
        continue;
      /* rm "a;b" -rf is one command: what would split it inside a word does not; and
       * a word with spaces is one (git -C "my repo" push -f), read again so. */
      for (guint j = 0; words[j] != NULL; j++)
        g_strdelimit (words[j], ";&|", ' ');
      flat = g_strjoinv (" ", words);
      match_commands (patterns, flat, flat + strlen (flat), verdict);
      for (guint j = 0; words[j] != NULL; j++)
        if (strpbrk (words[j], " \t\n") != NULL)
          spaced = TRUE;
      for (guint j = 0; spaced && words[j] != NULL; j++)
        g_strdelimit (words[j], " \t\n", '_');
      g_free (flat);
      flat = spaced ? g_strjoinv (" ", words) : NULL;
      if (spaced)
        match_commands (patterns, flat, flat + strlen (flat), verdict);
      if (depth + 1 < FLAG_UNQUOTE_DEPTH)
        match_unquoted_commands (patterns, joined, depth + 1, NULL, verdict);
      else if (strpbrk (joined, "'\"\\") != NULL)
        verdict->unchecked = TRUE;
    }
  for (guint i = 0; i < bodies->len; i++)
    {
      const char *body = g_ptr_array_index (bodies, i);

      if (depth + 1 < FLAG_UNQUOTE_DEPTH)
        match_unquoted_commands (patterns, body, depth + 1, NULL, verdict);
      else if (strpbrk (body, "'\"\\") != NULL)
        verdict->unchecked = TRUE;
    }
}

void
triage_ask_hook_flag_command (const char *command,
                              JsonArray  *flags)
{
  g_autoptr(TriageAskHookPatterns) patterns = triage_ask_hook_patterns_new ();
  gsize total = strlen (command);
  gsize checked = whole_characters (command, MIN (total, FLAG_CHECK_MAX));
  g_autofree char *text = g_strndup (command, checked);
  TriageAskHookVerdict verdict = { .unchecked = total > FLAG_CHECK_MAX };
  g_autoptr(GArray) comments = g_array_new (FALSE, FALSE, sizeof (gsize));

  /* One command at a time, so a line break between two is kept, and each is cut at
   * FLAG_CHECK_MAX_SEGMENT as above, not the whole. */
  match_unquoted_commands (patterns, text, 0, comments, &verdict);
  /* As written too, but for the comments: `git push  # never -f` pushes no -f. */
  for (guint i = 0; i < comments->len; i += 2)
    memset (text + g_array_index (comments, gsize, i), ' ',
            g_array_index (comments, gsize, i + 1) - g_array_index (comments, gsize, i));
  match_commands (patterns, text, text + checked, &verdict);

  if (verdict.destructive)
    json_array_add_string_element (flags, "destructive");
  if (verdict.irreversible)
    json_array_add_string_element (flags, "irreversible");
  if (verdict.unchecked)
    json_array_add_string_element (flags, "requires_confirmation");
}
