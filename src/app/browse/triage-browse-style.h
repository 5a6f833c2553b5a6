/* triage-browse-style.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void     triage_browse_style_init            (void);
void     triage_browse_prepare_drop_down     (GtkDropDown *dropdown);
GStrv    triage_browse_dup_drop_down_strings (GtkDropDown *dropdown);
gboolean triage_browse_select_drop_down_key  (GtkDropDown *dropdown,
                                              GPtrArray   *keys,
                                              const char  *key);
char    *triage_browse_dup_in_direction_of   (const char  *text,
                                              const char  *leading);
void     triage_browse_name_list_item        (GtkWidget   *row,
                                              const char  *label,
                                              const char  *description);
void     triage_browse_tab_past_list         (GtkWidget   *list);

G_END_DECLS
