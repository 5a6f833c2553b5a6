/* triage-server-afp-private.h — what the AFP endpoints' files share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-server-afp.h"

G_BEGIN_DECLS

/*
 * What a session holds, read from its latest review alone
 * (triage-server-afp-session.c): that review's envelope says what the
 * session had issued before it (its ids, the latest feedback) and its own
 * answer adds to that. No earlier review can have been answered since it was
 * made: each new review withdraws the one still waiting (at most one waits in
 * a session), so reading one row is enough, however long the session.
 */
typedef struct
{
  char                  *id;         /* the latest review, NULL in a new session */
  gint64                 iteration;
  TriageNotificationRow *row;
  AtpAfpReview          *review;     /* its envelope's afp member */
  AtpAfpFeedback        *feedback;   /* its answer, when that is feedback */
} TriageServerAfpLast;

void     triage_server_afp_last_clear            (TriageServerAfpLast  *last);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TriageServerAfpLast, triage_server_afp_last_clear)

gboolean triage_server_afp_read_last             (TriageServer         *self,
                                                  const char           *session_id,
                                                  gint64                superseded_by,
                                                  gint64                now,
                                                  TriageServerAfpLast  *last,
                                                  GError              **error);
void     triage_server_afp_reply_unreadable_last (SoupServerMessage          *msg,
                                                  const GError               *error,
                                                  const TriageServerAfpLast  *last,
                                                  const char                 *message);
void     triage_server_afp_last_describe         (TriageServerAfpLast  *last,
                                                  AtpAfpReview         *review);

/* The session @session_id when it is @service's (else answered: 404, 503). */
gboolean triage_server_afp_owned_session         (TriageServer         *self,
                                                  SoupServerMessage    *msg,
                                                  TriageServiceRow     *service,
                                                  const char           *session_id,
                                                  TriageAfpSessionRow **session);

/* GET /api/v1/afp/sessions/{id}[?limit=N&cursor=C] */
void     triage_server_afp_handle_get_session    (TriageServer         *self,
                                                  SoupServerMessage    *msg,
                                                  const char           *id,
                                                  GHashTable           *query);

G_END_DECLS
