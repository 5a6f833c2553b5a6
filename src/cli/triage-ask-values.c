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
triage_ask_parse_deadline (const char  *text,
                           GDateTime   *now,
                           char       **out,
                           GError     **error)
{
  const char *problem = NULL;

  if (!triage_service_parse_deadline (text, now, out, &problem))
    return triage_ask_usage_error (error, "--deadline “%s”: %s", text, problem);

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
