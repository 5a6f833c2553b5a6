/* triage-request.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "atp.h"
#include "triage-protocol.h"

G_BEGIN_DECLS

/**
 * TriageAnswerState:
 * @TRIAGE_ANSWER_NONE: not answered here
 * @TRIAGE_ANSWER_QUEUED: answered here, stored, waiting for the server's confirmation
 * @TRIAGE_ANSWER_DELIVERED: answered here and confirmed by the server
 * @TRIAGE_ANSWER_FAILED: answered here, refused by the server for good
 *
 * Where this app's own answer to a request stands.
 */
typedef enum
{
  TRIAGE_ANSWER_NONE,
  TRIAGE_ANSWER_QUEUED,
  TRIAGE_ANSWER_DELIVERED,
  TRIAGE_ANSWER_FAILED,
} TriageAnswerState;

#define TRIAGE_TYPE_REQUEST (triage_request_get_type ())

G_DECLARE_FINAL_TYPE (TriageRequest, triage_request, TRIAGE, REQUEST, GObject)

TriageRequest     *triage_request_new               (AtpNotification   *notification);

AtpNotification   *triage_request_get_notification  (TriageRequest     *self);
void               triage_request_set_notification  (TriageRequest     *self,
                                                     AtpNotification   *notification);
const char        *triage_request_get_id            (TriageRequest     *self);
const char        *triage_request_get_title         (TriageRequest     *self);
const char        *triage_request_get_service_name  (TriageRequest     *self);
TriageProtocol    *triage_request_get_protocol      (TriageRequest     *self);
GDateTime         *triage_request_get_deadline      (TriageRequest     *self);
AtpStatus          triage_request_get_status        (TriageRequest     *self);
void               triage_request_set_status        (TriageRequest     *self,
                                                     AtpStatus          status);
void               triage_request_settle            (TriageRequest     *self,
                                                     AtpStatus          status,
                                                     const char        *reason,
                                                     GDateTime         *when);
void               triage_request_set_response      (TriageRequest     *self,
                                                     AtpResponse       *response);
AtpResponse       *triage_request_get_response      (TriageRequest     *self);
const char        *triage_request_get_status_reason (TriageRequest     *self);
GDateTime         *triage_request_get_status_time   (TriageRequest     *self);
TriageAnswerState  triage_request_get_answer_state  (TriageRequest     *self);
void               triage_request_set_answer_state  (TriageRequest     *self,
                                                     TriageAnswerState  state);
gboolean           triage_request_is_urgent         (TriageRequest     *self,
                                                     GDateTime         *now);
gint64             triage_request_get_urgent_at     (TriageRequest     *self);
char              *triage_request_dup_subtitle      (TriageRequest     *self);
char              *triage_request_dup_subtitle_waiting (TriageRequest     *self,
                                                        GDateTime         *server_wait);
char              *triage_format_deadline           (GDateTime         *deadline,
                                                     GDateTime         *now);
int                triage_request_compare           (TriageRequest     *a,
                                                     TriageRequest     *b);

G_END_DECLS
