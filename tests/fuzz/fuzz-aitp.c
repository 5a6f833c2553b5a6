/* fuzz-aitp.c — libFuzzer target: the AITP-02 parsers (request_decision,
 * decision), their writers, and an answer checked against its request
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "fuzz-aitp"

#include <string.h>

#include "atp.h"
#include "atp-aitp.h"
#include "fuzz-common.h"

/* A request every input is also tried as an answer to. */
static const char answered[] =
  "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"request_decision\":"
  "{\"id\":\"r\",\"type\":\"products\",\"options\":["
  "{\"id\":\"a\",\"name\":\"A\",\"variants\":[{\"id\":\"a1\",\"name\":\"A one\"},{\"id\":\"a\"}]},"
  "{\"id\":\"b\",\"quote\":{\"type\":\"Quote\",\"quote_id\":\"q\",\"payee_id\":\"p\","
  "\"payment_plans\":[],\"valid_until\":\"2000-01-01T00:00:00Z\"}},"
  "{\"id\":\"c\",\"name\":\"C\"}]}}";

static GDateTime *
fuzz_now (void)
{
  return g_date_time_new_utc (2026, 1, 1, 0, 0, 0);
}

static void
check_error (const GError *error,
             gboolean      answer)
{
  if (error == NULL || error->domain != ATP_ERROR)
    fuzz_fail ("a parser failed without an ATP_ERROR");
  if (!g_utf8_validate (error->message, -1, NULL))
    fuzz_fail ("an error message is not UTF-8");
  if (answer ? (error->code != ATP_ERROR_INVALID_RESPONSE_DATA &&
                error->code != ATP_ERROR_CONSTRAINT_VIOLATION)
             : (error->code != ATP_ERROR_INVALID_JSON && error->code != ATP_ERROR_PAYLOAD_TOO_LARGE &&
                error->code != ATP_ERROR_INVALID_REQUEST &&
                error->code != ATP_ERROR_MISSING_REQUIRED_FIELD &&
                error->code != ATP_ERROR_INVALID_FIELD_VALUE))
    fuzz_fail ("unexpected error code %d: %s", error->code, error->message);
}

/* A decision checked and completed: its message is a decision the request
 * takes, and writing it is a fixed point. */
static void
check_completed (AtpAitpDecision *decision,
                 AtpAitpRequest  *request,
                 GDateTime       *now)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) message = atp_aitp_decision_to_json (decision);
  g_autoptr(AtpAitpDecision) again = atp_aitp_decision_new_from_json (message, &error);
  g_autoptr(JsonNode) second = NULL;

  if (again == NULL)
    fuzz_fail ("a completed decision does not parse: %s", error->message);
  if (!atp_aitp_decision_check (again, request, now, &error))
    fuzz_fail ("a completed decision does not answer its request: %s", error->message);
  if (g_strcmp0 (again->request_decision_id, request->id) != 0)
    fuzz_fail ("a completed decision lost the request's id");
  second = atp_aitp_decision_to_json (again);
  if (!atp_json_node_equal (message, second))
    fuzz_fail ("a decision round trip changed it");
}

/* Choosing any one choice the request offers is an answer, unless its quote
 * has expired or it is a product that has variants. */
static void
try_each_choice (AtpAitpRequest *request)
{
  g_autoptr(GDateTime) now = fuzz_now ();

  for (guint i = 0; i < request->options->len; i++)
    {
      const AtpAitpOption *option = g_ptr_array_index (request->options, i);
      gboolean products = request->type == ATP_AITP_DECISION_PRODUCTS;
      guint n = products ? MAX (option->variants->len, 1) : 1;

      for (guint v = 0; v < n; v++)
        {
          const AtpAitpOption *choice = products && option->variants->len > 0
                                          ? g_ptr_array_index (option->variants, v) : option;
          const AtpAitpOption *product = NULL;
          const AtpAitpOption *found = atp_aitp_request_find_option (request, choice->id, &product);
          g_autoptr(JsonObject) item = json_object_new ();
          g_autoptr(JsonObject) data = json_object_new ();
          g_autoptr(JsonArray) options = json_array_new ();
          g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
          g_autoptr(GError) error = NULL;
          g_autoptr(AtpAitpDecision) decision = NULL;
          gboolean expected;

          if (found != choice)
            fuzz_fail ("\"%s\" does not find its own choice", choice->id);
          json_object_set_string_member (item, "id", choice->id);
          json_array_add_object_element (options, g_steal_pointer (&item));
          json_object_set_array_member (data, "options", g_steal_pointer (&options));
          json_node_set_object (node, data);
          expected = !products ||
                     atp_aitp_option_is_available (choice, choice == option ? NULL : option, now);
          decision = atp_aitp_decision_new_answer (request, node, now, &error);
          if ((decision != NULL) != expected)
            fuzz_fail ("choosing \"%s\": %s", choice->id, error ? error->message : "accepted");
          if (decision != NULL)
            check_completed (decision, request, now);
        }
    }
}

static void
fuzz_request (JsonNode *root)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAitpRequest) request = atp_aitp_request_new_from_json (root, &error);
  g_autoptr(AtpAitpRequest) again = NULL;
  g_autoptr(JsonNode) first = NULL;
  g_autoptr(JsonNode) second = NULL;
  g_autofree char *first_text = NULL, *second_text = NULL;

  if (request == NULL)
    {
      check_error (error, FALSE);
      return;
    }
  if (request->options->len == 0)
    fuzz_fail ("a request without options");
  for (guint i = 0; i < request->options->len; i++)
    {
      const AtpAitpOption *option = g_ptr_array_index (request->options, i);

      if (option->has_rating && (option->five_star_rating < 0 || option->five_star_rating > 5))
        fuzz_fail ("rating %g accepted", option->five_star_rating);
    }

  first = atp_aitp_request_to_json (request);
  first_text = atp_json_to_string (first, NULL);
  again = atp_aitp_request_new_from_json (first, &error);
  if (again == NULL)
    fuzz_fail ("a written request does not parse: %s\n%s", error->message, first_text);
  second = atp_aitp_request_to_json (again);
  second_text = atp_json_to_string (second, NULL);
  if (strcmp (first_text, second_text) != 0)
    fuzz_fail ("request round trip changed:\n%s\n%s", first_text, second_text);

  try_each_choice (request);
}

static void
fuzz_decision (JsonNode *root)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAitpDecision) decision = atp_aitp_decision_new_from_json (root, &error);
  g_autoptr(JsonNode) first = NULL;
  g_autoptr(AtpAitpDecision) again = NULL;
  g_autoptr(JsonNode) second = NULL;

  if (decision == NULL)
    {
      check_error (error, FALSE);
      return;
    }
  first = atp_aitp_decision_to_json (decision);
  again = atp_aitp_decision_new_from_json (first, &error);
  if (again == NULL)
    fuzz_fail ("a written decision does not parse: %s", error->message);
  second = atp_aitp_decision_to_json (again);
  if (!atp_json_node_equal (first, second))
    fuzz_fail ("decision round trip changed it");
}

/* The input as a person's answer (response_data) to the fixed request. */
static void
fuzz_answer (JsonNode *root)
{
  static AtpAitpRequest *request;
  g_autoptr(GDateTime) now = fuzz_now ();
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAitpDecision) decision = NULL;

  if (request == NULL)
    request = atp_aitp_request_new_from_data (answered, -1, NULL);
  decision = atp_aitp_decision_new_answer (request, root, now, &error);
  if (decision == NULL)
    {
      check_error (error, TRUE);
      return;
    }
  check_completed (decision, request, now);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = atp_json_parse ((const char *) data, size, ATP_MAX_NOTIFICATION_SIZE,
                                             &error);

  if (root == NULL)
    {
      check_error (error, FALSE);
      return 0;
    }
  fuzz_request (root);
  fuzz_decision (root);
  fuzz_answer (root);
  return 0;
}
