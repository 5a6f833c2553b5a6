/* triage-history-db-summary.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-history"

#include <glib/gi18n.h>

#include "triage-browse-error.h"
#include "triage-history-db-private.h"
#include "triage-history-schema.h"

/*
 * What the history's filters offer (the services and projects there are)
 * and the chart's statistics, both queried on the worker's read-only
 * connection.
 */

void
triage_history_facets_free (TriageHistoryFacets *facets)
{
  if (facets == NULL)
    return;

  g_strfreev (facets->services);
  g_strfreev (facets->projects);
  g_free (facets);
}

/* Facets */

static GStrv
collect_strings (sqlite3_stmt *stmt,
                 int          *rc)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  while ((*rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autofree char *text = triage_history_column_text (stmt, 0);

      if (text != NULL)
        g_strv_builder_add (builder, text);
    }

  return g_strv_builder_end (builder);
}

static void
facets_func (TriageHistoryDb *self,
             GTask           *task,
             gpointer         task_data)
{
  g_autoptr(TriageHistoryFacets) facets = g_new0 (TriageHistoryFacets, 1);
  g_autoptr(sqlite3_stmt) services = NULL;
  g_autoptr(sqlite3_stmt) projects = NULL;
  g_autoptr(sqlite3_stmt) no_project = NULL;
  g_autoptr(GError) error = NULL;
  int rc = SQLITE_OK;

  /* Each walks an index: one step per distinct value. */
  if (sqlite3_prepare_v2 (self->query,
                          "SELECT DISTINCT service_name FROM notifications ORDER BY service_name",
                          -1, &services, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (self->query,
                          "SELECT DISTINCT project FROM notifications WHERE project IS NOT NULL"
                          " ORDER BY project",
                          -1, &projects, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (self->query,
                          "SELECT EXISTS (SELECT 1 FROM notifications WHERE project IS NULL)",
                          -1, &no_project, NULL) != SQLITE_OK)
    goto failed;

  facets->services = collect_strings (services, &rc);
  if (rc != SQLITE_DONE)
    goto failed;
  facets->projects = collect_strings (projects, &rc);
  if (rc != SQLITE_DONE)
    goto failed;
  if (sqlite3_step (no_project) != SQLITE_ROW)
    goto failed;
  facets->has_no_project = sqlite3_column_int (no_project, 0) != 0;

  g_task_return_pointer (task, g_steal_pointer (&facets),
                         (GDestroyNotify) triage_history_facets_free);
  return;

failed:
  triage_history_set_error (&error, self->query,
                            _("Could not list the services and projects in the local database"));
  triage_history_db_return_query_error (task, g_steal_pointer (&error));
}

/**
 * triage_history_db_facets_async:
 * @self: an open #TriageHistoryDb
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the facets
 * @user_data: data for @callback
 *
 * Lists the services and projects the history's filters offer.
 */
void
triage_history_db_facets_async (TriageHistoryDb     *self,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_return_if_fail (TRIAGE_IS_HISTORY_DB (self));

  triage_history_db_run (self, self->pool, facets_func, NULL, NULL, triage_history_db_facets_async,
                         cancellable, callback, user_data);
}

/**
 * triage_history_db_facets_finish:
 *
 * Returns: (transfer full): the facets
 */
TriageHistoryFacets *
triage_history_db_facets_finish (TriageHistoryDb  *self,
                                 GAsyncResult     *result,
                                 GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Statistics */

typedef struct
{
  TriageHistoryFilter *filter;
  TriageHistoryStats  *stats;
} StatsData;

static void
stats_data_free (StatsData *data)
{
  triage_history_filter_free (data->filter);
  g_clear_pointer (&data->stats, triage_history_stats_unref);
  g_free (data);
}

static void
stats_func (TriageHistoryDb *self,
            GTask           *task,
            gpointer         task_data)
{
  StatsData *data = task_data;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GArray) matches = NULL;
  g_autoptr(GError) error = NULL;
  int rc;

  stmt = triage_history_prepare_filtered (self->query,
                                          "rowid, created_at, " TRIAGE_HISTORY_EFFECTIVE_OUTCOME_SQL ","
                                          " answered_at, service_name",
                                          data->filter,
                                          triage_history_stats_get_start (data->stats),
                                          triage_history_stats_get_end (data->stats),
                                          NULL, &matches, &error);
  if (stmt == NULL)
    {
      triage_history_db_return_query_error (task, g_steal_pointer (&error));
      return;
    }

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 created_at = sqlite3_column_int64 (stmt, 1);
      TriageOutcome outcome;
      gint64 response_time = -1;

      if (!triage_history_matches_contain (matches, sqlite3_column_int64 (stmt, 0)))
        continue;

      outcome = triage_outcome_from_string ((const char *) sqlite3_column_text (stmt, 2));
      if (sqlite3_column_type (stmt, 3) != SQLITE_NULL)
        {
          gint64 answered_at = sqlite3_column_int64 (stmt, 3);

          if (answered_at >= created_at)
            response_time = answered_at - created_at;
        }

      triage_history_stats_add (data->stats, (const char *) sqlite3_column_text (stmt, 4),
                                created_at, outcome, response_time);
    }

  if (rc != SQLITE_DONE)
    {
      triage_history_set_error (&error, self->query,
                                _("Could not count the decisions in the local database"));
      triage_history_db_return_query_error (task, g_steal_pointer (&error));
      return;
    }

  triage_history_stats_finish (data->stats);
  g_task_return_pointer (task, triage_history_stats_ref (data->stats),
                         (GDestroyNotify) triage_history_stats_unref);
}

/**
 * triage_history_db_stats_async:
 * @self: an open #TriageHistoryDb
 * @filter: which requests count (its date bounds narrow the days further)
 * @first_day: any time on the first day (local time zone)
 * @n_days: how many days
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the statistics
 * @user_data: data for @callback
 *
 * Counts the requests of those days by outcome, with median response times.
 */
void
triage_history_db_stats_async (TriageHistoryDb           *self,
                               const TriageHistoryFilter *filter,
                               GDateTime                 *first_day,
                               guint                      n_days,
                               GCancellable              *cancellable,
                               GAsyncReadyCallback        callback,
                               gpointer                   user_data)
{
  StatsData *data;

  g_return_if_fail (TRIAGE_IS_HISTORY_DB (self));
  g_return_if_fail (filter != NULL);
  g_return_if_fail (first_day != NULL);
  g_return_if_fail (n_days >= 1);

  data = g_new0 (StatsData, 1);
  data->filter = triage_history_filter_copy (filter);
  data->stats = triage_history_stats_new (first_day, n_days);

  triage_history_db_run (self, self->pool, stats_func, data, (GDestroyNotify) stats_data_free,
                         triage_history_db_stats_async, cancellable, callback, user_data);
}

/**
 * triage_history_db_stats_finish:
 *
 * Returns: (transfer full): the statistics
 */
TriageHistoryStats *
triage_history_db_stats_finish (TriageHistoryDb  *self,
                                GAsyncResult     *result,
                                GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
