/* triage-store-sqlite.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-store-private.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_STORE_SQLITE (triage_store_sqlite_get_type ())
G_DECLARE_FINAL_TYPE (TriageStoreSqlite, triage_store_sqlite, TRIAGE, STORE_SQLITE, TriageStore)

TriageStore *triage_store_sqlite_new (const char *path,
                                      GError    **error);

/* For the backend's other files: a prepared statement for @sql, kept (never
 * finalized by the caller; reset it when done). */
struct sqlite3_stmt *triage_store_sqlite_statement  (TriageStoreSqlite *self,
                                                     const char        *sql);
/* Resets and unbinds a statement of triage_store_sqlite_statement() after use. */
void                 triage_store_sqlite_done        (struct sqlite3_stmt *stmt);
/* Binds @text (NULL: SQL NULL) as parameter @index. */
void                 triage_store_sqlite_bind_text   (struct sqlite3_stmt *stmt,
                                                      int                  index,
                                                      const char          *text);
/* The same without a copy: @text must outlive the step and the done(). */
void                 triage_store_sqlite_bind_static (struct sqlite3_stmt *stmt,
                                                      int                  index,
                                                      const char          *text);
/* Column @column as a new string, NULL for SQL NULL. */
char                *triage_store_sqlite_column_text (struct sqlite3_stmt *stmt,
                                                      int                  column);
/* The AFP functions (triage-store-sqlite-afp.c). */
void                 triage_store_sqlite_afp_class_init (TriageStoreClass *store_class);
/* The operators' functions (triage-store-sqlite-ops.c). */
void                 triage_store_sqlite_ops_class_init (TriageStoreClass *store_class);
/* A page marked delivered at once (triage-store-sqlite-delivered.c). */
void                 triage_store_sqlite_delivered_class_init (TriageStoreClass *store_class);
int                  triage_store_sqlite_schema_version (void);

G_END_DECLS
