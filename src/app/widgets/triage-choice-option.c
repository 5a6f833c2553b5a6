/* triage-choice-option.c — one option of a long multi_choice, an item of its list
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-choice-option"

#include <string.h>

#include "triage-choice-option.h"
#include "triage-decision-format.h"

/*
 * A long multi_choice's options are a GListModel of these, shown by a
 * GtkListView that makes rows only for what is on screen: whether an option
 * is ticked lives here, not in a check button. What is shown and what a
 * search compares are made the first time they are asked for, so 20,000
 * options cost 20,000 small objects and no text work until they are seen or
 * searched.
 */

struct _TriageChoiceOption
{
  GObject   parent_instance;

  guint     position;      /* in the action's options */
  char     *label;         /* the service's text */
  char     *shown_label;   /* as a label shows it: made visible, cut */
  char     *folded_label;  /* as a search compares it */
  gboolean  active;
};

G_DEFINE_FINAL_TYPE (TriageChoiceOption, triage_choice_option, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ACTIVE,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static void
triage_choice_option_finalize (GObject *object)
{
  TriageChoiceOption *self = (TriageChoiceOption *)object;

  g_free (self->label);
  g_free (self->shown_label);
  g_free (self->folded_label);

  G_OBJECT_CLASS (triage_choice_option_parent_class)->finalize (object);
}

static void
triage_choice_option_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  TriageChoiceOption *self = TRIAGE_CHOICE_OPTION (object);

  switch (prop_id)
    {
    case PROP_ACTIVE:
      g_value_set_boolean (value, self->active);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_choice_option_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  TriageChoiceOption *self = TRIAGE_CHOICE_OPTION (object);

  switch (prop_id)
    {
    case PROP_ACTIVE:
      triage_choice_option_set_active (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_choice_option_class_init (TriageChoiceOptionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = triage_choice_option_finalize;
  object_class->get_property = triage_choice_option_get_property;
  object_class->set_property = triage_choice_option_set_property;

  /**
   * TriageChoiceOption:active:
   *
   * Whether the option is ticked; a row's check button is bound to it.
   */
  properties [PROP_ACTIVE] =
    g_param_spec_boolean ("active", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
triage_choice_option_init (TriageChoiceOption *self)
{
}

/**
 * triage_choice_option_new:
 * @position: the option's index in the action's options
 * @label: the option's label as the service sent it (or its value)
 *
 * Returns: (transfer full): an option, not ticked
 */
TriageChoiceOption *
triage_choice_option_new (guint       position,
                          const char *label)
{
  TriageChoiceOption *self;

  g_return_val_if_fail (label != NULL, NULL);

  self = g_object_new (TRIAGE_TYPE_CHOICE_OPTION, NULL);
  self->position = position;
  self->label = g_strdup (label);

  return self;
}

guint
triage_choice_option_get_position (TriageChoiceOption *self)
{
  g_return_val_if_fail (TRIAGE_IS_CHOICE_OPTION (self), 0);

  return self->position;
}

/**
 * triage_choice_option_get_shown_label:
 *
 * Returns: the label as an option's check button shows it (hidden
 *   characters made visible, cut to TRIAGE_SHOWN_LABEL_CHARS)
 */
const char *
triage_choice_option_get_shown_label (TriageChoiceOption *self)
{
  g_return_val_if_fail (TRIAGE_IS_CHOICE_OPTION (self), NULL);

  if (self->shown_label == NULL)
    self->shown_label = triage_format_shown_text (self->label, TRIAGE_SHOWN_LABEL_CHARS);

  return self->shown_label;
}

/**
 * triage_choice_option_matches:
 * @folded_query: what was searched, folded with triage_format_fold()
 *
 * Returns: whether the label holds @folded_query, whatever the case and accents
 */
gboolean
triage_choice_option_matches (TriageChoiceOption *self,
                              const char         *folded_query)
{
  g_return_val_if_fail (TRIAGE_IS_CHOICE_OPTION (self), FALSE);

  if (self->folded_label == NULL)
    self->folded_label = triage_format_fold (self->label);

  return strstr (self->folded_label, folded_query) != NULL;
}

gboolean
triage_choice_option_get_active (TriageChoiceOption *self)
{
  g_return_val_if_fail (TRIAGE_IS_CHOICE_OPTION (self), FALSE);

  return self->active;
}

void
triage_choice_option_set_active (TriageChoiceOption *self,
                                 gboolean            active)
{
  g_return_if_fail (TRIAGE_IS_CHOICE_OPTION (self));

  active = !!active;
  if (self->active == active)
    return;

  self->active = active;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_ACTIVE]);
}
