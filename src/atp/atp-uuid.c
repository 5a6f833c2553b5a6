/* atp-uuid.c — UUID v4 ids: checked, normalized, made by GLib
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-json"

#include "atp-json.h"

#include <string.h>

#include "atp-private.h"

/**
 * atp_is_uuid_v4:
 * @text: (nullable): a string
 *
 * Returns: %TRUE for `xxxxxxxx-xxxx-4xxx-Nxxx-xxxxxxxxxxxx` with N one of
 *   8, 9, a, b; hex digits in either case
 */
gboolean
atp_is_uuid_v4 (const char *text)
{
  if (text == NULL)
    return FALSE;

  for (guint i = 0; i < 36; i++)
    {
      char c = text[i];

      if (i == 8 || i == 13 || i == 18 || i == 23)
        {
          if (c != '-')
            return FALSE;
        }
      else if (!g_ascii_isxdigit (c))
        {
          return FALSE;
        }
    }

  if (text[36] != '\0' || text[14] != '4')
    return FALSE;

  return strchr ("89abAB", text[19]) != NULL;
}

char *
atp_uuid_normalize (const char *text)
{
  if (!atp_is_uuid_v4 (text))
    return NULL;
  return g_ascii_strdown (text, -1);
}

/**
 * atp_new_uuid:
 *
 * Returns: (transfer full): a new random UUID v4, lower case
 */
char *
atp_new_uuid (void)
{
  return g_uuid_string_random ();
}
