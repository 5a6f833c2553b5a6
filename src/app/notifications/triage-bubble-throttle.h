/* triage-bubble-throttle.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* At most this many bubbles in TRIAGE_BUBBLE_BURST_SECONDS; the requests
 * beyond are summed up in one. */
#define TRIAGE_BUBBLE_BURST_SIZE    5
#define TRIAGE_BUBBLE_BURST_SECONDS 10
/* The summary comes once the flood has stopped for this long. */
#define TRIAGE_BUBBLE_QUIET_SECONDS 1

#define TRIAGE_TYPE_BUBBLE_THROTTLE (triage_bubble_throttle_get_type ())

G_DECLARE_FINAL_TYPE (TriageBubbleThrottle, triage_bubble_throttle, TRIAGE, BUBBLE_THROTTLE, GObject)

TriageBubbleThrottle *triage_bubble_throttle_new            (void);
gboolean              triage_bubble_throttle_admit          (TriageBubbleThrottle *self);
guint                 triage_bubble_throttle_get_held_back  (TriageBubbleThrottle *self);
void                  triage_bubble_throttle_forget_held_back (TriageBubbleThrottle *self);

G_END_DECLS
