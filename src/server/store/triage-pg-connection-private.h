/* triage-pg-connection-private.h — what the files of TriagePgConnection
 * share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-pg-connection.h"
#include "triage-pg-dial.h"

G_BEGIN_DECLS

#define TRIAGE_PG_DEFAULT_ANSWER_US \
  ((gint64) (TRIAGE_PG_STATEMENT_TIMEOUT_MS + TRIAGE_PG_ANSWER_GRACE_MS) * 1000)

struct _TriagePgConnection
{
  TriagePgLink *link;
  PGconn       *conn;
  char         *name;           /* the application name the database shows, unless the URI has one */
  char         *settings;       /* SQL run on every new connection */
  GHashTable   *prepared;       /* SQL → statement name on this connection */
  GArray       *kept;           /* TriagePgStatement: prepared on every new connection */
  guint         next_name;
  gint64        retry_at;       /* monotonic µs: no new connection before this */
  gint64        answer_us;      /* the wait for an answer */
  gboolean      patient;        /* no deadline: a schema migration */
  gboolean      cut;            /* its socket was shut down (a stall): it is lost */
  gboolean      renew;          /* its session is read-only: made again before its next statement */
  gboolean      probing;        /* it probes a locked database (triage-pg-link.c) */
  gboolean      hasty;          /* its lock_timeout is short: the database is locked */
  char         *calm_lock_timeout; /* the session's lock_timeout before */
  gint64        renewed_at;     /* monotonic µs: when it last was */
  guint         answer_timer;   /* a pipeline's answers awaited by the main loop */
  TriagePgDial *attempt;        /* the link's attempt, made in the background */
  guint         attempt_timer;  /* its deadline */
  guint         pipeline_next;  /* the pipeline's statement whose results come next */
  gboolean      pipeline_seen;  /* a result of it was read */
  GError       *pipeline_failure;
};

char     *triage_pg_message_of              (const char          *text);
void      triage_pg_connection_forget       (TriagePgConnection  *self);
void      triage_pg_connection_attempt_clear (TriagePgConnection *self);
gboolean  triage_pg_connection_connect      (TriagePgConnection  *self,
                                             gboolean             at_start,
                                             GError             **error);
void      triage_pg_connection_set_stalled  (TriagePgConnection  *self,
                                             const char          *what,
                                             gint64               waited_us,
                                             GError             **error);
const char *triage_pg_connection_prepare   (TriagePgConnection  *self,
                                             const char          *sql,
                                             int                  n_params,
                                             GError             **error);
gboolean  triage_pg_result_error            (PGconn              *conn,
                                             gboolean             lost,
                                             const PGresult      *result,
                                             GError             **error);

G_END_DECLS
