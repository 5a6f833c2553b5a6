/* test-history-db-stats.c — test-history-db's statistics: the counts, the
 * summary and the per-service series the chart shows
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "history-db-test-common.h"

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
      /* Outcomes cycle every six rows; 144 is a multiple of six. None is
       * "no longer on the server" (only a lookup's 404 records that). */
      for (guint c = 0; c < TRIAGE_HISTORY_N_CATEGORIES; c++)
        g_assert_cmpuint (bucket->counts[c], ==, c == TRIAGE_HISTORY_CATEGORY_GONE ? 0 : per_day / 6);
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

void
history_db_test_add_stats (void)
{
  HISTORY_DB_TEST_ADD ("/history/db/stats", history_db_test_setup_rows, test_stats);
  g_test_add_func ("/history/db/stats-empty", test_stats_empty);
  g_test_add_func ("/history/db/stats-series", test_stats_series);
}
