/* triage-server-aitp.h — NEAR AI's AITP-02 Decisions in triage-server
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "atp-aitp.h"
#include "triage-server-protocol.h"

G_BEGIN_DECLS

#define TRIAGE_AITP_DECISIONS_PATH "/api/v1/aitp/decisions"

/* The webhook events of a decision (X-Triage-Event). */
#define TRIAGE_AITP_EVENT_DECISION "aitp.decision"
#define TRIAGE_AITP_EVENT_STATUS   "aitp.status"

/* How a decision is answered, read back and reported (triage-server-aitp-protocol.c). */
extern const TriageServerProtocol triage_server_protocol_aitp;

/*
 * The agent endpoints under /api/v1/aitp/ (triage-server-aitp.c): TRUE when
 * @path is one of them (@msg is answered or held then), FALSE for any other
 * path.
 */
gboolean  triage_server_aitp_route (TriageServer      *self,
                                    SoupServerMessage *msg,
                                    const char        *method,
                                    const char        *path,
                                    GHashTable        *query);

G_END_DECLS
