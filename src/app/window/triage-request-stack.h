/* triage-request-stack.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "triage-request-view.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_REQUEST_STACK (triage_request_stack_get_type ())

G_DECLARE_FINAL_TYPE (TriageRequestStack, triage_request_stack, TRIAGE, REQUEST_STACK, AdwBin)

GtkWidget         *triage_request_stack_new            (void);
TriageRequestView *triage_request_stack_get_view       (TriageRequestStack *self);
GType              triage_request_stack_view_type      (AtpProtocol         protocol);
void               triage_request_stack_set_store      (TriageRequestStack *self,
                                                        gpointer            store);

G_END_DECLS
