/* triage-server-retention.c — forgetting settled requests (--retain DAYS)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A request that settled (answered, expired or withdrawn) more than --retain
 * days ago is deleted, with its recipients and AFP review rows, so the
 * database of a busy server stops growing without end. It is checked at
 * start and every hour, just after the event log (kept a day) is pruned: no
 * event is left that refers to a request forgotten. A backlog (the first
 * run on an old database) goes in turns of FORGET_TURN requests, one group
 * commit each, with the main loop free between them.
 *
 * Forgotten is forgotten: the request's service gets 404 NOTIFICATION_NOT_FOUND
 * for it, and an AITP request id or AFP session of it may be used again.
 * The person's own record of a decision is the app's history, on their desk.
 */

#define G_LOG_DOMAIN "triage-server"

#include "triage-metrics.h"
#include "triage-server-private.h"

#define FORGET_TURN 500

typedef struct
{
  TriageServer *server;
  guint         count;
  gboolean      last;      /* fewer than a whole turn: nothing more to forget */
} Turn;

/* The turn's requests are gone for good once its batch committed; after the
 * last one, the log says how many went. */
static void
turn_committed (gpointer data,
                gboolean committed)
{
  Turn *turn = data;
  TriageServer *self = turn->server;

  if (committed)
    {
      triage_metrics_forgotten (turn->count);
      self->forgotten += turn->count;
    }
  if ((turn->last || !committed) && self->forgotten > 0)
    {
      g_message ("retention: forgot %" G_GUINT64_FORMAT " requests settled more than %d days ago",
                 self->forgotten, self->retain_days);
      self->forgotten = 0;
    }
  g_free (turn);
}

static gboolean
next_turn (gpointer data)
{
  TriageServer *self = data;

  self->forget_source = 0;
  triage_server_forget_settled (self);
  return G_SOURCE_REMOVE;
}

/* Forgets one turn of what settled more than --retain days ago; the next
 * turn comes once this one is written, while there may be more. */
void
triage_server_forget_settled (TriageServer *self)
{
  gint64 before;
  Turn *turn;
  guint count;

  if (self->retain_days <= 0 || self->forget_source != 0)
    return;
  before = g_get_real_time () - (gint64) self->retain_days * G_TIME_SPAN_DAY;
  count = triage_store_forget_settled (self->store, before, FORGET_TURN);
  /* Nothing (more) to forget: a round of whole turns still says how many
   * went, after its last commit. */
  if (count == 0 && !self->forget_round)
    return;
  turn = g_new0 (Turn, 1);
  turn->server = self;
  turn->count = count;
  turn->last = count < FORGET_TURN;
  self->forget_round = !turn->last;
  triage_store_after_commit (self->store, turn_committed, turn);
  if (!turn->last)
    self->forget_source = g_timeout_add (2 * TRIAGE_STORE_BATCH_MAX_MS, next_turn, self);
}
