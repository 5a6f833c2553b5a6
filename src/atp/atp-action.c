/* atp-action.c — an action: its definition, parsed and written
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-action"

#include "atp-action.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "atp-error.h"
#include "atp-json.h"
#include "atp-notification-private.h"
#include "atp-private.h"

/*
 * AtpAction: a copy of it, its definition parsed from a notification (the
 * options and constraints of each response type), and written back. The
 * answers to it are checked in atp-validate.c.
 */

static void
option_free (AtpOption *option)
{
  g_free (option->value);
  g_free (option->label);
  g_clear_pointer (&option->extra, json_object_unref);
  g_free (option);
}

static AtpOption *
option_copy (const AtpOption *from)
{
  AtpOption *to = g_new0 (AtpOption, 1);

  to->value = g_strdup (from->value);
  to->label = g_strdup (from->label);
  to->extra = json_object_ref (from->extra);
  return to;
}

static AtpAction *
action_alloc (void)
{
  AtpAction *action = g_new0 (AtpAction, 1);

  action->min_selections = 0;
  action->max_selections = -1;
  action->min_length = 0;
  action->max_length = -1;
  return action;
}

void
atp_action_free (AtpAction *action)
{
  if (action == NULL)
    return;

  g_free (action->id);
  g_free (action->label);
  g_strfreev (action->flag_names);
  g_free (action->true_label);
  g_free (action->false_label);
  g_clear_pointer (&action->options, g_ptr_array_unref);
  g_free (action->placeholder);
  g_free (action->unit);
  g_free (action->min_label);
  g_free (action->max_label);
  g_clear_pointer (&action->extra, json_object_unref);
  g_clear_pointer (&action->extra_constraints, json_object_unref);
  g_clear_pointer (&action->extra_options, json_object_unref);
  g_free (action);
}

AtpAction *
atp_action_copy (const AtpAction *from)
{
  AtpAction *to = g_new0 (AtpAction, 1);

  *to = *from;
  to->id = g_strdup (from->id);
  to->label = g_strdup (from->label);
  to->flag_names = g_strdupv (from->flag_names);
  to->true_label = g_strdup (from->true_label);
  to->false_label = g_strdup (from->false_label);
  to->options = NULL;
  if (from->options != NULL)
    {
      to->options = g_ptr_array_new_full (from->options->len, (GDestroyNotify) option_free);
      for (guint i = 0; i < from->options->len; i++)
        g_ptr_array_add (to->options, option_copy (g_ptr_array_index (from->options, i)));
    }
  to->placeholder = g_strdup (from->placeholder);
  to->unit = g_strdup (from->unit);
  to->min_label = g_strdup (from->min_label);
  to->max_label = g_strdup (from->max_label);
  to->extra = from->extra != NULL ? json_object_ref (from->extra) : NULL;
  to->extra_constraints = from->extra_constraints != NULL ? json_object_ref (from->extra_constraints)
                                                          : NULL;
  to->extra_options = from->extra_options != NULL ? json_object_ref (from->extra_options) : NULL;
  return to;
}

/* ------------------------------------------------------------------------ */
/* Definition                                                                */
/* ------------------------------------------------------------------------ */

static gboolean
parse_flags (AtpParseCtx *ctx,
             JsonObject  *object,
             AtpAction   *action)
{
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  JsonArray *flags;

  if (!atp_read_array (ctx, object, "flags", ATP_READ_OPTIONAL, &flags))
    return FALSE;

  if (flags != NULL)
    {
      guint n = json_array_get_length (flags);

      for (guint i = 0; i < n; i++)
        {
          JsonNode *element = json_array_get_element (flags, i);

          if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_STRING)
            {
              g_autofree char *name = g_strdup_printf ("flags[%u]", i);

              return atp_parse_fail_type (ctx, name, "a string", element);
            }

          /* Unknown flags are kept and shown, never refused. */
          action->flags |= atp_flag_from_string (json_node_get_string (element));
          g_strv_builder_add (names, json_node_get_string (element));
        }
    }

  action->flag_names = g_strv_builder_end (names);
  return TRUE;
}

/* Whether two labels read the same: alike but for case, compatibility forms and
 * whitespace around them ("Yes" and "yes "). */
static gboolean
labels_match (const char *a,
              const char *b)
{
  g_autofree char *na = g_utf8_normalize (a, -1, G_NORMALIZE_NFKC);
  g_autofree char *nb = g_utf8_normalize (b, -1, G_NORMALIZE_NFKC);
  g_autofree char *fa = g_utf8_casefold (g_strstrip (na), -1);
  g_autofree char *fb = g_utf8_casefold (g_strstrip (nb), -1);

  return g_str_equal (fa, fb);
}

static gboolean
parse_binary_options (AtpParseCtx *ctx,
                      JsonObject  *object,
                      AtpAction   *action)
{
  static const char * const known[] = { "true_label", "false_label", NULL };
  JsonObject *options;
  const char *true_label, *false_label;
  gsize mark;

  if (atp_object_get (object, "options") == NULL)
    return atp_parse_fail (ctx, ATP_ERROR_MALFORMED_ACTION, "options",
                           "required for a binary action (an object with true_label and false_label)");
  if (!atp_read_object (ctx, object, "options", ATP_READ_REQUIRED, &options))
    return FALSE;

  mark = atp_parse_ctx_push (ctx, "options");
  if (!atp_read_string (ctx, options, "true_label", ATP_READ_REQUIRED | ATP_READ_NOT_BLANK, &true_label) ||
      !atp_read_string (ctx, options, "false_label", ATP_READ_REQUIRED | ATP_READ_NOT_BLANK, &false_label))
    return FALSE;
  /* "Same" or "Same": the person cannot tell the answers apart. Read where stored, as
   * for blank texts (atp_read_string ()). */
  if ((ctx->flags & ATP_PARSE_SUBMISSION) && labels_match (true_label, false_label))
    return atp_parse_fail (ctx, ATP_ERROR_MALFORMED_ACTION, "false_label",
                           "must differ from true_label (\"%s\"): the person could not tell "
                           "the answers apart", true_label);
  atp_parse_ctx_pop (ctx, mark);

  action->true_label = g_strdup (true_label);
  action->false_label = g_strdup (false_label);
  action->extra_options = atp_json_object_collect_extra_or_null (options, known);
  return TRUE;
}

static gboolean
parse_choice_options (AtpParseCtx *ctx,
                      JsonObject  *object,
                      AtpAction   *action)
{
  static const char * const known[] = { "value", "label", NULL };
  g_autoptr(GHashTable) values = NULL;
  JsonArray *options;
  guint n;
  gsize mark;

  if (atp_object_get (object, "options") == NULL)
    return atp_parse_fail (ctx, ATP_ERROR_MALFORMED_ACTION, "options",
                           "required for a %s action (an array of {value, label})",
                           atp_response_type_to_string (action->response_type));
  if (!atp_read_array (ctx, object, "options", ATP_READ_REQUIRED, &options))
    return FALSE;

  n = json_array_get_length (options);
  if (n == 0)
    return atp_parse_fail (ctx, ATP_ERROR_MALFORMED_ACTION, "options",
                           "must hold at least one option, got an empty array");
  /* A person picks among them in one dialog. Read where stored, as for
   * blank texts (atp_read_string ()). */
  if ((ctx->flags & ATP_PARSE_SUBMISSION) && n > ATP_MAX_CHOICE_OPTIONS)
    return atp_parse_fail (ctx, ATP_ERROR_MALFORMED_ACTION, "options",
                           "must hold at most %d options (a person picks among them in one "
                           "dialog), got %u", ATP_MAX_CHOICE_OPTIONS, n);

  action->options = g_ptr_array_new_full (n, (GDestroyNotify) option_free);
  values = g_hash_table_new (g_str_hash, g_str_equal);
  mark = atp_parse_ctx_push (ctx, "options");

  for (guint i = 0; i < n; i++)
    {
      JsonNode *element = json_array_get_element (options, i);
      gsize item_mark = atp_parse_ctx_push_index (ctx, i);
      const char *value, *label;
      JsonObject *option_object;
      AtpOption *option;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        return atp_parse_fail_type (ctx, NULL, "an object with value and label", element);
      option_object = json_node_get_object (element);

      if (!atp_read_string (ctx, option_object, "value", ATP_READ_REQUIRED | ATP_READ_NOT_EMPTY, &value) ||
          !atp_read_string (ctx, option_object, "label", ATP_READ_REQUIRED | ATP_READ_NOT_BLANK, &label))
        return FALSE;

      option = g_new0 (AtpOption, 1);
      option->value = g_strdup (value);
      option->label = g_strdup (label);
      option->extra = atp_json_object_collect_extra (option_object, known);
      g_ptr_array_add (action->options, option);

      if (!g_hash_table_add (values, option->value))
        return atp_parse_fail (ctx, ATP_ERROR_MALFORMED_ACTION, "value",
                               "duplicate option value \"%s\" (values must be unique in an action)",
                               option->value);
      atp_parse_ctx_pop (ctx, item_mark);
    }

  atp_parse_ctx_pop (ctx, mark);
  return TRUE;
}

static gboolean
parse_multi_choice_constraints (AtpParseCtx *ctx,
                                JsonObject  *constraints,
                                AtpAction   *action)
{
  gboolean has_min, has_max;
  gint64 min = 0, max = -1;

  if (!atp_read_integer (ctx, constraints, "min_selections", TRUE, &has_min, &min) ||
      !atp_read_integer (ctx, constraints, "max_selections", TRUE, &has_max, &max))
    return FALSE;

  if (has_min && min > (gint64) action->options->len)
    return atp_parse_fail (ctx, ATP_ERROR_MALFORMED_ACTION, "min_selections",
                           "must be at most the number of options (%" G_GINT64_FORMAT " > %u)",
                           min, action->options->len);
  if (has_max && max < min)
    return atp_parse_fail (ctx, ATP_ERROR_MALFORMED_ACTION, "max_selections",
                           "must be ≥ min_selections (%" G_GINT64_FORMAT " < %" G_GINT64_FORMAT ")",
                           max, min);

  action->min_selections = has_min ? min : 0;
  action->max_selections = has_max ? max : -1;
  return TRUE;
}

static gboolean
parse_text_constraints (AtpParseCtx *ctx,
                        JsonObject  *constraints,
                        AtpAction   *action)
{
  gboolean has_min, has_max;
  gint64 min = 0, max = -1;
  const char *placeholder;

  if (!atp_read_integer (ctx, constraints, "min_length", TRUE, &has_min, &min) ||
      !atp_read_integer (ctx, constraints, "max_length", TRUE, &has_max, &max) ||
      !atp_read_string (ctx, constraints, "placeholder", ATP_READ_OPTIONAL, &placeholder))
    return FALSE;

  if (has_max && max < min)
    return atp_parse_fail (ctx, ATP_ERROR_MALFORMED_ACTION, "max_length",
                           "must be ≥ min_length (%" G_GINT64_FORMAT " < %" G_GINT64_FORMAT ")",
                           max, min);

  action->min_length = has_min ? min : 0;
  action->max_length = has_max ? max : -1;
  action->placeholder = g_strdup (placeholder);
  return TRUE;
}

static gboolean
parse_number_constraints (AtpParseCtx *ctx,
                          JsonObject  *constraints,
                          AtpAction   *action)
{
  const char *unit, *placeholder;

  if (!atp_read_number (ctx, constraints, "min", &action->has_min, &action->min) ||
      !atp_read_number (ctx, constraints, "max", &action->has_max, &action->max) ||
      !atp_read_number (ctx, constraints, "step", &action->has_step, &action->step) ||
      !atp_read_string (ctx, constraints, "unit", ATP_READ_OPTIONAL, &unit) ||
      !atp_read_string (ctx, constraints, "placeholder", ATP_READ_OPTIONAL, &placeholder))
    return FALSE;

  if (action->has_step && !(action->step > 0))
    return atp_parse_fail_type (ctx, "step", "a number > 0", json_object_get_member (constraints, "step"));

  if (action->has_min && action->has_max && action->max < action->min)
    {
      g_autofree char *min = atp_json_describe (json_object_get_member (constraints, "min"));
      g_autofree char *max = atp_json_describe (json_object_get_member (constraints, "max"));

      return atp_parse_fail (ctx, ATP_ERROR_MALFORMED_ACTION, "max",
                             "must be ≥ min (%s < %s)", max, min);
    }

  action->unit = g_strdup (unit);
  action->placeholder = g_strdup (placeholder);
  return TRUE;
}

static gboolean
parse_scale_constraints (AtpParseCtx *ctx,
                         JsonObject  *constraints,
                         AtpAction   *action)
{
  gboolean has_min, has_max, has_step;
  gint64 min = 0, max = 0, step = 1;
  const char *min_label, *max_label;

  if (!atp_read_integer (ctx, constraints, "min", FALSE, &has_min, &min) ||
      !atp_read_integer (ctx, constraints, "max", FALSE, &has_max, &max) ||
      !atp_read_integer (ctx, constraints, "step", FALSE, &has_step, &step) ||
      !atp_read_string (ctx, constraints, "min_label", ATP_READ_OPTIONAL, &min_label) ||
      !atp_read_string (ctx, constraints, "max_label", ATP_READ_OPTIONAL, &max_label))
    return FALSE;

  if (!has_min)
    return atp_parse_fail (ctx, ATP_ERROR_MALFORMED_ACTION, "min", "required for a scale (an integer)");
  if (!has_max)
    return atp_parse_fail (ctx, ATP_ERROR_MALFORMED_ACTION, "max", "required for a scale (an integer)");
  if (max <= min)
    return atp_parse_fail (ctx, ATP_ERROR_MALFORMED_ACTION, "max",
                           "must be > min (%" G_GINT64_FORMAT " ≤ %" G_GINT64_FORMAT ")", max, min);
  if (has_step && step <= 0)
    return atp_parse_fail_type (ctx, "step", "a positive integer", json_object_get_member (constraints, "step"));

  action->has_min = TRUE;
  action->has_max = TRUE;
  action->has_step = TRUE;
  action->min = (double) min;
  action->max = (double) max;
  action->step = has_step ? (double) step : 1.0;
  action->min_label = g_strdup (min_label);
  action->max_label = g_strdup (max_label);
  return TRUE;
}

static gboolean
parse_constraints (AtpParseCtx *ctx,
                   JsonObject  *object,
                   AtpAction   *action)
{
  static const char * const none[] = { NULL };
  static const char * const multi_choice[] = { "min_selections", "max_selections", NULL };
  static const char * const text[] = { "min_length", "max_length", "placeholder", NULL };
  static const char * const number[] = { "min", "max", "step", "unit", "placeholder", NULL };
  static const char * const scale[] = { "min", "max", "step", "min_label", "max_label", NULL };
  const char * const *known = none;
  JsonObject *constraints;
  gboolean ok = TRUE;
  gsize mark;

  if (!atp_read_object (ctx, object, "constraints", ATP_READ_OPTIONAL, &constraints))
    return FALSE;

  if (constraints == NULL)
    {
      if (action->response_type == ATP_RESPONSE_TYPE_SCALE)
        return atp_parse_fail (ctx, ATP_ERROR_MALFORMED_ACTION, "constraints",
                               "required for a scale (an object with integer min and max)");
      return TRUE;
    }

  mark = atp_parse_ctx_push (ctx, "constraints");
  switch (action->response_type)
    {
    case ATP_RESPONSE_TYPE_MULTI_CHOICE:
      known = multi_choice;
      ok = parse_multi_choice_constraints (ctx, constraints, action);
      break;

    case ATP_RESPONSE_TYPE_TEXT:
      known = text;
      ok = parse_text_constraints (ctx, constraints, action);
      break;

    case ATP_RESPONSE_TYPE_NUMBER:
      known = number;
      ok = parse_number_constraints (ctx, constraints, action);
      break;

    case ATP_RESPONSE_TYPE_SCALE:
      known = scale;
      ok = parse_scale_constraints (ctx, constraints, action);
      break;

    case ATP_RESPONSE_TYPE_SIMPLE:
    case ATP_RESPONSE_TYPE_BINARY:
    case ATP_RESPONSE_TYPE_CHOICE:
    default:
      break;
    }
  if (!ok)
    return FALSE;
  atp_parse_ctx_pop (ctx, mark);

  action->extra_constraints = atp_json_object_collect_extra_or_null (constraints, known);
  return TRUE;
}

AtpAction *
atp_action_parse (AtpParseCtx *ctx,
                  JsonNode    *node)
{
  static const char * const known_plain[] = {
    "id", "label", "response_type", "flags", "constraints", NULL
  };
  static const char * const known_with_options[] = {
    "id", "label", "response_type", "flags", "options", "constraints", NULL
  };
  g_autoptr(AtpAction) action = NULL;
  JsonObject *object;
  const char *id, *label, *type;
  gboolean has_options;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      atp_parse_fail_type (ctx, NULL, "an object", node);
      return NULL;
    }
  object = json_node_get_object (node);

  action = action_alloc ();

  if (!atp_read_string (ctx, object, "id", ATP_READ_REQUIRED | ATP_READ_NOT_EMPTY, &id) ||
      !atp_read_string (ctx, object, "label", ATP_READ_REQUIRED | ATP_READ_NOT_BLANK, &label) ||
      !atp_read_string (ctx, object, "response_type", ATP_READ_REQUIRED, &type))
    return NULL;

  action->id = g_strdup (id);
  action->label = g_strdup (label);

  if (!atp_response_type_from_string (type, &action->response_type))
    {
      g_autofree char *got = atp_json_describe (json_object_get_member (object, "response_type"));

      atp_parse_fail (ctx, ATP_ERROR_INVALID_RESPONSE_TYPE, "response_type",
                      "unknown response type %s (expected simple, binary, choice, multi_choice, "
                      "text, number or scale)", got);
      return NULL;
    }

  if (!parse_flags (ctx, object, action))
    return NULL;

  switch (action->response_type)
    {
    case ATP_RESPONSE_TYPE_BINARY:
      has_options = TRUE;
      if (!parse_binary_options (ctx, object, action))
        return NULL;
      break;

    case ATP_RESPONSE_TYPE_CHOICE:
    case ATP_RESPONSE_TYPE_MULTI_CHOICE:
      has_options = TRUE;
      if (!parse_choice_options (ctx, object, action))
        return NULL;
      break;

    case ATP_RESPONSE_TYPE_SIMPLE:
    case ATP_RESPONSE_TYPE_TEXT:
    case ATP_RESPONSE_TYPE_NUMBER:
    case ATP_RESPONSE_TYPE_SCALE:
    default:
      /* `options` means nothing here: it is kept as an unknown member. */
      has_options = FALSE;
      break;
    }

  if (!parse_constraints (ctx, object, action))
    return NULL;

  action->extra = atp_json_object_collect_extra_or_null (object, has_options ? known_with_options
                                                                            : known_plain);
  return g_steal_pointer (&action);
}

/* ------------------------------------------------------------------------ */
/* Output                                                                    */
/* ------------------------------------------------------------------------ */

static void
set_number (JsonObject *object,
            const char *name,
            double      value)
{
  json_object_set_member (object, name, atp_json_node_new_number (value));
}

JsonNode *
atp_action_to_json (const AtpAction *action)
{
  JsonObject *object = json_object_new ();
  JsonObject *constraints = json_object_new ();
  JsonNode *node;

  json_object_set_string_member (object, "id", action->id);
  json_object_set_string_member (object, "label", action->label);
  json_object_set_string_member (object, "response_type", atp_response_type_to_string (action->response_type));

  if (action->flag_names != NULL && action->flag_names[0] != NULL)
    {
      JsonArray *flags = json_array_new ();

      for (guint i = 0; action->flag_names[i] != NULL; i++)
        json_array_add_string_element (flags, action->flag_names[i]);
      json_object_set_array_member (object, "flags", flags);
    }

  switch (action->response_type)
    {
    case ATP_RESPONSE_TYPE_BINARY:
      {
        JsonObject *options = json_object_new ();

        json_object_set_string_member (options, "true_label", action->true_label);
        json_object_set_string_member (options, "false_label", action->false_label);
        atp_json_object_append_extra (options, action->extra_options);
        json_object_set_object_member (object, "options", options);
      }
      break;

    case ATP_RESPONSE_TYPE_CHOICE:
    case ATP_RESPONSE_TYPE_MULTI_CHOICE:
      {
        JsonArray *options = json_array_sized_new (action->options->len);

        for (guint i = 0; i < action->options->len; i++)
          {
            const AtpOption *option = g_ptr_array_index (action->options, i);
            JsonObject *item = json_object_new ();

            json_object_set_string_member (item, "value", option->value);
            json_object_set_string_member (item, "label", option->label);
            atp_json_object_append_extra (item, option->extra);
            json_array_add_object_element (options, item);
          }
        json_object_set_array_member (object, "options", options);

        if (action->response_type == ATP_RESPONSE_TYPE_MULTI_CHOICE)
          {
            if (action->min_selections != 0)
              json_object_set_int_member (constraints, "min_selections", action->min_selections);
            if (action->max_selections >= 0)
              json_object_set_int_member (constraints, "max_selections", action->max_selections);
          }
      }
      break;

    case ATP_RESPONSE_TYPE_TEXT:
      if (action->min_length != 0)
        json_object_set_int_member (constraints, "min_length", action->min_length);
      if (action->max_length >= 0)
        json_object_set_int_member (constraints, "max_length", action->max_length);
      if (action->placeholder != NULL)
        json_object_set_string_member (constraints, "placeholder", action->placeholder);
      break;

    case ATP_RESPONSE_TYPE_NUMBER:
      if (action->has_min)
        set_number (constraints, "min", action->min);
      if (action->has_max)
        set_number (constraints, "max", action->max);
      if (action->has_step)
        set_number (constraints, "step", action->step);
      if (action->unit != NULL)
        json_object_set_string_member (constraints, "unit", action->unit);
      if (action->placeholder != NULL)
        json_object_set_string_member (constraints, "placeholder", action->placeholder);
      break;

    case ATP_RESPONSE_TYPE_SCALE:
      set_number (constraints, "min", action->min);
      set_number (constraints, "max", action->max);
      if (action->step != 1.0)
        set_number (constraints, "step", action->step);
      if (action->min_label != NULL)
        json_object_set_string_member (constraints, "min_label", action->min_label);
      if (action->max_label != NULL)
        json_object_set_string_member (constraints, "max_label", action->max_label);
      break;

    case ATP_RESPONSE_TYPE_SIMPLE:
    default:
      break;
    }

  atp_json_object_append_extra (constraints, action->extra_constraints);
  if (json_object_get_size (constraints) > 0)
    json_object_set_object_member (object, "constraints", constraints);
  else
    json_object_unref (constraints);

  atp_json_object_append_extra (object, action->extra);

  node = json_node_alloc ();
  json_node_init_object (node, object);
  json_object_unref (object);
  return node;
}

/**
 * atp_action_needs_confirmation:
 * @action: an action
 *
 * Returns: %TRUE if sending it must be confirmed (destructive, irreversible
 *   or requires_confirmation)
 */
gboolean
atp_action_needs_confirmation (const AtpAction *action)
{
  g_return_val_if_fail (action != NULL, FALSE);

  return (action->flags & ATP_FLAGS_CONFIRM) != 0;
}

/**
 * atp_action_new_from_json:
 * @node: one action's definition, as in a notification's `actions`
 * @error: an %ATP_ERROR naming the field (e.g. "options.true_label") and the
 *   rule it breaks
 *
 * Applies the profile's rules for an action (docs/protocol.md), as
 * atp_notification_new_from_json() does for each of a notification's: for
 * an action kept on its own (the app's history keeps the one answered).
 *
 * Returns: (transfer full) (nullable): the action; free with atp_action_free()
 */
AtpAction *
atp_action_new_from_json (JsonNode  *node,
                          GError   **error)
{
  g_autoptr(GString) path = g_string_sized_new (32);
  AtpParseCtx ctx;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  atp_parse_ctx_init (&ctx, path, ATP_PARSE_DEFAULT, error);
  return atp_action_parse (&ctx, node);
}
