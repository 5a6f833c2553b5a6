/* test-server-stored-rules.c — requests the server stored before a rule of
 * what is submitted was added: still read, followed and answered, and a retry
 * of one gets its first answer, while a new one that breaks the rule is refused
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-server-stored-rules"

#include "server-test-util.h"

#include "atp-aitp.h"

/* Rewrites request @id's stored body and envelope, @from to @to, as a server
 * before the rule stored it; the server restarted reads them from the file. */
static void
store_as_before (SrvTeam    *team,
                 const char *id,
                 const char *from,
                 const char *to)
{
  g_autofree char *sql = g_strdup_printf ("UPDATE notifications SET body = replace (body, '%s', '%s'), "
                                          "json = replace (json, '%s', '%s') WHERE id = '%s'",
                                          from, to, from, to, id);
  g_autoptr(GError) error = NULL;

  g_assert_true (triage_test_server_stop (team->server));
  g_free (srv_run_sql (team->server, sql));
  g_assert_true (triage_test_server_restart (team->server, &error));
  g_assert_no_error (error);
}

#define AFP_ID "3b6f1c2d-9e8a-4f7b-8c5d-1a2b3c4d5e6f"

/* An AFP review whose artifact is typed as all of text (refused since 4d3051b):
 * read back, its session followed, its retry answered as first. */
static void
test_afp_range (SrvTeam       *team,
                gconstpointer  data)
{
  const char *plain = "{\"id\":\"" AFP_ID "\",\"request\":{\"iteration\":1,\"artifact\":"
                      "{\"media_type\":\"text/plain\",\"content\":\"v1\"}}}";
  const char *range = "{\"id\":\"" AFP_ID "\",\"request\":{\"iteration\":1,\"artifact\":"
                      "{\"media_type\":\"text/*\",\"content\":\"v1\"}}}";
  g_autoptr(SrvAnswer) first = srv_request (team->server, "POST", "/api/v1/afp/reviews",
                                            team->key, plain);
  g_autoptr(SrvAnswer) read = NULL, again = NULL, fresh = NULL, declined = NULL, next = NULL;
  g_autoptr(JsonObject) answer = NULL, view = NULL;
  g_autofree char *next_body = NULL;

  srv_assert_status (first, 201, NULL);
  answer = srv_parse_object (first->body);
  store_as_before (team, AFP_ID, "text/plain", "text/*");

  /* The agent's poll reads it pending (its response was "The stored review
   * cannot be read"). */
  read = srv_request (team->server, "GET", "/api/v1/afp/reviews/" AFP_ID, team->key, NULL);
  srv_assert_status (read, 200, NULL);
  view = srv_parse_object (read->body);
  g_assert_cmpstr (json_object_get_string_member (view, "status"), ==, "pending");
  g_assert_false (json_object_has_member (view, "response"));

  /* Its retry after the upgrade: the first answer, not 400. */
  again = srv_request (team->server, "POST", "/api/v1/afp/reviews", team->key, range);
  srv_assert_status (again, 201, NULL);
  g_assert_cmpstr (again->body, ==, first->body);

  /* A new review so typed is refused. */
  fresh = srv_request (team->server, "POST", "/api/v1/afp/reviews", team->key,
                       "{\"request\":{\"iteration\":1,\"artifact\":{\"media_type\":\"text/*\","
                       "\"content\":\"v1\"}}}");
  srv_assert_status (fresh, 400, "INVALID_FIELD_VALUE");
  srv_assert_message (fresh, "not a range");

  /* The person answers it (it was refused as unreadable). */
  declined = srv_request (team->server, "POST", "/api/v1/client/respond", team->alice,
                          "{\"notification_id\":\"" AFP_ID "\",\"action_id\":\"decline\","
                          "\"response_data\":{\"message\":\"Later.\"}}");
  srv_assert_status (declined, 200, NULL);

  /* The session's next iteration reads it as its previous review (it was
   * 500 NOTIFICATION_UNREADABLE). */
  next_body = g_strdup_printf ("{\"session_id\":\"%s\",\"request\":{\"iteration\":2,\"artifact\":"
                               "{\"media_type\":\"text/plain\",\"content\":\"v2\"}}}",
                               json_object_get_string_member (answer, "session_id"));
  next = srv_request (team->server, "POST", "/api/v1/afp/reviews", team->key, next_body);
  srv_assert_status (next, 201, NULL);
}

#define ATP_ID "6c2e8f4a-1b3d-4e5f-9a7b-2c4d6e8f0a1b"
#define ATP_BODY(title, same) "{\"id\":\"" ATP_ID "\"," ATP_REST (title, same)
#define ATP_REST(title, same) \
  "\"context\":{\"title\":\"" title "\",\"description\":\"D\"}," \
  "\"actions\":[{\"id\":\"go\",\"label\":\"Go?\",\"response_type\":\"binary\"," \
  "\"options\":{\"true_label\":\"Same\",\"false_label\":\"" same "\"}}]}"

/* An ATP notification titled with U+200B alone, its binary labels "Same" and
 * "same" (refused since 0c01005): its retry gets its first answer; the same
 * body under a new id, or another body under its id, is refused. */
static void
test_atp_retry (SrvTeam       *team,
                gconstpointer  data)
{
  g_autoptr(SrvAnswer) first = srv_request (team->server, "POST", "/api/v1/notifications",
                                            team->key, ATP_BODY ("Deploy", "Other"));
  g_autoptr(SrvAnswer) again = NULL, fresh = NULL, other = NULL;

  srv_assert_status (first, 201, NULL);
  store_as_before (team, ATP_ID, "Deploy", "\\u200b");
  store_as_before (team, ATP_ID, "Other", "same");

  again = srv_request (team->server, "POST", "/api/v1/notifications", team->key,
                       ATP_BODY ("\\u200b", "same"));
  srv_assert_status (again, 201, NULL);
  g_assert_cmpstr (again->body, ==, first->body);

  fresh = srv_request (team->server, "POST", "/api/v1/notifications", team->key,
                       "{" ATP_REST ("Deploy", "same"));
  srv_assert_status (fresh, 400, "MALFORMED_ACTION");
  other = srv_request (team->server, "POST", "/api/v1/notifications", team->key,
                       ATP_BODY ("\\u200b", "Other"));
  srv_assert_status (other, 400, "INVALID_FIELD_VALUE");
  srv_assert_message (other, "context.title");
}

#define AFP_TITLED_ID "8d1e3f5a-7b9c-4d2e-a6f8-0b1c3d5e7f9a"
#define AFP_TITLED(title) \
  "{\"id\":\"" AFP_TITLED_ID "\",\"title\":\"" title "\",\"request\":{\"iteration\":1," \
  "\"artifact\":{\"media_type\":\"text/plain\",\"content\":\"v1\"}}}"

/* An AFP review titled with U+200B alone (refused since ATP's context.title
 * rule reached the review's title): its retry gets its first answer, a new
 * one so titled is refused. */
static void
test_afp_title (SrvTeam       *team,
                gconstpointer  data)
{
  g_autoptr(SrvAnswer) first = srv_request (team->server, "POST", "/api/v1/afp/reviews",
                                            team->key, AFP_TITLED ("Plan"));
  g_autoptr(SrvAnswer) again = NULL, fresh = NULL;

  srv_assert_status (first, 201, NULL);
  store_as_before (team, AFP_TITLED_ID, "Plan", "\\u200b");

  again = srv_request (team->server, "POST", "/api/v1/afp/reviews", team->key,
                       AFP_TITLED ("\\u200b"));
  srv_assert_status (again, 201, NULL);
  g_assert_cmpstr (again->body, ==, first->body);

  fresh = srv_request (team->server, "POST", "/api/v1/afp/reviews", team->key,
                       "{\"title\":\"\\u200b\",\"request\":{\"iteration\":1,\"artifact\":"
                       "{\"media_type\":\"text/plain\",\"content\":\"v1\"}}}");
  srv_assert_status (fresh, 400, "INVALID_FIELD_VALUE");
  srv_assert_field (fresh, "title");
}

#define AITP_BODY(options) \
  "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"request_decision\":" \
  "{\"id\":\"many\",\"type\":\"checkbox\",\"options\":[" options "]}}"

/* An AITP decision of more options than a person chooses among (refused
 * since the bound ATP_AITP_MAX_OPTIONS): its retry gets its first answer,
 * the person answers it, a new one so long is refused. */
static void
test_aitp_options (SrvTeam       *team,
                   gconstpointer  data)
{
  g_autoptr(SrvAnswer) first = srv_request (team->server, "POST", "/api/v1/aitp/decisions",
                                            team->key, AITP_BODY ("{\"id\":\"o0\"}"));
  g_autoptr(SrvAnswer) again = NULL, answered = NULL, fresh = NULL;
  g_autoptr(JsonObject) created = NULL;
  g_autoptr(GString) options = g_string_new ("{\"id\":\"o0\"}");
  g_autofree char *body = NULL, *fresh_body = NULL, *respond = NULL;
  const char *id;

  srv_assert_status (first, 201, NULL);
  created = srv_parse_object (first->body);
  id = json_object_get_string_member (created, "id");
  for (guint i = 1; i <= ATP_AITP_MAX_OPTIONS; i++)
    g_string_append_printf (options, ",{\"id\":\"o%u\"}", i);
  store_as_before (team, id, "{\"id\":\"o0\"}", options->str);

  body = g_strdup_printf (AITP_BODY ("%s"), options->str);
  again = srv_request (team->server, "POST", "/api/v1/aitp/decisions", team->key, body);
  srv_assert_status (again, 201, NULL);
  g_assert_cmpstr (again->body, ==, first->body);

  respond = g_strdup_printf ("{\"notification_id\":\"%s\",\"response_data\":"
                             "{\"options\":[{\"id\":\"o%d\"}]}}", id, ATP_AITP_MAX_OPTIONS);
  answered = srv_request (team->server, "POST", "/api/v1/client/respond", team->alice, respond);
  srv_assert_status (answered, 200, NULL);

  fresh_body = g_strdup_printf ("{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\","
                                "\"request_decision\":{\"id\":\"fresh\",\"options\":[%s]}}",
                                options->str);
  fresh = srv_request (team->server, "POST", "/api/v1/aitp/decisions", team->key, fresh_body);
  srv_assert_status (fresh, 400, "INVALID_FIELD_VALUE");
  srv_assert_field (fresh, "request_decision.options");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, SrvTeam, NULL, srv_team_setup, func, srv_team_teardown)
  ADD ("/server/stored-rules/afp-range", test_afp_range);
  ADD ("/server/stored-rules/atp-retry", test_atp_retry);
  ADD ("/server/stored-rules/afp-title", test_afp_title);
  ADD ("/server/stored-rules/aitp-options", test_aitp_options);
#undef ADD

  return g_test_run ();
}
