/* triage-log-limit.c — a failure logged once, then counted
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "triage-log-limit.h"

static gint64
interval_us (const TriageLogLimit *limit)
{
  return (limit->interval_s ? limit->interval_s : TRIAGE_LOG_LIMIT_INTERVAL_S) * G_USEC_PER_SEC;
}

/* The failures held back are said, and the next interval begins. */
static gboolean
report_held (gpointer data)
{
  TriageLogLimit *limit = data;

  limit->report = 0;
  g_log (limit->domain, G_LOG_LEVEL_MESSAGE, "%u more like it in the last %u s, the last: %s",
         limit->held, (guint) (interval_us (limit) / G_USEC_PER_SEC), limit->last);
  limit->held = 0;
  g_clear_pointer (&limit->last, g_free);
  limit->quiet_until = g_get_monotonic_time () + interval_us (limit);
  return G_SOURCE_REMOVE;
}

/* Logs the line @format makes as a message of @domain, unless @limit logged
 * one less than its interval ago: then it is counted, and the count said
 * (with the last line) once the interval is over. Main thread only. */
void
triage_log_limited (TriageLogLimit *limit,
                    const char     *domain,
                    const char     *format,
                    ...)
{
  gint64 now = g_get_monotonic_time ();
  va_list args;
  char *line;

  va_start (args, format);
  line = g_strdup_vprintf (format, args);
  va_end (args);
  limit->domain = domain;
  if (limit->held == 0 && now >= limit->quiet_until)
    {
      g_log (domain, G_LOG_LEVEL_MESSAGE, "%s", line);
      g_free (line);
      limit->quiet_until = now + interval_us (limit);
      return;
    }
  limit->held++;
  g_free (limit->last);
  limit->last = line;
  if (limit->report == 0)
    limit->report = g_timeout_add ((guint) MAX ((limit->quiet_until - now) / 1000, 1),
                                   report_held, limit);
}
