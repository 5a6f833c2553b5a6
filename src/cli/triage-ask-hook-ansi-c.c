/* triage-ask-hook-ansi-c.c — bash's $'…' read as the shell reads it
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-ask"

#include "triage-ask-hook-ansi-c.h"

#include <string.h>

/* Appends to @word what the escape of bash's $'…' whose backslash is before @p means
 * (\n, \', \x72, \162, \u0072, \cA …); returns where the escape ends. */
static const char *
append_ansi_c_escape (GString    *word,
                      const char *p)
{
  static const char named[] = "abeEfnrtv\\'\"?";
  static const char meant[] = "\a\b\033\033\f\n\r\t\v\\'\"?";
  const char *name = *p != '\0' ? strchr (named, *p) : NULL;
  gboolean octal = *p >= '0' && *p <= '7';
  gsize digits = octal ? 3 : *p == 'x' ? 2 : *p == 'u' ? 4 : *p == 'U' ? 8 : 0;
  const char *start = octal ? p : p + 1;
  const char *q = start;
  gunichar value = 0;

  if (name != NULL)
    {
      g_string_append_c (word, meant[name - named]);
      return p + 1;
    }
  if (*p == 'c' && p[1] != '\0' && p[1] != '\'')
    {
      g_string_append_c (word, g_ascii_toupper (p[1]) ^ 0x40);
      return p + 2;
    }
  while ((gsize) (q - start) < digits &&
         (octal ? *q >= '0' && *q <= '7' : g_ascii_isxdigit (*q)))
    value = value * (octal ? 8 : 16) + g_ascii_xdigit_value (*q++);
  if (q == start)
    {
      g_string_append_c (word, '\\');   /* no escape bash knows: the backslash stays */
      return p;
    }
  if (octal || *p == 'x')
    g_string_append_c (word, (char) value);
  else if (g_unichar_validate (value))
    g_string_append_unichar (word, value);
  return q;
}

const char *
triage_ask_hook_append_ansi_c_quoted (GString    *out,
                                      const char *p)
{
  g_autoptr(GString) word = g_string_new (NULL);
  const char *q = p;

  while (*q != '\0' && *q != '\'')
    if (*q == '\\' && q[1] != '\0')
      q = append_ansi_c_escape (word, q + 1);
    else
      g_string_append_c (word, *q++);
  if (*q == '\0')
    {
      g_string_append_printf (out, "$'%s", p);
      return q;
    }
  g_string_append_c (out, '\'');
  for (const char *c = word->str; *c != '\0'; c++)
    if (*c == '\'')
      g_string_append (out, "'\\''");
    else
      g_string_append_c (out, *c);
  g_string_append_c (out, '\'');
  return q + 1;
}
