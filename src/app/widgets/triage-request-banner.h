/* triage-request-banner.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "triage-request-view.h"

G_BEGIN_DECLS

/**
 * TriageBannerState:
 * @request: (nullable): the request shown
 * @status: its status as last known
 * @status_reason: (nullable): the reason the server gave for it
 * @status_when: (nullable): when the status changed
 * @status_detail: (nullable): more for the person; with a status that is not
 *   settled, why the request is no longer on the server (triage_request_banner_gone_detail())
 * @response: (nullable): the answer given elsewhere, once known
 * @delivery: where the answer given here stands
 * @delivery_message: (nullable): why the server refused it
 * @sent_answer: (nullable): the answer given here, in its protocol's words
 * @expired_locally: the deadline passed on this computer's clock
 * @answer_error: (nullable): why the answer given here did not leave
 * @delivery_wait: (nullable): while sending, the end of the server's wait
 *
 * What a request view's banner says, whatever the protocol.
 */
typedef struct
{
  AtpNotification     *request;
  AtpStatus            status;
  const char          *status_reason;
  GDateTime           *status_when;
  const char          *status_detail;
  AtpResponse         *response;
  TriageDeliveryState  delivery;
  const char          *delivery_message;
  const char          *sent_answer;
  gboolean             expired_locally;
  const char          *answer_error;
  GDateTime           *delivery_wait;
} TriageBannerState;

#define TRIAGE_TYPE_REQUEST_BANNER (triage_request_banner_get_type ())

G_DECLARE_FINAL_TYPE (TriageRequestBanner, triage_request_banner, TRIAGE, REQUEST_BANNER, AdwBin)

GtkWidget  *triage_request_banner_new         (void);
gboolean    triage_request_banner_update      (TriageRequestBanner     *self,
                                               const TriageBannerState *state);
gboolean    triage_request_banner_update_from (TriageRequestBanner      *self,
                                               AtpNotification          *request,
                                               const TriageRequestState *state,
                                               const char               *sent_answer,
                                               gboolean                  expired_locally);
const char *triage_request_banner_get_title   (TriageRequestBanner     *self);
const char *triage_request_banner_get_detail  (TriageRequestBanner     *self);
gboolean    triage_request_banner_get_shown   (TriageRequestBanner     *self);
gboolean    triage_request_banner_take_focus  (TriageRequestBanner     *self);
gboolean    triage_request_banner_focus_within (GtkWidget              *view);
void        triage_request_banner_keep_focus  (TriageRequestBanner     *self,
                                               GtkWidget               *view,
                                               gboolean                 focus_was_within);
const char *triage_request_banner_gone_detail (void);
const char *triage_request_banner_unreadable_detail (void);

G_END_DECLS
