/* test-server-sqlite-recipients.c — a failed read of a service's recipients
 * is not kept as "nobody"
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The SQLite store keeps who a service's requests go to (a service never
 * changes once registered), read at its first request: a new request that a
 * recipient's open stream will be pushed is written delivered at its insert
 * (triage-server-stream-deliver.c). A read that failed (an I/O error, a
 * statement the database would not run) was kept as an empty list: from
 * then on, for as long as the server ran, every request of that service was
 * written created and marked delivered with an update of its own, and a
 * read that failed halfway kept some of the recipients as all of them. Now
 * a failure is not kept, and the next request reads them again.
 *
 * The read is made to fail here by renaming the table under the running
 * server (SQLite renames it in the trigger that fills a new request's
 * recipients too, so the insert itself still works). SQLite only.
 *
 * Who a request goes to is kept WITHOUT ROWID since schema version 12 (one
 * b-tree fewer to write for every new request): a database of version 11
 * is brought to it with its requests' recipients, and the trigger that
 * fills the table goes on filling it.
 */

#define G_LOG_DOMAIN "test-server-sqlite-recipients"

#include "server-test-util.h"

typedef struct
{
  TriageTestServer *server;
  char             *alice;
  char             *warm_key;   /* a service whose first request prepares the store's reads */
  char             *key;        /* the service whose recipients' read fails */
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  const char * const alice[] = { "alice", NULL };
  g_autoptr(GError) error = NULL;

  fixture->server = triage_test_server_new (NULL, &error);
  g_assert_no_error (error);
  g_assert_false (triage_test_server_is_postgres (fixture->server));
  g_assert_true (triage_test_server_create_user (fixture->server, "alice", &fixture->alice,
                                                 &error));
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_service (fixture->server, "warm-bot", alice, NULL,
                                                    NULL, &fixture->warm_key, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_service (fixture->server, "lost-bot", alice, NULL,
                                                    NULL, &fixture->key, NULL, &error));
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_assert_true (triage_test_server_stop (fixture->server));
  triage_test_server_free (fixture->server);
  g_free (fixture->alice);
  g_free (fixture->warm_key);
  g_free (fixture->key);
}

/* "status|1" when request @id was written with the status it has and not
 * changed since (its updated_at is its created_at), "status|0" else. */
static char *
stored_row (Fixture    *fixture,
            const char *id)
{
  g_autofree char *sql = g_strdup_printf ("SELECT status, updated_at = created_at FROM "
                                          "notifications WHERE id = '%s'", id);

  return srv_run_sql (fixture->server, sql);
}

/* lost-bot's first request, while its recipients cannot be read: stored
 * (201). Its next, with alice's stream open and the table back: written
 * delivered at its insert, as warm-bot's is, not created and then marked
 * (an empty list kept from the failure said nobody would take it). */
static void
test_failed_read_not_kept (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *warm = srv_post (fixture->server, fixture->warm_key, "Warm");
  g_autofree char *during = NULL, *after = NULL, *warm_open = NULL;
  g_autofree char *warm_row = NULL, *after_row = NULL;
  g_autoptr(SrvSocket) alice = NULL;

  g_free (srv_run_sql (fixture->server,
                       "ALTER TABLE service_recipients RENAME TO service_recipients_away"));
  during = srv_post (fixture->server, fixture->key, "Recipients unread");
  g_free (srv_run_sql (fixture->server,
                       "ALTER TABLE service_recipients_away RENAME TO service_recipients"));

  alice = srv_ws_open (fixture->server, fixture->alice, "?snapshot=false");
  g_assert_nonnull (alice->ws);
  /* The way it goes when the read went well: warm-bot's. */
  warm_open = srv_post (fixture->server, fixture->warm_key, "Warm, stream open");
  warm_row = stored_row (fixture, warm_open);
  g_assert_cmpstr (warm_row, ==, "1|1\n");
  after = srv_post (fixture->server, fixture->key, "Recipients read again");
  after_row = stored_row (fixture, after);
  g_assert_cmpstr (after_row, ==, "1|1\n");
  /* And alice was pushed it. */
  srv_wait_until (srv_find_frame (alice, "notification", after) != NULL, "the push");
}

/* The table as schema version 11 made it (a rowid table), its rows kept,
 * and the database said to be of that version: as a server before 12 left it. */
#define AS_VERSION_11 \
  "DROP TRIGGER notification_recipients_of;" \
  "CREATE TABLE recipients11 (notification_seq INTEGER NOT NULL, user_id TEXT NOT NULL," \
  "  PRIMARY KEY (user_id, notification_seq));" \
  "INSERT INTO recipients11 SELECT notification_seq, user_id FROM notification_recipients;" \
  "DROP TABLE notification_recipients;" \
  "ALTER TABLE recipients11 RENAME TO notification_recipients;" \
  "CREATE INDEX notification_recipients_seq ON notification_recipients (notification_seq);" \
  "CREATE TRIGGER notification_recipients_of AFTER INSERT ON notifications BEGIN" \
  "  INSERT INTO notification_recipients (notification_seq, user_id)" \
  "    SELECT new.seq, user_id FROM service_recipients WHERE service_id = new.service_id" \
  "    ORDER BY user_id;" \
  " END;" \
  "PRAGMA user_version = 11;"

/* Whether the recipients' table is WITHOUT ROWID: "1". */
static char *
without_rowid (Fixture *fixture)
{
  return srv_run_sql (fixture->server, "SELECT instr (sql, 'WITHOUT ROWID') > 0 FROM sqlite_master"
                                       " WHERE name = 'notification_recipients'");
}

/* A new database has the table WITHOUT ROWID; one of version 11 is brought
 * to it at start with the recipients of its requests, which alice still
 * lists, and a new request goes to her as before. */
static void
test_without_rowid (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *before = srv_post (fixture->server, fixture->warm_key, "Before the upgrade");
  g_autofree char *after = NULL, *fresh = NULL, *upgraded = NULL, *version = NULL;
  g_autofree char *rows = NULL;
  g_autoptr(JsonObject) listed_before = NULL, listed_after = NULL;
  g_autoptr(GError) error = NULL;

  fresh = without_rowid (fixture);
  g_assert_cmpstr (fresh, ==, "1\n");
  g_assert_true (triage_test_server_stop (fixture->server));
  g_free (srv_run_sql (fixture->server, AS_VERSION_11));
  g_free (fresh);
  fresh = without_rowid (fixture);
  g_assert_cmpstr (fresh, ==, "0\n");

  g_assert_true (triage_test_server_restart (fixture->server, &error));
  g_assert_no_error (error);
  version = srv_run_sql (fixture->server, "PRAGMA user_version");
  g_assert_cmpstr (version, ==, "12\n");
  upgraded = without_rowid (fixture);
  g_assert_cmpstr (upgraded, ==, "1\n");
  listed_before = srv_find_listed (fixture->server, fixture->alice, "", before);
  g_assert_nonnull (listed_before);
  after = srv_post (fixture->server, fixture->warm_key, "After the upgrade");
  listed_after = srv_find_listed (fixture->server, fixture->alice, "", after);
  g_assert_nonnull (listed_after);
  rows = srv_run_sql (fixture->server, "SELECT COUNT (*) FROM notification_recipients");
  g_assert_cmpstr (rows, ==, "2\n");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  /* For the server: a read that fails is said, and that is not fatal for it
   * here. */
  g_unsetenv ("G_DEBUG");

  g_test_add ("/server/sqlite-recipients/failed-read-not-kept", Fixture, NULL, fixture_setup,
              test_failed_read_not_kept, fixture_teardown);
  g_test_add ("/server/sqlite-recipients/without-rowid", Fixture, NULL, fixture_setup,
              test_without_rowid, fixture_teardown);
  return g_test_run ();
}
