/* atp-response.c — response, status update and error objects
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-response"

#include "atp-response.h"

#include "atp-error.h"
#include "atp-json.h"
#include "atp-private.h"

G_DEFINE_BOXED_TYPE (AtpResponse, atp_response, atp_response_ref, atp_response_unref)
G_DEFINE_BOXED_TYPE (AtpStatusUpdate, atp_status_update, atp_status_update_ref, atp_status_update_unref)
G_DEFINE_BOXED_TYPE (AtpErrorInfo, atp_error_info, atp_error_info_ref, atp_error_info_unref)

/* ------------------------------------------------------------------------ */
/* Field readers shared by the three objects                                */
/* ------------------------------------------------------------------------ */

/* A string member; @required decides whether absence is an error. */
static gboolean
read_string (JsonObject  *object,
             const char  *prefix,
             const char  *name,
             gboolean     required,
             const char **value,
             GError     **error)
{
  JsonNode *node = atp_object_get (object, name);

  *value = NULL;

  if (node == NULL)
    {
      if (!required)
        return TRUE;
      g_set_error (error, ATP_ERROR, ATP_ERROR_MISSING_REQUIRED_FIELD,
                   "%s%s: required field is missing", prefix, name);
      return FALSE;
    }

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_autofree char *got = atp_json_describe (node);

      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                   "%s%s: must be a string, got %s", prefix, name, got);
      return FALSE;
    }

  *value = json_node_get_string (node);
  return TRUE;
}

static gboolean
read_timestamp (JsonObject  *object,
                const char  *prefix,
                const char  *name,
                gboolean     required,
                GDateTime  **value,
                GError     **error)
{
  const char *text;

  *value = NULL;
  if (!read_string (object, prefix, name, required, &text, error))
    return FALSE;
  if (text == NULL)
    return TRUE;

  *value = atp_parse_timestamp (text);
  if (*value == NULL)
    {
      g_autofree char *got = atp_json_describe (json_object_get_member (object, name));

      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                   "%s%s: must be an RFC 3339 date-time with a time zone offset, got %s",
                   prefix, name, got);
      return FALSE;
    }

  return TRUE;
}

static gboolean
read_uuid (JsonObject  *object,
           const char  *name,
           char       **value,
           GError     **error)
{
  const char *text;

  *value = NULL;
  if (!read_string (object, "", name, TRUE, &text, error))
    return FALSE;

  *value = atp_uuid_normalize (text);
  if (*value == NULL)
    {
      g_autofree char *got = atp_json_describe (json_object_get_member (object, name));

      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                   "%s: must be a UUID v4, got %s", name, got);
      return FALSE;
    }

  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* AtpResponse                                                               */
/* ------------------------------------------------------------------------ */

static AtpResponse *
response_alloc (void)
{
  AtpResponse *self = g_new0 (AtpResponse, 1);

  g_atomic_ref_count_init (&self->ref_count);
  return self;
}

/**
 * atp_response_new:
 * @notification_id: the notification answered
 * @action_id: the action chosen
 * @response_data: (nullable): the answer; %NULL means JSON null
 * @responded_at: when
 * @responder_id: who
 * @responder_type: human or agent
 *
 * No validation: check @response_data with atp_action_validate_response() first.
 *
 * Returns: (transfer full): a new response
 */
AtpResponse *
atp_response_new (const char       *notification_id,
                  const char       *action_id,
                  JsonNode         *response_data,
                  GDateTime        *responded_at,
                  const char       *responder_id,
                  AtpResponderType  responder_type)
{
  AtpResponse *self;

  g_return_val_if_fail (notification_id != NULL, NULL);
  g_return_val_if_fail (action_id != NULL, NULL);
  g_return_val_if_fail (responded_at != NULL, NULL);
  g_return_val_if_fail (responder_id != NULL, NULL);

  self = response_alloc ();
  self->notification_id = g_strdup (notification_id);
  self->action_id = g_strdup (action_id);
  self->response_data = response_data != NULL ? json_node_copy (response_data)
                                              : json_node_new (JSON_NODE_NULL);
  self->responded_at = g_date_time_ref (responded_at);
  self->responder_id = g_strdup (responder_id);
  self->responder_type = responder_type;
  self->extra = json_object_new ();

  return self;
}

/**
 * atp_response_new_from_json:
 * @node: a response object
 * @error: return location for an error
 *
 * Parses `{notification_id, action_id, response_data?, responded_at,
 * responder {id, type}}`; an omitted `response_data` is JSON null. Unknown
 * members are kept in @extra.
 *
 * Returns: (transfer full) (nullable): the response
 */
AtpResponse *
atp_response_new_from_json (JsonNode  *node,
                            GError   **error)
{
  g_autoptr(AtpResponse) self = NULL;
  JsonObject *object, *responder;
  JsonNode *member;
  const char *text;
  static const char * const known[] = {
    "notification_id", "action_id", "response_data", "responded_at", "responder", NULL
  };

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!atp_json_require_object (node, "A response", error))
    return NULL;
  object = json_node_get_object (node);

  self = response_alloc ();
  self->extra = json_object_new ();

  if (!read_uuid (object, "notification_id", &self->notification_id, error))
    return NULL;

  if (!read_string (object, "", "action_id", TRUE, &text, error))
    return NULL;
  self->action_id = g_strdup (text);

  member = json_object_get_member (object, "response_data");
  self->response_data = member != NULL ? json_node_copy (member) : json_node_new (JSON_NODE_NULL);

  if (!read_timestamp (object, "", "responded_at", TRUE, &self->responded_at, error))
    return NULL;

  member = atp_object_get (object, "responder");
  if (member == NULL)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_MISSING_REQUIRED_FIELD,
                   "responder: required field is missing");
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (member))
    {
      g_autofree char *got = atp_json_describe (member);

      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                   "responder: must be an object, got %s", got);
      return NULL;
    }
  responder = json_node_get_object (member);

  if (!read_string (responder, "responder.", "id", TRUE, &text, error))
    return NULL;
  self->responder_id = g_strdup (text);

  if (!read_string (responder, "responder.", "type", TRUE, &text, error))
    return NULL;
  if (!atp_responder_type_from_string (text, &self->responder_type))
    {
      g_autofree char *got = atp_json_describe (json_object_get_member (responder, "type"));

      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                   "responder.type: must be \"human\" or \"agent\", got %s", got);
      return NULL;
    }

  g_clear_pointer (&self->extra, json_object_unref);
  self->extra = atp_json_object_collect_extra (object, known);

  return g_steal_pointer (&self);
}

/**
 * atp_response_ref:
 * @self: a response
 *
 * Returns: (transfer full): @self
 */
AtpResponse *
atp_response_ref (AtpResponse *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

/**
 * atp_response_unref:
 * @self: (transfer full): a response
 */
void
atp_response_unref (AtpResponse *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_free (self->notification_id);
  g_free (self->action_id);
  g_clear_pointer (&self->response_data, json_node_unref);
  g_clear_pointer (&self->responded_at, g_date_time_unref);
  g_free (self->responder_id);
  g_clear_pointer (&self->extra, json_object_unref);
  g_free (self);
}

/**
 * atp_response_to_json:
 * @self: a response
 *
 * Returns: (transfer full): the response object, unknown members written back
 */
JsonNode *
atp_response_to_json (AtpResponse *self)
{
  g_autoptr(JsonObject) object = json_object_new ();
  JsonObject *responder;
  g_autofree char *when = NULL;
  JsonNode *node;

  g_return_val_if_fail (self != NULL, NULL);

  responder = json_object_new ();
  when = atp_format_timestamp (self->responded_at);

  json_object_set_string_member (object, "notification_id", self->notification_id);
  json_object_set_string_member (object, "action_id", self->action_id);
  json_object_set_member (object, "response_data",
                          self->response_data != NULL ? json_node_copy (self->response_data)
                                                      : json_node_new (JSON_NODE_NULL));
  json_object_set_string_member (object, "responded_at", when);
  json_object_set_string_member (responder, "id", self->responder_id);
  json_object_set_string_member (responder, "type", atp_responder_type_to_string (self->responder_type));
  json_object_set_object_member (object, "responder", responder);
  atp_json_object_append_extra (object, self->extra);

  node = json_node_alloc ();
  json_node_init_object (node, object);
  return node;
}

/**
 * atp_response_same_answer:
 * @self: a recorded response
 * @action_id: the action of a new submission
 * @response_data: (nullable): its data (%NULL = null)
 *
 * Returns: %TRUE if the submission repeats @self (an idempotent retry)
 */
gboolean
atp_response_same_answer (AtpResponse *self,
                          const char  *action_id,
                          JsonNode    *response_data)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return g_strcmp0 (self->action_id, action_id) == 0 &&
         atp_json_node_equal (self->response_data, response_data);
}

/* ------------------------------------------------------------------------ */
/* AtpStatusUpdate                                                           */
/* ------------------------------------------------------------------------ */

static AtpStatusUpdate *
status_update_alloc (void)
{
  AtpStatusUpdate *self = g_new0 (AtpStatusUpdate, 1);

  g_atomic_ref_count_init (&self->ref_count);
  return self;
}

/**
 * atp_status_update_new:
 * @notification_id: the notification
 * @status: its new status
 * @reason: (nullable): why
 * @timestamp: when
 *
 * Returns: (transfer full): a status update
 */
AtpStatusUpdate *
atp_status_update_new (const char *notification_id,
                       AtpStatus   status,
                       const char *reason,
                       GDateTime  *timestamp)
{
  AtpStatusUpdate *self;

  g_return_val_if_fail (notification_id != NULL, NULL);
  g_return_val_if_fail (timestamp != NULL, NULL);

  self = status_update_alloc ();
  self->notification_id = g_strdup (notification_id);
  self->status = status;
  self->reason = g_strdup (reason);
  self->timestamp = g_date_time_ref (timestamp);
  return self;
}

/**
 * atp_status_update_new_from_json:
 * @node: `{notification_id, status, reason?, timestamp}`
 * @error: return location for an error
 *
 * Returns: (transfer full) (nullable): the status update
 */
AtpStatusUpdate *
atp_status_update_new_from_json (JsonNode  *node,
                                 GError   **error)
{
  g_autoptr(AtpStatusUpdate) self = NULL;
  JsonObject *object;
  const char *text;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!atp_json_require_object (node, "A status update", error))
    return NULL;
  object = json_node_get_object (node);

  self = status_update_alloc ();

  if (!read_uuid (object, "notification_id", &self->notification_id, error))
    return NULL;

  if (!read_string (object, "", "status", TRUE, &text, error))
    return NULL;
  if (!atp_status_from_string (text, &self->status))
    {
      g_autofree char *got = atp_json_describe (json_object_get_member (object, "status"));

      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                   "status: must be one of created, delivered, acknowledged, responded, "
                   "expired, invalidated, got %s", got);
      return NULL;
    }

  if (!read_string (object, "", "reason", FALSE, &text, error))
    return NULL;
  self->reason = g_strdup (text);

  if (!read_timestamp (object, "", "timestamp", TRUE, &self->timestamp, error))
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * atp_status_update_ref:
 * @self: a status update
 *
 * Returns: (transfer full): @self
 */
AtpStatusUpdate *
atp_status_update_ref (AtpStatusUpdate *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

/**
 * atp_status_update_unref:
 * @self: (transfer full): a status update
 */
void
atp_status_update_unref (AtpStatusUpdate *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_free (self->notification_id);
  g_free (self->reason);
  g_clear_pointer (&self->timestamp, g_date_time_unref);
  g_free (self);
}

/**
 * atp_status_update_to_json:
 * @self: a status update
 *
 * Returns: (transfer full): `{notification_id, status, reason?, timestamp}`
 */
JsonNode *
atp_status_update_to_json (AtpStatusUpdate *self)
{
  g_autoptr(JsonObject) object = json_object_new ();
  g_autofree char *when = NULL;
  JsonNode *node;

  g_return_val_if_fail (self != NULL, NULL);

  when = atp_format_timestamp (self->timestamp);
  json_object_set_string_member (object, "notification_id", self->notification_id);
  json_object_set_string_member (object, "status", atp_status_to_string (self->status));
  if (self->reason != NULL)
    json_object_set_string_member (object, "reason", self->reason);
  json_object_set_string_member (object, "timestamp", when);

  node = json_node_alloc ();
  json_node_init_object (node, object);
  return node;
}

/**
 * atp_status_update_to_string:
 * @self: a status update
 *
 * The compact text of atp_status_update_to_json(), written without the tree
 * (a server sends one for every request it delivers).
 *
 * Returns: (transfer full): `{notification_id, status, reason?, timestamp}`
 */
char *
atp_status_update_to_string (AtpStatusUpdate *self)
{
  g_autofree char *when = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  when = atp_format_timestamp (self->timestamp);
  return atp_json_strings_to_string ("notification_id", self->notification_id,
                                     "status", atp_status_to_string (self->status),
                                     "reason", self->reason, "timestamp", when, NULL);
}

/* ------------------------------------------------------------------------ */
/* AtpErrorInfo                                                              */
/* ------------------------------------------------------------------------ */

static AtpErrorInfo *
error_info_alloc (void)
{
  AtpErrorInfo *self = g_new0 (AtpErrorInfo, 1);

  g_atomic_ref_count_init (&self->ref_count);
  return self;
}

/**
 * atp_error_info_new:
 * @code: the wire code
 * @message: a human-readable message
 * @details: (nullable): extra context
 * @request_id: (nullable): the request id
 *
 * Returns: (transfer full): an error object
 */
AtpErrorInfo *
atp_error_info_new (const char *code,
                    const char *message,
                    JsonObject *details,
                    const char *request_id)
{
  AtpErrorInfo *self;

  g_return_val_if_fail (code != NULL, NULL);

  self = error_info_alloc ();
  self->code = g_strdup (code);
  self->message = g_strdup (message != NULL ? message : code);
  self->details = details != NULL ? json_object_ref (details) : NULL;
  self->request_id = g_strdup (request_id);
  return self;
}

/**
 * atp_error_info_new_from_json:
 * @node: `{code, message, details?, request_id?}`
 * @error: return location for an error
 *
 * A missing `message` is tolerated (the code stands in for it): the error of
 * a peer is still an error worth showing.
 *
 * Returns: (transfer full) (nullable): the error object
 */
AtpErrorInfo *
atp_error_info_new_from_json (JsonNode  *node,
                              GError   **error)
{
  g_autoptr(AtpErrorInfo) self = NULL;
  JsonObject *object;
  JsonNode *member;
  const char *text;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!atp_json_require_object (node, "An error object", error))
    return NULL;
  object = json_node_get_object (node);

  self = error_info_alloc ();

  if (!read_string (object, "", "code", TRUE, &text, error))
    return NULL;
  if (*text == '\0')
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                   "code: must not be empty");
      return NULL;
    }
  self->code = g_strdup (text);

  if (!read_string (object, "", "message", FALSE, &text, error))
    return NULL;
  self->message = g_strdup (text != NULL ? text : self->code);

  member = atp_object_get (object, "details");
  if (member != NULL)
    {
      if (!JSON_NODE_HOLDS_OBJECT (member))
        {
          g_autofree char *got = atp_json_describe (member);

          g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                       "details: must be an object, got %s", got);
          return NULL;
        }
      self->details = json_object_ref (json_node_get_object (member));
    }

  if (!read_string (object, "", "request_id", FALSE, &text, error))
    return NULL;
  self->request_id = g_strdup (text);

  return g_steal_pointer (&self);
}

/**
 * atp_error_info_ref:
 * @self: an error object
 *
 * Returns: (transfer full): @self
 */
AtpErrorInfo *
atp_error_info_ref (AtpErrorInfo *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

/**
 * atp_error_info_unref:
 * @self: (transfer full): an error object
 */
void
atp_error_info_unref (AtpErrorInfo *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_free (self->code);
  g_free (self->message);
  g_clear_pointer (&self->details, json_object_unref);
  g_free (self->request_id);
  g_free (self);
}

/**
 * atp_error_info_to_json:
 * @self: an error object
 *
 * Returns: (transfer full): `{code, message, details?, request_id?}`
 */
JsonNode *
atp_error_info_to_json (AtpErrorInfo *self)
{
  g_autoptr(JsonObject) object = json_object_new ();
  JsonNode *node;

  g_return_val_if_fail (self != NULL, NULL);

  json_object_set_string_member (object, "code", self->code);
  json_object_set_string_member (object, "message", self->message);
  if (self->details != NULL)
    json_object_set_object_member (object, "details", json_object_ref (self->details));
  if (self->request_id != NULL)
    json_object_set_string_member (object, "request_id", self->request_id);

  node = json_node_alloc ();
  json_node_init_object (node, object);
  return node;
}

/**
 * atp_error_info_to_gerror:
 * @self: an error object
 *
 * Returns: (transfer full): an %ATP_ERROR with the code mapped; an unknown
 *   code is kept in the message as "[CODE]"; the request id is appended as
 *   " (request <id>)"
 */
GError *
atp_error_info_to_gerror (AtpErrorInfo *self)
{
  AtpErrorCode code;
  g_autoptr(GString) message = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  code = atp_error_code_from_string (self->code);
  message = g_string_new (self->message);
  if (code == ATP_ERROR_UNKNOWN && g_strcmp0 (self->code, "UNKNOWN") != 0)
    g_string_append_printf (message, " [%s]", self->code);
  if (self->request_id != NULL)
    g_string_append_printf (message, " (request %s)", self->request_id);

  return g_error_new_literal (ATP_ERROR, code, message->str);
}
