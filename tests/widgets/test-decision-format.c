/* test-decision-format.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The words of the decision view: countdown, counters, flags, values,
 * reasons, answers (suite 'unit': no display).
 */

#define G_LOG_DOMAIN "test-decision-format"

#include <locale.h>
#include <pango/pangocairo.h>
#include <string.h>

#include "triage-atp-format.h"
#include "triage-decision-format.h"
#include "widgets-test-util.h"

static void
assert_countdown (GTimeSpan   remaining,
                  const char *expected)
{
  g_autofree char *text = triage_format_countdown (remaining);

  g_assert_cmpstr (text, ==, expected);
}

static void
test_countdown (void)
{
  assert_countdown (4 * G_TIME_SPAN_MINUTE + 12 * G_TIME_SPAN_SECOND, "Due in 4 min 12 s");
  /* Rounded up: "0" only at the deadline. */
  assert_countdown (4 * G_TIME_SPAN_MINUTE + 11 * G_TIME_SPAN_SECOND + 1, "Due in 4 min 12 s");
  assert_countdown (G_TIME_SPAN_SECOND / 2, "Due in 1 s");
  assert_countdown (42 * G_TIME_SPAN_SECOND, "Due in 42 s");
  assert_countdown (G_TIME_SPAN_MINUTE, "Due in 1 min 0 s");
  assert_countdown (2 * G_TIME_SPAN_HOUR + 5 * G_TIME_SPAN_MINUTE, "Due in 2 h 5 min");
  assert_countdown (3 * G_TIME_SPAN_DAY + 4 * G_TIME_SPAN_HOUR, "Due in 3 d 4 h");
  assert_countdown (2 * G_TIME_SPAN_DAY, "Due in 2 d");
  assert_countdown (0, "Expired");
  assert_countdown (-5 * G_TIME_SPAN_SECOND, "Expired");
}

static void
assert_spoken (GTimeSpan   remaining,
               const char *expected)
{
  g_autofree char *text = triage_format_countdown_spoken (remaining);

  g_assert_cmpstr (text, ==, expected);
}

/* What a screen reader is told: it changes once a minute at most. */
static void
test_countdown_spoken (void)
{
  assert_spoken (4 * G_TIME_SPAN_MINUTE + 12 * G_TIME_SPAN_SECOND, "Due in 4 min");
  assert_spoken (4 * G_TIME_SPAN_MINUTE + 1, "Due in 4 min");
  assert_spoken (4 * G_TIME_SPAN_MINUTE, "Due in 4 min");
  assert_spoken (G_TIME_SPAN_MINUTE, "Due in 1 min");
  assert_spoken (G_TIME_SPAN_MINUTE - 1, "Due in 1 min");   /* rounded up, as shown */
  assert_spoken (59 * G_TIME_SPAN_SECOND, "Due in less than a minute");
  assert_spoken (G_TIME_SPAN_SECOND / 2, "Due in less than a minute");
  assert_spoken (2 * G_TIME_SPAN_HOUR + 5 * G_TIME_SPAN_MINUTE + 7 * G_TIME_SPAN_SECOND,
                 "Due in 2 h 5 min");
  assert_spoken (3 * G_TIME_SPAN_DAY + 4 * G_TIME_SPAN_HOUR, "Due in 3 d 4 h");
  assert_spoken (0, "Expired");
  assert_spoken (-5 * G_TIME_SPAN_SECOND, "Expired");
}

static void
test_time (void)
{
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
  g_autoptr(GDateTime) now = g_date_time_new (utc, 2026, 5, 3, 14, 30, 0);
  g_autoptr(GDateTime) today = g_date_time_new (utc, 2026, 5, 3, 9, 5, 0);
  g_autoptr(GDateTime) earlier = g_date_time_new (utc, 2026, 1, 2, 9, 5, 0);
  g_autoptr(GDateTime) last_year = g_date_time_new (utc, 2025, 1, 2, 9, 5, 0);
  g_autofree char *a = NULL, *b = NULL, *c = NULL;

  a = triage_format_time (today, now);
  b = triage_format_time (earlier, now);
  c = triage_format_time (last_year, now);
  g_assert_cmpstr (a, ==, "09:05");
  g_assert_cmpstr (b, ==, "2 Jan, 09:05");
  g_assert_cmpstr (c, ==, "2 Jan 2025, 09:05");
}

static void
test_counts (void)
{
  struct { guint n; gint64 min, max; const char *expected; } selections[] = {
    { 2, 1, 3, "2 of 1–3 selected" },
    { 2, 3, 3, "2 of 3 selected" },
    { 2, 0, 3, "2 of up to 3 selected" },
    { 2, 1, -1, "2 selected, at least 1" },
    { 0, 0, -1, "0 selected" },
  };
  struct { glong n; gint64 min, max; const char *expected; } lengths[] = {
    { 12, 10, 1000, "12 of 10–1000 characters" },
    { 12, 0, 1000, "12 of at most 1000 characters" },
    { 12, 10, -1, "12 characters, at least 10" },
    { 1, 0, -1, "1 character" },
    { 12, 0, -1, "12 characters" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (selections); i++)
    {
      g_autofree char *text = triage_format_selection_count (selections[i].n, selections[i].min,
                                                             selections[i].max);
      g_assert_cmpstr (text, ==, selections[i].expected);
    }
  for (guint i = 0; i < G_N_ELEMENTS (lengths); i++)
    {
      g_autofree char *text = triage_format_character_count (lengths[i].n, lengths[i].min,
                                                             lengths[i].max);
      g_assert_cmpstr (text, ==, lengths[i].expected);
    }
}

static void
test_flags (void)
{
  const char *known[] = { "destructive", "irreversible", "time_sensitive", "affects_others",
                          "costly", "experimental", "requires_confirmation" };
  TriageFlagInfo info;

  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    {
      triage_flag_info_init (&info, known[i]);
      g_assert_true (info.known);
      g_assert_nonnull (info.icon_name);
      g_assert_nonnull (info.label);
      g_assert_cmpstr (info.label, !=, known[i]);
      g_assert_true (g_str_has_suffix (info.consequence, "."));
      triage_flag_info_clear (&info);
    }

  triage_flag_info_init (&info, "destructive");
  g_assert_cmpstr (info.label, ==, "Destructive");
  g_assert_cmpstr (info.style_class, ==, "error");
  triage_flag_info_clear (&info);

  /* Unknown flags: a generic icon, the name made readable, never markup. */
  triage_flag_info_init (&info, "needs_legal-review");
  g_assert_false (info.known);
  g_assert_cmpstr (info.icon_name, ==, "emoji-flags-symbolic");
  g_assert_cmpstr (info.label, ==, "Needs legal review");
  g_assert_null (info.style_class);
  triage_flag_info_clear (&info);

  triage_flag_info_init (&info, "<b>x</b>\u202e\n");
  g_assert_cmpstr (info.label, ==, "<b>x</b>");
  triage_flag_info_clear (&info);

  triage_flag_info_init (&info, "__");
  g_assert_cmpstr (info.label, ==, "Unnamed flag");
  triage_flag_info_clear (&info);
}

static void
test_values (void)
{
  struct { const char *json; const char *expected; } cases[] = {
    { "\"2.1.0\"", "2.1.0" },
    { "47", "47" },
    { "98.5", "98.5" },
    { "true", "true" },
    { "null", "null" },
    { "{\"a\": [1, 2], \"b\": {\"c\": \"d\"}}", "{\"a\":[1,2],\"b\":{\"c\":\"d\"}}" },
    { "[\"eu-west-1\", \"us-east-1\"]", "[\"eu-west-1\",\"us-east-1\"]" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) node = atp_json_parse (cases[i].json, -1, 0, NULL);
      g_autofree char *text = triage_format_json_value (node, 0);

      g_assert_cmpstr (text, ==, cases[i].expected);
    }

  {
    g_autoptr(JsonNode) node = atp_json_parse ("\"abcdéfgh\"", -1, 0, NULL);
    g_autofree char *text = triage_format_json_value (node, 5);

    g_assert_cmpstr (text, ==, "abcdé…");
  }
}

static void
test_numbers (void)
{
  g_autoptr(JsonNode) integral = triage_json_number_new (42.0);
  g_autoptr(JsonNode) fractional = triage_json_number_new (0.75);
  g_autofree char *a = widgets_test_json (integral);
  g_autofree char *b = widgets_test_json (fractional);
  g_autofree char *c = triage_format_number (0.1 + 0.2, -1);
  g_autofree char *d = triage_format_number (0.75, 2);

  g_assert_cmpstr (a, ==, "42");
  g_assert_cmpstr (b, ==, "0.75");
  g_assert_cmpstr (c, ==, "0.30000000000000004");
  g_assert_cmpstr (d, ==, "0.75");

  g_assert_cmpint (triage_number_digits (0.05), ==, 2);
  g_assert_cmpint (triage_number_digits (10), ==, 0);
  g_assert_cmpint (triage_number_digits (0.1), ==, 1);
  g_assert_cmpint (triage_number_digits (-2.125), ==, 3);
}

/* An agent's text as every label shows it: control characters (but the line
 * break and the tab) and bidirectional overrides, embeddings and isolates
 * are shown as U+FFFD, never obeyed; right-to-left text is left as it is. */
static void
test_hidden_chars (void)
{
  struct { const char *text; const char *expected; } cases[] = {
    { "Delete cache \u202e~/ fr- mr\u202c\r now", "Delete cache \uFFFD~/ fr- mr\uFFFD\uFFFD now" },
    { "Safe.\x1b[8m hidden \x1b[0m", "Safe.\uFFFD[8m hidden \uFFFD[0m" },
    { "a\u2066b\u2067c\u2068d\u2069e\u202a\u202b\u202d", "a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFD\uFFFD\uFFFD" },
    { "del\x7f nel\xc2\x85 bell\a", "del\uFFFD nel\uFFFD bell\uFFFD" },
    { "two\nlines\tand a tab", "two\nlines\tand a tab" },
    /* Hebrew and Arabic, with the marks right-to-left text uses. */
    { "\u05e9\u05dc\u05d5\u05dd \u200f(1)", "\u05e9\u05dc\u05d5\u05dd \u200f(1)" },
    { "\u0645\u0631\u062d\u0628\u0627 \u061c\u0661\u0662 \u200e", "\u0645\u0631\u062d\u0628\u0627 \u061c\u0661\u0662 \u200e" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *cut = triage_format_cut_text (cases[i].text, 0);
      g_autofree char *shown = triage_format_shown_text (cases[i].text, 0);
      g_autofree char *short_cut = triage_format_cut_text (cases[i].text, 6);

      g_assert_cmpstr (cut, ==, cases[i].expected);
      g_assert_cmpstr (shown, ==, cases[i].expected);
      /* Cut or not, nothing hidden is left. */
      for (const char *p = short_cut; *p != '\0'; p = g_utf8_next_char (p))
        g_assert_false (triage_format_is_hidden_char (g_utf8_get_char (p)));
    }
}

/* An agent's text in a sentence of ours: a right-to-left one is followed by
 * a left-to-right mark, anything else is left as it is. */
static void
test_in_sentence (void)
{
  struct { const char *text; const char *expected; } cases[] = {
    { "Rollout", "Rollout" },
    { "", "" },
    { "12 %", "12 %" },
    { "\u05e4\u05e8\u05d9\u05e1\u05d4", "\u05e4\u05e8\u05d9\u05e1\u05d4\u200e" },
    { "Deploy \u0646\u0634\u0631 2", "Deploy \u0646\u0634\u0631 2\u200e" },
    /* Arabic-Indic digits pull a colon into their run (test_in_sentence_order) ... */
    { "\u0661\u0662", "\u0661\u0662\u200e" },
    /* ... the Extended ones read as ASCII digits do. */
    { "\u06f1\u06f2", "\u06f1\u06f2" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = triage_format_in_sentence (cases[i].text);
      g_autofree char *cut = triage_format_cut_text (text, 0);

      g_assert_cmpstr (text, ==, cases[i].expected);
      /* The mark is no hidden character: what shows the text keeps it. */
      g_assert_cmpstr (cut, ==, cases[i].expected);
    }
}

/* Where Pango draws @at, a part of @text, in a paragraph of the app (left to right). */
static int
x_of (PangoContext *context,
      const char   *text,
      const char   *at)
{
  g_autoptr(PangoLayout) layout = pango_layout_new (context);
  PangoRectangle pos;

  pango_layout_set_text (layout, text, -1);
  pango_layout_index_to_pos (layout, strstr (text, at) - text, &pos);
  return pos.x;
}

/* What the marks are for, as Pango lays out the history's wording of an
 * answer (triage_atp_describe_answer()): the action's label stays before
 * the colon, the answer after it, whatever their digits. */
static void
test_in_sentence_order (void)
{
  PangoContext *context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  const char *labels[] = { "\u0661\u0662", "\u06f1\u06f2", "CI 7" };
  g_autofree char *answer = triage_format_in_sentence ("\u0663\u0664");

  pango_context_set_base_dir (context, PANGO_DIRECTION_LTR);
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    {
      g_autofree char *label = triage_format_in_sentence (labels[i]);
      g_autofree char *sentence = g_strdup_printf ("\u2018%s\u2019: %s", label, answer);

      g_assert_cmpint (x_of (context, sentence, labels[i]), <, x_of (context, sentence, ":"));
      g_assert_cmpint (x_of (context, sentence, ":"), <, x_of (context, sentence, "\u0663"));
    }
  g_object_unref (context);
}

/* A text's direction is its first right-to-left or left-to-right letter's,
 * as Pango gives a label's (the browse rows follow their title's): digits,
 * Arabic-Indic ones too, decide nothing, and a title of digits alone reads
 * left to right, as the app's labels do. */
static void
test_rtl_letter (void)
{
  PangoContext *context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  const char *texts[] = { "\u0661\u0662\u0663", "\u06f1\u06f2", "12 CI", "\u05e9\u05dc\u05d5\u05dd",
                          "\u0661\u0662 \u0647\u0644", "2026 \u062e\u062f\u0645\u0629", "\u0661 CI" };

  pango_context_set_base_dir (context, PANGO_DIRECTION_LTR);
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(PangoLayout) layout = pango_layout_new (context);
      gboolean rtl = FALSE;

      for (const char *p = texts[i]; *p != '\0'; p = g_utf8_next_char (p))
        if (triage_format_is_rtl_letter (g_utf8_get_char (p)) || g_unichar_isalpha (g_utf8_get_char (p)))
          {
            rtl = triage_format_is_rtl_letter (g_utf8_get_char (p));
            break;
          }
      pango_layout_set_text (layout, texts[i], -1);
      g_assert_cmpint (rtl, ==, pango_layout_get_line_readonly (layout, 0)->resolved_dir == PANGO_DIRECTION_RTL);
    }
  g_assert_false (triage_format_is_rtl_letter (0x0661));
  g_object_unref (context);
}

/* A place to break is one Pango breaks at (between letters), so a run the
 * view leaves unbroken is one Pango cannot break either; the spaces that
 * glue words together are none (a title of words joined by U+00A0 got no
 * place to break and ran past a bubble's edge). */
static void
test_break_chars (void)
{
  const gunichar breaks[] = { ' ', '\t', '\n', 0x200B, '-', 0x2009, 0x3000 };
  const gunichar glue[] = { 0x00A0, 0x2007, 0x202F, 0x2060, 0xFEFF, 'N', '_' };
  g_autoptr(GString) wrong = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (breaks); i++)
    g_assert_true (triage_format_is_break_char (breaks[i]));
  for (guint i = 0; i < G_N_ELEMENTS (glue); i++)
    g_assert_false (triage_format_is_break_char (glue[i]));

  for (gunichar c = 1; c <= 0x10FFFF; c++)
    {
      char text[16] = "a";
      PangoLogAttr attrs[4];
      int len;

      if (!triage_format_is_break_char (c))
        continue;

      len = 1 + g_unichar_to_utf8 (c, text + 1);
      text[len] = 'a';
      pango_get_log_attrs (text, len + 1, -1, pango_language_from_string ("en"), attrs, 4);
      if (!attrs[2].is_line_break)
        g_string_append_printf (wrong, " U+%04X", c);
    }
  g_assert_cmpstr (wrong->str, ==, "");
}

static void
test_attachment_details (void)
{
  AtpAttachment inline_data = { .type = (char *) "text/plain", .data = (char *) "AAAA", .decoded_size = 1234 };
  AtpAttachment link = { .type = (char *) "image/png", .uri = (char *) "https://bücher.example/x.png" };
  AtpAttachment urn = { .type = (char *) "text/plain", .uri = (char *) "urn:isbn:0451450523" };
  g_autofree char *a = triage_format_attachment_details (&inline_data);
  g_autofree char *b = triage_format_attachment_details (&link);
  g_autofree char *c = triage_format_attachment_details (&urn);

  g_assert_cmpstr (a, ==, "text/plain · 1.2\u00a0kB");
  g_assert_cmpstr (b, ==, "image/png · link to xn--bcher-kva.example");
  g_assert_cmpstr (c, ==, "text/plain · urn: link");
}

static char *
reason_for (const char *actions,
            const char *answer)
{
  g_autoptr(AtpNotification) notification = widgets_test_notification (actions, NULL, 0);
  g_autoptr(JsonNode) data = atp_json_parse (answer, -1, 0, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_false (atp_action_validate_response (g_ptr_array_index (notification->actions, 0), data, &error));
  return triage_humanize_response_error (error);
}

static void
test_humanize (void)
{
  g_autofree char *text = reason_for ("[{\"id\": \"t\", \"label\": \"Why\", \"response_type\": \"text\","
                                      " \"constraints\": {\"min_length\": 10}}]", "\"short\"");
  g_autofree char *multi = reason_for ("[{\"id\": \"m\", \"label\": \"Pick\", \"response_type\": \"multi_choice\","
                                       " \"options\": [{\"value\": \"a\", \"label\": \"A\"}, {\"value\": \"b\", \"label\": \"B\"}],"
                                       " \"constraints\": {\"max_selections\": 1}}]", "[\"a\", \"b\"]");
  g_autofree char *step = reason_for ("[{\"id\": \"n\", \"label\": \"N\", \"response_type\": \"number\","
                                      " \"constraints\": {\"min\": 0.1, \"max\": 0.9, \"step\": 0.05}}]", "0.77");
  g_autofree char *max = reason_for ("[{\"id\": \"n\", \"label\": \"N\", \"response_type\": \"number\","
                                     " \"constraints\": {\"max\": 100}}]", "150");

  g_assert_cmpstr (text, ==, "The answer is 5 characters long, at least 10 required.");
  g_assert_cmpstr (multi, ==, "2 selected, at most 1 allowed.");
  g_assert_cmpstr (step, ==, "0.77 is not a multiple of the step 0.05 from 0.1; nearest allowed: 0.75 or 0.8.");
  g_assert_cmpstr (max, ==, "150 is above the maximum 100.");

  {
    /* Doubles' rounding noise in the nearest values is tidied away. */
    g_autofree char *noisy = reason_for ("[{\"id\": \"n\", \"label\": \"N\", \"response_type\": \"number\","
                                         " \"constraints\": {\"min\": 0.1, \"max\": 5, \"step\": 0.1}}]", "0.75");

    g_assert_cmpstr (noisy, ==, "0.75 is not a multiple of the step 0.1 from 0.1; nearest allowed: 0.7 or 0.8.");
  }
}

static void
test_describe (void)
{
  g_autoptr(AtpNotification) notification =
    widgets_test_notification ("["
                               "{\"id\": \"s\", \"label\": \"Approve\", \"response_type\": \"simple\"},"
                               "{\"id\": \"b\", \"label\": \"Logs?\", \"response_type\": \"binary\","
                               " \"options\": {\"true_label\": \"Yes, include\", \"false_label\": \"No\"}},"
                               "{\"id\": \"c\", \"label\": \"Env\", \"response_type\": \"choice\","
                               " \"options\": [{\"value\": \"prod\", \"label\": \"Production\"}]},"
                               "{\"id\": \"m\", \"label\": \"Teams\", \"response_type\": \"multi_choice\","
                               " \"options\": [{\"value\": \"a\", \"label\": \"Alpha\"}, {\"value\": \"b\", \"label\": \"Beta\"}]},"
                               "{\"id\": \"n\", \"label\": \"Rate\", \"response_type\": \"number\","
                               " \"constraints\": {\"unit\": \"%\"}},"
                               "{\"id\": \"k\", \"label\": \"Scale\", \"response_type\": \"scale\","
                               " \"constraints\": {\"min\": 1, \"max\": 5, \"max_label\": \"Sure\"}},"
                               "{\"id\": \"t\", \"label\": \"Why\", \"response_type\": \"text\"}"
                               "]", NULL, 0);
  struct { const char *action; const char *answer; const char *expected; } cases[] = {
    { "s", "null", "Approve" },
    { "b", "true", "Yes, include" },
    { "b", "false", "No" },
    { "c", "\"prod\"", "Production" },
    { "m", "[\"b\", \"a\"]", "Beta, Alpha" },
    { "m", "[]", "Nothing selected" },
    { "n", "2.5", "2.5 %" },
    { "k", "5", "5 (Sure)" },
    { "k", "3", "3" },
    { "t", "\"Not now\"", "“Not now”" },
    { "t", "\"\"", "An empty text" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) data = atp_json_parse (cases[i].answer, -1, 0, NULL);
      g_autofree char *text =
        triage_describe_response (atp_notification_find_action (notification, cases[i].action), data);

      g_assert_cmpstr (text, ==, cases[i].expected);
    }
}

/* A description that is the title again (ATP requires one: a client with
 * only a title repeats it) is not shown twice. */
static void
test_description (void)
{
  static const struct { const char *title, *description; gboolean shown; } cases[] = {
    { "Deploy 2.1?", "Deploy 2.1?", FALSE },
    { "Deploy 2.1?", "  Deploy 2.1?\n", FALSE },
    { "Deploy 2.1?", "Deploy 2.1 to production?", TRUE },
    { "Deploy 2.1?", "deploy 2.1?", TRUE },
    { "Deploy 2.1?", "Deploy 2.1?!", TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *json = NULL;
      g_autoptr(AtpNotification) n = NULL;
      g_autoptr(GError) error = NULL;
      JsonObject *context;
      g_autoptr(JsonNode) root = atp_json_parse (
        "{\"id\": \"7f000000-0000-4000-8000-000000000001\", \"version\": \"1.0\","
        " \"timestamp\": \"2025-05-25T10:30:00Z\", \"service\": {\"id\": \"s\", \"name\": \"S\"},"
        " \"context\": {\"title\": \"\", \"description\": \"\"},"
        " \"actions\": [{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}]}",
        -1, 0, &error);

      g_assert_no_error (error);
      context = json_object_get_object_member (json_node_get_object (root), "context");
      json_object_set_string_member (context, "title", cases[i].title);
      json_object_set_string_member (context, "description", cases[i].description);
      n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
      g_assert_no_error (error);
      if (cases[i].shown)
        g_assert_cmpstr (triage_format_get_description (n), ==, cases[i].description);
      else
        g_assert_null (triage_format_get_description (n));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("TZ", "UTC", TRUE);
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/decision-format/countdown", test_countdown);
  g_test_add_func ("/decision-format/countdown-spoken", test_countdown_spoken);
  g_test_add_func ("/decision-format/time", test_time);
  g_test_add_func ("/decision-format/counts", test_counts);
  g_test_add_func ("/decision-format/flags", test_flags);
  g_test_add_func ("/decision-format/values", test_values);
  g_test_add_func ("/decision-format/numbers", test_numbers);
  g_test_add_func ("/decision-format/hidden-chars", test_hidden_chars);
  g_test_add_func ("/decision-format/break-chars", test_break_chars);
  g_test_add_func ("/decision-format/in-sentence", test_in_sentence);
  g_test_add_func ("/decision-format/in-sentence-order", test_in_sentence_order);
  g_test_add_func ("/decision-format/rtl-letter", test_rtl_letter);
  g_test_add_func ("/decision-format/attachment-details", test_attachment_details);
  g_test_add_func ("/decision-format/humanize", test_humanize);
  g_test_add_func ("/decision-format/describe", test_describe);
  g_test_add_func ("/decision-format/description", test_description);

  return g_test_run ();
}
