/* atp-token.c — whether a token or key can be sent in an HTTP header
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One rule for every program that takes a token from a person (the app's
 * Preferences, its keyring entry; TRIAGE_API_KEY and the keyring for
 * triage-ask and triage-mcp): a token or key holds no white space, so the
 * white space around one (the line break of $(cat keyfile) or of a secret
 * stored from `echo`, a space pasted with it, a no-break space copied from a
 * web page or a chat) is dropped, and one holding a space or control
 * character inside is refused. An HTTP header cannot carry it: libsoup
 * refused the header with a critical, and the server answered a bare 401
 * (to a no-break space or another of Unicode's spaces, which a header does
 * carry, the same 401). Each program says what is wrong in its own words
 * (the app's are translated), never the token.
 */

#define G_LOG_DOMAIN "atp-token"

#include <string.h>

#include "atp-token.h"

/* The character at @p, before @end; -1 for a byte that begins none (a
 * token need not be UTF-8: the environment's is bytes), taken alone. */
static gunichar
char_at (const char *p,
         const char *end,
         const char **next)
{
  gunichar c = g_utf8_get_char_validated (p, end - p);

  if (c == (gunichar) -1 || c == (gunichar) -2)
    {
      *next = p + 1;
      return (gunichar) -1;
    }
  *next = g_utf8_next_char (p);
  return c;
}

/* What @c is in a token, white space or a control character (a fault
 * inside, dropped around), or %ATP_TOKEN_SENDABLE. Beside ASCII's white
 * space, Unicode's (g_unichar_isspace (): the no-break space U+00A0 a web
 * page or a chat gives with a copy, the ideographic space, the line and
 * paragraph separators) and the invisible spaces, which a paste brings as
 * well: the zero-width space U+200B, the word joiner U+2060 and U+FEFF (a
 * byte order mark at the start of a file, once the zero-width no-break
 * space). */
static AtpTokenFault
fault_of (gunichar c)
{
  if (c == '\n' || c == '\r' || c == 0x85 || c == 0x2028 || c == 0x2029)
    return ATP_TOKEN_LINE_BREAK;
  if (c == '\t')
    return ATP_TOKEN_TAB;
  if (c == ' ' || (c >= 0x80 && c != (gunichar) -1 && g_unichar_isspace (c)) ||
      c == 0x200B || c == 0x2060 || c == 0xFEFF)
    return ATP_TOKEN_SPACE;
  if ((c < 0x80 && g_ascii_iscntrl (c)) || (c >= 0x80 && c <= 0x9F))
    return ATP_TOKEN_CONTROL;
  return ATP_TOKEN_SENDABLE;
}

/* Whether @c is dropped around a token: white space (fault_of ()), and
 * ASCII's vertical tab and form feed too, as always. */
static gboolean
is_white (gunichar c)
{
  AtpTokenFault fault = fault_of (c);

  return fault == ATP_TOKEN_LINE_BREAK || fault == ATP_TOKEN_TAB ||
         fault == ATP_TOKEN_SPACE || c == '\v' || c == '\f';
}

/**
 * atp_token_check:
 * @token: a token as typed, stored or set in the environment
 * @sendable: (out) (optional) (transfer full): @token without the white space
 *   around it, when it can be sent; else %NULL
 * @position: (out) (optional): the number of characters before the fault
 *   (for the message: never say the token itself), 0 when none
 *
 * Returns: what keeps @token from being sent, or %ATP_TOKEN_SENDABLE
 */
AtpTokenFault
atp_token_check (const char  *token,
                 char       **sendable,
                 guint       *position)
{
  const char *start = token;
  const char *end, *next;

  g_return_val_if_fail (token != NULL, ATP_TOKEN_BLANK);

  if (sendable != NULL)
    *sendable = NULL;
  if (position != NULL)
    *position = 0;
  end = token + strlen (token);
  while (start < end && is_white (char_at (start, end, &next)))
    start = next;
  while (end > start)
    {
      const char *last = g_utf8_find_prev_char (start, end);
      gunichar c;

      if (last == NULL)
        break;
      c = char_at (last, end, &next);
      /* A byte that ends no character (invalid UTF-8) is the token's. */
      if (next != end || !is_white (c))
        break;
      end = last;
    }
  if (start == end)
    return ATP_TOKEN_BLANK;
  for (const char *p = start; p < end; p = next)
    {
      AtpTokenFault fault = fault_of (char_at (p, end, &next));

      if (fault == ATP_TOKEN_SENDABLE)
        continue;
      if (position != NULL)
        *position = (guint) g_utf8_strlen (start, p - start);
      return fault;
    }
  if (sendable != NULL)
    *sendable = g_strndup (start, end - start);
  return ATP_TOKEN_SENDABLE;
}
