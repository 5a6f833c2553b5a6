/* atp-field-syntax.c — the syntaxes of single fields: base64, MIME types, URIs, blank text
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-json"

#include "atp-json.h"

#include <string.h>

#include "atp-private.h"

/* ------------------------------------------------------------------------ */
/* Field syntaxes                                                            */
/* ------------------------------------------------------------------------ */

/* 0–63 for the alphabet, 64 for '=', 255 for anything else. */
static const guint8 base64_value[256] = {
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,  62, 255, 255, 255,  63,
   52,  53,  54,  55,  56,  57,  58,  59,  60,  61, 255, 255, 255,  64, 255, 255,
  255,   0,   1,   2,   3,   4,   5,   6,   7,   8,   9,  10,  11,  12,  13,  14,
   15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25, 255, 255, 255, 255, 255,
  255,  26,  27,  28,  29,  30,  31,  32,  33,  34,  35,  36,  37,  38,  39,  40,
   41,  42,  43,  44,  45,  46,  47,  48,  49,  50,  51, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
  255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
};

gboolean
atp_base64_check (const char *data,
                  gsize       length,
                  gsize      *decoded_size)
{
  const guchar *s = (const guchar *) data;
  AtpI8x16 valid = { -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 };
  gsize body, i = 0;
  guint8 acc = 0;
  guint padding = 0;

  if (length % 4 != 0)
    return FALSE;

  if (length > 0 && s[length - 1] == '=')
    padding = (length > 1 && s[length - 2] == '=') ? 2 : 1;
  body = length - padding;

  /* Every byte must be in A-Z, a-z, 0-9, '+' or '/' (an inline attachment
   * is most of a large notification, so this loop is the hot one). */
  for (; i + 16 <= body; i += 16)
    {
      AtpU8x16 v;

      memcpy (&v, s + i, sizeof v);
      valid &= (AtpI8x16) ((AtpU8x16) (v - 'A') < 26) |
               (AtpI8x16) ((AtpU8x16) (v - 'a') < 26) |
               (AtpI8x16) ((AtpU8x16) (v - '0') < 10) |
               (AtpI8x16) (v == '+') |
               (AtpI8x16) (v == '/');
    }
  for (guint k = 0; k < 16; k++)
    {
      if (valid[k] != -1)
        return FALSE;
    }

  /* The rest: a byte outside the alphabet (or a '=' before the padding)
   * sets a bit above 63. */
  for (; i < body; i++)
    acc |= base64_value[s[i]];
  if (acc > 63)
    return FALSE;

  /* The bits the padding drops must be zero (one text per byte string). */
  if (padding == 1 && (base64_value[s[body - 1]] & 0x03) != 0)
    return FALSE;
  if (padding == 2 && (base64_value[s[body - 1]] & 0x0f) != 0)
    return FALSE;

  if (decoded_size != NULL)
    *decoded_size = length / 4 * 3 - padding;
  return TRUE;
}

static inline gboolean
is_token_char (guchar c)
{
  return c > 0x20 && c < 0x7f && strchr ("()<>@,;:\\\"/[]?=", c) == NULL;
}

gboolean
atp_mime_type_is_valid (const char *text)
{
  const guchar *p = (const guchar *) text;
  const guchar *start;

  if (text == NULL)
    return FALSE;

  start = p;
  while (is_token_char (*p))
    p++;
  if (p == start || *p++ != '/')
    return FALSE;
  start = p;
  while (is_token_char (*p))
    p++;
  if (p == start)
    return FALSE;

  for (;;)
    {
      while (*p == ' ' || *p == '\t')
        p++;
      if (*p == '\0')
        return TRUE;
      if (*p++ != ';')
        return FALSE;
      while (*p == ' ' || *p == '\t')
        p++;
      start = p;
      while (is_token_char (*p))
        p++;
      if (p == start || *p++ != '=')
        return FALSE;
      if (*p == '"')
        {
          p++;
          while (*p != '"')
            {
              if (*p == '\0' || *p < 0x20 || *p == 0x7f)
                return FALSE;
              if (*p == '\\')
                {
                  p++;
                  if (*p == '\0')
                    return FALSE;
                }
              p++;
            }
          p++;
        }
      else
        {
          start = p;
          while (is_token_char (*p))
            p++;
          if (p == start)
            return FALSE;
        }
    }
}

gboolean
atp_uri_is_absolute (const char *text)
{
  if (text == NULL || *text == '\0')
    return FALSE;

  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    {
      if (*p <= 0x20 || *p == 0x7f)
        return FALSE;
    }

  return g_uri_is_valid (text, G_URI_FLAGS_NONE, NULL);
}

/* Whether @c shows nothing: whitespace, a control or format character (U+200B
 * ZERO WIDTH SPACE, U+2060 WORD JOINER, U+00AD SOFT HYPHEN, U+FEFF, tags), a
 * variation selector or U+034F, or a character drawn as nothing (U+2800 BRAILLE
 * PATTERN BLANK, the Hangul fillers). */
static gboolean
unichar_is_invisible (gunichar c)
{
  GUnicodeType type = g_unichar_type (c);

  return g_unichar_isspace (c) || type == G_UNICODE_FORMAT || type == G_UNICODE_CONTROL ||
         c == 0x034f || (c >= 0xfe00 && c <= 0xfe0f) || (c >= 0xe0100 && c <= 0xe01ef) ||
         c == 0x2800 || c == 0x115f || c == 0x1160 || c == 0x3164 || c == 0xffa0;
}

/* Whether every character of @text (NULL: none) meets @is. */
static gboolean
str_is_all (const char *text,
            gboolean  (*is) (gunichar c))
{
  if (text == NULL)
    return TRUE;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      if (!is (g_utf8_get_char (p)))
        return FALSE;
    }

  return TRUE;
}

gboolean
atp_str_is_space (const char *text)
{
  return str_is_all (text, g_unichar_isspace);
}

gboolean
atp_str_is_blank (const char *text)
{
  return str_is_all (text, unichar_is_invisible);
}

gboolean
atp_unichar_is_bidi_override (gunichar c)
{
  return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}
