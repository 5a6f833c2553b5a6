/* test-envelope-tree.c — a submission's own JSON completed in place
 * (atp_notification_complete_json) is the notification the server would
 * build again from it (atp_notification_to_json)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "atp-test-common.h"

#define ID "0B7D4C2E-5A1F-4C3E-9D2B-6F8E1A2B3C4D"

/* What an agent may send: members in its own order, an upper-case id, a
 * timestamp with an offset, a protocol "atp", members a submission may not
 * set (service, status, a response, a reason), and unknown ones at every level. */
static const char *submissions[] = {
  "{\"context\":{\"title\":\"Deploy?\",\"description\":\"All green.\",\"x-c\":[1,2.5]},"
  "\"x-top\":{\"a\":null},\"id\":\"" ID "\",\"protocol\":\"atp\",\"version\":\"1.0\","
  "\"timestamp\":\"2026-11-29T10:00:00+02:00\",\"deadline\":\"2026-11-29T12:30:00.25+02:00\","
  "\"service\":{\"id\":\"forged\",\"name\":\"Forged\"},\"status\":\"invalidated\",\"reason\":\"forged\","
  "\"response\":{\"notification_id\":\"x\",\"action_id\":\"ok\",\"response_data\":true},"
  "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\",\"flags\":[\"irreversible\"]},"
  "{\"id\":\"why\",\"label\":\"Why\",\"response_type\":\"text\",\"constraints\":{\"max_length\":500}}]}",
  /* The least: no id, no timestamp (the server's), no deadline. */
  "{\"context\":{\"title\":\"Deploy?\",\"description\":\"All green.\"},"
  "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]}",
};

static void
test_same_as_built_again (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (submissions); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) tree = atp_json_parse (submissions[i], -1, 0, &error);
      g_autoptr(AtpNotification) submission = NULL;
      g_autoptr(AtpNotification) read_back = NULL;
      g_autoptr(GDateTime) now = g_date_time_new_utc (2026, 11, 29, 9, 0, 0.5);
      g_autoptr(JsonNode) built = NULL;
      g_autofree char *text = NULL;

      g_assert_no_error (error);
      submission = atp_notification_new_from_json (tree, ATP_PARSE_SUBMISSION, &error);
      g_assert_no_error (error);
      atp_notification_complete (submission,
                                 submission->id ? NULL : "1a2b3c4d-0000-4000-8000-000000000001",
                                 submission->timestamp ? NULL : now, "svc", "Service", NULL,
                                 ATP_STATUS_CREATED);
      atp_notification_complete_json (submission, tree);
      built = atp_notification_to_json (submission);
      g_assert_true (atp_json_node_equal (tree, built));

      /* What a client reads back is the notification completed. */
      text = atp_json_to_string (tree, NULL);
      read_back = atp_notification_new_from_data (text, -1, ATP_PARSE_DEFAULT, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (read_back->service.id, ==, "svc");
      g_assert_cmpint (read_back->status, ==, ATP_STATUS_CREATED);
      g_assert_null (read_back->response);
      g_assert_null (read_back->reason);
      g_assert_cmpstr (read_back->id, ==, submission->id);
      g_assert_true (g_date_time_equal (read_back->timestamp, submission->timestamp));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/envelope-tree/same-as-built-again", test_same_as_built_again);
  return g_test_run ();
}
