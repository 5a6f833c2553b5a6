/* triage-aitp-protocol.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-aitp-protocol"

#include <glib/gi18n.h>

#include "triage-aitp-protocol.h"

/*
 * NEAR AI's AITP-02 Decisions in the app. A request's envelope carries the
 * agent's `request_decision` message as its `aitp` payload (libatp parses
 * it: src/atp/aitp); an answer is action `decision` with the `decision`
 * object as its data, `{"options": [{"id", "name", "quantity"?}…]}`, checked
 * by libatp exactly as the server checks it (atp_aitp_decision_new_answer()).
 *
 * A bubble offers the options as buttons for a radio or confirmation
 * decision of at most three options that asks for no confirmation
 * (`x-triage.confirm`); the others open the request. An answer is worded
 * from the names the person was shown, with a quantity above one
 * ("JBL Tour One M2 (Black) × 2, Sony WH-1000XM5").
 */

TRIAGE_DEFINE_PROTOCOL (TriageAitpProtocol, triage_aitp_protocol)

/**
 * triage_aitp_request_from:
 * @notification: a request's envelope, of protocol AITP
 * @error: why its payload is not an AITP request (a store written by
 *   another version: the server checked it when it arrived)
 *
 * Returns: (transfer full) (nullable): the agent's `request_decision` message
 */
AtpAitpRequest *
triage_aitp_request_from (AtpNotification  *notification,
                          GError          **error)
{
  JsonNode *payload;

  g_return_val_if_fail (notification != NULL, NULL);

  payload = triage_protocol_get_payload (notification, ATP_PROTOCOL_AITP, "an AITP decision",
                                         error);

  return payload != NULL ? atp_aitp_request_new_from_json (payload, error) : NULL;
}

/**
 * triage_aitp_response_data_new:
 * @request: the request answered
 * @choices: (array length=n_choices): what the person chose
 * @n_choices: how many
 *
 * The `decision` object sent as `response_data`: each choice's id, the name
 * the person was shown (atp_aitp_option_dup_shown_name()) and, in a products
 * decision, its quantity.
 *
 * Returns: (transfer full): the answer's data
 */
JsonNode *
triage_aitp_response_data_new (AtpAitpRequest         *request,
                               const TriageAitpChoice *choices,
                               guint                   n_choices)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (choices != NULL || n_choices == 0, NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "options");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n_choices; i++)
    {
      const AtpAitpOption *product = NULL;
      const AtpAitpOption *option = atp_aitp_request_find_option (request, choices[i].id, &product);
      g_autofree char *name = option ? atp_aitp_option_dup_shown_name (option, product != option ? product
                                                                                                  : NULL)
                                     : NULL;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "id");
      json_builder_add_string_value (builder, choices[i].id);
      if (name != NULL)
        {
          json_builder_set_member_name (builder, "name");
          json_builder_add_string_value (builder, name);
        }
      if (request->type == ATP_AITP_DECISION_PRODUCTS)
        {
          json_builder_set_member_name (builder, "quantity");
          json_builder_add_int_value (builder, (gint64) MAX (choices[i].quantity, 1));
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/* TriageProtocol */

static AtpProtocol
triage_aitp_protocol_get_protocol (TriageProtocol *protocol)
{
  return ATP_PROTOCOL_AITP;
}

static const char *
triage_aitp_protocol_get_mark (TriageProtocol *protocol)
{
  return "AITP";
}

static const char *
triage_aitp_protocol_get_display_name (TriageProtocol *protocol)
{
  return "AITP-02 Decisions";
}

static gboolean
option_is_name_only (const AtpAitpOption *option)
{
  return option->description == NULL && option->image_url == NULL && option->url == NULL &&
         option->quote == NULL && !option->has_rating && option->variants->len == 0;
}

static GPtrArray *
triage_aitp_protocol_dup_bubble_answers (TriageProtocol  *protocol,
                                         AtpNotification *notification)
{
  GPtrArray *answers = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_bubble_answer_free);
  g_autoptr(AtpAitpRequest) request = triage_aitp_request_from (notification, NULL);

  /* One button, one answer: a single choice, nothing to type, nothing to confirm. */
  if (request == NULL || request->confirm || request->options->len > TRIAGE_BUBBLE_MAX_ANSWERS ||
      (request->type != ATP_AITP_DECISION_RADIO && request->type != ATP_AITP_DECISION_CONFIRMATION))
    return answers;

  /* A bubble shows an option's name only: one with more to see (what it
   * is, its picture, its price, its variants) is chosen in the window. */
  for (guint i = 0; i < request->options->len; i++)
    if (!option_is_name_only (g_ptr_array_index (request->options, i)))
      return answers;

  for (guint i = 0; i < request->options->len; i++)
    {
      const AtpAitpOption *option = g_ptr_array_index (request->options, i);

      g_ptr_array_add (answers, triage_bubble_answer_new (option->id,
                                                          option->name ? option->name : option->id));
    }

  return answers;
}

static gboolean
triage_aitp_protocol_get_bubble_answer (TriageProtocol   *protocol,
                                        AtpNotification  *notification,
                                        const char       *key,
                                        char            **action_id,
                                        JsonNode        **response_data,
                                        GError          **error)
{
  g_autoptr(GPtrArray) answers = triage_aitp_protocol_dup_bubble_answers (protocol, notification);
  g_autoptr(AtpAitpRequest) request = NULL;
  TriageAitpChoice choice = { key, 0 };

  for (guint i = 0; i < answers->len; i++)
    {
      TriageBubbleAnswer *answer = g_ptr_array_index (answers, i);

      if (!g_str_equal (answer->key, key))
        continue;

      request = triage_aitp_request_from (notification, error);
      if (request == NULL)
        return FALSE;

      *action_id = g_strdup (ATP_AITP_ACTION_ID);
      *response_data = triage_aitp_response_data_new (request, &choice, 1);
      return TRUE;
    }

  g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_RESPONSE_DATA,
               "The option “%s” cannot be chosen from a bubble", key);
  return FALSE;
}

static gboolean
triage_aitp_protocol_needs_confirmation (TriageProtocol  *protocol,
                                         AtpNotification *notification,
                                         const char      *action_id,
                                         JsonNode        *response_data)
{
  g_autoptr(AtpAitpRequest) request = triage_aitp_request_from (notification, NULL);

  /* An agent asks for it with x-triage.confirm; a request that cannot be
   * read is never answered without one. */
  return request == NULL || request->confirm;
}

static gboolean
triage_aitp_protocol_validate_answer (TriageProtocol   *protocol,
                                      AtpNotification  *notification,
                                      const char       *action_id,
                                      JsonNode         *response_data,
                                      GError          **error)
{
  g_autoptr(AtpAitpRequest) request = NULL;
  g_autoptr(AtpAitpDecision) decision = NULL;
  g_autoptr(GDateTime) now = NULL;

  if (!g_str_equal (action_id, ATP_AITP_ACTION_ID))
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_ACTION_ID,
                   "An AITP decision is answered with action “%s”, not “%s”",
                   ATP_AITP_ACTION_ID, action_id);
      return FALSE;
    }

  request = triage_aitp_request_from (notification, error);
  if (request == NULL)
    return FALSE;

  now = g_date_time_new_now_utc ();
  decision = atp_aitp_decision_new_answer (request, response_data, now, error);

  return decision != NULL;
}

/* One choice in words: its name (or its id in quotes), "× 2" for a quantity above one. */
static void
append_choice (GString    *text,
               const char *name,
               const char *id,
               gint64      quantity)
{
  if (text->len > 0)
    /* Translators: separates the options chosen in a list */
    g_string_append (text, _(", "));

  if (name != NULL && *name != '\0')
    g_string_append (text, name);
  else
    /* Translators: an option without a name, named by its id in quotes */
    g_string_append_printf (text, _("‘%s’"), id);

  if (quantity > 1)
    {
      g_autofree char *count = g_strdup_printf ("%" G_GINT64_FORMAT, quantity);

      /* Translators: how many of a product were chosen, e.g. " × 2" after its name */
      g_string_append_printf (text, _(" × %s"), count);
    }
}

static char *
triage_aitp_protocol_describe_answer (TriageProtocol  *protocol,
                                      AtpNotification *notification,
                                      const char      *action_id,
                                      JsonNode        *response_data)
{
  g_autoptr(AtpAitpRequest) request = notification ? triage_aitp_request_from (notification, NULL)
                                                   : NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  JsonNode *member;
  JsonArray *options;

  if (response_data == NULL || !JSON_NODE_HOLDS_OBJECT (response_data))
    return NULL;
  member = json_object_get_member (json_node_get_object (response_data), "options");
  options = member != NULL && JSON_NODE_HOLDS_ARRAY (member) ? json_node_get_array (member) : NULL;

  for (guint i = 0; options != NULL && i < json_array_get_length (options); i++)
    {
      JsonNode *node = json_array_get_element (options, i);
      JsonObject *selected = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *id = selected ? json_object_get_string_member_with_default (selected, "id", NULL)
                                : NULL;
      const AtpAitpOption *product = NULL;
      const AtpAitpOption *option = NULL;
      g_autofree char *name = NULL;

      if (id == NULL)
        continue;

      /* The names the person saw, from the request when at hand; else the
       * names the answer carries (the history keeps only those). */
      if (request != NULL)
        option = atp_aitp_request_find_option (request, id, &product);
      if (option != NULL)
        name = atp_aitp_option_dup_shown_name (option, product != option ? product : NULL);
      else
        name = g_strdup (json_object_get_string_member_with_default (selected, "name", NULL));

      append_choice (text, name, id, json_object_get_int_member_with_default (selected, "quantity", 1));
    }

  return text->len > 0 ? g_strdup (text->str) : NULL;
}

static void
triage_aitp_protocol_iface_init (TriageProtocolInterface *iface)
{
  iface->get_protocol = triage_aitp_protocol_get_protocol;
  iface->get_mark = triage_aitp_protocol_get_mark;
  iface->get_display_name = triage_aitp_protocol_get_display_name;
  iface->dup_bubble_answers = triage_aitp_protocol_dup_bubble_answers;
  iface->get_bubble_answer = triage_aitp_protocol_get_bubble_answer;
  iface->needs_confirmation = triage_aitp_protocol_needs_confirmation;
  iface->validate_answer = triage_aitp_protocol_validate_answer;
  iface->describe_answer = triage_aitp_protocol_describe_answer;
}
