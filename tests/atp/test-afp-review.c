/* test-afp-review.c — the `afp` member of a review's envelope (AtpAfpReview)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "atp-test-common.h"
#include "atp-afp.h"

#define PREVIOUS_ID "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed"

static AtpAfpRequest *
load_request (const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = atp_test_load_json (name);
  AtpAfpRequest *request = atp_afp_request_new_from_json (root, &error);

  g_assert_no_error (error);
  return request;
}

static AtpAfpFeedback *
load_seed_feedback (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = atp_test_load_json ("seed-004-response.json");
  g_autoptr(AtpAfpResponse) response = atp_afp_response_new_from_json (root, &error);

  g_assert_no_error (error);
  return atp_afp_feedback_ref (response->feedback);
}

/* The seed's second iteration, as the server describes it to the app. */
static AtpAfpReview *
seed_review (void)
{
  g_autoptr(AtpAfpRequest) first = load_request ("seed-004-first-request.json");
  g_autoptr(AtpAfpRequest) second = load_request ("seed-004-follow-up-request.json");
  g_autoptr(AtpAfpFeedback) feedback = load_seed_feedback ();
  AtpAfpReview *review = atp_afp_review_new ("ses_0123456789abcdefABCD", second);

  atp_afp_review_set_previous (review, PREVIOUS_ID, 1, &first->artifact);
  atp_afp_review_set_latest_feedback (review, PREVIOUS_ID, 1, feedback);
  atp_afp_review_add_issued_id (review, "scope-definition-lacks-detail-01");
  atp_afp_review_add_issued_id (review, "scope-definition-lacks-detail-01");
  return review;
}

static void
test_round_trip (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAfpReview) review = seed_review ();
  g_autoptr(AtpAfpReview) again = NULL;
  g_autoptr(JsonNode) node = atp_afp_review_to_json (review);
  g_autofree char *text = atp_json_to_string (node, NULL);
  g_autoptr(JsonNode) node_again = NULL;
  g_autofree char *text_again = NULL;

  g_assert_true (g_str_has_prefix (text, "{\"session_id\":\"ses_0123456789abcdefABCD\",\"request\":"
                                         "{\"protocol_version\":\"1.2\",\"iteration\":2,"));
  g_assert_nonnull (strstr (text, "\"previous\":{\"id\":\"" PREVIOUS_ID "\",\"iteration\":1,"
                                  "\"artifact\":{\"media_type\":\"text/plain\",\"content\":"
                                  "\"Add a 'dark mode' to the user interface.\"}}"));
  g_assert_nonnull (strstr (text, "\"latest_feedback\":{\"id\":\"" PREVIOUS_ID "\",\"iteration\":1,"
                                  "\"feedback\":{\"confidence\":"));
  g_assert_true (g_str_has_suffix (text, "\"issued_ids\":[\"scope-definition-lacks-detail-01\"]}"));

  again = atp_afp_review_new_from_json (node, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (again->session_id, ==, review->session_id);
  g_assert_cmpint (again->request->iteration, ==, 2);
  g_assert_cmpstr (again->previous_id, ==, PREVIOUS_ID);
  g_assert_cmpint (again->previous_iteration, ==, 1);
  g_assert_cmpstr (again->previous_artifact.media_type, ==, "text/plain");
  g_assert_nonnull (atp_afp_feedback_find_item (again->latest_feedback,
                                                "scope-definition-lacks-detail-01"));
  g_assert_cmpuint (again->issued_ids->len, ==, 1);
  node_again = atp_afp_review_to_json (again);
  text_again = atp_json_to_string (node_again, NULL);
  g_assert_cmpstr (text, ==, text_again);

  /* A first review: no previous artifact, no feedback yet, nothing issued. */
  {
    g_autoptr(AtpAfpRequest) first = load_request ("seed-004-first-request.json");
    g_autoptr(AtpAfpReview) opening = atp_afp_review_new ("ses_first", first);
    g_autoptr(JsonNode) opening_node = atp_afp_review_to_json (opening);
    g_autofree char *opening_text = atp_json_to_string (opening_node, NULL);

    g_assert_true (g_str_has_suffix (opening_text, "}},\"issued_ids\":[]}"));
    g_assert_null (strstr (opening_text, "previous"));
    g_assert_null (atp_afp_review_ack_items (opening));
  }
}

static void
test_ack_and_check (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAfpReview) review = seed_review ();
  g_autoptr(GPtrArray) ack = atp_afp_review_ack_items (review);
  g_autoptr(AtpAfpFeedback) carried = load_seed_feedback ();
  g_autoptr(JsonNode) root = atp_test_load_json ("seed-004-response.json");
  g_autoptr(AtpAfpFeedback) reused = NULL;

  g_assert_cmpuint (ack->len, ==, 3);
  g_assert_cmpint (((AtpAfpAckItem *) ack->pdata[0])->processing_status, ==, ATP_AFP_ACK_ACKNOWLEDGED);
  g_assert_cmpint (((AtpAfpAckItem *) ack->pdata[1])->processing_status, ==, ATP_AFP_ACK_UNKNOWN_ID);

  /* Carrying the latest feedback's item over keeps its id: allowed. */
  g_assert_true (atp_afp_review_check_feedback (review, carried, &error));
  g_assert_no_error (error);

  /* The same id for an item that is not the latest feedback's is not. */
  g_clear_pointer (&review->latest_feedback, atp_afp_feedback_unref);
  atp_test_patch (root, "feedback.areas_for_improvement[0].aspect", "\"Something else\"");
  reused = atp_afp_feedback_new_from_json (json_object_get_member (json_node_get_object (root),
                                                                   "feedback"), &error);
  g_assert_no_error (error);
  g_assert_false (atp_afp_review_check_feedback (review, reused, &error));
  atp_assert_error (error, ATP_ERROR_CONSTRAINT_VIOLATION,
                    "\"scope-definition-lacks-detail-01\" was issued earlier in this session");
}

static void
test_rules_broken (void)
{
  static const struct
  {
    const char *path;
    const char *value;
    AtpErrorCode code;
    const char *message;
  } broken[] = {
    { "session_id", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "session_id: required field is missing" },
    { "session_id", "\" \"", ATP_ERROR_INVALID_FIELD_VALUE, "session_id: must be a non-empty string" },
    { "request", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "request: required field is missing" },
    { "request", "[]", ATP_ERROR_INVALID_FIELD_VALUE, "request: must be an object" },
    { "request.iteration", "0", ATP_ERROR_INVALID_FIELD_VALUE, "request.iteration: must be an integer ≥ 1" },
    { "request.artifact.media_type", "\"image/png\"", ATP_ERROR_UNSUPPORTED_MEDIA_TYPE, "request.artifact.media_type" },
    { "previous.id", "\"7\"", ATP_ERROR_INVALID_FIELD_VALUE, "previous.id: must be a review id (a UUID v4)" },
    { "previous.iteration", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "previous.iteration: required field is missing" },
    { "previous.artifact", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "previous.artifact: required field is missing" },
    { "previous.artifact.content", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "previous.artifact.content: required field is missing" },
    { "latest_feedback.feedback", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "latest_feedback.feedback: required field is missing" },
    { "latest_feedback.feedback.general_summary", "\"\"", ATP_ERROR_INVALID_FIELD_VALUE, "latest_feedback.feedback.general_summary: must be a non-empty string" },
    { "issued_ids", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "issued_ids: required field is missing" },
    { "issued_ids", "[\"Bad id\"]", ATP_ERROR_INVALID_FIELD_VALUE, "issued_ids: item 0 must be an id matching" },
  };
  g_autoptr(AtpAfpReview) review = seed_review ();

  for (guint i = 0; i < G_N_ELEMENTS (broken); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) root = atp_afp_review_to_json (review);
      g_autoptr(AtpAfpReview) parsed = NULL;

      g_test_message ("%s = %s", broken[i].path, broken[i].value ? broken[i].value : "(removed)");
      atp_test_patch (root, broken[i].path, broken[i].value);
      parsed = atp_afp_review_new_from_json (root, &error);
      g_assert_null (parsed);
      atp_assert_error (error, broken[i].code, broken[i].message);
    }

  /* What a newer server adds is kept. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonNode) root = atp_afp_review_to_json (review);
    g_autoptr(AtpAfpReview) parsed = NULL;
    g_autoptr(JsonNode) written = NULL;

    atp_test_patch (root, "hint", "{\"a\":1}");
    parsed = atp_afp_review_new_from_json (root, &error);
    g_assert_no_error (error);
    written = atp_afp_review_to_json (parsed);
    g_assert_true (atp_json_node_equal (written, root));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/afp/review/round-trip", test_round_trip);
  g_test_add_func ("/afp/review/ack-and-check", test_ack_and_check);
  g_test_add_func ("/afp/review/rules-broken", test_rules_broken);

  return g_test_run ();
}
