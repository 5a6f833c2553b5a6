/* test-server-counted.c — a request is counted in /metrics once it is stored
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * triage_requests_created_total and the ends' counters (and the
 * time-to-answer histogram) were counted as the change was made, before its
 * batch was known to be stored: a batch that failed (answered 503) was
 * counted, and its retry again. Now each is counted once its batch has
 * committed. The commit is made to fail by a trigger that refuses the
 * batch's events, on either backend.
 */

#define G_LOG_DOMAIN "test-server-counted"

#include "server-test-util.h"

#define ID "7a0c5b9e-3d21-4f6a-8b10-2c4d6e8f0a12"
#define BODY "{\"id\":\"" ID "\",\"context\":{\"title\":\"Counted\",\"description\":\"D\"}," \
             "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\",\"response_type\":\"simple\"}]}"

static void
test_counted_once_stored (SrvTeam       *team,
                          gconstpointer  data)
{
  g_autoptr(SrvAnswer) refused = NULL, stored = NULL, unanswered = NULL, answered = NULL;
  const char *respond = "{\"notification_id\":\"" ID "\",\"action_id\":\"ok\"}";

  srv_refuse_inserts (team->server, "events", "no events now", FALSE);
  refused = srv_request (team->server, "POST", "/api/v1/notifications", team->key, BODY);
  srv_assert_status (refused, 503, "STORAGE_UNAVAILABLE");
  srv_allow_inserts (team->server, "events");
  stored = srv_request (team->server, "POST", "/api/v1/notifications", team->key, BODY);
  srv_assert_status (stored, 201, NULL);
  g_assert_cmpuint (srv_sample (team->server, "triage_requests_created_total{protocol=\"atp\"}"), ==, 1);

  srv_refuse_inserts (team->server, "events", "no events now", FALSE);
  unanswered = srv_request (team->server, "POST", "/api/v1/client/respond", team->alice, respond);
  srv_assert_status (unanswered, 503, "STORAGE_UNAVAILABLE");
  srv_allow_inserts (team->server, "events");
  answered = srv_request (team->server, "POST", "/api/v1/client/respond", team->alice, respond);
  srv_assert_status (answered, 200, NULL);
  g_assert_cmpuint (srv_sample (team->server, "triage_requests_answered_total{protocol=\"atp\"}"), ==, 1);
  g_assert_cmpuint (srv_sample (team->server, "triage_time_to_answer_seconds_count{protocol=\"atp\"}"),
                    ==, 1);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  /* For the server: the failed commits are said, and that is not fatal for
   * it here. */
  g_unsetenv ("G_DEBUG");

  g_test_add ("/server/counted/once-stored", SrvTeam, NULL, srv_team_setup,
              test_counted_once_stored, srv_team_teardown);
  return g_test_run ();
}
