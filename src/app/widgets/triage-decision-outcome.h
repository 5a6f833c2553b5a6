/* triage-decision-outcome.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "atp.h"

G_BEGIN_DECLS

/*
 * What became of a request, in one sentence: the settled view's banner, what
 * a screen reader reads for it, and what a bubble still on screen says once
 * the request is settled (the application words it for the notifier). No
 * GTK here, so the sentences are tested without a display.
 */

char *triage_format_settled   (AtpStatus        status,
                               const char      *service_name,
                               const char      *answer,
                               const char      *responder,
                               GDateTime       *when);
char *triage_describe_settled (AtpNotification *notification,
                               AtpStatus        status,
                               GDateTime       *when,
                               AtpResponse     *response);

G_END_DECLS
