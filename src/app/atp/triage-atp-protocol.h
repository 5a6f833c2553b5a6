/* triage-atp-protocol.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-protocol.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_ATP_PROTOCOL (triage_atp_protocol_get_type ())

G_DECLARE_FINAL_TYPE (TriageAtpProtocol, triage_atp_protocol, TRIAGE, ATP_PROTOCOL, GObject)

TriageProtocol *triage_atp_protocol_get_default (void);
char           *triage_atp_describe_answer      (const AtpAction *action,
                                                 JsonNode        *response_data);

G_END_DECLS
