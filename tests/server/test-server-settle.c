/* test-server-settle.c — the end of a request is stored with its webhook's
 * delivery, or not at all
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A service with a callback_url is owed a delivery for every end of its
 * requests (profile §6). The delivery is a row of the server's queue; an
 * end committed without its row is never sent (nothing looks for it again).
 * The row's insert is made to fail here by a trigger the test puts on the
 * server's webhook_deliveries table (SQLite: RAISE (ABORT); PostgreSQL: a
 * function that raises), as a full disk or a failing statement would: the
 * person's answer is then refused with 503 and nothing changed, and taken
 * with its delivery once the table takes rows; an expiry is made again
 * until its delivery is stored.
 */

#define G_LOG_DOMAIN "test-server-settle"

#include <glib/gstdio.h>

#include "atp.h"
#include "server-test-util.h"
#include "webhook-receiver-util.h"

#define SIMPLE_ACTIONS "[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]"

typedef struct
{
  TriageTestServer *server;
  Receiver         *receiver;
  char             *dir;
  char             *log;
  char             *alice;
  char             *key;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  const char * const alice[] = { "alice", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  TriageTestServerOptions options = { 0 };

  fixture->dir = g_dir_make_tmp ("test-server-settle-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->log = g_build_filename (fixture->dir, "server.log", NULL);
  options.log_file = fixture->log;
  fixture->receiver = receiver_start (0);
  fixture->server = triage_test_server_new (&options, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_user (fixture->server, "alice", &fixture->alice,
                                                 &error));
  g_assert_no_error (error);
  url = receiver_url (fixture->receiver, "/settle");
  g_assert_true (triage_test_server_create_service (fixture->server, "settle-bot", alice, url,
                                                    NULL, &fixture->key, NULL, &error));
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_assert_true (triage_test_server_stop (fixture->server));
  triage_test_server_free (fixture->server);
  receiver_stop (fixture->receiver);
  g_unlink (fixture->log);
  g_rmdir (fixture->dir);
  g_free (fixture->log);
  g_free (fixture->dir);
  g_free (fixture->alice);
  g_free (fixture->key);
}

/* "pending" or "ended", as the database has request @id. */
static char *
stored_state (Fixture    *fixture,
              const char *id)
{
  g_autofree char *sql = g_strdup_printf ("SELECT CASE WHEN status >= 3 THEN 'ended' ELSE"
                                          " 'pending' END FROM notifications WHERE id = '%s'", id);

  return srv_run_sql (fixture->server, sql);
}

static SrvAnswer *
respond (Fixture    *fixture,
         const char *id)
{
  g_autofree char *body = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"ok\"}", id);

  return srv_request (fixture->server, "POST", "/api/v1/client/respond", fixture->alice, body);
}

/* Waits until the server's log holds @part or @other; fails after
 * WAIT_LIMIT_S. */
static void
wait_log (Fixture    *fixture,
          const char *part,
          const char *other)
{
  gint64 limit = g_get_monotonic_time () + WAIT_LIMIT_S * G_USEC_PER_SEC;

  for (;;)
    {
      g_autofree char *text = NULL;

      if (g_file_get_contents (fixture->log, &text, NULL, NULL) &&
          (strstr (text, part) != NULL || strstr (text, other) != NULL))
        return;
      if (g_get_monotonic_time () > limit)
        g_error ("the server did not log \"%s\" within %d s:\n%s", part, WAIT_LIMIT_S,
                 text ? text : "");
      g_usleep (50 * 1000);
    }
}

/* The delivery of request @id's end: its one delivery, with @status. */
static void
assert_delivered (Fixture    *fixture,
                  const char *id,
                  const char *status)
{
  g_autoptr(GPtrArray) deliveries = receiver_wait (fixture->receiver, "/settle", 1);
  g_autoptr(JsonObject) body = srv_parse_object (((Delivery *) deliveries->pdata[0])->body);

  g_assert_cmpuint (deliveries->len, ==, 1);
  g_assert_cmpstr (json_object_get_string_member (body, "notification_id"), ==, id);
  if (json_object_has_member (body, "status"))
    g_assert_cmpstr (json_object_get_string_member (body, "status"), ==, status);
}

/* The person's answer whose delivery cannot be queued is refused (503,
 * nothing changed), and taken with its delivery once it can: never an
 * answer taken (200) whose service is never told. */
static void
test_answer_with_delivery (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *id = srv_post (fixture->server, fixture->key, "Settle");
  g_autoptr(SrvAnswer) refused = NULL, taken = NULL;
  g_autofree char *state = NULL, *after = NULL;

  srv_refuse_inserts (fixture->server, "webhook_deliveries", "no room for the delivery", FALSE);
  refused = respond (fixture, id);
  srv_assert_status (refused, 503, "STORAGE_UNAVAILABLE");
  state = stored_state (fixture, id);
  g_assert_cmpstr (state, ==, "pending\n");

  srv_allow_inserts (fixture->server, "webhook_deliveries");
  taken = respond (fixture, id);
  srv_assert_status (taken, 200, NULL);
  after = stored_state (fixture, id);
  g_assert_cmpstr (after, ==, "ended\n");
  assert_delivered (fixture, id, "responded");
}

/* A deadline that passes while the delivery cannot be queued: the expiry is
 * not stored without it, and is made (with its delivery) once it can be. */
static void
test_expiry_with_delivery (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *id = atp_new_uuid ();
  /* The post's commit and the refusal of inserts must both come before it:
   * seconds on a disk shared with builds (see test-server-aitp's quotes). */
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) later = g_date_time_add_seconds (now, 6);
  g_autofree char *deadline = atp_format_timestamp (later);
  g_autofree char *body = NULL, *state = NULL;
  g_autoptr(SrvAnswer) posted = NULL;

  body = g_strdup_printf ("{\"id\":\"%s\",\"deadline\":\"%s\",\"context\":{\"title\":\"T\","
                          "\"description\":\"D\"},\"actions\":" SIMPLE_ACTIONS "}", id, deadline);
  posted = srv_request (fixture->server, "POST", "/api/v1/notifications", fixture->key, body);
  srv_assert_status (posted, 201, NULL);
  srv_refuse_inserts (fixture->server, "webhook_deliveries", "no room for the delivery", FALSE);

  /* The server tried to expire it (after the deadline): it names the
   * request, or passes on the database's refusal. Not stored: pending. */
  wait_log (fixture, id, "no room for the delivery");
  state = stored_state (fixture, id);
  g_assert_cmpstr (state, ==, "pending\n");

  /* Expired, and the service told, once the queue takes the delivery. */
  srv_allow_inserts (fixture->server, "webhook_deliveries");
  assert_delivered (fixture, id, "expired");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  /* For the server: the statements the test makes fail are warned of, and
   * that is not fatal for it here. */
  g_unsetenv ("G_DEBUG");

  g_test_add ("/server/settle/answer-with-delivery", Fixture, NULL, fixture_setup,
              test_answer_with_delivery, fixture_teardown);
  g_test_add ("/server/settle/expiry-with-delivery", Fixture, NULL, fixture_setup,
              test_expiry_with_delivery, fixture_teardown);
  return g_test_run ();
}
