/* test-json-build.c — atp_json_parse () builds, through yajl, the very tree
 * json-glib's JsonParser builds: the same node and value types, values,
 * and member order. Compared on the fuzzing corpus (every text the fuzzers
 * kept, valid or not) and on the corners of numbers and strings.
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "atp-error.h"
#include "atp-json.h"

static void assert_same_node (JsonNode *a, JsonNode *b, const char *path);

static void
assert_same_object (JsonObject *a,
                    JsonObject *b,
                    const char *path)
{
  g_autoptr(GList) names_a = json_object_get_members (a);
  g_autoptr(GList) names_b = json_object_get_members (b);
  const GList *la, *lb;

  g_assert_cmpuint (g_list_length (names_a), ==, g_list_length (names_b));
  for (la = names_a, lb = names_b; la != NULL; la = la->next, lb = lb->next)
    {
      g_autofree char *inner = g_strdup_printf ("%s.%s", path, (const char *) la->data);

      g_assert_cmpstr (la->data, ==, lb->data);
      assert_same_node (json_object_get_member (a, la->data),
                        json_object_get_member (b, lb->data), inner);
    }
}

static void
assert_same_node (JsonNode   *a,
                  JsonNode   *b,
                  const char *path)
{
  if (json_node_get_node_type (a) != json_node_get_node_type (b))
    g_error ("%s: a %s against a %s", path, json_node_type_name (a), json_node_type_name (b));

  switch (json_node_get_node_type (a))
    {
    case JSON_NODE_OBJECT:
      assert_same_object (json_node_get_object (a), json_node_get_object (b), path);
      break;
    case JSON_NODE_ARRAY:
      {
        JsonArray *array_a = json_node_get_array (a);
        JsonArray *array_b = json_node_get_array (b);

        g_assert_cmpuint (json_array_get_length (array_a), ==, json_array_get_length (array_b));
        for (guint i = 0; i < json_array_get_length (array_a); i++)
          {
            g_autofree char *inner = g_strdup_printf ("%s[%u]", path, i);

            assert_same_node (json_array_get_element (array_a, i),
                              json_array_get_element (array_b, i), inner);
          }
      }
      break;
    case JSON_NODE_VALUE:
      if (json_node_get_value_type (a) != json_node_get_value_type (b))
        g_error ("%s: a %s against a %s", path, g_type_name (json_node_get_value_type (a)),
                 g_type_name (json_node_get_value_type (b)));
      if (json_node_get_value_type (a) == G_TYPE_STRING)
        g_assert_cmpstr (json_node_get_string (a), ==, json_node_get_string (b));
      else if (json_node_get_value_type (a) == G_TYPE_INT64)
        g_assert_cmpint (json_node_get_int (a), ==, json_node_get_int (b));
      else if (json_node_get_value_type (a) == G_TYPE_BOOLEAN)
        g_assert_cmpint (json_node_get_boolean (a), ==, json_node_get_boolean (b));
      else
        {
          double value_a = json_node_get_double (a);
          double value_b = json_node_get_double (b);

          /* Bit for bit: -0.0 is not 0.0, and no rounding apart. */
          if (memcmp (&value_a, &value_b, sizeof value_a) != 0)
            g_error ("%s: %.17g against %.17g", path, value_a, value_b);
        }
      break;
    case JSON_NODE_NULL:
      break;
    default:
      g_assert_not_reached ();
    }
}

/* @text parsed by atp_json_parse () and by JsonParser: the same tree, or
 * (when the strict check refuses it) no tree. Returns whether it was valid. */
static gboolean
assert_parsed_alike (const char *text,
                     gsize       length)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) ours = atp_json_parse (text, (gssize) length, 0, &error);
  g_autoptr(JsonParser) parser = NULL;

  if (ours == NULL)
    {
      g_assert_error (error, ATP_ERROR, ATP_ERROR_INVALID_JSON);
      return FALSE;
    }

  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, text, (gssize) length, &error))
    g_error ("JsonParser refused what atp_json_parse () took: %s\n%.*s", error->message,
             (int) MIN (length, 400), text);
  assert_same_node (ours, json_parser_get_root (parser), "$");
  return TRUE;
}

static void
test_corners (void)
{
  static const char *texts[] = {
    "{}", "[]", "0", "-0", "-0.0", "0.0", "1", "-1", "true", "false", "null", "\"\"",
    "9223372036854775807", "-9223372036854775808", "1e3", "1E3", "1e-3", "-1.5e+10",
    "0.1", "2.2250738585072014e-308", "4.9e-324", "1.7976931348623157e308",
    "123456789012345678901234567890.5", "3.141592653589793238462643383279",
    "\"\\u00e9\\ud83d\\ude00\\n\\t\\\"\\\\\\/\"", "\"é 😀 \\u2028\"",
    "{\"\":1,\"a\":{\"\":[]}}", "[[[[[[[[[[[]]]]]]]]]]]", "[1,2.0,\"3\",[4],{\"5\":5},null,true]",
    " \t\r\n{ \"a\" : [ 1 , { } ] } \n",
    "{\"id\":\"x\",\"actions\":[{\"id\":\"a\",\"flags\":[\"irreversible\"]}],\"n\":-12.25}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    g_assert_true (assert_parsed_alike (texts[i], strlen (texts[i])));
}

/* A value longer than the scratch string kept between texts, then short
 * ones again: the scratch let go and made again in between. */
static void
test_long_values (void)
{
  g_autofree char *long_value = g_strnfill (200 * 1024, 'x');
  g_autofree char *text = g_strdup_printf ("{\"%s\": \"%s\", \"b\": [\"%s\"]}",
                                           long_value, long_value, long_value);

  for (guint i = 0; i < 3; i++)
    {
      g_assert_true (assert_parsed_alike (text, strlen (text)));
      g_assert_true (assert_parsed_alike ("{\"a\": \"b\", \"c\": 1.5}", 20));
    }
}

static void
test_refused (void)
{
  /* What the strict check refuses never reaches yajl; the error is its own. */
  static const char *texts[] = {
    "", "[1,]", "{\"a\":1,\"a\":2}", "\"\\u0000\"", "\"\\ud800\"", "01", "1.", "NaN",
    "9223372036854775808", "1e999", "[1] [2]", "{'a':1}", "// x\n1", "\"\x80\"",
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    g_assert_false (assert_parsed_alike (texts[i], strlen (texts[i])));
}

static void
test_corpus (void)
{
  const char *kinds[] = { "notification", "message", "afp", "aitp" };
  guint valid = 0, total = 0;

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autofree char *folder = g_build_filename (TEST_FUZZ_CORPUS, kinds[k], NULL);
      g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
      const char *name;

      g_assert_nonnull (dir);
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (folder, name, NULL);
          g_autofree char *text = NULL;
          gsize length;

          g_assert_true (g_file_get_contents (path, &text, &length, NULL));
          g_test_message ("%s", path);
          valid += assert_parsed_alike (text, length);
          total++;
        }
    }
  /* The corpus is mostly valid requests: a folder gone empty would pass above. */
  g_assert_cmpuint (total, >=, 50);
  g_assert_cmpuint (valid, >=, total / 2);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json-build/corners", test_corners);
  g_test_add_func ("/json-build/long-values", test_long_values);
  g_test_add_func ("/json-build/refused", test_refused);
  g_test_add_func ("/json-build/corpus", test_corpus);
  return g_test_run ();
}
