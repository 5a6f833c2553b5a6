/* triage-server-protocol.c — the protocols the server serves, and ATP's part
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-server-protocol"

#include "triage-server-protocol.h"

#include "triage-server-afp.h"

static const TriageServerProtocol * const protocols[ATP_N_PROTOCOLS] = {
  [ATP_PROTOCOL_ATP] = &triage_server_protocol_atp,
  [ATP_PROTOCOL_AFP] = &triage_server_protocol_afp,
};

const TriageServerProtocol *
triage_server_protocol (int protocol)
{
  if (protocol < 0 || protocol >= ATP_N_PROTOCOLS)
    return NULL;
  return protocols[protocol];
}

/* ---- ATP ---- */

static gboolean
atp_check_answer (AtpNotification *request,
                  const char      *action_id,
                  JsonNode        *response_data,
                  GDateTime       *now,
                  JsonNode       **stored,
                  GError         **error)
{
  const AtpAction *action = atp_notification_find_action (request, action_id);

  if (action == NULL)
    {
      g_set_error_literal (error, ATP_ERROR, ATP_ERROR_INVALID_ACTION_ID,
                           "The notification has no such action");
      return FALSE;
    }
  if (!atp_action_validate_response (action, response_data, error))
    return FALSE;
  *stored = response_data != NULL ? json_node_ref (response_data) : NULL;
  return TRUE;
}

static JsonNode *
atp_agent_view (TriageNotificationRow *row)
{
  return notification_node (row, TRUE);
}

/* The response exactly as stored, or {"event": "status_update", …fields}. */
static char *
atp_webhook_body (TriageNotificationRow *row,
                  int                    status,
                  const char            *reason,
                  const char           **event)
{
  g_autoptr(JsonNode) update = NULL;
  g_autoptr(GList) names = NULL;
  g_autoptr(JsonObject) body = NULL;
  JsonObject *fields;

  if (status == ATP_STATUS_RESPONDED)
    {
      *event = "atp.response";
      return g_strdup (row->response);
    }

  update = status_update_node (row->id, status, reason);
  fields = json_node_get_object (update);
  names = json_object_get_members (fields);
  body = json_object_new ();
  json_object_set_string_member (body, "event", "status_update");
  for (GList *l = names; l != NULL; l = l->next)
    json_object_set_member (body, l->data, json_node_copy (json_object_get_member (fields, l->data)));
  *event = "atp.status_update";
  return object_to_string (body);
}

const TriageServerProtocol triage_server_protocol_atp = {
  .protocol = ATP_PROTOCOL_ATP,
  .default_action_id = NULL,
  .check_answer = atp_check_answer,
  .agent_view = atp_agent_view,
  .webhook_body = atp_webhook_body,
};
