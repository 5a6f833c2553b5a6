/* test-server-events.c — a new notification's event refers to the notification
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * docs/protocol.md: a `notification` event's data is always the JSON stored
 * in its notification, so its row in the event log refers to the
 * notification (`notification_id`, `data` NULL) instead of holding another
 * copy; what a stream gets is the same text, live (on PostgreSQL read back
 * from the log by the listener), in a replay after Last-Event-ID or
 * `last_event_id=`, and after a restart. A status update keeps its own data.
 * Run on SQLite and on PostgreSQL (the -pg twin).
 */

#define G_LOG_DOMAIN "test-server-events"

#include "server-test-util.h"

/* alice, bob, team-bot (theirs) and deploy-bot (alice's): server-test-util.h */
typedef SrvTeam Fixture;

/* The `notification` event of @id that @events got, once it came. */
static SrvEvent *
wait_notification (SrvEvents  *events,
                   const char *id,
                   const char *what)
{
  srv_wait_until (srv_find_event (events, "notification", id) != NULL, what);
  return srv_find_event (events, "notification", id);
}

/* A notification posted while alice's stream is open: both recipients'
 * rows refer to it with no data; the frame alice gets live, the replay
 * after the event before it (by header and by query) and the one after a
 * kill -9 and a restart are all the JSON stored in the notification. */
static void
test_event_refers (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(SrvEvents) live = srv_events_open (fixture->server, fixture->alice, NULL, NULL);
  g_autoptr(SrvEvents) replay = NULL, by_query = NULL, restarted = NULL;
  g_autofree char *id = NULL, *rows = NULL, *expected = NULL, *stored = NULL;
  g_autofree char *query = NULL, *before = NULL, *updates = NULL, *json_sql = NULL;
  g_autofree char *live_id = NULL, *live_data = NULL, *rows_sql = NULL;
  g_autofree char *bob_sql = NULL, *bob_before = NULL;
  SrvEvent *event;

  g_assert_cmpuint (live->status, ==, 200);
  id = srv_post (fixture->server, fixture->shared_key, "Stored once");
  event = wait_notification (live, id, "the live notification");
  live_id = g_strdup (event->id);
  live_data = g_strdup (event->data);
  g_assert_nonnull (live_id);

  /* The row of each recipient refers to the notification, no copy. */
  rows_sql = g_strdup_printf ("SELECT user_id, CASE WHEN data IS NULL THEN 'refers' ELSE 'copy' END,"
                              " notification_id FROM events WHERE type = 'notification'"
                              " AND notification_id = '%s' ORDER BY user_id", id);
  rows = srv_run_sql (fixture->server, rows_sql);
  expected = g_strdup_printf ("alice|refers|%s\nbob|refers|%s\n", id, id);
  g_assert_cmpstr (rows, ==, expected);
  g_clear_pointer (&expected, g_free);

  /* What the stream got is the stored JSON, to the byte. */
  json_sql = g_strdup_printf ("SELECT json FROM notifications WHERE id = '%s'", id);
  stored = srv_run_sql (fixture->server, json_sql);
  expected = g_strconcat (live_data, "\n", NULL);
  g_assert_cmpstr (stored, ==, expected);

  /* A status update holds its own data. */
  srv_respond (fixture->server, fixture->alice, id);
  srv_wait_until (srv_find_event (live, "status_update", "\"responded\"") != NULL,
                  "the status update");
  updates = srv_run_sql (fixture->server, "SELECT COUNT (*) FROM events"
                                          " WHERE type = 'status_update' AND data IS NULL");
  g_assert_cmpstr (updates, ==, "0\n");

  /* Replayed from the log: the same id, the same text. */
  before = g_strdup_printf ("%" G_GINT64_FORMAT, g_ascii_strtoll (live_id, NULL, 10) - 1);
  replay = srv_events_open (fixture->server, fixture->alice, NULL, before);
  event = wait_notification (replay, id, "the replayed notification");
  g_assert_cmpstr (event->id, ==, live_id);
  g_assert_cmpstr (event->data, ==, live_data);
  srv_wait_until (srv_find_event (replay, "status_update", "\"responded\"") != NULL,
                  "the replayed status update");

  query = g_strdup_printf ("?last_event_id=%s", before);
  by_query = srv_events_open (fixture->server, fixture->alice, query, NULL);
  event = wait_notification (by_query, id, "the notification replayed by query");
  g_assert_cmpstr (event->id, ==, live_id);
  g_assert_cmpstr (event->data, ==, live_data);
  g_clear_pointer (&live, srv_events_free);
  g_clear_pointer (&replay, srv_events_free);
  g_clear_pointer (&by_query, srv_events_free);

  /* Across a kill -9 and a restart: bob, who had no stream, resumes. */
  triage_test_server_kill (fixture->server);
  g_assert_true (triage_test_server_restart (fixture->server, NULL));
  bob_sql = g_strdup_printf ("SELECT id - 1 FROM events WHERE user_id = 'bob'"
                             " AND notification_id = '%s' AND type = 'notification'", id);
  bob_before = srv_run_sql (fixture->server, bob_sql);
  g_strchomp (bob_before);
  restarted = srv_events_open (fixture->server, fixture->bob, NULL, bob_before);
  event = wait_notification (restarted, id, "bob's notification after the restart");
  g_assert_cmpstr (event->data, ==, live_data);
  srv_wait_until (srv_find_event (restarted, "status_update", "\"responded\"") != NULL,
                  "bob's status update after the restart");
}

/* Posted while nobody listens, then several at once while alice's stream is
 * open: the live frames come in the order of the log, each its stored JSON
 * (a read of the log that finds several events joins each to its own). */
static void
test_events_in_order (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *away = srv_post (fixture->server, fixture->shared_key, "While away");
  g_autoptr(SrvEvents) live = srv_events_open (fixture->server, fixture->alice, NULL, NULL);
  char *ids[5];

  g_assert_cmpuint (live->status, ==, 200);
  wait_notification (live, away, "the pending notification");
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_autofree char *title = g_strdup_printf ("Burst %u", i);

      ids[i] = srv_post (fixture->server, fixture->shared_key, title);
    }
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      SrvEvent *event = wait_notification (live, ids[i], "a notification of the burst");
      g_autofree char *json_sql = g_strdup_printf ("SELECT json FROM notifications WHERE id = '%s'",
                                                   ids[i]);
      g_autofree char *stored = srv_run_sql (fixture->server, json_sql);
      g_autofree char *expected = g_strconcat (event->data, "\n", NULL);

      g_assert_cmpstr (stored, ==, expected);
      if (i > 0)
        g_assert_cmpint (g_ascii_strtoll (event->id, NULL, 10), >,
                         g_ascii_strtoll (srv_find_event (live, "notification", ids[i - 1])->id,
                                          NULL, 10));
    }
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    g_free (ids[i]);
}

/* A Last-Event-ID above the newest id of the log (the client's id from
 * before the database was restored from a backup) is none this server
 * gave: the pending set, as for an id too old, then what comes live. */
static void
test_resume_above_newest (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autofree char *pending = srv_post (fixture->server, fixture->shared_key, "Pending");
  g_autofree char *live_id = NULL, *query = NULL;
  g_autoptr(SrvEvents) ahead = srv_events_open (fixture->server, fixture->alice, NULL,
                                                "999999999");
  g_autoptr(SrvEvents) by_query = NULL;
  SrvEvent *event;

  g_assert_cmpuint (ahead->status, ==, 200);
  wait_notification (ahead, pending, "the pending set for an id above the newest");
  query = g_strdup ("?last_event_id=999999999");
  by_query = srv_events_open (fixture->server, fixture->alice, query, NULL);
  wait_notification (by_query, pending, "the pending set for an id above the newest, by query");
  live_id = srv_post (fixture->server, fixture->shared_key, "Live");
  event = wait_notification (ahead, live_id, "the live notification after the snapshot");
  g_assert_cmpint (g_ascii_strtoll (event->id, NULL, 10), <, 999999999);
  wait_notification (by_query, live_id, "the live notification after the snapshot, by query");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, srv_team_setup, func, srv_team_teardown)

  ADD ("/server/events/refers-to-notification", test_event_refers);
  ADD ("/server/events/in-order", test_events_in_order);
  ADD ("/server/events/resume-above-newest", test_resume_above_newest);
#undef ADD

  return g_test_run ();
}
