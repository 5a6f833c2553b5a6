/* test-json.c — atp_json_parse, output, times, ids
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include "atp-test-common.h"

typedef struct
{
  const char *name;
  const char *input;
  gssize      length;       /* -1: NUL-terminated */
  int         code;         /* -1: must parse */
  const char *needle;       /* a part of the message */
} ParseCase;

static const ParseCase parse_cases[] = {
  /* valid */
  { "object", "{\"a\": [1, 2.5, -3e2, true, false, null, \"x\"]}", -1, -1, NULL },
  { "scalar", "42", -1, -1, NULL },
  { "whitespace", " \t\r\n{ } \n", -1, -1, NULL },
  { "string-brackets", "[\"[[[[{{{{\", \"\\\"[\", \"\\\\\"]", -1, -1, NULL },
  { "surrogate-pair", "[\"\\ud83d\\ude00\"]", -1, -1, NULL },
  { "int64-max", "[9223372036854775807, -9223372036854775808]", -1, -1, NULL },
  { "minus-zero", "[-0, -0.0, 0e0]", -1, -1, NULL },
  { "tiny", "[1e-400]", -1, -1, NULL },
  { "same-name-other-objects", "{\"a\": {\"a\": 1}, \"b\": {\"a\": 2}}", -1, -1, NULL },
  { "utf8", "{\"é\": \"😀 ü\"}", -1, -1, NULL },
  /* syntax, with positions */
  { "empty", "", -1, ATP_ERROR_INVALID_JSON, "line 1, column 1: unexpected end of input" },
  { "only-spaces", "   ", -1, ATP_ERROR_INVALID_JSON, "unexpected end of input" },
  { "trailing-comma", "[1,]", -1, ATP_ERROR_INVALID_JSON, "line 1, column 4: unexpected character ']'" },
  { "trailing-data", "{} x", -1, ATP_ERROR_INVALID_JSON, "line 1, column 4: unexpected character 'x', expected the end" },
  { "two-values", "1 2", -1, ATP_ERROR_INVALID_JSON, "column 3" },
  { "line-column", "{\n  \"a\": 1,\n  \"b\" 2\n}", -1, ATP_ERROR_INVALID_JSON, "line 3, column 7: unexpected character '2', expected ':'" },
  { "comment", "/* c */ [1]", -1, ATP_ERROR_INVALID_JSON, "unexpected character '/'" },
  { "single-quotes", "['x']", -1, ATP_ERROR_INVALID_JSON, "unexpected character '''" },
  { "hex", "[0x10]", -1, ATP_ERROR_INVALID_JSON, "column 3" },
  { "assignment", "var x = [1]", -1, ATP_ERROR_INVALID_JSON, "unexpected character 'v'" },
  { "leading-zero", "[01]", -1, ATP_ERROR_INVALID_JSON, "leading zero" },
  { "bare-minus", "[-]", -1, ATP_ERROR_INVALID_JSON, "a digit must follow '-'" },
  { "dot-no-digit", "[1.]", -1, ATP_ERROR_INVALID_JSON, "a digit must follow '.'" },
  { "exp-no-digit", "[1e+]", -1, ATP_ERROR_INVALID_JSON, "exponent" },
  { "plus", "[+1]", -1, ATP_ERROR_INVALID_JSON, "unexpected character '+'" },
  { "nan", "[NaN]", -1, ATP_ERROR_INVALID_JSON, "unexpected character 'N'" },
  { "infinity", "[Infinity]", -1, ATP_ERROR_INVALID_JSON, "unexpected character 'I'" },
  { "truthy", "[tru]", -1, ATP_ERROR_INVALID_JSON, "unexpected character 't'" },
  { "unquoted-key", "{a: 1}", -1, ATP_ERROR_INVALID_JSON, "member name" },
  { "missing-colon", "{\"a\" 1}", -1, ATP_ERROR_INVALID_JSON, "expected ':'" },
  { "missing-comma", "{\"a\": 1 \"b\": 2}", -1, ATP_ERROR_INVALID_JSON, "expected ',' or '}'" },
  { "mismatched", "[1}", -1, ATP_ERROR_INVALID_JSON, "expected ',' or ']'" },
  { "unclosed", "{\"a\": [1", -1, ATP_ERROR_INVALID_JSON, "unexpected end of input" },
  { "unterminated-string", "[\"abc", -1, ATP_ERROR_INVALID_JSON, "line 1, column 2: unterminated string" },
  { "raw-newline", "[\"a\nb\"]", -1, ATP_ERROR_INVALID_JSON, "control character 0x0a" },
  { "raw-tab", "[\"a\tb\"]", -1, ATP_ERROR_INVALID_JSON, "control character 0x09" },
  { "bad-escape", "[\"\\x\"]", -1, ATP_ERROR_INVALID_JSON, "invalid escape" },
  { "short-unicode", "[\"\\u12\"]", -1, ATP_ERROR_INVALID_JSON, "four hex digits" },
  { "nul-escape", "[\"a\\u0000b\"]", -1, ATP_ERROR_INVALID_JSON, "\\u0000 is not allowed" },
  { "lone-high", "[\"\\ud83d\"]", -1, ATP_ERROR_INVALID_JSON, "unpaired UTF-16 surrogate \\ud83d" },
  { "lone-low", "[\"\\ude00x\"]", -1, ATP_ERROR_INVALID_JSON, "unpaired UTF-16 surrogate \\ude00" },
  { "high-high", "[\"\\ud83d\\ud83d\"]", -1, ATP_ERROR_INVALID_JSON, "unpaired" },
  /* hostile */
  { "invalid-utf8", "{\"a\": \"\xc3\x28\"}", -1, ATP_ERROR_INVALID_JSON, "invalid UTF-8" },
  { "overlong-utf8", "[\"\xc0\xaf\"]", -1, ATP_ERROR_INVALID_JSON, "invalid UTF-8" },
  { "surrogate-utf8", "[\"\xed\xa0\x80\"]", -1, ATP_ERROR_INVALID_JSON, "invalid UTF-8" },
  { "nul-byte", "[1]\0[2]", 7, ATP_ERROR_INVALID_JSON, "NUL byte" },
  { "bom", "\xef\xbb\xbf{}", -1, ATP_ERROR_INVALID_JSON, "unexpected byte 0xef" },
  { "int-overflow", "[9223372036854775808]", -1, ATP_ERROR_INVALID_JSON, "integer out of range" },
  { "int-underflow", "[-9223372036854775809]", -1, ATP_ERROR_INVALID_JSON, "integer out of range" },
  { "int-huge", "[123456789012345678901234567890]", -1, ATP_ERROR_INVALID_JSON, "integer out of range" },
  { "float-overflow", "[1e400]", -1, ATP_ERROR_INVALID_JSON, "number out of range" },
  { "float-overflow-neg", "[-1.5E+309]", -1, ATP_ERROR_INVALID_JSON, "number out of range" },
  { "duplicate", "{\"a\": 1, \"a\": 2}", -1, ATP_ERROR_INVALID_JSON, "duplicate member name \"a\"" },
  { "duplicate-nested", "{\"x\": [{\"k\": 1, \"j\": 2, \"k\": 3}]}", -1, ATP_ERROR_INVALID_JSON, "duplicate member name \"k\"" },
  { "duplicate-escaped", "{\"a\": 1, \"\\u0061\": 2}", -1, ATP_ERROR_INVALID_JSON, "duplicate member name \"a\"" },
};

static void
test_parse_case (gconstpointer data)
{
  const ParseCase *c = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;

  root = atp_json_parse (c->input, c->length, 0, &error);
  if (c->code < 0)
    {
      g_assert_no_error (error);
      g_assert_nonnull (root);
    }
  else
    {
      g_assert_null (root);
      atp_assert_error (error, c->code, c->needle);
    }
}

static char *
nested (guint       depth,
        const char *open,
        const char *close)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < depth; i++)
    g_string_append (s, open);
  g_string_append (s, "1");
  for (guint i = 0; i < depth; i++)
    g_string_append (s, close);
  return g_string_free (s, FALSE);
}

static void
test_parse_depth (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *ok_arrays = nested (ATP_MAX_JSON_DEPTH, "[", "]");
  g_autofree char *deep_arrays = nested (ATP_MAX_JSON_DEPTH + 1, "[", "]");
  g_autofree char *deep_objects = nested (ATP_MAX_JSON_DEPTH + 1, "{\"a\":", "}");
  g_autofree char *very_deep = nested (1000000, "[", "]");
  JsonNode *root;

  root = atp_json_parse (ok_arrays, -1, 0, &error);
  g_assert_no_error (error);
  json_node_unref (root);

  root = atp_json_parse (deep_arrays, -1, 0, &error);
  g_assert_null (root);
  atp_assert_error (error, ATP_ERROR_INVALID_JSON, "nested deeper than 64 levels", "column 65");
  g_clear_error (&error);

  root = atp_json_parse (deep_objects, -1, 0, &error);
  g_assert_null (root);
  atp_assert_error (error, ATP_ERROR_INVALID_JSON, "nested deeper than 64 levels");
  g_clear_error (&error);

  /* A million levels: refused before json-glib recurses. */
  root = atp_json_parse (very_deep, -1, 0, &error);
  g_assert_null (root);
  atp_assert_error (error, ATP_ERROR_INVALID_JSON, "nested deeper");
}

static void
test_parse_many_members (void)
{
  g_autoptr(GError) error = NULL;
  GString *text = g_string_new ("{");
  g_autofree char *ok_text = NULL;
  g_autofree char *dup_text = NULL;
  g_autofree char *escaped_text = NULL;
  g_autofree char *nested_text = NULL;
  JsonNode *root;

  /* Past the linear search (a hash set then) and past the inline storage. */
  for (guint i = 0; i < 300; i++)
    g_string_append_printf (text, "%s\"k%u\": {\"a\": 1, \"b\": [{\"a\": 2}]}", i > 0 ? ", " : "", i);
  ok_text = g_strconcat (text->str, "}", NULL);
  dup_text = g_strconcat (text->str, ", \"k7\": 0}", NULL);
  escaped_text = g_strconcat (text->str, ", \"\\u006b299\": 0}", NULL);
  g_string_free (text, TRUE);

  root = atp_json_parse (ok_text, -1, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_object_get_size (json_node_get_object (root)), ==, 300);
  json_node_unref (root);

  root = atp_json_parse (dup_text, -1, 0, &error);
  g_assert_null (root);
  atp_assert_error (error, ATP_ERROR_INVALID_JSON, "duplicate member name \"k7\"");
  g_clear_error (&error);

  root = atp_json_parse (escaped_text, -1, 0, &error);
  g_assert_null (root);
  atp_assert_error (error, ATP_ERROR_INVALID_JSON, "duplicate member name \"k299\"");
  g_clear_error (&error);

  /* Names of closed objects are forgotten; those of open ones are not. */
  text = g_string_new (NULL);
  for (guint i = 0; i < 60; i++)
    g_string_append_printf (text, "{\"x\": 1, \"y%u\": ", i);
  g_string_append (text, "{\"x\": 2, \"x\": 3}");
  for (guint i = 0; i < 60; i++)
    g_string_append_c (text, '}');
  nested_text = g_string_free (text, FALSE);
  root = atp_json_parse (nested_text, -1, 0, &error);
  g_assert_null (root);
  atp_assert_error (error, ATP_ERROR_INVALID_JSON, "duplicate member name \"x\"");
  g_clear_error (&error);

  root = atp_json_parse ("[{\"a\": 1}, {\"a\": 2}, {\"b\": {\"a\": 3}, \"a\": 4}]", -1, 0, &error);
  g_assert_no_error (error);
  json_node_unref (root);
}

static void
test_parse_size (void)
{
  g_autoptr(GError) error = NULL;
  JsonNode *root;

  root = atp_json_parse ("[1, 2, 3]", -1, 9, &error);
  g_assert_no_error (error);
  json_node_unref (root);

  root = atp_json_parse ("[1, 2, 3] ", -1, 9, &error);
  g_assert_null (root);
  atp_assert_error (error, ATP_ERROR_PAYLOAD_TOO_LARGE, "10 bytes", "limit of 9 bytes");
}

static void
test_parse_huge_string (void)
{
  g_autoptr(GError) error = NULL;
  gsize n = 4 * 1024 * 1024;
  g_autofree char *text = g_malloc (n + 5);
  g_autoptr(JsonNode) root = NULL;

  text[0] = '[';
  text[1] = '"';
  memset (text + 2, 'x', n);
  text[n + 2] = '"';
  text[n + 3] = ']';
  text[n + 4] = '\0';

  root = atp_json_parse (text, -1, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (json_array_get_string_element (json_node_get_array (root), 0)), ==, n);

  g_clear_pointer (&root, json_node_unref);
  root = atp_json_parse (text, -1, ATP_MAX_NOTIFICATION_SIZE, &error);
  g_assert_null (root);
  atp_assert_error (error, ATP_ERROR_PAYLOAD_TOO_LARGE, "limit");
}

static void
test_parse_not_nul_terminated (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  /* The length bounds the text; what follows must not be read. */
  const char text[] = "[12]345";

  root = atp_json_parse (text, 4, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_array_get_int_element (json_node_get_array (root), 0), ==, 12);
}

static void
test_parse_values (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonArray *array;

  root = atp_json_parse ("[9223372036854775807, -9223372036854775808, -0, 2.5, \"\\ud83d\\ude00\\n\", 1e-400]",
                         -1, 0, &error);
  g_assert_no_error (error);
  array = json_node_get_array (root);
  g_assert_cmpint (json_array_get_int_element (array, 0), ==, G_MAXINT64);
  g_assert_cmpint (json_array_get_int_element (array, 1), ==, G_MININT64);
  g_assert_cmpint (json_array_get_int_element (array, 2), ==, 0);
  g_assert_cmpfloat (json_array_get_double_element (array, 3), ==, 2.5);
  g_assert_cmpstr (json_array_get_string_element (array, 4), ==, "😀\n");
  g_assert_cmpfloat (json_array_get_double_element (array, 5), ==, 0.0);
}

typedef struct
{
  const char *input;
  const char *output;
} OutputCase;

static const OutputCase output_cases[] = {
  { "{ \"b\" : 1, \"a\" : [ ] , \"c\": {} }", "{\"b\":1,\"a\":[],\"c\":{}}" },
  { "[1, -1, 0, -0, 9223372036854775807]", "[1,-1,0,0,9223372036854775807]" },
  { "[1.0, 2.50, -0.0, 0.1, 0.05, 1e22, 1.5e-7, 123456789.125]",
    "[1.0,2.5,-0.0,0.1,0.05,1e+22,1.5e-07,123456789.125]" },
  { "[0.30000000000000004, 1.7976931348623157e308, 5e-324]",
    "[0.30000000000000004,1.7976931348623157e+308,4.94065645841247e-324]" },
  { "[\"q\\\"b\\\\s\\/n\\n\\r\\t\\b\\f\\u0001\\u001f\\u007f é 😀\"]",
    "[\"q\\\"b\\\\s/n\\n\\r\\t\\b\\f\\u0001\\u001f\x7f é 😀\"]" },
  { "[true, false, null]", "[true,false,null]" },
};

static void
test_output (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (output_cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) root = atp_json_parse (output_cases[i].input, -1, 0, &error);
      g_autoptr(JsonNode) again = NULL;
      g_autofree char *text = NULL;
      g_autofree char *text2 = NULL;
      gsize length = 0;

      g_assert_no_error (error);
      text = atp_json_to_string (root, &length);
      g_assert_cmpstr (text, ==, output_cases[i].output);
      g_assert_cmpuint (length, ==, strlen (text));

      /* Stable: the output parses back to an equal value with the same text. */
      again = atp_json_parse (text, -1, 0, &error);
      g_assert_no_error (error);
      g_assert_true (atp_json_node_equal (root, again));
      text2 = atp_json_to_string (again, NULL);
      g_assert_cmpstr (text, ==, text2);
    }
}

static void
test_output_object_and_null (void)
{
  g_autoptr(JsonObject) object = json_object_new ();
  g_autofree char *text = NULL;
  g_autofree char *null_text = NULL;
  gsize length;

  json_object_set_string_member (object, "z", "1");
  json_object_set_int_member (object, "a", 2);
  text = atp_json_object_to_string (object, &length);
  g_assert_cmpstr (text, ==, "{\"z\":\"1\",\"a\":2}");
  g_assert_cmpuint (length, ==, 15);

  null_text = atp_json_to_string (NULL, NULL);
  g_assert_cmpstr (null_text, ==, "null");
}

static void
test_error_body (void)
{
  g_autoptr(JsonObject) details = json_object_new ();
  g_autofree char *body = NULL;
  g_autofree char *body2 = NULL;

  json_object_set_string_member (details, "notification_id", "550e8400-e29b-41d4-a716-446655440000");
  body = atp_json_error_body ("NOTIFICATION_EXPIRED", "Too late", details, "req_1");
  g_assert_cmpstr (body, ==,
                   "{\"code\":\"NOTIFICATION_EXPIRED\",\"message\":\"Too late\","
                   "\"details\":{\"notification_id\":\"550e8400-e29b-41d4-a716-446655440000\"},"
                   "\"request_id\":\"req_1\"}");

  body2 = atp_json_error_body ("INTERNAL_ERROR", "a \"quote\"", NULL, NULL);
  g_assert_cmpstr (body2, ==, "{\"code\":\"INTERNAL_ERROR\",\"message\":\"a \\\"quote\\\"\"}");
}

static void
test_node_equal (void)
{
  g_autoptr(JsonNode) a = atp_json_parse ("{\"x\": [1, 2.0, \"s\", null, {\"y\": true}], \"z\": 3}", -1, 0, NULL);
  g_autoptr(JsonNode) b = atp_json_parse ("{\"z\": 3.0, \"x\": [1.0, 2, \"s\", null, {\"y\": true}]}", -1, 0, NULL);
  g_autoptr(JsonNode) c = atp_json_parse ("{\"z\": 3, \"x\": [1, 2, \"s\", null, {\"y\": false}]}", -1, 0, NULL);
  g_autoptr(JsonNode) d = atp_json_parse ("{\"z\": 3, \"x\": [1, 2, \"s\", null]}", -1, 0, NULL);
  g_autoptr(JsonNode) e = atp_json_parse ("{\"z\": 3, \"w\": [1, 2, \"s\", null, {\"y\": true}]}", -1, 0, NULL);
  g_autoptr(JsonNode) big1 = atp_json_parse ("9007199254740993", -1, 0, NULL);
  g_autoptr(JsonNode) big2 = atp_json_parse ("9007199254740992", -1, 0, NULL);
  g_autoptr(JsonNode) null_node = atp_json_parse ("null", -1, 0, NULL);
  g_autoptr(JsonNode) str = atp_json_parse ("\"1\"", -1, 0, NULL);
  g_autoptr(JsonNode) one = atp_json_parse ("1", -1, 0, NULL);
  g_autoptr(JsonNode) yes = atp_json_parse ("true", -1, 0, NULL);

  g_assert_true (atp_json_node_equal (a, b));
  g_assert_false (atp_json_node_equal (a, c));
  g_assert_false (atp_json_node_equal (a, d));
  g_assert_false (atp_json_node_equal (a, e));
  g_assert_false (atp_json_node_equal (big1, big2));
  g_assert_true (atp_json_node_equal (NULL, null_node));
  g_assert_true (atp_json_node_equal (NULL, NULL));
  g_assert_false (atp_json_node_equal (NULL, one));
  g_assert_false (atp_json_node_equal (str, one));
  g_assert_false (atp_json_node_equal (yes, one));
}

typedef struct
{
  const char *input;
  const char *output;     /* NULL: refused */
} TimeCase;

static const TimeCase time_cases[] = {
  { "2025-05-25T10:30:00Z", "2025-05-25T10:30:00Z" },
  { "2025-05-25t10:30:00z", "2025-05-25T10:30:00Z" },
  { "2025-05-25T12:30:00+02:00", "2025-05-25T10:30:00Z" },
  { "2025-05-25T00:30:00-05:30", "2025-05-25T06:00:00Z" },
  { "2025-05-25T10:30:00-00:00", "2025-05-25T10:30:00Z" },
  { "2025-05-25T10:30:00.5Z", "2025-05-25T10:30:00.500000Z" },
  { "2025-05-25T10:30:00.123456Z", "2025-05-25T10:30:00.123456Z" },
  { "2025-05-25T10:30:00.1234567891Z", "2025-05-25T10:30:00.123456Z" },
  { "2025-05-25T10:30:00.000Z", "2025-05-25T10:30:00Z" },
  { "2024-02-29T23:59:59Z", "2024-02-29T23:59:59Z" },
  { "2025-12-31T23:30:00-01:00", "2026-01-01T00:30:00Z" },
  { "0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z" },
  { "0001-01-01T00:30:00-01:00", "0001-01-01T01:30:00Z" },
  { "9999-12-31T23:59:59.999999Z", "9999-12-31T23:59:59.999999Z" },
  { "0001-01-01T00:30:00+01:00", NULL },      /* year 0 in UTC */
  { "9999-12-31T23:30:00-01:00", NULL },      /* year 10000 in UTC */
  { "2025-05-25T10:30:00", NULL },            /* no offset */
  { "2025-05-25 10:30:00Z", NULL },
  { "2025-05-25", NULL },
  { "20250525T103000Z", NULL },
  { "2025-W21-7T10:30:00Z", NULL },
  { "2025-05-25T10:30Z", NULL },
  { "2025-05-25T10:30:00.Z", NULL },
  { "2025-05-25T10:30:00+0200", NULL },
  { "2025-05-25T10:30:00+24:00", NULL },
  { "2025-05-25T10:30:00+02:60", NULL },
  { "2025-02-29T10:30:00Z", NULL },
  { "2025-13-01T10:30:00Z", NULL },
  { "2025-00-01T10:30:00Z", NULL },
  { "2025-05-32T10:30:00Z", NULL },
  { "2025-05-25T24:00:00Z", NULL },
  { "2025-05-25T10:60:00Z", NULL },
  { "2016-12-31T23:59:60Z", NULL },           /* leap second */
  { "0000-01-01T00:00:00Z", NULL },
  { "2025-05-25T10:30:00Z ", NULL },
  { " 2025-05-25T10:30:00Z", NULL },
  { "2025-05-25T10:30:00ZZ", NULL },
  { "", NULL },
};

static void
test_timestamps (void)
{
  g_assert_null (atp_parse_timestamp (NULL));

  for (guint i = 0; i < G_N_ELEMENTS (time_cases); i++)
    {
      g_autoptr(GDateTime) time = atp_parse_timestamp (time_cases[i].input);

      if (time_cases[i].output == NULL)
        {
          if (time != NULL)
            g_error ("\"%s\" must be refused", time_cases[i].input);
        }
      else
        {
          g_autofree char *text = NULL;

          if (time == NULL)
            g_error ("\"%s\" must be accepted", time_cases[i].input);
          text = atp_format_timestamp (time);
          g_assert_cmpstr (text, ==, time_cases[i].output);
        }
    }
}

static void
test_timestamp_keeps_offset (void)
{
  g_autoptr(GDateTime) time = atp_parse_timestamp ("2025-05-25T12:30:00+02:00");
  g_autoptr(GDateTime) utc = atp_parse_timestamp ("2025-05-25T10:30:00Z");

  g_assert_cmpint (g_date_time_get_utc_offset (time), ==, 2 * G_TIME_SPAN_HOUR);
  g_assert_true (g_date_time_equal (time, utc));

  /* A time built elsewhere that has no UTC form in GDateTime keeps its offset. */
  {
    g_autoptr(GTimeZone) tz = g_time_zone_new_offset (3600);
    g_autoptr(GDateTime) edge = g_date_time_new (tz, 1, 1, 1, 0, 30, 0);
    g_autofree char *text = NULL;

    g_assert_nonnull (edge);
    text = atp_format_timestamp (edge);
    g_assert_cmpstr (text, ==, "0001-01-01T00:30:00+01:00");
  }
}

static void
test_uuid (void)
{
  g_autofree char *fresh = atp_new_uuid ();

  g_assert_true (atp_is_uuid_v4 ("550e8400-e29b-41d4-a716-446655440000"));
  g_assert_true (atp_is_uuid_v4 ("550E8400-E29B-41D4-A716-446655440000"));
  g_assert_true (atp_is_uuid_v4 ("550e8400-e29b-41d4-b716-446655440000"));
  g_assert_true (atp_is_uuid_v4 ("550e8400-e29b-41d4-8716-446655440000"));
  g_assert_true (atp_is_uuid_v4 (fresh));
  g_assert_true (atp_is_uuid_v4 ("00000000-0000-4000-8000-000000000000"));

  g_assert_false (atp_is_uuid_v4 (NULL));
  g_assert_false (atp_is_uuid_v4 (""));
  g_assert_false (atp_is_uuid_v4 ("550e8400-e29b-11d4-a716-446655440000"));  /* v1 */
  g_assert_false (atp_is_uuid_v4 ("550e8400-e29b-41d4-c716-446655440000"));  /* variant */
  g_assert_false (atp_is_uuid_v4 ("550e8400-e29b-41d4-a716-44665544000"));
  g_assert_false (atp_is_uuid_v4 ("550e8400-e29b-41d4-a716-4466554400000"));
  g_assert_false (atp_is_uuid_v4 ("550e8400e29b41d4a716446655440000"));
  g_assert_false (atp_is_uuid_v4 ("{550e8400-e29b-41d4-a716-446655440000}"));
  g_assert_false (atp_is_uuid_v4 ("550e8400-e29b-41d4-a716-44665544000g"));
  g_assert_false (atp_is_uuid_v4 ("550e8400_e29b-41d4-a716-446655440000"));
  g_assert_false (atp_is_uuid_v4 ("550e8400-e29b-41d4-a716-446655440000\n"));
}

/* The characters that reorder the text after them are the embeddings,
 * overrides and isolates, every one of them; the marks right-to-left text
 * needs, and the characters next to the two ranges, are not. */
static void
test_bidi_override (void)
{
  const gunichar overrides[] = { 0x202a, 0x202b, 0x202c, 0x202d, 0x202e,
                                 0x2066, 0x2067, 0x2068, 0x2069 };
  const gunichar others[] = { 0x200e, 0x200f, 0x061c, 0x2029, 0x202f, 0x2065, 0x206a,
                              'a', 0x05d0, 0x0085, '\n' };

  for (guint i = 0; i < G_N_ELEMENTS (overrides); i++)
    g_assert_true (atp_unichar_is_bidi_override (overrides[i]));
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    g_assert_false (atp_unichar_is_bidi_override (others[i]));
}

/* atp_new_uuid () writes its text itself: the very text GLib's
 * g_uuid_string_random () makes of the same random numbers, and a v4. */
static void
test_uuid_as_glib (void)
{
  for (guint32 seed = 1; seed <= 2000; seed++)
    {
      g_autofree char *ours = NULL, *glib = NULL;

      g_random_set_seed (seed);
      ours = atp_new_uuid ();
      g_random_set_seed (seed);
      glib = g_uuid_string_random ();
      g_assert_cmpstr (ours, ==, glib);
      g_assert_true (atp_is_uuid_v4 (ours));
    }
}

/* Laid out, with strings and numbers exactly as written; checked as parsing checks. */
static void
test_pretty (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  text = atp_json_pretty (" {\"a\" : [ ] ,\"b\":{},\"c\":[0.1,-0,1E+3,18446744073709551616],"
                          "\"d\":\"x, \\\"y\\\": [z]\"} ", -1, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==,
                   "{\n"
                   "  \"a\": [],\n"
                   "  \"b\": {},\n"
                   "  \"c\": [\n"
                   "    0.1,\n"
                   "    -0,\n"
                   "    1E+3,\n"
                   "    18446744073709551616\n"
                   "  ],\n"
                   "  \"d\": \"x, \\\"y\\\": [z]\"\n"
                   "}");
  g_clear_pointer (&text, g_free);

  text = atp_json_pretty ("\"just a string\"", -1, 0, &error);
  g_assert_cmpstr (text, ==, "\"just a string\"");
  g_clear_pointer (&text, g_free);

  g_assert_null (atp_json_pretty ("[1, 2,]", -1, 0, &error));
  g_assert_error (error, ATP_ERROR, ATP_ERROR_INVALID_JSON);
  g_clear_error (&error);
  g_assert_null (atp_json_pretty ("{\"a\": 1, \"a\": 2}", -1, 0, &error));
  g_assert_error (error, ATP_ERROR, ATP_ERROR_INVALID_JSON);
  g_clear_error (&error);
  /* Past a double: still JSON, shown as written. */
  text = atp_json_pretty ("[1e999]", -1, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, "[\n  1e999\n]");
  g_assert_null (atp_json_pretty ("[1, 2, 3]", -1, 5, &error));
  g_assert_error (error, ATP_ERROR, ATP_ERROR_PAYLOAD_TOO_LARGE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (parse_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/atp/json/parse/%s", parse_cases[i].name);

      g_test_add_data_func (path, &parse_cases[i], test_parse_case);
    }
  g_test_add_func ("/atp/json/parse/depth", test_parse_depth);
  g_test_add_func ("/atp/json/parse/size", test_parse_size);
  g_test_add_func ("/atp/json/parse/many-members", test_parse_many_members);
  g_test_add_func ("/atp/json/parse/huge-string", test_parse_huge_string);
  g_test_add_func ("/atp/json/parse/not-nul-terminated", test_parse_not_nul_terminated);
  g_test_add_func ("/atp/json/parse/values", test_parse_values);
  g_test_add_func ("/atp/json/output/values", test_output);
  g_test_add_func ("/atp/json/output/object-and-null", test_output_object_and_null);
  g_test_add_func ("/atp/json/error-body", test_error_body);
  g_test_add_func ("/atp/json/node-equal", test_node_equal);
  g_test_add_func ("/atp/json/timestamp/forms", test_timestamps);
  g_test_add_func ("/atp/json/timestamp/keeps-offset", test_timestamp_keeps_offset);
  g_test_add_func ("/atp/json/uuid", test_uuid);
  g_test_add_func ("/atp/json/uuid-as-glib", test_uuid_as_glib);
  g_test_add_func ("/atp/json/bidi-override", test_bidi_override);
  g_test_add_func ("/atp/json/pretty", test_pretty);

  return g_test_run ();
}
