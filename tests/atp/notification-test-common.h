/* notification-test-common.h — what the parts of test-notification share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "atp-test-common.h"

/* Each part of test-notification adds its tests; main() calls them in this
 * order, so the test paths and their order stay as they were in one file. */
void notification_test_add_rules      (void);
void notification_test_add_submission (void);
void notification_test_add_hostile    (void);
