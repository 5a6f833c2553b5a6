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
 * finalized by the caller; reset it when done). NULL when the database would
 * not prepare it (an I/O error or a damaged file met reading the schema, no
 * memory, a schema changed under the server): the functions below take that
 * NULL as a statement whose step fails (SQLITE_ERROR, the reason in
 * sqlite3_errmsg ()), so each caller's failure path is the one it has for a
 * failed step. */
struct sqlite3_stmt *triage_store_sqlite_statement  (TriageStoreSqlite *self,
                                                     const char        *sql);
/* sqlite3_step (), SQLITE_ERROR for a NULL statement; a damaged file it
 * meets is said once and makes the store not ready (triage_store_check ()). */
int                  triage_store_sqlite_step        (TriageStoreSqlite   *self,
                                                      struct sqlite3_stmt *stmt);
/* Resets and unbinds a statement of triage_store_sqlite_statement() after use. */
void                 triage_store_sqlite_done        (struct sqlite3_stmt *stmt);
void                 triage_store_sqlite_bind_int    (struct sqlite3_stmt *stmt,
                                                      int                  index,
                                                      int                  value);
void                 triage_store_sqlite_bind_int64  (struct sqlite3_stmt *stmt,
                                                      int                  index,
                                                      gint64               value);
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
