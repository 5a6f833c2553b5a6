/* triage-pg-listener.h — the PostgreSQL backend's second connection: it
 * listens for the events of every server and reads them in log order
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-pg-connection.h"
#include "triage-store.h"

G_BEGIN_DECLS

typedef struct _TriagePgListener TriagePgListener;

typedef void (*TriagePgEventFunc) (const TriageEventRow *event,
                                   gpointer              data);

/* Whether @backend_pid is one of this server's own connections (its
 * NOTIFY is of a batch handed on already). */
typedef gboolean (*TriagePgOwnFunc) (int      backend_pid,
                                     gpointer data);

TriagePgListener *triage_pg_listener_new   (TriagePgLink        *link,
                                            TriagePgEventFunc    func,
                                            TriagePgOwnFunc      own,
                                            gpointer             data,
                                            GError             **error);
void              triage_pg_listener_free  (TriagePgListener    *self);
void              triage_pg_listener_add_own (TriagePgListener  *self,
                                            GPtrArray           *events,
                                            gboolean             committed);
PGresult         *triage_pg_log_read       (TriagePgConnection  *conn,
                                            const char          *sql,
                                            int                  n_params,
                                            const TriagePgParam *params,
                                            GError             **error);

G_END_DECLS
