/* atp-afp-feedback.c — the AFP feedback object a Provider (here: a person) gives
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-afp"

#include "atp-afp-private.h"

#include <string.h>

G_DEFINE_BOXED_TYPE (AtpAfpFeedback, atp_afp_feedback, atp_afp_feedback_ref, atp_afp_feedback_unref)

#define TEXT (ATP_READ_REQUIRED | ATP_READ_NOT_BLANK)

static const char * const confidence_names[] = { "high", "medium", "low" };

const char *
atp_afp_confidence_to_string (AtpAfpConfidence confidence)
{
  g_return_val_if_fail (confidence < G_N_ELEMENTS (confidence_names), NULL);

  return confidence_names[confidence];
}

gboolean
atp_afp_confidence_from_string (const char       *text,
                                AtpAfpConfidence *confidence)
{
  guint index;

  if (!atp_afp_name_lookup (confidence_names, G_N_ELEMENTS (confidence_names), text, &index))
    return FALSE;
  *confidence = index;
  return TRUE;
}

static void
positive_point_free (AtpAfpPositivePoint *point)
{
  g_free (point->aspect);
  g_free (point->justification);
  g_clear_pointer (&point->extensions, json_object_unref);
  g_free (point);
}

static void
improvement_free (AtpAfpImprovement *item)
{
  g_free (item->id);
  g_free (item->aspect);
  g_free (item->description);
  g_free (item->recommendation);
  g_clear_pointer (&item->extensions, json_object_unref);
  g_free (item);
}

static AtpAfpFeedback *
feedback_alloc (void)
{
  AtpAfpFeedback *self = g_new0 (AtpAfpFeedback, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->positive_points = g_ptr_array_new_with_free_func ((GDestroyNotify) positive_point_free);
  self->areas_for_improvement = g_ptr_array_new_with_free_func ((GDestroyNotify) improvement_free);
  return self;
}

/* ------------------------------------------------------------------------ */
/* Parsing                                                                   */
/* ------------------------------------------------------------------------ */

static gboolean
parse_confidence (AtpParseCtx    *ctx,
                  JsonObject     *object,
                  AtpAfpFeedback *self)
{
  static const char * const known[] = { "level", "justification", NULL };
  JsonObject *confidence;
  const char *level;
  gsize mark;

  if (!atp_read_object (ctx, object, "confidence", ATP_READ_REQUIRED, &confidence))
    return FALSE;

  mark = atp_parse_ctx_push (ctx, "confidence");
  if (!atp_read_string (ctx, confidence, "level", ATP_READ_REQUIRED, &level))
    return FALSE;
  if (!atp_afp_confidence_from_string (level, &self->confidence))
    return atp_parse_fail_type (ctx, "level", "one of high, medium, low",
                                json_object_get_member (confidence, "level"));
  if (!atp_afp_read_string_dup (ctx, confidence, "justification", TEXT,
                                &self->confidence_justification) ||
      !atp_afp_read_extensions (ctx, confidence, known, &self->confidence_extensions))
    return FALSE;
  atp_parse_ctx_pop (ctx, mark);

  return TRUE;
}

static gboolean
parse_positive_point (AtpParseCtx *ctx,
                      JsonObject  *object,
                      guint        index,
                      gpointer     user_data)
{
  static const char * const known[] = { "aspect", "justification", NULL };
  AtpAfpFeedback *self = user_data;
  AtpAfpPositivePoint *point = g_new0 (AtpAfpPositivePoint, 1);

  g_ptr_array_add (self->positive_points, point);

  return atp_afp_read_string_dup (ctx, object, "aspect", TEXT, &point->aspect) &&
         atp_afp_read_string_dup (ctx, object, "justification", TEXT, &point->justification) &&
         atp_afp_read_extensions (ctx, object, known, &point->extensions);
}

static gboolean
parse_improvement (AtpParseCtx *ctx,
                   JsonObject  *object,
                   guint        index,
                   gpointer     user_data)
{
  static const char * const known[] = { "id", "aspect", "description", "recommendation", NULL };
  AtpAfpFeedback *self = user_data;
  AtpAfpImprovement *item = g_new0 (AtpAfpImprovement, 1);

  g_ptr_array_add (self->areas_for_improvement, item);

  if (!atp_afp_read_string_dup (ctx, object, "id", ATP_READ_REQUIRED, &item->id))
    return FALSE;
  if (!atp_afp_id_is_valid (item->id))
    return atp_parse_fail_type (ctx, "id", "an id matching ^[a-z0-9._-]{8,128}$",
                                json_object_get_member (object, "id"));
  for (guint i = 0; i < index; i++)
    {
      const AtpAfpImprovement *earlier = g_ptr_array_index (self->areas_for_improvement, i);

      if (strcmp (earlier->id, item->id) == 0)
        return atp_parse_fail (ctx, ctx->invalid_code, "id",
                               "\"%s\" is the id of areas_for_improvement[%u] already "
                               "(ids are unique)", item->id, i);
    }

  return atp_afp_read_string_dup (ctx, object, "aspect", TEXT, &item->aspect) &&
         atp_afp_read_string_dup (ctx, object, "description", TEXT, &item->description) &&
         atp_afp_read_string_dup (ctx, object, "recommendation", TEXT, &item->recommendation) &&
         atp_afp_read_extensions (ctx, object, known, &item->extensions);
}

/* The feedback object at the context's path (shared with the Response Object's parser). */
AtpAfpFeedback *
atp_afp_feedback_parse (AtpParseCtx *ctx,
                        JsonObject  *object)
{
  static const char * const known[] = {
    "confidence", "positive_points", "areas_for_improvement", "general_summary", NULL
  };
  g_autoptr(AtpAfpFeedback) self = feedback_alloc ();

  if (!parse_confidence (ctx, object, self) ||
      !atp_afp_read_items (ctx, object, "positive_points", parse_positive_point, self) ||
      !atp_afp_read_items (ctx, object, "areas_for_improvement", parse_improvement, self) ||
      !atp_afp_read_string_dup (ctx, object, "general_summary", TEXT, &self->general_summary) ||
      !atp_afp_read_extensions (ctx, object, known, &self->extensions))
    return NULL;

  return g_steal_pointer (&self);
}

static AtpAfpFeedback *
feedback_parse (JsonNode       *node,
                AtpParseFlags   flags,
                GError        **error)
{
  g_autoptr(GString) path = g_string_sized_new (64);
  JsonObject *object;
  AtpParseCtx ctx;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  object = atp_json_require_object (node, "The feedback", error);
  if (object == NULL)
    return NULL;

  atp_afp_parse_ctx_init (&ctx, path, error);
  ctx.flags = flags;
  return atp_afp_feedback_parse (&ctx, object);
}

AtpAfpFeedback *
atp_afp_feedback_new_from_json (JsonNode  *node,
                                GError   **error)
{
  return feedback_parse (node, ATP_PARSE_DEFAULT, error);
}

AtpAfpFeedback *
atp_afp_feedback_new_submission (JsonNode  *node,
                                 GError   **error)
{
  return feedback_parse (node, ATP_PARSE_SUBMISSION, error);
}

const AtpAfpImprovement *
atp_afp_feedback_find_item (AtpAfpFeedback *self,
                            const char     *id)
{
  g_return_val_if_fail (self != NULL, NULL);

  for (guint i = 0; i < self->areas_for_improvement->len; i++)
    {
      const AtpAfpImprovement *item = g_ptr_array_index (self->areas_for_improvement, i);

      if (g_strcmp0 (item->id, id) == 0)
        return item;
    }

  return NULL;
}

gboolean
atp_afp_feedback_check_session (AtpAfpFeedback  *self,
                                GHashTable      *issued,
                                AtpAfpFeedback  *latest,
                                GError         **error)
{
  guint new_ids = 0;
  guint known_ids;

  g_return_val_if_fail (self != NULL, FALSE);

  for (guint i = 0; i < self->areas_for_improvement->len; i++)
    {
      const AtpAfpImprovement *item = g_ptr_array_index (self->areas_for_improvement, i);
      gboolean was_issued = issued != NULL && g_hash_table_contains (issued, item->id);

      if (!was_issued)
        {
          new_ids++;
          continue;
        }
      if (latest == NULL || atp_afp_feedback_find_item (latest, item->id) == NULL)
        {
          g_set_error (error, ATP_ERROR, ATP_ERROR_CONSTRAINT_VIOLATION,
                       "areas_for_improvement[%u].id: \"%s\" was issued earlier in this session "
                       "and is not an item of the latest feedback, so it cannot be carried over; "
                       "a new item needs a new id", i, item->id);
          return FALSE;
        }
    }

  known_ids = issued != NULL ? g_hash_table_size (issued) : 0;
  if (known_ids + new_ids > ATP_AFP_MAX_SESSION_ITEM_IDS)
    {
      g_set_error (error, ATP_ERROR, ATP_ERROR_CONSTRAINT_VIOLATION,
                   "areas_for_improvement: %u new ids would make %u in this session, "
                   "at most %u are kept", new_ids, known_ids + new_ids,
                   (guint) ATP_AFP_MAX_SESSION_ITEM_IDS);
      return FALSE;
    }

  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Life cycle and writing                                                    */
/* ------------------------------------------------------------------------ */

AtpAfpFeedback *
atp_afp_feedback_ref (AtpAfpFeedback *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
atp_afp_feedback_unref (AtpAfpFeedback *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_free (self->confidence_justification);
  g_clear_pointer (&self->confidence_extensions, json_object_unref);
  g_clear_pointer (&self->positive_points, g_ptr_array_unref);
  g_clear_pointer (&self->areas_for_improvement, g_ptr_array_unref);
  g_free (self->general_summary);
  g_clear_pointer (&self->extensions, json_object_unref);
  g_free (self);
}

JsonNode *
atp_afp_feedback_to_json (AtpAfpFeedback *self)
{
  JsonObject *object, *confidence;
  JsonArray *points, *areas;

  g_return_val_if_fail (self != NULL, NULL);

  object = json_object_new ();
  confidence = json_object_new ();
  json_object_set_string_member (confidence, "level", atp_afp_confidence_to_string (self->confidence));
  json_object_set_string_member (confidence, "justification", self->confidence_justification);
  atp_json_object_append_extra (confidence, self->confidence_extensions);
  json_object_set_object_member (object, "confidence", confidence);

  points = json_array_sized_new (self->positive_points->len);
  for (guint i = 0; i < self->positive_points->len; i++)
    {
      const AtpAfpPositivePoint *point = g_ptr_array_index (self->positive_points, i);
      JsonObject *member = json_object_new ();

      json_object_set_string_member (member, "aspect", point->aspect);
      json_object_set_string_member (member, "justification", point->justification);
      atp_json_object_append_extra (member, point->extensions);
      json_array_add_object_element (points, member);
    }
  json_object_set_array_member (object, "positive_points", points);

  areas = json_array_sized_new (self->areas_for_improvement->len);
  for (guint i = 0; i < self->areas_for_improvement->len; i++)
    {
      const AtpAfpImprovement *item = g_ptr_array_index (self->areas_for_improvement, i);
      JsonObject *member = json_object_new ();

      json_object_set_string_member (member, "id", item->id);
      json_object_set_string_member (member, "aspect", item->aspect);
      json_object_set_string_member (member, "description", item->description);
      json_object_set_string_member (member, "recommendation", item->recommendation);
      atp_json_object_append_extra (member, item->extensions);
      json_array_add_object_element (areas, member);
    }
  json_object_set_array_member (object, "areas_for_improvement", areas);

  json_object_set_string_member (object, "general_summary", self->general_summary);
  atp_json_object_append_extra (object, self->extensions);
  return atp_afp_node_take_object (object);
}
