/* triage-atp-format.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-atp-format"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "triage-atp-format.h"
#include "triage-decision-format.h"

/*
 * The words ATP's parts are shown with: its flags, the counters of its
 * editors, its validation errors made sentences, and an answer as the person
 * chose it. No GTK here: the protocol (triage-atp-protocol.c) describes
 * answers with these for the bubble, the history and the banners.
 */

#define MAX_FLAG_LABEL_CHARS 40
#define MAX_DESCRIBED_TEXT_CHARS 120

/* Flags */

/* An untrusted name made readable: "needs_review" → "Needs review". Control
 * and invisible formatting characters are dropped, the length is capped. */
static char *
readable_flag_name (const char *flag_name)
{
  GString *str = g_string_new (NULL);
  guint n = 0;

  for (const char *p = flag_name; *p != '\0' && n < MAX_FLAG_LABEL_CHARS; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '_' || c == '-' || g_unichar_isspace (c))
        c = ' ';
      else if (g_unichar_iscntrl (c) || g_unichar_type (c) == G_UNICODE_FORMAT)
        continue;

      /* No leading or doubled spaces. */
      if (c == ' ' && (str->len == 0 || str->str[str->len - 1] == ' '))
        continue;

      if (str->len == 0)
        c = g_unichar_totitle (c);
      g_string_append_unichar (str, c);
      n++;
    }

  if (*flag_name != '\0' && n == MAX_FLAG_LABEL_CHARS)
    g_string_append (str, "…");

  while (str->len > 0 && str->str[str->len - 1] == ' ')
    g_string_truncate (str, str->len - 1);

  if (str->len == 0)
    {
      g_string_free (str, TRUE);
      return g_strdup (_("Unnamed flag"));
    }

  return g_string_free (str, FALSE);
}

/**
 * triage_flag_info_init:
 * @info: (out caller-allocates): the presentation
 * @flag_name: a flag as sent (known or not)
 *
 * Fills @info; free its strings with triage_flag_info_clear().
 */
void
triage_flag_info_init (TriageFlagInfo *info,
                       const char     *flag_name)
{
  g_return_if_fail (info != NULL);
  g_return_if_fail (flag_name != NULL);

  memset (info, 0, sizeof *info);
  info->known = TRUE;

  switch (atp_flag_from_string (flag_name))
    {
    case ATP_FLAG_DESTRUCTIVE:
      info->icon_name = "user-trash-symbolic";
      info->label = g_strdup (_("Destructive"));
      info->consequence = g_strdup (_("It deletes, removes or significantly changes existing data."));
      info->style_class = "error";
      break;

    case ATP_FLAG_IRREVERSIBLE:
      info->icon_name = "action-unavailable-symbolic";
      info->label = g_strdup (_("Irreversible"));
      info->consequence = g_strdup (_("It cannot be undone."));
      info->style_class = "error";
      break;

    case ATP_FLAG_TIME_SENSITIVE:
      info->icon_name = "alarm-symbolic";
      info->label = g_strdup (_("Time-sensitive"));
      info->consequence = g_strdup (_("It only helps if it happens promptly."));
      info->style_class = "warning";
      break;

    case ATP_FLAG_AFFECTS_OTHERS:
      info->icon_name = "system-users-symbolic";
      info->label = g_strdup (_("Affects others"));
      info->consequence = g_strdup (_("It affects other people, systems or shared resources."));
      info->style_class = "warning";
      break;

    case ATP_FLAG_COSTLY:
      info->icon_name = "triage-costly-symbolic";
      info->label = g_strdup (_("Costly"));
      info->consequence = g_strdup (_("It uses significant resources or costs money."));
      info->style_class = "warning";
      break;

    case ATP_FLAG_EXPERIMENTAL:
      info->icon_name = "applications-science-symbolic";
      info->label = g_strdup (_("Experimental"));
      info->consequence = g_strdup (_("It uses beta features and may behave unpredictably."));
      info->style_class = "accent";
      break;

    case ATP_FLAG_REQUIRES_CONFIRMATION:
      info->icon_name = "security-high-symbolic";
      info->label = g_strdup (_("Needs confirmation"));
      info->consequence = g_strdup (_("The service asks you to confirm it explicitly."));
      info->style_class = "accent";
      break;

    case ATP_FLAG_NONE:
    default:
      info->known = FALSE;
      info->icon_name = "emoji-flags-symbolic";
      info->label = readable_flag_name (flag_name);
      /* Translators: %s is a flag this version does not know, as the service named it */
      info->consequence = g_strdup_printf (_("The service marks it as “%s”."), info->label);
      info->style_class = NULL;
      break;
    }
}

void
triage_flag_info_clear (TriageFlagInfo *info)
{
  g_return_if_fail (info != NULL);

  g_clear_pointer (&info->label, g_free);
  g_clear_pointer (&info->consequence, g_free);
}

/* Counters */

static char *
int64_text (gint64 value)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT, value);
}

/**
 * triage_format_selection_count:
 * @selected: options selected
 * @min_selections: at least (0: no minimum)
 * @max_selections: at most (-1: unlimited)
 *
 * Returns: (transfer full): "2 of 1–3 selected", "2 of 3 selected",
 *   "2 of up to 3 selected", "2 selected, at least 1", "2 selected"
 */
char *
triage_format_selection_count (guint  selected,
                               gint64 min_selections,
                               gint64 max_selections)
{
  g_autofree char *n = g_strdup_printf ("%u", selected);
  g_autofree char *min = int64_text (min_selections);
  g_autofree char *max = int64_text (max_selections);

  if (max_selections >= 0 && min_selections > 0 && min_selections == max_selections)
    /* Translators: options selected of the exact number required, e.g. "2 of 3 selected" */
    return g_strdup_printf (_("%s of %s selected"), n, max);
  if (max_selections >= 0 && min_selections > 0)
    /* Translators: options selected and the range allowed, e.g. "2 of 1–3 selected" */
    return g_strdup_printf (_("%s of %s–%s selected"), n, min, max);
  if (max_selections >= 0)
    /* Translators: options selected and the maximum, e.g. "2 of up to 3 selected" */
    return g_strdup_printf (_("%s of up to %s selected"), n, max);
  if (min_selections > 0)
    /* Translators: options selected and the minimum, e.g. "2 selected, at least 1" */
    return g_strdup_printf (_("%s selected, at least %s"), n, min);

  /* Translators: options selected, e.g. "2 selected" */
  return g_strdup_printf (_("%s selected"), n);
}

/**
 * triage_format_character_count:
 * @length: characters typed (Unicode characters)
 * @min_length: at least (0: no minimum)
 * @max_length: at most (-1: unlimited)
 *
 * Returns: (transfer full): "12 of 10–1000 characters", "12 of at most 1000
 *   characters", "12 characters, at least 10", "12 characters"
 */
char *
triage_format_character_count (glong  length,
                               gint64 min_length,
                               gint64 max_length)
{
  g_autofree char *n = g_strdup_printf ("%ld", length);
  g_autofree char *min = int64_text (min_length);
  g_autofree char *max = int64_text (max_length);

  if (max_length >= 0 && min_length > 0)
    /* Translators: characters typed and the range allowed, e.g. "12 of 10–1000 characters" */
    return g_strdup_printf (_("%s of %s–%s characters"), n, min, max);
  if (max_length >= 0)
    /* Translators: characters typed and the maximum, e.g. "12 of at most 1000 characters" */
    return g_strdup_printf (_("%s of at most %s characters"), n, max);
  if (min_length > 0)
    /* Translators: characters typed and the minimum, e.g. "12 characters, at least 10" */
    return g_strdup_printf (_("%s characters, at least %s"), n, min);

  /* Translators: characters typed */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s character", "%s characters",
                                       (gulong) length), n);
}

/* Answers */

/* Constraint names libatp puts after a message, e.g. " (max_selections)". */
static const char * const constraint_tags[] = {
  " (min_selections)", " (max_selections)", " (min_length)", " (max_length)",
  " (min)", " (max)", " (step)",
};

/* "0.7000000000000001" (a double's rounding showing) becomes "0.7". */
static char *
tidy_numbers (const char *text)
{
  GString *str = g_string_new (NULL);
  const char *p = text;

  while (*p != '\0')
    {
      char *end = NULL;
      const char *dot;
      double value;

      if (!g_ascii_isdigit (*p) || (p > text && (g_ascii_isalnum (p[-1]) || p[-1] == '.')))
        {
          g_string_append_c (str, *p++);
          continue;
        }

      value = g_ascii_strtod (p, &end);
      dot = memchr (p, '.', end - p);
      if (dot != NULL && end - dot - 1 > 12 && isfinite (value))
        {
          char buf[G_ASCII_DTOSTR_BUF_SIZE];

          g_string_append (str, g_ascii_formatd (buf, sizeof buf, "%.12g", value));
        }
      else
        g_string_append_len (str, p, end - p);
      p = end;
    }

  return g_string_free (str, FALSE);
}

/**
 * triage_humanize_response_error:
 * @error: an error of atp_action_validate_response()
 *
 * Makes libatp's message (written for a developer, the server's wording)
 * read as a sentence: "response_data: is 3 characters long, at least 10
 * required (min_length)" becomes "The answer is 3 characters long, at least
 * 10 required."
 *
 * Returns: (transfer full): the reason for the person
 */
char *
triage_humanize_response_error (const GError *error)
{
  GString *str;
  const char *text;

  g_return_val_if_fail (error != NULL, NULL);

  text = error->message;
  if (g_str_has_prefix (text, "response_data"))
    {
      const char *colon = strstr (text, ": ");

      if (colon != NULL)
        text = colon + 2;
    }

  {
    g_autofree char *tidy = tidy_numbers (text);

    str = g_string_new (tidy);
  }
  for (guint i = 0; i < G_N_ELEMENTS (constraint_tags); i++)
    g_string_replace (str, constraint_tags[i], "", 0);

  /* "is 3 characters long" has its subject in the prefix just removed. */
  if (g_str_has_prefix (str->str, "is ") || g_str_has_prefix (str->str, "must "))
    {
      /* Translators: %s is a rule the answer breaks, from the protocol library (in
       * English), e.g. "must be at most 3 characters long" */
      g_autofree char *sentence = g_strdup_printf (_("The answer %s"), str->str);

      g_string_assign (str, sentence);
    }

  if (str->len > 0 && g_ascii_islower (str->str[0]))
    str->str[0] = g_ascii_toupper (str->str[0]);
  if (str->len > 0 && str->str[str->len - 1] != '.')
    g_string_append_c (str, '.');

  return g_string_free (str, FALSE);
}

/**
 * triage_atp_label:
 * @label: (nullable): an action's or an option's label
 * @stand_in: what names it otherwise: the action's id, the option's value
 *
 * A label of invisible characters alone (U+200B, U+2060, U+3164…) shows
 * nothing, and a button of it says nothing to see or hear. Our server
 * refuses one, but a request it took before, or another server's, may have
 * it: the app reads what is stored as it is.
 *
 * Returns: (transfer none): @label, or @stand_in when @label shows nothing
 *   (and @stand_in does)
 */
const char *
triage_atp_label (const char *label,
                  const char *stand_in)
{
  return atp_str_is_blank (label) && !atp_str_is_blank (stand_in) ? stand_in : label;
}

/**
 * triage_atp_action_label:
 *
 * Returns: (transfer none): the action's label, or its id when the label
 *   shows nothing (triage_atp_label())
 */
const char *
triage_atp_action_label (const AtpAction *action)
{
  return triage_atp_label (action->label, action->id);
}

/**
 * triage_atp_answer_label:
 * @action: a binary action
 * @answer: the answer
 *
 * Returns: (transfer none): the answer's label, or "Yes" or "No" when it
 *   shows nothing (triage_atp_label())
 */
const char *
triage_atp_answer_label (const AtpAction *action,
                         gboolean         answer)
{
  return answer ? triage_atp_label (action->true_label, _("Yes"))
                : triage_atp_label (action->false_label, _("No"));
}

static const char *
option_label (const AtpAction *action,
              const char      *value)
{
  for (guint i = 0; action->options != NULL && i < action->options->len; i++)
    {
      const AtpOption *option = g_ptr_array_index (action->options, i);

      if (g_str_equal (option->value, value))
        return triage_atp_label (option->label, option->value);
    }

  return value;
}

/**
 * triage_describe_response:
 * @action: the action answered
 * @response_data: (nullable): a valid answer to it
 *
 * Returns: (transfer full): the answer as the person chose it: the action's
 *   label for a simple action, an option's label, the number with its unit,
 *   the start of a text in quotes
 */
char *
triage_describe_response (const AtpAction *action,
                          JsonNode        *response_data)
{
  g_return_val_if_fail (action != NULL, NULL);

  switch (action->response_type)
    {
    case ATP_RESPONSE_TYPE_BINARY:
      if (response_data != NULL && JSON_NODE_HOLDS_VALUE (response_data) &&
          json_node_get_value_type (response_data) == G_TYPE_BOOLEAN)
        return g_strdup (triage_atp_answer_label (action, json_node_get_boolean (response_data)));
      break;

    case ATP_RESPONSE_TYPE_CHOICE:
      if (response_data != NULL && JSON_NODE_HOLDS_VALUE (response_data) &&
          json_node_get_value_type (response_data) == G_TYPE_STRING)
        return g_strdup (option_label (action, json_node_get_string (response_data)));
      break;

    case ATP_RESPONSE_TYPE_MULTI_CHOICE:
      if (response_data != NULL && JSON_NODE_HOLDS_ARRAY (response_data))
        {
          JsonArray *array = json_node_get_array (response_data);
          GString *str = g_string_new (NULL);

          for (guint i = 0; i < json_array_get_length (array); i++)
            {
              const char *value = json_array_get_string_element (array, i);

              if (value == NULL)
                continue;
              if (str->len > 0)
                /* Translators: separates the options chosen in a list */
                g_string_append (str, _(", "));
              g_string_append (str, option_label (action, value));
            }
          if (str->len == 0)
            {
              g_string_free (str, TRUE);
              return g_strdup (_("Nothing selected"));
            }
          return g_string_free (str, FALSE);
        }
      break;

    case ATP_RESPONSE_TYPE_TEXT:
      if (response_data != NULL && JSON_NODE_HOLDS_VALUE (response_data) &&
          json_node_get_value_type (response_data) == G_TYPE_STRING)
        {
          const char *text = json_node_get_string (response_data);
          g_autofree char *cut = NULL;

          if (*text == '\0')
            return g_strdup (_("An empty text"));
          cut = triage_format_cut_text (text, MAX_DESCRIBED_TEXT_CHARS);
          return g_strdup_printf ("“%s”", cut);
        }
      break;

    case ATP_RESPONSE_TYPE_NUMBER:
    case ATP_RESPONSE_TYPE_SCALE:
      if (response_data != NULL && JSON_NODE_HOLDS_VALUE (response_data) &&
          (json_node_get_value_type (response_data) == G_TYPE_INT64 ||
           json_node_get_value_type (response_data) == G_TYPE_DOUBLE))
        {
          double value = json_node_get_double (response_data);
          g_autofree char *number = triage_format_number (value, -1);

          if (action->response_type == ATP_RESPONSE_TYPE_NUMBER && action->unit != NULL)
            return g_strdup_printf ("%s %s", number, action->unit);
          if (action->response_type == ATP_RESPONSE_TYPE_SCALE)
            {
              if (value == action->min && action->min_label != NULL)
                return g_strdup_printf ("%s (%s)", number, action->min_label);
              if (value == action->max && action->max_label != NULL)
                return g_strdup_printf ("%s (%s)", number, action->max_label);
            }
          return g_steal_pointer (&number);
        }
      break;

    case ATP_RESPONSE_TYPE_SIMPLE:
    default:
      break;
    }

  return g_strdup (triage_atp_action_label (action));
}
