/* triage-store-sqlite-private.h — the SQLite backend's instance, for its own files
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <sqlite3.h>

#include "triage-store-sqlite.h"

G_BEGIN_DECLS

/* At most this many events an INSERT (6 parameters each). */
#define TRIAGE_STORE_SQLITE_EVENTS_PER_STATEMENT 32

/* Which file a path named when it was opened (triage-store-sqlite-file.c). */
typedef struct
{
  guint64 dev;
  guint64 ino;                 /* 0: none */
} TriageStoreSqliteFileId;

struct _TriageStoreSqlite
{
  TriageStore parent_instance;
  sqlite3    *db;
  GHashTable *statements;      /* SQL → sqlite3_stmt, kept prepared */
  GHashTable *services;        /* "column\nvalue" → TriageServiceRow: they never change */
  GHashTable *recipients;      /* notification id → GStrv: who it goes to, never changes */
  GQueue     *recipients_age;  /* its keys, oldest first */
  GHashTable *service_recipients; /* service id → GStrv: who its requests go to, never changes */
  /* The INSERT of n events at [n - 1], once made (owned by statements). */
  sqlite3_stmt *insert_events[TRIAGE_STORE_SQLITE_EVENTS_PER_STATEMENT];
  gboolean    in_batch;        /* the batch's transaction is open (BEGIN … COMMIT/ROLLBACK) */
  gboolean    rolling_back;    /* our own ROLLBACK, not the database's */
  gboolean    lost;            /* the database rolled the batch's transaction back */
  GError     *batch_error;     /* then: the batch is not stored, whatever comes after */
  gboolean    refusing_writes; /* and its rest could not be held: query_only till its rollback */
  int         busy_timeout_ms; /* how long another process's lock is waited for */
  gint64      busy_since;      /* monotonic µs: the busy handler's first call for this lock */
  gboolean    held_elsewhere;  /* a wait for another process's lock ran out: none till it is free */
  char       *path;            /* the database file, and its WAL, */
  char       *wal_path;
  TriageStoreSqliteFileId file_id;  /* as they were opened */
  TriageStoreSqliteFileId wal_id;
  guint       file_watch;      /* the look at them, once a second (0: not open yet, or */
                               /* file_error set) */
  GError     *file_error;      /* either is not the one opened any more: why */
};

/* How long a statement waits for another connection's lock; once it ran
 * out, none waits till the lock is taken again (triage-store-sqlite-batch.c). */
#define TRIAGE_STORE_SQLITE_BUSY_TIMEOUT_MS 5000

/* The database file opened and its schema migrated (triage-store-sqlite-schema.c). */
gboolean triage_store_sqlite_open (TriageStoreSqlite *self,
                                   const char        *path,
                                   GError           **error);
/* A statement built for one query (not kept); NULL when the database would not
 * prepare it, as triage_store_sqlite_statement (). */
sqlite3_stmt *triage_store_sqlite_prepare (TriageStoreSqlite *self,
                                           const char        *sql);
/* Runs @sql (any number of statements, not kept prepared). */
gboolean triage_store_sqlite_exec (TriageStoreSqlite *self,
                                   const char        *sql,
                                   GError           **error);
/* The batch's transaction, rolled back by the database halfway
 * (triage-store-sqlite-batch.c): watched from the start, held (failed)
 * before the next statement, or its writes refused when it cannot be held,
 * till the batch's rollback ends it. */
void     triage_store_sqlite_watch_batch         (TriageStoreSqlite *self);
void     triage_store_sqlite_hold_lost_batch     (TriageStoreSqlite *self);
void     triage_store_sqlite_end_lost_batch      (TriageStoreSqlite *self);
/* Another process's lock is waited for once at most (triage-store-sqlite-batch.c):
 * the busy handler, and the batch's BEGIN that took the lock. */
void     triage_store_sqlite_watch_busy          (TriageStoreSqlite *self,
                                                  int                timeout_ms);
void     triage_store_sqlite_lock_taken          (TriageStoreSqlite *self);
/* The database file at @path (named before it is opened), watched once
 * open (triage-store-sqlite-file.c): removed or replaced under the server,
 * it takes no more writes and is not ready. */
void     triage_store_sqlite_name_file           (TriageStoreSqlite *self,
                                                  const char        *path);
void     triage_store_sqlite_watch_file          (TriageStoreSqlite *self);
void     triage_store_sqlite_unwatch_file        (TriageStoreSqlite *self);
gboolean triage_store_sqlite_file_check          (TriageStoreSqlite *self,
                                                  GError           **error);
/* A statement met a damaged file (@reason, SQLite's): said once when
 * serving; while it opens, the store's open fails with it. */
void     triage_store_sqlite_file_damaged        (TriageStoreSqlite *self,
                                                  const char        *reason);
/* Before it is opened: a file there is a SQLite database (or empty). */
gboolean triage_store_sqlite_file_is_sqlite      (const char        *path,
                                                  GError           **error);
/* Reading notifications (triage-store-sqlite-reads.c). */
void     triage_store_sqlite_reads_class_init    (TriageStoreClass *store_class);
/* Users and services (triage-store-sqlite-services.c). */
void     triage_store_sqlite_services_class_init (TriageStoreClass *store_class);
/* The event log (triage-store-sqlite-events.c). */
void     triage_store_sqlite_events_class_init   (TriageStoreClass *store_class);
/* The webhook queue (triage-store-sqlite-webhooks.c). */
void     triage_store_sqlite_webhooks_class_init (TriageStoreClass *store_class);

G_END_DECLS
