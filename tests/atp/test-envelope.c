/* test-envelope.c — the notification as the envelope of every protocol
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "atp-test-common.h"

/* An AITP request as the server hands it to clients (docs/architecture.md). */
#define AITP_ENVELOPE \
  "{\"id\":\"0b7d4c2e-5a1f-4c3e-9d2b-6f8e1a2b3c4d\",\"version\":\"1.0\",\"protocol\":\"aitp\"," \
  "\"timestamp\":\"2025-05-25T10:30:00Z\",\"deadline\":\"2025-05-25T11:00:00Z\"," \
  "\"service\":{\"id\":\"shop\",\"name\":\"Shop\"}," \
  "\"context\":{\"title\":\"Please confirm\",\"project\":\"kitchen\"}," \
  "\"aitp\":{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\"," \
  "\"request_decision\":{\"id\":\"27ed3deb\",\"type\":\"confirmation\",\"x\":[1.0,2,{\"y\":null}]," \
  "\"options\":[{\"id\":\"1\",\"name\":\"Yes\"},{\"id\":\"2\",\"name\":\"No\"}]}}," \
  "\"status\":\"delivered\",\"x-later\":true}"

static JsonNode *
parse_text (const char *text)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = atp_json_parse (text, -1, 0, &error);

  g_assert_no_error (error);
  return node;
}

static void
test_atp_has_no_protocol_member (void)
{
  g_autoptr(GError) error = NULL;
  gsize length;
  g_autofree char *text = atp_test_load ("base-notification.json", &length);
  g_autoptr(AtpNotification) notification = atp_notification_new_from_data (text, (gssize) length,
                                                                             ATP_PARSE_DEFAULT, &error);
  g_autofree char *written = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (notification->protocol, ==, ATP_PROTOCOL_ATP);
  g_assert_null (notification->payload);
  written = atp_test_assert_round_trip (notification);
  g_assert_null (strstr (written, "\"protocol\""));
  g_assert_nonnull (strstr (written, "\"actions\":["));
}

static void
test_atp_protocol_spelled_out (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) notification = NULL;
  g_autoptr(AtpNotification) plain = NULL;
  g_autofree char *written = NULL, *plain_text = NULL;

  plain = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
  plain_text = atp_notification_to_string (plain, NULL);

  /* "protocol": "atp" is ATP: written back as every ATP notification is. */
  atp_test_patch (root, "protocol", "\"atp\"");
  notification = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpint (notification->protocol, ==, ATP_PROTOCOL_ATP);
  written = atp_notification_to_string (notification, NULL);
  g_assert_cmpstr (written, ==, plain_text);
}

static void
test_atp_keeps_foreign_member (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) notification = NULL;
  g_autofree char *written = NULL;

  /* In an ATP notification a member named like another protocol is only an
   * unknown member: kept, not a payload. */
  atp_test_patch (root, "aitp", "{\"a\":1}");
  notification = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_null (notification->payload);
  g_assert_true (json_object_has_member (notification->extra, "aitp"));
  written = atp_test_assert_round_trip (notification);
  g_assert_nonnull (strstr (written, "\"aitp\":{\"a\":1}"));
}

static void
test_aitp_envelope (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) notification = NULL;
  g_autoptr(JsonNode) sent = parse_text (AITP_ENVELOPE);
  g_autoptr(JsonNode) written_node = NULL;
  g_autofree char *written = NULL;
  JsonNode *payload;

  notification = atp_notification_new_from_data (AITP_ENVELOPE, -1, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpint (notification->protocol, ==, ATP_PROTOCOL_AITP);
  g_assert_cmpuint (notification->actions->len, ==, 0);
  g_assert_cmpstr (notification->context.title, ==, "Please confirm");
  g_assert_null (notification->context.description);
  g_assert_cmpstr (notification->context.project, ==, "kitchen");
  g_assert_cmpint (notification->status, ==, ATP_STATUS_DELIVERED);

  /* The payload is the member as sent, numbers and unknown members included. */
  payload = json_object_get_member (json_node_get_object (sent), "aitp");
  g_assert_nonnull (notification->payload);
  g_assert_true (atp_json_node_equal (notification->payload, payload));
  g_assert_true (json_object_has_member (notification->extra, "x-later"));
  g_assert_false (json_object_has_member (notification->extra, "aitp"));

  /* Written back: the same object, byte for byte in this (canonical) order. */
  written = atp_test_assert_round_trip (notification);
  g_assert_cmpstr (written, ==, AITP_ENVELOPE);
  written_node = atp_notification_to_json (notification);
  g_assert_true (atp_json_node_equal (written_node, sent));
}

static void
test_afp_envelope (void)
{
  g_autoptr(JsonNode) root = parse_text (AITP_ENVELOPE);
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) notification = NULL;
  g_autofree char *written = NULL;

  atp_test_patch (root, "protocol", "\"afp\"");
  atp_test_patch (root, "afp", "{\"protocol_version\":\"1.2\",\"iteration\":1}");
  notification = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpint (notification->protocol, ==, ATP_PROTOCOL_AFP);
  /* The other protocol's member is only an unknown member here. */
  g_assert_true (json_object_has_member (notification->extra, "aitp"));
  written = atp_test_assert_round_trip (notification);
  g_assert_nonnull (strstr (written, "\"protocol\":\"afp\""));
  g_assert_nonnull (strstr (written, "\"afp\":{\"protocol_version\":\"1.2\",\"iteration\":1}"));
}

typedef struct
{
  const char *path;
  const char *value;       /* JSON text, NULL to remove the member */
  int         code;        /* -1: must parse */
  const char *needle;
} EnvelopeCase;

#define OK -1

static const EnvelopeCase envelope_cases[] = {
  { "protocol", "\"mcp\"", ATP_ERROR_INVALID_FIELD_VALUE, "protocol: must be one of atp, aitp, afp, got \"mcp\"" },
  { "protocol", "\"AITP\"", ATP_ERROR_INVALID_FIELD_VALUE, "protocol: must be one of atp, aitp, afp, got \"AITP\"" },
  { "protocol", "\"\"", ATP_ERROR_INVALID_FIELD_VALUE, "protocol: must be one of atp, aitp, afp" },
  { "protocol", "2", ATP_ERROR_INVALID_FIELD_VALUE, "protocol: must be a string, got 2" },
  { "protocol", "null", ATP_ERROR_MISSING_REQUIRED_FIELD, "context.description: required field is missing" },
  { "aitp", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "aitp: required field is missing" },
  { "aitp", "null", ATP_ERROR_MISSING_REQUIRED_FIELD, "aitp: required field is missing" },
  { "aitp", "[1]", ATP_ERROR_INVALID_FIELD_VALUE, "aitp: must be an object, got an array" },
  { "aitp", "\"{}\"", ATP_ERROR_INVALID_FIELD_VALUE, "aitp: must be an object, got \"{}\"" },
  { "aitp", "{}", OK, NULL },
  { "actions", "[]", OK, NULL },
  { "actions", "null", OK, NULL },
  { "actions", "[{\"id\":\"a\",\"label\":\"A\",\"response_type\":\"simple\"}]", ATP_ERROR_INVALID_FIELD_VALUE,
    "actions: must be absent or empty in a request of protocol aitp" },
  { "actions", "{}", ATP_ERROR_INVALID_FIELD_VALUE, "actions: must be an array, got an object" },
  { "context.description", "\"Would you like to eat all cookies?\"", OK, NULL },
  { "context.description", "\" \"", ATP_ERROR_INVALID_FIELD_VALUE, "context.description: must be a non-empty string" },
  { "context.title", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "context.title: required field is missing" },
  { "service", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "service: required field is missing" },
  { "deadline", "\"2025-05-25T10:00:00Z\"", ATP_ERROR_INVALID_FIELD_VALUE, "deadline: must be after the timestamp" },
  /* An answer is stored ATP-shaped; which action ids and data are right is the protocol's business. */
  { "response", "{\"notification_id\":\"0b7d4c2e-5a1f-4c3e-9d2b-6f8e1a2b3c4d\",\"action_id\":\"decision\","
                "\"response_data\":{\"options\":[{\"id\":\"1\"}]},\"responded_at\":\"2025-05-25T10:31:00Z\","
                "\"responder\":{\"id\":\"ada\",\"type\":\"human\"}}", OK, NULL },
  { "response", "{\"notification_id\":\"7d444840-9dc0-41f4-a0b4-8f2b2d3c5e6a\",\"action_id\":\"decision\","
                "\"responded_at\":\"2025-05-25T10:31:00Z\",\"responder\":{\"id\":\"ada\",\"type\":\"human\"}}",
    ATP_ERROR_INVALID_FIELD_VALUE, "response.notification_id: must be the id of the notification" },
  { "response", "{\"action_id\":\"decision\"}", ATP_ERROR_MISSING_REQUIRED_FIELD, "response" },
};

static void
test_envelope_rules (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (envelope_cases); i++)
    {
      const EnvelopeCase *c = &envelope_cases[i];
      g_autoptr(JsonNode) root = parse_text (AITP_ENVELOPE);
      g_autoptr(GError) error = NULL;
      g_autoptr(AtpNotification) notification = NULL;

      g_test_message ("case %u: %s = %s", i, c->path, c->value ? c->value : "(removed)");
      atp_test_patch (root, c->path, c->value);
      notification = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
      if (c->code == OK)
        {
          g_autofree char *written = NULL;

          g_assert_no_error (error);
          written = atp_test_assert_round_trip (notification);
          g_assert_null (strstr (written, "\"actions\""));
        }
      else
        {
          g_assert_null (notification);
          atp_assert_error (error, c->code, c->needle);
        }
    }
}

static void
test_atp_rules_unchanged (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) notification = NULL;

  /* Without "protocol" the ATP rules hold: actions and description required. */
  atp_test_patch (root, "context.description", NULL);
  notification = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_null (notification);
  atp_assert_error (error, ATP_ERROR_MISSING_REQUIRED_FIELD, "context.description: required field is missing");
  g_clear_error (&error);

  json_node_unref (root);
  root = atp_test_load_json ("base-notification.json");
  atp_test_patch (root, "actions", "[]");
  notification = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_null (notification);
  atp_assert_error (error, ATP_ERROR_MALFORMED_ACTION, "actions: must hold at least one action");
}

static void
test_envelope_copy (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) notification = NULL;
  g_autoptr(AtpNotification) copy = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_utc (2025, 5, 25, 10, 40, 0);
  g_autoptr(AtpResponse) response = NULL;
  g_autoptr(JsonNode) data = parse_text ("{\"options\":[{\"id\":\"1\",\"name\":\"Yes\"}]}");
  g_autoptr(AtpNotification) answered = NULL;
  g_autofree char *text = NULL;

  notification = atp_notification_new_from_data (AITP_ENVELOPE, -1, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
  copy = atp_notification_copy_with (notification, NULL, NULL, NULL, "Shop & Co", NULL,
                                     ATP_STATUS_RESPONDED);
  g_assert_cmpint (copy->protocol, ==, ATP_PROTOCOL_AITP);
  g_assert_true (atp_json_node_equal (copy->payload, notification->payload));
  g_assert_cmpstr (copy->service.name, ==, "Shop & Co");

  response = atp_response_new (notification->id, "decision", data, now, "ada", ATP_RESPONDER_HUMAN);
  answered = atp_notification_copy_with_response (copy, response);
  text = atp_test_assert_round_trip (answered);
  g_assert_nonnull (strstr (text, "\"action_id\":\"decision\""));
  g_assert_nonnull (strstr (text, "\"aitp\":{"));
}

static void
test_protocol_names (void)
{
  g_autoptr(GError) error = NULL;
  AtpProtocol protocol;
  guint mask = 0;

  for (guint i = 0; i < ATP_N_PROTOCOLS; i++)
    {
      g_assert_true (atp_protocol_from_string (atp_protocol_to_string (i), &protocol));
      g_assert_cmpuint (protocol, ==, i);
    }
  g_assert_false (atp_protocol_from_string ("ATP", NULL));
  g_assert_false (atp_protocol_from_string (NULL, NULL));
  g_assert_null (atp_protocol_to_string (ATP_N_PROTOCOLS));

  g_assert_true (atp_protocol_mask_from_string ("atp", &mask, &error));
  g_assert_cmpuint (mask, ==, 1u << ATP_PROTOCOL_ATP);
  g_assert_true (atp_protocol_mask_from_string ("aitp,atp,aitp", &mask, &error));
  g_assert_cmpuint (mask, ==, (1u << ATP_PROTOCOL_ATP) | (1u << ATP_PROTOCOL_AITP));
  g_assert_true (atp_protocol_mask_from_string ("all", &mask, &error));
  g_assert_cmpuint (mask, ==, ATP_PROTOCOL_MASK_ALL);
  g_assert_no_error (error);

  g_assert_false (atp_protocol_mask_from_string ("atp,mcp", &mask, &error));
  atp_assert_error (error, ATP_ERROR_INVALID_FIELD_VALUE, "protocols: unknown protocol \"mcp\"");
  g_clear_error (&error);
  g_assert_false (atp_protocol_mask_from_string ("atp, aitp", &mask, &error));
  atp_assert_error (error, ATP_ERROR_INVALID_FIELD_VALUE, "unknown protocol \" aitp\"");
  g_clear_error (&error);
  g_assert_false (atp_protocol_mask_from_string ("", &mask, &error));
  atp_assert_error (error, ATP_ERROR_INVALID_FIELD_VALUE, "protocols: must name at least one");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/envelope/atp/no-protocol-member", test_atp_has_no_protocol_member);
  g_test_add_func ("/envelope/atp/protocol-spelled-out", test_atp_protocol_spelled_out);
  g_test_add_func ("/envelope/atp/foreign-member", test_atp_keeps_foreign_member);
  g_test_add_func ("/envelope/atp/rules-unchanged", test_atp_rules_unchanged);
  g_test_add_func ("/envelope/aitp", test_aitp_envelope);
  g_test_add_func ("/envelope/afp", test_afp_envelope);
  g_test_add_func ("/envelope/rules", test_envelope_rules);
  g_test_add_func ("/envelope/copy", test_envelope_copy);
  g_test_add_func ("/envelope/protocol-names", test_protocol_names);

  return g_test_run ();
}
