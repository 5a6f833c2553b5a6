/* triage-afp-editor-json.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-afp-editor"

#include "triage-afp-editor-private.h"

/*
 * The editor and the feedback object: what it holds as AFP's feedback (to
 * send, or to keep as a draft), a feedback read back into it (a draft, an
 * answer given elsewhere), and an earlier item carried over with its id.
 */

/**
 * triage_afp_editor_dup_feedback:
 *
 * Returns: (transfer full): the feedback object as the editor holds it
 *   (complete or not), required strings trimmed
 */
JsonNode *
triage_afp_editor_dup_feedback (TriageAfpEditor *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  int level = _triage_afp_editor_chosen_level (self);
  g_autofree char *justification = _triage_afp_editor_entry_text (self->justification);
  g_autofree char *summary = _triage_afp_editor_entry_text (self->summary);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "confidence");
  json_builder_begin_object (builder);
  if (level >= 0)
    {
      json_builder_set_member_name (builder, "level");
      json_builder_add_string_value (builder, atp_afp_confidence_to_string ((AtpAfpConfidence) level));
    }
  json_builder_set_member_name (builder, "justification");
  json_builder_add_string_value (builder, justification);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "positive_points");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->positives->len; i++)
    {
      Item *item = self->positives->pdata[i];
      g_autofree char *aspect = _triage_afp_editor_entry_text (item->aspect);
      g_autofree char *text = _triage_afp_editor_entry_text (item->text);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "aspect");
      json_builder_add_string_value (builder, aspect);
      json_builder_set_member_name (builder, "justification");
      json_builder_add_string_value (builder, text);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "areas_for_improvement");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->areas->len; i++)
    {
      Item *item = self->areas->pdata[i];
      g_autofree char *aspect = _triage_afp_editor_entry_text (item->aspect);
      g_autofree char *text = _triage_afp_editor_entry_text (item->text);
      g_autofree char *recommendation = _triage_afp_editor_entry_text (item->recommendation);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "id");
      json_builder_add_string_value (builder, item->id);
      json_builder_set_member_name (builder, "aspect");
      json_builder_add_string_value (builder, aspect);
      json_builder_set_member_name (builder, "description");
      json_builder_add_string_value (builder, text);
      json_builder_set_member_name (builder, "recommendation");
      json_builder_add_string_value (builder, recommendation);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "general_summary");
  json_builder_add_string_value (builder, summary);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static const char *
member_string (JsonObject *object,
               const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
         ? json_node_get_string (node) : NULL;
}

static JsonArray *
member_array (JsonObject *object,
              const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

static JsonObject *
element_object (JsonArray *array,
                guint      index)
{
  JsonNode *node = json_array_get_element (array, index);

  return JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/**
 * triage_afp_editor_load:
 * @self: a #TriageAfpEditor
 * @feedback: a feedback object, complete or not (a draft)
 *
 * Fills the editor in from @feedback, after triage_afp_editor_set_review().
 * An area whose id the session issued is a carried-over one.
 */
void
triage_afp_editor_load (TriageAfpEditor *self,
                        JsonNode        *feedback)
{
  JsonObject *object, *confidence;
  JsonArray *array;
  AtpAfpConfidence level;
  const char *id;

  g_return_if_fail (TRIAGE_IS_AFP_EDITOR (self));
  g_return_if_fail (feedback != NULL);

  object = JSON_NODE_HOLDS_OBJECT (feedback) ? json_node_get_object (feedback) : NULL;
  if (object == NULL)
    return;

  self->loading = TRUE;
  _triage_afp_editor_clear (self);

  confidence = json_object_has_member (object, "confidence") &&
               JSON_NODE_HOLDS_OBJECT (json_object_get_member (object, "confidence"))
               ? json_object_get_object_member (object, "confidence") : NULL;
  if (atp_afp_confidence_from_string (member_string (confidence, "level"), &level))
    gtk_check_button_set_active (self->levels[level], TRUE);
  _triage_afp_editor_set_entry (self->justification, member_string (confidence, "justification"));

  array = member_array (object, "positive_points");
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonObject *point = element_object (array, i);
      Item *item = _triage_afp_editor_add_item (self, FALSE, NULL, FALSE);

      _triage_afp_editor_set_entry (item->aspect, member_string (point, "aspect"));
      _triage_afp_editor_set_entry (item->text, member_string (point, "justification"));
    }

  array = member_array (object, "areas_for_improvement");
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonObject *area = element_object (array, i);
      gboolean carried;
      Item *item;

      id = member_string (area, "id");
      carried = id != NULL && self->review != NULL && g_hash_table_contains (self->review->issued, id);
      item = _triage_afp_editor_add_item (self, TRUE, id, carried);
      _triage_afp_editor_set_entry (item->aspect, member_string (area, "aspect"));
      _triage_afp_editor_set_entry (item->text, member_string (area, "description"));
      _triage_afp_editor_set_entry (item->recommendation, member_string (area, "recommendation"));
      /* A new item's id was generated from its aspect: it is again. */
      _triage_afp_editor_update_id (item);
    }

  _triage_afp_editor_set_entry (self->summary, member_string (object, "general_summary"));
  self->loading = FALSE;
  _triage_afp_editor_validate (self);
}

/**
 * triage_afp_editor_carry_over:
 * @self: a #TriageAfpEditor
 * @item: an area of the person's latest feedback
 *
 * Adds @item, with its id and words, to the areas for improvement.
 *
 * Returns: whether it was added (not when it is there already)
 */
gboolean
triage_afp_editor_carry_over (TriageAfpEditor         *self,
                              const AtpAfpImprovement *item)
{
  Item *added;

  g_return_val_if_fail (TRIAGE_IS_AFP_EDITOR (self), FALSE);
  g_return_val_if_fail (item != NULL, FALSE);

  if (triage_afp_editor_has_item (self, item->id))
    return FALSE;

  self->loading = TRUE;
  added = _triage_afp_editor_add_item (self, TRUE, item->id, TRUE);
  _triage_afp_editor_set_entry (added->aspect, item->aspect);
  _triage_afp_editor_set_entry (added->text, item->description);
  _triage_afp_editor_set_entry (added->recommendation, item->recommendation);
  self->loading = FALSE;
  _triage_afp_editor_update_id (added);
  gtk_widget_grab_focus (GTK_WIDGET (added->aspect));
  _triage_afp_editor_changed (self);
  return TRUE;
}

