/* triage-server-usage.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the server's command line holds besides options: nothing (the
 * subcommand, backup, is taken before them).
 */

#define G_LOG_DOMAIN "triage-server"

#include <stdio.h>
#include <string.h>

#include "triage-server-private.h"

/* The edits that make @a into @b (Levenshtein's distance), for a
 * subcommand's name mistyped. */
static guint
edit_distance (const char *a,
               const char *b)
{
  gsize n = strlen (b);
  g_autofree guint *row = g_new (guint, n + 1);

  for (gsize j = 0; j <= n; j++)
    row[j] = j;
  for (gsize i = 1; a[i - 1] != '\0'; i++)
    {
      guint diagonal = row[0];

      row[0] = i;
      for (gsize j = 1; j <= n; j++)
        {
          guint above = row[j];

          row[j] = MIN (MIN (row[j] + 1, row[j - 1] + 1),
                        diagonal + (a[i - 1] == b[j - 1] ? 0 : 1));
          diagonal = above;
        }
    }
  return row[n];
}

/* An argument left once the options are read: the server takes none (a
 * mistyped subcommand, "bakup", started a server). */
void
triage_server_say_unexpected (const char *argument)
{
  if (edit_distance (argument, "backup") <= 2)
    fprintf (stderr, "triage-server: unexpected argument \"%s\": did you mean "
             "\"triage-server backup\"?\n", argument);
  else
    fprintf (stderr, "triage-server: unexpected argument \"%s\": the server takes options only "
             "(see triage-server --help)\n", argument);
}
