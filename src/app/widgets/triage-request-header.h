/* triage-request-header.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "atp.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_REQUEST_HEADER (triage_request_header_get_type ())

G_DECLARE_FINAL_TYPE (TriageRequestHeader, triage_request_header, TRIAGE, REQUEST_HEADER, GtkWidget)

GtkWidget *triage_request_header_new              (void);
void       triage_request_header_set_request      (TriageRequestHeader *self,
                                                   AtpNotification     *request);
void       triage_request_header_set_counting     (TriageRequestHeader *self,
                                                   gboolean             counting);
gboolean   triage_request_header_get_expired      (TriageRequestHeader *self);
const char *triage_request_header_get_countdown   (TriageRequestHeader *self);
gboolean   triage_request_header_take_focus      (TriageRequestHeader *self);

G_END_DECLS
