/* triage-window-private.h — the window's parts, shared by its files
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-attachment-page.h"
#include "triage-request-stack.h"
#include "triage-request-banner.h"
#include "triage-request-view.h"
#include "triage-store.h"
#include "triage-window.h"

G_BEGIN_DECLS

/*
 * TriageWindow spans eight files:
 *
 *   triage-window.c          the object, the request shown and its API
 *   triage-window-delivery.c where an answer given in the view stands, and
 *                            the next request once it is stored
 *   triage-window-actions.c  its actions (the keyboard's paths)
 *   triage-window-history.c  a request opened from the history
 *   triage-window-preview.c  an attachment or a request's whole text, over
 *                            the views
 *   triage-window-status.c   the pending count, the connection bar, toasts and
 *                            the errors of an answer
 *   triage-window-drafts.c   a toast while drafts cannot be written
 *   triage-window-dialogs.c  the keyboard given back as a dialog over it closes
 */

struct _TriageWindow
{
  AdwApplicationWindow   parent_instance;

  TriageInboxModel      *model;
  TriageHistoryDb       *history_db;
  TriageStore           *drafts;             /* the app's database, for the views' drafts */
  TriageReadState       *read_state;
  TriageRequest         *current;
  GSignalGroup          *current_signals;
  char                  *answered_here;      /* answered in the view: next once stored */
  guint                  advance_id;

  GCancellable          *past_cancellable;   /* reading a history entry's request */

  AdwToast              *draft_toast;        /* weak: drafts cannot be written */
  gint64                 draft_toast_shown_at;
  guint                  draft_toast_tick;   /* dismisses it once it has slid in */
  gboolean               draft_failure_told; /* until a draft is written again */

  TriageAttachmentPage  *attachment_page;    /* the preview shown, or NULL */
  GtkWidget             *preview_return;     /* weak: the keyboard's place before a preview */
  guint                  give_back_keyboard_id; /* a dialog over it closed */

  TriageConnectionState  connection;
  TriageConnectionProblem connection_problem;
  char                  *connection_message;
  char                  *connection_text;
  gint64                 retry_at;
  guint                  countdown_id;
  gint64                 server_wait;        /* monotonic end of the server's Retry-After; 0: none */
  GDateTime             *server_wait_at;     /* the same on the wall clock, or NULL */

  /* template */
  AdwToastOverlay       *toast_overlay;
  GtkStack              *preview_stack;
  AdwViewStack          *views;
  AdwViewStackPage      *inbox_page;
  AdwViewSwitcher       *inbox_switcher;
  AdwViewSwitcher       *inbox_switcher_narrow;
  AdwViewSwitcher       *history_switcher;
  AdwViewSwitcher       *history_switcher_narrow;
  GtkMenuButton         *inbox_menu_button;
  GtkMenuButton         *history_menu_button;
  AdwLeaflet            *leaflet;
  GtkWidget             *sidebar;
  GtkWidget             *content;
  AdwWindowTitle        *content_title;
  GtkRevealer           *connection_revealer;
  GtkWidget             *connection_bar;
  GtkLabel              *connection_label;
  GtkWidget             *retry_button;
  GtkWidget             *preferences_button;
  GtkStack              *inbox_stack;
  AdwStatusPage         *problem_page;
  GtkWidget             *problem_preferences_button;
  GtkWidget             *problem_retry_button;
  TriageInboxPane       *inbox_pane;
  GtkStack              *content_stack;
  AdwStatusPage         *placeholder_page;
  TriageRequestView     *decision_view;
  AdwLeaflet            *history_leaflet;
  GtkWidget             *history_list_page;
  GtkWidget             *history_detail_page;
  TriageHistoryView     *history_view;
  AdwWindowTitle        *history_detail_title;
  TriageRequestView     *past_view;
};

/* triage-window.c */
gboolean _triage_window_history_shown              (TriageWindow       *self);

/* triage-window-delivery.c */
void     _triage_window_update_view_state          (TriageWindow       *self);
void     _triage_window_on_current_changed         (TriageWindow       *self);

/* triage-window-actions.c */
void     _triage_window_install_actions            (GtkWidgetClass     *widget_class);

/* triage-window-history.c */
void     _triage_window_on_history_entry_activated (TriageWindow       *self,
                                                    TriageHistoryEntry *entry);

/* triage-window-preview.c */
gboolean _triage_window_preview_shown              (TriageWindow       *self);
void     _triage_window_close_preview              (TriageWindow       *self);
void     _triage_window_preview_text_action        (GtkWidget          *widget,
                                                    const char         *action_name,
                                                    GVariant           *parameter);

/* triage-window-status.c */
void     _triage_window_update_list_subtitle       (TriageWindow       *self);
AdwToast *_triage_window_show_toast                (TriageWindow       *self,
                                                    const char         *message,
                                                    guint               timeout);

/* triage-window-drafts.c */
void     _triage_window_on_draft_written           (TriageWindow       *self,
                                                    const GError       *error);
void     _triage_window_stop_draft_toast           (TriageWindow       *self);

/* triage-window-dialogs.c */
void     _triage_window_init_dialogs               (TriageWindow       *self);
void     _triage_window_dispose_dialogs            (TriageWindow       *self);

G_END_DECLS
