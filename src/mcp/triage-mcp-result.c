/* triage-mcp-result.c — a settled request as a CallToolResult
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-mcp"

#include "triage-mcp-tools.h"

/*
 * Expiry and withdrawal are outcomes, not errors: the result says so in
 * `outcome` (and approved is false, nothing is chosen), so a model reads it
 * and never mistakes silence for consent. The text repeats the structured
 * content as JSON, as the specification asks for clients that only read text.
 */

static void
add_text (JsonArray  *content,
          const char *text)
{
  JsonObject *block = json_object_new ();

  json_object_set_string_member (block, "type", "text");
  json_object_set_string_member (block, "text", text);
  json_array_add_object_element (content, block);
}

JsonObject *
triage_mcp_tool_error_result (const char *message)
{
  JsonObject *result = json_object_new ();
  JsonArray *content = json_array_new ();

  add_text (content, message);
  json_object_set_array_member (result, "content", content);
  json_object_set_boolean_member (result, "isError", TRUE);

  return result;
}

static const char *
outcome_of (AtpNotification *settled)
{
  switch (settled->status)
    {
    case ATP_STATUS_RESPONDED:
      return "answered";
    case ATP_STATUS_EXPIRED:
      return "expired";
    case ATP_STATUS_INVALIDATED:
    case ATP_STATUS_CREATED:
    case ATP_STATUS_DELIVERED:
    case ATP_STATUS_ACKNOWLEDGED:
    default:
      return "withdrawn";
    }
}

/* "User “alice”", or "Someone" when the server named nobody. Never the bare id: the
 * local server's person is "default", and "default approved …" reads to a model as
 * a default that approved, not a person who did. */
static char *
who (AtpResponse *response)
{
  if (response->responder_id == NULL || *response->responder_id == '\0')
    return g_strdup ("Someone");
  return g_strdup_printf ("User “%s”", response->responder_id);
}

static char *
describe (TriageMcpTool    tool,
          AtpNotification *settled,
          JsonObject      *structured)
{
  AtpResponse *response = settled->response;
  g_autofree char *at = NULL;
  g_autofree char *name = NULL;

  if (settled->status == ATP_STATUS_EXPIRED)
    return g_strdup_printf ("Nobody answered “%s” before its deadline: the request expired%s.",
                            settled->context.title,
                            tool == TRIAGE_MCP_TOOL_REQUEST_APPROVAL ? " (not approved)" : "");
  /* The service's reason, when the server kept one (none for a request
   * withdrawn without one, or before the server kept them). */
  if (settled->status != ATP_STATUS_RESPONDED && settled->reason != NULL &&
      *settled->reason != '\0')
    return g_strdup_printf ("The request “%s” was withdrawn before anyone answered it%s; "
                            "the reason given: “%s”.", settled->context.title,
                            tool == TRIAGE_MCP_TOOL_REQUEST_APPROVAL ? " (not approved)" : "",
                            settled->reason);
  if (settled->status != ATP_STATUS_RESPONDED)
    return g_strdup_printf ("The request “%s” was withdrawn before anyone answered it%s.",
                            settled->context.title,
                            tool == TRIAGE_MCP_TOOL_REQUEST_APPROVAL ? " (not approved)" : "");

  at = atp_format_timestamp (response->responded_at);
  name = who (response);
  switch (tool)
    {
    case TRIAGE_MCP_TOOL_REQUEST_APPROVAL:
      return g_strdup_printf ("%s %s “%s” at %s.", name,
                              json_object_get_boolean_member (structured, "approved")
                                ? "approved" : "denied",
                              settled->context.title, at);

    case TRIAGE_MCP_TOOL_ASK_CHOICE:
      {
        JsonArray *chosen = json_object_get_array_member (structured, "chosen");
        g_autoptr(GString) ids = g_string_new (NULL);

        for (guint i = 0; i < json_array_get_length (chosen); i++)
          g_string_append_printf (ids, "%s%s", i > 0 ? ", " : "",
                                  json_array_get_string_element (chosen, i));
        return g_strdup_printf ("%s chose %s at %s.", name,
                                ids->len > 0 ? ids->str : "none of the options", at);
      }

    case TRIAGE_MCP_TOOL_ASK_HUMAN:
    default:
      {
        g_autofree char *answer = atp_json_to_string (response->response_data, NULL);

        return g_strdup_printf ("%s answered at %s: %s", name, at, answer);
      }
    }
}

JsonObject *
triage_mcp_tool_result (TriageMcpTool    tool,
                        AtpNotification *settled)
{
  g_autoptr(JsonObject) structured = json_object_new ();
  JsonObject *result = json_object_new ();
  JsonArray *content = json_array_new ();
  AtpResponse *response = settled->status == ATP_STATUS_RESPONDED ? settled->response : NULL;
  g_autofree char *sentence = NULL;
  g_autofree char *json = NULL;

  json_object_set_string_member (structured, "outcome", outcome_of (settled));

  switch (tool)
    {
    case TRIAGE_MCP_TOOL_REQUEST_APPROVAL:
      json_object_set_boolean_member (structured, "approved",
                                      response != NULL &&
                                      g_str_equal (response->action_id, "approve"));
      break;

    case TRIAGE_MCP_TOOL_ASK_CHOICE:
      {
        JsonArray *chosen = json_array_new ();
        JsonNode *data = response != NULL ? response->response_data : NULL;

        if (data != NULL && JSON_NODE_HOLDS_ARRAY (data))
          {
            JsonArray *values = json_node_get_array (data);

            for (guint i = 0; i < json_array_get_length (values); i++)
              json_array_add_element (chosen, json_node_copy (json_array_get_element (values, i)));
          }
        else if (data != NULL && JSON_NODE_HOLDS_VALUE (data))
          json_array_add_element (chosen, json_node_copy (data));
        json_object_set_array_member (structured, "chosen", chosen);
      }
      break;

    case TRIAGE_MCP_TOOL_ASK_HUMAN:
    default:
      {
        const AtpAction *action = atp_notification_find_action (settled, "answer");

        json_object_set_string_member (structured, "response_type",
                                       action != NULL
                                         ? atp_response_type_to_string (action->response_type)
                                         : "simple");
        json_object_set_member (structured, "answer",
                                response != NULL ? json_node_copy (response->response_data)
                                                 : json_node_new (JSON_NODE_NULL));
      }
      break;
    }

  if (response != NULL)
    {
      JsonObject *responder = json_object_new ();
      g_autofree char *at = atp_format_timestamp (response->responded_at);

      json_object_set_string_member (responder, "id", response->responder_id != NULL
                                                        ? response->responder_id : "");
      json_object_set_string_member (responder, "type",
                                     atp_responder_type_to_string (response->responder_type));
      json_object_set_object_member (structured, "responder", responder);
      json_object_set_string_member (structured, "responded_at", at);
    }
  else
    {
      json_object_set_null_member (structured, "responder");
      json_object_set_null_member (structured, "responded_at");
    }
  json_object_set_string_member (structured, "notification_id", settled->id);

  sentence = describe (tool, settled, structured);
  json = atp_json_object_to_string (structured, NULL);
  add_text (content, sentence);
  add_text (content, json);
  json_object_set_array_member (result, "content", content);
  json_object_set_object_member (result, "structuredContent", g_steal_pointer (&structured));

  return result;
}
