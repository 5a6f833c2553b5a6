/* triage-store-postgres.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-store-private.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_STORE_POSTGRES (triage_store_postgres_get_type ())
G_DECLARE_FINAL_TYPE (TriageStorePostgres, triage_store_postgres, TRIAGE, STORE_POSTGRES, TriageStore)

TriageStore *triage_store_postgres_new (const char *uri,
                                        const char *password,
                                        GError    **error);

G_END_DECLS
