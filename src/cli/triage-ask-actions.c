/* triage-ask-actions.c — an ATP notification built from triage-ask's options
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * --action, --label, --option, --constraint, --metadata and --attach each add
 * their part of the notification's JSON; libatp validates the whole before
 * anything is sent (triage-ask-options.c).
 */

#define G_LOG_DOMAIN "triage-ask"

#include "triage-ask-private.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "atp.h"

static const char *response_types[] = {
  "simple", "binary", "choice", "multi_choice", "text", "number", "scale", NULL
};

/* "deploy_now" → "Deploy now" */
static char *
label_from_id (const char *id)
{
  g_autoptr(GString) label = g_string_new (id);

  for (gsize i = 0; i < label->len; i++)
    if (label->str[i] == '_' || label->str[i] == '-')
      label->str[i] = ' ';
  if (label->len > 0)
    label->str[0] = g_ascii_toupper (label->str[0]);

  return g_string_free (g_steal_pointer (&label), FALSE);
}

/* A JSON number for a constraint: an integer node when integral. */
static JsonNode *
number_node (double value)
{
  JsonNode *node = json_node_alloc ();

  if (value == floor (value) && fabs (value) <= 9007199254740992.0)
    json_node_init_int (node, (gint64) value);
  else
    json_node_init_double (node, value);

  return node;
}

/* FALSE with @value 0 for no number, or with the value for one that is not finite. */
static gboolean
parse_number (const char *text,
              double     *value)
{
  char *end = NULL;

  *value = 0;
  if (text == NULL || *text == '\0' || g_ascii_isspace (*text))
    return FALSE;

  *value = g_ascii_strtod (text, &end);
  if (end == NULL || *end != '\0')
    {
      *value = 0;       /* no number at all, not an infinite one */
      return FALSE;
    }

  return isfinite (*value);
}

/* ATP's integers: whole numbers of magnitude at most 2^53 (docs/protocol.md). */
#define MAX_EXACT_INTEGER G_GINT64_CONSTANT (9007199254740992)

static gboolean
parse_integer (const char *text,
               gint64     *value)
{
  return g_ascii_string_to_signed (text, 10, -MAX_EXACT_INTEGER, MAX_EXACT_INTEGER, value, NULL);
}

/* An optional minus sign, then digits only. */
static gboolean
is_whole_number (const char *text)
{
  if (*text == '-')
    text++;

  return *text != '\0' && strspn (text, "0123456789") == strlen (text);
}

void
triage_ask_action_free (TriageAskAction *action)
{
  g_free (action->id);
  g_free (action->type);
  g_free (action->label_spec);
  json_object_unref (action->object);
  g_free (action);
}

static JsonObject *
ensure_object_member (JsonObject *object,
                      const char *name)
{
  JsonObject *member;

  if (json_object_has_member (object, name))
    return json_object_get_object_member (object, name);

  member = json_object_new ();
  json_object_set_object_member (object, name, member);
  return member;
}

static JsonArray *
ensure_array_member (JsonObject *object,
                     const char *name)
{
  JsonArray *member;

  if (json_object_has_member (object, name))
    return json_object_get_array_member (object, name);

  member = json_array_new ();
  json_object_set_array_member (object, name, member);
  return member;
}

gboolean
triage_ask_action_add (GPtrArray   *actions,
                       GHashTable  *by_id,
                       const char  *spec,
                       GError     **error)
{
  g_auto(GStrv) parts = g_strsplit (spec, ":", -1);
  g_autofree char *label = NULL;
  TriageAskAction *action;
  JsonArray *flags = NULL;

  if (parts[0] == NULL || *parts[0] == '\0')
    return triage_ask_usage_error (error, "--action “%s”: the action needs an id "
                                   "(ID:TYPE[:FLAG...])", spec);

  if (g_hash_table_contains (by_id, parts[0]))
    return triage_ask_usage_error (error, "--action “%s”: there is already an action with the id "
                                   "“%s”", spec, parts[0]);

  if (parts[1] != NULL && *parts[1] != '\0' && !g_strv_contains (response_types, parts[1]))
    return triage_ask_usage_error (error, "--action “%s”: unknown response type “%s” (one of "
                                   "simple, binary, choice, multi_choice, text, number, scale)",
                                   spec, parts[1]);

  action = g_new0 (TriageAskAction, 1);
  action->id = g_strdup (parts[0]);
  action->type = g_strdup (parts[1] != NULL && *parts[1] != '\0' ? parts[1] : "simple");
  action->object = json_object_new ();
  g_ptr_array_add (actions, action);
  g_hash_table_insert (by_id, action->id, action);

  label = label_from_id (action->id);
  json_object_set_string_member (action->object, "id", action->id);
  json_object_set_string_member (action->object, "label", label);
  json_object_set_string_member (action->object, "response_type", action->type);

  for (guint i = 2; parts[1] != NULL && parts[i] != NULL; i++)
    {
      g_auto(GStrv) names = g_strsplit (parts[i], ",", -1);

      if (*parts[i] == '\0')
        return triage_ask_usage_error (error, "--action “%s”: empty flag", spec);
      for (guint j = 0; names[j] != NULL; j++)
        {
          if (*names[j] == '\0')
            return triage_ask_usage_error (error, "--action “%s”: empty flag", spec);
          if (flags == NULL)
            flags = ensure_array_member (action->object, "flags");
          json_array_add_string_element (flags, names[j]);
        }
    }

  if (g_str_equal (action->type, "binary"))
    {
      JsonObject *options = ensure_object_member (action->object, "options");

      json_object_set_string_member (options, "true_label", "Yes");
      json_object_set_string_member (options, "false_label", "No");
    }

  return TRUE;
}

static TriageAskAction *
find_action (GHashTable  *by_id,
             const char  *id,
             const char  *option,
             const char  *spec,
             GError     **error)
{
  TriageAskAction *action = g_hash_table_lookup (by_id, id);

  if (action == NULL)
    triage_ask_usage_error (error, "%s “%s”: there is no --action with the id “%s”", option, spec,
                            id);

  return action;
}

gboolean
triage_ask_action_set_label (GHashTable  *by_id,
                             const char  *spec,
                             GError     **error)
{
  const char *eq = strchr (spec, '=');
  g_autofree char *id = NULL;
  TriageAskAction *action;

  if (eq == NULL || eq == spec)
    return triage_ask_usage_error (error, "--label “%s”: expected ID=TEXT", spec);

  id = g_strndup (spec, eq - spec);
  if ((action = find_action (by_id, id, "--label", spec, error)) == NULL)
    return FALSE;
  /* A second one silently replaced the first. */
  if (action->label_spec != NULL)
    return triage_ask_usage_error (error, "--label “%s”: action “%s” has a label already "
                                   "(--label “%s”)", spec, id, action->label_spec);

  action->label_spec = g_strdup (spec);
  json_object_set_string_member (action->object, "label", eq + 1);
  return TRUE;
}

gboolean
triage_ask_action_add_option (GHashTable  *by_id,
                              const char  *spec,
                              GError     **error)
{
  const char *eq = strchr (spec, '=');
  g_autofree char *id = NULL;
  g_autofree char *value = NULL;
  g_autofree char *label = NULL;
  const char *colon;
  TriageAskAction *action;

  if (eq == NULL || eq == spec)
    return triage_ask_usage_error (error, "--option “%s”: expected ID=VALUE[:LABEL]", spec);

  id = g_strndup (spec, eq - spec);
  if ((action = find_action (by_id, id, "--option", spec, error)) == NULL)
    return FALSE;

  colon = strchr (eq + 1, ':');
  value = colon ? g_strndup (eq + 1, colon - (eq + 1)) : g_strdup (eq + 1);
  label = colon ? g_strdup (colon + 1) : NULL;

  if (*value == '\0')
    return triage_ask_usage_error (error, "--option “%s”: the value is empty", spec);

  if (g_str_equal (action->type, "binary"))
    {
      JsonObject *options = ensure_object_member (action->object, "options");

      if (label == NULL)
        return triage_ask_usage_error (error, "--option “%s”: a binary action takes ID=true:LABEL "
                                       "and ID=false:LABEL", spec);
      if (g_str_equal (value, "true"))
        json_object_set_string_member (options, "true_label", label);
      else if (g_str_equal (value, "false"))
        json_object_set_string_member (options, "false_label", label);
      else
        return triage_ask_usage_error (error, "--option “%s”: a binary action takes ID=true:LABEL "
                                       "and ID=false:LABEL, not “%s”", spec, value);
      return TRUE;
    }

  if (g_str_equal (action->type, "choice") || g_str_equal (action->type, "multi_choice"))
    {
      JsonArray *options = ensure_array_member (action->object, "options");
      JsonObject *option = json_object_new ();

      json_object_set_string_member (option, "value", value);
      json_object_set_string_member (option, "label", label ? label : value);
      json_array_add_object_element (options, option);
      return TRUE;
    }

  return triage_ask_usage_error (error, "--option “%s”: action “%s” is %s; only binary, choice and "
                                 "multi_choice actions have options", spec, id, action->type);
}

typedef enum
{
  KIND_COUNT,       /* a whole number ≥ 0 */
  KIND_INTEGER,     /* a whole number */
  KIND_NUMBER,
  KIND_STRING,
} ConstraintKind;

typedef struct
{
  const char     *type;
  const char     *name;
  ConstraintKind  kind;
} ConstraintSpec;

static const ConstraintSpec constraint_specs[] = {
  { "multi_choice", "min_selections", KIND_COUNT },
  { "multi_choice", "max_selections", KIND_COUNT },
  { "text", "min_length", KIND_COUNT },
  { "text", "max_length", KIND_COUNT },
  { "text", "placeholder", KIND_STRING },
  { "number", "min", KIND_NUMBER },
  { "number", "max", KIND_NUMBER },
  { "number", "step", KIND_NUMBER },
  { "number", "unit", KIND_STRING },
  { "number", "placeholder", KIND_STRING },
  { "scale", "min", KIND_INTEGER },
  { "scale", "max", KIND_INTEGER },
  { "scale", "step", KIND_COUNT },
  { "scale", "min_label", KIND_STRING },
  { "scale", "max_label", KIND_STRING },
};

static char *
known_constraints (const char *type)
{
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (constraint_specs); i++)
    if (g_str_equal (constraint_specs[i].type, type))
      g_string_append_printf (names, "%s%s", names->len ? ", " : "", constraint_specs[i].name);

  return g_string_free (g_steal_pointer (&names), FALSE);
}

gboolean
triage_ask_action_set_constraint (GHashTable  *by_id,
                                  const char  *spec,
                                  GError     **error)
{
  const char *eq = strchr (spec, '=');
  g_autofree char *left = NULL;
  const char *dot;
  const char *name;
  const char *value;
  const ConstraintSpec *found = NULL;
  TriageAskAction *action;
  JsonObject *constraints;

  if (eq == NULL)
    return triage_ask_usage_error (error, "--constraint “%s”: expected ID.NAME=VALUE", spec);

  left = g_strndup (spec, eq - spec);
  value = eq + 1;
  dot = strrchr (left, '.');
  if (dot == NULL || dot == left || dot[1] == '\0')
    return triage_ask_usage_error (error, "--constraint “%s”: expected ID.NAME=VALUE", spec);

  left[dot - left] = '\0';
  name = dot + 1;
  if ((action = find_action (by_id, left, "--constraint", spec, error)) == NULL)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (constraint_specs); i++)
    if (g_str_equal (constraint_specs[i].type, action->type) &&
        g_str_equal (constraint_specs[i].name, name))
      found = &constraint_specs[i];

  if (found == NULL)
    {
      g_autofree char *known = known_constraints (action->type);

      if (*known == '\0')
        return triage_ask_usage_error (error, "--constraint “%s”: a %s action has no constraints",
                                       spec, action->type);
      return triage_ask_usage_error (error, "--constraint “%s”: a %s action has no constraint “%s” "
                                     "(it has %s)", spec, action->type, name, known);
    }

  constraints = ensure_object_member (action->object, "constraints");
  /* A second one silently replaced the first. */
  if (json_object_has_member (constraints, name))
    return triage_ask_usage_error (error, "--constraint “%s”: action “%s” has %s already", spec,
                                   left, name);

  switch (found->kind)
    {
    case KIND_COUNT:
    case KIND_INTEGER:
      {
        gint64 number;

        if (!is_whole_number (value))
          return triage_ask_usage_error (error, "--constraint “%s”: %s must be a whole number%s, "
                                         "not “%s”", spec, name,
                                         found->kind == KIND_COUNT ? " ≥ 0" : "", value);
        if (found->kind == KIND_COUNT && *value == '-')
          return triage_ask_usage_error (error, "--constraint “%s”: %s must not be negative",
                                         spec, name);
        if (!parse_integer (value, &number))
          return triage_ask_usage_error (error, "--constraint “%s”: %s is too large: at most "
                                         "%" G_GINT64_FORMAT " (2^53) either side of 0", spec,
                                         name, MAX_EXACT_INTEGER);
        json_object_set_int_member (constraints, name, number);
      }
      break;

    case KIND_NUMBER:
      {
        double number;

        if (!parse_number (value, &number))
          return triage_ask_usage_error (error, "--constraint “%s”: %s must be a %snumber, not "
                                         "“%s”", spec, name,
                                         /* 1e400, inf, nan: numbers JSON cannot carry */
                                         isfinite (number) ? "" : "finite ", value);
        json_object_set_member (constraints, name, number_node (number));
      }
      break;

    case KIND_STRING:
    default:
      json_object_set_string_member (constraints, name, value);
      break;
    }

  return TRUE;
}

gboolean
triage_ask_add_metadata (JsonObject  *context,
                         const char  *spec,
                         GError     **error)
{
  JsonObject *metadata = ensure_object_member (context, "metadata");
  const char *eq = strchr (spec, '=');
  g_autofree char *key = NULL;
  g_autoptr(GError) local_error = NULL;
  JsonNode *value;

  if (eq == NULL || eq == spec)
    return triage_ask_usage_error (error, "--metadata “%s”: expected KEY=VALUE or KEY:=JSON", spec);

  if (eq[-1] == ':' && eq - 1 == spec)
    return triage_ask_usage_error (error, "--metadata “%s”: the key is empty", spec);

  if (eq[-1] == ':')
    {
      key = g_strndup (spec, eq - 1 - spec);
      value = atp_json_parse (eq + 1, -1, 64 * 1024, &local_error);
      if (value == NULL)
        return triage_ask_usage_error (error, "--metadata “%s”: the value after := is not JSON: "
                                       "%s", spec, local_error->message);
    }
  else
    {
      key = g_strndup (spec, eq - spec);
      value = json_node_init_string (json_node_alloc (), eq + 1);
    }

  /* A second value for a key would silently replace the first. */
  if (json_object_has_member (metadata, key))
    {
      json_node_unref (value);
      return triage_ask_usage_error (error, "--metadata “%s”: the key “%s” is given twice", spec,
                                     key);
    }

  json_object_set_member (metadata, key, value);
  return TRUE;
}

gboolean
triage_ask_add_attachment (JsonObject  *context,
                           const char  *path,
                           GError     **error)
{
  JsonArray *attachments = ensure_array_member (context, "attachments");
  g_autoptr(GError) local_error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *content_type = NULL;
  g_autofree char *mime = NULL;
  g_autofree char *base64 = NULL;
  g_autofree char *name = NULL;
  gboolean uncertain = FALSE;
  JsonObject *attachment;
  GStatBuf st;
  gsize length = 0;

  if (g_stat (path, &st) != 0 || !S_ISREG (st.st_mode))
    return triage_ask_usage_error (error, "--attach “%s”: not a readable file", path);

  if ((guint64) st.st_size > TRIAGE_ASK_MAX_ATTACHMENT_SIZE)
    return triage_ask_usage_error (error, "--attach “%s”: the file has %" G_GUINT64_FORMAT " KiB; "
                                   "an attachment may have at most %d KiB", path,
                                   (guint64) (st.st_size + 1023) / 1024,
                                   TRIAGE_ASK_MAX_ATTACHMENT_SIZE / 1024);

  if (!g_file_get_contents (path, &contents, &length, &local_error))
    return triage_ask_usage_error (error, "--attach “%s”: %s", path, local_error->message);

  if (length > TRIAGE_ASK_MAX_ATTACHMENT_SIZE)
    return triage_ask_usage_error (error, "--attach “%s”: the file has %" G_GSIZE_FORMAT " KiB; "
                                   "an attachment may have at most %d KiB", path,
                                   (length + 1023) / 1024, TRIAGE_ASK_MAX_ATTACHMENT_SIZE / 1024);

  content_type = g_content_type_guess (path, (const guchar *) contents, length, &uncertain);
  mime = content_type ? g_content_type_get_mime_type (content_type) : NULL;
  if (mime == NULL || strchr (mime, '/') == NULL)
    {
      g_free (mime);
      mime = g_strdup ("application/octet-stream");
    }

  base64 = g_base64_encode ((const guchar *) contents, length);
  name = g_filename_display_basename (path);   /* the description is UTF-8 text */

  attachment = json_object_new ();
  json_object_set_string_member (attachment, "type", mime);
  json_object_set_string_member (attachment, "description", name);
  json_object_set_string_member (attachment, "data", base64);
  json_array_add_object_element (attachments, attachment);

  return TRUE;
}

