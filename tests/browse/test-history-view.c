/* test-history-view.c — the history view on a real database: states, each
 * filter, choices, export, chart rendering (light and dark), refresh (the
 * keyboard is test-history-view-keys.c's)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <adwaita.h>

#include "history-view-test-common.h"
#include "midnight-test-util.h"
#include "triage-history-row.h"
#include "triage-history-view.h"

static guint
count_rows (Fixture    *f,
            const char *service,
            const char *project,
            int         outcome,
            gint64      from,
            gint64      to)
{
  guint n = 0;

  for (guint i = 0; i < f->rows->len; i++)
    {
      const BrowseTestRow *row = &g_array_index (f->rows, BrowseTestRow, i);

      if ((service == NULL || g_str_equal (row->service, service)) &&
          (project == NULL || g_strcmp0 (row->project ? row->project : "", project) == 0) &&
          (outcome == TRIAGE_HISTORY_OUTCOME_ANY || (int) row->outcome == outcome) &&
          (from == 0 || row->created_at >= from) &&
          (to == 0 || row->created_at < to))
        n++;
    }

  return n;
}

static void
test_empty (Fixture       *f,
            gconstpointer  data)
{
  GtkWidget *stack = browse_test_find_page_stack (GTK_WIDGET (f->view));

  g_assert_cmpint (triage_history_view_get_state (f->view), ==, TRIAGE_HISTORY_VIEW_EMPTY);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "empty");

  /* Even filtered, an empty history says so, not "no results". */
  triage_history_view_set_search_text (f->view, "anything");
  history_view_test_n_shown (f);
  browse_test_pump ();
  g_assert_cmpint (triage_history_view_get_state (f->view), ==, TRIAGE_HISTORY_VIEW_EMPTY);
}

static void
test_states (Fixture       *f,
             gconstpointer  data)
{
  GtkWidget *stack = browse_test_find_page_stack (GTK_WIDGET (f->view));

  g_assert_cmpuint (history_view_test_n_shown (f), ==, N_ROWS);
  g_assert_cmpint (triage_history_view_get_state (f->view), ==, TRIAGE_HISTORY_VIEW_LIST);

  /* The first row shows the newest entry, in words. */
  gtk_test_widget_wait_for_draw (f->window);
  {
    const BrowseTestRow *newest = &g_array_index (f->rows, BrowseTestRow, N_ROWS - 1);
    TriageHistoryRow *row;
    g_autofree char *title = g_strdup_printf ("Request %u: deploy build %u", N_ROWS - 1, (N_ROWS - 1) % 100);

    /* Shown as a placeholder until its page is read on the page thread. */
    browse_test_wait_for (history_view_test_first_row_read (f) != NULL);
    row = history_view_test_first_row_read (f);
    g_assert_cmpstr (triage_history_entry_get_id (triage_history_row_get_entry (row)), ==, newest->id);
    g_assert_cmpstr (triage_history_row_get_title (row), ==, title);
    /* Row 2999: "Reviewer", no project, refused (2999 % 6 == 5), 40 s. */
    g_assert_cmpstr (triage_history_row_get_details (row), ==,
                     "2026-03-22 19:50 · Reviewer · Refused by the server · Approve · user-1 · in 40 s");
    /* The grid's item takes the focus: it says the row, not
     * "GtkListItemWidget" as GTK 4.8 would. */
    gtk_test_accessible_assert_property (gtk_widget_get_parent (GTK_WIDGET (row)),
                                         GTK_ACCESSIBLE_PROPERTY_LABEL, title);
    gtk_test_accessible_assert_property (gtk_widget_get_parent (GTK_WIDGET (row)),
                                         GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                         "2026-03-22 19:50 · Reviewer · Refused by the server · Approve · user-1 · in 40 s");
  }

  triage_history_view_set_search_text (f->view, "no such words");
  g_assert_cmpuint (history_view_test_n_shown (f), ==, 0);
  g_assert_cmpint (triage_history_view_get_state (f->view), ==, TRIAGE_HISTORY_VIEW_NO_RESULTS);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "no-results");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->view), "history.clear-filters", NULL));
  g_assert_cmpuint (history_view_test_n_shown (f), ==, N_ROWS);
  g_assert_cmpint (triage_history_view_get_state (f->view), ==, TRIAGE_HISTORY_VIEW_LIST);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "list");
}

static void
test_filters (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GDateTime) day2 = g_date_time_new_utc (2026, 3, 3, 12, 0, 0);
  g_autoptr(GDateTime) day4 = g_date_time_new_utc (2026, 3, 5, 0, 0, 0);
  gint64 day2_start = BROWSE_TEST_BASE_USEC + G_TIME_SPAN_DAY;

  g_assert_true (triage_history_view_set_service_filter (f->view, "Reviewer"));
  g_assert_cmpuint (history_view_test_n_shown (f), ==, count_rows (f, "Reviewer", NULL, TRIAGE_HISTORY_OUTCOME_ANY, 0, 0));
  g_assert_cmpstr (triage_history_view_get_filter (f->view)->service, ==, "Reviewer");

  g_assert_true (triage_history_view_set_project_filter (f->view, ""));
  g_assert_cmpuint (history_view_test_n_shown (f), ==, count_rows (f, "Reviewer", "", TRIAGE_HISTORY_OUTCOME_ANY, 0, 0));

  g_assert_true (triage_history_view_set_project_filter (f->view, "beta"));
  triage_history_view_set_outcome_filter (f->view, TRIAGE_OUTCOME_EXPIRED);
  g_assert_cmpuint (history_view_test_n_shown (f), ==, count_rows (f, "Reviewer", "beta", TRIAGE_OUTCOME_EXPIRED, 0, 0));
  g_assert_cmpuint (history_view_test_n_shown (f), >, 0);

  triage_history_view_clear_filters (f->view);
  for (int outcome = TRIAGE_OUTCOME_NONE; outcome <= TRIAGE_OUTCOME_GONE; outcome++)
    {
      triage_history_view_set_outcome_filter (f->view, outcome);
      g_assert_cmpuint (history_view_test_n_shown (f), ==, count_rows (f, NULL, NULL, outcome, 0, 0));
    }
  triage_history_view_set_outcome_filter (f->view, TRIAGE_HISTORY_OUTCOME_ANY);

  /* Days, both ends included (the test runs in UTC). */
  triage_history_view_set_date_range (f->view, day2, day4);
  g_assert_cmpuint (history_view_test_n_shown (f), ==, 3 * 144);
  g_assert_cmpint (triage_history_view_get_filter (f->view)->from_usec, ==, day2_start);
  g_assert_cmpint (triage_history_view_get_filter (f->view)->to_usec, ==, day2_start + 3 * G_TIME_SPAN_DAY);
  /* Given backwards: the same days. */
  triage_history_view_set_date_range (f->view, day4, day2);
  g_assert_cmpuint (history_view_test_n_shown (f), ==, 3 * 144);

  /* With the search. */
  triage_history_view_set_search_text (f->view, "w7");
  g_assert_cmpuint (history_view_test_n_shown (f), ==, 43);   /* i % 10 == 7 in 144..575: 147, 157 … 567 */
  triage_history_view_set_service_filter (f->view, "Data pipeline");
  g_assert_cmpuint (history_view_test_n_shown (f), ==, 43);   /* i % 10 == 7 implies i % 5 == 2 */

  triage_history_view_clear_filters (f->view);
  g_assert_cmpuint (history_view_test_n_shown (f), ==, N_ROWS);
  g_assert_true (triage_history_filter_is_empty (triage_history_view_get_filter (f->view)));
}

static void
test_choices (Fixture       *f,
              gconstpointer  data)
{
  const char *services[] = { "All Services", "CI", "Café agent", "Data pipeline", "Deploy bot",
                             "Reviewer", NULL };
  const char *projects[] = { "All Projects", "alpha", "beta", "gamma", "No Project", NULL };

  browse_test_assert_choices (triage_history_view_dup_service_choices (f->view), services);
  browse_test_assert_choices (triage_history_view_dup_project_choices (f->view), projects);
  g_assert_false (triage_history_view_set_service_filter (f->view, "Nobody"));
}

static void
test_periods (Fixture       *f,
              gconstpointer  data)
{
  gint64 now = g_get_real_time ();
  gint64 ages[] = { 0, 2, 10, 100, 400 };   /* days */

  for (guint i = 0; i < G_N_ELEMENTS (ages); i++)
    {
      g_autofree char *id = g_strdup_printf ("bbbbbbbb-0000-4000-8000-%012u", i);
      g_autoptr(AtpNotification) notification = NULL;

      notification = browse_test_notification (id, "CI", NULL, "Dated", "d",
                                               now - ages[i] * G_TIME_SPAN_DAY, 0);
      browse_test_save (f->store, notification);
    }
  triage_history_view_reload (f->view);
  g_assert_cmpuint (history_view_test_n_shown (f), ==, 5);

  triage_history_view_set_period (f->view, TRIAGE_HISTORY_PERIOD_TODAY);
  g_assert_cmpuint (history_view_test_n_shown (f), ==, 1);
  triage_history_view_set_period (f->view, TRIAGE_HISTORY_PERIOD_WEEK);
  g_assert_cmpuint (history_view_test_n_shown (f), ==, 2);
  triage_history_view_set_period (f->view, TRIAGE_HISTORY_PERIOD_MONTH);
  g_assert_cmpuint (history_view_test_n_shown (f), ==, 3);
  triage_history_view_set_period (f->view, TRIAGE_HISTORY_PERIOD_YEAR);
  g_assert_cmpuint (history_view_test_n_shown (f), ==, 4);
  triage_history_view_set_period (f->view, TRIAGE_HISTORY_PERIOD_ANY);
  g_assert_cmpuint (history_view_test_n_shown (f), ==, 5);

  /* The chart covers the last 30 days by default. */
  g_assert_true (g_str_has_suffix (triage_history_chart_get_summary (triage_history_view_get_chart (f->view)),
                                   "all services: 3 requests. 3 pending. "
                                   "CI: 3 requests, none answered here."));
}

/* "Today" is today's once midnight has passed, shown and with nothing new
 * written: what came in the evening before is gone from it. */
static void
test_today_moves (Fixture       *f,
                  gconstpointer  data)
{
  char *old_zone = midnight_test_set_zone (8);
  g_autoptr(AtpNotification) notification = NULL;

  notification = browse_test_notification ("dddddddd-0000-4000-8000-000000000001", "CI", NULL,
                                           "Evening", "d", g_get_real_time () - G_TIME_SPAN_HOUR, 0);
  browse_test_save (f->store, notification);
  triage_history_view_reload (f->view);
  triage_history_view_set_period (f->view, TRIAGE_HISTORY_PERIOD_TODAY);
  g_assert_cmpuint (history_view_test_n_shown (f), ==, 1);

  browse_test_wait_for (g_list_model_get_n_items (G_LIST_MODEL (triage_history_view_get_model (f->view))) == 0);
  g_assert_cmpint (triage_history_view_get_state (f->view), ==, TRIAGE_HISTORY_VIEW_NO_RESULTS);
  midnight_test_restore_zone (old_zone);
}

static char *
read_file (const char *path)
{
  char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  return contents;
}

static guint
count_lines (const char *text)
{
  guint n = 0;

  for (const char *p = text; *p != '\0'; p++)
    n += *p == '\n';

  return n;
}

static void
export (Fixture             *f,
        gboolean             selected_only,
        TriageHistoryFormat  format,
        const char          *path,
        guint                expected)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  guint n = 0;

  triage_history_view_export_async (f->view, selected_only, format, file, NULL,
                                    browse_test_result_cb, &result);
  browse_test_wait_for (result != NULL);
  g_assert_true (triage_history_view_export_finish (f->view, result, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, expected);
}

static gboolean
shows_label (GtkWidget  *widget,
             const char *text)
{
  if (GTK_IS_LABEL (widget) && g_str_equal (gtk_label_get_label (GTK_LABEL (widget)), text))
    return TRUE;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (shows_label (child, text))
      return TRUE;

  return FALSE;
}

static void
test_export (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *csv_path = g_build_filename (f->dir, "selected.csv", NULL);
  g_autofree char *jsonl_path = g_build_filename (f->dir, "ci.jsonl", NULL);
  g_autofree char *csv = NULL;
  g_autofree char *jsonl = NULL;
  g_auto(GStrv) lines = NULL;
  GtkSelectionModel *selection = triage_history_view_get_selection (f->view);
  const BrowseTestRow *newest = &g_array_index (f->rows, BrowseTestRow, N_ROWS - 1);
  guint ci;

  g_assert_cmpuint (history_view_test_n_shown (f), ==, N_ROWS);

  /* The three newest, selected; each count takes its own plural. */
  gtk_selection_model_select_range (selection, 0, 1, TRUE);
  g_assert_true (shows_label (GTK_WIDGET (f->view), "3000 requests, 1 selected"));
  gtk_selection_model_select_range (selection, 0, 3, TRUE);
  g_assert_true (shows_label (GTK_WIDGET (f->view), "3000 requests, 3 selected"));
  export (f, TRUE, TRIAGE_HISTORY_FORMAT_CSV, csv_path, 3);
  csv = read_file (csv_path);
  lines = g_strsplit (csv, "\r\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 5);   /* header, three rows, "" after the last CRLF */
  g_assert_cmpstr (lines[0], ==, "id,title,description,service_id,service,project,outcome,status,"
                                 "status_reason,action_id,action_label,response_data,responder_id,"
                                 "responder_type,created_at,deadline,answered_at,delivered_at,response_ms,protocol,answer");
  g_assert_true (g_str_has_prefix (lines[1], newest->id));
  g_assert_cmpstr (lines[4], ==, "");

  /* Everything shown under a filter. */
  triage_history_view_set_service_filter (f->view, "CI");
  ci = count_rows (f, "CI", NULL, TRIAGE_HISTORY_OUTCOME_ANY, 0, 0);
  g_assert_cmpuint (history_view_test_n_shown (f), ==, ci);
  export (f, FALSE, TRIAGE_HISTORY_FORMAT_JSON_LINES, jsonl_path, ci);
  jsonl = read_file (jsonl_path);
  g_assert_cmpuint (count_lines (jsonl), ==, ci);
  g_assert_nonnull (strstr (jsonl, "\"service\":\"CI\""));
  g_assert_null (strstr (jsonl, "\"service\":\"Reviewer\""));
}

/* Renders @widget as it is now and returns its pixels (BGRA/RGBA bytes). */
static GBytes *
render (Fixture   *f,
        GtkWidget *widget,
        int       *width,
        int       *height)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (f->window));
  GBytes *bytes;
  guchar *data;
  gsize stride;

  *width = gtk_widget_get_width (widget);
  *height = gtk_widget_get_height (widget);
  g_assert_cmpint (*width, >, 0);
  g_assert_cmpint (*height, >, 0);

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), *width, *height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (0, 0, *width, *height));
  g_assert_nonnull (texture);

  stride = (gsize) *width * 4;
  data = g_malloc (stride * *height);
  gdk_texture_download (texture, data, stride);
  bytes = g_bytes_new_take (data, stride * *height);

  return bytes;
}

static guint
count_distinct_pixels (GBytes *pixels)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  gsize size;
  const guint32 *data = g_bytes_get_data (pixels, &size);

  for (gsize i = 0; i < size / 4; i++)
    g_hash_table_add (seen, GUINT_TO_POINTER (data[i]));

  return g_hash_table_size (seen);
}

static void
test_chart (Fixture       *f,
            gconstpointer  data)
{
  TriageHistoryChart *chart = triage_history_view_get_chart (f->view);
  AdwStyleManager *style = adw_style_manager_get_default ();
  g_autoptr(GDateTime) first = g_date_time_new_utc (2026, 3, 2, 0, 0, 0);
  g_autoptr(GDateTime) last = g_date_time_new_utc (2026, 3, 4, 0, 0, 0);
  g_autoptr(GBytes) light = NULL;
  g_autoptr(GBytes) dark = NULL;
  int width, height;

  triage_history_view_set_date_range (f->view, first, last);
  history_view_test_n_shown (f);
  g_assert_cmpstr (triage_history_chart_get_summary (chart), ==,
                   BROWSE_TEST_SUMMARY_MARCH_2_TO_4);
  g_assert_cmpuint (triage_history_stats_get_n_buckets (triage_history_chart_get_stats (chart)), ==, 3);

  /* Every service: five series, each its colour and pattern, in the bars
   * and the legend; drawn, also 360 pixels wide. */
  g_assert_cmpuint (triage_history_stats_get_n_series (triage_history_chart_get_stats (chart)), ==, 5);
  gtk_test_widget_wait_for_draw (f->window);
  {
    g_autoptr(GBytes) services = render (f, GTK_WIDGET (chart), &width, &height);

    g_assert_cmpuint (count_distinct_pixels (services), >, 20);
  }
  gtk_window_set_default_size (GTK_WINDOW (f->window), 360, 700);
  browse_test_wait_for (gtk_widget_get_width (f->window) <= 360);
  gtk_test_widget_wait_for_draw (f->window);
  {
    g_autoptr(GBytes) narrow = render (f, GTK_WIDGET (chart), &width, &height);

    g_assert_cmpint (width, <=, 360);
    g_assert_cmpuint (count_distinct_pixels (narrow), >, 20);
  }
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1000, 700);

  /* One service: the chart follows the service filter. */
  triage_history_view_set_service_filter (f->view, "CI");
  history_view_test_n_shown (f);
  g_assert_true (g_str_has_prefix (triage_history_chart_get_summary (chart),
                                   "From 2026-03-02 to 2026-03-04, CI: 87 requests. "));

  /* It draws bars and a line (many colours), and follows dark mode. */
  gtk_test_widget_wait_for_draw (f->window);
  light = render (f, GTK_WIDGET (chart), &width, &height);
  g_assert_cmpuint (count_distinct_pixels (light), >, 8);

  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_DARK);
  browse_test_wait_for (adw_style_manager_get_dark (style));
  gtk_test_widget_wait_for_draw (f->window);
  dark = render (f, GTK_WIDGET (chart), &width, &height);
  g_assert_false (g_bytes_equal (light, dark));
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);

  /* Nothing in the period: drawn too, and said in words. */
  {
    g_autoptr(GDateTime) later = g_date_time_new_utc (2027, 1, 1, 0, 0, 0);
    g_autoptr(GBytes) empty = NULL;

    triage_history_view_set_date_range (f->view, later, later);
    history_view_test_n_shown (f);
    g_assert_cmpstr (triage_history_chart_get_summary (chart), ==,
                     "From 2027-01-01 to 2027-01-01, CI: no requests.");
    gtk_test_widget_wait_for_draw (f->window);
    empty = render (f, GTK_WIDGET (chart), &width, &height);
  }
}

static void
test_refresh (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(AtpNotification) first = NULL;
  g_autoptr(AtpNotification) second = NULL;
  GListModel *model = G_LIST_MODEL (triage_history_view_get_model (f->view));

  g_assert_cmpuint (history_view_test_n_shown (f), ==, N_ROWS);

  /* Told: reload. */
  first = browse_test_notification ("cccccccc-0000-4000-8000-000000000001", "CI", NULL, "New one",
                                    "d", BROWSE_TEST_BASE_USEC + 100 * G_TIME_SPAN_DAY, 0);
  browse_test_save (f->store, first);
  triage_history_view_reload (f->view);
  g_assert_cmpuint (history_view_test_n_shown (f), ==, N_ROWS + 1);

  /* Not told: the view notices the store's write while it is shown. */
  second = browse_test_notification ("cccccccc-0000-4000-8000-000000000002", "CI", NULL, "Newer",
                                     "d", BROWSE_TEST_BASE_USEC + 101 * G_TIME_SPAN_DAY, 0);
  browse_test_save (f->store, second);
  browse_test_wait_for (g_list_model_get_n_items (model) == N_ROWS + 2);
  /* Its page is read on the page thread, the list shows it when it comes. */
  browse_test_wait_for (history_view_test_title_is (model, 0, "Newer"));
}

/* The highest the list was scrolled in a frame drawn while watched. */
typedef struct
{
  GtkAdjustment *adjustment;
  double         highest;
  guint          frames;
} PaintWatch;

static void
on_after_paint (GdkFrameClock *clock,
                PaintWatch    *watch)
{
  watch->highest = MAX (watch->highest, gtk_adjustment_get_value (watch->adjustment));
  watch->frames++;
}

/* The view at the top when newer entries come (the history opened after
 * requests came, its reload then under way) shows them: the list kept its
 * first row in place, and the newest ones sat above, out of view. */
static void
test_new_rows_on_top (Fixture       *f,
                      gconstpointer  data)
{
  GListModel *model = G_LIST_MODEL (triage_history_view_get_model (f->view));
  GtkAdjustment *vadjustment;
  PaintWatch watch = { NULL, 0, 0 };
  gulong paint_id;

  browse_test_wait_for (history_view_test_first_row_read (f) != NULL);
  vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (history_view_test_find_widget (GTK_WIDGET (f->view),
                                                                             GTK_TYPE_GRID_VIEW)));
  gtk_test_widget_wait_for_draw (f->window);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), ==, 0);

  history_view_test_store_newer (f, 0, 3);
  watch.adjustment = vadjustment;
  paint_id = g_signal_connect (gtk_widget_get_frame_clock (f->window), "after-paint",
                               G_CALLBACK (on_after_paint), &watch);
  triage_history_view_reload (f->view);
  browse_test_wait_for (g_list_model_get_n_items (model) == N_ROWS + 3);
  browse_test_wait_for (history_view_test_title_is (model, 0, "Newer 2"));

  /* Laid out again: still at the top, the newest first on screen, in
   * every frame drawn (it was down by the new rows for one, a jump). */
  for (guint i = 0; i < 3; i++)
    gtk_test_widget_wait_for_draw (f->window);
  g_signal_handler_disconnect (gtk_widget_get_frame_clock (f->window), paint_id);
  g_assert_cmpuint (watch.frames, >, 0);
  g_assert_cmpfloat (watch.highest, ==, 0);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), ==, 0);
  browse_test_wait_for (history_view_test_first_row_read (f) != NULL);
  g_assert_cmpstr (triage_history_entry_get_title (triage_history_row_get_entry (history_view_test_first_row_read (f))),
                   ==, "Newer 2");

  /* Scrolled down, the view stays where the person put it. */
  gtk_adjustment_set_value (vadjustment, 400);
  gtk_test_widget_wait_for_draw (f->window);
  {
    g_autoptr(AtpNotification) newest =
      browse_test_notification ("dddddddd-0000-4000-8000-000000000009", "CI", NULL, "Newest", "d",
                                BROWSE_TEST_BASE_USEC + 110 * G_TIME_SPAN_DAY, 0);

    browse_test_save (f->store, newest);
  }
  triage_history_view_reload (f->view);
  browse_test_wait_for (g_list_model_get_n_items (model) == N_ROWS + 4);
  for (guint i = 0; i < 3; i++)
    gtk_test_widget_wait_for_draw (f->window);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), >, 0);
}

static guint
count_row_widgets (GtkWidget *widget)
{
  guint n = TRIAGE_IS_HISTORY_ROW (widget) ? 1 : 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += count_row_widgets (child);

  return n;
}

/* Every new result builds the rows kept around the scroll position anew, so a
 * search costs as many rows as the list keeps: the ones in view and a few,
 * not GtkListView's 200 (20-30 ms of every search over a large history). */
static void
test_rows_built (Fixture       *f,
                 gconstpointer  data)
{
  guint n;

  g_assert_cmpuint (history_view_test_n_shown (f), ==, N_ROWS);
  gtk_test_widget_wait_for_draw (f->window);
  n = count_row_widgets (GTK_WIDGET (f->view));
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (n, <=, 64);

  triage_history_view_set_search_text (f->view, "deploy");
  g_assert_cmpuint (history_view_test_n_shown (f), ==, N_ROWS);
  triage_history_view_set_service_filter (f->view, browse_test_services[0]);
  g_assert_cmpuint (history_view_test_n_shown (f), >, 200);
  gtk_test_widget_wait_for_draw (f->window);
  n = count_row_widgets (GTK_WIDGET (f->view));
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (n, <=, 64);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("TZ", "UTC", TRUE);
  /* The in-process accessibility backend, so the tests can read names. */
  g_setenv ("GTK_A11Y", "test", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

#define ADD(path, setup, func) \
  g_test_add (path, Fixture, NULL, setup, func, history_view_test_teardown)

  ADD ("/history/view/empty", history_view_test_setup_empty, test_empty);
  ADD ("/history/view/states", history_view_test_setup, test_states);
  ADD ("/history/view/filters", history_view_test_setup, test_filters);
  ADD ("/history/view/choices", history_view_test_setup, test_choices);
  ADD ("/history/view/periods", history_view_test_setup_empty, test_periods);
  ADD ("/history/view/today-moves", history_view_test_setup_empty, test_today_moves);
  ADD ("/history/view/export", history_view_test_setup, test_export);
  ADD ("/history/view/chart", history_view_test_setup, test_chart);
  ADD ("/history/view/refresh", history_view_test_setup, test_refresh);
  ADD ("/history/view/new-rows-on-top", history_view_test_setup, test_new_rows_on_top);
  history_view_test_add_keys ();
  ADD ("/history/view/rows-built", history_view_test_setup, test_rows_built);

  return g_test_run ();
}
