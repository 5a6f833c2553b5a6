/* triage-response-editor-a11y.c — what a screen reader hears of an action's control
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-response-editor"

#include <glib/gi18n.h>

#include "triage-response-editor-private.h"

/*
 * The control a person types in, moves or ticks is described by what it asks
 * (its hint), then why the answer cannot be sent yet or, once it can, its
 * limits. Never by what changes at each key: the count of characters or
 * options and the value typed are in the counter and the reason shown, and
 * a screen reader says a focused control's description again whenever it
 * changes, so a count in it was said after every key. The description
 * changes only when what it says does (the answer becomes too short, too
 * long, sendable), and is set only then.
 */

static char *
number_text (gint64 value)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT, value);
}

/* "10–40 characters", "At most 40 characters", "At least 10 characters", or
 * NULL without limits. */
static char *
describe_length_limits (const AtpAction *action)
{
  g_autofree char *min = number_text (action->min_length);
  g_autofree char *max = number_text (action->max_length);

  if (action->max_length >= 0 && action->min_length > 0)
    /* Translators: the length an answer may have, e.g. "10–40 characters" */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s–%s character", "%s–%s characters",
                                         (gulong) action->max_length), min, max);
  if (action->max_length >= 0)
    /* Translators: the length an answer may have, e.g. "At most 40 characters" */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "At most %s character",
                                         "At most %s characters", (gulong) action->max_length),
                            max);
  if (action->min_length > 0)
    /* Translators: the length an answer must have, e.g. "At least 10 characters" */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "At least %s character",
                                         "At least %s characters", (gulong) action->min_length),
                            min);
  return NULL;
}

/* "Select 2", "Select 1–3", "Select up to 3", "Select at least 1", or NULL. */
static char *
describe_selection_limits (const AtpAction *action)
{
  g_autofree char *min = number_text (action->min_selections);
  g_autofree char *max = number_text (action->max_selections);

  if (action->max_selections >= 0 && action->min_selections > 0 &&
      action->min_selections == action->max_selections)
    /* Translators: how many options to select, e.g. "Select 2" */
    return g_strdup_printf (_("Select %s"), max);
  if (action->max_selections >= 0 && action->min_selections > 0)
    /* Translators: how many options to select, e.g. "Select 1–3" */
    return g_strdup_printf (_("Select %s–%s"), min, max);
  if (action->max_selections >= 0)
    /* Translators: how many options to select, e.g. "Select up to 3" */
    return g_strdup_printf (_("Select up to %s"), max);
  if (action->min_selections > 0)
    /* Translators: how many options to select, e.g. "Select at least 1" */
    return g_strdup_printf (_("Select at least %s"), min);
  return NULL;
}

/**
 * _triage_response_editor_describe_problem:
 * @self: the editor
 * @error: (nullable): why libatp refused the answer, or %NULL when the
 *   control holds none yet
 * @reason: the reason shown for it (which may say the count or the value)
 *
 * Returns: (transfer full): why the answer cannot be sent, in words that do
 *   not change at each key: the rule it breaks, not by how much
 */
char *
_triage_response_editor_describe_problem (TriageResponseEditor *self,
                                          const GError         *error,
                                          const char           *reason)
{
  const AtpAction *action = self->action;
  const char *message = error != NULL ? error->message : "";

  /* libatp names the rule at the end of its message, e.g. " (min_length)". */
  if (g_str_has_suffix (message, " (min_length)"))
    {
      g_autofree char *min = number_text (action->min_length);

      /* Translators: why a text answer cannot be sent, e.g. "Too short: at least 10 characters." */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Too short: at least %s character.",
                                           "Too short: at least %s characters.",
                                           (gulong) action->min_length), min);
    }
  if (g_str_has_suffix (message, " (max_length)"))
    {
      g_autofree char *max = number_text (action->max_length);

      /* Translators: why a text answer cannot be sent, e.g. "Too long: at most 40 characters." */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Too long: at most %s character.",
                                           "Too long: at most %s characters.",
                                           (gulong) action->max_length), max);
    }
  if (g_str_has_suffix (message, " (min_selections)"))
    {
      g_autofree char *min = number_text (action->min_selections);

      /* Translators: why the options ticked cannot be sent, e.g. "Too few selected: at least 2." */
      return g_strdup_printf (_("Too few selected: at least %s."), min);
    }
  if (g_str_has_suffix (message, " (max_selections)"))
    {
      g_autofree char *max = number_text (action->max_selections);

      /* Translators: why the options ticked cannot be sent, e.g. "Too many selected: at most 2." */
      return g_strdup_printf (_("Too many selected: at most %s."), max);
    }
  if (g_str_has_suffix (message, " (min)"))
    /* Translators: why a number cannot be sent; the range is said before it */
    return g_strdup (_("Below the minimum."));
  if (g_str_has_suffix (message, " (max)"))
    /* Translators: why a number cannot be sent; the range is said before it */
    return g_strdup (_("Above the maximum."));
  if (strstr (message, " (step)") != NULL)
    /* Translators: why a number cannot be sent; the steps are said before it */
    return g_strdup (_("Not one of the steps."));

  /* No answer yet: "Enter a number" stays, what was typed goes. */
  if (error == NULL && action->response_type == ATP_RESPONSE_TYPE_NUMBER &&
      _triage_response_number_is_ambiguous (gtk_editable_get_text (GTK_EDITABLE (self->input))))
    /* Translators: why a number field's text cannot be sent, e.g. "1,000" */
    return g_strdup (_("Can be read two ways: no thousands separator."));
  if (error == NULL && action->response_type == ATP_RESPONSE_TYPE_NUMBER &&
      !_triage_response_text_is_blank (gtk_editable_get_text (GTK_EDITABLE (self->input))))
    /* Translators: why a number field's text cannot be sent */
    return g_strdup (_("Not a number."));

  return g_strdup (reason);
}

static void
describe (GtkWidget  *widget,
          const char *text)
{
  if (*text != '\0')
    gtk_accessible_update_property (GTK_ACCESSIBLE (widget),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

/* The Send button says the reason too, but it is insensitive while it has
 * one, and Tab never reaches it. A multi_choice's boxes each say it: they
 * are what takes the focus, not their group. */
void
_triage_response_editor_sync_description (TriageResponseEditor *self)
{
  g_autoptr(GString) text = g_string_new (self->input_hint);
  g_autofree char *limits = NULL;
  const char *state = NULL;

  if (self->input == NULL)
    return;

  if (self->editable && !self->valid && self->problem != NULL)
    state = self->problem;
  else if (self->editable && self->action->response_type == ATP_RESPONSE_TYPE_TEXT)
    state = limits = describe_length_limits (self->action);
  else if (self->editable && self->action->response_type == ATP_RESPONSE_TYPE_MULTI_CHOICE)
    state = limits = describe_selection_limits (self->action);
  if (state != NULL && *state != '\0')
    {
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, state);
    }

  if (g_strcmp0 (self->description, text->str) == 0)
    return;
  g_free (self->description);
  self->description = g_strdup (text->str);

  if (self->action->response_type == ATP_RESPONSE_TYPE_MULTI_CHOICE)
    /* A long list's rows not on screen yet take it when they are made. */
    _triage_response_editor_foreach_option_button (self, (GFunc) describe, text->str);
  else
    {
      describe (self->input, text->str);
      /* A long slider's exact value, typed in: the same limits and reason. */
      if (self->scale_spin != NULL)
        describe (self->scale_spin, text->str);
      /* A drop-down's own button is what takes the focus. */
      if (GTK_IS_DROP_DOWN (self->input))
        for (GtkWidget *child = gtk_widget_get_first_child (self->input); child != NULL;
             child = gtk_widget_get_next_sibling (child))
          if (GTK_IS_TOGGLE_BUTTON (child))
            describe (child, text->str);
    }
}
