/* triage-read-state.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-inbox"

#include "triage-read-state.h"

/*
 * Which requests the person has opened: the inbox shows the others bold
 * with a dot. Kept in memory for the rows and, with a history database, in
 * its triage_read table so it survives a restart. Writes go to the
 * history's worker in order. A write that fails (a full disk, an I/O error)
 * leaves the mark in memory, kept to be written again as the history's
 * opening is: after 5 s, then twice as long each time up to 5 minutes, at
 * once when another write succeeds, and when triage_read_state_retry () says
 * the store writes again. One warning says so until a write succeeds, not
 * one a mark.
 *
 * The app's one read state lives from its start; its history opens later
 * (on a worker, after the store; again and again while a full disk fails
 * it) and is given with triage_read_state_set_db (). Marks changed before
 * that are stored then, and they and those changed while the stored ones
 * load win over what loads.
 */

struct _TriageReadState
{
  GObject          parent_instance;

  TriageHistoryDb *db;
  GHashTable      *read;      /* id -> id */
  GHashTable      *changes;   /* until loaded from db: id -> GINT_TO_POINTER (read + 1) */
  GHashTable      *unstored;  /* ids whose mark a write failed to store */
  GCancellable    *cancellable;
  guint            retry_id;
  guint            retry_s;   /* the last wait before writing them again */
  gboolean         loaded;
  gboolean         failure_told;
};

#define STORE_RETRY_FIRST_S 5
#define STORE_RETRY_MAX_S   (5 * 60)

typedef struct
{
  TriageReadState *self;
  char            *id;
  gboolean         read;
} StoreData;

static void
store_data_free (StoreData *data)
{
  g_object_unref (data->self);
  g_free (data->id);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StoreData, store_data_free)

G_DEFINE_FINAL_TYPE (TriageReadState, triage_read_state, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_LOADED,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties [N_PROPS];
static guint signals [N_SIGNALS];

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(TriageReadState) self = user_data;
  g_autoptr(GHashTable) ids = NULL;
  g_autoptr(GError) error = NULL;
  GHashTableIter iter;
  gpointer key;
  gpointer value;

  ids = triage_history_db_load_read_finish (TRIAGE_HISTORY_DB (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (ids == NULL)
    g_warning ("Could not load which requests were opened: %s", error->message);

  if (ids != NULL)
    {
      g_hash_table_iter_init (&iter, ids);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        {
          char *id = g_strdup (key);

          g_hash_table_replace (self->read, id, id);
        }
    }

  g_hash_table_iter_init (&iter, self->changes);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      if (GPOINTER_TO_INT (value) - 1)
        {
          char *id = g_strdup (key);

          g_hash_table_replace (self->read, id, id);
        }
      else
        g_hash_table_remove (self->read, key);
    }
  g_hash_table_remove_all (self->changes);

  self->loaded = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_LOADED]);
  g_signal_emit (self, signals [CHANGED], 0, NULL);
}

static void store_mark (TriageReadState *self,
                        const char      *notification_id,
                        gboolean         read);

/* The marks a write failed to store, written again as they are now. */
static void
store_unstored (TriageReadState *self)
{
  GHashTableIter iter;
  gpointer key;

  g_clear_handle_id (&self->retry_id, g_source_remove);
  g_hash_table_iter_init (&iter, self->unstored);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    store_mark (self, key, g_hash_table_contains (self->read, key));
}

static gboolean
retry_cb (gpointer data)
{
  TriageReadState *self = data;

  self->retry_id = 0;
  store_unstored (self);
  return G_SOURCE_REMOVE;
}

static void
stored_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(StoreData) data = user_data;
  TriageReadState *self = data->self;
  g_autoptr(GError) error = NULL;

  if (triage_history_db_set_read_finish (TRIAGE_HISTORY_DB (object), result, &error))
    {
      /* Unless changed since: that write comes next. */
      if (g_hash_table_contains (self->read, data->id) == data->read)
        g_hash_table_remove (self->unstored, data->id);
      self->failure_told = FALSE;
      self->retry_s = 0;
      /* It writes again: those waiting for their next try need not wait. */
      if (self->retry_id != 0)
        store_unstored (self);
      return;
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      g_cancellable_is_cancelled (self->cancellable))
    return;

  g_hash_table_add (self->unstored, g_strdup (data->id));
  if (self->retry_id == 0)
    {
      self->retry_s = self->retry_s == 0 ? STORE_RETRY_FIRST_S
                                         : MIN (self->retry_s * 2, STORE_RETRY_MAX_S);
      self->retry_id = g_timeout_add_seconds (self->retry_s, retry_cb, self);
    }
  if (!self->failure_told)
    {
      self->failure_told = TRUE;
      g_warning ("Could not remember which requests were opened (kept, and tried again in %u s): %s",
                 self->retry_s, error->message);
    }
}

static void
store_mark (TriageReadState *self,
            const char      *notification_id,
            gboolean         read)
{
  StoreData *data = g_new0 (StoreData, 1);

  data->self = g_object_ref (self);
  data->id = g_strdup (notification_id);
  data->read = read;
  triage_history_db_set_read_async (self->db, notification_id, read, NULL, stored_cb, data);
}

/**
 * triage_read_state_is_read:
 * @self: a #TriageReadState
 * @notification_id: a request
 *
 * Returns: %TRUE if the person opened the request
 */
gboolean
triage_read_state_is_read (TriageReadState *self,
                           const char      *notification_id)
{
  g_return_val_if_fail (TRIAGE_IS_READ_STATE (self), FALSE);
  g_return_val_if_fail (notification_id != NULL, FALSE);

  return g_hash_table_contains (self->read, notification_id);
}

/**
 * triage_read_state_set_read:
 * @self: a #TriageReadState
 * @notification_id: a request
 * @read: %TRUE when opened, %FALSE to show it as new again
 *
 * Records (and stores) the mark; emits #TriageReadState::changed if it changed.
 */
void
triage_read_state_set_read (TriageReadState *self,
                            const char      *notification_id,
                            gboolean         read)
{
  g_return_if_fail (TRIAGE_IS_READ_STATE (self));
  g_return_if_fail (notification_id != NULL);

  read = !!read;
  if (triage_read_state_is_read (self, notification_id) == read)
    return;

  if (read)
    {
      char *id = g_strdup (notification_id);

      g_hash_table_replace (self->read, id, id);
    }
  else
    g_hash_table_remove (self->read, notification_id);

  if (self->db == NULL || !self->loaded)
    g_hash_table_replace (self->changes, g_strdup (notification_id), GINT_TO_POINTER (read + 1));

  if (self->db != NULL)
    store_mark (self, notification_id, read);

  g_signal_emit (self, signals [CHANGED], 0, notification_id);
}

/**
 * triage_read_state_set_db:
 * @self: a #TriageReadState kept in memory so far
 * @db: the history database, open, to keep the marks in from now on
 *
 * Stores the marks changed so far and loads the stored ones
 * (#TriageReadState:loaded goes %FALSE until they are in).
 */
void
triage_read_state_set_db (TriageReadState *self,
                          TriageHistoryDb *db)
{
  GHashTableIter iter;
  gpointer key;
  gpointer value;

  g_return_if_fail (TRIAGE_IS_READ_STATE (self));
  g_return_if_fail (TRIAGE_IS_HISTORY_DB (db));
  g_return_if_fail (self->db == NULL);

  self->db = g_object_ref (db);

  g_hash_table_iter_init (&iter, self->changes);
  while (g_hash_table_iter_next (&iter, &key, &value))
    store_mark (self, key, GPOINTER_TO_INT (value) - 1);

  if (self->loaded)
    {
      self->loaded = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_LOADED]);
    }
  triage_history_db_load_read_async (db, self->cancellable, loaded_cb, g_object_ref (self));
}

/**
 * triage_read_state_retry:
 * @self: a #TriageReadState
 *
 * Writes again, now, the marks a write failed to store (the app's store
 * wrote again after it could not: space is back).
 */
void
triage_read_state_retry (TriageReadState *self)
{
  g_return_if_fail (TRIAGE_IS_READ_STATE (self));

  if (self->db != NULL && g_hash_table_size (self->unstored) > 0)
    store_unstored (self);
}

/**
 * triage_read_state_get_loaded:
 *
 * Returns: %TRUE once the stored marks are in (at once without a database)
 */
gboolean
triage_read_state_get_loaded (TriageReadState *self)
{
  g_return_val_if_fail (TRIAGE_IS_READ_STATE (self), FALSE);

  return self->loaded;
}

static void
triage_read_state_dispose (GObject *object)
{
  TriageReadState *self = (TriageReadState *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->retry_id, g_source_remove);

  G_OBJECT_CLASS (triage_read_state_parent_class)->dispose (object);
}

static void
triage_read_state_finalize (GObject *object)
{
  TriageReadState *self = (TriageReadState *)object;

  g_clear_object (&self->cancellable);
  g_clear_object (&self->db);
  g_clear_pointer (&self->read, g_hash_table_unref);
  g_clear_pointer (&self->changes, g_hash_table_unref);
  g_clear_pointer (&self->unstored, g_hash_table_unref);

  G_OBJECT_CLASS (triage_read_state_parent_class)->finalize (object);
}

static void
triage_read_state_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  TriageReadState *self = TRIAGE_READ_STATE (object);

  switch (prop_id)
    {
    case PROP_LOADED:
      g_value_set_boolean (value, self->loaded);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_read_state_class_init (TriageReadStateClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = triage_read_state_dispose;
  object_class->finalize = triage_read_state_finalize;
  object_class->get_property = triage_read_state_get_property;

  properties [PROP_LOADED] =
    g_param_spec_boolean ("loaded", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TriageReadState::changed:
   * @self: the read state
   * @notification_id: (nullable): the request whose mark changed; %NULL when
   *   many may have (the stored marks came in)
   */
  signals [CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
triage_read_state_init (TriageReadState *self)
{
  self->read = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->changes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->unstored = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->cancellable = g_cancellable_new ();
}

/**
 * triage_read_state_new:
 * @db: (nullable): an open history database to keep the marks in; %NULL
 *   keeps them in memory until triage_read_state_set_db()
 *
 * Returns: (transfer full): a read state; with @db it loads the stored marks
 *   (#TriageReadState:loaded)
 */
TriageReadState *
triage_read_state_new (TriageHistoryDb *db)
{
  TriageReadState *self;

  g_return_val_if_fail (db == NULL || TRIAGE_IS_HISTORY_DB (db), NULL);

  self = g_object_new (TRIAGE_TYPE_READ_STATE, NULL);
  self->loaded = TRUE;

  if (db != NULL)
    triage_read_state_set_db (self, db);

  return self;
}
