/* triage-history-model.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-history"

#include <glib/gi18n.h>

#include "triage-history-model.h"

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
 */


struct _TriageHistoryModel
{
  GObject              parent_instance;

  TriageHistoryDb     *db;
  TriageHistoryFilter *filter;
  GArray              *keys;         /* TriageHistoryKey, the current result */
  GHashTable          *pages;        /* page + 1 -> Page */
  GQueue               lru;          /* page + 1, most recently used first */
  GCancellable        *cancellable;  /* the query in flight */
  GCancellable        *page_cancellable;  /* the page reads for the current keys */
  GPtrArray           *waiters;      /* GTask of get_entry_async, until their page is read */
  GHashTable          *selected;     /* gint64 rowid set */
  gboolean             loading;
};

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

typedef struct
{
  GPtrArray *entries;   /* TriageHistoryEntry; placeholders until loaded */
  gboolean   loaded;
} Page;

static void
page_free (Page *page)
{
  g_ptr_array_unref (page->entries);
  g_free (page);
}

/* A waiter's position, while the keys it was asked on are current. */
typedef struct
{
  guint position;
} Waiter;

static void
touch_page (TriageHistoryModel *self,
            guint               page)
{
  gpointer key = GUINT_TO_POINTER (page + 1);
  GList *link = g_queue_find (&self->lru, key);

  if (link != NULL && link == self->lru.head)
    return;
  if (link != NULL)
    g_queue_unlink (&self->lru, link);
  else
    link = g_list_alloc ();

  link->data = key;
  g_queue_push_head_link (&self->lru, link);

  while (self->lru.length > TRIAGE_HISTORY_MAX_PAGES)
    g_hash_table_remove (self->pages, g_queue_pop_tail (&self->lru));
}

/* Waiters whose page is read (or, with @page G_MAXUINT, all of them: the
 * keys changed under them) get their entry or an error. */
static void
serve_waiters (TriageHistoryModel *self,
               guint               page,
               GPtrArray          *entries,
               const GError       *error)
{
  g_autoptr(GPtrArray) served = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = self->waiters->len; i-- > 0;)
    {
      GTask *task = g_ptr_array_index (self->waiters, i);
      Waiter *waiter = g_task_get_task_data (task);

      if (page == G_MAXUINT || waiter->position / TRIAGE_HISTORY_PAGE_SIZE == page)
        g_ptr_array_add (served, g_ptr_array_steal_index (self->waiters, i));
    }

  /* After the loop: a callback may ask for more. */
  for (guint i = served->len; i-- > 0;)
    {
      GTask *task = g_ptr_array_index (served, i);
      Waiter *waiter = g_task_get_task_data (task);

      if (entries != NULL)
        g_task_return_pointer (task,
                               g_object_ref (g_ptr_array_index (entries,
                                                                waiter->position % TRIAGE_HISTORY_PAGE_SIZE)),
                               g_object_unref);
      else if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        /* Not shown: whoever waits gives up silently. */
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                 "The history changed");
    }
}

/* The keys change: what was read, or is being read, was for other positions. */
static void
forget_pages (TriageHistoryModel *self)
{
  g_cancellable_cancel (self->page_cancellable);
  g_clear_object (&self->page_cancellable);
  g_hash_table_remove_all (self->pages);
  g_queue_clear (&self->lru);
  serve_waiters (self, G_MAXUINT, NULL, NULL);
}

typedef struct
{
  TriageHistoryModel *self;
  guint               page;
} PageRead;

static void
fetch_page_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autofree PageRead *read = user_data;
  g_autoptr(TriageHistoryModel) self = read->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) entries = NULL;
  Page *page;
  guint first = read->page * TRIAGE_HISTORY_PAGE_SIZE;

  entries = triage_history_db_fetch_finish (TRIAGE_HISTORY_DB (object), result, &error);

  /* The keys changed since: the page was for other rows. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  page = g_hash_table_lookup (self->pages, GUINT_TO_POINTER (read->page + 1));

  if (entries == NULL)
    {
      /* Dropped: the next look asks again. */
      g_warning ("Could not read the history: %s", error->message);
      if (page != NULL && !page->loaded)
        g_hash_table_remove (self->pages, GUINT_TO_POINTER (read->page + 1));
      serve_waiters (self, read->page, NULL, error);
      g_signal_emit (self, signals [FAILED], 0, error);
      return;
    }

  /* Scrolled past (evicted) and not asked for again: only the waiters want it. */
  if (page != NULL && !page->loaded)
    {
      g_ptr_array_unref (page->entries);
      page->entries = g_ptr_array_ref (entries);
      page->loaded = TRUE;
      g_list_model_items_changed (G_LIST_MODEL (self), first, entries->len, entries->len);
    }

  serve_waiters (self, read->page, entries, NULL);
}

/* The page, read or being read; NULL past the end. */
static Page *
ensure_page (TriageHistoryModel *self,
             guint               index)
{
  g_autofree gint64 *rowids = NULL;
  PageRead *read;
  Page *page;
  guint first = index * TRIAGE_HISTORY_PAGE_SIZE;
  guint n;

  if (first >= self->keys->len)
    return NULL;

  page = g_hash_table_lookup (self->pages, GUINT_TO_POINTER (index + 1));
  if (page != NULL)
    return page;

  n = MIN (TRIAGE_HISTORY_PAGE_SIZE, self->keys->len - first);
  rowids = g_new (gint64, n);
  page = g_new0 (Page, 1);
  page->entries = g_ptr_array_new_full (n, g_object_unref);
  for (guint i = 0; i < n; i++)
    {
      TriageHistoryEntryData placeholder = {
        .rowid = g_array_index (self->keys, TriageHistoryKey, first + i).rowid,
      };

      rowids[i] = placeholder.rowid;
      g_ptr_array_add (page->entries, triage_history_entry_new (&placeholder));
    }
  g_hash_table_insert (self->pages, GUINT_TO_POINTER (index + 1), page);

  if (self->page_cancellable == NULL)
    self->page_cancellable = g_cancellable_new ();

  read = g_new0 (PageRead, 1);
  read->self = g_object_ref (self);
  read->page = index;
  triage_history_db_fetch_async (self->db, rowids, n, self->page_cancellable, fetch_page_cb, read);

  return page;
}

/* Read ahead when the list comes within a quarter page of the next page (or
 * of the one before, scrolling up). Touched before the page shown, so the
 * page shown stays the most recently used. */
#define READ_AHEAD (TRIAGE_HISTORY_PAGE_SIZE / 4)

static void
read_ahead (TriageHistoryModel *self,
            guint               position)
{
  guint index = position / TRIAGE_HISTORY_PAGE_SIZE;
  guint offset = position % TRIAGE_HISTORY_PAGE_SIZE;

  if (offset >= TRIAGE_HISTORY_PAGE_SIZE - READ_AHEAD &&
      !g_hash_table_contains (self->pages, GUINT_TO_POINTER (index + 2)) &&
      ensure_page (self, index + 1) != NULL)
    touch_page (self, index + 1);
  else if (offset < READ_AHEAD && index > 0 &&
           !g_hash_table_contains (self->pages, GUINT_TO_POINTER (index)) &&
           ensure_page (self, index - 1) != NULL)
    touch_page (self, index - 1);
}

static gpointer
triage_history_model_get_item (GListModel *model,
                               guint       position)
{
  TriageHistoryModel *self = TRIAGE_HISTORY_MODEL (model);
  guint index;
  Page *page;

  if (position >= self->keys->len)
    return NULL;

  index = position / TRIAGE_HISTORY_PAGE_SIZE;
  read_ahead (self, position);
  page = ensure_page (self, index);
  touch_page (self, index);

  return g_object_ref (g_ptr_array_index (page->entries, position % TRIAGE_HISTORY_PAGE_SIZE));
}

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
  forget_pages (self);
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

/**
 * triage_history_model_get_n_cached:
 *
 * Returns: how many entries are held in memory, read (for tests and benchmarks)
 */
guint
triage_history_model_get_n_cached (TriageHistoryModel *self)
{
  GHashTableIter iter;
  gpointer value;
  guint n = 0;

  g_return_val_if_fail (TRIAGE_IS_HISTORY_MODEL (self), 0);

  g_hash_table_iter_init (&iter, self->pages);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (((Page *) value)->loaded)
      n += ((Page *) value)->entries->len;

  return n;
}

/**
 * triage_history_model_get_entry_async:
 * @self: a #TriageHistoryModel
 * @position: a position in the model
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the entry
 * @user_data: data for @callback
 *
 * Gets the entry at @position once its page is read (at once if it is), for
 * what needs the entry itself rather than its placeholder: opening it. Fails
 * with %G_IO_ERROR_CANCELLED if the result changes first.
 */
void
triage_history_model_get_entry_async (TriageHistoryModel  *self,
                                      guint                position,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Waiter *waiter;
  Page *page;

  g_return_if_fail (TRIAGE_IS_HISTORY_MODEL (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, triage_history_model_get_entry_async);

  if (position >= self->keys->len)
    {
      /* A precondition's failure, not shown to anyone. */
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                               "No entry at position %u", position);
      return;
    }

  page = ensure_page (self, position / TRIAGE_HISTORY_PAGE_SIZE);
  touch_page (self, position / TRIAGE_HISTORY_PAGE_SIZE);
  if (page->loaded)
    {
      g_task_return_pointer (task,
                             g_object_ref (g_ptr_array_index (page->entries,
                                                              position % TRIAGE_HISTORY_PAGE_SIZE)),
                             g_object_unref);
      return;
    }

  waiter = g_new0 (Waiter, 1);
  waiter->position = position;
  g_task_set_task_data (task, waiter, g_free);
  g_ptr_array_add (self->waiters, g_steal_pointer (&task));
}

/**
 * triage_history_model_get_entry_finish:
 *
 * Returns: (transfer full): the entry, read
 */
TriageHistoryEntry *
triage_history_model_get_entry_finish (TriageHistoryModel  *self,
                                       GAsyncResult        *result,
                                       GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* GObject */

static void
triage_history_model_dispose (GObject *object)
{
  TriageHistoryModel *self = (TriageHistoryModel *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  forget_pages (self);

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
  self->pages = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) page_free);
  self->waiters = g_ptr_array_new_with_free_func (g_object_unref);
  self->selected = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->filter = triage_history_filter_new ();
  g_queue_init (&self->lru);
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
