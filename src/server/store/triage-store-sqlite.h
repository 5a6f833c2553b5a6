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
/* The AFP functions (triage-store-sqlite-afp.c). */
void                 triage_store_sqlite_afp_class_init (TriageStoreClass *store_class);

G_END_DECLS
