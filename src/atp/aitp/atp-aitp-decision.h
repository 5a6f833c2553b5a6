/* atp-aitp-decision.h — an AITP-02 decision message, and checking one against its request
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

#include "atp-aitp-request.h"

G_BEGIN_DECLS

/* A SelectedOption: `id`, optional `name` and `quantity`, nothing else. */
typedef struct
{
  char       *id;
  char       *name;                /* nullable */
  gboolean    has_quantity;
  double      quantity;
} AtpAitpSelection;

typedef struct
{
  char       *schema;              /* `$schema`, an absolute URI */
  char       *request_decision_id; /* nullable (the schema does not require it) */
  GPtrArray  *options;             /* AtpAitpSelection*, at least one */
  JsonObject *extra;               /* unknown members of `decision` */
  JsonObject *message_extra;       /* unknown members of the message */
} AtpAitpDecision;

#define ATP_TYPE_AITP_DECISION (atp_aitp_decision_get_type ())

GType            atp_aitp_decision_get_type       (void) G_GNUC_CONST;

/**
 * atp_aitp_decision_new_from_json:
 * @node: an AITP message holding `decision`
 * @error: %ATP_ERROR_INVALID_REQUEST, %ATP_ERROR_MISSING_REQUIRED_FIELD or
 *   %ATP_ERROR_INVALID_FIELD_VALUE naming the field ("decision.options[0].quantity")
 *
 * The schema's `Decision`; says nothing about the request it answers (see
 * atp_aitp_decision_check()).
 *
 * Returns: (transfer full) (nullable): the decision
 */
AtpAitpDecision *atp_aitp_decision_new_from_json  (JsonNode         *node,
                                                   GError          **error);

/**
 * atp_aitp_decision_new_answer:
 * @request: the request a person answers
 * @response_data: (nullable): what the client sent as `response_data`: the
 *   `decision` object, `{"options": [{"id", "name"?, "quantity"?}…]}`
 * @now: the time of the answer (quotes expire)
 * @error: %ATP_ERROR_INVALID_RESPONSE_DATA for a wrong shape or type (400),
 *   %ATP_ERROR_CONSTRAINT_VIOLATION for a rule of the request broken (422),
 *   the message starting with the field ("response_data.options[1].id: …")
 *
 * Checks the answer as atp_aitp_decision_check() does and completes it: the
 * request's id, the `$schema` of AITP-02, each option's name as the person
 * saw it, quantity 1 where a products decision left it out.
 *
 * Returns: (transfer full) (nullable): the decision to hand the agent
 */
AtpAitpDecision *atp_aitp_decision_new_answer     (AtpAitpRequest   *request,
                                                   JsonNode         *response_data,
                                                   GDateTime        *now,
                                                   GError          **error);

/**
 * atp_aitp_decision_check:
 * @self: a decision
 * @request: the request it answers
 * @now: the time of the decision
 * @error: %ATP_ERROR_CONSTRAINT_VIOLATION naming the field ("decision.options[0].id")
 *
 * The rules of docs/protocol.md: the request's id; every id an option of the
 * request (a variant's where a product has variants), none twice; one option
 * for radio and confirmation, at least one otherwise; a quantity only in a
 * products decision, a whole number ≥ 1; no product whose quote has expired;
 * a name, when given, the one the person was shown.
 *
 * Returns: %TRUE if @self is a valid answer to @request
 */
gboolean         atp_aitp_decision_check          (AtpAitpDecision  *self,
                                                   AtpAitpRequest   *request,
                                                   GDateTime        *now,
                                                   GError          **error);

AtpAitpDecision *atp_aitp_decision_ref            (AtpAitpDecision  *self);
void             atp_aitp_decision_unref          (AtpAitpDecision  *self);

/* The whole message: {"$schema", "decision": {…}, unknown members}. */
JsonNode        *atp_aitp_decision_to_json        (AtpAitpDecision  *self);
/* Only the `decision` object (what the server stores as response_data). */
JsonNode        *atp_aitp_decision_data_to_json   (AtpAitpDecision  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AtpAitpDecision, atp_aitp_decision_unref)

G_END_DECLS
