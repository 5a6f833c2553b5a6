/* atp-afp-request.h — the AFP Request Object (artifact, applied_feedback)
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
  ATP_AFP_APPLIED_ACCEPTED,
  ATP_AFP_APPLIED_REJECTED,
  ATP_AFP_APPLIED_PARTIAL,
} AtpAfpAppliedStatus;

/* One decision of the Requester on an earlier feedback item. */
typedef struct
{
  char                *id;
  AtpAfpAppliedStatus  status;
  char                *reason_code;    /* nullable */
  char                *explanation;    /* nullable */
  JsonObject          *extensions;     /* `x-` members; never NULL */
} AtpAfpAppliedItem;

typedef struct
{
  char       *media_type;              /* as sent */
  JsonNode   *content;                 /* any JSON value but null */
  char       *artifact_ref;            /* nullable */
  JsonObject *extensions;
} AtpAfpArtifact;

/*
 * Immutable and always valid: made only by parsing, which applies every rule
 * of docs/protocol.md ("Agent Feedback Protocol"). Fields are read-only.
 */
typedef struct
{
  gint64          iteration;           /* ≥ 1 */
  AtpAfpArtifact  artifact;
  GPtrArray      *applied_items;       /* AtpAfpAppliedItem*; NULL when there is no applied_feedback */
  JsonObject     *applied_extensions;  /* `x-` members of applied_feedback; NULL with it */
  JsonObject     *extensions;
  /*< private >*/
  gatomicrefcount ref_count;
} AtpAfpRequest;

#define ATP_TYPE_AFP_REQUEST (atp_afp_request_get_type ())

GType          atp_afp_request_get_type       (void) G_GNUC_CONST;

/**
 * atp_afp_request_new_from_json:
 * @node: a Request Object
 * @error: an %ATP_ERROR naming the field and the rule:
 *   %ATP_ERROR_INVALID_REQUEST (not an object, an unknown member),
 *   %ATP_ERROR_MISSING_REQUIRED_FIELD, %ATP_ERROR_INVALID_FIELD_VALUE, or
 *   %ATP_ERROR_UNSUPPORTED_MEDIA_TYPE (checked last: a malformed request is
 *   reported as such first)
 *
 * A missing `protocol_version` is read as "1.2".
 *
 * Returns: (transfer full) (nullable): the request
 */
AtpAfpRequest *atp_afp_request_new_from_json  (JsonNode       *node,
                                               GError        **error);
/*
 * The same, for what is submitted (the server's POST, triage-ask --afp): the
 * rules added since reviews were first stored also apply, which a stored one
 * need not meet (read with the above): `artifact.media_type` a range (all of
 * text, or of everything) is INVALID_FIELD_VALUE, and so are more than
 * %ATP_AFP_MAX_APPLIED_ITEMS `applied_feedback.items`.
 */
AtpAfpRequest *atp_afp_request_new_submission (JsonNode       *node,
                                               GError        **error);
/* atp_json_parse() bounded by %ATP_AFP_MAX_REQUEST_SIZE, then atp_afp_request_new_from_json(). */
AtpAfpRequest *atp_afp_request_new_from_data  (const char     *data,
                                               gssize          length,
                                               GError        **error);
AtpAfpRequest *atp_afp_request_ref            (AtpAfpRequest  *self);
void           atp_afp_request_unref          (AtpAfpRequest  *self);
/* The Request Object, `protocol_version` always written, `x-` members kept. */
JsonNode      *atp_afp_request_to_json        (AtpAfpRequest  *self);
char          *atp_afp_request_to_string      (AtpAfpRequest  *self,
                                               gsize          *length);

/*
 * The iteration of a request that may be invalid, for the error response that
 * echoes it: its `iteration` when that is an integer ≥ 1, else 0.
 */
gint64         atp_afp_request_peek_iteration (JsonNode       *node);

/*
 * The applied items of a request that may be invalid, for the ack of the
 * error response to it: its `applied_feedback` when that member is valid on
 * its own (AtpAfpAppliedItem*), else NULL.
 */
GPtrArray     *atp_afp_request_peek_applied   (JsonNode       *node);

const char    *atp_afp_applied_status_to_string   (AtpAfpAppliedStatus  status);
gboolean       atp_afp_applied_status_from_string (const char          *text,
                                                   AtpAfpAppliedStatus *status);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AtpAfpRequest, atp_afp_request_unref)

G_END_DECLS
