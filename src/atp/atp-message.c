/* atp-message.c — the WebSocket envelope {"type": …, "data": {…}}
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-message"

#include "atp-message.h"

#include "atp-error.h"
#include "atp-json.h"
#include "atp-private.h"

G_DEFINE_BOXED_TYPE (AtpMessage, atp_message, atp_message_ref, atp_message_unref)

static const char * const type_names[] = {
  [ATP_MESSAGE_UNKNOWN] = NULL,
  [ATP_MESSAGE_NOTIFICATION] = "notification",
  [ATP_MESSAGE_STATUS_UPDATE] = "status_update",
  [ATP_MESSAGE_HEARTBEAT] = "heartbeat",
  [ATP_MESSAGE_HEARTBEAT_ACK] = "heartbeat_ack",
  [ATP_MESSAGE_ACKNOWLEDGE] = "acknowledge",
  [ATP_MESSAGE_ERROR] = "error",
};

/**
 * atp_message_type_to_string:
 * @type: an #AtpMessageType
 *
 * Returns: (transfer none) (nullable): the wire name, %NULL for %ATP_MESSAGE_UNKNOWN
 */
const char *
atp_message_type_to_string (AtpMessageType type)
{
  if ((guint) type >= G_N_ELEMENTS (type_names))
    return NULL;
  return type_names[type];
}

static AtpMessageType
message_type_from_string (const char *name)
{
  for (guint i = 1; i < G_N_ELEMENTS (type_names); i++)
    {
      if (g_str_equal (name, type_names[i]))
        return (AtpMessageType) i;
    }

  return ATP_MESSAGE_UNKNOWN;
}

static AtpMessage *
message_alloc (AtpMessageType  type,
               const char     *type_name)
{
  AtpMessage *self = g_new0 (AtpMessage, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->type = type;
  self->type_name = g_strdup (type_name != NULL ? type_name : atp_message_type_to_string (type));
  return self;
}

G_GNUC_PRINTF (2, 3)
static gpointer
protocol_fail (GError     **error,
               const char  *format,
               ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error_literal (error, ATP_ERROR, ATP_ERROR_PROTOCOL, what);
  return NULL;
}

static gboolean
read_frame_timestamp (JsonObject  *data,
                      const char  *type_name,
                      gboolean     required,
                      GDateTime  **value,
                      GError     **error)
{
  JsonNode *node = data != NULL ? atp_object_get (data, "timestamp") : NULL;

  *value = NULL;
  if (node == NULL)
    {
      if (!required)
        return TRUE;
      protocol_fail (error, "Invalid %s frame: data.timestamp: required field is missing", type_name);
      return FALSE;
    }

  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    *value = atp_parse_timestamp (json_node_get_string (node));

  if (*value == NULL)
    {
      g_autofree char *got = atp_json_describe (node);

      protocol_fail (error, "Invalid %s frame: data.timestamp: must be an RFC 3339 date-time "
                     "with a time zone offset, got %s", type_name, got);
      return FALSE;
    }

  return TRUE;
}

/**
 * atp_message_new_from_data:
 * @data: a text frame
 * @length: its length or -1
 * @error: %ATP_ERROR_INVALID_JSON, %ATP_ERROR_PAYLOAD_TOO_LARGE, or
 *   %ATP_ERROR_PROTOCOL for an envelope that is not `{"type": string,
 *   "data": object}` or a payload that fails to parse (its message is kept)
 *
 * Bounded by %ATP_MAX_FRAME_SIZE. An unknown `type` is not an error: the
 * message has type %ATP_MESSAGE_UNKNOWN and `data` is not looked at.
 *
 * Returns: (transfer full) (nullable): the message
 */
AtpMessage *
atp_message_new_from_data (const char  *data,
                           gssize       length,
                           GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(AtpMessage) self = NULL;
  g_autoptr(GError) local_error = NULL;
  JsonObject *envelope, *payload = NULL;
  JsonNode *type_node, *data_node;
  const char *type_name;
  AtpMessageType type;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  root = atp_json_parse (data, length, ATP_MAX_FRAME_SIZE, error);
  if (root == NULL)
    return NULL;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_autofree char *got = atp_json_describe (root);

      return protocol_fail (error, "A frame must be a JSON object {\"type\", \"data\"}, got %s", got);
    }
  envelope = json_node_get_object (root);

  type_node = atp_object_get (envelope, "type");
  if (type_node == NULL || !JSON_NODE_HOLDS_VALUE (type_node) ||
      json_node_get_value_type (type_node) != G_TYPE_STRING)
    {
      g_autofree char *got = atp_json_describe (type_node);

      return protocol_fail (error, "Invalid frame: type: must be a string, got %s", got);
    }
  type_name = json_node_get_string (type_node);
  type = message_type_from_string (type_name);
  self = message_alloc (type, type_name);

  if (type == ATP_MESSAGE_UNKNOWN)
    return g_steal_pointer (&self);

  data_node = atp_object_get (envelope, "data");
  if (data_node != NULL)
    {
      if (!JSON_NODE_HOLDS_OBJECT (data_node))
        {
          g_autofree char *got = atp_json_describe (data_node);

          return protocol_fail (error, "Invalid %s frame: data: must be an object, got %s", type_name, got);
        }
      payload = json_node_get_object (data_node);
    }
  else if (type != ATP_MESSAGE_HEARTBEAT_ACK)
    {
      /* Only an ack may come without data (the profile allows an empty one). */
      return protocol_fail (error, "Invalid %s frame: data: required field is missing", type_name);
    }

  switch (type)
    {
    case ATP_MESSAGE_NOTIFICATION:
      self->notification = atp_notification_new_from_json (data_node, ATP_PARSE_DEFAULT, &local_error);
      if (self->notification == NULL)
        return protocol_fail (error, "Invalid notification frame: %s", local_error->message);
      break;

    case ATP_MESSAGE_STATUS_UPDATE:
      self->status_update = atp_status_update_new_from_json (data_node, &local_error);
      if (self->status_update == NULL)
        return protocol_fail (error, "Invalid status_update frame: %s", local_error->message);
      break;

    case ATP_MESSAGE_HEARTBEAT:
      if (!read_frame_timestamp (payload, type_name, TRUE, &self->timestamp, error))
        return NULL;
      break;

    case ATP_MESSAGE_HEARTBEAT_ACK:
      if (!read_frame_timestamp (payload, type_name, FALSE, &self->timestamp, error))
        return NULL;
      break;

    case ATP_MESSAGE_ACKNOWLEDGE:
      {
        JsonNode *id = atp_object_get (payload, "notification_id");

        if (id == NULL)
          return protocol_fail (error, "Invalid acknowledge frame: data.notification_id: required field is missing");
        if (JSON_NODE_HOLDS_VALUE (id) && json_node_get_value_type (id) == G_TYPE_STRING)
          self->notification_id = atp_uuid_normalize (json_node_get_string (id));
        if (self->notification_id == NULL)
          {
            g_autofree char *got = atp_json_describe (id);

            return protocol_fail (error, "Invalid acknowledge frame: data.notification_id: "
                                  "must be a UUID v4, got %s", got);
          }
      }
      break;

    case ATP_MESSAGE_ERROR:
      self->error = atp_error_info_new_from_json (data_node, &local_error);
      if (self->error == NULL)
        return protocol_fail (error, "Invalid error frame: %s", local_error->message);
      break;

    case ATP_MESSAGE_UNKNOWN:
    default:
      g_assert_not_reached ();
    }

  return g_steal_pointer (&self);
}

/**
 * atp_message_new_notification:
 * @notification: the notification to push
 *
 * Returns: (transfer full): a `notification` message
 */
AtpMessage *
atp_message_new_notification (AtpNotification *notification)
{
  AtpMessage *self;

  g_return_val_if_fail (notification != NULL, NULL);

  self = message_alloc (ATP_MESSAGE_NOTIFICATION, NULL);
  self->notification = atp_notification_ref (notification);
  return self;
}

/**
 * atp_message_new_status_update:
 * @update: the status update
 *
 * Returns: (transfer full): a `status_update` message
 */
AtpMessage *
atp_message_new_status_update (AtpStatusUpdate *update)
{
  AtpMessage *self;

  g_return_val_if_fail (update != NULL, NULL);

  self = message_alloc (ATP_MESSAGE_STATUS_UPDATE, NULL);
  self->status_update = atp_status_update_ref (update);
  return self;
}

/**
 * atp_message_new_heartbeat:
 * @timestamp: when
 *
 * Returns: (transfer full): a `heartbeat` message
 */
AtpMessage *
atp_message_new_heartbeat (GDateTime *timestamp)
{
  AtpMessage *self;

  g_return_val_if_fail (timestamp != NULL, NULL);

  self = message_alloc (ATP_MESSAGE_HEARTBEAT, NULL);
  self->timestamp = g_date_time_ref (timestamp);
  return self;
}

/**
 * atp_message_new_heartbeat_ack:
 * @timestamp: (nullable): the heartbeat's timestamp, echoed
 *
 * Returns: (transfer full): a `heartbeat_ack` message
 */
AtpMessage *
atp_message_new_heartbeat_ack (GDateTime *timestamp)
{
  AtpMessage *self = message_alloc (ATP_MESSAGE_HEARTBEAT_ACK, NULL);

  self->timestamp = timestamp != NULL ? g_date_time_ref (timestamp) : NULL;
  return self;
}

/**
 * atp_message_new_acknowledge:
 * @notification_id: the notification received
 *
 * Returns: (transfer full): an `acknowledge` message
 */
AtpMessage *
atp_message_new_acknowledge (const char *notification_id)
{
  AtpMessage *self;

  g_return_val_if_fail (notification_id != NULL, NULL);

  self = message_alloc (ATP_MESSAGE_ACKNOWLEDGE, NULL);
  self->notification_id = g_strdup (notification_id);
  return self;
}

/**
 * atp_message_new_error:
 * @error: the error object
 *
 * Returns: (transfer full): an `error` message
 */
AtpMessage *
atp_message_new_error (AtpErrorInfo *error)
{
  AtpMessage *self;

  g_return_val_if_fail (error != NULL, NULL);

  self = message_alloc (ATP_MESSAGE_ERROR, NULL);
  self->error = atp_error_info_ref (error);
  return self;
}

/**
 * atp_message_ref:
 * @self: a message
 *
 * Returns: (transfer full): @self
 */
AtpMessage *
atp_message_ref (AtpMessage *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

/**
 * atp_message_unref:
 * @self: (transfer full): a message
 */
void
atp_message_unref (AtpMessage *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_free (self->type_name);
  g_clear_pointer (&self->notification, atp_notification_unref);
  g_clear_pointer (&self->status_update, atp_status_update_unref);
  g_clear_pointer (&self->timestamp, g_date_time_unref);
  g_free (self->notification_id);
  g_clear_pointer (&self->error, atp_error_info_unref);
  g_free (self);
}

/**
 * atp_message_to_string:
 * @self: a message
 * @length: (out) (optional): the length of the text
 *
 * Returns: (transfer full): the frame text `{"type":…,"data":{…}}`
 */
char *
atp_message_to_string (AtpMessage *self,
                       gsize      *length)
{
  g_autoptr(JsonObject) envelope = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonNode *data = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  switch (self->type)
    {
    case ATP_MESSAGE_NOTIFICATION:
      data = atp_notification_to_json (self->notification);
      break;

    case ATP_MESSAGE_STATUS_UPDATE:
      data = atp_status_update_to_json (self->status_update);
      break;

    case ATP_MESSAGE_ERROR:
      data = atp_error_info_to_json (self->error);
      break;

    case ATP_MESSAGE_HEARTBEAT:
    case ATP_MESSAGE_HEARTBEAT_ACK:
    case ATP_MESSAGE_ACKNOWLEDGE:
    case ATP_MESSAGE_UNKNOWN:
    default:
      {
        JsonObject *object = json_object_new ();

        if (self->timestamp != NULL)
          {
            g_autofree char *when = atp_format_timestamp (self->timestamp);

            json_object_set_string_member (object, "timestamp", when);
          }
        if (self->notification_id != NULL)
          json_object_set_string_member (object, "notification_id", self->notification_id);

        data = json_node_alloc ();
        json_node_init_object (data, object);
        json_object_unref (object);
      }
      break;
    }

  envelope = json_object_new ();
  json_object_set_string_member (envelope, "type", self->type_name);
  json_object_set_member (envelope, "data", data);

  root = json_node_alloc ();
  json_node_init_object (root, envelope);
  return atp_json_to_string (root, length);
}
