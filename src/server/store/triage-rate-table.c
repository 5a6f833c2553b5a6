/* triage-rate-table.c — rates kept in memory, one entry a key
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rates of one server (the store's default take_rate ()): one
 * theoretical arrival time per key (GCRA), so a key costs one hash entry
 * whatever its rate.
 */

#include "triage-rate-table.h"

#define RATE_SWEEP_INTERVAL_US G_TIME_SPAN_MINUTE

struct _TriageRateTable
{
  GHashTable *rates;    /* key → gint64 theoretical arrival time (monotonic µs) */
  gint64      swept;
};

TriageRateTable *
triage_rate_table_new (void)
{
  TriageRateTable *table = g_new0 (TriageRateTable, 1);

  table->rates = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return table;
}

void
triage_rate_table_free (TriageRateTable *table)
{
  g_hash_table_unref (table->rates);
  g_free (table);
}

/* Forgets the keys whose allowance is whole again: they are as good as new. */
static void
sweep (TriageRateTable *table,
       gint64           now)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, table->rates);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (*(gint64 *) value <= now)
      g_hash_table_iter_remove (&iter);
  table->swept = now;
}

/* One more use of @key, at most one each @interval µs on average with
 * bursts of @window µs' worth: FALSE, and *@wait set to how long until it
 * would be allowed, when it is over. */
gboolean
triage_rate_table_take (TriageRateTable *table,
                        const char      *key,
                        gint64           interval,
                        gint64           window,
                        gint64          *wait)
{
  gint64 now = g_get_monotonic_time ();
  gint64 tat, *stored;

  if (now - table->swept >= RATE_SWEEP_INTERVAL_US)
    sweep (table, now);
  stored = g_hash_table_lookup (table->rates, key);
  tat = stored != NULL ? MAX (*stored, now) : now;
  if (tat + interval - now > window)
    {
      *wait = tat + interval - window - now;
      return FALSE;
    }
  if (stored == NULL)
    {
      stored = g_new (gint64, 1);
      g_hash_table_insert (table->rates, g_strdup (key), stored);
    }
  *stored = tat + interval;
  return TRUE;
}
