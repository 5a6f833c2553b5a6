/* triage-history-view.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-history"

#include <glib/gi18n.h>

#include "triage-browse-style.h"
#include "triage-history-row.h"
#include "triage-history-view.h"

/*
 * The decision history: every request with what became of it, searchable
 * (full text) and filterable by service, project, outcome and period, with
 * a chart of the decisions per day and an export of the selected or all
 * shown entries.
 *
 * The list is a one-column GtkGridView over a TriageHistoryModel (paged
 * from SQLite, and its own multiple selection) with light two-line rows
 * (TriageHistoryRow). Not a GtkListView: GTK 4.8's list view keeps 200 rows
 * around the scroll position and builds all of them anew for every search
 * result (20-30 ms of a search); the grid view keeps the visible rows and a
 * few more (about 35).
 * Every filter change sends one query to the history's worker (the search entry waits
 * 200 ms for typing to stop); the chart's statistics follow the same
 * filter on the same worker.
 *
 * While the view is on screen it asks SQLite every two seconds whether the
 * database changed (PRAGMA data_version: no disk access) and reloads if so;
 * the app may also call triage_history_view_reload() after it wrote.
 *
 * The view never reaches up: results of an export are toasts in its own
 * overlay, and opening an entry emits ::entry-activated.
 */

#define POLL_INTERVAL_SECONDS 2
#define DEFAULT_CHART_DAYS 30

/* The outcome drop-down, in order. */
static const int outcome_choices[] = {
  TRIAGE_HISTORY_OUTCOME_ANY,
  TRIAGE_OUTCOME_NONE,
  TRIAGE_OUTCOME_ANSWERED,
  TRIAGE_OUTCOME_ANSWERED_ELSEWHERE,
  TRIAGE_OUTCOME_EXPIRED,
  TRIAGE_OUTCOME_INVALIDATED,
  TRIAGE_OUTCOME_REJECTED,
};

struct _TriageHistoryView
{
  AdwBin                  parent_instance;

  TriageHistoryDb        *db;
  TriageHistoryModel     *model;
  TriageHistoryFilter    *filter;
  TriageHistoryFacets    *facets;
  GPtrArray              *service_keys;
  GPtrArray              *project_keys;
  gint64                  range_from;       /* custom period, Unix usec */
  gint64                  range_to;         /* exclusive */
  GCancellable           *cancellable;      /* facets, statistics, exports */
  GCancellable           *stats_cancellable;
  GtkFileChooserNative   *chooser;
  gboolean                stats_loading;
  gboolean                facets_loading;
  gboolean                updating;
  gboolean                loaded_once;
  guint                   exports_running;
  guint                   poll_id;
  TriageHistoryViewState  state;

  /* template */
  AdwToastOverlay        *toast_overlay;
  GtkSearchEntry         *search_entry;
  GtkMenuButton          *export_button;
  GtkDropDown            *service_dropdown;
  GtkDropDown            *project_dropdown;
  GtkDropDown            *outcome_dropdown;
  GtkDropDown            *date_dropdown;
  GtkWidget              *range_child;
  GtkMenuButton          *range_button;
  GtkPopover             *range_popover;
  GtkCalendar            *from_calendar;
  GtkCalendar            *to_calendar;
  TriageHistoryChart     *chart;
  GtkLabel               *count_label;
  GtkStack               *stack;
  GtkGridView            *list_view;
};

G_DEFINE_FINAL_TYPE (TriageHistoryView, triage_history_view, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_DB,
  PROP_LOADING,
  PROP_STATE,
  N_PROPS
};

enum {
  ENTRY_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties [N_PROPS];
static guint signals [N_SIGNALS];

static gboolean apply_filters (TriageHistoryView *self);

/* Time helpers */

static gint64
time_to_usec (GDateTime *time)
{
  return g_date_time_to_unix (time) * G_USEC_PER_SEC + g_date_time_get_microsecond (time);
}

static GDateTime *
local_midnight (GDateTime *time,
                int        add_days)
{
  g_autoptr(GDateTime) local = g_date_time_to_local (time);
  g_autoptr(GDateTime) midnight = g_date_time_new_local (g_date_time_get_year (local),
                                                         g_date_time_get_month (local),
                                                         g_date_time_get_day_of_month (local),
                                                         0, 0, 0);

  return g_date_time_add_days (midnight, add_days);
}

static guint32
julian_day (gint64 usec)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_local (usec / G_USEC_PER_SEC);
  GDate date;

  g_date_clear (&date, 1);
  g_date_set_dmy (&date, g_date_time_get_day_of_month (time),
                  g_date_time_get_month (time), g_date_time_get_year (time));

  return g_date_get_julian (&date);
}

static char *
format_day (gint64 usec)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_local (usec / G_USEC_PER_SEC);

  /* Translators: a day in the period button, strftime format (e.g. "Mar 3") */
  return g_date_time_format (time, _("%b %e"));
}

/* State */

static void
set_state (TriageHistoryView      *self,
           TriageHistoryViewState  state)
{
  static const char *pages[] = {
    [TRIAGE_HISTORY_VIEW_LOADING] = "list",
    [TRIAGE_HISTORY_VIEW_EMPTY] = "empty",
    [TRIAGE_HISTORY_VIEW_NO_RESULTS] = "no-results",
    [TRIAGE_HISTORY_VIEW_LIST] = "list",
  };

  if (self->state == state)
    return;

  self->state = state;
  gtk_stack_set_visible_child_name (self->stack, pages[state]);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_STATE]);
}

static void
update_export_actions (TriageHistoryView *self)
{
  guint n = self->model ? g_list_model_get_n_items (G_LIST_MODEL (self->model)) : 0;
  gboolean selected = FALSE;

  if (self->model != NULL && n > 0)
    {
      g_autoptr(GtkBitset) bits = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->model));

      selected = !gtk_bitset_is_empty (bits);
    }

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "history.export-all",
                                 n > 0 && self->exports_running == 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "history.export-selected",
                                 selected && self->exports_running == 0);
}

static void
update_state (TriageHistoryView *self)
{
  guint n;
  g_autofree char *count = NULL;

  update_export_actions (self);

  if (self->model == NULL || !self->loaded_once)
    {
      gtk_label_set_label (self->count_label, "");
      set_state (self, TRIAGE_HISTORY_VIEW_LOADING);
      return;
    }

  n = g_list_model_get_n_items (G_LIST_MODEL (self->model));
  {
    g_autoptr(GtkBitset) bits = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->model));
    guint selected = (guint) MIN (gtk_bitset_get_size (bits), G_MAXUINT);

    /* Translators: above the history list, how many requests it shows */
    count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u request", "%u requests", n), n);
    if (selected > 0)
      {
        g_autofree char *shown = g_steal_pointer (&count);
        g_autofree char *chosen = NULL;

        /* Translators: above the history list, how many of its requests are selected */
        chosen = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u selected", "%u selected",
                                               selected), selected);
        /* Translators: above the history list: "3 requests" and "1 selected" */
        count = g_strdup_printf (C_("history count", "%s, %s"), shown, chosen);
      }
  }
  gtk_label_set_label (self->count_label, count);

  if (n > 0)
    set_state (self, TRIAGE_HISTORY_VIEW_LIST);
  else if (triage_history_filter_is_empty (self->filter) ||
           (self->facets != NULL && self->facets->services[0] == NULL))
    set_state (self, TRIAGE_HISTORY_VIEW_EMPTY);
  else
    set_state (self, TRIAGE_HISTORY_VIEW_NO_RESULTS);
}

static void
notify_loading (TriageHistoryView *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_LOADING]);
}

/* Rows */

static void
setup_row (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  gtk_list_item_set_child (item, triage_history_row_new ());
}

static void
bind_row (GtkSignalListItemFactory *factory,
          GtkListItem              *item,
          gpointer                  user_data)
{
  triage_history_row_set_entry (TRIAGE_HISTORY_ROW (gtk_list_item_get_child (item)),
                                gtk_list_item_get_item (item));
}

static void
unbind_row (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  user_data)
{
  triage_history_row_set_entry (TRIAGE_HISTORY_ROW (gtk_list_item_get_child (item)), NULL);
}

/* Drop-downs */

static void
set_string_model (GtkDropDown        *dropdown,
                  const char * const *labels,
                  guint               selected)
{
  g_autoptr(GtkStringList) list = gtk_string_list_new (labels);

  gtk_drop_down_set_model (dropdown, G_LIST_MODEL (list));
  gtk_drop_down_set_selected (dropdown, selected);
}

static const char *
selected_key (GtkDropDown *dropdown,
              GPtrArray   *keys)
{
  guint position = gtk_drop_down_get_selected (dropdown);

  if (keys == NULL || position >= keys->len)
    return NULL;

  return g_ptr_array_index (keys, position);
}

/* Fills a facet drop-down: "All", the values, "None" when @has_none; the
 * value selected now stays offered even if no entry has it any more. */
static void
fill_facet (GtkDropDown        *dropdown,
            GPtrArray         **keys_out,
            const char * const *values,
            gboolean            has_none,
            const char         *all_label,
            const char         *none_label)
{
  g_autofree char *selected = g_strdup (selected_key (dropdown, *keys_out));
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  guint position = 0;

  g_ptr_array_add (keys, NULL);
  g_ptr_array_add (labels, (gpointer) all_label);
  for (guint i = 0; values != NULL && values[i] != NULL; i++)
    {
      g_ptr_array_add (keys, g_strdup (values[i]));
      g_ptr_array_add (labels, (gpointer) values[i]);
    }
  if (selected != NULL && selected[0] != '\0' &&
      (values == NULL || !g_strv_contains (values, selected)))
    {
      g_ptr_array_add (keys, g_strdup (selected));
      g_ptr_array_add (labels, selected);
    }
  if (none_label != NULL && (has_none || g_strcmp0 (selected, "") == 0))
    {
      g_ptr_array_add (keys, g_strdup (""));
      g_ptr_array_add (labels, (gpointer) none_label);
    }
  g_ptr_array_add (labels, NULL);

  for (guint i = 0; i < keys->len; i++)
    if (g_strcmp0 (g_ptr_array_index (keys, i), selected) == 0)
      position = i;

  set_string_model (dropdown, (const char * const *) labels->pdata, position);
  g_clear_pointer (keys_out, g_ptr_array_unref);
  *keys_out = g_steal_pointer (&keys);
}

static void
fill_facets (TriageHistoryView *self)
{
  const char * const *services = self->facets ? (const char * const *) self->facets->services : NULL;
  const char * const *projects = self->facets ? (const char * const *) self->facets->projects : NULL;

  self->updating = TRUE;
  fill_facet (self->service_dropdown, &self->service_keys, services, FALSE,
              _("All Services"), NULL);
  fill_facet (self->project_dropdown, &self->project_keys, projects,
              self->facets ? self->facets->has_no_project : FALSE,
              _("All Projects"), _("No Project"));
  self->updating = FALSE;
}

static void
facets_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(TriageHistoryView) self = user_data;
  g_autoptr(GError) error = NULL;
  TriageHistoryFacets *facets;

  facets = triage_history_db_facets_finish (TRIAGE_HISTORY_DB (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self->facets_loading = FALSE;
  if (facets == NULL)
    g_warning ("Could not list the history's services: %s", error->message);
  else
    {
      g_clear_pointer (&self->facets, triage_history_facets_free);
      self->facets = facets;
      fill_facets (self);
      update_state (self);
    }
  notify_loading (self);
}

static void
load_facets (TriageHistoryView *self)
{
  if (self->db == NULL)
    return;

  self->facets_loading = TRUE;
  notify_loading (self);
  triage_history_db_facets_async (self->db, self->cancellable, facets_cb, g_object_ref (self));
}

/* Statistics */

static void
stats_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(TriageHistoryView) self = user_data;
  g_autoptr(TriageHistoryStats) stats = NULL;
  g_autoptr(GError) error = NULL;

  stats = triage_history_db_stats_finish (TRIAGE_HISTORY_DB (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self->stats_loading = FALSE;
  if (stats == NULL)
    g_warning ("Could not count the decisions: %s", error->message);
  else
    triage_history_chart_set_stats (self->chart, stats, self->filter->service);

  notify_loading (self);
}

static void
load_stats (TriageHistoryView *self)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autoptr(GDateTime) first = NULL;
  gint64 last_usec;
  guint n_days;

  if (self->db == NULL)
    return;

  g_cancellable_cancel (self->stats_cancellable);
  g_clear_object (&self->stats_cancellable);
  self->stats_cancellable = g_cancellable_new ();

  /* The chart covers the period filtered on, else the last 30 days. */
  last_usec = self->filter->to_usec != 0 ? self->filter->to_usec - 1 : time_to_usec (now);
  if (self->filter->from_usec != 0)
    first = g_date_time_new_from_unix_local (self->filter->from_usec / G_USEC_PER_SEC);
  else
    {
      g_autoptr(GDateTime) last = g_date_time_new_from_unix_local (last_usec / G_USEC_PER_SEC);

      first = local_midnight (last, -(DEFAULT_CHART_DAYS - 1));
    }
  if (last_usec < time_to_usec (first))
    last_usec = time_to_usec (first);
  n_days = CLAMP (julian_day (last_usec) - julian_day (time_to_usec (first)) + 1, 1, 3660);

  self->stats_loading = TRUE;
  notify_loading (self);
  triage_history_db_stats_async (self->db, self->filter, first, n_days, self->stats_cancellable,
                                 stats_cb, g_object_ref (self));
}

/* Filters */

static void
period_bounds (TriageHistoryView   *self,
               TriageHistoryPeriod  period,
               gint64              *from,
               gint64              *to)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autoptr(GDateTime) start = NULL;

  *from = 0;
  *to = 0;

  switch (period)
    {
    case TRIAGE_HISTORY_PERIOD_TODAY:
      start = local_midnight (now, 0);
      break;
    case TRIAGE_HISTORY_PERIOD_WEEK:
      start = local_midnight (now, -6);
      break;
    case TRIAGE_HISTORY_PERIOD_MONTH:
      start = local_midnight (now, -29);
      break;
    case TRIAGE_HISTORY_PERIOD_YEAR:
      start = local_midnight (now, -364);
      break;
    case TRIAGE_HISTORY_PERIOD_CUSTOM:
      *from = self->range_from;
      *to = self->range_to;
      return;
    case TRIAGE_HISTORY_PERIOD_ANY:
    default:
      return;
    }

  *from = time_to_usec (start);
}

/* Returns TRUE if the filter changed (and a query started). */
static gboolean
apply_filters (TriageHistoryView *self)
{
  g_autoptr(TriageHistoryFilter) filter = triage_history_filter_new ();
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  guint outcome = gtk_drop_down_get_selected (self->outcome_dropdown);

  filter->text = text[0] != '\0' ? g_strdup (text) : NULL;
  filter->service = g_strdup (selected_key (self->service_dropdown, self->service_keys));
  filter->project = g_strdup (selected_key (self->project_dropdown, self->project_keys));
  filter->outcome = outcome < G_N_ELEMENTS (outcome_choices) ? outcome_choices[outcome]
                                                              : TRIAGE_HISTORY_OUTCOME_ANY;
  period_bounds (self, gtk_drop_down_get_selected (self->date_dropdown),
                 &filter->from_usec, &filter->to_usec);

  if (triage_history_filter_equal (filter, self->filter))
    return FALSE;

  triage_history_filter_free (self->filter);
  self->filter = g_steal_pointer (&filter);

  if (self->model == NULL)
    return FALSE;

  triage_history_model_set_filter (self->model, self->filter);
  load_stats (self);
  return TRUE;
}

static void
on_filters_changed (TriageHistoryView *self)
{
  if (!self->updating)
    apply_filters (self);
}

static void
on_search_stop (TriageHistoryView *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  triage_history_view_set_search_text (self, "");
}

static void
update_range_button (TriageHistoryView *self)
{
  g_autofree char *first = NULL;
  g_autofree char *last = NULL;
  g_autofree char *label = NULL;

  if (self->range_from == 0 || self->range_to == 0)
    return;

  first = format_day (self->range_from);
  last = format_day (self->range_to - G_USEC_PER_SEC);
  /* Translators: a period, from the first day to the last */
  label = g_strdup_printf (_("%s – %s"), first, last);
  gtk_menu_button_set_label (self->range_button, label);
}

static void
set_range (TriageHistoryView *self,
           GDateTime         *first_day,
           GDateTime         *last_day)
{
  g_autoptr(GDateTime) from = local_midnight (first_day, 0);
  g_autoptr(GDateTime) to = local_midnight (last_day, 1);

  if (g_date_time_compare (to, from) <= 0)
    {
      g_autoptr(GDateTime) swapped_from = local_midnight (last_day, 0);
      g_autoptr(GDateTime) swapped_to = local_midnight (first_day, 1);

      self->range_from = time_to_usec (swapped_from);
      self->range_to = time_to_usec (swapped_to);
    }
  else
    {
      self->range_from = time_to_usec (from);
      self->range_to = time_to_usec (to);
    }

  update_range_button (self);
}

static void
on_date_selected (TriageHistoryView *self)
{
  gboolean custom = gtk_drop_down_get_selected (self->date_dropdown) == TRIAGE_HISTORY_PERIOD_CUSTOM;

  gtk_widget_set_visible (self->range_child, custom);

  if (custom && self->range_from == 0)
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_local ();
      g_autoptr(GDateTime) week_ago = g_date_time_add_days (now, -6);

      set_range (self, week_ago, now);
    }

  if (custom && !self->updating && gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      g_autoptr(GDateTime) from = g_date_time_new_from_unix_local (self->range_from / G_USEC_PER_SEC);
      g_autoptr(GDateTime) to = g_date_time_new_from_unix_local ((self->range_to - 1) / G_USEC_PER_SEC);

      gtk_calendar_select_day (self->from_calendar, from);
      gtk_calendar_select_day (self->to_calendar, to);
      gtk_menu_button_popup (self->range_button);
    }

  on_filters_changed (self);
}

static void
on_range_apply (TriageHistoryView *self)
{
  g_autoptr(GDateTime) from = gtk_calendar_get_date (self->from_calendar);
  g_autoptr(GDateTime) to = gtk_calendar_get_date (self->to_calendar);

  gtk_popover_popdown (self->range_popover);
  triage_history_view_set_date_range (self, from, to);
}

/* Model */

static void
on_model_loading (TriageHistoryView *self)
{
  if (!triage_history_model_get_loading (self->model))
    self->loaded_once = TRUE;
  update_state (self);
  notify_loading (self);
}

static void
on_model_failed (TriageHistoryView *self,
                 const GError      *error)
{
  g_autofree char *escaped = g_markup_escape_text (error->message, -1);

  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (escaped));
}

static void
get_entry_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(TriageHistoryView) self = user_data;
  g_autoptr(TriageHistoryEntry) entry = NULL;

  /* An error is the list changing first, or a page failing (told by the
   * model's failed signal): nothing more to say. */
  entry = triage_history_model_get_entry_finish (TRIAGE_HISTORY_MODEL (object), result, NULL);
  if (entry != NULL && triage_history_entry_get_id (entry) != NULL)
    g_signal_emit (self, signals [ENTRY_ACTIVATED], 0, entry);
}

/* A row may still show its placeholder: the entry is opened once read. */
static void
on_row_activate (TriageHistoryView *self,
                 guint              position)
{
  triage_history_model_get_entry_async (self->model, position, self->cancellable,
                                        get_entry_cb, g_object_ref (self));
}

/* Watching the database while shown */

static gboolean
poll_cb (gpointer data)
{
  TriageHistoryView *self = data;

  if (self->db != NULL && triage_history_db_is_open (self->db) &&
      self->model != NULL && !triage_history_model_get_loading (self->model) &&
      triage_history_db_check_changed (self->db))
    triage_history_view_reload (self);

  return G_SOURCE_CONTINUE;
}

static void
triage_history_view_map (GtkWidget *widget)
{
  TriageHistoryView *self = TRIAGE_HISTORY_VIEW (widget);

  GTK_WIDGET_CLASS (triage_history_view_parent_class)->map (widget);

  /* What changed while hidden shows at once. */
  poll_cb (self);
  if (self->poll_id == 0)
    self->poll_id = g_timeout_add_seconds (POLL_INTERVAL_SECONDS, poll_cb, self);
}

static void
triage_history_view_unmap (GtkWidget *widget)
{
  TriageHistoryView *self = TRIAGE_HISTORY_VIEW (widget);

  g_clear_handle_id (&self->poll_id, g_source_remove);

  GTK_WIDGET_CLASS (triage_history_view_parent_class)->unmap (widget);
}

/* Export */

typedef struct
{
  guint n_written;
  char *name;
} ExportResult;

static void
export_result_free (ExportResult *result)
{
  g_free (result->name);
  g_free (result);
}

static void
export_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TriageHistoryView *self = g_task_get_source_object (task);
  ExportResult *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  self->exports_running--;
  update_export_actions (self);

  if (!triage_history_export_finish (result, &data->n_written, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * triage_history_view_export_async:
 * @self: a #TriageHistoryView
 * @selected_only: export the selected entries, else every entry shown
 * @format: JSON Lines or CSV
 * @file: the file to write (replaced once complete)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the file is written
 * @user_data: data for @callback
 *
 * Exports on a thread of its own; the window stays responsive for any size.
 */
void
triage_history_view_export_async (TriageHistoryView   *self,
                                  gboolean             selected_only,
                                  TriageHistoryFormat  format,
                                  GFile               *file,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GArray) rowids = NULL;
  g_autoptr(GtkBitset) bits = NULL;
  ExportResult *data;

  g_return_if_fail (TRIAGE_IS_HISTORY_VIEW (self));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, triage_history_view_export_async);
  data = g_new0 (ExportResult, 1);
  data->name = g_file_get_parse_name (file);
  g_task_set_task_data (task, data, (GDestroyNotify) export_result_free);

  if (self->model == NULL || self->db == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                               "%s", _("The history is not open"));
      return;
    }

  if (selected_only)
    bits = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->model));
  rowids = triage_history_model_dup_rowids (self->model, bits);

  self->exports_running++;
  update_export_actions (self);
  triage_history_export_async (triage_history_db_get_path (self->db), rowids, format, file,
                               cancellable, export_done_cb, g_steal_pointer (&task));
}

/**
 * triage_history_view_export_finish:
 * @self: a #TriageHistoryView
 * @result: the result
 * @n_written: (out) (optional): how many entries were written
 * @error: where to put an error
 *
 * Returns: %TRUE if the file is complete
 */
gboolean
triage_history_view_export_finish (TriageHistoryView  *self,
                                   GAsyncResult       *result,
                                   guint              *n_written,
                                   GError            **error)
{
  ExportResult *data;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  data = g_task_get_task_data (G_TASK (result));
  if (n_written != NULL)
    *n_written = data->n_written;

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
export_toast_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  TriageHistoryView *self = TRIAGE_HISTORY_VIEW (object);
  ExportResult *data = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *escaped = NULL;
  guint n = 0;

  if (triage_history_view_export_finish (self, result, &n, &error))
    /* Translators: %u is a number of requests, %s a file name */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Exported %u request to “%s”",
                                         "Exported %u requests to “%s”", n), n, data->name);
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  else
    /* Translators: %s says why */
    text = g_strdup_printf (_("Could not export the history: %s"), error->message);

  escaped = g_markup_escape_text (text, -1);
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (escaped));
}

static void
on_chooser_response (TriageHistoryView *self,
                     int                response,
                     GtkNativeDialog   *chooser)
{
  gboolean selected_only = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (chooser), "selected-only"));
  TriageHistoryFormat format = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (chooser), "format"));
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

  gtk_native_dialog_destroy (chooser);
  g_clear_object (&self->chooser);

  if (file != NULL)
    triage_history_view_export_async (self, selected_only, format, file, self->cancellable,
                                      export_toast_cb, NULL);
}

static void
choose_export_file (TriageHistoryView *self,
                    gboolean           selected_only,
                    GVariant          *parameter)
{
  TriageHistoryFormat format = g_str_equal (g_variant_get_string (parameter, NULL), "csv")
    ? TRIAGE_HISTORY_FORMAT_CSV : TRIAGE_HISTORY_FORMAT_JSON_LINES;
  g_autoptr(GtkFileFilter) file_filter = gtk_file_filter_new ();
  g_autofree char *name = NULL;
  g_autofree char *pattern = NULL;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (self->chooser != NULL)
    return;

  self->chooser = gtk_file_chooser_native_new (selected_only ? _("Export Selected Requests")
                                                             : _("Export the History"),
                                               GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                               GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);

  name = g_strdup_printf ("triage-history.%s", triage_history_format_extension (format));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), name);

  pattern = g_strdup_printf ("*.%s", triage_history_format_extension (format));
  gtk_file_filter_add_pattern (file_filter, pattern);
  gtk_file_filter_set_name (file_filter, format == TRIAGE_HISTORY_FORMAT_CSV
                                         ? _("CSV (comma-separated values)")
                                         : _("JSON Lines"));
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), file_filter);

  g_object_set_data (G_OBJECT (self->chooser), "selected-only", GINT_TO_POINTER (selected_only));
  g_object_set_data (G_OBJECT (self->chooser), "format", GINT_TO_POINTER (format));
  g_signal_connect_object (self->chooser, "response",
                           G_CALLBACK (on_chooser_response), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
export_selected_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  choose_export_file (TRIAGE_HISTORY_VIEW (widget), TRUE, parameter);
}

static void
export_all_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  choose_export_file (TRIAGE_HISTORY_VIEW (widget), FALSE, parameter);
}

static void
clear_filters_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  triage_history_view_clear_filters (TRIAGE_HISTORY_VIEW (widget));
}

static void
focus_search_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  triage_history_view_focus_search (TRIAGE_HISTORY_VIEW (widget));
}

/* Public API */

TriageHistoryDb *
triage_history_view_get_db (TriageHistoryView *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_VIEW (self), NULL);

  return self->db;
}

/**
 * triage_history_view_set_db:
 * @self: a #TriageHistoryView
 * @db: (nullable): an open #TriageHistoryDb
 *
 * Shows the history kept in @db.
 */
void
triage_history_view_set_db (TriageHistoryView *self,
                            TriageHistoryDb   *db)
{
  g_return_if_fail (TRIAGE_IS_HISTORY_VIEW (self));
  g_return_if_fail (db == NULL || (TRIAGE_IS_HISTORY_DB (db) && triage_history_db_is_open (db)));

  if (db == self->db)
    return;

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  gtk_grid_view_set_model (self->list_view, NULL);
  g_clear_object (&self->model);
  g_clear_pointer (&self->facets, triage_history_facets_free);
  self->loaded_once = FALSE;
  g_set_object (&self->db, db);

  if (db != NULL)
    {
      self->model = triage_history_model_new (db);
      g_signal_connect_object (self->model, "notify::loading",
                               G_CALLBACK (on_model_loading), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->model, "failed",
                               G_CALLBACK (on_model_failed), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->model, "selection-changed",
                               G_CALLBACK (update_state), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->model, "items-changed",
                               G_CALLBACK (update_state), self, G_CONNECT_SWAPPED);
      gtk_grid_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->model));
      triage_history_model_set_filter (self->model, self->filter);
      /* An empty filter equals the model's own: ask once all the same. */
      if (!triage_history_model_get_loading (self->model))
        triage_history_model_reload (self->model);
      load_stats (self);
      load_facets (self);
      triage_history_db_check_changed (db);
    }

  update_state (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_DB]);
}

/**
 * triage_history_view_reload:
 *
 * Reads the history again (the store wrote); rows that did not change stay.
 */
void
triage_history_view_reload (TriageHistoryView *self)
{
  g_return_if_fail (TRIAGE_IS_HISTORY_VIEW (self));

  if (self->model == NULL)
    return;

  /* "Today" and the other periods move with the clock. */
  if (!apply_filters (self))
    {
      triage_history_model_reload (self->model);
      load_stats (self);
    }
  load_facets (self);
}

TriageHistoryModel *
triage_history_view_get_model (TriageHistoryView *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_VIEW (self), NULL);

  return self->model;
}

/**
 * triage_history_view_get_selection:
 *
 * Returns: (transfer none) (nullable): the list's selection (what "Export
 *   Selected" writes): the model itself, %NULL before a database is set
 */
GtkSelectionModel *
triage_history_view_get_selection (TriageHistoryView *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_VIEW (self), NULL);

  return self->model ? GTK_SELECTION_MODEL (self->model) : NULL;
}

TriageHistoryChart *
triage_history_view_get_chart (TriageHistoryView *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_VIEW (self), NULL);

  return self->chart;
}

const TriageHistoryFilter *
triage_history_view_get_filter (TriageHistoryView *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_VIEW (self), NULL);

  return self->filter;
}

TriageHistoryViewState
triage_history_view_get_state (TriageHistoryView *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_VIEW (self), TRIAGE_HISTORY_VIEW_LOADING);

  return self->state;
}

/**
 * triage_history_view_get_loading:
 *
 * Returns: %TRUE while the list, the chart or the filters' choices are being read
 */
gboolean
triage_history_view_get_loading (TriageHistoryView *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_VIEW (self), FALSE);

  return (self->model != NULL && triage_history_model_get_loading (self->model)) ||
         self->stats_loading || self->facets_loading;
}

/**
 * triage_history_view_set_search_text:
 * @self: a #TriageHistoryView
 * @text: (nullable): words to find
 *
 * Searches at once (without the typing delay).
 */
void
triage_history_view_set_search_text (TriageHistoryView *self,
                                     const char        *text)
{
  g_return_if_fail (TRIAGE_IS_HISTORY_VIEW (self));

  self->updating = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text ? text : "");
  self->updating = FALSE;
  apply_filters (self);
}

static gboolean
select_key (GtkDropDown *dropdown,
            GPtrArray   *keys,
            const char  *value)
{
  for (guint i = 0; keys != NULL && i < keys->len; i++)
    if (g_strcmp0 (g_ptr_array_index (keys, i), value) == 0)
      {
        gtk_drop_down_set_selected (dropdown, i);
        return TRUE;
      }

  return FALSE;
}

/**
 * triage_history_view_set_service_filter:
 * @self: a #TriageHistoryView
 * @service: (nullable): a service offered by the drop-down, %NULL for all
 *
 * Returns: %TRUE if @service is offered (and now selected)
 */
gboolean
triage_history_view_set_service_filter (TriageHistoryView *self,
                                        const char        *service)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_VIEW (self), FALSE);

  return select_key (self->service_dropdown, self->service_keys, service);
}

/**
 * triage_history_view_set_project_filter:
 * @self: a #TriageHistoryView
 * @project: (nullable): a project offered, "" for entries without one, %NULL for all
 *
 * Returns: %TRUE if @project is offered (and now selected)
 */
gboolean
triage_history_view_set_project_filter (TriageHistoryView *self,
                                        const char        *project)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_VIEW (self), FALSE);

  return select_key (self->project_dropdown, self->project_keys, project);
}

/**
 * triage_history_view_set_outcome_filter:
 * @self: a #TriageHistoryView
 * @outcome: a #TriageOutcome (%TRIAGE_OUTCOME_NONE: pending) or
 *   %TRIAGE_HISTORY_OUTCOME_ANY
 */
void
triage_history_view_set_outcome_filter (TriageHistoryView *self,
                                        int                outcome)
{
  g_return_if_fail (TRIAGE_IS_HISTORY_VIEW (self));

  for (guint i = 0; i < G_N_ELEMENTS (outcome_choices); i++)
    if (outcome_choices[i] == outcome)
      {
        gtk_drop_down_set_selected (self->outcome_dropdown, i);
        return;
      }

  g_return_if_reached ();
}

void
triage_history_view_set_period (TriageHistoryView   *self,
                                TriageHistoryPeriod  period)
{
  g_return_if_fail (TRIAGE_IS_HISTORY_VIEW (self));
  g_return_if_fail (period <= TRIAGE_HISTORY_PERIOD_CUSTOM);

  gtk_drop_down_set_selected (self->date_dropdown, period);
}

/**
 * triage_history_view_set_date_range:
 * @self: a #TriageHistoryView
 * @first_day: any time on the first day (local time zone)
 * @last_day: any time on the last day, included
 *
 * Shows the requests received on those days.
 */
void
triage_history_view_set_date_range (TriageHistoryView *self,
                                    GDateTime         *first_day,
                                    GDateTime         *last_day)
{
  g_return_if_fail (TRIAGE_IS_HISTORY_VIEW (self));
  g_return_if_fail (first_day != NULL && last_day != NULL);

  set_range (self, first_day, last_day);

  self->updating = TRUE;
  gtk_drop_down_set_selected (self->date_dropdown, TRIAGE_HISTORY_PERIOD_CUSTOM);
  gtk_widget_set_visible (self->range_child, TRUE);
  self->updating = FALSE;

  apply_filters (self);
}

/**
 * triage_history_view_clear_filters:
 *
 * Clears the search and every filter.
 */
void
triage_history_view_clear_filters (TriageHistoryView *self)
{
  g_return_if_fail (TRIAGE_IS_HISTORY_VIEW (self));

  self->updating = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  gtk_drop_down_set_selected (self->service_dropdown, 0);
  gtk_drop_down_set_selected (self->project_dropdown, 0);
  gtk_drop_down_set_selected (self->outcome_dropdown, 0);
  gtk_drop_down_set_selected (self->date_dropdown, TRIAGE_HISTORY_PERIOD_ANY);
  gtk_widget_set_visible (self->range_child, FALSE);
  self->updating = FALSE;

  apply_filters (self);
}

static GStrv
dup_choices (GtkDropDown *dropdown)
{
  GListModel *model = gtk_drop_down_get_model (dropdown);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  guint n = model ? g_list_model_get_n_items (model) : 0;

  for (guint i = 0; i < n; i++)
    g_strv_builder_add (builder, gtk_string_list_get_string (GTK_STRING_LIST (model), i));

  return g_strv_builder_end (builder);
}

/**
 * triage_history_view_dup_service_choices:
 *
 * Returns: (transfer full): the labels the service drop-down offers
 */
GStrv
triage_history_view_dup_service_choices (TriageHistoryView *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_VIEW (self), NULL);

  return dup_choices (self->service_dropdown);
}

/**
 * triage_history_view_dup_project_choices:
 *
 * Returns: (transfer full): the labels the project drop-down offers
 */
GStrv
triage_history_view_dup_project_choices (TriageHistoryView *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_VIEW (self), NULL);

  return dup_choices (self->project_dropdown);
}

/**
 * triage_history_view_focus_search:
 *
 * Puts the keyboard in the search entry (Ctrl+F).
 */
void
triage_history_view_focus_search (TriageHistoryView *self)
{
  g_return_if_fail (TRIAGE_IS_HISTORY_VIEW (self));

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
  gtk_editable_select_region (GTK_EDITABLE (self->search_entry), 0, -1);
}

/* GObject */

static void
triage_history_view_dispose (GObject *object)
{
  TriageHistoryView *self = (TriageHistoryView *)object;

  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->stats_cancellable);
  g_clear_handle_id (&self->poll_id, g_source_remove);
  if (self->chooser != NULL)
    {
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
      g_clear_object (&self->chooser);
    }
  if (self->list_view != NULL)
    gtk_grid_view_set_model (self->list_view, NULL);
  g_clear_object (&self->model);

  /* AdwBin would unparent its child again after the template did. */
  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), TRIAGE_TYPE_HISTORY_VIEW);

  G_OBJECT_CLASS (triage_history_view_parent_class)->dispose (object);
}

static void
triage_history_view_finalize (GObject *object)
{
  TriageHistoryView *self = (TriageHistoryView *)object;

  g_clear_object (&self->db);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->stats_cancellable);
  g_clear_pointer (&self->filter, triage_history_filter_free);
  g_clear_pointer (&self->facets, triage_history_facets_free);
  g_clear_pointer (&self->service_keys, g_ptr_array_unref);
  g_clear_pointer (&self->project_keys, g_ptr_array_unref);

  G_OBJECT_CLASS (triage_history_view_parent_class)->finalize (object);
}

static void
triage_history_view_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  TriageHistoryView *self = TRIAGE_HISTORY_VIEW (object);

  switch (prop_id)
    {
    case PROP_DB:
      g_value_set_object (value, self->db);
      break;

    case PROP_LOADING:
      g_value_set_boolean (value, triage_history_view_get_loading (self));
      break;

    case PROP_STATE:
      g_value_set_uint (value, self->state);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_history_view_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  TriageHistoryView *self = TRIAGE_HISTORY_VIEW (object);

  switch (prop_id)
    {
    case PROP_DB:
      triage_history_view_set_db (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_history_view_class_init (TriageHistoryViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = triage_history_view_dispose;
  object_class->finalize = triage_history_view_finalize;
  object_class->get_property = triage_history_view_get_property;
  object_class->set_property = triage_history_view_set_property;

  widget_class->map = triage_history_view_map;
  widget_class->unmap = triage_history_view_unmap;

  properties [PROP_DB] =
    g_param_spec_object ("db", NULL, NULL, TRIAGE_TYPE_HISTORY_DB,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties [PROP_STATE] =
    g_param_spec_uint ("state", NULL, NULL,
                       TRIAGE_HISTORY_VIEW_LOADING, TRIAGE_HISTORY_VIEW_LIST,
                       TRIAGE_HISTORY_VIEW_LOADING,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TriageHistoryView::entry-activated:
   * @self: the view
   * @entry: the entry the person opened (double click, Enter)
   */
  signals [ENTRY_ACTIVATED] =
    g_signal_new ("entry-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, TRIAGE_TYPE_HISTORY_ENTRY);

  g_type_ensure (TRIAGE_TYPE_HISTORY_CHART);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/browse/triage-history-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TriageHistoryView, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, TriageHistoryView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, TriageHistoryView, export_button);
  gtk_widget_class_bind_template_child (widget_class, TriageHistoryView, service_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TriageHistoryView, project_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TriageHistoryView, outcome_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TriageHistoryView, date_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TriageHistoryView, range_child);
  gtk_widget_class_bind_template_child (widget_class, TriageHistoryView, range_button);
  gtk_widget_class_bind_template_child (widget_class, TriageHistoryView, range_popover);
  gtk_widget_class_bind_template_child (widget_class, TriageHistoryView, from_calendar);
  gtk_widget_class_bind_template_child (widget_class, TriageHistoryView, to_calendar);
  gtk_widget_class_bind_template_child (widget_class, TriageHistoryView, chart);
  gtk_widget_class_bind_template_child (widget_class, TriageHistoryView, count_label);
  gtk_widget_class_bind_template_child (widget_class, TriageHistoryView, stack);
  gtk_widget_class_bind_template_child (widget_class, TriageHistoryView, list_view);
  gtk_widget_class_bind_template_callback (widget_class, on_filters_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_search_stop);
  gtk_widget_class_bind_template_callback (widget_class, on_date_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_range_apply);
  gtk_widget_class_bind_template_callback (widget_class, on_row_activate);

  gtk_widget_class_install_action (widget_class, "history.export-selected", "s", export_selected_action);
  gtk_widget_class_install_action (widget_class, "history.export-all", "s", export_all_action);
  gtk_widget_class_install_action (widget_class, "history.clear-filters", NULL, clear_filters_action);
  gtk_widget_class_install_action (widget_class, "history.focus-search", NULL, focus_search_action);
}

static void
triage_history_view_init (TriageHistoryView *self)
{
  const char *outcome_labels[G_N_ELEMENTS (outcome_choices) + 1] = { NULL };
  const char *period_labels[] = {
    _("Any Time"),
    _("Today"),
    _("Last 7 Days"),
    _("Last 30 Days"),
    _("Last 12 Months"),
    _("Chosen Days…"),
    NULL,
  };
  g_autoptr(GtkExpression) expression = NULL;
  g_autoptr(GtkListItemFactory) factory = NULL;
  GtkEventController *controller;
  GtkShortcut *shortcut;

  triage_browse_style_init ();
  gtk_widget_init_template (GTK_WIDGET (self));
  triage_browse_prepare_drop_down (self->service_dropdown);
  triage_browse_prepare_drop_down (self->project_dropdown);
  triage_browse_prepare_drop_down (self->outcome_dropdown);
  triage_browse_prepare_drop_down (self->date_dropdown);

  self->cancellable = g_cancellable_new ();
  self->filter = triage_history_filter_new ();
  self->state = TRIAGE_HISTORY_VIEW_LOADING;

  self->updating = TRUE;
  expression = gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string");
  gtk_drop_down_set_expression (self->service_dropdown, expression);
  gtk_drop_down_set_expression (self->project_dropdown, expression);
  fill_facets (self);

  outcome_labels[0] = _("Any Outcome");
  for (guint i = 1; i < G_N_ELEMENTS (outcome_choices); i++)
    outcome_labels[i] = triage_history_outcome_label (outcome_choices[i]);
  set_string_model (self->outcome_dropdown, outcome_labels, 0);
  set_string_model (self->date_dropdown, period_labels, TRIAGE_HISTORY_PERIOD_ANY);
  self->updating = FALSE;


  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row), NULL);
  gtk_grid_view_set_factory (self->list_view, factory);

  /* Ctrl+F anywhere in the window while the history is shown. */
  controller = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (controller), GTK_SHORTCUT_SCOPE_MANAGED);
  shortcut = gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_f, GDK_CONTROL_MASK),
                               gtk_named_action_new ("history.focus-search"));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller), shortcut);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  update_state (self);
}

/**
 * triage_history_view_new:
 *
 * Returns: (transfer full): a history view; give it an open database with
 *   triage_history_view_set_db()
 */
GtkWidget *
triage_history_view_new (void)
{
  return g_object_new (TRIAGE_TYPE_HISTORY_VIEW, NULL);
}
