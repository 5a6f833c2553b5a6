/* test-history-db.c — the history's database: schema, queries, filters, search,
 * facets and read marks, on a real SQLite file. The statistics are in
 * test-history-db-stats.c, the paged model in test-history-db-model.c, the
 * fixture in history-db-test-common.c.
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <sqlite3.h>

#include "history-db-test-common.h"
#include "triage-browse-error.h"
#include "triage-history-model.h"
#include "triage-read-state.h"

static GArray *
query (TriageHistoryDb           *db,
       const TriageHistoryFilter *filter)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GArray *keys;

  triage_history_db_query_async (db, filter, NULL, browse_test_result_cb, &result);
  browse_test_wait_for (result != NULL);
  keys = triage_history_db_query_finish (db, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (keys);

  return keys;
}

/* Reads entries on the page thread and waits for them. */
static GPtrArray *
fetch (TriageHistoryDb  *db,
       const gint64     *rowids,
       guint             n_rowids,
       GError          **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  triage_history_db_fetch_async (db, rowids, n_rowids, NULL, browse_test_result_cb, &result);
  browse_test_wait_for (result != NULL);

  return triage_history_db_fetch_finish (db, result, error);
}

typedef gboolean (*RowPredicate) (const BrowseTestRow *row,
                                  gconstpointer        data);

/* The query's result must be exactly the rows the predicate keeps, newest first. */
static void
assert_query (Fixture                   *f,
              const TriageHistoryFilter *filter,
              RowPredicate               keep,
              gconstpointer              data)
{
  g_autoptr(GArray) keys = query (f->db, filter);
  guint expected = 0;

  for (guint i = f->rows->len; i-- > 0;)
    {
      const BrowseTestRow *row = &g_array_index (f->rows, BrowseTestRow, i);

      if (!keep (row, data))
        continue;

      g_assert_cmpuint (expected, <, keys->len);
      g_assert_cmpint (g_array_index (keys, TriageHistoryKey, expected).rowid, ==, row->rowid);
      expected++;
    }

  g_assert_cmpuint (keys->len, ==, expected);
  g_assert_cmpuint (expected, >, 0);
}

static gboolean
keep_all (const BrowseTestRow *row,
          gconstpointer        data)
{
  return TRUE;
}

static gboolean
keep_service (const BrowseTestRow *row,
              gconstpointer        data)
{
  return g_str_equal (row->service, data);
}

static gboolean
keep_project (const BrowseTestRow *row,
              gconstpointer        data)
{
  return g_strcmp0 (row->project, data) == 0;
}

static gboolean
keep_outcome (const BrowseTestRow *row,
              gconstpointer        data)
{
  return row->outcome == (TriageOutcome) GPOINTER_TO_INT (data);
}

static gboolean
keep_range (const BrowseTestRow *row,
            gconstpointer        data)
{
  const gint64 *range = data;

  return row->created_at >= range[0] && row->created_at < range[1];
}

static gboolean
keep_combined (const BrowseTestRow *row,
               gconstpointer        data)
{
  return g_str_equal (row->service, "CI") && g_strcmp0 (row->project, "beta") == 0 &&
         row->outcome == TRIAGE_OUTCOME_EXPIRED;
}

static void
test_open_missing (void)
{
  g_autofree char *dir = g_dir_make_tmp ("triage-history-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "nothing.db", NULL);
  g_autofree char *empty = g_build_filename (dir, "empty.db", NULL);
  g_autoptr(TriageHistoryDb) db = triage_history_db_new (path);
  g_autoptr(TriageHistoryDb) db2 = triage_history_db_new (empty);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) result2 = NULL;
  g_autoptr(GError) error = NULL;
  sqlite3 *raw = NULL;

  /* No file: a clear error, and no file created behind the store's back. */
  triage_history_db_open_async (db, NULL, browse_test_result_cb, &result);
  browse_test_wait_for (result != NULL);
  g_assert_false (triage_history_db_open_finish (db, result, &error));
  g_assert_error (error, TRIAGE_BROWSE_ERROR, TRIAGE_BROWSE_ERROR_NO_DATABASE);
  g_assert_nonnull (strstr (error->message, "nothing.db"));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_false (triage_history_db_is_open (db));
  g_clear_error (&error);

  /* A database without the store's tables. */
  g_assert_cmpint (sqlite3_open (empty, &raw), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (raw, "CREATE TABLE other (x)", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (raw);
  triage_history_db_open_async (db2, NULL, browse_test_result_cb, &result2);
  browse_test_wait_for (result2 != NULL);
  g_assert_false (triage_history_db_open_finish (db2, result2, &error));
  g_assert_error (error, TRIAGE_BROWSE_ERROR, TRIAGE_BROWSE_ERROR_NO_DATABASE);
  g_assert_nonnull (strstr (error->message, "requests table"));

  g_clear_object (&db);
  g_clear_object (&db2);
  browse_test_rm_rf (dir);
}

static void
test_not_open (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(TriageHistoryDb) db = triage_history_db_new (f->path);
  g_autoptr(TriageHistoryFilter) filter = triage_history_filter_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gint64 rowid = 1;

  triage_history_db_query_async (db, filter, NULL, browse_test_result_cb, &result);
  browse_test_wait_for (result != NULL);
  g_assert_null (triage_history_db_query_finish (db, result, &error));
  g_assert_error (error, TRIAGE_BROWSE_ERROR, TRIAGE_BROWSE_ERROR_NOT_OPEN);
  g_clear_error (&error);

  g_assert_null (fetch (db, &rowid, 1, &error));
  g_assert_error (error, TRIAGE_BROWSE_ERROR, TRIAGE_BROWSE_ERROR_NOT_OPEN);
}

static void
test_filters (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(TriageHistoryFilter) filter = triage_history_filter_new ();
  gint64 range[2];

  assert_query (f, filter, keep_all, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (browse_test_services); i++)
    {
      g_free (filter->service);
      filter->service = g_strdup (browse_test_services[i]);
      assert_query (f, filter, keep_service, browse_test_services[i]);
    }
  g_clear_pointer (&filter->service, g_free);

  for (guint i = 0; i < G_N_ELEMENTS (browse_test_projects); i++)
    {
      g_free (filter->project);
      /* "" asks for the requests without a project. */
      filter->project = g_strdup (browse_test_projects[i] ? browse_test_projects[i] : "");
      assert_query (f, filter, keep_project, browse_test_projects[i]);
    }
  g_clear_pointer (&filter->project, g_free);

  for (int outcome = TRIAGE_OUTCOME_NONE; outcome <= TRIAGE_OUTCOME_REJECTED; outcome++)
    {
      filter->outcome = outcome;
      assert_query (f, filter, keep_outcome, GINT_TO_POINTER (outcome));
    }
  filter->outcome = TRIAGE_HISTORY_OUTCOME_ANY;

  /* Received on the second day (UTC): bounds are inclusive, then exclusive. */
  range[0] = BROWSE_TEST_BASE_USEC + G_TIME_SPAN_DAY;
  range[1] = BROWSE_TEST_BASE_USEC + 2 * G_TIME_SPAN_DAY;
  filter->from_usec = range[0];
  filter->to_usec = range[1];
  assert_query (f, filter, keep_range, range);
  {
    g_autoptr(GArray) keys = query (f->db, filter);

    /* One row every ten minutes: 144 a day. */
    g_assert_cmpuint (keys->len, ==, 144);
  }
  filter->from_usec = 0;
  filter->to_usec = 0;

  filter->service = g_strdup ("CI");
  filter->project = g_strdup ("beta");
  filter->outcome = TRIAGE_OUTCOME_EXPIRED;
  assert_query (f, filter, keep_combined, NULL);
}

static guint
count_matches (TriageHistoryDb *db,
               const char      *text)
{
  g_autoptr(TriageHistoryFilter) filter = triage_history_filter_new ();
  g_autoptr(GArray) keys = NULL;

  filter->text = g_strdup (text);
  keys = query (db, filter);

  return keys->len;
}

static void
test_search (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(TriageHistoryFilter) filter = triage_history_filter_new ();
  g_autoptr(GArray) keys = NULL;
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GError) error = NULL;
  guint expected_42 = 0;

  /* Rows with a word starting "42": the row number or its build number. */
  for (guint i = 0; i < N_ROWS; i++)
    {
      g_autofree char *number = g_strdup_printf ("%u", i);
      g_autofree char *build = g_strdup_printf ("%u", i % 100);

      if (g_str_has_prefix (number, "42") || g_str_has_prefix (build, "42"))
        expected_42++;
    }
  g_assert_cmpuint (expected_42, ==, 34);

  /* Title, description, service and project words; prefixes; any case. */
  g_assert_cmpuint (count_matches (f->db, "request"), ==, N_ROWS);
  g_assert_cmpuint (count_matches (f->db, "REQUEST 42"), ==, expected_42);
  g_assert_cmpuint (count_matches (f->db, "w3"), ==, N_ROWS / 10);
  g_assert_cmpuint (count_matches (f->db, "deplo"), ==, N_ROWS);
  g_assert_cmpuint (count_matches (f->db, "pipeline"), ==, N_ROWS / 5);
  g_assert_cmpuint (count_matches (f->db, "gamma w3"), ==, 0);   /* i % 4 == 2 and i % 10 == 3: never */
  g_assert_cmpuint (count_matches (f->db, "gamma w2"), ==, N_ROWS / 20);
  /* Accents do not matter either way. */
  g_assert_cmpuint (count_matches (f->db, "cafe"), ==, N_ROWS / 5);
  g_assert_cmpuint (count_matches (f->db, "CAFÉ"), ==, N_ROWS / 5);
  /* What FTS5 would read as syntax is plain text. */
  g_assert_cmpuint (count_matches (f->db, "\"unbalanced"), ==, 0);
  g_assert_cmpuint (count_matches (f->db, "NEAR( OR AND NOT *"), ==, 0);
  g_assert_cmpuint (count_matches (f->db, "title:request"), ==, 0);
  g_assert_cmpuint (count_matches (f->db, "   "), ==, N_ROWS);
  g_assert_cmpuint (count_matches (f->db, "zzzz"), ==, 0);

  /* With a filter: text and service together. */
  filter->text = g_strdup ("w3");
  filter->service = g_strdup ("CI");
  keys = query (f->db, filter);
  g_assert_cmpuint (keys->len, ==, 0);   /* i % 10 == 3 implies i % 5 == 3: "Café agent" */
  g_clear_pointer (&keys, g_array_unref);
  g_free (filter->service);
  filter->service = g_strdup ("Café agent");
  keys = query (f->db, filter);
  g_assert_cmpuint (keys->len, ==, N_ROWS / 10);

  /* The entries read back are the right ones. */
  entries = fetch (f->db, &g_array_index (keys, TriageHistoryKey, 0).rowid, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (triage_history_entry_get_service_name (g_ptr_array_index (entries, 0)), ==, "Café agent");
  g_assert_nonnull (strstr (triage_history_entry_get_data (g_ptr_array_index (entries, 0))->description, "w3"));
}

static void
test_index_follows_store (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(AtpNotification) first = NULL;
  g_autoptr(AtpNotification) renamed = NULL;
  g_autoptr(TriageHistoryDb) second = NULL;

  f->db = browse_test_open_history (f->path);

  /* Saved after the history was set up: the triggers index it. */
  first = browse_test_notification ("11111111-1111-4111-8111-111111111111", "Bot", "p",
                                    "Rotate the keys", "Old description", BROWSE_TEST_BASE_USEC, 0);
  browse_test_save (f->store, first);
  g_assert_cmpuint (count_matches (f->db, "rotate"), ==, 1);
  g_assert_cmpuint (count_matches (f->db, "old"), ==, 1);

  /* The store saves a changed body: the old words leave the index. */
  renamed = browse_test_notification ("11111111-1111-4111-8111-111111111111", "Bot", "p",
                                      "Renew the certificate", "New description",
                                      BROWSE_TEST_BASE_USEC, 0);
  browse_test_save (f->store, renamed);
  g_assert_cmpuint (count_matches (f->db, "rotate"), ==, 0);
  g_assert_cmpuint (count_matches (f->db, "old"), ==, 0);
  g_assert_cmpuint (count_matches (f->db, "certificate"), ==, 1);
  g_assert_cmpuint (count_matches (f->db, "new"), ==, 1);

  /* Saved again unchanged (a resync): still one entry. */
  browse_test_save (f->store, renamed);
  g_assert_cmpuint (count_matches (f->db, "renew"), ==, 1);

  /* A second history on the same file finds everything set up. */
  second = browse_test_open_history (f->path);
  g_assert_cmpuint (count_matches (second, "certificate"), ==, 1);
}

static void
test_entries (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(AtpNotification) notification = NULL;
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) keys = NULL;
  g_autoptr(TriageHistoryFilter) filter = triage_history_filter_new ();
  TriageHistoryEntry *entry;
  const TriageHistoryEntryData *row;
  g_autofree char *answer = NULL;
  g_autofree char *who = NULL;
  g_autofree char *outcome = NULL;
  g_autofree char *took = NULL;
  gint64 missing = 999999;

  f->db = browse_test_open_history (f->path);
  notification = browse_test_notification ("22222222-2222-4222-8222-222222222222", "Deploy bot",
                                           "alpha", "Ship 2.1?", "To production",
                                           BROWSE_TEST_BASE_USEC, BROWSE_TEST_BASE_USEC + G_TIME_SPAN_HOUR);
  browse_test_save (f->store, notification);
  browse_test_answer (f->store, notification->id, "priority", "\"high\"",
                      BROWSE_TEST_BASE_USEC + 95 * G_USEC_PER_SEC);

  keys = query (f->db, filter);
  g_assert_cmpuint (keys->len, ==, 1);
  entries = fetch (f->db, &g_array_index (keys, TriageHistoryKey, 0).rowid, 1, &error);
  g_assert_no_error (error);
  entry = g_ptr_array_index (entries, 0);
  row = triage_history_entry_get_data (entry);

  g_assert_cmpstr (row->id, ==, notification->id);
  g_assert_cmpstr (row->title, ==, "Ship 2.1?");
  g_assert_cmpstr (row->description, ==, "To production");
  g_assert_cmpstr (row->project, ==, "alpha");
  g_assert_cmpstr (row->action_id, ==, "priority");
  g_assert_cmpstr (row->action_label, ==, "Set priority");
  g_assert_cmpstr (row->response_data, ==, "\"high\"");
  g_assert_cmpstr (row->responder_id, ==, "user-1");
  g_assert_cmpint (row->created_at, ==, BROWSE_TEST_BASE_USEC);
  g_assert_cmpint (row->deadline, ==, BROWSE_TEST_BASE_USEC + G_TIME_SPAN_HOUR);
  g_assert_cmpint (triage_history_entry_get_outcome (entry), ==, TRIAGE_OUTCOME_ANSWERED);
  g_assert_cmpint (triage_history_entry_get_response_time (entry), ==, 95 * G_USEC_PER_SEC);

  answer = triage_history_entry_dup_answer_text (entry);
  who = triage_history_entry_dup_responder_text (entry);
  outcome = triage_history_entry_dup_outcome_label (entry);
  took = triage_history_format_duration (triage_history_entry_get_response_time (entry));
  /* In words, as docs/protocol.md says: the option's label, not its value. */
  g_assert_cmpstr (answer, ==, "‘Set priority’: High");
  g_assert_cmpstr (who, ==, "user-1");
  g_assert_cmpstr (outcome, ==, "Answered here");
  g_assert_cmpstr (took, ==, "1 min");

  /* A row that is gone reads as an empty entry, not an error. */
  g_clear_pointer (&entries, g_ptr_array_unref);
  entries = fetch (f->db, &missing, 1, &error);
  g_assert_no_error (error);
  g_assert_null (triage_history_entry_get_id (g_ptr_array_index (entries, 0)));
}

static void
test_durations (void)
{
  struct { gint64 usec; const char *text; } cases[] = {
    { -1, "" },
    { 0, "0 s" },
    { 400 * 1000, "0 s" },
    { 59 * G_TIME_SPAN_SECOND, "59 s" },
    { 60 * G_TIME_SPAN_SECOND, "1 min" },
    { 3599 * G_TIME_SPAN_SECOND, "59 min" },
    { G_TIME_SPAN_HOUR, "1 h" },
    { G_TIME_SPAN_HOUR + 5 * G_TIME_SPAN_MINUTE, "1 h 5 min" },
    { G_TIME_SPAN_DAY, "1 day" },
    { 3 * G_TIME_SPAN_DAY + G_TIME_SPAN_HOUR, "3 days" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = triage_history_format_duration (cases[i].usec);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

static void
test_facets (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TriageHistoryFacets) facets = NULL;
  const char *services[] = { "CI", "Café agent", "Data pipeline", "Deploy bot", "Reviewer", NULL };
  const char *projects[] = { "alpha", "beta", "gamma", NULL };

  triage_history_db_facets_async (f->db, NULL, browse_test_result_cb, &result);
  browse_test_wait_for (result != NULL);
  facets = triage_history_db_facets_finish (f->db, result, &error);
  g_assert_no_error (error);

  g_assert_true (g_strv_equal ((const char * const *) facets->services, services));
  g_assert_true (g_strv_equal ((const char * const *) facets->projects, projects));
  g_assert_true (facets->has_no_project);
}

static void
test_read_marks (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(TriageReadState) state = NULL;
  g_autoptr(TriageReadState) again = NULL;
  g_autoptr(TriageReadState) memory = triage_read_state_new (NULL);
  g_autoptr(AtpNotification) pending = NULL;
  g_autoptr(AtpNotification) settled = NULL;
  guint changes = 0;

  f->db = browse_test_open_history (f->path);
  pending = browse_test_notification ("33333333-3333-4333-8333-333333333333", "CI", NULL,
                                      "Pending", "d", BROWSE_TEST_BASE_USEC, 0);
  settled = browse_test_notification ("44444444-4444-4444-8444-444444444444", "CI", NULL,
                                      "Settled", "d", BROWSE_TEST_BASE_USEC, 0);
  browse_test_save (f->store, pending);
  browse_test_save (f->store, settled);

  state = triage_read_state_new (f->db);
  browse_test_wait_for (triage_read_state_get_loaded (state));
  g_assert_false (triage_read_state_is_read (state, pending->id));

  /* Marked read before the store saved it: kept all the same. */
  triage_read_state_set_read (state, pending->id, TRUE);
  triage_read_state_set_read (state, settled->id, TRUE);
  triage_read_state_set_read (state, "55555555-5555-4555-8555-555555555555", TRUE);
  triage_read_state_set_read (state, "55555555-5555-4555-8555-555555555555", FALSE);
  g_assert_true (triage_read_state_is_read (state, pending->id));
  g_assert_false (triage_read_state_is_read (state, "55555555-5555-4555-8555-555555555555"));

  browse_test_set_outcome (f->store, settled->id, ATP_STATUS_EXPIRED, TRIAGE_OUTCOME_EXPIRED);

  /* A new read state (a restart) reads the marks back; settled ones are left out. */
  g_clear_object (&state);
  again = triage_read_state_new (f->db);
  browse_test_wait_for (triage_read_state_get_loaded (again));
  g_assert_true (triage_read_state_is_read (again, pending->id));
  g_assert_false (triage_read_state_is_read (again, settled->id));
  g_assert_false (triage_read_state_is_read (again, "55555555-5555-4555-8555-555555555555"));

  /* In memory only, loaded at once. */
  g_assert_true (triage_read_state_get_loaded (memory));
  g_signal_connect_swapped (memory, "changed", G_CALLBACK (history_db_test_count_signal), &changes);
  triage_read_state_set_read (memory, "x", TRUE);
  triage_read_state_set_read (memory, "x", TRUE);
  g_assert_true (triage_read_state_is_read (memory, "x"));
  g_assert_cmpuint (changes, ==, 1);

  /* Given the database later (the app's history opened after the store, or
   * again after a failure): what was marked meanwhile is stored, and wins
   * over what was stored before. */
  triage_read_state_set_read (memory, pending->id, TRUE);
  triage_read_state_set_read (memory, pending->id, FALSE);
  triage_read_state_set_read (memory, "66666666-6666-4666-8666-666666666666", TRUE);
  triage_read_state_set_db (memory, f->db);
  g_assert_false (triage_read_state_get_loaded (memory));
  browse_test_wait_for (triage_read_state_get_loaded (memory));
  g_assert_false (triage_read_state_is_read (memory, pending->id));
  g_assert_true (triage_read_state_is_read (memory, "66666666-6666-4666-8666-666666666666"));
  g_clear_object (&again);
  again = triage_read_state_new (f->db);
  browse_test_wait_for (triage_read_state_get_loaded (again));
  g_assert_false (triage_read_state_is_read (again, pending->id));
  g_assert_true (triage_read_state_is_read (again, "66666666-6666-4666-8666-666666666666"));
}

static void
test_check_changed (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(AtpNotification) notification = NULL;

  g_assert_false (triage_history_db_check_changed (f->db));
  notification = browse_test_notification ("66666666-6666-4666-8666-666666666666", "CI", NULL,
                                           "New", "d", BROWSE_TEST_BASE_USEC, 0);
  browse_test_save (f->store, notification);
  g_assert_true (triage_history_db_check_changed (f->db));
  g_assert_false (triage_history_db_check_changed (f->db));
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("TZ", "UTC", TRUE);
  g_test_init (&argc, &argv, NULL);

#define ADD HISTORY_DB_TEST_ADD

  g_test_add_func ("/history/db/open-missing", test_open_missing);
  ADD ("/history/db/not-open", history_db_test_setup, test_not_open);
  ADD ("/history/db/filters", history_db_test_setup_rows, test_filters);
  ADD ("/history/db/search", history_db_test_setup_rows, test_search);
  ADD ("/history/db/index-follows-store", history_db_test_setup, test_index_follows_store);
  ADD ("/history/db/entries", history_db_test_setup, test_entries);
  g_test_add_func ("/history/db/durations", test_durations);
  ADD ("/history/db/facets", history_db_test_setup_rows, test_facets);
  history_db_test_add_stats ();
  ADD ("/history/db/read-marks", history_db_test_setup, test_read_marks);
  ADD ("/history/db/check-changed", history_db_test_setup_rows, test_check_changed);
  history_db_test_add_model ();

#undef ADD

  return g_test_run ();
}
