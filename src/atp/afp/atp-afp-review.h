/* atp-afp-review.h — what the envelope of an AFP request carries: the request in its session
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

#include "atp-afp-feedback.h"
#include "atp-afp-request.h"

G_BEGIN_DECLS

/*
 * The `afp` member of a review's envelope (docs/protocol.md): the Request
 * Object and what a person reviewing it needs of its session — the previous
 * iteration's artifact (for the diff), their latest feedback (the items the
 * request's applied_feedback speaks of, and those they may carry over), and
 * every item id the session issued (new ids must differ; an applied item is
 * acknowledged when its id is among them). The server makes it; the app and
 * the server's answer check read it. Fields read-only once shared.
 */
typedef struct
{
  char           *session_id;
  AtpAfpRequest  *request;

  /* The session's review before this one; previous_id NULL in its first. */
  char           *previous_id;
  gint64          previous_iteration;
  AtpAfpArtifact  previous_artifact;

  /* The person's latest feedback in the session; NULL before any. */
  char           *latest_feedback_id;   /* the review it answered */
  gint64          latest_feedback_iteration;
  AtpAfpFeedback *latest_feedback;

  GPtrArray      *issued_ids;           /* char*, in the order issued; never NULL */
  GHashTable     *issued;               /* the same as a set */
  JsonObject     *extra;                /* members this version does not know, kept */
  /*< private >*/
  gatomicrefcount ref_count;
} AtpAfpReview;

#define ATP_TYPE_AFP_REVIEW (atp_afp_review_get_type ())

GType          atp_afp_review_get_type            (void) G_GNUC_CONST;

/* A review of @request in @session_id; the setters below complete it before it is shared. */
AtpAfpReview  *atp_afp_review_new                 (const char           *session_id,
                                                   AtpAfpRequest        *request);
void           atp_afp_review_set_previous        (AtpAfpReview         *self,
                                                   const char           *review_id,
                                                   gint64                iteration,
                                                   const AtpAfpArtifact *artifact);
void           atp_afp_review_set_latest_feedback (AtpAfpReview         *self,
                                                   const char           *review_id,
                                                   gint64                iteration,
                                                   AtpAfpFeedback       *feedback);
/* Adds @id (issued in the session) unless it is there already. */
void           atp_afp_review_add_issued_id       (AtpAfpReview         *self,
                                                   const char           *id);

/**
 * atp_afp_review_new_from_json:
 * @node: the `afp` member of an envelope
 * @error: an %ATP_ERROR naming the field
 *
 * Returns: (transfer full) (nullable): the review
 */
AtpAfpReview  *atp_afp_review_new_from_json       (JsonNode             *node,
                                                   GError              **error);
AtpAfpReview  *atp_afp_review_ref                 (AtpAfpReview         *self);
void           atp_afp_review_unref               (AtpAfpReview         *self);
JsonNode      *atp_afp_review_to_json             (AtpAfpReview         *self);

/* The ack of the request's applied_feedback (NULL without), against the session's ids. */
GPtrArray     *atp_afp_review_ack_items           (AtpAfpReview         *self);

/**
 * atp_afp_review_check_feedback:
 * @self: the review answered
 * @feedback: the person's feedback
 * @error: %ATP_ERROR_CONSTRAINT_VIOLATION naming the item
 *
 * atp_afp_feedback_check_session() against the session as the review
 * knows it: new ids must not have been issued, a carried-over item must be
 * one of the latest feedback's.
 */
gboolean       atp_afp_review_check_feedback      (AtpAfpReview         *self,
                                                   AtpAfpFeedback       *feedback,
                                                   GError              **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AtpAfpReview, atp_afp_review_unref)

G_END_DECLS
