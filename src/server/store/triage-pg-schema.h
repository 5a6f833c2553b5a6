/* triage-pg-schema.h — the PostgreSQL backend's schema and its migrations
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-pg-connection.h"

G_BEGIN_DECLS

/* Advisory lock keys (per database): "triage" followed by a number. */
#define TRIAGE_PG_MIGRATION_LOCK G_GINT64_CONSTANT (0x7472696167650001)
#define TRIAGE_PG_EVENT_LOCK     G_GINT64_CONSTANT (0x7472696167650002)

/* The channel every server LISTENs on for new events. */
#define TRIAGE_PG_EVENT_CHANNEL  "triage_events"

int                 triage_pg_schema_version   (void);
const char * const *triage_pg_schema_relations (void);
char               *triage_pg_schema_lock_probe (void);
gboolean            triage_pg_migrate          (TriagePgConnection *conn,
                                                GError            **error);

G_END_DECLS
