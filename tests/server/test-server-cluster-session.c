/* test-server-cluster-session.c — the database ends a server's sessions
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * PostgreSQL ends a session when it sits idle in a transaction past
 * idle_in_transaction_session_timeout (a server whose main loop a loaded
 * machine held that long with a batch open), on pg_terminate_backend (), or
 * when it restarts. The server must carry on: a request whose batch went
 * with the session is answered 503 (nothing of it stored) and stored once
 * when the client posts it again; a session ended between transactions is
 * made again with nobody noticing; nothing is lost or stored twice, and its
 * streams hear each notification once.
 *
 * The test holds the event-log lock from a connection of its own (as a
 * reader of the log would), so the server's commits wait in the database:
 * its three commits in flight are held up and its next batch, whose turn
 * has come, waits with its transaction open. Then it ends the sessions of
 * one commit in flight and of that open batch, each holding a post. It
 * waits for the database's state (a lock not granted, a session idle in a
 * transaction), never for a time.
 *
 * Not every commit held up is a post's: the person's acknowledgements and
 * the stream's delivered marks are batches too (a mark may still be
 * committing when the test takes the lock), and two posts may share a
 * batch. Ended, such a commit answers no request: the test once ended a
 * mark's, the lock waiter with the smallest pid, and saw one 503, not two.
 * So it tells a post's transaction by what it wrote (a notification's
 * recipients), never by counting, and holds up an acknowledgement among
 * the commits on purpose.
 */

#define G_LOG_DOMAIN "test-server-cluster-session"

#include "atp.h"
#include "pg-query-test-util.h"
#include "server-test-util.h"
#include "triage-pg-schema.h"
#include "triage-test-postgres.h"

#define WAIT_S 120          /* a bound for each wait: a loaded machine is slow */
#define FLIGHTS 3           /* TRIAGE_PG_WRITER_FLIGHTS */
#define MAX_POSTS 32
#define SCENE_POSTS 8      /* posts for a scene: the flights' and the open batch's, and some */

/* The server's sessions as the database shows them: the batch connections
 * and the one for rate limits and reads of the log are "triage-server". */
#define SESSIONS "FROM pg_stat_activity a WHERE a.application_name = 'triage-server'" \
                 " AND a.datname = current_database ()"
/* Of those: waiting for a lock of the event log (a commit held up) … */
#define HELD_UP " AND EXISTS (SELECT FROM pg_locks l WHERE l.pid = a.pid" \
                " AND l.locktype = 'advisory' AND NOT l.granted)"
/* … open in a transaction, its turn come (a batch waiting to commit) … */
#define OPEN " AND a.state = 'idle in transaction'"
/* … whose transaction holds a post (it inserted a notification's
 * recipients; a batch of delivered marks inserts none). */
#define HOLDS_POST " AND EXISTS (SELECT FROM pg_locks r WHERE r.pid = a.pid" \
                   " AND r.locktype = 'relation' AND r.mode = 'RowExclusiveLock'" \
                   " AND r.relation = 'notification_recipients'::regclass)"

typedef struct
{
  TriageTestServer *server;
  const char       *key;
  char             *ids[MAX_POSTS];
  guint             status[MAX_POSTS];   /* the last answer; 0 while awaited */
  guint             posted;
  guint             unavailable;         /* 503s, each posted again */
} Poster;

typedef struct
{
  Poster *poster;
  guint   index;
} Post;

static void send_post (Poster *poster, guint index);

static void
posted_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      data)
{
  Post *post = data;
  Poster *poster = post->poster;
  g_autoptr(GBytes) bytes = soup_session_send_and_read_finish (SOUP_SESSION (source), result,
                                                               NULL);
  SoupMessage *msg = soup_session_get_async_result_message (SOUP_SESSION (source), result);
  guint status = bytes != NULL ? soup_message_get_status (msg) : 1;
  guint index = post->index;

  g_free (post);
  if (status == 503)
    {
      /* Nothing of it stored: posted again with the same id, as an ATP
       * client does. */
      g_autofree char *text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
      g_autoptr(JsonObject) error = srv_parse_object (text);

      g_assert_cmpstr (json_object_get_string_member (error, "code"), ==, "STORAGE_UNAVAILABLE");
      poster->unavailable++;
      send_post (poster, index);
      return;
    }
  poster->status[index] = status;
}

static void
send_post (Poster *poster,
           guint   index)
{
  g_autofree char *uri = g_strconcat (triage_test_server_get_url (poster->server),
                                      "/api/v1/notifications", NULL);
  g_autofree char *auth = g_strconcat ("Bearer ", poster->key, NULL);
  g_autofree char *body = g_strdup_printf ("{\"id\":\"%s\",\"context\":{\"title\":\"Session\","
                                           "\"description\":\"D\"},\"actions\":[{\"id\":\"ok\","
                                           "\"label\":\"OK\",\"response_type\":\"simple\"}]}",
                                           poster->ids[index]);
  g_autoptr(SoupMessage) msg = soup_message_new ("POST", uri);
  g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));
  Post *post = g_new (Post, 1);

  *post = (Post) { poster, index };
  poster->status[index] = 0;
  soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
  soup_message_set_request_body_from_bytes (msg, "application/json", bytes);
  soup_session_send_and_read_async (triage_test_server_get_session (poster->server), msg,
                                    G_PRIORITY_DEFAULT, NULL, posted_cb, post);
}

/* Posts a notification with a new id, without waiting; its index. */
static guint
post_new (Poster *poster)
{
  guint index = poster->posted++;

  g_assert_cmpuint (index, <, MAX_POSTS);
  poster->ids[index] = atp_new_uuid ();
  send_post (poster, index);
  return index;
}

static gboolean
all_answered (Poster *poster)
{
  for (guint i = 0; i < poster->posted; i++)
    if (poster->status[i] == 0)
      return FALSE;
  return TRUE;
}

static void
poster_clear (Poster *poster)
{
  for (guint i = 0; i < poster->posted; i++)
    g_free (poster->ids[i]);
}

static gboolean
wake (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs the main loop until @sql on @conn gives "t" as its first value:
 * TRUE. FALSE if @poster (if not NULL) got a 503 meanwhile. */
static gboolean
wait_for_database (PGconn     *conn,
                   const char *sql,
                   const char *what,
                   Poster     *poster)
{
  gint64 until = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;
  guint unavailable = poster != NULL ? poster->unavailable : 0;
  /* The database tells nobody: look again every 10 ms meanwhile. */
  guint ticker = g_timeout_add (10, wake, NULL);
  gboolean reached = FALSE;

  while (poster == NULL || poster->unavailable == unavailable)
    {
      g_autofree char *value = pg_query_value (conn, sql);

      if ((reached = g_strcmp0 (value, "t") == 0))
        break;
      if (g_get_monotonic_time () > until)
        g_error ("gave up waiting for %s", what);
      g_main_context_iteration (NULL, TRUE);
    }
  g_source_remove (ticker);
  return reached;
}

/* Ends the server's sessions that @where (SQL) picks, and waits until they
 * are gone; how many there were. */
static guint
end_sessions (PGconn     *conn,
              const char *where)
{
  g_autofree char *select = g_strdup_printf ("SELECT COALESCE (array_agg (a.pid), '{}')"
                                             " %s AND %s", SESSIONS, where);
  g_autofree char *pids = pg_query_value (conn, select);
  g_autofree char *end = g_strdup_printf ("SELECT COUNT (*) FROM unnest ('%s'::int[]) p"
                                          " WHERE pg_terminate_backend (p)", pids);
  g_autofree char *ended = pg_query_value (conn, end);
  g_autofree char *gone = g_strdup_printf ("SELECT COUNT (*) = 0 FROM pg_stat_activity"
                                           " WHERE pid = ANY ('%s'::int[])", pids);

  wait_for_database (conn, gone, "the sessions ended", NULL);
  return (guint) g_ascii_strtoull (ended, NULL, 10);
}

/* Each notification posted is stored once, and @ws heard of it once. */
static void
assert_each_once (TriageTestServer *server,
                  PGconn           *conn,
                  Poster           *poster,
                  SrvSocket        *ws)
{
  for (guint i = 0; i < poster->posted; i++)
    {
      g_autofree char *sql = g_strdup_printf ("SELECT COUNT (*) FROM notifications WHERE id = '%s'",
                                              poster->ids[i]);
      g_autofree char *stored = pg_query_value (conn, sql);

      g_assert_cmpuint (poster->status[i], ==, 201);
      g_assert_cmpstr (stored, ==, "1");
      triage_test_wait_until_within (srv_find_frame (ws, "notification", poster->ids[i]) != NULL,
                                     "the notification on the stream", WAIT_S);
      g_assert_cmpuint (srv_count_frames (ws, "notification", poster->ids[i]), ==, 1);
    }
}

typedef struct
{
  TriageTestServer *server;
  char             *token;
  char             *key;
  SrvSocket        *ws;
  char             *first;    /* the fixture's notification, on the stream */
  PGconn           *conn;     /* the test's own, on the server's database */
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  /* The test's WebSocket never speaks: no idle limit may close it. */
  static const char * const args[] = { "--no-limits", "--idle-timeout", "3600", NULL };
  TriageTestServerOptions options = { .extra_args = args };
  const char *alice[] = { "alice", NULL };
  g_autoptr(GError) error = NULL;

  fixture->server = triage_test_server_new (&options, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_user (fixture->server, "alice", &fixture->token,
                                                 &error));
  g_assert_true (triage_test_server_create_service (fixture->server, "agent", alice, NULL, NULL,
                                                    &fixture->key, NULL, &error));
  g_assert_no_error (error);
  /* The stream is set up (its snapshot sent: the server read the log for
   * it, which it could not do while the test holds the log's lock) once its
   * snapshot's notification came. */
  fixture->first = srv_post (fixture->server, fixture->key, "First");
  fixture->ws = srv_ws_open (fixture->server, fixture->token, NULL);
  g_assert_nonnull (fixture->ws->ws);
  triage_test_wait_until_within (srv_find_frame (fixture->ws, "notification",
                                                 fixture->first) != NULL,
                                 "the stream's snapshot", WAIT_S);
  fixture->conn = PQconnectdb (triage_test_server_get_database (fixture->server));
  g_assert_cmpint (PQstatus (fixture->conn), ==, CONNECTION_OK);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  PQfinish (fixture->conn);
  g_clear_pointer (&fixture->ws, srv_ws_free);
  triage_test_server_free (fixture->server);
  g_free (fixture->token);
  g_free (fixture->key);
  g_free (fixture->first);
}

/* The number @sql (SELECT COUNT …) on @conn gives. */
static guint
count (PGconn     *conn,
       const char *sql)
{
  g_autofree char *value = pg_query_value (conn, sql);

  return (guint) g_ascii_strtoull (value, NULL, 10);
}

/* Holds the event log's lock while the person acknowledges @acknowledge
 * (if not NULL: a commit held up that holds no post), then while posts go
 * one after the other, each once the one before is in the database (its
 * commit held up, or in the batch that waits), until the server has as many
 * commits in flight as it keeps, held up, at least one of them a post's,
 * and the batch whose turn has come holds a post too, its transaction open.
 * The database ends that session and that of a commit in flight holding a
 * post; the lock is let go and every post answered (a 503 posted again).
 * FALSE if a 503 came before the sessions were ended. */
static gboolean
hold_up_and_end (Fixture    *fixture,
                 Poster     *poster,
                 const char *acknowledge,
                 const char *lock,
                 const char *unlock)
{
  /* The scene: every commit the server keeps in flight held up, one of
   * them a post's, and the batch whose turn has come holding one. */
  g_autofree char *scene = g_strdup_printf ("(SELECT COUNT (*) " SESSIONS HELD_UP ") = %u"
                                            " AND EXISTS (SELECT " SESSIONS HELD_UP HOLDS_POST ")"
                                            " AND (SELECT COUNT (*) " SESSIONS OPEN HOLDS_POST
                                            ") = 1", FLIGHTS);
  g_autofree char *is_set = g_strconcat ("SELECT ", scene, NULL);
  gboolean held = TRUE, set = FALSE;
  guint ended = 0;

  g_free (pg_query_value (fixture->conn, lock));
  if (acknowledge != NULL)
    {
      g_autofree char *moved = g_strdup_printf ("SELECT (SELECT COUNT (*) " SESSIONS HELD_UP
                                                ") > %u",
                                                count (fixture->conn,
                                                       "SELECT COUNT (*) " SESSIONS HELD_UP));

      srv_ws_acknowledge (fixture->ws, acknowledge);
      held = wait_for_database (fixture->conn, moved, "the acknowledgement held up", poster);
    }
  for (guint posts = 0; held && !set; posts++)
    {
      /* The post is in the database once its commit is held up too, or
       * the scene is set (it joined the batch that waits). */
      g_autofree char *moved = g_strdup_printf ("SELECT (%s) OR (SELECT COUNT (*) " SESSIONS
                                                HELD_UP ") > %u", scene,
                                                count (fixture->conn,
                                                       "SELECT COUNT (*) " SESSIONS HELD_UP));
      g_autofree char *answer = NULL;

      g_assert_cmpuint (posts, <, SCENE_POSTS);
      post_new (poster);
      held = wait_for_database (fixture->conn, moved, "the post in the database", poster);
      set = held && g_str_equal ((answer = pg_query_value (fixture->conn, is_set)), "t");
    }
  if (held)
    ended = end_sessions (fixture->conn,
                          "((TRUE" OPEN HOLDS_POST ") OR a.pid = (SELECT MIN (a.pid) " SESSIONS
                          HELD_UP HOLDS_POST "))");
  g_free (pg_query_value (fixture->conn, unlock));
  triage_test_wait_until_within (all_answered (poster), "every post answered", WAIT_S);
  return held && ended == 2;
}

/* The sessions of a commit in flight and of a batch open in its transaction
 * are ended: their requests get 503, and are stored once posted again. */
static void
test_ended_in_batch (Fixture       *fixture,
                     gconstpointer  data)
{
  Poster poster = { .server = fixture->server, .key = fixture->key };
  g_autofree char *lock = NULL, *unlock = NULL, *quiet = NULL, *after = NULL, *expected = NULL;
  guint unavailable;

  lock = g_strdup_printf ("SELECT pg_advisory_lock (%" G_GINT64_FORMAT ")", TRIAGE_PG_EVENT_LOCK);
  unlock = g_strdup_printf ("SELECT pg_advisory_unlock (%" G_GINT64_FORMAT ")",
                            TRIAGE_PG_EVENT_LOCK);
  /* The fixture's notification reads delivered (its stream's mark is
   * committed) and the server has no transaction open: the person's
   * acknowledgement of it below is a commit of its own (a mark in flight
   * would hold its row). */
  quiet = g_strdup_printf ("SELECT (SELECT status <> 0 FROM notifications WHERE id = '%s')"
                           " AND NOT EXISTS (SELECT " SESSIONS " AND a.state <> 'idle')",
                           fixture->first);
  wait_for_database (fixture->conn, quiet, "the fixture's notification delivered", NULL);
  /* Each wait of the server's in the database gives up after 5 s
   * (lock_timeout, idle_in_transaction_session_timeout): a machine so
   * loaded that the test cannot set the scene within that answers a 503
   * first. Then the scene is set again. */
  for (guint attempt = 1; !hold_up_and_end (fixture, &poster, attempt == 1 ? fixture->first : NULL,
                                             lock, unlock); attempt++)
    {
      g_test_message ("attempt %u: a wait of the server's in the database ran out first", attempt);
      g_assert_cmpuint (attempt, <, 5);
    }
  /* Every request whose batch went was told, and posted again. */
  g_assert_cmpuint (poster.unavailable, >=, 2);
  assert_each_once (fixture->server, fixture->conn, &poster, fixture->ws);

  /* And the server carries on: a post is stored at the first try. */
  post_new (&poster);
  unavailable = poster.unavailable;
  triage_test_wait_until_within (all_answered (&poster), "the post after", WAIT_S);
  g_assert_cmpuint (poster.unavailable, ==, unavailable);
  assert_each_once (fixture->server, fixture->conn, &poster, fixture->ws);
  /* With the fixture's first. */
  after = pg_query_value (fixture->conn, "SELECT COUNT (*) FROM notifications");
  expected = g_strdup_printf ("%u", poster.posted + 1);
  g_assert_cmpstr (after, ==, expected);
  poster_clear (&poster);
}

/* A commit's wait for the event-log lock runs out (lock_timeout: a reader
 * of the log held it 5 s): the post is answered 503, not stored, and
 * stored once when posted again; the server carries on (a warning would
 * stop it: they are fatal in the tests). It waits for the 503, not for a
 * time. */
static void
test_lock_timeout (Fixture       *fixture,
                   gconstpointer  data)
{
  Poster poster = { .server = fixture->server, .key = fixture->key };
  g_autofree char *lock = NULL, *unlock = NULL, *count = NULL;

  lock = g_strdup_printf ("SELECT pg_advisory_lock (%" G_GINT64_FORMAT ")", TRIAGE_PG_EVENT_LOCK);
  unlock = g_strdup_printf ("SELECT pg_advisory_unlock (%" G_GINT64_FORMAT ")",
                            TRIAGE_PG_EVENT_LOCK);
  g_free (pg_query_value (fixture->conn, lock));
  post_new (&poster);
  triage_test_wait_until_within (poster.unavailable > 0, "the commit's lock wait given up",
                                 WAIT_S);
  g_free (pg_query_value (fixture->conn, unlock));
  triage_test_wait_until_within (all_answered (&poster), "the post stored", WAIT_S);
  assert_each_once (fixture->server, fixture->conn, &poster, fixture->ws);

  post_new (&poster);
  triage_test_wait_until_within (all_answered (&poster), "the post after", WAIT_S);
  g_assert_cmpuint (poster.unavailable, ==, 1);
  assert_each_once (fixture->server, fixture->conn, &poster, fixture->ws);
  /* With the fixture's first. */
  count = pg_query_value (fixture->conn, "SELECT COUNT (*) FROM notifications");
  g_assert_cmpstr (count, ==, "3");
  poster_clear (&poster);
}

/* Sessions ended between transactions (the database restarted, an operator
 * ended them): made again at the next statement, nobody is told. */
static void
test_ended_between (Fixture       *fixture,
                    gconstpointer  data)
{
  Poster poster = { .server = fixture->server, .key = fixture->key };
  g_autofree char *count = NULL;

  post_new (&poster);
  triage_test_wait_until_within (all_answered (&poster), "the first post", WAIT_S);

  /* The batch connections' and the side connection's. */
  g_assert_cmpuint (end_sessions (fixture->conn, "state = 'idle'"), >=, FLIGHTS + 1);
  for (guint i = 0; i < 4; i++)
    post_new (&poster);
  triage_test_wait_until_within (all_answered (&poster), "the posts after", WAIT_S);
  g_assert_cmpuint (poster.unavailable, ==, 0);
  assert_each_once (fixture->server, fixture->conn, &poster, fixture->ws);
  /* With the fixture's first. */
  count = pg_query_value (fixture->conn, "SELECT COUNT (*) FROM notifications");
  g_assert_cmpstr (count, ==, "6");
  poster_clear (&poster);
}

int
main (int    argc,
      char **argv)
{
  triage_test_postgres_init (&argc, &argv, "sessions a PostgreSQL database ends");
  g_test_add ("/cluster/session/ended-in-batch", Fixture, NULL, fixture_set_up,
              test_ended_in_batch, fixture_tear_down);
  g_test_add ("/cluster/session/ended-between", Fixture, NULL, fixture_set_up,
              test_ended_between, fixture_tear_down);
  g_test_add ("/cluster/session/lock-timeout", Fixture, NULL, fixture_set_up,
              test_lock_timeout, fixture_tear_down);
  return g_test_run ();
}
