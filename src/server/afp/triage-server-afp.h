/* triage-server-afp.h — the Agent Feedback Protocol 1.2 in triage-server
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "atp-afp.h"
#include "triage-server-protocol.h"
#include "triage-store-afp.h"

G_BEGIN_DECLS

#define TRIAGE_AFP_REVIEWS_PATH  "/api/v1/afp/reviews"
#define TRIAGE_AFP_SESSIONS_PATH "/api/v1/afp/sessions"

/* The answers of a review through /api/v1/client/respond. */
#define TRIAGE_AFP_ACTION_FEEDBACK "feedback"
#define TRIAGE_AFP_ACTION_DECLINE  "decline"

/* How a review is answered, read back and reported (triage-server-afp-protocol.c). */
extern const TriageServerProtocol triage_server_protocol_afp;

/*
 * The agent endpoints under /api/v1/afp/ (triage-server-afp.c): TRUE when
 * @path is one of them (@msg is answered or held then), FALSE for any other
 * path.
 */
gboolean      triage_server_afp_route        (TriageServer      *self,
                                              SoupServerMessage *msg,
                                              const char        *method,
                                              const char        *path,
                                              GHashTable        *query);

/* The review an envelope carries (its `afp` member), or NULL. */
AtpAfpReview *triage_server_afp_review_of    (AtpNotification   *envelope,
                                              GError           **error);

G_END_DECLS
