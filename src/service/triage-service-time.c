/* triage-service-time.c — durations and deadlines as people write them
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-service"

#include "triage-service.h"

#include "atp.h"

gboolean
triage_service_parse_duration (const char *text,
                               gint64     *microseconds)
{
  const char *p = text;
  gint64 total = 0;
  gboolean any = FALSE;

  if (text == NULL || *text == '\0')
    return FALSE;

  while (*p != '\0')
    {
      guint64 value = 0;
      gint64 unit;
      const char *start = p;

      while (g_ascii_isdigit (*p))
        {
          value = value * 10 + (guint64) (*p - '0');
          if (value > 10 * 365 * 86400ULL)   /* ten years is plenty */
            return FALSE;
          p++;
        }
      if (p == start)
        return FALSE;

      switch (*p)
        {
        case 's': unit = 1; p++; break;
        case 'm': unit = 60; p++; break;
        case 'h': unit = 3600; p++; break;
        case 'd': unit = 86400; p++; break;
        case '\0':
          if (any)              /* "1h30" is ambiguous */
            return FALSE;
          unit = 1;
          break;
        default:
          return FALSE;
        }

      total += (gint64) value * unit;
      if (total > 10 * 365 * 86400LL)
        return FALSE;
      any = TRUE;
    }

  *microseconds = total * G_USEC_PER_SEC;
  return TRUE;
}

gboolean
triage_service_parse_deadline (const char  *text,
                               GDateTime   *now,
                               char       **rfc3339,
                               const char **problem)
{
  g_autoptr(GDateTime) when = NULL;
  gint64 us;

  if (triage_service_parse_duration (text, &us))
    {
      if (us <= 0)
        {
          *problem = "the duration must be more than 0";
          return FALSE;
        }
      when = g_date_time_add (now, us);
    }
  else if ((when = atp_parse_timestamp (text)) == NULL)
    {
      *problem = "expected a duration (90s, 15m, 2h, 1d, 1h30m) or an RFC 3339 time "
                 "(2026-05-01T17:00:00Z)";
      return FALSE;
    }
  else if (g_date_time_compare (when, now) <= 0)
    {
      *problem = "that time has passed";
      return FALSE;
    }

  *rfc3339 = atp_format_timestamp (when);
  return TRUE;
}

gboolean
triage_service_set_deadline (JsonObject  *request,
                             const char  *text,
                             GDateTime   *now,
                             const char **problem)
{
  g_autofree char *deadline = NULL;
  g_autofree char *timestamp = NULL;

  if (!triage_service_parse_deadline (text, now, &deadline, problem))
    return FALSE;
  timestamp = atp_format_timestamp (now);
  json_object_set_string_member (request, "timestamp", timestamp);
  json_object_set_string_member (request, "deadline", deadline);
  return TRUE;
}
