/* test-server-stream.c — triage-server's WebSocket and SSE streams on the wire
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-server-stream"

#include <signal.h>

#include "server-test-util.h"

/* alice, bob, team-bot (theirs) and deploy-bot (alice's): server-test-util.h */
typedef SrvTeam Fixture;

/* What was pending when the stream opened comes first, then everything new;
 * being pushed counts as delivery. */
static void
test_pending_on_connect (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *first = srv_post (fixture->server, fixture->key, "First");
  g_autofree char *second = srv_post (fixture->server, fixture->key, "Second");
  g_autofree char *answered = srv_post (fixture->server, fixture->key, "Answered");
  g_autofree char *live = NULL, *status = NULL;
  g_autoptr(SrvSocket) sock = NULL;
  JsonObject *frame, *notification;

  srv_respond (fixture->server, fixture->alice, answered);
  sock = srv_ws_open (fixture->server, fixture->alice, NULL);
  g_assert_nonnull (sock->ws);
  srv_wait_until (sock->frames->len >= 2, "the pending notifications");

  /* Oldest first, whole notifications as the service GET shows them. */
  frame = sock->frames->pdata[0];
  g_assert_cmpstr (srv_frame_type (frame), ==, "notification");
  g_assert_cmpstr (srv_frame_id (frame), ==, first);
  notification = json_object_get_object_member (frame, "data");
  g_assert_cmpstr (json_object_get_string_member (notification, "version"), ==, "1.0");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (notification, "service"),
                                                  "name"), ==, "deploy-bot");
  g_assert_cmpstr (srv_frame_id (sock->frames->pdata[1]), ==, second);
  g_assert_cmpuint (srv_count_frames (sock, "notification", answered), ==, 0);

  status = srv_status_of (fixture->server, fixture->key, first);
  g_assert_cmpstr (status, ==, "delivered");

  live = srv_post (fixture->server, fixture->key, "Live");
  srv_wait_until (srv_count_frames (sock, "notification", live) == 1, "the live notification");
  g_free (status);
  status = srv_status_of (fixture->server, fixture->key, live);
  g_assert_cmpstr (status, ==, "delivered");
  g_assert_cmpuint (srv_count_frames (sock, "notification", first), ==, 1);
  g_assert_cmpuint (sock->binary, ==, 0);
}

/* A client that lists the pending set itself asks for no snapshot: only
 * what comes after the stream opened is pushed, and nothing pending is
 * delivered by the stream opening. */
static void
test_no_snapshot (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *waiting = srv_post (fixture->server, fixture->key, "Waiting");
  g_autofree char *live = NULL, *status = NULL;
  g_autoptr(SrvSocket) sock = srv_ws_open (fixture->server, fixture->alice, "?snapshot=false");

  g_assert_nonnull (sock->ws);
  live = srv_post (fixture->server, fixture->key, "Live");
  srv_wait_until (srv_count_frames (sock, "notification", live) == 1, "the live notification");
  g_assert_cmpuint (srv_count_frames (sock, "notification", waiting), ==, 0);
  status = srv_status_of (fixture->server, fixture->key, waiting);
  g_assert_cmpstr (status, ==, "created");
}

/* Every transition reaches every stream of every recipient, and nobody else. */
static void
test_fan_out (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *query = g_strconcat ("?token=", fixture->alice, NULL);
  g_autoptr(SrvSocket) phone = srv_ws_open (fixture->server, fixture->alice, NULL);
  g_autoptr(SrvSocket) laptop = srv_ws_open (fixture->server, NULL, query);
  g_autoptr(SrvSocket) bob = srv_ws_open (fixture->server, fixture->bob, NULL);
  g_autofree char *mine = NULL, *shared = NULL, *withdrawn = NULL;
  g_autofree char *path = NULL;
  g_autoptr(SrvAnswer) patch = NULL;

  g_assert_nonnull (phone->ws);
  g_assert_nonnull (laptop->ws);
  g_assert_nonnull (bob->ws);

  mine = srv_post (fixture->server, fixture->key, "Alice only");
  shared = srv_post (fixture->server, fixture->shared_key, "Both");
  srv_wait_until (srv_count_frames (phone, "notification", shared) == 1 &&
                  srv_count_frames (laptop, "notification", shared) == 1 &&
                  srv_count_frames (bob, "notification", shared) == 1, "the shared notification");
  g_assert_cmpuint (srv_count_frames (phone, "notification", mine), ==, 1);
  g_assert_cmpuint (srv_count_frames (laptop, "notification", mine), ==, 1);

  /* Every one of them reaches every recipient, not only the first. */
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *more = srv_post (fixture->server, fixture->shared_key, "Both again");

      srv_wait_until (srv_count_frames (bob, "notification", more) == 1 &&
                      srv_count_frames (phone, "notification", more) == 1, "another shared one");
    }

  /* Answered on the phone: the laptop and bob hear of it. */
  srv_respond (fixture->server, fixture->alice, shared);
  srv_wait_until (srv_find_update (laptop, shared, "responded") &&
                  srv_find_update (phone, shared, "responded") &&
                  srv_find_update (bob, shared, "responded"), "the responded update");

  withdrawn = srv_post (fixture->server, fixture->key, "Withdrawn");
  path = g_strconcat ("/api/v1/notifications/", withdrawn, NULL);
  patch = srv_request (fixture->server, "PATCH", path, fixture->key,
                       "{\"status\":\"invalidated\",\"reason\":\"no longer needed\"}");
  srv_assert_status (patch, 200, NULL);
  srv_wait_until (srv_find_update (phone, withdrawn, "invalidated") &&
                  srv_find_update (laptop, withdrawn, "invalidated"), "the invalidated update");
  g_assert_cmpstr (json_object_get_string_member (srv_find_update (phone, withdrawn, "invalidated"),
                                                  "reason"), ==, "no longer needed");

  /* Bob, not a recipient, heard nothing of alice's own requests. */
  srv_sleep (200);
  g_assert_cmpuint (srv_count_frames (bob, "notification", mine), ==, 0);
  g_assert_cmpuint (srv_count_frames (bob, "status_update", mine), ==, 0);
  g_assert_cmpuint (srv_count_frames (bob, "notification", withdrawn), ==, 0);
  g_assert_cmpuint (srv_count_frames (bob, "status_update", withdrawn), ==, 0);
}

/* Expiry is pushed when the deadline passes, without anybody asking. */
static void
test_expiry_pushed (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(SrvSocket) sock = srv_ws_open (fixture->server, fixture->alice, NULL);
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  /* The deadline is this or later. 2 s: ahead still when the server reads
   * the post on a loaded machine. */
  g_autoptr(GDateTime) soon = g_date_time_add_seconds (now, 2);
  g_autofree char *id = srv_post_full (fixture->server, fixture->key, "Soon", 2);
  g_autoptr(GDateTime) expired_at = NULL;

  srv_wait_until (srv_find_update (sock, id, "expired") != NULL, "the expiry");
  /* Not before the deadline. */
  expired_at = g_date_time_new_now_utc ();
  g_assert_cmpint (g_date_time_difference (expired_at, soon), >=, 0);
}

/* The answer to a WebSocket handshake (Upgrade headers and all) that the
 * server refuses, read like any HTTP answer so that its body can be checked. */
static SrvAnswer *
refused_handshake (TriageTestServer *server,
                   const char       *token,
                   const char       *query)
{
  g_autofree char *url = g_strconcat (triage_test_server_get_url (server), "/api/v1/client/stream",
                                      query ? query : "", NULL);
  g_autoptr(SoupMessage) msg = soup_message_new ("GET", url);

  soup_websocket_client_prepare_handshake (msg, NULL, NULL, NULL);
  return srv_send (server, msg, token, NULL);
}

/* Refused at the handshake with an error body: no token, a wrong one in the
 * header or in the query (401 AUTH_INVALID_TOKEN); a valid token that is not
 * a user's (403 AUTH_INSUFFICIENT_PERMISSIONS). */
static void
test_handshake_refused (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(SrvSocket) none = srv_ws_open (fixture->server, NULL, NULL);
  g_autoptr(SrvSocket) wrong = srv_ws_open (fixture->server, "ut_wrong", NULL);
  g_autoptr(SrvSocket) query = srv_ws_open (fixture->server, NULL, "?token=ut_wrong");
  g_autoptr(SrvSocket) service = srv_ws_open (fixture->server, fixture->key, NULL);
  g_autofree char *key_query = g_strconcat ("?token=", fixture->key, NULL);
  g_autoptr(SrvAnswer) none_answer = refused_handshake (fixture->server, NULL, NULL);
  g_autoptr(SrvAnswer) wrong_answer = refused_handshake (fixture->server, "ut_wrong", NULL);
  g_autoptr(SrvAnswer) query_answer = refused_handshake (fixture->server, NULL, "?token=ut_wrong");
  g_autoptr(SrvAnswer) service_answer = refused_handshake (fixture->server, fixture->key, NULL);
  g_autoptr(SrvAnswer) service_query = refused_handshake (fixture->server, NULL, key_query);
  g_autoptr(SrvAnswer) admin_answer = refused_handshake (fixture->server,
                                                         triage_test_server_get_admin_token (fixture->server),
                                                         NULL);
  g_autoptr(SrvAnswer) plain = srv_request (fixture->server, "GET", "/api/v1/client/stream", "ut_wrong",
                                            NULL);
  g_autoptr(SrvAnswer) post = srv_request (fixture->server, "POST", "/api/v1/client/stream",
                                           fixture->alice, "{}");

  g_assert_null (none->ws);
  g_assert_cmpuint (none->status, ==, 401);
  g_assert_null (wrong->ws);
  g_assert_cmpuint (wrong->status, ==, 401);
  g_assert_null (query->ws);
  g_assert_cmpuint (query->status, ==, 401);
  g_assert_null (service->ws);
  g_assert_cmpuint (service->status, ==, 403);
  srv_assert_status (none_answer, 401, "AUTH_INVALID_TOKEN");
  srv_assert_status (wrong_answer, 401, "AUTH_INVALID_TOKEN");
  srv_assert_status (query_answer, 401, "AUTH_INVALID_TOKEN");
  srv_assert_status (service_answer, 403, "AUTH_INSUFFICIENT_PERMISSIONS");
  g_assert_nonnull (strstr (service_answer->body, "a service API key"));
  srv_assert_status (service_query, 403, "AUTH_INSUFFICIENT_PERMISSIONS");
  srv_assert_status (admin_answer, 403, "AUTH_INSUFFICIENT_PERMISSIONS");
  g_assert_nonnull (strstr (admin_answer->body, "the admin token"));
  srv_assert_status (plain, 401, "AUTH_INVALID_TOKEN");
  srv_assert_status (post, 405, "METHOD_NOT_ALLOWED");
}

static void
send_text (SrvSocket  *sock,
           const char *text)
{
  soup_websocket_connection_send_text (sock->ws, text);
}

/* The code of the last frame @sock received, an error frame. */
static const char *
last_error_code (SrvSocket *sock)
{
  JsonObject *frame = sock->frames->pdata[sock->frames->len - 1];

  g_assert_cmpstr (srv_frame_type (frame), ==, "error");
  return json_object_get_string_member (json_object_get_object_member (frame, "data"), "code");
}

/* acknowledge moves a notification on; nonsense gets an error frame and the
 * connection stays. */
static void
test_client_frames (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(SrvSocket) sock = srv_ws_open (fixture->server, fixture->alice, NULL);
  g_autoptr(SrvSocket) other = srv_ws_open (fixture->server, fixture->alice, NULL);
  g_autofree char *id = srv_post (fixture->server, fixture->key, "Ack me");
  g_autofree char *bobs = srv_post (fixture->server, fixture->shared_key, "Shared");
  g_autofree char *frame = NULL, *status = NULL, *upper = NULL;
  guint errors;
  static const guint8 binary[] = { 0x00, 0xff };

  srv_wait_until (srv_count_frames (sock, "notification", id) == 1, "the notification");

  upper = g_ascii_strup (id, -1);
  frame = g_strdup_printf ("{\"type\":\"acknowledge\",\"data\":{\"notification_id\":\"%s\"}}", upper);
  send_text (sock, frame);
  srv_wait_until (srv_find_update (other, id, "acknowledged") != NULL, "the acknowledged update");
  status = srv_status_of (fixture->server, fixture->key, id);
  g_assert_cmpstr (status, ==, "acknowledged");
  /* Twice is no error and no second transition. */
  send_text (sock, frame);
  send_text (sock, "{\"type\":\"heartbeat_ack\",\"data\":{}}");
  send_text (sock, "{\"type\":\"heartbeat_ack\"}");
  send_text (sock, "{\"type\":\"some_future_frame\",\"data\":{\"x\":1}}");
  srv_sleep (300);
  g_assert_cmpuint (srv_count_frames (sock, "error", NULL), ==, 0);
  /* delivered when pushed, acknowledged once */
  g_assert_cmpuint (srv_count_frames (other, "status_update", id), ==, 2);
  g_assert_nonnull (srv_find_update (other, id, "delivered"));

  /* Each of these is answered with an error frame naming the problem, with its code. */
  errors = 0;
  send_text (sock, "{not json");
  errors++;
  srv_wait_until (srv_count_frames (sock, "error", NULL) == errors, "an error for bad JSON");
  g_assert_cmpstr (last_error_code (sock), ==, "INVALID_JSON");
  send_text (sock, "{\"type\":\"acknowledge\",\"data\":{\"notification_id\":"
                   "\"00000000-0000-4000-8000-000000000000\"}}");
  errors++;
  srv_wait_until (srv_count_frames (sock, "error", NULL) == errors, "an error for an unknown id");
  g_assert_cmpstr (last_error_code (sock), ==, "NOTIFICATION_NOT_FOUND");
  send_text (sock, "{\"type\":\"notification\",\"data\":{}}");
  errors++;
  srv_wait_until (srv_count_frames (sock, "error", NULL) == errors, "an error for a server frame");
  g_assert_cmpstr (last_error_code (sock), ==, "PROTOCOL_ERROR");
  soup_websocket_connection_send_binary (sock->ws, binary, sizeof binary);
  errors++;
  srv_wait_until (srv_count_frames (sock, "error", NULL) == errors, "an error for a binary frame");
  g_assert_cmpstr (last_error_code (sock), ==, "PROTOCOL_ERROR");
  for (guint i = sock->frames->len - errors; i < sock->frames->len; i++)
    {
      JsonObject *error = json_object_get_object_member (sock->frames->pdata[i], "data");

      g_assert_true (json_object_has_member (error, "message"));
      g_assert_true (json_object_has_member (error, "request_id"));
    }
  g_assert_false (sock->closed);

  /* Bob cannot acknowledge what is not his: it is unknown to him. */
  {
    g_autoptr(SrvSocket) bob = srv_ws_open (fixture->server, fixture->bob, NULL);
    g_autofree char *bob_frame = g_strdup_printf ("{\"type\":\"acknowledge\",\"data\":"
                                                  "{\"notification_id\":\"%s\"}}", id);

    send_text (bob, bob_frame);
    srv_wait_until (srv_count_frames (bob, "error", NULL) == 1, "bob's error");
    g_free (status);
    status = srv_status_of (fixture->server, fixture->key, id);
    g_assert_cmpstr (status, ==, "acknowledged");
  }

  /* Acknowledged after its answer: it stays answered. The frames of a
   * connection are read in order, so once the bad JSON after it has its
   * error, the acknowledgement has been handled. */
  srv_respond (fixture->server, fixture->alice, id);
  srv_wait_until (srv_find_update (other, id, "responded") != NULL, "the responded update");
  send_text (sock, frame);
  send_text (sock, "{not json");
  errors++;
  srv_wait_until (srv_count_frames (sock, "error", NULL) == errors, "an error after the late ack");
  g_free (status);
  status = srv_status_of (fixture->server, fixture->key, id);
  g_assert_cmpstr (status, ==, "responded");
  g_assert_cmpuint (srv_count_frames (other, "status_update", id), ==, 3);
}

/* An idle limit of three beats, not two: on a loaded machine an answer may
 * take a second longer than the one before. */
static const char * const fast_beats[] = { "--heartbeat-interval", "1", "--idle-timeout", "3", NULL };

/* Heartbeats come at the interval; a client that never speaks is closed with
 * 4000 after the idle timeout, one that answers stays. */
static void
test_heartbeat_and_idle (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(SrvSocket) silent = srv_ws_open (fixture->server, fixture->alice, NULL);
  g_autoptr(SrvSocket) talking = srv_ws_open (fixture->server, fixture->alice, NULL);
  g_autoptr(GDateTime) stamp = NULL;
  gint64 opened = g_get_monotonic_time ();
  JsonObject *beat;

  while (!silent->closed)
    {
      guint seen = srv_count_frames (talking, "heartbeat", NULL);

      srv_wait_until (silent->closed || srv_count_frames (talking, "heartbeat", NULL) > seen,
                      "a heartbeat or the idle close");
      if (srv_count_frames (talking, "heartbeat", NULL) > seen)
        soup_websocket_connection_send_text (talking->ws, "{\"type\":\"heartbeat_ack\",\"data\":{}}");
    }
  g_assert_cmpuint (silent->close_code, ==, 4000);
  g_assert_cmpint (g_get_monotonic_time () - opened, >=, 3 * G_USEC_PER_SEC - 100000);
  g_assert_cmpuint (srv_count_frames (silent, "heartbeat", NULL), >=, 1);

  beat = srv_find_frame (talking, "heartbeat", NULL);
  g_assert_nonnull (beat);
  stamp = g_date_time_new_from_iso8601 (json_object_get_string_member (
                                          json_object_get_object_member (beat, "data"), "timestamp"),
                                        NULL);
  g_assert_nonnull (stamp);

  /* The one that answers outlives the idle timeout. */
  while (g_get_monotonic_time () - opened < 4500 * 1000)
    {
      guint seen = srv_count_frames (talking, "heartbeat", NULL);

      srv_wait_until (srv_count_frames (talking, "heartbeat", NULL) > seen, "a heartbeat");
      soup_websocket_connection_send_text (talking->ws, "{\"type\":\"heartbeat_ack\",\"data\":{}}");
    }
  g_assert_false (talking->closed);
}

static const char * const two_streams[] = { "--limit", "websockets=2", NULL };

/* One stream over the cap gets an error frame and close code 4029; a closed
 * stream frees its place. */
static void
test_connection_cap (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(SrvSocket) first = srv_ws_open (fixture->server, fixture->alice, NULL);
  g_autoptr(SrvSocket) second = srv_ws_open (fixture->server, fixture->alice, NULL);
  g_autoptr(SrvSocket) third = srv_ws_open (fixture->server, fixture->alice, NULL);
  g_autoptr(SrvSocket) bobs = srv_ws_open (fixture->server, fixture->bob, NULL);
  g_autoptr(SrvSocket) again = NULL;
  JsonObject *error;

  g_assert_nonnull (third->ws);
  srv_wait_until (third->closed, "the refused stream to close");
  g_assert_cmpuint (third->close_code, ==, 4029);
  error = srv_find_frame (third, "error", NULL);
  g_assert_nonnull (error);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (error, "data"),
                                                  "code"), ==, "RATE_LIMIT_EXCEEDED");
  /* Per user: bob is not counted against alice. */
  srv_sleep (100);
  g_assert_false (bobs->closed);
  g_assert_false (first->closed);

  /* A closed stream frees its place once the server has seen the close,
   * which may come a moment after our side saw it: until then a new stream is
   * refused (4029) like the third; the place must come free, and a stream
   * that gets it stays and hears what is new. */
  soup_websocket_connection_close (first->ws, SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
  srv_wait_until (first->closed, "the first stream to close");
  for (guint tries = 0; again == NULL; tries++)
    {
      g_autofree char *id = NULL;

      g_assert_cmpuint (tries, <, 100);
      again = srv_ws_open (fixture->server, fixture->alice, NULL);
      g_assert_nonnull (again->ws);
      id = srv_post (fixture->server, fixture->key, "For the stream in the freed place");
      srv_wait_until (again->closed || srv_count_frames (again, "notification", id) == 1,
                      "the new stream to be refused or to hear the new request");
      if (again->closed)
        {
          g_assert_cmpuint (again->close_code, ==, 4029);
          g_clear_pointer (&again, srv_ws_free);
        }
    }
  g_assert_false (again->closed);
}

/* A frame over 1 MiB closes the connection with 1009; the server stays up. */
static void
test_frame_cap (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(SrvSocket) sock = srv_ws_open (fixture->server, fixture->alice, NULL);
  g_autoptr(SrvSocket) after = NULL;
  gsize size = 1024 * 1024 + 1;
  g_autofree char *big = g_malloc (size + 1);

  memset (big, ' ', size);
  big[size] = '\0';
  send_text (sock, big);
  srv_wait_until (sock->closed, "the close for a large frame");
  g_assert_cmpuint (sock->close_code, ==, SOUP_WEBSOCKET_CLOSE_TOO_BIG);

  after = srv_ws_open (fixture->server, fixture->alice, NULL);
  g_assert_nonnull (after->ws);
}

/* SIGTERM closes streams with 1001 (going away) and the server exits 0. */
static void
test_shutdown (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(SrvSocket) sock = srv_ws_open (fixture->server, fixture->alice, NULL);
  g_autoptr(SrvEvents) events = srv_events_open (fixture->server, fixture->alice, NULL, NULL);

  g_assert_nonnull (sock->ws);
  srv_wait_until (srv_find_event (events, "ping", NULL) != NULL, "the first ping");
  kill (triage_test_server_get_pid (fixture->server), SIGTERM);
  srv_wait_until (sock->closed && events->ended, "the streams to end");
  g_assert_cmpuint (sock->close_code, ==, SOUP_WEBSOCKET_CLOSE_GOING_AWAY);
  g_assert_true (triage_test_server_stop (fixture->server));
  g_assert_true (triage_test_server_restart (fixture->server, NULL));
}

/* ---- SSE ---- */

static gint64
event_number (SrvEvent *event)
{
  g_assert_nonnull (event->id);
  return g_ascii_strtoll (event->id, NULL, 10);
}

/* Events carry ids; a client that comes back with Last-Event-ID gets exactly
 * what it missed, even across a restart of the server. */
static void
test_sse_resume (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *first = srv_post (fixture->server, fixture->key, "Before");
  g_autofree char *second = NULL, *missed = NULL;
  g_autofree char *last_id = NULL, *query = NULL;
  g_autoptr(SrvEvents) events = srv_events_open (fixture->server, fixture->alice, NULL, NULL);
  g_autoptr(SrvEvents) resumed = NULL, by_query = NULL;
  const char *content_type;
  SrvEvent *event;

  g_assert_cmpuint (events->status, ==, 200);
  content_type = soup_message_headers_get_content_type (soup_message_get_response_headers (events->msg),
                                                        NULL);
  g_assert_cmpstr (content_type, ==, "text/event-stream");
  srv_wait_until (srv_find_event (events, "notification", first) != NULL, "the pending notification");
  /* The bare object, no envelope. */
  {
    g_autoptr(JsonObject) object = srv_parse_object (srv_find_event (events, "notification", first)->data);

    g_assert_cmpstr (json_object_get_string_member (object, "id"), ==, first);
    g_assert_false (json_object_has_member (object, "type"));
  }

  second = srv_post (fixture->server, fixture->key, "Live");
  srv_wait_until (srv_find_event (events, "notification", second) != NULL, "the live notification");
  event = srv_find_event (events, "notification", second);
  g_assert_cmpint (event_number (event), >, event_number (srv_find_event (events, "notification", first)));
  last_id = g_strdup (event->id);
  g_clear_pointer (&events, srv_events_free);

  /* Missed while away, across a kill -9 and a restart. */
  srv_respond (fixture->server, fixture->alice, first);
  missed = srv_post (fixture->server, fixture->key, "Missed");
  triage_test_server_kill (fixture->server);
  g_assert_true (triage_test_server_restart (fixture->server, NULL));

  resumed = srv_events_open (fixture->server, fixture->alice, NULL, last_id);
  srv_wait_until (srv_find_event (resumed, "notification", missed) != NULL, "the missed notification");
  g_assert_nonnull (srv_find_event (resumed, "status_update", "\"responded\""));
  g_assert_null (srv_find_event (resumed, "notification", second));
  for (guint i = 0; i < resumed->events->len; i++)
    {
      SrvEvent *each = resumed->events->pdata[i];

      if (each->id != NULL)
        g_assert_cmpint (event_number (each), >, g_ascii_strtoll (last_id, NULL, 10));
    }

  /* The same by query parameter. */
  query = g_strdup_printf ("?last_event_id=%s", last_id);
  by_query = srv_events_open (fixture->server, fixture->alice, query, NULL);
  srv_wait_until (srv_find_event (by_query, "notification", missed) != NULL, "the resume by query");
  g_assert_null (srv_find_event (by_query, "notification", second));
}

/* A resume id older than the log reaches back to, or none: the whole pending set. */
static void
test_sse_snapshot (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *pending = srv_post (fixture->server, fixture->key, "Pending");
  g_autoptr(SrvEvents) fresh = srv_events_open (fixture->server, fixture->alice, NULL, NULL);
  g_autoptr(SrvEvents) bob = srv_events_open (fixture->server, fixture->bob, NULL, NULL);

  srv_wait_until (srv_find_event (fresh, "notification", pending) != NULL, "the pending set");
  srv_wait_until (srv_find_event (bob, "ping", NULL) != NULL, "bob's first ping");
  g_assert_null (srv_find_event (bob, "notification", pending));
}

static void
test_sse_refused (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(SrvEvents) anonymous = srv_events_open (fixture->server, NULL, NULL, NULL);
  g_autoptr(SrvEvents) as_service = srv_events_open (fixture->server, fixture->key, NULL, NULL);
  g_autoptr(SrvEvents) bad_id = srv_events_open (fixture->server, fixture->alice, NULL, "twelve");
  g_autofree char *query = g_strconcat ("?token=", fixture->alice, NULL);
  g_autoptr(SrvEvents) by_query = srv_events_open (fixture->server, NULL, query, NULL);
  g_autoptr(GPtrArray) open = g_ptr_array_new_with_free_func ((GDestroyNotify) srv_events_free);
  g_autoptr(SrvEvents) over = NULL;

  g_assert_cmpuint (anonymous->status, ==, 401);
  g_assert_nonnull (strstr (anonymous->error_body, "\"AUTH_INVALID_TOKEN\""));
  g_assert_cmpuint (as_service->status, ==, 403);
  g_assert_nonnull (strstr (as_service->error_body, "\"AUTH_INSUFFICIENT_PERMISSIONS\""));
  g_assert_cmpuint (bad_id->status, ==, 400);
  g_assert_nonnull (strstr (bad_id->error_body, "\"INVALID_PARAMETER\""));
  g_assert_nonnull (strstr (bad_id->error_body, "last_event_id"));
  g_assert_cmpuint (by_query->status, ==, 200);

  /* The cap of 10 event streams per user (by_query is one). */
  for (guint i = 0; i < 9; i++)
    {
      SrvEvents *events = srv_events_open (fixture->server, fixture->alice, NULL, NULL);

      g_assert_cmpuint (events->status, ==, 200);
      g_ptr_array_add (open, events);
    }
  over = srv_events_open (fixture->server, fixture->alice, NULL, NULL);
  g_assert_cmpuint (over->status, ==, 429);
  g_assert_nonnull (strstr (over->error_body, "RATE_LIMIT_EXCEEDED"));
  g_assert_nonnull (soup_message_headers_get_one (soup_message_get_response_headers (over->msg),
                                                  "Retry-After"));
}

static const char * const fast_pings[] = { "--heartbeat-interval", "1", NULL };

static guint
count_pings (SrvEvents *events)
{
  guint pings = 0;

  for (guint i = 0; i < events->events->len; i++)
    pings += g_strcmp0 (((SrvEvent *) events->events->pdata[i])->event, "ping") == 0;
  return pings;
}

/* When the server sent the @n-th ping (from 0, the first has no time), by
 * the timestamp in it. */
static GDateTime *
ping_sent (SrvEvents *events,
           guint      n)
{
  for (guint i = 0; i < events->events->len; i++)
    {
      SrvEvent *event = events->events->pdata[i];
      g_autoptr(JsonObject) data = NULL;

      if (g_strcmp0 (event->event, "ping") != 0 || n-- > 0)
        continue;
      data = srv_parse_object (event->data);
      return g_date_time_new_from_iso8601 (json_object_get_string_member (data, "timestamp"), NULL);
    }
  g_assert_not_reached ();
}

/* A ping at once (the headers go out, its data {}), then one per heartbeat
 * interval — paced by the server's clock (the times in those pings): when
 * this test reads one late on a busy machine, the next two may follow it
 * sooner here, though they were sent a second apart. */
static void
test_sse_ping (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(SrvEvents) events = srv_events_open (fixture->server, fixture->alice, NULL, NULL);
  g_autoptr(GDateTime) first = NULL;
  g_autoptr(GDateTime) last = NULL;

  srv_wait_until (count_pings (events) == 4, "the first ping and three more");
  first = ping_sent (events, 1);
  last = ping_sent (events, 3);
  g_assert_nonnull (first);
  g_assert_nonnull (last);
  g_assert_cmpint (g_date_time_difference (last, first), >=, 1500 * 1000);
  g_assert_false (events->ended);
}

/* The ids and statuses of every page of alice's pending list, @limit a page. */
static GPtrArray *
list_pending_pages (Fixture    *fixture,
                    guint       limit,
                    GHashTable *statuses)
{
  GPtrArray *ids = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *cursor = NULL;

  do
    {
      g_autofree char *path = NULL;
      g_autoptr(SrvAnswer) answer = NULL;
      g_autoptr(JsonObject) object = NULL;
      JsonArray *items;
      JsonObject *pagination;

      if (cursor == NULL)
        path = g_strdup_printf ("/api/v1/client/notifications?status=pending&sort=oldest&limit=%u",
                                limit);
      else
        {
          g_autofree char *escaped = g_uri_escape_string (cursor, NULL, FALSE);

          path = g_strdup_printf ("/api/v1/client/notifications?status=pending&sort=oldest"
                                  "&limit=%u&cursor=%s", limit, escaped);
        }
      answer = srv_request (fixture->server, "GET", path, fixture->alice, NULL);
      srv_assert_status (answer, 200, NULL);
      object = srv_parse_object (answer->body);
      items = json_object_get_array_member (object, "notifications");
      for (guint i = 0; i < json_array_get_length (items); i++)
        {
          JsonObject *item = json_array_get_object_element (items, i);
          const char *id = json_object_get_string_member (item, "id");

          g_ptr_array_add (ids, g_strdup (id));
          g_hash_table_insert (statuses, g_strdup (id),
                               g_strdup (json_object_get_string_member (item, "status")));
        }
      pagination = json_object_get_object_member (object, "pagination");
      g_clear_pointer (&cursor, g_free);
      if (json_object_get_boolean_member (pagination, "has_more"))
        cursor = g_strdup (json_object_get_string_member (pagination, "next_cursor"));
      /* The next cursor in a header too, for a client to ask for the next
       * page before it parses this one. */
      g_assert_cmpstr (soup_message_headers_get_one (answer->headers, "X-Triage-Next-Cursor"), ==,
                       cursor);
    }
  while (cursor != NULL);
  return ids;
}

/* Listing pages marks every new row of a page delivered at once (one
 * statement a page), and names the next page's cursor in a header as in
 * the body. The requests are made while no stream is open, so the list is
 * what delivers them (a push would, racing it): each listed row says
 * delivered, the service sees delivered, and, as a REST read's move is not
 * pushed (docs/protocol.md), no stream of any recipient is sent a status
 * update for them, on the first list or on a second. */
static void
test_list_marks_page_delivered (Fixture       *fixture,
                                gconstpointer  data)
{
  g_autoptr(SrvSocket) alice = NULL;
  g_autoptr(SrvSocket) bob = NULL;
  g_autoptr(GPtrArray) posted = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) listed = NULL;
  g_autoptr(GPtrArray) again = NULL;
  g_autoptr(GHashTable) statuses = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autofree char *read_before = NULL, *answered = NULL, *marker = NULL;
  g_autofree char *path = NULL;
  g_autoptr(SrvAnswer) get = NULL;

  for (guint i = 0; i < 7; i++)
    {
      g_autofree char *title = g_strdup_printf ("Request %u", i);

      /* Every third also bob's. */
      g_ptr_array_add (posted, srv_post (fixture->server, i % 3 == 0 ? fixture->shared_key
                                                                    : fixture->key, title));
    }
  read_before = srv_post (fixture->server, fixture->key, "Read before");
  path = g_strconcat ("/api/v1/client/notifications/", read_before, NULL);
  get = srv_request (fixture->server, "GET", path, fixture->alice, NULL);
  srv_assert_status (get, 200, NULL);
  g_ptr_array_add (posted, g_strdup (read_before));
  answered = srv_post (fixture->server, fixture->key, "Answered");

  /* The devices connect now, without the snapshot, as the app's do. */
  alice = srv_ws_open (fixture->server, fixture->alice, "?snapshot=false");
  bob = srv_ws_open (fixture->server, fixture->bob, "?snapshot=false");
  g_assert_nonnull (alice->ws);
  g_assert_nonnull (bob->ws);
  srv_respond (fixture->server, fixture->alice, answered);
  srv_wait_until (srv_find_update (alice, answered, "responded") != NULL, "the answer's update");

  /* Pages of 3: the last one short. */
  listed = list_pending_pages (fixture, 3, statuses);
  g_assert_cmpuint (listed->len, ==, posted->len);
  for (guint i = 0; i < posted->len; i++)
    {
      const char *id = posted->pdata[i];
      g_autofree char *status = NULL;

      g_assert_cmpstr (listed->pdata[i], ==, id);
      g_assert_cmpstr (g_hash_table_lookup (statuses, id), ==, "delivered");
      status = srv_status_of (fixture->server, i % 3 == 0 && i < 7 ? fixture->shared_key
                                                                  : fixture->key, id);
      g_assert_cmpstr (status, ==, "delivered");
    }

  /* Listed again: nothing moves. The marker's frames come after anything
   * either list would have announced (events go out in commit order). */
  again = list_pending_pages (fixture, 1000, statuses);
  g_assert_cmpuint (again->len, ==, posted->len);
  marker = srv_post (fixture->server, fixture->shared_key, "Marker");
  srv_wait_until (srv_count_frames (alice, "notification", marker) == 1, "the marker (alice)");
  srv_wait_until (srv_count_frames (bob, "notification", marker) == 1, "the marker (bob)");
  for (guint i = 0; i < posted->len; i++)
    {
      g_assert_cmpuint (srv_count_frames (alice, "status_update", posted->pdata[i]), ==, 0);
      g_assert_cmpuint (srv_count_frames (bob, "status_update", posted->pdata[i]), ==, 0);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, args, func) \
  g_test_add (path, Fixture, args, srv_team_setup, func, srv_team_teardown)

  ADD ("/server/stream/pending-on-connect", NULL, test_pending_on_connect);
  ADD ("/server/stream/no-snapshot", NULL, test_no_snapshot);
  ADD ("/server/stream/list-marks-page-delivered", NULL, test_list_marks_page_delivered);
  ADD ("/server/stream/fan-out", NULL, test_fan_out);
  ADD ("/server/stream/expiry-pushed", NULL, test_expiry_pushed);
  ADD ("/server/stream/handshake-refused", NULL, test_handshake_refused);
  ADD ("/server/stream/client-frames", NULL, test_client_frames);
  ADD ("/server/stream/heartbeat-and-idle", fast_beats, test_heartbeat_and_idle);
  ADD ("/server/stream/connection-cap", two_streams, test_connection_cap);
  ADD ("/server/stream/frame-cap", NULL, test_frame_cap);
  ADD ("/server/stream/shutdown", NULL, test_shutdown);
  ADD ("/server/sse/resume", NULL, test_sse_resume);
  ADD ("/server/sse/snapshot", NULL, test_sse_snapshot);
  ADD ("/server/sse/refused", NULL, test_sse_refused);
  ADD ("/server/sse/ping", fast_pings, test_sse_ping);
#undef ADD

  return g_test_run ();
}
