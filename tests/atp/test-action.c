/* test-action.c — atp_action_new_from_json: one action's definition on its own
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The same rules as for each of a notification's actions, with the field
 * named from the action itself ("options.true_label", not
 * "actions[0].options.true_label").
 */

#include "atp-test-common.h"
#include "atp-action.h"

static AtpAction *
parse (const char  *json,
       GError     **error)
{
  g_autoptr(JsonNode) node = atp_json_parse (json, -1, ATP_MAX_NOTIFICATION_SIZE, NULL);

  g_assert_nonnull (node);
  return atp_action_new_from_json (node, error);
}

static void
test_valid (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAction) choice = NULL;
  g_autoptr(AtpAction) scale = NULL;
  const AtpOption *option;

  choice = parse ("{\"id\": \"region\", \"label\": \"Region\", \"response_type\": \"choice\","
                  " \"options\": [{\"value\": \"r1\", \"label\": \"Dublin\"},"
                  " {\"value\": \"r2\", \"label\": \"Paris\"}], \"flags\": [\"destructive\"]}", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (choice->id, ==, "region");
  g_assert_cmpstr (choice->label, ==, "Region");
  g_assert_cmpint (choice->response_type, ==, ATP_RESPONSE_TYPE_CHOICE);
  g_assert_cmpuint (choice->options->len, ==, 2);
  option = g_ptr_array_index (choice->options, 0);
  g_assert_cmpstr (option->value, ==, "r1");
  g_assert_cmpstr (option->label, ==, "Dublin");
  g_assert_true (atp_action_needs_confirmation (choice));

  scale = parse ("{\"id\": \"c\", \"label\": \"Confidence\", \"response_type\": \"scale\","
                 " \"constraints\": {\"min\": 1, \"max\": 5, \"min_label\": \"Low\"}}", &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (scale->min, ==, 1);
  g_assert_cmpfloat (scale->max, ==, 5);
  g_assert_cmpstr (scale->min_label, ==, "Low");
}

typedef struct
{
  const char *json;
  int         code;
  const char *needle;   /* a part of the message: the field and the rule */
} BadCase;

static const BadCase bad_cases[] = {
  { "[]", ATP_ERROR_INVALID_FIELD_VALUE, "an object" },
  { "{\"id\": \"x\", \"response_type\": \"simple\"}",
    ATP_ERROR_MISSING_REQUIRED_FIELD, "label: required field is missing" },
  { "{\"id\": \"x\", \"label\": \"  \", \"response_type\": \"simple\"}",
    ATP_ERROR_INVALID_FIELD_VALUE, "label" },
  { "{\"id\": \"x\", \"label\": \"X\", \"response_type\": \"slider\"}",
    ATP_ERROR_INVALID_RESPONSE_TYPE, "unknown response type \"slider\"" },
  { "{\"id\": \"x\", \"label\": \"X\", \"response_type\": \"binary\", \"options\": {\"true_label\": \"Yes\"}}",
    ATP_ERROR_MISSING_REQUIRED_FIELD, "options.false_label" },
  { "{\"id\": \"x\", \"label\": \"X\", \"response_type\": \"scale\", \"constraints\": {\"min\": 5, \"max\": 1}}",
    -1, "constraints" },
};

static void
test_invalid (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AtpAction) action = parse (bad_cases[i].json, &error);

      g_test_message ("%s", bad_cases[i].json);
      g_assert_null (action);
      g_assert_nonnull (error);
      g_assert_true (error->domain == ATP_ERROR);
      if (bad_cases[i].code >= 0)
        g_assert_cmpint (error->code, ==, bad_cases[i].code);
      if (strstr (error->message, bad_cases[i].needle) == NULL)
        g_error ("%s: “%s” does not say “%s”", bad_cases[i].json, error->message, bad_cases[i].needle);
    }
}

/* A choice's options are bounded in what is submitted (ATP_MAX_CHOICE_OPTIONS),
 * not where stored: a request taken before the bound still reads. */
static void
test_options_bounded_in_submission (void)
{
  g_autoptr(GString) json = g_string_new ("{\"id\":\"" "7f0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b" "\","
                                          "\"version\":\"1.0\",\"timestamp\":\"2026-12-02T10:00:00Z\","
                                          "\"service\":{\"id\":\"s\",\"name\":\"S\"},"
                                          "\"context\":{\"title\":\"T\",\"description\":\"D\"},"
                                          "\"status\":\"created\",\"actions\":[{\"id\":\"a\","
                                          "\"label\":\"A\",\"response_type\":\"multi_choice\","
                                          "\"options\":[");
  g_autoptr(AtpNotification) submitted = NULL, stored = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i <= ATP_MAX_CHOICE_OPTIONS; i++)
    g_string_append_printf (json, "%s{\"value\":\"%u\",\"label\":\"%u\"}", i > 0 ? "," : "", i, i);
  g_string_append (json, "]}]}");

  submitted = atp_notification_new_from_data (json->str, -1, ATP_PARSE_SUBMISSION, &error);
  g_assert_null (submitted);
  atp_assert_error (error, ATP_ERROR_MALFORMED_ACTION,
                    "actions[0].options: must hold at most 20000 options", "got 20001");
  g_clear_error (&error);
  stored = atp_notification_new_from_data (json->str, -1, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (((AtpAction *) stored->actions->pdata[0])->options->len, ==,
                    ATP_MAX_CHOICE_OPTIONS + 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/action/valid", test_valid);
  g_test_add_func ("/action/invalid", test_invalid);
  g_test_add_func ("/action/options-bounded-in-submission", test_options_bounded_in_submission);

  return g_test_run ();
}
