/* atp-json-build.c — the json-glib tree of text the pre-scan passed
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * atp_json_parse () checks every byte first (atp-json.c: strict RFC 8259,
 * valid UTF-8, bounded depth, int64 integers, finite doubles, no \u0000, no
 * unpaired surrogate, no duplicate member name). Text that passed needs no
 * checks at all, only building: this does it in one pass, where json-glib's
 * parser (a GScanner, a token at a time) took three quarters of the time a
 * notification's POST spent in the server's own code. The tree is the one
 * json-glib would build: an integer (no '.', 'e' or 'E') is an int64 node,
 * any other number a double, members in the order written, each node's
 * parent set. The unit tests (tests/atp/test-json) and the fuzz targets
 * compare the two.
 */

#include <string.h>

#include "atp-private.h"

typedef struct
{
  const guchar *s;
  gsize         pos;
  GString      *buf;     /* a string's or a number's text, reused */
} Builder;

static inline void
skip_whitespace (Builder *b)
{
  while (b->s[b->pos] == ' ' || b->s[b->pos] == '\t' || b->s[b->pos] == '\n' ||
         b->s[b->pos] == '\r')
    b->pos++;
}

static guint32
hex4 (const guchar *s)
{
  guint32 value = 0;

  for (guint i = 0; i < 4; i++)
    {
      guchar c = s[i];

      value <<= 4;
      if (c >= '0' && c <= '9')
        value |= (guint32) (c - '0');
      else if (c >= 'a' && c <= 'f')
        value |= (guint32) (c - 'a' + 10);
      else
        value |= (guint32) (c - 'A' + 10);
    }
  return value;
}

/* b->pos on the opening quote; the string, unescaped, in b->buf. */
static const char *
read_string (Builder *b)
{
  const guchar *s = b->s;
  gsize i = b->pos + 1;

  g_string_truncate (b->buf, 0);
  for (;;)
    {
      gsize run = i;

      while (s[i] != '"' && s[i] != '\\')
        i++;
      if (i > run)
        g_string_append_len (b->buf, (const char *) s + run, (gssize) (i - run));
      if (s[i] == '"')
        break;
      switch (s[i + 1])
        {
        case 'b': g_string_append_c (b->buf, '\b'); i += 2; break;
        case 'f': g_string_append_c (b->buf, '\f'); i += 2; break;
        case 'n': g_string_append_c (b->buf, '\n'); i += 2; break;
        case 'r': g_string_append_c (b->buf, '\r'); i += 2; break;
        case 't': g_string_append_c (b->buf, '\t'); i += 2; break;
        case 'u':
          {
            gunichar cp = hex4 (s + i + 2);

            i += 6;
            /* The pre-scan saw the low surrogate that follows. */
            if (cp >= 0xd800 && cp <= 0xdbff)
              {
                cp = 0x10000 + ((cp - 0xd800) << 10) + (hex4 (s + i + 2) - 0xdc00);
                i += 6;
              }
            g_string_append_unichar (b->buf, cp);
          }
          break;
        default: /* '"', '\\', '/' */
          g_string_append_c (b->buf, (char) s[i + 1]);
          i += 2;
          break;
        }
    }
  b->pos = i + 1;
  return b->buf->str;
}

static JsonNode *
read_number (Builder *b)
{
  const guchar *s = b->s;
  gsize start = b->pos, i = start;
  gboolean is_double = FALSE;
  JsonNode *node = json_node_alloc ();

  for (;; i++)
    {
      guchar c = s[i];

      if (c == '.' || c == 'e' || c == 'E')
        is_double = TRUE;
      else if (!(c >= '0' && c <= '9') && c != '-' && c != '+')
        break;
    }
  g_string_truncate (b->buf, 0);
  g_string_append_len (b->buf, (const char *) s + start, (gssize) (i - start));
  b->pos = i;
  if (is_double)
    json_node_init_double (node, g_ascii_strtod (b->buf->str, NULL));
  else
    json_node_init_int (node, g_ascii_strtoll (b->buf->str, NULL, 10));
  return node;
}

static JsonNode *read_value (Builder *b);

static JsonNode *
read_object (Builder *b)
{
  JsonObject *object = json_object_new ();
  JsonNode *node = json_node_alloc ();

  json_node_init_object (node, object);
  json_object_unref (object);
  b->pos++;
  skip_whitespace (b);
  if (b->s[b->pos] == '}')
    {
      b->pos++;
      return node;
    }
  for (;;)
    {
      g_autofree char *name = NULL;
      JsonNode *member;

      skip_whitespace (b);
      name = g_strdup (read_string (b));
      skip_whitespace (b);
      b->pos++;   /* ':' */
      member = read_value (b);
      json_node_set_parent (member, node);
      json_object_set_member (object, name, member);
      skip_whitespace (b);
      if (b->s[b->pos++] == '}')
        return node;
      /* ',' */
    }
}

static JsonNode *
read_array (Builder *b)
{
  JsonArray *array = json_array_new ();
  JsonNode *node = json_node_alloc ();

  json_node_init_array (node, array);
  json_array_unref (array);
  b->pos++;
  skip_whitespace (b);
  if (b->s[b->pos] == ']')
    {
      b->pos++;
      return node;
    }
  for (;;)
    {
      JsonNode *element = read_value (b);

      json_node_set_parent (element, node);
      json_array_add_element (array, element);
      skip_whitespace (b);
      if (b->s[b->pos++] == ']')
        return node;
    }
}

static JsonNode *
read_value (Builder *b)
{
  skip_whitespace (b);
  switch (b->s[b->pos])
    {
    case '{':
      return read_object (b);
    case '[':
      return read_array (b);
    case '"':
      return json_node_init_string (json_node_alloc (), read_string (b));
    case 't':
      b->pos += 4;
      return json_node_init_boolean (json_node_alloc (), TRUE);
    case 'f':
      b->pos += 5;
      return json_node_init_boolean (json_node_alloc (), FALSE);
    case 'n':
      b->pos += 4;
      return json_node_init_null (json_node_alloc ());
    default:
      return read_number (b);
    }
}

/* The tree of @data (@len bytes), which atp-json.c's pre-scan passed. */
JsonNode *
atp_json_build (const char *data,
                gsize       len)
{
  /* Every loop above stops at a byte of the text; the NUL of a copy makes
   * that true of a number at its very end too (@data may have none). */
  g_autofree char *copy = g_strndup (data, len);
  Builder b = { (const guchar *) copy, 0, NULL };
  JsonNode *root;

  b.buf = g_string_sized_new (64);
  root = read_value (&b);
  g_string_free (b.buf, TRUE);
  return root;
}
