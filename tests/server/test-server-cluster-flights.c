/* test-server-cluster-flights.c — a server's commits in flight side by side
 * on PostgreSQL, answered in the order they went
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The store of one server on a database of the tests' own PostgreSQL. A
 * batch that writes events is held up in the database (this test holds the
 * event-log lock, as a reader of the log would); the next batch, without
 * events, commits on another connection meanwhile, so it neither waits for
 * the first nor is answered before it: whoever waits for the second learns
 * of the first first, and only once the first is committed.
 */

#define G_LOG_DOMAIN "test-server-cluster-flights"

#include "pg-query-test-util.h"
#include "triage-pg-schema.h"
#include "triage-store.h"
#include "triage-test-postgres.h"

#define WAIT_S 60
#define WAIT_US (WAIT_S * G_USEC_PER_SEC)

typedef struct
{
  guint    order[2];     /* the batches, in the order they were answered */
  gboolean committed[2];
  guint    answered;
} Answers;

typedef struct
{
  Answers *answers;
  guint    batch;
} Waiter;

static void
committed_cb (gpointer data,
              gboolean committed)
{
  Waiter *waiter = data;
  Answers *answers = waiter->answers;

  g_assert_cmpuint (answers->answered, <, G_N_ELEMENTS (answers->order));
  answers->order[answers->answered] = waiter->batch;
  answers->committed[answers->answered] = committed;
  answers->answered++;
}

static void
test_answered_in_order (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *uri = triage_test_postgres_new_database (&error);
  g_autofree char *lock = NULL, *unlock = NULL;
  g_autoptr(TriageStore) store = NULL;
  const char * const users[] = { "alice", NULL };
  Answers answers = { { 0 } };
  Waiter first = { &answers, 1 }, second = { &answers, 2 };
  gint64 until, now = g_get_real_time ();
  PGconn *holder;
  PGresult *result;

  g_assert_no_error (error);
  store = triage_store_open (uri, NULL, &error);
  g_assert_no_error (error);
  holder = PQconnectdb (uri);
  g_assert_cmpint (PQstatus (holder), ==, CONNECTION_OK);
  lock = g_strdup_printf ("SELECT pg_advisory_lock (%" G_GINT64_FORMAT ")", TRIAGE_PG_EVENT_LOCK);
  unlock = g_strdup_printf ("SELECT pg_advisory_unlock (%" G_GINT64_FORMAT ")",
                            TRIAGE_PG_EVENT_LOCK);
  result = PQexec (holder, lock);
  g_assert_cmpint (PQresultStatus (result), ==, PGRES_TUPLES_OK);
  PQclear (result);

  /* The first batch writes an event (in its batch, as every event is): its
   * commit waits for the lock. */
  triage_store_batch (store);
  triage_store_add_events (store, users, "test", -1, "{}", NULL, now);
  triage_store_after_commit (store, committed_cb, &first);
  pg_query_wait_for (holder, "SELECT COUNT (*) > 0 FROM pg_locks WHERE locktype = 'advisory'"
                             " AND NOT granted", "the first batch's commit, held up", WAIT_S);

  /* The second has no event: it commits beside the first. */
  g_assert_cmpint (triage_store_insert_notification (store, "flight-2", "service", 0, NULL, "{}",
                                                     "{}", "{}", NULL, now, 0), ==,
                   TRIAGE_STORE_INSERTED);
  triage_store_after_commit (store, committed_cb, &second);
  pg_query_wait_for (holder, "SELECT COUNT (*) = 1 FROM notifications WHERE id = 'flight-2'",
                     "the second batch committed while the first waits", WAIT_S);
  /* Its answer is in (or on its way), but held: the first is not done. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (answers.answered, ==, 0);
  g_assert_true (triage_store_in_batch (store));

  result = PQexec (holder, unlock);
  g_assert_cmpint (PQresultStatus (result), ==, PGRES_TUPLES_OK);
  PQclear (result);
  until = g_get_monotonic_time () + WAIT_US;
  while (answers.answered < 2 && g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (answers.answered, ==, 2);
  g_assert_cmpuint (answers.order[0], ==, 1);
  g_assert_cmpuint (answers.order[1], ==, 2);
  g_assert_true (answers.committed[0]);
  g_assert_true (answers.committed[1]);
  g_assert_false (triage_store_in_batch (store));
  {
    g_autofree char *events = pg_query_value (holder, "SELECT COUNT (*) FROM events"
                                                   " WHERE type = 'test'");

    g_assert_cmpstr (events, ==, "1");
  }
  PQfinish (holder);
}

int
main (int    argc,
      char **argv)
{
  triage_test_postgres_init (&argc, &argv, "a server's commits on PostgreSQL");
  g_test_add_func ("/cluster/flights/answered-in-order", test_answered_in_order);
  return g_test_run ();
}
