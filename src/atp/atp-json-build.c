/* atp-json-build.c — json-glib's tree of a checked JSON text, read by yajl
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * json-glib's JsonParser reads a text at some 200 instructions a byte (its
 * scanner is GScanner's, a signal a value); reading a request's body was the
 * largest single cost of the server's POST. yajl reads the same text at a
 * tenth of that and hands each value to us: the tree built from its events is
 * the tree JsonParser would have built — the same nodes, value types and
 * member order (tests/atp/test-json-build.c compares the two on the fuzzing
 * corpus). yajl only ever sees text atp_json_check_text() passed: strict
 * RFC 8259, bounded depth, numbers in range, no \u0000, no lone surrogates,
 * no repeated member names.
 */

#define G_LOG_DOMAIN "atp-json"

#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "atp-error.h"
#include "atp-private.h"
#include "atp-types.h"

typedef struct
{
  JsonNode *root;
  JsonNode *open[ATP_MAX_JSON_DEPTH];  /* the containers being filled, innermost last */
  guint     depth;
  GString  *key;                       /* the member name whose value comes next */
  GString  *text;                      /* a string value, NUL-terminated */
} Build;

/* @node goes where the text has it: the root, the open array's next
 * element, or the open object's member named last. */
static void
place (Build    *build,
       JsonNode *node)
{
  JsonNode *parent;

  if (build->depth == 0)
    {
      build->root = node;
      return;
    }

  parent = build->open[build->depth - 1];
  if (JSON_NODE_HOLDS_OBJECT (parent))
    json_object_set_member (json_node_get_object (parent), build->key->str, node);
  else
    json_array_add_element (json_node_get_array (parent), node);
}

static int
on_null (void *data)
{
  place (data, json_node_new (JSON_NODE_NULL));
  return 1;
}

static int
on_boolean (void *data,
            int   value)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);

  json_node_set_boolean (node, value);
  place (data, node);
  return 1;
}

/* As JsonParser reads them: a fraction or an exponent makes a double, the
 * rest an int64 (atp_json_check_text() refused any out of range). */
static int
on_number (void       *data,
           const char *text,
           size_t      length)
{
  Build *build = data;
  JsonNode *node = json_node_new (JSON_NODE_VALUE);

  g_string_truncate (build->text, 0);
  g_string_append_len (build->text, text, length);
  if (strpbrk (build->text->str, ".eE") != NULL)
    json_node_set_double (node, g_ascii_strtod (build->text->str, NULL));
  else
    json_node_set_int (node, g_ascii_strtoll (build->text->str, NULL, 10));
  place (build, node);
  return 1;
}

static int
on_string (void                *data,
           const unsigned char *text,
           size_t               length)
{
  Build *build = data;
  JsonNode *node = json_node_new (JSON_NODE_VALUE);

  g_string_truncate (build->text, 0);
  g_string_append_len (build->text, (const char *) text, length);
  json_node_set_string (node, build->text->str);
  place (build, node);
  return 1;
}

static int
on_key (void                *data,
        const unsigned char *text,
        size_t               length)
{
  Build *build = data;

  g_string_truncate (build->key, 0);
  g_string_append_len (build->key, (const char *) text, length);
  return 1;
}

static int
open_container (Build    *build,
                JsonNode *node)
{
  /* atp_json_check_text() bounded the depth: this is a safety net. */
  if (build->depth == G_N_ELEMENTS (build->open))
    {
      json_node_unref (node);
      return 0;
    }
  place (build, node);
  build->open[build->depth++] = node;
  return 1;
}

static int
on_start_map (void *data)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, json_object_new ());
  return open_container (data, node);
}

static int
on_start_array (void *data)
{
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  json_node_take_array (node, json_array_new ());
  return open_container (data, node);
}

static int
on_end (void *data)
{
  Build *build = data;

  build->depth--;
  return 1;
}

static const yajl_callbacks callbacks = {
  .yajl_null = on_null,
  .yajl_boolean = on_boolean,
  .yajl_number = on_number,
  .yajl_string = on_string,
  .yajl_start_map = on_start_map,
  .yajl_map_key = on_key,
  .yajl_end_map = on_end,
  .yajl_start_array = on_start_array,
  .yajl_end_array = on_end,
};

static void
scratch_free (gpointer string)
{
  g_string_free (string, TRUE);
}

/* The scratch strings, kept a thread: a text has dozens of values. One
 * grown past SCRATCH_KEPT by a long value is let go after the text, not kept
 * for the thread's life. */
#define SCRATCH_KEPT (64 * 1024)

static GPrivate thread_key = G_PRIVATE_INIT (scratch_free);
static GPrivate thread_text = G_PRIVATE_INIT (scratch_free);

static GString *
scratch (GPrivate *key)
{
  GString *string = g_private_get (key);

  if (string == NULL)
    {
      string = g_string_sized_new (256);
      g_private_set (key, string);
    }
  return string;
}

static void
scratch_done (GPrivate *key)
{
  GString *string = g_private_get (key);

  if (string->allocated_len > SCRATCH_KEPT)
    g_private_replace (key, g_string_sized_new (256));
}

/* The tree of @data (@len bytes), which atp_json_check_text() passed. */
JsonNode *
atp_json_build (const char  *data,
                gsize        len,
                GError     **error)
{
  Build build = { .key = scratch (&thread_key), .text = scratch (&thread_text) };
  yajl_handle parser = yajl_alloc (&callbacks, NULL, &build);
  yajl_status status;

  /* The check already refused invalid UTF-8. */
  yajl_config (parser, yajl_dont_validate_strings, 1);
  status = yajl_parse (parser, (const unsigned char *) data, len);
  if (status == yajl_status_ok)
    status = yajl_complete_parse (parser);
  scratch_done (&thread_key);
  scratch_done (&thread_text);

  if (status != yajl_status_ok || build.root == NULL)
    {
      /* Not expected once the check passed; kept as a safety net. */
      unsigned char *message = yajl_get_error (parser, FALSE, (const unsigned char *) data, len);

      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_JSON, "Invalid JSON: %s",
                   message != NULL ? g_strstrip ((char *) message) : "no value");
      yajl_free_error (parser, message);
      yajl_free (parser);
      g_clear_pointer (&build.root, json_node_unref);
      return NULL;
    }

  yajl_free (parser);
  return build.root;
}
