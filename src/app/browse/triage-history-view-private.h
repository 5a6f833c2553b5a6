/* triage-history-view-private.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-history-view.h"

G_BEGIN_DECLS

/*
 * TriageHistoryView spans three files: triage-history-view.c (the widget:
 * the list, its state, the database and the watch on it),
 * triage-history-view-filters.c (the search, the filter drop-downs and the
 * period, and the chart's statistics that follow them),
 * triage-history-view-export.c (the export actions and their file chooser)
 * and triage-history-view-keyboard.c (the row Tab enters the list on).
 */

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
  gboolean                keyboard_at_top;  /* Tab enters the list on its first row */
  GtkWidget              *focus_root;       /* weak: the window followed while mapped */
  guint                   exports_running;
  guint                   poll_id;
  TriageHistoryViewState  state;
  char                   *problem;          /* why there is no database */

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
  AdwStatusPage          *empty_page;
  AdwStatusPage          *unavailable_page;
  GtkGridView            *list_view;
};

/* triage-history-view.c */
void     triage_history_view_update_state          (TriageHistoryView      *self);
void     triage_history_view_notify_loading        (TriageHistoryView      *self);

/* triage-history-view-filters.c */
void     triage_history_view_class_init_filters    (GtkWidgetClass         *widget_class);
void     triage_history_view_init_filters          (TriageHistoryView      *self);
gboolean triage_history_view_apply_filters         (TriageHistoryView      *self);
void     triage_history_view_load_facets           (TriageHistoryView      *self);
void     triage_history_view_load_stats            (TriageHistoryView      *self);

/* triage-history-view-export.c */
void     triage_history_view_class_init_export     (GtkWidgetClass         *widget_class);
void     triage_history_view_update_export_actions (TriageHistoryView      *self);

/* triage-history-view-keyboard.c */
void     triage_history_view_class_init_keyboard   (GtkWidgetClass         *widget_class);
void     triage_history_view_init_keyboard         (TriageHistoryView      *self);
void     triage_history_view_dispose_keyboard      (TriageHistoryView      *self);
void     triage_history_view_focus_list_from_top   (TriageHistoryView      *self);
void     triage_history_view_focus_first_row       (TriageHistoryView      *self);

G_END_DECLS
