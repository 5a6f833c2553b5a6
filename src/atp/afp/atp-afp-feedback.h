/* atp-afp-feedback.h — the AFP feedback object a Provider (here: a person) gives
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef enum
{
  ATP_AFP_CONFIDENCE_HIGH,
  ATP_AFP_CONFIDENCE_MEDIUM,
  ATP_AFP_CONFIDENCE_LOW,
} AtpAfpConfidence;

typedef struct
{
  char       *aspect;
  char       *justification;
  JsonObject *extensions;              /* `x-` members; never NULL */
} AtpAfpPositivePoint;

typedef struct
{
  char       *id;                      /* matches ^[a-z0-9._-]{8,128}$ */
  char       *aspect;
  char       *description;
  char       *recommendation;
  JsonObject *extensions;
} AtpAfpImprovement;

/*
 * Immutable and always valid: every required string holds more than
 * whitespace (more than invisible characters, in what is submitted), the ids
 * match the pattern and are unique in the feedback.
 */
typedef struct
{
  AtpAfpConfidence  confidence;
  char             *confidence_justification;
  JsonObject       *confidence_extensions;
  GPtrArray        *positive_points;        /* AtpAfpPositivePoint*, maybe empty */
  GPtrArray        *areas_for_improvement;  /* AtpAfpImprovement*, maybe empty */
  char             *general_summary;
  JsonObject       *extensions;
  /*< private >*/
  gatomicrefcount   ref_count;
} AtpAfpFeedback;

#define ATP_TYPE_AFP_FEEDBACK (atp_afp_feedback_get_type ())

GType           atp_afp_feedback_get_type        (void) G_GNUC_CONST;

/**
 * atp_afp_feedback_new_from_json:
 * @node: a feedback object
 * @error: %ATP_ERROR_INVALID_REQUEST (not an object, an unknown member),
 *   %ATP_ERROR_MISSING_REQUIRED_FIELD or %ATP_ERROR_INVALID_FIELD_VALUE,
 *   naming the field ("areas_for_improvement[1].id")
 *
 * Returns: (transfer full) (nullable): the feedback
 */
AtpAfpFeedback *atp_afp_feedback_new_from_json   (JsonNode        *node,
                                                  GError         **error);
/*
 * The same, for what a person gives (the server's check of an answer, the
 * app's editor as they type): a required text of invisible characters alone
 * (U+200B, bidirectional marks, U+3000 …, atp_str_is_blank()) is also
 * INVALID_FIELD_VALUE naming its path, which feedback stored before that rule
 * need not meet (read with the above).
 */
AtpAfpFeedback *atp_afp_feedback_new_submission  (JsonNode        *node,
                                                  GError         **error);
AtpAfpFeedback *atp_afp_feedback_ref             (AtpAfpFeedback  *self);
void            atp_afp_feedback_unref           (AtpAfpFeedback  *self);
JsonNode       *atp_afp_feedback_to_json         (AtpAfpFeedback  *self);

/* The improvement with @id, or NULL. */
const AtpAfpImprovement *atp_afp_feedback_find_item (AtpAfpFeedback *self,
                                                     const char     *id);

/**
 * atp_afp_feedback_check_session:
 * @self: the feedback for the session's newest iteration
 * @issued: (nullable): every item id issued earlier in the session (a set of strings)
 * @latest: (nullable): the latest feedback issued in the session
 * @error: %ATP_ERROR_CONSTRAINT_VIOLATION naming the item
 *
 * Item ids are unique in a session: an id issued earlier may appear again
 * only for an item carried over from @latest (it keeps its id); any other
 * id must be new. A session holds at most %ATP_AFP_MAX_SESSION_ITEM_IDS ids.
 *
 * Returns: %TRUE if @self may be issued in the session
 */
gboolean        atp_afp_feedback_check_session   (AtpAfpFeedback  *self,
                                                  GHashTable      *issued,
                                                  AtpAfpFeedback  *latest,
                                                  GError         **error);

const char     *atp_afp_confidence_to_string     (AtpAfpConfidence  confidence);
gboolean        atp_afp_confidence_from_string   (const char       *text,
                                                  AtpAfpConfidence *confidence);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AtpAfpFeedback, atp_afp_feedback_unref)

G_END_DECLS
