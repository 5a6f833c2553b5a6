/* pg-query-test-util.h — a test's own questions to a server's PostgreSQL database
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For the tests that look at the database a server uses, or hold its locks,
 * from a session of their own (libpq, no server in between).
 */

#pragma once

#include <glib.h>
#include <libpq-fe.h>

/* The first row's first column of @sql on @conn, or NULL if no row; a
 * statement that fails fails the test. */
static inline char *
pg_query_value (PGconn     *conn,
                const char *sql)
{
  PGresult *result = PQexec (conn, sql);
  char *value = NULL;

  if (PQresultStatus (result) != PGRES_TUPLES_OK && PQresultStatus (result) != PGRES_COMMAND_OK)
    g_error ("%s: %s", sql, PQresultErrorMessage (result));
  if (PQntuples (result) > 0)
    value = g_strdup (PQgetvalue (result, 0, 0));
  PQclear (result);
  return value;
}

/* Runs the main loop until @sql on @conn gives "t" as its first value (the
 * database tells nobody: it is asked again every millisecond); the test
 * fails after @seconds. */
static inline void
pg_query_wait_for (PGconn     *conn,
                   const char *sql,
                   const char *what,
                   guint       seconds)
{
  gint64 until = g_get_monotonic_time () + seconds * G_USEC_PER_SEC;

  for (;;)
    {
      g_autofree char *value = pg_query_value (conn, sql);

      if (g_strcmp0 (value, "t") == 0)
        return;
      if (g_get_monotonic_time () > until)
        g_error ("timed out waiting for %s", what);
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (1000);
    }
}
