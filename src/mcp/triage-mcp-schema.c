/* triage-mcp-schema.c — checking arguments against the tools' own inputSchema
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-mcp"

#include "triage-mcp-tools.h"

#include <math.h>
#include <string.h>

/*
 * The schemas the tools publish are the rules they enforce: one source of
 * truth, so the model reads exactly what is checked. Only the keywords those
 * schemas use are implemented; a schema using another is a programming error.
 */

G_DEFINE_QUARK (triage-mcp-error-quark, triage_mcp_error)

static gboolean
invalid (GError     **error,
         const char  *path,
         const char  *format,
         ...) G_GNUC_PRINTF (3, 4);

static gboolean
invalid (GError     **error,
         const char  *path,
         const char  *format,
         ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, TRIAGE_MCP_ERROR, TRIAGE_MCP_ERROR_INVALID_ARGUMENT, "%s: %s",
               *path != '\0' ? path : "arguments", what);
  return FALSE;
}

static const char *
type_of (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      return "object";
    case JSON_NODE_ARRAY:
      return "array";
    case JSON_NODE_NULL:
      return "null";
    case JSON_NODE_VALUE:
    default:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_BOOLEAN:
          return "boolean";
        case G_TYPE_STRING:
          return "string";
        case G_TYPE_INT64:
          return "integer";
        default:
          return "number";
        }
    }
}

static gboolean
has_type (JsonNode   *node,
          const char *type)
{
  const char *actual = type_of (node);

  if (g_str_equal (actual, type))
    return TRUE;
  if (g_str_equal (type, "number") && g_str_equal (actual, "integer"))
    return TRUE;
  /* 3.0 is an integer to JSON Schema */
  if (g_str_equal (type, "integer") && g_str_equal (actual, "number"))
    {
      double value = json_node_get_double (node);

      return value == floor (value) && fabs (value) < 9007199254740992.0;
    }
  return FALSE;
}

/* "an array", "an integer", "an object"; "a string", "a number", "a boolean" */
static const char *
article_for (const char *type)
{
  return type[0] != '\0' && strchr ("aeiou", type[0]) != NULL ? "an" : "a";
}

static gboolean
check_type (JsonObject  *schema,
            JsonNode    *value,
            const char  *path,
            GError     **error)
{
  JsonNode *type = json_object_get_member (schema, "type");

  if (type == NULL)
    return TRUE;

  if (JSON_NODE_HOLDS_ARRAY (type))
    {
      JsonArray *types = json_node_get_array (type);
      g_autoptr(GString) names = g_string_new (NULL);

      for (guint i = 0; i < json_array_get_length (types); i++)
        {
          const char *name = json_array_get_string_element (types, i);

          if (has_type (value, name))
            return TRUE;
          g_string_append_printf (names, "%s%s", i > 0 ? " or " : "", name);
        }
      return invalid (error, path, "expected %s, got %s", names->str, type_of (value));
    }

  if (!has_type (value, json_node_get_string (type)))
    return invalid (error, path, "expected %s %s, got %s",
                    article_for (json_node_get_string (type)), json_node_get_string (type),
                    type_of (value));
  return TRUE;
}

static gboolean
check_enum (JsonObject  *schema,
            JsonNode    *value,
            const char  *path,
            GError     **error)
{
  JsonArray *allowed;
  g_autoptr(GString) names = g_string_new (NULL);

  if (!json_object_has_member (schema, "enum"))
    return TRUE;

  allowed = json_object_get_array_member (schema, "enum");
  for (guint i = 0; i < json_array_get_length (allowed); i++)
    {
      const char *name = json_array_get_string_element (allowed, i);

      if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING &&
          g_str_equal (json_node_get_string (value), name))
        return TRUE;
      g_string_append_printf (names, "%s%s", i > 0 ? ", " : "", name);
    }

  return invalid (error, path, "expected one of %s, got “%s”", names->str,
                  JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING
                    ? json_node_get_string (value) : type_of (value));
}

static gboolean
check_object (JsonObject  *schema,
              JsonObject  *object,
              const char  *path,
              GError     **error)
{
  JsonObject *properties = json_object_has_member (schema, "properties")
                             ? json_object_get_object_member (schema, "properties") : NULL;
  JsonNode *additional = json_object_get_member (schema, "additionalProperties");
  g_autoptr(GList) names = json_object_get_members (object);

  if (json_object_has_member (schema, "required"))
    {
      JsonArray *required = json_object_get_array_member (schema, "required");

      for (guint i = 0; i < json_array_get_length (required); i++)
        {
          const char *name = json_array_get_string_element (required, i);

          if (!json_object_has_member (object, name))
            {
              g_autofree char *member = *path ? g_strdup_printf ("%s.%s", path, name)
                                              : g_strdup (name);

              return invalid (error, member, "required");
            }
        }
    }

  for (GList *l = names; l != NULL; l = l->next)
    {
      const char *name = l->data;
      g_autofree char *member = *path ? g_strdup_printf ("%s.%s", path, name) : g_strdup (name);
      JsonObject *property = properties != NULL && json_object_has_member (properties, name)
                               ? json_object_get_object_member (properties, name) : NULL;

      if (property == NULL)
        {
          if (additional != NULL && JSON_NODE_HOLDS_VALUE (additional) &&
              !json_node_get_boolean (additional))
            return invalid (error, member, "unknown argument");
          continue;
        }
      if (!triage_mcp_schema_check (property, json_object_get_member (object, name), member,
                                    error))
        return FALSE;
    }

  return TRUE;
}

gboolean
triage_mcp_schema_check (JsonObject  *schema,
                         JsonNode    *value,
                         const char  *path,
                         GError     **error)
{
  if (!check_type (schema, value, path, error) || !check_enum (schema, value, path, error))
    return FALSE;

  switch (JSON_NODE_TYPE (value))
    {
    case JSON_NODE_OBJECT:
      return check_object (schema, json_node_get_object (value), path, error);

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (value);
        guint length = json_array_get_length (array);

        if (json_object_has_member (schema, "minItems") &&
            length < (guint) json_object_get_int_member (schema, "minItems"))
          return invalid (error, path, "needs at least %" G_GINT64_FORMAT " item(s)",
                          json_object_get_int_member (schema, "minItems"));
        if (json_object_has_member (schema, "items"))
          for (guint i = 0; i < length; i++)
            {
              g_autofree char *item = g_strdup_printf ("%s[%u]", path, i);

              if (!triage_mcp_schema_check (json_object_get_object_member (schema, "items"),
                                            json_array_get_element (array, i), item, error))
                return FALSE;
            }
        return TRUE;
      }

    case JSON_NODE_VALUE:
      if (json_node_get_value_type (value) == G_TYPE_STRING)
        {
          glong length = g_utf8_strlen (json_node_get_string (value), -1);

          if (json_object_has_member (schema, "minLength") &&
              length < json_object_get_int_member (schema, "minLength"))
            return invalid (error, path, length == 0 ? "must not be empty"
                                                     : "is too short");
          if (json_object_has_member (schema, "maxLength") &&
              length > json_object_get_int_member (schema, "maxLength"))
            return invalid (error, path, "is longer than %" G_GINT64_FORMAT " characters",
                            json_object_get_int_member (schema, "maxLength"));
        }
      else if (json_node_get_value_type (value) != G_TYPE_BOOLEAN &&
               json_object_has_member (schema, "minimum") &&
               json_node_get_double (value) < json_object_get_double_member (schema, "minimum"))
        return invalid (error, path, "must be at least %g",
                        json_object_get_double_member (schema, "minimum"));
      return TRUE;

    case JSON_NODE_NULL:
    default:
      return TRUE;
    }
}
