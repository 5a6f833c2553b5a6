/* triage-outbox-private.h — what the outbox's files share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-outbox.h"
#include "triage-outbox-retry.h"

G_BEGIN_DECLS

/*
 * TriageOutbox spans two files:
 *
 *   triage-outbox.c       the object, its answers: loading them, storing a new
 *                         one, what it holds
 *   triage-outbox-send.c  sending them with the client while online, and
 *                         settling each by the server's reply
 */

struct _TriageOutbox
{
  GObject       parent_instance;

  TriageStore  *store;
  AtpClient    *client;
  gboolean      online;

  GHashTable   *entries;       /* notification id -> TriageOutboxEntry (queued or failed) */
  GHashTable   *in_flight;     /* notification ids being sent */
  GHashTable   *settling;      /* ids the server answered, whose outcome is being stored */
  GCancellable *cancellable;   /* the sends of the current client */
  gulong        hold_handler;  /* the client's notify::hold-until */
  TriageOutboxRetry retry;     /* the next flush, and one at a time after a wait */
};

typedef enum
{
  TRIAGE_OUTBOX_SIGNAL_QUEUED,
  TRIAGE_OUTBOX_SIGNAL_DELIVERED,
  TRIAGE_OUTBOX_SIGNAL_CONFLICT,
  TRIAGE_OUTBOX_SIGNAL_GONE,
  TRIAGE_OUTBOX_SIGNAL_REJECTED,
  TRIAGE_OUTBOX_N_SIGNALS
} TriageOutboxSignal;

/* triage-outbox.c */
void _triage_outbox_notify_pending (TriageOutbox       *self);
void _triage_outbox_emit           (TriageOutbox       *self,
                                    TriageOutboxSignal  which,
                                    ...);

/* triage-outbox-send.c */
void _triage_outbox_send_entry     (TriageOutbox       *self,
                                    TriageOutboxEntry  *entry);

G_END_DECLS
