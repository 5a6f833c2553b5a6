/* window-test-common.h — what the parts of test-window share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The main window in-process, on an inbox model the test fills.
 */

#pragma once

#include <adwaita.h>

#include "app-test-common.h"
#include "triage-window.h"

G_BEGIN_DECLS

#define WINDOW_TEST_ID_A "0a6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"
#define WINDOW_TEST_ID_B "1b6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"
#define WINDOW_TEST_ID_C "2c6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"

/* The window's template child @name. */
gpointer      window_test_child          (TriageWindow *window,
                                          const char   *name);
/* A window on @model, shown; the caller owns it. */
TriageWindow *window_test_new_window     (TriageInboxModel *model);
void          window_test_destroy_window (TriageWindow *window);
/* The id of the request the window shows, or NULL. */
const char   *window_test_current_id     (TriageWindow *window);
/* Whether the keyboard is on @ancestor or inside it. */
gboolean      window_test_focus_inside   (TriageWindow *window,
                                          GtkWidget    *ancestor);

/* The parts add their tests; main() calls them after its own, so the test
 * paths and their order stay as they were in one file. */
void window_test_add_narrow  (void);   /* test-window-narrow.c */
void window_test_add_history (void);   /* test-window-history.c */
void window_test_add_preview (void);   /* test-window-preview.c */
void window_test_add_drafts  (void);   /* test-window-drafts.c */

G_END_DECLS
