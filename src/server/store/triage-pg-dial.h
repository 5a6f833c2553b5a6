/* triage-pg-dial.h — a new connection of the PostgreSQL backend, made and
 * set up by a thread of its own
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <libpq-fe.h>

G_BEGIN_DECLS

typedef struct _TriagePgDial TriagePgDial;

typedef enum
{
  TRIAGE_PG_DIAL_RUNNING,
  TRIAGE_PG_DIAL_MADE,        /* connected and set up */
  TRIAGE_PG_DIAL_REFUSED,     /* the connection failed (refused, bad password, no such host) */
  TRIAGE_PG_DIAL_FAILED,      /* connected, but its setup failed */
  TRIAGE_PG_DIAL_LATE,        /* a deadline passed (see triage_pg_dial_get_late) */
} TriagePgDialOutcome;

TriagePgDial       *triage_pg_dial_new           (char              **keywords,
                                                  char              **values,
                                                  gint64              connect_us,
                                                  const char         *setup_sql,
                                                  gint64              answer_us);
void                triage_pg_dial_look_up       (TriagePgDial       *self,
                                                  const char * const *hosts,
                                                  const char * const *ports,
                                                  const char         *last_host,
                                                  const char         *last_address);
void                triage_pg_dial_add_prepared  (TriagePgDial       *self,
                                                  const char         *name,
                                                  const char         *sql,
                                                  int                 n_params);
void                triage_pg_dial_start         (TriagePgDial       *self,
                                                  GSourceFunc         done,
                                                  gpointer            data);
TriagePgDialOutcome triage_pg_dial_wait          (TriagePgDial       *self);
TriagePgDialOutcome triage_pg_dial_check         (TriagePgDial       *self,
                                                  gint64             *deadline);
gboolean            triage_pg_dial_go_on         (TriagePgDial       *self,
                                                  GSourceFunc         done,
                                                  gpointer            data);
TriagePgDialOutcome triage_pg_dial_get_outcome   (TriagePgDial       *self,
                                                  GError            **error);
const char         *triage_pg_dial_get_late      (TriagePgDial       *self,
                                                  gint64             *waited_us);
PGconn             *triage_pg_dial_steal         (TriagePgDial       *self,
                                                  gint64             *statement_ms);
guint               triage_pg_dial_get_n_prepared (TriagePgDial      *self);
void                triage_pg_dial_get_prepared  (TriagePgDial       *self,
                                                  guint               i,
                                                  const char        **name,
                                                  const char        **sql);
gboolean            triage_pg_dial_get_unanswered (TriagePgDial      *self,
                                                  char              **host,
                                                  char              **port);
gboolean            triage_pg_dial_is_running    (TriagePgDial       *self);
TriagePgDial       *triage_pg_dial_ref           (TriagePgDial       *self);
void                triage_pg_dial_unref         (TriagePgDial       *self);
void                triage_pg_dial_abandon       (TriagePgDial       *self);

G_END_DECLS
