/* test-types.c — enums, names and error codes
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "atp-test-common.h"

static void
test_response_types (void)
{
  static const char * const names[] = {
    "simple", "binary", "choice", "multi_choice", "text", "number", "scale"
  };
  AtpResponseType type;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_assert_cmpstr (atp_response_type_to_string (i), ==, names[i]);
      g_assert_true (atp_response_type_from_string (names[i], &type));
      g_assert_cmpint (type, ==, i);
    }

  g_assert_null (atp_response_type_to_string (99));
  g_assert_false (atp_response_type_from_string ("Simple", &type));
  g_assert_false (atp_response_type_from_string ("multi-choice", &type));
  g_assert_false (atp_response_type_from_string ("", &type));
  g_assert_false (atp_response_type_from_string (NULL, &type));
  g_assert_true (atp_response_type_from_string ("scale", NULL));
}

static void
test_statuses (void)
{
  static const char * const names[] = {
    "created", "delivered", "acknowledged", "responded", "expired", "invalidated"
  };
  static const gboolean terminal[] = { FALSE, FALSE, FALSE, TRUE, TRUE, TRUE };
  AtpStatus status;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_assert_cmpstr (atp_status_to_string (i), ==, names[i]);
      g_assert_true (atp_status_from_string (names[i], &status));
      g_assert_cmpint (status, ==, i);
      g_assert_cmpint (atp_status_is_terminal (i), ==, terminal[i]);
      g_assert_cmpint (atp_status_is_pending (i), ==, !terminal[i]);
    }

  g_assert_null (atp_status_to_string (42));
  g_assert_false (atp_status_from_string ("pending", &status));
  g_assert_false (atp_status_from_string (NULL, &status));
}

static void
test_flags (void)
{
  static const struct { AtpFlags flag; const char *name; } flags[] = {
    { ATP_FLAG_DESTRUCTIVE, "destructive" },
    { ATP_FLAG_IRREVERSIBLE, "irreversible" },
    { ATP_FLAG_TIME_SENSITIVE, "time_sensitive" },
    { ATP_FLAG_AFFECTS_OTHERS, "affects_others" },
    { ATP_FLAG_COSTLY, "costly" },
    { ATP_FLAG_EXPERIMENTAL, "experimental" },
    { ATP_FLAG_REQUIRES_CONFIRMATION, "requires_confirmation" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (flags); i++)
    {
      g_assert_cmpstr (atp_flag_to_string (flags[i].flag), ==, flags[i].name);
      g_assert_cmpint (atp_flag_from_string (flags[i].name), ==, flags[i].flag);
    }

  g_assert_cmpint (atp_flag_from_string ("self_destruct"), ==, ATP_FLAG_NONE);
  g_assert_cmpint (atp_flag_from_string (NULL), ==, ATP_FLAG_NONE);
  g_assert_null (atp_flag_to_string (ATP_FLAG_DESTRUCTIVE | ATP_FLAG_COSTLY));
  g_assert_null (atp_flag_to_string (ATP_FLAG_NONE));
}

static void
test_responder_types (void)
{
  AtpResponderType type;

  g_assert_cmpstr (atp_responder_type_to_string (ATP_RESPONDER_HUMAN), ==, "human");
  g_assert_cmpstr (atp_responder_type_to_string (ATP_RESPONDER_AGENT), ==, "agent");
  g_assert_null (atp_responder_type_to_string (7));
  g_assert_true (atp_responder_type_from_string ("agent", &type));
  g_assert_cmpint (type, ==, ATP_RESPONDER_AGENT);
  g_assert_true (atp_responder_type_from_string ("human", &type));
  g_assert_cmpint (type, ==, ATP_RESPONDER_HUMAN);
  g_assert_false (atp_responder_type_from_string ("robot", &type));
  g_assert_false (atp_responder_type_from_string (NULL, &type));
}

static void
test_error_codes (void)
{
  static const struct { AtpErrorCode code; const char *name; guint status; } codes[] = {
    { ATP_ERROR_INVALID_JSON, "INVALID_JSON", 400 },
    { ATP_ERROR_INVALID_REQUEST, "INVALID_REQUEST", 400 },
    { ATP_ERROR_MISSING_REQUIRED_FIELD, "MISSING_REQUIRED_FIELD", 400 },
    { ATP_ERROR_INVALID_FIELD_VALUE, "INVALID_FIELD_VALUE", 400 },
    { ATP_ERROR_MALFORMED_ACTION, "MALFORMED_ACTION", 400 },
    { ATP_ERROR_INVALID_RESPONSE_TYPE, "INVALID_RESPONSE_TYPE", 400 },
    { ATP_ERROR_INVALID_ACTION_ID, "INVALID_ACTION_ID", 400 },
    { ATP_ERROR_INVALID_RESPONSE_DATA, "INVALID_RESPONSE_DATA", 400 },
    { ATP_ERROR_INVALID_PARAMETER, "INVALID_PARAMETER", 400 },
    { ATP_ERROR_INVALID_CALLBACK_URL, "INVALID_CALLBACK_URL", 400 },
    { ATP_ERROR_INVALID_STATUS, "INVALID_STATUS", 400 },
    { ATP_ERROR_CONSTRAINT_VIOLATION, "CONSTRAINT_VIOLATION", 422 },
    { ATP_ERROR_AUTH_INVALID_TOKEN, "AUTH_INVALID_TOKEN", 401 },
    { ATP_ERROR_AUTH_INSUFFICIENT_PERMISSIONS, "AUTH_INSUFFICIENT_PERMISSIONS", 403 },
    { ATP_ERROR_SERVICE_SUSPENDED, "SERVICE_SUSPENDED", 403 },
    { ATP_ERROR_SERVICE_NOT_OWNER, "SERVICE_NOT_OWNER", 403 },
    { ATP_ERROR_NOTIFICATION_ACCESS_DENIED, "NOTIFICATION_ACCESS_DENIED", 403 },
    { ATP_ERROR_NOT_FOUND, "NOT_FOUND", 404 },
    { ATP_ERROR_NOTIFICATION_NOT_FOUND, "NOTIFICATION_NOT_FOUND", 404 },
    { ATP_ERROR_METHOD_NOT_ALLOWED, "METHOD_NOT_ALLOWED", 405 },
    { ATP_ERROR_SERVICE_ALREADY_EXISTS, "SERVICE_ALREADY_EXISTS", 409 },
    { ATP_ERROR_USER_ALREADY_EXISTS, "USER_ALREADY_EXISTS", 409 },
    { ATP_ERROR_NOTIFICATION_ALREADY_EXISTS, "NOTIFICATION_ALREADY_EXISTS", 409 },
    { ATP_ERROR_NOTIFICATION_EXPIRED, "NOTIFICATION_EXPIRED", 409 },
    { ATP_ERROR_NOTIFICATION_INVALIDATED, "NOTIFICATION_INVALIDATED", 409 },
    { ATP_ERROR_NOTIFICATION_ALREADY_RESPONDED, "NOTIFICATION_ALREADY_RESPONDED", 409 },
    { ATP_ERROR_PAYLOAD_TOO_LARGE, "PAYLOAD_TOO_LARGE", 413 },
    { ATP_ERROR_RATE_LIMIT_EXCEEDED, "RATE_LIMIT_EXCEEDED", 429 },
    { ATP_ERROR_INTERNAL_ERROR, "INTERNAL_ERROR", 500 },
    { ATP_ERROR_SERVICE_UNAVAILABLE, "SERVICE_UNAVAILABLE", 503 },
    { ATP_ERROR_STORAGE_UNAVAILABLE, "STORAGE_UNAVAILABLE", 503 },
    { ATP_ERROR_NOTIFICATION_UNREADABLE, "NOTIFICATION_UNREADABLE", 500 },
    { ATP_ERROR_CONNECTION_FAILED, "CONNECTION_FAILED", 0 },
    { ATP_ERROR_PROTOCOL, "PROTOCOL_ERROR", 0 },
    { ATP_ERROR_TLS_CERTIFICATE, "TLS_CERTIFICATE", 0 },
    { ATP_ERROR_CONNECTION_LOST, "CONNECTION_LOST", 0 },
    { ATP_ERROR_CONFLICT, "CONFLICT", 409 },
    { ATP_ERROR_UNKNOWN, "UNKNOWN", 500 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (codes); i++)
    {
      g_assert_cmpstr (atp_error_code_to_string (codes[i].code), ==, codes[i].name);
      g_assert_cmpint (atp_error_code_from_string (codes[i].name), ==, codes[i].code);
      g_assert_cmpuint (atp_error_code_http_status (codes[i].code), ==, codes[i].status);
    }

  /* Older Triage servers' names for two of ATP's codes read as ATP's. */
  g_assert_cmpint (atp_error_code_from_string ("UNAUTHORIZED"), ==, ATP_ERROR_AUTH_INVALID_TOKEN);
  g_assert_cmpint (atp_error_code_from_string ("FORBIDDEN"), ==,
                   ATP_ERROR_AUTH_INSUFFICIENT_PERMISSIONS);
  /* INVALID_FIELD_VALUE stays a code of its own (a body field; older servers
   * also sent it for query parameters). */
  g_assert_cmpint (atp_error_code_from_string ("INVALID_FIELD_VALUE"), ==,
                   ATP_ERROR_INVALID_FIELD_VALUE);
  g_assert_cmpint (atp_error_code_from_string ("SOMETHING_NEW"), ==, ATP_ERROR_UNKNOWN);
  g_assert_cmpint (atp_error_code_from_string (NULL), ==, ATP_ERROR_UNKNOWN);
  g_assert_cmpint (atp_error_code_from_string ("invalid_json"), ==, ATP_ERROR_UNKNOWN);
  g_assert_cmpuint (ATP_ERROR, !=, 0);
  g_assert_cmpstr (g_quark_to_string (ATP_ERROR), ==, "atp-error-quark");
}

static void
test_boxed_types (void)
{
  g_assert_true (G_TYPE_IS_BOXED (ATP_TYPE_NOTIFICATION));
  g_assert_true (G_TYPE_IS_BOXED (ATP_TYPE_RESPONSE));
  g_assert_true (G_TYPE_IS_BOXED (ATP_TYPE_STATUS_UPDATE));
  g_assert_true (G_TYPE_IS_BOXED (ATP_TYPE_ERROR_INFO));
  g_assert_true (G_TYPE_IS_BOXED (ATP_TYPE_MESSAGE));
  g_assert_cmpstr (g_type_name (ATP_TYPE_NOTIFICATION), ==, "AtpNotification");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/atp/types/response-types", test_response_types);
  g_test_add_func ("/atp/types/statuses", test_statuses);
  g_test_add_func ("/atp/types/flags", test_flags);
  g_test_add_func ("/atp/types/responder-types", test_responder_types);
  g_test_add_func ("/atp/types/error-codes", test_error_codes);
  g_test_add_func ("/atp/types/boxed", test_boxed_types);

  return g_test_run ();
}
