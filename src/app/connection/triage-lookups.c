/* triage-lookups.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-lookups"

#include "triage-lookups.h"

/*
 * Asking the server what became of requests.
 *
 * After every (re)connect the stream hands over the server's whole pending
 * set; a request the inbox still holds that is not in it was settled while
 * the app was away (answered on another device, expired, withdrawn). Each is
 * looked up, a few at a time (a day away can mean thousands, and a server
 * limits how fast one client may ask), and ::settled says what became of it;
 * ::gone, that the server no longer has it (or shows it to us: 404
 * NOTIFICATION_NOT_FOUND), so that what became of it is not known.
 * A lookup that fails for now (busy, limited, unreachable, a 404 that names
 * no notification: a proxy's page, a wrong base path) says nothing: the
 * request stays in the inbox and is asked about again later. While the
 * server has asked the client to wait (a 429's or 503's Retry-After, to a
 * lookup or to an answer: atp_client_is_held ()) none is asked at all;
 * they are asked once the client says the wait is over
 * (notify::hold-until): one alone first, the rest once the server has
 * answered it (sent all at once against a rate limit, all but the first
 * met another 429 and waited again; the outbox does the same with the
 * answers). Our own queued
 * answers are the outbox's to settle, so those are not looked up; one the
 * server refused for good is never sent again, so its request is.
 *
 * A request answered elsewhere is looked up once more for the answer itself
 * (::response-found), which the history keeps and the status does not say.
 *
 * Everything runs on the client of the current connection; a new client
 * (or none) drops what was asked of the last one.
 */

struct _TriageLookups
{
  GObject           parent_instance;

  TriageInboxModel *inbox;
  TriageOutbox     *outbox;
  AtpClient        *client;
  GCancellable     *cancellable;     /* the current client's lookups */

  GQueue            waiting;         /* ids not yet asked about */
  GPtrArray        *later;           /* ids whose lookup failed for now */
  GPtrArray        *fetches;         /* ids whose answer is to be fetched */
  guint             running;         /* lookups on their way */
  guint             fetching;        /* fetches on their way */
  gboolean          probing;         /* since the server's wait: one at a time, till one is answered */
  guint             retry_id;        /* later's next round */
  gulong            hold_handler;    /* the client's notify::hold-until */
};

G_DEFINE_FINAL_TYPE (TriageLookups, triage_lookups, G_TYPE_OBJECT)

enum {
  SETTLED,
  GONE,
  RESPONSE_FOUND,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

/* What an asynchronous lookup needs back: the lookups and the id. */
typedef struct
{
  TriageLookups *self;
  char          *notification_id;
} Lookup;

static Lookup *
lookup_new (TriageLookups *self,
            const char    *notification_id)
{
  Lookup *lookup = g_new0 (Lookup, 1);

  lookup->self = g_object_ref (self);
  lookup->notification_id = g_strdup (notification_id);

  return lookup;
}

static void
lookup_free (Lookup *lookup)
{
  g_object_unref (lookup->self);
  g_free (lookup->notification_id);
  g_free (lookup);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Lookup, lookup_free)

static void run (TriageLookups *self);

static gboolean
retry_cb (gpointer data)
{
  TriageLookups *self = data;

  self->retry_id = 0;
  for (guint i = 0; i < self->later->len; i++)
    g_queue_push_tail (&self->waiting, g_strdup (self->later->pdata[i]));
  g_ptr_array_set_size (self->later, 0);
  run (self);

  return G_SOURCE_REMOVE;
}

/* The server's wait (a 429's or 503's Retry-After, to a lookup or to an
 * answer: the server's, not one request's) started, lengthened or ended:
 * the lookups held back go once it is over. */
static void
on_client_hold_changed (TriageLookups *self)
{
  if (atp_client_is_held (self->client))
    self->probing = TRUE;
  else
    run (self);
}

/* A lookup or fetch of the current client came back: once the server has
 * answered one (a request, or its 404) after its wait, the rest may go
 * together again; while they fail for now they go one at a time. */
static void
came_back (TriageLookups *self,
           gboolean       server_answered)
{
  if (server_answered)
    self->probing = FALSE;
  run (self);
}

/* Forgets the lookups not yet started; those running go on. */
static void
clear_waiting (TriageLookups *self)
{
  g_queue_clear_full (&self->waiting, g_free);
  g_ptr_array_set_size (self->later, 0);
  g_clear_handle_id (&self->retry_id, g_source_remove);
}

static void
settled_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(Lookup) lookup = user_data;
  TriageLookups *self = lookup->self;
  g_autoptr(AtpNotification) notification = NULL;
  g_autoptr(GError) error = NULL;
  AtpStatus status = ATP_STATUS_RESPONDED;
  GDateTime *when = NULL;
  AtpResponse *response = NULL;
  const char *reason = NULL;

  notification = atp_client_get_notification_finish (ATP_CLIENT (object), result, &error);
  /* A lookup of a client since let go: its lookups went with it. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      ATP_CLIENT (object) != self->client)
    return;

  self->running--;
  came_back (self, notification != NULL || atp_error_is_not_found (error));

  if (notification != NULL && atp_status_is_terminal (notification->status))
    {
      status = notification->status;
      response = notification->response;
      reason = notification->reason;
      if (status == ATP_STATUS_RESPONDED && response != NULL)
        when = response->responded_at;
      else if (status == ATP_STATUS_EXPIRED)
        when = notification->deadline;
    }
  else if (notification != NULL)
    return;   /* pending again by now: the stream brings it */
  else if (atp_error_is_not_found (error))
    {
      /* The server no longer has it, or no longer shows it to us (ATP's
       * 403 for it; a token of another user now): it left the pending set,
       * but whether it was answered, expired or withdrawn is not known
       * (settled, then forgotten by the server's retention). Said so. */
      g_debug ("What became of %s is not known: %s", lookup->notification_id, error->message);
      g_signal_emit (self, signals [GONE], 0, lookup->notification_id);
      return;
    }
  else
    {
      /* Busy, limited, unreachable, a 404 not the server's own: nothing is
       * known yet, so nothing is said; it stays in the inbox and is asked
       * about again. */
      g_debug ("Will ask again what became of %s: %s", lookup->notification_id, error->message);
      g_ptr_array_add (self->later, g_strdup (lookup->notification_id));
      if (self->retry_id == 0)
        self->retry_id = g_timeout_add_seconds (TRIAGE_LOOKUPS_RETRY_SECONDS, retry_cb, self);
      return;
    }

  g_signal_emit (self, signals [SETTLED], 0, lookup->notification_id, (int) status, when, response,
                 reason);
}

static void
response_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(Lookup) lookup = user_data;
  g_autoptr(AtpNotification) notification = NULL;
  g_autoptr(GError) error = NULL;

  notification = atp_client_get_notification_finish (ATP_CLIENT (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      ATP_CLIENT (object) != lookup->self->client)
    return;

  lookup->self->fetching--;
  came_back (lookup->self, notification != NULL || atp_error_is_not_found (error));
  if (notification == NULL)
    {
      g_debug ("Could not learn the answer to %s: %s", lookup->notification_id, error->message);
      return;
    }

  if (notification->response != NULL)
    g_signal_emit (lookup->self, signals [RESPONSE_FOUND], 0, lookup->notification_id,
                   notification->response, notification);
}

static void
run (TriageLookups *self)
{
  guint limit = TRIAGE_LOOKUPS_MAX_RUNNING;

  if (self->client == NULL || (g_queue_is_empty (&self->waiting) && self->fetches->len == 0) ||
      atp_client_is_held (self->client))
    return;

  /* After the server's wait: one alone (a lookup before a fetch). */
  if (self->probing)
    {
      if (self->running + self->fetching > 0)
        return;
      limit = 1;
    }

  while (self->running < limit && !g_queue_is_empty (&self->waiting))
    {
      g_autofree char *id = g_queue_pop_head (&self->waiting);

      /* Settled meanwhile (a status update, our own answer on its way). */
      if (triage_inbox_model_lookup (self->inbox, id) == NULL ||
          triage_outbox_answer_queued (self->outbox, id))
        continue;

      self->running++;
      atp_client_get_notification_async (self->client, id, self->cancellable,
                                         settled_cb, lookup_new (self, id));
    }

  while (self->fetches->len > 0 && (!self->probing || self->running + self->fetching == 0))
    {
      g_autofree char *id = g_ptr_array_steal_index (self->fetches, 0);

      self->fetching++;
      atp_client_get_notification_async (self->client, id, self->cancellable,
                                         response_cb, lookup_new (self, id));
    }
}

/* GObject */

static void
triage_lookups_dispose (GObject *object)
{
  TriageLookups *self = (TriageLookups *)object;

  triage_lookups_set_client (self, NULL);
  g_clear_object (&self->inbox);
  g_clear_object (&self->outbox);

  G_OBJECT_CLASS (triage_lookups_parent_class)->dispose (object);
}

static void
triage_lookups_finalize (GObject *object)
{
  TriageLookups *self = (TriageLookups *)object;

  g_queue_clear_full (&self->waiting, g_free);
  g_clear_pointer (&self->later, g_ptr_array_unref);
  g_clear_pointer (&self->fetches, g_ptr_array_unref);

  G_OBJECT_CLASS (triage_lookups_parent_class)->finalize (object);
}

static void
triage_lookups_class_init (TriageLookupsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = triage_lookups_dispose;
  object_class->finalize = triage_lookups_finalize;

  /**
   * TriageLookups::settled:
   * @self: the lookups
   * @notification_id: a request that left the pending set while the app was away
   * @status: the #AtpStatus it ended in (%ATP_STATUS_RESPONDED when the
   *   server no longer knows it)
   * @when: (nullable): when it was settled, if the server says
   * @response: (nullable): the answer it got elsewhere, if the server gave it
   * @reason: (nullable): the service's reason for withdrawing it, if the
   *   server gave it (what the status update said, had the app been there)
   */
  signals [SETTLED] =
    g_signal_new ("settled", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 5,
                  G_TYPE_STRING, G_TYPE_INT,
                  G_TYPE_DATE_TIME | G_SIGNAL_TYPE_STATIC_SCOPE,
                  ATP_TYPE_RESPONSE | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * TriageLookups::gone:
   * @self: the lookups
   * @notification_id: a request the server answered 404
   *   NOTIFICATION_NOT_FOUND (or ATP's 403) for: no longer on it, what
   *   became of it unknown
   */
  signals [GONE] =
    g_signal_new ("gone", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * TriageLookups::response-found:
   * @self: the lookups
   * @notification_id: the request
   * @response: the answer it got (triage_lookups_fetch_response())
   * @notification: the request as the server has it now (what was asked,
   *   for saying what was answered where the request is no longer at hand)
   */
  signals [RESPONSE_FOUND] =
    g_signal_new ("response-found", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3,
                  G_TYPE_STRING, ATP_TYPE_RESPONSE | G_SIGNAL_TYPE_STATIC_SCOPE,
                  ATP_TYPE_NOTIFICATION | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
triage_lookups_init (TriageLookups *self)
{
  g_queue_init (&self->waiting);
  self->later = g_ptr_array_new_with_free_func (g_free);
  self->fetches = g_ptr_array_new_with_free_func (g_free);
}

/**
 * triage_lookups_new:
 * @inbox: the pending requests (a request no longer in it is not looked up)
 * @outbox: the answers given here (a request answered here is not looked up)
 *
 * Returns: (transfer full): lookups, without a client until one is set
 */
TriageLookups *
triage_lookups_new (TriageInboxModel *inbox,
                    TriageOutbox     *outbox)
{
  TriageLookups *self;

  g_return_val_if_fail (TRIAGE_IS_INBOX_MODEL (inbox), NULL);
  g_return_val_if_fail (TRIAGE_IS_OUTBOX (outbox), NULL);

  self = g_object_new (TRIAGE_TYPE_LOOKUPS, NULL);
  self->inbox = g_object_ref (inbox);
  self->outbox = g_object_ref (outbox);

  return self;
}

/**
 * triage_lookups_set_client:
 * @self: a #TriageLookups
 * @client: (nullable): the client of the current connection
 *
 * Every lookup of the last client is dropped (those running are cancelled).
 */
void
triage_lookups_set_client (TriageLookups *self,
                           AtpClient     *client)
{
  g_return_if_fail (TRIAGE_IS_LOOKUPS (self));
  g_return_if_fail (client == NULL || ATP_IS_CLIENT (client));

  if (client == self->client && client != NULL)
    return;

  clear_waiting (self);
  g_ptr_array_set_size (self->fetches, 0);
  self->running = self->fetching = 0;
  self->probing = FALSE;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->client != NULL)
    g_clear_signal_handler (&self->hold_handler, self->client);
  g_set_object (&self->client, client);
  if (client != NULL)
    {
      self->cancellable = g_cancellable_new ();
      self->hold_handler = g_signal_connect_object (client, "notify::hold-until",
                                                    G_CALLBACK (on_client_hold_changed), self,
                                                    G_CONNECT_SWAPPED);
    }
}

/**
 * triage_lookups_resynced:
 * @self: a #TriageLookups
 * @pending: (element-type AtpNotification): the server's whole pending set
 *
 * Looks up every request the inbox holds that is not in @pending and has no
 * answer of ours on its way (a refused one is not); the lookups not yet started are forgotten first
 * (this set is the newer question).
 */
void
triage_lookups_resynced (TriageLookups *self,
                         GPtrArray     *pending)
{
  g_autoptr(GHashTable) live = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) ids = NULL;

  g_return_if_fail (TRIAGE_IS_LOOKUPS (self));
  g_return_if_fail (pending != NULL);

  ids = triage_inbox_model_dup_ids (self->inbox);
  for (guint i = 0; i < pending->len; i++)
    {
      AtpNotification *notification = g_ptr_array_index (pending, i);

      g_hash_table_add (live, notification->id);
    }

  clear_waiting (self);
  for (guint i = 0; i < ids->len; i++)
    {
      if (g_hash_table_contains (live, ids->pdata[i]) ||
          triage_outbox_answer_queued (self->outbox, ids->pdata[i]))
        continue;

      g_queue_push_tail (&self->waiting, g_strdup (ids->pdata[i]));
    }
  run (self);
}

/**
 * triage_lookups_fetch_response:
 * @self: a #TriageLookups
 * @notification_id: a request answered elsewhere
 *
 * Asks the server for the answer the request got (once the server's wait,
 * if it asked for one, is over); ::response-found brings it. Nothing happens
 * without a client, and a failure is only logged.
 */
void
triage_lookups_fetch_response (TriageLookups *self,
                               const char    *notification_id)
{
  g_return_if_fail (TRIAGE_IS_LOOKUPS (self));
  g_return_if_fail (notification_id != NULL);

  if (self->client == NULL)
    return;

  g_ptr_array_add (self->fetches, g_strdup (notification_id));
  run (self);
}

/**
 * triage_lookups_get_n_waiting:
 *
 * Returns: how many requests are still to be asked about (queued, running,
 *   or to be asked again)
 */
guint
triage_lookups_get_n_waiting (TriageLookups *self)
{
  g_return_val_if_fail (TRIAGE_IS_LOOKUPS (self), 0);

  return g_queue_get_length (&self->waiting) + self->later->len + self->running;
}
