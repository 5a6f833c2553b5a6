/* aitp-test-common.h — loading the AITP-02 examples for the libatp tests
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "atp-test-common.h"
#include "atp-aitp.h"

/* Every example of seed 003 (tests/atp/data/aitp/, its `//` comments removed). */
#define AITP_SEED_REQUESTS "seed-003-radio-request.json", "seed-003-confirmation-request.json", \
                           "seed-003-checkbox-request.json", "seed-003-products-request.json"

/* tests/atp/data/aitp/@name, parsed. */
static inline JsonNode *
aitp_test_load_json (const char *name)
{
  g_autofree char *path = g_build_filename ("aitp", name, NULL);

  return atp_test_load_json (path);
}

static inline AtpAitpRequest *
aitp_test_load_request (const char *name)
{
  g_autoptr(JsonNode) node = aitp_test_load_json (name);
  g_autoptr(GError) error = NULL;
  AtpAitpRequest *request = atp_aitp_request_new_from_json (node, &error);

  g_assert_no_error (error);
  return request;
}

static inline JsonNode *
aitp_test_parse (const char *text)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = atp_json_parse (text, -1, 0, &error);

  g_assert_no_error (error);
  return node;
}

/* write → parse → write gives the same text, and the same JSON as @sent. */
static inline void
aitp_test_assert_request_round_trip (AtpAitpRequest *request,
                                     JsonNode       *sent)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) first = atp_aitp_request_to_json (request);
  g_autofree char *first_text = atp_json_to_string (first, NULL);
  g_autoptr(AtpAitpRequest) again = atp_aitp_request_new_from_json (first, &error);
  g_autoptr(JsonNode) second = NULL;
  g_autofree char *second_text = NULL;

  g_assert_no_error (error);
  second = atp_aitp_request_to_json (again);
  second_text = atp_json_to_string (second, NULL);
  g_assert_cmpstr (first_text, ==, second_text);
  if (sent != NULL && !atp_json_node_equal (first, sent))
    {
      g_autofree char *sent_text = atp_json_to_string (sent, NULL);

      g_error ("written back differently:\n%s\n%s", sent_text, first_text);
    }
}
