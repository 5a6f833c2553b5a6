/* atp-uuid.c — UUID v4 ids: checked, normalized, made of GLib's random numbers
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
 * The text g_uuid_string_random () makes, from the same four
 * g_random_int (), written without its printf of sixteen arguments (most
 * of the 6,800 instructions it took, once a server answer: the
 * X-Request-ID).
 *
 * Returns: (transfer full): a new random UUID v4, lower case
 */
char *
atp_new_uuid (void)
{
  static const char hex[] = "0123456789abcdef";
  guint32 ints[4];
  guint8 bytes[16];
  char *text = g_malloc (37), *out = text;

  for (guint i = 0; i < G_N_ELEMENTS (ints); i++)
    ints[i] = g_random_int ();
  memcpy (bytes, ints, sizeof bytes);
  /* Version 4, variant 10 (RFC 4122), as GLib sets them. */
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  for (guint i = 0; i < sizeof bytes; i++)
    {
      if (i == 4 || i == 6 || i == 8 || i == 10)
        *out++ = '-';
      *out++ = hex[bytes[i] >> 4];
      *out++ = hex[bytes[i] & 0x0f];
    }
  *out = '\0';
  return text;
}
