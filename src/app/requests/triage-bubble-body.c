/* triage-bubble-body.c — what a bubble shows of a request's description
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "triage-bubble-body.h"
#include "triage-decision-format.h"

/*
 * How a bubble lays a description out, in lines: the notifier cuts the
 * body it sends here, and TriageProtocol offers a bubble's answer buttons
 * only when nothing was cut (an answer must answer what was read). One
 * rule for both, below the two: the notifier knows protocols, and the
 * protocols know no notifier.
 */

/* Where a bubble's body stops showing @text, NULL if it shows it whole:
 * counted in lines as a person sees them, up to TRIAGE_BUBBLE_BODY_LINES,
 * a long line taking a line every TRIAGE_BUBBLE_LINE_CHARS characters. A
 * cut leaves room for "…" on its line. Twenty short lines are not shown
 * whole, though fewer characters than a long line that is. */
static const char *
find_cut (const char *text)
{
  const char *line = text;
  glong lines_left = TRIAGE_BUBBLE_BODY_LINES;

  for (;;)
    {
      const char *end = strchr (line, '\n');
      glong chars = g_utf8_strlen (line, end != NULL ? end - line : -1);
      glong lines = MAX (1, (chars + TRIAGE_BUBBLE_LINE_CHARS - 1) / TRIAGE_BUBBLE_LINE_CHARS);

      if (lines > lines_left || (lines == lines_left && end != NULL))
        {
          /* Room for "…" on the last line shown. */
          glong shown = MIN (chars, lines_left * TRIAGE_BUBBLE_LINE_CHARS - 1);

          return g_utf8_offset_to_pointer (line, shown);
        }
      if (end == NULL)
        return NULL;
      lines_left -= lines;
      line = end + 1;
    }
}

/**
 * triage_bubble_body_dup:
 * @request: a request
 * @whole: (out) (optional): whether the body is the whole description
 *
 * The description as a bubble says it: trailing blank lines and spaces
 * dropped (no server shows them), none when it only repeats the title
 * (triage_format_get_description()), cut where the bubble's lines end,
 * with "…" after the cut.
 *
 * Returns: (transfer full): the body, plain text, "" for none
 */
char *
triage_bubble_body_dup (AtpNotification *request,
                        gboolean        *whole)
{
  const char *description;
  g_autofree char *text = NULL;
  const char *cut;

  g_return_val_if_fail (request != NULL, NULL);

  description = triage_format_get_description (request);
  text = g_strchomp (g_strdup (description != NULL ? description : ""));
  cut = find_cut (text);
  if (whole != NULL)
    *whole = cut == NULL;
  if (cut == NULL)
    return g_steal_pointer (&text);

  text[cut - text] = '\0';
  return g_strconcat (text, "…", NULL);
}
