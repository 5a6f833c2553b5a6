/* atp-afp-review.c — what the envelope of an AFP request carries: the request in its session
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-afp"

#include "atp-afp-private.h"

#include <string.h>

#include "atp-json.h"

G_DEFINE_BOXED_TYPE (AtpAfpReview, atp_afp_review, atp_afp_review_ref, atp_afp_review_unref)

static AtpAfpReview *
review_alloc (void)
{
  AtpAfpReview *self = g_new0 (AtpAfpReview, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->issued_ids = g_ptr_array_new_with_free_func (g_free);
  self->issued = g_hash_table_new (g_str_hash, g_str_equal);
  return self;
}

AtpAfpReview *
atp_afp_review_new (const char    *session_id,
                    AtpAfpRequest *request)
{
  AtpAfpReview *self;

  g_return_val_if_fail (session_id != NULL && *session_id != '\0', NULL);
  g_return_val_if_fail (request != NULL, NULL);

  self = review_alloc ();
  self->session_id = g_strdup (session_id);
  self->request = atp_afp_request_ref (request);
  self->extra = json_object_new ();
  return self;
}

void
atp_afp_review_set_previous (AtpAfpReview         *self,
                             const char           *review_id,
                             gint64                iteration,
                             const AtpAfpArtifact *artifact)
{
  g_return_if_fail (self != NULL && review_id != NULL && artifact != NULL);

  g_free (self->previous_id);
  self->previous_id = g_strdup (review_id);
  self->previous_iteration = iteration;
  atp_afp_artifact_clear (&self->previous_artifact);
  self->previous_artifact.media_type = g_strdup (artifact->media_type);
  self->previous_artifact.content = json_node_copy (artifact->content);
  self->previous_artifact.artifact_ref = g_strdup (artifact->artifact_ref);
  self->previous_artifact.extensions = artifact->extensions != NULL
                                       ? json_object_ref (artifact->extensions)
                                       : json_object_new ();
}

void
atp_afp_review_set_latest_feedback (AtpAfpReview   *self,
                                    const char     *review_id,
                                    gint64          iteration,
                                    AtpAfpFeedback *feedback)
{
  g_return_if_fail (self != NULL && review_id != NULL && feedback != NULL);

  g_free (self->latest_feedback_id);
  self->latest_feedback_id = g_strdup (review_id);
  self->latest_feedback_iteration = iteration;
  g_clear_pointer (&self->latest_feedback, atp_afp_feedback_unref);
  self->latest_feedback = atp_afp_feedback_ref (feedback);
}

void
atp_afp_review_add_issued_id (AtpAfpReview *self,
                              const char   *id)
{
  char *copy;

  g_return_if_fail (self != NULL && id != NULL);

  if (g_hash_table_contains (self->issued, id))
    return;
  copy = g_strdup (id);
  g_ptr_array_add (self->issued_ids, copy);
  g_hash_table_add (self->issued, copy);
}

/* ------------------------------------------------------------------------ */
/* Parsing                                                                   */
/* ------------------------------------------------------------------------ */

static gboolean
parse_request (AtpParseCtx  *ctx,
               JsonObject   *object,
               AtpAfpReview *self)
{
  JsonObject *member;
  g_autoptr(JsonNode) node = NULL;
  GError *error = NULL;

  if (!atp_read_object (ctx, object, "request", ATP_READ_REQUIRED, &member))
    return FALSE;

  node = json_node_init_object (json_node_alloc (), member);
  self->request = atp_afp_request_new_from_json (node, &error);
  if (self->request == NULL)
    {
      g_prefix_error (&error, "request.");
      g_propagate_error (ctx->error, error);
      return FALSE;
    }

  return TRUE;
}

/* {id, iteration, <what>} of a review of the session. */
static gboolean
parse_earlier (AtpParseCtx  *ctx,
               JsonObject   *object,
               char        **id,
               gint64       *iteration)
{
  const char *text;

  if (!atp_read_string (ctx, object, "id", ATP_READ_REQUIRED, &text))
    return FALSE;
  if (!atp_is_uuid_v4 (text))
    return atp_parse_fail_type (ctx, "id", "a review id (a UUID v4)",
                                json_object_get_member (object, "id"));
  *id = g_ascii_strdown (text, -1);

  return atp_afp_read_iteration (ctx, object, 1, iteration);
}

static gboolean
parse_previous (AtpParseCtx  *ctx,
                JsonObject   *object,
                AtpAfpReview *self)
{
  JsonObject *member;
  gsize mark;

  if (!atp_read_object (ctx, object, "previous", ATP_READ_OPTIONAL, &member))
    return FALSE;
  if (member == NULL)
    return TRUE;

  mark = atp_parse_ctx_push (ctx, "previous");
  if (!parse_earlier (ctx, member, &self->previous_id, &self->previous_iteration) ||
      !atp_afp_artifact_parse (ctx, member, &self->previous_artifact))
    return FALSE;
  atp_parse_ctx_pop (ctx, mark);

  return TRUE;
}

static gboolean
parse_latest_feedback (AtpParseCtx  *ctx,
                       JsonObject   *object,
                       AtpAfpReview *self)
{
  JsonObject *member, *feedback;
  gsize mark;

  if (!atp_read_object (ctx, object, "latest_feedback", ATP_READ_OPTIONAL, &member))
    return FALSE;
  if (member == NULL)
    return TRUE;

  mark = atp_parse_ctx_push (ctx, "latest_feedback");
  if (!parse_earlier (ctx, member, &self->latest_feedback_id, &self->latest_feedback_iteration) ||
      !atp_read_object (ctx, member, "feedback", ATP_READ_REQUIRED, &feedback))
    return FALSE;
  atp_parse_ctx_push (ctx, "feedback");
  self->latest_feedback = atp_afp_feedback_parse (ctx, feedback);
  if (self->latest_feedback == NULL)
    return FALSE;
  atp_parse_ctx_pop (ctx, mark);

  return TRUE;
}

static gboolean
parse_issued_ids (AtpParseCtx  *ctx,
                  JsonObject   *object,
                  AtpAfpReview *self)
{
  JsonArray *array;
  gsize mark;

  if (!atp_read_array (ctx, object, "issued_ids", ATP_READ_REQUIRED, &array))
    return FALSE;

  mark = atp_parse_ctx_push (ctx, "issued_ids");
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      const char *id = JSON_NODE_HOLDS_VALUE (element) &&
                       json_node_get_value_type (element) == G_TYPE_STRING
                       ? json_node_get_string (element) : NULL;

      if (!atp_afp_id_is_valid (id))
        {
          g_autofree char *got = atp_json_describe (element);

          return atp_parse_fail (ctx, ctx->invalid_code, NULL,
                                 "item %u must be an id matching ^[a-z0-9._-]{8,128}$, got %s",
                                 i, got);
        }
      atp_afp_review_add_issued_id (self, id);
    }
  atp_parse_ctx_pop (ctx, mark);

  return TRUE;
}

AtpAfpReview *
atp_afp_review_new_from_json (JsonNode  *node,
                              GError   **error)
{
  static const char * const known[] = {
    "session_id", "request", "previous", "latest_feedback", "issued_ids", NULL
  };
  g_autoptr(AtpAfpReview) self = NULL;
  g_autoptr(GString) path = g_string_sized_new (64);
  JsonObject *object;
  AtpParseCtx ctx;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  object = atp_json_require_object (node, "An AFP review", error);
  if (object == NULL)
    return NULL;

  atp_afp_parse_ctx_init (&ctx, path, error);
  self = review_alloc ();

  if (!atp_afp_read_string_dup (&ctx, object, "session_id", ATP_READ_REQUIRED | ATP_READ_NOT_BLANK,
                                &self->session_id) ||
      !parse_request (&ctx, object, self) ||
      !parse_previous (&ctx, object, self) ||
      !parse_latest_feedback (&ctx, object, self) ||
      !parse_issued_ids (&ctx, object, self))
    return NULL;

  /* Triage's own member: what a newer server adds is kept, not refused. */
  self->extra = atp_json_object_collect_extra (object, known);
  return g_steal_pointer (&self);
}

/* ------------------------------------------------------------------------ */
/* Life cycle, writing, checks                                               */
/* ------------------------------------------------------------------------ */

AtpAfpReview *
atp_afp_review_ref (AtpAfpReview *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
atp_afp_review_unref (AtpAfpReview *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_free (self->session_id);
  g_clear_pointer (&self->request, atp_afp_request_unref);
  g_free (self->previous_id);
  atp_afp_artifact_clear (&self->previous_artifact);
  g_free (self->latest_feedback_id);
  g_clear_pointer (&self->latest_feedback, atp_afp_feedback_unref);
  g_clear_pointer (&self->issued, g_hash_table_unref);
  g_clear_pointer (&self->issued_ids, g_ptr_array_unref);
  g_clear_pointer (&self->extra, json_object_unref);
  g_free (self);
}

static JsonObject *
earlier_to_json (const char *id,
                 gint64      iteration)
{
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "id", id);
  json_object_set_int_member (object, "iteration", iteration);
  return object;
}

JsonNode *
atp_afp_review_to_json (AtpAfpReview *self)
{
  JsonObject *object;
  JsonArray *ids;

  g_return_val_if_fail (self != NULL, NULL);

  object = json_object_new ();
  json_object_set_string_member (object, "session_id", self->session_id);
  json_object_set_member (object, "request", atp_afp_request_to_json (self->request));

  if (self->previous_id != NULL)
    {
      JsonObject *previous = earlier_to_json (self->previous_id, self->previous_iteration);

      json_object_set_object_member (previous, "artifact",
                                     atp_afp_artifact_to_json (&self->previous_artifact));
      json_object_set_object_member (object, "previous", previous);
    }

  if (self->latest_feedback != NULL)
    {
      JsonObject *latest = earlier_to_json (self->latest_feedback_id,
                                            self->latest_feedback_iteration);

      json_object_set_member (latest, "feedback", atp_afp_feedback_to_json (self->latest_feedback));
      json_object_set_object_member (object, "latest_feedback", latest);
    }

  ids = json_array_sized_new (self->issued_ids->len);
  for (guint i = 0; i < self->issued_ids->len; i++)
    json_array_add_string_element (ids, g_ptr_array_index (self->issued_ids, i));
  json_object_set_array_member (object, "issued_ids", ids);

  atp_json_object_append_extra (object, self->extra);
  return atp_afp_node_take_object (object);
}

GPtrArray *
atp_afp_review_ack_items (AtpAfpReview *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return atp_afp_ack_items_new (self->request, self->issued);
}

gboolean
atp_afp_review_check_feedback (AtpAfpReview    *self,
                               AtpAfpFeedback  *feedback,
                               GError         **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (feedback != NULL, FALSE);

  return atp_afp_feedback_check_session (feedback, self->issued, self->latest_feedback, error);
}
