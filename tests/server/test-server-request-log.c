/* test-server-request-log.c — the request lines of a turn of the main loop, written together
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * docs/protocol.md: the request lines a turn of the server's main loop
 * makes go out together as the turn ends (one write under load, not one a
 * request). Each request still has its whole line, the text GLib's writer
 * makes, while the server keeps running; any other message comes after the
 * lines before it.
 */

#define G_LOG_DOMAIN "test-server-request-log"

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

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/server/request-log/burst-lines", test_burst_lines);
  return g_test_run ();
}
