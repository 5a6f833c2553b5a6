/* test-afp-protocol.c — AFP 1.2 reviews as the app sees them: what a bubble
 * says and offers, which answers are valid, how an answer reads
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <locale.h>

#include "app-test-common.h"
#include "triage-afp-protocol.h"
#include "triage-notifier.h"

#define ID "5b1c3a7e-0000-4000-8000-0000000af002"

static AtpNotification *
seed_review (int iteration)
{
  g_autoptr(AtpAfpReview) review = app_test_afp_seed_review (iteration);

  return app_test_afp_notification_new (ID, "Dark Mode Spec", review);
}

static JsonNode *
feedback_json (const char *areas)
{
  g_autofree char *text = g_strdup_printf ("{\"confidence\": {\"level\": \"high\", \"justification\": \"Read it all\"},"
                                           " \"positive_points\": [{\"aspect\": \"Clarity\", \"justification\": \"Short\"}],"
                                           " \"areas_for_improvement\": %s,"
                                           " \"general_summary\": \"Good\"}", areas);

  return json_from_string (text, NULL);
}

static void
test_registry (void)
{
  g_autoptr(AtpNotification) n = seed_review (1);
  TriageProtocol *afp = triage_protocol_for_request (n);
  g_autofree char *service = triage_protocol_dup_marked (n->protocol, n->service.name);
  g_autofree char *headline = triage_protocol_dup_headline (afp, n);
  g_autofree char *summary = triage_notifier_dup_summary (n);
  g_autoptr(GPtrArray) answers = triage_protocol_dup_bubble_answers (afp, n);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) data = NULL;
  g_autofree char *action_id = NULL;

  g_assert_true (afp == triage_afp_protocol_get_default ());
  g_assert_cmpint (triage_protocol_get_protocol (afp), ==, ATP_PROTOCOL_AFP);
  g_assert_true (triage_protocol_get_supported_mask () & (1u << ATP_PROTOCOL_AFP));
  g_assert_cmpstr (triage_protocol_get_mark (afp), ==, "AFP");
  g_assert_cmpstr (service, ==, "Spec Writer (AFP)");
  g_assert_cmpstr (headline, ==, "Review requested: Dark Mode Spec");
  g_assert_cmpstr (summary, ==, "Spec Writer (AFP): Review requested: Dark Mode Spec");

  /* No answer from a bubble: it opens the review. */
  g_assert_cmpuint (answers->len, ==, 0);
  g_assert_false (triage_protocol_get_bubble_answer (afp, n, "x", &action_id, &data, &error));
  g_assert_error (error, ATP_ERROR, ATP_ERROR_INVALID_RESPONSE_DATA);
}

static void
test_feedback (void)
{
  g_autoptr(AtpNotification) n = seed_review (1);
  TriageProtocol *afp = triage_protocol_for_request (n);
  g_autoptr(JsonNode) good = feedback_json ("[{\"id\": \"scope-definition-01\", \"aspect\": \"Scope\","
                                            " \"description\": \"Vague\", \"recommendation\": \"List them\"}]");
  g_autoptr(JsonNode) bad_id = feedback_json ("[{\"id\": \"Scope\", \"aspect\": \"Scope\","
                                              " \"description\": \"Vague\", \"recommendation\": \"List them\"}]");
  g_autoptr(JsonNode) blank = feedback_json ("[{\"id\": \"scope-definition-01\", \"aspect\": \"Scope\","
                                             " \"description\": \"  \", \"recommendation\": \"List them\"}]");
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_assert_false (triage_protocol_needs_confirmation (afp, n, TRIAGE_AFP_ACTION_FEEDBACK, good));
  g_assert_true (triage_protocol_validate_answer (afp, n, TRIAGE_AFP_ACTION_FEEDBACK, good, &error));
  g_assert_no_error (error);

  g_assert_false (triage_protocol_validate_answer (afp, n, TRIAGE_AFP_ACTION_FEEDBACK, bad_id, &error));
  g_assert_error (error, ATP_ERROR, ATP_ERROR_INVALID_RESPONSE_DATA);
  g_assert_nonnull (strstr (error->message, "response_data.areas_for_improvement[0].id"));
  g_clear_error (&error);
  g_assert_false (triage_protocol_validate_answer (afp, n, TRIAGE_AFP_ACTION_FEEDBACK, blank, &error));
  g_assert_error (error, ATP_ERROR, ATP_ERROR_INVALID_RESPONSE_DATA);
  g_clear_error (&error);
  g_assert_false (triage_protocol_validate_answer (afp, n, TRIAGE_AFP_ACTION_FEEDBACK, NULL, &error));
  g_assert_error (error, ATP_ERROR, ATP_ERROR_INVALID_RESPONSE_DATA);
  g_clear_error (&error);
  g_assert_false (triage_protocol_validate_answer (afp, n, "ok", good, &error));
  g_assert_error (error, ATP_ERROR, ATP_ERROR_INVALID_ACTION_ID);

  /* The history's words come from the answer alone. */
  text = triage_protocol_describe_answer (afp, NULL, TRIAGE_AFP_ACTION_FEEDBACK, good);
  g_assert_cmpstr (text, ==, "Confidence high · 1 positive point · 1 area for improvement");
}

/* Iteration 2: the session's rules on ids (carry over only the latest
 * feedback's items, never reuse an issued id for a new item). */
static void
test_session_ids (void)
{
  g_autoptr(AtpNotification) n = seed_review (2);
  TriageProtocol *afp = triage_protocol_for_request (n);
  g_autoptr(AtpAfpReview) review = triage_afp_review_from (n, NULL);
  g_autoptr(JsonNode) carried = feedback_json ("[{\"id\": \"scope-definition-lacks-detail-01\", \"aspect\": \"Scope\","
                                               " \"description\": \"Still vague\", \"recommendation\": \"List them\"}]");
  g_autoptr(JsonNode) unknown = feedback_json ("[]");
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (review);
  g_assert_cmpint (review->request->iteration, ==, 2);
  g_assert_cmpint (review->previous_iteration, ==, 1);
  g_assert_nonnull (review->latest_feedback);

  g_assert_true (triage_protocol_validate_answer (afp, n, TRIAGE_AFP_ACTION_FEEDBACK, carried, &error));
  g_assert_no_error (error);
  g_assert_true (triage_protocol_validate_answer (afp, n, TRIAGE_AFP_ACTION_FEEDBACK, unknown, &error));
  g_assert_no_error (error);
}

static void
test_decline (void)
{
  g_autoptr(AtpNotification) n = seed_review (1);
  TriageProtocol *afp = triage_protocol_for_request (n);
  g_autoptr(JsonNode) empty = triage_afp_decline_data_new ("  ");
  g_autoptr(JsonNode) reason = triage_afp_decline_data_new ("Not my area");
  g_autoptr(JsonNode) other = json_from_string ("{\"why\": \"no\"}", NULL);
  g_autoptr(JsonNode) blank = json_from_string ("{\"message\": \" \"}", NULL);
  g_autofree char *long_text = g_strnfill (TRIAGE_AFP_DECLINE_MAX_CHARS + 1, 'a');
  g_autoptr(JsonNode) too_long = triage_afp_decline_data_new (long_text);
  g_autoptr(GError) error = NULL;
  g_autofree char *json = json_to_string (empty, FALSE);
  g_autofree char *words = NULL;
  g_autofree char *plain = NULL;

  g_assert_cmpstr (json, ==, "{}");
  g_assert_true (triage_protocol_validate_answer (afp, n, TRIAGE_AFP_ACTION_DECLINE, empty, &error));
  g_assert_true (triage_protocol_validate_answer (afp, n, TRIAGE_AFP_ACTION_DECLINE, reason, &error));
  g_assert_true (triage_protocol_validate_answer (afp, n, TRIAGE_AFP_ACTION_DECLINE, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (triage_protocol_validate_answer (afp, n, TRIAGE_AFP_ACTION_DECLINE, other, &error));
  g_assert_error (error, ATP_ERROR, ATP_ERROR_INVALID_RESPONSE_DATA);
  g_clear_error (&error);
  g_assert_false (triage_protocol_validate_answer (afp, n, TRIAGE_AFP_ACTION_DECLINE, blank, &error));
  g_assert_error (error, ATP_ERROR, ATP_ERROR_INVALID_RESPONSE_DATA);
  g_clear_error (&error);
  g_assert_false (triage_protocol_validate_answer (afp, n, TRIAGE_AFP_ACTION_DECLINE, too_long, &error));
  g_assert_error (error, ATP_ERROR, ATP_ERROR_CONSTRAINT_VIOLATION);

  words = triage_protocol_describe_answer (afp, n, TRIAGE_AFP_ACTION_DECLINE, reason);
  g_assert_cmpstr (words, ==, "Declined: Not my area");
  plain = triage_protocol_describe_answer (afp, NULL, TRIAGE_AFP_ACTION_DECLINE, empty);
  g_assert_cmpstr (plain, ==, "Declined");
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/afp-protocol/registry", test_registry);
  g_test_add_func ("/afp-protocol/feedback", test_feedback);
  g_test_add_func ("/afp-protocol/session-ids", test_session_ids);
  g_test_add_func ("/afp-protocol/decline", test_decline);

  return g_test_run ();
}
