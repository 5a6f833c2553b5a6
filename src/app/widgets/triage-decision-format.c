/* triage-decision-format.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-decision-format"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "triage-decision-format.h"

#define MAX_FLAG_LABEL_CHARS 40
#define MAX_DESCRIBED_TEXT_CHARS 120
#define MAX_EXACT_INTEGER 9007199254740992.0 /* 2^53 */

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

/* Times */

/**
 * triage_format_duration:
 * @remaining: a positive time span
 *
 * Rounded up to the second, so a countdown reaches "0" only at the deadline:
 * "4 min 12 s", "2 h 5 min", "3 d 4 h", "42 s".
 *
 * Returns: (transfer full): the duration
 */
char *
triage_format_duration (GTimeSpan remaining)
{
  gint64 seconds = (MAX (remaining, 0) + G_TIME_SPAN_SECOND - 1) / G_TIME_SPAN_SECOND;
  int days = seconds / 86400;
  int hours = (seconds % 86400) / 3600;
  int minutes = (seconds % 3600) / 60;
  int secs = seconds % 60;

  if (seconds >= 86400)
    {
      if (hours == 0)
        /* Translators: a remaining time in days (abbreviated), e.g. "3 d" */
        return g_strdup_printf (_("%d d"), days);
      /* Translators: a remaining time in days and hours (abbreviated), e.g. "3 d 4 h" */
      return g_strdup_printf (_("%d d %d h"), days, hours);
    }
  if (seconds >= 3600)
    /* Translators: a remaining time in hours and minutes (abbreviated), e.g. "2 h 5 min" */
    return g_strdup_printf (_("%d h %d min"), hours, minutes);
  if (seconds >= 60)
    /* Translators: a remaining time in minutes and seconds (abbreviated), e.g. "4 min 12 s" */
    return g_strdup_printf (_("%d min %d s"), minutes, secs);

  /* Translators: a remaining time in seconds (abbreviated), e.g. "42 s" */
  return g_strdup_printf (_("%d s"), secs);
}

/**
 * triage_format_countdown:
 * @remaining: time left until the deadline
 *
 * Returns: (transfer full): "Due in 4 min 12 s", or "Expired" once nothing is left
 */
char *
triage_format_countdown (GTimeSpan remaining)
{
  g_autofree char *duration = NULL;

  if (remaining <= 0)
    return g_strdup (_("Expired"));

  duration = triage_format_duration (remaining);
  /* Translators: %s is a remaining time such as "4 min 12 s" */
  return g_strdup_printf (_("Due in %s"), duration);
}

/**
 * triage_format_time:
 * @when: a moment
 * @now: (nullable): the present (default: the current time)
 *
 * Returns: (transfer full): the local time of @when, with the date when it is
 *   not today: "14:05", "3 May, 14:05", "3 May 2025, 14:05"
 */
char *
triage_format_time (GDateTime *when,
                    GDateTime *now)
{
  g_autoptr(GDateTime) local = NULL;
  g_autoptr(GDateTime) local_now = NULL;

  g_return_val_if_fail (when != NULL, NULL);

  local = g_date_time_to_local (when);
  local_now = now ? g_date_time_to_local (now) : g_date_time_new_now_local ();

  if (g_date_time_get_year (local) == g_date_time_get_year (local_now) &&
      g_date_time_get_day_of_year (local) == g_date_time_get_day_of_year (local_now))
    /* Translators: a time of today, see the strftime manual page */
    return g_date_time_format (local, _("%H:%M"));

  if (g_date_time_get_year (local) == g_date_time_get_year (local_now))
    /* Translators: a date of this year and a time, see the strftime manual page */
    return g_date_time_format (local, _("%-d %b, %H:%M"));

  /* Translators: a date and a time, see the strftime manual page */
  return g_date_time_format (local, _("%-d %b %Y, %H:%M"));
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

/* Numbers */

/**
 * triage_number_digits:
 * @value: a number from a definition (a step, a bound)
 *
 * Returns: how many decimals @value needs (at most 12): 0.05 → 2, 10 → 0
 */
int
triage_number_digits (double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  const char *dot;
  int digits;

  if (!isfinite (value))
    return 0;

  g_ascii_formatd (buf, sizeof buf, "%.12f", fabs (value));
  dot = strchr (buf, '.');
  if (dot == NULL)
    return 0;

  digits = strlen (dot + 1);
  while (digits > 0 && dot[digits] == '0')
    digits--;

  return digits;
}

/**
 * triage_format_number:
 * @value: a number
 * @digits: decimals to show, or -1 for the shortest text that reads back as @value
 *
 * Returns: (transfer full): @value in the user's locale
 */
char *
triage_format_number (double value,
                      int    digits)
{
  char *text;

  if (digits >= 0)
    return g_strdup_printf ("%.*f", digits, value);

  text = g_strdup_printf ("%.15g", value);
  if (g_strtod (text, NULL) != value)
    {
      g_free (text);
      text = g_strdup_printf ("%.17g", value);
    }

  return text;
}

/**
 * triage_json_number_new:
 * @value: a finite number
 *
 * Returns: (transfer full): an integer node for an integral value that
 *   doubles hold exactly (42, not 42.0), a double node otherwise
 */
JsonNode *
triage_json_number_new (double value)
{
  JsonNode *node = json_node_alloc ();

  if (value == floor (value) && fabs (value) <= MAX_EXACT_INTEGER)
    json_node_init_int (node, (gint64) value);
  else
    json_node_init_double (node, value);

  return node;
}

/* Values */

static char *
cut_text (const char *text,
          gsize       max_chars)
{
  if (max_chars > 0 && (gsize) g_utf8_strlen (text, -1) > max_chars)
    {
      g_autofree char *head = g_utf8_substring (text, 0, max_chars);

      return g_strconcat (head, "…", NULL);
    }

  return g_strdup (text);
}

/**
 * triage_format_json_value:
 * @node: a metadata value
 * @max_chars: cut longer texts with "…" (0: never)
 *
 * Returns: (transfer full): a string as it is, anything else as compact JSON
 */
char *
triage_format_json_value (JsonNode *node,
                          gsize     max_chars)
{
  g_autofree char *text = NULL;

  if (node == NULL)
    return g_strdup ("null");

  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return cut_text (json_node_get_string (node), max_chars);

  text = atp_json_to_string (node, NULL);
  return cut_text (text, max_chars);
}

/**
 * triage_format_attachment_details:
 * @attachment: an attachment
 *
 * Returns: (transfer full): its type and its size ("text/plain · 1.2 kB") or
 *   the host it links to ("image/png · link to example.com", IDN hosts in
 *   their ASCII form so look-alike letters cannot pose as another host)
 */
char *
triage_format_attachment_details (const AtpAttachment *attachment)
{
  g_autoptr(GUri) uri = NULL;
  g_autofree char *host = NULL;

  g_return_val_if_fail (attachment != NULL, NULL);

  if (attachment->uri == NULL)
    {
      g_autofree char *size = g_format_size (attachment->decoded_size);

      /* Translators: an inline attachment: its MIME type and its size */
      return g_strdup_printf (_("%s · %s"), attachment->type, size);
    }

  uri = g_uri_parse (attachment->uri, G_URI_FLAGS_NONE, NULL);
  if (uri != NULL && g_uri_get_host (uri) != NULL && *g_uri_get_host (uri) != '\0')
    host = g_hostname_to_ascii (g_uri_get_host (uri));

  if (host != NULL)
    /* Translators: a linked attachment: its MIME type and the host it is on */
    return g_strdup_printf (_("%s · link to %s"), attachment->type, host);

  if (uri != NULL)
    /* Translators: a linked attachment without a host: its MIME type and the
     * address scheme, e.g. "urn" */
    return g_strdup_printf (_("%s · %s: link"), attachment->type, g_uri_get_scheme (uri));

  return g_strdup_printf (_("%s · link"), attachment->type);
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

static const char *
option_label (const AtpAction *action,
              const char      *value)
{
  for (guint i = 0; action->options != NULL && i < action->options->len; i++)
    {
      const AtpOption *option = g_ptr_array_index (action->options, i);

      if (g_str_equal (option->value, value))
        return option->label;
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
        return g_strdup (json_node_get_boolean (response_data) ? action->true_label
                                                                : action->false_label);
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
          cut = cut_text (text, MAX_DESCRIBED_TEXT_CHARS);
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

  return g_strdup (action->label);
}
