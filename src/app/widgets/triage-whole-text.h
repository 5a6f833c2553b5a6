/* triage-whole-text.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "atp-notification.h"

G_BEGIN_DECLS

gboolean  triage_whole_text_is_cut    (AtpNotification *notification);
char     *triage_whole_text_dup       (AtpNotification *notification);
gboolean  triage_whole_text_show      (GtkWidget       *from,
                                       AtpNotification *notification);
gboolean  triage_whole_text_show_text (GtkWidget       *from,
                                       const char      *text,
                                       const char      *service_name);

G_END_DECLS
