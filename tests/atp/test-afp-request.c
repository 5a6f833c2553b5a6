/* test-afp-request.c — the AFP Request Object, item ids and media types
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "atp-test-common.h"
#include "atp-afp.h"

/* The request written, parsed again and written again gives the same text. */
static char *
assert_round_trip (AtpAfpRequest *request)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAfpRequest) again = NULL;
  g_autofree char *first = atp_afp_request_to_string (request, NULL);
  g_autofree char *second = NULL;

  again = atp_afp_request_new_from_data (first, -1, &error);
  g_assert_no_error (error);
  second = atp_afp_request_to_string (again, NULL);
  g_assert_cmpstr (first, ==, second);
  return g_steal_pointer (&first);
}

static void
test_seed_first_request (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAfpRequest) request = NULL;
  g_autofree char *text = NULL;
  gsize length;
  g_autofree char *data = atp_test_load ("seed-004-first-request.json", &length);

  request = atp_afp_request_new_from_data (data, length, &error);
  g_assert_no_error (error);
  g_assert_cmpint (request->iteration, ==, 1);
  g_assert_cmpstr (request->artifact.media_type, ==, "text/plain");
  g_assert_cmpstr (json_node_get_string (request->artifact.content), ==,
                   "Add a 'dark mode' to the user interface.");
  g_assert_null (request->artifact.artifact_ref);
  g_assert_null (request->applied_items);
  g_assert_cmpuint (json_object_get_size (request->extensions), ==, 0);

  /* The seed leaves protocol_version out; it is read as 1.2 and written. */
  text = assert_round_trip (request);
  g_assert_cmpstr (text, ==,
                   "{\"protocol_version\":\"1.2\",\"iteration\":1,\"artifact\":{\"media_type\":"
                   "\"text/plain\",\"content\":\"Add a 'dark mode' to the user interface.\"}}");
}

static void
test_seed_follow_up_request (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAfpRequest) request = NULL;
  g_autoptr(JsonNode) seed = atp_test_load_json ("seed-004-follow-up-request.json");
  g_autoptr(JsonNode) written = NULL;
  const AtpAfpAppliedItem *item;

  request = atp_afp_request_new_from_json (seed, &error);
  g_assert_no_error (error);
  g_assert_cmpint (request->iteration, ==, 2);
  g_assert_cmpstr (request->artifact.media_type, ==, "text/markdown");
  g_assert_nonnull (request->applied_items);
  g_assert_cmpuint (request->applied_items->len, ==, 3);

  item = g_ptr_array_index (request->applied_items, 0);
  g_assert_cmpstr (item->id, ==, "scope-definition-lacks-detail-01");
  g_assert_cmpint (item->status, ==, ATP_AFP_APPLIED_ACCEPTED);
  g_assert_null (item->reason_code);
  g_assert_nonnull (item->explanation);
  item = g_ptr_array_index (request->applied_items, 1);
  g_assert_cmpstr (item->id, ==, "accessibility-concerns-02");
  g_assert_cmpint (item->status, ==, ATP_AFP_APPLIED_PARTIAL);
  item = g_ptr_array_index (request->applied_items, 2);
  g_assert_cmpint (item->status, ==, ATP_AFP_APPLIED_REJECTED);
  g_assert_cmpstr (item->reason_code, ==, "out_of_scope");

  /* Every member in the seed's order: written back it is the seed. */
  written = atp_afp_request_to_json (request);
  g_assert_true (atp_json_node_equal (written, seed));
  g_free (assert_round_trip (request));
}

static void
test_extensions_kept (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAfpRequest) request = NULL;
  g_autofree char *text = NULL;
  const char *data =
    "{\"x-top\":1,\"iteration\":3,\"artifact\":{\"x-art\":[true],\"media_type\":"
    "\"Application/JSON; charset=utf-8\",\"content\":{\"plan\":[1,2]},\"artifact_ref\":\"abc\"},"
    "\"applied_feedback\":{\"items\":[{\"id\":\"some-item-01\",\"status\":\"partial\","
    "\"x-why\":\"because\"}],\"x-applied\":null},\"x-z\":\"last\"}";

  request = atp_afp_request_new_from_data (data, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (request->artifact.content));
  g_assert_cmpstr (request->artifact.artifact_ref, ==, "abc");

  /* Known members first in the protocol's order, then x- members in theirs. */
  text = assert_round_trip (request);
  g_assert_cmpstr (text, ==,
                   "{\"protocol_version\":\"1.2\",\"iteration\":3,\"artifact\":{\"media_type\":"
                   "\"Application/JSON; charset=utf-8\",\"content\":{\"plan\":[1,2]},"
                   "\"artifact_ref\":\"abc\",\"x-art\":[true]},\"applied_feedback\":{\"items\":"
                   "[{\"id\":\"some-item-01\",\"status\":\"partial\",\"x-why\":\"because\"}],"
                   "\"x-applied\":null},\"x-top\":1,\"x-z\":\"last\"}");
}

/* Each rule broken once, on the seed's follow-up request. */
static const struct
{
  const char *path;
  const char *value;         /* JSON text, NULL removes the member */
  AtpErrorCode code;
  const char *message;
} broken[] = {
  { "protocol_version", "\"1.1\"", ATP_ERROR_INVALID_FIELD_VALUE, "protocol_version: must be \"1.2\", got \"1.1\"" },
  { "protocol_version", "1.2", ATP_ERROR_INVALID_FIELD_VALUE, "protocol_version: must be \"1.2\", got 1.2" },
  { "iteration", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "iteration: required field is missing" },
  { "iteration", "0", ATP_ERROR_INVALID_FIELD_VALUE, "iteration: must be an integer ≥ 1, got 0" },
  { "iteration", "-3", ATP_ERROR_INVALID_FIELD_VALUE, "iteration: must be an integer ≥ 1" },
  { "iteration", "1.5", ATP_ERROR_INVALID_FIELD_VALUE, "iteration: must be an integer ≥ 1, got 1.5" },
  { "iteration", "\"2\"", ATP_ERROR_INVALID_FIELD_VALUE, "iteration: must be an integer ≥ 1, got \"2\"" },
  { "iteration", "9223372036854775807", ATP_ERROR_INVALID_FIELD_VALUE,
    "iteration: must be an integer from 1 to 9007199254740992, got 9223372036854775807" },
  { "artifact", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "artifact: required field is missing" },
  { "artifact", "\"plan\"", ATP_ERROR_INVALID_FIELD_VALUE, "artifact: must be an object" },
  { "artifact.media_type", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "artifact.media_type: required field is missing" },
  { "artifact.media_type", "\"markdown\"", ATP_ERROR_INVALID_FIELD_VALUE, "artifact.media_type: must be a media type" },
  { "artifact.media_type", "7", ATP_ERROR_INVALID_FIELD_VALUE, "artifact.media_type: must be a string" },
  /* A range is no content's type: said as such, not "cannot be reviewed". */
  { "artifact.media_type", "\"text/*\"", ATP_ERROR_INVALID_FIELD_VALUE, "artifact.media_type: must be the content's own media type (an IANA one, such as \"text/markdown\"), not a range such as \"text/*\", got \"text/*\"" },
  { "artifact.media_type", "\"*/*\"", ATP_ERROR_INVALID_FIELD_VALUE, "not a range" },
  { "artifact.content", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "artifact.content: required field is missing" },
  { "artifact.content", "null", ATP_ERROR_MISSING_REQUIRED_FIELD, "artifact.content: required field is missing" },
  { "artifact.artifact_ref", "5", ATP_ERROR_INVALID_FIELD_VALUE, "artifact.artifact_ref: must be a string" },
  { "artifact.kind", "\"plan\"", ATP_ERROR_INVALID_REQUEST, "artifact.kind: unknown field" },
  { "sessionID", "\"ses_abc123\"", ATP_ERROR_INVALID_REQUEST, "sessionID: session fields are not part of AFP payloads" },
  { "session_id", "\"ses_abc123\"", ATP_ERROR_INVALID_REQUEST, "session_id: session fields" },
  { "comment", "\"hi\"", ATP_ERROR_INVALID_REQUEST, "comment: unknown field (AFP 1.2 allows only extensions" },
  { "applied_feedback", "[]", ATP_ERROR_INVALID_FIELD_VALUE, "applied_feedback: must be an object" },
  { "applied_feedback.items", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "applied_feedback.items: required field is missing" },
  { "applied_feedback.items", "{}", ATP_ERROR_INVALID_FIELD_VALUE, "applied_feedback.items: must be an array" },
  { "applied_feedback.extra", "1", ATP_ERROR_INVALID_REQUEST, "applied_feedback.extra: unknown field" },
  { "applied_feedback.items[1].id", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "applied_feedback.items[1].id: required field is missing" },
  { "applied_feedback.items[1].id", "\"\"", ATP_ERROR_INVALID_FIELD_VALUE, "applied_feedback.items[1].id: must be a non-empty string" },
  { "applied_feedback.items[2].id", "\"scope-definition-lacks-detail-01\"", ATP_ERROR_INVALID_FIELD_VALUE,
    "applied_feedback.items[2].id: \"scope-definition-lacks-detail-01\" was decided on already in applied_feedback.items[0]" },
  { "applied_feedback.items[0].status", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "applied_feedback.items[0].status: required field is missing" },
  { "applied_feedback.items[0].status", "\"done\"", ATP_ERROR_INVALID_FIELD_VALUE,
    "applied_feedback.items[0].status: must be one of accepted, rejected, partial, got \"done\"" },
  { "applied_feedback.items[0].status", "\"Accepted\"", ATP_ERROR_INVALID_FIELD_VALUE, "applied_feedback.items[0].status" },
  { "applied_feedback.items[2].reason_code", "1", ATP_ERROR_INVALID_FIELD_VALUE, "applied_feedback.items[2].reason_code: must be a string" },
  { "applied_feedback.items[0].explanation", "false", ATP_ERROR_INVALID_FIELD_VALUE, "applied_feedback.items[0].explanation: must be a string" },
  { "applied_feedback.items[0].note", "\"\"", ATP_ERROR_INVALID_REQUEST, "applied_feedback.items[0].note: unknown field" },
  { "artifact.media_type", "\"image/png\"", ATP_ERROR_UNSUPPORTED_MEDIA_TYPE, "artifact.media_type: \"image/png\" cannot be reviewed here" },
  { "artifact.media_type", "\"application/pdf\"", ATP_ERROR_UNSUPPORTED_MEDIA_TYPE, "\"application/pdf\"" },
  { "artifact.media_type", "\"application/octet-stream\"", ATP_ERROR_UNSUPPORTED_MEDIA_TYPE, "application/octet-stream" },
};

static void
test_rules_broken (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (broken); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AtpAfpRequest) request = NULL;
      g_autoptr(JsonNode) root = atp_test_load_json ("seed-004-follow-up-request.json");

      g_test_message ("%s = %s", broken[i].path, broken[i].value ? broken[i].value : "(removed)");
      atp_test_patch (root, broken[i].path, broken[i].value);
      request = atp_afp_request_new_submission (root, &error);
      g_assert_null (request);
      atp_assert_error (error, broken[i].code, broken[i].message);
    }
}

/* A media range is refused in what is submitted only: a review the server
 * took before that rule (its request, a session's previous artifact) must
 * still read, or it could be neither shown, answered nor followed. */
static void
test_range_read_where_stored (void)
{
  static const char * const ranges[] = { "\"text/*\"", "\"*/*\"" };

  for (guint i = 0; i < G_N_ELEMENTS (ranges); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AtpAfpRequest) request = NULL;
      g_autoptr(AtpAfpRequest) submitted = NULL;
      g_autoptr(JsonNode) root = atp_test_load_json ("seed-004-follow-up-request.json");

      atp_test_patch (root, "artifact.media_type", ranges[i]);
      submitted = atp_afp_request_new_submission (root, &error);
      g_assert_null (submitted);
      atp_assert_error (error, ATP_ERROR_INVALID_FIELD_VALUE, "not a range");
      g_clear_error (&error);
      request = atp_afp_request_new_from_json (root, &error);
      /* All of text is text, as it was; the range of all types is none supported. */
      if (i == 0)
        {
          g_assert_no_error (error);
          g_assert_cmpstr (request->artifact.media_type, ==, "text/*");
        }
      else
        atp_assert_error (error, ATP_ERROR_UNSUPPORTED_MEDIA_TYPE, "cannot be reviewed here");
    }
}

/* More applied items than a session issues ids are refused in what is
 * submitted, read where stored. */
static void
test_applied_items_bounded_in_submission (void)
{
  g_autoptr(GString) json = g_string_new ("{\"iteration\":2,\"artifact\":{\"media_type\":"
                                          "\"text/plain\",\"content\":\"x\"},"
                                          "\"applied_feedback\":{\"items\":[");
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(AtpAfpRequest) submitted = NULL, stored = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i <= ATP_AFP_MAX_APPLIED_ITEMS; i++)
    g_string_append_printf (json, "%s{\"id\":\"item-%05u\",\"status\":\"accepted\"}",
                            i > 0 ? "," : "", i);
  g_string_append (json, "]}}");
  root = atp_json_parse (json->str, -1, ATP_AFP_MAX_REQUEST_SIZE, &error);
  g_assert_no_error (error);

  submitted = atp_afp_request_new_submission (root, &error);
  g_assert_null (submitted);
  atp_assert_error (error, ATP_ERROR_INVALID_FIELD_VALUE,
                    "applied_feedback.items: must hold at most 1000 items", "got 1001");
  g_clear_error (&error);
  stored = atp_afp_request_new_from_json (root, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (stored->applied_items->len, ==, ATP_AFP_MAX_APPLIED_ITEMS + 1);
}

static void
test_items_must_be_objects (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAfpRequest) request = NULL;

  request = atp_afp_request_new_from_data ("{\"iteration\":2,\"artifact\":{\"media_type\":\"text/plain\","
                                           "\"content\":\"x\"},\"applied_feedback\":{\"items\":[\"a\"]}}",
                                           -1, &error);
  g_assert_null (request);
  atp_assert_error (error, ATP_ERROR_INVALID_FIELD_VALUE,
                    "applied_feedback.items[0]: must be an object, got \"a\"");
}

static void
test_malformed_text (void)
{
  static const struct { const char *text; AtpErrorCode code; const char *message; } cases[] = {
    { "{\"iteration\":1,", ATP_ERROR_INVALID_JSON, "Invalid JSON at line 1" },
    { "", ATP_ERROR_INVALID_JSON, "Invalid JSON" },
    { "[1]", ATP_ERROR_INVALID_REQUEST, "A Request Object must be a JSON object, got an array" },
    { "{\"iteration\":1,\"iteration\":2}", ATP_ERROR_INVALID_JSON, "duplicate" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AtpAfpRequest) request = atp_afp_request_new_from_data (cases[i].text, -1, &error);

      g_assert_null (request);
      atp_assert_error (error, cases[i].code, cases[i].message);
      g_assert_cmpstr (atp_afp_error_code_for (error), ==, "INVALID_REQUEST");
    }
}

/* A malformed request is reported as such even when its type is unsupported too. */
static void
test_invalid_wins_over_media_type (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAfpRequest) request = NULL;

  request = atp_afp_request_new_from_data ("{\"iteration\":1,\"artifact\":{\"media_type\":\"image/png\"}}",
                                           -1, &error);
  g_assert_null (request);
  atp_assert_error (error, ATP_ERROR_MISSING_REQUIRED_FIELD, "artifact.content");
  g_assert_cmpstr (atp_afp_error_code_for (error), ==, "INVALID_REQUEST");
}

static void
test_too_large (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpAfpRequest) request = NULL;
  g_autoptr(GString) text = g_string_new ("{\"iteration\":1,\"artifact\":{\"media_type\":\"text/plain\",\"content\":\"");
  g_autoptr(GString) fits = NULL;

  while (text->len < ATP_AFP_MAX_REQUEST_SIZE - 100)
    g_string_append (text, "0123456789");
  fits = g_string_new (text->str);
  g_string_append (fits, "\"}}");
  request = atp_afp_request_new_from_data (fits->str, fits->len, &error);
  g_assert_no_error (error);
  g_clear_pointer (&request, atp_afp_request_unref);

  while (text->len <= ATP_AFP_MAX_REQUEST_SIZE)
    g_string_append (text, "0123456789");
  g_string_append (text, "\"}}");
  request = atp_afp_request_new_from_data (text->str, text->len, &error);
  g_assert_null (request);
  atp_assert_error (error, ATP_ERROR_PAYLOAD_TOO_LARGE, NULL);
  g_assert_cmpstr (atp_afp_error_code_for (error), ==, "INVALID_REQUEST");
}

static void
test_peek_iteration (void)
{
  static const struct { const char *text; gint64 iteration; } cases[] = {
    { "{\"iteration\":4}", 4 },
    { "{\"iteration\":4.0}", 4 },
    { "{\"iteration\":0}", 0 },
    { "{\"iteration\":4.5}", 0 },
    { "{\"iteration\":\"4\"}", 0 },
    { "{}", 0 },
    { "[4]", 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) node = atp_json_parse (cases[i].text, -1, 0, NULL);

      g_assert_cmpint (atp_afp_request_peek_iteration (node), ==, cases[i].iteration);
    }
  g_assert_cmpint (atp_afp_request_peek_iteration (NULL), ==, 0);
}

/* The applied items of a request that is otherwise invalid, for its error's ack. */
static void
test_peek_applied (void)
{
  g_autoptr(JsonNode) seed = atp_test_load_json ("seed-004-follow-up-request.json");
  g_autoptr(GPtrArray) items = NULL;

  atp_test_patch (seed, "protocol_version", "\"9\"");
  atp_test_patch (seed, "artifact", NULL);
  items = atp_afp_request_peek_applied (seed);
  g_assert_nonnull (items);
  g_assert_cmpuint (items->len, ==, 3);
  g_assert_cmpstr (((AtpAfpAppliedItem *) items->pdata[2])->id, ==, "performance-impact-03");
  g_clear_pointer (&items, g_ptr_array_unref);

  atp_test_patch (seed, "applied_feedback.items[1].status", "\"maybe\"");
  g_assert_null (atp_afp_request_peek_applied (seed));
  atp_test_patch (seed, "applied_feedback", NULL);
  g_assert_null (atp_afp_request_peek_applied (seed));
  g_assert_null (atp_afp_request_peek_applied (NULL));
}

static void
test_media_types (void)
{
  static const char * const supported[] = {
    "text/plain", "text/markdown", "text/x-csrc", "TEXT/Markdown; charset=UTF-8", "text/html",
    "application/json", "application/vnd.api+json", "application/ld+json", "application/xml",
    "application/atom+xml", "application/yaml", "application/x-yaml", "application/x-sh",
    "application/x-shellscript", "application/javascript", "application/x-python",
    "application/sql", "application/toml", "application/x-php",
  };
  static const char * const unsupported[] = {
    "image/png", "image/svg+xml", "application/pdf", "application/octet-stream",
    "application/zip", "audio/ogg", "video/mp4", "application/jsonx", "application/x-json-ish",
    "multipart/mixed", "application/vnd.ms-excel",
  };
  static const char * const malformed[] = { "text", "text/", "/plain", "text/plain;", "", "a b/c" };

  for (guint i = 0; i < G_N_ELEMENTS (supported); i++)
    g_assert_true (atp_afp_media_type_is_supported (supported[i]));
  for (guint i = 0; i < G_N_ELEMENTS (unsupported); i++)
    g_assert_false (atp_afp_media_type_is_supported (unsupported[i]));
  for (guint i = 0; i < G_N_ELEMENTS (malformed); i++)
    {
      g_autofree char *essence = atp_afp_media_type_essence (malformed[i]);

      g_assert_null (essence);
      g_assert_false (atp_afp_media_type_is_supported (malformed[i]));
    }

  {
    g_autofree char *essence = atp_afp_media_type_essence ("Text/Markdown ; charset=utf-8");

    g_assert_cmpstr (essence, ==, "text/markdown");
  }
}

static void
test_id_pattern (void)
{
  static const char * const valid[] = {
    "scope-definition-lacks-detail-01", "abcdefgh", "a.b_c-d9", "00000000",
  };
  static const char * const invalid[] = {
    "short", "abcdefg", "Scope-definition", "with space-01", "é-accented-01", "slash/in-id",
    "", "tab\there1",
  };
  g_autofree char *longest = g_strnfill (128, 'a');
  g_autofree char *too_long = g_strnfill (129, 'a');

  for (guint i = 0; i < G_N_ELEMENTS (valid); i++)
    g_assert_true (atp_afp_id_is_valid (valid[i]));
  for (guint i = 0; i < G_N_ELEMENTS (invalid); i++)
    g_assert_false (atp_afp_id_is_valid (invalid[i]));
  g_assert_true (atp_afp_id_is_valid (longest));
  g_assert_false (atp_afp_id_is_valid (too_long));
  g_assert_false (atp_afp_id_is_valid (NULL));
}

static void
test_id_generate (void)
{
  static const struct { const char *aspect; const char *id; } cases[] = {
    { "Scope Definition", "scope-definition-01" },
    { "  Error handling: retries!  ", "error-handling-retries-01" },
    { "Café au lait", "cafe-au-lait-01" },
    { "UX", "ux-feedback-01" },
    { "", "feedback-01" },
    { "安全", "feedback-01" },
    { "v1.2_API", "v1-2-api-01" },
  };
  g_autoptr(GHashTable) taken = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *long_aspect = g_strnfill (500, 'w');
  g_autofree char *long_id = atp_afp_id_generate (long_aspect, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *id = atp_afp_id_generate (cases[i].aspect, NULL);

      g_assert_cmpstr (id, ==, cases[i].id);
      g_assert_true (atp_afp_id_is_valid (id));
    }

  g_assert_true (atp_afp_id_is_valid (long_id));

  /* Taken ids are skipped; the counter grows past two digits. */
  for (guint i = 0; i < 120; i++)
    {
      char *id = atp_afp_id_generate ("Scope Definition", taken);

      g_assert_true (atp_afp_id_is_valid (id));
      g_assert_false (g_hash_table_contains (taken, id));
      g_hash_table_add (taken, id);
    }
  g_assert_true (g_hash_table_contains (taken, "scope-definition-02"));
  g_assert_true (g_hash_table_contains (taken, "scope-definition-120"));

  for (guint i = 0; i < 120; i++)
    {
      char *id = atp_afp_id_generate (long_aspect, taken);

      g_assert_true (atp_afp_id_is_valid (id));
      g_hash_table_add (taken, id);
    }
}

static void
test_error_codes (void)
{
  static const struct { AtpErrorCode code; const char *afp; } cases[] = {
    { ATP_ERROR_INVALID_JSON, "INVALID_REQUEST" },
    { ATP_ERROR_MISSING_REQUIRED_FIELD, "INVALID_REQUEST" },
    { ATP_ERROR_INVALID_FIELD_VALUE, "INVALID_REQUEST" },
    { ATP_ERROR_CONSTRAINT_VIOLATION, "INVALID_REQUEST" },
    { ATP_ERROR_SESSION_NOT_FOUND, "INVALID_REQUEST" },
    { ATP_ERROR_PAYLOAD_TOO_LARGE, "INVALID_REQUEST" },
    { ATP_ERROR_UNSUPPORTED_MEDIA_TYPE, "UNSUPPORTED_MEDIA_TYPE" },
    { ATP_ERROR_INTERNAL_ERROR, "INTERNAL_ERROR" },
    { ATP_ERROR_AUTH_INVALID_TOKEN, "INTERNAL_ERROR" },
    { ATP_ERROR_PROTOCOL, "INTERNAL_ERROR" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = g_error_new_literal (ATP_ERROR, cases[i].code, "x");

      g_assert_cmpstr (atp_afp_error_code_for (error), ==, cases[i].afp);
    }

  {
    g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, "x");

    g_assert_cmpstr (atp_afp_error_code_for (error), ==, "INTERNAL_ERROR");
  }

  g_assert_cmpstr (atp_error_code_to_string (ATP_ERROR_UNSUPPORTED_MEDIA_TYPE), ==, "UNSUPPORTED_MEDIA_TYPE");
  g_assert_cmpuint (atp_error_code_http_status (ATP_ERROR_UNSUPPORTED_MEDIA_TYPE), ==, 415);
  g_assert_cmpuint (atp_error_code_http_status (ATP_ERROR_SESSION_NOT_FOUND), ==, 404);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/afp/request/seed-first", test_seed_first_request);
  g_test_add_func ("/afp/request/seed-follow-up", test_seed_follow_up_request);
  g_test_add_func ("/afp/request/extensions-kept", test_extensions_kept);
  g_test_add_func ("/afp/request/rules-broken", test_rules_broken);
  g_test_add_func ("/afp/request/range-read-where-stored", test_range_read_where_stored);
  g_test_add_func ("/afp/request/applied-items-bounded-in-submission",
                   test_applied_items_bounded_in_submission);
  g_test_add_func ("/afp/request/items-must-be-objects", test_items_must_be_objects);
  g_test_add_func ("/afp/request/malformed-text", test_malformed_text);
  g_test_add_func ("/afp/request/invalid-wins-over-media-type", test_invalid_wins_over_media_type);
  g_test_add_func ("/afp/request/too-large", test_too_large);
  g_test_add_func ("/afp/request/peek-iteration", test_peek_iteration);
  g_test_add_func ("/afp/request/peek-applied", test_peek_applied);
  g_test_add_func ("/afp/media-types", test_media_types);
  g_test_add_func ("/afp/id/pattern", test_id_pattern);
  g_test_add_func ("/afp/id/generate", test_id_generate);
  g_test_add_func ("/afp/error-codes", test_error_codes);

  return g_test_run ();
}
