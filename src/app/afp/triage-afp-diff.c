/* triage-afp-diff.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-afp-diff"

#include <string.h>

#include "triage-afp-diff.h"

/*
 * A line diff of two artifacts, for a review's iteration 2 and later: what
 * the agent changed since the person last looked. Myers' O((N+M)·D)
 * algorithm (“An O(ND) Difference Algorithm and Its Variations”, 1986) over
 * lines interned to integers (a hash table of the lines of both texts), so
 * comparing two lines is comparing two numbers. The common head and tail
 * are taken off first: an agent's next iteration mostly changes a few
 * places of a long text. Past %TRIAGE_AFP_DIFF_MAX_EDITS changed lines (a
 * rewrite, where a minimal diff says nothing more than "all new") the
 * middle is reported as removed, then added, which bounds the memory of
 * the search (about MAX_EDITS² integers: 16 MB).
 */

struct _TriageAfpDiff
{
  char   *old_copy;
  char   *new_copy;
  GArray *lines;        /* TriageAfpDiffLine */
  guint   n_added;
  guint   n_removed;
};

/* Splits @text (modified in place) at line breaks; a final break ends the last line. */
static GPtrArray *
split_lines (char *text)
{
  GPtrArray *lines = g_ptr_array_new ();
  char *start = text;

  if (*text == '\0')
    return lines;

  for (char *p = text; ; p++)
    {
      if (*p == '\n' || *p == '\0')
        {
          gboolean end = *p == '\0';

          if (p > start && p[-1] == '\r')
            p[-1] = '\0';
          *p = '\0';
          g_ptr_array_add (lines, start);
          if (end || p[1] == '\0')
            break;
          start = p + 1;
        }
    }

  return lines;
}

static void
add_line (TriageAfpDiff     *self,
          TriageAfpDiffKind  kind,
          const char        *line,
          guint              old_number,
          guint              new_number)
{
  TriageAfpDiffLine entry = { kind, line, old_number, new_number };

  g_array_append_val (self->lines, entry);
  if (kind == TRIAGE_AFP_DIFF_ADDED)
    self->n_added++;
  else if (kind == TRIAGE_AFP_DIFF_REMOVED)
    self->n_removed++;
}

/*
 * Myers' forward search over a[0..n) and b[0..m), keeping each round's
 * frontier to walk back the path. Returns the edit script as a string of
 * 'S', 'R', 'A' (same, removed, added) in order, or NULL past @max_d edits.
 */
static char *
myers (const guint *a,
       guint        n,
       const guint *b,
       guint        m,
       guint        max_d)
{
  gint offset = (gint) max_d + 1;
  gint size = 2 * offset + 1;
  g_autofree gint *v = g_new0 (gint, size);
  g_autoptr(GPtrArray) trace = g_ptr_array_new_with_free_func (g_free);
  GString *script;
  gint x, y, d, found = -1;

  v[offset + 1] = 0;
  for (d = 0; d <= (gint) max_d && found < 0; d++)
    {
      /* Only the diagonals −d…d are read in round d+1: keep those. */
      gint *saved = g_new (gint, 2 * d + 3);

      memcpy (saved, v + offset - d - 1, sizeof (gint) * (2 * d + 3));
      g_ptr_array_add (trace, saved);

      for (gint k = -d; k <= d; k += 2)
        {
          if (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]))
            x = v[offset + k + 1];
          else
            x = v[offset + k - 1] + 1;
          y = x - k;
          while (x < (gint) n && y < (gint) m && a[x] == b[y])
            x++, y++;
          v[offset + k] = x;
          if (x >= (gint) n && y >= (gint) m)
            {
              found = d;
              break;
            }
        }
    }

  if (found < 0)
    return NULL;

  /* Walk back from (n, m), writing the script in reverse. */
  script = g_string_sized_new (n + m);
  x = (gint) n;
  y = (gint) m;
  for (d = found; d > 0; d--)
    {
      const gint *prev = trace->pdata[d];   /* v before round d: diagonal k at k+d+1 */
      gint k = x - y;
      gint prev_k, prev_x, prev_y;

#define PREV(kk) (prev[(kk) + d + 1])
      if (k == -d || (k != d && PREV (k - 1) < PREV (k + 1)))
        prev_k = k + 1;
      else
        prev_k = k - 1;
#undef PREV
      prev_x = prev[prev_k + d + 1];
      prev_y = prev_x - prev_k;

      while (x > prev_x && y > prev_y)
        {
          g_string_append_c (script, 'S');
          x--, y--;
        }
      if (x == prev_x)
        {
          g_string_append_c (script, 'A');
          y--;
        }
      else
        {
          g_string_append_c (script, 'R');
          x--;
        }
    }
  while (x > 0 && y > 0)
    {
      g_string_append_c (script, 'S');
      x--, y--;
    }

  g_strreverse (script->str);
  return g_string_free (script, FALSE);
}

/**
 * triage_afp_diff_new:
 * @old_text: the previous iteration's artifact, as text
 * @new_text: this iteration's
 *
 * Returns: (transfer full): the lines of both, each same, removed or added,
 *   in reading order (removed lines before the added ones that replace them)
 */
TriageAfpDiff *
triage_afp_diff_new (const char *old_text,
                     const char *new_text)
{
  TriageAfpDiff *self = g_new0 (TriageAfpDiff, 1);
  g_autoptr(GPtrArray) old_lines = NULL;
  g_autoptr(GPtrArray) new_lines = NULL;
  g_autoptr(GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree guint *a = NULL;
  g_autofree guint *b = NULL;
  g_autofree char *script = NULL;
  guint head = 0, tail = 0, n, m, i, j;

  g_return_val_if_fail (old_text != NULL && new_text != NULL, NULL);

  self->old_copy = g_strdup (old_text);
  self->new_copy = g_strdup (new_text);
  self->lines = g_array_new (FALSE, FALSE, sizeof (TriageAfpDiffLine));
  old_lines = split_lines (self->old_copy);
  new_lines = split_lines (self->new_copy);
  n = old_lines->len;
  m = new_lines->len;

  while (head < n && head < m && strcmp (old_lines->pdata[head], new_lines->pdata[head]) == 0)
    head++;
  while (tail < n - head && tail < m - head &&
         strcmp (old_lines->pdata[n - 1 - tail], new_lines->pdata[m - 1 - tail]) == 0)
    tail++;

  /* The middle, lines interned to numbers. */
  a = g_new (guint, n - head - tail + 1);
  b = g_new (guint, m - head - tail + 1);
  for (i = head; i < n - tail; i++)
    {
      gpointer id;

      if (!g_hash_table_lookup_extended (ids, old_lines->pdata[i], NULL, &id))
        {
          id = GUINT_TO_POINTER (g_hash_table_size (ids));
          g_hash_table_insert (ids, old_lines->pdata[i], id);
        }
      a[i - head] = GPOINTER_TO_UINT (id);
    }
  for (j = head; j < m - tail; j++)
    {
      gpointer id;

      if (!g_hash_table_lookup_extended (ids, new_lines->pdata[j], NULL, &id))
        {
          id = GUINT_TO_POINTER (g_hash_table_size (ids));
          g_hash_table_insert (ids, new_lines->pdata[j], id);
        }
      b[j - head] = GPOINTER_TO_UINT (id);
    }

  script = myers (a, n - head - tail, b, m - head - tail, TRIAGE_AFP_DIFF_MAX_EDITS);
  if (script == NULL)
    {
      GString *all = g_string_new (NULL);

      for (i = head; i < n - tail; i++)
        g_string_append_c (all, 'R');
      for (j = head; j < m - tail; j++)
        g_string_append_c (all, 'A');
      script = g_string_free (all, FALSE);
    }

  for (i = 0; i < head; i++)
    add_line (self, TRIAGE_AFP_DIFF_SAME, old_lines->pdata[i], i + 1, i + 1);
  i = j = head;
  for (const char *op = script; *op != '\0'; op++)
    {
      switch (*op)
        {
        case 'S':
          add_line (self, TRIAGE_AFP_DIFF_SAME, old_lines->pdata[i], i + 1, j + 1);
          i++, j++;
          break;
        case 'R':
          add_line (self, TRIAGE_AFP_DIFF_REMOVED, old_lines->pdata[i], i + 1, 0);
          i++;
          break;
        default:
          add_line (self, TRIAGE_AFP_DIFF_ADDED, new_lines->pdata[j], 0, j + 1);
          j++;
          break;
        }
    }
  for (; i < n; i++, j++)
    add_line (self, TRIAGE_AFP_DIFF_SAME, old_lines->pdata[i], i + 1, j + 1);

  return self;
}

void
triage_afp_diff_free (TriageAfpDiff *self)
{
  if (self == NULL)
    return;

  g_array_unref (self->lines);
  g_free (self->old_copy);
  g_free (self->new_copy);
  g_free (self);
}

guint
triage_afp_diff_get_n_lines (TriageAfpDiff *self)
{
  return self->lines->len;
}

const TriageAfpDiffLine *
triage_afp_diff_get_line (TriageAfpDiff *self,
                          guint          index)
{
  g_return_val_if_fail (index < self->lines->len, NULL);

  return &g_array_index (self->lines, TriageAfpDiffLine, index);
}

guint
triage_afp_diff_get_n_added (TriageAfpDiff *self)
{
  return self->n_added;
}

guint
triage_afp_diff_get_n_removed (TriageAfpDiff *self)
{
  return self->n_removed;
}

/**
 * triage_afp_diff_to_text:
 *
 * The diff as a unified diff's body shows it: each line after "  " (same),
 * "- " (removed) or "+ " (added), so a change is told by a sign a screen
 * reader reads, not by colour alone.
 *
 * Returns: (transfer full): the text, one line per diff line
 */
char *
triage_afp_diff_to_text (TriageAfpDiff *self)
{
  GString *text = g_string_new (NULL);
  static const char *signs[] = { "  ", "- ", "+ " };

  for (guint i = 0; i < self->lines->len; i++)
    {
      const TriageAfpDiffLine *line = &g_array_index (self->lines, TriageAfpDiffLine, i);

      g_string_append (text, signs[line->kind]);
      g_string_append (text, line->line);
      g_string_append_c (text, '\n');
    }

  return g_string_free (text, FALSE);
}
