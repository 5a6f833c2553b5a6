/* atp-notification.c — the ATP notification: parsing, checks, output
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

/* ------------------------------------------------------------------------ */
/* Parse context                                                             */
/* ------------------------------------------------------------------------ */

gsize
atp_parse_ctx_push (AtpParseCtx *ctx,
                    const char  *field)
{
  gsize length = ctx->path->len;

  if (length > 0)
    g_string_append_c (ctx->path, '.');
  g_string_append (ctx->path, field);
  return length;
}

gsize
atp_parse_ctx_push_index (AtpParseCtx *ctx,
                          guint        index)
{
  gsize length = ctx->path->len;

  g_string_append_printf (ctx->path, "[%u]", index);
  return length;
}

void
atp_parse_ctx_pop (AtpParseCtx *ctx,
                   gsize        length)
{
  g_string_truncate (ctx->path, length);
}

gboolean
atp_parse_fail (AtpParseCtx  *ctx,
                AtpErrorCode  code,
                const char   *field,
                const char   *format,
                ...)
{
  g_autofree char *what = NULL;
  g_autoptr(GString) where = g_string_new (ctx->path->str);
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  if (field != NULL)
    {
      if (where->len > 0)
        g_string_append_c (where, '.');
      g_string_append (where, field);
    }

  if (where->len > 0)
    g_set_error (ctx->error, ATP_ERROR, code, "%s: %s", where->str, what);
  else
    g_set_error_literal (ctx->error, ATP_ERROR, code, what);

  return FALSE;
}

gboolean
atp_parse_fail_type (AtpParseCtx *ctx,
           const char  *name,
           const char  *expected,
           JsonNode    *node)
{
  g_autofree char *got = atp_json_describe (node);

  return atp_parse_fail (ctx, ctx->invalid_code, name, "must be %s, got %s", expected, got);
}

gboolean
atp_parse_fail_missing (AtpParseCtx *ctx,
              const char  *name)
{
  return atp_parse_fail (ctx, ctx->missing_code, name, "required field is missing");
}

static inline gboolean
node_is_string (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

gboolean
atp_read_string (AtpParseCtx   *ctx,
                 JsonObject    *object,
                 const char    *name,
                 AtpReadFlags   flags,
                 const char   **value)
{
  JsonNode *node = atp_object_get (object, name);
  const char *text;

  *value = NULL;

  if (node == NULL)
    return (flags & ATP_READ_REQUIRED) ? atp_parse_fail_missing (ctx, name) : TRUE;

  if (!node_is_string (node))
    return atp_parse_fail_type (ctx, name, (flags & (ATP_READ_NOT_EMPTY | ATP_READ_NOT_BLANK))
                                   ? "a non-empty string" : "a string", node);

  text = json_node_get_string (node);
  if ((flags & ATP_READ_NOT_EMPTY) && *text == '\0')
    return atp_parse_fail_type (ctx, name, "a non-empty string", node);
  if ((flags & ATP_READ_NOT_BLANK) && atp_str_is_blank (text))
    return atp_parse_fail_type (ctx, name, "a non-empty string (not only spaces)", node);

  *value = text;
  return TRUE;
}

#define MAX_EXACT_INT 9007199254740992.0 /* 2^53 */

gboolean
atp_read_integer (AtpParseCtx *ctx,
                  JsonObject  *object,
                  const char  *name,
                  gboolean     non_negative,
                  gboolean    *present,
                  gint64      *value)
{
  JsonNode *node = atp_object_get (object, name);
  const char *expected = non_negative ? "an integer ≥ 0" : "an integer";
  double number;

  *present = FALSE;
  if (node == NULL)
    return TRUE;

  /* JSON has numbers, not integers: 3 and 3.0 are the same integer. Beyond
   * 2^53 a double cannot hold every integer, so neither is accepted there. */
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
    {
      *value = json_node_get_int (node);
      if (*value < -(gint64) MAX_EXACT_INT || *value > (gint64) MAX_EXACT_INT)
        return atp_parse_fail_type (ctx, name, expected, node);
    }
  else if (atp_json_node_get_number (node, &number) &&
           number >= -MAX_EXACT_INT && number <= MAX_EXACT_INT && number == floor (number))
    {
      *value = (gint64) number;
    }
  else
    {
      return atp_parse_fail_type (ctx, name, expected, node);
    }

  if (non_negative && *value < 0)
    return atp_parse_fail_type (ctx, name, expected, node);

  *present = TRUE;
  return TRUE;
}

gboolean
atp_read_number (AtpParseCtx *ctx,
                 JsonObject  *object,
                 const char  *name,
                 gboolean    *present,
                 double      *value)
{
  JsonNode *node = atp_object_get (object, name);

  *present = FALSE;
  if (node == NULL)
    return TRUE;

  if (!atp_json_node_get_number (node, value))
    return atp_parse_fail_type (ctx, name, "a number", node);

  *present = TRUE;
  return TRUE;
}

gboolean
atp_read_object (AtpParseCtx   *ctx,
                 JsonObject    *object,
                 const char    *name,
                 AtpReadFlags   flags,
                 JsonObject   **value)
{
  JsonNode *node = atp_object_get (object, name);

  *value = NULL;
  if (node == NULL)
    return (flags & ATP_READ_REQUIRED) ? atp_parse_fail_missing (ctx, name) : TRUE;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return atp_parse_fail_type (ctx, name, "an object", node);

  *value = json_node_get_object (node);
  return TRUE;
}

gboolean
atp_read_array (AtpParseCtx   *ctx,
                JsonObject    *object,
                const char    *name,
                AtpReadFlags   flags,
                JsonArray    **value)
{
  JsonNode *node = atp_object_get (object, name);

  *value = NULL;
  if (node == NULL)
    return (flags & ATP_READ_REQUIRED) ? atp_parse_fail_missing (ctx, name) : TRUE;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    return atp_parse_fail_type (ctx, name, "an array", node);

  *value = json_node_get_array (node);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Parts                                                                     */
/* ------------------------------------------------------------------------ */

static void
attachment_free (AtpAttachment *attachment)
{
  g_free (attachment->type);
  g_free (attachment->description);
  g_free (attachment->uri);
  g_free (attachment->data);
  g_clear_pointer (&attachment->extra, json_object_unref);
  g_free (attachment);
}

static AtpAttachment *
attachment_copy (const AtpAttachment *from)
{
  AtpAttachment *to = g_new0 (AtpAttachment, 1);

  to->type = g_strdup (from->type);
  to->description = g_strdup (from->description);
  to->uri = g_strdup (from->uri);
  to->data = g_strdup (from->data);
  to->decoded_size = from->decoded_size;
  to->extra = json_object_ref (from->extra);
  return to;
}

static void
service_clear (AtpService *service)
{
  g_clear_pointer (&service->id, g_free);
  g_clear_pointer (&service->name, g_free);
  g_clear_pointer (&service->icon, g_free);
  g_clear_pointer (&service->extra, json_object_unref);
}

static void
context_clear (AtpContext *context)
{
  g_clear_pointer (&context->title, g_free);
  g_clear_pointer (&context->description, g_free);
  g_clear_pointer (&context->project, g_free);
  g_clear_pointer (&context->metadata, json_object_unref);
  g_clear_pointer (&context->attachments, g_ptr_array_unref);
  g_clear_pointer (&context->extra, json_object_unref);
}

static AtpNotification *
notification_alloc (void)
{
  AtpNotificationReal *real = g_new0 (AtpNotificationReal, 1);

  g_atomic_ref_count_init (&real->ref_count);
  real->pub.context.attachments = g_ptr_array_new_with_free_func ((GDestroyNotify) attachment_free);
  real->pub.actions = g_ptr_array_new_with_free_func ((GDestroyNotify) atp_action_free);
  real->pub.status = ATP_STATUS_CREATED;
  return &real->pub;
}

/* Why @data is not strict base64, for the error message (slow path). */
static char *
base64_problem (const char *data,
                gsize       length)
{
  gsize padding = 0;

  if (length % 4 != 0)
    return g_strdup_printf ("its length %" G_GSIZE_FORMAT " is not a multiple of 4 "
                            "(padding with '=' is required)", length);

  if (length > 0 && data[length - 1] == '=')
    padding = (length > 1 && data[length - 2] == '=') ? 2 : 1;

  for (gsize i = 0; i < length - padding; i++)
    {
      guchar c = data[i];

      if (!g_ascii_isalnum (c) && c != '+' && c != '/')
        {
          if (c >= 0x20 && c < 0x7f)
            return g_strdup_printf ("character '%c' at offset %" G_GSIZE_FORMAT
                                    " is not in the base64 alphabet", c, i);
          return g_strdup_printf ("byte 0x%02x at offset %" G_GSIZE_FORMAT
                                  " is not in the base64 alphabet", c, i);
        }
    }

  return g_strdup ("the bits cut off by the padding are not zero (not canonical base64)");
}

static AtpAttachment *
parse_attachment (AtpParseCtx *ctx,
                  JsonNode    *node)
{
  static const char * const known[] = { "type", "description", "uri", "data", NULL };
  AtpAttachment *attachment;
  const char *type, *description, *uri, *data;
  JsonObject *object;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      atp_parse_fail_type (ctx, NULL, "an object", node);
      return NULL;
    }
  object = json_node_get_object (node);

  if (!atp_read_string (ctx, object, "type", ATP_READ_REQUIRED, &type) ||
      !atp_read_string (ctx, object, "description", ATP_READ_OPTIONAL, &description) ||
      !atp_read_string (ctx, object, "uri", ATP_READ_OPTIONAL, &uri) ||
      !atp_read_string (ctx, object, "data", ATP_READ_OPTIONAL, &data))
    return NULL;

  if (!atp_mime_type_is_valid (type))
    {
      atp_parse_fail_type (ctx, "type", "a MIME type such as \"text/plain\"", json_object_get_member (object, "type"));
      return NULL;
    }

  if (uri != NULL && data != NULL)
    {
      atp_parse_fail (ctx, ATP_ERROR_INVALID_FIELD_VALUE, NULL,
                      "has both uri and data; exactly one of them is allowed");
      return NULL;
    }
  if (uri == NULL && data == NULL)
    {
      atp_parse_fail (ctx, ATP_ERROR_MISSING_REQUIRED_FIELD, NULL,
                      "needs exactly one of uri and data, has neither");
      return NULL;
    }

  if (uri != NULL && !atp_uri_is_absolute (uri))
    {
      atp_parse_fail_type (ctx, "uri", "an absolute URI with a scheme", json_object_get_member (object, "uri"));
      return NULL;
    }

  attachment = g_new0 (AtpAttachment, 1);

  if (data != NULL)
    {
      gsize length = strlen (data);

      if (!atp_base64_check (data, length, &attachment->decoded_size))
        {
          g_autofree char *problem = base64_problem (data, length);

          atp_parse_fail (ctx, ATP_ERROR_INVALID_FIELD_VALUE, "data", "is not valid base64: %s", problem);
          g_free (attachment);
          return NULL;
        }
    }

  attachment->type = g_strdup (type);
  attachment->description = g_strdup (description);
  attachment->uri = g_strdup (uri);
  attachment->data = g_strdup (data);
  attachment->extra = atp_json_object_collect_extra (object, known);
  return attachment;
}

static gboolean
parse_service (AtpParseCtx *ctx,
               JsonObject  *root,
               AtpService  *service)
{
  static const char * const known[] = { "id", "name", "icon", NULL };
  JsonObject *object;
  const char *id, *name, *icon;
  gsize mark;

  if (!atp_read_object (ctx, root, "service", ATP_READ_REQUIRED, &object))
    return FALSE;

  mark = atp_parse_ctx_push (ctx, "service");
  if (!atp_read_string (ctx, object, "id", ATP_READ_REQUIRED | ATP_READ_NOT_EMPTY, &id) ||
      !atp_read_string (ctx, object, "name", ATP_READ_REQUIRED | ATP_READ_NOT_BLANK, &name) ||
      !atp_read_string (ctx, object, "icon", ATP_READ_OPTIONAL, &icon))
    return FALSE;

  if (icon != NULL && !atp_uri_is_absolute (icon))
    return atp_parse_fail_type (ctx, "icon", "an absolute URI with a scheme", json_object_get_member (object, "icon"));
  atp_parse_ctx_pop (ctx, mark);

  service->id = g_strdup (id);
  service->name = g_strdup (name);
  service->icon = g_strdup (icon);
  service->extra = atp_json_object_collect_extra (object, known);
  return TRUE;
}

static gboolean
parse_context (AtpParseCtx *ctx,
               JsonObject  *root,
               AtpContext  *context)
{
  static const char * const known[] = {
    "title", "description", "project", "metadata", "attachments", NULL
  };
  JsonObject *object, *metadata;
  JsonArray *attachments;
  const char *title, *description, *project;
  gsize mark;

  if (!atp_read_object (ctx, root, "context", ATP_READ_REQUIRED, &object))
    return FALSE;

  mark = atp_parse_ctx_push (ctx, "context");
  if (!atp_read_string (ctx, object, "title", ATP_READ_REQUIRED | ATP_READ_NOT_BLANK, &title) ||
      !atp_read_string (ctx, object, "description", ATP_READ_REQUIRED | ATP_READ_NOT_BLANK, &description) ||
      !atp_read_string (ctx, object, "project", ATP_READ_OPTIONAL, &project) ||
      !atp_read_object (ctx, object, "metadata", ATP_READ_OPTIONAL, &metadata) ||
      !atp_read_array (ctx, object, "attachments", ATP_READ_OPTIONAL, &attachments))
    return FALSE;

  if (attachments != NULL)
    {
      guint n = json_array_get_length (attachments);
      gsize list_mark = atp_parse_ctx_push (ctx, "attachments");

      for (guint i = 0; i < n; i++)
        {
          gsize item_mark = atp_parse_ctx_push_index (ctx, i);
          AtpAttachment *attachment = parse_attachment (ctx, json_array_get_element (attachments, i));

          if (attachment == NULL)
            return FALSE;
          g_ptr_array_add (context->attachments, attachment);
          atp_parse_ctx_pop (ctx, item_mark);
        }
      atp_parse_ctx_pop (ctx, list_mark);
    }
  atp_parse_ctx_pop (ctx, mark);

  context->title = g_strdup (title);
  context->description = g_strdup (description);
  context->project = g_strdup (project);
  context->metadata = metadata != NULL ? json_object_ref (metadata) : NULL;
  context->extra = atp_json_object_collect_extra (object, known);
  return TRUE;
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

  if (!atp_read_array (ctx, root, "actions", ATP_READ_REQUIRED, &actions))
    return FALSE;

  n = json_array_get_length (actions);
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
parse_timestamp_field (AtpParseCtx  *ctx,
                       JsonObject   *root,
                       const char   *name,
                       AtpReadFlags  flags,
                       GDateTime   **value)
{
  const char *text;

  if (!atp_read_string (ctx, root, name, flags, &text))
    return FALSE;
  if (text == NULL)
    return TRUE;

  *value = atp_parse_timestamp (text);
  if (*value == NULL)
    return atp_parse_fail_type (ctx, name, "an RFC 3339 date-time with a time zone offset "
                                 "(e.g. \"2025-05-25T10:30:00Z\")",
                      json_object_get_member (root, name));
  return TRUE;
}

static gboolean
parse_notification (AtpParseCtx     *ctx,
                    JsonObject      *root,
                    AtpNotification *self)
{
  static const char * const known[] = {
    "id", "version", "timestamp", "deadline", "service", "context", "actions",
    "status", "response", NULL
  };
  gboolean submission = (ctx->flags & ATP_PARSE_SUBMISSION) != 0;
  AtpReadFlags required = submission ? ATP_READ_OPTIONAL : ATP_READ_REQUIRED;
  const char *id, *version, *status;
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

  if (!parse_timestamp_field (ctx, root, "timestamp", required, &self->timestamp) ||
      !parse_timestamp_field (ctx, root, "deadline", ATP_READ_OPTIONAL, &self->deadline))
    return FALSE;

  if (self->deadline != NULL && self->timestamp != NULL &&
      g_date_time_compare (self->deadline, self->timestamp) <= 0)
    {
      g_autofree char *deadline = atp_format_timestamp (self->deadline);
      g_autofree char *timestamp = atp_format_timestamp (self->timestamp);

      return atp_parse_fail (ctx, ATP_ERROR_INVALID_FIELD_VALUE, "deadline",
                             "must be after the timestamp (%s is not after %s)", deadline, timestamp);
    }

  if (!submission && !parse_service (ctx, root, &self->service))
    return FALSE;

  if (!parse_context (ctx, root, &self->context) ||
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
          action = atp_notification_find_action (self, self->response->action_id);
          if (action == NULL)
            return atp_parse_fail (ctx, ATP_ERROR_INVALID_FIELD_VALUE, "response.action_id",
                                   "names no action of the notification: \"%s\"",
                                   self->response->action_id);
          /* The answer recorded must be a valid answer to that action. */
          if (!atp_action_validate_response (action, self->response->response_data, &local_error))
            return atp_parse_fail (ctx, ATP_ERROR_INVALID_FIELD_VALUE, NULL, "response.%s",
                                   local_error->message);
        }
    }

  self->extra = atp_json_object_collect_extra (root, known);
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
  service_clear (&self->service);
  context_clear (&self->context);
  g_clear_pointer (&self->actions, g_ptr_array_unref);
  g_clear_pointer (&self->response, atp_response_unref);
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

  copy->service.id = g_strdup (self->service.id);
  copy->service.name = g_strdup (self->service.name);
  copy->service.icon = g_strdup (self->service.icon);
  copy->service.extra = self->service.extra != NULL ? json_object_ref (self->service.extra) : NULL;

  copy->context.title = g_strdup (self->context.title);
  copy->context.description = g_strdup (self->context.description);
  copy->context.project = g_strdup (self->context.project);
  copy->context.metadata = self->context.metadata != NULL ? json_object_ref (self->context.metadata) : NULL;
  for (guint i = 0; i < self->context.attachments->len; i++)
    g_ptr_array_add (copy->context.attachments, attachment_copy (g_ptr_array_index (self->context.attachments, i)));
  copy->context.extra = self->context.extra != NULL ? json_object_ref (self->context.extra) : NULL;

  for (guint i = 0; i < self->actions->len; i++)
    g_ptr_array_add (copy->actions, atp_action_copy (g_ptr_array_index (self->actions, i)));

  copy->status = self->status;
  copy->response = self->response != NULL ? atp_response_ref (self->response) : NULL;
  copy->extra = self->extra != NULL ? json_object_ref (self->extra) : NULL;
  return copy;
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
 * The way a server completes a submission. The values are trusted (they come
 * from the server itself), not validated.
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

  if (id != NULL)
    {
      g_free (copy->id);
      copy->id = g_ascii_strdown (id, -1);
    }
  if (timestamp != NULL)
    {
      g_clear_pointer (&copy->timestamp, g_date_time_unref);
      copy->timestamp = g_date_time_ref (timestamp);
    }
  if (service_id != NULL)
    {
      g_free (copy->service.id);
      copy->service.id = g_strdup (service_id);
    }
  if (service_name != NULL)
    {
      g_free (copy->service.name);
      copy->service.name = g_strdup (service_name);
    }
  if (service_icon != NULL)
    {
      g_free (copy->service.icon);
      copy->service.icon = g_strdup (service_icon);
    }
  if (status >= 0)
    copy->status = (AtpStatus) status;

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

static JsonNode *
attachment_to_json (const AtpAttachment *attachment)
{
  JsonObject *object = json_object_new ();
  JsonNode *node = json_node_alloc ();

  json_object_set_string_member (object, "type", attachment->type);
  if (attachment->description != NULL)
    json_object_set_string_member (object, "description", attachment->description);
  if (attachment->uri != NULL)
    json_object_set_string_member (object, "uri", attachment->uri);
  if (attachment->data != NULL)
    json_object_set_string_member (object, "data", attachment->data);
  atp_json_object_append_extra (object, attachment->extra);

  json_node_init_object (node, object);
  json_object_unref (object);
  return node;
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
  JsonObject *context;
  JsonNode *node;

  g_return_val_if_fail (self != NULL, NULL);

  object = json_object_new ();

  if (self->id != NULL)
    json_object_set_string_member (object, "id", self->id);
  json_object_set_string_member (object, "version", self->version);
  set_timestamp_member (object, "timestamp", self->timestamp);
  set_timestamp_member (object, "deadline", self->deadline);

  if (self->service.id != NULL || self->service.name != NULL)
    {
      JsonObject *service = json_object_new ();

      if (self->service.id != NULL)
        json_object_set_string_member (service, "id", self->service.id);
      if (self->service.name != NULL)
        json_object_set_string_member (service, "name", self->service.name);
      if (self->service.icon != NULL)
        json_object_set_string_member (service, "icon", self->service.icon);
      atp_json_object_append_extra (service, self->service.extra);
      json_object_set_object_member (object, "service", service);
    }

  context = json_object_new ();
  json_object_set_string_member (context, "title", self->context.title);
  json_object_set_string_member (context, "description", self->context.description);
  if (self->context.project != NULL)
    json_object_set_string_member (context, "project", self->context.project);
  if (self->context.metadata != NULL)
    json_object_set_object_member (context, "metadata", json_object_ref (self->context.metadata));
  if (self->context.attachments->len > 0)
    {
      JsonArray *attachments = json_array_sized_new (self->context.attachments->len);

      for (guint i = 0; i < self->context.attachments->len; i++)
        json_array_add_element (attachments, attachment_to_json (g_ptr_array_index (self->context.attachments, i)));
      json_object_set_array_member (context, "attachments", attachments);
    }
  atp_json_object_append_extra (context, self->context.extra);
  json_object_set_object_member (object, "context", context);

  {
    JsonArray *actions = json_array_sized_new (self->actions->len);

    for (guint i = 0; i < self->actions->len; i++)
      json_array_add_element (actions, atp_action_to_json (g_ptr_array_index (self->actions, i)));
    json_object_set_array_member (object, "actions", actions);
  }

  json_object_set_string_member (object, "status", atp_status_to_string (self->status));
  if (self->response != NULL)
    json_object_set_member (object, "response", atp_response_to_json (self->response));

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

/**
 * atp_attachment_decode:
 * @attachment: an attachment
 * @error: %ATP_ERROR_INVALID_FIELD_VALUE for a uri attachment
 *
 * Returns: (transfer full) (nullable): the decoded inline data
 */
GBytes *
atp_attachment_decode (const AtpAttachment  *attachment,
                       GError              **error)
{
  guchar *bytes;
  gsize length = 0;

  g_return_val_if_fail (attachment != NULL, NULL);

  if (attachment->data == NULL)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                   "The attachment has no inline data (it refers to %s)",
                   attachment->uri != NULL ? attachment->uri : "nothing");
      return NULL;
    }

  if (attachment->data[0] == '\0')
    return g_bytes_new (NULL, 0);

  /* The text was checked strictly when parsed, so this cannot go wrong. */
  bytes = g_base64_decode (attachment->data, &length);
  return g_bytes_new_take (bytes, length);
}
