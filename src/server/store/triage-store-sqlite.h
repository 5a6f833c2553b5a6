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

G_END_DECLS
