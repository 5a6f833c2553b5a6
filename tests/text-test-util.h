/* text-test-util.h — checks of the text a view or a bubble shows, shared by their tests (no GTK)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

guint text_test_longest_unbroken_run (const char *text);

G_END_DECLS
