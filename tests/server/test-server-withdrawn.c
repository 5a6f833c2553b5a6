/* test-server-withdrawn.c — a request withdrawn with a reason keeps it: a
 * read of it (the service's, the person's, a list's) says why, as the status
 * update did, for a client away when it came; and a database of the schema
 * before the reason was kept is brought up to date with nothing lost
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-server-withdrawn"

#include "server-test-util.h"

/* Withdraws @id as @key, with @reason unless NULL. */
static void
withdraw (SrvTeam    *team,
          const char *id,
          const char *reason)
{
  g_autofree char *path = g_strconcat ("/api/v1/notifications/", id, NULL);
  g_autofree char *body = NULL;
  g_autoptr(SrvAnswer) answer = NULL;

  if (reason != NULL)
    body = g_strdup_printf ("{\"status\":\"invalidated\",\"reason\":\"%s\"}", reason);
  else
    body = g_strdup ("{\"status\":\"invalidated\"}");
  answer = srv_request (team->server, "PATCH", path, team->key, body);
  srv_assert_status (answer, 200, NULL);
}

/* @id as read at @prefix (the service's or the person's endpoint) with @token. */
static JsonObject *
read_one (SrvTeam    *team,
          const char *prefix,
          const char *token,
          const char *id)
{
  g_autofree char *path = g_strconcat (prefix, id, NULL);
  g_autoptr(SrvAnswer) answer = srv_request (team->server, "GET", path, token, NULL);

  srv_assert_status (answer, 200, NULL);
  return srv_parse_object (answer->body);
}

/* Every read of @id says it was withdrawn, and @reason (NULL: no reason member). */
static void
assert_withdrawn (SrvTeam    *team,
                  const char *id,
                  const char *reason)
{
  g_autoptr(JsonObject) service = read_one (team, "/api/v1/notifications/", team->key, id);
  g_autoptr(JsonObject) person = read_one (team, "/api/v1/client/notifications/", team->alice, id);
  g_autoptr(JsonObject) listed = srv_find_listed (team->server, team->alice,
                                                  "?status=invalidated&limit=100", id);
  JsonObject *reads[] = { service, person, listed };

  g_assert_nonnull (listed);
  for (guint i = 0; i < G_N_ELEMENTS (reads); i++)
    {
      g_assert_cmpstr (json_object_get_string_member (reads[i], "status"), ==, "invalidated");
      g_assert_cmpstr (json_object_get_string_member_with_default (reads[i], "reason", NULL), ==,
                       reason);
    }
}

/* The service's reason is in every read once it withdrew the request; none
 * without one; a submission's own "reason" member (the server's to set, as
 * the status) is not kept as if it were one. */
static void
test_reason_read (SrvTeam       *team,
                  gconstpointer  data)
{
  g_autofree char *with = srv_post (team->server, team->key, "With a reason?");
  g_autofree char *without = srv_post (team->server, team->key, "Without?");
  g_autoptr(SrvAnswer) posted = srv_request (team->server, "POST", "/api/v1/notifications",
                                             team->key,
                                             "{\"context\":{\"title\":\"Says why?\","
                                             "\"description\":\"D\"},\"reason\":\"not mine\","
                                             "\"actions\":[{\"id\":\"ok\",\"label\":\"OK\","
                                             "\"response_type\":\"simple\"}]}");
  g_autoptr(JsonObject) answer = NULL, pending = NULL;
  const char *forged;

  srv_assert_status (posted, 201, NULL);
  answer = srv_parse_object (posted->body);
  forged = json_object_get_string_member (answer, "notification_id");
  pending = read_one (team, "/api/v1/client/notifications/", team->alice, forged);
  g_assert_false (json_object_has_member (pending, "reason"));

  withdraw (team, with, "Rolled back instead");
  withdraw (team, without, NULL);
  withdraw (team, forged, NULL);
  assert_withdrawn (team, with, "Rolled back instead");
  assert_withdrawn (team, without, NULL);
  assert_withdrawn (team, forged, NULL);
}

/* A database the server before this one made (no reason kept; the schema
 * one version older) opens: it is migrated in place, its requests read as
 * before, and a withdrawal's reason is kept from then on. */
static void
test_upgrade (SrvTeam       *team,
              gconstpointer  data)
{
  gboolean pg = triage_test_server_is_postgres (team->server);
  g_autofree char *old = srv_post (team->server, team->key, "Withdrawn before?");
  g_autofree char *pending = srv_post (team->server, team->key, "Pending before?");
  g_autofree char *version = NULL, *before = NULL, *sql = NULL, *after = NULL;
  g_autoptr(GError) error = NULL;
  int current;

  withdraw (team, old, NULL);
  version = srv_run_sql (team->server, pg ? "SELECT version FROM triage_schema"
                                          : "PRAGMA user_version");
  current = atoi (version);
  g_assert_true (triage_test_server_stop (team->server));
  sql = g_strdup_printf (pg ? "ALTER TABLE notifications DROP COLUMN reason;"
                              " UPDATE triage_schema SET version = %d"
                            : "ALTER TABLE notifications DROP COLUMN reason;"
                              " PRAGMA user_version = %d", current - 1);
  g_free (srv_run_sql (team->server, sql));
  before = srv_run_sql (team->server, "SELECT count(*) FROM notifications");

  g_assert_true (triage_test_server_restart (team->server, &error));
  g_assert_no_error (error);
  g_free (version);
  version = srv_run_sql (team->server, pg ? "SELECT version FROM triage_schema"
                                          : "PRAGMA user_version");
  g_assert_cmpint (atoi (version), ==, current);
  after = srv_run_sql (team->server, "SELECT count(*) FROM notifications");
  g_assert_cmpstr (after, ==, before);

  assert_withdrawn (team, old, NULL);
  withdraw (team, pending, "Superseded");
  assert_withdrawn (team, pending, "Superseded");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, SrvTeam, NULL, srv_team_setup, func, srv_team_teardown)
  ADD ("/server/withdrawn/reason-read", test_reason_read);
  ADD ("/server/withdrawn/upgrade", test_upgrade);
#undef ADD

  return g_test_run ();
}
