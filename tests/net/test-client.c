/* test-client.c — AtpClient against a real triage-server
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>
#include <gio/gunixsocketaddress.h>
#include <libsoup/soup.h>

#include "net-test-common.h"

static const char *choice_actions =
  "[{\"id\":\"pick\",\"label\":\"Pick\",\"response_type\":\"choice\","
  "\"options\":[{\"value\":\"a\",\"label\":\"A\"},{\"value\":\"b\",\"label\":\"B\"}]},"
  "{\"id\":\"note\",\"label\":\"Note\",\"response_type\":\"text\","
  "\"constraints\":{\"min_length\":3,\"max_length\":10}}]";

/* The address policy */

static void
test_check_url (void)
{
  const char *good[] = {
    "https://triage.example.com", "https://triage.example.com:8443/base/", "wss://example.org",
    "http://localhost:8080", "http://127.0.0.1:1", "http://127.1.2.3", "http://[::1]:99",
    "ws://localhost", "HTTP://LOCALHOST",
  };
  const struct { const char *url; const char *needle; } bad[] = {
    { "http://example.com", "not encrypted" },
    { "http://192.168.1.10:8080", "not encrypted" },
    { "http://[::2]", "not encrypted" },
    { "http://localhost.example.com", "not encrypted" },
    { "ftp://example.com", "scheme" },
    { "file:///etc/passwd", "scheme" },
    { "htp://example.com", "not htp://" },
    { "example.com", "must begin with https:// (https://example.com)" },
    /* Not the scheme "localhost". */
    { "localhost:8443", "must begin with https:// (https://localhost:8443)" },
    { "triage.example.com:99999", "expected https://host[:port]" },
    { "https://triage example.com", "contains a space" },
    { "https://triage.example.com ", "contains a space" },
    { "https://triage.example.com\t", "a blank or control character" },
    { "https://triage.example.com\x01", "a blank or control character" },
    { "", "No server address" },
    { "https://user:pw@example.com", "user name or password" },
    { "https://example.com/?token=1", "query (?) or fragment (#); give the server's address alone" },
    { "https://example.com/#x", "fragment" },
    { "https://", "host" },
    /* Accepted, then "Connection refused" at every try. */
    { "https://triage.example.com:0/", "“https://triage.example.com:0/” names port 0" },
    { "http://127.0.0.1:0", "names port 0, where no server listens" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(GError) error = NULL;

      g_test_message ("good: %s", good[i]);
      g_assert_true (atp_client_check_url (good[i], &error));
      g_assert_no_error (error);
    }

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AtpClient) client = NULL;

      g_test_message ("bad: %s", bad[i].url);
      g_assert_false (atp_client_check_url (bad[i].url, &error));
      net_assert_error (error, ATP_ERROR_INVALID_FIELD_VALUE, bad[i].needle);
      g_clear_error (&error);

      client = atp_client_new (bad[i].url, &error);
      g_assert_null (client);
      net_assert_error (error, ATP_ERROR_INVALID_FIELD_VALUE, NULL);
    }
}

static void
test_local_socket_path (void)
{
  g_autofree char *path = atp_local_socket_path ();
  g_autofree char *expected = g_build_filename (g_get_user_runtime_dir (), "triage", "triage.sock", NULL);

  g_assert_cmpstr (path, ==, expected);
}

/* Every REST call */

static void
test_round_trip (NetFixture    *fixture,
                 gconstpointer  data)
{
  g_autofree char *json = net_test_submission (NULL, "Round trip", choice_actions);
  g_autoptr(AtpPostResult) post = NULL;
  g_autoptr(AtpNotification) seen = NULL;
  g_autoptr(AtpNotification) waited = NULL;
  g_autoptr(AtpResponse) response = NULL;
  g_autoptr(GPtrArray) pending = NULL;
  g_autoptr(GError) error = NULL;

  post = net_post (fixture->service, json, &error);
  g_assert_no_error (error);
  g_assert_true (atp_is_uuid_v4 (post->notification_id));
  g_assert_cmpint (post->status, ==, ATP_STATUS_CREATED);

  /* The service sees it pending, without an answer. */
  waited = net_wait_notification (fixture->service, post->notification_id, 0, &error);
  g_assert_no_error (error);
  g_assert_true (atp_status_is_pending (waited->status));
  g_assert_null (waited->response);
  g_clear_pointer (&waited, atp_notification_unref);

  pending = net_list_pending (fixture->user, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pending->len, ==, 1);
  g_assert_cmpstr (((AtpNotification *) pending->pdata[0])->id, ==, post->notification_id);
  g_assert_cmpstr (((AtpNotification *) pending->pdata[0])->service.id, ==, fixture->service_id);

  seen = net_get_notification (fixture->user, post->notification_id, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (seen->context.title, ==, "Round trip");
  g_assert_cmpuint (seen->actions->len, ==, 2);

  response = net_respond (fixture->user, post->notification_id, "pick", "\"b\"", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (response->notification_id, ==, post->notification_id);
  g_assert_cmpstr (response->action_id, ==, "pick");
  g_assert_cmpstr (json_node_get_string (response->response_data), ==, "b");
  g_assert_nonnull (response->responded_at);

  /* The long-poll answers at once now, with the response. */
  waited = net_wait_notification (fixture->service, post->notification_id, 5, &error);
  g_assert_no_error (error);
  g_assert_cmpint (waited->status, ==, ATP_STATUS_RESPONDED);
  g_assert_nonnull (waited->response);
  g_assert_cmpstr (waited->response->action_id, ==, "pick");
  g_assert_cmpstr (json_node_get_string (waited->response->response_data), ==, "b");

  /* Resending the same answer is an idempotent retry. */
  g_clear_pointer (&response, atp_response_unref);
  response = net_respond (fixture->user, post->notification_id, "pick", "\"b\"", &error);
  g_assert_no_error (error);

  g_clear_pointer (&pending, g_ptr_array_unref);
  pending = net_list_pending (fixture->user, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pending->len, ==, 0);
}

/* A long-poll returns when the person answers, not when the wait runs out. */
static void
answer_later_cb (gpointer data)
{
  gpointer *args = data;
  NetFixture *fixture = args[0];
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpResponse) response = net_respond (fixture->user, args[1], "ok", NULL, &error);

  g_assert_no_error (error);
  args[2] = GINT_TO_POINTER (TRUE);
}

static void
test_long_poll (NetFixture    *fixture,
                gconstpointer  data)
{
  g_autofree char *id = net_post_simple (fixture, "Long poll");
  g_autoptr(AtpNotification) waited = NULL;
  g_autoptr(GError) error = NULL;
  gpointer args[3] = { fixture, id, NULL };
  gint64 start = g_get_monotonic_time ();

  g_timeout_add_once (300, answer_later_cb, args);
  waited = net_wait_notification (fixture->service, id, 30, &error);
  g_assert_no_error (error);
  g_assert_true (args[2]);
  g_assert_cmpint (waited->status, ==, ATP_STATUS_RESPONDED);
  g_assert_nonnull (waited->response);
  g_assert_true (json_node_is_null (waited->response->response_data));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 10 * G_USEC_PER_SEC);
}

static void
test_pagination (NetFixture    *fixture,
                 gconstpointer  data)
{
  g_autoptr(GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) paged = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) pending = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *cursor = NULL;
  guint pages = 0;

  for (guint i = 0; i < 7; i++)
    {
      g_autofree char *title = g_strdup_printf ("Page item %u", i);

      g_hash_table_add (ids, net_post_simple (fixture, title));
    }

  /* Page by hand: 3 at a time, oldest first. */
  do
    {
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(AtpNotificationPage) page = NULL;
      AtpListQuery query = { .status = "pending", .limit = 3, .cursor = cursor, .oldest_first = TRUE };

      atp_client_list_notifications_async (fixture->user, &query, NULL, net_test_result_cb, &result);
      net_test_wait_until (result != NULL, "a page");
      page = atp_client_list_notifications_finish (fixture->user, result, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (page->notifications->len, <=, 3);
      for (guint i = 0; i < page->notifications->len; i++)
        {
          AtpNotification *n = g_ptr_array_index (page->notifications, i);

          g_assert_true (g_hash_table_add (paged, g_strdup (n->id)));
        }
      if (page->total_count >= 0)
        g_assert_cmpint (page->total_count, ==, 7);
      g_free (cursor);
      cursor = g_strdup (page->next_cursor);
      pages++;
      if (!page->has_more)
        break;
    }
  while (pages < 10);

  g_assert_cmpuint (pages, ==, 3);
  g_assert_cmpuint (g_hash_table_size (paged), ==, 7);

  pending = net_list_pending (fixture->user, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pending->len, ==, 7);
  for (guint i = 0; i < pending->len; i++)
    g_assert_true (g_hash_table_contains (ids, ((AtpNotification *) pending->pdata[i])->id));
}

static void
test_filters (NetFixture    *fixture,
              gconstpointer  data)
{
  g_autofree char *with_project =
    g_strdup ("{\"context\":{\"title\":\"In project\",\"description\":\"d\",\"project\":\"apollo\"},"
              "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]}");
  g_autofree char *other = net_post_simple (fixture, "No project");
  g_autoptr(AtpPostResult) post = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(AtpNotificationPage) page = NULL;
  g_autoptr(GError) error = NULL;
  AtpListQuery query = { .project = "apollo" };

  post = net_post (fixture->service, with_project, &error);
  g_assert_no_error (error);

  atp_client_list_notifications_async (fixture->user, &query, NULL, net_test_result_cb, &result);
  net_test_wait_until (result != NULL, "a filtered page");
  page = atp_client_list_notifications_finish (fixture->user, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (page->notifications->len, ==, 1);
  g_assert_cmpstr (((AtpNotification *) page->notifications->pdata[0])->id, ==, post->notification_id);
}

/* Error mapping */

static void
test_respond_errors (NetFixture    *fixture,
                     gconstpointer  data)
{
  g_autofree char *json = net_test_submission (NULL, "Errors", choice_actions);
  g_autoptr(AtpPostResult) post = net_post (fixture->service, json, NULL);
  g_autoptr(AtpResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  const char *id = post->notification_id;

  response = net_respond (fixture->user, id, "nope", "\"a\"", &error);
  g_assert_null (response);
  net_assert_error (error, ATP_ERROR_INVALID_ACTION_ID, "(request ");
  g_clear_error (&error);

  response = net_respond (fixture->user, id, "pick", "true", &error);
  net_assert_error (error, ATP_ERROR_INVALID_RESPONSE_DATA, NULL);
  g_clear_error (&error);

  response = net_respond (fixture->user, id, "pick", "\"z\"", &error);
  net_assert_error (error, ATP_ERROR_CONSTRAINT_VIOLATION, NULL);
  g_clear_error (&error);

  response = net_respond (fixture->user, id, "note", "\"ab\"", &error);
  net_assert_error (error, ATP_ERROR_CONSTRAINT_VIOLATION, "min_length");
  g_clear_error (&error);

  response = net_respond (fixture->user, id, "note", "\"fine\"", &error);
  g_assert_no_error (error);
  g_clear_pointer (&response, atp_response_unref);

  /* A different answer after the first one loses. */
  response = net_respond (fixture->user, id, "pick", "\"a\"", &error);
  net_assert_error (error, ATP_ERROR_NOTIFICATION_ALREADY_RESPONDED, NULL);
  g_clear_error (&error);

  /* Ids that do not exist, or are not ids at all. */
  response = net_respond (fixture->user, "00000000-0000-4000-8000-000000000000", "ok", NULL, &error);
  g_assert_nonnull (error);
  g_assert_true (error->domain == ATP_ERROR &&
                 (error->code == ATP_ERROR_NOTIFICATION_NOT_FOUND || error->code == ATP_ERROR_NOT_FOUND));
  g_clear_error (&error);

  response = net_respond (fixture->user, "../admin", "ok", NULL, &error);
  net_assert_error (error, ATP_ERROR_INVALID_FIELD_VALUE, "UUID");
}

static void
test_not_found (NetFixture    *fixture,
                gconstpointer  data)
{
  g_autoptr(AtpNotification) notification = NULL;
  g_autoptr(GError) error = NULL;

  notification = net_get_notification (fixture->user, "00000000-0000-4000-8000-000000000000", &error);
  g_assert_null (notification);
  g_assert_nonnull (error);
  g_assert_true (error->domain == ATP_ERROR &&
                 (error->code == ATP_ERROR_NOTIFICATION_NOT_FOUND || error->code == ATP_ERROR_NOT_FOUND));
  g_assert_nonnull (strstr (error->message, "(request "));
}

static void
test_unauthorized (NetFixture    *fixture,
                   gconstpointer  data)
{
  g_autoptr(GPtrArray) pending = NULL;
  g_autoptr(AtpPostResult) post = NULL;
  g_autoptr(GError) error = NULL;

  atp_client_set_token (fixture->user, "not-a-token");
  pending = net_list_pending (fixture->user, &error);
  g_assert_null (pending);
  net_assert_error (error, ATP_ERROR_AUTH_INVALID_TOKEN, "A valid user token is required");
  g_clear_error (&error);

  /* A user token is not a service key: valid, but without the rights. */
  atp_client_set_token (fixture->service, fixture->user_token);
  post = net_post (fixture->service, "{}", &error);
  g_assert_null (post);
  net_assert_error (error, ATP_ERROR_AUTH_INSUFFICIENT_PERMISSIONS, "needs a service API key");
}

static void
test_post_errors (NetFixture    *fixture,
                  gconstpointer  data)
{
  g_autofree char *id = atp_new_uuid ();
  g_autofree char *first = net_test_submission (id, "Same id", NULL);
  g_autofree char *changed = net_test_submission (id, "Same id, other body", NULL);
  g_autoptr(AtpPostResult) post = NULL;
  g_autoptr(AtpPostResult) again = NULL;
  g_autoptr(GError) error = NULL;

  post = net_post (fixture->service, first, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (post->notification_id, ==, id);

  /* Idempotent retry: the same id and body. */
  again = net_post (fixture->service, first, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (again->notification_id, ==, id);
  g_clear_pointer (&again, atp_post_result_unref);

  again = net_post (fixture->service, changed, &error);
  g_assert_null (again);
  g_assert_nonnull (error);
  g_assert_true (error->domain == ATP_ERROR && error->code == ATP_ERROR_NOTIFICATION_ALREADY_EXISTS);
  g_clear_error (&error);

  again = net_post (fixture->service, "{\"context\":{\"title\":\"x\",\"description\":\"y\"},"
                    "\"actions\":[{\"id\":\"b\",\"label\":\"B\",\"response_type\":\"binary\"}]}",
                    &error);
  g_assert_null (again);
  net_assert_error (error, ATP_ERROR_MALFORMED_ACTION, "true_label");
  g_clear_error (&error);

  again = net_post (fixture->service, "{not json", &error);
  net_assert_error (error, ATP_ERROR_INVALID_JSON, NULL);
}

static void
test_invalidate (NetFixture    *fixture,
                 gconstpointer  data)
{
  g_autofree char *id = net_post_simple (fixture, "Withdrawn");
  g_autoptr(AtpNotification) waited = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (net_invalidate (fixture->service, id, "no longer needed", &error));
  g_assert_no_error (error);

  waited = net_wait_notification (fixture->service, id, 5, &error);
  g_assert_no_error (error);
  g_assert_cmpint (waited->status, ==, ATP_STATUS_INVALIDATED);

  g_assert_false (net_invalidate (fixture->service, id, NULL, &error));
  g_assert_nonnull (error);
  g_assert_true (error->domain == ATP_ERROR && error->code == ATP_ERROR_NOTIFICATION_INVALIDATED);
}

/* The generic call other protocols' endpoints use: the same answers and errors. */
static void
test_call (NetFixture    *fixture,
           gconstpointer  data)
{
  g_autofree char *id = net_post_simple (fixture, "Called");
  g_autofree char *path = g_strdup_printf ("/api/v1/notifications/%s", id);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) patched = NULL;
  g_autoptr(JsonNode) missing = NULL;
  g_autoptr(JsonNode) refused = NULL;
  g_autoptr(GError) error = NULL;

  node = net_call (fixture->service, "GET", path, NULL, TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "id"), ==, id);

  patched = net_call (fixture->service, "PATCH", path, "{\"status\":\"invalidated\"}", TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (patched), "status"), ==,
                   "invalidated");

  missing = net_call (fixture->service, "GET", "/api/v1/no-such-endpoint", NULL, TRUE, &error);
  g_assert_null (missing);
  net_assert_error (error, ATP_ERROR_NOT_FOUND, "(request ");
  g_clear_error (&error);

  /* As the user, the service's endpoint is refused with the server's own error. */
  refused = net_call (fixture->user, "POST", "/api/v1/notifications", "{}", FALSE, &error);
  g_assert_null (refused);
  g_assert_true (error->domain == ATP_ERROR);
  g_assert_cmpint (error->code, !=, ATP_ERROR_PROTOCOL);
}

/* Transport failures */

static void
test_connection_refused (NetFixture    *fixture,
                         gconstpointer  data)
{
  g_autoptr(GPtrArray) pending = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = g_strdup (triage_test_server_get_url (fixture->server));

  triage_test_server_stop (fixture->server);

  pending = net_list_pending (fixture->user, &error);
  g_assert_null (pending);
  net_assert_error (error, ATP_ERROR_CONNECTION_FAILED, "Cannot reach");
  g_assert_nonnull (strstr (error->message, url));
  g_assert_nonnull (strstr (error->message, "Connection refused"));
}

/* A certificate this computer does not trust (the test server's own CA is not
 * in the default database here): a configuration error, said with why, not
 * an outage to retry for minutes. */
static const TriageTestServerOptions tls_server = { .tls = TRUE };

static void
test_tls_untrusted (NetFixture    *fixture,
                    gconstpointer  data)
{
  g_autoptr(GPtrArray) pending = NULL;
  g_autoptr(GError) error = NULL;
  const char *url = triage_test_server_get_url (fixture->server);

  g_assert_true (g_str_has_prefix (url, "https://"));
  pending = net_list_pending (fixture->user, &error);
  g_assert_null (pending);
  net_assert_error (error, ATP_ERROR_TLS_CERTIFICATE, "TLS certificate");
  g_assert_nonnull (strstr (error->message, url));
  g_assert_nonnull (strstr (error->message, "its issuer is not trusted on this computer"));
}

static void
kill_later_cb (gpointer data)
{
  triage_test_server_kill (data);
}

static void
test_server_vanishes (NetFixture    *fixture,
                      gconstpointer  data)
{
  g_autofree char *id = net_post_simple (fixture, "Vanishing");
  g_autoptr(AtpNotification) waited = NULL;
  g_autoptr(GError) error = NULL;

  /* Killed while it holds our long-poll. */
  g_timeout_add_once (300, kill_later_cb, fixture->server);
  waited = net_wait_notification (fixture->service, id, 30, &error);
  g_assert_null (waited);
  net_assert_error (error, ATP_ERROR_CONNECTION_FAILED, NULL);
}

static void
test_cancel (NetFixture    *fixture,
             gconstpointer  data)
{
  g_autofree char *id = net_post_simple (fixture, "Cancelled");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(AtpNotification) waited = NULL;
  g_autoptr(GError) error = NULL;

  atp_client_wait_notification_async (fixture->service, id, 30, cancellable, net_test_result_cb, &result);
  g_timeout_add_once (100, (GSourceOnceFunc) g_cancellable_cancel, cancellable);
  net_test_wait_until (result != NULL, "a cancelled long-poll");
  waited = atp_client_wait_notification_finish (fixture->service, result, &error);
  g_assert_null (waited);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* Local socket: trusted, no token, service named by header */

static void
local_setup (NetFixture    *fixture,
             gconstpointer  data)
{
  const TriageTestServerOptions options = { .unix_socket = TRUE };

  net_fixture_setup_with (fixture, &options);
}

static void
test_local_socket (NetFixture    *fixture,
                   gconstpointer  data)
{
  const char *socket_path = triage_test_server_get_socket_path (fixture->server);
  g_autoptr(AtpClient) agent = atp_client_new_for_socket (socket_path);
  g_autoptr(AtpClient) person = atp_client_new_for_socket (socket_path);
  g_autofree char *json = net_test_submission (NULL, "Local", NULL);
  g_autoptr(AtpPostResult) post = NULL;
  g_autoptr(GPtrArray) pending = NULL;
  g_autoptr(AtpResponse) response = NULL;
  g_autoptr(AtpNotification) waited = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (atp_client_is_local (agent));
  g_assert_cmpstr (atp_client_get_socket_path (agent), ==, socket_path);
  g_assert_false (atp_client_has_token (agent));

  atp_local_probe_async (socket_path, 0, NULL, net_test_result_cb, &result);
  net_test_wait_until (result != NULL, "the probe");
  g_assert_true (atp_local_probe_finish (result, &error));
  g_assert_no_error (error);

  atp_client_set_service (agent, "net-test-agent", "Net test agent");
  post = net_post (agent, json, &error);
  g_assert_no_error (error);

  pending = net_list_pending (person, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pending->len, ==, 1);
  g_assert_cmpstr (((AtpNotification *) pending->pdata[0])->service.id, ==, "net-test-agent");
  g_assert_cmpstr (((AtpNotification *) pending->pdata[0])->service.name, ==, "Net test agent");

  response = net_respond (person, post->notification_id, "ok", NULL, &error);
  g_assert_no_error (error);

  waited = net_wait_notification (agent, post->notification_id, 5, &error);
  g_assert_no_error (error);
  g_assert_cmpint (waited->status, ==, ATP_STATUS_RESPONDED);
}

static void
test_local_probe_nothing (void)
{
  g_autofree char *dir = g_dir_make_tmp ("atp-probe-XXXXXX", NULL);
  g_autofree char *missing = g_build_filename (dir, "triage.sock", NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GSocketAddress) address = NULL;

  atp_local_probe_async (missing, 500, NULL, net_test_result_cb, &result);
  net_test_wait_until (result != NULL, "the probe of nothing");
  g_assert_false (atp_local_probe_finish (result, &error));
  net_assert_error (error, ATP_ERROR_CONNECTION_FAILED, missing);
  g_clear_error (&error);
  g_clear_object (&result);

  /* A stale socket file: bound once, nobody listening. */
  socket = g_socket_new (G_SOCKET_FAMILY_UNIX, G_SOCKET_TYPE_STREAM, 0, &error);
  g_assert_no_error (error);
  address = g_unix_socket_address_new (missing);
  g_assert_true (g_socket_bind (socket, address, FALSE, &error));
  g_socket_close (socket, NULL);

  atp_local_probe_async (missing, 500, NULL, net_test_result_cb, &result);
  net_test_wait_until (result != NULL, "the probe of a stale socket");
  g_assert_false (atp_local_probe_finish (result, &error));
  net_assert_error (error, ATP_ERROR_CONNECTION_FAILED, "Connection refused");

  g_unlink (missing);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/client/check-url", test_check_url);
  g_test_add_func ("/client/local-socket-path", test_local_socket_path);
  g_test_add_func ("/client/local-probe-nothing", test_local_probe_nothing);

#define ADD(path, func) \
  g_test_add (path, NetFixture, NULL, net_fixture_setup, func, net_fixture_teardown)

  ADD ("/client/round-trip", test_round_trip);
  ADD ("/client/long-poll", test_long_poll);
  ADD ("/client/pagination", test_pagination);
  ADD ("/client/filters", test_filters);
  ADD ("/client/respond-errors", test_respond_errors);
  ADD ("/client/not-found", test_not_found);
  ADD ("/client/unauthorized", test_unauthorized);
  ADD ("/client/post-errors", test_post_errors);
  ADD ("/client/invalidate", test_invalidate);
  ADD ("/client/call", test_call);
  ADD ("/client/connection-refused", test_connection_refused);
  ADD ("/client/server-vanishes", test_server_vanishes);
  ADD ("/client/cancel", test_cancel);
#undef ADD

  g_test_add ("/client/tls-untrusted", NetFixture, &tls_server, net_fixture_setup,
              test_tls_untrusted, net_fixture_teardown);

  g_test_add ("/client/local-socket", NetFixture, NULL, local_setup, test_local_socket,
              net_fixture_teardown);

  return g_test_run ();
}
