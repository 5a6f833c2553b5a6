/* triage-afp-protocol.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-afp-protocol"

#include <glib/gi18n.h>
#include <string.h>

#include "triage-afp-protocol.h"

/*
 * The Agent Feedback Protocol 1.2 in the app: an agent asks the person to
 * review an artifact. The envelope carries the review (libatp's
 * AtpAfpReview: the Request Object, the previous iteration's artifact, the
 * person's latest feedback in the session, the ids issued) as its `afp`
 * payload. An answer is action `feedback` with the feedback object, or
 * `decline` with `{}` or `{"message"}`; both are checked here exactly as
 * the server checks them (src/server/afp/triage-server-afp-protocol.c).
 *
 * A review is never answered from a bubble (it needs the editor): the
 * bubble says "Review requested: …" and opens it. An answer reads as its
 * confidence and the number of items ("Confidence high · 1 positive point ·
 * 2 areas for improvement"), from the answer alone, so the history and the
 * export word it too.
 */

TRIAGE_DEFINE_PROTOCOL (TriageAfpProtocol, triage_afp_protocol)

/**
 * triage_afp_review_from:
 * @notification: a request's envelope, of protocol AFP
 * @error: why its payload is not a review (a store written by another
 *   version: the server checked it when it arrived)
 *
 * Returns: (transfer full) (nullable): the review: the request in its session
 */
AtpAfpReview *
triage_afp_review_from (AtpNotification  *notification,
                        GError          **error)
{
  JsonNode *payload;

  g_return_val_if_fail (notification != NULL, NULL);

  payload = triage_protocol_get_payload (notification, ATP_PROTOCOL_AFP, "an AFP review", error);

  return payload != NULL ? atp_afp_review_new_from_json (payload, error) : NULL;
}

/**
 * triage_afp_decline_data_new:
 * @message: (nullable): why the person declines, in their words
 *
 * Returns: (transfer full): a decline's `response_data`: `{"message": …}`,
 *   or `{}` without a message (or a blank one)
 */
JsonNode *
triage_afp_decline_data_new (const char *message)
{
  g_autoptr(JsonObject) object = json_object_new ();
  g_autofree char *stripped = g_strstrip (g_strdup (message != NULL ? message : ""));

  if (*stripped != '\0')
    json_object_set_string_member (object, "message", message);

  return json_node_init_object (json_node_alloc (), object);
}

/* "response_data.<libatp's message>", as the server words it. */
static gboolean
fail_with (GError       **error,
           AtpErrorCode   code,
           const GError  *cause)
{
  g_set_error (error, ATP_ERROR, code, "response_data.%s", cause->message);
  return FALSE;
}

/**
 * triage_afp_check_feedback:
 * @review: the review answered
 * @response_data: (nullable): the feedback object
 * @error: the rule it breaks, naming the field
 *
 * The server's check of a person's feedback: the feedback's own rules
 * (%ATP_ERROR_INVALID_RESPONSE_DATA), its size and the session's rules on
 * ids (%ATP_ERROR_CONSTRAINT_VIOLATION).
 *
 * Returns: whether the server will take it
 */
gboolean
triage_afp_check_feedback (AtpAfpReview  *review,
                           JsonNode      *response_data,
                           GError       **error)
{
  g_autoptr(AtpAfpFeedback) feedback = NULL;
  g_autoptr(GError) cause = NULL;
  g_autofree char *text = NULL;
  gsize size = 0;

  g_return_val_if_fail (review != NULL, FALSE);

  if (response_data == NULL || !JSON_NODE_HOLDS_OBJECT (response_data))
    {
      g_set_error_literal (error, ATP_ERROR, ATP_ERROR_INVALID_RESPONSE_DATA,
                           "response_data: must be the feedback object {confidence, "
                           "positive_points, areas_for_improvement, general_summary}");
      return FALSE;
    }

  text = atp_json_to_string (response_data, &size);
  if (size > ATP_AFP_MAX_FEEDBACK_SIZE)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_CONSTRAINT_VIOLATION,
                   "response_data: the feedback has %" G_GSIZE_FORMAT " KiB, at most %d KiB are taken",
                   (size + 1023) / 1024, ATP_AFP_MAX_FEEDBACK_SIZE / 1024);
      return FALSE;
    }

  feedback = atp_afp_feedback_new_submission (response_data, &cause);
  if (feedback == NULL)
    return fail_with (error, ATP_ERROR_INVALID_RESPONSE_DATA, cause);
  if (!atp_afp_review_check_feedback (review, feedback, &cause))
    return fail_with (error, ATP_ERROR_CONSTRAINT_VIOLATION, cause);

  return TRUE;
}

static gboolean
check_decline (JsonNode  *response_data,
               GError   **error)
{
  JsonObject *object;
  JsonNode *message;
  const char *text;
  g_autofree char *stripped = NULL;

  if (response_data == NULL || JSON_NODE_HOLDS_NULL (response_data))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (response_data))
    {
      g_set_error_literal (error, ATP_ERROR, ATP_ERROR_INVALID_RESPONSE_DATA,
                           "response_data: a decline is null or {\"message\": …}");
      return FALSE;
    }

  object = json_node_get_object (response_data);
  if (json_object_get_size (object) > (json_object_has_member (object, "message") ? 1u : 0u))
    {
      g_set_error_literal (error, ATP_ERROR, ATP_ERROR_INVALID_RESPONSE_DATA,
                           "response_data: a decline has only a message");
      return FALSE;
    }

  message = json_object_get_member (object, "message");
  if (message == NULL || JSON_NODE_HOLDS_NULL (message))
    return TRUE;

  text = JSON_NODE_HOLDS_VALUE (message) && json_node_get_value_type (message) == G_TYPE_STRING
         ? json_node_get_string (message) : "";
  stripped = g_strstrip (g_strdup (text));
  if (*stripped == '\0')
    {
      g_set_error_literal (error, ATP_ERROR, ATP_ERROR_INVALID_RESPONSE_DATA,
                           "response_data.message: must be a non-empty string");
      return FALSE;
    }
  if (g_utf8_strlen (text, -1) > TRIAGE_AFP_DECLINE_MAX_CHARS)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_CONSTRAINT_VIOLATION,
                   "response_data.message: at most %d characters", TRIAGE_AFP_DECLINE_MAX_CHARS);
      return FALSE;
    }

  return TRUE;
}

/* TriageProtocol */

static AtpProtocol
triage_afp_protocol_get_protocol (TriageProtocol *protocol)
{
  return ATP_PROTOCOL_AFP;
}

static const char *
triage_afp_protocol_get_mark (TriageProtocol *protocol)
{
  return "AFP";
}

static const char *
triage_afp_protocol_get_display_name (TriageProtocol *protocol)
{
  return "Agent Feedback Protocol 1.2";
}

static char *
triage_afp_protocol_dup_headline (TriageProtocol  *protocol,
                                  AtpNotification *notification)
{
  /* Translators: a bubble's title for a review an agent asks for; %s is
   * what the artifact is ("Dark mode spec") */
  return g_strdup_printf (_("Review requested: %s"), notification->context.title);
}

static GPtrArray *
triage_afp_protocol_dup_bubble_answers (TriageProtocol  *protocol,
                                        AtpNotification *notification)
{
  /* Feedback is written in the editor; declining unseen is not offered. */
  return g_ptr_array_new_with_free_func ((GDestroyNotify) triage_bubble_answer_free);
}

static gboolean
triage_afp_protocol_get_bubble_answer (TriageProtocol   *protocol,
                                       AtpNotification  *notification,
                                       const char       *key,
                                       char            **action_id,
                                       JsonNode        **response_data,
                                       GError          **error)
{
  g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_RESPONSE_DATA,
               "A review cannot be answered from a bubble (“%s”)", key);
  return FALSE;
}

static gboolean
triage_afp_protocol_needs_confirmation (TriageProtocol  *protocol,
                                        AtpNotification *notification,
                                        const char      *action_id,
                                        JsonNode        *response_data)
{
  /* Send and Decline are deliberate presses in the editor, nothing is destroyed. */
  return FALSE;
}

static gboolean
triage_afp_protocol_validate_answer (TriageProtocol   *protocol,
                                     AtpNotification  *notification,
                                     const char       *action_id,
                                     JsonNode         *response_data,
                                     GError          **error)
{
  g_autoptr(AtpAfpReview) review = NULL;

  if (g_str_equal (action_id, TRIAGE_AFP_ACTION_DECLINE))
    return check_decline (response_data, error);

  if (!g_str_equal (action_id, TRIAGE_AFP_ACTION_FEEDBACK))
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_ACTION_ID,
                   "action_id: a review is answered with “%s” or “%s”, not “%s”",
                   TRIAGE_AFP_ACTION_FEEDBACK, TRIAGE_AFP_ACTION_DECLINE, action_id);
      return FALSE;
    }

  review = triage_afp_review_from (notification, error);
  if (review == NULL)
    return FALSE;

  return triage_afp_check_feedback (review, response_data, error);
}

static guint
array_length (JsonObject *object,
              const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_array_get_length (json_node_get_array (node)) : 0;
}

static char *
triage_afp_protocol_describe_answer (TriageProtocol  *protocol,
                                     AtpNotification *notification,
                                     const char      *action_id,
                                     JsonNode        *response_data)
{
  JsonObject *object = response_data != NULL && JSON_NODE_HOLDS_OBJECT (response_data)
                       ? json_node_get_object (response_data) : NULL;
  g_autofree char *positive = NULL;
  g_autofree char *areas = NULL;
  const char *level = NULL;
  JsonNode *confidence;
  guint n_positive, n_areas;

  if (g_strcmp0 (action_id, TRIAGE_AFP_ACTION_DECLINE) == 0)
    {
      const char *message = object ? json_object_get_string_member_with_default (object, "message", NULL)
                                   : NULL;

      if (message != NULL)
        /* Translators: the person declined a review, with their reason */
        return g_strdup_printf (_("Declined: %s"), message);
      /* Translators: the person declined a review */
      return g_strdup (_("Declined"));
    }

  if (object == NULL)
    return NULL;

  confidence = json_object_get_member (object, "confidence");
  if (confidence != NULL && JSON_NODE_HOLDS_OBJECT (confidence))
    level = json_object_get_string_member_with_default (json_node_get_object (confidence), "level", NULL);
  n_positive = array_length (object, "positive_points");
  n_areas = array_length (object, "areas_for_improvement");

  /* Translators: how many good points a review names */
  positive = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u positive point", "%u positive points",
                                           n_positive), n_positive);
  /* Translators: how many areas for improvement a review names */
  areas = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u area for improvement",
                                        "%u areas for improvement", n_areas), n_areas);

  if (level == NULL)
    /* Translators: a review's words in the history: "1 positive point · 2 areas for improvement" */
    return g_strdup_printf (_("%1$s · %2$s"), positive, areas);

  /* Translators: a review's words in the history; %1$s is high, medium or low
   * (as the protocol writes it), e.g. "Confidence high · 1 positive point · 2 areas for improvement" */
  return g_strdup_printf (_("Confidence %1$s · %2$s · %3$s"), level, positive, areas);
}

static void
triage_afp_protocol_iface_init (TriageProtocolInterface *iface)
{
  iface->get_protocol = triage_afp_protocol_get_protocol;
  iface->get_mark = triage_afp_protocol_get_mark;
  iface->get_display_name = triage_afp_protocol_get_display_name;
  iface->dup_headline = triage_afp_protocol_dup_headline;
  iface->dup_bubble_answers = triage_afp_protocol_dup_bubble_answers;
  iface->get_bubble_answer = triage_afp_protocol_get_bubble_answer;
  iface->needs_confirmation = triage_afp_protocol_needs_confirmation;
  iface->validate_answer = triage_afp_protocol_validate_answer;
  iface->describe_answer = triage_afp_protocol_describe_answer;
}
