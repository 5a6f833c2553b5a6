/* atp-afp-response.h — the AFP Response Object (feedback, applied_feedback_ack, error)
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

typedef enum
{
  ATP_AFP_STATUS_SUCCESS,
  ATP_AFP_STATUS_ERROR,
} AtpAfpStatus;

typedef enum
{
  ATP_AFP_ACK_ACKNOWLEDGED,
  ATP_AFP_ACK_UNKNOWN_ID,
} AtpAfpProcessingStatus;

typedef struct
{
  char                   *id;
  AtpAfpProcessingStatus  processing_status;
  JsonObject             *extensions;        /* `x-` members; never NULL */
} AtpAfpAckItem;

/* Immutable; fields read-only. */
typedef struct
{
  gint64           iteration;          /* echoed; 0 in an error about a request without one */
  AtpAfpStatus     status;
  AtpAfpFeedback  *feedback;           /* success only */
  GPtrArray       *ack_items;          /* AtpAfpAckItem*; NULL: the request had no applied_feedback */
  JsonObject      *ack_extensions;     /* NULL with it */
  char            *error_code;         /* error only */
  char            *error_message;      /* error only */
  JsonObject      *error_extensions;   /* error only */
  JsonObject      *extensions;
  /*< private >*/
  gatomicrefcount  ref_count;
} AtpAfpResponse;

#define ATP_TYPE_AFP_RESPONSE (atp_afp_response_get_type ())

GType           atp_afp_response_get_type        (void) G_GNUC_CONST;

/**
 * atp_afp_ack_items_new:
 * @request: the request answered
 * @issued: (nullable): every item id issued earlier in its session (a set of strings)
 *
 * One item per applied item, in order: `acknowledged` when its id was issued
 * earlier in the session, else `unknown_id`.
 *
 * Returns: (transfer full) (nullable): AtpAfpAckItem*, or %NULL when the
 *   request had no applied_feedback
 */
GPtrArray      *atp_afp_ack_items_new            (AtpAfpRequest   *request,
                                                  GHashTable      *issued);

/* The same from applied items (atp_afp_request_peek_applied()); NULL for NULL. */
GPtrArray      *atp_afp_ack_items_for            (GPtrArray       *applied_items,
                                                  GHashTable      *issued);

/* @ack_items: (nullable) (transfer none): from atp_afp_ack_items_new(). */
AtpAfpResponse *atp_afp_response_new_success     (gint64           iteration,
                                                  AtpAfpFeedback  *feedback,
                                                  GPtrArray       *ack_items);
AtpAfpResponse *atp_afp_response_new_error       (gint64           iteration,
                                                  const char      *code,
                                                  const char      *message,
                                                  GPtrArray       *ack_items);

/**
 * atp_afp_response_new_from_json:
 * @node: a Response Object
 * @error: an %ATP_ERROR naming the field and the rule
 *
 * `feedback` is required exactly with `status: "success"` and `error`
 * exactly with `"error"`.
 *
 * Returns: (transfer full) (nullable): the response
 */
AtpAfpResponse *atp_afp_response_new_from_json   (JsonNode        *node,
                                                  GError         **error);
/* atp_json_parse() bounded by %ATP_MAX_FRAME_SIZE, then the above. */
AtpAfpResponse *atp_afp_response_new_from_data   (const char      *data,
                                                  gssize           length,
                                                  GError         **error);
AtpAfpResponse *atp_afp_response_ref             (AtpAfpResponse  *self);
void            atp_afp_response_unref           (AtpAfpResponse  *self);
JsonNode       *atp_afp_response_to_json         (AtpAfpResponse  *self);
char           *atp_afp_response_to_string       (AtpAfpResponse  *self,
                                                  gsize           *length);

/**
 * atp_afp_response_check_for_request:
 * @self: a response
 * @request: the request it answers
 * @error: %ATP_ERROR_PROTOCOL saying what does not match
 *
 * What a Requester checks: the iteration is echoed, and
 * `applied_feedback_ack` is present exactly when the request had
 * `applied_feedback`, with one item per applied item, in order, same ids.
 *
 * Returns: %TRUE if @self answers @request
 */
gboolean        atp_afp_response_check_for_request (AtpAfpResponse *self,
                                                    AtpAfpRequest  *request,
                                                    GError        **error);

const char     *atp_afp_processing_status_to_string   (AtpAfpProcessingStatus  status);
gboolean        atp_afp_processing_status_from_string (const char             *text,
                                                       AtpAfpProcessingStatus *status);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AtpAfpResponse, atp_afp_response_unref)

G_END_DECLS
