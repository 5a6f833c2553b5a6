/* triage-aitp-view.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <libsoup/soup.h>

#include "triage-request-view.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_AITP_VIEW (triage_aitp_view_get_type ())

G_DECLARE_FINAL_TYPE (TriageAitpView, triage_aitp_view, TRIAGE, AITP_VIEW, AdwBin)

GtkWidget *triage_aitp_view_new                      (void);
gboolean   triage_aitp_view_get_read_only            (TriageAitpView *self);
guint      triage_aitp_view_get_confirm_grace_period (TriageAitpView *self);
void       triage_aitp_view_set_confirm_grace_period (TriageAitpView *self,
                                                      guint           msec);
void       triage_aitp_view_set_image_session        (TriageAitpView *self,
                                                      SoupSession    *session);

G_END_DECLS
