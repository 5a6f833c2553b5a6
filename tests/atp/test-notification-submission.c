/* test-notification-submission.c — submissions, copies, reference counts and attachments
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "notification-test-common.h"

static void
test_submission (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autoptr(AtpNotification) full = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_utc (2025, 5, 25, 10, 31, 0);
  g_autofree char *text = NULL;
  g_autofree char *full_text = NULL;

  /* What a service posts: no id, timestamp, version, service, status. */
  atp_test_patch (root, "id", NULL);
  atp_test_patch (root, "timestamp", NULL);
  atp_test_patch (root, "version", NULL);
  atp_test_patch (root, "service", "\"filled in by the server, never read\"");
  atp_test_patch (root, "status", "\"responded\"");
  atp_test_patch (root, "response", "42");

  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_null (n);
  atp_assert_error (error, ATP_ERROR_MISSING_REQUIRED_FIELD, "id: required field is missing");
  g_clear_error (&error);

  n = atp_notification_new_from_json (root, ATP_PARSE_SUBMISSION, &error);
  g_assert_no_error (error);
  g_assert_null (n->id);
  g_assert_null (n->timestamp);
  g_assert_cmpstr (n->version, ==, "1.0");
  g_assert_null (n->service.id);
  g_assert_null (n->service.name);
  g_assert_cmpint (n->status, ==, ATP_STATUS_CREATED);
  g_assert_null (n->response);
  g_assert_null (n->extra);

  text = atp_notification_to_string (n, NULL);
  g_assert_null (strstr (text, "\"id\":\"7d"));
  g_assert_null (strstr (text, "\"service\""));
  g_assert_null (strstr (text, "\"timestamp\""));
  g_assert_null (strstr (text, "\"response\""));

  /* The server completes it. */
  full = atp_notification_copy_with (n, "6F9619FF-8B86-4011-B42D-00C04FC964FF", now,
                                     "ci-bot", "CI bot", "https://ci.example/icon.png",
                                     ATP_STATUS_DELIVERED);
  g_assert_cmpstr (full->id, ==, "6f9619ff-8b86-4011-b42d-00c04fc964ff");
  g_assert_true (g_date_time_equal (full->timestamp, now));
  g_assert_cmpstr (full->service.id, ==, "ci-bot");
  g_assert_cmpstr (full->service.name, ==, "CI bot");
  g_assert_cmpstr (full->service.icon, ==, "https://ci.example/icon.png");
  g_assert_cmpint (full->status, ==, ATP_STATUS_DELIVERED);
  g_assert_cmpuint (full->actions->len, ==, n->actions->len);
  full_text = atp_test_assert_round_trip (full);

  /* The original is unchanged. */
  g_assert_null (n->id);
  g_assert_null (n->service.id);
}

static void
test_submission_rules (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;

  /* Whatever is there is still checked. */
  atp_test_patch (root, "id", "\"123\"");
  n = atp_notification_new_from_json (root, ATP_PARSE_SUBMISSION, &error);
  g_assert_null (n);
  atp_assert_error (error, ATP_ERROR_INVALID_FIELD_VALUE, "id: must be a UUID v4");
  g_clear_error (&error);

  atp_test_patch (root, "id", NULL);
  atp_test_patch (root, "version", "\"0.9\"");
  n = atp_notification_new_from_json (root, ATP_PARSE_SUBMISSION, &error);
  g_assert_null (n);
  atp_assert_error (error, ATP_ERROR_INVALID_FIELD_VALUE, "version: must be \"1.0\"");
  g_clear_error (&error);

  atp_test_patch (root, "version", NULL);
  atp_test_patch (root, "actions[6].constraints.max", "-3");
  n = atp_notification_new_from_json (root, ATP_PARSE_SUBMISSION, &error);
  g_assert_null (n);
  atp_assert_error (error, ATP_ERROR_MALFORMED_ACTION, "actions[6].constraints.max: must be > min");
  g_clear_error (&error);

  /* Without a timestamp a deadline cannot be compared: the server compares
   * it with the timestamp it fills in. */
  atp_test_patch (root, "actions[6].constraints.max", "3");
  atp_test_patch (root, "timestamp", NULL);
  atp_test_patch (root, "deadline", "\"2000-01-01T00:00:00Z\"");
  n = atp_notification_new_from_json (root, ATP_PARSE_SUBMISSION, &error);
  g_assert_no_error (error);
  g_assert_nonnull (n->deadline);
}

/* A text of invisible characters alone, and binary labels alike, are refused in what is
 * submitted (a blank heading; answers the person cannot tell apart), and still read where
 * stored: a request the server took before must reach the person. */
static void
test_submission_invisible (void)
{
  static const char * const invisible[] = {
    "\"\\u200b\"", "\"\\u2060\"", "\"\\u00ad\"", "\"\\u2800\"", "\"\\ufeff \\u200b\"",
    "\"\\u3164\"", "\"\\u3000\"",
  };
  static const char * const alike[][2] = {
    { "\"Same\"", "\"Same\"" }, { "\"Yes\"", "\" yes\"" }, { "\"ＯＫ\"", "\"ok\"" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (invisible); i++)
    {
      g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
      g_autoptr(AtpNotification) n = NULL;
      g_autoptr(AtpNotification) stored = NULL;
      g_autoptr(GError) error = NULL;

      atp_test_patch (root, "context.title", invisible[i]);
      n = atp_notification_new_from_json (root, ATP_PARSE_SUBMISSION, &error);
      g_assert_null (n);
      atp_assert_error (error, ATP_ERROR_INVALID_FIELD_VALUE, "context.title: must be a ");
      g_clear_error (&error);
      /* U+3000 is whitespace: refused as blank in both, as before. */
      stored = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
      if (i == G_N_ELEMENTS (invisible) - 1)
        g_assert_null (stored);
      else
        g_assert_no_error (error);
    }

  for (guint i = 0; i < G_N_ELEMENTS (alike); i++)
    {
      g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
      g_autoptr(AtpNotification) n = NULL;
      g_autoptr(AtpNotification) stored = NULL;
      g_autoptr(GError) error = NULL;

      atp_test_patch (root, "actions[1].options.true_label", alike[i][0]);
      atp_test_patch (root, "actions[1].options.false_label", alike[i][1]);
      n = atp_notification_new_from_json (root, ATP_PARSE_SUBMISSION, &error);
      g_assert_null (n);
      atp_assert_error (error, ATP_ERROR_MALFORMED_ACTION,
                        "actions[1].options.false_label: must differ from true_label");
      g_clear_error (&error);
      stored = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
      g_assert_no_error (error);
    }

  /* Something visible among them is a title. */
  {
    g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
    g_autoptr(AtpNotification) n = NULL;
    g_autoptr(GError) error = NULL;

    atp_test_patch (root, "context.title", "\"\\u200bDeploy\\u2060?\"");
    n = atp_notification_new_from_json (root, ATP_PARSE_SUBMISSION, &error);
    g_assert_no_error (error);
  }
}

static void
test_copy_with (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autoptr(AtpNotification) same = NULL;
  g_autoptr(AtpNotification) answered = NULL;
  g_autoptr(AtpNotification) cleared = NULL;
  g_autoptr(AtpResponse) response = NULL;
  g_autoptr(GDateTime) when = g_date_time_new_utc (2025, 5, 25, 10, 35, 0);
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *c = NULL;

  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  same = atp_notification_copy_with (n, NULL, NULL, NULL, NULL, NULL, -1);
  a = atp_notification_to_string (n, NULL);
  b = atp_notification_to_string (same, NULL);
  g_assert_cmpstr (a, ==, b);
  g_assert_true (same != n);
  g_assert_true (g_ptr_array_index (same->actions, 0) != g_ptr_array_index (n->actions, 0));

  response = atp_response_new (n->id, "a0", NULL, when, "alice", ATP_RESPONDER_HUMAN);
  answered = atp_notification_copy_with_response (n, response);
  g_assert_true (answered->response == response);
  g_assert_cmpint (answered->status, ==, n->status);
  g_assert_null (n->response);
  c = atp_test_assert_round_trip (answered);
  g_assert_nonnull (strstr (c, "\"response\":{\"notification_id\":\"7d444840-9dc0-41f4-a0b4-8f2b2d3c5e6a\","
                               "\"action_id\":\"a0\",\"response_data\":null,"
                               "\"responded_at\":\"2025-05-25T10:35:00Z\","
                               "\"responder\":{\"id\":\"alice\",\"type\":\"human\"}}"));

  cleared = atp_notification_copy_with_response (answered, NULL);
  g_assert_null (cleared->response);
}

/* Completed in place, a submission writes exactly what the completed copy
 * writes, and the id passed may be its own. */
static void
test_complete (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autoptr(AtpNotification) copy = NULL;
  g_autoptr(GDateTime) when = g_date_time_new_utc (2025, 5, 25, 10, 35, 0);
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  n = atp_notification_new_from_json (root, ATP_PARSE_SUBMISSION, &error);
  g_assert_no_error (error);
  copy = atp_notification_copy_with (n, "6F9619FF-8B86-4011-B42D-00C04FC964FF", when, "svc-1",
                                     "Service One", NULL, ATP_STATUS_CREATED);
  atp_notification_complete (n, "6F9619FF-8B86-4011-B42D-00C04FC964FF", when, "svc-1",
                             "Service One", NULL, ATP_STATUS_CREATED);
  g_assert_cmpstr (n->id, ==, "6f9619ff-8b86-4011-b42d-00c04fc964ff");
  a = atp_notification_to_string (n, NULL);
  b = atp_notification_to_string (copy, NULL);
  g_assert_cmpstr (a, ==, b);

  atp_notification_complete (n, n->id, n->timestamp, n->service.id, n->service.name, NULL, -1);
  g_clear_pointer (&a, g_free);
  a = atp_notification_to_string (n, NULL);
  g_assert_cmpstr (a, ==, b);
}

static void
test_ref_counting (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  AtpNotification *n;
  AtpNotification *boxed;

  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  g_assert_true (atp_notification_ref (n) == n);
  atp_notification_unref (n);
  boxed = g_boxed_copy (ATP_TYPE_NOTIFICATION, n);
  g_assert_true (boxed == n);
  g_boxed_free (ATP_TYPE_NOTIFICATION, boxed);
  atp_notification_unref (n);
}

static void
test_attachment_decode (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) empty = NULL;
  g_autoptr(AtpNotification) m = NULL;

  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  bytes = atp_attachment_decode (g_ptr_array_index (n->context.attachments, 0), &error);
  g_assert_null (bytes);
  atp_assert_error (error, ATP_ERROR_INVALID_FIELD_VALUE, "no inline data", "https://example.com/notes.txt");
  g_clear_error (&error);

  bytes = atp_attachment_decode (g_ptr_array_index (n->context.attachments, 1), &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "hi", 2);

  atp_test_patch (root, "context.attachments[1].data", "\"\"");
  m = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (((AtpAttachment *) g_ptr_array_index (m->context.attachments, 1))->decoded_size, ==, 0);
  empty = atp_attachment_decode (g_ptr_array_index (m->context.attachments, 1), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (empty), ==, 0);
}

static void
test_attachment_sizes (void)
{
  /* decoded_size is exact for every padding, checked against g_base64_decode. */
  for (gsize n = 0; n < 64; n++)
    {
      g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
      g_autoptr(GError) error = NULL;
      g_autoptr(AtpNotification) notification = NULL;
      g_autoptr(GBytes) bytes = NULL;
      g_autofree guchar *raw = g_malloc (n + 1);
      g_autofree char *encoded = NULL;
      g_autofree char *value = NULL;
      const AtpAttachment *attachment;

      for (gsize i = 0; i < n; i++)
        raw[i] = (guchar) (i * 37 + 11);
      encoded = g_base64_encode (raw, n);
      value = g_strdup_printf ("\"%s\"", encoded);
      atp_test_patch (root, "context.attachments[1].data", value);

      notification = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
      g_assert_no_error (error);
      attachment = g_ptr_array_index (notification->context.attachments, 1);
      g_assert_cmpuint (attachment->decoded_size, ==, n);
      bytes = atp_attachment_decode (attachment, &error);
      g_assert_no_error (error);
      g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), raw, n);
    }
}

void
notification_test_add_submission (void)
{
  g_test_add_func ("/atp/notification/submission", test_submission);
  g_test_add_func ("/atp/notification/submission-rules", test_submission_rules);
  g_test_add_func ("/atp/notification/submission-invisible", test_submission_invisible);
  g_test_add_func ("/atp/notification/copy-with", test_copy_with);
  g_test_add_func ("/atp/notification/complete", test_complete);
  g_test_add_func ("/atp/notification/ref-counting", test_ref_counting);
  g_test_add_func ("/atp/notification/attachment-decode", test_attachment_decode);
  g_test_add_func ("/atp/notification/attachment-sizes", test_attachment_sizes);
}
