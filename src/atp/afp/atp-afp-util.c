/* atp-afp-util.c — ids, media types, error codes and the parsing helpers of AFP
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-afp"

#include "atp-afp-private.h"

#include <string.h>

#include "atp-json.h"

/* ------------------------------------------------------------------------ */
/* Item ids                                                                  */
/* ------------------------------------------------------------------------ */

static inline gboolean
is_id_char (char c)
{
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

/**
 * atp_afp_id_is_valid:
 * @id: (nullable): a candidate id
 *
 * Returns: %TRUE if @id matches `^[a-z0-9._-]{8,128}$`
 */
gboolean
atp_afp_id_is_valid (const char *id)
{
  gsize length = 0;

  if (id == NULL)
    return FALSE;

  for (const char *p = id; *p != '\0'; p++, length++)
    {
      if (!is_id_char (*p) || length >= ATP_AFP_ID_MAX_LENGTH)
        return FALSE;
    }

  return length >= ATP_AFP_ID_MIN_LENGTH;
}

/* Room left for "-" and the counter, which may grow past two digits. */
#define SLUG_MAX_LENGTH (ATP_AFP_ID_MAX_LENGTH - 12)

static char *
slug_from_aspect (const char *aspect)
{
  g_autofree char *ascii = g_str_to_ascii (aspect != NULL ? aspect : "", "C");
  GString *slug = g_string_new (NULL);
  gboolean dash = FALSE;

  for (const char *p = ascii; *p != '\0' && slug->len < SLUG_MAX_LENGTH; p++)
    {
      char c = g_ascii_tolower (*p);

      if (g_ascii_isalnum (c))
        {
          if (dash && slug->len > 0)
            g_string_append_c (slug, '-');
          g_string_append_c (slug, c);
          dash = FALSE;
        }
      else
        {
          dash = TRUE;
        }
    }

  if (slug->len == 0)
    g_string_append (slug, "feedback");
  else if (slug->len + 3 < ATP_AFP_ID_MIN_LENGTH)
    g_string_append (slug, "-feedback");

  return g_string_free (slug, FALSE);
}

char *
atp_afp_id_generate (const char *aspect,
                     GHashTable *taken)
{
  g_autofree char *slug = slug_from_aspect (aspect);

  for (guint counter = 1; ; counter++)
    {
      char *id = g_strdup_printf ("%s-%02u", slug, counter);

      if (taken == NULL || !g_hash_table_contains (taken, id))
        return id;
      g_free (id);
    }
}

/* ------------------------------------------------------------------------ */
/* Media types                                                               */
/* ------------------------------------------------------------------------ */

/*
 * Source code types GtkSourceView 5 lists in its language specs (besides
 * text/…), the ones the protocol's summary names, and the IANA names of SQL
 * and TOML, which GtkSourceView knows by their text/x-… names.
 */
static const char * const application_types[] = {
  "json", "xml", "yaml", "x-yaml", "x-sh", "x-shellscript",
  "javascript", "x-javascript", "ecmascript", "typescript", "x-typescript",
  "jsx", "x-jsx", "typescript-jsx", "x-typescript-jsx", "dart", "x-dart",
  "docker", "sparql-query", "sql", "toml", "x-asap", "x-asp", "x-awk",
  "x-desktop", "x-gnome-app-info", "x-ini-file", "x-m4", "x-perl", "x-php",
  "x-php-source", "x-python", "x-ruby", "x-tcl",
};

char *
atp_afp_media_type_essence (const char *media_type)
{
  const char *end;

  if (media_type == NULL || !atp_mime_type_is_valid (media_type))
    return NULL;

  end = strchr (media_type, ';');
  if (end == NULL)
    end = media_type + strlen (media_type);
  while (end > media_type && (end[-1] == ' ' || end[-1] == '\t'))
    end--;

  return g_ascii_strdown (media_type, end - media_type);
}

gboolean
atp_afp_media_type_is_supported (const char *media_type)
{
  g_autofree char *essence = atp_afp_media_type_essence (media_type);
  const char *subtype;

  if (essence == NULL)
    return FALSE;

  if (g_str_has_prefix (essence, "text/"))
    return TRUE;
  if (!g_str_has_prefix (essence, "application/"))
    return FALSE;

  subtype = essence + strlen ("application/");
  if (g_str_has_suffix (subtype, "+json") || g_str_has_suffix (subtype, "+xml") ||
      g_str_has_suffix (subtype, "+yaml"))
    return TRUE;

  for (guint i = 0; i < G_N_ELEMENTS (application_types); i++)
    {
      if (strcmp (subtype, application_types[i]) == 0)
        return TRUE;
    }

  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* Error codes                                                               */
/* ------------------------------------------------------------------------ */

const char *
atp_afp_error_code_for (const GError *error)
{
  g_return_val_if_fail (error != NULL, ATP_AFP_CODE_INTERNAL_ERROR);

  if (error->domain != ATP_ERROR)
    return ATP_AFP_CODE_INTERNAL_ERROR;

  switch ((AtpErrorCode) error->code)
    {
    case ATP_ERROR_UNSUPPORTED_MEDIA_TYPE:
      return ATP_AFP_CODE_UNSUPPORTED_MEDIA_TYPE;
    case ATP_ERROR_INVALID_JSON:
    case ATP_ERROR_INVALID_REQUEST:
    case ATP_ERROR_MISSING_REQUIRED_FIELD:
    case ATP_ERROR_INVALID_FIELD_VALUE:
    case ATP_ERROR_CONSTRAINT_VIOLATION:
    case ATP_ERROR_PAYLOAD_TOO_LARGE:
    case ATP_ERROR_SESSION_NOT_FOUND:
      return ATP_AFP_CODE_INVALID_REQUEST;
    default:
      return ATP_AFP_CODE_INTERNAL_ERROR;
    }
}

/* ------------------------------------------------------------------------ */
/* Parsing helpers                                                           */
/* ------------------------------------------------------------------------ */

void
atp_afp_parse_ctx_init (AtpParseCtx  *ctx,
                        GString      *path,
                        GError      **error)
{
  ctx->path = path;
  ctx->flags = ATP_PARSE_DEFAULT;
  ctx->missing_code = ATP_ERROR_MISSING_REQUIRED_FIELD;
  ctx->invalid_code = ATP_ERROR_INVALID_FIELD_VALUE;
  ctx->error = error;
}

/* "sessionID", "session_id", "SessionId", "session-id"… */
static gboolean
is_session_name (const char *name)
{
  g_autoptr(GString) folded = g_string_new (NULL);

  for (const char *p = name; *p != '\0'; p++)
    {
      if (*p != '_' && *p != '-')
        g_string_append_c (folded, g_ascii_tolower (*p));
    }

  return strcmp (folded->str, "sessionid") == 0 || strcmp (folded->str, "session") == 0;
}

gboolean
atp_afp_read_extensions (AtpParseCtx         *ctx,
                         JsonObject          *object,
                         const char * const  *known,
                         JsonObject         **extensions)
{
  g_autoptr(JsonObject) others = atp_json_object_collect_extra (object, known);
  g_autoptr(GList) names = json_object_get_members (others);

  *extensions = NULL;

  for (const GList *l = names; l != NULL; l = l->next)
    {
      const char *name = l->data;

      if (g_str_has_prefix (name, "x-"))
        continue;

      if (is_session_name (name))
        return atp_parse_fail (ctx, ATP_ERROR_INVALID_REQUEST, name,
                               "session fields are not part of AFP payloads (the tool keeps "
                               "the session: triage-ask --afp --session ID)");

      return atp_parse_fail (ctx, ATP_ERROR_INVALID_REQUEST, name,
                             "unknown field (AFP 1.2 allows only extensions whose names "
                             "start with \"x-\")");
    }

  *extensions = g_steal_pointer (&others);
  return TRUE;
}

gboolean
atp_afp_name_lookup (const char * const *names,
                     guint               n_names,
                     const char         *text,
                     guint              *index)
{
  for (guint i = 0; text != NULL && i < n_names; i++)
    {
      if (strcmp (text, names[i]) == 0)
        {
          *index = i;
          return TRUE;
        }
    }

  return FALSE;
}

gboolean
atp_afp_read_version (AtpParseCtx *ctx,
                      JsonObject  *object,
                      gboolean     default_ok)
{
  JsonNode *node = atp_object_get (object, "protocol_version");

  if (node == NULL)
    return default_ok ? TRUE : atp_parse_fail_missing (ctx, "protocol_version");

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING ||
      strcmp (json_node_get_string (node), ATP_AFP_PROTOCOL_VERSION) != 0)
    return atp_parse_fail_type (ctx, "protocol_version", "\"" ATP_AFP_PROTOCOL_VERSION "\"", node);

  return TRUE;
}

gboolean
atp_afp_read_iteration (AtpParseCtx *ctx,
                        JsonObject  *object,
                        gint64       minimum,
                        gint64      *value)
{
  gboolean present;

  if (!atp_read_integer_at_least (ctx, object, "iteration", minimum, &present, value))
    return FALSE;
  if (!present)
    return atp_parse_fail_missing (ctx, "iteration");

  return TRUE;
}

gboolean
atp_afp_read_items (AtpParseCtx    *ctx,
                    JsonObject     *object,
                    const char     *name,
                    AtpAfpItemFunc  each,
                    gpointer        user_data)
{
  JsonArray *array;
  gsize mark;
  guint length;

  if (!atp_read_array (ctx, object, name, ATP_READ_REQUIRED, &array))
    return FALSE;

  mark = atp_parse_ctx_push (ctx, name);
  length = json_array_get_length (array);
  for (guint i = 0; i < length; i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      gsize item_mark = atp_parse_ctx_push_index (ctx, i);

      if (!JSON_NODE_HOLDS_OBJECT (element))
        {
          g_autofree char *got = atp_json_describe (element);

          return atp_parse_fail (ctx, ctx->invalid_code, NULL, "must be an object, got %s", got);
        }
      if (!each (ctx, json_node_get_object (element), i, user_data))
        return FALSE;
      atp_parse_ctx_pop (ctx, item_mark);
    }
  atp_parse_ctx_pop (ctx, mark);

  return TRUE;
}

gboolean
atp_afp_read_string_dup (AtpParseCtx   *ctx,
                         JsonObject    *object,
                         const char    *name,
                         AtpReadFlags   flags,
                         char         **value)
{
  const char *text;

  *value = NULL;
  if (!atp_read_string (ctx, object, name, flags, &text))
    return FALSE;

  *value = g_strdup (text);
  return TRUE;
}

JsonNode *
atp_afp_node_take_object (JsonObject *object)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, object);
  return node;
}
