/* triage-scroll-chain.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void triage_scroll_chain_attach (GtkScrolledWindow *inner);

G_END_DECLS
