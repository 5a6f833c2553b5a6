/* fuzz-afp.c — libFuzzer target: the AFP parsers (request, response, feedback,
 * wrapper messages and streams) and their writers
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "fuzz-afp"

#include <string.h>

#include "atp.h"
#include "atp-afp.h"
#include "fuzz-common.h"

/* Every failure is an ATP_ERROR of the parse codes with a UTF-8 message. */
static void
check_parse_error (const GError *error)
{
  if (error == NULL || error->domain != ATP_ERROR)
    fuzz_fail ("a parser failed without an ATP_ERROR");
  switch (error->code)
    {
    case ATP_ERROR_INVALID_JSON:
    case ATP_ERROR_PAYLOAD_TOO_LARGE:
    case ATP_ERROR_INVALID_REQUEST:
    case ATP_ERROR_MISSING_REQUIRED_FIELD:
    case ATP_ERROR_INVALID_FIELD_VALUE:
    case ATP_ERROR_UNSUPPORTED_MEDIA_TYPE:
    case ATP_ERROR_PROTOCOL:
      break;
    default:
      fuzz_fail ("unexpected error code %d: %s", error->code, error->message);
    }
  if (!g_utf8_validate (error->message, -1, NULL))
    fuzz_fail ("an error message is not UTF-8");
  if (strcmp (atp_afp_error_code_for (error), "INTERNAL_ERROR") == 0 &&
      error->code != ATP_ERROR_PROTOCOL)
    fuzz_fail ("a request problem maps to INTERNAL_ERROR: %s", error->message);
}

static void
fuzz_request (JsonNode *root)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAfpRequest) request = atp_afp_request_new_from_json (root, &error);
  g_autoptr(AtpAfpRequest) again = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  gsize length;

  g_autoptr(GPtrArray) peeked = atp_afp_request_peek_applied (root);

  if (request == NULL)
    {
      check_parse_error (error);
      return;
    }

  /* A valid request's applied_feedback is valid on its own too. */
  if ((peeked == NULL) != (request->applied_items == NULL) ||
      (peeked != NULL && peeked->len != request->applied_items->len))
    fuzz_fail ("peeking at applied_feedback disagrees with the parse");

  if (request->iteration < 1 || request->iteration != atp_afp_request_peek_iteration (root))
    fuzz_fail ("iteration %" G_GINT64_FORMAT " accepted", request->iteration);
  if (!atp_afp_media_type_is_supported (request->artifact.media_type))
    fuzz_fail ("unsupported media type accepted: %s", request->artifact.media_type);

  first = atp_afp_request_to_string (request, &length);
  again = atp_afp_request_new_from_data (first, length, &error);
  if (again == NULL)
    {
      /* Writing never grows the text past what was read, but the input
       * itself may have been larger than the cap (it is parsed unbounded here). */
      if (!g_error_matches (error, ATP_ERROR, ATP_ERROR_PAYLOAD_TOO_LARGE))
        fuzz_fail ("a written request does not parse: %s\n%s", error->message, first);
      return;
    }
  second = atp_afp_request_to_string (again, NULL);
  if (strcmp (first, second) != 0)
    fuzz_fail ("request round trip changed:\n%s\n%s", first, second);

  /* Every applied item gets its ack, in order, and the check agrees. */
  {
    g_autoptr(GHashTable) issued = g_hash_table_new (g_str_hash, g_str_equal);
    g_autoptr(GPtrArray) ack = NULL;
    g_autoptr(AtpAfpResponse) response = NULL;

    if (request->applied_items != NULL && request->applied_items->len > 0)
      g_hash_table_add (issued, ((AtpAfpAppliedItem *) request->applied_items->pdata[0])->id);
    ack = atp_afp_ack_items_new (request, issued);
    response = atp_afp_response_new_error (request->iteration, "REVIEW_DECLINED", "no", ack);
    if (!atp_afp_response_check_for_request (response, request, &error))
      fuzz_fail ("the ack does not answer its request: %s", error->message);
  }
}

static void
fuzz_response (JsonNode *root)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAfpResponse) response = atp_afp_response_new_from_json (root, &error);
  g_autoptr(AtpAfpResponse) again = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *stream = NULL;
  g_autofree char *session = NULL;
  g_autoptr(AtpAfpResponse) read = NULL;
  g_autofree char *third = NULL;
  AtpAfpStreamInfo info = {
    .session_id = "ses_fuzz", .started_ms = 1, .answered_ms = 2, .finished_ms = 3
  };
  gsize length;

  if (response == NULL)
    {
      check_parse_error (error);
      return;
    }

  if ((response->status == ATP_AFP_STATUS_SUCCESS) != (response->feedback != NULL) ||
      (response->status == ATP_AFP_STATUS_ERROR) != (response->error_code != NULL))
    fuzz_fail ("status and members disagree");

  first = atp_afp_response_to_string (response, &length);
  again = atp_afp_response_new_from_data (first, length, &error);
  if (again == NULL)
    fuzz_fail ("a written response does not parse: %s\n%s", error->message, first);
  second = atp_afp_response_to_string (again, NULL);
  if (strcmp (first, second) != 0)
    fuzz_fail ("response round trip changed:\n%s\n%s", first, second);

  /* Through the wrapper stream and back. */
  stream = atp_afp_wrapper_write_stream (&info, response, NULL);
  read = atp_afp_wrapper_read_stream (stream, -1, &session, &error);
  if (read == NULL)
    {
      /* The response as a JSON string in a line may pass the frame cap. */
      if (strlen (stream) < ATP_MAX_FRAME_SIZE / 2)
        fuzz_fail ("a written stream does not read: %s", error->message);
      return;
    }
  third = atp_afp_response_to_string (read, NULL);
  if (strcmp (first, third) != 0 || strcmp (session, "ses_fuzz") != 0)
    fuzz_fail ("the stream changed the response:\n%s\n%s", first, third);
}

static void
fuzz_feedback (JsonNode *root)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAfpFeedback) feedback = atp_afp_feedback_new_from_json (root, &error);
  g_autoptr(GError) refused = NULL;
  g_autoptr(AtpAfpFeedback) given = atp_afp_feedback_new_submission (root, &refused);
  g_autoptr(GHashTable) issued = NULL;

  /* What a person may give is read back, and shows something. */
  if (given == NULL)
    check_parse_error (refused);
  else if (feedback == NULL)
    fuzz_fail ("a feedback given does not read back: %s", error->message);
  else if (atp_str_is_blank (given->confidence_justification) || atp_str_is_blank (given->general_summary))
    fuzz_fail ("a feedback that shows nothing was given");

  if (feedback == NULL)
    {
      check_parse_error (error);
      return;
    }

  /* Issued earlier in the session and all carried over: always allowed when under the cap. */
  issued = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < feedback->areas_for_improvement->len; i++)
    {
      const AtpAfpImprovement *item = g_ptr_array_index (feedback->areas_for_improvement, i);

      if (!atp_afp_id_is_valid (item->id))
        fuzz_fail ("invalid id accepted: %s", item->id);
      g_hash_table_add (issued, item->id);
    }
  if (!atp_afp_feedback_check_session (feedback, issued, feedback, &error) &&
      g_hash_table_size (issued) <= ATP_AFP_MAX_SESSION_ITEM_IDS)
    fuzz_fail ("carrying every item over was refused: %s", error->message);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;

  /* The stream reader sees the bytes as they come. */
  {
    g_autoptr(AtpAfpResponse) response =
      atp_afp_wrapper_read_stream ((const char *) data, size, NULL, &error);

    if (response == NULL)
      check_parse_error (error);
    g_clear_error (&error);
  }

  /* Any text is an aspect an id can be made from. */
  if (size < 4096 && g_utf8_validate_len ((const char *) data, size, NULL) &&
      memchr (data, '\0', size) == NULL)
    {
      g_autofree char *aspect = g_strndup ((const char *) data, size);
      g_autofree char *id = atp_afp_id_generate (aspect, NULL);

      if (!atp_afp_id_is_valid (id))
        fuzz_fail ("generated id \"%s\" does not match the pattern", id);
    }

  {
    g_autoptr(AtpAfpRequest) request =
      atp_afp_request_new_from_data ((const char *) data, size, &error);

    if (request == NULL)
      check_parse_error (error);
    g_clear_error (&error);
  }

  root = atp_json_parse ((const char *) data, size, ATP_MAX_FRAME_SIZE, &error);
  if (root == NULL)
    {
      check_parse_error (error);
      return 0;
    }

  fuzz_request (root);
  fuzz_response (root);
  fuzz_feedback (root);

  /* An envelope's afp member writes back stably. */
  {
    g_autoptr(AtpAfpReview) review = atp_afp_review_new_from_json (root, &error);

    if (review == NULL)
      check_parse_error (error);
    else
      {
        g_autoptr(JsonNode) written = atp_afp_review_to_json (review);
        g_autoptr(AtpAfpReview) again = atp_afp_review_new_from_json (written, &error);
        g_autoptr(JsonNode) rewritten = NULL;

        if (again == NULL)
          fuzz_fail ("a written review does not parse: %s", error->message);
        rewritten = atp_afp_review_to_json (again);
        if (!atp_json_node_equal (written, rewritten))
          fuzz_fail ("a review did not write back stably");
      }
    g_clear_error (&error);
  }

  {
    g_autoptr(AtpAfpWrapperMessage) message = atp_afp_wrapper_message_new_from_json (root, &error);

    if (message == NULL)
      check_parse_error (error);
    else
      {
        g_autoptr(JsonNode) written = atp_afp_wrapper_message_to_json (message);

        if (!atp_json_node_equal (written, root))
          fuzz_fail ("a wrapper message did not write back as it came");
      }
  }

  return 0;
}
