/* test-server-request-text.c — text the stores look up or index, alike on both databases
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On PostgreSQL a path or a query parameter that was not UTF-8 once
 * percent-decoded ("/notifications/%FF", "?project=%FF") failed the
 * statement, and the client was told 503 "try again later", where SQLite
 * found nothing (404, an empty page); a NUL byte (%00) cut a parameter short
 * on both. A service's name or an AITP request's id over a third of a
 * PostgreSQL page was refused by its B-tree index: 503 again, where SQLite
 * took it. Now both databases answer alike: 400 naming the parameter or
 * the field, and anything up to 256 characters (of 4 bytes each) is taken.
 * Run on SQLite and again on PostgreSQL (the -pg twin).
 */

#define G_LOG_DOMAIN "test-server-request-text"

#include "server-test-util.h"

#define NOTIFICATION_BODY \
  "{\"context\":{\"title\":\"T\",\"description\":\"D\"}," \
  "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]}"

/* A JSON string of @n characters of 4 bytes each (U+1F916), escaped. */
static char *
wide_text (guint n)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    g_string_append (text, "\\ud83e\\udd16");
  return g_string_free (text, FALSE);
}

static void
test_not_utf8 (SrvTeam       *team,
               gconstpointer  unused)
{
  const struct { const char *path; int who; const char *code, *field, *said; } cases[] = {
    { "/api/v1/notifications/%FF%FE", 0, "INVALID_REQUEST", NULL,
      "The path must be UTF-8 text once percent-decoded: its byte 23 (0xFF)" },
    { "/api/v1/notifications/ab%C3%28", 0, "INVALID_REQUEST", NULL, "its byte 25 (0xC3)" },
    { "/api/v1/client/notifications/%FF", 1, "INVALID_REQUEST", NULL, "The path must be UTF-8" },
    { "/api/v1/client/notifications?project=%FF", 1, "INVALID_PARAMETER", "project",
      "The query parameter 'project' must be UTF-8 text" },
    { "/api/v1/client/notifications?status=pending&service_id=x%FE", 1, "INVALID_PARAMETER",
      "service_id", "its byte 2 (0xFE)" },
    { "/api/v1/client/notifications?project=a%00b", 1, "INVALID_PARAMETER", "project",
      "The query parameter 'project' must not hold a NUL byte (%00)" },
    { "/api/v1/client/notifications?pro%FFject=a", 1, "INVALID_PARAMETER", NULL,
      "A query parameter's name must be UTF-8 text" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *token = cases[i].who == 0 ? team->key : team->alice;
      g_autoptr(SrvAnswer) answer = srv_request (team->server, "GET", cases[i].path, token, NULL);

      g_test_message ("%s", cases[i].path);
      srv_assert_status (answer, 400, cases[i].code);
      if (cases[i].field != NULL)
        srv_assert_field (answer, cases[i].field);
      srv_assert_message (answer, cases[i].said);
    }
}

/* UTF-8 text that is not ASCII is no problem. */
static void
test_utf8_taken (SrvTeam       *team,
                 gconstpointer  unused)
{
  g_autoptr(SrvAnswer) listed = NULL, missing = NULL;

  listed = srv_request (team->server, "GET", "/api/v1/client/notifications?project=caf%C3%A9",
                        team->alice, NULL);
  srv_assert_status (listed, 200, NULL);
  missing = srv_request (team->server, "GET", "/api/v1/notifications/caf%C3%A9", team->key, NULL);
  srv_assert_status (missing, 404, "NOTIFICATION_NOT_FOUND");
}

static void
test_long_keys (SrvTeam       *team,
                gconstpointer  unused)
{
  g_autofree char *longest = wide_text (256), *longer = wide_text (257);
  g_autofree char *taken_name = g_strdup_printf ("{\"name\":\"%s\"}", longest);
  g_autofree char *refused_name = g_strdup_printf ("{\"name\":\"x%s\"}", longest);
  const char *admin = triage_test_server_get_admin_token (team->server);
  g_autoptr(SrvAnswer) service = NULL, too_long = NULL, user = NULL, decision = NULL;
  g_autoptr(SrvAnswer) long_decision = NULL;
  g_autofree char *user_body = g_strdup_printf ("{\"id\":\"carol\",\"name\":\"%s\"}", longer);
  g_autofree char *decision_body = NULL, *long_decision_body = NULL;

  service = srv_request (team->server, "POST", "/api/v1/services", admin, taken_name);
  srv_assert_status (service, 201, NULL);
  too_long = srv_request (team->server, "POST", "/api/v1/services", admin, refused_name);
  srv_assert_status (too_long, 400, "INVALID_FIELD_VALUE");
  srv_assert_field (too_long, "name");
  srv_assert_message (too_long, "name must be at most 256 characters: it has 257");
  user = srv_request (team->server, "POST", "/api/v1/admin/users", admin, user_body);
  srv_assert_status (user, 400, "INVALID_FIELD_VALUE");
  srv_assert_message (user, "name must be at most 256 characters: it has 257");

#define DECISION "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\"," \
                 "\"request_decision\":{\"id\":\"%s\",\"type\":\"confirmation\"," \
                 "\"options\":[{\"id\":\"1\",\"name\":\"Yes\"},{\"id\":\"2\",\"name\":\"No\"}]}}"
  decision_body = g_strdup_printf (DECISION, longest);
  long_decision_body = g_strdup_printf (DECISION, longer);
#undef DECISION
  decision = srv_request (team->server, "POST", "/api/v1/aitp/decisions", team->key,
                          decision_body);
  srv_assert_status (decision, 201, NULL);
  long_decision = srv_request (team->server, "POST", "/api/v1/aitp/decisions", team->key,
                               long_decision_body);
  srv_assert_status (long_decision, 400, "INVALID_FIELD_VALUE");
  srv_assert_field (long_decision, "request_decision.id");
  srv_assert_message (long_decision, "must be at most 256 characters, got 257");
}

/* The local service's headers name a service the store keeps. (libsoup
 * makes their bytes that are not UTF-8 U+FFFD.) */
static void
test_local_headers (void)
{
  TriageTestServerOptions options = { .unix_socket = TRUE };
  g_autoptr(GError) error = NULL;
  g_autoptr(TriageTestServer) server = triage_test_server_new (&options, &error);
  const char * const headers[] = { "X-Triage-Service", "X-Triage-Service-Name" };
  g_autofree char *longest = g_strnfill (256, 'b'), *longer = g_strnfill (257, 'b');
  g_autofree char *url = NULL;

  g_assert_no_error (error);
  url = g_strconcat (triage_test_server_get_url (server), "/api/v1/notifications", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (headers); i++)
    {
      g_autoptr(SoupMessage) refused = soup_message_new ("POST", url);
      g_autoptr(SoupMessage) taken = soup_message_new ("POST", url);
      g_autoptr(SrvAnswer) refused_answer = NULL, taken_answer = NULL;
      g_autofree char *said = g_strdup_printf ("The header %s must be at most 256 characters: "
                                               "it has 257", headers[i]);

      soup_message_headers_replace (soup_message_get_request_headers (refused), headers[i],
                                    longer);
      refused_answer = srv_send (server, refused, NULL, NOTIFICATION_BODY);
      srv_assert_status (refused_answer, 400, "INVALID_REQUEST");
      srv_assert_message (refused_answer, said);
      soup_message_headers_replace (soup_message_get_request_headers (taken), headers[i],
                                    longest);
      taken_answer = srv_send (server, taken, NULL, NOTIFICATION_BODY);
      srv_assert_status (taken_answer, 201, NULL);
    }
  g_assert_true (triage_test_server_stop (server));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, SrvTeam, NULL, srv_team_setup, func, srv_team_teardown)
  ADD ("/server/request-text/not-utf8", test_not_utf8);
  ADD ("/server/request-text/utf8-taken", test_utf8_taken);
  ADD ("/server/request-text/long-keys", test_long_keys);
#undef ADD
  g_test_add_func ("/server/request-text/local-headers", test_local_headers);
  return g_test_run ();
}
