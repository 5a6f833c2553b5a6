/* atp-aitp-option.c — AITP-02 options: DecisionOption, its variants, Quote, PaymentPlan
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-aitp"

#include "atp-aitp-private.h"

#include <string.h>

#include "atp-json.h"
#include "atp-private.h"

JsonNode *
atp_aitp_node_take_object (JsonObject *object)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, object);
  return node;
}

/* ------------------------------------------------------------------------ */
/* PaymentPlan                                                               */
/* ------------------------------------------------------------------------ */

static void
plan_free (AtpAitpPaymentPlan *plan)
{
  g_free (plan->plan_id);
  g_free (plan->plan_type);
  g_free (plan->currency);
  g_clear_pointer (&plan->extra, json_object_unref);
  g_free (plan);
}

/* A member that must be one given string (an enum of one value). */
static gboolean
read_constant (AtpParseCtx *ctx,
               JsonObject  *object,
               const char  *name,
               const char  *wanted,
               char       **value)
{
  const char *text;

  if (!atp_read_string (ctx, object, name, ATP_READ_REQUIRED, &text))
    return FALSE;
  if (!g_str_equal (text, wanted))
    {
      g_autofree char *expected = g_strdup_printf ("\"%s\"", wanted);

      return atp_parse_fail_type (ctx, name, expected, json_object_get_member (object, name));
    }
  if (value != NULL)
    *value = g_strdup (text);
  return TRUE;
}

static AtpAitpPaymentPlan *
plan_parse (AtpParseCtx *ctx,
            JsonNode    *node)
{
  static const char * const known[] = { "plan_id", "plan_type", "amount", "currency", NULL };
  AtpAitpPaymentPlan *plan;
  JsonObject *object;
  gboolean present;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      atp_parse_fail_type (ctx, NULL, "an object", node);
      return NULL;
    }
  object = json_node_get_object (node);
  plan = g_new0 (AtpAitpPaymentPlan, 1);

  if (!atp_read_string_dup (ctx, object, "plan_id", ATP_READ_REQUIRED, &plan->plan_id) ||
      !read_constant (ctx, object, "plan_type", "one-time", &plan->plan_type) ||
      !atp_read_number (ctx, object, "amount", &present, &plan->amount))
    goto fail;
  if (!present)
    {
      atp_parse_fail_missing (ctx, "amount");
      goto fail;
    }
  if (plan->amount < 0)
    {
      atp_parse_fail_type (ctx, "amount", "a number ≥ 0", json_object_get_member (object, "amount"));
      goto fail;
    }
  if (!read_constant (ctx, object, "currency", "USD", &plan->currency))
    goto fail;

  plan->extra = atp_json_object_collect_extra (object, known);
  return plan;

fail:
  plan_free (plan);
  return NULL;
}

static JsonNode *
plan_to_json (const AtpAitpPaymentPlan *plan)
{
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "plan_id", plan->plan_id);
  json_object_set_string_member (object, "plan_type", plan->plan_type);
  json_object_set_member (object, "amount", atp_json_node_new_number (plan->amount));
  json_object_set_string_member (object, "currency", plan->currency);
  atp_json_object_append_extra (object, plan->extra);
  return atp_aitp_node_take_object (object);
}

/* ------------------------------------------------------------------------ */
/* Quote                                                                     */
/* ------------------------------------------------------------------------ */

static void
quote_free (AtpAitpQuote *quote)
{
  g_free (quote->quote_id);
  g_free (quote->payee_id);
  g_clear_pointer (&quote->payment_plans, g_ptr_array_unref);
  g_clear_pointer (&quote->valid_until, g_date_time_unref);
  g_clear_pointer (&quote->extra, json_object_unref);
  g_free (quote);
}

static AtpAitpQuote *
quote_parse (AtpParseCtx *ctx,
             JsonObject  *object)
{
  static const char * const known[] = {
    "type", "quote_id", "payee_id", "payment_plans", "valid_until", NULL
  };
  AtpAitpQuote *quote = g_new0 (AtpAitpQuote, 1);
  JsonArray *plans;
  gsize mark;

  quote->payment_plans = g_ptr_array_new_with_free_func ((GDestroyNotify) plan_free);
  if (!read_constant (ctx, object, "type", "Quote", NULL) ||
      !atp_read_string_dup (ctx, object, "quote_id", ATP_READ_REQUIRED, &quote->quote_id) ||
      !atp_read_string_dup (ctx, object, "payee_id", ATP_READ_REQUIRED, &quote->payee_id) ||
      !atp_read_array (ctx, object, "payment_plans", ATP_READ_REQUIRED, &plans) ||
      !atp_read_timestamp (ctx, object, "valid_until", ATP_READ_REQUIRED, &quote->valid_until))
    goto fail;

  mark = atp_parse_ctx_push (ctx, "payment_plans");
  for (guint i = 0; i < json_array_get_length (plans); i++)
    {
      gsize item = atp_parse_ctx_push_index (ctx, i);
      AtpAitpPaymentPlan *plan = plan_parse (ctx, json_array_get_element (plans, i));

      if (plan == NULL)
        goto fail;
      g_ptr_array_add (quote->payment_plans, plan);
      atp_parse_ctx_pop (ctx, item);
    }
  atp_parse_ctx_pop (ctx, mark);

  quote->extra = atp_json_object_collect_extra (object, known);
  return quote;

fail:
  quote_free (quote);
  return NULL;
}

static JsonNode *
quote_to_json (const AtpAitpQuote *quote)
{
  JsonObject *object = json_object_new ();
  JsonArray *plans = json_array_sized_new (quote->payment_plans->len);
  g_autofree char *valid_until = atp_format_timestamp (quote->valid_until);

  json_object_set_string_member (object, "type", "Quote");
  json_object_set_string_member (object, "quote_id", quote->quote_id);
  json_object_set_string_member (object, "payee_id", quote->payee_id);
  for (guint i = 0; i < quote->payment_plans->len; i++)
    json_array_add_element (plans, plan_to_json (g_ptr_array_index (quote->payment_plans, i)));
  json_object_set_array_member (object, "payment_plans", plans);
  json_object_set_string_member (object, "valid_until", valid_until);
  atp_json_object_append_extra (object, quote->extra);
  return atp_aitp_node_take_object (object);
}

/* ------------------------------------------------------------------------ */
/* DecisionOption, DecisionOptionVariant                                     */
/* ------------------------------------------------------------------------ */

void
atp_aitp_option_free (AtpAitpOption *option)
{
  if (option == NULL)
    return;
  g_free (option->id);
  g_free (option->name);
  g_free (option->short_variant_name);
  g_free (option->description);
  g_free (option->image_url);
  g_free (option->url);
  g_clear_pointer (&option->quote, quote_free);
  g_clear_pointer (&option->variants, g_ptr_array_unref);
  g_clear_pointer (&option->extra, json_object_unref);
  g_free (option);
}

/* An optional absolute URI (RFC 3986, with a scheme). */
static gboolean
read_uri (AtpParseCtx *ctx,
          JsonObject  *object,
          const char  *name,
          char       **value)
{
  if (!atp_read_string_dup (ctx, object, name, ATP_READ_OPTIONAL, value))
    return FALSE;
  if (*value != NULL && !atp_uri_is_absolute (*value))
    return atp_parse_fail_type (ctx, name, "an absolute URI with a scheme (e.g. \"https://…\")",
                                json_object_get_member (object, name));
  return TRUE;
}

static gboolean
read_product_facts (AtpParseCtx   *ctx,
                    JsonObject    *object,
                    AtpAitpOption *option)
{
  JsonObject *quote;
  gboolean present;

  if (!atp_read_number (ctx, object, "five_star_rating", &option->has_rating,
                        &option->five_star_rating))
    return FALSE;
  if (option->has_rating && (option->five_star_rating < 0 || option->five_star_rating > 5))
    return atp_parse_fail_type (ctx, "five_star_rating", "a number from 0 to 5",
                                json_object_get_member (object, "five_star_rating"));
  if (!atp_read_integer (ctx, object, "reviews_count", TRUE, &present, &option->reviews_count))
    return FALSE;
  if (!present)
    option->reviews_count = -1;

  if (!atp_read_object (ctx, object, "quote", ATP_READ_OPTIONAL, &quote))
    return FALSE;
  if (quote != NULL)
    {
      gsize mark = atp_parse_ctx_push (ctx, "quote");

      option->quote = quote_parse (ctx, quote);
      if (option->quote == NULL)
        return FALSE;
      atp_parse_ctx_pop (ctx, mark);
    }
  return TRUE;
}

AtpAitpOption *
atp_aitp_option_parse (AtpParseCtx *ctx,
                       JsonNode    *node,
                       gboolean     variant)
{
  static const char * const option_known[] = {
    "id", "name", "short_variant_name", "image_url", "description", "quote", "reviews_count",
    "five_star_rating", "url", "variants", NULL
  };
  /* A variant's `variants`, unknown to the schema, is kept as an unknown member. */
  static const char * const variant_known[] = {
    "id", "name", "short_variant_name", "image_url", "description", "quote", "reviews_count",
    "five_star_rating", "url", NULL
  };
  AtpAitpOption *option;
  JsonObject *object;
  JsonArray *variants = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      atp_parse_fail_type (ctx, NULL, "an object", node);
      return NULL;
    }
  object = json_node_get_object (node);
  option = g_new0 (AtpAitpOption, 1);
  option->variants = g_ptr_array_new_with_free_func ((GDestroyNotify) atp_aitp_option_free);

  if (!atp_read_string_dup (ctx, object, "id", ATP_READ_REQUIRED | ATP_READ_NOT_EMPTY, &option->id) ||
      !atp_read_string_dup (ctx, object, "name", ATP_READ_OPTIONAL, &option->name) ||
      !atp_read_string_dup (ctx, object, "short_variant_name", ATP_READ_OPTIONAL,
                            &option->short_variant_name) ||
      !atp_read_string_dup (ctx, object, "description", ATP_READ_OPTIONAL, &option->description) ||
      !read_uri (ctx, object, "image_url", &option->image_url) ||
      !read_uri (ctx, object, "url", &option->url) ||
      !read_product_facts (ctx, object, option) ||
      (!variant && !atp_read_array (ctx, object, "variants", ATP_READ_OPTIONAL, &variants)))
    goto fail;

  if (variants != NULL && !atp_aitp_check_option_count (ctx, "variants",
                                                        json_array_get_length (variants)))
    goto fail;
  if (variants != NULL)
    {
      g_autoptr(GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
      gsize mark = atp_parse_ctx_push (ctx, "variants");

      for (guint i = 0; i < json_array_get_length (variants); i++)
        {
          gsize item = atp_parse_ctx_push_index (ctx, i);
          AtpAitpOption *each = atp_aitp_option_parse (ctx, json_array_get_element (variants, i), TRUE);

          if (each == NULL)
            goto fail;
          g_ptr_array_add (option->variants, each);
          if (!g_hash_table_add (ids, each->id))
            {
              atp_parse_fail (ctx, ATP_ERROR_INVALID_FIELD_VALUE, "id",
                              "duplicate variant id \"%s\" (the variants of an option need "
                              "unique ids)", each->id);
              goto fail;
            }
          atp_parse_ctx_pop (ctx, item);
        }
      atp_parse_ctx_pop (ctx, mark);
    }

  option->extra = atp_json_object_collect_extra (object, variant ? variant_known : option_known);
  return option;

fail:
  atp_aitp_option_free (option);
  return NULL;
}

static void
set_string (JsonObject *object,
            const char *name,
            const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, name, value);
}

JsonNode *
atp_aitp_option_to_json (const AtpAitpOption *option)
{
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "id", option->id);
  set_string (object, "name", option->name);
  set_string (object, "short_variant_name", option->short_variant_name);
  set_string (object, "description", option->description);
  set_string (object, "image_url", option->image_url);
  set_string (object, "url", option->url);
  if (option->has_rating)
    json_object_set_member (object, "five_star_rating",
                            atp_json_node_new_number (option->five_star_rating));
  if (option->reviews_count >= 0)
    json_object_set_int_member (object, "reviews_count", option->reviews_count);
  if (option->quote != NULL)
    json_object_set_member (object, "quote", quote_to_json (option->quote));
  if (option->variants->len > 0)
    {
      JsonArray *variants = json_array_sized_new (option->variants->len);

      for (guint i = 0; i < option->variants->len; i++)
        json_array_add_element (variants, atp_aitp_option_to_json (g_ptr_array_index (option->variants, i)));
      json_object_set_array_member (object, "variants", variants);
    }
  atp_json_object_append_extra (object, option->extra);
  return atp_aitp_node_take_object (object);
}

/* ------------------------------------------------------------------------ */
/* What an option means to the person                                        */
/* ------------------------------------------------------------------------ */

char *
atp_aitp_option_dup_shown_name (const AtpAitpOption *option,
                                const AtpAitpOption *product)
{
  const char *name;

  g_return_val_if_fail (option != NULL, NULL);

  name = option->name != NULL ? option->name : product != NULL ? product->name : NULL;
  if (name == NULL)
    return g_strdup (option->short_variant_name);
  /* A variant named like its product, or its name not saying which one. */
  if (product != NULL && option->short_variant_name != NULL &&
      strstr (name, option->short_variant_name) == NULL)
    return g_strdup_printf ("%s (%s)", name, option->short_variant_name);
  return g_strdup (name);
}

const AtpAitpQuote *
atp_aitp_option_quote (const AtpAitpOption *option,
                       const AtpAitpOption *product)
{
  g_return_val_if_fail (option != NULL, NULL);

  if (option->quote != NULL)
    return option->quote;
  return product != NULL ? product->quote : NULL;
}

gboolean
atp_aitp_option_is_available (const AtpAitpOption *option,
                              const AtpAitpOption *product,
                              GDateTime           *now)
{
  const AtpAitpQuote *quote = atp_aitp_option_quote (option, product);

  g_return_val_if_fail (now != NULL, FALSE);

  return quote == NULL || g_date_time_compare (now, quote->valid_until) < 0;
}
