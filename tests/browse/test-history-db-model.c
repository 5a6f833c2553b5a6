/* test-history-db-model.c — test-history-db's paged model: pages read on the
 * page thread, reloads as diffs, the selection, superseded reads
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "history-db-test-common.h"
#include "triage-history-model.h"

/* The model */

typedef struct
{
  guint position;
  guint removed;
  guint added;
} Change;

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  GArray     *changes)
{
  Change change = { position, removed, added };

  g_array_append_val (changes, change);
}

static void
wait_loaded (TriageHistoryModel *model)
{
  browse_test_wait_for (!triage_history_model_get_loading (model));
}

/* The entry at a position once its page is read. */
static TriageHistoryEntry *
get_entry (TriageHistoryModel *model,
           guint               position)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  TriageHistoryEntry *entry;

  triage_history_model_get_entry_async (model, position, NULL, browse_test_result_cb, &result);
  browse_test_wait_for (result != NULL);
  entry = triage_history_model_get_entry_finish (model, result, &error);
  g_assert_no_error (error);

  return entry;
}

static void
test_model_paging (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(TriageHistoryModel) model = triage_history_model_new (f->db);
  g_autoptr(TriageHistoryFilter) filter = triage_history_filter_new ();
  g_autoptr(GtkBitset) some = gtk_bitset_new_range (3, 2);
  g_autoptr(GArray) all = NULL;
  g_autoptr(GArray) selected = NULL;

  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (model)) == TRIAGE_TYPE_HISTORY_ENTRY);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 0);

  triage_history_model_reload (model);
  g_assert_true (triage_history_model_get_loading (model));
  wait_loaded (model);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, N_ROWS);
  g_assert_cmpuint (triage_history_model_get_n_cached (model), ==, 0);

  /* Newest first; read a page at a time; never more than a few pages held. */
  for (guint i = 0; i < N_ROWS; i += 7)
    {
      g_autoptr(TriageHistoryEntry) entry = get_entry (model, i);
      const BrowseTestRow *row = &g_array_index (f->rows, BrowseTestRow, N_ROWS - 1 - i);

      g_assert_cmpstr (triage_history_entry_get_id (entry), ==, row->id);
      g_assert_cmpuint (triage_history_model_get_n_cached (model), <=,
                        TRIAGE_HISTORY_MAX_PAGES * TRIAGE_HISTORY_PAGE_SIZE);
    }
  browse_test_wait_for (triage_history_model_get_n_cached (model) ==
                        TRIAGE_HISTORY_MAX_PAGES * TRIAGE_HISTORY_PAGE_SIZE);
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (model), N_ROWS));

  /* Row ids for an export, without reading rows. */
  all = triage_history_model_dup_rowids (model, NULL);
  selected = triage_history_model_dup_rowids (model, some);
  g_assert_cmpuint (all->len, ==, N_ROWS);
  g_assert_cmpint (g_array_index (all, gint64, 0), ==, N_ROWS);
  g_assert_cmpuint (selected->len, ==, 2);
  g_assert_cmpint (g_array_index (selected, gint64, 0), ==, N_ROWS - 3);
  g_assert_cmpint (g_array_index (selected, gint64, 1), ==, N_ROWS - 4);

  /* A filter that leaves nothing. */
  filter->text = g_strdup ("nothing-like-this");
  triage_history_model_set_filter (model, filter);
  wait_loaded (model);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 0);
  g_assert_true (triage_history_filter_equal (triage_history_model_get_filter (model), filter));
}

/* Pages are read on the page thread: the list gets placeholders at once,
 * then the page's arrival replaces them; the next page is read ahead. */
static void
test_model_async_pages (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(TriageHistoryModel) model = triage_history_model_new (f->db);
  g_autoptr(GArray) changes = g_array_new (FALSE, FALSE, sizeof (Change));
  g_autoptr(TriageHistoryEntry) placeholder = NULL;
  g_autoptr(TriageHistoryEntry) again = NULL;
  g_autoptr(TriageHistoryEntry) loaded = NULL;
  g_autoptr(TriageHistoryEntry) ahead = NULL;
  const BrowseTestRow *row = &g_array_index (f->rows, BrowseTestRow, N_ROWS - 1 - 5);
  Change *change;

  triage_history_model_reload (model);
  wait_loaded (model);
  g_signal_connect (model, "items-changed", G_CALLBACK (on_items_changed), changes);

  placeholder = g_list_model_get_item (G_LIST_MODEL (model), 5);
  g_assert_cmpint (triage_history_entry_get_rowid (placeholder), ==, row->rowid);
  g_assert_null (triage_history_entry_get_id (placeholder));
  g_assert_cmpuint (triage_history_model_get_n_cached (model), ==, 0);
  /* Asked again before it is read: the same placeholder, no second read. */
  again = g_list_model_get_item (G_LIST_MODEL (model), 5);
  g_assert_true (again == placeholder);

  browse_test_wait_for (changes->len == 1);
  change = &g_array_index (changes, Change, 0);
  g_assert_cmpuint (change->position, ==, 0);
  g_assert_cmpuint (change->removed, ==, TRIAGE_HISTORY_PAGE_SIZE);
  g_assert_cmpuint (change->added, ==, TRIAGE_HISTORY_PAGE_SIZE);
  loaded = g_list_model_get_item (G_LIST_MODEL (model), 5);
  g_assert_cmpstr (triage_history_entry_get_id (loaded), ==, row->id);
  g_assert_cmpuint (triage_history_model_get_n_cached (model), ==, TRIAGE_HISTORY_PAGE_SIZE);

  /* Near the page's end: the next page is read too, and arrives unasked. */
  g_array_set_size (changes, 0);
  g_clear_object (&again);
  again = g_list_model_get_item (G_LIST_MODEL (model), TRIAGE_HISTORY_PAGE_SIZE - 10);
  g_assert_nonnull (triage_history_entry_get_id (again));
  browse_test_wait_for (changes->len == 1);
  g_assert_cmpuint (g_array_index (changes, Change, 0).position, ==, TRIAGE_HISTORY_PAGE_SIZE);
  ahead = g_list_model_get_item (G_LIST_MODEL (model), TRIAGE_HISTORY_PAGE_SIZE);
  g_assert_nonnull (triage_history_entry_get_id (ahead));

  /* A new result drops the pages, and a read of the old result that ends
   * after it changes nothing. */
  g_clear_object (&placeholder);
  placeholder = g_list_model_get_item (G_LIST_MODEL (model), 1000);
  g_assert_null (triage_history_entry_get_id (placeholder));
  {
    g_autoptr(TriageHistoryFilter) filter = triage_history_filter_new ();

    filter->service = g_strdup ("CI");
    triage_history_model_set_filter (model, filter);
    wait_loaded (model);
  }
  g_array_set_size (changes, 0);
  browse_test_pump ();
  g_assert_cmpuint (changes->len, ==, 0);
  g_assert_cmpuint (triage_history_model_get_n_cached (model), ==, 0);
}

static void
test_model_reload_diff (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(TriageHistoryModel) model = triage_history_model_new (f->db);
  g_autoptr(GArray) changes = g_array_new (FALSE, FALSE, sizeof (Change));
  g_autoptr(AtpNotification) newest = NULL;
  const BrowseTestRow *middle = &g_array_index (f->rows, BrowseTestRow, N_ROWS - 1 - 500);
  g_autoptr(TriageHistoryEntry) before = NULL;
  g_autoptr(TriageHistoryEntry) after = NULL;
  Change *change;

  triage_history_model_reload (model);
  wait_loaded (model);
  g_signal_connect (model, "items-changed", G_CALLBACK (on_items_changed), changes);

  /* Nothing changed: nothing announced. */
  triage_history_model_reload (model);
  wait_loaded (model);
  g_assert_cmpuint (changes->len, ==, 0);

  /* A new request (the newest): one insertion at the top. */
  newest = browse_test_notification ("77777777-7777-4777-8777-777777777777", "CI", NULL,
                                     "Newest", "d", BROWSE_TEST_BASE_USEC + 100 * G_TIME_SPAN_DAY, 0);
  browse_test_save (f->store, newest);
  triage_history_model_reload (model);
  wait_loaded (model);
  g_assert_cmpuint (changes->len, ==, 1);
  change = &g_array_index (changes, Change, 0);
  g_assert_cmpuint (change->position, ==, 0);
  g_assert_cmpuint (change->removed, ==, 0);
  g_assert_cmpuint (change->added, ==, 1);
  g_array_set_size (changes, 0);

  /* A row settled in place (position 501 now): that row alone. */
  before = get_entry (model, 501);
  g_array_set_size (changes, 0);   /* the page's arrival */
  g_assert_cmpstr (triage_history_entry_get_id (before), ==, middle->id);
  browse_test_set_outcome (f->store, middle->id, ATP_STATUS_EXPIRED, TRIAGE_OUTCOME_EXPIRED);
  triage_history_model_reload (model);
  wait_loaded (model);
  g_assert_cmpuint (changes->len, ==, 1);
  change = &g_array_index (changes, Change, 0);
  g_assert_cmpuint (change->position, ==, 501);
  g_assert_cmpuint (change->removed, ==, 1);
  g_assert_cmpuint (change->added, ==, 1);
  after = get_entry (model, 501);
  g_assert_true (after != before);
  g_assert_cmpint (triage_history_entry_get_outcome (after), ==,
                   middle->outcome == TRIAGE_OUTCOME_NONE ? TRIAGE_OUTCOME_EXPIRED : middle->outcome);
}

static void
test_model_selection (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(TriageHistoryModel) model = triage_history_model_new (f->db);
  GtkSelectionModel *selection = GTK_SELECTION_MODEL (model);
  g_autoptr(TriageHistoryFilter) filter = triage_history_filter_new ();
  g_autoptr(AtpNotification) newest = NULL;
  g_autoptr(GtkBitset) bits = NULL;
  guint changes = 0;

  triage_history_model_reload (model);
  wait_loaded (model);
  g_signal_connect_swapped (model, "selection-changed", G_CALLBACK (history_db_test_count_signal), &changes);

  g_assert_false (gtk_selection_model_is_selected (selection, 0));
  g_assert_true (gtk_selection_model_select_range (selection, 10, 3, FALSE));
  g_assert_true (gtk_selection_model_select_item (selection, 500, FALSE));
  g_assert_cmpuint (changes, ==, 2);
  bits = gtk_selection_model_get_selection (selection);
  g_assert_cmpuint (gtk_bitset_get_size (bits), ==, 4);
  g_assert_true (gtk_selection_model_is_selected (selection, 11));
  g_assert_false (gtk_selection_model_is_selected (selection, 13));
  /* Selecting reads no entry. */
  g_assert_cmpuint (triage_history_model_get_n_cached (model), ==, 0);

  /* A new row on top: the same rows stay selected, one position down. */
  newest = browse_test_notification ("88888888-8888-4888-8888-888888888888", "CI", NULL, "Newest",
                                     "d", BROWSE_TEST_BASE_USEC + 100 * G_TIME_SPAN_DAY, 0);
  browse_test_save (f->store, newest);
  triage_history_model_reload (model);
  wait_loaded (model);
  g_assert_false (gtk_selection_model_is_selected (selection, 10));
  g_assert_true (gtk_selection_model_is_selected (selection, 11));
  g_assert_true (gtk_selection_model_is_selected (selection, 13));
  g_assert_true (gtk_selection_model_is_selected (selection, 501));

  g_assert_true (gtk_selection_model_unselect_item (selection, 11));
  g_clear_pointer (&bits, gtk_bitset_unref);
  bits = gtk_selection_model_get_selection (selection);
  g_assert_cmpuint (gtk_bitset_get_size (bits), ==, 3);

  /* A new search starts with nothing selected. */
  filter->service = g_strdup ("CI");
  triage_history_model_set_filter (model, filter);
  wait_loaded (model);
  g_clear_pointer (&bits, gtk_bitset_unref);
  bits = gtk_selection_model_get_selection (selection);
  g_assert_true (gtk_bitset_is_empty (bits));

  g_assert_true (gtk_selection_model_select_all (selection));
  g_clear_pointer (&bits, gtk_bitset_unref);
  bits = gtk_selection_model_get_selection (selection);
  g_assert_cmpuint (gtk_bitset_get_size (bits), ==, N_ROWS / 5 + 1);
  g_assert_true (gtk_selection_model_unselect_all (selection));
  g_clear_pointer (&bits, gtk_bitset_unref);
  bits = gtk_selection_model_get_selection (selection);
  g_assert_true (gtk_bitset_is_empty (bits));
}

static void
test_model_supersede (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(TriageHistoryModel) model = triage_history_model_new (f->db);
  g_autoptr(TriageHistoryFilter) first = triage_history_filter_new ();
  g_autoptr(TriageHistoryFilter) second = triage_history_filter_new ();
  guint failures = 0;

  g_signal_connect_swapped (model, "failed", G_CALLBACK (history_db_test_count_signal), &failures);

  /* The second filter wins, whatever order the queries end in. */
  first->service = g_strdup ("CI");
  second->service = g_strdup ("Reviewer");
  triage_history_model_set_filter (model, first);
  triage_history_model_set_filter (model, second);
  wait_loaded (model);
  browse_test_pump ();
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, N_ROWS / 5);
  {
    g_autoptr(TriageHistoryEntry) entry = get_entry (model, 0);

    g_assert_cmpstr (triage_history_entry_get_service_name (entry), ==, "Reviewer");
  }
  g_assert_cmpuint (failures, ==, 0);
}

void
history_db_test_add_model (void)
{
  HISTORY_DB_TEST_ADD ("/history/model/paging", history_db_test_setup_rows, test_model_paging);
  HISTORY_DB_TEST_ADD ("/history/model/async-pages", history_db_test_setup_rows, test_model_async_pages);
  HISTORY_DB_TEST_ADD ("/history/model/reload-diff", history_db_test_setup_rows, test_model_reload_diff);
  HISTORY_DB_TEST_ADD ("/history/model/selection", history_db_test_setup_rows, test_model_selection);
  HISTORY_DB_TEST_ADD ("/history/model/supersede", history_db_test_setup_rows, test_model_supersede);
}
