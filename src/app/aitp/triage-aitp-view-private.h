/* triage-aitp-view-private.h — the view's parts, shared by its files and the tests
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-aitp-images.h"
#include "triage-aitp-protocol.h"
#include "triage-aitp-view.h"
#include "triage-confirm-dialog.h"
#include "triage-draft-keeper.h"
#include "triage-request-banner.h"
#include "triage-request-header.h"

G_BEGIN_DECLS

/*
 * TriageAitpView spans three files:
 *
 *   triage-aitp-view.c          the object, its state, its API (TriageRequestView),
 *                               pictures and an answer on its way out
 *   triage-aitp-view-options.c  the options of each decision type: radio buttons (a
 *                               list past seven), check buttons, one button per
 *                               option of a confirmation, product cards
 *   triage-aitp-view-drafts.c   what the options hold and was not sent, as the
 *                               TriageDraftKeeper keeps it
 */

/* More options than this: a radio decision is a drop-down list. */
#define TRIAGE_AITP_VIEW_MAX_RADIO_BUTTONS 7

/* The option id an option's widget stands for (g_object_get_data ()). */
#define TRIAGE_AITP_VIEW_OPTION_ID_KEY "triage-aitp-option-id"

struct _TriageAitpView
{
  AdwBin               parent_instance;

  AtpNotification     *notification;
  AtpAitpRequest      *request;
  GDateTime           *built_at;           /* the time quotes are judged at */

  TriageRequestState   state;
  gboolean             read_only;

  guint                confirm_grace_period;
  GCancellable        *confirm_cancellable;
  TriageConfirmDialog *confirm_dialog;

  TriageAitpImages    *images;
  GSettings           *settings;           /* nullable: the hosts whose pictures are always shown */
  TriageDraftKeeper   *drafts;             /* per request: what is chosen, not sent */

  /* the options, built for the request's type */
  GPtrArray           *option_widgets;     /* check buttons, buttons or product cards */
  GPtrArray           *pictures;           /* TriageAitpPicture of list rows */
  AdwComboRow         *combo;              /* a radio decision past seven options */

  /* template */
  GtkStack            *stack;
  AdwStatusPage       *error_page;
  TriageRequestBanner *banner;
  GtkScrolledWindow   *scroller;
  TriageRequestHeader *header;
  GtkWidget           *whole_text_button;
  GtkBox              *images_box;
  GtkWidget           *answer_box;
  GtkLabel            *answer_heading;
  GtkBox              *options_box;
  GtkWidget           *send_row;
  GtkLabel            *summary_label;
  GtkButton           *send_button;
  GtkLabel            *id_label;
};

/* triage-aitp-view.c */
void       _triage_aitp_view_update_state   (TriageAitpView *self);
void       _triage_aitp_view_answer         (TriageAitpView *self,
                                             GArray         *choices,
                                             const char     *confirm_label);

/* triage-aitp-view-options.c */
void       _triage_aitp_view_build_options  (TriageAitpView *self);
void       _triage_aitp_view_clear_options  (TriageAitpView *self);
GArray    *_triage_aitp_view_dup_choices    (TriageAitpView *self);
gboolean   _triage_aitp_view_can_send       (TriageAitpView *self);
void       _triage_aitp_view_set_editable   (TriageAitpView *self,
                                             gboolean        editable);
void       _triage_aitp_view_show_answer    (TriageAitpView *self,
                                             JsonNode       *response_data);
void       _triage_aitp_view_take_picture   (TriageAitpView *self,
                                             const char     *url,
                                             GdkPaintable   *image,
                                             const char     *error_message);
gboolean   _triage_aitp_view_options_are_cut (TriageAitpView *self);
char      *_triage_aitp_view_dup_whole_text (TriageAitpView *self);

/* triage-aitp-view-drafts.c */
TriageDraftKeeper *_triage_aitp_view_new_drafts (TriageAitpView *self);
TriageDraftKeeper *_triage_aitp_view_get_drafts (TriageRequestView *view);

/* For the tests: the widget of an option (a check button, a button, a product card), by id. */
GtkWidget *triage_aitp_view_get_option_widget (TriageAitpView *self,
                                               const char     *option_id);
AdwComboRow         *triage_aitp_view_get_combo          (TriageAitpView *self);
TriageConfirmDialog *triage_aitp_view_get_confirm_dialog (TriageAitpView *self);
TriageAitpImages    *triage_aitp_view_get_images         (TriageAitpView *self);

G_END_DECLS
