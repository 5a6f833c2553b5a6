/* triage-store-postgres-afp.c — AFP review sessions in the PostgreSQL backend
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tables are those of the SQLite backend (triage-pg-schema.c). Claiming
 * an iteration is one conditional UPDATE of the session's row: a second
 * server's claim waits for the first's batch, then compares with what it
 * committed.
 */

#define G_LOG_DOMAIN "triage-store-postgres"

#include "triage-pg-connection.h"
#include "triage-store-postgres.h"

static gboolean
postgres_afp_add_session (TriageStore *store,
                          const char  *id,
                          const char  *service_id,
                          gint64       now)
{
  TriagePgNumber created;
  const TriagePgParam params[] = { id, service_id, triage_pg_number (&created, now) };
  g_autoptr(PGresult) result = NULL;

  result = triage_store_postgres_query (TRIAGE_STORE_POSTGRES (store),
                                        "INSERT INTO afp_sessions (id, service_id, created_at,"
                                        " last_iteration) VALUES ($1, $2, $3, 0)"
                                        " ON CONFLICT DO NOTHING", 3, params);
  return result != NULL && triage_pg_changed (result) == 1;
}

static TriageAfpSessionRow *
postgres_afp_get_session (TriageStore *store,
                          const char  *id,
                          GError     **error)
{
  const TriagePgParam params[] = { id };
  g_autoptr(PGresult) result = NULL;
  TriageAfpSessionRow *row;

  result = triage_store_postgres_query (TRIAGE_STORE_POSTGRES (store),
                                        "SELECT id, service_id, created_at, last_iteration"
                                        " FROM afp_sessions WHERE id = $1", 1, params);
  if (result == NULL)
    {
      /* the query's writer logged why */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                   "the database did not answer the lookup of a review session");
      return NULL;
    }
  if (PQntuples (result) == 0)
    return NULL;

  row = g_new0 (TriageAfpSessionRow, 1);
  row->id = triage_pg_text (result, 0, 0);
  row->service_id = triage_pg_text (result, 0, 1);
  row->created_at = triage_pg_int (result, 0, 2);
  row->last_iteration = triage_pg_int (result, 0, 3);
  return row;
}

static gboolean
postgres_afp_claim_iteration (TriageStore *store,
                              const char  *session_id,
                              gint64       iteration,
                              GError     **error)
{
  TriagePgNumber number;
  const TriagePgParam params[] = { triage_pg_number (&number, iteration), session_id };
  g_autoptr(PGresult) result = NULL;

  result = triage_store_postgres_query (TRIAGE_STORE_POSTGRES (store),
                                        "UPDATE afp_sessions SET last_iteration = $1"
                                        " WHERE id = $2 AND last_iteration < $1", 2, params);
  if (result == NULL)
    {
      /* the query's writer logged why (and the batch fails with it) */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                   "the database did not store a review session's iteration");
      return FALSE;
    }
  return triage_pg_changed (result) == 1;
}

static void
postgres_afp_release_iteration (TriageStore *store,
                                const char  *session_id,
                                gint64       iteration)
{
  TriagePgNumber number;
  const TriagePgParam params[] = { session_id, triage_pg_number (&number, iteration) };
  g_autoptr(PGresult) result = NULL;

  /* A failure fails the batch, which takes the claim back with it. */
  result = triage_store_postgres_query (TRIAGE_STORE_POSTGRES (store),
                                        "UPDATE afp_sessions SET last_iteration ="
                                        " (SELECT COALESCE (MAX (iteration), 0) FROM afp_reviews"
                                        " WHERE session_id = $1)"
                                        " WHERE id = $1 AND last_iteration = $2", 2, params);
}

static gboolean
postgres_afp_add_review (TriageStore *store,
                         const char  *notification_id,
                         const char  *session_id,
                         gint64       iteration)
{
  TriagePgNumber number;
  const TriagePgParam params[] = {
    notification_id, session_id, triage_pg_number (&number, iteration)
  };
  g_autoptr(PGresult) result = NULL;

  result = triage_store_postgres_query (TRIAGE_STORE_POSTGRES (store),
                                        "INSERT INTO afp_reviews (notification_id, session_id,"
                                        " iteration) VALUES ($1, $2, $3)", 3, params);
  return result != NULL && triage_pg_changed (result) == 1;
}

static gboolean
postgres_afp_last_review (TriageStore *store,
                          const char  *session_id,
                          char       **notification_id,
                          gint64      *iteration,
                          GError     **error)
{
  const TriagePgParam params[] = { session_id };
  g_autoptr(PGresult) result = NULL;

  result = triage_store_postgres_query (TRIAGE_STORE_POSTGRES (store),
                                        "SELECT notification_id, iteration FROM afp_reviews"
                                        " WHERE session_id = $1 ORDER BY iteration DESC LIMIT 1",
                                        1, params);
  if (result == NULL)
    {
      /* the query's writer logged why */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                   "the database did not answer the lookup of a session's latest review");
      return FALSE;
    }
  if (PQntuples (result) == 0)
    return FALSE;

  *notification_id = triage_pg_text (result, 0, 0);
  *iteration = triage_pg_int (result, 0, 1);
  return TRUE;
}

static GPtrArray *
postgres_afp_reviews (TriageStore *store,
                      const char  *session_id,
                      gint64       after,
                      guint        limit,
                      gint64      *total,
                      GError     **error)
{
  TriagePgNumber after_number, limit_number;
  const TriagePgParam params[] = {
    session_id, triage_pg_number (&after_number, after), triage_pg_number (&limit_number, limit)
  };
  g_autoptr(PGresult) result = NULL;
  g_autoptr(PGresult) counted = NULL;
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_afp_review_row_free);

  /* How many the session has (listed ones: their request is kept). */
  if (total != NULL &&
      (counted = triage_store_postgres_query (TRIAGE_STORE_POSTGRES (store),
                                              "SELECT count(*) FROM afp_reviews r"
                                              " JOIN notifications n ON n.id = r.notification_id"
                                              " WHERE r.session_id = $1", 1, params)) != NULL)
    *total = triage_pg_int (counted, 0, 0);
  if (total == NULL || counted != NULL)
    result = triage_store_postgres_query (TRIAGE_STORE_POSTGRES (store),
                                          "SELECT r.notification_id, r.iteration, n.status,"
                                          " n.response FROM afp_reviews r"
                                          " JOIN notifications n ON n.id = r.notification_id"
                                          " WHERE r.session_id = $1 AND r.iteration > $2"
                                          " ORDER BY r.iteration LIMIT $3",
                                          3, params);
  if (result == NULL)
    {
      /* the query's writer logged why */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                   "the database did not answer the lookup of a session's reviews");
      g_ptr_array_unref (rows);
      return NULL;
    }
  for (int i = 0; i < PQntuples (result); i++)
    {
      TriageAfpReviewRow *row = g_new0 (TriageAfpReviewRow, 1);

      row->notification_id = triage_pg_text (result, i, 0);
      row->iteration = triage_pg_int (result, i, 1);
      row->status = (int) triage_pg_int (result, i, 2);
      row->response = triage_pg_text (result, i, 3);
      g_ptr_array_add (rows, row);
    }
  return rows;
}

void
triage_store_postgres_afp_class_init (TriageStoreClass *store_class)
{
  store_class->afp_add_session = postgres_afp_add_session;
  store_class->afp_get_session = postgres_afp_get_session;
  store_class->afp_claim_iteration = postgres_afp_claim_iteration;
  store_class->afp_release_iteration = postgres_afp_release_iteration;
  store_class->afp_add_review = postgres_afp_add_review;
  store_class->afp_last_review = postgres_afp_last_review;
  store_class->afp_reviews = postgres_afp_reviews;
}
