/* notifier-test.h — what the parts of test-notifier share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* test-notifier-servers.c: servers without body-markup or actions */
void notifier_test_add_servers (void);

G_END_DECLS
