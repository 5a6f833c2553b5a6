/* triage-ask-values.c — option values checked as a script author needs:
 * durations, deadlines and text, each problem said with the option
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-ask"

#include "triage-ask-private.h"

#include <string.h>

#include "atp.h"

gboolean
triage_ask_is_long_duration (const char *text)
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

/* What is wrong with a time as `date` or a person writes it: no offset
 * (`date +%FT%T`), or a space for the T (`date --rfc-3339=seconds`). */
static const char *
time_problem (const char *text,
              const char *problem)
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

  return problem;
}

gboolean
triage_ask_parse_deadline (const char  *text,
                           GDateTime   *now,
                           char       **out,
                           GError     **error)
{
  const char *problem = NULL;

  if (!triage_service_parse_deadline (text, now, out, &problem))
    {
      /* The parser refuses a duration over ten years as if it were no duration,
       * and a time that is nearly RFC 3339 as if it were no time. */
      if (triage_ask_is_long_duration (text))
        problem = "too far away: a duration may be at most ten years (3650d)";
      else
        problem = time_problem (text, problem);
      return triage_ask_usage_error (error, "--deadline “%s”: %s", text, problem);
    }

  return TRUE;
}

/* Option values are taken as they are (G_OPTION_ARG_FILENAME), not converted
 * from the locale's character set by GOption: that made any non-ASCII title
 * fail in the C locale (cron, systemd) with "Invalid byte sequence in
 * conversion input", naming no option. ATP's text is UTF-8; a legacy 8-bit
 * locale's text is converted. */
gboolean
triage_ask_value_to_utf8 (const char  *option,
                          char       **value,
                          GError     **error)
{
  const char *charset = NULL;
  char *converted;

  if (*value == NULL || g_utf8_validate (*value, -1, NULL))
    return TRUE;

  if (!g_get_charset (&charset) &&
      (converted = g_convert (*value, -1, "UTF-8", charset, NULL, NULL, NULL)) != NULL)
    {
      g_free (*value);
      *value = converted;
      return TRUE;
    }

  return triage_ask_usage_error (error, "%s: not valid UTF-8 text", option);
}
