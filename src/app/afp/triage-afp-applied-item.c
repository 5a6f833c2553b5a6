/* triage-afp-applied-item.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-afp-applied"

#include <glib/gi18n.h>

#include "triage-afp-applied-item.h"

/*
 * One card of "Your Earlier Feedback" (TriageAfpApplied), the item of its
 * list: an area for improvement the person gave in their latest feedback,
 * with what the agent says it did with it (or nothing, when the agent did
 * not mention it), or the agent's decision on an id the person never gave.
 * It points into its review, which it keeps; whether the person carried the
 * earlier item over, and whether they still may, change, and the card shown
 * for it follows (TriageAfpAppliedCard).
 */

struct _TriageAfpAppliedItem
{
  GObject                  parent_instance;

  AtpAfpReview            *review;
  const AtpAfpImprovement *earlier;     /* NULL: an id the person never gave */
  const AtpAfpAppliedItem *applied;     /* NULL: not mentioned by the agent */
  gboolean                 first_unknown;
  gboolean                 carried;
  gboolean                 editable;
};

G_DEFINE_FINAL_TYPE (TriageAfpAppliedItem, triage_afp_applied_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_CARRIED,
  PROP_EDITABLE,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

/**
 * triage_afp_applied_item_new_earlier:
 * @review: the review @earlier and @applied belong to
 * @earlier: an area for improvement of the person's latest feedback
 * @applied: (nullable): the agent's decision on it; %NULL if it did not mention it
 *
 * Returns: (transfer full): the item
 */
TriageAfpAppliedItem *
triage_afp_applied_item_new_earlier (AtpAfpReview            *review,
                                     const AtpAfpImprovement *earlier,
                                     const AtpAfpAppliedItem *applied)
{
  TriageAfpAppliedItem *self;

  g_return_val_if_fail (review != NULL, NULL);
  g_return_val_if_fail (earlier != NULL, NULL);

  self = g_object_new (TRIAGE_TYPE_AFP_APPLIED_ITEM, NULL);
  self->review = atp_afp_review_ref (review);
  self->earlier = earlier;
  self->applied = applied;

  return self;
}

/**
 * triage_afp_applied_item_new_unknown:
 * @review: the review @applied belongs to
 * @applied: the agent's decision on an id that was not in the person's latest feedback
 * @first: whether it is the first of those (its card says what they are)
 *
 * Returns: (transfer full): the item
 */
TriageAfpAppliedItem *
triage_afp_applied_item_new_unknown (AtpAfpReview            *review,
                                     const AtpAfpAppliedItem *applied,
                                     gboolean                 first)
{
  TriageAfpAppliedItem *self;

  g_return_val_if_fail (review != NULL, NULL);
  g_return_val_if_fail (applied != NULL, NULL);

  self = g_object_new (TRIAGE_TYPE_AFP_APPLIED_ITEM, NULL);
  self->review = atp_afp_review_ref (review);
  self->applied = applied;
  self->first_unknown = first;

  return self;
}

const char *
triage_afp_applied_item_get_id (TriageAfpAppliedItem *self)
{
  g_return_val_if_fail (TRIAGE_IS_AFP_APPLIED_ITEM (self), NULL);

  return self->earlier != NULL ? self->earlier->id : self->applied->id;
}

/* Returns: (nullable): the person's item; %NULL for an id they never gave */
const AtpAfpImprovement *
triage_afp_applied_item_get_earlier (TriageAfpAppliedItem *self)
{
  g_return_val_if_fail (TRIAGE_IS_AFP_APPLIED_ITEM (self), NULL);

  return self->earlier;
}

/* Returns: (nullable): the agent's decision; %NULL when it did not mention the item */
const AtpAfpAppliedItem *
triage_afp_applied_item_get_applied (TriageAfpAppliedItem *self)
{
  g_return_val_if_fail (TRIAGE_IS_AFP_APPLIED_ITEM (self), NULL);

  return self->applied;
}

/* Whether this is the first decision on an id the person never gave. */
gboolean
triage_afp_applied_item_get_first_unknown (TriageAfpAppliedItem *self)
{
  g_return_val_if_fail (TRIAGE_IS_AFP_APPLIED_ITEM (self), FALSE);

  return self->first_unknown;
}

/**
 * triage_afp_applied_item_get_status:
 * @self: an item
 * @icon_name: (out) (optional): the decision's icon
 * @css_class: (out) (optional): the icon's colour (never alone: the words say it)
 *
 * Returns: the agent's decision in words
 */
const char *
triage_afp_applied_item_get_status (TriageAfpAppliedItem  *self,
                                    const char           **icon_name,
                                    const char           **css_class)
{
  const char *icon = "dialog-question-symbolic";
  const char *word = _("The agent did not mention this item");
  const char *css = "dim-label";

  g_return_val_if_fail (TRIAGE_IS_AFP_APPLIED_ITEM (self), NULL);

  if (self->applied != NULL)
    switch (self->applied->status)
      {
      case ATP_AFP_APPLIED_ACCEPTED:
        icon = "object-select-symbolic";
        /* Translators: what the agent did with the person's item */
        word = _("Accepted: applied as recommended");
        css = "success";
        break;
      case ATP_AFP_APPLIED_PARTIAL:
        icon = "view-more-horizontal-symbolic";
        /* Translators: what the agent did with the person's item */
        word = _("Partly applied");
        css = "warning";
        break;
      case ATP_AFP_APPLIED_REJECTED:
      default:
        icon = "action-unavailable-symbolic";
        /* Translators: what the agent did with the person's item */
        word = _("Rejected: not applied");
        css = "error";
        break;
      }

  if (icon_name != NULL)
    *icon_name = icon;
  if (css_class != NULL)
    *css_class = css;
  return word;
}

/* Whether the person's item is in this iteration's feedback already. */
gboolean
triage_afp_applied_item_get_carried (TriageAfpAppliedItem *self)
{
  g_return_val_if_fail (TRIAGE_IS_AFP_APPLIED_ITEM (self), FALSE);

  return self->carried;
}

void
triage_afp_applied_item_set_carried (TriageAfpAppliedItem *self,
                                     gboolean              carried)
{
  g_return_if_fail (TRIAGE_IS_AFP_APPLIED_ITEM (self));

  carried = !!carried;
  if (self->carried == carried)
    return;

  self->carried = carried;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CARRIED]);
}

/* Whether the review may still be answered (and the item carried over). */
gboolean
triage_afp_applied_item_get_editable (TriageAfpAppliedItem *self)
{
  g_return_val_if_fail (TRIAGE_IS_AFP_APPLIED_ITEM (self), FALSE);

  return self->editable;
}

void
triage_afp_applied_item_set_editable (TriageAfpAppliedItem *self,
                                      gboolean              editable)
{
  g_return_if_fail (TRIAGE_IS_AFP_APPLIED_ITEM (self));

  editable = !!editable;
  if (self->editable == editable)
    return;

  self->editable = editable;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EDITABLE]);
}

static void
triage_afp_applied_item_finalize (GObject *object)
{
  TriageAfpAppliedItem *self = TRIAGE_AFP_APPLIED_ITEM (object);

  g_clear_pointer (&self->review, atp_afp_review_unref);

  G_OBJECT_CLASS (triage_afp_applied_item_parent_class)->finalize (object);
}

static void
triage_afp_applied_item_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  TriageAfpAppliedItem *self = TRIAGE_AFP_APPLIED_ITEM (object);

  switch (prop_id)
    {
    case PROP_CARRIED:
      g_value_set_boolean (value, self->carried);
      break;
    case PROP_EDITABLE:
      g_value_set_boolean (value, self->editable);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_afp_applied_item_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  TriageAfpAppliedItem *self = TRIAGE_AFP_APPLIED_ITEM (object);

  switch (prop_id)
    {
    case PROP_CARRIED:
      triage_afp_applied_item_set_carried (self, g_value_get_boolean (value));
      break;
    case PROP_EDITABLE:
      triage_afp_applied_item_set_editable (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_afp_applied_item_class_init (TriageAfpAppliedItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = triage_afp_applied_item_finalize;
  object_class->get_property = triage_afp_applied_item_get_property;
  object_class->set_property = triage_afp_applied_item_set_property;

  properties[PROP_CARRIED] =
    g_param_spec_boolean ("carried", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_EDITABLE] =
    g_param_spec_boolean ("editable", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
triage_afp_applied_item_init (TriageAfpAppliedItem *self)
{
  self->editable = TRUE;
}
