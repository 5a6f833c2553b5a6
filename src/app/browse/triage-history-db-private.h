/* triage-history-db-private.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-history-db.h"
#include "triage-history-private.h"

G_BEGIN_DECLS

/*
 * TriageHistoryDb spans three files: triage-history-db.c (the object, its
 * two worker threads, opening, queries, pages and one request as received),
 * triage-history-db-summary.c (what the filters offer and the chart's
 * statistics) and triage-history-db-read-marks.c (which requests were
 * opened). Every operation runs on a worker through
 * triage_history_db_run().
 */

struct _TriageHistoryDb
{
  GObject       parent_instance;

  char         *path;
  GThreadPool  *pool;       /* one thread: the only user of rw and query */
  GThreadPool  *page_pool;  /* one thread: the only user of pages and fetch */
  sqlite3      *rw;         /* worker thread */
  sqlite3      *query;      /* worker thread */
  sqlite3      *pages;      /* page thread, once open */
  sqlite3_stmt *fetch;      /* page thread */
  sqlite3      *main;       /* main thread, once open */
  gint64        data_version;
  gboolean      is_open;    /* main thread */
};

typedef void (*HistoryFunc) (TriageHistoryDb *self,
                             GTask           *task,
                             gpointer         task_data);

void triage_history_db_run                (TriageHistoryDb     *self,
                                           GThreadPool         *pool,
                                           HistoryFunc          func,
                                           gpointer             task_data,
                                           GDestroyNotify       task_data_destroy,
                                           gpointer             source_tag,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data);
void triage_history_db_return_query_error (GTask               *task,
                                           GError              *error);

G_END_DECLS
