/* triage-server-aitp-protocol.c — how an AITP decision is answered, read back and reported
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The person answers through /api/v1/client/respond like any request, with
 * action "decision" (or none) and the `decision` object as response_data;
 * libatp checks it against the request and completes it (the request's id,
 * the names shown, quantities), and that is what is stored. The agent reads
 * the whole decision message back, and a webhook carries it.
 */

#define G_LOG_DOMAIN "triage-server-aitp"

#include "triage-server-aitp.h"

static AtpAitpRequest *
request_of (AtpNotification  *envelope,
            GError          **error)
{
  g_autoptr(GError) local_error = NULL;
  AtpAitpRequest *request;

  if (envelope->protocol != ATP_PROTOCOL_AITP || envelope->payload == NULL)
    {
      g_set_error_literal (error, ATP_ERROR, ATP_ERROR_INTERNAL_ERROR,
                           "The request is not an AITP decision");
      return NULL;
    }
  request = atp_aitp_request_new_from_json (envelope->payload, &local_error);
  if (request == NULL)
    g_set_error (error, ATP_ERROR, ATP_ERROR_INTERNAL_ERROR,
                 "The stored decision cannot be read: %s", local_error->message);
  return request;
}

static gboolean
aitp_check_answer (AtpNotification *envelope,
                   const char      *action_id,
                   JsonNode        *response_data,
                   GDateTime       *now,
                   JsonNode       **stored,
                   GError         **error)
{
  g_autoptr(AtpAitpRequest) request = NULL;
  g_autoptr(AtpAitpDecision) decision = NULL;

  if (g_strcmp0 (action_id, ATP_AITP_ACTION_ID) != 0)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_ACTION_ID,
                   "action_id: a decision is answered with \"" ATP_AITP_ACTION_ID "\" (or no "
                   "action_id), got \"%s\"", action_id);
      return FALSE;
    }
  if ((request = request_of (envelope, error)) == NULL ||
      (decision = atp_aitp_decision_new_answer (request, response_data, now, error)) == NULL)
    return FALSE;
  *stored = atp_aitp_decision_data_to_json (decision);
  /* Its unknown members are kept: stored as envelope.response.response_data. */
  if (!triage_server_check_nesting (*stored, "response_data", TRIAGE_MAX_ENVELOPE_DEPTH - 2,
                                    ATP_ERROR_INVALID_RESPONSE_DATA, error))
    {
      g_clear_pointer (stored, json_node_unref);
      return FALSE;
    }
  return TRUE;
}

static JsonNode *
node_taking (JsonObject *object)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, object);
  return node;
}

/* The decision message of an answered request: its stored `decision` under
 * AITP-02's $schema. NULL when it has no answer. */
static JsonNode *
decision_message (TriageNotificationRow *row)
{
  g_autoptr(JsonNode) stored = NULL;
  g_autoptr(AtpResponse) response = NULL;
  JsonObject *message;

  if (row->response == NULL ||
      (stored = json_from_string (row->response, NULL)) == NULL ||
      (response = atp_response_new_from_json (stored, NULL)) == NULL ||
      response->response_data == NULL)
    return NULL;
  message = json_object_new ();
  json_object_set_string_member (message, "$schema", ATP_AITP_SCHEMA_URL);
  json_object_set_member (message, "decision", json_node_copy (response->response_data));
  /* json_node_init_object () would take a reference of its own. */
  return node_taking (message);
}

/* {"id", "request_decision_id", "status", "delivered" (while pending),
 * "decision" (once answered)} */
static JsonNode *
aitp_agent_view (TriageNotificationRow *row)
{
  JsonObject *object = json_object_new ();
  JsonNode *decision;

  json_object_set_string_member (object, "id", row->id);
  json_object_set_string_member (object, "request_decision_id", row->protocol_id);
  json_object_set_string_member (object, "status", triage_server_status_word (row->status));
  if (atp_status_is_pending (row->status))
    json_object_set_boolean_member (object, "delivered", row->status != ATP_STATUS_CREATED);
  if (row->deadline != 0)
    {
      g_autofree char *deadline = format_us (row->deadline);

      json_object_set_string_member (object, "deadline", deadline);
    }
  if (row->status == ATP_STATUS_RESPONDED && (decision = decision_message (row)) != NULL)
    json_object_set_member (object, "decision", decision);
  return node_taking (object);
}

/* An answer: the decision message. An end: the agent view with the reason. */
static char *
aitp_webhook_body (TriageNotificationRow *row,
                   int                    status,
                   const char            *reason,
                   const char           **event)
{
  g_autoptr(JsonNode) node = NULL;

  if (status == ATP_STATUS_RESPONDED)
    {
      *event = TRIAGE_AITP_EVENT_DECISION;
      node = decision_message (row);
      return node != NULL ? atp_json_to_string (node, NULL) : NULL;
    }
  *event = TRIAGE_AITP_EVENT_STATUS;
  node = aitp_agent_view (row);
  if (reason != NULL)
    json_object_set_string_member (json_node_get_object (node), "reason", reason);
  return atp_json_to_string (node, NULL);
}

const TriageServerProtocol triage_server_protocol_aitp = {
  .protocol = ATP_PROTOCOL_AITP,
  .default_action_id = ATP_AITP_ACTION_ID,
  .check_answer = aitp_check_answer,
  .agent_view = aitp_agent_view,
  .webhook_body = aitp_webhook_body,
};
