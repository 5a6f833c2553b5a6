/* atp-token.c — whether a token or key can be sent in an HTTP header
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One rule for every program that takes a token from a person (the app's
 * Preferences, its keyring entry; TRIAGE_API_KEY and the keyring for
 * triage-ask and triage-mcp): a token or key holds no white space, so the
 * white space around one (the line break of $(cat keyfile) or of a secret
 * stored from `echo`, a space pasted with it) is dropped, and one holding a
 * space or control character inside is refused. An HTTP header cannot carry
 * it: libsoup refused the header with a critical, and the server answered a
 * bare 401. Each program says what is wrong in its own words (the app's are
 * translated), never the token.
 */

#define G_LOG_DOMAIN "atp-token"

#include <string.h>

#include "atp-token.h"

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
  const char *end;

  g_return_val_if_fail (token != NULL, ATP_TOKEN_BLANK);

  if (sendable != NULL)
    *sendable = NULL;
  if (position != NULL)
    *position = 0;
  end = token + strlen (token);
  while (g_ascii_isspace (*start))
    start++;
  while (end > start && g_ascii_isspace (end[-1]))
    end--;
  if (start == end)
    return ATP_TOKEN_BLANK;
  for (const char *p = start; p < end; p++)
    if (g_ascii_iscntrl (*p) || *p == ' ')
      {
        if (position != NULL)
          *position = (guint) g_utf8_strlen (start, p - start);
        return *p == '\n' || *p == '\r' ? ATP_TOKEN_LINE_BREAK
               : *p == ' ' ? ATP_TOKEN_SPACE
               : *p == '\t' ? ATP_TOKEN_TAB
               : ATP_TOKEN_CONTROL;
      }
  if (sendable != NULL)
    *sendable = g_strndup (start, end - start);
  return ATP_TOKEN_SENDABLE;
}
