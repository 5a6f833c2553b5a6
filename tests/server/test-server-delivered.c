/* test-server-delivered.c — a REST read delivers without a push; a push delivers with one
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * docs/protocol.md: any REST read by a recipient moves `created` →
 * `delivered`, and the reader has that in its answer; it is not pushed as a
 * status update (a resync of 10,000 new requests was 10,000 of them). A
 * request pushed to an open stream is delivered by the push, which is pushed
 * to every stream of every recipient as before, and so is every later move.
 */

#define G_LOG_DOMAIN "test-server-delivered"

#include "server-test-util.h"

/* alice, bob, team-bot (theirs) and deploy-bot (alice's): server-test-util.h */
typedef SrvTeam Fixture;

/* The status of @id in alice's pending list (one page is enough here). */
static char *
listed_status (Fixture    *fixture,
               const char *id)
{
  g_autoptr(JsonObject) item = srv_find_listed (fixture->server, fixture->alice,
                                                "?status=pending&limit=100", id);

  return item != NULL ? g_strdup (json_object_get_string_member (item, "status")) : NULL;
}

/* Made while no stream was open: alice's devices connect (without the
 * snapshot, as the app's do), one lists. The list answers `delivered`, the
 * service sees `delivered`, and neither alice's streams nor bob's are sent a
 * status update for it; the answer that follows is sent to all of them. */
static void
test_read_not_pushed (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *id = srv_post (fixture->server, fixture->shared_key, "Made while away");
  g_autofree char *listed = NULL, *status = NULL, *marker = NULL;
  g_autoptr(SrvSocket) lister = srv_ws_open (fixture->server, fixture->alice, "?snapshot=false");
  g_autoptr(SrvSocket) other_device = srv_ws_open (fixture->server, fixture->alice, "?snapshot=false");
  g_autoptr(SrvSocket) bob = srv_ws_open (fixture->server, fixture->bob, "?snapshot=false");
  g_autofree char *path = g_strconcat ("/api/v1/client/notifications/", id, NULL);
  g_autoptr(SrvAnswer) get = NULL;

  g_assert_nonnull (lister->ws);
  g_assert_nonnull (other_device->ws);
  g_assert_nonnull (bob->ws);
  status = srv_status_of (fixture->server, fixture->shared_key, id);
  g_assert_cmpstr (status, ==, "created");

  listed = listed_status (fixture, id);
  g_assert_cmpstr (listed, ==, "delivered");
  g_clear_pointer (&status, g_free);
  status = srv_status_of (fixture->server, fixture->shared_key, id);
  g_assert_cmpstr (status, ==, "delivered");

  /* A marker posted after the list: its frames come after anything the
   * list would have pushed (events go out in the order they commit). */
  marker = srv_post (fixture->server, fixture->shared_key, "Marker");
  srv_wait_until (srv_count_frames (lister, "notification", marker) == 1, "the marker (lister)");
  srv_wait_until (srv_count_frames (other_device, "notification", marker) == 1,
                  "the marker (other device)");
  srv_wait_until (srv_count_frames (bob, "notification", marker) == 1, "the marker (bob)");
  g_assert_cmpuint (srv_count_frames (lister, "status_update", id), ==, 0);
  g_assert_cmpuint (srv_count_frames (other_device, "status_update", id), ==, 0);
  g_assert_cmpuint (srv_count_frames (bob, "status_update", id), ==, 0);

  /* The marker was pushed, so delivered by the push: that move is pushed. */
  srv_wait_until (srv_find_update (other_device, marker, "delivered") != NULL,
                  "the marker's delivered (other device)");
  srv_wait_until (srv_find_update (bob, marker, "delivered") != NULL, "the marker's delivered (bob)");

  /* A single GET delivers without a push too (already delivered here: no move). */
  get = srv_request (fixture->server, "GET", path, fixture->alice, NULL);
  srv_assert_status (get, 200, NULL);

  /* Answered on one device: every stream of every recipient hears of it. */
  srv_respond (fixture->server, fixture->alice, id);
  srv_wait_until (srv_find_update (lister, id, "responded") != NULL, "the answer (lister)");
  srv_wait_until (srv_find_update (other_device, id, "responded") != NULL,
                  "the answer (other device)");
  srv_wait_until (srv_find_update (bob, id, "responded") != NULL, "the answer (bob)");
  g_assert_null (srv_find_update (other_device, id, "delivered"));
}

/* A single GET of a request made while away delivers it, unpushed. */
static void
test_get_not_pushed (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autofree char *id = srv_post (fixture->server, fixture->shared_key, "Read by id");
  g_autoptr(SrvSocket) other_device = srv_ws_open (fixture->server, fixture->alice, "?snapshot=false");
  g_autofree char *path = g_strconcat ("/api/v1/client/notifications/", id, NULL);
  g_autofree char *status = NULL, *marker = NULL;
  g_autoptr(SrvAnswer) get = NULL;
  g_autoptr(JsonObject) object = NULL;

  g_assert_nonnull (other_device->ws);
  get = srv_request (fixture->server, "GET", path, fixture->alice, NULL);
  srv_assert_status (get, 200, NULL);
  object = srv_parse_object (get->body);
  g_assert_cmpstr (json_object_get_string_member (object, "status"), ==, "delivered");
  status = srv_status_of (fixture->server, fixture->shared_key, id);
  g_assert_cmpstr (status, ==, "delivered");

  marker = srv_post (fixture->server, fixture->shared_key, "Marker");
  srv_wait_until (srv_count_frames (other_device, "notification", marker) == 1, "the marker");
  g_assert_cmpuint (srv_count_frames (other_device, "status_update", id), ==, 0);
}

/* Open when it is made: pushed, which delivers it, and that is pushed to
 * every stream of every recipient; a list then moves nothing. */
static void
test_push_delivers_and_is_pushed (Fixture       *fixture,
                                  gconstpointer  data)
{
  g_autoptr(SrvSocket) alice = srv_ws_open (fixture->server, fixture->alice, "?snapshot=false");
  g_autoptr(SrvSocket) bob = srv_ws_open (fixture->server, fixture->bob, "?snapshot=false");
  g_autofree char *id = NULL, *listed = NULL, *marker = NULL;

  g_assert_nonnull (alice->ws);
  g_assert_nonnull (bob->ws);
  id = srv_post (fixture->server, fixture->shared_key, "Made while here");
  srv_wait_until (srv_find_update (alice, id, "delivered") != NULL, "alice's delivered");
  srv_wait_until (srv_find_update (bob, id, "delivered") != NULL, "bob's delivered");

  listed = listed_status (fixture, id);
  g_assert_cmpstr (listed, ==, "delivered");
  marker = srv_post (fixture->server, fixture->shared_key, "Marker");
  srv_wait_until (srv_count_frames (alice, "notification", marker) == 1, "the marker");
  g_assert_cmpuint (srv_count_frames (alice, "status_update", id), ==, 1);
}

/* Alice's stream takes AITP requests only: an ATP request is pushed to no
 * stream of hers, so it stays created and no delivery is logged. */
static void
test_other_protocol_not_delivered (Fixture       *fixture,
                                   gconstpointer  data)
{
  g_autoptr(SrvSocket) alice = srv_ws_open (fixture->server, fixture->alice,
                                            "?snapshot=false&protocols=aitp");
  g_autofree char *id = NULL, *status = NULL, *marker = NULL;
  g_autoptr(SrvSocket) taker = NULL;

  g_assert_nonnull (alice->ws);
  id = srv_post (fixture->server, fixture->key, "Not for this stream");
  status = srv_status_of (fixture->server, fixture->key, id);
  g_assert_cmpstr (status, ==, "created");

  /* A stream taking ATP opened after: the marker is delivered by its push. */
  taker = srv_ws_open (fixture->server, fixture->alice, "?snapshot=false");
  marker = srv_post (fixture->server, fixture->key, "Marker");
  srv_wait_until (srv_find_update (taker, marker, "delivered") != NULL, "the marker's delivered");
  g_assert_cmpuint (srv_count_frames (alice, "notification", id), ==, 0);
  g_assert_cmpuint (srv_count_frames (alice, "status_update", id), ==, 0);
  g_clear_pointer (&status, g_free);
  status = srv_status_of (fixture->server, fixture->key, id);
  g_assert_cmpstr (status, ==, "created");
}

static void
on_wrote_body (SoupMessage *msg,
               guint       *written)
{
  (*written)++;
}

/* Sends @method @path with @token and @body (may be NULL), not waiting:
 * its result goes to @results, its message to @messages; *@written counts
 * those sent. */
static void
send_async (Fixture    *fixture,
            const char *token,
            const char *method,
            const char *path,
            const char *body,
            GPtrArray  *messages,
            GPtrArray  *results,
            guint      *written)
{
  SoupSession *session = triage_test_server_get_session (fixture->server);
  g_autofree char *url = g_strconcat (triage_test_server_get_url (fixture->server), path, NULL);
  g_autofree char *auth = g_strconcat ("Bearer ", token, NULL);
  SoupMessage *msg = soup_message_new (method, url);

  soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
  if (body != NULL)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

      soup_message_set_request_body_from_bytes (msg, "application/json", bytes);
    }
  g_signal_connect (msg, "wrote-body", G_CALLBACK (on_wrote_body), written);
  soup_session_send_and_read_async (session, msg, G_PRIORITY_DEFAULT, NULL, srv_result_cb_array,
                                    results);
  g_ptr_array_add (messages, msg);
}

/* Posts @n requests as @key at once, not waiting (send_async ()). */
static void
post_many (Fixture    *fixture,
           guint       n,
           GPtrArray  *messages,
           GPtrArray  *results,
           guint      *written)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *body = g_strdup_printf ("{\"context\":{\"title\":\"Race %u\","
                                               "\"description\":\"D\"},\"actions\":[{\"id\":"
                                               "\"ok\",\"label\":\"OK\",\"response_type\":"
                                               "\"simple\"}]}", messages->len);

      send_async (fixture, fixture->key, "POST", "/api/v1/notifications", body, messages, results, written);
    }
}

/* The ids the 201s of @messages gave, once all @results are in. */
static void
posted_ids (Fixture   *fixture,
            GPtrArray *messages,
            GPtrArray *results,
            GPtrArray *ids)
{
  SoupSession *session = triage_test_server_get_session (fixture->server);

  srv_wait_until (results->len == messages->len, "the posts' answers");
  for (guint i = 0; i < messages->len; i++)
    {
      SoupMessage *msg = messages->pdata[i];
      g_autoptr(GBytes) body = NULL;
      g_autoptr(JsonObject) object = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *text = NULL;

      /* The results came in any order: find each message's. */
      for (guint r = 0; r < results->len && body == NULL; r++)
        if (soup_session_get_async_result_message (session, results->pdata[r]) == msg)
          body = soup_session_send_and_read_finish (session, results->pdata[r], &error);
      g_assert_no_error (error);
      g_assert_nonnull (body);
      g_assert_cmpuint (soup_message_get_status (msg), ==, 201);
      text = g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
      object = srv_parse_object (text);
      g_ptr_array_add (ids, g_strdup (json_object_get_string_member (object, "notification_id")));
    }
}

/* A request's status is delivered exactly when the log holds the status
 * update of its delivery (once), or a list answered it delivered. Each round, alice's only stream closes
 * in the same turn of the client as a burst of requests is posted, so the
 * server may read some of them before the close and commit them after it,
 * in one batch: written delivered at its insert, as the stream was open,
 * such a request is taken back to created as the batch commits; one read
 * after the close is created; one committed before it, delivered by the
 * push. */
static void
test_closing_stream_race (Fixture       *fixture,
                          gconstpointer  data)
{
  enum { ROUNDS = 5, BURST = 12 };
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) statuses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(SrvEvents) log = NULL;
  g_autoptr(GHashTable) read_delivered = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                                 NULL);
  g_autofree char *marker = NULL;
  guint delivered = 0;

  for (guint round = 0; round < ROUNDS; round++)
    {
      g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(GPtrArray) lists = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(GPtrArray) listed = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(SrvSocket) alice = srv_ws_open (fixture->server, fixture->alice, "?snapshot=false");
      guint written = 0;

      g_assert_nonnull (alice->ws);
      post_many (fixture, BURST, messages, results, &written);
      srv_wait_until (written == BURST, "the posts sent");
      /* Every other round alice's app lists too: what the list answers
       * delivered stays delivered. */
      if (round % 2 == 1)
        send_async (fixture, fixture->alice, "GET", "/api/v1/client/notifications?limit=100", NULL,
                    lists, listed, &written);
      soup_websocket_connection_close (alice->ws, SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
      posted_ids (fixture, messages, results, ids);
      srv_wait_until (listed->len == lists->len, "the list");
      for (guint i = 0; i < lists->len; i++)
        {
          g_autoptr(GBytes) body = soup_session_send_and_read_finish (
            triage_test_server_get_session (fixture->server), listed->pdata[i], NULL);
          g_autofree char *text = g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
          g_autoptr(JsonObject) page = srv_parse_object (text);
          JsonArray *items = json_object_get_array_member (page, "notifications");

          for (guint n = 0; n < json_array_get_length (items); n++)
            {
              JsonObject *item = json_array_get_object_element (items, n);

              if (g_str_equal (json_object_get_string_member (item, "status"), "delivered"))
                g_hash_table_add (read_delivered,
                                  g_strdup (json_object_get_string_member (item, "id")));
            }
        }
      srv_wait_until (alice->closed, "alice's stream closed");
    }

  /* Answered once its batch (and every delivery before it) is durable. */
  marker = srv_post (fixture->server, fixture->key, "Marker");
  for (guint i = 0; i < ids->len; i++)
    g_ptr_array_add (statuses, srv_status_of (fixture->server, fixture->key, ids->pdata[i]));

  /* The whole log, replayed (nothing is marked by a replay). */
  log = srv_events_open (fixture->server, fixture->alice, NULL, "0");
  g_assert_cmpuint (log->status, ==, 200);
  srv_wait_until (srv_find_event (log, "notification", marker) != NULL, "the marker in the log");
  for (guint i = 0; i < ids->len; i++)
    {
      const char *id = ids->pdata[i];
      guint deliveries = 0;

      for (guint e = 0; e < log->events->len; e++)
        {
          SrvEvent *event = log->events->pdata[e];

          if (g_strcmp0 (event->event, "status_update") == 0 && strstr (event->data, id) != NULL &&
              strstr (event->data, "\"delivered\"") != NULL)
            deliveries++;
        }
      /* A REST read's delivery is not logged (test_read_not_pushed ()). */
      if (g_str_equal (statuses->pdata[i], "delivered"))
        {
          g_assert_cmpuint (deliveries, ==,
                            g_hash_table_contains (read_delivered, id) && deliveries == 0 ? 0 : 1);
          delivered++;
        }
      else
        {
          g_assert_cmpstr (statuses->pdata[i], ==, "created");
          g_assert_cmpuint (deliveries, ==, 0);
          g_assert_false (g_hash_table_contains (read_delivered, id));
        }
    }
  g_test_message ("%u of %u delivered", delivered, ids->len);
}

/* The statuses of @id's status updates in @log, in order, joined by spaces. */
static char *
logged_updates (SrvEvents  *log,
                const char *id)
{
  g_autoptr(GString) statuses = g_string_new (NULL);

  for (guint e = 0; e < log->events->len; e++)
    {
      SrvEvent *event = log->events->pdata[e];
      g_autoptr(JsonObject) object = NULL;
      JsonObject *update;

      if (g_strcmp0 (event->event, "status_update") != 0 || strstr (event->data, id) == NULL)
        continue;
      object = srv_parse_object (event->data);
      update = json_object_has_member (object, "data") ? json_object_get_object_member (object, "data")
                                                        : object;
      g_string_append_printf (statuses, "%s%s", statuses->len > 0 ? " " : "",
                              json_object_get_string_member (update, "status"));
    }
  return g_string_free (g_steal_pointer (&statuses), FALSE);
}

/* A request its service invalidates in the batch that makes it, while
 * alice's stream is open: written delivered at its insert, it is
 * invalidated before the batch commits, and no delivery is logged after
 * that end. Each request is posted with its own id and invalidated at once
 * on another connection: the PATCH may come before the request is stored
 * (404), in its batch, or after. */
static void
test_invalidated_in_its_batch (Fixture       *fixture,
                               gconstpointer  data)
{
  enum { BURST = 20 };
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(SrvSocket) alice = srv_ws_open (fixture->server, fixture->alice, "?snapshot=false");
  g_autoptr(SrvEvents) log = NULL;
  g_autofree char *marker = NULL;
  guint written = 0, invalidated = 0;

  g_assert_nonnull (alice->ws);
  for (guint i = 0; i < BURST; i++)
    {
      g_autofree char *id = g_uuid_string_random ();
      g_autofree char *body = g_strdup_printf ("{\"id\":\"%s\",\"context\":{\"title\":\"Ended\","
                                               "\"description\":\"D\"},\"actions\":[{\"id\":"
                                               "\"ok\",\"label\":\"OK\",\"response_type\":"
                                               "\"simple\"}]}", id);
      g_autofree char *path = g_strconcat ("/api/v1/notifications/", id, NULL);

      send_async (fixture, fixture->key, "POST", "/api/v1/notifications", body, messages, results, &written);
      send_async (fixture, fixture->key, "PATCH", path, "{\"status\":\"invalidated\"}", messages, results,
                  &written);
      g_ptr_array_add (ids, g_steal_pointer (&id));
    }
  srv_wait_until (results->len == messages->len, "the answers");
  for (guint i = 0; i < BURST; i++)
    {
      SoupMessage *post = messages->pdata[2 * i], *patch = messages->pdata[2 * i + 1];

      g_assert_cmpuint (soup_message_get_status (post), ==, 201);
      if (soup_message_get_status (patch) == 200)
        invalidated++;
      else
        g_assert_cmpuint (soup_message_get_status (patch), ==, 404);
    }

  marker = srv_post (fixture->server, fixture->key, "Marker");
  log = srv_events_open (fixture->server, fixture->alice, NULL, "0");
  g_assert_cmpuint (log->status, ==, 200);
  srv_wait_until (srv_find_event (log, "notification", marker) != NULL, "the marker in the log");
  for (guint i = 0; i < BURST; i++)
    {
      g_autofree char *updates = logged_updates (log, ids->pdata[i]);
      g_autofree char *status = srv_status_of (fixture->server, fixture->key, ids->pdata[i]);
      const char *end = strstr (updates, "invalidated");

      /* Nothing after the end, and the status is the last move logged. */
      g_assert_true (end == NULL || g_str_equal (end, "invalidated"));
      g_assert_true (g_str_has_suffix (updates, status) ||
                     (updates[0] == '\0' && g_str_equal (status, "created")));
    }
  g_test_message ("%u of %u invalidated", invalidated, (guint) BURST);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, srv_team_setup, func, srv_team_teardown)

  ADD ("/server/delivered/read-not-pushed", test_read_not_pushed);
  ADD ("/server/delivered/get-not-pushed", test_get_not_pushed);
  ADD ("/server/delivered/push-delivers-and-is-pushed", test_push_delivers_and_is_pushed);
  ADD ("/server/delivered/other-protocol-not-delivered", test_other_protocol_not_delivered);
  ADD ("/server/delivered/closing-stream-race", test_closing_stream_race);
  ADD ("/server/delivered/invalidated-in-its-batch", test_invalidated_in_its_batch);
#undef ADD

  return g_test_run ();
}
