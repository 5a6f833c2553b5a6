/* triage-afp-protocol.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "atp-afp.h"
#include "triage-protocol.h"

G_BEGIN_DECLS

/* The answers to a review (docs/architecture.md, "Answers"). */
#define TRIAGE_AFP_ACTION_FEEDBACK "feedback"
#define TRIAGE_AFP_ACTION_DECLINE  "decline"

/* A decline's message, at most this many characters (as the server takes it). */
#define TRIAGE_AFP_DECLINE_MAX_CHARS 2000

#define TRIAGE_TYPE_AFP_PROTOCOL (triage_afp_protocol_get_type ())

G_DECLARE_FINAL_TYPE (TriageAfpProtocol, triage_afp_protocol, TRIAGE, AFP_PROTOCOL, GObject)

TriageProtocol *triage_afp_protocol_get_default (void);

AtpAfpReview   *triage_afp_review_from          (AtpNotification  *notification,
                                                 GError          **error);
JsonNode       *triage_afp_decline_data_new     (const char       *message);
gboolean        triage_afp_check_feedback       (AtpAfpReview     *review,
                                                 JsonNode         *response_data,
                                                 GError          **error);

G_END_DECLS
