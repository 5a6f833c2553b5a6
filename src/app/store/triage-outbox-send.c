/* triage-outbox-send.c — the outbox sends its answers and settles them by the replies
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-outbox"

#include "triage-outbox-private.h"
#include "triage-outbox-outcome.h"

/*
 * An answer goes while the app is online with a client, and what the
 * server's reply settles is stored before it may go again; what each reply
 * settles is said at the top of triage-outbox.c.
 */

/* After a failed send: the next try on the backoff (a try during the
 * server's wait sends nothing: the end of the wait flushes). */
static void
schedule_retry (TriageOutbox *self)
{
  if (!self->online)
    return;

  triage_outbox_retry_backoff (&self->retry);
}

/* The server's wait started, lengthened or ended (a 429's or 503's
 * Retry-After, to any request of the client): the queued answers go once
 * it is over. */
static void
on_client_hold_changed (TriageOutbox *self)
{
  if (atp_client_is_held (self->client))
    triage_outbox_retry_held (&self->retry);
  else
    triage_outbox_flush (self);
}

typedef struct
{
  TriageOutbox  *self;
  char          *notification_id;
  gint64         entry_id;
  TriageOutcome  outcome;
  gboolean       not_found;     /* gone: NOTIFICATION_NOT_FOUND, not a damaged row */
  char          *message;
} Settle;

static void
settle_free (Settle *settle)
{
  g_clear_object (&settle->self);
  g_free (settle->notification_id);
  g_free (settle->message);
  g_free (settle);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Settle, settle_free)

static void
complete_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(Settle) settle = user_data;
  TriageOutbox *self = settle->self;
  g_autoptr(GError) error = NULL;

  /* The server has settled it; even if recording that failed, it must not
   * be sent again in this session (a restart would resend, and the server
   * answers a resend with the same outcome). */
  if (!triage_store_outbox_complete_finish (TRIAGE_STORE (object), result, &error))
    g_warning ("Could not clear a settled answer from the outbox: %s", error->message);

  g_hash_table_remove (self->settling, settle->notification_id);
  g_hash_table_remove (self->entries, settle->notification_id);
  _triage_outbox_notify_pending (self);

  if (settle->outcome == TRIAGE_OUTCOME_ANSWERED)
    _triage_outbox_emit (self, TRIAGE_OUTBOX_SIGNAL_DELIVERED, settle->notification_id);
  else if (settle->not_found)
    _triage_outbox_emit (self, TRIAGE_OUTBOX_SIGNAL_GONE, settle->notification_id, settle->message);
  else
    _triage_outbox_emit (self, TRIAGE_OUTBOX_SIGNAL_CONFLICT, settle->notification_id,
                         settle->outcome, settle->message);
}

static void
failed_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(Settle) settle = user_data;
  TriageOutbox *self = settle->self;
  g_autoptr(GError) error = NULL;
  TriageOutboxEntry *entry;

  if (!triage_store_outbox_failed_finish (TRIAGE_STORE (object), result, &error))
    g_warning ("Could not record a failed delivery: %s", error->message);

  g_hash_table_remove (self->settling, settle->notification_id);
  entry = g_hash_table_lookup (self->entries, settle->notification_id);
  if (entry == NULL)
    return;

  entry->attempts++;
  g_free (entry->last_error);
  entry->last_error = g_strdup (settle->message);

  if (settle->outcome == TRIAGE_OUTCOME_REJECTED)
    {
      entry->state = TRIAGE_OUTBOX_FAILED;
      _triage_outbox_notify_pending (self);
      _triage_outbox_emit (self, TRIAGE_OUTBOX_SIGNAL_REJECTED, settle->notification_id, settle->message);
    }
  else
    schedule_retry (self);
}

static void
respond_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(Settle) settle = user_data;
  TriageOutbox *self = settle->self;
  /* Read before the calls below: their last argument steals @settle, and C
   * leaves the order in which arguments are evaluated open. */
  gint64 entry_id = settle->entry_id;
  g_autoptr(AtpResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  TriageOutcome outcome;

  response = atp_client_respond_finish (ATP_CLIENT (object), result, &error);
  /* A send of a client since let go (set_client () forgot it, and the
   * answer may be on its way again with the new one). */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  /* Not sent again until the store has recorded what the server said (the
   * store may be busy for seconds: a resync's saves): a flush meanwhile (a
   * reconnect, another answer's retry) sent a delivered answer again, which
   * was then settled twice (::delivered twice, the second finding no entry),
   * and a server that takes no resend as a retry answers it 409. */
  g_hash_table_remove (self->in_flight, settle->notification_id);
  g_hash_table_add (self->settling, g_strdup (settle->notification_id));

  /* Settled or refused for good, it was taken: after a wait, the rest go. */
  outcome = response != NULL ? TRIAGE_OUTCOME_ANSWERED : triage_outbox_outcome_for_error (error);
  if (outcome != TRIAGE_OUTCOME_NONE && triage_outbox_retry_taken (&self->retry))
    triage_outbox_flush (self);

  if (response != NULL)
    {
      /* The history says who answered as the server recorded it (the user
       * the token or the local socket stands for). */
      const char *responder = response->responder_id && *response->responder_id
                              ? response->responder_id : NULL;

      triage_outbox_retry_reset (&self->retry);
      settle->outcome = TRIAGE_OUTCOME_ANSWERED;
      triage_store_outbox_complete_async (self->store, entry_id, TRIAGE_OUTCOME_ANSWERED,
                                          responder, NULL, NULL, complete_cb,
                                          g_steal_pointer (&settle));
      return;
    }

  settle->message = g_strdup (error->message);

  if (outcome != TRIAGE_OUTCOME_NONE && outcome != TRIAGE_OUTCOME_REJECTED)
    {
      g_debug ("Answer to %s settled by a conflict: %s", settle->notification_id, error->message);
      settle->outcome = outcome;
      settle->not_found = atp_error_is_not_found (error);
      triage_store_outbox_complete_async (self->store, entry_id, outcome,
                                          NULL, NULL, NULL, complete_cb, g_steal_pointer (&settle));
      return;
    }

  if (outcome == TRIAGE_OUTCOME_REJECTED)
    {
      g_message ("The server refused the answer to %s: %s", settle->notification_id, error->message);
      settle->outcome = TRIAGE_OUTCOME_REJECTED;
      triage_store_outbox_failed_async (self->store, entry_id, TRUE, error->message,
                                        NULL, failed_cb, g_steal_pointer (&settle));
      return;
    }

  g_debug ("Answer to %s not sent yet: %s", settle->notification_id, error->message);
  settle->outcome = TRIAGE_OUTCOME_NONE;
  triage_store_outbox_failed_async (self->store, entry_id, FALSE, error->message,
                                    NULL, failed_cb, g_steal_pointer (&settle));
}

void
_triage_outbox_send_entry (TriageOutbox      *self,
                           TriageOutboxEntry *entry)
{
  Settle *settle;

  if (!self->online || self->client == NULL || entry->state != TRIAGE_OUTBOX_QUEUED ||
      g_hash_table_contains (self->in_flight, entry->notification_id) ||
      g_hash_table_contains (self->settling, entry->notification_id))
    return;

  /* The server asked the client to wait: the answer stays queued, and goes
   * with the others when the wait is over (sent then, it met the same 429
   * or 503 and waited a backoff of its own after it). */
  if (atp_client_is_held (self->client))
    return;

  if (!triage_outbox_retry_may_send (&self->retry, g_hash_table_size (self->in_flight)))
    return;

  settle = g_new0 (Settle, 1);
  settle->self = g_object_ref (self);
  settle->notification_id = g_strdup (entry->notification_id);
  settle->entry_id = entry->id;

  g_hash_table_add (self->in_flight, g_strdup (entry->notification_id));
  atp_client_respond_async (self->client, entry->notification_id, entry->action_id,
                            entry->response_data, self->cancellable, respond_cb, settle);
}

static int
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  const TriageOutboxEntry *ea = a;
  const TriageOutboxEntry *eb = b;

  return (ea->id > eb->id) - (ea->id < eb->id);
}

/**
 * triage_outbox_flush:
 * @self: a #TriageOutbox
 *
 * Sends every queued answer not already on its way, oldest first (when online).
 */
void
triage_outbox_flush (TriageOutbox *self)
{
  g_autoptr(GList) values = NULL;

  g_return_if_fail (TRIAGE_IS_OUTBOX (self));

  if (!self->online || self->client == NULL)
    return;

  triage_outbox_retry_cancel (&self->retry);

  values = g_list_sort (g_hash_table_get_values (self->entries), compare_entries);
  for (GList *l = values; l != NULL; l = l->next)
    _triage_outbox_send_entry (self, l->data);
}

/* The client and the connection */

/**
 * triage_outbox_set_client:
 * @self: a #TriageOutbox
 * @client: (nullable): the client to send with
 *
 * Sends in flight with the previous client are cancelled (they stay queued).
 */
void
triage_outbox_set_client (TriageOutbox *self,
                          AtpClient    *client)
{
  g_return_if_fail (TRIAGE_IS_OUTBOX (self));
  g_return_if_fail (client == NULL || ATP_IS_CLIENT (client));

  if (self->client == client)
    return;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  g_hash_table_remove_all (self->in_flight);
  triage_outbox_retry_taken (&self->retry);
  if (self->client != NULL)
    g_clear_signal_handler (&self->hold_handler, self->client);
  g_set_object (&self->client, client);
  if (client != NULL)
    self->hold_handler = g_signal_connect_object (client, "notify::hold-until",
                                                  G_CALLBACK (on_client_hold_changed), self,
                                                  G_CONNECT_SWAPPED);
  triage_outbox_retry_reset (&self->retry);

  triage_outbox_flush (self);
}

/**
 * triage_outbox_set_online:
 * @self: a #TriageOutbox
 * @online: whether the client is connected
 *
 * Going online sends whatever is queued.
 */
void
triage_outbox_set_online (TriageOutbox *self,
                          gboolean      online)
{
  g_return_if_fail (TRIAGE_IS_OUTBOX (self));

  online = !!online;
  if (self->online == online)
    return;

  self->online = online;
  if (online)
    {
      triage_outbox_retry_reset (&self->retry);
      triage_outbox_flush (self);
    }
  else
    triage_outbox_retry_cancel (&self->retry);
}
