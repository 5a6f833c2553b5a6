/* atp-afp-response.c — the AFP Response Object (feedback, applied_feedback_ack, error)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-afp"

#include "atp-afp-private.h"

#include <string.h>

#include "atp-json.h"
#include "atp-types.h"

G_DEFINE_BOXED_TYPE (AtpAfpResponse, atp_afp_response, atp_afp_response_ref, atp_afp_response_unref)

static const char * const processing_status_names[] = { "acknowledged", "unknown_id" };
static const char * const status_names[] = { "success", "error" };

const char *
atp_afp_processing_status_to_string (AtpAfpProcessingStatus status)
{
  g_return_val_if_fail (status < G_N_ELEMENTS (processing_status_names), NULL);

  return processing_status_names[status];
}

gboolean
atp_afp_processing_status_from_string (const char             *text,
                                       AtpAfpProcessingStatus *status)
{
  guint index;

  if (!atp_afp_name_lookup (processing_status_names, G_N_ELEMENTS (processing_status_names),
                            text, &index))
    return FALSE;
  *status = index;
  return TRUE;
}

static void
ack_item_free (AtpAfpAckItem *item)
{
  g_free (item->id);
  g_clear_pointer (&item->extensions, json_object_unref);
  g_free (item);
}

static GPtrArray *
ack_items_alloc (guint size)
{
  return g_ptr_array_new_full (size, (GDestroyNotify) ack_item_free);
}

GPtrArray *
atp_afp_ack_items_for (GPtrArray  *applied_items,
                       GHashTable *issued)
{
  GPtrArray *items;

  if (applied_items == NULL)
    return NULL;

  items = ack_items_alloc (applied_items->len);
  for (guint i = 0; i < applied_items->len; i++)
    {
      const AtpAfpAppliedItem *applied = g_ptr_array_index (applied_items, i);
      AtpAfpAckItem *item = g_new0 (AtpAfpAckItem, 1);

      item->id = g_strdup (applied->id);
      item->processing_status = issued != NULL && g_hash_table_contains (issued, applied->id)
                                ? ATP_AFP_ACK_ACKNOWLEDGED : ATP_AFP_ACK_UNKNOWN_ID;
      item->extensions = json_object_new ();
      g_ptr_array_add (items, item);
    }

  return items;
}

GPtrArray *
atp_afp_ack_items_new (AtpAfpRequest *request,
                       GHashTable    *issued)
{
  g_return_val_if_fail (request != NULL, NULL);

  return atp_afp_ack_items_for (request->applied_items, issued);
}

static AtpAfpResponse *
response_alloc (gint64        iteration,
                AtpAfpStatus  status,
                GPtrArray    *ack_items)
{
  AtpAfpResponse *self = g_new0 (AtpAfpResponse, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->iteration = iteration;
  self->status = status;
  if (ack_items != NULL)
    {
      self->ack_items = g_ptr_array_ref (ack_items);
      self->ack_extensions = json_object_new ();
    }
  self->extensions = json_object_new ();
  return self;
}

AtpAfpResponse *
atp_afp_response_new_success (gint64          iteration,
                              AtpAfpFeedback *feedback,
                              GPtrArray      *ack_items)
{
  AtpAfpResponse *self;

  g_return_val_if_fail (iteration >= 1, NULL);
  g_return_val_if_fail (feedback != NULL, NULL);

  self = response_alloc (iteration, ATP_AFP_STATUS_SUCCESS, ack_items);
  self->feedback = atp_afp_feedback_ref (feedback);
  return self;
}

AtpAfpResponse *
atp_afp_response_new_error (gint64      iteration,
                            const char *code,
                            const char *message,
                            GPtrArray  *ack_items)
{
  AtpAfpResponse *self;

  g_return_val_if_fail (iteration >= 0, NULL);
  g_return_val_if_fail (code != NULL && *code != '\0', NULL);
  g_return_val_if_fail (message != NULL && *message != '\0', NULL);

  self = response_alloc (iteration, ATP_AFP_STATUS_ERROR, ack_items);
  self->error_code = g_strdup (code);
  self->error_message = g_strdup (message);
  self->error_extensions = json_object_new ();
  return self;
}

/* ------------------------------------------------------------------------ */
/* Parsing                                                                   */
/* ------------------------------------------------------------------------ */

static gboolean
parse_ack_item (AtpParseCtx *ctx,
                JsonObject  *object,
                guint        index,
                gpointer     user_data)
{
  static const char * const known[] = { "id", "processing_status", NULL };
  GPtrArray *items = user_data;
  AtpAfpAckItem *item = g_new0 (AtpAfpAckItem, 1);
  const char *status;

  g_ptr_array_add (items, item);

  if (!atp_afp_read_string_dup (ctx, object, "id", ATP_READ_REQUIRED | ATP_READ_NOT_EMPTY, &item->id) ||
      !atp_read_string (ctx, object, "processing_status", ATP_READ_REQUIRED, &status))
    return FALSE;
  if (!atp_afp_processing_status_from_string (status, &item->processing_status))
    return atp_parse_fail_type (ctx, "processing_status", "one of acknowledged, unknown_id",
                                json_object_get_member (object, "processing_status"));

  return atp_afp_read_extensions (ctx, object, known, &item->extensions);
}

static gboolean
parse_ack (AtpParseCtx    *ctx,
           JsonObject     *object,
           AtpAfpResponse *self)
{
  static const char * const known[] = { "items", NULL };
  JsonObject *ack;
  gsize mark;

  if (!atp_read_object (ctx, object, "applied_feedback_ack", ATP_READ_OPTIONAL, &ack))
    return FALSE;
  if (ack == NULL)
    return TRUE;

  self->ack_items = ack_items_alloc (0);
  mark = atp_parse_ctx_push (ctx, "applied_feedback_ack");
  if (!atp_afp_read_items (ctx, ack, "items", parse_ack_item, self->ack_items) ||
      !atp_afp_read_extensions (ctx, ack, known, &self->ack_extensions))
    return FALSE;
  atp_parse_ctx_pop (ctx, mark);

  return TRUE;
}

static gboolean
parse_error (AtpParseCtx    *ctx,
             JsonObject     *object,
             AtpAfpResponse *self)
{
  static const char * const known[] = { "code", "message", NULL };
  JsonObject *member;
  gsize mark;

  if (!atp_read_object (ctx, object, "error", ATP_READ_REQUIRED, &member))
    return FALSE;

  mark = atp_parse_ctx_push (ctx, "error");
  if (!atp_afp_read_string_dup (ctx, member, "code", ATP_READ_REQUIRED | ATP_READ_NOT_BLANK,
                                &self->error_code) ||
      !atp_afp_read_string_dup (ctx, member, "message", ATP_READ_REQUIRED | ATP_READ_NOT_BLANK,
                                &self->error_message) ||
      !atp_afp_read_extensions (ctx, member, known, &self->error_extensions))
    return FALSE;
  atp_parse_ctx_pop (ctx, mark);

  return TRUE;
}

/* A member that must not be there with this status. */
static gboolean
refuse_member (AtpParseCtx *ctx,
               JsonObject  *object,
               const char  *name,
               const char  *status)
{
  if (atp_object_get (object, name) == NULL)
    return TRUE;

  return atp_parse_fail (ctx, ctx->invalid_code, name, "must not be present when status is \"%s\"",
                         status);
}

AtpAfpResponse *
atp_afp_response_new_from_json (JsonNode  *node,
                                GError   **error)
{
  static const char * const known[] = {
    "protocol_version", "iteration", "status", "feedback", "applied_feedback_ack", "error", NULL
  };
  g_autoptr(AtpAfpResponse) self = NULL;
  g_autoptr(GString) path = g_string_sized_new (64);
  JsonObject *object, *feedback;
  const char *status;
  gint64 iteration;
  AtpParseCtx ctx;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  object = atp_json_require_object (node, "A Response Object", error);
  if (object == NULL)
    return NULL;

  atp_afp_parse_ctx_init (&ctx, path, error);

  if (!atp_afp_read_version (&ctx, object, FALSE) ||
      !atp_afp_read_iteration (&ctx, object, 0, &iteration) ||
      !atp_read_string (&ctx, object, "status", ATP_READ_REQUIRED, &status))
    return NULL;

  if (g_strcmp0 (status, "success") == 0)
    {
      gsize mark;

      /* Only an error can answer a request whose iteration could not be read. */
      if (iteration < 1)
        {
          atp_parse_fail_type (&ctx, "iteration", "an integer ≥ 1",
                               json_object_get_member (object, "iteration"));
          return NULL;
        }
      if (!refuse_member (&ctx, object, "error", status) ||
          !atp_read_object (&ctx, object, "feedback", ATP_READ_REQUIRED, &feedback))
        return NULL;

      self = response_alloc (iteration, ATP_AFP_STATUS_SUCCESS, NULL);
      mark = atp_parse_ctx_push (&ctx, "feedback");
      self->feedback = atp_afp_feedback_parse (&ctx, feedback);
      if (self->feedback == NULL)
        return NULL;
      atp_parse_ctx_pop (&ctx, mark);
    }
  else if (g_strcmp0 (status, "error") == 0)
    {
      self = response_alloc (iteration, ATP_AFP_STATUS_ERROR, NULL);
      if (!refuse_member (&ctx, object, "feedback", status) || !parse_error (&ctx, object, self))
        return NULL;
    }
  else
    {
      atp_parse_fail_type (&ctx, "status", "one of success, error",
                           json_object_get_member (object, "status"));
      return NULL;
    }

  g_clear_pointer (&self->extensions, json_object_unref);
  if (!parse_ack (&ctx, object, self) ||
      !atp_afp_read_extensions (&ctx, object, known, &self->extensions))
    return NULL;

  return g_steal_pointer (&self);
}

AtpAfpResponse *
atp_afp_response_new_from_data (const char  *data,
                                gssize       length,
                                GError     **error)
{
  g_autoptr(JsonNode) root = NULL;

  root = atp_json_parse (data, length, ATP_MAX_FRAME_SIZE, error);
  if (root == NULL)
    return NULL;

  return atp_afp_response_new_from_json (root, error);
}

gboolean
atp_afp_response_check_for_request (AtpAfpResponse  *self,
                                    AtpAfpRequest   *request,
                                    GError         **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (request != NULL, FALSE);

  if (self->iteration != request->iteration)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_PROTOCOL,
                   "iteration: %" G_GINT64_FORMAT " does not echo the request's %" G_GINT64_FORMAT,
                   self->iteration, request->iteration);
      return FALSE;
    }

  if ((self->ack_items == NULL) != (request->applied_items == NULL))
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_PROTOCOL,
                   self->ack_items == NULL
                   ? "applied_feedback_ack: missing, but the request had applied_feedback"
                   : "applied_feedback_ack: present, but the request had no applied_feedback");
      return FALSE;
    }
  if (self->ack_items == NULL)
    return TRUE;

  if (self->ack_items->len != request->applied_items->len)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_PROTOCOL,
                   "applied_feedback_ack.items: %u items for the request's %u applied items",
                   self->ack_items->len, request->applied_items->len);
      return FALSE;
    }
  for (guint i = 0; i < self->ack_items->len; i++)
    {
      const AtpAfpAckItem *ack = g_ptr_array_index (self->ack_items, i);
      const AtpAfpAppliedItem *applied = g_ptr_array_index (request->applied_items, i);

      if (strcmp (ack->id, applied->id) != 0)
        {
          g_set_error (error, ATP_ERROR, ATP_ERROR_PROTOCOL,
                       "applied_feedback_ack.items[%u].id: \"%s\", but the applied item is \"%s\"",
                       i, ack->id, applied->id);
          return FALSE;
        }
    }

  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Life cycle and writing                                                    */
/* ------------------------------------------------------------------------ */

AtpAfpResponse *
atp_afp_response_ref (AtpAfpResponse *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
atp_afp_response_unref (AtpAfpResponse *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_clear_pointer (&self->feedback, atp_afp_feedback_unref);
  g_clear_pointer (&self->ack_items, g_ptr_array_unref);
  g_clear_pointer (&self->ack_extensions, json_object_unref);
  g_free (self->error_code);
  g_free (self->error_message);
  g_clear_pointer (&self->error_extensions, json_object_unref);
  g_clear_pointer (&self->extensions, json_object_unref);
  g_free (self);
}

JsonNode *
atp_afp_response_to_json (AtpAfpResponse *self)
{
  JsonObject *object;

  g_return_val_if_fail (self != NULL, NULL);

  object = json_object_new ();
  json_object_set_string_member (object, "protocol_version", ATP_AFP_PROTOCOL_VERSION);
  json_object_set_int_member (object, "iteration", self->iteration);
  json_object_set_string_member (object, "status", status_names[self->status]);

  if (self->feedback != NULL)
    json_object_set_member (object, "feedback", atp_afp_feedback_to_json (self->feedback));

  if (self->ack_items != NULL)
    {
      JsonObject *ack = json_object_new ();
      JsonArray *items = json_array_sized_new (self->ack_items->len);

      for (guint i = 0; i < self->ack_items->len; i++)
        {
          const AtpAfpAckItem *item = g_ptr_array_index (self->ack_items, i);
          JsonObject *member = json_object_new ();

          json_object_set_string_member (member, "id", item->id);
          json_object_set_string_member (member, "processing_status",
                                         atp_afp_processing_status_to_string (item->processing_status));
          atp_json_object_append_extra (member, item->extensions);
          json_array_add_object_element (items, member);
        }
      json_object_set_array_member (ack, "items", items);
      atp_json_object_append_extra (ack, self->ack_extensions);
      json_object_set_object_member (object, "applied_feedback_ack", ack);
    }

  if (self->status == ATP_AFP_STATUS_ERROR)
    {
      JsonObject *member = json_object_new ();

      json_object_set_string_member (member, "code", self->error_code);
      json_object_set_string_member (member, "message", self->error_message);
      atp_json_object_append_extra (member, self->error_extensions);
      json_object_set_object_member (object, "error", member);
    }

  atp_json_object_append_extra (object, self->extensions);
  return atp_afp_node_take_object (object);
}

char *
atp_afp_response_to_string (AtpAfpResponse *self,
                            gsize          *length)
{
  g_autoptr(JsonNode) node = atp_afp_response_to_json (self);

  return atp_json_to_string (node, length);
}
