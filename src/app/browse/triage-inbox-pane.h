/* triage-inbox-pane.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "triage-read-state.h"
#include "triage-request.h"

G_BEGIN_DECLS

/**
 * TriageInboxPaneState:
 * @TRIAGE_INBOX_PANE_EMPTY: no pending request at all (the first-run help)
 * @TRIAGE_INBOX_PANE_NO_RESULTS: requests exist, none matches the search and filters
 * @TRIAGE_INBOX_PANE_LIST: the list
 *
 * What the pane shows.
 */
typedef enum
{
  TRIAGE_INBOX_PANE_EMPTY,
  TRIAGE_INBOX_PANE_NO_RESULTS,
  TRIAGE_INBOX_PANE_LIST,
} TriageInboxPaneState;

/* Above this many requests, a search filters a slice at a time. */
#define TRIAGE_INBOX_PANE_INCREMENTAL_THRESHOLD 50000

/* The command the empty inbox suggests; not translated (it is typed as is). */
#define TRIAGE_INBOX_EXAMPLE_COMMAND "triage-ask --confirm \"Deploy 2.1 to production?\""

#define TRIAGE_TYPE_INBOX_PANE (triage_inbox_pane_get_type ())

G_DECLARE_FINAL_TYPE (TriageInboxPane, triage_inbox_pane, TRIAGE, INBOX_PANE, AdwBin)

char                 *triage_inbox_dup_example_command       (const char      *program);

GtkWidget            *triage_inbox_pane_new                  (void);
GListModel           *triage_inbox_pane_get_model            (TriageInboxPane *self);
void                  triage_inbox_pane_set_model            (TriageInboxPane *self,
                                                              GListModel      *model);
TriageReadState      *triage_inbox_pane_get_read_state       (TriageInboxPane *self);
void                  triage_inbox_pane_set_server_wait      (TriageInboxPane *self,
                                                              GDateTime       *until);
void                  triage_inbox_pane_set_read_state       (TriageInboxPane *self,
                                                              TriageReadState *read_state);
const char           *triage_inbox_pane_get_search_text      (TriageInboxPane *self);
void                  triage_inbox_pane_set_search_text      (TriageInboxPane *self,
                                                              const char      *text);
const char           *triage_inbox_pane_get_service_filter   (TriageInboxPane *self);
gboolean              triage_inbox_pane_set_service_filter   (TriageInboxPane *self,
                                                              const char      *service);
const char           *triage_inbox_pane_get_project_filter   (TriageInboxPane *self);
gboolean              triage_inbox_pane_set_project_filter   (TriageInboxPane *self,
                                                              const char      *project);
void                  triage_inbox_pane_clear_filters        (TriageInboxPane *self);
GStrv                 triage_inbox_pane_dup_service_choices  (TriageInboxPane *self);
GStrv                 triage_inbox_pane_dup_project_choices  (TriageInboxPane *self);
GListModel           *triage_inbox_pane_get_visible_model    (TriageInboxPane *self);
gboolean              triage_inbox_pane_get_filtering        (TriageInboxPane *self);
TriageInboxPaneState  triage_inbox_pane_get_state            (TriageInboxPane *self);
TriageRequest        *triage_inbox_pane_get_selected_request (TriageInboxPane *self);
TriageRequest        *triage_inbox_pane_get_current_request  (TriageInboxPane *self);
gboolean              triage_inbox_pane_show_request         (TriageInboxPane *self,
                                                              const char      *notification_id);
gboolean              triage_inbox_pane_select_next          (TriageInboxPane *self);
gboolean              triage_inbox_pane_select_previous      (TriageInboxPane *self);
gboolean              triage_inbox_pane_open_selected        (TriageInboxPane *self);
void                  triage_inbox_pane_set_incremental_threshold (TriageInboxPane *self,
                                                                   guint            n_requests);
void                  triage_inbox_pane_focus_search         (TriageInboxPane *self);
void                  triage_inbox_pane_focus_list           (TriageInboxPane *self);

G_END_DECLS
