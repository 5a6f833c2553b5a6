/* test-ask-afp.c — triage-ask --afp against a real triage-server: a whole
 * three-iteration session read as a Requester reads it, and every error path
 * with its exact code and exit status
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ask-test-util.h"
#include "atp-afp.h"
#include "triage-ask.h"

#define REVIEW_1 "0a6e1c3b-5d2f-4e8a-9b7c-1d2e3f4a5b60"
#define REVIEW_2 "0a6e1c3b-5d2f-4e8a-9b7c-1d2e3f4a5b61"
#define REVIEW_3 "0a6e1c3b-5d2f-4e8a-9b7c-1d2e3f4a5b62"

#define FEEDBACK(areas) \
  "{\"confidence\":{\"level\":\"medium\",\"justification\":\"The idea is high-level.\"}," \
  "\"positive_points\":[{\"aspect\":\"User Experience\",\"justification\":\"Often asked for.\"}]," \
  "\"areas_for_improvement\":[" areas "],\"general_summary\":\"Valuable; plan it further.\"}"
#define AREA(id, aspect) \
  "{\"id\":\"" id "\",\"aspect\":\"" aspect "\",\"description\":\"Not yet said.\"," \
  "\"recommendation\":\"Say it.\"}"

/* What a Requester does with the output: exactly three lines, every one a
 * wrapper message of the same session, the Response Object in the text line. */
static AtpAfpResponse *
read_output (Run   *run,
             char **session_id)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = g_strsplit (run->out, "\n", -1);
  static const char * const types[] = { "step_start", "text", "step_finish" };
  AtpAfpResponse *response;

  g_assert_cmpint (run->status, ==, 0);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);
  g_assert_cmpstr (lines[3], ==, "");
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(AtpAfpWrapperMessage) message = atp_afp_wrapper_message_new_from_data (lines[i], -1,
                                                                                       &error);

      g_assert_no_error (error);
      g_assert_cmpstr (message->type_name, ==, types[i]);
      g_assert_cmpstr (json_object_get_string_member (message->part, "sessionID"), ==,
                       message->session_id);
    }

  response = atp_afp_wrapper_read_stream (run->out, -1, session_id, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (*session_id, "ses_"));
  g_assert_cmpuint (strlen (*session_id), >=, 4 + 16);
  return response;
}

/* Starts triage-ask --afp with @extra arguments and @request on standard input. */
static Run *
afp_run_start (Fixture            *fixture,
               const char * const *extra,
               const char         *request)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();

  g_ptr_array_add (args, "--afp");
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer) extra[i]);
  g_ptr_array_add (args, NULL);
  return ask_start (fixture, (const char * const *) args->pdata, request);
}

/* The same, run to the end. */
static Run *
afp_run (Fixture            *fixture,
         const char * const *extra,
         const char         *request)
{
  Run *run = afp_run_start (fixture, extra, request);

  ask_finish (run);
  return run;
}

/* The person: waits until review @id is in their inbox. */
static void
person_wait_for_review (Fixture    *fixture,
                        const char *id)
{
  g_autofree char *path = g_strconcat ("/api/v1/client/notifications/", id, NULL);
  guint watchdog = g_timeout_add_seconds (TRIAGE_TEST_WATCHDOG_S, triage_test_watchdog_cb,
                                         (gpointer) id);

  for (;;)
    {
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(JsonNode) node = NULL;

      atp_client_call_async (fixture->person, "GET", path, NULL, FALSE, 0, NULL, result_cb, &result);
      wait_until (result != NULL, "the review");
      node = atp_client_call_finish (fixture->person, result, NULL);
      if (node != NULL)
        break;
      sleep_ms (50);
    }
  g_source_remove (watchdog);
}

/* The person answers review @id once it is in their inbox. */
static void
person_reviews (Fixture    *fixture,
                const char *id,
                const char *action_id,
                const char *data_json)
{
  person_wait_for_review (fixture, id);
  person_answers (fixture, id, action_id, data_json);
}

static void
assert_error (AtpAfpResponse *response,
              const char     *code,
              gint64          iteration,
              const char     *message)
{
  g_assert_cmpint (response->status, ==, ATP_AFP_STATUS_ERROR);
  g_assert_cmpstr (response->error_code, ==, code);
  g_assert_cmpint (response->iteration, ==, iteration);
  if (strstr (response->error_message, message) == NULL)
    g_error ("error message \"%s\" does not contain \"%s\"", response->error_message, message);
}

/* ---- a whole session ---- */

static void
test_three_iterations (Fixture       *fixture,
                       gconstpointer  data)
{
  const char *first = "{\"iteration\":1,\"artifact\":{\"media_type\":\"text/plain\","
                      "\"content\":\"Add a 'dark mode' to the user interface.\"}}";
  const char * const args1[] = { "--id", REVIEW_1, NULL };
  g_autoptr(Run) run = afp_run_start (fixture, args1, first);
  g_autoptr(AtpAfpResponse) response = NULL;
  g_autoptr(AtpAfpRequest) request = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *session = NULL;
  g_autofree char *again = NULL;
  g_autofree char *second = NULL;
  g_autofree char *third = NULL;
  const AtpAfpImprovement *item;

  person_reviews (fixture, REVIEW_1, "feedback",
                  FEEDBACK (AREA ("scope-definition-01", "Scope Definition") ","
                            AREA ("accessibility-01", "Accessibility")));
  ask_finish (run);
  response = read_output (run, &session);
  request = atp_afp_request_new_from_data (first, -1, &error);
  g_assert_true (atp_afp_response_check_for_request (response, request, &error));
  g_assert_cmpint (response->status, ==, ATP_AFP_STATUS_SUCCESS);
  g_assert_cmpuint (response->feedback->areas_for_improvement->len, ==, 2);
  g_clear_pointer (&response, atp_afp_response_unref);
  g_clear_pointer (&request, atp_afp_request_unref);
  g_clear_pointer (&run, run_free);

  /* Iteration 2: applied_feedback and --session; one id the session never issued. */
  second = g_strdup ("{\"protocol_version\":\"1.2\",\"iteration\":2,\"artifact\":{\"media_type\":"
                     "\"text/markdown\",\"content\":\"## Dark Mode Spec\\n- The toolbar\"},"
                     "\"applied_feedback\":{\"items\":[{\"id\":\"scope-definition-01\",\"status\":"
                     "\"accepted\"},{\"id\":\"accessibility-01\",\"status\":\"partial\","
                     "\"explanation\":\"Contrast only.\"},{\"id\":\"performance-03\",\"status\":"
                     "\"rejected\",\"reason_code\":\"out_of_scope\"}]}}");
  {
    const char * const args2[] = { "--session", session, "--id", REVIEW_2, NULL };

    run = afp_run_start (fixture, args2, second);
  }
  person_reviews (fixture, REVIEW_2, "feedback",
                  FEEDBACK (AREA ("accessibility-01", "Accessibility") ","
                            AREA ("icon-colours-01", "Icon colours")));
  ask_finish (run);
  response = read_output (run, &again);
  g_assert_cmpstr (again, ==, session);
  request = atp_afp_request_new_from_data (second, -1, &error);
  g_assert_true (atp_afp_response_check_for_request (response, request, &error));
  g_assert_no_error (error);
  g_assert_cmpint (((AtpAfpAckItem *) response->ack_items->pdata[0])->processing_status, ==,
                   ATP_AFP_ACK_ACKNOWLEDGED);
  g_assert_cmpint (((AtpAfpAckItem *) response->ack_items->pdata[1])->processing_status, ==,
                   ATP_AFP_ACK_ACKNOWLEDGED);
  g_assert_cmpint (((AtpAfpAckItem *) response->ack_items->pdata[2])->processing_status, ==,
                   ATP_AFP_ACK_UNKNOWN_ID);
  /* The carried-over item kept its id. */
  item = atp_afp_feedback_find_item (response->feedback, "accessibility-01");
  g_assert_nonnull (item);
  g_clear_pointer (&response, atp_afp_response_unref);
  g_clear_pointer (&request, atp_afp_request_unref);
  g_clear_pointer (&run, run_free);
  g_clear_pointer (&again, g_free);

  /* Iteration 3, applying an item of iteration 2. */
  third = g_strdup ("{\"iteration\":3,\"artifact\":{\"media_type\":\"text/markdown\",\"content\":"
                    "\"## Dark Mode Spec\\n- The toolbar\\n- Icons\"},\"applied_feedback\":"
                    "{\"items\":[{\"id\":\"icon-colours-01\",\"status\":\"accepted\"}]}}");
  {
    const char * const args3[] = { "--session", session, "--id", REVIEW_3, NULL };

    run = afp_run_start (fixture, args3, third);
  }
  person_reviews (fixture, REVIEW_3, "feedback", FEEDBACK (""));
  ask_finish (run);
  response = read_output (run, &again);
  g_assert_cmpstr (again, ==, session);
  request = atp_afp_request_new_from_data (third, -1, &error);
  g_assert_true (atp_afp_response_check_for_request (response, request, &error));
  g_assert_cmpint (((AtpAfpAckItem *) response->ack_items->pdata[0])->processing_status, ==,
                   ATP_AFP_ACK_ACKNOWLEDGED);
}

/* ---- error paths: the exact code and exit status ---- */

static void
test_malformed_json (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(Run) run = afp_run (fixture, NULL, "{\"iteration\": 1, \"artifact\": {");
  g_autoptr(AtpAfpResponse) response = NULL;
  g_autofree char *session = NULL;

  response = read_output (run, &session);
  assert_error (response, "INVALID_REQUEST", 0, "Invalid JSON at line 1");
  g_assert_null (response->ack_items);
}

static void
test_missing_field (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(Run) run = afp_run (fixture, NULL, "{\"iteration\":4,\"artifact\":{\"media_type\":"
                                               "\"text/plain\"}}");
  g_autoptr(AtpAfpResponse) response = NULL;
  g_autofree char *session = NULL;

  response = read_output (run, &session);
  assert_error (response, "INVALID_REQUEST", 4, "artifact.content: required field is missing");
}

static void
test_wrong_version (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(Run) run = afp_run (fixture, NULL, "{\"protocol_version\":\"1.1\",\"iteration\":1,"
                                               "\"artifact\":{\"media_type\":\"text/plain\","
                                               "\"content\":\"x\"}}");
  g_autoptr(AtpAfpResponse) response = NULL;
  g_autofree char *session = NULL;

  response = read_output (run, &session);
  assert_error (response, "INVALID_REQUEST", 1, "protocol_version: must be \"1.2\"");
}

static void
test_unsupported_media_type (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autoptr(Run) run = afp_run (fixture, NULL, "{\"iteration\":1,\"artifact\":{\"media_type\":"
                                               "\"application/pdf\",\"content\":\"JVBERi0=\"}}");
  g_autoptr(AtpAfpResponse) response = NULL;
  g_autofree char *session = NULL;

  response = read_output (run, &session);
  assert_error (response, "UNSUPPORTED_MEDIA_TYPE", 1, "\"application/pdf\" cannot be reviewed");
}

/* A session at iteration 2 refuses 2 again; the ack still says which ids it issued. */
static void
test_iteration_not_increasing (Fixture       *fixture,
                               gconstpointer  data)
{
  const char * const args1[] = { "--id", REVIEW_1, NULL };
  g_autoptr(Run) run = afp_run_start (fixture, args1, "{\"iteration\":2,\"artifact\":{\"media_type\":"
                                                      "\"text/plain\",\"content\":\"v2\"}}");
  g_autoptr(AtpAfpResponse) response = NULL;
  g_autofree char *session = NULL;
  g_autofree char *again = NULL;

  person_reviews (fixture, REVIEW_1, "feedback", FEEDBACK (AREA ("naming-things-01", "Names")));
  ask_finish (run);
  response = read_output (run, &session);
  g_clear_pointer (&response, atp_afp_response_unref);
  g_clear_pointer (&run, run_free);

  {
    const char * const args2[] = { "--session", session, NULL };

    run = afp_run (fixture, args2, "{\"iteration\":2,\"artifact\":{\"media_type\":\"text/plain\","
                                   "\"content\":\"v2 again\"},\"applied_feedback\":{\"items\":"
                                   "[{\"id\":\"naming-things-01\",\"status\":\"accepted\"},"
                                   "{\"id\":\"never-issued-01\",\"status\":\"accepted\"}]}}");
  }
  response = read_output (run, &again);
  g_assert_cmpstr (again, ==, session);
  assert_error (response, "INVALID_REQUEST", 2, "must be greater than 2, the last iteration of session");
  /* Named as the Requester wrote it, not under the server's "request" member. */
  g_assert_true (g_str_has_prefix (response->error_message, "iteration: "));
  g_assert_nonnull (response->ack_items);
  g_assert_cmpint (((AtpAfpAckItem *) response->ack_items->pdata[0])->processing_status, ==,
                   ATP_AFP_ACK_ACKNOWLEDGED);
  g_assert_cmpint (((AtpAfpAckItem *) response->ack_items->pdata[1])->processing_status, ==,
                   ATP_AFP_ACK_UNKNOWN_ID);
}

static void
test_unknown_session (Fixture       *fixture,
                      gconstpointer  data)
{
  const char * const args[] = { "--session", "ses_NeverStartedAnywhere01", NULL };
  g_autoptr(Run) run = afp_run (fixture, args, "{\"iteration\":2,\"artifact\":{\"media_type\":"
                                               "\"text/plain\",\"content\":\"x\"},"
                                               "\"applied_feedback\":{\"items\":[{\"id\":"
                                               "\"some-item-01\",\"status\":\"accepted\"}]}}");
  g_autoptr(AtpAfpResponse) response = NULL;
  g_autofree char *session = NULL;

  response = read_output (run, &session);
  g_assert_cmpstr (session, ==, "ses_NeverStartedAnywhere01");
  /* Named by the option given, not the server's body member "session_id". */
  assert_error (response, "INVALID_REQUEST", 2,
                "--session: no review session “ses_NeverStartedAnywhere01”");
  g_assert_true (g_str_has_prefix (response->error_message, "--session: "));
  g_assert_cmpint (((AtpAfpAckItem *) response->ack_items->pdata[0])->processing_status, ==,
                   ATP_AFP_ACK_UNKNOWN_ID);
}

static void
test_deadline_passed (Fixture       *fixture,
                      gconstpointer  data)
{
  const char * const args[] = { "--deadline", "1s", NULL };
  g_autoptr(Run) run = afp_run (fixture, args, "{\"iteration\":1,\"artifact\":{\"media_type\":"
                                               "\"text/plain\",\"content\":\"x\"}}");
  g_autoptr(AtpAfpResponse) response = NULL;
  g_autofree char *session = NULL;

  response = read_output (run, &session);
  assert_error (response, "REVIEW_EXPIRED", 1, "Nobody reviewed the artifact before the deadline");
}

static void
test_declined (Fixture       *fixture,
               gconstpointer  data)
{
  const char * const args[] = { "--id", REVIEW_1, NULL };
  g_autoptr(Run) run = afp_run_start (fixture, args, "{\"iteration\":1,\"artifact\":{\"media_type\":"
                                                     "\"text/plain\",\"content\":\"x\"}}");
  g_autoptr(AtpAfpResponse) response = NULL;
  g_autofree char *session = NULL;

  person_reviews (fixture, REVIEW_1, "decline", "{\"message\":\"Not my area.\"}");
  ask_finish (run);
  response = read_output (run, &session);
  assert_error (response, "REVIEW_DECLINED", 1, "Not my area.");
}

/* The three lines are three for a reader that splits on every Unicode line
 * break (Python's str.splitlines ()): a person's U+2028, U+2029 or U+0085
 * made more, and a C1 control reached a terminal raw. */
static void
test_line_breaks (Fixture       *fixture,
                  gconstpointer  data)
{
  const char * const args[] = { "--id", REVIEW_1, NULL };
  g_autoptr(Run) run = afp_run_start (fixture, args, "{\"iteration\":1,\"artifact\":{\"media_type\":"
                                                     "\"text/plain\",\"content\":\"x\"}}");
  g_autoptr(AtpAfpResponse) response = NULL;
  g_autofree char *session = NULL;
  const char * const breaks[] = { "\xe2\x80\xa8", "\xe2\x80\xa9", "\xc2\x85", "\xc2\x9b" };

  person_reviews (fixture, REVIEW_1, "decline",
                  "{\"message\":\"Not\\u2028my\\u2029area\\u0085at\\u009ball.\"}");
  ask_finish (run);
  for (guint i = 0; i < G_N_ELEMENTS (breaks); i++)
    g_assert_null (strstr (run->out, breaks[i]));
  response = read_output (run, &session);
  assert_error (response, "REVIEW_DECLINED", 1,
                "Not\xe2\x80\xa8my\xe2\x80\xa9" "area\xc2\x85" "at\xc2\x9b" "all.");
}

static void
test_no_server (Fixture       *fixture,
                gconstpointer  data)
{
  const char * const args[] = { "--retry-for", "1s", NULL };
  g_autoptr(Run) run = NULL;

  triage_test_server_stop (fixture->server);
  run = afp_run (fixture, args, "{\"iteration\":1,\"artifact\":{\"media_type\":\"text/plain\","
                                "\"content\":\"x\"}}");
  g_assert_cmpint (run->status, ==, TRIAGE_ASK_EXIT_UNREACHABLE);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_nonnull (strstr (run->err, "Cannot reach"));
}

/* The server is away until after the --deadline: nobody could review the
 * artifact in time, an expiry (REVIEW_EXPIRED), not a fault of the Request
 * Object the server's refusal of a passed deadline would make it. */
static void
test_deadline_passed_while_away (Fixture       *fixture,
                                 gconstpointer  data)
{
  const char * const args[] = { "--deadline", "1s", "--retry-for", "60s", NULL };
  g_autoptr(Run) run = NULL;
  g_autoptr(AtpAfpResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *session = NULL;
  gint64 passed;

  triage_test_server_stop (fixture->server);
  run = afp_run_start (fixture, args, "{\"iteration\":1,\"artifact\":{\"media_type\":"
                                      "\"text/plain\",\"content\":\"x\"}}");
  passed = g_get_real_time () + 1500 * 1000;
  while (g_get_real_time () < passed)
    sleep_ms (50);
  g_assert_true (triage_test_server_restart (fixture->server, &error));
  g_assert_no_error (error);
  ask_finish (run);
  response = read_output (run, &session);
  assert_error (response, "REVIEW_EXPIRED", 1, "before the deadline");
}

/* An --id used already for another request is the caller's mistake: an
 * INVALID_REQUEST naming --id, not an INTERNAL_ERROR of Triage. */
static void
test_id_reused (Fixture       *fixture,
                gconstpointer  data)
{
  const char * const args[] = { "--id", REVIEW_1, "--deadline", "1s", NULL };
  g_autoptr(Run) first = afp_run (fixture, args, "{\"iteration\":1,\"artifact\":{\"media_type\":"
                                                 "\"text/plain\",\"content\":\"one\"}}");
  g_autoptr(Run) second = NULL;
  g_autoptr(AtpAfpResponse) response = NULL;
  g_autofree char *session = NULL;

  response = read_output (first, &session);
  assert_error (response, "REVIEW_EXPIRED", 1, "before the deadline");
  g_clear_pointer (&response, atp_afp_response_unref);
  g_clear_pointer (&session, g_free);

  second = afp_run (fixture, args, "{\"iteration\":1,\"artifact\":{\"media_type\":"
                                   "\"text/plain\",\"content\":\"two\"}}");
  response = read_output (second, &session);
  assert_error (response, "INVALID_REQUEST", 1, "--id " REVIEW_1 ": a review with this id");
}

/* Interrupted (SIGINT), or the terminal closed (SIGHUP): the review is withdrawn. */
static void
interrupted_by (Fixture *fixture,
                int      signal_number,
                int      exit_status)
{
  const char * const args[] = { "--afp", "--id", REVIEW_1, NULL };
  g_autoptr(Run) run = ask_start (fixture, args, "{\"iteration\":1,\"artifact\":{\"media_type\":"
                                                 "\"text/plain\",\"content\":\"x\"}}");
  g_autofree char *path = g_strconcat ("/api/v1/afp/reviews/", REVIEW_1, NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonNode) review = NULL;
  g_autoptr(GError) error = NULL;

  /* Once the review is there, the agent gives up. */
  person_wait_for_review (fixture, REVIEW_1);
  g_subprocess_send_signal (run->process, signal_number);
  ask_finish (run);
  g_assert_cmpint (run->status, ==, exit_status);
  g_assert_cmpstr (run->out, ==, "");

  atp_client_call_async (fixture->service, "GET", path, NULL, TRUE, 0, NULL, result_cb, &result);
  wait_until (result != NULL, "the review");
  review = atp_client_call_finish (fixture->service, result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (review), "status"), ==,
                   "invalidated");
}

static void
test_interrupted (Fixture       *fixture,
                  gconstpointer  data)
{
  interrupted_by (fixture, SIGINT, TRIAGE_ASK_EXIT_INTERRUPTED);
}

static void
test_hung_up (Fixture       *fixture,
              gconstpointer  data)
{
  interrupted_by (fixture, SIGHUP, 128 + SIGHUP);
}

static void
test_bad_option (Fixture       *fixture,
                 gconstpointer  data)
{
  const char * const args[] = { "--deadline", "yesterday", NULL };
  const char * const extra[] = { "--title", "x", "--action", "ok", NULL };
  g_autoptr(Run) run = afp_run (fixture, args, "{}");
  g_autoptr(Run) other = afp_run (fixture, extra, "{}");

  g_assert_cmpint (run->status, ==, TRIAGE_ASK_EXIT_USAGE);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_nonnull (strstr (run->err, "--deadline “yesterday”"));
  g_assert_cmpint (other->status, ==, TRIAGE_ASK_EXIT_USAGE);
  g_assert_cmpstr (other->out, ==, "");
}

/* A blank --title or --project is the caller's mistake: a usage error, not an
 * error Response Object about members the Requester never wrote. */
static void
test_blank_option (Fixture       *fixture,
                   gconstpointer  data)
{
  const char * const title[] = { "--title", "  ", NULL };
  const char * const project[] = { "--project", "", NULL };
  const char *request = "{\"iteration\":1,\"artifact\":{\"media_type\":\"text/plain\","
                        "\"content\":\"x\"}}";
  g_autoptr(Run) run = afp_run (fixture, title, request);
  g_autoptr(Run) other = afp_run (fixture, project, request);

  g_assert_cmpint (run->status, ==, TRIAGE_ASK_EXIT_USAGE);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_nonnull (strstr (run->err, "--title"));
  g_assert_cmpint (other->status, ==, TRIAGE_ASK_EXIT_USAGE);
  g_assert_cmpstr (other->out, ==, "");
  g_assert_nonnull (strstr (other->err, "--project"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/ask/afp/three-iterations", test_three_iterations);
  ADD ("/ask/afp/malformed-json", test_malformed_json);
  ADD ("/ask/afp/missing-field", test_missing_field);
  ADD ("/ask/afp/wrong-version", test_wrong_version);
  ADD ("/ask/afp/unsupported-media-type", test_unsupported_media_type);
  ADD ("/ask/afp/iteration-not-increasing", test_iteration_not_increasing);
  ADD ("/ask/afp/unknown-session", test_unknown_session);
  ADD ("/ask/afp/deadline-passed", test_deadline_passed);
  ADD ("/ask/afp/declined", test_declined);
  ADD ("/ask/afp/line-breaks", test_line_breaks);
  ADD ("/ask/afp/no-server", test_no_server);
  ADD ("/ask/afp/deadline-passed-while-away", test_deadline_passed_while_away);
  ADD ("/ask/afp/id-reused", test_id_reused);
  ADD ("/ask/afp/interrupted", test_interrupted);
  ADD ("/ask/afp/hung-up", test_hung_up);
  ADD ("/ask/afp/bad-option", test_bad_option);
  ADD ("/ask/afp/blank-option", test_blank_option);
#undef ADD

  return g_test_run ();
}
