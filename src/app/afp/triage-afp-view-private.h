/* triage-afp-view-private.h — the review view's parts, shared by its files
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-afp-applied.h"
#include "triage-afp-artifact.h"
#include "triage-afp-view.h"
#include "triage-draft-keeper.h"
#include "triage-request-banner.h"
#include "triage-request-header.h"
#include "triage-store.h"

G_BEGIN_DECLS

/*
 * TriageAfpView spans two files:
 *
 *   triage-afp-view.c         the object, its state, its API (TriageRequestView),
 *                             Send and Decline
 *   triage-afp-view-drafts.c  what the editor holds for the draft that
 *                             TriageDraftKeeper keeps
 */

struct _TriageAfpView
{
  AdwBin               parent_instance;

  AtpNotification     *notification;
  AtpAfpReview        *review;

  TriageRequestState   state;
  gboolean             read_only;

  AdwMessageDialog    *decline_dialog;

  TriageDraftKeeper   *drafts;             /* per review: the feedback written, not sent */

  /* template */
  GtkStack            *stack;
  AdwStatusPage       *error_page;
  TriageRequestBanner *banner;
  GtkScrolledWindow   *scroller;
  TriageRequestHeader *header;
  TriageAfpArtifact   *artifact;
  TriageAfpApplied    *applied;
  TriageAfpEditor     *editor;
  GtkLabel            *problem_label;
  GtkWidget           *send_row;
  GtkButton           *send_button;
  GtkButton           *decline_button;
  GtkLabel            *id_label;
};

/* triage-afp-view.c */
void _triage_afp_view_update_state   (TriageAfpView *self);

/* triage-afp-view-drafts.c */
TriageDraftKeeper *_triage_afp_view_new_drafts (TriageAfpView *self);
TriageDraftKeeper *_triage_afp_view_get_drafts (TriageRequestView *view);

G_END_DECLS
