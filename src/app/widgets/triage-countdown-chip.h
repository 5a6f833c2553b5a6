/* triage-countdown-chip.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

GTimeSpan triage_countdown_chip_update (GtkWidget  *box,
                                        GtkLabel   *label,
                                        char      **spoken,
                                        GDateTime  *deadline);

G_END_DECLS
