/* store-test-util.h — the app's store in a real SQLite file, for the views' draft tests
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-store.h"

G_BEGIN_DECLS

TriageStore *store_test_open       (const char   *path);
void         store_test_close      (TriageStore **store);
char        *store_test_dup_draft  (const char   *path,
                                    const char   *request_id);
gboolean     store_test_draft_is   (const char   *path,
                                    const char   *request_id,
                                    const char   *want);

G_END_DECLS
