/* atp-parse.c — reading JSON members with errors that name the field
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by every parser of libatp (the ATP notification and its parts, the
 * protocol folders): where the parser is, which error code a missing or wrong
 * member gets there, and readers for each JSON type.
 */

#define G_LOG_DOMAIN "atp-parse"

#include "atp-parse-private.h"

#include <math.h>

#include "atp-json.h"
#include "atp-notification.h"
#include "atp-private.h"

void
atp_parse_ctx_init (AtpParseCtx *ctx,
                    GString     *path,
                    guint        flags,
                    GError     **error)
{
  ctx->path = path;
  ctx->flags = flags;
  ctx->missing_code = ATP_ERROR_MISSING_REQUIRED_FIELD;
  ctx->invalid_code = ATP_ERROR_INVALID_FIELD_VALUE;
  ctx->error = error;
}

gsize
atp_parse_ctx_push (AtpParseCtx *ctx,
                    const char  *field)
{
  gsize length = ctx->path->len;

  if (length > 0)
    g_string_append_c (ctx->path, '.');
  g_string_append (ctx->path, field);
  return length;
}

gsize
atp_parse_ctx_push_index (AtpParseCtx *ctx,
                          guint        index)
{
  gsize length = ctx->path->len;

  /* Most arrays are short: their paths are made without a printf each. */
  if (index < 10)
    {
      g_string_append_c (ctx->path, '[');
      g_string_append_c (ctx->path, (char) ('0' + index));
      g_string_append_c (ctx->path, ']');
    }
  else
    g_string_append_printf (ctx->path, "[%u]", index);
  return length;
}

void
atp_parse_ctx_pop (AtpParseCtx *ctx,
                   gsize        length)
{
  g_string_truncate (ctx->path, length);
}

gboolean
atp_parse_fail (AtpParseCtx  *ctx,
                AtpErrorCode  code,
                const char   *field,
                const char   *format,
                ...)
{
  g_autofree char *what = NULL;
  g_autoptr(GString) where = g_string_new (ctx->path->str);
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  if (field != NULL)
    {
      if (where->len > 0)
        g_string_append_c (where, '.');
      g_string_append (where, field);
    }

  if (where->len > 0)
    g_set_error (ctx->error, ATP_ERROR, code, "%s: %s", where->str, what);
  else
    g_set_error_literal (ctx->error, ATP_ERROR, code, what);

  return FALSE;
}

gboolean
atp_parse_fail_type (AtpParseCtx *ctx,
                     const char  *name,
                     const char  *expected,
                     JsonNode    *node)
{
  g_autofree char *got = atp_json_describe (node);

  return atp_parse_fail (ctx, ctx->invalid_code, name, "must be %s, got %s", expected, got);
}

gboolean
atp_parse_fail_missing (AtpParseCtx *ctx,
                        const char  *name)
{
  return atp_parse_fail (ctx, ctx->missing_code, name, "required field is missing");
}

static inline gboolean
node_is_string (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

gboolean
atp_read_string (AtpParseCtx   *ctx,
                 JsonObject    *object,
                 const char    *name,
                 AtpReadFlags   flags,
                 const char   **value)
{
  JsonNode *node = atp_object_get (object, name);
  const char *text;

  *value = NULL;

  if (node == NULL)
    return (flags & ATP_READ_REQUIRED) ? atp_parse_fail_missing (ctx, name) : TRUE;

  if (!node_is_string (node))
    return atp_parse_fail_type (ctx, name, (flags & (ATP_READ_NOT_EMPTY | ATP_READ_NOT_BLANK))
                                   ? "a non-empty string" : "a string", node);

  text = json_node_get_string (node);
  if ((flags & ATP_READ_NOT_EMPTY) && *text == '\0')
    return atp_parse_fail_type (ctx, name, "a non-empty string", node);
  if ((flags & ATP_READ_NOT_BLANK) && atp_str_is_space (text))
    return atp_parse_fail_type (ctx, name, "a non-empty string (not only spaces)", node);
  /* A text of invisible characters alone (U+200B, U+2060, U+00AD, U+2800) showed the
   * person a blank heading. Refused in what is submitted, but read where stored: a
   * request the server took before must still reach the person (a list skips an item
   * that does not parse). */
  if ((flags & ATP_READ_NOT_BLANK) && (ctx->flags & ATP_PARSE_SUBMISSION) &&
      atp_str_is_blank (text))
    return atp_parse_fail_type (ctx, name, "a string with something visible (not only spaces, "
                                "zero-width or other invisible characters)", node);

  *value = text;
  return TRUE;
}

#define MAX_EXACT_INT 9007199254740992.0 /* 2^53 */

gboolean
atp_read_integer_at_least (AtpParseCtx *ctx,
                           JsonObject  *object,
                           const char  *name,
                           gint64       minimum,
                           gboolean    *present,
                           gint64      *value)
{
  JsonNode *node = atp_object_get (object, name);
  g_autofree char *expected = NULL;
  double number;

  *present = FALSE;
  if (node == NULL)
    return TRUE;

  /* JSON has numbers, not integers: 3 and 3.0 are the same integer. Beyond
   * 2^53 a double cannot hold every integer, so neither is accepted there,
   * and the message says so (an integer ≥ 0 of 2^63 − 1 is one to its
   * reader). */
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
    {
      *value = json_node_get_int (node);
      if (*value < -(gint64) MAX_EXACT_INT || *value > (gint64) MAX_EXACT_INT)
        goto out_of_range;
    }
  else if (atp_json_node_get_number (node, &number) && number == floor (number))
    {
      if (number < -MAX_EXACT_INT || number > MAX_EXACT_INT)
        goto out_of_range;
      *value = (gint64) number;
    }
  else
    {
      goto invalid;
    }

  if (*value < minimum)
    goto invalid;

  *present = TRUE;
  return TRUE;

invalid:
  if (minimum == G_MININT64)
    expected = g_strdup ("an integer");
  else
    expected = g_strdup_printf ("an integer ≥ %" G_GINT64_FORMAT, minimum);
  return atp_parse_fail_type (ctx, name, expected, node);

out_of_range:
  expected = g_strdup_printf ("an integer from %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT,
                              MAX (minimum, -(gint64) MAX_EXACT_INT), (gint64) MAX_EXACT_INT);
  return atp_parse_fail_type (ctx, name, expected, node);
}

gboolean
atp_read_integer (AtpParseCtx *ctx,
                  JsonObject  *object,
                  const char  *name,
                  gboolean     non_negative,
                  gboolean    *present,
                  gint64      *value)
{
  return atp_read_integer_at_least (ctx, object, name, non_negative ? 0 : G_MININT64, present,
                                    value);
}

gboolean
atp_read_number (AtpParseCtx *ctx,
                 JsonObject  *object,
                 const char  *name,
                 gboolean    *present,
                 double      *value)
{
  JsonNode *node = atp_object_get (object, name);

  *present = FALSE;
  if (node == NULL)
    return TRUE;

  if (!atp_json_node_get_number (node, value))
    return atp_parse_fail_type (ctx, name, "a number", node);

  *present = TRUE;
  return TRUE;
}

gboolean
atp_read_object (AtpParseCtx   *ctx,
                 JsonObject    *object,
                 const char    *name,
                 AtpReadFlags   flags,
                 JsonObject   **value)
{
  JsonNode *node = atp_object_get (object, name);

  *value = NULL;
  if (node == NULL)
    return (flags & ATP_READ_REQUIRED) ? atp_parse_fail_missing (ctx, name) : TRUE;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return atp_parse_fail_type (ctx, name, "an object", node);

  *value = json_node_get_object (node);
  return TRUE;
}

gboolean
atp_read_array (AtpParseCtx   *ctx,
                JsonObject    *object,
                const char    *name,
                AtpReadFlags   flags,
                JsonArray    **value)
{
  JsonNode *node = atp_object_get (object, name);

  *value = NULL;
  if (node == NULL)
    return (flags & ATP_READ_REQUIRED) ? atp_parse_fail_missing (ctx, name) : TRUE;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    return atp_parse_fail_type (ctx, name, "an array", node);

  *value = json_node_get_array (node);
  return TRUE;
}

gboolean
atp_read_timestamp (AtpParseCtx  *ctx,
                    JsonObject   *object,
                    const char   *name,
                    AtpReadFlags  flags,
                    GDateTime   **value)
{
  const char *text;

  *value = NULL;
  if (!atp_read_string (ctx, object, name, flags, &text))
    return FALSE;
  if (text == NULL)
    return TRUE;

  *value = atp_parse_timestamp (text);
  if (*value == NULL)
    return atp_parse_fail_type (ctx, name, "an RFC 3339 date-time with a time zone offset "
                                 "(e.g. \"2025-05-25T10:30:00Z\")",
                                json_object_get_member (object, name));
  return TRUE;
}

gboolean
atp_read_string_dup (AtpParseCtx   *ctx,
                     JsonObject    *object,
                     const char    *name,
                     AtpReadFlags   flags,
                     char         **value)
{
  const char *text;

  *value = NULL;
  if (!atp_read_string (ctx, object, name, flags, &text))
    return FALSE;

  *value = g_strdup (text);
  return TRUE;
}
