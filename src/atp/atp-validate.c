/* atp-validate.c — the answers to an action
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-validate"

#include "atp-notification.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "atp-error.h"
#include "atp-json.h"
#include "atp-notification-private.h"
#include "atp-private.h"

/* A value is on a number's step grid when it is this close to it, in steps. */
#define STEP_TOLERANCE 1e-9

/*
 * Whether an answer (response_data) fits the action it answers: its type,
 * the options it picks, the constraints of the action's response type.
 */

G_GNUC_PRINTF (3, 4)
static gboolean
answer_fail (GError       **error,
             AtpErrorCode   code,
             const char    *format,
             ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, ATP_ERROR, code, "response_data: %s", what);
  return FALSE;
}

static gboolean
answer_wrong_type (GError         **error,
                   const AtpAction *action,
                   const char      *expected,
                   JsonNode        *data)
{
  g_autofree char *got = atp_json_describe (data);

  return answer_fail (error, ATP_ERROR_INVALID_RESPONSE_DATA,
                      "must be %s for the %s action \"%s\", got %s",
                      expected, atp_response_type_to_string (action->response_type),
                      action->id, got);
}

static inline gboolean
holds_type (JsonNode *node,
            GType     type)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

static const AtpOption *
find_option (const AtpAction *action,
             const char      *value)
{
  for (guint i = 0; i < action->options->len; i++)
    {
      const AtpOption *option = g_ptr_array_index (action->options, i);

      if (g_str_equal (option->value, value))
        return option;
    }

  return NULL;
}

static char *
describe_double (double value)
{
  g_autoptr(JsonNode) node = atp_json_node_new_number (value);

  return atp_json_to_string (node, NULL);
}

static gboolean
validate_multi_choice (const AtpAction  *action,
                       JsonNode         *data,
                       GError          **error)
{
  g_autoptr(GHashTable) seen = NULL;
  JsonArray *array;
  guint n;

  if (data == NULL || !JSON_NODE_HOLDS_ARRAY (data))
    return answer_wrong_type (error, action, "an array of option values", data);

  array = json_node_get_array (data);
  n = json_array_get_length (array);

  /* Types first: a wrong type is INVALID_RESPONSE_DATA whatever else is wrong. */
  for (guint i = 0; i < n; i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (!holds_type (element, G_TYPE_STRING))
        {
          g_autofree char *got = atp_json_describe (element);

          g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_RESPONSE_DATA,
                       "response_data[%u]: must be a string (an option value), got %s", i, got);
          return FALSE;
        }
    }

  seen = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < n; i++)
    {
      const char *value = json_array_get_string_element (array, i);

      if (find_option (action, value) == NULL)
        {
          g_autofree char *got = atp_json_describe (json_array_get_element (array, i));

          g_set_error (error, ATP_ERROR, ATP_ERROR_CONSTRAINT_VIOLATION,
                       "response_data[%u]: %s is not an option of the action \"%s\"",
                       i, got, action->id);
          return FALSE;
        }
      if (!g_hash_table_add (seen, (gpointer) value))
        {
          g_autofree char *got = atp_json_describe (json_array_get_element (array, i));

          g_set_error (error, ATP_ERROR, ATP_ERROR_CONSTRAINT_VIOLATION,
                       "response_data[%u]: %s is selected more than once", i, got);
          return FALSE;
        }
    }

  if ((gint64) n < action->min_selections)
    return answer_fail (error, ATP_ERROR_CONSTRAINT_VIOLATION,
                        "%u selected, at least %" G_GINT64_FORMAT " required (min_selections)",
                        n, action->min_selections);
  if (action->max_selections >= 0 && (gint64) n > action->max_selections)
    return answer_fail (error, ATP_ERROR_CONSTRAINT_VIOLATION,
                        "%u selected, at most %" G_GINT64_FORMAT " allowed (max_selections)",
                        n, action->max_selections);

  return TRUE;
}

static gboolean
validate_text (const AtpAction  *action,
               JsonNode         *data,
               GError          **error)
{
  glong length;

  if (!holds_type (data, G_TYPE_STRING))
    return answer_wrong_type (error, action, "a string", data);

  /* Characters, not bytes: a limit of 10 allows ten "é" or ten "😀". */
  length = g_utf8_strlen (json_node_get_string (data), -1);

  if (length < action->min_length)
    return answer_fail (error, ATP_ERROR_CONSTRAINT_VIOLATION,
                        "is %ld characters long, at least %" G_GINT64_FORMAT " required (min_length)",
                        length, action->min_length);
  if (action->max_length >= 0 && length > action->max_length)
    return answer_fail (error, ATP_ERROR_CONSTRAINT_VIOLATION,
                        "is %ld characters long, at most %" G_GINT64_FORMAT " allowed (max_length)",
                        length, action->max_length);

  return TRUE;
}

static gboolean
check_range (const AtpAction  *action,
             double            value,
             GError          **error)
{
  if (action->has_min && value < action->min)
    {
      g_autofree char *v = describe_double (value);
      g_autofree char *min = describe_double (action->min);

      return answer_fail (error, ATP_ERROR_CONSTRAINT_VIOLATION,
                          "%s is below the minimum %s (min)", v, min);
    }
  if (action->has_max && value > action->max)
    {
      g_autofree char *v = describe_double (value);
      g_autofree char *max = describe_double (action->max);

      return answer_fail (error, ATP_ERROR_CONSTRAINT_VIOLATION,
                          "%s is above the maximum %s (max)", v, max);
    }

  return TRUE;
}

/* Whether @value is on the grid of @step from @base, and which point of it
 * is nearest (@index). Allows STEP_TOLERANCE of a step, plus the rounding
 * error the doubles involved carry at their magnitude (in steps):
 * 1000000.001 is not exactly representable, yet it is on a 0.001 grid. */
static gboolean
on_grid (double  base,
         double  step,
         double  value,
         double *index)
{
  double k = (value - base) / step;

  *index = nearbyint (k);
  return fabs (k - *index) <= STEP_TOLERANCE +
                              4 * DBL_EPSILON * ((fabs (value) + fabs (base)) / step + fabs (k));
}

static gboolean
in_range (const AtpAction *action,
          double           value)
{
  return (!action->has_min || value >= action->min) && (!action->has_max || value <= action->max);
}

/* Point @index of the grid, written as briefly as it reads back as that
 * point, within the range: base + 3 × 0.3 is 0.8999999999999999 in doubles,
 * and offered as 0.9. NULL when it lies outside the range. */
static char *
describe_grid_point (const AtpAction *action,
                     double           base,
                     double           index)
{
  double point = base + index * action->step;

  for (int digits = 1; digits <= 17; digits++)
    {
      char format[8], text[G_ASCII_DTOSTR_BUF_SIZE];
      double shown, shown_index;

      g_snprintf (format, sizeof format, "%%.%dg", digits);
      shown = g_ascii_strtod (g_ascii_formatd (text, sizeof text, format, point), NULL);
      if (on_grid (base, action->step, shown, &shown_index) && shown_index == index &&
          in_range (action, shown))
        return describe_double (shown);
    }
  return NULL;
}

static gboolean
validate_number (const AtpAction  *action,
                 JsonNode         *data,
                 GError          **error)
{
  double value, base, index;

  if (!atp_json_node_get_number (data, &value))
    return answer_wrong_type (error, action, "a number", data);

  if (!check_range (action, value, error))
    return FALSE;

  if (!action->has_step)
    return TRUE;

  /* The grid starts at min (or 0). */
  base = action->has_min ? action->min : 0.0;
  if (on_grid (base, action->step, value, &index))
    return TRUE;

  {
    g_autofree char *v = describe_double (value);
    g_autofree char *step = describe_double (action->step);
    g_autofree char *from = describe_double (base);
    double k = (value - base) / action->step;
    g_autofree char *below = NULL, *above = NULL;

    /* A step too small for doubles at this distance has no nearest values to offer. */
    if (isfinite (base + floor (k) * action->step) && isfinite (base + ceil (k) * action->step))
      {
        below = describe_grid_point (action, base, floor (k));
        above = describe_grid_point (action, base, ceil (k));
      }
    if (below == NULL && above == NULL)
      return answer_fail (error, ATP_ERROR_CONSTRAINT_VIOLATION,
                          "%s is not a multiple of the step %s from %s (step)", v, step, from);
    return answer_fail (error, ATP_ERROR_CONSTRAINT_VIOLATION,
                        "%s is not a multiple of the step %s from %s (step); nearest allowed: %s%s%s",
                        v, step, from, below ? below : above, below && above ? " or " : "",
                        below && above ? above : "");
  }
}

static gboolean
validate_scale (const AtpAction  *action,
                JsonNode         *data,
                GError          **error)
{
  double value;
  gint64 offset, step;

  if (!atp_json_node_get_number (data, &value) || value != floor (value))
    return answer_wrong_type (error, action, "an integer", data);

  if (!check_range (action, value, error))
    return FALSE;

  /* In range, so small enough for exact integer arithmetic. */
  offset = (gint64) value - (gint64) action->min;
  step = (gint64) action->step;
  if (step > 1 && offset % step != 0)
    {
      g_autofree char *v = describe_double (value);
      gint64 below = (gint64) action->min + offset / step * step;
      gint64 above = below + step;
      g_autofree char *nearest = NULL;

      /* The point after may lie past the scale's end: only the one before is offered. */
      if (!action->has_max || above <= (gint64) action->max)
        nearest = g_strdup_printf ("%" G_GINT64_FORMAT " or %" G_GINT64_FORMAT, below, above);
      else
        nearest = g_strdup_printf ("%" G_GINT64_FORMAT, below);
      return answer_fail (error, ATP_ERROR_CONSTRAINT_VIOLATION,
                          "%s is not on the scale (%" G_GINT64_FORMAT " + a multiple of %" G_GINT64_FORMAT
                          "); nearest allowed: %s", v, (gint64) action->min, step, nearest);
    }

  return TRUE;
}

/**
 * atp_action_validate_response:
 * @action: the action answered
 * @response_data: (nullable): the answer; %NULL counts as JSON null
 * @error: %ATP_ERROR_INVALID_RESPONSE_DATA for a wrong JSON type, or
 *   %ATP_ERROR_CONSTRAINT_VIOLATION for the right type outside the constraints
 *
 * Checks an answer against its action exactly as the server does. Messages
 * start with "response_data" and name the rule and the values
 * ("3 selected, at most 2 allowed (max_selections)").
 *
 * Returns: %TRUE if the answer is valid
 */
gboolean
atp_action_validate_response (const AtpAction  *action,
                              JsonNode         *response_data,
                              GError          **error)
{
  JsonNode *data = response_data;

  g_return_val_if_fail (action != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (data != NULL && JSON_NODE_HOLDS_NULL (data))
    data = NULL;

  switch (action->response_type)
    {
    case ATP_RESPONSE_TYPE_SIMPLE:
      if (data != NULL)
        return answer_wrong_type (error, action, "null (or omitted)", data);
      return TRUE;

    case ATP_RESPONSE_TYPE_BINARY:
      if (!holds_type (data, G_TYPE_BOOLEAN))
        return answer_wrong_type (error, action, "true or false", data);
      return TRUE;

    case ATP_RESPONSE_TYPE_CHOICE:
      if (!holds_type (data, G_TYPE_STRING))
        return answer_wrong_type (error, action, "a string (an option value)", data);
      if (find_option (action, json_node_get_string (data)) == NULL)
        {
          g_autofree char *got = atp_json_describe (data);

          return answer_fail (error, ATP_ERROR_CONSTRAINT_VIOLATION,
                              "%s is not an option of the action \"%s\"", got, action->id);
        }
      return TRUE;

    case ATP_RESPONSE_TYPE_MULTI_CHOICE:
      return validate_multi_choice (action, data, error);

    case ATP_RESPONSE_TYPE_TEXT:
      return validate_text (action, data, error);

    case ATP_RESPONSE_TYPE_NUMBER:
      return validate_number (action, data, error);

    case ATP_RESPONSE_TYPE_SCALE:
      return validate_scale (action, data, error);

    default:
      return answer_fail (error, ATP_ERROR_INVALID_RESPONSE_DATA, "the action has an unknown response type");
    }
}

