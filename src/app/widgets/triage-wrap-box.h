/* triage-wrap-box.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TRIAGE_TYPE_WRAP_BOX (triage_wrap_box_get_type ())

G_DECLARE_FINAL_TYPE (TriageWrapBox, triage_wrap_box, TRIAGE, WRAP_BOX, GtkWidget)

GtkWidget *triage_wrap_box_new        (void);
void       triage_wrap_box_append     (TriageWrapBox *self,
                                       GtkWidget     *child);
void       triage_wrap_box_remove_all (TriageWrapBox *self);

G_END_DECLS
