/* triage-dnd.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "atp-notification.h"

G_BEGIN_DECLS

/* Under do-not-disturb, a request whose deadline is this close still gets a bubble. */
#define TRIAGE_DND_DEADLINE_WINDOW (5 * G_TIME_SPAN_MINUTE)

gboolean triage_should_show_bubble (AtpNotification *notification,
                                    gboolean         dnd,
                                    GDateTime       *now);

G_END_DECLS
