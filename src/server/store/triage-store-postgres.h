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

/* For the backend's other files: runs @sql as every statement of the backend
 * does (NULL when it failed, which fails the open batch). */
struct pg_result *triage_store_postgres_query (TriageStorePostgres *self,
                                               const char          *sql,
                                               int                  n_params,
                                               const char * const  *params);
/* The same for a write that need not wait for the commit in flight (see
 * write_query () in triage-store-postgres.c). */
struct pg_result *triage_store_postgres_write (TriageStorePostgres *self,
                                               const char          *sql,
                                               int                  n_params,
                                               const char * const  *params);
/* The same, for the backend's other files: TRUE if it changed one row; TRUE if
 * it found a row; the first column of the first row as a number (0 when none). */
gint64            triage_store_postgres_number      (TriageStorePostgres *self,
                                                     const char          *sql,
                                                     int                  n_params,
                                                     const char * const  *params);
/* Keeps @users (taken), who notification @id goes to: they never change
 * (triage-store-postgres.c). */
void              triage_store_postgres_remember_recipients (TriageStorePostgres *self,
                                                             const char          *id,
                                                             GStrv                users);
/* The bits of @mask (statuses, protocols) as an int[] literal. */
char             *triage_store_postgres_int_array   (guint                mask);
/* The services kept once found (triage-store-postgres-services.c). */
GHashTable       *triage_store_postgres_services    (TriageStorePostgres *self);
/* The schema found incomplete (triage-store-postgres-ops.c): the next
 * request asks again whether it is whole. */
void              triage_store_postgres_distrust_schema (TriageStorePostgres *self);
/* The session found read-only (triage-store-postgres-ops.c): made again
 * before its next statement. */
void              triage_store_postgres_renew_session   (TriageStorePostgres *self);
/* The database taken as locked (a lock wait given up, not found free
 * since): its message, or NULL; and the waits given up so far. */
const char       *triage_store_postgres_get_locked      (TriageStorePostgres *self);
gboolean          triage_store_postgres_probe_lock      (TriageStorePostgres *self,
                                                         GError             **error);
guint64           triage_store_postgres_count_lock_waits (TriageStorePostgres *self);
/* Users and services (triage-store-postgres-services.c). */
void              triage_store_postgres_services_class_init (TriageStoreClass *store_class);
/* Reading notifications: one, an agent's request, a page (triage-store-postgres-reads.c). */
void              triage_store_postgres_reads_class_init (TriageStoreClass *store_class);
/* The newest event id, with every event up to it committed and none smaller
 * to come (triage-store-postgres.c). */
gint64            triage_store_postgres_last_event (TriageStorePostgres *self);
/* The AFP functions (triage-store-postgres-afp.c). */
void              triage_store_postgres_afp_class_init (TriageStoreClass *store_class);
/* The event log (triage-store-postgres-events.c). */
void              triage_store_postgres_events_class_init (TriageStoreClass *store_class);
/* The webhook queue (triage-store-postgres-webhooks.c). */
void              triage_store_postgres_webhooks_class_init (TriageStoreClass *store_class);
/* The operators' functions (triage-store-postgres-ops.c). */
void              triage_store_postgres_ops_class_init (TriageStoreClass *store_class);
/* A page marked delivered at once (triage-store-postgres-delivered.c). */
void              triage_store_postgres_delivered_class_init (TriageStoreClass *store_class);

G_END_DECLS
