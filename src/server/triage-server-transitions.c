/* triage-server-transitions.c — a request's changes counted and told, and the deadline timer
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A change of a request's status is published, counted in the metrics once
 * its batch committed, and (an end) told to the service's webhook; the
 * deadline timer expires what is overdue and waits for the next deadline,
 * this server's or, with a shared database, another's.
 */

#define G_LOG_DOMAIN "triage-server-notify"

#include <string.h>

#include "triage-metrics.h"
#include "triage-server-protocol.h"

/* Expiries whose batch was not stored, or a next deadline the database did
 * not tell, are looked for again after this. */
#define EXPIRY_RETRY_MS  1000

static gboolean
reschedule_idle (gpointer data)
{
  TriageServer *self = data;

  self->reschedule_source = 0;
  triage_server_reschedule (self);
  return G_SOURCE_REMOVE;
}

/* Every committed event, from this server or (shared store) another: a
 * status update may end a long-poll here, and a notification from another
 * server may have a deadline this one's timer must know. */
void
triage_server_event_seen (TriageServer         *self,
                          const TriageEventRow *event)
{
  if (event->notification_id == NULL)
    return;
  if (g_str_equal (event->type, "status_update"))
    triage_server_wake_waiters (self, event->notification_id);
  /* A notification with a deadline says so in its JSON (a "deadline" key
   * elsewhere in it only costs a needless look). */
  else if (triage_store_is_shared (self->store) && self->reschedule_source == 0 &&
           strstr (event->data, "\"deadline\":") != NULL)
    self->reschedule_source = g_idle_add (reschedule_idle, self);
}

/* A creation or an end to count once it is stored. */
typedef struct
{
  int    protocol;
  int    status;
  gint64 created_at;
  gint64 now;
} Counted;

static void
counted_stored (gpointer data,
                gboolean committed)
{
  Counted *counted = data;

  if (committed)
    triage_metrics_request (counted->protocol, counted->status, counted->created_at,
                            counted->now);
  g_free (counted);
}

/* triage_metrics_request () once the batch that holds the change has
 * committed (at once when none is open): a batch that fails is answered
 * 503 and posted or answered again, and was counted twice. */
void
triage_server_count_when_stored (TriageServer *self,
                                 int           protocol,
                                 int           status,
                                 gint64        created_at,
                                 gint64        now)
{
  Counted *counted = g_new (Counted, 1);

  *counted = (Counted) { protocol, status, created_at, now };
  triage_store_after_commit (self->store, counted_stored, counted);
}

void
triage_server_changed (TriageServer *self,
                       const char   *id,
                       int           status,
                       const char   *reason)
{
  g_autoptr(TriageNotificationRow) row = NULL;
  g_autoptr(GError) error = NULL;

  triage_server_publish (self, id, -1, status, reason, NULL);
  if (status != ATP_STATUS_RESPONDED && status != ATP_STATUS_EXPIRED &&
      status != ATP_STATUS_INVALIDATED)
    return;
  /* An end: read once, for the metrics and the service's webhook. The end is
   * stored with its webhook's delivery or not at all: a read that failed
   * fails the batch (the caller's answer is then 503, a deadline's expiry is
   * tried again), as a committed end whose delivery was never queued would
   * never be sent. */
  row = triage_store_get_notification (self->store, id, &error);
  if (row == NULL)
    {
      if (error != NULL)
        {
          triage_server_fail_change (self, error, "the end of notification %s: its webhook "
                                     "cannot be queued", id);
        }
      return;
    }
  triage_server_count_when_stored (self, row->protocol, status, row->created_at, g_get_real_time ());
  triage_server_webhook_changed (self, row, status, reason);
}

static gboolean
deadline_fired (gpointer data)
{
  TriageServer *self = data;

  self->deadline_source = 0;
  triage_server_reschedule (self);
  return G_SOURCE_REMOVE;
}

/* The batch of expiries is done: when it was not stored (the database
 * failed, or an expiry's webhook could not be queued with it), the
 * deadlines it passed are still passed, and the timer (set from what the
 * batch saw: those rows expired) would not come back to them. */
static void
expiries_done (gpointer data,
               gboolean committed)
{
  TriageServer *self = data;

  if (committed)
    return;
  g_clear_handle_id (&self->deadline_source, g_source_remove);
  self->deadline_source = g_timeout_add (EXPIRY_RETRY_MS, deadline_fired, self);
}

/* Expires what is overdue and sets the timer for the next deadline. */
void
triage_server_reschedule (TriageServer *self)
{
  gint64 now = g_get_real_time ();
  g_auto(GStrv) expired = NULL;
  g_autoptr(GError) error = NULL;
  gint64 next;

  /* Nothing expires into a database being restored under the server: its
   * events and deliveries would take ids the restore is about to load, and
   * its keys would then fail to build (check_schema ()). Looked at again. */
  if (!triage_store_trust_schema (self->store, NULL))
    {
      g_clear_handle_id (&self->deadline_source, g_source_remove);
      self->deadline_source = g_timeout_add (EXPIRY_RETRY_MS, deadline_fired, self);
      return;
    }

  /* The reason is stored with each expiry, as a withdrawal's is: a read
   * says it to a client that was away when the status update went out. */
  expired = triage_store_expire_overdue (self->store, now, TRIAGE_SERVER_EXPIRY_REASON);
  for (guint i = 0; expired[i] != NULL; i++)
    triage_server_changed (self, expired[i], ATP_STATUS_EXPIRED, TRIAGE_SERVER_EXPIRY_REASON);
  if (expired[0] != NULL)
    triage_store_after_commit (self->store, expiries_done, self);

  g_clear_handle_id (&self->deadline_source, g_source_remove);
  next = triage_store_next_deadline (self->store, &error);
  if (error != NULL)
    {
      /* Not "no deadline left": the timer would never come back to them. */
      triage_log_failure ("cannot read the next deadline (looked for again in %d ms): %s",
                          EXPIRY_RETRY_MS, error->message);
      self->deadline_source = g_timeout_add (EXPIRY_RETRY_MS, deadline_fired, self);
    }
  else if (next > 0)
    {
      /* Still overdue: another server is expiring it (or answering it) right
       * now, and is done within its batch; with no other server, this one's
       * expiry was not written (a SQLite file another process holds): tried
       * again as a failed batch is, not every 20 ms while the file is held. */
      gint64 delay_ms = next > now ? (next - now) / 1000 + 1
                        : triage_store_is_shared (self->store) ? 2 * TRIAGE_STORE_BATCH_MAX_MS
                                                               : EXPIRY_RETRY_MS;

      self->deadline_source = g_timeout_add ((guint) MIN (delay_ms, G_MAXINT), deadline_fired, self);
    }
}
