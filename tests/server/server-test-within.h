/* server-test-within.h — a request whose answer the test awaits at most so
 * many seconds, and how long the answer took
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For the tests of a database that stops answering (test-server-pg-stall.c,
 * test-server-pg-reconnect.c): each answer is bounded, and the time it took
 * is logged, so a failure past the bound says how close the others came.
 */

#pragma once

#include "server-test-util.h"

typedef struct
{
  gboolean done;
  guint    status;   /* 0 when no answer came */
  char    *body;     /* the test frees it */
  gint64   took_us;
  gint64   sent_at;
} SrvTimedReply;

static inline void
srv_timed_reply_cb (GObject      *source,
                    GAsyncResult *result,
                    gpointer      data)
{
  SrvTimedReply *reply = data;
  g_autoptr(GBytes) bytes = soup_session_send_and_read_finish (SOUP_SESSION (source), result, NULL);

  reply->took_us = g_get_monotonic_time () - reply->sent_at;
  if (bytes != NULL)
    {
      reply->status = soup_message_get_status (soup_session_get_async_result_message (
                                                 SOUP_SESSION (source), result));
      reply->body = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
    }
  reply->done = TRUE;
}

/* @method @path to @server as @token (NULL: none) with @body (NULL: none),
 * its answer awaited at most @seconds (a failure past them). */
static inline void
srv_request_within (TriageTestServer *server,
                    const char       *method,
                    const char       *path,
                    const char       *token,
                    const char       *body,
                    guint             seconds,
                    SrvTimedReply    *reply)
{
  g_autofree char *uri = g_strconcat (triage_test_server_get_url (server), path, NULL);
  g_autoptr(SoupMessage) msg = soup_message_new (method, uri);
  g_autofree char *what = g_strdup_printf ("the answer to %s %s", method, path);

  *reply = (SrvTimedReply) { .sent_at = g_get_monotonic_time () };
  if (token != NULL)
    {
      g_autofree char *auth = g_strconcat ("Bearer ", token, NULL);

      soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
    }
  if (body != NULL)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

      soup_message_set_request_body_from_bytes (msg, "application/json", bytes);
    }
  soup_session_send_and_read_async (triage_test_server_get_session (server), msg,
                                    G_PRIORITY_DEFAULT, NULL, srv_timed_reply_cb, reply);
  triage_test_wait_until_within (reply->done, what, seconds);
  g_test_message ("%s %s: %u in %.1f s", method, path, reply->status,
                  (double) reply->took_us / G_USEC_PER_SEC);
}

/* Posts a one-action notification with the id @id and @title as @key, its
 * answer awaited at most @seconds. */
static inline void
srv_post_within (TriageTestServer *server,
                 const char       *key,
                 const char       *id,
                 const char       *title,
                 guint             seconds,
                 SrvTimedReply    *reply)
{
  g_autofree char *body = g_strdup_printf ("{\"id\":\"%s\",\"context\":{\"title\":\"%s\","
                                           "\"description\":\"D\"},\"actions\":[{\"id\":\"ok\","
                                           "\"label\":\"OK\",\"response_type\":\"simple\"}]}",
                                           id, title);

  srv_request_within (server, "POST", "/api/v1/notifications", key, body, seconds, reply);
}

/* Fails unless @reply has @status and, when @code is not NULL, the error
 * @code in its body. */
static inline void
srv_assert_timed_reply (SrvTimedReply *reply,
                        guint          status,
                        const char    *code)
{
  g_autoptr(JsonObject) object = NULL;

  if (reply->status != status)
    g_error ("expected %u %s, got %u: %s", status, code ? code : "", reply->status,
             reply->body ? reply->body : "(no answer)");
  if (code == NULL)
    return;
  object = srv_parse_object (reply->body);
  g_assert_cmpstr (json_object_get_string_member_with_default (object, "code", NULL), ==, code);
}
