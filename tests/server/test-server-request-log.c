/* test-server-request-log.c — the request log: a turn's lines written together, JSON lines
 * that name who and what but never a token or a body
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * docs/protocol.md: the request lines a turn of the server's main loop
 * makes go out together as the turn ends (one write under load, not one a
 * request). Each request still has its whole line, the text GLib's writer
 * makes, while the server keeps running; any other message comes after the
 * lines before it. With --log-format json, one object a request: its id,
 * route, status, duration and caller, never a token (wherever it was sent)
 * nor a body.
 */

#define G_LOG_DOMAIN "test-server-request-log"

#include <glib/gstdio.h>

#include "server-test-util.h"

#define BURST 30

/* The log's lines of POST /api/v1/notifications 201. */
static guint
count_posts (const char *log,
             GPtrArray  *lines)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) all = NULL;

  g_ptr_array_set_size (lines, 0);
  if (!g_file_get_contents (log, &text, NULL, NULL))
    return 0;
  all = g_strsplit (text, "\n", -1);
  for (guint i = 0; all[i] != NULL; i++)
    if (strstr (all[i], "POST /api/v1/notifications 201 ") != NULL)
      g_ptr_array_add (lines, g_strdup (all[i]));
  return lines->len;
}

static gboolean
tick_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* A burst of requests from several connections at once: every one gets its
 * whole text line, with its own request id, without the server being
 * stopped or asked anything more; the drain's message comes after them. */
static void
test_burst_lines (void)
{
  g_autofree char *dir = g_dir_make_tmp ("triage-test-log-XXXXXX", NULL);
  g_autofree char *log = g_build_filename (dir, "server.log", NULL);
  const char * const args[] = { "--log-format", "text", NULL };
  TriageTestServerOptions options = { .extra_args = args, .log_file = log };
  const char * const alice_only[] = { "alice", NULL };
  g_autoptr(TriageTestServer) server = NULL;
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *alice = NULL, *key = NULL, *url = NULL, *auth = NULL, *text = NULL;
  g_autoptr(GError) error = NULL;
  SoupSession *session;
  const char *drained;
  guint tick;

  server = triage_test_server_new (&options, &error);
  g_assert_no_error (error);
  triage_test_server_create_user (server, "alice", &alice, &error);
  g_assert_no_error (error);
  triage_test_server_create_service (server, "deploy-bot", alice_only, NULL, NULL, &key, NULL,
                                     &error);
  g_assert_no_error (error);
  session = triage_test_server_get_session (server);
  url = g_strconcat (triage_test_server_get_url (server), "/api/v1/notifications", NULL);
  auth = g_strconcat ("Bearer ", key, NULL);
  for (guint i = 0; i < BURST; i++)
    {
      static const char body[] = "{\"context\":{\"title\":\"Burst\",\"description\":\"D\"},"
                                  "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\","
                                  "\"response_type\":\"simple\"}]}";
      SoupMessage *msg = soup_message_new ("POST", url);
      g_autoptr(GBytes) bytes = g_bytes_new_static (body, strlen (body));

      soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
      soup_message_set_request_body_from_bytes (msg, "application/json", bytes);
      soup_session_send_and_read_async (session, msg, G_PRIORITY_DEFAULT, NULL,
                                        srv_result_cb_array, results);
      g_ptr_array_add (messages, msg);
    }
  srv_wait_until (results->len == BURST, "the burst's answers");
  for (guint i = 0; i < BURST; i++)
    g_assert_cmpuint (soup_message_get_status (messages->pdata[i]), ==, 201);

  /* The lines come as the server's turn ends, not with its answers: the
   * file is looked at again until they are all there. */
  tick = g_timeout_add (20, tick_cb, NULL);
  srv_wait_until (count_posts (log, lines) == BURST, "a line for each request");
  g_source_remove (tick);
  for (guint i = 0; i < BURST; i++)
    {
      const char *request_id = soup_message_headers_get_one (
        soup_message_get_response_headers (messages->pdata[i]), "X-Request-ID");
      guint found = 0;

      g_assert_nonnull (request_id);
      for (guint l = 0; l < lines->len; l++)
        if (strstr (lines->pdata[l], request_id) != NULL)
          {
            const char *line = lines->pdata[l];
            g_autofree char *shape = NULL;

            /* Whole: GLib's text line (the server writes it itself, the
             * same text), ending with the request id. */
            shape = g_strconcat ("^triage-server-access-INFO: [0-2][0-9]:[0-5][0-9]:[0-6][0-9]"
                                 "\\.[0-9]{3}: POST /api/v1/notifications 201 [0-9]+\\.[0-9]{3} "
                                 "ms service:[0-9a-f-]{36} request ", request_id, "$", NULL);
            found++;
            g_assert_true (g_regex_match_simple (shape, line, 0, 0));
            g_assert_true (g_str_has_prefix (line, "triage-server-access-INFO: "));
            g_assert_true (g_str_has_suffix (line, request_id));
          }
      g_assert_cmpuint (found, ==, 1);
    }

  g_assert_true (triage_test_server_stop (server));
  g_assert_true (g_file_get_contents (log, &text, NULL, NULL));
  drained = strstr (text, "draining");
  g_assert_nonnull (drained);
  for (guint l = 0; l < lines->len; l++)
    {
      const char *line = strstr (text, lines->pdata[l]);

      g_assert_nonnull (line);
      g_assert_true (line < drained);
    }
  g_clear_pointer (&server, triage_test_server_free);
  triage_test_remove_tree (dir);
}

/* The JSON lines of @file, each parsed. */
static GPtrArray *
read_log (const char *file,
          char      **text)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *objects = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);

  g_file_get_contents (file, text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (*text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (*lines[i] == '{')   /* a sanitizer's report shares standard error */
      g_ptr_array_add (objects, srv_parse_object (lines[i]));
  return objects;
}

/* The request line of @route and @status, NULL when there is none. */
static JsonObject *
find_line (GPtrArray  *lines,
           const char *method,
           const char *route,
           gint64      status)
{
  for (guint i = 0; i < lines->len; i++)
    {
      JsonObject *line = lines->pdata[i];

      if (g_strcmp0 (json_object_get_string_member_with_default (line, "route", NULL), route) == 0 &&
          g_strcmp0 (json_object_get_string_member_with_default (line, "method", NULL), method) == 0 &&
          json_object_get_int_member_with_default (line, "status", 0) == status)
        return line;
    }
  return NULL;
}

/* One JSON line per request with its id, route, status, duration and who:
 * never a token, wherever the token was sent (header, ?token=), valid or not. */
static void
test_request_log (void)
{
  g_autofree char *dir = g_dir_make_tmp ("triage-test-log-XXXXXX", NULL);
  g_autofree char *log = g_build_filename (dir, "server.log", NULL);
  const char * const args[] = { "--log-format", "json", NULL };
  TriageTestServerOptions options = { .extra_args = args, .log_file = log };
  const char * const alice_only[] = { "alice", NULL };
  g_autoptr(TriageTestServer) server = NULL;
  g_autofree char *alice = NULL, *key = NULL, *secret = NULL, *service_id = NULL;
  g_autofree char *id = NULL, *query = NULL, *text = NULL;
  g_autofree char *bad = g_strdup ("ut_0123456789abcdef0123456789abcdef0123456789abcdef");
  g_autoptr(SrvAnswer) refused = NULL, answer = NULL;
  g_autoptr(SrvSocket) sock = NULL;
  g_autoptr(SrvEvents) events = NULL;
  g_autoptr(GPtrArray) lines = NULL;
  g_autoptr(GError) error = NULL;
  const char *tokens[6];
  JsonObject *line;

  server = triage_test_server_new (&options, &error);
  g_assert_no_error (error);
  triage_test_server_create_user (server, "alice", &alice, &error);
  g_assert_no_error (error);
  triage_test_server_create_service (server, "deploy-bot", alice_only, NULL, &service_id, &key,
                                     &secret, &error);
  g_assert_no_error (error);
  id = srv_post (server, key, "Logged");
  answer = srv_request (server, "GET", "/api/v1/client/notifications", alice, NULL);
  srv_assert_status (answer, 200, NULL);
  srv_respond (server, alice, id);
  refused = srv_request (server, "GET", "/api/v1/client/notifications", bad, NULL);
  srv_assert_status (refused, 401, "AUTH_INVALID_TOKEN");
  query = g_strconcat ("?token=", alice, NULL);
  sock = srv_ws_open (server, NULL, query);
  g_assert_nonnull (sock->ws);
  events = srv_events_open (server, NULL, query, NULL);
  g_assert_cmpuint (events->status, ==, 200);
  g_clear_pointer (&sock, srv_ws_free);
  g_clear_pointer (&events, srv_events_free);
  g_assert_true (triage_test_server_stop (server));

  lines = read_log (log, &text);
  tokens[0] = triage_test_server_get_admin_token (server);
  tokens[1] = alice, tokens[2] = key, tokens[3] = secret, tokens[4] = bad, tokens[5] = NULL;
  for (guint i = 0; tokens[i] != NULL; i++)
    if (strstr (text, tokens[i]) != NULL)
      g_error ("the log holds the token %s:\n%s", tokens[i], text);
  /* Nor a body: the notification's title is in none of its lines. */
  g_assert_null (strstr (text, "Logged"));

  line = find_line (lines, "POST", "/api/v1/notifications", 201);
  g_assert_nonnull (line);
  g_assert_cmpstr (json_object_get_string_member (line, "service"), ==, service_id);
  g_assert_cmpint (json_object_get_int_member (line, "duration_us"), >=, 0);
  g_assert_cmpuint (strlen (json_object_get_string_member (line, "request_id")), ==, 36);
  line = find_line (lines, "POST", "/api/v1/client/respond", 200);
  g_assert_nonnull (line);
  g_assert_cmpstr (json_object_get_string_member (line, "user"), ==, "alice");
  line = find_line (lines, "GET", "/api/v1/client/notifications", 200);
  g_assert_nonnull (line);
  g_assert_cmpstr (json_object_get_string_member (line, "request_id"), ==,
                   soup_message_headers_get_one (answer->headers, "X-Request-ID"));
  line = find_line (lines, "GET", "/api/v1/client/notifications", 401);
  g_assert_nonnull (line);
  g_assert_false (json_object_has_member (line, "user"));
  g_assert_cmpstr (json_object_get_string_member (line, "request_id"), ==,
                   soup_message_headers_get_one (refused->headers, "X-Request-ID"));
  g_assert_nonnull (find_line (lines, "POST", "/api/v1/admin/users", 201));
  g_assert_cmpstr (json_object_get_string_member (find_line (lines, "POST", "/api/v1/admin/users",
                                                             201), "caller"), ==, "admin");
  g_assert_nonnull (find_line (lines, "GET", "/api/v1/client/stream", 101));
  g_assert_nonnull (find_line (lines, "GET", "/api/v1/client/events", 200));
  g_clear_pointer (&server, triage_test_server_free);
  triage_test_remove_tree (dir);
}

/* A message holding bytes that are not UTF-8 (a database file's name) is
 * still a line of JSON, each such byte U+FFFD: it was written as it came,
 * which a JSON reader rejects. */
static void
test_json_not_utf8 (void)
{
  g_autofree char *dir = g_dir_make_tmp ("triage-test-log-XXXXXX", NULL);
  g_autofree char *log = g_build_filename (dir, "server.log", NULL);
  g_autofree char *database = g_build_filename (dir, "bad\xff.db", NULL);
  const char * const args[] = { "--log-format", "json", NULL };
  TriageTestServerOptions options = { .extra_args = args, .log_file = log, .database = database };
  g_autoptr(TriageTestServer) server = NULL;
  g_autoptr(GPtrArray) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  const char *said = NULL;

  /* Open to other users: the server makes it its own and says so, naming it. */
  g_assert_true (g_file_set_contents (database, "", 0, NULL));
  g_assert_cmpint (g_chmod (database, 0644), ==, 0);
  server = triage_test_server_new (&options, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_stop (server));

  lines = read_log (log, &text);
  for (guint i = 0; i < lines->len && said == NULL; i++)
    {
      const char *message = json_object_get_string_member_with_default (lines->pdata[i], "message",
                                                                        "");

      if (strstr (message, "was open to other users") != NULL)
        said = message;
    }
  g_assert_nonnull (said);
  g_assert_nonnull (strstr (said, "bad\xef\xbf\xbd.db"));
  g_clear_pointer (&server, triage_test_server_free);
  triage_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/server/request-log/burst-lines", test_burst_lines);
  g_test_add_func ("/server/request-log/json-lines", test_request_log);
  g_test_add_func ("/server/request-log/json-not-utf8", test_json_not_utf8);
  return g_test_run ();
}
