/* test-aitp-decision.c — AITP-02 decisions: the seed's, an answer against its request, every rule
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "aitp-test-common.h"

static GDateTime *
test_now (void)
{
  return g_date_time_new_utc (2026, 5, 25, 10, 30, 0);
}

static AtpAitpDecision *
load_decision (const char *name)
{
  g_autoptr(JsonNode) node = aitp_test_load_json (name);
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAitpDecision) decision = atp_aitp_decision_new_from_json (node, &error);
  g_autoptr(JsonNode) written = NULL;

  g_assert_no_error (error);
  /* Written back as it came. */
  written = atp_aitp_decision_to_json (decision);
  g_assert_true (atp_json_node_equal (written, node));
  return g_steal_pointer (&decision);
}

/* Each response of the seed answers its request. */
static void
test_seed_decisions (void)
{
  const char *pairs[][2] = {
    { "seed-003-radio-decision.json", "seed-003-radio-request.json" },
    { "seed-003-checkbox-decision.json", "seed-003-checkbox-request.json" },
    { "seed-003-products-decision.json", "seed-003-products-request.json" },
  };
  g_autoptr(GDateTime) now = test_now ();

  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      g_autoptr(AtpAitpDecision) decision = load_decision (pairs[i][0]);
      g_autoptr(AtpAitpRequest) request = aitp_test_load_request (pairs[i][1]);
      g_autoptr(GError) error = NULL;

      g_test_message ("%s", pairs[i][0]);
      g_assert_true (atp_aitp_decision_check (decision, request, now, &error));
      g_assert_no_error (error);
    }
}

static void
test_seed_template (void)
{
  g_autoptr(AtpAitpDecision) decision = load_decision ("seed-003-decision-template.json");
  AtpAitpSelection *selection = decision->options->pdata[0];

  g_assert_cmpstr (decision->request_decision_id, ==, "id-from-the-request");
  g_assert_cmpstr (selection->id, ==, "selected-option-id");
  g_assert_true (selection->has_quantity);
  g_assert_cmpfloat (selection->quantity, ==, 1);
}

/* What the server makes of an app's answer, and hands the agent. */
static void
test_answer_completed (void)
{
  struct
  {
    const char *request;
    const char *data;
    const char *message;
  } cases[] = {
    { "seed-003-radio-request.json", "{\"options\":[{\"id\":\"7\"}]}",
      "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"decision\":"
      "{\"request_decision_id\":\"7c42b9d6-107d-4f5f-8f23-f9014c6efdae\","
      "\"options\":[{\"id\":\"7\",\"name\":\"7\"}]}}" },
    { "seed-003-confirmation-request.json", "{\"options\":[{\"id\":\"3\",\"name\":\"Something else\"}]}",
      "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"decision\":"
      "{\"request_decision_id\":\"27ed3deb-39cb-4968-90dc-9cb456a470f2\","
      "\"options\":[{\"id\":\"3\",\"name\":\"Something else\"}]}}" },
    { "seed-003-checkbox-request.json", "{\"options\":[{\"id\":\"red\"},{\"id\":\"blue\"}],\"x-why\":\"calm\"}",
      "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"decision\":"
      "{\"request_decision_id\":\"50a53841-09ee-4b57-b5ec-561fe505f532\","
      "\"options\":[{\"id\":\"red\",\"name\":\"Red\"},{\"id\":\"blue\",\"name\":\"Blue\"}],\"x-why\":\"calm\"}}" },
    { "seed-003-products-request.json", "{\"options\":[{\"id\":\"product_1\"}]}",
      "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"decision\":"
      "{\"request_decision_id\":\"bd9b613c-6fa5-4797-ba91-547f0903da9f\","
      "\"options\":[{\"id\":\"product_1\",\"name\":\"JBL Tour One M2\",\"quantity\":1}]}}" },
    { "products-variants.json",
      "{\"request_decision_id\":\"b3f1c9e2-headphones\",\"options\":[{\"id\":\"jbl-sand\",\"quantity\":2},"
      "{\"id\":\"jbl-black\",\"quantity\":1.0},{\"id\":\"sony\",\"name\":\"Sony WH-1000XM5\"}]}",
      "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"decision\":"
      "{\"request_decision_id\":\"b3f1c9e2-headphones\",\"options\":["
      "{\"id\":\"jbl-sand\",\"name\":\"JBL Tour One M2 (Sand)\",\"quantity\":2},"
      "{\"id\":\"jbl-black\",\"name\":\"JBL Tour One M2, black (Black)\",\"quantity\":1},"
      "{\"id\":\"sony\",\"name\":\"Sony WH-1000XM5\",\"quantity\":1}]}}" },
    /* As an app before 2a15efa named a variant (queued in its outbox before
     * an upgrade): taken, and named as shown. */
    { "products-variants.json",
      "{\"options\":[{\"id\":\"jbl-sand\",\"name\":\"JBL Tour One M2\"},"
      "{\"id\":\"jbl-black\",\"name\":\"JBL Tour One M2, black\"}]}",
      "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"decision\":"
      "{\"request_decision_id\":\"b3f1c9e2-headphones\",\"options\":["
      "{\"id\":\"jbl-sand\",\"name\":\"JBL Tour One M2 (Sand)\",\"quantity\":1},"
      "{\"id\":\"jbl-black\",\"name\":\"JBL Tour One M2, black (Black)\",\"quantity\":1}]}}" },
  };
  g_autoptr(GDateTime) now = test_now ();

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AtpAitpRequest) request = aitp_test_load_request (cases[i].request);
      g_autoptr(JsonNode) data = aitp_test_parse (cases[i].data);
      g_autoptr(GError) error = NULL;
      g_autoptr(AtpAitpDecision) decision = atp_aitp_decision_new_answer (request, data, now, &error);
      g_autoptr(JsonNode) message = NULL, stored = NULL;
      g_autoptr(AtpAitpDecision) again = NULL;
      g_autofree char *text = NULL;

      g_test_message ("%s %s", cases[i].request, cases[i].data);
      g_assert_no_error (error);
      message = atp_aitp_decision_to_json (decision);
      text = atp_json_to_string (message, NULL);
      g_assert_cmpstr (text, ==, cases[i].message);

      /* The message is a decision the request takes, and the stored object
       * is its `decision`, itself a valid answer. */
      again = atp_aitp_decision_new_from_json (message, &error);
      g_assert_no_error (error);
      g_assert_true (atp_aitp_decision_check (again, request, now, &error));
      stored = atp_aitp_decision_data_to_json (decision);
      g_assert_true (atp_json_node_equal (stored, json_object_get_member (json_node_get_object (message),
                                                                            "decision")));
      g_clear_pointer (&decision, atp_aitp_decision_unref);
      decision = atp_aitp_decision_new_answer (request, stored, now, &error);
      g_assert_no_error (error);
    }
}

typedef struct
{
  const char *request;     /* tests/atp/data/aitp/… */
  const char *data;        /* response_data, JSON text; NULL = none */
  int         code;
  const char *needle;
} AnswerCase;

#define BAD_DATA ATP_ERROR_INVALID_RESPONSE_DATA
#define BROKEN ATP_ERROR_CONSTRAINT_VIOLATION
#define RADIO "seed-003-radio-request.json"
#define CONFIRM "seed-003-confirmation-request.json"
#define CHECKBOX "seed-003-checkbox-request.json"
#define PRODUCTS "products-variants.json"

static const AnswerCase answer_cases[] = {
  /* the shape (400) */
  { RADIO, NULL, BAD_DATA, "response_data: must be the decision, an object {\"options\": [{\"id\": …}]}, got null" },
  { RADIO, "\"7\"", BAD_DATA, "response_data: must be the decision, an object" },
  { RADIO, "[{\"id\":\"7\"}]", BAD_DATA, "response_data: must be the decision, an object {\"options\": [{\"id\": …}]}, got an array" },
  { RADIO, "{}", BAD_DATA, "response_data.options: required field is missing" },
  { RADIO, "{\"options\":{\"id\":\"7\"}}", BAD_DATA, "response_data.options: must be an array, got an object" },
  { RADIO, "{\"options\":[]}", BAD_DATA, "response_data.options: must hold at least one selected option" },
  { RADIO, "{\"options\":[\"7\"]}", BAD_DATA, "response_data.options[0]: must be an object, got \"7\"" },
  { RADIO, "{\"options\":[{}]}", BAD_DATA, "response_data.options[0].id: required field is missing" },
  { RADIO, "{\"options\":[{\"id\":7}]}", BAD_DATA, "response_data.options[0].id: must be a non-empty string, got 7" },
  { RADIO, "{\"options\":[{\"id\":\"\"}]}", BAD_DATA, "response_data.options[0].id: must be a non-empty string" },
  { RADIO, "{\"options\":[{\"id\":\"7\",\"name\":7}]}", BAD_DATA, "response_data.options[0].name: must be a string, got 7" },
  { RADIO, "{\"options\":[{\"id\":\"7\",\"label\":\"7\"}]}", BAD_DATA, "response_data.options[0].label: unknown member (a selected option has only id, name and quantity)" },
  { PRODUCTS, "{\"options\":[{\"id\":\"sony\",\"quantity\":\"2\"}]}", BAD_DATA, "response_data.options[0].quantity: must be a number, got \"2\"" },
  { PRODUCTS, "{\"options\":[{\"id\":\"sony\",\"quantity\":9007199254740993}]}", BAD_DATA, "response_data.options[0].quantity: must be at most 2^53 (9007199254740992), got 9007199254740993" },
  { RADIO, "{\"request_decision_id\":5,\"options\":[{\"id\":\"7\"}]}", BAD_DATA, "response_data.request_decision_id: must be a string, got 5" },
  /* the rules (422) */
  { RADIO, "{\"request_decision_id\":\"other\",\"options\":[{\"id\":\"7\"}]}", BROKEN, "response_data.request_decision_id: must be the id of the request, \"7c42b9d6-107d-4f5f-8f23-f9014c6efdae\", got \"other\"" },
  { RADIO, "{\"options\":[{\"id\":\"7\"},{\"id\":\"0\"}]}", BROKEN, "response_data.options: a radio decision chooses exactly one option, got 2" },
  { CONFIRM, "{\"options\":[{\"id\":\"1\"},{\"id\":\"2\"}]}", BROKEN, "response_data.options: a confirmation decision chooses exactly one option, got 2" },
  { RADIO, "{\"options\":[{\"id\":\"8\"}]}", BROKEN, "response_data.options[0].id: \"8\" is no option of the request" },
  { RADIO, "{\"options\":[{\"id\":\"7\",\"quantity\":1}]}", BROKEN, "response_data.options[0].quantity: only a products decision has quantities (this request is of type radio)" },
  { RADIO, "{\"options\":[{\"id\":\"7\",\"name\":\"seven\"}]}", BROKEN, "response_data.options[0].name: must be the name the person was shown, \"7\", got \"seven\"" },
  { CHECKBOX, "{\"options\":[{\"id\":\"red\"},{\"id\":\"red\"}]}", BROKEN, "response_data.options[1].id: \"red\" is chosen twice" },
  { CHECKBOX, "{\"options\":[{\"id\":\"red\"},{\"id\":\"Red\"}]}", BROKEN, "response_data.options[1].id: \"Red\" is no option of the request" },
  { PRODUCTS, "{\"options\":[{\"id\":\"jbl\"}]}", BROKEN, "response_data.options[0].id: \"jbl\" has variants: the choice is one of them (\"jbl-black\", \"jbl-sand\")" },
  { PRODUCTS, "{\"options\":[{\"id\":\"sony\",\"quantity\":0}]}", BROKEN, "response_data.options[0].quantity: must be a whole number ≥ 1, got 0" },
  { PRODUCTS, "{\"options\":[{\"id\":\"sony\",\"quantity\":1.5}]}", BROKEN, "response_data.options[0].quantity: must be a whole number ≥ 1, got 1.5" },
  { PRODUCTS, "{\"options\":[{\"id\":\"sony\",\"quantity\":-2}]}", BROKEN, "response_data.options[0].quantity: must be a whole number ≥ 1, got -2" },
  { PRODUCTS, "{\"options\":[{\"id\":\"sony\",\"quantity\":1e300}]}", BROKEN, "response_data.options[0].quantity: must be a whole number ≥ 1" },
  { PRODUCTS, "{\"options\":[{\"id\":\"jbl-sand\",\"name\":\"Sand\"}]}", BROKEN, "response_data.options[0].name: must be the name the person was shown, \"JBL Tour One M2 (Sand)\", got \"Sand\"" },
  /* Another variant's name is not this one's. */
  { PRODUCTS, "{\"options\":[{\"id\":\"jbl-sand\",\"name\":\"JBL Tour One M2, black\"}]}", BROKEN, "response_data.options[0].name: must be the name the person was shown, \"JBL Tour One M2 (Sand)\", got \"JBL Tour One M2, black\"" },
  /* fine */
  { CHECKBOX, "{\"options\":[{\"id\":\"green\"}]}", -1, NULL },
  { CHECKBOX, "{\"options\":[{\"id\":\"green\"},{\"id\":\"blue\"},{\"id\":\"red\"}]}", -1, NULL },
  { CONFIRM, "{\"options\":[{\"id\":\"2\"}]}", -1, NULL },
  { PRODUCTS, "{\"options\":[{\"id\":\"sony\",\"quantity\":1000}]}", -1, NULL },
  { PRODUCTS, "{\"options\":[{\"id\":\"sony\",\"quantity\":9007199254740992}]}", -1, NULL },
};

static void
test_answer_rules (void)
{
  g_autoptr(GDateTime) now = test_now ();

  for (guint i = 0; i < G_N_ELEMENTS (answer_cases); i++)
    {
      const AnswerCase *c = &answer_cases[i];
      g_autoptr(AtpAitpRequest) request = aitp_test_load_request (c->request);
      g_autoptr(JsonNode) data = c->data ? aitp_test_parse (c->data) : NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(AtpAitpDecision) decision = NULL;

      g_test_message ("case %u: %s %s", i, c->request, c->data ? c->data : "(none)");
      decision = atp_aitp_decision_new_answer (request, data, now, &error);
      if (c->code < 0)
        g_assert_no_error (error);
      else
        {
          g_assert_null (decision);
          atp_assert_error (error, c->code, c->needle);
        }
    }
}

/* A product whose quote has expired cannot be chosen; its other variants can. */
static void
test_expired_quote (void)
{
  g_autoptr(JsonNode) sent = aitp_test_load_json (PRODUCTS);
  g_autoptr(AtpAitpRequest) request = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDateTime) before = g_date_time_new_utc (2049, 12, 31, 21, 59, 59);
  g_autoptr(GDateTime) at = g_date_time_new_utc (2049, 12, 31, 22, 0, 0);
  g_autoptr(JsonNode) sand = aitp_test_parse ("{\"options\":[{\"id\":\"jbl-sand\"}]}");
  g_autoptr(JsonNode) black = aitp_test_parse ("{\"options\":[{\"id\":\"jbl-black\"}]}");
  g_autoptr(AtpAitpDecision) decision = NULL;
  const AtpAitpOption *product = NULL, *option;

  request = atp_aitp_request_new_from_json (sent, &error);
  g_assert_no_error (error);
  decision = atp_aitp_decision_new_answer (request, sand, before, &error);
  g_assert_no_error (error);
  g_clear_pointer (&decision, atp_aitp_decision_unref);

  /* valid_until is the first instant it is no longer valid. */
  decision = atp_aitp_decision_new_answer (request, sand, at, &error);
  g_assert_null (decision);
  atp_assert_error (error, ATP_ERROR_CONSTRAINT_VIOLATION,
                    "response_data.options[0].id: the quote of \"jbl-sand\" expired at "
                    "2049-12-31T22:00:00Z (valid_until): it cannot be chosen any more");
  g_clear_error (&error);
  option = atp_aitp_request_find_option (request, "jbl-sand", &product);
  g_assert_false (atp_aitp_option_is_available (option, product, at));

  decision = atp_aitp_decision_new_answer (request, black, at, &error);
  g_assert_no_error (error);
}

/* A whole decision message checked against its request names `decision.…`. */
static void
test_message_check (void)
{
  g_autoptr(AtpAitpRequest) request = aitp_test_load_request ("seed-003-checkbox-request.json");
  g_autoptr(AtpAitpDecision) other = load_decision ("seed-003-radio-decision.json");
  g_autoptr(GDateTime) now = test_now ();
  g_autoptr(GError) error = NULL;

  g_assert_false (atp_aitp_decision_check (other, request, now, &error));
  atp_assert_error (error, ATP_ERROR_CONSTRAINT_VIOLATION,
                    "decision.request_decision_id: must be the id of the request");
}

typedef struct
{
  const char *path;
  const char *value;
  int         code;
  const char *needle;
} MessageCase;

static const MessageCase message_cases[] = {
  { "$schema", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "$schema: required field is missing" },
  { "$schema", "\"schema.json\"", ATP_ERROR_INVALID_FIELD_VALUE, "$schema: must be an absolute URI" },
  { "decision", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "decision: required field is missing" },
  { "decision", "7", ATP_ERROR_INVALID_FIELD_VALUE, "decision: must be an object, got 7" },
  { "decision.request_decision_id", NULL, -1, NULL },
  { "decision.options", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "decision.options: required field is missing" },
  { "decision.options", "[]", ATP_ERROR_INVALID_FIELD_VALUE, "decision.options: must hold at least one selected option" },
  { "decision.options[0].quantity", "\"1\"", ATP_ERROR_INVALID_FIELD_VALUE, "decision.options[0].quantity: must be a number, got \"1\"" },
  { "decision.options[0].price", "1", ATP_ERROR_INVALID_FIELD_VALUE, "decision.options[0].price: unknown member" },
  { "decision.x-note", "1", -1, NULL },
  { "x-top", "[]", -1, NULL },
};

static void
test_message_rules (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (message_cases); i++)
    {
      const MessageCase *c = &message_cases[i];
      g_autoptr(JsonNode) sent = aitp_test_load_json ("seed-003-products-decision.json");
      g_autoptr(GError) error = NULL;
      g_autoptr(AtpAitpDecision) decision = NULL;

      g_test_message ("case %u: %s", i, c->path);
      atp_test_patch (sent, c->path, c->value);
      decision = atp_aitp_decision_new_from_json (sent, &error);
      if (c->code < 0)
        {
          g_autoptr(JsonNode) written = NULL;

          g_assert_no_error (error);
          written = atp_aitp_decision_to_json (decision);
          g_assert_true (atp_json_node_equal (written, sent));
        }
      else
        {
          g_assert_null (decision);
          atp_assert_error (error, c->code, c->needle);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/aitp/decision/seed", test_seed_decisions);
  g_test_add_func ("/aitp/decision/seed-template", test_seed_template);
  g_test_add_func ("/aitp/decision/answer-completed", test_answer_completed);
  g_test_add_func ("/aitp/decision/answer-rules", test_answer_rules);
  g_test_add_func ("/aitp/decision/expired-quote", test_expired_quote);
  g_test_add_func ("/aitp/decision/message-check", test_message_check);
  g_test_add_func ("/aitp/decision/message-rules", test_message_rules);

  return g_test_run ();
}
