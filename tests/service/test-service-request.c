/* test-service-request.c — a request sent, waited for and withdrawn, through ATP's
 * endpoints and another protocol's (TriageServiceRequest's JSON mode), against a
 * real triage-server
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "service-request-test-common.h"

#include <glib/gstdio.h>

static const char *
status_of (JsonNode *node)
{
  return json_object_get_string_member (json_node_get_object (node), "status");
}

static void
test_send_wait (ServiceRequestFixture *fixture,
                gconstpointer          data)
{
  g_autofree char *id = atp_new_uuid ();
  g_autofree char *body = service_request_test_new_body (id, "Through the JSON mode");
  g_autoptr(TriageServiceRequest) request = triage_service_request_new_at (fixture->service,
                                                                           SERVICE_REQUEST_COLLECTION,
                                                                           id, body, G_USEC_PER_SEC);
  g_autoptr(GAsyncResult) sent = NULL;
  g_autoptr(GAsyncResult) waited = NULL;
  g_autoptr(GAsyncResult) answered = NULL;
  g_autoptr(JsonNode) created = NULL;
  g_autoptr(JsonNode) settled = NULL;
  g_autoptr(AtpResponse) response = NULL;
  g_autoptr(GError) error = NULL;

  triage_service_request_send_async (request, NULL, service_request_test_result_cb, &sent);
  triage_test_wait_until (sent != NULL, "the POST");
  created = triage_service_request_send_json_finish (request, sent, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (status_of (created), ==, "created");

  /* The long-poll (1 s each) goes on while the request stays pending: the
   * absence of an end can only be seen by letting more than a poll pass. */
  triage_service_request_wait_async (request, 1, NULL, service_request_test_result_cb, &waited);
  triage_test_sleep (1500);
  g_assert_null (waited);

  atp_client_respond_async (fixture->person, id, "ok", NULL, NULL, service_request_test_result_cb,
                            &answered);
  triage_test_wait_until (answered != NULL, "the answer");
  response = atp_client_respond_finish (fixture->person, answered, &error);
  g_assert_no_error (error);

  triage_test_wait_until (waited != NULL, "the wait");
  settled = triage_service_request_wait_json_finish (request, waited, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (status_of (settled), ==, "responded");
  g_assert_true (json_object_has_member (json_node_get_object (settled), "response"));
}

static void
test_withdraw (ServiceRequestFixture *fixture,
               gconstpointer          data)
{
  g_autofree char *id = atp_new_uuid ();
  g_autofree char *body = service_request_test_new_body (id, "Withdrawn");
  g_autoptr(TriageServiceRequest) request = triage_service_request_new_at (fixture->service,
                                                                           SERVICE_REQUEST_COLLECTION,
                                                                           id, body, G_USEC_PER_SEC);
  g_autoptr(TriageServiceRequest) never_sent = NULL;
  g_autoptr(GAsyncResult) sent = NULL;
  g_autoptr(GAsyncResult) withdrawn = NULL;
  g_autoptr(GAsyncResult) not_found = NULL;
  g_autoptr(GAsyncResult) waited = NULL;
  g_autoptr(JsonNode) created = NULL;
  g_autoptr(JsonNode) settled = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *other_id = atp_new_uuid ();

  triage_service_request_send_async (request, NULL, service_request_test_result_cb, &sent);
  triage_test_wait_until (sent != NULL, "the POST");
  created = triage_service_request_send_json_finish (request, sent, &error);
  g_assert_no_error (error);

  triage_service_request_withdraw_async (request, "not needed", NULL,
                                         service_request_test_result_cb, &withdrawn);
  triage_test_wait_until (withdrawn != NULL, "the withdrawal");
  g_assert_true (triage_service_request_withdraw_finish (request, withdrawn, &error));
  g_assert_no_error (error);

  triage_service_request_wait_async (request, 5, NULL, service_request_test_result_cb, &waited);
  triage_test_wait_until (waited != NULL, "the wait");
  settled = triage_service_request_wait_json_finish (request, waited, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (status_of (settled), ==, "invalidated");

  /* Withdrawing what never reached the server says so. */
  never_sent = triage_service_request_new_at (fixture->service, SERVICE_REQUEST_COLLECTION,
                                              other_id, body,
                                              G_USEC_PER_SEC);
  triage_service_request_withdraw_async (never_sent, NULL, NULL, service_request_test_result_cb,
                                         &not_found);
  triage_test_wait_until (not_found != NULL, "the withdrawal");
  g_assert_false (triage_service_request_withdraw_finish (never_sent, not_found, &error));
  g_assert_error (error, ATP_ERROR, ATP_ERROR_NOTIFICATION_NOT_FOUND);
}

/* A refusal is not retried: it ends the operation with the server's error. */
static void
test_refused (ServiceRequestFixture *fixture,
              gconstpointer          data)
{
  g_autofree char *id = atp_new_uuid ();
  g_autoptr(TriageServiceRequest) request = triage_service_request_new_at (fixture->service,
                                                                           SERVICE_REQUEST_COLLECTION,
                                                                           id, "{\"id\":1}",
                                                                           60 * G_USEC_PER_SEC);
  g_autoptr(GAsyncResult) sent = NULL;
  g_autoptr(JsonNode) created = NULL;
  g_autoptr(GError) error = NULL;

  triage_service_request_send_async (request, NULL, service_request_test_result_cb, &sent);
  triage_test_wait_until (sent != NULL, "the POST");
  created = triage_service_request_send_json_finish (request, sent, &error);
  g_assert_null (created);
  g_assert_true (error->domain == ATP_ERROR);
  g_assert_cmpint (atp_error_code_http_status (error->code), ==, 400);
}

/* A request sent with no server there, retried for @retry_for_us: its
 * connection error. */
static GError *
send_unreachable (ServiceRequestFixture *fixture,
                  gint64   retry_for_us)
{
  g_autofree char *id = atp_new_uuid ();
  g_autofree char *body = service_request_test_new_body (id, "Nobody there");
  g_autoptr(TriageServiceRequest) request = triage_service_request_new_at (fixture->service,
                                                                           SERVICE_REQUEST_COLLECTION,
                                                                           id, body, retry_for_us);
  g_autoptr(GAsyncResult) sent = NULL;
  g_autoptr(JsonNode) created = NULL;
  GError *error = NULL;

  triage_test_server_stop (fixture->server);
  triage_service_request_send_async (request, NULL, service_request_test_result_cb, &sent);
  triage_test_wait_until (sent != NULL, "the POST");
  created = triage_service_request_send_json_finish (request, sent, &error);
  g_assert_null (created);
  g_assert_error (error, ATP_ERROR, ATP_ERROR_CONNECTION_FAILED);
  return error;
}

/* No server: retried until the window closes, then the connection error. */
static void
test_unreachable (ServiceRequestFixture *fixture,
                  gconstpointer          data)
{
  g_autoptr(GError) error = send_unreachable (fixture, G_USEC_PER_SEC);

  g_assert_nonnull (strstr (error->message, "gave up after trying"));
}

/* No retry window (the hook's default): one try, and its error as it is,
 * not "gave up after trying for 0 s". */
static void
test_unreachable_once (ServiceRequestFixture *fixture,
                       gconstpointer          data)
{
  g_autoptr(GError) error = send_unreachable (fixture, 0);

  g_assert_null (strstr (error->message, "gave up"));
}

static gboolean
on_silent_accept (GSocketService    *service,
                  GSocketConnection *connection,
                  GObject           *source,
                  gpointer           data)
{
  g_ptr_array_add (data, g_object_ref (connection));
  return TRUE;
}

/* A POST with a 2 s timeout and a retry window of @window_us to a server that
 * takes the connection and never answers: it gives up after the one try, saying
 * how long it tried. The tries are counted, not timed. */
static void
send_to_silent (gint64 window_us)
{
  g_autoptr(GSocketService) silent = g_socket_service_new ();
  g_autoptr(GPtrArray) held = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(AtpClient) client = NULL;
  g_autoptr(TriageServiceRequest) request = NULL;
  g_autoptr(GAsyncResult) sent = NULL;
  g_autoptr(JsonNode) created = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = atp_new_uuid ();
  g_autofree char *body = service_request_test_new_body (id, "Nobody answers");
  g_autofree char *url = NULL;
  const char *tried;
  guint16 port;

  port = g_socket_listener_add_any_inet_port (G_SOCKET_LISTENER (silent), NULL, &error);
  g_assert_no_error (error);
  g_signal_connect (silent, "incoming", G_CALLBACK (on_silent_accept), held);
  url = g_strdup_printf ("http://127.0.0.1:%u", port);
  client = atp_client_new (url, &error);
  g_assert_no_error (error);
  atp_client_set_token (client, "sk_unused");
  atp_client_set_timeout (client, 2);
  request = triage_service_request_new_at (client, SERVICE_REQUEST_COLLECTION, id, body,
                                           window_us);

  triage_service_request_send_async (request, NULL, service_request_test_result_cb, &sent);
  triage_test_wait_until (sent != NULL, "the POST to give up");
  created = triage_service_request_send_json_finish (request, sent, &error);
  g_assert_null (created);
  /* The POST went out whole: it may have arrived, and is withdrawn on giving up. */
  g_assert_error (error, ATP_ERROR, ATP_ERROR_CONNECTION_LOST);
  g_assert_true (triage_service_request_left_pending (request, error));
  g_assert_nonnull (strstr (error->message, "did not answer within 2 seconds"));
  /* How long it tried: the try's timeout, a whole second of GLib's, which
   * may fire up to a quarter second early (1.8 s: "1 s"). */
  tried = strstr (error->message, "gave up after trying for ");
  g_assert_nonnull (tried);
  g_assert_cmpuint (g_ascii_strtoull (tried + strlen ("gave up after trying for "), NULL, 10), >=, 1);
  g_assert_cmpuint (held->len, ==, 1);
  g_socket_service_stop (silent);
}

/* The try that hung until its timeout used the retry window (1 s) up. It used to
 * begin the window only as the try gave up, so it tried again (with a timeout of
 * its own) and said it had retried for 1 s. */
static void
test_silent (ServiceRequestFixture *fixture,
             gconstpointer          data)
{
  send_to_silent (G_USEC_PER_SEC);
}

/* A window longer than the timeout, but shorter than two: another try that hung
 * as long would end past it, so none is begun. It was, and the request gave up a
 * whole timeout after its window; so did triage-mcp's calls, whose window is as
 * long as the timeout (30 s), whenever GLib fired the timer a little early: at
 * 60 s, past the MCP SDKs' own 60 s. */
static void
test_silent_window (ServiceRequestFixture *fixture,
                    gconstpointer          data)
{
  send_to_silent (3 * G_USEC_PER_SEC);
}

/* The local server taking the connection and never answering a long-poll (1 s,
 * and a 1 s timeout): given up with no window, it is not asked about as one that
 * is not running. "Is the local server running? The Triage app starts it" sent
 * the person to start another, where the one there had hung. */
static void
test_silent_local (ServiceRequestFixture *fixture,
                   gconstpointer          data)
{
  g_autoptr(GSocketService) silent = g_socket_service_new ();
  g_autoptr(GPtrArray) held = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GSocketAddress) address = NULL;
  g_autoptr(AtpClient) client = NULL;
  g_autoptr(TriageServiceRequest) request = NULL;
  g_autoptr(GAsyncResult) waited = NULL;
  g_autoptr(AtpNotification) settled = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("service-request-silent-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "triage.sock", NULL);
  g_autofree char *id = atp_new_uuid ();

  g_assert_no_error (error);
  address = g_unix_socket_address_new (path);
  g_socket_listener_add_address (G_SOCKET_LISTENER (silent), address, G_SOCKET_TYPE_STREAM,
                                 G_SOCKET_PROTOCOL_DEFAULT, NULL, NULL, &error);
  g_assert_no_error (error);
  g_signal_connect (silent, "incoming", G_CALLBACK (on_silent_accept), held);
  client = atp_client_new_for_socket (path);
  atp_client_set_timeout (client, 1);
  request = triage_service_request_new (client, id, "{}", 0);

  triage_service_request_wait_async (request, 1, NULL, service_request_test_result_cb, &waited);
  triage_test_wait_until (waited != NULL, "the long-poll to give up");
  settled = triage_service_request_wait_finish (request, waited, &error);
  g_assert_null (settled);
  g_assert_error (error, ATP_ERROR, ATP_ERROR_CONNECTION_FAILED);
  g_assert_nonnull (strstr (error->message, "did not answer within 2 seconds"));
  g_assert_null (strstr (error->message, "is the local server running"));
  g_assert_cmpuint (held->len, ==, 1);
  g_socket_service_stop (silent);
  g_unlink (path);
  g_rmdir (dir);
}

/* A TLS server that reads one request whole, then sends a record that does
 * not decrypt and goes away: the client's read of the answer fails at the TLS
 * layer (G_TLS_ERROR), after its body went out. Runs in a thread of its own. */
static gboolean
on_cut_run (GThreadedSocketService *service,
            GSocketConnection      *connection,
            GObject                *source,
            gpointer                certificate)
{
  g_autoptr(GIOStream) tls = g_tls_server_connection_new (G_IO_STREAM (connection), certificate,
                                                          NULL);
  g_autoptr(GDataInputStream) in = NULL;
  g_autofree char *body = NULL;
  gsize length = 0;

  g_assert_nonnull (tls);
  in = g_data_input_stream_new (g_io_stream_get_input_stream (tls));
  g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (in), FALSE);
  for (;;)
    {
      g_autofree char *line = g_data_input_stream_read_line (in, NULL, NULL, NULL);

      g_assert_nonnull (line);
      g_strchomp (line);
      if (*line == '\0')
        break;
      if (g_ascii_strncasecmp (line, "Content-Length:", strlen ("Content-Length:")) == 0)
        length = g_ascii_strtoull (line + strlen ("Content-Length:"), NULL, 10);
    }
  body = g_malloc (length + 1);
  g_assert_true (g_input_stream_read_all (G_INPUT_STREAM (in), body, length, NULL, NULL, NULL));
  /* Application data, TLS 1.2 on the wire, 16 bytes that are no record of this session. */
  g_assert_true (g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (connection)),
                                            "\x17\x03\x03\x00\x10" "0123456789abcdef", 21,
                                            NULL, NULL, NULL));
  g_socket_close (g_socket_connection_get_socket (connection), NULL);
  return TRUE;
}

/* The POST went out whole over TLS, and the connection then broke at the TLS
 * layer (the server dying once it stored it): it may have arrived, so it is
 * owed a withdrawal. It was "Cannot reach" (CONNECTION_FAILED): the withdrawal
 * was skipped and the request left pending with nobody waiting. */
static void
test_tls_cut_after_body (ServiceRequestFixture *fixture,
                         gconstpointer          data)
{
  g_autofree char *cert_path = g_test_build_filename (G_TEST_DIST, "server", "tls", "cert.pem", NULL);
  g_autofree char *key_path = g_test_build_filename (G_TEST_DIST, "server", "tls", "key.pem", NULL);
  g_autoptr(GSocketService) cut = g_threaded_socket_service_new (1);
  g_autoptr(GTlsCertificate) certificate = NULL;
  g_autoptr(GTlsDatabase) trusted = NULL;
  g_autoptr(AtpClient) client = NULL;
  g_autoptr(TriageServiceRequest) request = NULL;
  g_autoptr(GAsyncResult) sent = NULL;
  g_autoptr(JsonNode) created = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = atp_new_uuid ();
  g_autofree char *body = service_request_test_new_body (id, "The server dies");
  g_autofree char *url = NULL;
  GTlsBackend *backend = g_tls_backend_get_default ();
  guint16 port;

  certificate = g_tls_certificate_new_from_files (cert_path, key_path, &error);
  g_assert_no_error (error);
  trusted = triage_test_server_new_tls_database (&error);
  g_assert_no_error (error);
  /* The client's session trusts the default database: the test's certificate. */
  g_tls_backend_set_default_database (backend, trusted);
  port = g_socket_listener_add_any_inet_port (G_SOCKET_LISTENER (cut), NULL, &error);
  g_assert_no_error (error);
  g_signal_connect (cut, "run", G_CALLBACK (on_cut_run), certificate);
  url = g_strdup_printf ("https://localhost:%u", port);
  client = atp_client_new (url, &error);
  g_assert_no_error (error);
  atp_client_set_token (client, "sk_unused");
  request = triage_service_request_new_at (client, SERVICE_REQUEST_COLLECTION, id, body, 0);

  triage_service_request_send_async (request, NULL, service_request_test_result_cb, &sent);
  triage_test_wait_until (sent != NULL, "the POST to fail");
  created = triage_service_request_send_json_finish (request, sent, &error);
  g_assert_null (created);
  g_test_message ("%s", error->message);
  g_assert_error (error, ATP_ERROR, ATP_ERROR_CONNECTION_LOST);
  g_assert_true (triage_service_request_may_exist (request));
  g_assert_true (triage_service_request_left_pending (request, error));
  g_socket_service_stop (cut);
  g_tls_backend_set_default_database (backend, NULL);
}

/* Waits until the service reads @id with @status. */
static void
wait_status (ServiceRequestFixture *fixture,
             const char            *id,
             AtpStatus              status)
{
  gint64 limit = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  for (;;)
    {
      g_autoptr(GAsyncResult) got = NULL;
      g_autoptr(AtpNotification) notification = NULL;
      g_autoptr(GError) error = NULL;

      atp_client_get_notification_async (fixture->service, id, NULL,
                                         service_request_test_result_cb, &got);
      triage_test_wait_until (got != NULL, "the notification");
      notification = atp_client_get_notification_finish (fixture->service, got, &error);
      g_assert_no_error (error);
      if (notification->status == status)
        return;
      if (g_get_monotonic_time () > limit)
        g_error ("%s stayed %s, never %s", id, atp_status_to_string (notification->status),
                 atp_status_to_string (status));
      triage_test_sleep (50);
    }
}

/* The server's own warnings are not fatal here: a commit that fails is
 * logged as one. */
static void
quiet_setup (ServiceRequestFixture *fixture,
             gconstpointer          data)
{
  g_autofree char *debug = g_strdup (g_getenv ("G_DEBUG"));

  g_unsetenv ("G_DEBUG");
  service_request_test_setup (fixture, data);
  if (debug != NULL)
    g_setenv ("G_DEBUG", debug, TRUE);
}

/* How many group commits of the server failed (its /metrics). */
static guint64
commit_failures (ServiceRequestFixture *fixture)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  const char *line;
  guint status = 0;

  g_assert_true (triage_test_http (fixture->server, "GET", "/metrics", NULL, NULL, &status, &text,
                                   &error));
  g_assert_no_error (error);
  g_assert_cmpuint (status, ==, 200);
  line = strstr (text, "\ntriage_db_commit_failures_total ");
  g_assert_nonnull (line);
  return g_ascii_strtoull (line + strlen ("\ntriage_db_commit_failures_total "), NULL, 10);
}

/* Sends @request while the server cannot store anything (its disk full; on
 * PostgreSQL a commit that raises), until a commit has failed; then lets it
 * store again. Returns the request as its person reads it once sent. */
static AtpNotification *
send_through_failed_commits (ServiceRequestFixture *fixture,
                             TriageServiceRequest  *request)
{
  gboolean postgres = triage_test_server_is_postgres (fixture->server);
  g_autoptr(GAsyncResult) sent = NULL, got = NULL;
  g_autoptr(AtpPostResult) posted = NULL;
  g_autoptr(GError) error = NULL;
  AtpNotification *notification;

  if (postgres)
    g_free (triage_test_server_run_sql (fixture->server,
           "CREATE FUNCTION fail_commit () RETURNS trigger LANGUAGE plpgsql AS"
           " $$ BEGIN RAISE EXCEPTION 'this commit fails'; END $$;"
           "CREATE CONSTRAINT TRIGGER fail_commits AFTER INSERT OR UPDATE ON notifications"
           " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION fail_commit ()", NULL));
  else
    triage_test_server_set_file_size_limit (fixture->server, 0);
  triage_service_request_send_async (request, NULL, service_request_test_result_cb, &sent);
  for (guint i = 0; commit_failures (fixture) == 0; i++)
    {
      g_assert_cmpuint (i, <, 3000);
      triage_test_sleep (10);
    }
  g_assert_null (sent);
  if (postgres)
    g_free (triage_test_server_run_sql (fixture->server,
           "DROP TRIGGER fail_commits ON notifications; DROP FUNCTION fail_commit ()", NULL));
  else
    triage_test_server_set_file_size_limit (fixture->server, G_MAXUINT64);

  triage_test_wait_until (sent != NULL, "the POST");
  posted = triage_service_request_send_finish (request, sent, &error);
  g_assert_no_error (error);
  atp_client_get_notification_async (fixture->person, triage_service_request_get_notification_id (request),
                                     NULL, service_request_test_result_cb, &got);
  triage_test_wait_until (got != NULL, "the request");
  notification = atp_client_get_notification_finish (fixture->person, got, &error);
  g_assert_no_error (error);
  return notification;
}

/* A server that cannot store the request now (503 STORAGE_UNAVAILABLE, its
 * disk full) is asked again until it can: the request is not lost. */
static void
test_storage_retried (ServiceRequestFixture *fixture,
                      gconstpointer          data)
{
  g_autofree char *first_id = atp_new_uuid ();
  g_autofree char *first_body = service_request_test_new_body (first_id,
                                                               "Posted before the disk filled");
  g_autofree char *id = atp_new_uuid ();
  g_autofree char *body = service_request_test_new_body (id, "Posted on a full disk");
  g_autoptr(TriageServiceRequest) first = triage_service_request_new (fixture->service, first_id,
                                                                      first_body, G_USEC_PER_SEC);
  g_autoptr(TriageServiceRequest) request = triage_service_request_new (fixture->service, id, body,
                                                                        30 * G_USEC_PER_SEC);
  g_autoptr(GAsyncResult) first_sent = NULL;
  g_autoptr(AtpPostResult) first_posted = NULL;
  g_autoptr(AtpNotification) notification = NULL;
  g_autoptr(GError) error = NULL;

  /* The service is known (its first request stored) before the disk fills. */
  triage_service_request_send_async (first, NULL, service_request_test_result_cb, &first_sent);
  triage_test_wait_until (first_sent != NULL, "the first POST");
  first_posted = triage_service_request_send_finish (first, first_sent, &error);
  g_assert_no_error (error);

  /* Stored, and the person's. */
  notification = send_through_failed_commits (fixture, request);
  g_assert_cmpstr (notification->context.title, ==, "Posted on a full disk");
}

/* The first request of a local service (X-Triage-Service) that is new to
 * the server, sent while the server cannot store anything: the service is
 * registered in the batch that fails with it. Once stored, at the retry,
 * the request is its person's. */
static void
test_storage_new_service (ServiceRequestFixture *fixture,
                          gconstpointer          data)
{
  g_autofree char *id = atp_new_uuid ();
  g_autofree char *body = service_request_test_new_body (id,
                                                         "A new service's first, on a full disk");
  g_autoptr(TriageServiceRequest) request = triage_service_request_new (fixture->service, id, body,
                                                                        30 * G_USEC_PER_SEC);
  g_autoptr(AtpNotification) notification = send_through_failed_commits (fixture, request);

  g_assert_cmpstr (notification->service.name, ==, "scripts");
}

/* The retry window counts from the first failure of a run of failures: a
 * success ends the run. A POST retried while the server restarted, then a
 * wait that outlives the window, then the server gone again: the wait is
 * retried until the server is back, not given up at its first failure. */
static void
test_window_after_success (ServiceRequestFixture *fixture,
                           gconstpointer          data)
{
  g_autofree char *id = atp_new_uuid ();
  g_autofree char *body = service_request_test_new_body (id, "Waited across two restarts");
  g_autoptr(TriageServiceRequest) request = triage_service_request_new (fixture->service, id, body,
                                                                        6 * G_USEC_PER_SEC);
  g_autoptr(GAsyncResult) sent = NULL, waited = NULL, answered = NULL;
  g_autoptr(AtpPostResult) posted = NULL;
  g_autoptr(AtpNotification) settled = NULL;
  g_autoptr(AtpResponse) response = NULL;
  g_autoptr(GError) error = NULL;

  /* The POST fails while the server is down (a machine too slow to try in
   * this time only makes the test weaker), and succeeds once it is back. */
  triage_test_server_stop (fixture->server);
  triage_service_request_send_async (request, NULL, service_request_test_result_cb, &sent);
  triage_test_sleep (500);
  g_assert_null (sent);
  g_assert_true (triage_test_server_restart (fixture->server, &error));
  g_assert_no_error (error);
  triage_test_wait_until (sent != NULL, "the POST");
  posted = triage_service_request_send_finish (request, sent, &error);
  g_assert_no_error (error);

  /* Longer than the window since that failure, the server up. */
  triage_service_request_wait_async (request, 1, NULL, service_request_test_result_cb, &waited);
  triage_test_sleep (6500);
  g_assert_null (waited);

  /* Down for longer than a poll: the wait fails at least once meanwhile. */
  triage_test_server_kill (fixture->server);
  triage_test_sleep (1500);
  g_assert_null (waited);
  g_assert_true (triage_test_server_restart (fixture->server, &error));
  g_assert_no_error (error);
  atp_client_respond_async (fixture->person, id, "ok", NULL, NULL, service_request_test_result_cb,
                            &answered);
  triage_test_wait_until (answered != NULL, "the answer");
  response = atp_client_respond_finish (fixture->person, answered, &error);
  g_assert_no_error (error);

  triage_test_wait_until (waited != NULL, "the wait");
  settled = triage_service_request_wait_finish (request, waited, &error);
  g_assert_no_error (error);
  g_assert_cmpint (settled->status, ==, ATP_STATUS_RESPONDED);
}

/* Seen (acknowledged) is not answered: the wait goes on until the answer,
 * in ATP's mode and in the JSON mode alike. */
static void
test_acknowledged_waits (ServiceRequestFixture *fixture,
                         gconstpointer          data)
{
  g_autofree char *atp_id = atp_new_uuid ();
  g_autofree char *json_id = atp_new_uuid ();
  g_autofree char *atp_body = service_request_test_new_body (atp_id, "Seen, in ATP's mode");
  g_autofree char *json_body = service_request_test_new_body (json_id, "Seen, in the JSON mode");
  g_autoptr(TriageServiceRequest) atp_request = triage_service_request_new (fixture->service, atp_id,
                                                                            atp_body, G_USEC_PER_SEC);
  g_autoptr(TriageServiceRequest) json_request = triage_service_request_new_at (fixture->service,
                                                                                SERVICE_REQUEST_COLLECTION, json_id,
                                                                                json_body,
                                                                                G_USEC_PER_SEC);
  g_autoptr(AtpStream) stream = g_object_new (ATP_TYPE_STREAM, "client", fixture->person,
                                              "watch-system", FALSE, NULL);
  g_autoptr(GAsyncResult) atp_sent = NULL, json_sent = NULL;
  g_autoptr(GAsyncResult) atp_waited = NULL, json_waited = NULL;
  g_autoptr(GAsyncResult) atp_answered = NULL, json_answered = NULL;
  g_autoptr(AtpPostResult) posted = NULL;
  g_autoptr(JsonNode) created = NULL;
  g_autoptr(AtpNotification) atp_settled = NULL;
  g_autoptr(JsonNode) json_settled = NULL;
  g_autoptr(AtpResponse) atp_response = NULL, json_response = NULL;
  g_autoptr(GError) error = NULL;

  triage_service_request_send_async (atp_request, NULL, service_request_test_result_cb, &atp_sent);
  triage_service_request_send_async (json_request, NULL, service_request_test_result_cb,
                                     &json_sent);
  triage_test_wait_until (atp_sent != NULL && json_sent != NULL, "the POSTs");
  posted = triage_service_request_send_finish (atp_request, atp_sent, &error);
  g_assert_no_error (error);
  created = triage_service_request_send_json_finish (json_request, json_sent, &error);
  g_assert_no_error (error);

  triage_service_request_wait_async (atp_request, 1, NULL, service_request_test_result_cb,
                                     &atp_waited);
  triage_service_request_wait_async (json_request, 1, NULL, service_request_test_result_cb,
                                     &json_waited);

  atp_stream_start (stream);
  triage_test_wait_until (atp_stream_get_state (stream) == ATP_STREAM_STATE_CONNECTED, "the stream");
  atp_stream_acknowledge (stream, atp_id);
  atp_stream_acknowledge (stream, json_id);
  wait_status (fixture, atp_id, ATP_STATUS_ACKNOWLEDGED);
  wait_status (fixture, json_id, ATP_STATUS_ACKNOWLEDGED);

  /* Polls (1 s each) read it acknowledged meanwhile; an end can only be
   * told apart from none by letting more than one pass. */
  triage_test_sleep (2500);
  g_assert_null (atp_waited);
  g_assert_null (json_waited);

  atp_client_respond_async (fixture->person, atp_id, "ok", NULL, NULL,
                            service_request_test_result_cb, &atp_answered);
  atp_client_respond_async (fixture->person, json_id, "ok", NULL, NULL,
                            service_request_test_result_cb, &json_answered);
  triage_test_wait_until (atp_answered != NULL && json_answered != NULL, "the answers");
  atp_response = atp_client_respond_finish (fixture->person, atp_answered, &error);
  g_assert_no_error (error);
  json_response = atp_client_respond_finish (fixture->person, json_answered, &error);
  g_assert_no_error (error);

  triage_test_wait_until (atp_waited != NULL && json_waited != NULL, "the waits");
  atp_settled = triage_service_request_wait_finish (atp_request, atp_waited, &error);
  g_assert_no_error (error);
  g_assert_cmpint (atp_settled->status, ==, ATP_STATUS_RESPONDED);
  json_settled = triage_service_request_wait_json_finish (json_request, json_waited, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (status_of (json_settled), ==, "responded");
  atp_stream_stop (stream);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  /* Inherited by the servers started: a write past the file size limit
   * (storage-retried) then fails with EFBIG, as on a full disk, instead of
   * killing the server. */
  signal (SIGXFSZ, SIG_IGN);

#define ADD(path, func) g_test_add (path, ServiceRequestFixture, NULL, service_request_test_setup, \
                                    func, service_request_test_teardown)
  ADD ("/service-request/json/send-wait", test_send_wait);
  ADD ("/service-request/json/withdraw", test_withdraw);
  ADD ("/service-request/json/refused", test_refused);
  ADD ("/service-request/json/unreachable", test_unreachable);
  ADD ("/service-request/json/unreachable-once", test_unreachable_once);
  ADD ("/service-request/json/silent", test_silent);
  ADD ("/service-request/json/silent-window", test_silent_window);
  ADD ("/service-request/silent-local", test_silent_local);
  ADD ("/service-request/json/tls-cut-after-body", test_tls_cut_after_body);
  service_request_test_add_withdraw ();
  ADD ("/service-request/acknowledged-waits", test_acknowledged_waits);
  ADD ("/service-request/window-after-success", test_window_after_success);
  g_test_add ("/service-request/storage-retried", ServiceRequestFixture, NULL, quiet_setup,
              test_storage_retried, service_request_test_teardown);
  g_test_add ("/service-request/storage-new-service", ServiceRequestFixture, NULL, quiet_setup,
              test_storage_new_service, service_request_test_teardown);
#undef ADD

  return g_test_run ();
}
