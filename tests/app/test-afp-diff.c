/* test-afp-diff.c — the line diff a review shows from iteration 2 on
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib.h>

#include "triage-afp-diff.h"

static char *
diff_text (const char *old_text,
           const char *new_text)
{
  g_autoptr(TriageAfpDiff) diff = triage_afp_diff_new (old_text, new_text);

  return triage_afp_diff_to_text (diff);
}

static void
test_basics (void)
{
  struct { const char *old_text, *new_text, *diff; } cases[] = {
    { "", "", "" },
    { "a\nb\n", "a\nb", "  a\n  b\n" },
    { "", "a\n", "+ a\n" },
    { "a\n", "", "- a\n" },
    { "a\nb\nc\n", "a\nx\nc\n", "  a\n- b\n+ x\n  c\n" },
    { "a\nb\nc\n", "a\nc\n", "  a\n- b\n  c\n" },
    { "a\nc\n", "a\nb\nc\n", "  a\n+ b\n  c\n" },
    /* Myers' own example: ABCABBA → CBABAC, five edits. */
    { "A\nB\nC\nA\nB\nB\nA", "C\nB\nA\nB\nA\nC", NULL },
    { "x\r\ny\r\n", "x\ny\n", "  x\n  y\n" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = diff_text (cases[i].old_text, cases[i].new_text);

      if (cases[i].diff != NULL)
        g_assert_cmpstr (text, ==, cases[i].diff);
    }
}

/* Every diff is minimal for the classic example and replays both texts. */
static void
check_replays (const char *old_text,
               const char *new_text,
               guint       expected_edits)
{
  g_autoptr(TriageAfpDiff) diff = triage_afp_diff_new (old_text, new_text);
  g_autoptr(GString) old_back = g_string_new (NULL);
  g_autoptr(GString) new_back = g_string_new (NULL);
  guint old_number = 0, new_number = 0;

  for (guint i = 0; i < triage_afp_diff_get_n_lines (diff); i++)
    {
      const TriageAfpDiffLine *line = triage_afp_diff_get_line (diff, i);

      if (line->kind != TRIAGE_AFP_DIFF_ADDED)
        {
          g_string_append_printf (old_back, "%s\n", line->line);
          g_assert_cmpuint (line->old_number, ==, ++old_number);
        }
      if (line->kind != TRIAGE_AFP_DIFF_REMOVED)
        {
          g_string_append_printf (new_back, "%s\n", line->line);
          g_assert_cmpuint (line->new_number, ==, ++new_number);
        }
    }

  g_assert_cmpstr (old_back->str, ==, old_text);
  g_assert_cmpstr (new_back->str, ==, new_text);
  if (expected_edits > 0)
    g_assert_cmpuint (triage_afp_diff_get_n_added (diff) + triage_afp_diff_get_n_removed (diff),
                      ==, expected_edits);
}

static void
test_minimal (void)
{
  check_replays ("A\nB\nC\nA\nB\nB\nA\n", "C\nB\nA\nB\nA\nC\n", 5);
  check_replays ("a\nb\nc\nd\ne\n", "b\nc\nx\nd\ne\nf\n", 3);
  check_replays ("same\n", "same\n", 0);
}

/* Random edits of a long text: the diff replays both and is no longer than the edits made. */
static void
test_random (void)
{
  GRand *rand = g_rand_new_with_seed (11);

  for (guint round = 0; round < 50; round++)
    {
      g_autoptr(GString) old_text = g_string_new (NULL);
      g_autoptr(GString) new_text = g_string_new (NULL);
      guint n = g_rand_int_range (rand, 0, 300);
      guint edits = 0;

      for (guint i = 0; i < n; i++)
        {
          g_autofree char *line = g_strdup_printf ("line %u", g_rand_int_range (rand, 0, 40));
          gint32 what = g_rand_int_range (rand, 0, 20);

          g_string_append_printf (old_text, "%s\n", line);
          if (what == 0)
            edits++;                                 /* removed */
          else if (what == 1)
            {
              g_string_append_printf (new_text, "new %u\n%s\n", i, line);
              edits++;
            }
          else
            g_string_append_printf (new_text, "%s\n", line);
        }

      check_replays (old_text->str, new_text->str, 0);
      {
        g_autoptr(TriageAfpDiff) diff = triage_afp_diff_new (old_text->str, new_text->str);

        g_assert_cmpuint (triage_afp_diff_get_n_added (diff) + triage_afp_diff_get_n_removed (diff), <=, edits);
      }
    }

  g_rand_free (rand);
}

/* A rewrite past the edit bound: all old lines removed, all new ones added. */
static void
test_rewrite (void)
{
  g_autoptr(GString) old_text = g_string_new (NULL);
  g_autoptr(GString) new_text = g_string_new (NULL);

  for (guint i = 0; i < TRIAGE_AFP_DIFF_MAX_EDITS + 10; i++)
    {
      g_string_append_printf (old_text, "old %u\n", i);
      g_string_append_printf (new_text, "new %u\n", i);
    }

  check_replays (old_text->str, new_text->str, 2 * (TRIAGE_AFP_DIFF_MAX_EDITS + 10));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/afp-diff/basics", test_basics);
  g_test_add_func ("/afp-diff/minimal", test_minimal);
  g_test_add_func ("/afp-diff/random", test_random);
  g_test_add_func ("/afp-diff/rewrite", test_rewrite);

  return g_test_run ();
}
