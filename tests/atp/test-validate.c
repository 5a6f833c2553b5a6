/* test-validate.c — atp_action_validate_response for every response type
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "atp-test-common.h"

typedef struct
{
  const char *action;      /* JSON of one action definition */
  const char *answer;      /* JSON text, NULL for a NULL node (omitted) */
  int         code;        /* -1: valid */
  const char *needle;
} AnswerCase;

#define OK -1

#define SIMPLE "{\"id\": \"go\", \"label\": \"Go\", \"response_type\": \"simple\"}"
#define BINARY "{\"id\": \"logs\", \"label\": \"Logs?\", \"response_type\": \"binary\", " \
               "\"options\": {\"true_label\": \"Yes\", \"false_label\": \"No\"}}"
#define CHOICE "{\"id\": \"prio\", \"label\": \"Priority\", \"response_type\": \"choice\", " \
               "\"options\": [{\"value\": \"high\", \"label\": \"High\"}, {\"value\": \"low\", \"label\": \"Low\"}]}"
#define MULTI  "{\"id\": \"to\", \"label\": \"Recipients\", \"response_type\": \"multi_choice\", " \
               "\"options\": [{\"value\": \"a\", \"label\": \"A\"}, {\"value\": \"b\", \"label\": \"B\"}, " \
               "{\"value\": \"c\", \"label\": \"C\"}], \"constraints\": {\"min_selections\": 1, \"max_selections\": 2}}"
#define MULTI_FREE "{\"id\": \"to\", \"label\": \"Recipients\", \"response_type\": \"multi_choice\", " \
               "\"options\": [{\"value\": \"a\", \"label\": \"A\"}, {\"value\": \"b\", \"label\": \"B\"}]}"
#define TEXT   "{\"id\": \"why\", \"label\": \"Why?\", \"response_type\": \"text\", " \
               "\"constraints\": {\"min_length\": 3, \"max_length\": 5}}"
#define TEXT_FREE "{\"id\": \"why\", \"label\": \"Why?\", \"response_type\": \"text\"}"
#define NUMBER "{\"id\": \"t\", \"label\": \"Threshold\", \"response_type\": \"number\", " \
               "\"constraints\": {\"min\": 0.1, \"max\": 0.9, \"step\": 0.05}}"
#define NUMBER_STEP "{\"id\": \"n\", \"label\": \"N\", \"response_type\": \"number\", \"constraints\": {\"step\": 0.25}}"
#define NUMBER_FREE "{\"id\": \"n\", \"label\": \"N\", \"response_type\": \"number\"}"
#define NUMBER_BIG "{\"id\": \"n\", \"label\": \"N\", \"response_type\": \"number\", " \
               "\"constraints\": {\"min\": 1000000, \"step\": 0.001}}"
#define NUMBER_TINY "{\"id\": \"n\", \"label\": \"N\", \"response_type\": \"number\", " \
               "\"constraints\": {\"min\": -1e300, \"step\": 5e-324}}"
#define SCALE  "{\"id\": \"r\", \"label\": \"Rating\", \"response_type\": \"scale\", " \
               "\"constraints\": {\"min\": 1, \"max\": 9, \"step\": 2}}"
#define SCALE_NEG "{\"id\": \"r\", \"label\": \"Rating\", \"response_type\": \"scale\", " \
               "\"constraints\": {\"min\": -5, \"max\": 5}}"

static const AnswerCase answer_cases[] = {
  /* simple */
  { SIMPLE, NULL, OK, NULL },
  { SIMPLE, "null", OK, NULL },
  { SIMPLE, "true", ATP_ERROR_INVALID_RESPONSE_DATA, "response_data: must be null (or omitted) for the simple action \"go\", got true" },
  { SIMPLE, "\"\"", ATP_ERROR_INVALID_RESPONSE_DATA, "response_data: must be null" },
  { SIMPLE, "{}", ATP_ERROR_INVALID_RESPONSE_DATA, "got an object" },
  /* binary */
  { BINARY, "true", OK, NULL },
  { BINARY, "false", OK, NULL },
  { BINARY, NULL, ATP_ERROR_INVALID_RESPONSE_DATA, "response_data: must be true or false for the binary action \"logs\", got null" },
  { BINARY, "\"yes\"", ATP_ERROR_INVALID_RESPONSE_DATA, "got \"yes\"" },
  { BINARY, "1", ATP_ERROR_INVALID_RESPONSE_DATA, "got 1" },
  { BINARY, "[true]", ATP_ERROR_INVALID_RESPONSE_DATA, "got an array" },
  /* choice */
  { CHOICE, "\"high\"", OK, NULL },
  { CHOICE, "\"low\"", OK, NULL },
  { CHOICE, "\"medium\"", ATP_ERROR_CONSTRAINT_VIOLATION, "response_data: \"medium\" is not an option of the action \"prio\"" },
  { CHOICE, "\"HIGH\"", ATP_ERROR_CONSTRAINT_VIOLATION, "\"HIGH\" is not an option" },
  { CHOICE, "\"\"", ATP_ERROR_CONSTRAINT_VIOLATION, "\"\" is not an option" },
  { CHOICE, "[\"high\"]", ATP_ERROR_INVALID_RESPONSE_DATA, "response_data: must be a string (an option value) for the choice action \"prio\", got an array" },
  { CHOICE, "1", ATP_ERROR_INVALID_RESPONSE_DATA, "got 1" },
  { CHOICE, NULL, ATP_ERROR_INVALID_RESPONSE_DATA, "got null" },
  /* multi_choice */
  { MULTI, "[\"a\"]", OK, NULL },
  { MULTI, "[\"c\", \"a\"]", OK, NULL },
  { MULTI, "[]", ATP_ERROR_CONSTRAINT_VIOLATION, "response_data: 0 selected, at least 1 required (min_selections)" },
  { MULTI, "[\"a\", \"b\", \"c\"]", ATP_ERROR_CONSTRAINT_VIOLATION, "response_data: 3 selected, at most 2 allowed (max_selections)" },
  { MULTI, "[\"a\", \"a\"]", ATP_ERROR_CONSTRAINT_VIOLATION, "response_data[1]: \"a\" is selected more than once" },
  { MULTI, "[\"a\", \"d\"]", ATP_ERROR_CONSTRAINT_VIOLATION, "response_data[1]: \"d\" is not an option of the action \"to\"" },
  { MULTI, "[\"a\", 2]", ATP_ERROR_INVALID_RESPONSE_DATA, "response_data[1]: must be a string (an option value), got 2" },
  { MULTI, "[\"d\", null]", ATP_ERROR_INVALID_RESPONSE_DATA, "response_data[1]: must be a string" },
  { MULTI, "\"a\"", ATP_ERROR_INVALID_RESPONSE_DATA, "response_data: must be an array of option values for the multi_choice action \"to\", got \"a\"" },
  { MULTI, NULL, ATP_ERROR_INVALID_RESPONSE_DATA, "got null" },
  { MULTI_FREE, "[]", OK, NULL },
  { MULTI_FREE, "[\"a\", \"b\"]", OK, NULL },
  /* text */
  { TEXT, "\"abc\"", OK, NULL },
  { TEXT, "\"abcde\"", OK, NULL },
  { TEXT, "\"ééééé\"", OK, NULL },
  { TEXT, "\"😀😀😀\"", OK, NULL },
  { TEXT, "\"ab\"", ATP_ERROR_CONSTRAINT_VIOLATION, "response_data: is 2 characters long, at least 3 required (min_length)" },
  { TEXT, "\"abcdef\"", ATP_ERROR_CONSTRAINT_VIOLATION, "response_data: is 6 characters long, at most 5 allowed (max_length)" },
  { TEXT, "\"éééééé\"", ATP_ERROR_CONSTRAINT_VIOLATION, "is 6 characters long, at most 5 allowed" },
  { TEXT, "\"\"", ATP_ERROR_CONSTRAINT_VIOLATION, "is 0 characters long, at least 3 required" },
  { TEXT, "5", ATP_ERROR_INVALID_RESPONSE_DATA, "response_data: must be a string for the text action \"why\", got 5" },
  { TEXT, NULL, ATP_ERROR_INVALID_RESPONSE_DATA, "got null" },
  { TEXT_FREE, "\"\"", OK, NULL },
  /* number */
  { NUMBER, "0.75", OK, NULL },
  { NUMBER, "0.1", OK, NULL },
  { NUMBER, "0.9", OK, NULL },
  { NUMBER, "0.15", OK, NULL },
  { NUMBER, "0.3", OK, NULL },
  { NUMBER, "0.7000000000001", OK, NULL },
  { NUMBER, "0.77", ATP_ERROR_CONSTRAINT_VIOLATION, "response_data: 0.77 is not a multiple of the step 0.05 from 0.1 (step); nearest allowed: 0.75 or 0.8" },
  { NUMBER, "0.7001", ATP_ERROR_CONSTRAINT_VIOLATION, "not a multiple of the step" },
  { NUMBER, "0.05", ATP_ERROR_CONSTRAINT_VIOLATION, "response_data: 0.05 is below the minimum 0.1 (min)" },
  { NUMBER, "1", ATP_ERROR_CONSTRAINT_VIOLATION, "response_data: 1 is above the maximum 0.9 (max)" },
  { NUMBER, "\"0.75\"", ATP_ERROR_INVALID_RESPONSE_DATA, "response_data: must be a number for the number action \"t\", got \"0.75\"" },
  { NUMBER, "true", ATP_ERROR_INVALID_RESPONSE_DATA, "got true" },
  { NUMBER, NULL, ATP_ERROR_INVALID_RESPONSE_DATA, "got null" },
  { NUMBER_STEP, "-0.75", OK, NULL },
  { NUMBER_STEP, "0", OK, NULL },
  { NUMBER_STEP, "1000000.25", OK, NULL },
  { NUMBER_STEP, "0.3", ATP_ERROR_CONSTRAINT_VIOLATION, "0.3 is not a multiple of the step 0.25 from 0 (step); nearest allowed: 0.25 or 0.5" },
  { NUMBER_FREE, "-1e300", OK, NULL },
  { NUMBER_FREE, "12345678901234", OK, NULL },
  { NUMBER_FREE, "-0", OK, NULL },
  { NUMBER_BIG, "1000000.001", OK, NULL },
  { NUMBER_BIG, "1234567.891", OK, NULL },
  { NUMBER_BIG, "1000000.0015", ATP_ERROR_CONSTRAINT_VIOLATION, "not a multiple of the step 0.001" },
  { NUMBER_TINY, "-1e300", OK, NULL },
  { NUMBER_TINY, "1", ATP_ERROR_CONSTRAINT_VIOLATION, "1 is not a multiple of the step 4.94065645841247e-324 from -1e+300 (step)" },
  /* scale */
  { SCALE, "1", OK, NULL },
  { SCALE, "5", OK, NULL },
  { SCALE, "9", OK, NULL },
  { SCALE, "5.0", OK, NULL },
  { SCALE, "4", ATP_ERROR_CONSTRAINT_VIOLATION, "response_data: 4 is not on the scale (1 + a multiple of 2); nearest allowed: 3 or 5" },
  { SCALE, "0", ATP_ERROR_CONSTRAINT_VIOLATION, "response_data: 0 is below the minimum 1 (min)" },
  { SCALE, "11", ATP_ERROR_CONSTRAINT_VIOLATION, "response_data: 11 is above the maximum 9 (max)" },
  { SCALE, "4.5", ATP_ERROR_INVALID_RESPONSE_DATA, "response_data: must be an integer for the scale action \"r\", got 4.5" },
  { SCALE, "\"5\"", ATP_ERROR_INVALID_RESPONSE_DATA, "got \"5\"" },
  { SCALE, "false", ATP_ERROR_INVALID_RESPONSE_DATA, "got false" },
  { SCALE, NULL, ATP_ERROR_INVALID_RESPONSE_DATA, "got null" },
  { SCALE, "1e300", ATP_ERROR_CONSTRAINT_VIOLATION, "is above the maximum 9" },
  { SCALE, "-9223372036854775808", ATP_ERROR_CONSTRAINT_VIOLATION, "is below the minimum 1" },
  { SCALE_NEG, "-5", OK, NULL },
  { SCALE_NEG, "0", OK, NULL },
  { SCALE_NEG, "-6", ATP_ERROR_CONSTRAINT_VIOLATION, "-6 is below the minimum -5" },
};

static AtpNotification *
notification_with_action (const char *action_json)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autofree char *actions = g_strdup_printf ("[%s]", action_json);
  AtpNotification *n;

  atp_test_patch (root, "actions", actions);
  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
  return n;
}

/* Every value offered as "nearest allowed" is itself a valid answer (within
 * min and max, on the step's grid), written as briefly as it reads: the
 * point past max (12 for 10 on 0…10 by 3) was offered, and base + 3 × 0.3
 * as 0.8999999999999999. */
static void
test_nearest_allowed (void)
{
  static const struct { const char *type, *constraints, *answer, *message; } cases[] = {
    { "number", "\"min\": 0, \"max\": 10, \"step\": 3", "10",
      "10 is not a multiple of the step 3 from 0 (step); nearest allowed: 9" },
    { "number", "\"max\": 1, \"step\": 0.3", "0.95",
      "0.95 is not a multiple of the step 0.3 from 0 (step); nearest allowed: 0.9" },
    { "number", "\"min\": 0.1, \"max\": 1, \"step\": 0.3", "0.95",
      "0.95 is not a multiple of the step 0.3 from 0.1 (step); nearest allowed: 0.7 or 1" },
    { "number", "\"min\": 0, \"max\": 2, \"step\": 3", "1",
      "1 is not a multiple of the step 3 from 0 (step); nearest allowed: 0" },
    { "number", "\"step\": 0.1", "0.25",
      "0.25 is not a multiple of the step 0.1 from 0 (step); nearest allowed: 0.2 or 0.3" },
    { "scale", "\"min\": 1, \"max\": 10, \"step\": 4", "10",
      "10 is not on the scale (1 + a multiple of 4); nearest allowed: 9" },
    { "scale", "\"min\": -5, \"max\": 5, \"step\": 4", "4",
      "4 is not on the scale (-5 + a multiple of 4); nearest allowed: 3" },
  };
  static const char * const grids[] = {
    "\"min\": 0, \"max\": 10, \"step\": 3", "\"max\": 1, \"step\": 0.3",
    "\"min\": 0.1, \"max\": 1, \"step\": 0.3", "\"min\": -1, \"max\": 1, \"step\": 0.07",
    "\"min\": 0.1, \"max\": 0.9, \"step\": 0.05", "\"min\": 1000000, \"max\": 1000001, \"step\": 0.001",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *action = g_strdup_printf ("{\"id\": \"n\", \"label\": \"N\", \"response_type\": "
                                                 "\"%s\", \"constraints\": {%s}}", cases[i].type,
                                                 cases[i].constraints);
      g_autoptr(AtpNotification) n = notification_with_action (action);
      g_autoptr(JsonNode) answer = atp_json_parse (cases[i].answer, -1, 0, NULL);
      g_autoptr(GError) error = NULL;
      g_autofree char *expected = g_strconcat ("response_data: ", cases[i].message, NULL);

      g_assert_false (atp_action_validate_response (g_ptr_array_index (n->actions, 0), answer,
                                                    &error));
      g_assert_error (error, ATP_ERROR, ATP_ERROR_CONSTRAINT_VIOLATION);
      g_assert_cmpstr (error->message, ==, expected);
    }
  /* Every value off the grid between min and max, by hundredths of a step. */
  for (guint i = 0; i < G_N_ELEMENTS (grids); i++)
    {
      g_autofree char *action = g_strdup_printf ("{\"id\": \"n\", \"label\": \"N\", \"response_type\": "
                                                 "\"number\", \"constraints\": {%s}}", grids[i]);
      g_autoptr(AtpNotification) n = notification_with_action (action);
      AtpAction *number = g_ptr_array_index (n->actions, 0);
      double from = number->has_min ? number->min : number->max - 20 * number->step;

      for (double value = from; value <= number->max; value += number->step / 100)
        {
          g_autoptr(JsonNode) answer = json_node_init_double (json_node_alloc (), value);
          g_autoptr(GError) error = NULL;
          const char *nearest;
          g_auto(GStrv) offered = NULL;

          if (atp_action_validate_response (number, answer, &error))
            continue;
          nearest = strstr (error->message, "; nearest allowed: ");
          g_assert_nonnull (nearest);
          offered = g_strsplit (nearest + strlen ("; nearest allowed: "), " or ", -1);
          for (guint j = 0; offered[j] != NULL; j++)
            {
              g_autoptr(JsonNode) suggestion = atp_json_parse (offered[j], -1, 0, NULL);
              g_autoptr(GError) invalid = NULL;

              if (!atp_action_validate_response (number, suggestion, &invalid))
                g_error ("%s: %s offered, which is refused: %s", error->message, offered[j],
                         invalid->message);
              g_assert_cmpuint (strlen (offered[j]), <=, 12);
            }
        }
    }
}

static void
test_answer (gconstpointer data)
{
  const AnswerCase *c = data;
  g_autoptr(AtpNotification) n = notification_with_action (c->action);
  g_autoptr(JsonNode) answer = NULL;
  g_autoptr(GError) error = NULL;
  gboolean valid;

  if (c->answer != NULL)
    {
      answer = atp_json_parse (c->answer, -1, 0, &error);
      g_assert_no_error (error);
    }

  valid = atp_action_validate_response (g_ptr_array_index (n->actions, 0), answer, &error);
  if (c->code == OK)
    {
      g_assert_no_error (error);
      g_assert_true (valid);
    }
  else
    {
      g_assert_false (valid);
      atp_assert_error (error, c->code, c->needle);
    }
}

static void
test_seed_answers (void)
{
  static const char * const types[] = {
    "simple", "binary", "choice", "multi_choice", "text", "number", "scale"
  };
  /* One wrong answer of the right type for each seed action. */
  static const char * const wrong[] = {
    NULL, NULL, "\"urgent\"", "[\"engineering\", \"product\", \"security\", \"executives\"]",
    "\"too short\"", "0.76", "6"
  };
  g_autoptr(JsonNode) answers = atp_test_load_json ("seed-000-answers.json");

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      g_autofree char *file = g_strdup_printf ("seed-000-action-%s.json", types[i]);
      g_autoptr(JsonNode) action = atp_test_load_json (file);
      g_autofree char *text = atp_json_to_string (action, NULL);
      g_autoptr(AtpNotification) n = notification_with_action (text);
      const AtpAction *a = g_ptr_array_index (n->actions, 0);
      g_autoptr(GError) error = NULL;

      g_assert_true (atp_action_validate_response (a, json_object_get_member (json_node_get_object (answers), a->id), &error));
      g_assert_no_error (error);

      if (wrong[i] != NULL)
        {
          g_autoptr(JsonNode) bad = atp_json_parse (wrong[i], -1, 0, NULL);

          g_assert_false (atp_action_validate_response (a, bad, &error));
          atp_assert_error (error, ATP_ERROR_CONSTRAINT_VIOLATION, "response_data");
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (answer_cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) action = atp_json_parse (answer_cases[i].action, -1, 0, &error);
      g_autofree char *answer = g_strdup (answer_cases[i].answer != NULL ? answer_cases[i].answer : "omitted");
      g_autofree char *path = NULL;

      g_assert_no_error (error);
      g_strdelimit (answer, "/ ", '_');
      if (strlen (answer) > 30)
        answer[30] = '\0';
      path = g_strdup_printf ("/atp/validate/%s/%s/%u",
                              json_object_get_string_member (json_node_get_object (action), "response_type"),
                              answer, i);
      g_test_add_data_func (path, &answer_cases[i], test_answer);
    }
  g_test_add_func ("/atp/validate/seed-000-answers", test_seed_answers);
  g_test_add_func ("/atp/validate/nearest-allowed", test_nearest_allowed);

  return g_test_run ();
}
