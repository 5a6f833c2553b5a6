/* test-service-request-withdraw.c — withdrawals through src/service against a
 * real triage-server: one whose POST is still on its way, one whose POST lost
 * its answer, several at once, across a server's restart, one bounded when the
 * server stays away, and one cancelled while it waits to try again
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "service-request-test-common.h"

/* A relay in front of the server's socket that holds what its first
 * connection sends (a POST written, not yet arrived) until released, or with
 * @hold_answer what the server sends back on it (a POST stored, its answer
 * not yet on its way); the other connections pass at once, or are closed
 * while the server is away. */
typedef struct
{
  GSocketService *service;
  char           *dir;
  char           *path;
  char           *upstream;
  gboolean        hold_answer;
  gboolean        answered;  /* the server began its held answer */
  guint           accepted;
  GIOStream      *held;      /* the first connection, */
  GIOStream      *held_to;   /* and the server's end of it */
} Relay;

static void
relay_spliced_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_output_stream_splice_finish (G_OUTPUT_STREAM (object), result, NULL);
}

static void
relay_io_spliced_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_io_stream_splice_finish (result, NULL);
}

static void
relay_answered_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  Relay *relay = user_data;
  g_autoptr(GBytes) bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result,
                                                              NULL);

  relay->answered = bytes != NULL && g_bytes_get_size (bytes) > 0;
}

static gboolean
relay_incoming_cb (GSocketService    *service,
                   GSocketConnection *connection,
                   GObject           *source,
                   gpointer           user_data)
{
  Relay *relay = user_data;
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketAddress) address = g_unix_socket_address_new (relay->upstream);
  g_autoptr(GError) error = NULL;
  GSocketConnection *to = g_socket_client_connect (client, G_SOCKET_CONNECTABLE (address), NULL,
                                                   &error);

  /* The server is away: closed, as a server gone refuses. */
  if (to == NULL)
    {
      g_assert_true (relay->hold_answer);
      g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
      return TRUE;
    }
  if (relay->accepted++ == 0)
    {
      relay->held = g_object_ref (G_IO_STREAM (connection));
      relay->held_to = G_IO_STREAM (to);
      if (!relay->hold_answer)
        {
          /* Only the server's answers pass for now. */
          g_output_stream_splice_async (g_io_stream_get_output_stream (relay->held),
                                        g_io_stream_get_input_stream (relay->held_to),
                                        G_OUTPUT_STREAM_SPLICE_NONE, G_PRIORITY_DEFAULT, NULL,
                                        relay_spliced_cb, NULL);
          return TRUE;
        }
      /* Only the request passes; the answer is read, and goes no further. */
      g_output_stream_splice_async (g_io_stream_get_output_stream (relay->held_to),
                                    g_io_stream_get_input_stream (relay->held),
                                    G_OUTPUT_STREAM_SPLICE_NONE, G_PRIORITY_DEFAULT, NULL,
                                    relay_spliced_cb, NULL);
      g_input_stream_read_bytes_async (g_io_stream_get_input_stream (relay->held_to), 1,
                                       G_PRIORITY_DEFAULT, NULL, relay_answered_cb, relay);
      return TRUE;
    }
  g_io_stream_splice_async (G_IO_STREAM (connection), G_IO_STREAM (to),
                            G_IO_STREAM_SPLICE_CLOSE_STREAM1 | G_IO_STREAM_SPLICE_CLOSE_STREAM2,
                            G_PRIORITY_DEFAULT, NULL, relay_io_spliced_cb, NULL);
  g_object_unref (to);
  return TRUE;
}

static Relay *
relay_new (ServiceRequestFixture *fixture,
           gboolean               hold_answer)
{
  Relay *relay = g_new0 (Relay, 1);
  g_autoptr(GSocketAddress) address = NULL;
  g_autoptr(GError) error = NULL;

  relay->dir = g_dir_make_tmp ("triage-test-relay-XXXXXX", &error);
  g_assert_no_error (error);
  relay->path = g_build_filename (relay->dir, "relay.sock", NULL);
  relay->upstream = g_strdup (triage_test_server_get_socket_path (fixture->server));
  relay->hold_answer = hold_answer;
  relay->service = g_socket_service_new ();
  address = g_unix_socket_address_new (relay->path);
  g_socket_listener_add_address (G_SOCKET_LISTENER (relay->service), address, G_SOCKET_TYPE_STREAM,
                                 G_SOCKET_PROTOCOL_DEFAULT, NULL, NULL, &error);
  g_assert_no_error (error);
  g_signal_connect (relay->service, "incoming", G_CALLBACK (relay_incoming_cb), relay);
  return relay;
}

static void
relay_free (Relay *relay)
{
  g_socket_service_stop (relay->service);
  g_socket_listener_close (G_SOCKET_LISTENER (relay->service));
  g_object_unref (relay->service);
  g_clear_object (&relay->held);
  g_clear_object (&relay->held_to);
  triage_test_remove_tree (relay->dir);
  g_free (relay->dir);
  g_free (relay->path);
  g_free (relay->upstream);
  g_free (relay);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Relay, relay_free)

/* A service's client that reaches the server through @relay. */
static AtpClient *
relay_client (Relay *relay)
{
  AtpClient *client = atp_client_new_for_socket (relay->path);

  atp_client_set_service (client, "scripts", NULL);
  return client;
}

static void
relay_release (Relay *relay)
{
  g_output_stream_splice_async (g_io_stream_get_output_stream (relay->held_to),
                                g_io_stream_get_input_stream (relay->held),
                                G_OUTPUT_STREAM_SPLICE_NONE, G_PRIORITY_DEFAULT, NULL,
                                relay_spliced_cb, NULL);
}

/* The request's status as the person reads it. */
static AtpStatus
status_of (ServiceRequestFixture *fixture,
           const char            *id)
{
  g_autoptr(GAsyncResult) got = NULL;
  g_autoptr(AtpNotification) notification = NULL;
  g_autoptr(GError) error = NULL;

  atp_client_get_notification_async (fixture->person, id, NULL, service_request_test_result_cb,
                                     &got);
  triage_test_wait_until (got != NULL, "the request read back");
  notification = atp_client_get_notification_finish (fixture->person, got, &error);
  g_assert_no_error (error);
  return notification->status;
}

/* Withdrawn while its POST has not arrived: a withdrawal by id alone finds
 * nothing (404), and the POST arriving after it would leave the request
 * pending with nobody waiting. It must end withdrawn. */
static void
test_withdraw_while_posting (ServiceRequestFixture *fixture,
                             gconstpointer          data)
{
  g_autoptr(Relay) relay = relay_new (fixture, FALSE);
  g_autoptr(AtpClient) service = relay_client (relay);
  g_autofree char *id = atp_new_uuid ();
  g_autofree char *body = service_request_test_new_body (id, "Withdrawn on its way");
  g_autoptr(TriageServiceRequest) request = NULL;
  g_autoptr(GAsyncResult) sent = NULL;
  g_autoptr(GAsyncResult) withdrawn = NULL;
  g_autoptr(AtpPostResult) post = NULL;
  g_autoptr(GError) error = NULL;

  request = triage_service_request_new (service, id, body, 10 * G_USEC_PER_SEC);

  triage_service_request_send_async (request, NULL, service_request_test_result_cb, &sent);
  triage_test_wait_until (relay->held != NULL, "the POST's connection");
  triage_service_request_withdraw_async (request, "not needed", NULL,
                                         service_request_test_result_cb, &withdrawn);
  triage_test_wait_until (withdrawn != NULL, "the withdrawal");
  g_assert_true (triage_service_request_withdraw_finish (request, withdrawn, &error));
  g_assert_no_error (error);

  /* The first POST arrives at last: the same request, already withdrawn. */
  relay_release (relay);
  triage_test_wait_until (sent != NULL, "the POST");
  post = triage_service_request_send_finish (request, sent, &error);
  g_assert_no_error (error);
  g_assert_cmpint (status_of (fixture, id), ==, ATP_STATUS_INVALIDATED);
}

/* The server stored the POST and died before its answer left: the POST may
 * have arrived (libatp's CONNECTION_LOST, where it was CONNECTION_FAILED as
 * for a server never reached), so giving up leaves it pending, and the
 * withdrawal, once the server is back, posts it again and takes it back: it
 * ends withdrawn, not waiting in the inbox for nobody. */
static void
test_withdraw_answer_lost (ServiceRequestFixture *fixture,
                           gconstpointer          data)
{
  g_autoptr(Relay) relay = relay_new (fixture, TRUE);
  g_autoptr(AtpClient) service = relay_client (relay);
  g_autofree char *id = atp_new_uuid ();
  g_autofree char *body = service_request_test_new_body (id, "Its answer lost");
  g_autoptr(TriageServiceRequest) request = triage_service_request_new (service, id, body, 0);
  g_autoptr(GAsyncResult) sent = NULL, withdrawn = NULL;
  g_autoptr(AtpPostResult) post = NULL;
  g_autoptr(GError) error = NULL;

  triage_service_request_send_async (request, NULL, service_request_test_result_cb, &sent);
  triage_test_wait_until (relay->answered, "the server's answer to the POST");
  triage_test_server_kill (fixture->server);
  g_io_stream_close (relay->held, NULL, NULL);
  triage_test_wait_until (sent != NULL, "the POST to fail");
  post = triage_service_request_send_finish (request, sent, &error);
  g_assert_null (post);
  g_assert_error (error, ATP_ERROR, ATP_ERROR_CONNECTION_LOST);
  g_assert_true (triage_service_request_left_pending (request, error));
  g_clear_error (&error);

  triage_service_request_withdraw_async (request, "nobody waits", NULL,
                                         service_request_test_result_cb, &withdrawn);
  g_assert_true (triage_test_server_restart (fixture->server, &error));
  g_assert_no_error (error);
  triage_test_wait_until (withdrawn != NULL, "the withdrawal");
  g_assert_true (triage_service_request_withdraw_finish (request, withdrawn, &error));
  g_assert_no_error (error);
  g_assert_cmpint (status_of (fixture, id), ==, ATP_STATUS_INVALIDATED);
}

/* Withdrawals are bounded by a short timeout of their own; the client they
 * share with other requests (triage-mcp's calls) keeps its timeout, while
 * they run and after, however they overlap (the second used to save the
 * first one's short timeout and set it back for good). */
static void
test_withdrawals_overlap (ServiceRequestFixture *fixture,
                          gconstpointer          data)
{
  TriageServiceRequest *requests[2];
  GAsyncResult *results[2] = { NULL, NULL };
  g_autoptr(GError) error = NULL;

  atp_client_set_timeout (fixture->service, 40);
  for (guint i = 0; i < G_N_ELEMENTS (requests); i++)
    {
      g_autofree char *id = atp_new_uuid ();
      g_autofree char *body = service_request_test_new_body (id, "Withdrawn with another");
      g_autoptr(JsonNode) created = NULL;

      requests[i] = triage_service_request_new_at (fixture->service, SERVICE_REQUEST_COLLECTION,
                                                   id, body,
                                                   G_USEC_PER_SEC);
      triage_service_request_send_async (requests[i], NULL, service_request_test_result_cb,
                                         &results[i]);
      triage_test_wait_until (results[i] != NULL, "the POST");
      created = triage_service_request_send_json_finish (requests[i], results[i], &error);
      g_assert_no_error (error);
      g_clear_object (&results[i]);
    }

  for (guint i = 0; i < G_N_ELEMENTS (requests); i++)
    {
      triage_service_request_withdraw_async (requests[i], NULL, NULL,
                                             service_request_test_result_cb, &results[i]);
      g_assert_cmpuint (atp_client_get_timeout (fixture->service), ==, 40);
    }
  for (guint i = 0; i < G_N_ELEMENTS (requests); i++)
    {
      triage_test_wait_until (results[i] != NULL, "a withdrawal");
      g_assert_true (triage_service_request_withdraw_finish (requests[i], results[i], &error));
      g_assert_no_error (error);
      g_clear_object (&results[i]);
      g_object_unref (requests[i]);
    }
  g_assert_cmpuint (atp_client_get_timeout (fixture->service), ==, 40);
}

/* A request sent (its POST answered), for a withdrawal to take back. */
static TriageServiceRequest *
sent_request (ServiceRequestFixture *fixture,
              const char            *title)
{
  g_autofree char *id = atp_new_uuid ();
  g_autofree char *body = service_request_test_new_body (id, title);
  TriageServiceRequest *request = triage_service_request_new (fixture->service, id, body,
                                                              G_USEC_PER_SEC);
  g_autoptr(GAsyncResult) sent = NULL;
  g_autoptr(AtpPostResult) posted = NULL;
  g_autoptr(GError) error = NULL;

  triage_service_request_send_async (request, NULL, service_request_test_result_cb, &sent);
  triage_test_wait_until (sent != NULL, "the POST");
  posted = triage_service_request_send_finish (request, sent, &error);
  g_assert_no_error (error);
  return request;
}

/* A server restarting while a request is withdrawn (down, or draining: 503) still
 * hears of it: the withdrawal is tried again within its 5 s, where one try left the
 * request waiting for its deadline, or for ever without one, with nobody waiting. */
static void
test_withdraw_across_restart (ServiceRequestFixture *fixture,
                              gconstpointer          data)
{
  g_autoptr(TriageServiceRequest) request = sent_request (fixture, "Withdrawn across a restart");
  g_autoptr(GAsyncResult) withdrawn = NULL, waited = NULL;
  g_autoptr(AtpNotification) settled = NULL;
  g_autoptr(GError) error = NULL;

  /* Its first tries fail while the server is down (a machine too slow to try in
   * this time only makes the test weaker). */
  g_assert_true (triage_test_server_stop (fixture->server));
  triage_service_request_withdraw_async (request, "nobody waits", NULL,
                                         service_request_test_result_cb, &withdrawn);
  triage_test_sleep (300);
  g_assert_null (withdrawn);
  g_assert_true (triage_test_server_restart (fixture->server, &error));
  g_assert_no_error (error);
  triage_test_wait_until (withdrawn != NULL, "the withdrawal");
  g_assert_true (triage_service_request_withdraw_finish (request, withdrawn, &error));
  g_assert_no_error (error);

  triage_service_request_wait_async (request, 5, NULL, service_request_test_result_cb, &waited);
  triage_test_wait_until (waited != NULL, "the wait");
  settled = triage_service_request_wait_finish (request, waited, &error);
  g_assert_no_error (error);
  g_assert_cmpint (settled->status, ==, ATP_STATUS_INVALIDATED);
}

/* Gone for longer than the bound: said within it, not tried for ever. */
static void
test_withdraw_bounded (ServiceRequestFixture *fixture,
                       gconstpointer          data)
{
  g_autoptr(TriageServiceRequest) request = sent_request (fixture, "Withdrawn from nobody");
  g_autoptr(GAsyncResult) withdrawn = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start;

  triage_test_server_kill (fixture->server);
  start = g_get_monotonic_time ();
  triage_service_request_withdraw_async (request, "nobody waits", NULL,
                                         service_request_test_result_cb, &withdrawn);
  triage_test_wait_until (withdrawn != NULL, "the withdrawal");
  g_assert_false (triage_service_request_withdraw_finish (request, withdrawn, &error));
  g_assert_error (error, ATP_ERROR, ATP_ERROR_CONNECTION_FAILED);
  g_assert_true (triage_service_error_is_transient (error));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 6 * G_USEC_PER_SEC);
}

static void
count_withdraw_waits (const char     *domain,
                      GLogLevelFlags  level,
                      const char     *message,
                      gpointer        user_data)
{
  guint *waits = user_data;

  if (g_str_has_prefix (message, "could not withdraw the request yet"))
    (*waits)++;
}

/* Cancelled while it waits to try again: it ends at once, with no more tries,
 * not once its next try is due (up to a second later, where the withdrawal
 * had a retry of its own that heeded no cancel). */
static void
test_withdraw_cancelled_while_waiting (ServiceRequestFixture *fixture,
                                       gconstpointer          data)
{
  g_autoptr(TriageServiceRequest) request = sent_request (fixture, "Withdrawal cancelled");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) withdrawn = NULL;
  g_autoptr(GError) error = NULL;
  guint waits = 0;
  guint handler;

  /* Its fourth wait is 800 ms: a machine held up that long between the
   * wait's start and the cancel only makes the test weaker. */
  triage_test_server_kill (fixture->server);
  handler = g_log_set_handler ("triage-service", G_LOG_LEVEL_DEBUG, count_withdraw_waits, &waits);
  triage_service_request_withdraw_async (request, "nobody waits", cancellable,
                                         service_request_test_result_cb, &withdrawn);
  triage_test_wait_until (waits == 4, "the withdrawal's fourth wait");
  g_log_remove_handler ("triage-service", handler);

  /* Only what is due now runs: the cancel, not the next try's timer. */
  g_cancellable_cancel (cancellable);
  while (withdrawn == NULL && g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_nonnull (withdrawn);
  g_assert_false (triage_service_request_withdraw_finish (request, withdrawn, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
on_request_retrying (TriageServiceRequest *request,
                     const GError         *error,
                     gint64                remaining_us,
                     gpointer              user_data)
{
  g_assert_error (error, ATP_ERROR, ATP_ERROR_CONNECTION_FAILED);
  *(gboolean *) user_data = TRUE;
}

/* Cancelled while the server is down, before any POST of it reached the server
 * (its connections failed): the withdrawal has nothing to take back, and says so
 * at once. It used to post the request first, making one nobody had asked for
 * (withdrawn at once, in the person's history), or to owe one to the next run. */
static void
test_withdraw_never_reached (ServiceRequestFixture *fixture,
                             gconstpointer          data)
{
  g_autoptr(GError) error = NULL;
  char *ids[2];

  g_assert_true (triage_test_server_stop (fixture->server));
  for (guint json = 0; json < G_N_ELEMENTS (ids); json++)
    {
      const char *id = ids[json] = atp_new_uuid ();
      g_autofree char *body = service_request_test_new_body (id, "Never asked");
      g_autoptr(TriageServiceRequest) request = NULL;
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      g_autoptr(GAsyncResult) sent = NULL, withdrawn = NULL;
      gboolean retrying = FALSE;

      request = json ? triage_service_request_new_at (fixture->service, SERVICE_REQUEST_COLLECTION,
                                                      id, body, 60 * G_USEC_PER_SEC)
                     : triage_service_request_new (fixture->service, id, body,
                                                   60 * G_USEC_PER_SEC);
      g_signal_connect (request, "retrying", G_CALLBACK (on_request_retrying), &retrying);
      triage_service_request_send_async (request, cancellable, service_request_test_result_cb,
                                         &sent);
      triage_test_wait_until (retrying, "the first POST to fail");
      g_assert_false (triage_service_request_may_exist (request));
      g_cancellable_cancel (cancellable);
      triage_test_wait_until (sent != NULL, "the send to end");
      if (json)
        g_assert_null (triage_service_request_send_json_finish (request, sent, &error));
      else
        g_assert_null (triage_service_request_send_finish (request, sent, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_clear_error (&error);

      triage_service_request_withdraw_async (request, "nobody waits", NULL,
                                             service_request_test_result_cb, &withdrawn);
      triage_test_wait_until (withdrawn != NULL, "the withdrawal");
      g_assert_false (triage_service_request_withdraw_finish (request, withdrawn, &error));
      g_assert_error (error, ATP_ERROR, ATP_ERROR_NOTIFICATION_NOT_FOUND);
      g_clear_error (&error);
    }

  /* Nothing was made: the server, back, knows neither. */
  g_assert_true (triage_test_server_restart (fixture->server, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_autoptr(GAsyncResult) got = NULL;
      g_autoptr(AtpNotification) notification = NULL;

      atp_client_get_notification_async (fixture->person, ids[i], NULL,
                                         service_request_test_result_cb, &got);
      triage_test_wait_until (got != NULL, "the request looked up");
      notification = atp_client_get_notification_finish (fixture->person, got, &error);
      g_assert_error (error, ATP_ERROR, ATP_ERROR_NOTIFICATION_NOT_FOUND);
      g_clear_error (&error);
      g_free (ids[i]);
    }
}

void
service_request_test_add_withdraw (void)
{
#define ADD(path, func) g_test_add (path, ServiceRequestFixture, NULL, service_request_test_setup, \
                                    func, service_request_test_teardown)
  ADD ("/service-request/withdraw-while-posting", test_withdraw_while_posting);
  ADD ("/service-request/withdraw-answer-lost", test_withdraw_answer_lost);
  ADD ("/service-request/withdrawals-overlap", test_withdrawals_overlap);
  ADD ("/service-request/withdraw-across-restart", test_withdraw_across_restart);
  ADD ("/service-request/withdraw-bounded", test_withdraw_bounded);
  ADD ("/service-request/withdraw-cancelled-while-waiting", test_withdraw_cancelled_while_waiting);
  ADD ("/service-request/withdraw-never-reached", test_withdraw_never_reached);
#undef ADD
}
