/* atp-json-node.c — small helpers over json-glib nodes and objects
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-json"

#include "atp-json.h"

#include <math.h>
#include <string.h>

#include "atp-error.h"
#include "atp-private.h"
#include "atp-response.h"
#include "atp-types.h"

/* ------------------------------------------------------------------------ */
/* Node helpers                                                              */
/* ------------------------------------------------------------------------ */

#define MAX_EXACT_INT 9007199254740992.0 /* 2^53 */

void
atp_json_object_append_extra (JsonObject *to,
                              JsonObject *extra)
{
  g_autoptr(GList) names = NULL;

  if (extra == NULL || json_object_get_size (extra) == 0)
    return;

  /* json_object_get_members() keeps the order (json_object_iter does not). */
  names = json_object_get_members (extra);
  for (const GList *l = names; l != NULL; l = l->next)
    {
      if (!json_object_has_member (to, l->data))
        json_object_set_member (to, l->data, json_node_ref (json_object_get_member (extra, l->data)));
    }
}

JsonObject *
atp_json_object_collect_extra (JsonObject         *object,
                               const char * const *known)
{
  JsonObject *extra = json_object_new ();
  g_autoptr(GList) names = NULL;
  JsonObjectIter iter;
  const char *name;
  gboolean any = FALSE;

  /* Usually every member is known: find out without building the ordered list. */
  json_object_iter_init (&iter, object);
  while (!any && json_object_iter_next (&iter, &name, NULL))
    any = !g_strv_contains (known, name);
  if (!any)
    return extra;

  names = json_object_get_members (object);
  for (const GList *l = names; l != NULL; l = l->next)
    {
      if (g_strv_contains (known, l->data))
        continue;
      json_object_set_member (extra, l->data, json_node_ref (json_object_get_member (object, l->data)));
    }

  return extra;
}

JsonObject *
atp_json_object_collect_extra_or_null (JsonObject         *object,
                                       const char * const *known)
{
  JsonObjectIter iter;
  const char *name;

  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &name, NULL))
    if (!g_strv_contains (known, name))
      return atp_json_object_collect_extra (object, known);

  return NULL;
}

JsonObject *
atp_json_require_object (JsonNode    *node,
                         const char  *what,
                         GError     **error)
{
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *got = atp_json_describe (node);

      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_REQUEST,
                   "%s must be a JSON object, got %s", what, got);
      return NULL;
    }

  return json_node_get_object (node);
}

JsonNode *
atp_object_get (JsonObject *object,
                const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;
  return node;
}

JsonNode *
atp_json_node_new_number (double value)
{
  JsonNode *node = json_node_alloc ();

  if (value == floor (value) && fabs (value) <= MAX_EXACT_INT)
    json_node_init_int (node, (gint64) value);
  else
    json_node_init_double (node, value);

  return node;
}

JsonNode *
atp_json_node_new_string (const char *value)
{
  JsonNode *node = json_node_alloc ();

  if (value == NULL)
    return json_node_init_null (node);
  return json_node_init_string (node, value);
}

gboolean
atp_json_node_get_number (JsonNode *node,
                          double   *value)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64:
      *value = (double) json_node_get_int (node);
      return TRUE;

    case G_TYPE_DOUBLE:
      *value = json_node_get_double (node);
      return isfinite (*value);

    default:
      return FALSE;
    }
}

char *
atp_json_describe (JsonNode *node)
{
  g_autofree char *text = NULL;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return g_strdup ("null");
  if (JSON_NODE_HOLDS_OBJECT (node))
    return g_strdup ("an object");
  if (JSON_NODE_HOLDS_ARRAY (node))
    return g_strdup ("an array");

  text = atp_json_to_string (node, NULL);
  if (g_utf8_strlen (text, -1) > 40)
    {
      char *cut = g_utf8_offset_to_pointer (text, 37);

      *cut = '\0';
      return g_strconcat (text, "…", NULL);
    }

  return g_steal_pointer (&text);
}

/**
 * atp_json_node_equal:
 * @a: (nullable): a node (%NULL counts as JSON null)
 * @b: (nullable): a node (%NULL counts as JSON null)
 *
 * JSON equality: objects member-wise regardless of order, arrays element-wise,
 * numbers by value (1 equals 1.0), strings byte-wise.
 *
 * Returns: %TRUE if @a and @b hold the same JSON value
 */
gboolean
atp_json_node_equal (JsonNode *a,
                     JsonNode *b)
{
  JsonNodeType ta = a != NULL ? json_node_get_node_type (a) : JSON_NODE_NULL;
  JsonNodeType tb = b != NULL ? json_node_get_node_type (b) : JSON_NODE_NULL;

  if (ta != tb)
    return FALSE;

  switch (ta)
    {
    case JSON_NODE_NULL:
      return TRUE;

    case JSON_NODE_OBJECT:
      {
        JsonObject *oa = json_node_get_object (a);
        JsonObject *ob = json_node_get_object (b);
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        if (oa == ob)
          return TRUE;
        if (json_object_get_size (oa) != json_object_get_size (ob))
          return FALSE;

        json_object_iter_init (&iter, oa);
        while (json_object_iter_next (&iter, &name, &member))
          {
            JsonNode *other = json_object_get_member (ob, name);

            if (other == NULL || !atp_json_node_equal (member, other))
              return FALSE;
          }
        return TRUE;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *aa = json_node_get_array (a);
        JsonArray *ab = json_node_get_array (b);
        guint n = json_array_get_length (aa);

        if (aa == ab)
          return TRUE;
        if (n != json_array_get_length (ab))
          return FALSE;
        for (guint i = 0; i < n; i++)
          {
            if (!atp_json_node_equal (json_array_get_element (aa, i),
                                      json_array_get_element (ab, i)))
              return FALSE;
          }
        return TRUE;
      }

    case JSON_NODE_VALUE:
      {
        GType va = json_node_get_value_type (a);
        GType vb = json_node_get_value_type (b);
        double da, db;

        if (va == G_TYPE_INT64 && vb == G_TYPE_INT64)
          return json_node_get_int (a) == json_node_get_int (b);
        if (atp_json_node_get_number (a, &da) && atp_json_node_get_number (b, &db))
          return da == db;
        if (va != vb)
          return FALSE;
        if (va == G_TYPE_BOOLEAN)
          return json_node_get_boolean (a) == json_node_get_boolean (b);
        if (va == G_TYPE_STRING)
          return g_strcmp0 (json_node_get_string (a), json_node_get_string (b)) == 0;
        return FALSE;
      }

    default:
      return FALSE;
    }
}
