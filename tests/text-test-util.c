/* text-test-util.c — checks of the text a view or a bubble shows, shared by their tests (no GTK)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "text-test-util.h"

#include "triage-decision-format.h"

/* The longest run of characters in @text with no place to break a line
 * (triage_format_is_break_char(), which test-decision-format holds to
 * Pango's rules). */
guint
text_test_longest_unbroken_run (const char *text)
{
  guint longest = 0;
  guint run = 0;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      if (triage_format_is_break_char (g_utf8_get_char (p)))
        run = 0;
      else if (++run > longest)
        longest = run;
    }

  return longest;
}
