/* triage-draft-keeper.c — what a request view holds and was not sent, kept in memory and on disk
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-drafts"

#include "triage-draft-keeper.h"

/*
 * Drafts: what a request view's controls hold and was not sent, per request
 * (a JSON object the view gives and takes back: the decision view's action
 * id → editor draft, the AITP view's chosen options, the AFP view's
 * feedback). Kept in memory for as long as the view lives: when the person
 * opens another request, put back when they return (from the list, or as a
 * resync gives the request again).
 * With the app's store a draft is kept on disk too, so quitting, a crash or a
 * lost session loses nothing: written on the store's worker, half a second
 * after the last change (not at each key), at once when another request is
 * opened or the view goes, and read back when a request with no draft in
 * memory is opened, into the controls still empty.
 *
 * A request answered here or settled (the view turns read-only) keeps none:
 * the keeper drops it from memory and stops writing it, and the database
 * drops it by itself (its triggers: the answer entering the outbox, a settled
 * status or outcome), whichever connection records that, and refuses a write
 * that comes after. A write that fails (a full disk) leaves the draft in
 * memory and in the controls, and is said once in the log until one
 * succeeds again; every write's result is told by ::written, for the window
 * to tell the person (triage-window-drafts.c). Once any view's draft is
 * written again (the store's ::drafts-writable), those that failed are
 * written from memory: a request left meanwhile is not waiting for its view
 * to change again.
 */

#define DRAFT_DELAY_MS 500

struct _TriageDraftKeeper
{
  GObject                 parent_instance;

  gpointer                owner;             /* unowned; %NULL once closed */
  TriageDraftDupFunc      dup_entered;
  TriageDraftPutBackFunc  put_back;

  char                   *request_id;        /* the request shown, if any */
  gboolean                read_only;         /* it can no longer be answered */
  GHashTable             *drafts;            /* request id → JsonObject */
  TriageStore            *store;             /* nullable: drafts are kept in memory only */
  gulong                  writable_handler;  /* store::drafts-writable */
  GHashTable             *unwritten;         /* ids whose draft's last write failed */
  guint                   timeout;           /* the draft shown waits to be written */
  GCancellable           *cancellable;       /* reading back the draft of the request shown */
  gboolean                write_failed;      /* said once in the log until one succeeds */
};

G_DEFINE_FINAL_TYPE (TriageDraftKeeper, triage_draft_keeper, G_TYPE_OBJECT)

enum {
  WRITTEN,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static JsonObject *
dup_draft (TriageDraftKeeper *self)
{
  return self->owner != NULL ? self->dup_entered (self->owner) : NULL;
}

typedef struct
{
  TriageDraftKeeper *self;
  char              *id;
} Write;

static void
write_free (Write *write)
{
  g_object_unref (write->self);
  g_free (write->id);
  g_free (write);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Write, write_free)

static void
write_draft_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(Write) write = user_data;
  TriageDraftKeeper *self = write->self;
  g_autoptr(GError) error = NULL;

  if (triage_store_save_draft_finish (TRIAGE_STORE (object), result, &error))
    {
      self->write_failed = FALSE;
      g_hash_table_remove (self->unwritten, write->id);
    }
  else
    {
      /* The draft stays in the controls (and in memory once another request
       * is opened), written again at the next change or once a draft is
       * written again anywhere. */
      if (!self->write_failed)
        g_message ("A draft is kept in memory only, not on disk: %s", error->message);
      self->write_failed = TRUE;
      g_hash_table_add (self->unwritten, g_steal_pointer (&write->id));
    }

  g_signal_emit (self, signals [WRITTEN], 0, error);
}

/* Writes @draft (%NULL: none) as the stored draft of request @id. */
static void
write_draft (TriageDraftKeeper *self,
             const char        *id,
             JsonObject        *draft)
{
  g_autofree char *json = NULL;
  Write *write;

  if (draft != NULL)
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), draft);

      json = json_to_string (node, FALSE);
    }
  write = g_new0 (Write, 1);
  write->self = g_object_ref (self);
  write->id = g_strdup (id);
  triage_store_save_draft_async (self->store, id, json, NULL, write_draft_cb, write);
}

/* The store has room again: the drafts that could not be written are, from
 * the controls for the request shown, else from memory. One no longer in
 * memory was answered or settled since, and has none to keep. */
static void
drafts_writable_cb (TriageDraftKeeper *self)
{
  g_autoptr(GHashTable) unwritten = g_steal_pointer (&self->unwritten);
  GHashTableIter iter;
  const char *id;

  self->unwritten = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_iter_init (&iter, unwritten);
  while (g_hash_table_iter_next (&iter, (gpointer *) &id, NULL))
    {
      if (g_strcmp0 (id, self->request_id) == 0)
        {
          g_autoptr(JsonObject) draft = NULL;

          if (self->read_only || self->owner == NULL)
            continue;
          draft = dup_draft (self);
          write_draft (self, id, draft);
        }
      else if (g_hash_table_lookup (self->drafts, id) != NULL)
        write_draft (self, id, g_hash_table_lookup (self->drafts, id));
    }
}

static void
disconnect_store (TriageDraftKeeper *self)
{
  g_clear_signal_handler (&self->writable_handler, self->store);
  g_hash_table_remove_all (self->unwritten);
}

/**
 * triage_draft_keeper_flush:
 *
 * Writes the draft of the request shown now.
 */
void
triage_draft_keeper_flush (TriageDraftKeeper *self)
{
  g_autoptr(JsonObject) draft = NULL;

  g_return_if_fail (TRIAGE_IS_DRAFT_KEEPER (self));

  g_clear_handle_id (&self->timeout, g_source_remove);
  if (self->store == NULL || self->request_id == NULL || self->read_only)
    return;

  draft = dup_draft (self);
  write_draft (self, self->request_id, draft);
}

static gboolean
timeout_cb (gpointer data)
{
  TriageDraftKeeper *self = data;

  self->timeout = 0;
  triage_draft_keeper_flush (self);
  return G_SOURCE_REMOVE;
}

static void
cancel_read (TriageDraftKeeper *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
}

static void
read_draft_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(TriageDraftKeeper) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = triage_store_load_draft_finish (TRIAGE_STORE (object), result, &error);
  const char *id = g_task_get_task_data (G_TASK (result));
  g_autoptr(JsonNode) node = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (error != NULL)
    {
      g_message ("A draft could not be read back: %s", error->message);
      return;
    }

  /* Only into the request it was written for, and one still to be answered. */
  if (json == NULL || self->owner == NULL || g_strcmp0 (id, self->request_id) != 0 || self->read_only)
    return;

  node = json_from_string (json, NULL);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_message ("The stored draft of %s is not one: left aside", id);
      return;
    }
  self->put_back (self->owner, json_node_get_object (node));
}

/* Reads back the stored draft of the request shown. */
static void
read_draft (TriageDraftKeeper *self)
{
  cancel_read (self);
  if (self->store == NULL || self->request_id == NULL)
    return;

  self->cancellable = g_cancellable_new ();
  triage_store_load_draft_async (self->store, self->request_id, self->cancellable, read_draft_cb,
                                 g_object_ref (self));
}

static void
triage_draft_keeper_dispose (GObject *object)
{
  TriageDraftKeeper *self = (TriageDraftKeeper *)object;

  triage_draft_keeper_close (self);
  if (self->store != NULL)
    disconnect_store (self);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (triage_draft_keeper_parent_class)->dispose (object);
}

static void
triage_draft_keeper_finalize (GObject *object)
{
  TriageDraftKeeper *self = (TriageDraftKeeper *)object;

  g_clear_pointer (&self->request_id, g_free);
  g_clear_pointer (&self->drafts, g_hash_table_unref);
  g_clear_pointer (&self->unwritten, g_hash_table_unref);

  G_OBJECT_CLASS (triage_draft_keeper_parent_class)->finalize (object);
}

static void
triage_draft_keeper_class_init (TriageDraftKeeperClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = triage_draft_keeper_dispose;
  object_class->finalize = triage_draft_keeper_finalize;

  /**
   * TriageDraftKeeper::written:
   * @self: the keeper
   * @error: (nullable): why the draft is not on disk, %NULL when it is
   *
   * A draft was written to the store, or could not be.
   */
  signals [WRITTEN] =
    g_signal_new ("written", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
triage_draft_keeper_init (TriageDraftKeeper *self)
{
  self->drafts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                        (GDestroyNotify) json_object_unref);
  self->unwritten = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/**
 * triage_draft_keeper_new:
 * @owner: the view whose drafts are kept; it calls triage_draft_keeper_close()
 *   before it goes
 * @dup_entered: what @owner's controls hold
 * @put_back: puts a draft back into @owner's controls still empty
 *
 * Returns: (transfer full): a keeper of @owner's drafts, in memory until a
 *   store is set
 */
TriageDraftKeeper *
triage_draft_keeper_new (gpointer               owner,
                         TriageDraftDupFunc     dup_entered,
                         TriageDraftPutBackFunc put_back)
{
  TriageDraftKeeper *self;

  g_return_val_if_fail (owner != NULL && dup_entered != NULL && put_back != NULL, NULL);

  self = g_object_new (TRIAGE_TYPE_DRAFT_KEEPER, NULL);
  self->owner = owner;
  self->dup_entered = dup_entered;
  self->put_back = put_back;
  return self;
}

/**
 * triage_draft_keeper_get_store:
 *
 * Returns: (transfer none) (nullable): where drafts are kept on disk
 */
TriageStore *
triage_draft_keeper_get_store (TriageDraftKeeper *self)
{
  g_return_val_if_fail (TRIAGE_IS_DRAFT_KEEPER (self), NULL);

  return self->store;
}

/**
 * triage_draft_keeper_set_store:
 * @store: (nullable): where drafts are kept on disk; %NULL for memory only
 *
 * The draft of the request shown is read back from the new store (a window
 * opens a request before its database is open).
 *
 * Returns: whether the store changed
 */
gboolean
triage_draft_keeper_set_store (TriageDraftKeeper *self,
                               TriageStore       *store)
{
  g_return_val_if_fail (TRIAGE_IS_DRAFT_KEEPER (self), FALSE);
  g_return_val_if_fail (store == NULL || TRIAGE_IS_STORE (store), FALSE);

  if (self->timeout != 0)
    triage_draft_keeper_flush (self);

  if (store == self->store)
    return FALSE;

  if (self->store != NULL)
    disconnect_store (self);
  g_set_object (&self->store, store);
  if (store != NULL)
    self->writable_handler = g_signal_connect_swapped (store, "drafts-writable",
                                                       G_CALLBACK (drafts_writable_cb), self);
  self->write_failed = FALSE;
  if (self->request_id != NULL && !self->read_only &&
      g_hash_table_lookup (self->drafts, self->request_id) == NULL)
    read_draft (self);

  return TRUE;
}

/**
 * triage_draft_keeper_leave:
 *
 * The request shown leaves the view (call it before the controls go): what
 * they hold is kept for its return, in memory, and written now if it was
 * waiting to be.
 */
void
triage_draft_keeper_leave (TriageDraftKeeper *self)
{
  g_autoptr(JsonObject) draft = NULL;
  g_autofree char *id = NULL;

  g_return_if_fail (TRIAGE_IS_DRAFT_KEEPER (self));

  cancel_read (self);
  id = g_steal_pointer (&self->request_id);
  if (id == NULL)
    {
      self->read_only = FALSE;
      return;
    }

  g_hash_table_remove (self->drafts, id);
  if (self->read_only)
    {
      g_hash_table_remove (self->unwritten, id);
      g_clear_handle_id (&self->timeout, g_source_remove);
      self->read_only = FALSE;
      return;
    }

  draft = dup_draft (self);
  if (self->timeout != 0 && self->store != NULL)
    write_draft (self, id, draft);
  g_clear_handle_id (&self->timeout, g_source_remove);

  if (draft != NULL)
    g_hash_table_insert (self->drafts, g_steal_pointer (&id), g_steal_pointer (&draft));
}

/**
 * triage_draft_keeper_show:
 * @request_id: (nullable): the request now shown, with new controls
 *
 * What was entered for it is put back, from memory, else from the store
 * (once read, if it may still be answered by then). Shown read-only
 * (triage_draft_keeper_set_read_only() since the last request left), it has
 * none left to come back to.
 */
void
triage_draft_keeper_show (TriageDraftKeeper *self,
                          const char        *request_id)
{
  JsonObject *draft;

  g_return_if_fail (TRIAGE_IS_DRAFT_KEEPER (self));

  if (self->request_id != NULL)
    triage_draft_keeper_leave (self);

  cancel_read (self);
  self->request_id = g_strdup (request_id);
  if (request_id == NULL)
    return;
  if (self->read_only)
    {
      g_hash_table_remove (self->drafts, request_id);
      g_hash_table_remove (self->unwritten, request_id);
      return;
    }

  draft = g_hash_table_lookup (self->drafts, request_id);
  if (draft != NULL && self->owner != NULL)
    self->put_back (self->owner, draft);
  else if (draft == NULL)
    read_draft (self);
}

/**
 * triage_draft_keeper_changed:
 *
 * What a control holds changed: the draft is written once the person has
 * stopped for a moment.
 */
void
triage_draft_keeper_changed (TriageDraftKeeper *self)
{
  g_return_if_fail (TRIAGE_IS_DRAFT_KEEPER (self));

  if (self->store == NULL || self->request_id == NULL || self->read_only || self->owner == NULL)
    return;

  g_clear_handle_id (&self->timeout, g_source_remove);
  self->timeout = g_timeout_add (DRAFT_DELAY_MS, timeout_cb, self);
}

/**
 * triage_draft_keeper_set_read_only:
 * @read_only: the request shown was answered here or settled
 *
 * Read-only, nothing is left to come back to: the draft goes from memory and
 * is written no more (the store drops what it has by itself, see above).
 */
void
triage_draft_keeper_set_read_only (TriageDraftKeeper *self,
                                   gboolean           read_only)
{
  g_return_if_fail (TRIAGE_IS_DRAFT_KEEPER (self));

  self->read_only = read_only;
  if (!read_only)
    return;

  g_clear_handle_id (&self->timeout, g_source_remove);
  cancel_read (self);
  if (self->request_id != NULL)
    {
      g_hash_table_remove (self->drafts, self->request_id);
      g_hash_table_remove (self->unwritten, self->request_id);
    }
}

/**
 * triage_draft_keeper_close:
 *
 * The view goes (the window closes, the app quits): a draft waiting to be
 * written is written now, and the view is called no more.
 */
void
triage_draft_keeper_close (TriageDraftKeeper *self)
{
  g_return_if_fail (TRIAGE_IS_DRAFT_KEEPER (self));

  if (self->timeout != 0)
    triage_draft_keeper_flush (self);
  cancel_read (self);
  self->owner = NULL;
}

JsonObject *
triage_draft_keeper_lookup (TriageDraftKeeper *self,
                            const char        *request_id)
{
  g_return_val_if_fail (TRIAGE_IS_DRAFT_KEEPER (self), NULL);

  return g_hash_table_lookup (self->drafts, request_id);
}

gboolean
triage_draft_keeper_get_pending (TriageDraftKeeper *self)
{
  g_return_val_if_fail (TRIAGE_IS_DRAFT_KEEPER (self), FALSE);

  return self->timeout != 0;
}

gboolean
triage_draft_keeper_get_write_failed (TriageDraftKeeper *self)
{
  g_return_val_if_fail (TRIAGE_IS_DRAFT_KEEPER (self), FALSE);

  return self->write_failed;
}
