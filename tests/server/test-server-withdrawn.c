/* test-server-withdrawn.c — a request withdrawn with a reason, or expired,
 * keeps the reason: a read of it (the service's, the person's, a list's, an
 * AFP review's) says why, as the status update did, for a client away when
 * it came; and a database of the schema before the reason was kept is
 * brought up to date with nothing lost, its ended requests read without one
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "test-server-withdrawn"

#include "server-test-util.h"

#define NOTIFICATIONS "/api/v1/notifications/"
#define REVIEWS "/api/v1/afp/reviews/"
#define DECISIONS "/api/v1/aitp/decisions/"

/* Withdraws @id (at @prefix: ATP's, AFP's or AITP's service endpoint), with
 * @reason unless NULL. */
static void
withdraw_at (SrvTeam    *team,
             const char *prefix,
             const char *id,
             const char *reason)
{
  g_autofree char *path = g_strconcat (prefix, id, NULL);
  g_autofree char *body = NULL;
  g_autoptr(SrvAnswer) answer = NULL;

  if (reason != NULL)
    body = g_strdup_printf ("{\"status\":\"invalidated\",\"reason\":\"%s\"}", reason);
  else
    body = g_strdup ("{\"status\":\"invalidated\"}");
  answer = srv_request (team->server, "PATCH", path, team->key, body);
  srv_assert_status (answer, 200, NULL);
}

static void
withdraw (SrvTeam    *team,
          const char *id,
          const char *reason)
{
  withdraw_at (team, NOTIFICATIONS, id, reason);
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

/* Every read of @id says it ended in @status, and @reason (NULL: no reason member). */
static void
assert_ended (SrvTeam    *team,
              const char *id,
              const char *status,
              const char *reason)
{
  g_autofree char *query = g_strdup_printf ("?status=%s&limit=100", status);
  g_autoptr(JsonObject) service = read_one (team, NOTIFICATIONS, team->key, id);
  g_autoptr(JsonObject) person = read_one (team, "/api/v1/client/notifications/", team->alice, id);
  g_autoptr(JsonObject) listed = srv_find_listed (team->server, team->alice, query, id);
  JsonObject *reads[] = { service, person, listed };

  g_assert_nonnull (listed);
  for (guint i = 0; i < G_N_ELEMENTS (reads); i++)
    {
      g_assert_cmpstr (json_object_get_string_member (reads[i], "status"), ==, status);
      g_assert_cmpstr (json_object_get_string_member_with_default (reads[i], "reason", NULL), ==,
                       reason);
    }
}

static void
assert_withdrawn (SrvTeam    *team,
                  const char *id,
                  const char *reason)
{
  assert_ended (team, id, "invalidated", reason);
}

/* Posts a request whose deadline is 2 s away and waits till it expired; its id. */
static char *
post_expired (SrvTeam    *team,
              const char *title)
{
  g_autofree char *id = srv_post_full (team->server, team->key, title, 2);
  g_autofree char *waited = g_strconcat (id, "?wait=30", NULL);
  g_autoptr(JsonObject) ended = read_one (team, NOTIFICATIONS, team->key, waited);

  g_assert_cmpstr (json_object_get_string_member (ended, "status"), ==, "expired");
  return g_steal_pointer (&id);
}

/* Posts the protocol's request (@body) at @path as the service; its id. */
static char *
post_other (SrvTeam    *team,
            const char *path,
            const char *body)
{
  g_autoptr(SrvAnswer) posted = srv_request (team->server, "POST", path, team->key, body);
  g_autoptr(JsonObject) answer = NULL;

  srv_assert_status (posted, 201, NULL);
  answer = srv_parse_object (posted->body);
  return g_strdup (json_object_get_string_member (answer, "id"));
}

static char *
post_review (SrvTeam *team)
{
  return post_other (team, "/api/v1/afp/reviews",
                     "{\"request\":{\"iteration\":1,\"artifact\":{\"media_type\":\"text/plain\","
                     "\"content\":\"a\"}}}");
}

static char *
post_decision (SrvTeam *team)
{
  return post_other (team, "/api/v1/aitp/decisions",
                     "{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\","
                     "\"request_decision\":{\"id\":\"why-not\",\"options\":[{\"id\":\"a\","
                     "\"name\":\"A\"}]}}");
}

/* The Response Object's error message in the AFP review @id's read. */
static char *
review_message (SrvTeam    *team,
                const char *id)
{
  g_autoptr(JsonObject) view = read_one (team, REVIEWS, team->key, id);
  JsonObject *error;

  g_assert_cmpstr (json_object_get_string_member (view, "status"), ==, "invalidated");
  error = json_object_get_object_member (json_object_get_object_member (view, "response"), "error");
  g_assert_cmpstr (json_object_get_string_member (error, "code"), ==, "REVIEW_WITHDRAWN");
  return g_strdup (json_object_get_string_member (error, "message"));
}

/* The AITP decision @id's read: withdrawn, and no member the contract lacks. */
static void
assert_decision_withdrawn (SrvTeam    *team,
                           const char *id)
{
  g_autoptr(JsonObject) view = read_one (team, DECISIONS, team->key, id);

  g_assert_cmpstr (json_object_get_string_member (view, "status"), ==, "invalidated");
  g_assert_false (json_object_has_member (view, "reason"));
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

/* An expiry keeps its reason, as a withdrawal does: every read says the
 * deadline passed, as the status update did. */
static void
test_expiry_read (SrvTeam       *team,
                  gconstpointer  data)
{
  g_autofree char *id = post_expired (team, "Expiring?");

  assert_ended (team, id, "expired", "deadline passed");
}

/* An AFP review withdrawn with a reason says it in its Response Object's
 * error message (AFP's one place for why); an AITP decision's read has no
 * place for it and shows none. */
static void
test_protocols_read (SrvTeam       *team,
                     gconstpointer  data)
{
  g_autofree char *review = post_review (team);
  g_autofree char *decision = post_decision (team);
  g_autofree char *message = NULL;

  withdraw_at (team, REVIEWS, review, "The plan changed");
  withdraw_at (team, DECISIONS, decision, "The plan changed");
  message = review_message (team, review);
  g_assert_cmpstr (message, ==, "The review was withdrawn before anyone answered it: The plan changed");
  assert_decision_withdrawn (team, decision);
}
/* ATP lets a PATCH's reason be any string: an empty or blank one, or one
 * that shows nothing (zero-width, bidirectional marks, Unicode's spaces: a
 * title's rule), withdraws the request as no reason would, at every
 * endpoint, and is never kept as a reason that says nothing (an AFP
 * review's "…answered it: "). A reason that is not a string is refused
 * naming it. */
static void
test_blank_reason_is_none (SrvTeam       *team,
                           gconstpointer  data)
{
  /* (protocol, body): AITP's once, as the AITP test decision's id is fixed. */
  const char *prefixes[] = { NOTIFICATIONS, NOTIFICATIONS, NOTIFICATIONS, REVIEWS, REVIEWS,
                             DECISIONS };
  const char *empty = "{\"status\":\"invalidated\",\"reason\":\"\"}";
  const char *blank = "{\"status\":\"invalidated\",\"reason\":\" \\t \"}";
  const char *unseen = "{\"status\":\"invalidated\",\"reason\":\"\\u200b\\u200e\\u3000\\u202e\"}";
  const char *bodies[] = { empty, blank, unseen, blank, unseen, unseen };

  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    {
      gboolean review = g_str_equal (prefixes[i], REVIEWS);
      g_autofree char *id = g_str_equal (prefixes[i], NOTIFICATIONS)
                            ? srv_post (team->server, team->key, "Blank reason?")
                            : review ? post_review (team) : post_decision (team);
      g_autofree char *path = g_strconcat (prefixes[i], id, NULL);
      g_autoptr(SrvAnswer) answer = srv_request (team->server, "PATCH", path, team->key,
                                                 bodies[i]);
      g_autoptr(JsonObject) view = NULL;

      g_test_message ("PATCH %s %s", path, bodies[i]);
      srv_assert_status (answer, 200, NULL);
      view = read_one (team, prefixes[i], team->key, id);
      g_assert_cmpstr (json_object_get_string_member (view, "status"), ==, "invalidated");
      g_assert_false (json_object_has_member (view, "reason"));
      if (review)
        {
          g_autofree char *message = review_message (team, id);

          g_assert_true (g_str_has_suffix (message, "(by the agent, or by a later iteration of "
                                                    "its session)"));
        }
    }

  {
    g_autofree char *id = srv_post (team->server, team->key, "Reason of a number?");
    g_autofree char *path = g_strconcat (NOTIFICATIONS, id, NULL);
    g_autoptr(SrvAnswer) answer = srv_request (team->server, "PATCH", path, team->key,
                                               "{\"status\":\"invalidated\",\"reason\":5}");

    srv_assert_status (answer, 400, "INVALID_FIELD_VALUE");
    srv_assert_field (answer, "reason");
  }
}

/* Posts a request of the protocol whose service endpoint is @prefix; its id
 * (@tag tells two AITP decisions apart). */
static char *
post_at (SrvTeam    *team,
         const char *prefix,
         const char *tag)
{
  g_autofree char *body = NULL;

  if (g_str_equal (prefix, NOTIFICATIONS))
    return srv_post (team->server, team->key, tag);
  if (g_str_equal (prefix, REVIEWS))
    return post_review (team);
  body = g_strdup_printf ("{\"$schema\":\"https://aitp.dev/v1/decisions/schema.json\","
                          "\"request_decision\":{\"id\":\"%s\",\"options\":[{\"id\":\"a\","
                          "\"name\":\"A\"}]}}", tag);
  return post_other (team, "/api/v1/aitp/decisions", body);
}

/* A PATCH of @id at @prefix is 409 @code, its message @message. */
static void
assert_conflict (SrvTeam    *team,
                 const char *prefix,
                 const char *id,
                 const char *code,
                 const char *message)
{
  g_autofree char *path = g_strconcat (prefix, id, NULL);
  g_autoptr(SrvAnswer) again = srv_request (team->server, "PATCH", path, team->key,
                                            "{\"status\":\"invalidated\"}");
  g_autoptr(JsonObject) error = NULL;

  srv_assert_status (again, 409, code);
  error = srv_parse_object (again->body);
  g_assert_cmpstr (json_object_get_string_member (error, "message"), ==, message);
}

/* A PATCH of a request already ended is 409 at every endpoint, with the
 * code ATP gives its end (NOTIFICATION_INVALIDATED, _ALREADY_RESPONDED), its
 * message in the word of the protocol the agent speaks (an AITP decision
 * request, an AFP review) and otherwise read alike: "already responded to",
 * as ATP's code and status say, whatever the protocol. */
static void
test_conflict_in_protocol_words (SrvTeam       *team,
                                 gconstpointer  data)
{
  const char *prefixes[] = { NOTIFICATIONS, REVIEWS, DECISIONS };
  const char *nouns[] = { "notification", "review", "decision request" };
  const char *answers[] = { "\"action_id\":\"ok\"", "\"action_id\":\"decline\"",
                            "\"response_data\":{\"options\":[{\"id\":\"a\"}]}" };

  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    {
      g_autofree char *withdrawn = post_at (team, prefixes[i], "withdrawn-twice");
      g_autofree char *answered = post_at (team, prefixes[i], "answered-then-withdrawn");
      g_autofree char *body = g_strdup_printf ("{\"notification_id\":\"%s\",%s}", answered,
                                               answers[i]);
      g_autoptr(SrvAnswer) response = srv_request (team->server, "POST", "/api/v1/client/respond",
                                                   team->alice, body);
      g_autofree char *invalidated = g_strdup_printf ("The %s was invalidated", nouns[i]);
      g_autofree char *responded = g_strdup_printf ("The %s was already responded to", nouns[i]);

      srv_assert_status (response, 200, NULL);
      withdraw_at (team, prefixes[i], withdrawn, NULL);
      assert_conflict (team, prefixes[i], withdrawn, "NOTIFICATION_INVALIDATED", invalidated);
      assert_conflict (team, prefixes[i], answered, "NOTIFICATION_ALREADY_RESPONDED", responded);
    }
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
  g_autofree char *expired = post_expired (team, "Expired before?");
  g_autofree char *review = post_review (team);
  g_autofree char *decision = post_decision (team);
  g_autofree char *version = NULL, *before = NULL, *sql = NULL, *after = NULL, *message = NULL;
  g_autoptr(GError) error = NULL;
  int current;

  /* Withdrawn with reasons the schema before could not keep: dropped with
   * its column below, as a server before this one never stored them. */
  withdraw (team, old, "Rolled back");
  withdraw_at (team, REVIEWS, review, "The plan changed");
  withdraw_at (team, DECISIONS, decision, "The plan changed");
  version = srv_run_sql (team->server, pg ? "SELECT version FROM triage_schema"
                                          : "PRAGMA user_version");
  current = atoi (version);
  g_assert_true (triage_test_server_stop (team->server));
  /* The version before the reason's column: PostgreSQL's last but one;
   * SQLite's 10 (its 11 added the column, its 12 made the recipients'
   * table again). */
  sql = g_strdup_printf (pg ? "ALTER TABLE notifications DROP COLUMN reason;"
                              " UPDATE triage_schema SET version = %d"
                            : "ALTER TABLE notifications DROP COLUMN reason;"
                              " PRAGMA user_version = %d", pg ? current - 1 : 10);
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

  /* Every read shows them ended, cleanly, with no reason. */
  assert_withdrawn (team, old, NULL);
  assert_ended (team, expired, "expired", NULL);
  message = review_message (team, review);
  g_assert_cmpstr (message, ==, "The review was withdrawn before anyone answered it (by the "
                                "agent, or by a later iteration of its session)");
  assert_decision_withdrawn (team, decision);
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
  ADD ("/server/withdrawn/expiry-read", test_expiry_read);
  ADD ("/server/withdrawn/protocols-read", test_protocols_read);
  ADD ("/server/withdrawn/blank-reason-is-none", test_blank_reason_is_none);
  ADD ("/server/withdrawn/conflict-in-protocol-words", test_conflict_in_protocol_words);
  ADD ("/server/withdrawn/upgrade", test_upgrade);
#undef ADD

  return g_test_run ();
}
