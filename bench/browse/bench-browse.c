/* bench-browse.c — the inbox with 10,000 pending requests and the history
 * with 100,000 entries: time to open, search and filter latency, memory
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * 1. A child process (this program with --generate) fills a fresh app
 *    database with N history rows through the store's schema and opens the
 *    history once (indexes and the full-text index are built over the
 *    existing rows, once per database), so that memory is not counted.
 * 2. The history: opening it (already indexed), then a
 *    TriageHistoryView in a window: time from creation to the first frame
 *    with the list and chart loaded; 100 queries (text, service, project,
 *    outcome, period, combinations): time until the list's results are in
 *    (p50, p99) and until list and chart are; entries at random positions
 *    (a scroll): the main thread's time to answer (a placeholder when the
 *    page is not held) and the time until the page arrives.
 * 3. The inbox: a TriageInboxModel with M pending requests, a
 *    TriageInboxPane in a window: time from creation to the first frame;
 *    100 searches and filters: time until the filtered list is complete
 *    and drawn (p50, p99).
 * 4. Resident memory at the end (VmRSS) and its peak (VmHWM).
 *
 * Needs a display: bench/browse/run.sh runs it under build-aux/run-headless.sh.
 * Usage: bench-browse [--history N] [--inbox M]; BENCH_VERBOSE=1 prints every
 * query.
 * Exit status 1 when a target is missed: search results p99 < 50 ms (the
 * inbox's filtered list complete; the history's list loaded), peak RSS <
 * 150 MiB. Times until the next frame is drawn are printed too.
 */

#include <adwaita.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "browse-test-common.h"
#include "triage-history-view.h"
#include "triage-inbox-model.h"
#include "triage-inbox-pane.h"

#define TARGET_SEARCH_MS 50.0
#define TARGET_RSS_MIB   150.0
#define N_QUERIES        100

static double
ms_since (gint64 start)
{
  return (g_get_monotonic_time () - start) / 1000.0;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
percentile (GArray *samples,
            double  p)
{
  guint index;

  g_array_sort (samples, compare_double);
  index = (guint) (p / 100.0 * (samples->len - 1) + 0.5);

  return g_array_index (samples, double, MIN (index, samples->len - 1));
}

static double
read_status_mib (const char *field)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) ||
      (line = strstr (status, field)) == NULL)
    return -1;

  return g_ascii_strtod (line + strlen (field), NULL) / 1024.0;
}

/* The first frame drawn after now. */
static gboolean frame_seen;

static void
on_after_paint (GdkFrameClock *clock,
                gpointer       data)
{
  frame_seen = TRUE;
}

static void
wait_for_frame (GtkWidget *window)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (window);
  gulong id;

  frame_seen = FALSE;
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), NULL);
  gtk_widget_queue_draw (window);
  while (!frame_seen)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (clock, id);
}

static GtkWidget *
new_window (GtkWidget *child)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 760);
  gtk_window_set_child (GTK_WINDOW (window), child);

  return window;
}

static void
present_and_wait (GtkWidget *window)
{
  GdkFrameClock *clock;
  gulong id;

  frame_seen = FALSE;
  gtk_window_present (GTK_WINDOW (window));
  while (!gtk_widget_get_realized (window))
    g_main_context_iteration (NULL, TRUE);
  clock = gtk_widget_get_frame_clock (window);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), NULL);
  while (!frame_seen)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (clock, id);
}

static void
report (const char *what,
        GArray     *samples)
{
  double p50 = percentile (samples, 50);
  double p99 = percentile (samples, 99);
  double max = g_array_index (samples, double, samples->len - 1);

  g_print ("  %-44s p50 %7.2f ms   p99 %7.2f ms   max %7.2f ms\n", what, p50, p99, max);
}

/* History */

typedef enum
{
  QUERY_TEXT,
  QUERY_SERVICE,
  QUERY_PROJECT,
  QUERY_OUTCOME,
  QUERY_RANGE,
  QUERY_TEXT_AND_SERVICE,
} QueryKind;

static void
apply_history_query (TriageHistoryView *view,
                     guint              i)
{
  static const char *words[] = { "deploy", "request 4", "w3", "build 17", "cafe", "pipeline",
                                 "generated row 99", "w7 alpha", "zzz", "request 12345" };
  QueryKind kind = i % 6;

  triage_history_view_clear_filters (view);

  switch (kind)
    {
    case QUERY_TEXT:
      triage_history_view_set_search_text (view, words[(i / 6) % G_N_ELEMENTS (words)]);
      break;

    case QUERY_SERVICE:
      triage_history_view_set_service_filter (view, browse_test_services[(i / 6) % 5]);
      break;

    case QUERY_PROJECT:
      triage_history_view_set_project_filter (view, (i / 6) % 4 == 3 ? "" : browse_test_projects[(i / 6) % 4]);
      break;

    case QUERY_OUTCOME:
      triage_history_view_set_outcome_filter (view, (i / 6) % 6);
      break;

    case QUERY_RANGE:
      {
        g_autoptr(GDateTime) first = g_date_time_new_from_unix_utc (BROWSE_TEST_BASE_USEC / G_USEC_PER_SEC +
                                                                    (gint64) ((i / 6) % 20) * 86400);
        g_autoptr(GDateTime) last = g_date_time_add_days (first, 6);

        triage_history_view_set_date_range (view, first, last);
      }
      break;

    case QUERY_TEXT_AND_SERVICE:
    default:
      triage_history_view_set_service_filter (view, browse_test_services[(i / 6) % 5]);
      triage_history_view_set_search_text (view, words[(i / 6) % G_N_ELEMENTS (words)]);
      break;
    }
}

static gboolean
bench_history (const char *path,
               guint       n_rows)
{
  g_autoptr(GArray) list_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) all_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) page_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) arrive_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  TriageHistoryDb *db;
  TriageHistoryModel *model;
  TriageHistoryView *view;
  GtkWidget *window;
  gint64 start;
  double second_open, to_frame, to_loaded;
  gboolean ok = TRUE;

  g_print ("History: %u entries\n", n_rows);

  start = g_get_monotonic_time ();
  db = browse_test_open_history (path);
  second_open = ms_since (start);

  start = g_get_monotonic_time ();
  view = TRIAGE_HISTORY_VIEW (triage_history_view_new ());
  window = new_window (GTK_WIDGET (view));
  triage_history_view_set_db (view, db);
  present_and_wait (window);
  to_frame = ms_since (start);
  while (triage_history_view_get_loading (view))
    g_main_context_iteration (NULL, TRUE);
  wait_for_frame (window);
  to_loaded = ms_since (start);

  model = triage_history_view_get_model (view);
  g_print ("  memory with the history shown: RSS %.1f MiB\n", read_status_mib ("VmRSS:"));
  g_print ("  open the database, indexed                   %8.1f ms\n", second_open);
  g_print ("  view: first frame                            %8.1f ms\n", to_frame);
  g_print ("  view: list and chart loaded and drawn        %8.1f ms  (%u entries)\n",
           to_loaded, g_list_model_get_n_items (G_LIST_MODEL (model)));

  for (guint i = 0; i < N_QUERIES; i++)
    {
      double list_done = -1;

      /* From a settled, unfiltered view each time. */
      triage_history_view_clear_filters (view);
      while (triage_history_view_get_loading (view))
        g_main_context_iteration (NULL, TRUE);

      start = g_get_monotonic_time ();
      apply_history_query (view, i);
      while (triage_history_view_get_loading (view))
        {
          if (list_done < 0 && !triage_history_model_get_loading (model))
            list_done = ms_since (start);
          g_main_context_iteration (NULL, TRUE);
        }
      if (list_done < 0)
        list_done = ms_since (start);
      if (g_getenv ("BENCH_VERBOSE"))
        g_print ("    history query %u (kind %u): list %.1f ms (%u entries)\n", i, i % 6, list_done,
                 g_list_model_get_n_items (G_LIST_MODEL (model)));
      wait_for_frame (window);
      g_array_append_val (list_ms, list_done);
      {
        double all = ms_since (start);

        g_array_append_val (all_ms, all);
      }
    }
  report ("search/filter: list results", list_ms);
  report ("search/filter: list + chart, drawn", all_ms);

  /* A scroll: entries at random positions. Asking never reads the disk (a
   * placeholder comes back at once); a page not held arrives from the page
   * thread. */
  triage_history_view_clear_filters (view);
  while (triage_history_view_get_loading (view))
    g_main_context_iteration (NULL, TRUE);
  for (guint i = 0; i < 200; i++)
    {
      guint position = g_rand_int_range (rand, 0, g_list_model_get_n_items (G_LIST_MODEL (model)));
      g_autoptr(TriageHistoryEntry) entry = NULL;
      double took;

      start = g_get_monotonic_time ();
      entry = g_list_model_get_item (G_LIST_MODEL (model), position);
      took = ms_since (start);
      g_array_append_val (page_ms, took);
      while (triage_history_entry_get_id (entry) == NULL)
        {
          g_main_context_iteration (NULL, TRUE);
          g_clear_object (&entry);
          entry = g_list_model_get_item (G_LIST_MODEL (model), position);
        }
      took = ms_since (start);
      g_array_append_val (arrive_ms, took);
    }
  report ("entry at a random position: main thread", page_ms);
  report ("entry at a random position: page arrived", arrive_ms);
  g_print ("  entries held in memory                       %8u\n",
           triage_history_model_get_n_cached (model));

  if (percentile (list_ms, 99) >= TARGET_SEARCH_MS)
    {
      g_print ("  MISSED: history search p99 ≥ %.0f ms\n", TARGET_SEARCH_MS);
      ok = FALSE;
    }

  gtk_window_destroy (GTK_WINDOW (window));
  browse_test_pump ();
  browse_test_finalize (db);

  return ok;
}

/* Inbox */

static const char *inbox_services[] = { "CI", "Deploy bot", "Café agent", "Reviewer", "Data pipeline",
                                        "Scheduler", "Backup" };
static const char *inbox_projects[] = { "web", "api", "infra", "docs", NULL };

static TriageInboxModel *
fill_inbox (guint n)
{
  TriageInboxModel *model = triage_inbox_model_new ();
  gint64 now = g_get_real_time ();

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_strdup_printf ("10000000-0000-4000-8000-%012u", i);
      g_autofree char *title = g_strdup_printf ("Deploy build %u to %s", i, i % 2 ? "staging" : "production");
      g_autofree char *description = g_strdup_printf ("Ticket T-%u for the release of week %u", i % 997, i % 52);
      g_autoptr(AtpNotification) notification = NULL;

      notification = browse_test_notification (id, inbox_services[i % G_N_ELEMENTS (inbox_services)],
                                               inbox_projects[i % G_N_ELEMENTS (inbox_projects)],
                                               title, description,
                                               now - (gint64) (i % 5000) * G_TIME_SPAN_MINUTE,
                                               i % 3 ? now + (gint64) (i % 700 + 1) * G_TIME_SPAN_MINUTE : 0);
      triage_inbox_model_add (model, notification, NULL);
    }

  return model;
}

static void
apply_inbox_query (TriageInboxPane *pane,
                   guint            i)
{
  static const char *words[] = { "deploy", "build 42", "staging t-9", "CAFE", "week 7", "release",
                                 "production 123", "zzz", "t-99", "build 9999" };

  switch (i % 4)
    {
    case 0:
    case 1:
      triage_inbox_pane_set_search_text (pane, words[(i / 2) % G_N_ELEMENTS (words)]);
      break;

    case 2:
      triage_inbox_pane_set_service_filter (pane, (i / 4) % 2 ? inbox_services[(i / 4) % 7] : NULL);
      break;

    case 3:
    default:
      triage_inbox_pane_set_project_filter (pane, (i / 4) % 3 ? inbox_projects[(i / 4) % 4] : NULL);
      break;
    }
}

static gboolean
bench_inbox (guint n)
{
  g_autoptr(GArray) search_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) filter_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(TriageInboxModel) model = NULL;
  TriageInboxPane *pane;
  GtkWidget *window;
  gint64 start;
  double fill, to_frame, before, after_fill;
  gboolean ok = TRUE;

  g_print ("Inbox: %u pending requests\n", n);

  before = read_status_mib ("VmRSS:");
  start = g_get_monotonic_time ();
  model = fill_inbox (n);
  fill = ms_since (start);
  after_fill = read_status_mib ("VmRSS:");

  start = g_get_monotonic_time ();
  pane = TRIAGE_INBOX_PANE (triage_inbox_pane_new ());
  triage_inbox_pane_set_model (pane, G_LIST_MODEL (model));
  window = new_window (GTK_WIDGET (pane));
  gtk_window_set_default_size (GTK_WINDOW (window), 420, 760);
  present_and_wait (window);
  to_frame = ms_since (start);

  g_print ("  inbox model filled (not the pane)            %8.1f ms\n", fill);
  g_print ("  pane: created, model set, first frame        %8.1f ms\n", to_frame);
  g_print ("  memory: the app's inbox model %.1f MiB, the pane %.1f MiB\n",
           after_fill - before, read_status_mib ("VmRSS:") - after_fill);

  for (guint i = 0; i < N_QUERIES; i++)
    {
      double took;
      double filtered;

      start = g_get_monotonic_time ();
      apply_inbox_query (pane, i);
      while (triage_inbox_pane_get_filtering (pane))
        g_main_context_iteration (NULL, TRUE);
      filtered = ms_since (start);
      g_array_append_val (filter_ms, filtered);
      wait_for_frame (window);
      took = ms_since (start);
      if (g_getenv ("BENCH_VERBOSE"))
        g_print ("    query %u: filtered %.1f ms, drawn %.1f ms (%u shown)\n", i, filtered, took,
                 g_list_model_get_n_items (triage_inbox_pane_get_visible_model (pane)));
      g_array_append_val (search_ms, took);
    }
  report ("search/filter: results complete", filter_ms);
  report ("search/filter: complete and drawn", search_ms);

  if (percentile (filter_ms, 99) >= TARGET_SEARCH_MS)
    {
      g_print ("  MISSED: inbox search results p99 ≥ %.0f ms\n", TARGET_SEARCH_MS);
      ok = FALSE;
    }

  /* Adding one more request to a large inbox. */
  {
    g_autoptr(AtpNotification) notification = browse_test_notification ("20000000-0000-4000-8000-000000000001",
                                                                        "CI", "web", "One more", "d",
                                                                        g_get_real_time (), 0);
    double took;

    triage_inbox_pane_clear_filters (pane);
    while (triage_inbox_pane_get_filtering (pane))
      g_main_context_iteration (NULL, TRUE);
    start = g_get_monotonic_time ();
    triage_inbox_model_add (model, notification, NULL);
    while (triage_inbox_pane_get_filtering (pane))
      g_main_context_iteration (NULL, TRUE);
    wait_for_frame (window);
    took = ms_since (start);
    g_print ("  one request added, shown                     %8.2f ms\n", took);
  }

  gtk_window_destroy (GTK_WINDOW (window));
  browse_test_pump ();

  return ok;
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *generate = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  int history_n = 100000;
  int inbox_n = 10000;
  GOptionEntry entries[] = {
    { "history", 0, 0, G_OPTION_ARG_INT, &history_n, "History entries (100000)", "N" },
    { "inbox", 0, 0, G_OPTION_ARG_INT, &inbox_n, "Pending requests (10000)", "M" },
    { "generate", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &generate, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("— inbox and history benchmark");
  g_autoptr(GError) error = NULL;
  gboolean ok = TRUE;
  double rss, hwm, baseline;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (history_n < 1 || inbox_n < 1)
    {
      g_printerr ("--history and --inbox need a positive count\n");
      return 2;
    }

  /* The child: fill the database, index it (the first open of the history
   * on an existing database, once per database) and leave. */
  if (generate != NULL)
    {
      TriageStore *store = browse_test_open_store (generate);
      GArray *rows = browse_test_generate (generate, history_n, BROWSE_TEST_BASE_USEC,
                                           5 * G_TIME_SPAN_MINUTE);
      TriageHistoryDb *db;
      gint64 start = g_get_monotonic_time ();

      db = browse_test_open_history (generate);
      g_print ("  first open of the history: indexing %d entries took %.1f ms (once per database)\n",
               history_n, ms_since (start));
      browse_test_finalize (db);
      browse_test_rows_free (rows);
      browse_test_close_store (&store);
      return 0;
    }

  g_setenv ("TZ", "UTC", TRUE);
  gtk_init ();
  adw_init ();

  dir = g_dir_make_tmp ("bench-browse-XXXXXX", &error);
  if (dir == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  path = g_build_filename (dir, "triage.db", NULL);

  {
    g_autofree char *count = g_strdup_printf ("%d", history_n);
    const char *child_argv[] = { argv[0], "--generate", path, "--history", count, NULL };
    gint64 start = g_get_monotonic_time ();
    int status = 0;

    if (!g_spawn_sync (NULL, (char **) child_argv, NULL, G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL,
                       NULL, NULL, &status, &error) ||
        !g_spawn_check_wait_status (status, &error))
      {
        g_printerr ("Could not generate the history: %s\n", error->message);
        browse_test_rm_rf (dir);
        return 2;
      }
    g_print ("Generated %d history entries in %.1f s (another process)\n",
             history_n, ms_since (start) / 1000.0);
  }

  /* The first window of a process sets up the renderer: not counted. */
  {
    GtkWidget *warm = new_window (gtk_label_new ("warming up"));
    gint64 start = g_get_monotonic_time ();

    present_and_wait (warm);
    g_print ("First window of the process (renderer set-up, not counted): %.1f ms\n", ms_since (start));
    gtk_window_destroy (GTK_WINDOW (warm));
    browse_test_pump ();
  }
  baseline = read_status_mib ("VmRSS:");
  g_print ("Memory before the benchmark (GTK, renderer, fonts): RSS %.1f MiB\n", baseline);

  ok &= bench_history (path, history_n);
  g_print ("  memory after the history: RSS %.1f MiB\n", read_status_mib ("VmRSS:"));
  ok &= bench_inbox (inbox_n);

  rss = read_status_mib ("VmRSS:");
  hwm = read_status_mib ("VmHWM:");

  g_print ("Memory: RSS %.1f MiB now, peak %.1f MiB (target < %.0f MiB); the inbox and history "
           "add %.1f MiB to what GTK took before\n", rss, hwm, TARGET_RSS_MIB, rss - baseline);
  if (hwm >= TARGET_RSS_MIB)
    {
      g_print ("  MISSED: peak RSS ≥ %.0f MiB\n", TARGET_RSS_MIB);
      ok = FALSE;
    }

  browse_test_rm_rf (dir);
  g_print (ok ? "All targets met.\n" : "Some targets missed.\n");

  return ok ? 0 : 1;
}
