/* desk-test-util.h — small helpers shared by the desk tests
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

void desk_test_remove_tree (const char *path);

G_END_DECLS
