/* triage-protocol.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-protocol"

#include <glib/gi18n.h>

#include "triage-afp-protocol.h"
#include "triage-aitp-protocol.h"
#include "triage-atp-protocol.h"
#include "triage-bubble-body.h"
#include "triage-decision-format.h"
#include "triage-protocol.h"

/*
 * TriageProtocol: what differs between the protocols a request may arrive
 * in. The path every request takes (stream, inbox model, notifier, tray,
 * outbox, store, history) knows requests by their envelope alone and asks
 * the request's protocol for the rest: which answers a bubble may offer,
 * whether an answer needs confirmation, whether it is valid, how it reads.
 *
 * One implementation per protocol folder (atp/, aitp/, afp/), each a singleton
 * without state. triage_protocol_get() is the one place that lists them.
 */

G_DEFINE_INTERFACE (TriageProtocol, triage_protocol, G_TYPE_OBJECT)

static void
triage_protocol_default_init (TriageProtocolInterface *iface)
{
}

/**
 * triage_bubble_answer_new:
 * @key: what the button gives back
 * @label: its label, an agent's text
 *
 * A bubble's button is one line that no server wraps (notification-daemon
 * drew a long one past the bubble's edge, and an AITP option's name was
 * sent whole): @label is cut at %TRIAGE_SHOWN_BUBBLE_BUTTON_CHARS, and the
 * answer says so (a bubble then offers none: see
 * triage_protocol_dup_bubble_answers()).
 *
 * Returns: (transfer full): a bubble answer
 */
TriageBubbleAnswer *
triage_bubble_answer_new (const char *key,
                          const char *label)
{
  TriageBubbleAnswer *answer = g_new0 (TriageBubbleAnswer, 1);

  answer->key = g_strdup (key);
  answer->label = triage_format_cut_text (label, TRIAGE_SHOWN_BUBBLE_BUTTON_CHARS);
  answer->cut = g_utf8_strlen (label, -1) > TRIAGE_SHOWN_BUBBLE_BUTTON_CHARS;

  return answer;
}

void
triage_bubble_answer_free (TriageBubbleAnswer *answer)
{
  if (answer == NULL)
    return;

  g_free (answer->key);
  g_free (answer->label);
  g_free (answer);
}

/**
 * triage_protocol_get:
 * @protocol: a protocol
 *
 * Returns: (transfer none) (nullable): its implementation, %NULL when this
 *   version of the app cannot show or answer requests of @protocol
 */
TriageProtocol *
triage_protocol_get (AtpProtocol protocol)
{
  switch (protocol)
    {
    case ATP_PROTOCOL_ATP:
      return triage_atp_protocol_get_default ();

    case ATP_PROTOCOL_AITP:
      return triage_aitp_protocol_get_default ();

    case ATP_PROTOCOL_AFP:
      return triage_afp_protocol_get_default ();

    case ATP_N_PROTOCOLS:
    default:
      return NULL;
    }
}

/**
 * triage_protocol_for_request:
 * @request: a request's envelope
 *
 * Returns: (transfer none) (nullable): the implementation of the request's
 *   protocol, %NULL when the app has none
 */
TriageProtocol *
triage_protocol_for_request (AtpNotification *request)
{
  g_return_val_if_fail (request != NULL, NULL);

  return triage_protocol_get (request->protocol);
}

/**
 * triage_protocol_get_supported_mask:
 *
 * Returns: the protocols the app has an implementation of, one bit per
 *   #AtpProtocol: what it asks the server to list and push
 */
guint
triage_protocol_get_supported_mask (void)
{
  guint mask = 0;

  for (guint i = 0; i < ATP_N_PROTOCOLS; i++)
    if (triage_protocol_get (i) != NULL)
      mask |= 1u << i;

  return mask;
}

AtpProtocol
triage_protocol_get_protocol (TriageProtocol *self)
{
  g_return_val_if_fail (TRIAGE_IS_PROTOCOL (self), ATP_PROTOCOL_ATP);

  return TRIAGE_PROTOCOL_GET_IFACE (self)->get_protocol (self);
}

/**
 * triage_protocol_get_mark:
 *
 * Returns: (nullable): a short mark for lists ("AITP"), %NULL for ATP
 */
const char *
triage_protocol_get_mark (TriageProtocol *self)
{
  g_return_val_if_fail (TRIAGE_IS_PROTOCOL (self), NULL);

  return TRIAGE_PROTOCOL_GET_IFACE (self)->get_mark (self);
}

/**
 * triage_protocol_get_display_name:
 *
 * Returns: the protocol's name, for a tooltip or a screen reader
 */
const char *
triage_protocol_get_display_name (TriageProtocol *self)
{
  g_return_val_if_fail (TRIAGE_IS_PROTOCOL (self), NULL);

  return TRIAGE_PROTOCOL_GET_IFACE (self)->get_display_name (self);
}

/**
 * triage_protocol_dup_headline:
 * @self: a #TriageProtocol
 * @request: a request of this protocol
 *
 * What a bubble says the request is: its title, or what the protocol makes
 * of it ("Review requested: Dark mode spec").
 *
 * Returns: (transfer full): the headline, plain text
 */
char *
triage_protocol_dup_headline (TriageProtocol  *self,
                              AtpNotification *request)
{
  TriageProtocolInterface *iface;

  g_return_val_if_fail (TRIAGE_IS_PROTOCOL (self), NULL);
  g_return_val_if_fail (request != NULL, NULL);

  iface = TRIAGE_PROTOCOL_GET_IFACE (self);
  if (iface->dup_headline == NULL)
    return g_strdup (request->context.title);

  return iface->dup_headline (self, request);
}

/* Whether a bubble shows @request whole, else why not (@error): its
 * headline within the characters a bubble's title keeps
 * (TRIAGE_SHOWN_ROW_CHARS), its description within the lines a bubble's
 * body has (triage_bubble_body_dup(): what the notifier sends), and no
 * attachment (a bubble shows none). An answer from a bubble is an answer
 * to what the bubble showed: otherwise an agent could put a harmless
 * opening first and what the answer approves after the cut. The one rule
 * for every protocol: a bubble's answers are offered
 * (triage_protocol_dup_bubble_answers()) and taken
 * (triage_protocol_get_bubble_answer()) through it alone. */
static gboolean
bubble_shows_whole (TriageProtocol   *self,
                    AtpNotification  *request,
                    GError          **error)
{
  g_autofree char *headline = triage_protocol_dup_headline (self, request);
  g_autofree char *body = NULL;
  gboolean body_whole = FALSE;

  if (request->context.attachments->len > 0)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_ACTION_ID,
                   "a bubble does not show the attachments of %s", request->id);
      return FALSE;
    }
  if (headline != NULL && g_utf8_strlen (headline, -1) > TRIAGE_SHOWN_ROW_CHARS)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_ACTION_ID,
                   "a bubble cuts the title of %s", request->id);
      return FALSE;
    }
  body = triage_bubble_body_dup (request, &body_whole);
  if (!body_whole)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_ACTION_ID,
                   "a bubble cuts the description of %s", request->id);
      return FALSE;
    }

  return TRUE;
}

/* Whether a button of @answers lost part of its label: "Approve cleanup of
 * /tmp and delete ~/" cut to its first 32 characters would approve what the
 * person never read. */
static gboolean
any_label_cut (GPtrArray *answers)
{
  for (guint i = 0; i < answers->len; i++)
    if (((TriageBubbleAnswer *) answers->pdata[i])->cut)
      return TRUE;

  return FALSE;
}

/**
 * triage_protocol_dup_bubble_answers:
 * @self: a #TriageProtocol
 * @request: a request of this protocol
 *
 * The answers a bubble may carry as buttons: only answers that need no
 * input and no confirmation, and only a few (a bubble has room for three),
 * and only when the bubble shows the request whole (its title uncut, its
 * description within the bubble's lines, no attachment) and every button
 * its whole label;
 * otherwise none, and the bubble opens the request.
 *
 * Returns: (transfer container) (element-type TriageBubbleAnswer): the answers
 */
GPtrArray *
triage_protocol_dup_bubble_answers (TriageProtocol  *self,
                                    AtpNotification *request)
{
  g_autoptr(GPtrArray) answers = NULL;

  g_return_val_if_fail (TRIAGE_IS_PROTOCOL (self), NULL);
  g_return_val_if_fail (request != NULL, NULL);

  if (bubble_shows_whole (self, request, NULL))
    answers = TRIAGE_PROTOCOL_GET_IFACE (self)->dup_bubble_answers (self, request);
  if (answers == NULL || any_label_cut (answers))
    return g_ptr_array_new_with_free_func ((GDestroyNotify) triage_bubble_answer_free);

  return g_steal_pointer (&answers);
}

/**
 * triage_protocol_get_bubble_answer:
 * @self: a #TriageProtocol
 * @request: a request of this protocol
 * @key: the key of a #TriageBubbleAnswer pressed
 * @action_id: (out) (transfer full): the answer's action id
 * @response_data: (out) (transfer full): its data (a JSON null where there is none)
 * @error: why there is no such answer
 *
 * Returns: whether @key is an answer triage_protocol_dup_bubble_answers() offers
 */
gboolean
triage_protocol_get_bubble_answer (TriageProtocol   *self,
                                   AtpNotification  *request,
                                   const char       *key,
                                   char            **action_id,
                                   JsonNode        **response_data,
                                   GError          **error)
{
  g_autoptr(GPtrArray) offered = NULL;

  g_return_val_if_fail (TRIAGE_IS_PROTOCOL (self), FALSE);
  g_return_val_if_fail (request != NULL, FALSE);
  g_return_val_if_fail (key != NULL, FALSE);
  g_return_val_if_fail (action_id != NULL && response_data != NULL, FALSE);

  /* A bubble without answer buttons gives none (whatever its server sends). */
  if (!bubble_shows_whole (self, request, error))
    {
      g_prefix_error (error, "“%s” is not answered from a bubble: ", key);
      return FALSE;
    }
  offered = TRIAGE_PROTOCOL_GET_IFACE (self)->dup_bubble_answers (self, request);
  if (offered == NULL || any_label_cut (offered))
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_ACTION_ID,
                   "“%s” is not answered from a bubble: the bubble of %s cuts a button's label",
                   key, request->id);
      return FALSE;
    }

  return TRIAGE_PROTOCOL_GET_IFACE (self)->get_bubble_answer (self, request, key, action_id,
                                                               response_data, error);
}

/**
 * triage_protocol_needs_confirmation:
 * @self: a #TriageProtocol
 * @request: a request of this protocol
 * @action_id: the answer's action id
 * @response_data: (nullable): its data
 *
 * Returns: whether the person must confirm this answer before it leaves
 *   (ATP: a destructive, irreversible or requires_confirmation action)
 */
gboolean
triage_protocol_needs_confirmation (TriageProtocol  *self,
                                    AtpNotification *request,
                                    const char      *action_id,
                                    JsonNode        *response_data)
{
  g_return_val_if_fail (TRIAGE_IS_PROTOCOL (self), TRUE);
  g_return_val_if_fail (request != NULL, TRUE);
  g_return_val_if_fail (action_id != NULL, TRUE);

  return TRIAGE_PROTOCOL_GET_IFACE (self)->needs_confirmation (self, request, action_id,
                                                                response_data);
}

/**
 * triage_protocol_validate_answer:
 * @self: a #TriageProtocol
 * @request: a request of this protocol
 * @action_id: the answer's action id
 * @response_data: (nullable): its data (%NULL counts as JSON null)
 * @error: the rule the answer breaks, in the protocol library's words
 *
 * Checks an answer exactly as the server will: an invalid answer never
 * enters the outbox.
 *
 * Returns: whether the answer is valid
 */
gboolean
triage_protocol_validate_answer (TriageProtocol   *self,
                                 AtpNotification  *request,
                                 const char       *action_id,
                                 JsonNode         *response_data,
                                 GError          **error)
{
  g_return_val_if_fail (TRIAGE_IS_PROTOCOL (self), FALSE);
  g_return_val_if_fail (request != NULL, FALSE);
  g_return_val_if_fail (action_id != NULL, FALSE);

  return TRIAGE_PROTOCOL_GET_IFACE (self)->validate_answer (self, request, action_id,
                                                             response_data, error);
}

/**
 * triage_protocol_describe_answer:
 * @self: a #TriageProtocol
 * @request: (nullable): the request, when at hand
 * @action_id: the answer's action id
 * @response_data: (nullable): its data
 *
 * An answer in words: what the history shows and exports, and what banners
 * and bubbles say was answered ("‘Approve’", "‘Rollout’: 25 %",
 * "JBL Tour One M2 × 2"). Without @request the words come from the answer
 * alone (all the history keeps of a row it lists), which may say too little:
 * then %NULL.
 *
 * Returns: (transfer full) (nullable): the answer in words
 */
char *
triage_protocol_describe_answer (TriageProtocol  *self,
                                 AtpNotification *request,
                                 const char      *action_id,
                                 JsonNode        *response_data)
{
  g_return_val_if_fail (TRIAGE_IS_PROTOCOL (self), NULL);
  g_return_val_if_fail (action_id != NULL, NULL);

  return TRIAGE_PROTOCOL_GET_IFACE (self)->describe_answer (self, request, action_id,
                                                             response_data);
}

/**
 * triage_protocol_dup_marked:
 * @protocol: the protocol a request was asked in
 * @text: what a list shows of the request (its service's name, its title)
 *
 * @text with the protocol's mark when it has one, so a person can tell an
 * AITP decision from an ATP request in the inbox, a bubble, the tray's menu
 * or the history.
 *
 * Returns: (transfer full): "Shop Bot", or "Shop Bot (AITP)"
 */
char *
triage_protocol_dup_marked (AtpProtocol  protocol,
                            const char  *text)
{
  TriageProtocol *implementation;
  const char *mark;

  g_return_val_if_fail (text != NULL, NULL);

  implementation = triage_protocol_get (protocol);
  mark = implementation != NULL ? triage_protocol_get_mark (implementation)
                                : atp_protocol_to_string (protocol);
  if (mark == NULL)
    return g_strdup (text);

  /* Translators: a service's name or a request's title, and the protocol it
   * was asked in, e.g. "Shop Bot (AITP)" */
  return g_strdup_printf (_("%1$s (%2$s)"), text, mark);
}

/**
 * triage_protocol_get_payload:
 * @request: a request's envelope
 * @protocol: the protocol whose payload is wanted
 * @what: what such a payload is, for the error ("an AFP review")
 * @error: the request is not of @protocol or carries no payload (a store
 *   written by another version: the server checked it when it arrived)
 *
 * For an implementation that parses its payload: the payload, if @request
 * is of @protocol.
 *
 * Returns: (transfer none) (nullable): the envelope's payload
 */
JsonNode *
triage_protocol_get_payload (AtpNotification  *request,
                             AtpProtocol       protocol,
                             const char       *what,
                             GError          **error)
{
  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (what != NULL, NULL);

  if (request->protocol != protocol || request->payload == NULL)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_REQUEST,
                   "The request %s is not %s", request->id, what);
      return NULL;
    }

  return request->payload;
}
