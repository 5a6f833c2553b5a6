/* triage-history-view.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-history"

#include <glib/gi18n.h>

#include "triage-browse-style.h"
#include "triage-history-row.h"
#include "triage-history-view-private.h"
#include "triage-list-item-a11y.h"
#include "triage-status-page-a11y.h"

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
 * few more (about 35). A screen reader still meets a list of list items,
 * not GTK's grid of cells (the view's accessible-role in the template,
 * setup_row ()).
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
 *
 * The filters are in triage-history-view-filters.c, the export in
 * triage-history-view-export.c.
 */

#define POLL_INTERVAL_SECONDS 2

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
    [TRIAGE_HISTORY_VIEW_UNAVAILABLE] = "unavailable",
  };

  if (self->state == state)
    return;

  self->state = state;
  gtk_stack_set_visible_child_name (self->stack, pages[state]);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_STATE]);
}

void
triage_history_view_update_state (TriageHistoryView *self)
{
  guint n;
  g_autofree char *count = NULL;

  triage_history_view_update_export_actions (self);

  if (self->model == NULL || !self->loaded_once)
    {
      gtk_label_set_label (self->count_label, "");
      set_state (self, self->db == NULL && self->problem != NULL ? TRIAGE_HISTORY_VIEW_UNAVAILABLE
                                                                 : TRIAGE_HISTORY_VIEW_LOADING);
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
  /* Said with the list as the keyboard enters it (the count is no stop of Tab). */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list_view),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, count, -1);

  if (n > 0)
    set_state (self, TRIAGE_HISTORY_VIEW_LIST);
  else if (triage_history_filter_is_empty (self->filter) ||
           (self->facets != NULL && self->facets->services[0] == NULL))
    set_state (self, TRIAGE_HISTORY_VIEW_EMPTY);
  else
    set_state (self, TRIAGE_HISTORY_VIEW_NO_RESULTS);
}

void
triage_history_view_notify_loading (TriageHistoryView *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_LOADING]);
}

/* Rows */

static void
setup_row (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  GtkWidget *row = triage_history_row_new ();

  /* A list to a screen reader, as it looks: GTK 4.8 makes a grid view's
   * items grid cells. */
  triage_list_item_a11y_read_as_list_item (row);
  gtk_list_item_set_child (item, row);
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

/* Model */

static void
on_model_loading (TriageHistoryView *self)
{
  if (!triage_history_model_get_loading (self->model))
    self->loaded_once = TRUE;
  triage_history_view_update_state (self);
  triage_history_view_notify_loading (self);
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

  if (self->db == NULL || !triage_history_db_is_open (self->db) ||
      self->model == NULL || triage_history_model_get_loading (self->model))
    return G_SOURCE_CONTINUE;

  if (triage_history_db_check_changed (self->db))
    triage_history_view_reload (self);
  else
    /* Nothing written: "Today" and the other periods still move at midnight. */
    triage_history_view_apply_filters (self);

  return G_SOURCE_CONTINUE;
}

/* Rows added at the head (newer entries, after a reload) while the list is
 * at its top: GTK keeps the row that was first where it was, which put the
 * newest rows above the view, so that the history opened part-way down.
 * The list is anchored at its first row again before it is laid out, so no
 * frame shows it anywhere but at the top (taking it back once laid out
 * drew one frame scrolled down: a jump). Run after the list has taken the
 * change in (G_CONNECT_AFTER), which moved its anchor along with the row.
 * Scrolled down, it stays put. */
static void
on_model_items_changed (TriageHistoryView *self,
                        guint              position,
                        guint              removed,
                        guint              added)
{
  GtkAdjustment *vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->list_view));

  triage_history_view_update_state (self);

  if (position != 0 || added == 0 || vadjustment == NULL ||
      gtk_adjustment_get_value (vadjustment) > gtk_adjustment_get_lower (vadjustment))
    return;

  gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", 0);
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

static void
clear_filters_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  triage_history_view_clear_filters (TRIAGE_HISTORY_VIEW (widget));
}

/* Down or Enter in the search: the keyboard to the results, on the first
 * (as in the inbox), past the export button and the four filters. */
static void
focus_list_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  TriageHistoryView *self = TRIAGE_HISTORY_VIEW (widget);
  GListModel *model = G_LIST_MODEL (gtk_grid_view_get_model (self->list_view));

  if (model == NULL || g_list_model_get_n_items (model) == 0)
    return;

  gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", 0);
  triage_history_view_focus_first_row (self);
}

static void
on_search_activate (TriageHistoryView *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "history.focus-list", NULL);
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
 * triage_history_view_set_problem:
 * @self: a #TriageHistoryView
 * @problem: (nullable): why the history could not be opened (it will be
 *   tried again), or %NULL
 *
 * Without a database, says that the history is unavailable and why, instead
 * of an empty list that looks like one still loading.
 */
void
triage_history_view_set_problem (TriageHistoryView *self,
                                 const char        *problem)
{
  g_return_if_fail (TRIAGE_IS_HISTORY_VIEW (self));

  if (g_strcmp0 (self->problem, problem) == 0)
    return;

  g_free (self->problem);
  self->problem = g_strdup (problem);

  if (problem != NULL)
    {
      g_autofree char *text = NULL;

      /* Translators: the history view while its database cannot be opened;
       * %s is the reason (for instance "database or disk is full") */
      text = g_strdup_printf (_("The history cannot be opened: %s. Triage tries again by itself. "
                                "Requests still arrive and can be answered; which ones you "
                                "opened is kept once it opens."), problem);
      adw_status_page_set_description (self->unavailable_page, text);
    }
  triage_history_view_update_state (self);
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
  triage_history_view_focus_list_from_top (self);
  g_set_object (&self->db, db);

  if (db != NULL)
    {
      self->model = triage_history_model_new (db);
      g_signal_connect_object (self->model, "notify::loading",
                               G_CALLBACK (on_model_loading), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->model, "failed",
                               G_CALLBACK (on_model_failed), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->model, "selection-changed",
                               G_CALLBACK (triage_history_view_update_state),
                               self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->model, "items-changed",
                               G_CALLBACK (on_model_items_changed), self,
                               G_CONNECT_SWAPPED | G_CONNECT_AFTER);
      gtk_grid_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->model));
      triage_history_model_set_filter (self->model, self->filter);
      /* An empty filter equals the model's own: ask once all the same. */
      if (!triage_history_model_get_loading (self->model))
        triage_history_model_reload (self->model);
      triage_history_view_load_stats (self);
      triage_history_view_load_facets (self);
      triage_history_db_check_changed (db);
    }

  triage_history_view_update_state (self);
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
  if (!triage_history_view_apply_filters (self))
    {
      triage_history_model_reload (self->model);
      triage_history_view_load_stats (self);
    }
  triage_history_view_load_facets (self);
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
  triage_history_view_dispose_keyboard (self);
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
  g_clear_pointer (&self->problem, g_free);

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
                       TRIAGE_HISTORY_VIEW_LOADING, TRIAGE_HISTORY_VIEW_UNAVAILABLE,
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
  gtk_widget_class_bind_template_child (widget_class, TriageHistoryView, empty_page);
  gtk_widget_class_bind_template_child (widget_class, TriageHistoryView, unavailable_page);
  gtk_widget_class_bind_template_child (widget_class, TriageHistoryView, list_view);
  gtk_widget_class_bind_template_callback (widget_class, on_row_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_search_activate);
  triage_history_view_class_init_filters (widget_class);

  triage_history_view_class_init_export (widget_class);
  triage_history_view_class_init_keyboard (widget_class);
  gtk_widget_class_install_action (widget_class, "history.clear-filters", NULL, clear_filters_action);
  gtk_widget_class_install_action (widget_class, "history.focus-search", NULL, focus_search_action);
  gtk_widget_class_install_action (widget_class, "history.focus-list", NULL, focus_list_action);
}

static void
triage_history_view_init (TriageHistoryView *self)
{
  g_autoptr(GtkListItemFactory) factory = NULL;
  GtkEventController *controller;
  GtkShortcut *shortcut;

  triage_browse_style_init ();
  gtk_widget_init_template (GTK_WIDGET (self));
  triage_browse_prepare_drop_down (self->service_dropdown);
  triage_browse_prepare_drop_down (self->project_dropdown);
  triage_browse_prepare_drop_down (self->outcome_dropdown);
  triage_browse_prepare_drop_down (self->date_dropdown);
  /* Nothing on them takes the keyboard: their scrolled window is a stop of Tab. */
  triage_status_page_name_scroller (self->empty_page);
  triage_status_page_name_scroller (self->unavailable_page);

  self->cancellable = g_cancellable_new ();
  self->filter = triage_history_filter_new ();
  self->state = TRIAGE_HISTORY_VIEW_LOADING;

  triage_history_view_init_filters (self);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row), NULL);
  gtk_grid_view_set_factory (self->list_view, factory);
  triage_browse_tab_past_list (GTK_WIDGET (self->list_view));
  triage_history_view_init_keyboard (self);

  /* Ctrl+F anywhere in the window while the history is shown. */
  controller = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (controller), GTK_SHORTCUT_SCOPE_MANAGED);
  shortcut = gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_f, GDK_CONTROL_MASK),
                               gtk_named_action_new ("history.focus-search"));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller), shortcut);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  /* Down from the search to the results (GTK would move to the filter below). */
  controller = gtk_shortcut_controller_new ();
  shortcut = gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Down, 0),
                               gtk_named_action_new ("history.focus-list"));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller), shortcut);
  gtk_widget_add_controller (GTK_WIDGET (self->search_entry), controller);

  triage_history_view_update_state (self);
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
