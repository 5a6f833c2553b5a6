/* pg-lock-test-util.h — a server on PostgreSQL whose reads the test makes fail
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The test holds a lock on a table the server reads (LOCK TABLE, from its own
 * session on the server's schema) while the server's sessions give up a lock
 * wait after PG_LOCK_TIMEOUT_MS: a read of that table fails soon, and every
 * other question to the database is answered. For test-server-pg-auth.c and
 * test-server-pg-lookup.c.
 */

#pragma once

#include "pg-query-test-util.h"
#include "server-test-util.h"
#include "triage-test-postgres.h"

/* The server's sessions give up a lock wait after this (the URI's setting
 * wins over the server's 5 s). */
#define PG_LOCK_TIMEOUT_MS 200
/* Or their statements are canceled after this: longer, as it bounds every
 * statement of theirs, which a loaded machine may slow. */
#define PG_STATEMENT_TIMEOUT_MS 2000

typedef struct
{
  TriageTestServer *server;
  PGconn           *conn;        /* the test's own session on the server's schema */
  char             *alice;       /* a user token */
  char             *key;         /* the key of the service named at setup */
  char             *other_key;   /* another service's ("other-bot") */
} PgLockFixture;

/* A server (on a Unix socket, its peer trusted, when @unix_socket) with the
 * user alice and the services @service and "other-bot", both hers, whose
 * sessions give up a lock wait by their @timeout ("lock_timeout", after
 * PG_LOCK_TIMEOUT_MS: the wait given up, 55P03; "statement_timeout", after
 * PG_STATEMENT_TIMEOUT_MS: the statement canceled, 57014). */
static inline void
pg_lock_fixture_setup_timeout (PgLockFixture *fixture,
                               const char    *service,
                               gboolean       unix_socket,
                               const char    *timeout)
{
  static const char * const server_args[] = { "--no-limits", NULL };
  const char * const alice[] = { "alice", NULL };
  TriageTestServerOptions options = { .extra_args = server_args, .unix_socket = unix_socket };
  g_autofree char *uri = NULL, *server_uri = NULL;
  g_autoptr(GError) error = NULL;
  const char *options_at;

  uri = triage_test_postgres_new_database (&error);
  g_assert_no_error (error);
  /* The schema's search_path is the URI's last parameter: the lock timeout
   * joins its options. */
  options_at = strstr (uri, "&options=");
  g_assert_nonnull (options_at);
  g_assert_null (strchr (options_at + 1, '&'));
  server_uri = g_strdup_printf ("%s%%20-c%s%%3D%d", uri, timeout,
                                g_str_equal (timeout, "statement_timeout")
                                  ? PG_STATEMENT_TIMEOUT_MS : PG_LOCK_TIMEOUT_MS);
  options.database = server_uri;
  fixture->server = triage_test_server_new (&options, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_is_postgres (fixture->server));
  triage_test_server_create_user (fixture->server, "alice", &fixture->alice, &error);
  g_assert_no_error (error);
  triage_test_server_create_service (fixture->server, service, alice, NULL, NULL,
                                     &fixture->key, NULL, &error);
  g_assert_no_error (error);
  triage_test_server_create_service (fixture->server, "other-bot", alice, NULL, NULL,
                                     &fixture->other_key, NULL, &error);
  g_assert_no_error (error);

  fixture->conn = PQconnectdb (uri);
  if (PQstatus (fixture->conn) != CONNECTION_OK)
    g_error ("cannot connect to %s: %s", uri, PQerrorMessage (fixture->conn));
}

static inline void
pg_lock_fixture_setup (PgLockFixture *fixture,
                       const char    *service,
                       gboolean       unix_socket)
{
  pg_lock_fixture_setup_timeout (fixture, service, unix_socket, "lock_timeout");
}

static inline void
pg_lock_fixture_teardown (PgLockFixture *fixture)
{
  PQfinish (fixture->conn);
  g_assert_true (triage_test_server_stop (fixture->server));
  triage_test_server_free (fixture->server);
  g_free (fixture->alice);
  g_free (fixture->key);
  g_free (fixture->other_key);
}

/* Runs @sql (statements) on the test's session; the first value of its last
 * result, if any. */
static inline char *
pg_lock_run (PgLockFixture *fixture,
             const char    *sql)
{
  return pg_query_value (fixture->conn, sql);
}

/* Holds @table locked in @mode until pg_lock_release () (a transaction of
 * the test's session). */
static inline void
pg_lock_table_in (PgLockFixture *fixture,
                  const char    *table,
                  const char    *mode)
{
  g_autofree char *sql = g_strdup_printf ("BEGIN; LOCK TABLE %s IN %s MODE", table, mode);

  g_free (pg_lock_run (fixture, sql));
}

/* Holds @table locked against every reader. */
static inline void
pg_lock_table (PgLockFixture *fixture,
               const char    *table)
{
  pg_lock_table_in (fixture, table, "ACCESS EXCLUSIVE");
}

static inline void
pg_lock_release (PgLockFixture *fixture)
{
  g_free (pg_lock_run (fixture, "ROLLBACK"));
}
