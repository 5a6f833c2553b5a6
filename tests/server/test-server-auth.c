/* test-server-auth.c — the Authorization header as RFC 7235 and RFC 6750 let
 * clients write it, the challenge of every 401, and a request with two tokens
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "bearer TOKEN" was taken, but "Bearer  TOKEN" (two spaces) and
 * "Bearer<TAB>TOKEN" were 401: the scheme is case-insensitive and one or more
 * spaces may come before the token. A 401 carried no WWW-Authenticate, which
 * RFC 7235 §3.1 requires. And with two Authorization headers libsoup read the
 * last, where a proxy in front may have checked the first: now 400, neither
 * taken. Spaces and tabs after the token were always dropped (by libsoup):
 * kept so. The header is read before the database: SQLite only.
 */

#define G_LOG_DOMAIN "test-server-auth"

#include "server-test-util.h"

/* @method @path sent with each of @authorizations (NULL-terminated) as an
 * Authorization header of its own (none when the first is NULL). */
static SrvAnswer *
send_with (TriageTestServer   *server,
           const char         *method,
           const char         *path,
           const char * const *authorizations,
           const char         *body)
{
  g_autofree char *uri = g_strconcat (triage_test_server_get_url (server), path, NULL);
  g_autoptr(SoupMessage) msg = soup_message_new (method, uri);

  for (guint i = 0; authorizations[i] != NULL; i++)
    soup_message_headers_append (soup_message_get_request_headers (msg), "Authorization",
                                 authorizations[i]);
  return srv_send (server, msg, NULL, body);
}

/* @method @path with "Authorization: @scheme@token" (@scheme ends with the
 * spaces before the token). */
static SrvAnswer *
send_form (TriageTestServer *server,
           const char       *method,
           const char       *path,
           const char       *scheme,
           const char       *token,
           const char       *body)
{
  g_autofree char *authorization = g_strconcat (scheme, token, NULL);
  const char * const authorizations[] = { authorization, NULL };

  return send_with (server, method, path, authorizations, body);
}

static void
assert_challenge (SrvAnswer  *answer,
                  const char *challenge)
{
  g_assert_cmpstr (soup_message_headers_get_one (answer->headers, "WWW-Authenticate"), ==,
                   challenge);
}

/* The scheme in any case, one or more spaces or tabs before the token: the
 * admin token, a user token and a service key are each taken. */
static void
test_bearer_forms (SrvTeam       *team,
                   gconstpointer  data)
{
  const char * const forms[] = { "Bearer ", "bearer ", "BEARER ", "Bearer  ", "bEaReR   ",
                                 "Bearer\t" };
  TriageTestServer *server = team->server;
  const char *admin = triage_test_server_get_admin_token (server);

  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    {
      g_autofree char *body = g_strdup_printf ("{\"id\":\"user%u\"}", i);
      g_autoptr(SrvAnswer) created = NULL, listed = NULL, looked_up = NULL;

      g_test_message ("Authorization: %sTOKEN", forms[i]);
      created = send_form (server, "POST", "/api/v1/admin/users", forms[i], admin, body);
      srv_assert_status (created, 201, NULL);
      listed = send_form (server, "GET", "/api/v1/client/notifications", forms[i], team->alice,
                          NULL);
      srv_assert_status (listed, 200, NULL);
      /* Taken: the service is told the request is not there, not 401. */
      looked_up = send_form (server, "GET",
                             "/api/v1/notifications/00000000-0000-4000-8000-000000000000",
                             forms[i], team->key, NULL);
      srv_assert_status (looked_up, 404, "NOTIFICATION_NOT_FOUND");
    }
}

/* The status of GET @path sent with "Authorization: @authorization" as the
 * bytes say, on a connection of the test's own (libsoup's client might tidy
 * the header's whitespace). */
static guint
raw_status (TriageTestServer *server,
            const char       *path,
            const char       *authorization)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GDataInputStream) in = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *request = g_strdup_printf ("GET %s HTTP/1.1\r\nHost: localhost\r\n"
                                              "Authorization: %s\r\nConnection: close\r\n\r\n",
                                              path, authorization);
  g_autofree char *status_line = NULL;

  connection = g_socket_client_connect_to_uri (client, triage_test_server_get_url (server), 80,
                                               NULL, &error);
  g_assert_no_error (error);
  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (connection)), request,
                             strlen (request), NULL, NULL, &error);
  g_assert_no_error (error);
  in = g_data_input_stream_new (g_io_stream_get_input_stream (G_IO_STREAM (connection)));
  status_line = g_data_input_stream_read_line (in, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (status_line, "HTTP/1.1 "));
  return (guint) g_ascii_strtoull (status_line + strlen ("HTTP/1.1 "), NULL, 10);
}

/* Whitespace around the header's value is not part of it (RFC 9110 §5.5):
 * a token followed by spaces or a tab, or preceded by more, is taken. */
static void
test_surrounding_whitespace (SrvTeam       *team,
                             gconstpointer  data)
{
  const struct
  {
    const char *before, *after;
  } forms[] = { { "Bearer ", "  " }, { "Bearer ", "\t" }, { "  Bearer ", " \t " } };

  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    {
      g_autofree char *authorization = g_strconcat (forms[i].before, team->alice, forms[i].after,
                                                    NULL);

      g_test_message ("Authorization: \"%sTOKEN%s\"", forms[i].before, forms[i].after);
      g_assert_cmpuint (raw_status (team->server, "/api/v1/client/notifications", authorization),
                        ==, 200);
    }
}

/* Every 401 names the scheme (RFC 7235 §3.1), with error="invalid_token"
 * when a token was sent (RFC 6750 §3); a token of the wrong kind is 403
 * with error="insufficient_scope". ATP's codes are kept. */
static void
test_challenge (SrvTeam       *team,
                gconstpointer  data)
{
  TriageTestServer *server = team->server;
  const char *bare = "Bearer realm=\"triage\"";
  const char *invalid = "Bearer realm=\"triage\", error=\"invalid_token\"";
  g_autoptr(SrvAnswer) none = NULL, basic = NULL, empty = NULL, admin = NULL, user = NULL;
  g_autoptr(SrvAnswer) service = NULL, stream = NULL, metrics = NULL, wrong_kind = NULL;

  none = srv_request (server, "POST", "/api/v1/admin/users", NULL, "{\"id\":\"x\"}");
  srv_assert_status (none, 401, "AUTH_INVALID_TOKEN");
  assert_challenge (none, bare);
  /* Another scheme, or the scheme alone (a script's unset variable): no
   * Bearer token was sent, and the message says so. */
  basic = send_form (server, "GET", "/api/v1/client/notifications", "Basic ", "YTpi", NULL);
  srv_assert_status (basic, 401, "AUTH_INVALID_TOKEN");
  assert_challenge (basic, bare);
  srv_assert_message (basic, "holds none (it should read \"Bearer TOKEN\")");
  empty = send_form (server, "POST", "/api/v1/admin/users", "Bearer ", "", "{\"id\":\"x\"}");
  srv_assert_status (empty, 401, "AUTH_INVALID_TOKEN");
  assert_challenge (empty, bare);
  srv_assert_message (empty, "A valid admin token is required; the Authorization header holds none");
  admin = srv_request (server, "POST", "/api/v1/admin/users", "adm_wrong", "{\"id\":\"x\"}");
  srv_assert_status (admin, 401, "AUTH_INVALID_TOKEN");
  assert_challenge (admin, invalid);
  user = srv_request (server, "GET", "/api/v1/client/notifications", "ut_wrong", NULL);
  srv_assert_status (user, 401, "AUTH_INVALID_TOKEN");
  assert_challenge (user, invalid);
  service = srv_request (server, "POST", "/api/v1/notifications", "sk_wrong", "{}");
  srv_assert_status (service, 401, "AUTH_INVALID_TOKEN");
  assert_challenge (service, invalid);
  /* The stream's handshake, its token in the URL. */
  stream = srv_request (server, "GET", "/api/v1/client/stream?token=ut_wrong", NULL, NULL);
  srv_assert_status (stream, 401, "AUTH_INVALID_TOKEN");
  assert_challenge (stream, invalid);
  metrics = srv_request (server, "GET", "/metrics", "adm_wrong", NULL);
  srv_assert_status (metrics, 401, "AUTH_INVALID_TOKEN");
  assert_challenge (metrics, invalid);
  wrong_kind = srv_request (server, "GET", "/api/v1/client/notifications", team->key, NULL);
  srv_assert_status (wrong_kind, 403, "AUTH_INSUFFICIENT_PERMISSIONS");
  assert_challenge (wrong_kind, "Bearer realm=\"triage\", error=\"insufficient_scope\"");
}

/* Two Authorization headers, the right token in either: 400, neither taken,
 * on every kind of endpoint (the streams and /metrics have handlers of their
 * own). */
static void
test_two_headers (SrvTeam       *team,
                  gconstpointer  data)
{
  TriageTestServer *server = team->server;
  g_autofree char *admin = g_strconcat ("Bearer ", triage_test_server_get_admin_token (server),
                                        NULL);
  g_autofree char *alice = g_strconcat ("Bearer ", team->alice, NULL);
  g_autofree char *key = g_strconcat ("Bearer ", team->key, NULL);
  const struct
  {
    const char *method, *path, *right, *body;
  } endpoints[] = {
    { "POST", "/api/v1/admin/users", admin, "{\"id\":\"carol\"}" },
    { "GET", "/metrics", admin, NULL },
    { "GET", "/api/v1/client/notifications", alice, NULL },
    { "GET", "/api/v1/client/stream", alice, NULL },
    { "GET", "/api/v1/client/events", alice, NULL },
    { "GET", "/api/v1/notifications/00000000-0000-4000-8000-000000000000", key, NULL },
  };
  g_autoptr(SrvAnswer) carol = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (endpoints); i++)
    for (guint first = 0; first < 2; first++)
      {
        const char * const authorizations[] = {
          first == 0 ? endpoints[i].right : "Bearer wrong",
          first == 0 ? "Bearer wrong" : endpoints[i].right,
          NULL
        };
        g_autoptr(SrvAnswer) answer = NULL;

        g_test_message ("%s %s, the right token %s", endpoints[i].method, endpoints[i].path,
                        first == 0 ? "first" : "last");
        answer = send_with (server, endpoints[i].method, endpoints[i].path, authorizations,
                            endpoints[i].body);
        srv_assert_status (answer, 400, "INVALID_REQUEST");
        srv_assert_message (answer, "more than one Authorization header");
      }
  /* Carol was not made by either. */
  carol = srv_request (server, "POST", "/api/v1/admin/users",
                       triage_test_server_get_admin_token (server), "{\"id\":\"carol\"}");
  srv_assert_status (carol, 201, NULL);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/server/auth/bearer-forms", SrvTeam, NULL, srv_team_setup, test_bearer_forms,
              srv_team_teardown);
  g_test_add ("/server/auth/surrounding-whitespace", SrvTeam, NULL, srv_team_setup,
              test_surrounding_whitespace, srv_team_teardown);
  g_test_add ("/server/auth/challenge", SrvTeam, NULL, srv_team_setup, test_challenge,
              srv_team_teardown);
  g_test_add ("/server/auth/two-headers", SrvTeam, NULL, srv_team_setup, test_two_headers,
              srv_team_teardown);
  return g_test_run ();
}
