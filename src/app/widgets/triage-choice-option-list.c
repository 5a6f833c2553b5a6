/* triage-choice-option-list.c — a multi_choice's options as a list model, each made when first asked for
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-choice-option-list"

#include "triage-atp-format.h"
#include "triage-choice-option-list.h"

/*
 * A GListModel of an action's options (TriageChoiceOption) that makes an
 * item the first time it is asked for, and keeps it: a list view asks for
 * the rows on screen, so 20,000 options cost 20,000 pointers until a search
 * goes through them. An option never asked for is not ticked
 * (triage_choice_option_list_peek()).
 */

struct _TriageChoiceOptionList
{
  GObject    parent_instance;

  GPtrArray *options;   /* the action's AtpOption */
  GPtrArray *items;     /* TriageChoiceOption or NULL, one per option */
};

static void
item_unref (gpointer item)
{
  if (item != NULL)
    g_object_unref (item);
}

static GType
triage_choice_option_list_get_item_type (GListModel *model)
{
  return TRIAGE_TYPE_CHOICE_OPTION;
}

static guint
triage_choice_option_list_get_n_items (GListModel *model)
{
  return TRIAGE_CHOICE_OPTION_LIST (model)->items->len;
}

static gpointer
triage_choice_option_list_get_item (GListModel *model,
                                    guint       position)
{
  TriageChoiceOptionList *self = TRIAGE_CHOICE_OPTION_LIST (model);

  if (position >= self->items->len)
    return NULL;

  if (g_ptr_array_index (self->items, position) == NULL)
    {
      const AtpOption *option = g_ptr_array_index (self->options, position);

      self->items->pdata[position] = triage_choice_option_new (position,
                                                              triage_atp_label (option->label,
                                                                                option->value));
    }

  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = triage_choice_option_list_get_item_type;
  iface->get_n_items = triage_choice_option_list_get_n_items;
  iface->get_item = triage_choice_option_list_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (TriageChoiceOptionList, triage_choice_option_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static void
triage_choice_option_list_finalize (GObject *object)
{
  TriageChoiceOptionList *self = (TriageChoiceOptionList *)object;

  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->options, g_ptr_array_unref);

  G_OBJECT_CLASS (triage_choice_option_list_parent_class)->finalize (object);
}

static void
triage_choice_option_list_class_init (TriageChoiceOptionListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = triage_choice_option_list_finalize;
}

static void
triage_choice_option_list_init (TriageChoiceOptionList *self)
{
}

/**
 * triage_choice_option_list_new:
 * @action: a choice or multi_choice
 *
 * Returns: (transfer full): the model of @action's options, none made yet
 */
TriageChoiceOptionList *
triage_choice_option_list_new (const AtpAction *action)
{
  TriageChoiceOptionList *self;

  g_return_val_if_fail (action != NULL && action->options != NULL, NULL);

  self = g_object_new (TRIAGE_TYPE_CHOICE_OPTION_LIST, NULL);
  self->options = g_ptr_array_ref (action->options);
  self->items = g_ptr_array_new_full (action->options->len, item_unref);
  g_ptr_array_set_size (self->items, action->options->len);

  return self;
}

/**
 * triage_choice_option_list_peek:
 * @position: an option's index in the action's options
 *
 * Returns: (transfer none) (nullable): the option's item if it was made
 *   (by g_list_model_get_item()), else %NULL
 */
TriageChoiceOption *
triage_choice_option_list_peek (TriageChoiceOptionList *self,
                                guint                   position)
{
  g_return_val_if_fail (TRIAGE_IS_CHOICE_OPTION_LIST (self), NULL);

  return position < self->items->len ? g_ptr_array_index (self->items, position) : NULL;
}
