/* atp-notification.c — the notification (the envelope of every request): parsing, checks, output
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-notification"

#include "atp-notification.h"

#include <math.h>
#include <string.h>

#include "atp-error.h"
#include "atp-json.h"
#include "atp-notification-private.h"
#include "atp-private.h"
#include "atp-response.h"

/* The public struct comes first, so a pointer to one is a pointer to the other. */
typedef struct
{
  AtpNotification  pub;
  gatomicrefcount  ref_count;
} AtpNotificationReal;

G_DEFINE_BOXED_TYPE (AtpNotification, atp_notification, atp_notification_ref, atp_notification_unref)

static AtpNotification *
notification_alloc (void)
{
  AtpNotificationReal *real = g_new0 (AtpNotificationReal, 1);

  g_atomic_ref_count_init (&real->ref_count);
  real->pub.context.attachments = g_ptr_array_new_with_free_func ((GDestroyNotify) atp_attachment_free);
  real->pub.actions = g_ptr_array_new_with_free_func ((GDestroyNotify) atp_action_free);
  real->pub.status = ATP_STATUS_CREATED;
  return &real->pub;
}

static gboolean
parse_actions (AtpParseCtx     *ctx,
               JsonObject      *root,
               AtpNotification *self)
{
  g_autoptr(GHashTable) ids = NULL;
  JsonArray *actions;
  guint n;
  gsize mark;

  if (!atp_read_array (ctx, root, "actions",
                       self->protocol == ATP_PROTOCOL_ATP ? ATP_READ_REQUIRED : ATP_READ_OPTIONAL,
                       &actions))
    return FALSE;

  /* A request of another protocol says what it asks in its payload. */
  n = actions != NULL ? json_array_get_length (actions) : 0;
  if (self->protocol != ATP_PROTOCOL_ATP)
    return n == 0 ? TRUE
                  : atp_parse_fail (ctx, ATP_ERROR_INVALID_FIELD_VALUE, "actions",
                                    "must be absent or empty in a request of protocol %s "
                                    "(its payload says what it asks), got %u actions",
                                    atp_protocol_to_string (self->protocol), n);
  if (n == 0)
    return atp_parse_fail (ctx, ATP_ERROR_MALFORMED_ACTION, "actions",
                           "must hold at least one action, got an empty array");

  ids = g_hash_table_new (g_str_hash, g_str_equal);
  mark = atp_parse_ctx_push (ctx, "actions");
  ctx->missing_code = ATP_ERROR_MALFORMED_ACTION;
  ctx->invalid_code = ATP_ERROR_MALFORMED_ACTION;

  for (guint i = 0; i < n; i++)
    {
      gsize item_mark = atp_parse_ctx_push_index (ctx, i);
      AtpAction *action = atp_action_parse (ctx, json_array_get_element (actions, i));

      if (action == NULL)
        return FALSE;
      g_ptr_array_add (self->actions, action);

      if (!g_hash_table_add (ids, action->id))
        return atp_parse_fail (ctx, ATP_ERROR_MALFORMED_ACTION, "id",
                               "duplicate action id \"%s\" (ids must be unique in a notification)",
                               action->id);
      atp_parse_ctx_pop (ctx, item_mark);
    }

  ctx->missing_code = ATP_ERROR_MISSING_REQUIRED_FIELD;
  ctx->invalid_code = ATP_ERROR_INVALID_FIELD_VALUE;
  atp_parse_ctx_pop (ctx, mark);
  return TRUE;
}

static gboolean
parse_notification (AtpParseCtx     *ctx,
                    JsonObject      *root,
                    AtpNotification *self)
{
  static const char * const known[] = {
    "id", "version", "protocol", "timestamp", "deadline", "service", "context", "actions",
    "status", "response", "reason", NULL
  };
  gboolean submission = (ctx->flags & ATP_PARSE_SUBMISSION) != 0;
  AtpReadFlags required = submission ? ATP_READ_OPTIONAL : ATP_READ_REQUIRED;
  const char *id, *version, *protocol, *status;
  const AtpAction *action;
  JsonNode *response;

  if (!atp_read_string (ctx, root, "id", required, &id))
    return FALSE;
  if (id != NULL)
    {
      self->id = atp_uuid_normalize (id);
      if (self->id == NULL)
        return atp_parse_fail_type (ctx, "id", "a UUID v4 (xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx)",
                          json_object_get_member (root, "id"));
    }

  if (!atp_read_string (ctx, root, "version", required, &version))
    return FALSE;
  if (version != NULL && !g_str_equal (version, ATP_PROTOCOL_VERSION))
    return atp_parse_fail_type (ctx, "version", "\"" ATP_PROTOCOL_VERSION "\"", json_object_get_member (root, "version"));
  self->version = g_strdup (ATP_PROTOCOL_VERSION);

  /* The envelope of a request of another protocol: its payload is the member
   * named like the protocol, kept as sent; that protocol's folder reads it. */
  if (!atp_read_string (ctx, root, "protocol", ATP_READ_OPTIONAL, &protocol))
    return FALSE;
  if (protocol != NULL && !atp_protocol_from_string (protocol, &self->protocol))
    return atp_parse_fail_type (ctx, "protocol", "one of atp, aitp, afp",
                                json_object_get_member (root, "protocol"));
  if (self->protocol != ATP_PROTOCOL_ATP)
    {
      const char *name = atp_protocol_to_string (self->protocol);
      JsonObject *payload;

      if (!atp_read_object (ctx, root, name, ATP_READ_REQUIRED, &payload))
        return FALSE;
      self->payload = json_node_ref (json_object_get_member (root, name));
    }

  if (!atp_read_timestamp (ctx, root, "timestamp", required, &self->timestamp) ||
      !atp_read_timestamp (ctx, root, "deadline", ATP_READ_OPTIONAL, &self->deadline))
    return FALSE;

  if (self->deadline != NULL && self->timestamp != NULL &&
      g_date_time_compare (self->deadline, self->timestamp) <= 0)
    {
      g_autofree char *deadline = atp_format_timestamp (self->deadline);
      g_autofree char *timestamp = atp_format_timestamp (self->timestamp);

      return atp_parse_fail (ctx, ATP_ERROR_INVALID_FIELD_VALUE, "deadline",
                             "must be after the timestamp (%s is not after %s)", deadline, timestamp);
    }

  if (!submission && !atp_service_parse (ctx, root, &self->service))
    return FALSE;

  if (!atp_context_parse (ctx, root, self->protocol == ATP_PROTOCOL_ATP, &self->context) ||
      !parse_actions (ctx, root, self))
    return FALSE;

  if (!submission)
    {
      if (!atp_read_string (ctx, root, "status", ATP_READ_OPTIONAL, &status))
        return FALSE;
      if (status != NULL && !atp_status_from_string (status, &self->status))
        return atp_parse_fail_type (ctx, "status", "one of created, delivered, acknowledged, responded, "
                                         "expired, invalidated",
                          json_object_get_member (root, "status"));
      if (!atp_read_string_dup (ctx, root, "reason", ATP_READ_OPTIONAL, &self->reason))
        return FALSE;

      response = atp_object_get (root, "response");
      if (response != NULL)
        {
          g_autoptr(GError) local_error = NULL;

          self->response = atp_response_new_from_json (response, &local_error);
          if (self->response == NULL)
            {
              AtpErrorCode code = local_error->code == ATP_ERROR_INVALID_REQUEST
                                  ? ATP_ERROR_INVALID_FIELD_VALUE : local_error->code;

              return atp_parse_fail (ctx, code, "response", "%s", local_error->message);
            }
          if (self->id != NULL && !g_str_equal (self->response->notification_id, self->id))
            return atp_parse_fail (ctx, ATP_ERROR_INVALID_FIELD_VALUE, "response.notification_id",
                                   "must be the id of the notification (%s), got \"%s\"",
                                   self->id, self->response->notification_id);
          /* The answer to a request of another protocol is that protocol's to check. */
          if (self->protocol != ATP_PROTOCOL_ATP)
            ;
          else if ((action = atp_notification_find_action (self, self->response->action_id)) == NULL)
            return atp_parse_fail (ctx, ATP_ERROR_INVALID_FIELD_VALUE, "response.action_id",
                                   "names no action of the notification: \"%s\"",
                                   self->response->action_id);
          /* The answer recorded must be a valid answer to that action. */
          else if (!atp_action_validate_response (action, self->response->response_data, &local_error))
            return atp_parse_fail (ctx, ATP_ERROR_INVALID_FIELD_VALUE, NULL, "response.%s",
                                   local_error->message);
        }
    }

  self->extra = atp_json_object_collect_extra_or_null (root, known);
  if (self->payload != NULL && self->extra != NULL)
    {
      json_object_remove_member (self->extra, atp_protocol_to_string (self->protocol));
      if (json_object_get_size (self->extra) == 0)
        g_clear_pointer (&self->extra, json_object_unref);
    }
  return TRUE;
}

/**
 * atp_notification_new_from_json:
 * @node: the parsed JSON
 * @flags: #AtpParseFlags
 * @error: an %ATP_ERROR naming the field (e.g. "actions[1].options.true_label")
 *   and the rule it breaks
 *
 * Applies every rule of the profile (docs/protocol.md). Parts of @node
 * (metadata, unknown members) are shared, not copied: do not change @node
 * afterwards.
 *
 * Returns: (transfer full) (nullable): a valid notification
 */
AtpNotification *
atp_notification_new_from_json (JsonNode       *node,
                                AtpParseFlags   flags,
                                GError        **error)
{
  g_autoptr(AtpNotification) self = NULL;
  g_autoptr(GString) path = NULL;
  AtpParseCtx ctx;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *got = atp_json_describe (node);

      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_REQUEST,
                   "A notification must be a JSON object, got %s", got);
      return NULL;
    }

  path = g_string_sized_new (64);
  ctx.path = path;
  ctx.flags = flags;
  ctx.missing_code = ATP_ERROR_MISSING_REQUIRED_FIELD;
  ctx.invalid_code = ATP_ERROR_INVALID_FIELD_VALUE;
  ctx.error = error;

  self = notification_alloc ();
  if (!parse_notification (&ctx, json_node_get_object (node), self))
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * atp_notification_new_from_data:
 * @data: JSON text
 * @length: its length or -1
 * @flags: #AtpParseFlags
 * @error: return location for an error
 *
 * atp_json_parse() bounded by %ATP_MAX_NOTIFICATION_SIZE, then
 * atp_notification_new_from_json().
 *
 * Returns: (transfer full) (nullable): a valid notification
 */
AtpNotification *
atp_notification_new_from_data (const char     *data,
                                gssize          length,
                                AtpParseFlags   flags,
                                GError        **error)
{
  g_autoptr(JsonNode) root = NULL;

  root = atp_json_parse (data, length, ATP_MAX_NOTIFICATION_SIZE, error);
  if (root == NULL)
    return NULL;

  return atp_notification_new_from_json (root, flags, error);
}

/**
 * atp_notification_ref:
 * @self: a notification
 *
 * Returns: (transfer full): @self
 */
AtpNotification *
atp_notification_ref (AtpNotification *self)
{
  AtpNotificationReal *real = (AtpNotificationReal *) self;

  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&real->ref_count);
  return self;
}

/**
 * atp_notification_unref:
 * @self: (transfer full): a notification
 */
void
atp_notification_unref (AtpNotification *self)
{
  AtpNotificationReal *real = (AtpNotificationReal *) self;

  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&real->ref_count))
    return;

  g_free (self->id);
  g_free (self->version);
  g_clear_pointer (&self->timestamp, g_date_time_unref);
  g_clear_pointer (&self->deadline, g_date_time_unref);
  atp_service_clear (&self->service);
  atp_context_clear (&self->context);
  g_clear_pointer (&self->payload, json_node_unref);
  g_clear_pointer (&self->actions, g_ptr_array_unref);
  g_clear_pointer (&self->response, atp_response_unref);
  g_free (self->reason);
  g_clear_pointer (&self->extra, json_object_unref);
  g_free (real);
}

static AtpNotification *
notification_copy (AtpNotification *self)
{
  AtpNotification *copy = notification_alloc ();

  copy->id = g_strdup (self->id);
  copy->version = g_strdup (self->version);
  copy->timestamp = self->timestamp != NULL ? g_date_time_ref (self->timestamp) : NULL;
  copy->deadline = self->deadline != NULL ? g_date_time_ref (self->deadline) : NULL;

  copy->protocol = self->protocol;
  copy->payload = self->payload != NULL ? json_node_ref (self->payload) : NULL;
  atp_service_copy (&copy->service, &self->service);
  atp_context_copy (&copy->context, &self->context);

  for (guint i = 0; i < self->actions->len; i++)
    g_ptr_array_add (copy->actions, atp_action_copy (g_ptr_array_index (self->actions, i)));

  copy->status = self->status;
  copy->response = self->response != NULL ? atp_response_ref (self->response) : NULL;
  copy->reason = g_strdup (self->reason);
  copy->extra = self->extra != NULL ? json_object_ref (self->extra) : NULL;
  return copy;
}

/**
 * atp_notification_complete:
 * @self: a notification only the caller holds
 * @id: (nullable): a new id (a UUID v4), or %NULL to keep it
 * @timestamp: (nullable): a new timestamp, or %NULL to keep it
 * @service_id: (nullable): a new service id, or %NULL to keep it
 * @service_name: (nullable): a new service name, or %NULL to keep it
 * @service_icon: (nullable): a new service icon, or %NULL to keep it
 * @status: a new #AtpStatus, or -1 to keep it
 *
 * What atp_notification_copy_with() does, in place: the way a server
 * completes a submission it has just parsed, without a copy of it. The values
 * are trusted (they come from the server itself), not validated.
 */
void
atp_notification_complete (AtpNotification *self,
                           const char      *id,
                           GDateTime       *timestamp,
                           const char      *service_id,
                           const char      *service_name,
                           const char      *service_icon,
                           int              status)
{
  g_return_if_fail (self != NULL);

  /* Each new value is made before the old one goes: it may be the same string. */
  if (id != NULL)
    {
      char *lower = g_ascii_strdown (id, -1);

      g_free (self->id);
      self->id = lower;
    }
  if (timestamp != NULL)
    {
      GDateTime *old = self->timestamp;

      self->timestamp = g_date_time_ref (timestamp);
      g_clear_pointer (&old, g_date_time_unref);
    }
  if (service_id != NULL)
    {
      char *copy = g_strdup (service_id);

      g_free (self->service.id);
      self->service.id = copy;
    }
  if (service_name != NULL)
    {
      char *copy = g_strdup (service_name);

      g_free (self->service.name);
      self->service.name = copy;
    }
  if (service_icon != NULL)
    {
      char *copy = g_strdup (service_icon);

      g_free (self->service.icon);
      self->service.icon = copy;
    }
  if (status >= 0)
    self->status = (AtpStatus) status;
}

/**
 * atp_notification_copy_with:
 * @self: a notification
 * @id: (nullable): a new id (a UUID v4), or %NULL to keep it
 * @timestamp: (nullable): a new timestamp, or %NULL to keep it
 * @service_id: (nullable): a new service id, or %NULL to keep it
 * @service_name: (nullable): a new service name, or %NULL to keep it
 * @service_icon: (nullable): a new service icon, or %NULL to keep it
 * @status: a new #AtpStatus, or -1 to keep it
 *
 * A copy completed as atp_notification_complete() says.
 *
 * Returns: (transfer full): the copy
 */
AtpNotification *
atp_notification_copy_with (AtpNotification *self,
                            const char      *id,
                            GDateTime       *timestamp,
                            const char      *service_id,
                            const char      *service_name,
                            const char      *service_icon,
                            int              status)
{
  AtpNotification *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = notification_copy (self);
  atp_notification_complete (copy, id, timestamp, service_id, service_name, service_icon, status);
  return copy;
}

/**
 * atp_notification_copy_with_response:
 * @self: a notification
 * @response: (nullable): its response, or %NULL to drop it
 *
 * The status is kept; set it with atp_notification_copy_with().
 *
 * Returns: (transfer full): the copy
 */
AtpNotification *
atp_notification_copy_with_response (AtpNotification *self,
                                     AtpResponse     *response)
{
  AtpNotification *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = notification_copy (self);
  g_clear_pointer (&copy->response, atp_response_unref);
  copy->response = response != NULL ? atp_response_ref (response) : NULL;
  return copy;
}

static void
set_timestamp_member (JsonObject *object,
                      const char *name,
                      GDateTime  *time)
{
  g_autofree char *text = NULL;

  if (time == NULL)
    return;
  text = atp_format_timestamp (time);
  json_object_set_string_member (object, name, text);
}

/* @name of @object set to the string @value: an existing string member's
 * node takes the new value (no node made and swapped in the table). */
static void
set_string_in_place (JsonObject *object,
                     const char *name,
                     const char *value)
{
  JsonNode *member = json_object_get_member (object, name);

  if (member != NULL && JSON_NODE_HOLDS_VALUE (member) &&
      json_node_get_value_type (member) == G_TYPE_STRING)
    json_node_set_string (member, value);
  else
    json_object_set_string_member (object, name, value);
}

static void
set_timestamp_in_place (JsonObject *object,
                        const char *name,
                        GDateTime  *time)
{
  g_autofree char *text = atp_format_timestamp (time);

  set_string_in_place (object, name, text);
}

/**
 * atp_notification_complete_json:
 * @self: an ATP notification, parsed from @node and completed with
 *   atp_notification_complete()
 * @node: the JSON object @self was parsed from (atp_notification_new_from_json())
 *
 * Makes @node, in place, the notification atp_notification_to_json() would
 * build again: the id, version, timestamp and deadline (in UTC), service and
 * status are set from @self; what a submission may not set (a response, a
 * reason for its withdrawal) goes, and so does "protocol" (ATP is the
 * default); every other member stays as it was sent, in the order it was
 * sent (JSON objects have none that counts). A server stores and sends the text of @node once written,
 * instead of a tree built again from @self, written and freed. The parts
 * @self shares with @node (metadata, unknown members) are left alone.
 */
void
atp_notification_complete_json (AtpNotification *self,
                                JsonNode        *node)
{
  JsonObject *object;
  JsonObject *service;

  g_return_if_fail (self != NULL && self->protocol == ATP_PROTOCOL_ATP);
  g_return_if_fail (node != NULL && JSON_NODE_HOLDS_OBJECT (node));

  object = json_node_get_object (node);
  if (self->id != NULL)
    set_string_in_place (object, "id", self->id);
  set_string_in_place (object, "version", self->version);
  if (json_object_has_member (object, "protocol"))
    json_object_remove_member (object, "protocol");
  if (self->timestamp != NULL)
    set_timestamp_in_place (object, "timestamp", self->timestamp);
  if (self->deadline != NULL)
    set_timestamp_in_place (object, "deadline", self->deadline);
  else if (json_object_has_member (object, "deadline"))
    json_object_remove_member (object, "deadline");
  service = atp_service_to_json (&self->service);
  if (service != NULL)
    json_object_set_object_member (object, "service", service);
  else if (json_object_has_member (object, "service"))
    json_object_remove_member (object, "service");
  set_string_in_place (object, "status", atp_status_to_string (self->status));
  if (self->response != NULL)
    json_object_set_member (object, "response", atp_response_to_json (self->response));
  else if (json_object_has_member (object, "response"))
    json_object_remove_member (object, "response");
  if (self->reason != NULL)
    set_string_in_place (object, "reason", self->reason);
  else if (json_object_has_member (object, "reason"))
    json_object_remove_member (object, "reason");
}

/**
 * atp_notification_to_json:
 * @self: a notification
 *
 * Members in a fixed order (the profile's), unknown ones after the known
 * ones, times in UTC. Parsing the result gives an equal notification.
 *
 * Returns: (transfer full): the notification object
 */
JsonNode *
atp_notification_to_json (AtpNotification *self)
{
  g_autoptr(JsonObject) object = NULL;
  JsonObject *service;
  JsonNode *node;

  g_return_val_if_fail (self != NULL, NULL);

  object = json_object_new ();

  if (self->id != NULL)
    json_object_set_string_member (object, "id", self->id);
  json_object_set_string_member (object, "version", self->version);
  if (self->protocol != ATP_PROTOCOL_ATP)
    json_object_set_string_member (object, "protocol", atp_protocol_to_string (self->protocol));
  set_timestamp_member (object, "timestamp", self->timestamp);
  set_timestamp_member (object, "deadline", self->deadline);

  service = atp_service_to_json (&self->service);
  if (service != NULL)
    json_object_set_object_member (object, "service", service);
  json_object_set_object_member (object, "context", atp_context_to_json (&self->context));

  if (self->payload != NULL)
    json_object_set_member (object, atp_protocol_to_string (self->protocol),
                            json_node_ref (self->payload));
  if (self->protocol == ATP_PROTOCOL_ATP)
    {
      JsonArray *actions = json_array_sized_new (self->actions->len);

      for (guint i = 0; i < self->actions->len; i++)
        json_array_add_element (actions, atp_action_to_json (g_ptr_array_index (self->actions, i)));
      json_object_set_array_member (object, "actions", actions);
    }

  json_object_set_string_member (object, "status", atp_status_to_string (self->status));
  if (self->response != NULL)
    json_object_set_member (object, "response", atp_response_to_json (self->response));
  if (self->reason != NULL)
    json_object_set_string_member (object, "reason", self->reason);

  atp_json_object_append_extra (object, self->extra);

  node = json_node_alloc ();
  json_node_init_object (node, object);
  return node;
}

/**
 * atp_notification_to_string:
 * @self: a notification
 * @length: (out) (optional): the length of the text
 *
 * Returns: (transfer full): the compact JSON text of atp_notification_to_json()
 */
char *
atp_notification_to_string (AtpNotification *self,
                            gsize           *length)
{
  g_autoptr(JsonNode) node = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  node = atp_notification_to_json (self);
  return atp_json_to_string (node, length);
}

/**
 * atp_notification_find_action:
 * @self: a notification
 * @action_id: (nullable): an action id
 *
 * Returns: (transfer none) (nullable): the action with that id
 */
const AtpAction *
atp_notification_find_action (AtpNotification *self,
                              const char      *action_id)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (action_id == NULL)
    return NULL;

  for (guint i = 0; i < self->actions->len; i++)
    {
      const AtpAction *action = g_ptr_array_index (self->actions, i);

      if (g_str_equal (action->id, action_id))
        return action;
    }

  return NULL;
}

/**
 * atp_notification_get_flags:
 * @self: a notification
 *
 * Returns: the union of the known flags of all actions
 */
AtpFlags
atp_notification_get_flags (AtpNotification *self)
{
  AtpFlags flags = ATP_FLAG_NONE;

  g_return_val_if_fail (self != NULL, ATP_FLAG_NONE);

  for (guint i = 0; i < self->actions->len; i++)
    flags |= ((const AtpAction *) g_ptr_array_index (self->actions, i))->flags;

  return flags;
}
