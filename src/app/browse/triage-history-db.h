/* triage-history-db.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "atp.h"
#include "triage-history-filter.h"
#include "triage-history-stats.h"

G_BEGIN_DECLS

/**
 * TriageHistoryKey:
 * @rowid: the row in the app's database
 * @updated_at: when the row last changed (Unix microseconds)
 *
 * One entry of a query result: enough to page the entry in later and to
 * tell whether it changed since the last query.
 */
typedef struct
{
  gint64 rowid;
  gint64 updated_at;
} TriageHistoryKey;

/**
 * TriageHistoryFacets:
 * @services: every service name in the history, sorted
 * @projects: every project in the history, sorted
 * @has_no_project: %TRUE if some request has no project
 *
 * The values the history's filters offer.
 */
typedef struct
{
  GStrv    services;
  GStrv    projects;
  gboolean has_no_project;
} TriageHistoryFacets;

void triage_history_facets_free (TriageHistoryFacets *facets);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TriageHistoryFacets, triage_history_facets_free)

#define TRIAGE_TYPE_HISTORY_DB (triage_history_db_get_type ())

G_DECLARE_FINAL_TYPE (TriageHistoryDb, triage_history_db, TRIAGE, HISTORY_DB, GObject)

TriageHistoryDb     *triage_history_db_new                (const char                 *path);
const char          *triage_history_db_get_path           (TriageHistoryDb            *self);
gboolean             triage_history_db_is_open            (TriageHistoryDb            *self);

void                 triage_history_db_open_async         (TriageHistoryDb            *self,
                                                           GCancellable               *cancellable,
                                                           GAsyncReadyCallback         callback,
                                                           gpointer                    user_data);
gboolean             triage_history_db_open_finish        (TriageHistoryDb            *self,
                                                           GAsyncResult               *result,
                                                           GError                    **error);

void                 triage_history_db_query_async        (TriageHistoryDb            *self,
                                                           const TriageHistoryFilter  *filter,
                                                           GCancellable               *cancellable,
                                                           GAsyncReadyCallback         callback,
                                                           gpointer                    user_data);
GArray              *triage_history_db_query_finish       (TriageHistoryDb            *self,
                                                           GAsyncResult               *result,
                                                           GError                    **error);

void                 triage_history_db_fetch_async        (TriageHistoryDb            *self,
                                                           const gint64               *rowids,
                                                           guint                       n_rowids,
                                                           GCancellable               *cancellable,
                                                           GAsyncReadyCallback         callback,
                                                           gpointer                    user_data);
GPtrArray           *triage_history_db_fetch_finish       (TriageHistoryDb            *self,
                                                           GAsyncResult               *result,
                                                           GError                    **error);
gboolean             triage_history_db_check_changed      (TriageHistoryDb            *self);

void                 triage_history_db_facets_async       (TriageHistoryDb            *self,
                                                           GCancellable               *cancellable,
                                                           GAsyncReadyCallback         callback,
                                                           gpointer                    user_data);
TriageHistoryFacets *triage_history_db_facets_finish      (TriageHistoryDb            *self,
                                                           GAsyncResult               *result,
                                                           GError                    **error);

void                 triage_history_db_load_notification_async  (TriageHistoryDb       *self,
                                                                const char            *notification_id,
                                                                GCancellable          *cancellable,
                                                                GAsyncReadyCallback    callback,
                                                                gpointer               user_data);
AtpNotification     *triage_history_db_load_notification_finish (TriageHistoryDb       *self,
                                                                GAsyncResult          *result,
                                                                GError               **error);

void                 triage_history_db_stats_async        (TriageHistoryDb            *self,
                                                           const TriageHistoryFilter  *filter,
                                                           GDateTime                  *first_day,
                                                           guint                       n_days,
                                                           GCancellable               *cancellable,
                                                           GAsyncReadyCallback         callback,
                                                           gpointer                    user_data);
TriageHistoryStats  *triage_history_db_stats_finish       (TriageHistoryDb            *self,
                                                           GAsyncResult               *result,
                                                           GError                    **error);

void                 triage_history_db_load_read_async    (TriageHistoryDb            *self,
                                                           GCancellable               *cancellable,
                                                           GAsyncReadyCallback         callback,
                                                           gpointer                    user_data);
GHashTable          *triage_history_db_load_read_finish   (TriageHistoryDb            *self,
                                                           GAsyncResult               *result,
                                                           GError                    **error);
void                 triage_history_db_set_read_async     (TriageHistoryDb            *self,
                                                           const char                 *notification_id,
                                                           gboolean                    read,
                                                           GCancellable               *cancellable,
                                                           GAsyncReadyCallback         callback,
                                                           gpointer                    user_data);
gboolean             triage_history_db_set_read_finish    (TriageHistoryDb            *self,
                                                           GAsyncResult               *result,
                                                           GError                    **error);

G_END_DECLS
