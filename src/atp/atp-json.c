/* atp-json.c — parsing untrusted JSON text, laying it out, and compact output
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-json"

#include "atp-json.h"

#include <math.h>
#include <string.h>

#include "atp-error.h"
#include "atp-private.h"
#include "atp-response.h"
#include "atp-types.h"

enum
{
  CH_PLAIN = 0,
  CH_STOP = 1,   /* '"', '\\' or a control character: escaped on output */
};

static const guint8 string_class[256] = {
  [0x00] = CH_STOP, [0x01] = CH_STOP, [0x02] = CH_STOP, [0x03] = CH_STOP,
  [0x04] = CH_STOP, [0x05] = CH_STOP, [0x06] = CH_STOP, [0x07] = CH_STOP,
  [0x08] = CH_STOP, [0x09] = CH_STOP, [0x0a] = CH_STOP, [0x0b] = CH_STOP,
  [0x0c] = CH_STOP, [0x0d] = CH_STOP, [0x0e] = CH_STOP, [0x0f] = CH_STOP,
  [0x10] = CH_STOP, [0x11] = CH_STOP, [0x12] = CH_STOP, [0x13] = CH_STOP,
  [0x14] = CH_STOP, [0x15] = CH_STOP, [0x16] = CH_STOP, [0x17] = CH_STOP,
  [0x18] = CH_STOP, [0x19] = CH_STOP, [0x1a] = CH_STOP, [0x1b] = CH_STOP,
  [0x1c] = CH_STOP, [0x1d] = CH_STOP, [0x1e] = CH_STOP, [0x1f] = CH_STOP,
  ['"'] = CH_STOP, ['\\'] = CH_STOP,
};

/* ------------------------------------------------------------------------ */
/* Parsing                                                                   */
/* ------------------------------------------------------------------------ */

/**
 * atp_json_parse:
 * @data: (array length=length): the bytes received
 * @length: their length, or -1 if NUL-terminated
 * @max_length: reject input longer than this with %ATP_ERROR_PAYLOAD_TOO_LARGE (0: no limit)
 * @error: return location for an error
 *
 * The one entry point for untrusted JSON text. Before any parser sees the
 * bytes, one pass without recursion checks the size, UTF-8, the syntax
 * (strict RFC 8259: no comments, single quotes, hex or NaN), the nesting
 * depth (%ATP_MAX_JSON_DEPTH), number range (int64, finite doubles), \u
 * escapes (no \u0000, no unpaired surrogates) and duplicate member names.
 * Errors give the line and column. Then yajl reads it into json-glib's tree
 * (atp-json-build.c: a tenth of JsonParser's cost, the same tree).
 *
 * Returns: (transfer full) (nullable): the root node
 */
JsonNode *
atp_json_parse (const char  *data,
                gssize       length,
                gsize        max_length,
                GError     **error)
{
  gsize len;

  g_return_val_if_fail (data != NULL || length <= 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!atp_json_check_text (&data, length, max_length, FALSE, &len, error))
    return NULL;

  return atp_json_build (data, len, error);
}

static void
newline (GString *out,
         guint    depth)
{
  g_string_append_c (out, '\n');
  for (guint i = 0; i < depth; i++)
    g_string_append (out, "  ");
}

/**
 * atp_json_pretty:
 * @data: (array length=length): JSON text
 * @length: its length, or -1 if NUL-terminated
 * @max_length: reject longer input with %ATP_ERROR_PAYLOAD_TOO_LARGE (0: no limit)
 * @error: %ATP_ERROR_INVALID_JSON as atp_json_parse() says it
 *
 * @data checked as atp_json_parse() checks it, and laid out two spaces an
 * indent, one member or element a line. Strings and numbers stay exactly as
 * written: "0.1" is not "0.10000000000000001", "1e3" not "1000.0", and an
 * integer past 64 bits is not refused (json-glib would change them all).
 *
 * Returns: (transfer full): the text laid out
 */
char *
atp_json_pretty (const char  *data,
                 gssize       length,
                 gsize        max_length,
                 GError     **error)
{
  GString *out;
  gboolean in_string = FALSE;
  guint depth = 0;
  gsize len;

  g_return_val_if_fail (data != NULL || length <= 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!atp_json_check_text (&data, length, max_length, TRUE, &len, error))
    return NULL;

  /* Valid from here on: only the layout changes. */
  out = g_string_sized_new (len + len / 4);
  for (gsize i = 0; i < len; i++)
    {
      char c = data[i];

      if (in_string)
        {
          g_string_append_c (out, c);
          if (c == '\\')
            g_string_append_c (out, data[++i]);
          else if (c == '"')
            in_string = FALSE;
          continue;
        }

      switch (c)
        {
        case ' ': case '\t': case '\n': case '\r':
          break;
        case '"':
          in_string = TRUE;
          g_string_append_c (out, c);
          break;
        case '{': case '[':
          {
            gsize next = i + 1;

            while (next < len && g_ascii_isspace (data[next]))
              next++;
            g_string_append_c (out, c);
            if (data[next] == '}' || data[next] == ']')
              {
                g_string_append_c (out, data[next]);   /* {} and [] stay on one line */
                i = next;
              }
            else
              newline (out, ++depth);
          }
          break;
        case '}': case ']':
          newline (out, --depth);
          g_string_append_c (out, c);
          break;
        case ',':
          g_string_append_c (out, c);
          newline (out, depth);
          break;
        case ':':
          g_string_append (out, ": ");
          break;
        default:
          g_string_append_c (out, c);
          break;
        }
    }

  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------------ */
/* Output                                                                    */
/* ------------------------------------------------------------------------ */

/* Not json-glib's JsonGenerator: version 1.6.6 (Debian 12) writes the double
 * 1e22 as "1e+22.0", which is not JSON, and 0.1 as 0.10000000000000001;
 * test-json's output cases show both. The nodes are json-glib's; only their
 * text is written here. */

static const char hex_digits[] = "0123456789abcdef";

/* @n bytes at @run onto @out: copied in place when they fit, as
 * g_string_append_c () does for one; g_string_append_len () is a general
 * insert (a position, a check that the text is not the string's own) and
 * ran once a string written, 88 instructions each time. */
static inline void
append_run (GString    *out,
            const char *run,
            gsize       n)
{
  if (out->len + n < out->allocated_len)
    {
      memcpy (out->str + out->len, run, n);
      out->len += n;
      out->str[out->len] = '\0';
    }
  else
    g_string_append_len (out, run, n);
}

static void
write_string (GString    *out,
              const char *str)
{
  const guchar *s = (const guchar *) str;
  const guchar *end = s + strlen (str);
  const guchar *run = s;

  g_string_append_c (out, '"');

  for (;; s++)
    {
      while (end - s >= 16 && !atp_block_has_string_stop (s, FALSE))
        s += 16;
      while (s < end && string_class[*s] == CH_PLAIN)
        s++;
      if (s == end)
        break;

      if (s > run)
        append_run (out, (const char *) run, s - run);
      run = s + 1;

      switch (*s)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          {
            char esc[7] = { '\\', 'u', '0', '0', hex_digits[*s >> 4], hex_digits[*s & 0xf], '\0' };
            g_string_append_len (out, esc, 6);
          }
          break;
        }
    }

  if (s > run)
    append_run (out, (const char *) run, s - run);

  g_string_append_c (out, '"');
}

/* The shortest text that reads back as exactly @value. */
static void
format_double (char   *buf,
               gsize   size,
               double  value)
{
  g_ascii_formatd (buf, size, "%.15g", value);
  if (g_ascii_strtod (buf, NULL) == value)
    return;
  g_ascii_formatd (buf, size, "%.16g", value);
  if (g_ascii_strtod (buf, NULL) == value)
    return;
  g_ascii_formatd (buf, size, "%.17g", value);
}

static void
write_double (GString *out,
              double   value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE + 2];

  if (!isfinite (value))
    {
      /* Never from parsed input; JSON has no text for it. */
      g_string_append (out, "null");
      return;
    }

  format_double (buf, sizeof buf - 2, value);
  g_string_append (out, buf);
  /* Keep a double a double: 1.0 reads back as a double, not an integer. */
  if (strpbrk (buf, ".eE") == NULL)
    g_string_append (out, ".0");
}

/* The members in insertion order through json-glib's ordered iterator: no
 * list of names made and freed, no look-up of each member by its name. */
static void
write_object (GString    *out,
              JsonObject *object)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;
  gboolean first = TRUE;

  g_string_append_c (out, '{');
  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &name, &member))
    {
      if (!first)
        g_string_append_c (out, ',');
      first = FALSE;
      write_string (out, name);
      g_string_append_c (out, ':');
      atp_json_write_node (out, member);
    }
  g_string_append_c (out, '}');
}

static void
write_array (GString   *out,
             JsonArray *array)
{
  guint n = json_array_get_length (array);

  g_string_append_c (out, '[');
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      atp_json_write_node (out, json_array_get_element (array, i));
    }
  g_string_append_c (out, ']');
}

void
atp_json_write_node (GString  *out,
                     JsonNode *node)
{
  if (node == NULL)
    {
      g_string_append (out, "null");
      return;
    }

  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      write_object (out, json_node_get_object (node));
      break;

    case JSON_NODE_ARRAY:
      write_array (out, json_node_get_array (node));
      break;

    case JSON_NODE_NULL:
      g_string_append (out, "null");
      break;

    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_INT64:
          g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
          break;

        case G_TYPE_DOUBLE:
          write_double (out, json_node_get_double (node));
          break;

        case G_TYPE_BOOLEAN:
          g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
          break;

        case G_TYPE_STRING:
          if (json_node_get_string (node) != NULL)
            write_string (out, json_node_get_string (node));
          else
            g_string_append (out, "null");
          break;

        default:
          /* A node built with an odd GValue type: the closest JSON is null. */
          g_string_append (out, "null");
          break;
        }
      break;

    default:
      g_string_append (out, "null");
      break;
    }
}

/**
 * atp_json_to_string:
 * @node: (nullable): a node (%NULL is written as `null`)
 * @length: (out) (optional): the length of the text
 *
 * Compact JSON text: no whitespace, members in insertion order, integers as
 * integers, doubles in their shortest exact form (always with a '.' or an
 * exponent), non-ASCII characters as UTF-8.
 *
 * Returns: (transfer full): the text
 */
char *
atp_json_to_string (JsonNode *node,
                    gsize    *length)
{
  GString *out = g_string_sized_new (256);

  atp_json_write_node (out, node);
  if (length != NULL)
    *length = out->len;
  return g_string_free (out, FALSE);
}

/**
 * atp_json_object_to_string:
 * @object: an object
 * @length: (out) (optional): the length of the text
 *
 * Returns: (transfer full): the compact JSON text of @object
 */
char *
atp_json_object_to_string (JsonObject *object,
                           gsize      *length)
{
  GString *out;

  g_return_val_if_fail (object != NULL, NULL);

  out = g_string_sized_new (256);
  write_object (out, object);
  if (length != NULL)
    *length = out->len;
  return g_string_free (out, FALSE);
}

/**
 * atp_json_strings_to_string:
 * @first_name: the first member's name
 * @...: its value (a string, or %NULL to leave the member out), then more
 *   name and value pairs, ended by a %NULL name
 *
 * The compact text of an object of string members, in the order given: the
 * same text as atp_json_object_to_string() of the object built with
 * json_object_set_string_member(), without building it. A server writes
 * such small objects (a status update, an answer) for every request, and
 * the tree cost more than its text.
 *
 * Returns: (transfer full): the text
 */
char *
atp_json_strings_to_string (const char *first_name,
                            ...)
{
  GString *out = g_string_sized_new (160);
  const char *name = first_name;
  gboolean first = TRUE;
  va_list args;

  g_string_append_c (out, '{');
  va_start (args, first_name);
  for (; name != NULL; name = va_arg (args, const char *))
    {
      const char *value = va_arg (args, const char *);

      if (value == NULL)
        continue;
      if (!first)
        g_string_append_c (out, ',');
      first = FALSE;
      write_string (out, name);
      g_string_append_c (out, ':');
      write_string (out, value);
    }
  va_end (args);
  g_string_append_c (out, '}');
  return g_string_free (out, FALSE);
}

/**
 * atp_json_error_body:
 * @code: the wire code, e.g. "MALFORMED_ACTION"
 * @message: a human-readable message
 * @details: (nullable): extra context
 * @request_id: (nullable): the request id (omitted when %NULL)
 *
 * Returns: (transfer full): the error object `{code, message, details?, request_id}` as text
 */
char *
atp_json_error_body (const char *code,
                     const char *message,
                     JsonObject *details,
                     const char *request_id)
{
  g_autoptr(JsonObject) object = json_object_new ();

  g_return_val_if_fail (code != NULL, NULL);

  json_object_set_string_member (object, "code", code);
  json_object_set_string_member (object, "message", message != NULL ? message : code);
  if (details != NULL)
    json_object_set_object_member (object, "details", json_object_ref (details));
  if (request_id != NULL)
    json_object_set_string_member (object, "request_id", request_id);

  return atp_json_object_to_string (object, NULL);
}
