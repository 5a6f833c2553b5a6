/* atp-aitp-request.c — the AITP-02 request_decision message: parsing, checks, output
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-aitp"

#include "atp-aitp-private.h"

#include "atp-json.h"
#include "atp-notification.h"
#include "atp-private.h"
#include "atp-types.h"

typedef struct
{
  AtpAitpRequest  pub;
  gatomicrefcount ref_count;
} AtpAitpRequestReal;

G_DEFINE_BOXED_TYPE (AtpAitpRequest, atp_aitp_request, atp_aitp_request_ref, atp_aitp_request_unref)

static const char * const type_names[] = {
  [ATP_AITP_DECISION_RADIO] = "radio",
  [ATP_AITP_DECISION_CHECKBOX] = "checkbox",
  [ATP_AITP_DECISION_CONFIRMATION] = "confirmation",
  [ATP_AITP_DECISION_PRODUCTS] = "products",
};

const char *
atp_aitp_decision_type_to_string (AtpAitpDecisionType type)
{
  if ((guint) type >= G_N_ELEMENTS (type_names))
    return NULL;
  return type_names[type];
}

static gboolean
type_from_string (const char          *text,
                  AtpAitpDecisionType *type)
{
  for (guint i = 0; i < G_N_ELEMENTS (type_names); i++)
    if (g_str_equal (text, type_names[i]))
      {
        *type = (AtpAitpDecisionType) i;
        return TRUE;
      }
  return FALSE;
}

/* `$schema`: required, an absolute URI (the schema's `format: uri`). */
static gboolean
read_schema (AtpParseCtx *ctx,
             JsonObject  *root,
             char       **schema)
{
  if (!atp_read_string_dup (ctx, root, "$schema", ATP_READ_REQUIRED, schema))
    return FALSE;
  if (!atp_uri_is_absolute (*schema))
    return atp_parse_fail_type (ctx, "$schema", "an absolute URI (e.g. \"" ATP_AITP_SCHEMA_URL "\")",
                                json_object_get_member (root, "$schema"));
  return TRUE;
}

/* Triage's own member: what AITP has no field for. Our namespace, so a
 * member we do not know (a typo of "deadline") is refused, not ignored. */
static gboolean
parse_triage_extension (AtpParseCtx    *ctx,
                        JsonObject     *root,
                        AtpAitpRequest *self)
{
  static const char * const known[] = { "deadline", "project", "confirm", NULL };
  g_autoptr(JsonObject) unknown = NULL;
  g_autoptr(GList) names = NULL;
  JsonObject *object;
  JsonNode *confirm;
  gsize mark;

  if (!atp_read_object (ctx, root, "x-triage", ATP_READ_OPTIONAL, &object))
    return FALSE;
  if (object == NULL)
    return TRUE;

  mark = atp_parse_ctx_push (ctx, "x-triage");
  unknown = atp_json_object_collect_extra (object, known);
  names = json_object_get_members (unknown);
  if (names != NULL)
    return atp_parse_fail (ctx, ATP_ERROR_INVALID_FIELD_VALUE, names->data,
                           "unknown member (x-triage has deadline, project and confirm)");
  if (!atp_read_timestamp (ctx, object, "deadline", ATP_READ_OPTIONAL, &self->deadline) ||
      !atp_read_string_dup (ctx, object, "project", ATP_READ_OPTIONAL | ATP_READ_NOT_BLANK,
                            &self->project))
    return FALSE;
  confirm = atp_object_get (object, "confirm");
  if (confirm != NULL)
    {
      if (!JSON_NODE_HOLDS_VALUE (confirm) || json_node_get_value_type (confirm) != G_TYPE_BOOLEAN)
        return atp_parse_fail_type (ctx, "confirm", "true or false", confirm);
      self->confirm = json_node_get_boolean (confirm);
    }
  atp_parse_ctx_pop (ctx, mark);
  return TRUE;
}

/* Option ids are unique among the options; a variant's id is unique among
 * its product's variants (checked as they are read) and is no other option's
 * or other product's variant's id: a decision's id then names one choice.
 * A variant may share its own product's id. */
static gboolean
check_unique_ids (AtpParseCtx    *ctx,
                  AtpAitpRequest *self)
{
  g_autoptr(GHashTable) owners = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < self->options->len; i++)
    {
      AtpAitpOption *option = g_ptr_array_index (self->options, i);
      gpointer owner;

      if (g_hash_table_lookup_extended (owners, option->id, NULL, &owner))
        {
          g_autofree char *field = g_strdup_printf ("options[%u].id", i);

          return atp_parse_fail (ctx, ATP_ERROR_INVALID_FIELD_VALUE, field,
                                 "duplicate option id \"%s\" (options[%u] has it; ids must be "
                                 "unique in a request)", option->id, GPOINTER_TO_UINT (owner));
        }
      g_hash_table_insert (owners, option->id, GUINT_TO_POINTER (i));
    }
  for (guint i = 0; i < self->options->len; i++)
    {
      AtpAitpOption *option = g_ptr_array_index (self->options, i);

      for (guint v = 0; v < option->variants->len; v++)
        {
          AtpAitpOption *variant = g_ptr_array_index (option->variants, v);
          gpointer owner;

          if (g_hash_table_lookup_extended (owners, variant->id, NULL, &owner) &&
              GPOINTER_TO_UINT (owner) != i)
            {
              g_autofree char *field = g_strdup_printf ("options[%u].variants[%u].id", i, v);

              return atp_parse_fail (ctx, ATP_ERROR_INVALID_FIELD_VALUE, field,
                                     "\"%s\" is also an id of options[%u] or one of its variants "
                                     "(ids must be unique in a request)", variant->id,
                                     GPOINTER_TO_UINT (owner));
            }
          g_hash_table_insert (owners, variant->id, GUINT_TO_POINTER (i));
        }
    }
  return TRUE;
}

static gboolean
parse_request_decision (AtpParseCtx    *ctx,
                        JsonObject     *object,
                        AtpAitpRequest *self)
{
  static const char * const known[] = { "id", "title", "description", "type", "options", NULL };
  JsonArray *options;
  const char *type;
  guint n;

  if (!atp_read_string_dup (ctx, object, "id", ATP_READ_REQUIRED | ATP_READ_NOT_EMPTY, &self->id) ||
      !atp_read_string_dup (ctx, object, "title", ATP_READ_OPTIONAL, &self->title) ||
      !atp_read_string_dup (ctx, object, "description", ATP_READ_OPTIONAL, &self->description) ||
      !atp_read_string (ctx, object, "type", ATP_READ_OPTIONAL, &type) ||
      !atp_read_array (ctx, object, "options", ATP_READ_REQUIRED, &options))
    return FALSE;

  self->type = ATP_AITP_DECISION_RADIO;
  self->type_given = type != NULL;
  if (type != NULL && !type_from_string (type, &self->type))
    return atp_parse_fail_type (ctx, "type", "one of radio, checkbox, confirmation, products",
                                json_object_get_member (object, "type"));

  n = json_array_get_length (options);
  if (n == 0)
    return atp_parse_fail (ctx, ATP_ERROR_INVALID_FIELD_VALUE, "options",
                           "must hold at least one option, got an empty array");
  if (!atp_aitp_check_option_count (ctx, "options", n))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      gsize mark = atp_parse_ctx_push (ctx, "options");
      AtpAitpOption *option;

      atp_parse_ctx_push_index (ctx, i);
      option = atp_aitp_option_parse (ctx, json_array_get_element (options, i), FALSE);
      if (option == NULL)
        return FALSE;
      g_ptr_array_add (self->options, option);
      atp_parse_ctx_pop (ctx, mark);
    }
  if (!check_unique_ids (ctx, self))
    return FALSE;

  self->extra = atp_json_object_collect_extra (object, known);
  return TRUE;
}

static AtpAitpRequest *
request_alloc (void)
{
  AtpAitpRequestReal *real = g_new0 (AtpAitpRequestReal, 1);

  g_atomic_ref_count_init (&real->ref_count);
  real->pub.options = g_ptr_array_new_with_free_func ((GDestroyNotify) atp_aitp_option_free);
  return &real->pub;
}

static AtpAitpRequest *
request_parse (JsonNode       *node,
               AtpParseFlags   flags,
               GError        **error)
{
  static const char * const known[] = { "$schema", "request_decision", NULL };
  g_autoptr(AtpAitpRequest) self = NULL;
  g_autoptr(GString) path = NULL;
  JsonObject *root, *request;
  AtpParseCtx ctx;
  gsize mark;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *got = atp_json_describe (node);

      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_REQUEST,
                   "An AITP message must be a JSON object, got %s", got);
      return NULL;
    }
  root = json_node_get_object (node);
  path = g_string_sized_new (64);
  atp_parse_ctx_init (&ctx, path, flags, error);
  self = request_alloc ();

  if (!read_schema (&ctx, root, &self->schema) ||
      !atp_read_object (&ctx, root, "request_decision", ATP_READ_REQUIRED, &request))
    return NULL;
  mark = atp_parse_ctx_push (&ctx, "request_decision");
  if (!parse_request_decision (&ctx, request, self))
    return NULL;
  atp_parse_ctx_pop (&ctx, mark);
  if (!parse_triage_extension (&ctx, root, self))
    return NULL;

  self->message_extra = atp_json_object_collect_extra (root, known);
  return g_steal_pointer (&self);
}

AtpAitpRequest *
atp_aitp_request_new_from_json (JsonNode  *node,
                                GError   **error)
{
  return request_parse (node, ATP_PARSE_DEFAULT, error);
}

AtpAitpRequest *
atp_aitp_request_new_submission (JsonNode  *node,
                                 GError   **error)
{
  return request_parse (node, ATP_PARSE_SUBMISSION, error);
}

/* A person chooses among @n of them (@field: "options", "variants") in
 * one view; a request stored before the rule still reads. */
gboolean
atp_aitp_check_option_count (AtpParseCtx *ctx,
                             const char  *field,
                             guint        n)
{
  if (!(ctx->flags & ATP_PARSE_SUBMISSION) || n <= ATP_AITP_MAX_OPTIONS)
    return TRUE;
  return atp_parse_fail (ctx, ATP_ERROR_INVALID_FIELD_VALUE, field,
                         "must hold at most %d %s (a person chooses among them in one view, "
                         "each shown whole), got %u", ATP_AITP_MAX_OPTIONS, field, n);
}

AtpAitpRequest *
atp_aitp_request_new_from_data (const char  *data,
                                gssize       length,
                                GError     **error)
{
  g_autoptr(JsonNode) root = atp_json_parse (data, length, ATP_MAX_NOTIFICATION_SIZE, error);

  if (root == NULL)
    return NULL;
  return atp_aitp_request_new_from_json (root, error);
}

AtpAitpRequest *
atp_aitp_request_ref (AtpAitpRequest *self)
{
  AtpAitpRequestReal *real = (AtpAitpRequestReal *) self;

  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&real->ref_count);
  return self;
}

void
atp_aitp_request_unref (AtpAitpRequest *self)
{
  AtpAitpRequestReal *real = (AtpAitpRequestReal *) self;

  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&real->ref_count))
    return;
  g_free (self->schema);
  g_free (self->id);
  g_free (self->title);
  g_free (self->description);
  g_clear_pointer (&self->options, g_ptr_array_unref);
  g_clear_pointer (&self->extra, json_object_unref);
  g_clear_pointer (&self->message_extra, json_object_unref);
  g_clear_pointer (&self->deadline, g_date_time_unref);
  g_free (self->project);
  g_free (real);
}

JsonNode *
atp_aitp_request_to_json (AtpAitpRequest *self)
{
  JsonObject *root, *request;
  JsonArray *options;

  g_return_val_if_fail (self != NULL, NULL);

  request = json_object_new ();
  json_object_set_string_member (request, "id", self->id);
  if (self->title != NULL)
    json_object_set_string_member (request, "title", self->title);
  if (self->description != NULL)
    json_object_set_string_member (request, "description", self->description);
  if (self->type_given)
    json_object_set_string_member (request, "type", atp_aitp_decision_type_to_string (self->type));
  options = json_array_sized_new (self->options->len);
  for (guint i = 0; i < self->options->len; i++)
    json_array_add_element (options, atp_aitp_option_to_json (g_ptr_array_index (self->options, i)));
  json_object_set_array_member (request, "options", options);
  atp_json_object_append_extra (request, self->extra);

  root = json_object_new ();
  json_object_set_string_member (root, "$schema", self->schema);
  json_object_set_object_member (root, "request_decision", request);
  atp_json_object_append_extra (root, self->message_extra);
  return atp_aitp_node_take_object (root);
}

const AtpAitpOption *
atp_aitp_request_find_option (AtpAitpRequest       *self,
                              const char           *id,
                              const AtpAitpOption **product)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (product != NULL)
    *product = NULL;
  if (id == NULL)
    return NULL;

  for (guint i = 0; i < self->options->len; i++)
    {
      const AtpAitpOption *option = g_ptr_array_index (self->options, i);

      /* In a products request a variant is the choice, also where it shares
       * its product's id; elsewhere variants mean nothing. */
      for (guint v = 0; self->type == ATP_AITP_DECISION_PRODUCTS && v < option->variants->len; v++)
        {
          const AtpAitpOption *variant = g_ptr_array_index (option->variants, v);

          if (g_str_equal (variant->id, id))
            {
              if (product != NULL)
                *product = option;
              return variant;
            }
        }
      if (g_str_equal (option->id, id))
        {
          if (product != NULL)
            *product = option;
          return option;
        }
    }
  return NULL;
}

/**
 * atp_aitp_request_dup_quotes_end:
 * @self: a request
 *
 * In a products request whose every choice (a product without variants, or
 * a variant) is priced by a quote, the latest `valid_until` among them: from
 * then on nothing can be chosen. A choice without a quote never expires.
 *
 * Returns: (transfer full) (nullable): that time; %NULL in another type or
 *   when some choice has no quote
 */
GDateTime *
atp_aitp_request_dup_quotes_end (AtpAitpRequest *self)
{
  GDateTime *end = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  if (self->type != ATP_AITP_DECISION_PRODUCTS)
    return NULL;
  for (guint i = 0; i < self->options->len; i++)
    {
      const AtpAitpOption *option = g_ptr_array_index (self->options, i);
      guint n = MAX (option->variants->len, 1);

      for (guint v = 0; v < n; v++)
        {
          const AtpAitpQuote *quote =
            option->variants->len == 0 ? atp_aitp_option_quote (option, NULL)
                                       : atp_aitp_option_quote (g_ptr_array_index (option->variants, v),
                                                                option);

          if (quote == NULL)
            {
              g_clear_pointer (&end, g_date_time_unref);
              return NULL;
            }
          if (end == NULL || g_date_time_compare (quote->valid_until, end) > 0)
            {
              g_clear_pointer (&end, g_date_time_unref);
              end = g_date_time_ref (quote->valid_until);
            }
        }
    }
  return end;
}

/**
 * atp_aitp_request_check_answerable:
 * @self: a request
 * @now: the time
 * @error: %ATP_ERROR_CONSTRAINT_VIOLATION when nothing could be chosen
 *
 * A products request whose every choice is priced by a quote that has
 * expired cannot be answered at all.
 *
 * Returns: %TRUE if some option can be chosen at @now
 */
gboolean
atp_aitp_request_check_answerable (AtpAitpRequest  *self,
                                   GDateTime       *now,
                                   GError         **error)
{
  g_autoptr(GDateTime) end = NULL;

  g_return_val_if_fail (self != NULL, FALSE);

  end = atp_aitp_request_dup_quotes_end (self);
  if (end == NULL || g_date_time_compare (now, end) < 0)
    return TRUE;
  g_set_error_literal (error, ATP_ERROR, ATP_ERROR_CONSTRAINT_VIOLATION,
                       "request_decision.options: the quote of every product has expired "
                       "(valid_until): nothing could be chosen");
  return FALSE;
}
