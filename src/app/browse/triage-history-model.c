/* triage-history-model.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-history"

#include <glib/gi18n.h>

#include "triage-history-model-private.h"

/*
 * The decision history as a GListModel of TriageHistoryEntry that never
 * holds more than a few pages of it; also its own multiple-selection model
 * (GtkSelectionModel), the selection kept by row id.
 *
 * A filter change runs one query on the history's worker; it returns the
 * (rowid, updated_at) pair of every matching row, newest first: 1.6 MB for
 * 100,000 entries, so the model knows its length at once. Entries are read a
 * page of 200 at a time when the list asks for them, on the history's page
 * thread (never the main thread's disk reads): until a page arrives the list
 * gets placeholders (entries with only their rowid, no id), and the page's
 * arrival replaces them (items-changed over the page). The page after (or
 * before) is asked for ahead when the list nears it, so a steady scroll
 * seldom shows a placeholder. The last TRIAGE_HISTORY_MAX_PAGES pages are kept;
 * a new result drops them and cancels the reads under way.
 *
 * A reload (the store wrote) compares the new keys with the old: a common
 * head and tail stay, the middle is replaced, and rows whose updated_at
 * changed in place are announced one run at a time, so the list keeps its
 * scroll position and only changed rows are rebuilt.
 *
 * The pages are read in triage-history-model-pages.c.
 */

static GType
triage_history_model_get_item_type (GListModel *model)
{
  return TRIAGE_TYPE_HISTORY_ENTRY;
}

static guint
triage_history_model_get_n_items (GListModel *model)
{
  return TRIAGE_HISTORY_MODEL (model)->keys->len;
}

enum {
  PROP_0,
  PROP_DB,
  PROP_FILTER,
  PROP_LOADING,
  PROP_N_ITEMS,
  N_PROPS
};

enum {
  FAILED,
  N_SIGNALS
};

static GParamSpec *properties [N_PROPS];
static guint signals [N_SIGNALS];


static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = triage_history_model_get_item_type;
  iface->get_n_items = triage_history_model_get_n_items;
  iface->get_item = triage_history_model_get_item;
}

/* Selection: by row id, so it never reads an entry and survives a reload.
 * (GtkMultiSelection keeps selected items by object and reads every added
 * item on each change: 100,000 rows read for a refresh.) */

static GtkBitset *
triage_history_model_get_selection_in_range (GtkSelectionModel *model,
                                             guint              position,
                                             guint              n_items)
{
  TriageHistoryModel *self = TRIAGE_HISTORY_MODEL (model);
  GtkBitset *bits = gtk_bitset_new_empty ();
  guint end = MIN ((guint64) position + n_items, self->keys->len);

  if (g_hash_table_size (self->selected) == 0)
    return bits;

  for (guint i = position; i < end; i++)
    if (g_hash_table_contains (self->selected, &g_array_index (self->keys, TriageHistoryKey, i).rowid))
      gtk_bitset_add (bits, i);

  return bits;
}

static gboolean
triage_history_model_set_selection (GtkSelectionModel *model,
                                    GtkBitset         *selected,
                                    GtkBitset         *mask)
{
  TriageHistoryModel *self = TRIAGE_HISTORY_MODEL (model);
  GtkBitsetIter iter;
  guint position;
  guint first = G_MAXUINT;
  guint last = 0;

  for (gboolean more = gtk_bitset_iter_init_first (&iter, mask, &position);
       more && position < self->keys->len;
       more = gtk_bitset_iter_next (&iter, &position))
    {
      gint64 rowid = g_array_index (self->keys, TriageHistoryKey, position).rowid;
      gboolean changed;

      if (gtk_bitset_contains (selected, position))
        changed = g_hash_table_add (self->selected, g_memdup2 (&rowid, sizeof rowid));
      else
        changed = g_hash_table_remove (self->selected, &rowid);

      if (changed)
        {
          first = MIN (first, position);
          last = MAX (last, position);
        }
    }

  if (first <= last)
    gtk_selection_model_selection_changed (model, first, last - first + 1);

  return TRUE;
}

static void
selection_model_iface_init (GtkSelectionModelInterface *iface)
{
  iface->get_selection_in_range = triage_history_model_get_selection_in_range;
  iface->set_selection = triage_history_model_set_selection;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (TriageHistoryModel, triage_history_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init)
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SELECTION_MODEL, selection_model_iface_init))

/* Applying a new result */

static gboolean
same_row (GArray *a,
          guint   i,
          GArray *b,
          guint   j)
{
  return g_array_index (a, TriageHistoryKey, i).rowid == g_array_index (b, TriageHistoryKey, j).rowid;
}

static gboolean
same_version (GArray *a,
              guint   i,
              GArray *b,
              guint   j)
{
  return g_array_index (a, TriageHistoryKey, i).updated_at ==
         g_array_index (b, TriageHistoryKey, j).updated_at;
}

/* Runs of rows changed in place, as (position, length) pairs in new positions. */
static void
collect_changed_runs (GArray *old_keys,
                      guint   old_start,
                      GArray *new_keys,
                      guint   new_start,
                      guint   length,
                      GArray *runs)
{
  guint run_start = 0;
  gboolean in_run = FALSE;

  for (guint i = 0; i <= length; i++)
    {
      gboolean changed = i < length &&
                         !same_version (old_keys, old_start + i, new_keys, new_start + i);

      if (changed && !in_run)
        {
          run_start = i;
          in_run = TRUE;
        }
      else if (!changed && in_run)
        {
          guint run[2] = { new_start + run_start, i - run_start };

          g_array_append_vals (runs, run, 2);
          in_run = FALSE;
        }
    }
}

/* Sets the keys and announces a change. Pages are positions: whatever was
 * read before (even during an earlier announcement) is read again. */
static void
announce (TriageHistoryModel *self,
          GArray             *keys,
          guint               position,
          guint               removed,
          guint               added)
{
  if (self->keys != keys)
    {
      g_array_unref (self->keys);
      self->keys = g_array_ref (keys);
    }
  triage_history_model_forget_pages (self);
  if (removed > 0 || added > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
}

/* Announces that [@position, @position + @removed) of the current keys
 * became [@position, @position + @added) of @keys. GTK 4.8's list views,
 * when a row they track (the focus, the scroll anchor) is among the removed
 * ones, look for it by reading every added item: 100,000 page reads for a
 * new search. A large replacement is therefore announced in two steps,
 * removal then addition, which it handles without reading any item. */
static void
replace_range (TriageHistoryModel *self,
               GArray             *keys,
               guint               position,
               guint               removed,
               guint               added)
{
  if (removed > 0 && added > 64)
    {
      g_autoptr(GArray) between = g_array_sized_new (FALSE, FALSE, sizeof (TriageHistoryKey),
                                                     self->keys->len - removed);

      g_array_append_vals (between, self->keys->data, position);
      g_array_append_vals (between,
                           &g_array_index (self->keys, TriageHistoryKey, position + removed),
                           self->keys->len - position - removed);
      announce (self, between, position, removed, 0);
      announce (self, keys, position, 0, added);
    }
  else
    announce (self, keys, position, removed, added);
}

static void
apply_keys (TriageHistoryModel *self,
            GArray             *new_keys)
{
  g_autoptr(GArray) old_keys = g_array_ref (self->keys);
  g_autoptr(GArray) runs = g_array_new (FALSE, FALSE, sizeof (guint));
  guint old_n = old_keys->len;
  guint new_n = new_keys->len;
  guint head = 0;
  guint tail = 0;

  while (head < old_n && head < new_n && same_row (old_keys, head, new_keys, head))
    head++;
  while (tail < old_n - head && tail < new_n - head &&
         same_row (old_keys, old_n - 1 - tail, new_keys, new_n - 1 - tail))
    tail++;

  collect_changed_runs (old_keys, 0, new_keys, 0, head, runs);
  collect_changed_runs (old_keys, old_n - tail, new_keys, new_n - tail, tail, runs);

  if (head == old_n && head == new_n && runs->len == 0)
    return;

  if (runs->len / 2 > 64)
    {
      /* Many scattered changes: one replacement of everything. */
      replace_range (self, new_keys, 0, old_n, new_n);
    }
  else
    {
      if (old_n - head - tail > 0 || new_n - head - tail > 0)
        replace_range (self, new_keys, head, old_n - head - tail, new_n - head - tail);
      else
        announce (self, new_keys, 0, 0, 0);   /* rows changed in place only */

      for (guint i = 0; i < runs->len; i += 2)
        announce (self, new_keys,
                  g_array_index (runs, guint, i),
                  g_array_index (runs, guint, i + 1),
                  g_array_index (runs, guint, i + 1));
    }

  if (old_n != new_n)
    g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_N_ITEMS]);
}

static void
set_loading (TriageHistoryModel *self,
             gboolean            loading)
{
  if (self->loading == loading)
    return;

  self->loading = loading;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_LOADING]);
}

static void
query_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(TriageHistoryModel) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) keys = NULL;

  keys = triage_history_db_query_finish (TRIAGE_HISTORY_DB (object), result, &error);

  /* A newer query replaced this one; it reports for itself. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_object (&self->cancellable);

  if (keys == NULL)
    {
      set_loading (self, FALSE);
      g_signal_emit (self, signals [FAILED], 0, error);
      return;
    }

  apply_keys (self, keys);
  set_loading (self, FALSE);
}

static void
start_query (TriageHistoryModel *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  self->cancellable = g_cancellable_new ();
  set_loading (self, TRUE);
  triage_history_db_query_async (self->db, self->filter, self->cancellable,
                                 query_done_cb, g_object_ref (self));
}

/**
 * triage_history_model_set_filter:
 * @self: a #TriageHistoryModel
 * @filter: what to show
 *
 * Starts a query; the model changes when it is done (#TriageHistoryModel:loading).
 */
void
triage_history_model_set_filter (TriageHistoryModel        *self,
                                 const TriageHistoryFilter *filter)
{
  g_return_if_fail (TRIAGE_IS_HISTORY_MODEL (self));
  g_return_if_fail (filter != NULL);

  if (triage_history_filter_equal (self->filter, filter))
    return;

  triage_history_filter_free (self->filter);
  self->filter = triage_history_filter_copy (filter);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_FILTER]);

  /* A new search starts with nothing selected (a reload keeps the selection). */
  if (g_hash_table_size (self->selected) > 0)
    {
      g_hash_table_remove_all (self->selected);
      if (self->keys->len > 0)
        gtk_selection_model_selection_changed (GTK_SELECTION_MODEL (self), 0, self->keys->len);
    }

  start_query (self);
}

/**
 * triage_history_model_reload:
 * @self: a #TriageHistoryModel
 *
 * Runs the query again (the store wrote); unchanged rows stay as they are.
 */
void
triage_history_model_reload (TriageHistoryModel *self)
{
  g_return_if_fail (TRIAGE_IS_HISTORY_MODEL (self));

  start_query (self);
}

const TriageHistoryFilter *
triage_history_model_get_filter (TriageHistoryModel *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_MODEL (self), NULL);

  return self->filter;
}

TriageHistoryDb *
triage_history_model_get_db (TriageHistoryModel *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_MODEL (self), NULL);

  return self->db;
}

gboolean
triage_history_model_get_loading (TriageHistoryModel *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_MODEL (self), FALSE);

  return self->loading;
}

/**
 * triage_history_model_find_rowid:
 * @self: a #TriageHistoryModel
 * @rowid: a row id
 *
 * Where the row @rowid is in the current result, without reading any row.
 *
 * Returns: its position, or %GTK_INVALID_LIST_POSITION if the result does
 *   not hold it
 */
guint
triage_history_model_find_rowid (TriageHistoryModel *self,
                                 gint64              rowid)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_MODEL (self), GTK_INVALID_LIST_POSITION);

  for (guint i = 0; i < self->keys->len; i++)
    if (g_array_index (self->keys, TriageHistoryKey, i).rowid == rowid)
      return i;

  return GTK_INVALID_LIST_POSITION;
}

/**
 * triage_history_model_dup_rowids:
 * @self: a #TriageHistoryModel
 * @positions: (nullable): positions in the model; %NULL for all of them
 *
 * The rows to export, newest first, without reading any of them.
 *
 * Returns: (transfer full) (element-type gint64): row ids
 */
GArray *
triage_history_model_dup_rowids (TriageHistoryModel *self,
                                 GtkBitset          *positions)
{
  GArray *rowids;

  g_return_val_if_fail (TRIAGE_IS_HISTORY_MODEL (self), NULL);

  rowids = g_array_new (FALSE, FALSE, sizeof (gint64));

  if (positions == NULL)
    {
      g_array_set_size (rowids, self->keys->len);
      for (guint i = 0; i < self->keys->len; i++)
        g_array_index (rowids, gint64, i) = g_array_index (self->keys, TriageHistoryKey, i).rowid;
    }
  else
    {
      GtkBitsetIter iter;
      guint position;

      for (gboolean more = gtk_bitset_iter_init_first (&iter, positions, &position);
           more && position < self->keys->len;
           more = gtk_bitset_iter_next (&iter, &position))
        g_array_append_val (rowids, g_array_index (self->keys, TriageHistoryKey, position).rowid);
    }

  return rowids;
}

/* GObject */

static void
triage_history_model_dispose (GObject *object)
{
  TriageHistoryModel *self = (TriageHistoryModel *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  triage_history_model_forget_pages (self);

  G_OBJECT_CLASS (triage_history_model_parent_class)->dispose (object);
}

static void
triage_history_model_finalize (GObject *object)
{
  TriageHistoryModel *self = (TriageHistoryModel *)object;

  g_clear_pointer (&self->pages, g_hash_table_unref);
  g_clear_pointer (&self->waiters, g_ptr_array_unref);
  g_clear_pointer (&self->selected, g_hash_table_unref);
  g_clear_pointer (&self->keys, g_array_unref);
  g_clear_pointer (&self->filter, triage_history_filter_free);
  g_clear_object (&self->db);

  G_OBJECT_CLASS (triage_history_model_parent_class)->finalize (object);
}

static void
triage_history_model_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  TriageHistoryModel *self = TRIAGE_HISTORY_MODEL (object);

  switch (prop_id)
    {
    case PROP_DB:
      g_value_set_object (value, self->db);
      break;

    case PROP_FILTER:
      g_value_set_boxed (value, self->filter);
      break;

    case PROP_LOADING:
      g_value_set_boolean (value, self->loading);
      break;

    case PROP_N_ITEMS:
      g_value_set_uint (value, self->keys->len);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_history_model_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  TriageHistoryModel *self = TRIAGE_HISTORY_MODEL (object);

  switch (prop_id)
    {
    case PROP_DB:
      self->db = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_history_model_class_init (TriageHistoryModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = triage_history_model_dispose;
  object_class->finalize = triage_history_model_finalize;
  object_class->get_property = triage_history_model_get_property;
  object_class->set_property = triage_history_model_set_property;

  properties [PROP_DB] =
    g_param_spec_object ("db", NULL, NULL, TRIAGE_TYPE_HISTORY_DB,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties [PROP_FILTER] =
    g_param_spec_boxed ("filter", NULL, NULL, TRIAGE_TYPE_HISTORY_FILTER,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_N_ITEMS] =
    g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TriageHistoryModel::failed:
   * @self: the model
   * @error: what went wrong
   *
   * A query or a page could not be read; the model keeps what it had.
   */
  signals [FAILED] =
    g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
triage_history_model_init (TriageHistoryModel *self)
{
  self->keys = g_array_new (FALSE, FALSE, sizeof (TriageHistoryKey));
  self->selected = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->filter = triage_history_filter_new ();
  triage_history_model_init_pages (self);
}

/**
 * triage_history_model_new:
 * @db: an open #TriageHistoryDb
 *
 * Returns: (transfer full): an empty model; set a filter (or reload) to fill it
 */
TriageHistoryModel *
triage_history_model_new (TriageHistoryDb *db)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_DB (db), NULL);

  return g_object_new (TRIAGE_TYPE_HISTORY_MODEL, "db", db, NULL);
}
