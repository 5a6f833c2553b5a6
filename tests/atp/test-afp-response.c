/* test-afp-response.c — AFP feedback, Response Object, ack and the wrapper stream
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "atp-test-common.h"
#include "atp-afp.h"

/* The Response Object of the seed's stream, as the seed formats it. */
static AtpAfpResponse *
load_seed_response (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = atp_test_load_json ("seed-004-response.json");
  AtpAfpResponse *response = atp_afp_response_new_from_json (root, &error);

  g_assert_no_error (error);
  return response;
}

static AtpAfpRequest *
load_request (const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = atp_test_load_json (name);
  AtpAfpRequest *request = atp_afp_request_new_from_json (root, &error);

  g_assert_no_error (error);
  return request;
}

static GHashTable *
new_set (const char *first,
         ...)
{
  GHashTable *set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  va_list args;

  va_start (args, first);
  for (const char *id = first; id != NULL; id = va_arg (args, const char *))
    g_hash_table_add (set, g_strdup (id));
  va_end (args);
  return set;
}

static void
test_seed_response (void)
{
  g_autoptr(AtpAfpResponse) response = load_seed_response ();
  const AtpAfpFeedback *feedback = response->feedback;
  const AtpAfpImprovement *item;
  const AtpAfpPositivePoint *point;

  g_assert_cmpint (response->iteration, ==, 1);
  g_assert_cmpint (response->status, ==, ATP_AFP_STATUS_SUCCESS);
  g_assert_null (response->ack_items);
  g_assert_null (response->error_code);
  g_assert_nonnull (feedback);
  g_assert_cmpint (feedback->confidence, ==, ATP_AFP_CONFIDENCE_MEDIUM);
  g_assert_true (g_str_has_prefix (feedback->confidence_justification, "Confidence is medium"));
  g_assert_cmpuint (feedback->positive_points->len, ==, 1);
  point = g_ptr_array_index (feedback->positive_points, 0);
  g_assert_cmpstr (point->aspect, ==, "User Experience");
  g_assert_cmpuint (feedback->areas_for_improvement->len, ==, 1);
  item = g_ptr_array_index (feedback->areas_for_improvement, 0);
  g_assert_cmpstr (item->id, ==, "scope-definition-lacks-detail-01");
  g_assert_cmpstr (item->aspect, ==, "Scope Definition");
  g_assert_true (g_str_has_prefix (feedback->general_summary, "This is a valuable"));
}

/* The seed's text part, parsed and written again, is the same string. */
static void
test_seed_stream (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAfpResponse) from_stream = NULL;
  g_autoptr(AtpAfpResponse) formatted = load_seed_response ();
  g_autofree char *session = NULL;
  g_autofree char *written = NULL;
  g_auto(GStrv) lines = NULL;
  gsize length;
  g_autofree char *stream = atp_test_load ("seed-004-stream.ndjson", &length);
  static const AtpAfpWrapperType types[] = {
    ATP_AFP_WRAPPER_STEP_START, ATP_AFP_WRAPPER_TEXT, ATP_AFP_WRAPPER_STEP_FINISH
  };

  from_stream = atp_afp_wrapper_read_stream (stream, length, &session, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (session, ==, "ses_abc123");

  written = atp_afp_response_to_string (from_stream, NULL);
  {
    g_autofree char *again = atp_afp_response_to_string (formatted, NULL);

    g_assert_cmpstr (written, ==, again);
  }

  lines = g_strsplit (g_strchomp (stream), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(AtpAfpWrapperMessage) message = atp_afp_wrapper_message_new_from_data (lines[i], -1, &error);
      g_autoptr(JsonNode) node = NULL;
      g_autofree char *text = NULL;

      g_assert_no_error (error);
      g_assert_cmpint (message->type, ==, types[i]);
      g_assert_cmpstr (message->session_id, ==, "ses_abc123");
      g_assert_cmpint (message->timestamp, >, 1761021546000);

      /* A wrapper message writes back as it came. */
      node = atp_afp_wrapper_message_to_json (message);
      text = atp_json_to_string (node, NULL);
      g_assert_cmpstr (text, ==, lines[i]);

      if (message->type == ATP_AFP_WRAPPER_TEXT)
        g_assert_cmpstr (json_object_get_string_member (message->part, "text"), ==, written);
      else
        {
          g_autoptr(AtpAfpResponse) none = atp_afp_wrapper_message_get_response (message, &error);

          g_assert_null (none);
          atp_assert_error (error, ATP_ERROR_PROTOCOL, "holds no Response Object");
          g_clear_error (&error);
        }
    }
}

static void
test_ack (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAfpRequest) request = load_request ("seed-004-follow-up-request.json");
  g_autoptr(AtpAfpRequest) first = load_request ("seed-004-first-request.json");
  g_autoptr(AtpAfpResponse) seed = load_seed_response ();
  g_autoptr(GHashTable) issued = new_set ("scope-definition-lacks-detail-01", "unrelated-item-07", NULL);
  g_autoptr(GPtrArray) ack = atp_afp_ack_items_new (request, issued);
  g_autoptr(AtpAfpResponse) response = NULL;
  g_autoptr(AtpAfpResponse) again = NULL;
  g_autofree char *text = NULL;
  static const AtpAfpProcessingStatus expected[] = {
    ATP_AFP_ACK_ACKNOWLEDGED, ATP_AFP_ACK_UNKNOWN_ID, ATP_AFP_ACK_UNKNOWN_ID
  };

  g_assert_null (atp_afp_ack_items_new (first, issued));

  g_assert_cmpuint (ack->len, ==, 3);
  for (guint i = 0; i < ack->len; i++)
    {
      const AtpAfpAckItem *item = g_ptr_array_index (ack, i);
      const AtpAfpAppliedItem *applied = g_ptr_array_index (request->applied_items, i);

      g_assert_cmpstr (item->id, ==, applied->id);
      g_assert_cmpint (item->processing_status, ==, expected[i]);
    }

  response = atp_afp_response_new_success (2, seed->feedback, ack);
  g_assert_true (atp_afp_response_check_for_request (response, request, &error));
  g_assert_no_error (error);

  text = atp_afp_response_to_string (response, NULL);
  g_assert_nonnull (strstr (text, "\"applied_feedback_ack\":{\"items\":[{\"id\":"
                                  "\"scope-definition-lacks-detail-01\",\"processing_status\":"
                                  "\"acknowledged\"},{\"id\":\"accessibility-concerns-02\","
                                  "\"processing_status\":\"unknown_id\"},"));
  again = atp_afp_response_new_from_data (text, -1, &error);
  g_assert_no_error (error);
  g_assert_true (atp_afp_response_check_for_request (again, request, &error));

  /* What a Requester refuses. */
  g_assert_false (atp_afp_response_check_for_request (seed, request, &error));
  atp_assert_error (error, ATP_ERROR_PROTOCOL, "iteration: 1 does not echo the request's 2");
  g_clear_error (&error);
  g_assert_false (atp_afp_response_check_for_request (response, first, &error));
  atp_assert_error (error, ATP_ERROR_PROTOCOL, "iteration");
  g_clear_error (&error);
  {
    g_autoptr(AtpAfpResponse) no_ack = atp_afp_response_new_success (2, seed->feedback, NULL);
    g_autoptr(AtpAfpResponse) ack_on_first = atp_afp_response_new_success (1, seed->feedback, ack);
    g_autoptr(GPtrArray) short_ack = atp_afp_ack_items_new (request, NULL);
    g_autoptr(AtpAfpResponse) wrong = NULL;

    g_assert_false (atp_afp_response_check_for_request (no_ack, request, &error));
    atp_assert_error (error, ATP_ERROR_PROTOCOL, "applied_feedback_ack: missing");
    g_clear_error (&error);
    g_assert_false (atp_afp_response_check_for_request (ack_on_first, first, &error));
    atp_assert_error (error, ATP_ERROR_PROTOCOL, "applied_feedback_ack: present");
    g_clear_error (&error);

    g_ptr_array_remove_index (short_ack, 2);
    wrong = atp_afp_response_new_success (2, seed->feedback, short_ack);
    g_assert_false (atp_afp_response_check_for_request (wrong, request, &error));
    atp_assert_error (error, ATP_ERROR_PROTOCOL, "2 items for the request's 3 applied items");
    g_clear_error (&error);

    /* The same ids in another order. */
    g_clear_pointer (&short_ack, g_ptr_array_unref);
    short_ack = atp_afp_ack_items_new (request, NULL);
    {
      gpointer first_item = short_ack->pdata[0];

      short_ack->pdata[0] = short_ack->pdata[1];
      short_ack->pdata[1] = first_item;
    }
    g_clear_pointer (&wrong, atp_afp_response_unref);
    wrong = atp_afp_response_new_error (2, "REVIEW_DECLINED", "No.", short_ack);
    g_assert_false (atp_afp_response_check_for_request (wrong, request, &error));
    atp_assert_error (error, ATP_ERROR_PROTOCOL, "applied_feedback_ack.items[0].id");
  }
}

static void
test_error_response (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAfpResponse) response = atp_afp_response_new_error (0, "INVALID_REQUEST",
                                                                   "iteration: required field is missing",
                                                                   NULL);
  g_autoptr(AtpAfpResponse) again = NULL;
  g_autofree char *text = atp_afp_response_to_string (response, NULL);

  g_assert_cmpstr (text, ==,
                   "{\"protocol_version\":\"1.2\",\"iteration\":0,\"status\":\"error\",\"error\":"
                   "{\"code\":\"INVALID_REQUEST\",\"message\":\"iteration: required field is missing\"}}");
  again = atp_afp_response_new_from_data (text, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (again->status, ==, ATP_AFP_STATUS_ERROR);
  g_assert_cmpstr (again->error_code, ==, "INVALID_REQUEST");
  g_assert_null (again->feedback);
}

static const char *valid_response =
  "{\"protocol_version\":\"1.2\",\"iteration\":2,\"status\":\"success\",\"feedback\":{"
  "\"confidence\":{\"level\":\"high\",\"justification\":\"Read it twice.\"},"
  "\"positive_points\":[{\"aspect\":\"Clarity\",\"justification\":\"Short sentences.\"}],"
  "\"areas_for_improvement\":[{\"id\":\"error-handling-01\",\"aspect\":\"Errors\","
  "\"description\":\"Retries are unbounded.\",\"recommendation\":\"Cap them.\"},"
  "{\"id\":\"naming-things-01\",\"aspect\":\"Names\",\"description\":\"Vague.\","
  "\"recommendation\":\"Rename.\"}],\"general_summary\":\"Good.\"},"
  "\"applied_feedback_ack\":{\"items\":[{\"id\":\"scope-01-abcd\",\"processing_status\":\"acknowledged\"}]}}";

/* Each rule of the Response Object and the feedback broken once. */
static const struct
{
  const char *path;
  const char *value;
  AtpErrorCode code;
  const char *message;
} broken[] = {
  { "protocol_version", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "protocol_version: required field is missing" },
  { "protocol_version", "\"1.0\"", ATP_ERROR_INVALID_FIELD_VALUE, "protocol_version: must be \"1.2\"" },
  { "iteration", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "iteration: required field is missing" },
  { "iteration", "0", ATP_ERROR_INVALID_FIELD_VALUE, "iteration: must be an integer ≥ 1, got 0" },
  { "iteration", "-1", ATP_ERROR_INVALID_FIELD_VALUE, "iteration: must be an integer ≥ 0" },
  { "status", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "status: required field is missing" },
  { "status", "\"ok\"", ATP_ERROR_INVALID_FIELD_VALUE, "status: must be one of success, error, got \"ok\"" },
  { "feedback", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "feedback: required field is missing" },
  { "error", "{\"code\":\"X\",\"message\":\"y\"}", ATP_ERROR_INVALID_FIELD_VALUE, "error: must not be present when status is \"success\"" },
  { "sessionID", "\"ses_x\"", ATP_ERROR_INVALID_REQUEST, "sessionID: session fields" },
  { "verdict", "1", ATP_ERROR_INVALID_REQUEST, "verdict: unknown field" },
  { "feedback.confidence", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "feedback.confidence: required field is missing" },
  { "feedback.confidence.level", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "feedback.confidence.level: required field is missing" },
  { "feedback.confidence.level", "\"certain\"", ATP_ERROR_INVALID_FIELD_VALUE, "feedback.confidence.level: must be one of high, medium, low, got \"certain\"" },
  { "feedback.confidence.justification", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "feedback.confidence.justification: required field is missing" },
  { "feedback.confidence.justification", "\"\"", ATP_ERROR_INVALID_FIELD_VALUE, "feedback.confidence.justification: must be a non-empty string" },
  { "feedback.confidence.justification", "\" \\n \"", ATP_ERROR_INVALID_FIELD_VALUE, "feedback.confidence.justification: must be a non-empty string (not only spaces)" },
  { "feedback.confidence.score", "1", ATP_ERROR_INVALID_REQUEST, "feedback.confidence.score: unknown field" },
  { "feedback.positive_points", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "feedback.positive_points: required field is missing" },
  { "feedback.positive_points", "{}", ATP_ERROR_INVALID_FIELD_VALUE, "feedback.positive_points: must be an array" },
  { "feedback.positive_points[0].aspect", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "feedback.positive_points[0].aspect: required field is missing" },
  { "feedback.positive_points[0].justification", "\"\"", ATP_ERROR_INVALID_FIELD_VALUE, "feedback.positive_points[0].justification: must be a non-empty string" },
  { "feedback.areas_for_improvement", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "feedback.areas_for_improvement: required field is missing" },
  { "feedback.areas_for_improvement[1].id", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "feedback.areas_for_improvement[1].id: required field is missing" },
  { "feedback.areas_for_improvement[1].id", "\"Naming-01\"", ATP_ERROR_INVALID_FIELD_VALUE, "feedback.areas_for_improvement[1].id: must be an id matching ^[a-z0-9._-]{8,128}$, got \"Naming-01\"" },
  { "feedback.areas_for_improvement[1].id", "\"short\"", ATP_ERROR_INVALID_FIELD_VALUE, "must be an id matching" },
  { "feedback.areas_for_improvement[1].id", "\"error-handling-01\"", ATP_ERROR_INVALID_FIELD_VALUE, "feedback.areas_for_improvement[1].id: \"error-handling-01\" is the id of areas_for_improvement[0] already" },
  { "feedback.areas_for_improvement[0].aspect", "\"   \"", ATP_ERROR_INVALID_FIELD_VALUE, "feedback.areas_for_improvement[0].aspect: must be a non-empty string" },
  { "feedback.areas_for_improvement[0].description", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "feedback.areas_for_improvement[0].description: required field is missing" },
  { "feedback.areas_for_improvement[0].recommendation", "[]", ATP_ERROR_INVALID_FIELD_VALUE, "feedback.areas_for_improvement[0].recommendation: must be a non-empty string, got an array" },
  { "feedback.areas_for_improvement[0].severity", "\"high\"", ATP_ERROR_INVALID_REQUEST, "feedback.areas_for_improvement[0].severity: unknown field" },
  { "feedback.general_summary", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "feedback.general_summary: required field is missing" },
  { "feedback.general_summary", "\"\"", ATP_ERROR_INVALID_FIELD_VALUE, "feedback.general_summary: must be a non-empty string" },
  { "applied_feedback_ack", "[]", ATP_ERROR_INVALID_FIELD_VALUE, "applied_feedback_ack: must be an object" },
  { "applied_feedback_ack.items", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "applied_feedback_ack.items: required field is missing" },
  { "applied_feedback_ack.items[0].id", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "applied_feedback_ack.items[0].id: required field is missing" },
  { "applied_feedback_ack.items[0].processing_status", "\"seen\"", ATP_ERROR_INVALID_FIELD_VALUE, "applied_feedback_ack.items[0].processing_status: must be one of acknowledged, unknown_id" },
};

static void
test_response_rules_broken (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (broken); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AtpAfpResponse) response = NULL;
      g_autoptr(JsonNode) root = atp_json_parse (valid_response, -1, 0, &error);

      g_assert_no_error (error);
      g_test_message ("%s = %s", broken[i].path, broken[i].value ? broken[i].value : "(removed)");
      atp_test_patch (root, broken[i].path, broken[i].value);
      response = atp_afp_response_new_from_json (root, &error);
      g_assert_null (response);
      atp_assert_error (error, broken[i].code, broken[i].message);
    }
}

static void
test_error_rules_broken (void)
{
  static const struct { const char *text; AtpErrorCode code; const char *message; } cases[] = {
    { "{\"protocol_version\":\"1.2\",\"iteration\":1,\"status\":\"error\"}",
      ATP_ERROR_MISSING_REQUIRED_FIELD, "error: required field is missing" },
    { "{\"protocol_version\":\"1.2\",\"iteration\":1,\"status\":\"error\",\"error\":{\"code\":\"\",\"message\":\"m\"}}",
      ATP_ERROR_INVALID_FIELD_VALUE, "error.code: must be a non-empty string" },
    { "{\"protocol_version\":\"1.2\",\"iteration\":1,\"status\":\"error\",\"error\":{\"code\":\"X\"}}",
      ATP_ERROR_MISSING_REQUIRED_FIELD, "error.message: required field is missing" },
    { "{\"protocol_version\":\"1.2\",\"iteration\":1,\"status\":\"error\",\"error\":{\"code\":\"X\",\"message\":\"m\",\"at\":1}}",
      ATP_ERROR_INVALID_REQUEST, "error.at: unknown field" },
    { "{\"protocol_version\":\"1.2\",\"iteration\":1,\"status\":\"error\",\"error\":{\"code\":\"X\",\"message\":\"m\"},\"feedback\":{}}",
      ATP_ERROR_INVALID_FIELD_VALUE, "feedback: must not be present when status is \"error\"" },
    { "\"success\"", ATP_ERROR_INVALID_REQUEST, "A Response Object must be a JSON object" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AtpAfpResponse) response = atp_afp_response_new_from_data (cases[i].text, -1, &error);

      g_assert_null (response);
      atp_assert_error (error, cases[i].code, cases[i].message);
    }
}

static void
test_feedback_extensions (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(AtpAfpFeedback) feedback = NULL;
  g_autoptr(JsonNode) written = NULL;
  const char *text =
    "{\"confidence\":{\"level\":\"low\",\"justification\":\"Skimmed.\",\"x-minutes\":3},"
    "\"positive_points\":[],\"areas_for_improvement\":[{\"id\":\"tests-missing-01\","
    "\"aspect\":\"Tests\",\"description\":\"None.\",\"recommendation\":\"Add some.\","
    "\"x-line\":12}],\"general_summary\":\"Needs work.\",\"x-reviewer\":\"Ann\"}";

  root = atp_json_parse (text, -1, 0, &error);
  feedback = atp_afp_feedback_new_from_json (root, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (feedback->positive_points->len, ==, 0);
  g_assert_nonnull (atp_afp_feedback_find_item (feedback, "tests-missing-01"));
  g_assert_null (atp_afp_feedback_find_item (feedback, "tests-missing-02"));

  written = atp_afp_feedback_to_json (feedback);
  {
    g_autofree char *again = atp_json_to_string (written, NULL);

    g_assert_cmpstr (again, ==, text);
  }

  g_clear_pointer (&feedback, atp_afp_feedback_unref);
  {
    g_autoptr(JsonNode) null_node = json_node_new (JSON_NODE_NULL);

    feedback = atp_afp_feedback_new_from_json (null_node, &error);
  }
  g_assert_null (feedback);
  atp_assert_error (error, ATP_ERROR_INVALID_REQUEST, "The feedback must be a JSON object, got null");
}

/* A required feedback text that shows nothing (zero-width, bidirectional
 * marks, ideographic spaces …) says nothing: refused, naming its path, in
 * what a person gives; feedback stored before that rule still reads. */
static void
test_feedback_texts_show_something (void)
{
  static const char * const texts[] = {
    "confidence.justification",
    "positive_points[0].aspect",
    "positive_points[0].justification",
    "areas_for_improvement[1].aspect",
    "areas_for_improvement[1].description",
    "areas_for_improvement[1].recommendation",
    "general_summary",
  };
  static const char * const invisible[] = {
    "\"\\u200b\"", "\"\\u200e\\u200f\"", "\"\\u2060\\u00ad\\u2800\"", "\"\\u3000\\u200b\\u3000\"",
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    for (guint j = 0; j < G_N_ELEMENTS (invisible); j++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(JsonNode) root = atp_json_parse (valid_response, -1, 0, &error);
        g_autoptr(JsonNode) feedback = NULL;
        g_autoptr(AtpAfpFeedback) submitted = NULL, stored = NULL;
        g_autofree char *expected = g_strdup_printf ("%s: must be a string with something visible",
                                                     texts[i]);
        g_autofree char *path = g_strdup_printf ("feedback.%s", texts[i]);

        g_assert_no_error (error);
        g_test_message ("%s = %s", texts[i], invisible[j]);
        atp_test_patch (root, path, invisible[j]);
        feedback = json_node_copy (json_object_get_member (json_node_get_object (root), "feedback"));

        submitted = atp_afp_feedback_new_submission (feedback, &error);
        g_assert_null (submitted);
        atp_assert_error (error, ATP_ERROR_INVALID_FIELD_VALUE, expected);
        g_clear_error (&error);

        stored = atp_afp_feedback_new_from_json (feedback, &error);
        g_assert_no_error (error);
        g_assert_nonnull (stored);
      }

  /* Invisible characters beside visible ones are the person's to write. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonNode) root = atp_json_parse (valid_response, -1, 0, &error);
    g_autoptr(AtpAfpFeedback) submitted = NULL;

    atp_test_patch (root, "feedback.general_summary", "\"\\u200fGood.\\u3000\"");
    submitted = atp_afp_feedback_new_submission (json_object_get_member (json_node_get_object (root),
                                                                         "feedback"), &error);
    g_assert_no_error (error);
    g_assert_cmpstr (submitted->general_summary, ==, "\u200fGood.\u3000");
  }
}

static AtpAfpFeedback *
feedback_with_ids (const char *first,
                   ...)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) text = g_string_new ("{\"confidence\":{\"level\":\"high\",\"justification\":\"j\"},"
                                          "\"positive_points\":[],\"areas_for_improvement\":[");
  g_autoptr(JsonNode) root = NULL;
  AtpAfpFeedback *feedback;
  va_list args;

  va_start (args, first);
  for (const char *id = first; id != NULL; id = va_arg (args, const char *))
    g_string_append_printf (text, "%s{\"id\":\"%s\",\"aspect\":\"a\",\"description\":\"d\","
                                  "\"recommendation\":\"r\"}", id == first ? "" : ",", id);
  va_end (args);
  g_string_append (text, "],\"general_summary\":\"s\"}");

  root = atp_json_parse (text->str, -1, 0, &error);
  g_assert_no_error (error);
  feedback = atp_afp_feedback_new_from_json (root, &error);
  g_assert_no_error (error);
  return feedback;
}

static void
test_session_ids (void)
{
  g_autoptr(GError) error = NULL;
  /* Iteration 1 issued a and b; iteration 2 carried b over and issued c. */
  g_autoptr(GHashTable) issued = new_set ("item-aaaa-01", "item-bbbb-01", "item-cccc-01", NULL);
  g_autoptr(AtpAfpFeedback) latest = feedback_with_ids ("item-bbbb-01", "item-cccc-01", NULL);
  g_autoptr(AtpAfpFeedback) fresh = feedback_with_ids ("item-dddd-01", NULL);
  g_autoptr(AtpAfpFeedback) carried = feedback_with_ids ("item-cccc-01", "item-dddd-01", "item-bbbb-01", NULL);
  g_autoptr(AtpAfpFeedback) revived = feedback_with_ids ("item-dddd-01", "item-aaaa-01", NULL);

  g_assert_true (atp_afp_feedback_check_session (fresh, NULL, NULL, &error));
  g_assert_true (atp_afp_feedback_check_session (fresh, issued, latest, &error));
  g_assert_true (atp_afp_feedback_check_session (carried, issued, latest, &error));
  g_assert_no_error (error);

  /* An id from an older iteration that the latest feedback dropped is not a carry-over. */
  g_assert_false (atp_afp_feedback_check_session (revived, issued, latest, &error));
  atp_assert_error (error, ATP_ERROR_CONSTRAINT_VIOLATION,
                    "areas_for_improvement[1].id: \"item-aaaa-01\" was issued earlier in this session");
  g_clear_error (&error);
  g_assert_false (atp_afp_feedback_check_session (carried, issued, NULL, &error));
  atp_assert_error (error, ATP_ERROR_CONSTRAINT_VIOLATION, "areas_for_improvement[0].id");
  g_clear_error (&error);

  /* The session's cap on ids counts only new ones. */
  {
    g_autoptr(GHashTable) full = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
    g_autoptr(AtpAfpFeedback) carry_only = feedback_with_ids ("item-bbbb-01", NULL);

    for (guint i = 0; i < ATP_AFP_MAX_SESSION_ITEM_IDS - 1; i++)
      g_hash_table_add (full, g_strdup_printf ("item-%06u", i));
    g_hash_table_add (full, g_strdup ("item-bbbb-01"));
    g_assert_true (atp_afp_feedback_check_session (carry_only, full, latest, &error));
    g_assert_false (atp_afp_feedback_check_session (fresh, full, latest, &error));
    atp_assert_error (error, ATP_ERROR_CONSTRAINT_VIOLATION, "1 new ids would make 1001 in this session");
  }
}

static void
test_write_stream (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAfpResponse) response = load_seed_response ();
  g_autoptr(AtpAfpResponse) read = NULL;
  g_autoptr(JsonObject) extensions = json_object_new ();
  g_autofree char *stream = NULL;
  g_autofree char *session = NULL;
  g_autofree char *response_text = atp_afp_response_to_string (response, NULL);
  g_auto(GStrv) lines = NULL;
  AtpAfpStreamInfo info = {
    .session_id = "ses_0123456789abcdefXYZ",
    .message_id = "msg_review",
    .started_ms = 1761021546015,
    .answered_ms = 1761021599000,
    .finished_ms = 1761021599007,
    .finish_extensions = extensions,
  };
  static const char * const types[] = { "step_start", "text", "step_finish" };
  static const char * const part_types[] = { "step-start", "text", "step-finish" };
  static const gint64 times[] = { 1761021546015, 1761021599000, 1761021599007 };
  gsize length;

  json_object_set_int_member (extensions, "x-triage-review-ms", 52985);
  stream = atp_afp_wrapper_write_stream (&info, response, &length);
  g_assert_cmpuint (strlen (stream), ==, length);
  g_assert_true (g_str_has_suffix (stream, "}\n"));

  lines = g_strsplit (stream, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);
  g_assert_cmpstr (lines[3], ==, "");
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(AtpAfpWrapperMessage) message = atp_afp_wrapper_message_new_from_data (lines[i], -1, &error);
      const char *part_id;

      g_assert_no_error (error);
      g_assert_cmpstr (message->type_name, ==, types[i]);
      g_assert_cmpint (message->timestamp, ==, times[i]);
      g_assert_cmpstr (message->session_id, ==, info.session_id);
      g_assert_cmpstr (json_object_get_string_member (message->part, "sessionID"), ==, info.session_id);
      g_assert_cmpstr (json_object_get_string_member (message->part, "messageID"), ==, "msg_review");
      g_assert_cmpstr (json_object_get_string_member (message->part, "type"), ==, part_types[i]);
      part_id = json_object_get_string_member (message->part, "id");
      g_assert_true (g_str_has_prefix (part_id, "prt_"));
      g_assert_cmpuint (strlen (part_id), ==, 24);
      if (i == 1)
        g_assert_cmpstr (json_object_get_string_member (message->part, "text"), ==, response_text);
      if (i == 2)
        {
          JsonObject *tokens = json_object_get_object_member (message->part, "tokens");

          g_assert_cmpint (json_object_get_int_member (message->part, "cost"), ==, 0);
          g_assert_cmpint (json_object_get_int_member (tokens, "input"), ==, 0);
          g_assert_cmpint (json_object_get_int_member (tokens, "output"), ==, 0);
          g_assert_cmpint (json_object_get_int_member (message->part, "x-triage-review-ms"), ==, 52985);
        }
    }

  read = atp_afp_wrapper_read_stream (stream, -1, &session, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (session, ==, info.session_id);
  {
    g_autofree char *again = atp_afp_response_to_string (read, NULL);

    g_assert_cmpstr (again, ==, response_text);
  }

  /* Without a message id, one is made up. */
  info.message_id = NULL;
  info.finish_extensions = NULL;
  g_clear_pointer (&stream, g_free);
  stream = atp_afp_wrapper_write_stream (&info, response, NULL);
  g_assert_nonnull (strstr (stream, "\"messageID\":\"msg_"));
  g_assert_null (strstr (stream, "x-triage"));
}

static void
test_wrapper_rules_broken (void)
{
  static const struct { const char *line; AtpErrorCode code; const char *message; } cases[] = {
    { "{\"timestamp\":1,\"sessionID\":\"s\",\"part\":{}}", ATP_ERROR_MISSING_REQUIRED_FIELD, "type: required field is missing" },
    { "{\"type\":\"\",\"timestamp\":1,\"sessionID\":\"s\",\"part\":{}}", ATP_ERROR_INVALID_FIELD_VALUE, "type: must be a non-empty string" },
    { "{\"type\":\"text\",\"sessionID\":\"s\",\"part\":{\"text\":\"\"}}", ATP_ERROR_MISSING_REQUIRED_FIELD, "timestamp: required field is missing" },
    { "{\"type\":\"step_start\",\"timestamp\":\"1\",\"sessionID\":\"s\",\"part\":{}}", ATP_ERROR_INVALID_FIELD_VALUE, "timestamp: must be an integer ≥ 0" },
    { "{\"type\":\"step_start\",\"timestamp\":-5,\"sessionID\":\"s\",\"part\":{}}", ATP_ERROR_INVALID_FIELD_VALUE, "timestamp: must be an integer ≥ 0" },
    { "{\"type\":\"step_start\",\"timestamp\":1,\"part\":{}}", ATP_ERROR_MISSING_REQUIRED_FIELD, "sessionID: required field is missing" },
    { "{\"type\":\"step_start\",\"timestamp\":1,\"sessionID\":\"\",\"part\":{}}", ATP_ERROR_INVALID_FIELD_VALUE, "sessionID: must be a non-empty string" },
    { "{\"type\":\"step_start\",\"timestamp\":1,\"sessionID\":\"s\"}", ATP_ERROR_MISSING_REQUIRED_FIELD, "part: required field is missing" },
    { "{\"type\":\"step_start\",\"timestamp\":1,\"sessionID\":\"s\",\"part\":\"x\"}", ATP_ERROR_INVALID_FIELD_VALUE, "part: must be an object" },
    { "{\"type\":\"text\",\"timestamp\":1,\"sessionID\":\"s\",\"part\":{}}", ATP_ERROR_MISSING_REQUIRED_FIELD, "part.text: required field is missing" },
    { "{\"type\":\"text\",\"timestamp\":1,\"sessionID\":\"s\",\"part\":{\"text\":{}}}", ATP_ERROR_INVALID_FIELD_VALUE, "part.text: must be a string" },
    { "[]", ATP_ERROR_INVALID_REQUEST, "A wrapper message must be a JSON object" },
    { "{\"type\":\"text\"", ATP_ERROR_INVALID_JSON, "Invalid JSON" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AtpAfpWrapperMessage) message = atp_afp_wrapper_message_new_from_data (cases[i].line, -1, &error);

      g_assert_null (message);
      atp_assert_error (error, cases[i].code, cases[i].message);
    }

  /* An unknown type is kept as such, to be ignored. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(AtpAfpWrapperMessage) message =
      atp_afp_wrapper_message_new_from_data ("{\"type\":\"tool_use\",\"timestamp\":1,\"sessionID\":\"s\",\"part\":{},\"x\":2}\n",
                                             -1, &error);

    g_assert_no_error (error);
    g_assert_cmpint (message->type, ==, ATP_AFP_WRAPPER_UNKNOWN);
    g_assert_cmpstr (message->type_name, ==, "tool_use");
    g_assert_true (json_object_has_member (message->extra, "x"));
  }
}

#define START "{\"type\":\"step_start\",\"timestamp\":1,\"sessionID\":\"ses_a\",\"part\":{}}\n"
#define FINISH "{\"type\":\"step_finish\",\"timestamp\":3,\"sessionID\":\"ses_a\",\"part\":{}}\n"
#define TEXT_OK "{\"type\":\"text\",\"timestamp\":2,\"sessionID\":\"ses_a\",\"part\":{\"text\":" \
  "\"{\\\"protocol_version\\\":\\\"1.2\\\",\\\"iteration\\\":3,\\\"status\\\":\\\"error\\\"," \
  "\\\"error\\\":{\\\"code\\\":\\\"REVIEW_EXPIRED\\\",\\\"message\\\":\\\"late\\\"}}\"}}\n"

static void
test_read_stream (void)
{
  static const struct { const char *stream; const char *message; } bad[] = {
    { START FINISH, "The stream holds no \"text\" message" },
    { START TEXT_OK TEXT_OK FINISH, "line 3: a second \"text\" message" },
    { START "{\"type\":\"text\",\"timestamp\":2,\"sessionID\":\"ses_b\",\"part\":{\"text\":\"{}\"}}\n", "line 2: sessionID \"ses_b\" differs from the stream's \"ses_a\"" },
    { "{\"type\":\"step_start\",\"timestamp\":1,\"sessionID\":\"ses_a\",\"part\":{\"sessionID\":\"ses_c\"}}\n" TEXT_OK, "line 1: part.sessionID \"ses_c\" differs" },
    { START "not json\n" TEXT_OK, "line 2: Invalid JSON" },
    { START "{\"type\":\"text\",\"timestamp\":2,\"sessionID\":\"ses_a\",\"part\":{\"text\":\"{}\"}}\n", "line 2: part.text: protocol_version: required field is missing" },
    { "", "no \"text\" message" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AtpAfpResponse) response = atp_afp_wrapper_read_stream (bad[i].stream, -1, NULL, &error);

      g_assert_null (response);
      atp_assert_error (error, ATP_ERROR_PROTOCOL, bad[i].message);
    }

  /* Unknown types and blank lines are skipped, nothing after step_finish is read. */
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *session = NULL;
    g_autoptr(AtpAfpResponse) response =
      atp_afp_wrapper_read_stream (START "\n{\"type\":\"reasoning\",\"timestamp\":1,\"sessionID\":\"ses_a\",\"part\":{}}\n"
                                   TEXT_OK FINISH "garbage", -1, &session, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (session, ==, "ses_a");
    g_assert_cmpint (response->iteration, ==, 3);
    g_assert_cmpstr (response->error_code, ==, "REVIEW_EXPIRED");
  }
}

static void
test_random_id (void)
{
  g_autofree char *a = atp_afp_random_id ("ses_", 24);
  g_autofree char *b = atp_afp_random_id ("ses_", 24);
  g_autofree char *empty = atp_afp_random_id ("x", 0);

  g_assert_cmpuint (strlen (a), ==, 28);
  g_assert_true (g_str_has_prefix (a, "ses_"));
  for (const char *p = a + 4; *p != '\0'; p++)
    g_assert_true (g_ascii_isalnum (*p));
  g_assert_cmpstr (a, !=, b);
  g_assert_cmpstr (empty, ==, "x");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/afp/response/seed", test_seed_response);
  g_test_add_func ("/afp/response/seed-stream", test_seed_stream);
  g_test_add_func ("/afp/response/ack", test_ack);
  g_test_add_func ("/afp/response/error", test_error_response);
  g_test_add_func ("/afp/response/rules-broken", test_response_rules_broken);
  g_test_add_func ("/afp/response/error-rules-broken", test_error_rules_broken);
  g_test_add_func ("/afp/feedback/extensions", test_feedback_extensions);
  g_test_add_func ("/afp/feedback/session-ids", test_session_ids);
  g_test_add_func ("/afp/feedback/texts-show-something", test_feedback_texts_show_something);
  g_test_add_func ("/afp/wrapper/write-stream", test_write_stream);
  g_test_add_func ("/afp/wrapper/rules-broken", test_wrapper_rules_broken);
  g_test_add_func ("/afp/wrapper/read-stream", test_read_stream);
  g_test_add_func ("/afp/wrapper/random-id", test_random_id);

  return g_test_run ();
}
