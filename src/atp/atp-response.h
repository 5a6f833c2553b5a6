/* atp-response.h — response, status update and error objects
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

#include "atp-types.h"

G_BEGIN_DECLS

/* Fields public and read-only; create with _new/_new_from_json, share with _ref. */
struct _AtpResponse
{
  char             *notification_id;
  char             *action_id;
  JsonNode         *response_data;     /* never NULL: a JSON null node for simple */
  GDateTime        *responded_at;
  char             *responder_id;
  AtpResponderType  responder_type;
  JsonObject       *extra;
  /*< private >*/
  gatomicrefcount   ref_count;
};
typedef struct _AtpResponse AtpResponse;

typedef struct
{
  char            *notification_id;
  AtpStatus        status;
  char            *reason;            /* nullable */
  GDateTime       *timestamp;
  /*< private >*/
  gatomicrefcount  ref_count;
} AtpStatusUpdate;

/* The error object: the whole body of every non-2xx answer and of an `error` frame. */
typedef struct
{
  char            *code;              /* as on the wire */
  char            *message;
  JsonObject      *details;           /* nullable */
  char            *request_id;        /* nullable when a peer omitted it */
  /*< private >*/
  gatomicrefcount  ref_count;
} AtpErrorInfo;

#define ATP_TYPE_RESPONSE      (atp_response_get_type ())
#define ATP_TYPE_STATUS_UPDATE (atp_status_update_get_type ())
#define ATP_TYPE_ERROR_INFO    (atp_error_info_get_type ())

GType            atp_response_get_type          (void) G_GNUC_CONST;
AtpResponse     *atp_response_new               (const char       *notification_id,
                                                 const char       *action_id,
                                                 JsonNode         *response_data, /* nullable = null */
                                                 GDateTime        *responded_at,
                                                 const char       *responder_id,
                                                 AtpResponderType  responder_type);
AtpResponse     *atp_response_new_from_json     (JsonNode         *node,
                                                 GError          **error);
AtpResponse     *atp_response_ref               (AtpResponse      *self);
void             atp_response_unref             (AtpResponse      *self);
JsonNode        *atp_response_to_json           (AtpResponse      *self);
/* Same notification, action and response_data (JSON equality): an idempotent retry. */
gboolean         atp_response_same_answer       (AtpResponse      *self,
                                                 const char       *action_id,
                                                 JsonNode         *response_data);

GType            atp_status_update_get_type     (void) G_GNUC_CONST;
AtpStatusUpdate *atp_status_update_new          (const char       *notification_id,
                                                 AtpStatus         status,
                                                 const char       *reason,
                                                 GDateTime        *timestamp);
AtpStatusUpdate *atp_status_update_new_from_json (JsonNode        *node,
                                                  GError         **error);
AtpStatusUpdate *atp_status_update_ref          (AtpStatusUpdate  *self);
void             atp_status_update_unref        (AtpStatusUpdate  *self);
JsonNode        *atp_status_update_to_json      (AtpStatusUpdate  *self);
char            *atp_status_update_to_string    (AtpStatusUpdate  *self);

GType            atp_error_info_get_type        (void) G_GNUC_CONST;
AtpErrorInfo    *atp_error_info_new             (const char       *code,
                                                 const char       *message,
                                                 JsonObject       *details,
                                                 const char       *request_id);
AtpErrorInfo    *atp_error_info_new_from_json   (JsonNode         *node,
                                                 GError          **error);
AtpErrorInfo    *atp_error_info_ref             (AtpErrorInfo     *self);
void             atp_error_info_unref           (AtpErrorInfo     *self);
JsonNode        *atp_error_info_to_json         (AtpErrorInfo     *self);
/*
 * A GError in ATP_ERROR for this error object: the code mapped, the message
 * kept, the request id appended as " (request <id>)" so a user can quote it.
 */
GError          *atp_error_info_to_gerror       (AtpErrorInfo     *self);

/* JSON equality of two nodes (objects compared member-wise, numbers by value). */
gboolean         atp_json_node_equal            (JsonNode         *a,
                                                 JsonNode         *b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AtpResponse, atp_response_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AtpStatusUpdate, atp_status_update_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AtpErrorInfo, atp_error_info_unref)

G_END_DECLS
