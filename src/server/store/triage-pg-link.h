/* triage-pg-link.h — what one server's connections to its PostgreSQL
 * database share: how to connect, the deadlines, and whether the database
 * answers
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <libpq-fe.h>

G_BEGIN_DECLS

typedef struct _TriagePgLink TriagePgLink;
typedef struct _TriagePgConnection TriagePgConnection;
typedef struct _TriagePgDial TriagePgDial;

/* What the database gets to answer when the URI does not say otherwise. */
#define TRIAGE_PG_STATEMENT_TIMEOUT_MS 10000
/* What the server waits for an answer on top of the session's
 * statement_timeout (whose cancel comes first when the database is alive). */
#define TRIAGE_PG_ANSWER_GRACE_MS      2000
#define TRIAGE_PG_CONNECT_TIMEOUT_S    10

gboolean      triage_pg_check_uri            (const char         *uri,
                                              GError            **error);
TriagePgLink *triage_pg_link_new             (const char         *uri,
                                              const char         *password,
                                              GError            **error);
TriagePgLink *triage_pg_link_ref             (TriagePgLink       *self);
void          triage_pg_link_unref           (TriagePgLink       *self);
void          triage_pg_link_connect_params  (TriagePgLink       *self,
                                              const char         *name,
                                              char             ***keywords,
                                              char             ***values);
gint64        triage_pg_link_connect_timeout (TriagePgLink       *self);
void          triage_pg_link_learn_hosts     (TriagePgLink       *self,
                                              PGconn             *conn);
void          triage_pg_link_look_up         (TriagePgLink       *self,
                                              TriagePgDial       *dial);
guint         triage_pg_link_get_connections (TriagePgLink       *self);
void          triage_pg_link_connected       (TriagePgLink       *self,
                                              const char         *host,
                                              const char         *port,
                                              const char         *address);
void          triage_pg_link_unanswered      (TriagePgLink       *self,
                                              const char         *host,
                                              const char         *port);
void          triage_pg_link_add             (TriagePgLink       *self,
                                              TriagePgConnection *member);
void          triage_pg_link_remove          (TriagePgLink       *self,
                                              TriagePgConnection *member);
void          triage_pg_link_stall           (TriagePgLink       *self,
                                              const char         *what);
gboolean      triage_pg_link_is_down         (TriagePgLink       *self);
void          triage_pg_link_let_go          (TriagePgLink       *self,
                                              TriagePgDial       *dial);
gboolean      triage_pg_link_may_attempt     (TriagePgLink       *self);
void          triage_pg_link_attempt_started (TriagePgLink       *self);
void          triage_pg_link_attempt_done    (TriagePgLink       *self,
                                              gboolean            answered);
void          triage_pg_link_set_lock_probe  (TriagePgLink       *self,
                                              const char         *sql);
const char   *triage_pg_link_get_lock_probe  (TriagePgLink       *self);
void          triage_pg_link_lock_waited     (TriagePgLink       *self,
                                              const char         *message);
void          triage_pg_link_set_locked      (TriagePgLink       *self,
                                              const char         *message);
const char   *triage_pg_link_get_locked      (TriagePgLink       *self);
guint64       triage_pg_link_get_lock_waits  (TriagePgLink       *self);
gboolean      triage_pg_link_take_probe      (TriagePgLink       *self);
void          triage_pg_link_lock_free       (TriagePgLink       *self);

gboolean      triage_pg_wait_socket          (int                 fd,
                                              gboolean            read,
                                              gboolean            write,
                                              gint64              deadline);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TriagePgLink, triage_pg_link_unref)

G_END_DECLS
