/* triage-list-item-a11y.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void triage_list_item_a11y_read_as_list_item (GtkWidget *child);

G_END_DECLS
