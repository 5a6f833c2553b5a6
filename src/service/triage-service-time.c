/* triage-service-time.c — durations and deadlines as people write them
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-service"

#include "triage-service.h"

#include <string.h>

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

/* A duration in form ("99999d", "1h30m", bare seconds), whatever its size. */
static gboolean
is_duration_form (const char *text)
{
  const char *p = text;

  if (text == NULL || *text == '\0')
    return FALSE;
  if (strspn (text, "0123456789") == strlen (text))
    return TRUE;                                  /* bare seconds */

  while (*p != '\0')
    {
      gsize digits = strspn (p, "0123456789");

      if (digits == 0 || p[digits] == '\0' || strchr ("smhd", p[digits]) == NULL)
        return FALSE;
      p += digits + 1;
    }

  return TRUE;
}

const char *
triage_service_duration_problem (const char *text)
{
  return is_duration_form (text) ? "too long: at most ten years (3650d)"
                                 : "expected a duration such as 30s, 5m or 1h";
}

/* What is wrong with a time as `date` or a person writes it: no offset
 * (`date +%FT%T`), or a space for the T (`date --rfc-3339=seconds`); NULL
 * when it is not nearly RFC 3339. */
static const char *
time_problem (const char *text)
{
  g_autofree char *with_t = g_strdup (text);
  g_autofree char *with_zone = NULL;
  g_autofree char *with_both = NULL;
  g_autoptr(GDateTime) parsed = NULL;
  gboolean spaced = strlen (text) > 10 && text[10] == ' ';

  if (spaced)
    with_t[10] = 'T';
  with_zone = g_strconcat (text, "Z", NULL);
  with_both = g_strconcat (with_t, "Z", NULL);

  if ((parsed = atp_parse_timestamp (with_zone)) != NULL)
    return "the time has no offset: add Z for UTC or the zone's, such as +01:00";
  if (spaced && (parsed = atp_parse_timestamp (with_t)) != NULL)
    return "RFC 3339 puts a T between the date and the time (2026-05-01T17:00:00Z)";
  if (spaced && (parsed = atp_parse_timestamp (with_both)) != NULL)
    return "RFC 3339 puts a T between the date and the time, and the time needs an offset: "
           "Z for UTC or the zone's, such as +01:00 (2026-05-01T17:00:00Z)";

  return NULL;
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
  else if (is_duration_form (text))
    {
      *problem = "too far away: a duration may be at most ten years (3650d)";
      return FALSE;
    }
  else if ((when = atp_parse_timestamp (text)) == NULL)
    {
      *problem = time_problem (text);
      if (*problem == NULL)
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
