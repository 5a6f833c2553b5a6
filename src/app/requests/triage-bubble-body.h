/* triage-bubble-body.h — what a bubble shows of a request's description
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "atp.h"

G_BEGIN_DECLS

/* What a bubble shows of a description, as a person sees it: this many
 * lines of about this many characters (a longer line wraps onto the next). */
#define TRIAGE_BUBBLE_BODY_LINES 5
#define TRIAGE_BUBBLE_LINE_CHARS 40
/* The most characters of a description a bubble shows: its lines' worth. */
#define TRIAGE_BUBBLE_MAX_BODY   (TRIAGE_BUBBLE_BODY_LINES * TRIAGE_BUBBLE_LINE_CHARS)

char *triage_bubble_body_dup (AtpNotification *request,
                              gboolean        *whole);

G_END_DECLS
