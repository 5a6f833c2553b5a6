/* test-aitp-protocol.c — AITP-02 decisions as the app sees them: what a bubble
 * offers, what an answer is, how it reads; the words of prices and ratings
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <locale.h>

#include "app-test-common.h"
#include "triage-aitp-format.h"
#include "triage-aitp-protocol.h"

#define ID "5b1c3a7e-0000-4000-8000-00000000a17b"

static AtpNotification *
seed (const char *name)
{
  g_autofree char *message = app_test_aitp_message (name);

  return app_test_aitp_notification_new (ID, "A decision", message);
}

static guint
n_bubble_answers (AtpNotification *n)
{
  g_autoptr(GPtrArray) answers = triage_protocol_dup_bubble_answers (triage_protocol_for_request (n), n);

  return answers->len;
}

static void
test_registry (void)
{
  g_autoptr(AtpNotification) n = seed ("seed-003-radio-request.json");
  TriageProtocol *aitp = triage_protocol_for_request (n);
  g_autofree char *service = triage_protocol_dup_marked (n->protocol, n->service.name);

  g_assert_true (aitp == triage_aitp_protocol_get_default ());
  g_assert_cmpint (triage_protocol_get_protocol (aitp), ==, ATP_PROTOCOL_AITP);
  g_assert_true (triage_protocol_get_supported_mask () & (1u << ATP_PROTOCOL_AITP));
  g_assert_cmpstr (triage_protocol_get_mark (aitp), ==, "AITP");
  g_assert_cmpstr (service, ==, "Shop Bot (AITP)");
}

/* Radio: a bubble offers each option; pressing one is a complete answer. */
static void
test_radio (void)
{
  g_autoptr(AtpNotification) n = seed ("seed-003-radio-request.json");
  TriageProtocol *aitp = triage_protocol_for_request (n);
  g_autoptr(GPtrArray) answers = triage_protocol_dup_bubble_answers (aitp, n);
  g_autoptr(JsonNode) data = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *action_id = NULL;
  g_autofree char *json = NULL;
  g_autofree char *text = NULL;

  g_assert_cmpuint (answers->len, ==, 3);
  g_assert_cmpstr (((TriageBubbleAnswer *) answers->pdata[1])->key, ==, "7");
  g_assert_cmpstr (((TriageBubbleAnswer *) answers->pdata[1])->label, ==, "7");

  g_assert_true (triage_protocol_get_bubble_answer (aitp, n, "7", &action_id, &data, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (action_id, ==, ATP_AITP_ACTION_ID);
  json = json_to_string (data, FALSE);
  g_assert_cmpstr (json, ==, "{\"options\":[{\"id\":\"7\",\"name\":\"7\"}]}");
  g_assert_false (triage_protocol_needs_confirmation (aitp, n, action_id, data));
  g_assert_true (triage_protocol_validate_answer (aitp, n, action_id, data, &error));
  g_assert_no_error (error);

  text = triage_protocol_describe_answer (aitp, n, action_id, data);
  g_assert_cmpstr (text, ==, "7");

  g_assert_false (triage_protocol_get_bubble_answer (aitp, n, "8", &action_id, &data, &error));
  g_assert_error (error, ATP_ERROR, ATP_ERROR_INVALID_RESPONSE_DATA);
}

static void
test_confirmation_and_checkbox (void)
{
  g_autoptr(AtpNotification) confirmation = seed ("seed-003-confirmation-request.json");
  g_autoptr(AtpNotification) checkbox = seed ("seed-003-checkbox-request.json");
  g_autoptr(AtpNotification) products = seed ("seed-003-products-request.json");
  TriageProtocol *aitp = triage_aitp_protocol_get_default ();
  g_autoptr(AtpAitpRequest) request = triage_aitp_request_from (checkbox, NULL);
  const TriageAitpChoice choices[] = { { "red", 0 }, { "blue", 0 } };
  g_autoptr(JsonNode) two = triage_aitp_response_data_new (request, choices, 2);
  g_autoptr(JsonNode) none = triage_aitp_response_data_new (request, NULL, 0);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  /* A question with a button per option: three fit in a bubble. */
  g_assert_cmpuint (n_bubble_answers (confirmation), ==, 3);
  /* Several choices, or products, are made in the window. */
  g_assert_cmpuint (n_bubble_answers (checkbox), ==, 0);
  g_assert_cmpuint (n_bubble_answers (products), ==, 0);

  g_assert_true (triage_protocol_validate_answer (aitp, checkbox, "decision", two, &error));
  g_assert_no_error (error);
  text = triage_protocol_describe_answer (aitp, checkbox, "decision", two);
  g_assert_cmpstr (text, ==, "Red, Blue");

  /* At least one; the action is "decision". */
  g_assert_false (triage_protocol_validate_answer (aitp, checkbox, "decision", none, &error));
  g_assert_error (error, ATP_ERROR, ATP_ERROR_INVALID_RESPONSE_DATA);
  g_clear_error (&error);
  g_assert_false (triage_protocol_validate_answer (aitp, checkbox, "ok", two, &error));
  g_assert_error (error, ATP_ERROR, ATP_ERROR_INVALID_ACTION_ID);
}

/* Products: variants are chosen by their ids, quantities are whole numbers,
 * x-triage.confirm asks for a confirmation. */
static void
test_products (void)
{
  g_autoptr(AtpNotification) n = seed ("products-variants.json");
  TriageProtocol *aitp = triage_protocol_for_request (n);
  g_autoptr(AtpAitpRequest) request = triage_aitp_request_from (n, NULL);
  const TriageAitpChoice sand[] = { { "jbl-sand", 2 }, { "sony", 0 } };
  const TriageAitpChoice product[] = { { "jbl", 1 } };
  g_autoptr(JsonNode) data = triage_aitp_response_data_new (request, sand, 2);
  g_autoptr(JsonNode) whole = triage_aitp_response_data_new (request, product, 1);
  g_autoptr(GError) error = NULL;
  g_autofree char *json = json_to_string (data, FALSE);
  g_autofree char *text = NULL;
  g_autofree char *from_answer = NULL;

  /* Each choice named as the person saw it (a variant without a name: its
   * product's and its short name); the quantity is always there. */
  g_assert_cmpstr (json, ==, "{\"options\":[{\"id\":\"jbl-sand\",\"name\":\"JBL Tour One M2 (Sand)\",\"quantity\":2},"
                             "{\"id\":\"sony\",\"name\":\"Sony WH-1000XM5\",\"quantity\":1}]}");
  g_assert_true (triage_protocol_needs_confirmation (aitp, n, "decision", data));
  g_assert_cmpuint (n_bubble_answers (n), ==, 0);
  g_assert_true (triage_protocol_validate_answer (aitp, n, "decision", data, &error));
  g_assert_no_error (error);

  text = triage_protocol_describe_answer (aitp, n, "decision", data);
  g_assert_cmpstr (text, ==, "JBL Tour One M2 (Sand) × 2, Sony WH-1000XM5");
  /* The history has the answer alone: its names, the same words. */
  from_answer = triage_protocol_describe_answer (aitp, NULL, "decision", data);
  g_assert_cmpstr (from_answer, ==, text);

  /* A product with variants is chosen by one of them. */
  g_assert_false (triage_protocol_validate_answer (aitp, n, "decision", whole, &error));
  g_assert_error (error, ATP_ERROR, ATP_ERROR_CONSTRAINT_VIOLATION);
}

static void
test_expired_quote (void)
{
  g_autofree char *message = app_test_aitp_message ("products-variants.json");
  g_autoptr(GString) past = g_string_new (message);
  g_autoptr(AtpNotification) n = NULL;
  g_autoptr(AtpAitpRequest) request = NULL;
  const TriageAitpChoice black[] = { { "jbl-black", 1 } };
  const TriageAitpChoice sand[] = { { "jbl-sand", 1 } };
  g_autoptr(JsonNode) expired = NULL;
  g_autoptr(JsonNode) valid = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *expiry = NULL;

  /* The product's own quote has passed; the sand variant has its own. */
  g_string_replace (past, "\"valid_until\": \"2050-01-01T00:00:00Z\"",
                    "\"valid_until\": \"2020-01-01T00:00:00Z\"", 1);
  g_string_replace (past, "2049-12-31T23:00:00Z", "2099-12-31T23:00:00Z", 1);
  n = app_test_aitp_notification_new (ID, "Headphones", past->str);
  request = triage_aitp_request_from (n, NULL);
  expired = triage_aitp_response_data_new (request, black, 1);
  valid = triage_aitp_response_data_new (request, sand, 1);

  g_assert_false (triage_protocol_validate_answer (triage_protocol_for_request (n), n, "decision",
                                                   expired, &error));
  g_assert_error (error, ATP_ERROR, ATP_ERROR_CONSTRAINT_VIOLATION);
  g_assert_nonnull (strstr (error->message, "expired"));
  g_clear_error (&error);
  g_assert_true (triage_protocol_validate_answer (triage_protocol_for_request (n), n, "decision",
                                                  valid, &error));
  g_assert_no_error (error);

  expiry = triage_aitp_format_quote_expiry (((AtpAitpOption *) request->options->pdata[0])->quote, now);
  g_assert_true (g_str_has_prefix (expiry, "Price expired at 1 Jan 2020"));
}

static void
test_format (void)
{
  g_autofree char *price = triage_aitp_format_price (1234.5, "USD");
  g_autofree char *rating = triage_aitp_format_rating (4.2);
  g_autofree char *reviews = triage_aitp_format_reviews (132);
  g_autofree char *one = triage_aitp_format_reviews (1);
  g_autofree char *sentence = triage_aitp_describe_rating (4.2, 132);
  g_autofree char *unknown = triage_aitp_describe_rating (5, -1);

  /* The C locale has no currency of its own: the amount and the code. */
  g_assert_cmpstr (price, ==, "1234.50 USD");
  g_assert_cmpstr (rating, ==, "4.2");
  g_assert_cmpstr (reviews, ==, "132 reviews");
  g_assert_cmpstr (one, ==, "1 review");
  g_assert_null (triage_aitp_format_reviews (-1));
  g_assert_cmpstr (sentence, ==, "Rated 4.2 out of 5 from 132 reviews");
  g_assert_cmpstr (unknown, ==, "Rated 5.0 out of 5");

  /* 4.2: four full, one empty; 4.3: the fifth half; 0: none. */
  for (guint i = 0; i < 4; i++)
    g_assert_cmpint (triage_aitp_star (4.2, i), ==, TRIAGE_AITP_STAR_FULL);
  g_assert_cmpint (triage_aitp_star (4.2, 4), ==, TRIAGE_AITP_STAR_EMPTY);
  g_assert_cmpint (triage_aitp_star (4.3, 4), ==, TRIAGE_AITP_STAR_HALF);
  g_assert_cmpint (triage_aitp_star (0, 0), ==, TRIAGE_AITP_STAR_EMPTY);
  g_assert_cmpint (triage_aitp_star (5, 4), ==, TRIAGE_AITP_STAR_FULL);
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/aitp/registry", test_registry);
  g_test_add_func ("/aitp/radio", test_radio);
  g_test_add_func ("/aitp/confirmation-and-checkbox", test_confirmation_and_checkbox);
  g_test_add_func ("/aitp/products", test_products);
  g_test_add_func ("/aitp/expired-quote", test_expired_quote);
  g_test_add_func ("/aitp/format", test_format);

  return g_test_run ();
}
