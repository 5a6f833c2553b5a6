/* triage-store-afp.h — what the store keeps of AFP review sessions
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-store.h"

G_BEGIN_DECLS

/*
 * A review session of the Agent Feedback Protocol (src/server/afp): the
 * service it belongs to and the last iteration it accepted, and one row per
 * review linking a request (a notification row, which holds the Request
 * Object, the artifact and, once answered, the person's feedback) to its
 * session and iteration. Everything else a session needs is read from those
 * notification rows.
 *
 * triage_store_afp_claim_iteration() is the session's lock: of two requests
 * for the same session, whichever server gets them, the second waits for
 * the first's batch, and only a greater iteration is ever claimed.
 */
typedef struct
{
  char   *id;
  char   *service_id;
  gint64  created_at;        /* unix µs */
  gint64  last_iteration;    /* 0 before the first review */
} TriageAfpSessionRow;

typedef struct
{
  char   *notification_id;
  gint64  iteration;
  int     status;            /* AtpStatus of the review's request */
  char   *response;          /* the stored response JSON; NULL until answered */
} TriageAfpReviewRow;

void                 triage_afp_session_row_free      (TriageAfpSessionRow *row);
void                 triage_afp_review_row_free       (TriageAfpReviewRow  *row);

gboolean             triage_store_afp_add_session     (TriageStore *self,
                                                       const char  *id,
                                                       const char  *service_id,
                                                       gint64       now);
/* NULL with @error unset: no such session; with @error set: the database did
 * not answer (the session is not known to be missing). */
TriageAfpSessionRow *triage_store_afp_get_session     (TriageStore *self,
                                                       const char  *id,
                                                       GError     **error);
/* Sets the session's last iteration to @iteration if that is greater; FALSE
 * (nothing changed) otherwise, FALSE with @error set when the database did
 * not store it (then the iteration is not known to be taken). */
gboolean             triage_store_afp_claim_iteration (TriageStore *self,
                                                       const char  *session_id,
                                                       gint64       iteration,
                                                       GError     **error);
/* Undoes a claim of @iteration in the same batch, for a request refused
 * after it: the session's last iteration goes back to its latest review's
 * (0 without one), unless another claim has moved it since. */
void                 triage_store_afp_release_iteration (TriageStore *self,
                                                         const char  *session_id,
                                                         gint64       iteration);
gboolean             triage_store_afp_add_review      (TriageStore *self,
                                                       const char  *notification_id,
                                                       const char  *session_id,
                                                       gint64       iteration);
/* The session's latest review (its greatest iteration): FALSE when it has
 * none, FALSE with @error set when the database did not answer (then the
 * session is not known to have none: a caller must not start it over). */
gboolean             triage_store_afp_last_review     (TriageStore *self,
                                                       const char  *session_id,
                                                       char       **notification_id,
                                                       gint64      *iteration,
                                                       GError     **error);
/* A page of the session's reviews (TriageAfpReviewRow*) by iteration: at
 * most @limit of those after iteration @after (0: from the first), with
 * *@has_more whether any follow, and in *@total (unless NULL) how many the
 * session has; NULL with @error set when the database did not answer. */
GPtrArray           *triage_store_afp_reviews         (TriageStore *self,
                                                       const char  *session_id,
                                                       gint64       after,
                                                       guint        limit,
                                                       gint64      *total,
                                                       gboolean    *has_more,
                                                       GError     **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TriageAfpSessionRow, triage_afp_session_row_free)

G_END_DECLS
