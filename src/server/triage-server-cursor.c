/* triage-server-cursor.c — the pages of a list: its limit, cursor and pagination
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every list the server answers in pages (the client's notifications, an AFP
 * session's reviews) reads `limit` and `cursor` alike and answers ATP's
 * `pagination {next_cursor, has_more, total_count}`. A cursor is opaque to
 * the client: base64 of "<version>:<position>[:<total>]", where the version
 * says which list made it, the position is where the next page starts after
 * (a row's sequence, an iteration) and the total is the list's count as of
 * its first page, carried on instead of counted again.
 */

#define G_LOG_DOMAIN "triage-server"

#include <string.h>

#include "triage-server-private.h"

char *
triage_server_cursor_encode (const char *version,
                             gint64      position,
                             gint64      total)
{
  g_autofree char *text = g_strdup_printf ("%s:%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT,
                                           version, position, total);

  return g_base64_encode ((const guchar *) text, strlen (text));
}

gboolean
triage_server_cursor_decode (const char  *cursor,
                             char       **version,
                             gint64      *position,
                             gint64      *total)
{
  gsize length = 0;
  g_autofree guchar *raw = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) parts = NULL;
  guint64 value, count = 0;
  guint n_parts;

  if (*cursor == '\0' || strlen (cursor) > 64)
    return FALSE;
  for (const char *p = cursor; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '+' && *p != '/' && *p != '=')
      return FALSE;
  raw = g_base64_decode (cursor, &length);
  text = g_strndup ((const char *) raw, length);
  parts = g_strsplit (text, ":", 4);
  n_parts = g_strv_length (parts);
  if ((n_parts != 2 && n_parts != 3) ||
      !g_ascii_string_to_unsigned (parts[1], 10, 1, G_MAXINT64, &value, NULL) ||
      (n_parts == 3 && !g_ascii_string_to_unsigned (parts[2], 10, 0, G_MAXINT64, &count, NULL)))
    return FALSE;
  *version = g_strdup (parts[0]);
  *position = (gint64) value;
  *total = n_parts == 3 ? (gint64) count : -1;
  return TRUE;
}

gboolean
triage_server_parse_limit (SoupServerMessage *msg,
                           GHashTable        *query,
                           guint              fallback,
                           guint              max,
                           guint             *limit)
{
  const char *text = query ? g_hash_table_lookup (query, "limit") : NULL;
  guint64 value = fallback;

  if (text != NULL && !g_ascii_string_to_unsigned (text, 10, 1, max, &value, NULL))
    {
      g_autofree char *message = g_strdup_printf ("limit must be from 1 to %u", max);

      reply_error_field (msg, ATP_ERROR_INVALID_PARAMETER, message, "limit");
      return FALSE;
    }
  *limit = (guint) value;
  return TRUE;
}

void
triage_server_set_next_cursor (SoupServerMessage *msg,
                               const char        *next)
{
  /* The body's next_cursor in a header: a client reading every page asks
   * for the next one as soon as this one is in, and parses it while the
   * next is made. */
  soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                "X-Triage-Next-Cursor", next);
}

JsonObject *
triage_server_pagination_new (const char *next,
                              gboolean    has_more,
                              gint64      total)
{
  JsonObject *pagination = json_object_new ();

  if (next != NULL)
    json_object_set_string_member (pagination, "next_cursor", next);
  else
    json_object_set_null_member (pagination, "next_cursor");
  json_object_set_boolean_member (pagination, "has_more", has_more);
  json_object_set_int_member (pagination, "total_count", total);
  return pagination;
}
