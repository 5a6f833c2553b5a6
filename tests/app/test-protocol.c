/* test-protocol.c — what the app asks a request's protocol (ATP here; AITP in
 * test-aitp-protocol.c), and whether a bubble shows a request whole, for every protocol
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "app-test-common.h"
#include "triage-bubble-body.h"
#include "triage-protocol.h"

#define ID_A "0a6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"
#define ID_B "1b6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"

static const char actions[] =
  "[{\"id\": \"yes\", \"label\": \"Approve\", \"response_type\": \"simple\"},"
  " {\"id\": \"del\", \"label\": \"Delete\", \"response_type\": \"simple\", \"flags\": [\"destructive\"]},"
  " {\"id\": \"pct\", \"label\": \"Rollout\", \"response_type\": \"number\","
  "  \"constraints\": {\"min\": 0, \"max\": 100, \"unit\": \"%\"}}]";

static void
test_registry (void)
{
  g_autoptr(AtpNotification) n = app_test_notification (ID_A, 0, 10, NULL);
  TriageProtocol *atp = triage_protocol_get (ATP_PROTOCOL_ATP);
  g_autofree char *service = NULL;

  g_assert_true (TRIAGE_IS_PROTOCOL (atp));
  g_assert_true (triage_protocol_for_request (n) == atp);
  g_assert_cmpint (triage_protocol_get_protocol (atp), ==, ATP_PROTOCOL_ATP);
  g_assert_true (triage_protocol_get_supported_mask () & (1u << ATP_PROTOCOL_ATP));
  g_assert_true (triage_protocol_get_supported_mask () & (1u << ATP_PROTOCOL_AFP));

  /* ATP is the app's own: no mark beside the service. */
  g_assert_null (triage_protocol_get_mark (atp));
  service = triage_protocol_dup_marked (n->protocol, n->service.name);
  g_assert_cmpstr (service, ==, "CI <bot>");
}

static void
test_atp_answers (void)
{
  g_autoptr(AtpNotification) n = app_test_notification (ID_A, 0, 10, actions);
  TriageProtocol *atp = triage_protocol_for_request (n);
  g_autoptr(JsonNode) null = json_node_new (JSON_NODE_NULL);
  g_autoptr(JsonNode) pct = json_from_string ("25", NULL);
  g_autoptr(JsonNode) too_much = json_from_string ("250", NULL);
  g_autoptr(JsonNode) data = NULL;
  g_autoptr(GPtrArray) answers = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *action_id = NULL;
  g_autofree char *text = NULL;
  g_autofree char *simple = NULL;

  /* A number to type: no answer from a bubble. */
  answers = triage_protocol_dup_bubble_answers (atp, n);
  g_assert_cmpuint (answers->len, ==, 0);

  /* A bubble's key is an action's id; one that needs confirmation is refused. */
  g_assert_true (triage_protocol_get_bubble_answer (atp, n, "yes", &action_id, &data, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (action_id, ==, "yes");
  g_assert_true (JSON_NODE_HOLDS_NULL (data));
  g_assert_false (triage_protocol_get_bubble_answer (atp, n, "del", &action_id, &data, &error));
  g_assert_error (error, ATP_ERROR, ATP_ERROR_INVALID_ACTION_ID);
  g_clear_error (&error);

  g_assert_false (triage_protocol_needs_confirmation (atp, n, "yes", null));
  g_assert_true (triage_protocol_needs_confirmation (atp, n, "del", null));

  g_assert_true (triage_protocol_validate_answer (atp, n, "pct", pct, &error));
  g_assert_no_error (error);
  g_assert_false (triage_protocol_validate_answer (atp, n, "pct", too_much, &error));
  g_assert_error (error, ATP_ERROR, ATP_ERROR_CONSTRAINT_VIOLATION);
  g_clear_error (&error);
  g_assert_false (triage_protocol_validate_answer (atp, n, "nope", null, &error));
  g_assert_error (error, ATP_ERROR, ATP_ERROR_INVALID_ACTION_ID);
  g_assert_nonnull (strstr (error->message, "nope"));

  text = triage_protocol_describe_answer (atp, n, "pct", pct);
  g_assert_cmpstr (text, ==, "‘Rollout’: 25 %");
  simple = triage_protocol_describe_answer (atp, n, "yes", null);
  g_assert_cmpstr (simple, ==, "‘Approve’");
  /* Without the request the labels are not known. */
  g_assert_null (triage_protocol_describe_answer (atp, NULL, "pct", pct));
}

/* @n with @description instead of its own (an AITP envelope's description
 * as the server takes it from the decision's). */
static void
set_description (AtpNotification *n,
                 const char      *description)
{
  g_free (n->context.description);
  n->context.description = g_strdup (description);
}

/* Whether a bubble shows a request whole is one rule, the lines its body
 * has (what the notifier sends), for every protocol: a count of 200
 * characters said otherwise of five full lines (204 characters with their
 * breaks, none cut) and of a description that fits but for its trailing
 * blank lines (which no bubble shows), and a key pressed on a bubble that
 * cut the description is refused, saying so. */
static void
test_bubble_shown_whole (void)
{
  g_autofree char *line = g_strnfill (TRIAGE_BUBBLE_LINE_CHARS, 'x');
  g_autofree char *full_lines = g_strjoin ("\n", line, line, line, line, line, NULL);
  g_autofree char *fits = g_strnfill (TRIAGE_BUBBLE_MAX_BODY, 'x');
  g_autofree char *trailing = g_strconcat (fits, " \n\n  ", NULL);
  g_autofree char *radio = app_test_aitp_message ("seed-003-radio-request.json");
  const struct
  {
    const char *description;
    gboolean    whole;
  } cases[] = {
    { full_lines, TRUE },
    { trailing, TRUE },
    { "Clean up:\n/tmp\n/var/tmp\n~/.cache\n~/build\n~/src\n~/old\nand delete ~/", FALSE },
  };

  g_assert_cmpuint (strlen (full_lines), >, TRIAGE_BUBBLE_MAX_BODY);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AtpNotification) atp = app_test_notification (ID_A, 0, 10,
        "[{\"id\": \"yes\", \"label\": \"Approve\", \"response_type\": \"simple\"}]");
      g_autoptr(AtpNotification) aitp = app_test_aitp_notification_new (ID_B, "Pick", radio);
      AtpNotification *requests[] = { atp, aitp };
      const char *keys[] = { "yes", "7" };

      for (guint j = 0; j < G_N_ELEMENTS (requests); j++)
        {
          TriageProtocol *protocol = triage_protocol_for_request (requests[j]);
          g_autoptr(GPtrArray) answers = NULL;
          g_autofree char *body = NULL;
          g_autofree char *action_id = NULL;
          g_autoptr(JsonNode) data = NULL;
          g_autoptr(GError) error = NULL;
          gboolean body_whole = !cases[i].whole;

          set_description (requests[j], cases[i].description);
          answers = triage_protocol_dup_bubble_answers (protocol, requests[j]);
          body = triage_bubble_body_dup (requests[j], &body_whole);
          g_assert_cmpint (body_whole, ==, cases[i].whole);
          g_assert_cmpint (g_str_has_suffix (body, "…"), !=, cases[i].whole);
          if (cases[i].whole)
            {
              g_assert_cmpuint (answers->len, >, 0);
              g_assert_true (triage_protocol_get_bubble_answer (protocol, requests[j], keys[j],
                                                                &action_id, &data, &error));
              g_assert_no_error (error);
            }
          else
            {
              g_assert_cmpuint (answers->len, ==, 0);
              g_assert_false (triage_protocol_get_bubble_answer (protocol, requests[j], keys[j],
                                                                 &action_id, &data, &error));
              g_assert_error (error, ATP_ERROR, ATP_ERROR_INVALID_ACTION_ID);
              g_assert_nonnull (strstr (error->message, "a bubble cuts the description of"));
            }
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/protocol/registry", test_registry);
  g_test_add_func ("/protocol/atp/answers", test_atp_answers);
  g_test_add_func ("/protocol/bubble-shown-whole", test_bubble_shown_whole);

  return g_test_run ();
}
