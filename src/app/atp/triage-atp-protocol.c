/* triage-atp-protocol.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-atp-protocol"

#include <glib/gi18n.h>

#include "triage-atp-format.h"
#include "triage-decision-format.h"
#include "triage-atp-protocol.h"

/*
 * ATP, the app's native protocol: a request carries its actions, an answer
 * is one action's id and data checked by libatp's rules for the action's
 * response type. A bubble offers the actions when every one is `simple` and
 * none asks for confirmation (destructive, irreversible,
 * requires_confirmation), three at most; anything else opens the request.
 */

TRIAGE_DEFINE_PROTOCOL (TriageAtpProtocol, triage_atp_protocol)

static gboolean
answers_inline (const AtpAction *action)
{
  return action->response_type == ATP_RESPONSE_TYPE_SIMPLE && !atp_action_needs_confirmation (action);
}

static AtpProtocol
triage_atp_protocol_get_protocol (TriageProtocol *protocol)
{
  return ATP_PROTOCOL_ATP;
}

static const char *
triage_atp_protocol_get_mark (TriageProtocol *protocol)
{
  return NULL;
}

static const char *
triage_atp_protocol_get_display_name (TriageProtocol *protocol)
{
  return "ATP";
}

static GPtrArray *
triage_atp_protocol_dup_bubble_answers (TriageProtocol  *protocol,
                                        AtpNotification *request)
{
  GPtrArray *answers = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_bubble_answer_free);

  if (request->actions->len > TRIAGE_BUBBLE_MAX_ANSWERS)
    return answers;

  for (guint i = 0; i < request->actions->len; i++)
    if (!answers_inline (g_ptr_array_index (request->actions, i)))
      return answers;

  for (guint i = 0; i < request->actions->len; i++)
    {
      const AtpAction *action = g_ptr_array_index (request->actions, i);
      /* A bubble's button is a few words; a long label is cut here, not by the server. */
      g_autofree char *label = triage_format_cut_text (triage_atp_action_label (action),
                                                       TRIAGE_SHOWN_LABEL_CHARS);

      g_ptr_array_add (answers, triage_bubble_answer_new (action->id, label));
    }

  return answers;
}

static const AtpAction *
find_action (AtpNotification  *request,
             const char       *action_id,
             GError          **error)
{
  const AtpAction *action = atp_notification_find_action (request, action_id);

  if (action == NULL)
    g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_ACTION_ID,
                 "The request has no action “%s”", action_id);

  return action;
}

static gboolean
triage_atp_protocol_get_bubble_answer (TriageProtocol   *protocol,
                                       AtpNotification  *request,
                                       const char       *key,
                                       char            **action_id,
                                       JsonNode        **response_data,
                                       GError          **error)
{
  const AtpAction *action = find_action (request, key, error);

  if (action == NULL)
    return FALSE;

  if (!answers_inline (action))
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_ACTION_ID,
                   "The action “%s” cannot be answered from a bubble", key);
      return FALSE;
    }

  *action_id = g_strdup (action->id);
  *response_data = json_node_new (JSON_NODE_NULL);

  return TRUE;
}

static gboolean
triage_atp_protocol_needs_confirmation (TriageProtocol  *protocol,
                                        AtpNotification *request,
                                        const char      *action_id,
                                        JsonNode        *response_data)
{
  const AtpAction *action = atp_notification_find_action (request, action_id);

  return action == NULL || atp_action_needs_confirmation (action);
}

static gboolean
triage_atp_protocol_validate_answer (TriageProtocol   *protocol,
                                     AtpNotification  *request,
                                     const char       *action_id,
                                     JsonNode         *response_data,
                                     GError          **error)
{
  const AtpAction *action = find_action (request, action_id, error);

  return action != NULL && atp_action_validate_response (action, response_data, error);
}

static char *
triage_atp_protocol_describe_answer (TriageProtocol  *protocol,
                                     AtpNotification *request,
                                     const char      *action_id,
                                     JsonNode        *response_data)
{
  const AtpAction *action = request ? atp_notification_find_action (request, action_id) : NULL;

  /* Without the request the labels are not known: the history words it. */
  if (action == NULL)
    return NULL;

  return triage_atp_describe_answer (action, response_data);
}

static void
triage_atp_protocol_iface_init (TriageProtocolInterface *iface)
{
  iface->get_protocol = triage_atp_protocol_get_protocol;
  iface->get_mark = triage_atp_protocol_get_mark;
  iface->get_display_name = triage_atp_protocol_get_display_name;
  iface->dup_bubble_answers = triage_atp_protocol_dup_bubble_answers;
  iface->get_bubble_answer = triage_atp_protocol_get_bubble_answer;
  iface->needs_confirmation = triage_atp_protocol_needs_confirmation;
  iface->validate_answer = triage_atp_protocol_validate_answer;
  iface->describe_answer = triage_atp_protocol_describe_answer;
}

/**
 * triage_atp_describe_answer:
 * @action: the action answered
 * @response_data: (nullable): the answer's data
 *
 * The action's label in quotes, and the value as triage_describe_response()
 * words it (option labels, the number with its unit, a text quoted and cut):
 * "‘Stop’", "‘Rollout’: 25 %", "‘Comment’: “Looks good”".
 *
 * Returns: (transfer full): the answer in words
 */
char *
triage_atp_describe_answer (const AtpAction *action,
                            JsonNode        *response_data)
{
  g_autofree char *value = NULL;
  g_autofree char *label = NULL;
  g_autofree char *answer = NULL;

  g_return_val_if_fail (action != NULL, NULL);

  label = triage_format_in_sentence (triage_atp_action_label (action));
  if (action->response_type == ATP_RESPONSE_TYPE_SIMPLE)
    /* Translators: an action chosen, its label in quotes, e.g. ‘Stop’ */
    return g_strdup_printf (_("‘%s’"), label);

  value = triage_describe_response (action, response_data);
  answer = triage_format_in_sentence (value);
  /* Translators: an action answered with a value: %1$s is the action's label,
   * %2$s the value, e.g. ‘Rollout’: 25 % */
  return g_strdup_printf (_("‘%1$s’: %2$s"), label, answer);
}
