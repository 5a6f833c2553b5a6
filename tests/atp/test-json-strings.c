/* test-json-strings.c — atp_json_strings_to_string () and times already in UTC
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "atp-test-common.h"

/* The text of the tree json_object_set_string_member () would build. */
static char *
via_tree (const char * const *pairs,
          gsize               n)
{
  g_autoptr(JsonObject) object = json_object_new ();

  for (gsize i = 0; i + 1 < n; i += 2)
    if (pairs[i + 1] != NULL)
      json_object_set_string_member (object, pairs[i], pairs[i + 1]);
  return atp_json_object_to_string (object, NULL);
}

static void
test_same_as_tree (void)
{
  const char *status[] = { "notification_id", "5f0c…", "status", "delivered", "reason", NULL,
                           "timestamp", "2026-11-29T22:15:27.123456Z" };
  const char *escaped[] = { "a", "quote \" backslash \\ tab \t newline \n", "\x01", "ctl\x1f",
                            "é", "ü → ✓" };
  g_autofree char *status_text = atp_json_strings_to_string (
    "notification_id", "5f0c…", "status", "delivered", "reason", NULL,
    "timestamp", "2026-11-29T22:15:27.123456Z", NULL);
  g_autofree char *status_tree = via_tree (status, G_N_ELEMENTS (status));
  g_autofree char *escaped_text = atp_json_strings_to_string (
    "a", "quote \" backslash \\ tab \t newline \n", "\x01", "ctl\x1f", "é", "ü → ✓", NULL);
  g_autofree char *escaped_tree = via_tree (escaped, G_N_ELEMENTS (escaped));
  g_autofree char *one = atp_json_strings_to_string ("only", NULL, NULL);
  g_autoptr(JsonNode) back = NULL;
  JsonObject *object;

  g_assert_cmpstr (status_text, ==, status_tree);
  g_assert_cmpstr (status_text, ==,
                   "{\"notification_id\":\"5f0c…\",\"status\":\"delivered\","
                   "\"timestamp\":\"2026-11-29T22:15:27.123456Z\"}");
  g_assert_cmpstr (escaped_text, ==, escaped_tree);
  g_assert_cmpstr (one, ==, "{}");

  /* And it reads back as the strings given. */
  back = atp_json_parse (escaped_text, -1, 0, NULL);
  g_assert_nonnull (back);
  object = json_node_get_object (back);
  g_assert_cmpstr (json_object_get_string_member (object, "a"), ==,
                   "quote \" backslash \\ tab \t newline \n");
  g_assert_cmpstr (json_object_get_string_member (object, "\x01"), ==, "ctl\x1f");
  g_assert_cmpstr (json_object_get_string_member (object, "é"), ==, "ü → ✓");
}

/* A time at offset 0 is written as it is, in whatever zone it was made;
 * others are converted. */
/* A status update's text is its tree's, with and without a reason. */
static void
test_status_update (void)
{
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
  g_autoptr(GDateTime) when = g_date_time_new (utc, 2026, 11, 29, 22, 15, 27.25);
  const char *reasons[] = { NULL, "no longer \"needed\"" };

  for (guint i = 0; i < G_N_ELEMENTS (reasons); i++)
    {
      g_autoptr(AtpStatusUpdate) update = atp_status_update_new ("5f0c", ATP_STATUS_INVALIDATED,
                                                                 reasons[i], when);
      g_autoptr(JsonNode) tree = atp_status_update_to_json (update);
      g_autofree char *via_tree = atp_json_to_string (tree, NULL);
      g_autofree char *text = atp_status_update_to_string (update);

      g_assert_cmpstr (text, ==, via_tree);
    }
}

static void
test_timestamp_utc (void)
{
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
  g_autoptr(GTimeZone) zero = g_time_zone_new_offset (0);
  g_autoptr(GTimeZone) plus = g_time_zone_new_offset (2 * 3600 + 30 * 60);
  g_autoptr(GDateTime) in_utc = g_date_time_new (utc, 2026, 11, 29, 22, 15, 27.5);
  g_autoptr(GDateTime) at_zero = g_date_time_new (zero, 2026, 11, 29, 22, 15, 27);
  g_autoptr(GDateTime) ahead = g_date_time_new (plus, 2026, 11, 30, 0, 45, 27);
  g_autofree char *a = atp_format_timestamp (in_utc);
  g_autofree char *b = atp_format_timestamp (at_zero);
  g_autofree char *c = atp_format_timestamp (ahead);

  g_assert_cmpstr (a, ==, "2026-11-29T22:15:27.500000Z");
  g_assert_cmpstr (b, ==, "2026-11-29T22:15:27Z");
  g_assert_cmpstr (c, ==, "2026-11-29T22:15:27Z");
}

/* The date and time of the second written last are kept: each of a row of
 * times, in the same second or not, back and forth, is written in full,
 * and the ends of the years it can write too. */
static void
test_timestamp_row (void)
{
  static const gint64 seconds[] = { 1796076927, 1796076927, 1796076928, 1796076927, 1796076927,
                                    -62135596800 /* 0001-01-01 */, 253402300799 /* 9999 */ };
  static const int usecs[] = { 1, 999999, 0, 120000, 0, 5, 999999 };

  for (guint i = 0; i < G_N_ELEMENTS (seconds); i++)
    {
      g_autoptr(GDateTime) whole = g_date_time_new_from_unix_utc (seconds[i]);
      g_autoptr(GDateTime) time = g_date_time_add (whole, usecs[i]);
      g_autofree char *text = atp_format_timestamp (time);
      g_autofree char *rest = g_date_time_format (time, "%m-%dT%H:%M:%S");
      g_autofree char *day = g_strdup_printf ("%04d-%s", g_date_time_get_year (time), rest);
      g_autofree char *expected = usecs[i] != 0 ? g_strdup_printf ("%s.%06dZ", day, usecs[i])
                                                : g_strconcat (day, "Z", NULL);

      g_assert_cmpstr (text, ==, expected);
    }
}

/* What the writer must give for @text, a byte at a time. */
static char *
escaped (const char *text)
{
  GString *out = g_string_new ("\"");

  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_printf (out, "\\%c", *p);
      else if (*p == '\n')
        g_string_append (out, "\\n");
      else if (*p == '\t')
        g_string_append (out, "\\t");
      else if (*p < 0x20)
        g_string_append_printf (out, "\\u%04x", *p);
      else
        g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
  return g_string_free (out, FALSE);
}

/* The writer passes over plain text sixteen bytes at a time: a character to
 * escape (or a multi-byte one to copy) at every offset around the block's
 * edges, in strings of every length around them, is written as a byte at a
 * time would. */
static void
test_string_blocks (void)
{
  static const char * const specials[] = { "\"", "\\", "\n", "\t", "\x01", "\x1f", "é", "€" };

  for (guint length = 0; length <= 40; length++)
    for (guint at = 0; at <= length; at++)
      for (guint k = 0; k < G_N_ELEMENTS (specials); k++)
        {
          g_autoptr(GString) text = g_string_new (NULL);
          g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);
          g_autofree char *written = NULL, *expected = NULL;

          for (guint i = 0; i < length; i++)
            {
              if (i == at)
                g_string_append (text, specials[k]);
              g_string_append_c (text, 'a' + i % 26);
            }
          if (at == length)
            g_string_append (text, specials[k]);
          json_node_set_string (node, text->str);
          written = atp_json_to_string (node, NULL);
          expected = escaped (text->str);
          g_assert_cmpstr (written, ==, expected);
        }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json/strings-to-string", test_same_as_tree);
  g_test_add_func ("/json/status-update", test_status_update);
  g_test_add_func ("/json/timestamp-utc", test_timestamp_utc);
  g_test_add_func ("/json/timestamp-row", test_timestamp_row);
  g_test_add_func ("/json/string-blocks", test_string_blocks);
  return g_test_run ();
}
