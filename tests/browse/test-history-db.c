/* test-history-db.c — the history's database: schema, queries, filters, search,
 * statistics, read marks, and the paged model, on a real SQLite file
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <sqlite3.h>

#include "browse-test-common.h"
#include "triage-browse-error.h"
#include "triage-history-model.h"
#include "triage-read-state.h"

#define N_ROWS 2400

typedef struct
{
  char            *dir;
  char            *path;
  TriageStore     *store;
  TriageHistoryDb *db;
  GArray          *rows;   /* BrowseTestRow */
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->dir = g_dir_make_tmp ("triage-history-XXXXXX", NULL);
  f->path = g_build_filename (f->dir, "triage.db", NULL);
  f->store = browse_test_open_store (f->path);
}

/* Rows first, history opened after: the full-text index is built from them. */
static void
fixture_setup_rows (Fixture       *f,
                    gconstpointer  data)
{
  fixture_setup (f, data);
  f->rows = browse_test_generate (f->path, N_ROWS, BROWSE_TEST_BASE_USEC, 10 * G_TIME_SPAN_MINUTE);
  f->db = browse_test_open_history (f->path);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  if (f->db != NULL)
    browse_test_finalize (g_steal_pointer (&f->db));
  browse_test_close_store (&f->store);
  g_clear_pointer (&f->rows, browse_test_rows_free);
  browse_test_rm_rf (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

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
  g_assert_cmpstr (answer, ==, "Set priority: \"high\"");
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

static TriageHistoryStats *
stats_for (TriageHistoryDb           *db,
           const TriageHistoryFilter *filter,
           gint64                     first_day,
           guint                      n_days)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDateTime) first = g_date_time_new_from_unix_utc (first_day / G_USEC_PER_SEC);
  TriageHistoryStats *stats;

  triage_history_db_stats_async (db, filter, first, n_days, NULL, browse_test_result_cb, &result);
  browse_test_wait_for (result != NULL);
  stats = triage_history_db_stats_finish (db, result, &error);
  g_assert_no_error (error);

  return stats;
}

static void
test_stats (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(TriageHistoryFilter) filter = triage_history_filter_new ();
  g_autoptr(TriageHistoryStats) stats = NULL;
  g_autoptr(TriageHistoryStats) ci = NULL;
  g_autoptr(TriageHistoryStats) long_range = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *ci_summary = NULL;
  guint per_day = 144;

  /* The test runs in UTC: a day is 144 rows (2,400 rows cover 16 days and 96 rows). */
  stats = stats_for (f->db, filter, BROWSE_TEST_BASE_USEC, 3);
  g_assert_cmpuint (triage_history_stats_get_n_buckets (stats), ==, 3);
  g_assert_cmpuint (triage_history_stats_get_days_per_bucket (stats), ==, 1);
  g_assert_cmpuint (triage_history_stats_get_total (stats), ==, 3 * per_day);
  for (guint i = 0; i < 3; i++)
    {
      const TriageHistoryBucket *bucket = triage_history_stats_get_bucket (stats, i);

      g_assert_cmpint (bucket->start, ==, BROWSE_TEST_BASE_USEC + i * G_TIME_SPAN_DAY);
      g_assert_cmpuint (bucket->total, ==, per_day);
      /* Outcomes cycle every six rows; 144 is a multiple of six. */
      for (guint c = 0; c < TRIAGE_HISTORY_N_CATEGORIES; c++)
        g_assert_cmpuint (bucket->counts[c], ==, per_day / 6);
    }
  g_assert_cmpuint (triage_history_stats_get_count (stats, TRIAGE_HISTORY_CATEGORY_ANSWERED), ==, 72);

  /* Answers take 10 × (i % 7 + 1) s for i % 6 in {1, 5}: over 42 rows both
   * kinds meet every i % 7, so times are 10..70 s evenly: the median is 40 s. */
  g_assert_cmpint (triage_history_stats_get_median_response (stats), ==, 40 * G_USEC_PER_SEC);

  summary = triage_history_stats_dup_summary (stats, NULL);
  g_assert_cmpstr (summary, ==,
                   BROWSE_TEST_SUMMARY_MARCH_2_TO_4);

  /* One service: only its rows count. */
  filter->service = g_strdup ("CI");
  ci = stats_for (f->db, filter, BROWSE_TEST_BASE_USEC, 1);
  g_assert_cmpuint (triage_history_stats_get_total (ci), ==, per_day / 5 + 1);  /* i % 5 == 0 in 0..143 */
  ci_summary = triage_history_stats_dup_summary (ci, "CI");
  g_assert_true (g_str_has_prefix (ci_summary, "From 2026-03-02 to 2026-03-02, CI: 29 requests. "));

  /* 100 days: buckets of four days, at most 31 of them. */
  g_clear_pointer (&filter->service, g_free);
  long_range = stats_for (f->db, filter, BROWSE_TEST_BASE_USEC, 100);
  g_assert_cmpuint (triage_history_stats_get_days_per_bucket (long_range), ==, 4);
  g_assert_cmpuint (triage_history_stats_get_n_buckets (long_range), ==, 25);
  g_assert_cmpuint (triage_history_stats_get_total (long_range), ==, N_ROWS);
  g_assert_cmpuint (triage_history_stats_get_bucket (long_range, 0)->total, ==, 4 * per_day);
}

static void
test_stats_empty (void)
{
  g_autoptr(GDateTime) day = g_date_time_new_utc (2026, 3, 2, 12, 0, 0);
  g_autoptr(TriageHistoryStats) stats = triage_history_stats_new (day, 7);
  g_autofree char *summary = NULL;

  triage_history_stats_finish (stats);
  g_assert_cmpint (triage_history_stats_get_median_response (stats), ==, -1);
  summary = triage_history_stats_dup_summary (stats, "CI");
  g_assert_cmpstr (summary, ==, "From 2026-03-02 to 2026-03-08, CI: no requests.");

  /* Outside the days: ignored. */
  g_clear_pointer (&stats, triage_history_stats_unref);
  stats = triage_history_stats_new (day, 1);
  triage_history_stats_add (stats, "CI", BROWSE_TEST_BASE_USEC - 1, TRIAGE_OUTCOME_ANSWERED, 5);
  triage_history_stats_add (stats, "CI", BROWSE_TEST_BASE_USEC + G_TIME_SPAN_DAY, TRIAGE_OUTCOME_ANSWERED, 5);
  triage_history_stats_add (stats, "CI", BROWSE_TEST_BASE_USEC, TRIAGE_OUTCOME_ANSWERED, 2 * G_USEC_PER_SEC);
  triage_history_stats_add (stats, "CI", BROWSE_TEST_BASE_USEC + 1, TRIAGE_OUTCOME_NONE, -1);
  triage_history_stats_add (stats, "CI", BROWSE_TEST_BASE_USEC + 2, TRIAGE_OUTCOME_ANSWERED, 4 * G_USEC_PER_SEC);
  triage_history_stats_finish (stats);
  g_assert_cmpuint (triage_history_stats_get_total (stats), ==, 3);
  g_assert_cmpuint (triage_history_stats_get_count (stats, TRIAGE_HISTORY_CATEGORY_PENDING), ==, 1);
  /* An even count: the mean of the two middle times. */
  g_assert_cmpint (triage_history_stats_get_median_response (stats), ==, 3 * G_USEC_PER_SEC);
  g_clear_pointer (&summary, g_free);
  summary = triage_history_stats_dup_summary (stats, NULL);
  g_assert_cmpstr (summary, ==, "From 2026-03-02 to 2026-03-02, all services: 3 requests. "
                                "2 answered here. 1 pending. Median response time: 3 s. "
                                "CI: 3 requests, median response time 3 s.");
}

/* Per service: the busiest by name, most requests first, then "Other". */
static void
test_stats_series (void)
{
  g_autoptr(GDateTime) day = g_date_time_new_utc (2026, 3, 2, 0, 0, 0);
  g_autoptr(TriageHistoryStats) stats = triage_history_stats_new (day, 2);
  g_autoptr(TriageHistoryStats) few = triage_history_stats_new (day, 1);
  g_autofree char *summary = NULL;
  /* Requests per service on day 1 and day 2; answered ones took 10 s × their service's rank. */
  static const struct { const char *name; guint day1; guint day2; } services[] = {
    { "CI", 5, 3 }, { "Deploy bot", 1, 6 }, { "Café agent", 4, 0 }, { "Reviewer", 2, 1 },
    { "Backup", 1, 1 }, { "Scheduler", 0, 1 }, { "Zeta", 1, 0 },
  };
  const TriageHistorySeries *series;

  for (guint s = 0; s < G_N_ELEMENTS (services); s++)
    for (guint d = 0; d < 2; d++)
      for (guint n = 0; n < (d == 0 ? services[s].day1 : services[s].day2); n++)
        triage_history_stats_add (stats, services[s].name,
                                  BROWSE_TEST_BASE_USEC + d * G_TIME_SPAN_DAY + n,
                                  n % 2 ? TRIAGE_OUTCOME_EXPIRED : TRIAGE_OUTCOME_ANSWERED,
                                  n % 2 ? -1 : (gint64) (s + 1) * 10 * G_USEC_PER_SEC);
  triage_history_stats_finish (stats);

  /* Seven services: four by name (8, 7, 4, 3 requests), three as "Other" (2, 1, 1). */
  g_assert_cmpuint (triage_history_stats_get_n_series (stats), ==, TRIAGE_HISTORY_STATS_MAX_SERIES + 1);
  series = triage_history_stats_get_series (stats, 0);
  g_assert_cmpstr (series->name, ==, "CI");
  g_assert_cmpuint (series->total, ==, 8);
  g_assert_cmpuint (series->counts[0], ==, 5);
  g_assert_cmpuint (series->counts[1], ==, 3);
  g_assert_cmpint (series->median_response, ==, 10 * G_USEC_PER_SEC);
  series = triage_history_stats_get_series (stats, 1);
  g_assert_cmpstr (series->name, ==, "Deploy bot");
  g_assert_cmpuint (series->counts[0], ==, 1);
  g_assert_cmpuint (series->counts[1], ==, 6);
  g_assert_cmpint (series->median_response, ==, 20 * G_USEC_PER_SEC);
  g_assert_cmpstr (triage_history_stats_get_series (stats, 2)->name, ==, "Café agent");
  series = triage_history_stats_get_series (stats, 3);
  g_assert_cmpstr (series->name, ==, "Reviewer");
  g_assert_cmpuint (series->total, ==, 3);
  series = triage_history_stats_get_series (stats, 4);
  g_assert_null (series->name);
  g_assert_cmpuint (series->n_services, ==, 3);
  g_assert_cmpuint (series->total, ==, 4);
  g_assert_cmpuint (series->counts[0], ==, 2);
  g_assert_cmpuint (series->counts[1], ==, 2);
  /* Backup 50 s (twice), Scheduler 60 s, Zeta 70 s: 50, 50, 60, 70. */
  g_assert_cmpint (series->median_response, ==, 55 * G_USEC_PER_SEC);
  g_assert_cmpint (triage_history_stats_get_max_series_median (stats), ==, 55 * G_USEC_PER_SEC);

  /* The summary says each series in words. */
  summary = triage_history_stats_dup_summary (stats, NULL);
  g_assert_nonnull (strstr (summary, " CI: 8 requests, median response time 10 s."
                                     " Deploy bot: 7 requests, median response time 20 s."
                                     " Café agent: 4 requests, median response time 30 s."
                                     " Reviewer: 3 requests, median response time 40 s."
                                     " 3 other services: 4 requests, median response time 55 s."));

  /* Five services or fewer: all by name, never an "Other" of one. */
  triage_history_stats_add (few, "CI", BROWSE_TEST_BASE_USEC, TRIAGE_OUTCOME_EXPIRED, -1);
  triage_history_stats_add (few, NULL, BROWSE_TEST_BASE_USEC, TRIAGE_OUTCOME_EXPIRED, -1);
  triage_history_stats_finish (few);
  g_assert_cmpuint (triage_history_stats_get_n_series (few), ==, 2);
  g_clear_pointer (&summary, g_free);
  summary = triage_history_stats_dup_summary (few, NULL);
  g_assert_true (g_str_has_suffix (summary, " No service: 1 request, none answered here."
                                            " CI: 1 request, none answered here."));
}

static void
count_signal (guint *count)
{
  (*count)++;
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
  g_signal_connect_swapped (memory, "changed", G_CALLBACK (count_signal), &changes);
  triage_read_state_set_read (memory, "x", TRUE);
  triage_read_state_set_read (memory, "x", TRUE);
  g_assert_true (triage_read_state_is_read (memory, "x"));
  g_assert_cmpuint (changes, ==, 1);
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
  g_signal_connect_swapped (model, "selection-changed", G_CALLBACK (count_signal), &changes);

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

  g_signal_connect_swapped (model, "failed", G_CALLBACK (count_signal), &failures);

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

int
main (int   argc,
      char *argv[])
{
  g_setenv ("TZ", "UTC", TRUE);
  g_test_init (&argc, &argv, NULL);

#define ADD(path, setup, func) \
  g_test_add (path, Fixture, NULL, setup, func, fixture_teardown)

  g_test_add_func ("/history/db/open-missing", test_open_missing);
  ADD ("/history/db/not-open", fixture_setup, test_not_open);
  ADD ("/history/db/filters", fixture_setup_rows, test_filters);
  ADD ("/history/db/search", fixture_setup_rows, test_search);
  ADD ("/history/db/index-follows-store", fixture_setup, test_index_follows_store);
  ADD ("/history/db/entries", fixture_setup, test_entries);
  g_test_add_func ("/history/db/durations", test_durations);
  ADD ("/history/db/facets", fixture_setup_rows, test_facets);
  ADD ("/history/db/stats", fixture_setup_rows, test_stats);
  g_test_add_func ("/history/db/stats-empty", test_stats_empty);
  g_test_add_func ("/history/db/stats-series", test_stats_series);
  ADD ("/history/db/read-marks", fixture_setup, test_read_marks);
  ADD ("/history/db/check-changed", fixture_setup_rows, test_check_changed);
  ADD ("/history/model/paging", fixture_setup_rows, test_model_paging);
  ADD ("/history/model/async-pages", fixture_setup_rows, test_model_async_pages);
  ADD ("/history/model/reload-diff", fixture_setup_rows, test_model_reload_diff);
  ADD ("/history/model/selection", fixture_setup_rows, test_model_selection);
  ADD ("/history/model/supersede", fixture_setup_rows, test_model_supersede);

  return g_test_run ();
}
