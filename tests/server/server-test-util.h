/* server-test-util.h — a raw client for the triage-server tests: HTTP with
 * headers, WebSocket frames and SSE events (server-test-sse.h) as the wire
 * carries them, a connection of the test's own (server-test-raw.h); and the
 * fixture of alice, bob and their services
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The server is tested here without libatp's client, so that what is checked
 * is the server's wire behaviour, not a client's interpretation of it.
 */

#pragma once

#include <string.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "triage-test-server.h"

#define srv_wait_until triage_test_wait_until
#define srv_sleep      triage_test_sleep

static inline JsonObject *
srv_parse_object (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  if (!json_parser_load_from_data (parser, text, -1, &error))
    g_error ("not JSON (%s): %s", error->message, text);
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    g_error ("not a JSON object: %s", text);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* ---- the team: alice, bob and their services ---- */

/* The fixture of the tests about who hears of what: a real triage-server with
 * users alice and bob, team-bot (a service for both) and deploy-bot (a
 * service for alice alone). */
typedef struct
{
  TriageTestServer *server;
  char             *alice;      /* user tokens */
  char             *bob;
  char             *shared_key; /* team-bot: a service for alice and bob */
  char             *key;        /* deploy-bot: a service for alice alone */
} SrvTeam;

/* The team on a server started with @options. */
static inline void
srv_team_setup_with (SrvTeam                       *team,
                     const TriageTestServerOptions *options)
{
  const char * const alice_only[] = { "alice", NULL };
  const char * const both[] = { "alice", "bob", NULL };
  g_autoptr(GError) error = NULL;

  team->server = triage_test_server_new (options, &error);
  g_assert_no_error (error);
  triage_test_server_create_user (team->server, "alice", &team->alice, &error);
  g_assert_no_error (error);
  triage_test_server_create_user (team->server, "bob", &team->bob, &error);
  g_assert_no_error (error);
  triage_test_server_create_service (team->server, "deploy-bot", alice_only, NULL, NULL,
                                     &team->key, NULL, &error);
  g_assert_no_error (error);
  triage_test_server_create_service (team->server, "team-bot", both, NULL, NULL,
                                     &team->shared_key, NULL, &error);
  g_assert_no_error (error);
}

/* A g_test_add () set-up; @extra_args (may be NULL) are the server's extra
 * command-line arguments. */
static inline void
srv_team_setup (SrvTeam       *team,
                gconstpointer  extra_args)
{
  TriageTestServerOptions options = { .extra_args = extra_args };

  srv_team_setup_with (team, &options);
}

/* The g_test_add () tear-down: the server must stop cleanly. */
static inline void
srv_team_teardown (SrvTeam       *team,
                   gconstpointer  extra_args)
{
  g_assert_true (triage_test_server_stop (team->server));
  triage_test_server_free (team->server);
  g_free (team->alice);
  g_free (team->bob);
  g_free (team->shared_key);
  g_free (team->key);
}

/* ---- HTTP ---- */

typedef struct
{
  guint               status;
  char               *reason;   /* the status line's reason phrase */
  char               *body;
  SoupMessageHeaders *headers;
} SrvAnswer;

static inline void
srv_answer_free (SrvAnswer *answer)
{
  g_free (answer->body);
  g_free (answer->reason);
  g_clear_pointer (&answer->headers, soup_message_headers_unref);
  g_free (answer);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SrvAnswer, srv_answer_free)

/* Sends @msg with @token and @body (both may be NULL) and reads the whole answer. */
static inline SrvAnswer *
srv_send (TriageTestServer *server,
          SoupMessage      *msg,
          const char       *token,
          const char       *body)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  SrvAnswer *answer;

  if (token != NULL)
    {
      g_autofree char *auth = g_strconcat ("Bearer ", token, NULL);

      soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
    }
  if (body != NULL)
    {
      g_autoptr(GBytes) request = g_bytes_new (body, strlen (body));

      soup_message_set_request_body_from_bytes (msg, "application/json", request);
    }
  bytes = soup_session_send_and_read (triage_test_server_get_session (server), msg, NULL, &error);
  g_assert_no_error (error);
  answer = g_new0 (SrvAnswer, 1);
  answer->status = soup_message_get_status (msg);
  answer->reason = g_strdup (soup_message_get_reason_phrase (msg));
  answer->body = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  answer->headers = soup_message_headers_ref (soup_message_get_response_headers (msg));
  return answer;
}

static inline SrvAnswer *
srv_request (TriageTestServer *server,
             const char       *method,
             const char       *path,
             const char       *token,
             const char       *body)
{
  g_autofree char *uri = g_strconcat (triage_test_server_get_url (server), path, NULL);
  g_autoptr(SoupMessage) msg = soup_message_new (method, uri);

  g_assert_nonnull (msg);
  return srv_send (server, msg, token, body);
}

/* Asserts the status (and, for an error, the code of the error object and a
 * request id that matches the header). */
static inline void
srv_assert_answer (SrvAnswer  *answer,
                   guint       status,
                   const char *code,
                   const char *file,
                   int         line)
{
  if (answer->status != status)
    g_error ("%s:%d: expected HTTP %u, got %u: %s", file, line, status, answer->status, answer->body);
  if (code != NULL)
    {
      g_autoptr(JsonObject) error = srv_parse_object (answer->body);
      const char *header = soup_message_headers_get_one (answer->headers, "X-Request-ID");

      if (g_strcmp0 (json_object_get_string_member_with_default (error, "code", NULL), code) != 0)
        g_error ("%s:%d: expected %s, got %s", file, line, code, answer->body);
      if (header == NULL ||
          g_strcmp0 (json_object_get_string_member_with_default (error, "request_id", NULL), header) != 0)
        g_error ("%s:%d: the request id of %s is not the X-Request-ID header", file, line, answer->body);
    }
}

#define srv_assert_status(answer, status, code) \
  srv_assert_answer ((answer), (status), (code), __FILE__, __LINE__)

/* The error of @answer names @field in its details. */
static inline void
srv_assert_field (SrvAnswer  *answer,
                  const char *field)
{
  g_autoptr(JsonObject) object = srv_parse_object (answer->body);
  JsonObject *details = json_object_get_object_member (object, "details");

  g_assert_nonnull (details);
  g_assert_cmpstr (json_object_get_string_member (details, "field"), ==, field);
}

/* The message of the error of @answer holds @part. */
static inline void
srv_assert_message (SrvAnswer  *answer,
                    const char *part)
{
  g_autoptr(JsonObject) object = srv_parse_object (answer->body);
  const char *message = json_object_get_string_member (object, "message");

  if (strstr (message, part) == NULL)
    g_error ("message \"%s\" does not contain \"%s\"", message, part);
}

/* 503 STORAGE_UNAVAILABLE, its message holding @message, with Retry-After:
 * the database did not answer or take the change; try again. */
static inline void
srv_assert_unavailable (SrvAnswer  *answer,
                        const char *message)
{
  srv_assert_status (answer, 503, "STORAGE_UNAVAILABLE");
  srv_assert_message (answer, message);
  g_assert_cmpstr (soup_message_headers_get_one (answer->headers, "Retry-After"), ==, "1");
}

/* What @sql gives on the server's database (running or not), a line a row,
 * columns separated by '|' (triage_test_server_run_sql ()). */
static inline char *
srv_run_sql (TriageTestServer *server,
             const char       *sql)
{
  g_autoptr(GError) error = NULL;
  char *rows = triage_test_server_run_sql (server, sql, &error);

  g_assert_no_error (error);
  return rows;
}

/* From now on every insert into @table fails with @reason (a trigger named
 * refuse_@table), on either backend, until srv_allow_inserts (); with
 * @rollback, on SQLite, the whole transaction is rolled back with it
 * (RAISE (ROLLBACK)), else only the statement (RAISE (ABORT)). */
static inline void
srv_refuse_inserts (TriageTestServer *server,
                    const char       *table,
                    const char       *reason,
                    gboolean          rollback)
{
  g_autofree char *sql = NULL;

  if (triage_test_server_is_postgres (server))
    sql = g_strdup_printf ("CREATE FUNCTION refuse_%s () RETURNS trigger LANGUAGE plpgsql"
                           " AS $$ BEGIN RAISE EXCEPTION '%s'; END $$;"
                           " CREATE TRIGGER refuse_%s BEFORE INSERT ON %s"
                           " FOR EACH ROW EXECUTE FUNCTION refuse_%s ()",
                           table, reason, table, table, table);
  else
    sql = g_strdup_printf ("CREATE TRIGGER refuse_%s BEFORE INSERT ON %s"
                           " BEGIN SELECT RAISE (%s, '%s'); END", table, table,
                           rollback ? "ROLLBACK" : "ABORT", reason);
  g_free (srv_run_sql (server, sql));
}

static inline void
srv_allow_inserts (TriageTestServer *server,
                   const char       *table)
{
  g_autofree char *sql = NULL;

  if (triage_test_server_is_postgres (server))
    sql = g_strdup_printf ("DROP TRIGGER refuse_%s ON %s; DROP FUNCTION refuse_%s ()", table,
                           table, table);
  else
    sql = g_strdup_printf ("DROP TRIGGER refuse_%s", table);
  g_free (srv_run_sql (server, sql));
}

/* How many times @part is in the file at @path (a server's log: the server
 * logs before it answers, so what an answer received followed is there). */
static inline guint
srv_count_in_file (const char *path,
                   const char *part)
{
  g_autofree char *text = NULL;
  guint count = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  for (const char *p = text; (p = strstr (p, part)) != NULL; p += strlen (part))
    count++;
  return count;
}

/* `"deadline":"…",` for a deadline @deadline_s from now, to put in a
 * notification's JSON; "" for 0 (none). */
static inline char *
srv_deadline_member (double deadline_s)
{
  g_autoptr(GDateTime) now = NULL, later = NULL;
  g_autofree char *text = NULL;

  if (deadline_s <= 0)
    return g_strdup ("");
  now = g_date_time_new_now_utc ();
  later = g_date_time_add_seconds (now, deadline_s);
  text = g_date_time_format_iso8601 (later);
  return g_strdup_printf ("\"deadline\":\"%s\",", text);
}

/* Posts a one-action notification as @key, its deadline @deadline_s from
 * now (0: none), and returns its id. */
static inline char *
srv_post_full (TriageTestServer *server,
               const char       *key,
               const char       *title,
               double            deadline_s)
{
  g_autofree char *deadline = srv_deadline_member (deadline_s);
  g_autofree char *body = NULL;
  g_autoptr(SrvAnswer) answer = NULL;
  g_autoptr(JsonObject) object = NULL;

  body = g_strdup_printf ("{%s\"context\":{\"title\":\"%s\",\"description\":\"D\"},"
                          "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\","
                          "\"response_type\":\"simple\"}]}", deadline, title);
  answer = srv_request (server, "POST", "/api/v1/notifications", key, body);
  srv_assert_status (answer, 201, NULL);
  object = srv_parse_object (answer->body);
  return g_strdup (json_object_get_string_member (object, "notification_id"));
}

/* Posts a one-action notification as @key and returns its id. */
static inline char *
srv_post (TriageTestServer *server,
          const char       *key,
          const char       *title)
{
  return srv_post_full (server, key, title, 0);
}

/* The answer to a POST sent without waiting (srv_post_async ()). */
typedef struct
{
  gboolean done;
  guint    status;   /* 0 when no answer came */
} SrvReply;

static inline void
srv_reply_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  SrvReply *reply = data;
  g_autoptr(GBytes) bytes = soup_session_send_and_read_finish (SOUP_SESSION (source), result,
                                                               NULL);

  if (bytes != NULL)
    reply->status = soup_message_get_status (soup_session_get_async_result_message (
                                               SOUP_SESSION (source), result));
  reply->done = TRUE;
}

/* Sends a notification with the id @id and @title to @server without
 * waiting: @reply says when its answer came, and its status. */
static inline void
srv_post_async (TriageTestServer *server,
                const char       *key,
                const char       *id,
                const char       *title,
                SrvReply         *reply)
{
  g_autofree char *uri = g_strconcat (triage_test_server_get_url (server),
                                      "/api/v1/notifications", NULL);
  g_autofree char *auth = g_strconcat ("Bearer ", key, NULL);
  g_autofree char *body = g_strdup_printf ("{\"id\":\"%s\",\"context\":{\"title\":\"%s\","
                                           "\"description\":\"D\"},\"actions\":[{\"id\":\"ok\","
                                           "\"label\":\"OK\",\"response_type\":\"simple\"}]}",
                                           id, title);
  g_autoptr(SoupMessage) msg = soup_message_new ("POST", uri);
  g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

  soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
  soup_message_set_request_body_from_bytes (msg, "application/json", bytes);
  soup_session_send_and_read_async (triage_test_server_get_session (server), msg,
                                    G_PRIORITY_DEFAULT, NULL, srv_reply_cb, reply);
}

static inline gboolean
srv_replies_done (const SrvReply *replies,
                  guint           n)
{
  for (guint i = 0; i < n; i++)
    if (!replies[i].done)
      return FALSE;
  return TRUE;
}

static inline void
srv_respond (TriageTestServer *server,
             const char       *token,
             const char       *id)
{
  g_autofree char *body = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"ok\"}", id);
  g_autoptr(SrvAnswer) answer = srv_request (server, "POST", "/api/v1/client/respond", token, body);

  srv_assert_status (answer, 200, NULL);
}

/* The value of the sample @name (with its labels) in @server's /metrics. */
static inline guint64
srv_sample (TriageTestServer *server,
            const char       *name)
{
  g_autoptr(SrvAnswer) answer = srv_request (server, "GET", "/metrics",
                                             triage_test_server_get_admin_token (server), NULL);
  g_autofree char *line = g_strconcat ("\n", name, " ", NULL);
  const char *found;

  srv_assert_status (answer, 200, NULL);
  found = strstr (answer->body, line);
  if (found == NULL)
    g_error ("no sample %s in %s", name, answer->body);
  return g_ascii_strtoull (found + strlen (line), NULL, 10);
}

/* How many group commits of @server failed (its /metrics). */
static inline guint64
srv_commit_failures (TriageTestServer *server)
{
  return srv_sample (server, "triage_db_commit_failures_total");
}

/* The status of @id as its recipient with @token sees it. */
static inline char *
srv_status_of (TriageTestServer *server,
               const char       *key,
               const char       *id)
{
  g_autofree char *path = g_strconcat ("/api/v1/notifications/", id, NULL);
  g_autoptr(SrvAnswer) answer = srv_request (server, "GET", path, key, NULL);
  g_autoptr(JsonObject) object = NULL;

  srv_assert_status (answer, 200, NULL);
  object = srv_parse_object (answer->body);
  return g_strdup (json_object_get_string_member (object, "status"));
}

/* The item of @id in the first page of the list at @query (after
 * /api/v1/client/notifications) that the user with @token gets; NULL when
 * it is not there. */
static inline JsonObject *
srv_find_listed (TriageTestServer *server,
                 const char       *token,
                 const char       *query,
                 const char       *id)
{
  g_autofree char *path = g_strconcat ("/api/v1/client/notifications", query, NULL);
  g_autoptr(SrvAnswer) answer = srv_request (server, "GET", path, token, NULL);
  g_autoptr(JsonObject) object = NULL;
  JsonArray *items;

  srv_assert_status (answer, 200, NULL);
  object = srv_parse_object (answer->body);
  items = json_object_get_array_member (object, "notifications");
  for (guint i = 0; i < json_array_get_length (items); i++)
    {
      JsonObject *item = json_array_get_object_element (items, i);

      if (g_strcmp0 (json_object_get_string_member (item, "id"), id) == 0)
        return json_object_ref (item);
    }
  return NULL;
}

/* ---- WebSocket ---- */

typedef struct
{
  SoupWebsocketConnection *ws;
  GPtrArray               *frames;       /* JsonObject*: {type, data} */
  guint                    binary;       /* binary frames received (never expected) */
  gboolean                 closed;
  gushort                  close_code;
  guint                    status;       /* the handshake's HTTP status when it failed */
  char                    *body;         /* and its body */
} SrvSocket;

static inline void
srv_on_ws_message (SoupWebsocketConnection *ws,
                   int                      type,
                   GBytes                  *message,
                   SrvSocket               *sock)
{
  g_autofree char *text = g_strndup (g_bytes_get_data (message, NULL), g_bytes_get_size (message));

  if (type != SOUP_WEBSOCKET_DATA_TEXT)
    {
      sock->binary++;
      return;
    }
  g_ptr_array_add (sock->frames, srv_parse_object (text));
}

static inline void
srv_on_ws_closed (SoupWebsocketConnection *ws,
                  SrvSocket               *sock)
{
  sock->closed = TRUE;
  sock->close_code = soup_websocket_connection_get_close_code (ws);
}

typedef struct
{
  GAsyncResult *result;
} SrvWait;

static inline void
srv_result_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  ((SrvWait *) user_data)->result = g_object_ref (result);
}

/* Collects async results in a GPtrArray. */
static inline void
srv_result_cb_array (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_ptr_array_add (user_data, g_object_ref (result));
}

/* Opens the stream with @token in the header (or in @query, e.g. "?token=…";
 * both may be NULL). A refused handshake leaves ws NULL with status and body. */
static inline SrvSocket *
srv_ws_open (TriageTestServer *server,
             const char       *token,
             const char       *query)
{
  SoupSession *session = triage_test_server_get_session (server);
  g_autofree char *url = g_strconcat (triage_test_server_get_url (server), "/api/v1/client/stream",
                                      query ? query : "", NULL);
  g_autoptr(SoupMessage) msg = soup_message_new ("GET", url);
  g_autoptr(GError) error = NULL;
  SrvSocket *sock = g_new0 (SrvSocket, 1);
  SrvWait wait = { NULL };

  sock->frames = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  if (token != NULL)
    {
      g_autofree char *auth = g_strconcat ("Bearer ", token, NULL);

      soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
    }
  soup_session_websocket_connect_async (session, msg, NULL, NULL, G_PRIORITY_DEFAULT, NULL,
                                        srv_result_cb, &wait);
  srv_wait_until (wait.result != NULL, "the WebSocket handshake");
  sock->ws = soup_session_websocket_connect_finish (session, wait.result, &error);
  g_object_unref (wait.result);
  if (sock->ws == NULL)
    {
      sock->status = soup_message_get_status (msg);
      return sock;
    }
  soup_websocket_connection_set_max_incoming_payload_size (sock->ws, 4 * 1024 * 1024);
  soup_websocket_connection_set_keepalive_interval (sock->ws, 0);
  g_signal_connect (sock->ws, "message", G_CALLBACK (srv_on_ws_message), sock);
  g_signal_connect (sock->ws, "closed", G_CALLBACK (srv_on_ws_closed), sock);
  return sock;
}

static inline void
srv_ws_free (SrvSocket *sock)
{
  if (sock->ws != NULL)
    {
      g_signal_handlers_disconnect_by_data (sock->ws, sock);
      if (soup_websocket_connection_get_state (sock->ws) == SOUP_WEBSOCKET_STATE_OPEN)
        soup_websocket_connection_close (sock->ws, SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
      g_object_unref (sock->ws);
    }
  g_ptr_array_unref (sock->frames);
  g_free (sock->body);
  g_free (sock);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SrvSocket, srv_ws_free)

/* An `acknowledge` frame for @id on @sock. */
static inline void
srv_ws_acknowledge (SrvSocket  *sock,
                    const char *id)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "acknowledge");
  json_builder_set_member_name (builder, "data");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "notification_id");
  json_builder_add_string_value (builder, id);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  text = json_to_string (root, FALSE);
  soup_websocket_connection_send_text (sock->ws, text);
}

static inline const char *
srv_frame_type (JsonObject *frame)
{
  return json_object_get_string_member_with_default (frame, "type", "");
}

/* The id (of the notification, or the notification_id of a status update) a frame is about. */
static inline const char *
srv_frame_id (JsonObject *frame)
{
  JsonObject *data = json_object_get_object_member (frame, "data");

  if (data == NULL)
    return "";
  if (json_object_has_member (data, "notification_id"))
    return json_object_get_string_member (data, "notification_id");
  return json_object_get_string_member_with_default (data, "id", "");
}

static inline gboolean
srv_frame_matches (JsonObject *frame,
                   const char *type,
                   const char *id)
{
  return g_str_equal (srv_frame_type (frame), type) &&
         (id == NULL || g_str_equal (srv_frame_id (frame), id));
}

/* How many frames of @type (about @id, when not NULL) @sock has received. */
static inline guint
srv_count_frames (SrvSocket  *sock,
                  const char *type,
                  const char *id)
{
  guint count = 0;

  for (guint i = 0; i < sock->frames->len; i++)
    count += srv_frame_matches (sock->frames->pdata[i], type, id);
  return count;
}

/* The first frame of @type about @id (NULL: any); NULL when none came. */
static inline JsonObject *
srv_find_frame (SrvSocket  *sock,
                const char *type,
                const char *id)
{
  for (guint i = 0; i < sock->frames->len; i++)
    if (srv_frame_matches (sock->frames->pdata[i], type, id))
      return sock->frames->pdata[i];
  return NULL;
}

/* The data of the status update that moved @id to @status; NULL when none came. */
static inline JsonObject *
srv_find_update (SrvSocket  *sock,
                 const char *id,
                 const char *status)
{
  for (guint i = 0; i < sock->frames->len; i++)
    {
      JsonObject *frame = sock->frames->pdata[i];
      JsonObject *data = json_object_get_object_member (frame, "data");

      if (srv_frame_matches (frame, "status_update", id) &&
          g_strcmp0 (json_object_get_string_member_with_default (data, "status", NULL), status) == 0)
        return data;
    }
  return NULL;
}

#include "server-test-sse.h"
#include "server-test-raw.h"
