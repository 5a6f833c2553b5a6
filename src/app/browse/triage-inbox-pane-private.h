/* triage-inbox-pane-private.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-day-clock.h"
#include "triage-inbox-pane.h"

G_BEGIN_DECLS

/*
 * TriageInboxPane spans three files: triage-inbox-pane.c (the widget: the
 * model chain, the rows, the state pages and the read marks),
 * triage-inbox-pane-filters.c (the search with its incremental slices, the
 * service and project drop-downs and the mirror of the source that counts
 * their values) and triage-inbox-pane-keyboard.c (opening requests and
 * keyboard triage, including what waits for a search to be applied).
 */

typedef struct
{
  TriageRequest *request;
  char          *service;
  char          *project;   /* "" for none */
} Slot;

/* Keyboard triage that needs the filtered list while a search is still
 * being applied (incremental filtering) runs when it is done. */
typedef enum
{
  DEFERRED_NONE,
  DEFERRED_SHOW,
  DEFERRED_NEXT,
  DEFERRED_PREVIOUS,
  DEFERRED_FOCUS_LIST,
  DEFERRED_OPEN_SELECTED,
} Deferred;

struct _TriageInboxPane
{
  AdwBin               parent_instance;

  GListModel          *model;
  TriageReadState     *read_state;
  GtkSortListModel    *sort_model;
  GtkFilterListModel  *filter_model;
  GtkCustomFilter     *filter;
  GtkSingleSelection  *selection;

  GPtrArray           *mirror;          /* Slot*, parallel to the source */
  GHashTable          *service_counts;  /* name -> count */
  GHashTable          *project_counts;  /* project or "" -> count */
  GPtrArray           *service_keys;    /* drop-down position -> key (NULL: all) */
  GPtrArray           *project_keys;
  gboolean             facets_dirty;
  gboolean             updating_dropdowns;
  guint                dropdowns_idle_id;
  guint                warm_idle_id;     /* the warm-up, or the wait for a quiet inbox before it */
  gboolean             warm_running;     /* warm_idle_id is the warm-up itself */
  gint64               warm_last_added;  /* monotonic time requests were last added */
  guint                incremental_threshold;
  guint                warm_position;
  guint                deferred_idle_id;
  guint                scroll_tick_id;
  TriageDayClock      *day_clock;       /* the app's, from the first row shown */
  TriageRequest       *scroll_target;   /* to scroll to once laid out */

  GStrv                words;
  char                *service;         /* filter; NULL: all */
  char                *project;         /* filter; NULL: all, "": none */

  Deferred             deferred;        /* what waits for the filter to finish */
  char                *deferred_id;
  TriageRequest       *current;         /* the request opened last */
  GHashTable          *bound_rows;      /* TriageInboxRow* shown */
  GDateTime           *server_wait;     /* the end of the server's wait, or NULL */
  TriageInboxPaneState state;
  GSettings           *settings;        /* the app's, for the server mode; NULL without its schema */
  char                *local_description; /* the empty page's, in local mode */

  /* template */
  GtkWidget           *filter_box;
  GtkSearchEntry      *search_entry;
  GtkDropDown         *service_dropdown;
  GtkDropDown         *project_dropdown;
  GtkStack            *stack;
  AdwStatusPage       *no_results_page;
  AdwStatusPage       *empty_page;
  GtkLabel            *example_label;
  GtkListView         *list_view;
};

/* triage-inbox-pane.c */
void     triage_inbox_pane_update_state             (TriageInboxPane *self);
void     triage_inbox_pane_notify_search_text       (TriageInboxPane *self);
void     triage_inbox_pane_emit_request_activated   (TriageInboxPane *self,
                                                     TriageRequest   *request);

/* triage-inbox-pane-filters.c */
void     triage_inbox_pane_class_init_filters       (GtkWidgetClass  *widget_class);
void     triage_inbox_pane_init_filters             (TriageInboxPane *self);
gboolean triage_inbox_pane_match_request            (gpointer         item,
                                                     gpointer         user_data);
void     triage_inbox_pane_source_items_changed     (TriageInboxPane *self,
                                                     guint            position,
                                                     guint            removed,
                                                     guint            added);

/* triage-inbox-pane-keyboard.c */
void     triage_inbox_pane_class_init_keyboard      (GtkWidgetClass  *widget_class);
void     triage_inbox_pane_init_keyboard            (TriageInboxPane *self);
void     triage_inbox_pane_run_deferred_when_idle   (TriageInboxPane *self);

G_END_DECLS
