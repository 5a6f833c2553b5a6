/* test-server-webhook.c — webhooks (profile §6) from a real triage-server to a
 * receiver in its own process (tests/server/webhook-receiver.py)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-server-webhook"

#include <string.h>
#include <libsoup/soup.h>

#include "atp.h"
#include "atp-afp.h"
#include "server-test-util.h"
#include "webhook-receiver-util.h"

#define SIMPLE_ACTIONS "[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]"

/* Checks X-ATP-Signature against @secret and the raw body; returns its t. */
static gint64
assert_signed (Delivery   *delivery,
               const char *secret)
{
  g_auto(GStrv) parts = NULL;
  g_autofree char *message = NULL, *expected = NULL;
  gint64 t, now = g_get_real_time () / G_USEC_PER_SEC;

  g_assert_nonnull (delivery->signature);
  parts = g_strsplit (delivery->signature, ",", -1);
  g_assert_cmpuint (g_strv_length (parts), ==, 2);
  g_assert_true (g_str_has_prefix (parts[0], "t="));
  g_assert_true (g_str_has_prefix (parts[1], "v1="));
  t = g_ascii_strtoll (parts[0] + 2, NULL, 10);
  /* What a service checks: not older than 300 s (and not from the future). */
  g_assert_cmpint (t, <=, now + 1);
  g_assert_cmpint (t, >=, now - 300);
  message = g_strdup_printf ("%s.%s", parts[0] + 2, delivery->body);
  expected = g_compute_hmac_for_string (G_CHECKSUM_SHA256, (const guchar *) secret, strlen (secret),
                                        message, -1);
  g_assert_cmpstr (parts[1] + 3, ==, expected);
  g_assert_true (atp_is_uuid_v4 (delivery->request_id));
  g_assert_cmpstr (delivery->content_type, ==, "application/json");
  return t;
}

/* ---- the server side ---- */

typedef struct
{
  TriageTestServer *server;
  char             *user_token;
  char             *log_dir;      /* the server's log is log_dir/server.log */
} Fixture;

/* How a test's server is started, when not as it is by default. */
typedef struct
{
  gboolean            logged;        /* its standard error to a file the test reads */
  const char * const *environment;
} Setup;

static char *
log_path (Fixture *fixture)
{
  return g_build_filename (fixture->log_dir, "server.log", NULL);
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  const Setup *setup = data;
  TriageTestServerOptions opts = { 0 };
  g_autofree char *log = NULL;
  g_autoptr(GError) error = NULL;

  if (setup != NULL && setup->logged)
    {
      fixture->log_dir = g_dir_make_tmp ("test-server-webhook-XXXXXX", &error);
      g_assert_no_error (error);
      opts.log_file = log = log_path (fixture);
    }
  opts.environment = setup ? setup->environment : NULL;
  fixture->server = triage_test_server_new (&opts, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_user (fixture->server, "alice", &fixture->user_token,
                                                 &error));
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  triage_test_server_free (fixture->server);
  g_free (fixture->user_token);
  if (fixture->log_dir != NULL)
    triage_test_remove_tree (fixture->log_dir);
  g_free (fixture->log_dir);
}

typedef struct
{
  char *key;
  char *secret;
} Service;

static void
service_clear (Service *service)
{
  g_free (service->key);
  g_free (service->secret);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Service, service_clear)

static void
add_service (Fixture    *fixture,
             const char *name,
             Receiver   *receiver,
             const char *path,
             Service    *service)
{
  const char *recipients[] = { "alice", NULL };
  g_autofree char *url = receiver ? receiver_url (receiver, path) : NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (triage_test_server_create_service (fixture->server, name, recipients, url, NULL,
                                                    &service->key, &service->secret, &error));
  g_assert_no_error (error);
}

static char *
request (Fixture    *fixture,
         const char *method,
         const char *path,
         const char *token,
         const char *body,
         guint       status)
{
  g_autoptr(GError) error = NULL;
  char *answer = NULL;
  guint got = 0;

  g_assert_true (triage_test_http (fixture->server, method, path, token, body, &got, &answer,
                                   &error));
  g_assert_no_error (error);
  if (got != status)
    g_error ("%s %s: expected %u, got %u: %s", method, path, status, got, answer);
  return answer;
}

/* Posts a notification (with a deadline @deadline_s from now, 0 = none); returns its id. */
static char *
post (Fixture       *fixture,
      const Service *service,
      double         deadline_s)
{
  char *id = atp_new_uuid ();
  g_autofree char *deadline = srv_deadline_member (deadline_s);
  g_autofree char *body = NULL, *answer = NULL;

  body = g_strdup_printf ("{\"id\":\"%s\",%s\"context\":{\"title\":\"T\",\"description\":\"D\"},"
                          "\"actions\":" SIMPLE_ACTIONS "}", id, deadline);
  answer = request (fixture, "POST", "/api/v1/notifications", service->key, body, 201);
  return id;
}

static void
respond (Fixture    *fixture,
         const char *id)
{
  g_autofree char *body = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"ok\"}", id);
  g_free (request (fixture, "POST", "/api/v1/client/respond", fixture->user_token, body, 200));
}

/* The response object as the service's GET returns it, as a node. */
static JsonNode *
get_response (Fixture       *fixture,
              const Service *service,
              const char    *id)
{
  g_autofree char *path = g_strconcat ("/api/v1/notifications/", id, NULL);
  g_autofree char *answer = request (fixture, "GET", path, service->key, NULL, 200);
  g_autoptr(JsonNode) root = json_from_string (answer, NULL);
  JsonNode *response = json_object_get_member (json_node_get_object (root), "response");

  g_assert_nonnull (response);
  return json_node_copy (response);
}

static JsonObject *
body_object (Delivery *delivery)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = json_from_string (delivery->body, &error);

  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_object_ref (json_node_get_object (node));
}

static void
sleep_s (double seconds)
{
  g_usleep ((gulong) (seconds * G_USEC_PER_SEC));
}

static double
now_s (void)
{
  return g_get_real_time () / (double) G_USEC_PER_SEC;
}

/* ---- tests ---- */

/* The answer goes to the service's callback_url, signed, with the response
 * object as its body; a service without callback_url gets nothing. */
static void
test_signed_response (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(Receiver) receiver = receiver_start (0);
  g_auto(Service) plain = { 0 }, hooked = { 0 };
  g_autofree char *plain_id = NULL, *id = NULL, *expected = NULL;
  g_autoptr(GPtrArray) deliveries = NULL;
  g_autoptr(JsonNode) response = NULL, body = NULL;
  g_autoptr(GError) error = NULL;
  Delivery *delivery;

  add_service (fixture, "plain", NULL, NULL, &plain);
  add_service (fixture, "hooked", receiver, "/ok/signed", &hooked);
  plain_id = post (fixture, &plain, 0);
  id = post (fixture, &hooked, 0);
  respond (fixture, plain_id);
  respond (fixture, id);

  deliveries = receiver_wait (receiver, "/ok/signed", 1);
  delivery = deliveries->pdata[0];
  assert_signed (delivery, hooked.secret);
  response = get_response (fixture, &hooked, id);
  expected = atp_json_to_string (response, NULL);
  g_assert_cmpstr (delivery->body, ==, expected);
  body = json_from_string (delivery->body, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (body), "notification_id"),
                   ==, id);
  g_assert_false (json_object_has_member (json_node_get_object (body), "event"));
  g_assert_cmpstr (delivery->event, ==, "atp.response");

  /* The plain service's answer was committed first: had it been sent
   * anywhere, it would be here by now. */
  sleep_s (0.5);
  g_assert_cmpuint (receiver_count (receiver, NULL), ==, 1);
}

/* A receiver failing twice gets three attempts at 0, 1 and 5 s with one
 * request id, each signed anew; one that hangs is given up on after 5 s and
 * retried; a redirect is a failure, never followed; and none of them holds
 * up a healthy receiver. */
static void
test_retries (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(Receiver) receiver = receiver_start (0);
  g_auto(Service) hang = { 0 }, fail = { 0 }, redirect = { 0 }, ok = { 0 };
  g_autofree char *hang_id = NULL, *fail_id = NULL, *redirect_id = NULL, *ok_id = NULL;
  g_autoptr(GPtrArray) fails = NULL, hangs = NULL, oks = NULL;
  Delivery *first, *second, *third;
  double responded;

  add_service (fixture, "hang", receiver, "/hang/h", &hang);
  add_service (fixture, "fail", receiver, "/fail/2/f", &fail);
  add_service (fixture, "redirect", receiver, "/redirect/r", &redirect);
  add_service (fixture, "ok", receiver, "/ok/o", &ok);
  hang_id = post (fixture, &hang, 0);
  fail_id = post (fixture, &fail, 0);
  redirect_id = post (fixture, &redirect, 0);
  ok_id = post (fixture, &ok, 0);
  respond (fixture, hang_id);
  g_ptr_array_unref (receiver_wait (receiver, "/hang/h", 1));
  respond (fixture, fail_id);
  respond (fixture, redirect_id);
  responded = now_s ();
  respond (fixture, ok_id);

  /* Delivered while the hanging receiver still holds its attempt (5 s).
   * Each upper bound below sits just under what a wrong schedule would give,
   * leaving a loaded machine all the slack there is. */
  oks = receiver_wait (receiver, "/ok/o", 1);
  g_assert_cmpfloat (((Delivery *) oks->pdata[0])->time - responded, <, 4.5);
  assert_signed (oks->pdata[0], ok.secret);

  fails = receiver_wait (receiver, "/fail/2/f", 3);
  first = fails->pdata[0];
  second = fails->pdata[1];
  third = fails->pdata[2];
  g_assert_cmpfloat (second->time - first->time, >=, 0.95);
  g_assert_cmpfloat (second->time - first->time, <, 3.5);    /* not the 4 s of the next step */
  g_assert_cmpfloat (third->time - second->time, >=, 3.95);
  g_assert_cmpfloat (third->time - second->time, <, 12.0);   /* nor its 16 s */
  g_assert_cmpstr (second->request_id, ==, first->request_id);
  g_assert_cmpstr (third->request_id, ==, first->request_id);
  g_assert_cmpstr (second->body, ==, first->body);
  g_assert_cmpstr (third->body, ==, first->body);
  g_assert_cmpint (assert_signed (third, fail.secret), >, assert_signed (first, fail.secret));
  assert_signed (second, fail.secret);

  hangs = receiver_wait (receiver, "/hang/h", 2);
  first = hangs->pdata[0];
  second = hangs->pdata[1];
  /* 5 s from the attempt's start, then 1 s; the first arrived a little after
   * its start (connecting takes a while on a loaded machine, under ASan). */
  g_assert_cmpfloat (second->time - first->time, >=, 5.5);
  g_assert_cmpfloat (second->time - first->time, <, 8.5);
  g_assert_cmpstr (second->request_id, ==, first->request_id);
  assert_signed (second, hang.secret);

  g_assert_cmpuint (receiver_count (receiver, "/redirect/r"), >=, 2);
  g_assert_cmpuint (receiver_count (receiver, "/ok/r-target"), ==, 0);

  /* A success ends the deliveries. */
  sleep_s (1.5);
  g_assert_cmpuint (receiver_count (receiver, "/fail/2/f"), ==, 3);
  g_assert_cmpuint (receiver_count (receiver, "/hang/h"), ==, 2);
  g_assert_cmpuint (receiver_count (receiver, "/ok/o"), ==, 1);
}

/* kill -9 with the answer stored and its receiver down: the delivery goes
 * out after the restart, once the receiver is back. */
static void
test_survives_kill (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(Receiver) probe = receiver_start (0);
  guint port = probe->port;
  g_autoptr(Receiver) receiver = NULL;
  g_auto(Service) service = { 0 };
  g_autofree char *id = NULL, *expected = NULL;
  g_autoptr(GPtrArray) deliveries = NULL;
  g_autoptr(JsonNode) response = NULL;
  g_autoptr(GError) error = NULL;

  add_service (fixture, "down", probe, "/ok/k", &service);
  receiver_stop (g_steal_pointer (&probe));
  id = post (fixture, &service, 0);
  respond (fixture, id);
  triage_test_server_kill (fixture->server);

  g_assert_true (triage_test_server_restart (fixture->server, &error));
  g_assert_no_error (error);
  receiver = receiver_start (port);
  deliveries = receiver_wait (receiver, "/ok/k", 1);
  assert_signed (deliveries->pdata[0], service.secret);
  response = get_response (fixture, &service, id);
  expected = atp_json_to_string (response, NULL);
  g_assert_cmpstr (((Delivery *) deliveries->pdata[0])->body, ==, expected);
}

/* SIGTERM during an attempt: the server stops at once and cleanly, and the
 * next start makes the attempt again with the same request id. */
static void
test_survives_stop (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(Receiver) receiver = receiver_start (0);
  g_auto(Service) service = { 0 };
  g_autofree char *id = NULL;
  g_autoptr(GPtrArray) deliveries = NULL;
  g_autoptr(GError) error = NULL;
  double stopping, started;

  add_service (fixture, "stopped", receiver, "/hang/t", &service);
  id = post (fixture, &service, 0);
  respond (fixture, id);
  g_ptr_array_unref (receiver_wait (receiver, "/hang/t", 1));

  stopping = now_s ();
  g_assert_true (triage_test_server_stop (fixture->server));
  g_assert_cmpfloat (now_s () - stopping, <, 4.5);   /* not the attempt's 5 s */

  g_assert_true (triage_test_server_restart (fixture->server, &error));
  g_assert_no_error (error);
  started = now_s ();
  deliveries = receiver_wait (receiver, "/hang/t", 2);
  g_assert_cmpfloat (((Delivery *) deliveries->pdata[1])->time - started, <, 4.0);   /* not held 6 s */
  g_assert_cmpstr (((Delivery *) deliveries->pdata[1])->request_id, ==,
                   ((Delivery *) deliveries->pdata[0])->request_id);
  assert_signed (deliveries->pdata[1], service.secret);
}

/* Runs @sql on the server's database (running or not) and returns the rows
 * it gave, a line each, columns separated by '|'. */
static char *
database_run (Fixture    *fixture,
              const char *sql)
{
  g_autoptr(GError) error = NULL;
  char *rows = triage_test_server_run_sql (fixture->server, sql, &error);

  g_assert_no_error (error);
  return rows;
}

/* Waits until @sql reads @expected: what the server records of an attempt
 * is in the database once it has read the receiver's answer and committed. */
static void
wait_rows (Fixture    *fixture,
           const char *sql,
           const char *expected,
           const char *what)
{
  gint64 limit = g_get_monotonic_time () + WAIT_LIMIT_S * G_USEC_PER_SEC;

  for (;;)
    {
      g_autofree char *rows = database_run (fixture, sql);

      if (strcmp (rows, expected) == 0)
        return;
      if (g_get_monotonic_time () > limit)
        g_error ("%s was not recorded within %d s: %s", what, WAIT_LIMIT_S, rows);
      g_usleep (50 * 1000);
    }
}

/* The last attempt fails: the delivery is kept as failed and never tried
 * again. The five failures before it are set in the stopped server's queue
 * (the real schedule would take six minutes); the restart resumes from them. */
static void
test_gives_up (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(Receiver) receiver = receiver_start (0);
  g_auto(Service) service = { 0 };
  g_autofree char *id = NULL;
  g_autoptr(GPtrArray) deliveries = NULL;
  g_autoptr(GError) error = NULL;

  add_service (fixture, "refusing", receiver, "/fail/100/g", &service);
  id = post (fixture, &service, 0);
  respond (fixture, id);
  g_ptr_array_unref (receiver_wait (receiver, "/fail/100/g", 1));
  wait_rows (fixture, "SELECT attempts, CASE WHEN next_attempt IS NULL THEN 0"
                      " ELSE 1 END, last_error FROM webhook_deliveries",
             "1|1|HTTP 500\n", "the first failure");
  g_assert_true (triage_test_server_stop (fixture->server));
  g_free (database_run (fixture, "UPDATE webhook_deliveries SET attempts = 5, next_attempt = 0"));

  g_assert_true (triage_test_server_restart (fixture->server, &error));
  g_assert_no_error (error);
  deliveries = receiver_wait (receiver, "/fail/100/g", 2);
  g_assert_cmpstr (((Delivery *) deliveries->pdata[1])->request_id, ==,
                   ((Delivery *) deliveries->pdata[0])->request_id);
  /* Recorded as failed for good (a fixed wait for it was too short for a
   * loaded machine); the next retry would have come after 1 s at the earliest. */
  wait_rows (fixture, "SELECT attempts, CASE WHEN next_attempt IS NULL THEN 1"
                      " ELSE 0 END, last_error FROM webhook_deliveries",
             "6|1|HTTP 500\n", "the last failure");
  sleep_s (2.0);
  g_assert_cmpuint (receiver_count (receiver, "/fail/100/g"), ==, 2);
}

static JsonObject *
find_update (GPtrArray  *deliveries,
             const char *id)
{
  for (guint i = 0; i < deliveries->len; i++)
    {
      g_autoptr(JsonObject) object = body_object (deliveries->pdata[i]);

      if (g_strcmp0 (json_object_get_string_member (object, "notification_id"), id) == 0)
        return g_steal_pointer (&object);
    }
  g_error ("no delivery for notification %s", id);
}

/* Expiry and invalidation arrive as {"event": "status_update", …}. */
static void
test_status_updates (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(Receiver) receiver = receiver_start (0);
  g_auto(Service) service = { 0 };
  g_autofree char *expiring = NULL, *withdrawn = NULL, *path = NULL, *answer = NULL;
  g_autoptr(GPtrArray) deliveries = NULL;
  g_autoptr(JsonObject) expired = NULL, invalidated = NULL;
  g_autoptr(GDateTime) stamp = NULL;

  add_service (fixture, "updates", receiver, "/ok/s", &service);
  expiring = post (fixture, &service, 0.5);
  withdrawn = post (fixture, &service, 0);
  path = g_strconcat ("/api/v1/notifications/", withdrawn, NULL);
  answer = request (fixture, "PATCH", path, service.key,
                    "{\"status\":\"invalidated\",\"reason\":\"no longer needed\"}", 200);

  deliveries = receiver_wait (receiver, "/ok/s", 2);
  for (guint i = 0; i < deliveries->len; i++)
    {
      Delivery *delivery = deliveries->pdata[i];

      assert_signed (delivery, service.secret);
      g_assert_true (g_str_has_prefix (delivery->body, "{\"event\":\"status_update\","));
      g_assert_cmpstr (delivery->event, ==, "atp.status_update");
    }
  expired = find_update (deliveries, expiring);
  g_assert_cmpstr (json_object_get_string_member (expired, "status"), ==, "expired");
  g_assert_cmpstr (json_object_get_string_member (expired, "reason"), ==, "deadline passed");
  stamp = atp_parse_timestamp (json_object_get_string_member (expired, "timestamp"));
  g_assert_nonnull (stamp);
  invalidated = find_update (deliveries, withdrawn);
  g_assert_cmpstr (json_object_get_string_member (invalidated, "status"), ==, "invalidated");
  g_assert_cmpstr (json_object_get_string_member (invalidated, "reason"), ==, "no longer needed");
  g_assert_cmpuint (json_object_get_size (invalidated), ==, 5);
}

/* An AFP review's end reaches its service as the agent's view of it, the
 * Response Object included (event afp.response), signed like any. */
static void
test_afp_review (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(Receiver) receiver = receiver_start (0);
  g_auto(Service) service = { 0 };
  g_autoptr(GPtrArray) deliveries = NULL;
  g_autoptr(JsonObject) body = NULL;
  g_autoptr(AtpAfpResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = NULL, *respond_body = NULL, *answered = NULL;
  const char *id = "3c2d1e0f-9a8b-4c7d-8e6f-5a4b3c2d1e0f";

  add_service (fixture, "reviews", receiver, "/ok/afp", &service);
  answer = request (fixture, "POST", "/api/v1/afp/reviews", service.key,
                    "{\"id\":\"3c2d1e0f-9a8b-4c7d-8e6f-5a4b3c2d1e0f\",\"request\":{\"iteration\":1,"
                    "\"artifact\":{\"media_type\":\"text/plain\",\"content\":\"x\"}}}", 201);
  respond_body = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"decline\"}", id);
  answered = request (fixture, "POST", "/api/v1/client/respond", fixture->user_token, respond_body,
                      200);

  deliveries = receiver_wait (receiver, "/ok/afp", 1);
  assert_signed (deliveries->pdata[0], service.secret);
  body = body_object (deliveries->pdata[0]);
  g_assert_cmpstr (json_object_get_string_member (body, "id"), ==, id);
  g_assert_cmpstr (json_object_get_string_member (body, "status"), ==, "answered");
  response = atp_afp_response_new_from_json (json_object_get_member (body, "response"), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (response->error_code, ==, "REVIEW_DECLINED");
}

/* An AITP decision reaches its service as the decision message (event
 * aitp.decision), an end as the agent's view (event aitp.status), signed
 * like any. */
static void
test_aitp_decision (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(Receiver) receiver = receiver_start (0);
  g_auto(Service) service = { 0 };
  g_autoptr(GPtrArray) deliveries = NULL;
  g_autoptr(JsonNode) created_node = NULL, withdrawn_node = NULL;
  JsonObject *created, *withdrawn;
  g_autofree char *answer = NULL, *second = NULL, *respond_body = NULL, *answered = NULL;
  g_autofree char *path = NULL, *patched = NULL;
#define COLOURS(id) \
  "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"request_decision\":{\"id\":\"" id "\"," \
  "\"type\":\"checkbox\",\"options\":[{\"id\":\"red\",\"name\":\"Red\"},{\"id\":\"blue\"}]}}"
  const char *first_body = COLOURS ("colours");
  const char *second_body = COLOURS ("colours-again");
  Delivery *decision = NULL, *end = NULL;

  add_service (fixture, "decisions", receiver, "/ok/aitp", &service);
  answer = request (fixture, "POST", "/api/v1/aitp/decisions", service.key, first_body, 201);
  created_node = json_from_string (answer, NULL);
  created = json_node_get_object (created_node);
  second = request (fixture, "POST", "/api/v1/aitp/decisions", service.key, second_body, 201);
  withdrawn_node = json_from_string (second, NULL);
  withdrawn = json_node_get_object (withdrawn_node);
  respond_body = g_strdup_printf ("{\"notification_id\":\"%s\",\"response_data\":"
                                  "{\"options\":[{\"id\":\"blue\"},{\"id\":\"red\"}]}}",
                                  json_object_get_string_member (created, "id"));
  answered = request (fixture, "POST", "/api/v1/client/respond", fixture->user_token, respond_body,
                      200);
  path = g_strconcat ("/api/v1/aitp/decisions/", json_object_get_string_member (withdrawn, "id"), NULL);
  patched = request (fixture, "PATCH", path, service.key,
                     "{\"status\":\"invalidated\",\"reason\":\"asked elsewhere\"}", 200);

  deliveries = receiver_wait (receiver, "/ok/aitp", 2);
  for (guint i = 0; i < deliveries->len; i++)
    {
      Delivery *delivery = deliveries->pdata[i];

      assert_signed (delivery, service.secret);
      if (g_strcmp0 (delivery->event, "aitp.decision") == 0)
        decision = delivery;
      else if (g_strcmp0 (delivery->event, "aitp.status") == 0)
        end = delivery;
    }
  g_assert_nonnull (decision);
  g_assert_cmpstr (decision->body, ==,
                   "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\",\"decision\":"
                   "{\"request_decision_id\":\"colours\",\"options\":[{\"id\":\"blue\"},"
                   "{\"id\":\"red\",\"name\":\"Red\"}]}}");
  g_assert_nonnull (end);
  {
    g_autoptr(JsonObject) body = body_object (end);

    g_assert_cmpstr (json_object_get_string_member (body, "request_decision_id"), ==, "colours-again");
    g_assert_cmpstr (json_object_get_string_member (body, "status"), ==, "invalidated");
    g_assert_cmpstr (json_object_get_string_member (body, "reason"), ==, "asked elsewhere");
  }
}

/* The callback_url is sent to as it was registered: "%2F" and "%26" are
 * not decoded into "/" and "&", nor "%20" into a space that breaks the
 * request line. */
static void
test_url_as_registered (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(Receiver) receiver = receiver_start (0);
  g_auto(Service) service = { 0 };
  g_autofree char *id = NULL;
  g_autoptr(GPtrArray) deliveries = NULL;

  add_service (fixture, "encoded", receiver, "/ok/a%2Fb%20c?x=%26y", &service);
  id = post (fixture, &service, 0);
  respond (fixture, id);
  deliveries = receiver_wait (receiver, "/ok/a%2Fb%20c?x=%26y", 1);
  assert_signed (deliveries->pdata[0], service.secret);
}

/* A callback_url stored before registration refused control characters
 * (here a percent-encoded line feed, which went out decoded in the request
 * line) is never sent to: the delivery fails for good at once, without an
 * attempt, logged once. */
static void
test_stored_url_refused (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(Receiver) receiver = receiver_start (0);
  g_auto(Service) service = { 0 };
  g_autofree char *id = NULL, *sql = NULL, *url = NULL, *log = NULL, *text = NULL;
  g_autofree char *failure = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  guint logged = 0;

  add_service (fixture, "stored", receiver, "/ok/stored", &service);
  g_assert_true (triage_test_server_stop (fixture->server));
  url = receiver_url (receiver, "/ok/a%0AX-Injected:%201");
  sql = g_strdup_printf ("UPDATE services SET callback_url = '%s'", url);
  g_free (database_run (fixture, sql));
  g_assert_true (triage_test_server_restart (fixture->server, &error));
  g_assert_no_error (error);

  id = post (fixture, &service, 0);
  respond (fixture, id);
  failure = g_strdup_printf ("0|1|callback_url must not contain control characters, as they are "
                             "or percent-encoded: it has a line feed (%%0A) at byte %zu\n",
                             strlen (receiver->url) + strlen ("/ok/a") + 1);
  wait_rows (fixture, "SELECT attempts, CASE WHEN next_attempt IS NULL THEN 1 ELSE 0 END,"
                      " last_error FROM webhook_deliveries", failure, "the failure");
  g_assert_true (triage_test_server_stop (fixture->server));
  g_assert_cmpuint (receiver_count (receiver, NULL), ==, 0);
  log = log_path (fixture);
  g_assert_true (g_file_get_contents (log, &text, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], "callback_url cannot be used") != NULL)
      {
        logged++;
        g_assert_nonnull (strstr (lines[i], "failed for good"));
        g_assert_nonnull (strstr (lines[i], id));
        g_assert_null (strstr (lines[i], "/ok/"));   /* the URL is never logged */
      }
  g_assert_cmpuint (logged, ==, 1);
}

/* A loopback callback never goes through a proxy of the environment
 * (libsoup's default resolver honours http_proxy and its kin): with every
 * proxy variable naming a port nobody listens on, the delivery arrives. */
static void
test_loopback_without_proxy (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autoptr(Receiver) receiver = receiver_start (0);
  g_auto(Service) service = { 0 };
  g_autofree char *id = NULL;
  g_autoptr(GPtrArray) deliveries = NULL;

  add_service (fixture, "local", receiver, "/ok/local", &service);
  id = post (fixture, &service, 0);
  respond (fixture, id);
  deliveries = receiver_wait (receiver, "/ok/local", 1);
  assert_signed (deliveries->pdata[0], service.secret);
}

/* A port bound and never listened on: connections to it are refused, and no
 * other program can take it while the test runs. */
static GSocket *
dead_port (guint *port)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSocket) socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                            G_SOCKET_PROTOCOL_TCP, &error);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;

  g_assert_no_error (error);
  g_assert_true (g_socket_bind (socket, any, FALSE, &error));
  g_assert_no_error (error);
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  *port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  return g_steal_pointer (&socket);
}

int
main (int    argc,
      char **argv)
{
  static const Setup logged = { .logged = TRUE };
  g_autoptr(GSocket) dead = NULL;
  g_autofree char *proxy = NULL, *http = NULL, *https = NULL, *all = NULL;
  g_autofree char *http_upper = NULL, *https_upper = NULL, *all_upper = NULL;
  const char *environment[10] = { NULL };
  Setup proxied = { 0 };
  guint port;

  g_test_init (&argc, &argv, NULL);
  dead = dead_port (&port);
  proxy = g_strdup_printf ("http://127.0.0.1:%u", port);
  environment[0] = http = g_strconcat ("http_proxy=", proxy, NULL);
  environment[1] = https = g_strconcat ("https_proxy=", proxy, NULL);
  environment[2] = all = g_strconcat ("all_proxy=", proxy, NULL);
  environment[3] = http_upper = g_strconcat ("HTTP_PROXY=", proxy, NULL);
  environment[4] = https_upper = g_strconcat ("HTTPS_PROXY=", proxy, NULL);
  environment[5] = all_upper = g_strconcat ("ALL_PROXY=", proxy, NULL);
  environment[6] = "no_proxy=";
  environment[7] = "NO_PROXY=";
  proxied.environment = environment;
  g_test_add ("/server/webhook/signed-response", Fixture, NULL, fixture_setup,
              test_signed_response, fixture_teardown);
  g_test_add ("/server/webhook/retries", Fixture, NULL, fixture_setup, test_retries,
              fixture_teardown);
  g_test_add ("/server/webhook/survives-kill", Fixture, NULL, fixture_setup, test_survives_kill,
              fixture_teardown);
  g_test_add ("/server/webhook/survives-stop", Fixture, NULL, fixture_setup, test_survives_stop,
              fixture_teardown);
  g_test_add ("/server/webhook/gives-up", Fixture, NULL, fixture_setup, test_gives_up,
              fixture_teardown);
  g_test_add ("/server/webhook/afp-review", Fixture, NULL, fixture_setup, test_afp_review,
              fixture_teardown);
  g_test_add ("/server/webhook/aitp-decision", Fixture, NULL, fixture_setup, test_aitp_decision,
              fixture_teardown);
  g_test_add ("/server/webhook/status-updates", Fixture, NULL, fixture_setup,
              test_status_updates, fixture_teardown);
  g_test_add ("/server/webhook/url-as-registered", Fixture, NULL, fixture_setup,
              test_url_as_registered, fixture_teardown);
  g_test_add ("/server/webhook/stored-url-refused", Fixture, &logged, fixture_setup,
              test_stored_url_refused, fixture_teardown);
  g_test_add ("/server/webhook/loopback-without-proxy", Fixture, &proxied, fixture_setup,
              test_loopback_without_proxy, fixture_teardown);
  return g_test_run ();
}
