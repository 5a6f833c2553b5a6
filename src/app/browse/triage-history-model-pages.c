/* triage-history-model-pages.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-history"

#include "triage-history-model-private.h"

/*
 * The history model's entries: read a page of TRIAGE_HISTORY_PAGE_SIZE at a
 * time on the history's page thread, placeholders until then, the page
 * after (or before) read ahead, the last TRIAGE_HISTORY_MAX_PAGES kept.
 */

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
void
triage_history_model_forget_pages (TriageHistoryModel *self)
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
      g_signal_emit_by_name (self, "failed", error);
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

gpointer
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


void
triage_history_model_init_pages (TriageHistoryModel *self)
{
  self->pages = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) page_free);
  self->waiters = g_ptr_array_new_with_free_func (g_object_unref);
  g_queue_init (&self->lru);
}
