/* triage-server-afp-protocol.c — how an AFP review is answered, read back and reported
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The person answers through /api/v1/client/respond like any request:
 * action "feedback" with the feedback object, or "decline" with an optional
 * {"message"}. What is stored is the feedback as libatp writes it (or the
 * decline); the agent reads a whole Response Object back, whatever became of
 * the review: the feedback, or an error saying it was declined, expired or
 * withdrawn — with the acknowledgement of its applied_feedback in every case.
 */

#define G_LOG_DOMAIN "triage-server-afp"

#include "triage-server-afp.h"

#include <string.h>

#define DECLINE_MAX_CHARS 2000

static gboolean
answer_fail (GError       **error,
             AtpErrorCode   code,
             const char    *format,
             ...) G_GNUC_PRINTF (3, 4);

/* "response_data: …" */
static gboolean
answer_fail (GError       **error,
             AtpErrorCode   code,
             const char    *format,
             ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, ATP_ERROR, code, "response_data: %s", text);
  return FALSE;
}

/* libatp's message under response_data: "response_data.confidence.level: …". */
static gboolean
answer_fail_with (GError       **error,
                  AtpErrorCode   code,
                  const GError  *cause)
{
  g_set_error (error, ATP_ERROR, code, "response_data.%s", cause->message);
  return FALSE;
}

static gboolean
check_feedback (AtpAfpReview  *review,
                JsonNode      *response_data,
                JsonNode     **stored,
                GError       **error)
{
  g_autoptr(AtpAfpFeedback) feedback = NULL;
  g_autoptr(GError) cause = NULL;
  g_autofree char *text = NULL;
  gsize size;

  if (response_data == NULL || !JSON_NODE_HOLDS_OBJECT (response_data))
    return answer_fail (error, ATP_ERROR_INVALID_RESPONSE_DATA,
                        "must be the feedback object {confidence, positive_points, "
                        "areas_for_improvement, general_summary}");

  text = atp_json_to_string (response_data, &size);
  if (size > ATP_AFP_MAX_FEEDBACK_SIZE)
    return answer_fail (error, ATP_ERROR_CONSTRAINT_VIOLATION,
                        "the feedback has %" G_GSIZE_FORMAT " KiB, at most %d KiB are taken",
                        (size + 1023) / 1024, ATP_AFP_MAX_FEEDBACK_SIZE / 1024);

  feedback = atp_afp_feedback_new_submission (response_data, &cause);
  if (feedback == NULL)
    return answer_fail_with (error, ATP_ERROR_INVALID_RESPONSE_DATA, cause);
  /* Its x- members are kept, and the session's next review carries it as
   * envelope.afp.latest_feedback.feedback: three levels down. */
  if (!triage_server_check_nesting (response_data, "response_data", TRIAGE_MAX_ENVELOPE_DEPTH - 3,
                                    ATP_ERROR_INVALID_RESPONSE_DATA, error))
    return FALSE;
  if (!atp_afp_review_check_feedback (review, feedback, &cause))
    return answer_fail_with (error, ATP_ERROR_CONSTRAINT_VIOLATION, cause);

  *stored = atp_afp_feedback_to_json (feedback);
  return TRUE;
}

static gboolean
check_decline (JsonNode  *response_data,
               JsonNode **stored,
               GError   **error)
{
  g_autoptr(JsonObject) object = json_object_new ();
  JsonObject *given;
  JsonNode *message;
  g_autoptr(GList) names = NULL;

  if (response_data != NULL && !JSON_NODE_HOLDS_NULL (response_data))
    {
      if (!JSON_NODE_HOLDS_OBJECT (response_data))
        return answer_fail (error, ATP_ERROR_INVALID_RESPONSE_DATA,
                            "a decline is null or {\"message\": …}");
      given = json_node_get_object (response_data);
      names = json_object_get_members (given);
      for (GList *l = names; l != NULL; l = l->next)
        {
          if (strcmp (l->data, "message") != 0)
            {
              g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_RESPONSE_DATA,
                           "response_data.%s: unknown member (a decline has only a message)",
                           (const char *) l->data);
              return FALSE;
            }
        }

      message = json_object_get_member (given, "message");
      if (message != NULL && !JSON_NODE_HOLDS_NULL (message))
        {
          const char *text = JSON_NODE_HOLDS_VALUE (message) &&
                             json_node_get_value_type (message) == G_TYPE_STRING
                             ? json_node_get_string (message) : NULL;

          if (text == NULL || *text == '\0')
            {
              g_set_error_literal (error, ATP_ERROR, ATP_ERROR_INVALID_RESPONSE_DATA,
                                   "response_data.message: must be a non-empty string");
              return FALSE;
            }
          /* The agent's one word of why (the error's message): it says
           * something, as a title must (and an error message that shows
           * nothing is no valid Response Object). */
          if (!triage_server_check_shown (text, "response_data.message",
                                          ATP_ERROR_INVALID_RESPONSE_DATA, error))
            return FALSE;
          if (g_utf8_strlen (text, -1) > DECLINE_MAX_CHARS)
            {
              g_set_error (error, ATP_ERROR, ATP_ERROR_CONSTRAINT_VIOLATION,
                           "response_data.message: at most %d characters", DECLINE_MAX_CHARS);
              return FALSE;
            }
          json_object_set_string_member (object, "message", text);
        }
    }

  *stored = json_node_init_object (json_node_alloc (), object);
  return TRUE;
}

static gboolean
afp_check_answer (AtpNotification  *request,
                  const char       *action_id,
                  JsonNode         *response_data,
                  GDateTime        *now,
                  JsonNode        **stored,
                  GError          **error)
{
  g_autoptr(AtpAfpReview) review = triage_server_afp_review_of (request, error);

  *stored = NULL;
  if (review == NULL)
    return FALSE;

  if (g_strcmp0 (action_id, TRIAGE_AFP_ACTION_FEEDBACK) == 0)
    return check_feedback (review, response_data, stored, error);
  if (g_strcmp0 (action_id, TRIAGE_AFP_ACTION_DECLINE) == 0)
    return check_decline (response_data, stored, error);

  g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_ACTION_ID,
               "action_id: a review is answered with \"" TRIAGE_AFP_ACTION_FEEDBACK "\" or \""
               TRIAGE_AFP_ACTION_DECLINE "\", got \"%s\"", action_id);
  return FALSE;
}

/* ---- what the agent reads ---- */

/* The Response Object of a settled review, and when it settled. */
static AtpAfpResponse *
settled_response (TriageNotificationRow  *row,
                  AtpNotification        *envelope,
                  AtpAfpReview           *review,
                  char                  **settled_at)
{
  g_autoptr(GPtrArray) ack = atp_afp_review_ack_items (review);
  gint64 iteration = review->request->iteration;

  if (row->status == ATP_STATUS_RESPONDED)
    {
      g_autoptr(JsonNode) node = json_from_string (row->response, NULL);
      g_autoptr(AtpResponse) response = node ? atp_response_new_from_json (node, NULL) : NULL;
      g_autoptr(AtpAfpFeedback) feedback = NULL;
      const char *message = NULL;

      if (response == NULL)
        return atp_afp_response_new_error (iteration, ATP_AFP_CODE_INTERNAL_ERROR,
                                           "The stored answer cannot be read", ack);
      *settled_at = atp_format_timestamp (response->responded_at);

      if (g_strcmp0 (response->action_id, TRIAGE_AFP_ACTION_FEEDBACK) == 0)
        {
          feedback = atp_afp_feedback_new_from_json (response->response_data, NULL);
          if (feedback == NULL)
            return atp_afp_response_new_error (iteration, ATP_AFP_CODE_INTERNAL_ERROR,
                                               "The stored feedback cannot be read", ack);
          return atp_afp_response_new_success (iteration, feedback, ack);
        }

      if (JSON_NODE_HOLDS_OBJECT (response->response_data))
        message = json_object_get_string_member_with_default (json_node_get_object (response->response_data),
                                                              "message", NULL);
      return atp_afp_response_new_error (iteration, ATP_AFP_CODE_REVIEW_DECLINED,
                                         message != NULL ? message
                                                         : "The person declined to review the artifact",
                                         ack);
    }

  if (row->status == ATP_STATUS_EXPIRED)
    {
      g_autofree char *deadline = envelope->deadline ? atp_format_timestamp (envelope->deadline)
                                                     : format_us (row->updated_at);
      g_autofree char *message = g_strdup_printf ("Nobody reviewed the artifact before the "
                                                  "deadline (%s)", deadline);

      *settled_at = g_steal_pointer (&deadline);
      return atp_afp_response_new_error (iteration, ATP_AFP_CODE_REVIEW_EXPIRED, message, ack);
    }

  /* The error's message is the Response Object's one place for why: the
   * reason stored with the withdrawal ("superseded by iteration 3", the
   * agent's own), or who may have withdrawn it when none was given (a
   * withdrawal stored before reasons were, or a PATCH without one). */
  *settled_at = format_us (row->updated_at);
  if (row->reason != NULL && *row->reason != '\0')
    {
      g_autofree char *message = g_strdup_printf ("The review was withdrawn before anyone "
                                                  "answered it: %s", row->reason);

      return atp_afp_response_new_error (iteration, ATP_AFP_CODE_REVIEW_WITHDRAWN, message, ack);
    }
  return atp_afp_response_new_error (iteration, ATP_AFP_CODE_REVIEW_WITHDRAWN,
                                     "The review was withdrawn before anyone answered it (by the "
                                     "agent, or by a later iteration of its session)", ack);
}

/* {id, session_id, iteration, status, created_at, deadline?, settled_at?, response?} */
static JsonNode *
afp_agent_view (TriageNotificationRow *row)
{
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(AtpNotification) envelope = NULL;
  g_autoptr(AtpAfpReview) review = NULL;
  g_autofree char *created = NULL;

  json_object_set_string_member (object, "id", row->id);
  envelope = atp_notification_new_from_data (row->json, -1, ATP_PARSE_DEFAULT, NULL);
  review = envelope != NULL ? triage_server_afp_review_of (envelope, NULL) : NULL;
  if (review == NULL)
    {
      /* Never for a row this server wrote; said rather than hidden. */
      g_autoptr(AtpAfpResponse) broken = atp_afp_response_new_error (0, ATP_AFP_CODE_INTERNAL_ERROR,
                                                                     "The stored review cannot be read",
                                                                     NULL);

      json_object_set_string_member (object, "status", triage_server_status_word (row->status));
      json_object_set_member (object, "response", atp_afp_response_to_json (broken));
      return json_node_init_object (json_node_alloc (), object);
    }

  created = atp_format_timestamp (envelope->timestamp);
  json_object_set_string_member (object, "session_id", review->session_id);
  json_object_set_int_member (object, "iteration", review->request->iteration);
  json_object_set_string_member (object, "status", triage_server_status_word (row->status));
  json_object_set_string_member (object, "created_at", created);
  if (envelope->deadline != NULL)
    {
      g_autofree char *deadline = atp_format_timestamp (envelope->deadline);

      json_object_set_string_member (object, "deadline", deadline);
    }

  if (atp_status_is_terminal (row->status))
    {
      g_autofree char *settled_at = NULL;
      g_autoptr(AtpAfpResponse) response = settled_response (row, envelope, review, &settled_at);

      if (settled_at != NULL)
        json_object_set_string_member (object, "settled_at", settled_at);
      json_object_set_member (object, "response", atp_afp_response_to_json (response));
    }

  return json_node_init_object (json_node_alloc (), object);
}

/* The settled review as GET answers it, for every end. */
static char *
afp_webhook_body (TriageNotificationRow *row,
                  int                    status,
                  const char            *reason,
                  const char           **event)
{
  g_autoptr(JsonNode) view = NULL;

  *event = "afp.response";
  view = afp_agent_view (row);
  return atp_json_to_string (view, NULL);
}

const TriageServerProtocol triage_server_protocol_afp = {
  .protocol = ATP_PROTOCOL_AFP,
  .default_action_id = TRIAGE_AFP_ACTION_FEEDBACK,
  .check_answer = afp_check_answer,
  .agent_view = afp_agent_view,
  .webhook_body = afp_webhook_body,
};
