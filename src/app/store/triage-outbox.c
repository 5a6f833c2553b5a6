/* triage-outbox.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-outbox"

#include <glib/gi18n.h>

#include "triage-outbox-private.h"

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

G_DEFINE_FINAL_TYPE (TriageOutbox, triage_outbox, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_N_PENDING,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];
static guint signals [TRIAGE_OUTBOX_N_SIGNALS];

void
_triage_outbox_notify_pending (TriageOutbox *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_N_PENDING]);
}

/* Emits @which with the arguments its class_init gives it. */
void
_triage_outbox_emit (TriageOutbox       *self,
                     TriageOutboxSignal  which,
                     ...)
{
  va_list args;

  va_start (args, which);
  g_signal_emit_valist (self, signals [which], 0, args);
  va_end (args);
}

/* The backoff's timer (triage-outbox-send.c arms it). */
static void
retry_cb (gpointer data)
{
  triage_outbox_flush (data);
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

  _triage_outbox_notify_pending (self);
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
  _triage_outbox_notify_pending (self);
  g_signal_emit (self, signals [TRIAGE_OUTBOX_SIGNAL_QUEUED], 0, entry->notification_id);
  g_task_return_boolean (task, TRUE);

  _triage_outbox_send_entry (self, kept);
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
  signals [TRIAGE_OUTBOX_SIGNAL_QUEUED] =
    g_signal_new ("queued", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * TriageOutbox::delivered:
   * @self: the outbox
   * @notification_id: the request
   *
   * The server confirmed the answer (200).
   */
  signals [TRIAGE_OUTBOX_SIGNAL_DELIVERED] =
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
  signals [TRIAGE_OUTBOX_SIGNAL_CONFLICT] =
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
  signals [TRIAGE_OUTBOX_SIGNAL_GONE] =
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
  signals [TRIAGE_OUTBOX_SIGNAL_REJECTED] =
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
