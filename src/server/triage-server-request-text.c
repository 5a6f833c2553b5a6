/* triage-server-request-text.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The text of a request outside its body: the path and the query
 * parameters, which the stores compare with what they hold, and the local
 * service's headers, which they keep. A JSON body is valid UTF-8 without a
 * NUL (atp_json_parse ()); these were not, and PostgreSQL refuses a
 * parameter that is not UTF-8 where SQLite looks it up and finds nothing: a
 * client was told 503 "try again later" on one database for what was 404
 * or an empty page on the other, and a NUL byte (%00) cut a parameter short
 * without a word. Both are refused now, on either database, before the
 * store is asked.
 */

#define G_LOG_DOMAIN "triage-server-request-text"

#include <string.h>

#include "triage-server-private.h"

/* What is wrong with @text (a decoded path or parameter, @what as the
 * message names it), or NULL when it is valid UTF-8. */
static char *
utf8_problem (const char *what,
              const char *text)
{
  const char *end;

  if (g_utf8_validate (text, -1, &end))
    return NULL;
  return g_strdup_printf ("%s must be UTF-8 text once percent-decoded: its byte %d (0x%02X) "
                          "is not part of a UTF-8 character", what, (int) (end - text) + 1,
                          (guchar) *end);
}

/* The name of the first parameter of the raw @query that holds a NUL byte
 * (%00), percent-decoded as far as it goes, or NULL. libsoup cuts a value
 * at its NUL, so only the raw query shows one. */
static char *
nul_parameter (const char *query)
{
  g_auto(GStrv) parts = g_strsplit (query, "&", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      const char *eq = strchr (parts[i], '=');
      gsize length = eq != NULL ? (gsize) (eq - parts[i]) : strlen (parts[i]);
      g_autofree char *name = g_strndup (parts[i], length);
      char *decoded;

      if (strstr (parts[i], "%00") == NULL)
        continue;
      decoded = g_uri_unescape_string (name, NULL);
      if (decoded == NULL || !g_utf8_validate (decoded, -1, NULL))
        {
          g_free (decoded);
          return g_strdup ("?");
        }
      return decoded;
    }
  return NULL;
}

/* A local service's header (X-Triage-Service, -Name), @value, is a name
 * the store keeps: what is wrong with it, or NULL. (libsoup has made it
 * UTF-8 text, each byte that was not a U+FFFD.) */
static char *
header_problem (const char *header,
                const char *value)
{
  glong length;

  if (value == NULL || (length = g_utf8_strlen (value, -1)) <= TRIAGE_MAX_KEY_CHARS)
    return NULL;
  return g_strdup_printf ("The header %s must be at most %d characters: it has %ld", header,
                          TRIAGE_MAX_KEY_CHARS, length);
}

/**
 * triage_server_check_request_text:
 * @msg: a request whose headers are in
 * @path: its path, percent-decoded
 * @query: (nullable): its query parameters, percent-decoded
 *
 * Answers @msg 400 when its path or one of its query parameters (a name or
 * a value) is not UTF-8 text, a parameter holds a NUL byte, or a local
 * service's header is longer than a key may be: `INVALID_PARAMETER` naming
 * the parameter in `details.field`, `INVALID_REQUEST` for the path and the
 * headers.
 *
 * Returns: whether the request may go on
 */
gboolean
triage_server_check_request_text (SoupServerMessage *msg,
                                  const char        *path,
                                  GHashTable        *query)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  const char *raw_query = g_uri_get_query (soup_server_message_get_uri (msg));
  const char * const local_headers[] = { "X-Triage-Service", "X-Triage-Service-Name" };
  g_autofree char *problem = NULL, *nul = NULL;
  GHashTableIter iter;
  gpointer name, value;

  if ((problem = utf8_problem ("The path", path)) != NULL)
    {
      reply_error (msg, ATP_ERROR_INVALID_REQUEST, problem);
      return FALSE;
    }
  if (raw_query != NULL && (nul = nul_parameter (raw_query)) != NULL)
    {
      g_autofree char *message =
        g_strdup_printf ("The query parameter '%s' must not hold a NUL byte (%%00)", nul);

      reply_error_field (msg, ATP_ERROR_INVALID_PARAMETER, message, nul);
      return FALSE;
    }
  if (query != NULL)
    {
      g_hash_table_iter_init (&iter, query);
      while (g_hash_table_iter_next (&iter, &name, &value))
        {
          g_autofree char *what = NULL;

          if (!g_utf8_validate (name, -1, NULL))
            {
              reply_error (msg, ATP_ERROR_INVALID_PARAMETER,
                           "A query parameter's name must be UTF-8 text once percent-decoded");
              return FALSE;
            }
          what = g_strdup_printf ("The query parameter '%s'", (const char *) name);
          if ((problem = utf8_problem (what, value)) != NULL)
            {
              reply_error_field (msg, ATP_ERROR_INVALID_PARAMETER, problem, name);
              return FALSE;
            }
        }
    }
  for (guint i = 0; i < G_N_ELEMENTS (local_headers); i++)
    {
      problem = header_problem (local_headers[i],
                                soup_message_headers_get_one (headers, local_headers[i]));
      if (problem != NULL)
        {
          reply_error (msg, ATP_ERROR_INVALID_REQUEST, problem);
          return FALSE;
        }
    }
  return TRUE;
}
