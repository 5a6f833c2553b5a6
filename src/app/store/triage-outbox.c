/* triage-outbox.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-outbox"

#include <glib/gi18n.h>

#include "triage-outbox.h"
#include "triage-outbox-outcome.h"
#include "triage-outbox-retry.h"

/*
 * Never lose an answer. An answer is written to the store's outbox (and on
 * disk, synchronous=FULL) before anything is sent; only then does the person
 * see it as sent. It is sent whenever the app is online, again after every
 * reconnect and on a backoff timer while a send fails, and it leaves the
 * outbox only when the server has settled it:
 *
 *  - 200: delivered (a resend of the same answer also gets 200: the server
 *    treats it as an idempotent retry, so a reply lost to a crash is harmless);
 *  - 409: answered elsewhere, expired or withdrawn; ::conflict tells the
 *    person what happened;
 *  - 500 NOTIFICATION_UNREADABLE: the server's row of the request is
 *    damaged; it settles as gone (::conflict), as no resend mends it;
 *  - 404 NOTIFICATION_NOT_FOUND (or ATP's 403 twin): the server no longer
 *    has the request (for us); it settles as gone (::gone), as a lookup
 *    would: answering again would meet the same 404;
 *  - 400/422, and a 409 of a code libatp does not know (another server's,
 *    ATP_ERROR_CONFLICT: it says no more than "a conflict"): refused for
 *    good; the entry stays, marked failed, and ::rejected says why
 *    (resending cannot help; another answer may).
 *
 * Anything else (no connection, 5xx, 429, 401, a 404 that names no
 * notification: a proxy's page, a wrong base path) leaves it queued, tried
 * again on a backoff. A 429's or 503's Retry-After (to any request of the
 * client: atp_client_is_held ()) holds every answer, one given meanwhile
 * too; at its end (notify::hold-until) the oldest goes alone, the rest once
 * the server took it (all at once, all but one met another 429).
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

G_DEFINE_FINAL_TYPE (TriageOutbox, triage_outbox, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_N_PENDING,
  N_PROPS
};

enum {
  QUEUED,
  DELIVERED,
  CONFLICT,
  GONE,
  REJECTED,
  N_SIGNALS
};

static GParamSpec *properties [N_PROPS];
static guint signals [N_SIGNALS];

static void send_entry (TriageOutbox      *self,
                        TriageOutboxEntry *entry);

static void
notify_pending (TriageOutbox *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_N_PENDING]);
}

static void
retry_cb (gpointer data)
{
  triage_outbox_flush (data);
}

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
  notify_pending (self);

  if (settle->outcome == TRIAGE_OUTCOME_ANSWERED)
    g_signal_emit (self, signals [DELIVERED], 0, settle->notification_id);
  else if (settle->not_found)
    g_signal_emit (self, signals [GONE], 0, settle->notification_id, settle->message);
  else
    g_signal_emit (self, signals [CONFLICT], 0, settle->notification_id,
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
      notify_pending (self);
      g_signal_emit (self, signals [REJECTED], 0, settle->notification_id, settle->message);
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

static void
send_entry (TriageOutbox      *self,
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
    send_entry (self, l->data);
}

/* Load */

/* The outbox's operations complete once the store has done its part. */
static GTask *
outbox_task_new (TriageOutbox        *self,
                 gpointer             source_tag,
                 GCancellable        *cancellable,
                 GAsyncReadyCallback  callback,
                 gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);

  return task;
}

static gboolean
outbox_task_finish (TriageOutbox  *self,
                    GAsyncResult  *result,
                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
list_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TriageOutbox *self = g_task_get_source_object (task);
  g_autoptr(GPtrArray) entries = NULL;
  GError *error = NULL;

  entries = triage_store_outbox_list_finish (TRIAGE_STORE (object), result, &error);
  if (entries == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  /* The store's server may have changed: its answers replace the last one's. */
  g_hash_table_remove_all (self->entries);
  for (guint i = 0; i < entries->len; i++)
    {
      TriageOutboxEntry *entry = g_ptr_array_index (entries, i);

      g_hash_table_replace (self->entries, g_strdup (entry->notification_id),
                            triage_outbox_entry_copy (entry));
    }

  notify_pending (self);
  triage_outbox_flush (self);
  g_task_return_boolean (task, TRUE);
}

/**
 * triage_outbox_load_async:
 * @self: a #TriageOutbox
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the outbox is loaded
 * @user_data: data for @callback
 *
 * Loads the answers left by an earlier run for the store's server (sent as
 * soon as the app is online), in place of those loaded before.
 */
void
triage_outbox_load_async (TriageOutbox        *self,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (TRIAGE_IS_OUTBOX (self));

  task = outbox_task_new (self, triage_outbox_load_async, cancellable, callback, user_data);
  triage_store_outbox_list_async (self->store, cancellable, list_cb, task);
}

gboolean
triage_outbox_load_finish (TriageOutbox  *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  return outbox_task_finish (self, result, error);
}

/* Submit */

static void
add_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TriageOutbox *self = g_task_get_source_object (task);
  g_autoptr(TriageOutboxEntry) entry = NULL;
  GError *error = NULL;
  TriageOutboxEntry *kept;

  entry = triage_store_outbox_add_finish (TRIAGE_STORE (object), result, &error);
  if (entry == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  /* On disk: from here on the answer is never lost. */
  kept = triage_outbox_entry_copy (entry);
  g_hash_table_replace (self->entries, g_strdup (entry->notification_id), kept);
  notify_pending (self);
  g_signal_emit (self, signals [QUEUED], 0, entry->notification_id);
  g_task_return_boolean (task, TRUE);

  send_entry (self, kept);
}

/**
 * triage_outbox_submit_async:
 * @self: a #TriageOutbox
 * @notification_id: the request answered
 * @action_id: the action chosen
 * @response_data: (nullable): the answer (validated by the caller); %NULL is JSON null
 * @cancellable: (nullable): a #GCancellable
 * @callback: called once the answer is stored durably
 * @user_data: data for @callback
 *
 * Stores the answer, then sends it (now if online, else on reconnect).
 * Completion means "stored": delivery is reported by ::delivered,
 * ::conflict or ::rejected.
 */
void
triage_outbox_submit_async (TriageOutbox        *self,
                            const char          *notification_id,
                            const char          *action_id,
                            JsonNode            *response_data,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  TriageOutboxEntry *existing;
  GTask *task;

  g_return_if_fail (TRIAGE_IS_OUTBOX (self));
  g_return_if_fail (notification_id != NULL);
  g_return_if_fail (action_id != NULL);

  task = outbox_task_new (self, triage_outbox_submit_async, cancellable, callback, user_data);

  /* One refused for good may be answered anew; one on its way may not. */
  existing = g_hash_table_lookup (self->entries, notification_id);
  if (existing != NULL && existing->state != TRIAGE_OUTBOX_FAILED)
    {
      g_task_return_new_error (task, TRIAGE_STORE_ERROR, TRIAGE_STORE_ERROR_ALREADY_ANSWERED,
                               "%s", _("This request has already been answered here"));
      g_object_unref (task);
      return;
    }

  /* The store's own cancellable is not the caller's: once asked, the answer is kept. */
  triage_store_outbox_add_async (self->store, notification_id, action_id, response_data,
                                 NULL, NULL, add_cb, task);
}

gboolean
triage_outbox_submit_finish (TriageOutbox  *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  return outbox_task_finish (self, result, error);
}

/* Accessors */

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

/**
 * triage_outbox_get_n_pending:
 *
 * Returns: how many answers wait to be delivered (failed ones not counted)
 */
guint
triage_outbox_get_n_pending (TriageOutbox *self)
{
  GHashTableIter iter;
  gpointer value;
  guint count = 0;

  g_return_val_if_fail (TRIAGE_IS_OUTBOX (self), 0);

  g_hash_table_iter_init (&iter, self->entries);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (((TriageOutboxEntry *) value)->state == TRIAGE_OUTBOX_QUEUED)
      count++;

  return count;
}

gboolean
triage_outbox_has_answer (TriageOutbox *self,
                          const char   *notification_id)
{
  g_return_val_if_fail (TRIAGE_IS_OUTBOX (self), FALSE);

  return g_hash_table_contains (self->entries, notification_id);
}

static gboolean
answer_in_state (TriageOutbox      *self,
                 const char        *notification_id,
                 TriageOutboxState  state)
{
  TriageOutboxEntry *entry = g_hash_table_lookup (self->entries, notification_id);

  return entry != NULL && entry->state == state;
}

/**
 * triage_outbox_answer_failed:
 *
 * Returns: whether the server refused the answer to @notification_id for
 *   good (kept, never sent again)
 */
gboolean
triage_outbox_answer_failed (TriageOutbox *self,
                             const char   *notification_id)
{
  g_return_val_if_fail (TRIAGE_IS_OUTBOX (self), FALSE);

  return answer_in_state (self, notification_id, TRIAGE_OUTBOX_FAILED);
}

/**
 * triage_outbox_answer_queued:
 *
 * Returns: whether an answer to @notification_id is on its way (stored, and
 *   sent until the server settles it); one refused for good is not: what
 *   becomes of its request is no longer the outbox's to say
 */
gboolean
triage_outbox_answer_queued (TriageOutbox *self,
                             const char   *notification_id)
{
  g_return_val_if_fail (TRIAGE_IS_OUTBOX (self), FALSE);

  return answer_in_state (self, notification_id, TRIAGE_OUTBOX_QUEUED);
}

/* GObject */

static void
triage_outbox_dispose (GObject *object)
{
  TriageOutbox *self = (TriageOutbox *)object;

  g_cancellable_cancel (self->cancellable);
  triage_outbox_retry_cancel (&self->retry);
  if (self->client != NULL)
    g_clear_signal_handler (&self->hold_handler, self->client);
  g_clear_object (&self->client);

  G_OBJECT_CLASS (triage_outbox_parent_class)->dispose (object);
}

static void
triage_outbox_finalize (GObject *object)
{
  TriageOutbox *self = (TriageOutbox *)object;

  g_clear_object (&self->cancellable);
  g_clear_object (&self->store);
  g_clear_pointer (&self->entries, g_hash_table_unref);
  g_clear_pointer (&self->in_flight, g_hash_table_unref);
  g_clear_pointer (&self->settling, g_hash_table_unref);

  G_OBJECT_CLASS (triage_outbox_parent_class)->finalize (object);
}

static void
triage_outbox_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TriageOutbox *self = TRIAGE_OUTBOX (object);

  switch (prop_id)
    {
    case PROP_N_PENDING:
      g_value_set_uint (value, triage_outbox_get_n_pending (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_outbox_class_init (TriageOutboxClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = triage_outbox_dispose;
  object_class->finalize = triage_outbox_finalize;
  object_class->get_property = triage_outbox_get_property;

  properties [PROP_N_PENDING] =
    g_param_spec_uint ("n-pending", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TriageOutbox::queued:
   * @self: the outbox
   * @notification_id: the request
   *
   * An answer is stored and will be sent.
   */
  signals [QUEUED] =
    g_signal_new ("queued", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * TriageOutbox::delivered:
   * @self: the outbox
   * @notification_id: the request
   *
   * The server confirmed the answer (200).
   */
  signals [DELIVERED] =
    g_signal_new ("delivered", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * TriageOutbox::conflict:
   * @self: the outbox
   * @notification_id: the request
   * @outcome: a #TriageOutcome: answered elsewhere, expired or invalidated;
   *   gone when the server can no longer read the request
   * @message: the server's message
   *
   * The server settled the request otherwise (409), or its row of it is
   * damaged (500 NOTIFICATION_UNREADABLE); the answer is dropped.
   */
  signals [CONFLICT] =
    g_signal_new ("conflict", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_UINT, G_TYPE_STRING);

  /**
   * TriageOutbox::gone:
   * @self: the outbox
   * @notification_id: the request
   * @message: the server's message
   *
   * The server no longer has the request, or no longer shows it to this
   * user (404 NOTIFICATION_NOT_FOUND, or ATP's 403
   * NOTIFICATION_ACCESS_DENIED; never a 404 without that code): the answer is
   * dropped, its outcome kept as %TRIAGE_OUTCOME_GONE, and what became of
   * the request is not known. Another answer would meet the same refusal.
   */
  signals [GONE] =
    g_signal_new ("gone", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);

  /**
   * TriageOutbox::rejected:
   * @self: the outbox
   * @notification_id: the request
   * @message: why
   *
   * The server refused the answer for good (4xx other than 401, 404, 429
   * and the 409s of ATP's codes, and ATP's 403 NOTIFICATION_ACCESS_DENIED).
   */
  signals [REJECTED] =
    g_signal_new ("rejected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
}

static void
triage_outbox_init (TriageOutbox *self)
{
  self->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) triage_outbox_entry_free);
  self->in_flight = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->settling = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->cancellable = g_cancellable_new ();
  triage_outbox_retry_init (&self->retry, retry_cb, self);
}

/**
 * triage_outbox_new:
 * @store: an open #TriageStore
 *
 * Returns: (transfer full): a new outbox; call triage_outbox_load_async() first
 */
TriageOutbox *
triage_outbox_new (TriageStore *store)
{
  TriageOutbox *self;

  g_return_val_if_fail (TRIAGE_IS_STORE (store), NULL);

  self = g_object_new (TRIAGE_TYPE_OUTBOX, NULL);
  self->store = g_object_ref (store);

  return self;
}
