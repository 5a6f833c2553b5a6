/* atp-aitp-decision.c — the AITP-02 decision message, and checking one against its request
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-aitp"

#include "atp-aitp-private.h"

#include <math.h>

#include "atp-json.h"
#include "atp-private.h"

#define MAX_EXACT_INT 9007199254740992.0 /* 2^53 */

typedef struct
{
  AtpAitpDecision pub;
  gatomicrefcount ref_count;
} AtpAitpDecisionReal;

G_DEFINE_BOXED_TYPE (AtpAitpDecision, atp_aitp_decision, atp_aitp_decision_ref, atp_aitp_decision_unref)

static void
selection_free (AtpAitpSelection *selection)
{
  g_free (selection->id);
  g_free (selection->name);
  g_free (selection);
}

static AtpAitpDecision *
decision_alloc (void)
{
  AtpAitpDecisionReal *real = g_new0 (AtpAitpDecisionReal, 1);

  g_atomic_ref_count_init (&real->ref_count);
  real->pub.options = g_ptr_array_new_with_free_func ((GDestroyNotify) selection_free);
  return &real->pub;
}

/* ------------------------------------------------------------------------ */
/* Parsing                                                                   */
/* ------------------------------------------------------------------------ */

/* A SelectedOption: `additionalProperties: false` in the schema. */
static AtpAitpSelection *
selection_parse (AtpParseCtx *ctx,
                 JsonNode    *node)
{
  static const char * const known[] = { "id", "name", "quantity", NULL };
  g_autoptr(JsonObject) unknown = NULL;
  g_autoptr(GList) names = NULL;
  AtpAitpSelection *selection;
  JsonObject *object;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      atp_parse_fail_type (ctx, NULL, "an object", node);
      return NULL;
    }
  object = json_node_get_object (node);
  unknown = atp_json_object_collect_extra (object, known);
  names = json_object_get_members (unknown);
  if (names != NULL)
    {
      atp_parse_fail (ctx, ctx->invalid_code, names->data,
                      "unknown member (a selected option has only id, name and quantity)");
      return NULL;
    }

  selection = g_new0 (AtpAitpSelection, 1);
  if (!atp_read_string_dup (ctx, object, "id", ATP_READ_REQUIRED | ATP_READ_NOT_EMPTY, &selection->id) ||
      !atp_read_string_dup (ctx, object, "name", ATP_READ_OPTIONAL, &selection->name) ||
      !atp_read_number (ctx, object, "quantity", &selection->has_quantity, &selection->quantity))
    {
      selection_free (selection);
      return NULL;
    }
  /* An integer a double cannot hold would be kept as another number. */
  if (selection->has_quantity && fabs (selection->quantity) >= MAX_EXACT_INT)
    {
      JsonNode *quantity = json_object_get_member (object, "quantity");

      if (json_node_get_value_type (quantity) == G_TYPE_INT64 &&
          (json_node_get_int (quantity) > (gint64) MAX_EXACT_INT ||
           json_node_get_int (quantity) < -(gint64) MAX_EXACT_INT))
        {
          atp_parse_fail (ctx, ctx->invalid_code, "quantity",
                          "must be at most 2^53 (9007199254740992), got %" G_GINT64_FORMAT,
                          json_node_get_int (quantity));
          selection_free (selection);
          return NULL;
        }
    }
  return selection;
}

/* The `decision` object at the context's path. */
static gboolean
decision_parse (AtpParseCtx     *ctx,
                JsonObject      *object,
                AtpAitpDecision *self)
{
  static const char * const known[] = { "request_decision_id", "options", NULL };
  JsonArray *options;
  guint n;
  gsize mark;

  if (!atp_read_string_dup (ctx, object, "request_decision_id", ATP_READ_OPTIONAL,
                            &self->request_decision_id) ||
      !atp_read_array (ctx, object, "options", ATP_READ_REQUIRED, &options))
    return FALSE;

  n = json_array_get_length (options);
  if (n == 0)
    return atp_parse_fail (ctx, ctx->invalid_code, "options",
                           "must hold at least one selected option, got an empty array");
  mark = atp_parse_ctx_push (ctx, "options");
  for (guint i = 0; i < n; i++)
    {
      gsize item = atp_parse_ctx_push_index (ctx, i);
      AtpAitpSelection *selection = selection_parse (ctx, json_array_get_element (options, i));

      if (selection == NULL)
        return FALSE;
      g_ptr_array_add (self->options, selection);
      atp_parse_ctx_pop (ctx, item);
    }
  atp_parse_ctx_pop (ctx, mark);

  self->extra = atp_json_object_collect_extra (object, known);
  return TRUE;
}

AtpAitpDecision *
atp_aitp_decision_new_from_json (JsonNode  *node,
                                 GError   **error)
{
  static const char * const known[] = { "$schema", "decision", NULL };
  g_autoptr(AtpAitpDecision) self = NULL;
  g_autoptr(GString) path = NULL;
  JsonObject *root, *decision;
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
  atp_parse_ctx_init (&ctx, path, 0, error);
  self = decision_alloc ();

  if (!atp_read_string_dup (&ctx, root, "$schema", ATP_READ_REQUIRED, &self->schema))
    return NULL;
  if (!atp_uri_is_absolute (self->schema))
    {
      atp_parse_fail_type (&ctx, "$schema", "an absolute URI (e.g. \"" ATP_AITP_SCHEMA_URL "\")",
                           json_object_get_member (root, "$schema"));
      return NULL;
    }
  if (!atp_read_object (&ctx, root, "decision", ATP_READ_REQUIRED, &decision))
    return NULL;
  mark = atp_parse_ctx_push (&ctx, "decision");
  if (!decision_parse (&ctx, decision, self))
    return NULL;
  atp_parse_ctx_pop (&ctx, mark);

  self->message_extra = atp_json_object_collect_extra (root, known);
  return g_steal_pointer (&self);
}

/* ------------------------------------------------------------------------ */
/* Checking against the request                                              */
/* ------------------------------------------------------------------------ */

static gboolean
fail_at (AtpParseCtx *ctx,
         guint        index,
         const char  *member,
         const char  *format,
         ...) G_GNUC_PRINTF (4, 5);

/* "<path>.options[<index>].<member>: <what>" */
static gboolean
fail_at (AtpParseCtx *ctx,
         guint        index,
         const char  *member,
         const char  *format,
         ...)
{
  g_autofree char *field = g_strdup_printf ("options[%u].%s", index, member);
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  return atp_parse_fail (ctx, ATP_ERROR_CONSTRAINT_VIOLATION, field, "%s", what);
}

/* The ids of @product's variants, quoted, for a message. */
static char *
variant_ids (const AtpAitpOption *product)
{
  GString *ids = g_string_new (NULL);

  for (guint v = 0; v < product->variants->len && v < 5; v++)
    g_string_append_printf (ids, "%s\"%s\"", v > 0 ? ", " : "",
                            ((const AtpAitpOption *) g_ptr_array_index (product->variants, v))->id);
  if (product->variants->len > 5)
    g_string_append (ids, ", …");
  return g_string_free (ids, FALSE);
}

static gboolean
check_quantity (AtpParseCtx            *ctx,
                AtpAitpRequest         *request,
                const AtpAitpSelection *selection,
                guint                   index)
{
  double q = selection->quantity;

  if (!selection->has_quantity)
    return TRUE;
  if (request->type != ATP_AITP_DECISION_PRODUCTS)
    return fail_at (ctx, index, "quantity", "only a products decision has quantities "
                    "(this request is of type %s)", atp_aitp_decision_type_to_string (request->type));
  if (q < 1 || q > MAX_EXACT_INT || q != floor (q))
    return fail_at (ctx, index, "quantity", "must be a whole number ≥ 1, got %g", q);
  return TRUE;
}

/* The name an app before 2a15efa gave a variant (its own `name`, else its
 * product's, without the short name): an answer it queued in its outbox
 * before an upgrade is taken, its name made the one shown. */
static gboolean
is_earlier_name (const AtpAitpOption *option,
                 const AtpAitpOption *product,
                 const char          *name)
{
  return product != NULL && option != product &&
         g_strcmp0 (name, option->name != NULL ? option->name : product->name) == 0;
}

/* One selected option: a choice the request offers, at most once, named as
 * the person saw it, with a quote still valid. */
static gboolean
check_selection (AtpParseCtx            *ctx,
                 AtpAitpRequest         *request,
                 const AtpAitpSelection *selection,
                 guint                   index,
                 GHashTable             *chosen,
                 GDateTime              *now)
{
  const AtpAitpOption *product = NULL;
  const AtpAitpOption *option = atp_aitp_request_find_option (request, selection->id, &product);
  g_autofree char *shown = NULL;

  if (option == NULL)
    return fail_at (ctx, index, "id", "\"%s\" is no option of the request", selection->id);
  if (request->type == ATP_AITP_DECISION_PRODUCTS && option == product && product->variants->len > 0)
    {
      g_autofree char *ids = variant_ids (product);

      return fail_at (ctx, index, "id", "\"%s\" has variants: the choice is one of them (%s)",
                      selection->id, ids);
    }
  if (!g_hash_table_add (chosen, selection->id))
    return fail_at (ctx, index, "id", "\"%s\" is chosen twice", selection->id);
  if (!check_quantity (ctx, request, selection, index))
    return FALSE;

  shown = atp_aitp_option_dup_shown_name (option, option == product ? NULL : product);
  if (selection->name != NULL && g_strcmp0 (selection->name, shown) != 0 &&
      !is_earlier_name (option, product, selection->name))
    {
      if (shown == NULL)
        return fail_at (ctx, index, "name", "\"%s\" has no name to give", selection->id);
      return fail_at (ctx, index, "name", "must be the name the person was shown, \"%s\", got \"%s\"",
                      shown, selection->name);
    }

  if (request->type == ATP_AITP_DECISION_PRODUCTS &&
      !atp_aitp_option_is_available (option, option == product ? NULL : product, now))
    {
      const AtpAitpQuote *quote = atp_aitp_option_quote (option, option == product ? NULL : product);
      g_autofree char *until = atp_format_timestamp (quote->valid_until);

      return fail_at (ctx, index, "id", "the quote of \"%s\" expired at %s (valid_until): "
                      "it cannot be chosen any more", selection->id, until);
    }
  return TRUE;
}

/* Every rule of an answer, with the context at the decision object. */
static gboolean
check_decision (AtpParseCtx     *ctx,
                AtpAitpDecision *self,
                AtpAitpRequest  *request,
                GDateTime       *now)
{
  g_autoptr(GHashTable) chosen = g_hash_table_new (g_str_hash, g_str_equal);
  guint n = self->options->len;

  if (self->request_decision_id != NULL && !g_str_equal (self->request_decision_id, request->id))
    return atp_parse_fail (ctx, ATP_ERROR_CONSTRAINT_VIOLATION, "request_decision_id",
                           "must be the id of the request, \"%s\", got \"%s\"",
                           request->id, self->request_decision_id);
  if ((request->type == ATP_AITP_DECISION_RADIO || request->type == ATP_AITP_DECISION_CONFIRMATION) &&
      n != 1)
    return atp_parse_fail (ctx, ATP_ERROR_CONSTRAINT_VIOLATION, "options",
                           "a %s decision chooses exactly one option, got %u",
                           atp_aitp_decision_type_to_string (request->type), n);
  for (guint i = 0; i < n; i++)
    if (!check_selection (ctx, request, g_ptr_array_index (self->options, i), i, chosen, now))
      return FALSE;
  return TRUE;
}

gboolean
atp_aitp_decision_check (AtpAitpDecision  *self,
                         AtpAitpRequest   *request,
                         GDateTime        *now,
                         GError          **error)
{
  g_autoptr(GString) path = g_string_new ("decision");
  AtpParseCtx ctx;

  g_return_val_if_fail (self != NULL && request != NULL && now != NULL, FALSE);

  atp_parse_ctx_init (&ctx, path, 0, error);
  return check_decision (&ctx, self, request, now);
}

/* Fills in what the agent is owed: the request's id, every name as shown,
 * a products decision's quantities. */
static void
complete (AtpAitpDecision *self,
          AtpAitpRequest  *request)
{
  g_free (self->schema);
  self->schema = g_strdup (ATP_AITP_SCHEMA_URL);
  g_free (self->request_decision_id);
  self->request_decision_id = g_strdup (request->id);
  for (guint i = 0; i < self->options->len; i++)
    {
      AtpAitpSelection *selection = g_ptr_array_index (self->options, i);
      const AtpAitpOption *product = NULL;
      const AtpAitpOption *option = atp_aitp_request_find_option (request, selection->id, &product);

      if (selection->name == NULL || is_earlier_name (option, product, selection->name))
        {
          g_free (selection->name);
          selection->name = atp_aitp_option_dup_shown_name (option, option == product ? NULL : product);
        }
      if (request->type == ATP_AITP_DECISION_PRODUCTS && !selection->has_quantity)
        {
          selection->has_quantity = TRUE;
          selection->quantity = 1;
        }
    }
}

AtpAitpDecision *
atp_aitp_decision_new_answer (AtpAitpRequest  *request,
                              JsonNode        *response_data,
                              GDateTime       *now,
                              GError         **error)
{
  g_autoptr(AtpAitpDecision) self = NULL;
  g_autoptr(GString) path = NULL;
  AtpParseCtx ctx;

  g_return_val_if_fail (request != NULL && now != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  path = g_string_new ("response_data");
  atp_parse_ctx_init (&ctx, path, 0, error);
  ctx.missing_code = ATP_ERROR_INVALID_RESPONSE_DATA;
  ctx.invalid_code = ATP_ERROR_INVALID_RESPONSE_DATA;
  if (response_data == NULL || !JSON_NODE_HOLDS_OBJECT (response_data))
    {
      g_autofree char *got = atp_json_describe (response_data);

      g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_RESPONSE_DATA,
                   "response_data: must be the decision, an object {\"options\": [{\"id\": …}]}, "
                   "got %s", got);
      return NULL;
    }

  self = decision_alloc ();
  if (!decision_parse (&ctx, json_node_get_object (response_data), self) ||
      !check_decision (&ctx, self, request, now))
    return NULL;
  complete (self, request);
  return g_steal_pointer (&self);
}

/* ------------------------------------------------------------------------ */
/* Life and output                                                           */
/* ------------------------------------------------------------------------ */

AtpAitpDecision *
atp_aitp_decision_ref (AtpAitpDecision *self)
{
  AtpAitpDecisionReal *real = (AtpAitpDecisionReal *) self;

  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&real->ref_count);
  return self;
}

void
atp_aitp_decision_unref (AtpAitpDecision *self)
{
  AtpAitpDecisionReal *real = (AtpAitpDecisionReal *) self;

  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&real->ref_count))
    return;
  g_free (self->schema);
  g_free (self->request_decision_id);
  g_clear_pointer (&self->options, g_ptr_array_unref);
  g_clear_pointer (&self->extra, json_object_unref);
  g_clear_pointer (&self->message_extra, json_object_unref);
  g_free (real);
}

JsonNode *
atp_aitp_decision_data_to_json (AtpAitpDecision *self)
{
  JsonObject *object;
  JsonArray *options;

  g_return_val_if_fail (self != NULL, NULL);

  object = json_object_new ();
  if (self->request_decision_id != NULL)
    json_object_set_string_member (object, "request_decision_id", self->request_decision_id);
  options = json_array_sized_new (self->options->len);
  for (guint i = 0; i < self->options->len; i++)
    {
      const AtpAitpSelection *selection = g_ptr_array_index (self->options, i);
      JsonObject *item = json_object_new ();

      json_object_set_string_member (item, "id", selection->id);
      if (selection->name != NULL)
        json_object_set_string_member (item, "name", selection->name);
      if (selection->has_quantity)
        json_object_set_member (item, "quantity", atp_json_node_new_number (selection->quantity));
      json_array_add_element (options, atp_aitp_node_take_object (item));
    }
  json_object_set_array_member (object, "options", options);
  atp_json_object_append_extra (object, self->extra);
  return atp_aitp_node_take_object (object);
}

JsonNode *
atp_aitp_decision_to_json (AtpAitpDecision *self)
{
  JsonObject *root;

  g_return_val_if_fail (self != NULL, NULL);

  root = json_object_new ();
  json_object_set_string_member (root, "$schema", self->schema);
  json_object_set_member (root, "decision", atp_aitp_decision_data_to_json (self));
  atp_json_object_append_extra (root, self->message_extra);
  return atp_aitp_node_take_object (root);
}
