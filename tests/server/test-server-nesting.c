/* test-server-nesting.c — what an agent or a person sends is held to the
 * nesting the envelope leaves room for: an AITP message that JSON's 64
 * levels allow, carried one level down in the envelope and two more in a
 * client's list page, was stored and then could not be read, by the clients
 * (the list page, the stream) nor by the server answering it; an ATP
 * notification 63 or 64 deep made every list page holding it unreadable
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-server-nesting"

#include "server-test-util.h"
#include "atp.h"

/* @levels objects, one inside the other: {"a":{"a":…1…}} */
static char *
nested (guint levels)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < levels; i++)
    g_string_append (text, "{\"a\":");
  g_string_append_c (text, '1');
  for (guint i = 0; i < levels; i++)
    g_string_append_c (text, '}');
  return g_string_free (text, FALSE);
}

/* @prefix then ".a" @count times: the path of the object nested @count + 1 deep under it. */
static char *
nested_path (const char *prefix,
             guint       count)
{
  GString *path = g_string_new (prefix);

  for (guint i = 0; i < count; i++)
    g_string_append (path, ".a");
  return g_string_free (path, FALSE);
}

/* Reads @body as a client of Triage does (libatp's JSON rules, 64 levels). */
static void
assert_client_reads (const char *body)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = atp_json_parse (body, -1, 0, &error);

  g_assert_no_error (error);
  g_assert_nonnull (node);
}

/* Alice's list page of @query, read as her client reads it; its total. */
static gint64
client_list (SrvTeam    *fixture,
             const char *query)
{
  g_autofree char *path = g_strconcat ("/api/v1/client/notifications", query, NULL);
  g_autoptr(SrvAnswer) answer = srv_request (fixture->server, "GET", path, fixture->alice, NULL);
  g_autoptr(JsonObject) object = NULL;

  srv_assert_status (answer, 200, NULL);
  assert_client_reads (answer->body);
  object = srv_parse_object (answer->body);
  return json_object_get_int_member (json_object_get_object_member (object, "pagination"),
                                     "total_count");
}

static SrvAnswer *
respond (SrvTeam    *fixture,
         const char *id,
         const char *action_id,
         const char *data)
{
  g_autofree char *body = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"%s\","
                                           "\"response_data\":%s}", id, action_id, data);

  return srv_request (fixture->server, "POST", "/api/v1/client/respond", fixture->alice, body);
}

/* The message nests 4 levels down to an option's unknown member x: with x
 * 58 deep it is 62 deep, one more than the envelope's aitp member may be. */
static void
test_aitp (SrvTeam       *fixture,
           gconstpointer  data)
{
  static const char * const format =
    "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"request_decision\":"
    "{\"id\":\"%s\",\"options\":[{\"id\":\"a\",\"x\":%s}]}}";
  g_autofree char *deep = nested (58), *fits = nested (57);
  g_autofree char *too_deep = g_strdup_printf (format, "deep", deep);
  g_autofree char *deepest = g_strdup_printf (format, "deepest", fits);
  g_autofree char *field = nested_path ("request_decision.options[0].x", 57);
  g_autofree char *answer_deep = nested (60), *answer_fits = nested (59);
  g_autofree char *answer_field = nested_path ("response_data.x", 59);
  g_autofree char *refused_answer = NULL, *taken_answer = NULL, *path = NULL, *client = NULL;
  g_autoptr(SrvAnswer) refused = NULL, created = NULL, late = NULL, taken = NULL, view = NULL;
  g_autoptr(SrvAnswer) envelope = NULL;
  g_autoptr(JsonObject) object = NULL;
  g_autoptr(AtpNotification) read = NULL;
  g_autoptr(GError) error = NULL;
  const char *id;

  refused = srv_request (fixture->server, "POST", "/api/v1/aitp/decisions", fixture->key, too_deep);
  srv_assert_status (refused, 400, "INVALID_FIELD_VALUE");
  srv_assert_field (refused, field);
  srv_assert_message (refused, "nested more than 61 levels deep");
  g_assert_cmpint (client_list (fixture, "?protocols=aitp"), ==, 0);

  /* The deepest taken is read by the clients and answered. */
  created = srv_request (fixture->server, "POST", "/api/v1/aitp/decisions", fixture->key, deepest);
  srv_assert_status (created, 201, NULL);
  object = srv_parse_object (created->body);
  id = json_object_get_string_member (object, "id");
  g_assert_cmpint (client_list (fixture, "?protocols=aitp"), ==, 1);

  /* An answer keeps the decision's unknown members, and is stored as the
   * envelope's response.response_data. */
  refused_answer = g_strdup_printf ("{\"options\":[{\"id\":\"a\"}],\"x\":%s}", answer_deep);
  late = respond (fixture, id, "decision", refused_answer);
  srv_assert_status (late, 400, "INVALID_RESPONSE_DATA");
  srv_assert_field (late, answer_field);
  taken_answer = g_strdup_printf ("{\"options\":[{\"id\":\"a\"}],\"x\":%s}", answer_fits);
  taken = respond (fixture, id, "decision", taken_answer);
  srv_assert_status (taken, 200, NULL);

  path = g_strconcat ("/api/v1/aitp/decisions/", id, NULL);
  view = srv_request (fixture->server, "GET", path, fixture->key, NULL);
  srv_assert_status (view, 200, NULL);
  assert_client_reads (view->body);
  g_assert_cmpint (client_list (fixture, "?protocols=aitp&status=responded"), ==, 1);
  client = g_strconcat ("/api/v1/client/notifications/", id, NULL);
  envelope = srv_request (fixture->server, "GET", client, fixture->alice, NULL);
  srv_assert_status (envelope, 200, NULL);
  read = atp_notification_new_from_data (envelope->body, -1, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
}

/* A feedback with an x- member of its own: the %s. */
#define FEEDBACK_WITH \
  "{\"confidence\":{\"level\":\"high\",\"justification\":\"Read it all.\"}," \
  "\"positive_points\":[],\"areas_for_improvement\":[{\"id\":\"scope-definition-01\"," \
  "\"aspect\":\"Scope\",\"description\":\"Vague.\",\"recommendation\":\"List the parts.\"}]," \
  "\"general_summary\":\"Fine.\",\"x-deep\":%s}"

/* The Request Object is the envelope's afp.request (two levels down), and a
 * feedback the session's next afp.latest_feedback.feedback (three). */
static void
test_afp (SrvTeam       *fixture,
          gconstpointer  data)
{
  static const char * const format =
    "{%s\"request\":{\"iteration\":%d,\"artifact\":{\"media_type\":\"application/json\","
    "\"content\":%s}}}";
  g_autofree char *deep = nested (59), *fits = nested (58);
  g_autofree char *too_deep = g_strdup_printf (format, "", 1, deep);
  g_autofree char *deepest = g_strdup_printf (format, "", 1, fits);
  g_autofree char *field = nested_path ("request.artifact.content", 58);
  g_autofree char *feedback_deep = nested (59), *feedback_fits = nested (58);
  g_autofree char *feedback_field = nested_path ("response_data.x-deep", 58);
  g_autofree char *refused_feedback = NULL, *taken_feedback = NULL;
  g_autofree char *next = NULL, *session = NULL, *id = NULL;
  g_autoptr(SrvAnswer) refused = NULL, created = NULL, late = NULL, taken = NULL, second = NULL;
  g_autoptr(SrvAnswer) declined = NULL;
  g_autoptr(JsonObject) object = NULL, next_object = NULL;

  refused = srv_request (fixture->server, "POST", "/api/v1/afp/reviews", fixture->key, too_deep);
  srv_assert_status (refused, 400, "INVALID_FIELD_VALUE");
  srv_assert_field (refused, field);
  srv_assert_message (refused, "nested more than 60 levels deep");
  g_assert_cmpint (client_list (fixture, "?protocols=afp"), ==, 0);

  created = srv_request (fixture->server, "POST", "/api/v1/afp/reviews", fixture->key, deepest);
  srv_assert_status (created, 201, NULL);
  object = srv_parse_object (created->body);
  id = g_strdup (json_object_get_string_member (object, "id"));
  session = g_strdup_printf ("\"session_id\":\"%s\",",
                             json_object_get_string_member (object, "session_id"));
  g_assert_cmpint (client_list (fixture, "?protocols=afp"), ==, 1);

  refused_feedback = g_strdup_printf (FEEDBACK_WITH, feedback_deep);
  late = respond (fixture, id, "feedback", refused_feedback);
  srv_assert_status (late, 400, "INVALID_RESPONSE_DATA");
  srv_assert_field (late, feedback_field);
  taken_feedback = g_strdup_printf (FEEDBACK_WITH, feedback_fits);
  taken = respond (fixture, id, "feedback", taken_feedback);
  srv_assert_status (taken, 200, NULL);

  /* The next iteration carries both the previous artifact and that
   * feedback: read by the clients, and answered. */
  next = g_strdup_printf (format, session, 2, fits);
  second = srv_request (fixture->server, "POST", "/api/v1/afp/reviews", fixture->key, next);
  srv_assert_status (second, 201, NULL);
  next_object = srv_parse_object (second->body);
  g_assert_cmpint (client_list (fixture, "?protocols=afp"), ==, 2);
  declined = respond (fixture, json_object_get_string_member (next_object, "id"), "decline", "{}");
  srv_assert_status (declined, 200, NULL);
}

/* An ATP notification is the envelope itself: its context.metadata (level 3)
 * 60 deep makes it 62, the most a list page holds. */
static void
test_atp (SrvTeam       *fixture,
          gconstpointer  data)
{
  static const char * const format =
    "{\"id\":\"%s\",\"version\":\"1.0\",\"timestamp\":\"2026-01-01T00:00:00Z\","
    "\"service\":{\"id\":\"s\",\"name\":\"agent\"},\"context\":{\"title\":\"Deploy?\","
    "\"description\":\"D\",\"metadata\":%s},\"actions\":[{\"id\":\"ok\",\"label\":\"OK\","
    "\"response_type\":\"simple\"}]}";
  g_autofree char *deep = nested (61), *fits = nested (60);
  g_autofree char *too_deep = g_strdup_printf (format, "0d3c6a1e-5b7f-4c2d-9e8a-1f2b3c4d5e6f", deep);
  g_autofree char *deepest = g_strdup_printf (format, "7a9b1c3d-5e7f-4a2b-8c4d-6e8f0a1b2c3d", fits);
  g_autoptr(SrvAnswer) refused = NULL, created = NULL;

  refused = srv_request (fixture->server, "POST", "/api/v1/notifications", fixture->key, too_deep);
  srv_assert_status (refused, 400, "INVALID_FIELD_VALUE");
  srv_assert_message (refused, "context.metadata.a");
  srv_assert_message (refused, "nested more than 62 levels deep");
  g_assert_cmpint (client_list (fixture, ""), ==, 0);

  created = srv_request (fixture->server, "POST", "/api/v1/notifications", fixture->key, deepest);
  srv_assert_status (created, 201, NULL);
  g_assert_cmpint (client_list (fixture, ""), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/server/nesting/aitp", SrvTeam, NULL, srv_team_setup, test_aitp, srv_team_teardown);
  g_test_add ("/server/nesting/afp", SrvTeam, NULL, srv_team_setup, test_afp, srv_team_teardown);
  g_test_add ("/server/nesting/atp", SrvTeam, NULL, srv_team_setup, test_atp, srv_team_teardown);

  return g_test_run ();
}
