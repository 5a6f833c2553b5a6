/* triage-history-view-filters.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-history"

#include <glib/gi18n.h>

#include "triage-browse-style.h"
#include "triage-history-view-private.h"

/*
 * The history view's filters: the search entry, the service, project,
 * outcome and period drop-downs (with a custom range of days), and the
 * chart's statistics, which follow the same filter. Every change becomes one
 * TriageHistoryFilter that the model and the statistics query.
 */

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
  TRIAGE_OUTCOME_GONE,
};

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
      triage_history_view_update_state (self);
    }
  triage_history_view_notify_loading (self);
}

void
triage_history_view_load_facets (TriageHistoryView *self)
{
  if (self->db == NULL)
    return;

  self->facets_loading = TRUE;
  triage_history_view_notify_loading (self);
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

  triage_history_view_notify_loading (self);
}

void
triage_history_view_load_stats (TriageHistoryView *self)
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
  triage_history_view_notify_loading (self);
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
gboolean
triage_history_view_apply_filters (TriageHistoryView *self)
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
  triage_history_view_load_stats (self);
  triage_history_view_focus_list_from_top (self);
  return TRUE;
}

static void
on_filters_changed (TriageHistoryView *self)
{
  if (!self->updating)
    triage_history_view_apply_filters (self);
}

static void
on_search_stop (TriageHistoryView *self)
{
  /* Escape: clear the search; a second one goes on to the list, as in the inbox. */
  if (gtk_editable_get_text (GTK_EDITABLE (self->search_entry))[0] == '\0')
    {
      gtk_widget_activate_action (GTK_WIDGET (self), "history.focus-list", NULL);
      return;
    }
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  triage_history_view_set_search_text (self, "");
}

static void
update_range_button (TriageHistoryView *self)
{
  g_autofree char *first = NULL;
  g_autofree char *last = NULL;
  g_autofree char *label = NULL;
  GtkWidget *button;

  if (self->range_from == 0 || self->range_to == 0)
    return;

  first = format_day (self->range_from);
  last = format_day (self->range_to - G_USEC_PER_SEC);
  /* Translators: a period, from the first day to the last */
  label = g_strdup_printf (_("%s – %s"), first, last);
  gtk_menu_button_set_label (self->range_button, label);

  /* A screen reader meets the button inside, named by the days alone
   * (its label): named "Choose the Days" by the menu button, it is described
   * by the days chosen, as the other filters are by their choice. */
  button = gtk_widget_get_first_child (GTK_WIDGET (self->range_button));
  if (GTK_IS_TOGGLE_BUTTON (button))
    {
      gtk_accessible_update_relation (GTK_ACCESSIBLE (button),
                                      GTK_ACCESSIBLE_RELATION_LABELLED_BY, self->range_button, NULL,
                                      -1);
      gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, label, -1);
    }
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
  triage_history_view_apply_filters (self);
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

  return triage_browse_select_drop_down_key (self->service_dropdown, self->service_keys,
                                             service);
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

  return triage_browse_select_drop_down_key (self->project_dropdown, self->project_keys,
                                             project);
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

  triage_history_view_apply_filters (self);
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

  triage_history_view_apply_filters (self);
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

  return triage_browse_dup_drop_down_strings (self->service_dropdown);
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

  return triage_browse_dup_drop_down_strings (self->project_dropdown);
}

/* GTK 4.8's calendar leaves its four arrow buttons named by their class
 * ("GtkImage"): a screen reader met four of them a calendar, each a stop of
 * Tab. In the header's order: the month's, then the year's. */
static void
collect_buttons (GtkWidget *widget,
                 GPtrArray *buttons)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_BUTTON (child))
        g_ptr_array_add (buttons, child);
      else
        collect_buttons (child, buttons);
    }
}

static void
name_calendar_arrows (GtkCalendar *calendar)
{
  const char *names[] = {
    _("Previous Month"),
    _("Next Month"),
    _("Previous Year"),
    _("Next Year"),
  };
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

  collect_buttons (GTK_WIDGET (calendar), buttons);
  if (buttons->len != G_N_ELEMENTS (names))
    return;

  for (guint i = 0; i < buttons->len; i++)
    gtk_accessible_update_property (g_ptr_array_index (buttons, i),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, names[i], -1);
}

void
triage_history_view_init_filters (TriageHistoryView *self)
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

  name_calendar_arrows (self->from_calendar);
  name_calendar_arrows (self->to_calendar);
}

void
triage_history_view_class_init_filters (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, on_filters_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_search_stop);
  gtk_widget_class_bind_template_callback (widget_class, on_date_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_range_apply);
}
