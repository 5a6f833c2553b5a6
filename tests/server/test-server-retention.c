/* test-server-retention.c — --retain DAYS: what settled longer ago is forgotten
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Requests are made and answered, the database is then told they settled
 * days ago (its updated_at, the time of their last change), and the server
 * started again: it forgets at start what settled more than --retain days
 * ago, with its recipients' rows, and keeps the pending requests however old
 * and the settled ones that are younger. On SQLite and on PostgreSQL.
 */

#include "server-test-util.h"

#define DAY_US G_GINT64_CONSTANT (86400000000)

#define FEEDBACK \
  "{\"confidence\":{\"level\":\"medium\",\"justification\":\"High-level only.\"}," \
  "\"positive_points\":[],\"areas_for_improvement\":[],\"general_summary\":\"Fine.\"}"

/* The HTTP status of GET /api/v1/notifications/@id as the service @key. */
static guint
status_of (TriageTestServer *server,
           const char       *key,
           const char       *id)
{
  g_autofree char *path = g_strconcat ("/api/v1/notifications/", id, NULL);
  g_autoptr(SrvAnswer) answer = srv_request (server, "GET", path, key, NULL);

  return answer->status;
}

/* The value of @counter in @server's /metrics. */
static guint64
counter (TriageTestServer *server,
         const char       *counter)
{
  g_autoptr(SrvAnswer) answer = srv_request (server, "GET", "/metrics",
                                             triage_test_server_get_admin_token (server), NULL);
  g_autofree char *needle = g_strconcat ("\n", counter, " ", NULL);
  const char *line;

  srv_assert_status (answer, 200, NULL);
  line = strstr (answer->body, needle);
  g_assert_nonnull (line);
  return g_ascii_strtoull (line + strlen (needle), NULL, 10);
}

/* Moves @id's times @days into the past, as if it had been made and had
 * settled then. */
static void
age (TriageTestServer *server,
     const char       *id,
     int               days)
{
  g_autofree char *sql = g_strdup_printf ("UPDATE notifications SET created_at = created_at - %"
                                          G_GINT64_FORMAT ", updated_at = updated_at - %"
                                          G_GINT64_FORMAT " WHERE id = '%s'",
                                          days * DAY_US, days * DAY_US, id);
  g_autoptr(GError) error = NULL;
  g_autofree char *out = triage_test_server_run_sql (server, sql, &error);

  g_assert_no_error (error);
}

/* @sql's one number. */
static gint64
sql_number (TriageTestServer *server,
            const char       *sql)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *out = triage_test_server_run_sql (server, sql, &error);

  g_assert_no_error (error);
  return g_ascii_strtoll (out, NULL, 10);
}

static void
test_forget_settled (void)
{
  const char * const extra[] = { "--retain", "2", NULL };
  TriageTestServerOptions options = { .extra_args = extra };
  SrvTeam team = { 0 };
  g_autofree char *old_answered = NULL, *old_withdrawn = NULL, *old_pending = NULL;
  g_autofree char *young_answered = NULL, *path = NULL;
  g_autofree char *session_path = NULL, *aging = NULL, *feedback = NULL, *review = NULL;
  g_autofree char *acknowledged = NULL;
  g_autoptr(SrvAnswer) withdrawn = NULL, gone = NULL, list = NULL, afp = NULL, answered = NULL;
  g_autoptr(SrvAnswer) session_gone = NULL;
  g_autoptr(JsonObject) afp_object = NULL;
  g_autoptr(GError) error = NULL;

  srv_team_setup_with (&team, &options);
  old_answered = srv_post (team.server, team.shared_key, "Answered long ago");
  srv_respond (team.server, team.alice, old_answered);
  old_withdrawn = srv_post (team.server, team.shared_key, "Withdrawn long ago");
  path = g_strconcat ("/api/v1/notifications/", old_withdrawn, NULL);
  withdrawn = srv_request (team.server, "PATCH", path, team.shared_key, "{\"status\":\"invalidated\"}");
  srv_assert_status (withdrawn, 200, NULL);
  old_pending = srv_post (team.server, team.shared_key, "Still waiting after days");
  young_answered = srv_post (team.server, team.shared_key, "Answered yesterday");
  srv_respond (team.server, team.alice, young_answered);
  /* An AFP review answered long ago: its session goes with it. */
  afp = srv_request (team.server, "POST", "/api/v1/afp/reviews", team.shared_key,
                     "{\"request\":{\"iteration\":1,\"artifact\":{\"media_type\":\"text/plain\","
                     "\"content\":\"A plan.\"}}}");
  srv_assert_status (afp, 201, NULL);
  afp_object = srv_parse_object (afp->body);
  review = g_strdup (json_object_get_string_member (afp_object, "id"));
  session_path = g_strconcat ("/api/v1/afp/sessions/",
                              json_object_get_string_member (afp_object, "session_id"), NULL);
  feedback = g_strdup_printf ("{\"notification_id\":\"%s\",\"action_id\":\"feedback\","
                              "\"response_data\":" FEEDBACK "}", review);
  answered = srv_request (team.server, "POST", "/api/v1/client/respond", team.alice, feedback);
  srv_assert_status (answered, 200, NULL);
  g_assert_cmpuint (counter (team.server, "triage_requests_forgotten_total"), ==, 0);

  g_assert_true (triage_test_server_stop (team.server));
  age (team.server, review, 3);
  aging = g_strdup_printf ("UPDATE afp_sessions SET created_at = created_at - %" G_GINT64_FORMAT,
                           3 * DAY_US);
  g_free (triage_test_server_run_sql (team.server, aging, &error));
  g_assert_no_error (error);
  age (team.server, old_answered, 3);
  age (team.server, old_withdrawn, 3);
  age (team.server, old_pending, 30);
  /* Acknowledged (2), as a client marks one it has shown: pending still. */
  acknowledged = g_strdup_printf ("UPDATE notifications SET status = 2 WHERE id = '%s'", old_pending);
  g_free (triage_test_server_run_sql (team.server, acknowledged, &error));
  g_assert_no_error (error);
  age (team.server, young_answered, 1);
  g_assert_true (triage_test_server_restart (team.server, &error));
  g_assert_no_error (error);

  /* Forgotten at start: the service is told there is no such request. */
  /* (The count moves once the turn's commit is done.) */
  while (counter (team.server, "triage_requests_forgotten_total") < 3)
    srv_sleep (20);
  g_assert_cmpuint (counter (team.server, "triage_requests_forgotten_total"), ==, 3);
  gone = srv_request (team.server, "GET", path, team.shared_key, NULL);
  srv_assert_status (gone, 404, "NOTIFICATION_NOT_FOUND");
  g_assert_cmpuint (status_of (team.server, team.shared_key, old_answered), ==, 404);
  /* Pending however old, and settled within the two days: kept. */
  g_assert_cmpuint (status_of (team.server, team.shared_key, old_pending), ==, 200);
  g_assert_cmpuint (status_of (team.server, team.shared_key, young_answered), ==, 200);

  session_gone = srv_request (team.server, "GET", session_path, team.shared_key, NULL);
  g_assert_cmpuint (session_gone->status, ==, 404);

  /* Nothing left that refers to them, and the people's lists do not hold them. */
  g_assert_cmpint (sql_number (team.server,
                               "SELECT COUNT (*) FROM notification_recipients WHERE"
                               " notification_seq NOT IN (SELECT seq FROM notifications)"), ==, 0);
  g_assert_cmpint (sql_number (team.server, "SELECT COUNT (*) FROM afp_reviews"), ==, 0);
  g_assert_cmpint (sql_number (team.server, "SELECT COUNT (*) FROM afp_sessions"), ==, 0);
  list = srv_request (team.server, "GET", "/api/v1/client/notifications", team.bob, NULL);
  srv_assert_status (list, 200, NULL);
  g_assert_null (strstr (list->body, old_answered));
  g_assert_null (strstr (list->body, old_withdrawn));
  g_assert_nonnull (strstr (list->body, old_pending));
  g_assert_nonnull (strstr (list->body, young_answered));

  /* The pending one is still answered as ever. */
  srv_respond (team.server, team.bob, old_pending);
  srv_team_teardown (&team, NULL);
}

/* Without --retain every request is kept, however old. */
static void
test_keep_by_default (void)
{
  SrvTeam team = { 0 };
  g_autofree char *id = NULL;
  g_autoptr(GError) error = NULL;

  srv_team_setup (&team, NULL);
  id = srv_post (team.server, team.key, "Answered a year ago");
  srv_respond (team.server, team.alice, id);
  g_assert_true (triage_test_server_stop (team.server));
  age (team.server, id, 365);
  g_assert_true (triage_test_server_restart (team.server, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (status_of (team.server, team.key, id), ==, 200);
  g_assert_cmpuint (counter (team.server, "triage_requests_forgotten_total"), ==, 0);
  srv_team_teardown (&team, NULL);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/server/retention/forget-settled", test_forget_settled);
  g_test_add_func ("/server/retention/keep-by-default", test_keep_by_default);
  return g_test_run ();
}
