/* atp-context.c — the parts every request has: service, context, attachments
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-context"

#include <string.h>

#include "atp-error.h"
#include "atp-json.h"
#include "atp-notification-private.h"
#include "atp-private.h"

void
atp_attachment_free (AtpAttachment *attachment)
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

void
atp_service_clear (AtpService *service)
{
  g_clear_pointer (&service->id, g_free);
  g_clear_pointer (&service->name, g_free);
  g_clear_pointer (&service->icon, g_free);
  g_clear_pointer (&service->extra, json_object_unref);
}

void
atp_context_clear (AtpContext *context)
{
  g_clear_pointer (&context->title, g_free);
  g_clear_pointer (&context->description, g_free);
  g_clear_pointer (&context->project, g_free);
  g_clear_pointer (&context->metadata, json_object_unref);
  g_clear_pointer (&context->attachments, g_ptr_array_unref);
  g_clear_pointer (&context->extra, json_object_unref);
}


void
atp_service_copy (AtpService       *to,
                  const AtpService *from)
{
  to->id = g_strdup (from->id);
  to->name = g_strdup (from->name);
  to->icon = g_strdup (from->icon);
  to->extra = from->extra != NULL ? json_object_ref (from->extra) : NULL;
}

/* @to->attachments must be an empty array. */
void
atp_context_copy (AtpContext       *to,
                  const AtpContext *from)
{
  to->title = g_strdup (from->title);
  to->description = g_strdup (from->description);
  to->project = g_strdup (from->project);
  to->metadata = from->metadata != NULL ? json_object_ref (from->metadata) : NULL;
  for (guint i = 0; i < from->attachments->len; i++)
    g_ptr_array_add (to->attachments, attachment_copy (g_ptr_array_index (from->attachments, i)));
  to->extra = from->extra != NULL ? json_object_ref (from->extra) : NULL;
}

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

gboolean
atp_service_parse (AtpParseCtx *ctx,
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
  service->extra = atp_json_object_collect_extra_or_null (object, known);
  return TRUE;
}

gboolean
atp_context_parse (AtpParseCtx *ctx,
                   JsonObject  *root,
                   gboolean     description_required,
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
      !atp_read_string (ctx, object, "description",
                        (description_required ? ATP_READ_REQUIRED : ATP_READ_OPTIONAL) | ATP_READ_NOT_BLANK,
                        &description) ||
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
  context->extra = atp_json_object_collect_extra_or_null (object, known);
  return TRUE;
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

/* NULL when the service has neither id nor name (a submission). */
JsonObject *
atp_service_to_json (const AtpService *service)
{
  JsonObject *object;

  if (service->id == NULL && service->name == NULL)
    return NULL;

  object = json_object_new ();
  if (service->id != NULL)
    json_object_set_string_member (object, "id", service->id);
  if (service->name != NULL)
    json_object_set_string_member (object, "name", service->name);
  if (service->icon != NULL)
    json_object_set_string_member (object, "icon", service->icon);
  atp_json_object_append_extra (object, service->extra);
  return object;
}

JsonObject *
atp_context_to_json (const AtpContext *context)
{
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "title", context->title);
  if (context->description != NULL)
    json_object_set_string_member (object, "description", context->description);
  if (context->project != NULL)
    json_object_set_string_member (object, "project", context->project);
  if (context->metadata != NULL)
    json_object_set_object_member (object, "metadata", json_object_ref (context->metadata));
  if (context->attachments->len > 0)
    {
      JsonArray *attachments = json_array_sized_new (context->attachments->len);

      for (guint i = 0; i < context->attachments->len; i++)
        json_array_add_element (attachments, attachment_to_json (g_ptr_array_index (context->attachments, i)));
      json_object_set_array_member (object, "attachments", attachments);
    }
  atp_json_object_append_extra (object, context->extra);
  return object;
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

/**
 * atp_attachment_type_is_json:
 * @mime_type: a MIME type
 *
 * Returns: whether an attachment of @mime_type holds JSON
 */
gboolean
atp_attachment_type_is_json (const char *mime_type)
{
  g_return_val_if_fail (mime_type != NULL, FALSE);

  return g_str_equal (mime_type, "application/json") ||
         g_str_equal (mime_type, "text/json") ||
         g_str_has_suffix (mime_type, "+json");
}

/**
 * atp_attachment_type_is_text:
 * @mime_type: a MIME type
 *
 * The app previews an attachment of such a type as text, and text under
 * another type not at all: what triage-ask --hook gives the content of a
 * Write follows the same rule.
 *
 * Returns: whether an attachment of @mime_type is text
 */
gboolean
atp_attachment_type_is_text (const char *mime_type)
{
  g_return_val_if_fail (mime_type != NULL, FALSE);

  return g_str_has_prefix (mime_type, "text/") ||
         atp_attachment_type_is_json (mime_type) ||
         g_str_has_suffix (mime_type, "+xml") ||
         g_content_type_is_a (mime_type, "text/plain");
}
