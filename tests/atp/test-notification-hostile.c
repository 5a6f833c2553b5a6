/* test-notification-hostile.c — hostile input: deep, huge and odd notifications
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "notification-test-common.h"

static void
test_hostile_deep_metadata (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autofree char *base = atp_json_to_string (root, NULL);
  GString *deep = g_string_new (NULL);
  g_autofree char *text = NULL;
  const char *cut;

  /* {"context": {"metadata": [[[…]]]}} past the limit, inside a real notification */
  cut = strstr (base, "\"title\"");
  g_string_append_len (deep, base, cut - base);
  g_string_append (deep, "\"metadata\":{\"d\":");
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, ']');
  g_string_append (deep, "},");
  g_string_append (deep, cut);
  text = g_string_free (deep, FALSE);

  n = atp_notification_new_from_data (text, -1, ATP_PARSE_DEFAULT, &error);
  g_assert_null (n);
  atp_assert_error (error, ATP_ERROR_INVALID_JSON, "nested deeper than 64 levels");
}

static void
test_hostile_size (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autoptr(AtpNotification) m = NULL;
  g_autofree char *big = g_malloc (ATP_MAX_NOTIFICATION_SIZE + 1);
  g_autofree char *text = NULL;
  g_autofree char *value = NULL;
  gsize length;

  /* Just under the limit: fine. */
  memset (big, 'A', ATP_MAX_NOTIFICATION_SIZE - 4096);
  big[ATP_MAX_NOTIFICATION_SIZE - 4096] = '\0';
  value = g_strdup_printf ("\"%s\"", big);
  atp_test_patch (root, "context.attachments[1].data", value);
  text = atp_json_to_string (root, &length);
  g_assert_cmpuint (length, <=, ATP_MAX_NOTIFICATION_SIZE);
  n = atp_notification_new_from_data (text, length, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (((AtpAttachment *) g_ptr_array_index (n->context.attachments, 1))->decoded_size, ==,
                    (ATP_MAX_NOTIFICATION_SIZE - 4096) / 4 * 3);

  /* Over it: refused before parsing. */
  g_free (value);
  g_free (text);
  memset (big, 'A', ATP_MAX_NOTIFICATION_SIZE);
  big[ATP_MAX_NOTIFICATION_SIZE] = '\0';
  value = g_strdup_printf ("\"%s\"", big);
  atp_test_patch (root, "context.attachments[1].data", value);
  text = atp_json_to_string (root, &length);
  m = atp_notification_new_from_data (text, length, ATP_PARSE_DEFAULT, &error);
  g_assert_null (m);
  atp_assert_error (error, ATP_ERROR_PAYLOAD_TOO_LARGE, "larger than the limit");
}

static void
test_hostile_text (void)
{
  static const struct { const char *text; int code; const char *needle; } cases[] = {
    { "{\"id\": \"\xff\"}", ATP_ERROR_INVALID_JSON, "invalid UTF-8" },
    { "{\"actions\": [], \"actions\": []}", ATP_ERROR_INVALID_JSON, "duplicate member name \"actions\"" },
    { "{\"context\": {\"metadata\": {\"n\": 1e400}}}", ATP_ERROR_INVALID_JSON, "number out of range" },
    { "{\"context\": {\"metadata\": {\"n\": 99999999999999999999}}}", ATP_ERROR_INVALID_JSON, "integer out of range" },
    { "{\"id\": \"a\\u0000b\"}", ATP_ERROR_INVALID_JSON, "\\u0000" },
    { "{\"id\": \"\\udc00\"}", ATP_ERROR_INVALID_JSON, "surrogate" },
    { "{\"id\": 1} trailing", ATP_ERROR_INVALID_JSON, "line 1, column 11" },
    { "", ATP_ERROR_INVALID_JSON, "unexpected end of input" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AtpNotification) n = NULL;

      n = atp_notification_new_from_data (cases[i].text, -1, ATP_PARSE_DEFAULT, &error);
      g_assert_null (n);
      atp_assert_error (error, cases[i].code, cases[i].needle);
    }
}

static void
test_hostile_huge_values (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  gsize big = 512 * 1024;
  g_autofree char *title = g_malloc (big + 3);
  g_autofree char *out = NULL;

  /* A huge title and large numbers are legal; they survive unchanged. */
  title[0] = '"';
  memset (title + 1, 'T', big);
  title[big + 1] = '"';
  title[big + 2] = '\0';
  atp_test_patch (root, "context.title", title);
  atp_test_patch (root, "context.metadata", "{\"big\": 9223372036854775807, \"small\": -9223372036854775808, "
                                            "\"tiny\": 5e-324, \"max\": 1.7976931348623157e308, \"negzero\": -0.0}");
  atp_test_patch (root, "actions[5].constraints.max", "1e300");
  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (n->context.title), ==, big);
  out = atp_test_assert_round_trip (n);
  g_assert_nonnull (strstr (out, "\"big\":9223372036854775807,\"small\":-9223372036854775808"));
  g_assert_nonnull (strstr (out, "\"max\":1e+300"));
}

void
notification_test_add_hostile (void)
{
  g_test_add_func ("/atp/notification/hostile/deep-metadata", test_hostile_deep_metadata);
  g_test_add_func ("/atp/notification/hostile/size", test_hostile_size);
  g_test_add_func ("/atp/notification/hostile/text", test_hostile_text);
  g_test_add_func ("/atp/notification/hostile/huge-values", test_hostile_huge_values);
}
