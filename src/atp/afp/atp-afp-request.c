/* atp-afp-request.c — the AFP Request Object (artifact, applied_feedback)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-afp"

#include "atp-afp-private.h"

#include <string.h>

#include "atp-json.h"
#include "atp-types.h"

G_DEFINE_BOXED_TYPE (AtpAfpRequest, atp_afp_request, atp_afp_request_ref, atp_afp_request_unref)

static const char * const applied_status_names[] = { "accepted", "rejected", "partial" };

const char *
atp_afp_applied_status_to_string (AtpAfpAppliedStatus status)
{
  g_return_val_if_fail (status < G_N_ELEMENTS (applied_status_names), NULL);

  return applied_status_names[status];
}

gboolean
atp_afp_applied_status_from_string (const char          *text,
                                    AtpAfpAppliedStatus *status)
{
  guint index;

  if (!atp_afp_name_lookup (applied_status_names, G_N_ELEMENTS (applied_status_names), text, &index))
    return FALSE;
  *status = index;
  return TRUE;
}

static void
applied_item_free (AtpAfpAppliedItem *item)
{
  g_free (item->id);
  g_free (item->reason_code);
  g_free (item->explanation);
  g_clear_pointer (&item->extensions, json_object_unref);
  g_free (item);
}

static AtpAfpRequest *
request_alloc (void)
{
  AtpAfpRequest *self = g_new0 (AtpAfpRequest, 1);

  g_atomic_ref_count_init (&self->ref_count);
  return self;
}

/* ------------------------------------------------------------------------ */
/* Parsing                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct
{
  GPtrArray  *items;
  GHashTable *seen;      /* id → index of its first item */
} AppliedParse;

static gboolean
parse_applied_item (AtpParseCtx *ctx,
                    JsonObject  *object,
                    guint        index,
                    gpointer     user_data)
{
  static const char * const known[] = { "id", "status", "reason_code", "explanation", NULL };
  AppliedParse *parse = user_data;
  AtpAfpAppliedItem *item = g_new0 (AtpAfpAppliedItem, 1);
  const char *status;
  gpointer first;

  g_ptr_array_add (parse->items, item);

  if (!atp_afp_read_string_dup (ctx, object, "id", ATP_READ_REQUIRED | ATP_READ_NOT_EMPTY, &item->id))
    return FALSE;
  if (g_hash_table_lookup_extended (parse->seen, item->id, NULL, &first))
    return atp_parse_fail (ctx, ctx->invalid_code, "id",
                           "\"%s\" was decided on already in applied_feedback.items[%u] "
                           "(one decision per item)", item->id, GPOINTER_TO_UINT (first));
  g_hash_table_insert (parse->seen, item->id, GUINT_TO_POINTER (index));

  if (!atp_read_string (ctx, object, "status", ATP_READ_REQUIRED, &status))
    return FALSE;
  if (!atp_afp_applied_status_from_string (status, &item->status))
    return atp_parse_fail_type (ctx, "status", "one of accepted, rejected, partial",
                                json_object_get_member (object, "status"));

  if (!atp_afp_read_string_dup (ctx, object, "reason_code", ATP_READ_OPTIONAL, &item->reason_code) ||
      !atp_afp_read_string_dup (ctx, object, "explanation", ATP_READ_OPTIONAL, &item->explanation))
    return FALSE;

  return atp_afp_read_extensions (ctx, object, known, &item->extensions);
}

static gboolean
parse_applied_feedback (AtpParseCtx   *ctx,
                        JsonObject    *object,
                        AtpAfpRequest *self)
{
  static const char * const known[] = { "items", NULL };
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  AppliedParse parse;
  JsonObject *applied;
  gsize mark;

  if (!atp_read_object (ctx, object, "applied_feedback", ATP_READ_OPTIONAL, &applied))
    return FALSE;
  if (applied == NULL)
    return TRUE;

  self->applied_items = g_ptr_array_new_with_free_func ((GDestroyNotify) applied_item_free);
  parse.items = self->applied_items;
  parse.seen = seen;

  mark = atp_parse_ctx_push (ctx, "applied_feedback");
  if (!atp_afp_read_items (ctx, applied, "items", parse_applied_item, &parse) ||
      !atp_afp_read_extensions (ctx, applied, known, &self->applied_extensions))
    return FALSE;
  /* More than the session could ever have issued: not all about its items,
   * and each is shown to the person beside theirs. */
  if ((ctx->flags & ATP_PARSE_SUBMISSION) && self->applied_items->len > ATP_AFP_MAX_APPLIED_ITEMS)
    return atp_parse_fail (ctx, ATP_ERROR_INVALID_FIELD_VALUE, "items",
                           "must hold at most %d items (a session issues no more item ids), "
                           "got %u", ATP_AFP_MAX_APPLIED_ITEMS, self->applied_items->len);
  atp_parse_ctx_pop (ctx, mark);

  return TRUE;
}

/* A media range, a star for the subtype or both names (as "text/" and a
 * star): what an Accept header asks for, not a content's own type. */
static gboolean
media_type_is_range (const char *media_type)
{
  g_autofree char *essence = atp_afp_media_type_essence (media_type);
  const char *slash = essence != NULL ? strchr (essence, '/') : NULL;

  return slash != NULL && (g_str_equal (slash + 1, "*") || g_str_has_prefix (essence, "*/"));
}

gboolean
atp_afp_artifact_parse (AtpParseCtx    *ctx,
                        JsonObject     *object,
                        AtpAfpArtifact *artifact)
{
  static const char * const known[] = { "media_type", "content", "artifact_ref", NULL };
  JsonObject *member;
  JsonNode *content;
  gsize mark;

  if (!atp_read_object (ctx, object, "artifact", ATP_READ_REQUIRED, &member))
    return FALSE;

  mark = atp_parse_ctx_push (ctx, "artifact");

  if (!atp_afp_read_string_dup (ctx, member, "media_type", ATP_READ_REQUIRED, &artifact->media_type))
    return FALSE;
  if (!atp_mime_type_is_valid (artifact->media_type))
    return atp_parse_fail_type (ctx, "media_type", "a media type such as \"text/markdown\"",
                                json_object_get_member (member, "media_type"));
  /* Refused in what is submitted only: a review the server took before the
   * rule (or a session's previous artifact) must still read. */
  if ((ctx->flags & ATP_PARSE_SUBMISSION) && media_type_is_range (artifact->media_type))
    return atp_parse_fail (ctx, ATP_ERROR_INVALID_FIELD_VALUE, "media_type",
                           "must be the content's own media type (an IANA one, such as "
                           "\"text/markdown\"), not a range such as \"text/*\", got \"%s\"",
                           artifact->media_type);

  content = atp_object_get (member, "content");
  if (content == NULL)
    return atp_parse_fail_missing (ctx, "content");
  artifact->content = json_node_copy (content);

  if (!atp_afp_read_string_dup (ctx, member, "artifact_ref", ATP_READ_OPTIONAL,
                                &artifact->artifact_ref) ||
      !atp_afp_read_extensions (ctx, member, known, &artifact->extensions))
    return FALSE;

  atp_parse_ctx_pop (ctx, mark);
  return TRUE;
}

static AtpAfpRequest *
request_parse (JsonNode       *node,
               AtpParseFlags   flags,
               GError        **error)
{
  static const char * const known[] = {
    "protocol_version", "iteration", "artifact", "applied_feedback", NULL
  };
  g_autoptr(AtpAfpRequest) self = NULL;
  g_autoptr(GString) path = g_string_sized_new (64);
  JsonObject *object;
  AtpParseCtx ctx;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  object = atp_json_require_object (node, "A Request Object", error);
  if (object == NULL)
    return NULL;

  atp_afp_parse_ctx_init (&ctx, path, error);
  ctx.flags = flags;
  self = request_alloc ();

  if (!atp_afp_read_version (&ctx, object, TRUE) ||
      !atp_afp_read_iteration (&ctx, object, 1, &self->iteration) ||
      !atp_afp_artifact_parse (&ctx, object, &self->artifact) ||
      !parse_applied_feedback (&ctx, object, self) ||
      !atp_afp_read_extensions (&ctx, object, known, &self->extensions))
    return NULL;

  /* Last: a request that is wrong in any other way is reported as such. */
  if (!atp_afp_media_type_is_supported (self->artifact.media_type))
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_UNSUPPORTED_MEDIA_TYPE,
                   "artifact.media_type: \"%s\" cannot be reviewed here; supported are "
                   "text/*, application/json and */*+json, application/xml and */*+xml, "
                   "application/yaml, and source code types such as application/x-sh",
                   self->artifact.media_type);
      return NULL;
    }

  return g_steal_pointer (&self);
}

AtpAfpRequest *
atp_afp_request_new_from_json (JsonNode  *node,
                               GError   **error)
{
  return request_parse (node, ATP_PARSE_DEFAULT, error);
}

AtpAfpRequest *
atp_afp_request_new_submission (JsonNode  *node,
                                GError   **error)
{
  return request_parse (node, ATP_PARSE_SUBMISSION, error);
}

AtpAfpRequest *
atp_afp_request_new_from_data (const char  *data,
                               gssize       length,
                               GError     **error)
{
  g_autoptr(JsonNode) root = NULL;

  root = atp_json_parse (data, length, ATP_AFP_MAX_REQUEST_SIZE, error);
  if (root == NULL)
    return NULL;

  return atp_afp_request_new_from_json (root, error);
}

gint64
atp_afp_request_peek_iteration (JsonNode *node)
{
  JsonNode *member;
  double value;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return 0;

  member = atp_object_get (json_node_get_object (node), "iteration");
  if (member == NULL || !atp_json_node_get_number (member, &value) ||
      value < 1 || value > 9007199254740992.0 || value != (double) (gint64) value)
    return 0;

  return (gint64) value;
}

GPtrArray *
atp_afp_request_peek_applied (JsonNode *node)
{
  g_autoptr(AtpAfpRequest) self = NULL;
  g_autoptr(GString) path = g_string_new (NULL);
  AtpParseCtx ctx;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  atp_afp_parse_ctx_init (&ctx, path, NULL);
  self = request_alloc ();
  if (!parse_applied_feedback (&ctx, json_node_get_object (node), self) ||
      self->applied_items == NULL)
    return NULL;

  return g_ptr_array_ref (self->applied_items);
}

void
atp_afp_artifact_clear (AtpAfpArtifact *artifact)
{
  g_clear_pointer (&artifact->media_type, g_free);
  g_clear_pointer (&artifact->content, json_node_unref);
  g_clear_pointer (&artifact->artifact_ref, g_free);
  g_clear_pointer (&artifact->extensions, json_object_unref);
}

JsonObject *
atp_afp_artifact_to_json (const AtpAfpArtifact *artifact)
{
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "media_type", artifact->media_type);
  json_object_set_member (object, "content", json_node_copy (artifact->content));
  if (artifact->artifact_ref != NULL)
    json_object_set_string_member (object, "artifact_ref", artifact->artifact_ref);
  atp_json_object_append_extra (object, artifact->extensions);
  return object;
}

/* ------------------------------------------------------------------------ */
/* Life cycle and writing                                                    */
/* ------------------------------------------------------------------------ */

AtpAfpRequest *
atp_afp_request_ref (AtpAfpRequest *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
atp_afp_request_unref (AtpAfpRequest *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  atp_afp_artifact_clear (&self->artifact);
  g_clear_pointer (&self->applied_items, g_ptr_array_unref);
  g_clear_pointer (&self->applied_extensions, json_object_unref);
  g_clear_pointer (&self->extensions, json_object_unref);
  g_free (self);
}

static JsonObject *
applied_feedback_to_json (AtpAfpRequest *self)
{
  JsonObject *applied = json_object_new ();
  JsonArray *items = json_array_sized_new (self->applied_items->len);

  for (guint i = 0; i < self->applied_items->len; i++)
    {
      const AtpAfpAppliedItem *item = g_ptr_array_index (self->applied_items, i);
      JsonObject *object = json_object_new ();

      json_object_set_string_member (object, "id", item->id);
      json_object_set_string_member (object, "status", atp_afp_applied_status_to_string (item->status));
      if (item->reason_code != NULL)
        json_object_set_string_member (object, "reason_code", item->reason_code);
      if (item->explanation != NULL)
        json_object_set_string_member (object, "explanation", item->explanation);
      atp_json_object_append_extra (object, item->extensions);
      json_array_add_object_element (items, object);
    }

  json_object_set_array_member (applied, "items", items);
  atp_json_object_append_extra (applied, self->applied_extensions);
  return applied;
}

JsonNode *
atp_afp_request_to_json (AtpAfpRequest *self)
{
  JsonObject *object;

  g_return_val_if_fail (self != NULL, NULL);

  object = json_object_new ();
  json_object_set_string_member (object, "protocol_version", ATP_AFP_PROTOCOL_VERSION);
  json_object_set_int_member (object, "iteration", self->iteration);

  json_object_set_object_member (object, "artifact", atp_afp_artifact_to_json (&self->artifact));

  if (self->applied_items != NULL)
    json_object_set_object_member (object, "applied_feedback", applied_feedback_to_json (self));

  atp_json_object_append_extra (object, self->extensions);
  return atp_afp_node_take_object (object);
}

char *
atp_afp_request_to_string (AtpAfpRequest *self,
                           gsize         *length)
{
  g_autoptr(JsonNode) node = atp_afp_request_to_json (self);

  return atp_json_to_string (node, length);
}
