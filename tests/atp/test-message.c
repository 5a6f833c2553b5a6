/* test-message.c — WebSocket envelopes, responses, status updates, error objects
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "atp-test-common.h"

#define NID "550e8400-e29b-41d4-a716-446655440000"

static void
test_seed_notification_frame (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpMessage) message = NULL;
  g_autoptr(AtpMessage) again = NULL;
  g_autofree char *text = NULL;
  g_autofree char *out = NULL;
  g_autofree char *out2 = NULL;
  gsize length;

  text = atp_test_load ("seed-002-message-notification.json", &length);
  message = atp_message_new_from_data (text, length, &error);
  g_assert_no_error (error);
  g_assert_cmpint (message->type, ==, ATP_MESSAGE_NOTIFICATION);
  g_assert_cmpstr (message->type_name, ==, "notification");
  g_assert_nonnull (message->notification);
  g_assert_cmpstr (message->notification->id, ==, NID);
  g_assert_null (message->status_update);
  g_assert_null (message->error);

  out = atp_message_to_string (message, &length);
  g_assert_cmpuint (length, ==, strlen (out));
  g_assert_true (g_str_has_prefix (out, "{\"type\":\"notification\",\"data\":{\"id\":\"" NID "\""));
  again = atp_message_new_from_data (out, -1, &error);
  g_assert_no_error (error);
  out2 = atp_message_to_string (again, NULL);
  g_assert_cmpstr (out, ==, out2);
}

typedef struct
{
  const char     *text;
  AtpMessageType  type;
  const char     *output;     /* NULL: same as text */
} FrameCase;

static const FrameCase frame_cases[] = {
  { "{\"type\":\"status_update\",\"data\":{\"notification_id\":\"" NID "\",\"status\":\"invalidated\","
    "\"reason\":\"The deployment was canceled by the system\",\"timestamp\":\"2025-05-25T10:32:15Z\"}}",
    ATP_MESSAGE_STATUS_UPDATE, NULL },
  { "{\"type\":\"heartbeat\",\"data\":{\"timestamp\":\"2025-05-25T10:32:15Z\"}}", ATP_MESSAGE_HEARTBEAT, NULL },
  { "{\"type\":\"heartbeat_ack\",\"data\":{\"timestamp\":\"2025-05-25T12:32:15+02:00\"}}", ATP_MESSAGE_HEARTBEAT_ACK,
    "{\"type\":\"heartbeat_ack\",\"data\":{\"timestamp\":\"2025-05-25T10:32:15Z\"}}" },
  { "{\"type\":\"heartbeat_ack\",\"data\":{}}", ATP_MESSAGE_HEARTBEAT_ACK, NULL },
  { "{\"type\":\"heartbeat_ack\"}", ATP_MESSAGE_HEARTBEAT_ACK, "{\"type\":\"heartbeat_ack\",\"data\":{}}" },
  { "{\"type\":\"heartbeat_ack\",\"data\":null}", ATP_MESSAGE_HEARTBEAT_ACK, "{\"type\":\"heartbeat_ack\",\"data\":{}}" },
  { "{\"type\":\"acknowledge\",\"data\":{\"notification_id\":\"" NID "\"}}", ATP_MESSAGE_ACKNOWLEDGE, NULL },
  { "{\"type\":\"error\",\"data\":{\"code\":\"NOTIFICATION_EXPIRED\",\"message\":\"Too late\","
    "\"details\":{\"notification_id\":\"" NID "\"},\"request_id\":\"req_1\"}}", ATP_MESSAGE_ERROR, NULL },
  { "{\"data\":{\"x\":1},\"type\":\"presence\"}", ATP_MESSAGE_UNKNOWN, "{\"type\":\"presence\",\"data\":{}}" },
  { "{\"type\":\"Notification\",\"data\":42}", ATP_MESSAGE_UNKNOWN, "{\"type\":\"Notification\",\"data\":{}}" },
  { "{\"type\":\"\"}", ATP_MESSAGE_UNKNOWN, "{\"type\":\"\",\"data\":{}}" },
};

static void
test_frame (gconstpointer data)
{
  const FrameCase *c = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpMessage) message = NULL;
  g_autofree char *out = NULL;

  message = atp_message_new_from_data (c->text, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (message->type, ==, c->type);
  out = atp_message_to_string (message, NULL);
  g_assert_cmpstr (out, ==, c->output != NULL ? c->output : c->text);

  switch (c->type)
    {
    case ATP_MESSAGE_STATUS_UPDATE:
      g_assert_cmpstr (message->status_update->notification_id, ==, NID);
      g_assert_cmpint (message->status_update->status, ==, ATP_STATUS_INVALIDATED);
      g_assert_cmpstr (message->status_update->reason, ==, "The deployment was canceled by the system");
      break;
    case ATP_MESSAGE_HEARTBEAT:
      g_assert_nonnull (message->timestamp);
      break;
    case ATP_MESSAGE_ACKNOWLEDGE:
      g_assert_cmpstr (message->notification_id, ==, NID);
      break;
    case ATP_MESSAGE_ERROR:
      g_assert_cmpstr (message->error->code, ==, "NOTIFICATION_EXPIRED");
      g_assert_cmpstr (message->error->request_id, ==, "req_1");
      break;
    case ATP_MESSAGE_UNKNOWN:
      g_assert_null (atp_message_type_to_string (message->type));
      g_assert_nonnull (message->type_name);
      break;
    case ATP_MESSAGE_HEARTBEAT_ACK:
    case ATP_MESSAGE_NOTIFICATION:
    default:
      break;
    }
}

typedef struct
{
  const char *text;
  int         code;
  const char *needle;
} BadFrameCase;

static const BadFrameCase bad_frames[] = {
  { "not json", ATP_ERROR_INVALID_JSON, "line 1, column 1" },
  { "{\"type\":\"heartbeat\",\"type\":\"error\"}", ATP_ERROR_INVALID_JSON, "duplicate member name \"type\"" },
  { "[]", ATP_ERROR_PROTOCOL, "A frame must be a JSON object" },
  { "{}", ATP_ERROR_PROTOCOL, "type: must be a string, got null" },
  { "{\"type\":5}", ATP_ERROR_PROTOCOL, "type: must be a string, got 5" },
  { "{\"type\":\"heartbeat\"}", ATP_ERROR_PROTOCOL, "Invalid heartbeat frame: data: required field is missing" },
  { "{\"type\":\"heartbeat\",\"data\":{}}", ATP_ERROR_PROTOCOL, "Invalid heartbeat frame: data.timestamp: required field is missing" },
  { "{\"type\":\"heartbeat\",\"data\":{\"timestamp\":\"now\"}}", ATP_ERROR_PROTOCOL, "data.timestamp: must be an RFC 3339 date-time" },
  { "{\"type\":\"heartbeat_ack\",\"data\":{\"timestamp\":7}}", ATP_ERROR_PROTOCOL, "Invalid heartbeat_ack frame: data.timestamp: must be an RFC 3339 date-time with a time zone offset, got 7" },
  { "{\"type\":\"heartbeat_ack\",\"data\":[]}", ATP_ERROR_PROTOCOL, "Invalid heartbeat_ack frame: data: must be an object, got an array" },
  { "{\"type\":\"notification\",\"data\":[]}", ATP_ERROR_PROTOCOL, "Invalid notification frame: data: must be an object, got an array" },
  { "{\"type\":\"notification\",\"data\":null}", ATP_ERROR_PROTOCOL, "Invalid notification frame: data: required field is missing" },
  { "{\"type\":\"notification\",\"data\":{\"id\":\"" NID "\"}}", ATP_ERROR_PROTOCOL, "Invalid notification frame: version: required field is missing" },
  { "{\"type\":\"status_update\",\"data\":{\"notification_id\":\"" NID "\",\"status\":\"gone\",\"timestamp\":\"2025-05-25T10:32:15Z\"}}",
    ATP_ERROR_PROTOCOL, "Invalid status_update frame: status: must be one of" },
  { "{\"type\":\"acknowledge\",\"data\":{}}", ATP_ERROR_PROTOCOL, "Invalid acknowledge frame: data.notification_id: required field is missing" },
  { "{\"type\":\"acknowledge\",\"data\":{\"notification_id\":\"42\"}}", ATP_ERROR_PROTOCOL, "data.notification_id: must be a UUID v4, got \"42\"" },
  { "{\"type\":\"error\",\"data\":{\"message\":\"x\"}}", ATP_ERROR_PROTOCOL, "Invalid error frame: code: required field is missing" },
};

static void
test_bad_frame (gconstpointer data)
{
  const BadFrameCase *c = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpMessage) message = NULL;

  message = atp_message_new_from_data (c->text, -1, &error);
  g_assert_null (message);
  atp_assert_error (error, c->code, c->needle);
}

static void
test_frame_size (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpMessage) message = NULL;
  GString *text = g_string_new ("{\"type\":\"presence\",\"data\":{\"pad\":\"");
  g_autofree char *frame = NULL;

  while (text->len <= ATP_MAX_FRAME_SIZE)
    g_string_append (text, "xxxxxxxxxxxxxxxx");
  g_string_append (text, "\"}}");
  frame = g_string_free (text, FALSE);

  message = atp_message_new_from_data (frame, -1, &error);
  g_assert_null (message);
  atp_assert_error (error, ATP_ERROR_PAYLOAD_TOO_LARGE, "limit of 1048576 bytes");
}

static void
test_constructors (void)
{
  g_autoptr(GDateTime) when = g_date_time_new_utc (2025, 5, 25, 10, 32, 15);
  g_autoptr(AtpStatusUpdate) update = atp_status_update_new (NID, ATP_STATUS_RESPONDED, NULL, when);
  g_autoptr(AtpErrorInfo) info = atp_error_info_new ("RATE_LIMIT_EXCEEDED", "Slow down", NULL, "req_9");
  g_autoptr(AtpMessage) m1 = atp_message_new_status_update (update);
  g_autoptr(AtpMessage) m2 = atp_message_new_heartbeat (when);
  g_autoptr(AtpMessage) m3 = atp_message_new_heartbeat_ack (NULL);
  g_autoptr(AtpMessage) m4 = atp_message_new_acknowledge (NID);
  g_autoptr(AtpMessage) m5 = atp_message_new_error (info);
  g_autofree char *s1 = atp_message_to_string (m1, NULL);
  g_autofree char *s2 = atp_message_to_string (m2, NULL);
  g_autofree char *s3 = atp_message_to_string (m3, NULL);
  g_autofree char *s4 = atp_message_to_string (m4, NULL);
  g_autofree char *s5 = atp_message_to_string (m5, NULL);

  g_assert_cmpstr (s1, ==, "{\"type\":\"status_update\",\"data\":{\"notification_id\":\"" NID "\","
                           "\"status\":\"responded\",\"timestamp\":\"2025-05-25T10:32:15Z\"}}");
  g_assert_cmpstr (s2, ==, "{\"type\":\"heartbeat\",\"data\":{\"timestamp\":\"2025-05-25T10:32:15Z\"}}");
  g_assert_cmpstr (s3, ==, "{\"type\":\"heartbeat_ack\",\"data\":{}}");
  g_assert_cmpstr (s4, ==, "{\"type\":\"acknowledge\",\"data\":{\"notification_id\":\"" NID "\"}}");
  g_assert_cmpstr (s5, ==, "{\"type\":\"error\",\"data\":{\"code\":\"RATE_LIMIT_EXCEEDED\","
                           "\"message\":\"Slow down\",\"request_id\":\"req_9\"}}");

  g_assert_cmpstr (atp_message_type_to_string (ATP_MESSAGE_HEARTBEAT_ACK), ==, "heartbeat_ack");
  g_assert_null (atp_message_type_to_string (ATP_MESSAGE_UNKNOWN));
  g_assert_null (atp_message_type_to_string (99));

  g_assert_true (atp_message_ref (m1) == m1);
  atp_message_unref (m1);
}

static void
test_notification_message (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autoptr(AtpMessage) message = NULL;
  g_autofree char *text = NULL;
  g_autofree char *frame = NULL;
  g_autofree char *inner = NULL;
  gsize length;

  text = atp_test_load ("seed-002-notification.json", &length);
  n = atp_notification_new_from_data (text, length, 0, &error);
  g_assert_no_error (error);
  message = atp_message_new_notification (n);
  g_assert_true (message->notification == n);
  frame = atp_message_to_string (message, NULL);
  inner = atp_notification_to_string (n, NULL);
  g_assert_true (g_str_has_prefix (frame, "{\"type\":\"notification\",\"data\":"));
  g_assert_nonnull (strstr (frame, inner));
}

/* ---- response ---- */

static void
test_response_seed (void)
{
  g_autoptr(JsonNode) node = atp_test_load_json ("seed-002-response.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpResponse) response = NULL;
  g_autoptr(AtpResponse) again = NULL;
  g_autoptr(JsonNode) out = NULL;
  g_autoptr(JsonNode) null_node = json_node_new (JSON_NODE_NULL);
  g_autoptr(JsonNode) yes = atp_json_parse ("true", -1, 0, NULL);
  g_autofree char *text = NULL;

  response = atp_response_new_from_json (node, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (response->notification_id, ==, NID);
  g_assert_cmpstr (response->action_id, ==, "approve");
  g_assert_true (JSON_NODE_HOLDS_NULL (response->response_data));
  g_assert_cmpstr (response->responder_id, ==, "user_123");
  g_assert_cmpint (response->responder_type, ==, ATP_RESPONDER_HUMAN);

  out = atp_response_to_json (response);
  g_assert_true (atp_json_node_equal (out, node));
  text = atp_json_to_string (out, NULL);
  g_assert_cmpstr (text, ==, "{\"notification_id\":\"" NID "\",\"action_id\":\"approve\",\"response_data\":null,"
                             "\"responded_at\":\"2025-05-25T10:35:12Z\",\"responder\":{\"id\":\"user_123\",\"type\":\"human\"}}");

  again = atp_response_new_from_json (out, &error);
  g_assert_no_error (error);

  g_assert_true (atp_response_same_answer (response, "approve", NULL));
  g_assert_true (atp_response_same_answer (response, "approve", null_node));
  g_assert_false (atp_response_same_answer (response, "approve", yes));
  g_assert_false (atp_response_same_answer (response, "reject", NULL));
}

static void
test_response_new (void)
{
  g_autoptr(GDateTime) when = atp_parse_timestamp ("2025-05-25T12:35:12.5+02:00");
  g_autoptr(JsonNode) data = atp_json_parse ("[\"b\", \"a\"]", -1, 0, NULL);
  g_autoptr(JsonNode) same = atp_json_parse ("[\"b\", \"a\"]", -1, 0, NULL);
  g_autoptr(JsonNode) other = atp_json_parse ("[\"a\", \"b\"]", -1, 0, NULL);
  g_autoptr(AtpResponse) response = atp_response_new ("6f9619ff-8b86-4011-b42d-00c04fc964ff", "pick", data, when,
                                                      "bot-7", ATP_RESPONDER_AGENT);
  g_autoptr(AtpResponse) simple = atp_response_new (NID, "go", NULL, when, "u", ATP_RESPONDER_HUMAN);
  g_autoptr(JsonNode) out = atp_response_to_json (response);
  g_autofree char *text = atp_json_to_string (out, NULL);

  g_assert_cmpstr (text, ==, "{\"notification_id\":\"6f9619ff-8b86-4011-b42d-00c04fc964ff\",\"action_id\":\"pick\","
                             "\"response_data\":[\"b\",\"a\"],\"responded_at\":\"2025-05-25T10:35:12.500000Z\","
                             "\"responder\":{\"id\":\"bot-7\",\"type\":\"agent\"}}");
  g_assert_true (atp_response_same_answer (response, "pick", same));
  g_assert_false (atp_response_same_answer (response, "pick", other));
  g_assert_true (JSON_NODE_HOLDS_NULL (simple->response_data));
  g_assert_true (atp_response_ref (simple) == simple);
  atp_response_unref (simple);
}

typedef struct
{
  const char *path;
  const char *value;
  int         code;
  const char *needle;
} ObjectCase;

static const ObjectCase response_cases[] = {
  { "notification_id", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "notification_id: required field is missing" },
  { "notification_id", "\"x\"", ATP_ERROR_INVALID_FIELD_VALUE, "notification_id: must be a UUID v4, got \"x\"" },
  { "notification_id", "\"550E8400-E29B-41D4-A716-446655440000\"", -1, NULL },
  { "action_id", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "action_id: required field is missing" },
  { "action_id", "1", ATP_ERROR_INVALID_FIELD_VALUE, "action_id: must be a string, got 1" },
  { "response_data", NULL, -1, NULL },
  { "response_data", "{\"any\": [1]}", -1, NULL },
  { "responded_at", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "responded_at: required field is missing" },
  { "responded_at", "\"2025-05-25\"", ATP_ERROR_INVALID_FIELD_VALUE, "responded_at: must be an RFC 3339 date-time" },
  { "responder", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "responder: required field is missing" },
  { "responder", "\"user_123\"", ATP_ERROR_INVALID_FIELD_VALUE, "responder: must be an object, got \"user_123\"" },
  { "responder.id", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "responder.id: required field is missing" },
  { "responder.type", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "responder.type: required field is missing" },
  { "responder.type", "\"robot\"", ATP_ERROR_INVALID_FIELD_VALUE, "responder.type: must be \"human\" or \"agent\", got \"robot\"" },
  { "responder.type", "\"agent\"", -1, NULL },
  { "x_extra", "{\"kept\": true}", -1, NULL },
};

static void
test_response_case (gconstpointer data)
{
  const ObjectCase *c = data;
  g_autoptr(JsonNode) node = atp_test_load_json ("seed-002-response.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpResponse) response = NULL;

  atp_test_patch (node, c->path, c->value);
  response = atp_response_new_from_json (node, &error);
  if (c->code < 0)
    {
      g_autoptr(JsonNode) out = NULL;

      g_assert_no_error (error);
      out = atp_response_to_json (response);
      g_assert_cmpstr (response->notification_id, ==, NID);
      if (g_str_equal (c->path, "response_data") && c->value == NULL)
        g_assert_true (JSON_NODE_HOLDS_NULL (response->response_data));
      else if (!g_str_equal (c->path, "notification_id"))
        g_assert_true (atp_json_node_equal (out, node));
    }
  else
    {
      g_assert_null (response);
      atp_assert_error (error, c->code, c->needle);
    }
}

static void
test_response_not_object (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = atp_json_parse ("[1]", -1, 0, NULL);

  g_assert_null (atp_response_new_from_json (node, &error));
  atp_assert_error (error, ATP_ERROR_INVALID_REQUEST, "A response must be a JSON object, got an array");
  g_clear_error (&error);
  g_assert_null (atp_response_new_from_json (NULL, &error));
  atp_assert_error (error, ATP_ERROR_INVALID_REQUEST, "got null");
}

/* ---- status update ---- */

static const ObjectCase status_cases[] = {
  { "notification_id", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "notification_id: required field is missing" },
  { "notification_id", "\"abc\"", ATP_ERROR_INVALID_FIELD_VALUE, "notification_id: must be a UUID v4" },
  { "status", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "status: required field is missing" },
  { "status", "\"pending\"", ATP_ERROR_INVALID_FIELD_VALUE, "status: must be one of created, delivered" },
  { "reason", NULL, -1, NULL },
  { "reason", "5", ATP_ERROR_INVALID_FIELD_VALUE, "reason: must be a string, got 5" },
  { "timestamp", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "timestamp: required field is missing" },
  { "timestamp", "\"10:32\"", ATP_ERROR_INVALID_FIELD_VALUE, "timestamp: must be an RFC 3339 date-time" },
};

static void
test_status_case (gconstpointer data)
{
  const ObjectCase *c = data;
  g_autoptr(JsonNode) node = atp_test_load_json ("seed-002-status-update.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpStatusUpdate) update = NULL;

  atp_test_patch (node, c->path, c->value);
  update = atp_status_update_new_from_json (node, &error);
  if (c->code < 0)
    {
      g_autoptr(JsonNode) out = NULL;

      g_assert_no_error (error);
      out = atp_status_update_to_json (update);
      g_assert_true (atp_json_node_equal (out, node));
    }
  else
    {
      g_assert_null (update);
      atp_assert_error (error, c->code, c->needle);
    }
}

static void
test_status_seed (void)
{
  g_autoptr(JsonNode) node = atp_test_load_json ("seed-002-status-update.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpStatusUpdate) update = NULL;
  g_autoptr(JsonNode) out = NULL;
  g_autoptr(JsonNode) array = atp_json_parse ("[]", -1, 0, NULL);

  update = atp_status_update_new_from_json (node, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (update->notification_id, ==, NID);
  g_assert_cmpint (update->status, ==, ATP_STATUS_INVALIDATED);
  g_assert_cmpstr (update->reason, ==, "The deployment was canceled by the system");
  out = atp_status_update_to_json (update);
  g_assert_true (atp_json_node_equal (out, node));
  g_assert_true (atp_status_update_ref (update) == update);
  atp_status_update_unref (update);

  g_assert_null (atp_status_update_new_from_json (array, &error));
  atp_assert_error (error, ATP_ERROR_INVALID_REQUEST, "A status update must be a JSON object");
}

/* ---- error object ---- */

static void
test_error_seed (void)
{
  g_autoptr(JsonNode) node = atp_test_load_json ("seed-002-error.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpErrorInfo) info = NULL;
  g_autoptr(JsonNode) out = NULL;
  g_autoptr(GError) gerror = NULL;

  info = atp_error_info_new_from_json (node, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (info->code, ==, "NOTIFICATION_EXPIRED");
  g_assert_cmpstr (info->request_id, ==, "req_abc123def456");
  g_assert_cmpstr (json_object_get_string_member (info->details, "expired_at"), ==, "2025-05-25T11:00:00Z");
  out = atp_error_info_to_json (info);
  g_assert_true (atp_json_node_equal (out, node));

  gerror = atp_error_info_to_gerror (info);
  g_assert_error (gerror, ATP_ERROR, ATP_ERROR_NOTIFICATION_EXPIRED);
  g_assert_cmpstr (gerror->message, ==,
                   "The notification deadline has passed and no longer accepts responses (request req_abc123def456)");
}

static void
test_error_variants (void)
{
  g_autoptr(AtpErrorInfo) unknown = atp_error_info_new ("QUOTA_GONE", "No quota", NULL, NULL);
  g_autoptr(AtpErrorInfo) plain = atp_error_info_new ("CONSTRAINT_VIOLATION", "response_data: too long", NULL, "req_2");
  g_autoptr(GError) e1 = atp_error_info_to_gerror (unknown);
  g_autoptr(GError) e2 = atp_error_info_to_gerror (plain);
  g_autoptr(JsonNode) out = atp_error_info_to_json (unknown);
  g_autofree char *text = atp_json_to_string (out, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_error (e1, ATP_ERROR, ATP_ERROR_UNKNOWN);
  g_assert_cmpstr (e1->message, ==, "No quota [QUOTA_GONE]");
  g_assert_error (e2, ATP_ERROR, ATP_ERROR_CONSTRAINT_VIOLATION);
  g_assert_cmpstr (e2->message, ==, "response_data: too long (request req_2)");
  g_assert_cmpstr (text, ==, "{\"code\":\"QUOTA_GONE\",\"message\":\"No quota\"}");

  /* An older Triage server's name for an ATP code is that code, not unknown. */
  {
    g_autoptr(AtpErrorInfo) old = atp_error_info_new ("UNAUTHORIZED", "A valid user token is required",
                                                      NULL, "req_3");
    g_autoptr(GError) e3 = atp_error_info_to_gerror (old);

    g_assert_error (e3, ATP_ERROR, ATP_ERROR_AUTH_INVALID_TOKEN);
    g_assert_cmpstr (e3->message, ==, "A valid user token is required (request req_3)");
  }

  {
    g_autoptr(JsonNode) no_message = atp_json_parse ("{\"code\": \"INTERNAL_ERROR\"}", -1, 0, NULL);
    g_autoptr(AtpErrorInfo) info = atp_error_info_new_from_json (no_message, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (info->message, ==, "INTERNAL_ERROR");
    g_assert_null (info->request_id);
    g_assert_null (info->details);
  }
  {
    static const struct { const char *text; int code; const char *needle; } bad[] = {
      { "\"oops\"", ATP_ERROR_INVALID_REQUEST, "An error object must be a JSON object" },
      { "{\"message\": \"x\"}", ATP_ERROR_MISSING_REQUIRED_FIELD, "code: required field is missing" },
      { "{\"code\": \"\"}", ATP_ERROR_INVALID_FIELD_VALUE, "code: must not be empty" },
      { "{\"code\": 404}", ATP_ERROR_INVALID_FIELD_VALUE, "code: must be a string, got 404" },
      { "{\"code\": \"X\", \"message\": []}", ATP_ERROR_INVALID_FIELD_VALUE, "message: must be a string, got an array" },
      { "{\"code\": \"X\", \"details\": \"d\"}", ATP_ERROR_INVALID_FIELD_VALUE, "details: must be an object, got \"d\"" },
      { "{\"code\": \"X\", \"request_id\": 1}", ATP_ERROR_INVALID_FIELD_VALUE, "request_id: must be a string, got 1" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        g_autoptr(JsonNode) node = atp_json_parse (bad[i].text, -1, 0, NULL);
        g_autoptr(GError) local_error = NULL;

        g_assert_null (atp_error_info_new_from_json (node, &local_error));
        atp_assert_error (local_error, bad[i].code, bad[i].needle);
      }
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/atp/message/seed-002-notification", test_seed_notification_frame);
  for (guint i = 0; i < G_N_ELEMENTS (frame_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/atp/message/frame/%u", i);

      g_test_add_data_func (path, &frame_cases[i], test_frame);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad_frames); i++)
    {
      g_autofree char *path = g_strdup_printf ("/atp/message/bad-frame/%u", i);

      g_test_add_data_func (path, &bad_frames[i], test_bad_frame);
    }
  g_test_add_func ("/atp/message/frame-size", test_frame_size);
  g_test_add_func ("/atp/message/constructors", test_constructors);
  g_test_add_func ("/atp/message/notification", test_notification_message);

  g_test_add_func ("/atp/response/seed-002", test_response_seed);
  g_test_add_func ("/atp/response/new", test_response_new);
  g_test_add_func ("/atp/response/not-an-object", test_response_not_object);
  for (guint i = 0; i < G_N_ELEMENTS (response_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/atp/response/rule/%s/%u", response_cases[i].path, i);

      g_test_add_data_func (path, &response_cases[i], test_response_case);
    }

  g_test_add_func ("/atp/status-update/seed-002", test_status_seed);
  for (guint i = 0; i < G_N_ELEMENTS (status_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/atp/status-update/rule/%s/%u", status_cases[i].path, i);

      g_test_add_data_func (path, &status_cases[i], test_status_case);
    }

  g_test_add_func ("/atp/error-info/seed-002", test_error_seed);
  g_test_add_func ("/atp/error-info/variants", test_error_variants);

  return g_test_run ();
}
