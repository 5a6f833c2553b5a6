/* test-server-afp.c — AFP reviews in triage-server: the agent endpoints, sessions
 * kept across iterations and restarts, the person's feedback checked at the
 * respond endpoint, and every end read back as a Response Object
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-server-afp"

#include "server-test-util.h"
#include "afp-test-util.h"

typedef struct
{
  TriageTestServer *server;
  char             *user;
  char             *key;
  char             *other_key;    /* a second service, recipients alice too */
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  const char *recipients[] = { "alice", NULL };

  fixture->server = triage_test_server_new (NULL, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_user (fixture->server, "alice", &fixture->user, &error));
  g_assert_true (triage_test_server_create_service (fixture->server, "planner", recipients, NULL,
                                                    NULL, &fixture->key, NULL, &error));
  g_assert_true (triage_test_server_create_service (fixture->server, "other", recipients, NULL,
                                                    NULL, &fixture->other_key, NULL, &error));
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_pointer (&fixture->server, triage_test_server_free);
  g_free (fixture->user);
  g_free (fixture->key);
  g_free (fixture->other_key);
}

/* ---- helpers ---- */

#define FEEDBACK(areas) \
  "{\"confidence\":{\"level\":\"medium\",\"justification\":\"High-level only.\"}," \
  "\"positive_points\":[{\"aspect\":\"User Experience\",\"justification\":\"Often asked for.\"}]," \
  "\"areas_for_improvement\":[" areas "],\"general_summary\":\"Needs a plan.\"}"
#define AREA(id) \
  "{\"id\":\"" id "\",\"aspect\":\"Scope\",\"description\":\"Vague.\",\"recommendation\":\"List the parts.\"}"

static SrvAnswer *
post_review (Fixture    *fixture,
             const char *key,
             const char *body)
{
  return srv_request (fixture->server, "POST", "/api/v1/afp/reviews", key, body);
}

/* Posts a review (201 expected) and returns the answer's object. */
static JsonObject *
post_ok (Fixture    *fixture,
         const char *body)
{
  g_autoptr(SrvAnswer) answer = post_review (fixture, fixture->key, body);

  srv_assert_status (answer, 201, NULL);
  return srv_parse_object (answer->body);
}

static JsonObject *
get_review (Fixture    *fixture,
            const char *id,
            const char *query)
{
  g_autofree char *path = g_strconcat ("/api/v1/afp/reviews/", id, query, NULL);
  g_autoptr(SrvAnswer) answer = srv_request (fixture->server, "GET", path, fixture->key, NULL);

  srv_assert_status (answer, 200, NULL);
  return srv_parse_object (answer->body);
}

static SrvAnswer *
respond (Fixture    *fixture,
         const char *id,
         const char *action,
         const char *data)
{
  g_autofree char *body = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"%s\""
                                           "%s%s}", id, action, data ? ",\"response_data\":" : "",
                                           data ? data : "");

  return srv_request (fixture->server, "POST", "/api/v1/client/respond", fixture->user, body);
}

/* The envelope the client list shows for @id (with protocols=afp). */
static JsonObject *
envelope_of (Fixture    *fixture,
             const char *id)
{
  JsonObject *envelope = srv_find_listed (fixture->server, fixture->user, "?protocols=afp", id);

  if (envelope == NULL)
    g_error ("%s is not listed with protocols=afp", id);
  return envelope;
}

static gint64
listed (Fixture    *fixture,
        const char *query)
{
  g_autofree char *path = g_strconcat ("/api/v1/client/notifications", query, NULL);
  g_autoptr(SrvAnswer) answer = srv_request (fixture->server, "GET", path, fixture->user, NULL);
  g_autoptr(JsonObject) object = NULL;

  srv_assert_status (answer, 200, NULL);
  object = srv_parse_object (answer->body);
  return json_object_get_int_member (json_object_get_object_member (object, "pagination"),
                                     "total_count");
}

/* The Response Object of a settled review, checked against the rules of seed 004. */
static AtpAfpResponse *
response_of (JsonObject *review)
{
  g_autoptr(GError) error = NULL;
  AtpAfpResponse *response = atp_afp_response_new_from_json (json_object_get_member (review, "response"),
                                                             &error);

  g_assert_no_error (error);
  return response;
}

static const char *
string_at (JsonObject *object,
           const char *a,
           const char *b)
{
  return json_object_get_string_member (json_object_get_object_member (object, a), b);
}

/* ---- tests ---- */

static void
test_session (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(JsonObject) first = NULL, second = NULL, envelope = NULL, view = NULL, third = NULL;
  g_autoptr(AtpAfpResponse) response = NULL;
  g_autoptr(SrvAnswer) answer = NULL;
  g_autofree char *body = NULL;
  const char *session, *id1, *id2;
  JsonObject *afp;

  first = post_ok (fixture, "{\"request\":{\"iteration\":1,\"artifact\":{\"media_type\":\"text/plain\","
                            "\"content\":\"Add a 'dark mode' to the user interface.\"}}}");
  session = json_object_get_string_member (first, "session_id");
  id1 = json_object_get_string_member (first, "id");
  g_assert_true (g_str_has_prefix (session, "ses_"));
  g_assert_cmpuint (strlen (session), ==, 4 + 24);
  g_assert_cmpint (json_object_get_int_member (first, "iteration"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (first, "status"), ==, "pending");

  /* Clients see it only when they ask for AFP. */
  g_assert_cmpint (listed (fixture, ""), ==, 0);
  g_assert_cmpint (listed (fixture, "?protocols=afp"), ==, 1);
  envelope = envelope_of (fixture, id1);
  g_assert_cmpstr (json_object_get_string_member (envelope, "protocol"), ==, "afp");
  g_assert_cmpstr (string_at (envelope, "context", "title"), ==,
                   "Add a 'dark mode' to the user interface.");
  g_assert_cmpstr (string_at (envelope, "context", "description"), ==, "Iteration 1 · text/plain");
  g_assert_false (json_object_has_member (envelope, "actions"));
  afp = json_object_get_object_member (envelope, "afp");
  g_assert_cmpstr (json_object_get_string_member (afp, "session_id"), ==, session);
  g_assert_false (json_object_has_member (afp, "previous"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (afp, "issued_ids")), ==, 0);

  view = get_review (fixture, id1, "");
  g_assert_cmpstr (json_object_get_string_member (view, "status"), ==, "pending");
  g_assert_false (json_object_has_member (view, "response"));
  g_clear_pointer (&view, json_object_unref);

  answer = respond (fixture, id1, "feedback", FEEDBACK (AREA ("scope-definition-01")));
  srv_assert_status (answer, 200, NULL);
  view = get_review (fixture, id1, "");
  g_assert_cmpstr (json_object_get_string_member (view, "status"), ==, "answered");
  g_assert_true (json_object_has_member (view, "settled_at"));
  response = response_of (view);
  g_assert_cmpint (response->status, ==, ATP_AFP_STATUS_SUCCESS);
  g_assert_cmpint (response->iteration, ==, 1);
  g_assert_null (response->ack_items);
  g_clear_pointer (&response, atp_afp_response_unref);
  g_clear_pointer (&view, json_object_unref);
  g_clear_pointer (&envelope, json_object_unref);

  /* Iteration 2 continues the session: the envelope has the previous
   * artifact, the latest feedback and the ids the session issued. */
  body = g_strdup_printf ("{\"session_id\":\"%s\",\"request\":{\"protocol_version\":\"1.2\","
                          "\"iteration\":2,\"artifact\":{\"media_type\":\"text/markdown\","
                          "\"content\":\"## Dark Mode Spec\\n- The toolbar\"},\"applied_feedback\":"
                          "{\"items\":[{\"id\":\"scope-definition-01\",\"status\":\"accepted\"},"
                          "{\"id\":\"made-up-item-02\",\"status\":\"rejected\",\"reason_code\":"
                          "\"out_of_scope\"}]}}}", session);
  second = post_ok (fixture, body);
  id2 = json_object_get_string_member (second, "id");
  g_assert_cmpstr (json_object_get_string_member (second, "session_id"), ==, session);
  envelope = envelope_of (fixture, id2);
  g_assert_cmpstr (string_at (envelope, "context", "title"), ==, "Dark Mode Spec");
  g_assert_nonnull (strstr (string_at (envelope, "context", "description"),
                            "the agent accepted 1, partly applied 0 and rejected 1"));
  afp = json_object_get_object_member (envelope, "afp");
  g_assert_cmpstr (string_at (afp, "previous", "id"), ==, id1);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (json_object_get_object_member (afp, "previous"), "artifact"), "media_type"), ==, "text/plain");
  g_assert_cmpstr (string_at (afp, "latest_feedback", "id"), ==, id1);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (afp, "issued_ids"), 0),
                   ==, "scope-definition-01");

  /* Carrying the item over keeps its id; a new one gets a new id. */
  g_clear_pointer (&answer, srv_answer_free);
  answer = respond (fixture, id2, "feedback",
                    FEEDBACK (AREA ("scope-definition-01") "," AREA ("contrast-ratios-01")));
  srv_assert_status (answer, 200, NULL);
  view = get_review (fixture, id2, "");
  response = response_of (view);
  g_assert_cmpint (response->iteration, ==, 2);
  g_assert_nonnull (response->ack_items);
  g_assert_cmpuint (response->ack_items->len, ==, 2);
  g_assert_cmpint (((AtpAfpAckItem *) response->ack_items->pdata[0])->processing_status, ==,
                   ATP_AFP_ACK_ACKNOWLEDGED);
  g_assert_cmpint (((AtpAfpAckItem *) response->ack_items->pdata[1])->processing_status, ==,
                   ATP_AFP_ACK_UNKNOWN_ID);

  /* The session as its service reads it. */
  {
    g_autofree char *path = g_strconcat ("/api/v1/afp/sessions/", session, NULL);
    g_autoptr(SrvAnswer) got = srv_request (fixture->server, "GET", path, fixture->key, NULL);
    g_autoptr(SrvAnswer) foreign = srv_request (fixture->server, "GET", path, fixture->other_key, NULL);
    g_autoptr(JsonObject) object = NULL;
    JsonArray *ids;

    srv_assert_status (got, 200, NULL);
    object = srv_parse_object (got->body);
    g_assert_cmpint (json_object_get_int_member (object, "last_iteration"), ==, 2);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "reviews")), ==, 2);
    ids = json_object_get_array_member (object, "issued_ids");
    g_assert_cmpuint (json_array_get_length (ids), ==, 2);
    g_assert_cmpstr (json_array_get_string_element (ids, 1), ==, "contrast-ratios-01");
    srv_assert_status (foreign, 404, "SESSION_NOT_FOUND");
  }

  /* After a restart the session goes on, its history intact. */
  {
    g_autoptr(GError) error = NULL;

    g_assert_true (triage_test_server_restart (fixture->server, &error));
    g_assert_no_error (error);
  }
  g_free (body);
  body = g_strdup_printf ("{\"session_id\":\"%s\",\"request\":{\"iteration\":5,\"artifact\":"
                          "{\"media_type\":\"application/json\",\"content\":{\"plan\":[1,2]}},"
                          "\"applied_feedback\":{\"items\":[{\"id\":\"contrast-ratios-01\","
                          "\"status\":\"partial\"}]}}}", session);
  third = post_ok (fixture, body);
  g_clear_pointer (&envelope, json_object_unref);
  envelope = envelope_of (fixture, json_object_get_string_member (third, "id"));
  g_assert_cmpstr (string_at (envelope, "context", "title"), ==, "An application/json artifact");
  afp = json_object_get_object_member (envelope, "afp");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (afp, "issued_ids")), ==, 2);
  g_assert_cmpstr (string_at (afp, "previous", "id"), ==, id2);
}

/* What the inbox shows of a review without a title: the first line, with
 * Markdown's marks dropped only in Markdown; code keeps its first line whole. */
static void
test_derived_titles (Fixture       *fixture,
                     gconstpointer  data)
{
  static const struct
  {
    const char *media_type;
    const char *content;
    const char *title;
  } cases[] = {
    { "text/markdown", "\\n## Dark Mode Spec\\n\\nText.", "Dark Mode Spec" },
    { "text/markdown; charset=utf-8", "> - quoted item", "quoted item" },
    { "application/x-sh", "#!/bin/sh\\necho hi", "#!/bin/sh" },
    { "text/x-csrc", "#include <stdio.h>", "#include <stdio.h>" },
    { "text/plain", "- 5 degrees is cold", "- 5 degrees is cold" },
    /* Only a real list mark, and emphasis both ends of. */
    { "text/markdown", "-1 is a number", "-1 is a number" },
    { "text/markdown", "**Bold** start", "Bold start" },
    { "text/markdown", "---\\n* _Item_ one", "Item one" },
    { "text/markdown", "*args and **kwargs", "*args and **kwargs" },
    /* A carriage return ends a line too. */
    { "text/plain", "\\r\\nfirst\\rsecond", "first" },
    /* And so do Unicode's: LS, PS, NEL, and VT and FF. */
    { "text/plain", "\\u2029first\\u2028second", "first" },
    { "text/plain", "first\\u0085second\\u000bthird\\fend", "first" },
    { "text/plain", "\\u000b\\ffirst\\u000bsecond", "first" },
  };
  g_autofree char *blank = g_strnfill (70 * 2, 'n');

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *body = g_strdup_printf ("{\"request\":{\"iteration\":1,\"artifact\":"
                                               "{\"media_type\":\"%s\",\"content\":\"%s\"}}}",
                                               cases[i].media_type, cases[i].content);
      g_autoptr(JsonObject) created = post_ok (fixture, body);
      g_autoptr(JsonObject) envelope = envelope_of (fixture,
                                                    json_object_get_string_member (created, "id"));

      g_assert_cmpstr (string_at (envelope, "context", "title"), ==, cases[i].title);
    }

  /* However many blank lines come first, the title is one line. */
  for (guint i = 0; i < 70; i++)
    blank[2 * i] = '\\';
  {
    g_autofree char *body = g_strdup_printf ("{\"request\":{\"iteration\":1,\"artifact\":"
                                             "{\"media_type\":\"text/plain\",\"content\":"
                                             "\"%sfirst\\nsecond\"}}}", blank);
    g_autoptr(JsonObject) created = post_ok (fixture, body);
    g_autoptr(JsonObject) envelope = envelope_of (fixture,
                                                  json_object_get_string_member (created, "id"));

    g_assert_cmpstr (string_at (envelope, "context", "title"), ==, "first");
  }
}

static void
test_iteration_must_increase (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autoptr(JsonObject) first = post_ok (fixture, "{\"request\":{\"iteration\":3,\"artifact\":"
                                                  "{\"media_type\":\"text/plain\",\"content\":\"v3\"}}}");
  const char *session = json_object_get_string_member (first, "session_id");
  const gint64 iterations[] = { 3, 1 };

  for (guint i = 0; i < G_N_ELEMENTS (iterations); i++)
    {
      g_autofree char *body = g_strdup_printf ("{\"session_id\":\"%s\",\"request\":{\"iteration\":%"
                                               G_GINT64_FORMAT ",\"artifact\":{\"media_type\":"
                                               "\"text/plain\",\"content\":\"again\"}}}", session,
                                               iterations[i]);
      g_autoptr(SrvAnswer) answer = post_review (fixture, fixture->key, body);

      srv_assert_status (answer, 422, "CONSTRAINT_VIOLATION");
      srv_assert_field (answer, "request.iteration");
      srv_assert_message (answer, "must be greater than 3, the last iteration of session");
    }
  g_assert_cmpint (listed (fixture, "?protocols=afp"), ==, 1);
}

static void
test_unknown_session (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(JsonObject) first = post_ok (fixture, "{\"request\":{\"iteration\":1,\"artifact\":"
                                                  "{\"media_type\":\"text/plain\",\"content\":\"x\"}}}");
  g_autofree char *foreign = g_strdup_printf ("{\"session_id\":\"%s\",\"request\":{\"iteration\":2,"
                                              "\"artifact\":{\"media_type\":\"text/plain\","
                                              "\"content\":\"y\"}}}",
                                              json_object_get_string_member (first, "session_id"));
  g_autoptr(SrvAnswer) answer = NULL;

  answer = post_review (fixture, fixture->key, "{\"session_id\":\"ses_NoSuchSession0000000\","
                        "\"request\":{\"iteration\":2,\"artifact\":{\"media_type\":\"text/plain\","
                        "\"content\":\"y\"}}}");
  srv_assert_status (answer, 404, "SESSION_NOT_FOUND");
  srv_assert_field (answer, "session_id");
  g_clear_pointer (&answer, srv_answer_free);

  /* Another service's session is no session of this one. */
  answer = post_review (fixture, fixture->other_key, foreign);
  srv_assert_status (answer, 404, "SESSION_NOT_FOUND");
  g_assert_cmpint (listed (fixture, "?protocols=afp"), ==, 1);
}

static void
test_invalid_requests (Fixture       *fixture,
                       gconstpointer  data)
{
  static const struct
  {
    const char *body;
    guint       status;
    const char *code;
    const char *field;
  } cases[] = {
    { "{}", 400, "MISSING_REQUIRED_FIELD", "request" },
    { "{\"request\":{\"iteration\":1}}", 400, "MISSING_REQUIRED_FIELD", "request.artifact" },
    { "{\"request\":{\"protocol_version\":\"1.1\",\"iteration\":1,\"artifact\":{\"media_type\":"
      "\"text/plain\",\"content\":\"x\"}}}", 400, "INVALID_FIELD_VALUE", "request.protocol_version" },
    { "{\"request\":{\"iteration\":1,\"artifact\":{\"media_type\":\"image/png\",\"content\":\"x\"}}}",
      415, "UNSUPPORTED_MEDIA_TYPE", "request.artifact.media_type" },
    { "{\"request\":{\"iteration\":1,\"sessionID\":\"ses_x\",\"artifact\":{\"media_type\":"
      "\"text/plain\",\"content\":\"x\"}}}", 400, "INVALID_REQUEST", "request.sessionID" },
    { "{\"sessionID\":\"ses_x\",\"request\":{}}", 400, "INVALID_REQUEST", "sessionID" },
    { "{\"deadline\":\"2001-01-01T00:00:00Z\",\"request\":{\"iteration\":1,\"artifact\":"
      "{\"media_type\":\"text/plain\",\"content\":\"x\"}}}", 400, "INVALID_FIELD_VALUE", "deadline" },
    { "{\"id\":\"nope\",\"request\":{}}", 400, "INVALID_FIELD_VALUE", "id" },
    /* The inbox's heading: blank to the person, refused as ATP's context.title. */
    { "{\"title\":\"\\u200b\\u2060\",\"request\":{\"iteration\":1,\"artifact\":"
      "{\"media_type\":\"text/plain\",\"content\":\"x\"}}}", 400, "INVALID_FIELD_VALUE", "title" },
    { "{\"request\":5}", 400, "INVALID_FIELD_VALUE", "request" },
    { "{\"request\":[]}", 400, "INVALID_FIELD_VALUE", "request" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(SrvAnswer) answer = post_review (fixture, fixture->key, cases[i].body);

      g_test_message ("%s", cases[i].body);
      srv_assert_status (answer, cases[i].status, cases[i].code);
      srv_assert_field (answer, cases[i].field);
    }
  g_assert_cmpint (listed (fixture, "?protocols=all"), ==, 0);
}

/* A deadline that does not read is quoted back, a long one cut, as libatp
 * quotes any value it refuses. */
static void
test_bad_deadline_quoted (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autofree char *filler = g_strnfill (200, '9');
  g_autofree char *long_body = g_strdup_printf ("{\"deadline\":\"2031-%s\",\"request\":{}}", filler);
  g_autoptr(SrvAnswer) answer = post_review (fixture, fixture->key,
                                             "{\"deadline\":\"next Tuesday\",\"request\":{}}");
  g_autoptr(SrvAnswer) cut = post_review (fixture, fixture->key, long_body);

  srv_assert_status (answer, 400, "INVALID_FIELD_VALUE");
  srv_assert_field (answer, "deadline");
  srv_assert_message (answer, "time zone offset (e.g. \"2025-05-25T10:30:00Z\"), got \"next Tuesday\"");
  srv_assert_status (cut, 400, "INVALID_FIELD_VALUE");
  srv_assert_message (cut, "got \"2031-9999");
  srv_assert_message (cut, "99…");
  g_assert_null (strstr (cut->body, filler));
}

static void
test_repeated_post (Fixture       *fixture,
                    gconstpointer  data)
{
  const char *body = "{\"id\":\"7d5b6c1e-2f44-4e77-9a0a-5b8f0c6a1d20\",\"request\":{\"iteration\":1,"
                     "\"artifact\":{\"media_type\":\"text/plain\",\"content\":\"x\"}}}";
  g_autoptr(SrvAnswer) first = post_review (fixture, fixture->key, body);
  g_autoptr(SrvAnswer) again = post_review (fixture, fixture->key, body);
  g_autoptr(SrvAnswer) other = NULL;

  srv_assert_status (first, 201, NULL);
  srv_assert_status (again, 201, NULL);
  g_assert_cmpstr (first->body, ==, again->body);
  other = post_review (fixture, fixture->key,
                       "{\"id\":\"7d5b6c1e-2f44-4e77-9a0a-5b8f0c6a1d20\",\"request\":{\"iteration\":1,"
                       "\"artifact\":{\"media_type\":\"text/plain\",\"content\":\"y\"}}}");
  srv_assert_status (other, 409, "NOTIFICATION_ALREADY_EXISTS");
  srv_assert_message (other, "id: a request with this id exists, with another body");
  g_assert_cmpint (listed (fixture, "?protocols=afp"), ==, 1);

  /* The id of another service's review, or of one of this service's ATP
   * notifications, is not this review with another body. */
  g_clear_pointer (&other, srv_answer_free);
  other = post_review (fixture, fixture->other_key, body);
  srv_assert_status (other, 409, "NOTIFICATION_ALREADY_EXISTS");
  srv_assert_message (other, "id: already used by another request");
  g_clear_pointer (&other, srv_answer_free);
  other = srv_request (fixture->server, "POST", "/api/v1/notifications", fixture->key,
                       "{\"id\":\"5a1c7e3b-8d2f-4b6a-9c0e-1f3d5b7a9c2e\","
                       "\"context\":{\"title\":\"T\",\"description\":\"D\"},"
                       "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]}");
  srv_assert_status (other, 201, NULL);
  g_clear_pointer (&other, srv_answer_free);
  other = post_review (fixture, fixture->key,
                       "{\"id\":\"5a1c7e3b-8d2f-4b6a-9c0e-1f3d5b7a9c2e\",\"request\":{\"iteration\":1,"
                       "\"artifact\":{\"media_type\":\"text/plain\",\"content\":\"x\"}}}");
  srv_assert_status (other, 409, "NOTIFICATION_ALREADY_EXISTS");
  srv_assert_message (other, "id: already used by another request");
}

/* The agent retries a post whose answer it lost, after the review's deadline:
 * the first answer, not a refusal of the deadline (which is one for a new review). */
static void
test_repeated_post_expired (Fixture       *fixture,
                            gconstpointer  data)
{
  /* Ahead still when the server reads it, however long a loaded machine
   * takes to get it there (it is read before anything is stored). */
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) soon = g_date_time_add_seconds (now, 3);
  g_autofree char *deadline = g_date_time_format_iso8601 (soon);
  g_autofree char *body = g_strdup_printf ("{\"id\":\"0b7e5c2a-91d4-4f3e-8a6b-2c9d1e0f4a51\","
                                           "\"deadline\":\"%s\",\"request\":{\"iteration\":1,"
                                           "\"artifact\":{\"media_type\":\"text/plain\","
                                           "\"content\":\"x\"}}}", deadline);
  g_autofree char *fresh = g_strdup_printf ("{\"deadline\":\"%s\",\"request\":{\"iteration\":1,"
                                            "\"artifact\":{\"media_type\":\"text/plain\","
                                            "\"content\":\"x\"}}}", deadline);
  g_autoptr(SrvAnswer) first = post_review (fixture, fixture->key, body);
  g_autoptr(SrvAnswer) again = NULL, late = NULL;
  g_autoptr(JsonObject) view = NULL;

  srv_assert_status (first, 201, NULL);
  view = get_review (fixture, "0b7e5c2a-91d4-4f3e-8a6b-2c9d1e0f4a51", "?wait=10");
  g_assert_cmpstr (json_object_get_string_member (view, "status"), ==, "expired");
  again = post_review (fixture, fixture->key, body);
  srv_assert_status (again, 201, NULL);
  g_assert_cmpstr (again->body, ==, first->body);
  late = post_review (fixture, fixture->key, fresh);
  srv_assert_status (late, 400, "INVALID_FIELD_VALUE");
  srv_assert_field (late, "deadline");
  g_assert_cmpint (listed (fixture, "?protocols=afp"), ==, 1);
}

/* A review whose envelope would not fit a frame is refused before anything
 * changes: the session's last iteration stays, the review waiting in it is
 * not withdrawn, and the same iteration can be sent again, smaller. */
static void
test_too_large_changes_nothing (Fixture       *fixture,
                                gconstpointer  data)
{
  g_autofree char *first_request = afp_test_large_request (1, 'a');
  g_autofree char *first_body = g_strdup_printf ("{\"request\":%s}", first_request);
  g_autoptr(JsonObject) first = post_ok (fixture, first_body);
  const char *session = json_object_get_string_member (first, "session_id");
  const char *id1 = json_object_get_string_member (first, "id");
  g_autofree char *second_request = afp_test_large_request (2, 'b');
  g_autofree char *title = g_strnfill (260000, 't');
  g_autofree char *second_body = g_strdup_printf ("{\"session_id\":\"%s\",\"title\":\"%s\","
                                                  "\"request\":%s}", session, title, second_request);
  g_autofree char *small_body = g_strdup_printf ("{\"session_id\":\"%s\",\"request\":{\"iteration\":2,"
                                                 "\"artifact\":{\"media_type\":\"text/plain\","
                                                 "\"content\":\"b\"}}}", session);
  g_autofree char *path = g_strconcat ("/api/v1/afp/sessions/", session, NULL);
  g_autoptr(SrvAnswer) refused = post_review (fixture, fixture->key, second_body);
  g_autoptr(SrvAnswer) state = NULL;
  g_autoptr(JsonObject) view = NULL, state_object = NULL, second = NULL;

  srv_assert_status (refused, 413, "PAYLOAD_TOO_LARGE");
  srv_assert_field (refused, "request");
  view = get_review (fixture, id1, "");
  g_assert_cmpstr (json_object_get_string_member (view, "status"), ==, "pending");
  state = srv_request (fixture->server, "GET", path, fixture->key, NULL);
  srv_assert_status (state, 200, NULL);
  state_object = srv_parse_object (state->body);
  g_assert_cmpint (json_object_get_int_member (state_object, "last_iteration"), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (state_object, "reviews")),
                    ==, 1);

  second = post_ok (fixture, small_body);
  g_assert_cmpint (json_object_get_int_member (second, "iteration"), ==, 2);
}

static void
test_feedback_checked (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(JsonObject) first = post_ok (fixture, "{\"request\":{\"iteration\":1,\"artifact\":"
                                                  "{\"media_type\":\"text/x-python\",\"content\":\"print(1)\"}}}");
  const char *session = json_object_get_string_member (first, "session_id");
  const char *id1 = json_object_get_string_member (first, "id");
  g_autoptr(JsonObject) second = NULL, third = NULL;
  g_autofree char *body = NULL;
  static const struct
  {
    const char *action;
    const char *data;
    guint       status;
    const char *code;
    const char *field;
  } refused[] = {
    { "feedback", NULL, 400, "INVALID_RESPONSE_DATA", "response_data" },
    { "feedback", FEEDBACK (AREA ("Bad Id")), 400, "INVALID_RESPONSE_DATA",
      "response_data.areas_for_improvement[0].id" },
    { "feedback", FEEDBACK (AREA ("dupe-item-01") "," AREA ("dupe-item-01")), 400,
      "INVALID_RESPONSE_DATA", "response_data.areas_for_improvement[1].id" },
    { "feedback", "{\"confidence\":{\"level\":\"low\",\"justification\":\"  \"},\"positive_points\":[],"
      "\"areas_for_improvement\":[],\"general_summary\":\"s\"}", 400, "INVALID_RESPONSE_DATA",
      "response_data.confidence.justification" },
    { "approve", NULL, 400, "INVALID_ACTION_ID", "action_id" },
    { "decline", "{\"message\":\"\"}", 400, "INVALID_RESPONSE_DATA", "response_data.message" },
    { "decline", "{\"message\":7}", 400, "INVALID_RESPONSE_DATA", "response_data.message" },
    { "decline", "{\"reason\":\"busy\"}", 400, "INVALID_RESPONSE_DATA", "response_data.reason" },
    { "decline", "[]", 400, "INVALID_RESPONSE_DATA", "response_data" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr(SrvAnswer) answer = respond (fixture, id1, refused[i].action, refused[i].data);

      g_test_message ("%s %s", refused[i].action, refused[i].data ? refused[i].data : "");
      srv_assert_status (answer, refused[i].status, refused[i].code);
      srv_assert_field (answer, refused[i].field);
    }

  {
    g_autoptr(SrvAnswer) answer = respond (fixture, id1, "feedback",
                                           FEEDBACK (AREA ("scope-aaaa-01") "," AREA ("scope-bbbb-01")));
    srv_assert_status (answer, 200, NULL);
  }

  /* Iteration 2 drops scope-aaaa-01; iteration 3 may not bring it back. */
  body = g_strdup_printf ("{\"session_id\":\"%s\",\"request\":{\"iteration\":2,\"artifact\":"
                          "{\"media_type\":\"text/x-python\",\"content\":\"print(2)\"}}}", session);
  second = post_ok (fixture, body);
  {
    g_autoptr(SrvAnswer) answer = respond (fixture, json_object_get_string_member (second, "id"),
                                           "feedback", FEEDBACK (AREA ("scope-bbbb-01")));
    srv_assert_status (answer, 200, NULL);
  }
  g_free (body);
  body = g_strdup_printf ("{\"session_id\":\"%s\",\"request\":{\"iteration\":3,\"artifact\":"
                          "{\"media_type\":\"text/x-python\",\"content\":\"print(3)\"}}}", session);
  third = post_ok (fixture, body);
  {
    g_autoptr(SrvAnswer) answer = respond (fixture, json_object_get_string_member (third, "id"),
                                           "feedback", FEEDBACK (AREA ("scope-aaaa-01")));

    srv_assert_status (answer, 422, "CONSTRAINT_VIOLATION");
    srv_assert_field (answer, "response_data.areas_for_improvement[0].id");
    srv_assert_message (answer, "cannot be carried over");
  }

  /* Declined: an error Response Object with the person's message. */
  {
    g_autoptr(SrvAnswer) answer = respond (fixture, json_object_get_string_member (third, "id"),
                                           "decline", "{\"message\":\"Not my area.\"}");
    g_autoptr(JsonObject) view = NULL;
    g_autoptr(AtpAfpResponse) response = NULL;

    srv_assert_status (answer, 200, NULL);
    view = get_review (fixture, json_object_get_string_member (third, "id"), "");
    g_assert_cmpstr (json_object_get_string_member (view, "status"), ==, "answered");
    response = response_of (view);
    g_assert_cmpint (response->status, ==, ATP_AFP_STATUS_ERROR);
    g_assert_cmpstr (response->error_code, ==, "REVIEW_DECLINED");
    g_assert_cmpstr (response->error_message, ==, "Not my area.");
    g_assert_cmpint (response->iteration, ==, 3);
  }
}

static void
test_supersede_withdraw_expire (Fixture       *fixture,
                                gconstpointer  data)
{
  g_autoptr(JsonObject) first = post_ok (fixture, "{\"request\":{\"iteration\":1,\"artifact\":"
                                                  "{\"media_type\":\"text/plain\",\"content\":\"a\"}}}");
  const char *session = json_object_get_string_member (first, "session_id");
  const char *id1 = json_object_get_string_member (first, "id");
  g_autoptr(JsonObject) second = NULL, third = NULL, view = NULL;
  g_autoptr(AtpAfpResponse) response = NULL;
  g_autoptr(SrvAnswer) late = NULL, patched = NULL;
  g_autofree char *body = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GDateTime) now = NULL, soon = NULL;
  g_autofree char *deadline = NULL;

  /* A later iteration withdraws the one still waiting. */
  body = g_strdup_printf ("{\"session_id\":\"%s\",\"request\":{\"iteration\":2,\"artifact\":"
                          "{\"media_type\":\"text/plain\",\"content\":\"b\"}}}", session);
  second = post_ok (fixture, body);
  view = get_review (fixture, id1, "");
  g_assert_cmpstr (json_object_get_string_member (view, "status"), ==, "invalidated");
  response = response_of (view);
  g_assert_cmpstr (response->error_code, ==, "REVIEW_WITHDRAWN");
  /* The reason stored with the withdrawal is the error's message. */
  g_assert_cmpstr (response->error_message, ==,
                   "The review was withdrawn before anyone answered it: superseded by iteration 2");
  late = respond (fixture, id1, "feedback", FEEDBACK (AREA ("late-item-01")));
  srv_assert_status (late, 409, "NOTIFICATION_INVALIDATED");

  /* The agent withdraws its review. */
  path = g_strconcat ("/api/v1/afp/reviews/", json_object_get_string_member (second, "id"), NULL);
  patched = srv_request (fixture->server, "PATCH", path, fixture->key,
                         "{\"status\":\"invalidated\",\"reason\":\"not needed\"}");
  srv_assert_status (patched, 200, NULL);
  g_assert_nonnull (strstr (patched->body, "\"status\":\"invalidated\""));
  g_assert_nonnull (strstr (patched->body, "REVIEW_WITHDRAWN"));
  g_assert_nonnull (strstr (patched->body, "answered it: not needed\""));

  /* Nobody reviews before the deadline: the long-poll ends with the expiry.
   * The deadline is taken now, not at the start: the posts and the PATCH
   * above each wait for a commit, and with commits of 600 ms (a disk shared
   * with builds; fsync delayed with LD_PRELOAD) a deadline 1 s from the
   * start had passed when this post came ("that time has passed"). */
  now = g_date_time_new_now_utc ();
  soon = g_date_time_add_seconds (now, 3);
  deadline = g_date_time_format_iso8601 (soon);
  g_free (body);
  body = g_strdup_printf ("{\"session_id\":\"%s\",\"deadline\":\"%s\",\"request\":{\"iteration\":3,"
                          "\"artifact\":{\"media_type\":\"text/plain\",\"content\":\"c\"},"
                          "\"applied_feedback\":{\"items\":[]}}}", session, deadline);
  third = post_ok (fixture, body);
  g_clear_pointer (&view, json_object_unref);
  g_clear_pointer (&response, atp_afp_response_unref);
  view = get_review (fixture, json_object_get_string_member (third, "id"), "?wait=10");
  g_assert_cmpstr (json_object_get_string_member (view, "status"), ==, "expired");
  response = response_of (view);
  g_assert_cmpstr (response->error_code, ==, "REVIEW_EXPIRED");
  g_assert_cmpint (response->iteration, ==, 3);
  g_assert_nonnull (response->ack_items);
  g_assert_cmpuint (response->ack_items->len, ==, 0);
}

static void
test_not_yours (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(JsonObject) first = post_ok (fixture, "{\"request\":{\"iteration\":1,\"artifact\":"
                                                  "{\"media_type\":\"text/plain\",\"content\":\"a\"}}}");
  g_autofree char *path = g_strconcat ("/api/v1/afp/reviews/", json_object_get_string_member (first, "id"),
                                       NULL);
  g_autofree char *atp_path = g_strconcat ("/api/v1/notifications/",
                                           json_object_get_string_member (first, "id"), NULL);
  g_autoptr(SrvAnswer) other = srv_request (fixture->server, "GET", path, fixture->other_key, NULL);
  g_autoptr(SrvAnswer) as_atp = srv_request (fixture->server, "GET", atp_path, fixture->key, NULL);
  g_autoptr(SrvAnswer) missing = srv_request (fixture->server, "GET",
                                              "/api/v1/afp/reviews/5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
                                              fixture->key, NULL);
  g_autoptr(SrvAnswer) method = srv_request (fixture->server, "DELETE", path, fixture->key, NULL);

  srv_assert_status (other, 403, "SERVICE_NOT_OWNER");
  srv_assert_status (as_atp, 404, "NOTIFICATION_NOT_FOUND");
  srv_assert_status (missing, 404, "NOTIFICATION_NOT_FOUND");
  srv_assert_status (method, 405, "METHOD_NOT_ALLOWED");
}

/* The session's latest review damaged (its stored JSON does not read): the
 * next review and the session's GET are 500 NOTIFICATION_UNREADABLE naming
 * it, which no retry mends; they were INTERNAL_ERROR, which triage-ask --afp
 * retried for its whole --retry-for. */
static void
test_damaged_previous (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(JsonObject) first = post_ok (fixture, "{\"request\":{\"iteration\":1,\"artifact\":"
                                                  "{\"media_type\":\"text/plain\",\"content\":\"v1\"}}}");
  const char *session = json_object_get_string_member (first, "session_id");
  const char *id = json_object_get_string_member (first, "id");
  g_autofree char *sql = g_strdup_printf ("UPDATE notifications SET json = '{broken' "
                                          "WHERE id = '%s'", id);
  g_autofree char *body = g_strdup_printf ("{\"session_id\":\"%s\",\"request\":{\"iteration\":2,"
                                           "\"artifact\":{\"media_type\":\"text/plain\","
                                           "\"content\":\"v2\"}}}", session);
  g_autofree char *path = g_strconcat ("/api/v1/afp/sessions/", session, NULL);
  g_autoptr(SrvAnswer) next = NULL, read = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (triage_test_server_stop (fixture->server));
  g_free (srv_run_sql (fixture->server, sql));
  g_assert_true (triage_test_server_restart (fixture->server, &error));
  g_assert_no_error (error);

  next = post_review (fixture, fixture->key, body);
  srv_assert_status (next, 500, "NOTIFICATION_UNREADABLE");
  srv_assert_message (next, id);
  read = srv_request (fixture->server, "GET", path, fixture->key, NULL);
  srv_assert_status (read, 500, "NOTIFICATION_UNREADABLE");
  srv_assert_message (read, id);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/server/afp/session", test_session);
  ADD ("/server/afp/derived-titles", test_derived_titles);
  ADD ("/server/afp/iteration-must-increase", test_iteration_must_increase);
  ADD ("/server/afp/unknown-session", test_unknown_session);
  ADD ("/server/afp/invalid-requests", test_invalid_requests);
  ADD ("/server/afp/bad-deadline-quoted", test_bad_deadline_quoted);
  ADD ("/server/afp/repeated-post", test_repeated_post);
  ADD ("/server/afp/repeated-post-expired", test_repeated_post_expired);
  ADD ("/server/afp/too-large-changes-nothing", test_too_large_changes_nothing);
  ADD ("/server/afp/feedback-checked", test_feedback_checked);
  ADD ("/server/afp/supersede-withdraw-expire", test_supersede_withdraw_expire);
  ADD ("/server/afp/not-yours", test_not_yours);
  ADD ("/server/afp/damaged-previous", test_damaged_previous);
#undef ADD

  return g_test_run ();
}
