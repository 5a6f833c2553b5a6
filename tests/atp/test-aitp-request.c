/* test-aitp-request.c — AITP-02 request_decision: the seed's examples, every rule, round trips
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "aitp-test-common.h"

static void
test_seed_requests (void)
{
  const char *names[] = { AITP_SEED_REQUESTS };
  const AtpAitpDecisionType types[] = {
    ATP_AITP_DECISION_RADIO, ATP_AITP_DECISION_CONFIRMATION, ATP_AITP_DECISION_CHECKBOX,
    ATP_AITP_DECISION_PRODUCTS,
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(JsonNode) sent = aitp_test_load_json (names[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(AtpAitpRequest) request = atp_aitp_request_new_from_json (sent, &error);

      g_test_message ("%s", names[i]);
      g_assert_no_error (error);
      g_assert_cmpint (request->type, ==, types[i]);
      g_assert_cmpstr (request->schema, ==, ATP_AITP_SCHEMA_URL);
      g_assert_cmpuint (request->options->len, >=, 1);
      aitp_test_assert_request_round_trip (request, sent);
    }
}

static void
test_seed_details (void)
{
  g_autoptr(AtpAitpRequest) radio = aitp_test_load_request ("seed-003-radio-request.json");
  g_autoptr(AtpAitpRequest) products = aitp_test_load_request ("seed-003-products-request.json");
  g_autoptr(AtpAitpRequest) checkbox = aitp_test_load_request ("seed-003-checkbox-request.json");
  const AtpAitpOption *option;
  const AtpAitpPaymentPlan *plan;
  g_autofree char *until = NULL;

  /* No type: radio, and none is written back. */
  g_assert_cmpint (radio->type, ==, ATP_AITP_DECISION_RADIO);
  g_assert_false (radio->type_given);
  g_assert_null (radio->title);
  g_assert_cmpstr (radio->description, ==, "Select your favorite number:");
  g_assert_cmpstr (((AtpAitpOption *) radio->options->pdata[1])->id, ==, "7");

  option = products->options->pdata[0];
  g_assert_cmpstr (option->name, ==, "JBL Tour One M2");
  g_assert_true (option->has_rating);
  g_assert_cmpfloat (option->five_star_rating, ==, 4.2);
  g_assert_cmpint (option->reviews_count, ==, 132);
  g_assert_cmpstr (option->url, ==, "https://example.com/product1");
  g_assert_nonnull (option->quote);
  g_assert_cmpstr (option->quote->quote_id, ==, "foobar");
  plan = option->quote->payment_plans->pdata[0];
  g_assert_cmpfloat (plan->amount, ==, 199.5);
  g_assert_cmpstr (plan->currency, ==, "USD");
  until = atp_format_timestamp (option->quote->valid_until);
  g_assert_cmpstr (until, ==, "2050-01-01T00:00:00Z");

  option = checkbox->options->pdata[2];
  g_assert_cmpstr (option->image_url, ==, "https://example.com/green.jpg");
  g_assert_cmpint (option->reviews_count, ==, -1);
  g_assert_false (option->has_rating);
}

/* The seed's generic request has a placeholder for `type`: each value it
 * stands for is a request, the placeholder itself is not. */
static void
test_seed_template (void)
{
  const char *types[] = { "\"radio\"", "\"checkbox\"", "\"confirmation\"", "\"products\"" };
  g_autoptr(JsonNode) sent = aitp_test_load_json ("seed-003-request-template.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAitpRequest) request = atp_aitp_request_new_from_json (sent, &error);

  g_assert_null (request);
  atp_assert_error (error, ATP_ERROR_INVALID_FIELD_VALUE,
                    "request_decision.type: must be one of radio, checkbox, confirmation, products, "
                    "got \"radio|checkbox|confirmation|products\"");

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      g_autoptr(GError) local_error = NULL;
      g_autoptr(AtpAitpRequest) each = NULL;

      atp_test_patch (sent, "request_decision.type", types[i]);
      each = atp_aitp_request_new_from_json (sent, &local_error);
      g_assert_no_error (local_error);
      g_assert_true (each->type_given);
      g_assert_cmpint (each->type, ==, i == 0 ? ATP_AITP_DECISION_RADIO
                                       : i == 1 ? ATP_AITP_DECISION_CHECKBOX
                                       : i == 2 ? ATP_AITP_DECISION_CONFIRMATION
                                                : ATP_AITP_DECISION_PRODUCTS);
      aitp_test_assert_request_round_trip (each, sent);
    }
}

/* The seed's quote structure, as the quote of a product. */
static void
test_seed_quote (void)
{
  g_autoptr(JsonNode) sent = aitp_test_load_json ("seed-003-products-request.json");
  g_autoptr(JsonNode) quote = aitp_test_load_json ("seed-003-quote.json");
  g_autofree char *text = atp_json_to_string (quote, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAitpRequest) request = NULL;
  const AtpAitpQuote *parsed;

  atp_test_patch (sent, "request_decision.options[0].quote", text);
  request = atp_aitp_request_new_from_json (sent, &error);
  g_assert_no_error (error);
  parsed = ((AtpAitpOption *) request->options->pdata[0])->quote;
  g_assert_cmpstr (parsed->quote_id, ==, "unique-quote-id");
  g_assert_cmpstr (parsed->payee_id, ==, "merchant-id");
  g_assert_cmpfloat (((AtpAitpPaymentPlan *) parsed->payment_plans->pdata[0])->amount, ==, 199.99);
  aitp_test_assert_request_round_trip (request, sent);
}

static void
test_variants_and_extensions (void)
{
  g_autoptr(AtpAitpRequest) request = aitp_test_load_request ("products-variants.json");
  const AtpAitpOption *product = NULL, *option;
  g_autofree char *deadline = NULL, *shown = NULL;
  g_autoptr(JsonNode) written = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_utc (2026, 1, 1, 0, 0, 0);

  g_assert_cmpuint (((AtpAitpOption *) request->options->pdata[0])->variants->len, ==, 2);
  option = atp_aitp_request_find_option (request, "jbl-sand", &product);
  g_assert_nonnull (option);
  g_assert_cmpstr (product->id, ==, "jbl");
  /* A variant without a name is shown with its product's and its short
   * name; its own quote prices it. */
  shown = atp_aitp_option_dup_shown_name (option, product);
  g_assert_cmpstr (shown, ==, "JBL Tour One M2 (Sand)");
  g_clear_pointer (&shown, g_free);
  g_assert_cmpstr (atp_aitp_option_quote (option, product)->quote_id, ==, "q-sand");
  option = atp_aitp_request_find_option (request, "jbl-black", &product);
  shown = atp_aitp_option_dup_shown_name (option, product);
  g_assert_cmpstr (shown, ==, "JBL Tour One M2, black (Black)");
  g_clear_pointer (&shown, g_free);
  /* An option is shown by its name alone. */
  shown = atp_aitp_option_dup_shown_name (product, NULL);
  g_assert_cmpstr (shown, ==, "JBL Tour One M2");
  g_clear_pointer (&shown, g_free);
  g_assert_cmpstr (atp_aitp_option_quote (option, product)->quote_id, ==, "q-jbl");
  g_assert_true (atp_aitp_option_is_available (option, product, now));
  g_assert_null (atp_aitp_request_find_option (request, "nothing", NULL));
  g_assert_true (atp_aitp_request_check_answerable (request, now, NULL));
  /* Sony has no quote: the request never runs out of choices. */
  g_assert_null (atp_aitp_request_dup_quotes_end (request));

  /* Triage's extension */
  deadline = atp_format_timestamp (request->deadline);
  g_assert_cmpstr (deadline, ==, "2049-12-31T23:00:00Z");
  g_assert_cmpstr (request->project, ==, "kitchen");
  g_assert_true (request->confirm);

  /* Unknown members stay where they were, x-triage with them. */
  written = atp_aitp_request_to_json (request);
  text = atp_json_to_string (written, NULL);
  g_assert_nonnull (strstr (text, "\"x-colour\":\"silver\""));
  g_assert_nonnull (strstr (text, "\"x-note\":{\"kept\":[1,2.5,null]}"));
  g_assert_nonnull (strstr (text, "\"x-triage\":{\"deadline\":\"2049-12-31T23:00:00Z\""));
  g_assert_nonnull (strstr (text, "\"x-other\":true"));
  /* Times are written in UTC. */
  g_assert_nonnull (strstr (text, "\"valid_until\":\"2049-12-31T22:00:00Z\""));
  g_assert_nonnull (strstr (text, "\"amount\":209,"));
  aitp_test_assert_request_round_trip (request, NULL);
}

/* In a products request a variant may share its product's id: the id then
 * names the variant. In the other types variants mean nothing. */
static void
test_variant_ids (void)
{
  g_autoptr(JsonNode) sent = aitp_test_load_json ("products-variants.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAitpRequest) request = NULL;
  const AtpAitpOption *product = NULL, *option;

  atp_test_patch (sent, "request_decision.options[0].variants[0].id", "\"jbl\"");
  request = atp_aitp_request_new_from_json (sent, &error);
  g_assert_no_error (error);
  option = atp_aitp_request_find_option (request, "jbl", &product);
  g_assert_true (option == ((AtpAitpOption *) request->options->pdata[0])->variants->pdata[0]);
  g_assert_true (product == request->options->pdata[0]);
  g_clear_pointer (&request, atp_aitp_request_unref);

  atp_test_patch (sent, "request_decision.type", "\"checkbox\"");
  request = atp_aitp_request_new_from_json (sent, &error);
  g_assert_no_error (error);
  g_assert_null (atp_aitp_request_find_option (request, "jbl-sand", NULL));
  g_assert_true (atp_aitp_request_find_option (request, "jbl", &product) == request->options->pdata[0]);
}

static void
test_all_quotes_expired (void)
{
  g_autoptr(JsonNode) sent = aitp_test_load_json ("products-variants.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAitpRequest) request = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_utc (2051, 1, 1, 0, 0, 0);
  g_autoptr(GDateTime) end = NULL;
  g_autofree char *end_text = NULL;
  const char *quote = "{\"type\":\"Quote\",\"quote_id\":\"q\",\"payee_id\":\"p\",\"payment_plans\":[],"
                      "\"valid_until\":\"2050-06-01T00:00:00Z\"}";

  atp_test_patch (sent, "request_decision.options[1].quote", quote);
  request = atp_aitp_request_new_from_json (sent, &error);
  g_assert_no_error (error);
  /* Every choice quoted: the latest valid_until ends the request (jbl-sand's
   * 2049-12-31T22:00:00Z and jbl-black's 2050-01-01 come before it). */
  end = atp_aitp_request_dup_quotes_end (request);
  end_text = atp_format_timestamp (end);
  g_assert_cmpstr (end_text, ==, "2050-06-01T00:00:00Z");
  g_assert_false (atp_aitp_request_check_answerable (request, now, &error));
  atp_assert_error (error, ATP_ERROR_CONSTRAINT_VIOLATION,
                    "request_decision.options: the quote of every product has expired");
}

typedef struct
{
  const char *path;        /* patched member of products-variants.json */
  const char *value;       /* JSON text, NULL to remove the member */
  int         code;        /* -1: must parse */
  const char *needle;
} RuleCase;

#define OK -1
#define MISSING ATP_ERROR_MISSING_REQUIRED_FIELD
#define INVALID ATP_ERROR_INVALID_FIELD_VALUE
#define RD "request_decision."
#define O0 "request_decision.options[0]."
#define Q0 "request_decision.options[0].quote."
#define P0 "request_decision.options[0].quote.payment_plans[0]."
#define V1 "request_decision.options[0].variants[1]."

static const RuleCase rule_cases[] = {
  /* the message */
  { "$schema", NULL, MISSING, "$schema: required field is missing" },
  { "$schema", "7", INVALID, "$schema: must be a string, got 7" },
  { "$schema", "\"decisions\"", INVALID, "$schema: must be an absolute URI" },
  { "$schema", "\"https://aitp.dev/capabilities/aitp-02-decisions/v1.0.0/schema.json\"", OK, NULL },
  { "request_decision", NULL, MISSING, "request_decision: required field is missing" },
  { "request_decision", "[]", INVALID, "request_decision: must be an object, got an array" },
  /* request_decision */
  { RD "id", NULL, MISSING, "request_decision.id: required field is missing" },
  { RD "id", "\"\"", INVALID, "request_decision.id: must be a non-empty string" },
  { RD "id", "12", INVALID, "request_decision.id: must be a non-empty string, got 12" },
  { RD "title", "false", INVALID, "request_decision.title: must be a string, got false" },
  { RD "title", NULL, OK, NULL },
  { RD "description", "[\"a\"]", INVALID, "request_decision.description: must be a string, got an array" },
  { RD "type", "\"dropdown\"", INVALID, "request_decision.type: must be one of radio, checkbox, confirmation, products, got \"dropdown\"" },
  { RD "type", "\"Radio\"", INVALID, "request_decision.type: must be one of" },
  { RD "type", "1", INVALID, "request_decision.type: must be a string, got 1" },
  { RD "type", "null", OK, NULL },
  { RD "options", NULL, MISSING, "request_decision.options: required field is missing" },
  { RD "options", "[]", INVALID, "request_decision.options: must hold at least one option" },
  { RD "options", "{}", INVALID, "request_decision.options: must be an array, got an object" },
  { RD "options", "[{\"id\":\"a\"},\"b\"]", INVALID, "request_decision.options[1]: must be an object, got \"b\"" },
  { RD "options", "[{\"id\":\"a\"},{\"id\":\"a\"}]", INVALID, "request_decision.options[1].id: duplicate option id \"a\"" },
  /* an option */
  { O0 "id", NULL, MISSING, "request_decision.options[0].id: required field is missing" },
  { O0 "id", "\"\"", INVALID, "request_decision.options[0].id: must be a non-empty string" },
  { O0 "id", "1", INVALID, "request_decision.options[0].id: must be a non-empty string, got 1" },
  { O0 "id", "\"sony\"", INVALID, "request_decision.options[1].id: duplicate option id \"sony\" (options[0] has it" },
  { O0 "name", "{}", INVALID, "request_decision.options[0].name: must be a string, got an object" },
  { O0 "name", NULL, OK, NULL },
  { O0 "short_variant_name", "3", INVALID, "request_decision.options[0].short_variant_name: must be a string" },
  { O0 "description", "null", OK, NULL },
  { O0 "description", "true", INVALID, "request_decision.options[0].description: must be a string, got true" },
  { O0 "image_url", "\"jbl.jpg\"", INVALID, "request_decision.options[0].image_url: must be an absolute URI" },
  { O0 "image_url", "\"https://exa mple.com/a.jpg\"", INVALID, "request_decision.options[0].image_url: must be an absolute URI" },
  { O0 "image_url", "5", INVALID, "request_decision.options[0].image_url: must be a string, got 5" },
  { O0 "url", "\"/product\"", INVALID, "request_decision.options[0].url: must be an absolute URI" },
  { O0 "url", "\"http://example.com/p?q=1#x\"", OK, NULL },
  { O0 "five_star_rating", "5.1", INVALID, "request_decision.options[0].five_star_rating: must be a number from 0 to 5, got 5.1" },
  { O0 "five_star_rating", "-0.5", INVALID, "request_decision.options[0].five_star_rating: must be a number from 0 to 5" },
  { O0 "five_star_rating", "\"4.2\"", INVALID, "request_decision.options[0].five_star_rating: must be a number, got \"4.2\"" },
  { O0 "five_star_rating", "true", INVALID, "request_decision.options[0].five_star_rating: must be a number, got true" },
  { O0 "five_star_rating", "0", OK, NULL },
  { O0 "five_star_rating", "5.0", OK, NULL },
  { O0 "reviews_count", "13.5", INVALID, "request_decision.options[0].reviews_count: must be an integer ≥ 0, got 13.5" },
  { O0 "reviews_count", "-1", INVALID, "request_decision.options[0].reviews_count: must be an integer ≥ 0, got -1" },
  { O0 "reviews_count", "\"132\"", INVALID, "request_decision.options[0].reviews_count: must be an integer ≥ 0, got \"132\"" },
  { O0 "reviews_count", "0", OK, NULL },
  { O0 "quote", "\"q\"", INVALID, "request_decision.options[0].quote: must be an object, got \"q\"" },
  { O0 "quote", NULL, OK, NULL },
  /* a quote */
  { Q0 "type", NULL, MISSING, "request_decision.options[0].quote.type: required field is missing" },
  { Q0 "type", "\"quote\"", INVALID, "request_decision.options[0].quote.type: must be \"Quote\", got \"quote\"" },
  { Q0 "quote_id", NULL, MISSING, "request_decision.options[0].quote.quote_id: required field is missing" },
  { Q0 "quote_id", "9", INVALID, "request_decision.options[0].quote.quote_id: must be a string, got 9" },
  { Q0 "payee_id", NULL, MISSING, "request_decision.options[0].quote.payee_id: required field is missing" },
  { Q0 "payment_plans", NULL, MISSING, "request_decision.options[0].quote.payment_plans: required field is missing" },
  { Q0 "payment_plans", "{}", INVALID, "request_decision.options[0].quote.payment_plans: must be an array" },
  { Q0 "payment_plans", "[]", OK, NULL },
  { Q0 "payment_plans", "[7]", INVALID, "request_decision.options[0].quote.payment_plans[0]: must be an object, got 7" },
  { Q0 "valid_until", NULL, MISSING, "request_decision.options[0].quote.valid_until: required field is missing" },
  { Q0 "valid_until", "\"tomorrow\"", INVALID, "request_decision.options[0].quote.valid_until: must be an RFC 3339 date-time" },
  { Q0 "valid_until", "\"2050-01-01T00:00:00\"", INVALID, "request_decision.options[0].quote.valid_until: must be an RFC 3339 date-time" },
  { Q0 "valid_until", "2050", INVALID, "request_decision.options[0].quote.valid_until: must be a string, got 2050" },
  { Q0 "x-terms", "\"net 30\"", OK, NULL },
  /* a payment plan */
  { P0 "plan_id", NULL, MISSING, "request_decision.options[0].quote.payment_plans[0].plan_id: required field is missing" },
  { P0 "plan_type", NULL, MISSING, "request_decision.options[0].quote.payment_plans[0].plan_type: required field is missing" },
  { P0 "plan_type", "\"monthly\"", INVALID, "request_decision.options[0].quote.payment_plans[0].plan_type: must be \"one-time\", got \"monthly\"" },
  { P0 "amount", NULL, MISSING, "request_decision.options[0].quote.payment_plans[0].amount: required field is missing" },
  { P0 "amount", "\"199.5\"", INVALID, "request_decision.options[0].quote.payment_plans[0].amount: must be a number, got \"199.5\"" },
  { P0 "amount", "-1", INVALID, "request_decision.options[0].quote.payment_plans[0].amount: must be a number ≥ 0, got -1" },
  { P0 "amount", "0", OK, NULL },
  { P0 "currency", NULL, MISSING, "request_decision.options[0].quote.payment_plans[0].currency: required field is missing" },
  { P0 "currency", "\"EUR\"", INVALID, "request_decision.options[0].quote.payment_plans[0].currency: must be \"USD\", got \"EUR\"" },
  { P0 "currency", "\"usd\"", INVALID, "must be \"USD\", got \"usd\"" },
  /* variants */
  { O0 "variants", "{}", INVALID, "request_decision.options[0].variants: must be an array, got an object" },
  { O0 "variants", "[\"black\"]", INVALID, "request_decision.options[0].variants[0]: must be an object, got \"black\"" },
  { O0 "variants", "[]", OK, NULL },
  { V1 "id", NULL, MISSING, "request_decision.options[0].variants[1].id: required field is missing" },
  { V1 "id", "\"jbl-black\"", INVALID, "request_decision.options[0].variants[1].id: duplicate variant id \"jbl-black\"" },
  { V1 "id", "\"sony\"", INVALID, "request_decision.options[0].variants[1].id: \"sony\" is also an id of options[1]" },
  { V1 "id", "\"jbl\"", OK, NULL },
  { V1 "five_star_rating", "6", INVALID, "request_decision.options[0].variants[1].five_star_rating: must be a number from 0 to 5, got 6" },
  { V1 "quote.payment_plans[0].currency", "\"GBP\"", INVALID, "request_decision.options[0].variants[1].quote.payment_plans[0].currency: must be \"USD\"" },
  { V1 "url", "\"nope\"", INVALID, "request_decision.options[0].variants[1].url: must be an absolute URI" },
  /* a variant has no variants of its own: such a member is only kept */
  { V1 "variants", "[1, 2]", OK, NULL },
  /* Triage's extension */
  { "x-triage", "[]", INVALID, "x-triage: must be an object, got an array" },
  { "x-triage", "{}", OK, NULL },
  { "x-triage.deadline", "\"soon\"", INVALID, "x-triage.deadline: must be an RFC 3339 date-time" },
  { "x-triage.deadline", "1700000000", INVALID, "x-triage.deadline: must be a string, got 1700000000" },
  { "x-triage.project", "\" \"", INVALID, "x-triage.project: must be a non-empty string (not only spaces)" },
  { "x-triage.confirm", "\"yes\"", INVALID, "x-triage.confirm: must be true or false, got \"yes\"" },
  { "x-triage.confirm", "null", OK, NULL },
  { "x-triage.dealine", "\"2049-01-01T00:00:00Z\"", INVALID, "x-triage.dealine: unknown member (x-triage has deadline, project and confirm)" },
};

static void
test_rules (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (rule_cases); i++)
    {
      const RuleCase *c = &rule_cases[i];
      g_autoptr(JsonNode) sent = aitp_test_load_json ("products-variants.json");
      g_autoptr(GError) error = NULL;
      g_autoptr(AtpAitpRequest) request = NULL;

      g_test_message ("case %u: %s = %s", i, c->path, c->value ? c->value : "(removed)");
      atp_test_patch (sent, c->path, c->value);
      request = atp_aitp_request_new_from_json (sent, &error);
      if (c->code == OK)
        {
          g_assert_no_error (error);
          aitp_test_assert_request_round_trip (request, NULL);
        }
      else
        {
          g_assert_null (request);
          atp_assert_error (error, c->code, c->needle);
        }
    }
}

static void
test_hostile (void)
{
  const char *texts[] = { "", "[]", "\"x\"", "{\"$schema\": \"https://aitp.dev/x\", \"request_decision\": {\"id\": \"a\", \"options\": [{\"id\": \"a\"}],}}" };
  const int codes[] = { ATP_ERROR_INVALID_JSON, ATP_ERROR_INVALID_REQUEST, ATP_ERROR_INVALID_REQUEST,
                        ATP_ERROR_INVALID_JSON };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AtpAitpRequest) request = atp_aitp_request_new_from_data (texts[i], -1, &error);

      g_assert_null (request);
      atp_assert_error (error, codes[i], "");
    }
}

/* More options than a person chooses among, or variants of a product, are
 * refused in what is submitted, read where stored. */
static void
test_options_bounded_in_submission (void)
{
  for (guint variants = 0; variants <= 1; variants++)
    {
      g_autoptr(GString) json = g_string_new ("{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\","
                                              "\"request_decision\":{\"id\":\"r\",\"options\":[");
      g_autoptr(JsonNode) root = NULL;
      g_autoptr(AtpAitpRequest) submitted = NULL, stored = NULL;
      g_autoptr(GError) error = NULL;

      if (variants)
        g_string_append (json, "{\"id\":\"p\",\"variants\":[");
      for (guint i = 0; i <= ATP_AITP_MAX_OPTIONS; i++)
        g_string_append_printf (json, "%s{\"id\":\"o%u\"}", i > 0 ? "," : "", i);
      g_string_append (json, variants ? "]}]}}" : "]}}");
      root = atp_json_parse (json->str, -1, ATP_MAX_NOTIFICATION_SIZE, &error);
      g_assert_no_error (error);

      submitted = atp_aitp_request_new_submission (root, &error);
      g_assert_null (submitted);
      atp_assert_error (error, ATP_ERROR_INVALID_FIELD_VALUE,
                        variants ? "request_decision.options[0].variants: must hold at most 100 variants"
                                 : "request_decision.options: must hold at most 100 options",
                        "got 101");
      g_clear_error (&error);
      stored = atp_aitp_request_new_from_json (root, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (variants ? ((AtpAitpOption *) stored->options->pdata[0])->variants->len
                                 : stored->options->len, ==, ATP_AITP_MAX_OPTIONS + 1);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/aitp/request/seed", test_seed_requests);
  g_test_add_func ("/aitp/request/seed-details", test_seed_details);
  g_test_add_func ("/aitp/request/seed-template", test_seed_template);
  g_test_add_func ("/aitp/request/seed-quote", test_seed_quote);
  g_test_add_func ("/aitp/request/variants-and-extensions", test_variants_and_extensions);
  g_test_add_func ("/aitp/request/variant-ids", test_variant_ids);
  g_test_add_func ("/aitp/request/all-quotes-expired", test_all_quotes_expired);
  g_test_add_func ("/aitp/request/rules", test_rules);
  g_test_add_func ("/aitp/request/hostile", test_hostile);
  g_test_add_func ("/aitp/request/options-bounded-in-submission", test_options_bounded_in_submission);

  return g_test_run ();
}
