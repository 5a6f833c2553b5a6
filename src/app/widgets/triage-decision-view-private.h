/* triage-decision-view-private.h — the view's parts, shared by its files and the tests
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-confirm-dialog.h"
#include "triage-decision-view.h"
#include "triage-draft-keeper.h"
#include "triage-request-banner.h"
#include "triage-store.h"

G_BEGIN_DECLS

/*
 * TriageDecisionView spans four files:
 *
 *   triage-decision-view.c          the object, its state and its API
 *   triage-decision-view-request.c  what the request says: header, description,
 *                                   metadata, attachments, the countdown
 *   triage-decision-view-actions.c  the action cards (one editor per action) and
 *                                   an answer on its way out (confirmation, ::submit)
 *   triage-decision-view-drafts.c   what the cards hold and was not sent, as the
 *                                   TriageDraftKeeper keeps it
 *
 * The banner is the TriageRequestBanner every request view has.
 */

struct _TriageDecisionView
{
  AdwBin               parent_instance;

  AtpNotification     *notification;
  GPtrArray           *editors;
  TriageDraftKeeper   *drafts;       /* per request: action id → what its editor holds */

  TriageRequestState   state;

  gboolean             expired_locally;
  gboolean             read_only;
  guint                countdown_id;
  char                *spoken_countdown;   /* the countdown's accessible name */

  guint                confirm_grace_period;
  GCancellable        *confirm_cancellable;
  TriageConfirmDialog *confirm_dialog;

  /* template */
  GtkStack            *stack;
  AdwStatusPage       *error_page;
  TriageRequestBanner *banner;
  GtkScrolledWindow   *scroller;
  AdwAvatar           *service_avatar;
  GtkLabel            *service_label;
  GtkLabel            *service_id_label;
  GtkWidget           *heading;
  GtkLabel            *title_label;
  GtkWidget           *project_chip;
  GtkLabel            *project_label;
  GtkWidget           *countdown_box;
  GtkLabel            *countdown_label;
  GtkWidget           *received_chip;
  GtkLabel            *received_label;
  GtkLabel            *description_label;
  GtkWidget           *whole_text_button;
  GtkWidget           *metadata_section;
  GtkListBox          *metadata_list;
  GtkLabel            *metadata_more;
  GtkWidget           *attachments_section;
  GtkListBox          *attachment_list;
  GtkBox              *editors_box;
  GtkLabel            *id_label;
};

/* triage-decision-view.c */
void     _triage_decision_view_update_state      (TriageDecisionView *self);

/* triage-decision-view-request.c */
void     _triage_decision_view_build_header      (TriageDecisionView *self);
void     _triage_decision_view_build_metadata    (TriageDecisionView *self);
void     _triage_decision_view_build_attachments (TriageDecisionView *self);
void     _triage_decision_view_clear_request     (TriageDecisionView *self);
void     _triage_decision_view_show_whole_text   (TriageDecisionView *self);
void     _triage_decision_view_update_countdown  (TriageDecisionView *self);

/* triage-decision-view-actions.c */
void     _triage_decision_view_build_editors     (TriageDecisionView *self);
void     _triage_decision_view_clear_editors     (TriageDecisionView *self);
void     _triage_decision_view_mark_chosen       (TriageDecisionView *self,
                                                  gboolean            read_only);
void     _triage_decision_view_cancel_confirmation (TriageDecisionView *self);

/* triage-decision-view-drafts.c */
TriageDraftKeeper *_triage_decision_view_new_drafts (TriageDecisionView *self);
TriageDraftKeeper *_triage_decision_view_get_drafts (TriageRequestView *view);

/* For the tests: the confirmation dialog on screen, if any. The template's
 * parts are found with gtk_widget_get_template_child (view,
 * TRIAGE_TYPE_DECISION_VIEW, "id"). */
TriageConfirmDialog *triage_decision_view_get_confirm_dialog (TriageDecisionView *self);

G_END_DECLS
