/* store-test-common.h — the app store's calls, waited for, as the store tests make them
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Apart from app-test-common.h, which tests that do not link the store include too.
 */

#pragma once

#include "triage-outbox.h"
#include "triage-store.h"

/* The store at @path, opened (a failure fails the test). */
TriageStore *store_test_open         (const char      *path);
/* @notification saved. */
void         store_test_save         (TriageStore     *store,
                                      AtpNotification *notification);
/* (transfer full): the pending requests' records. */
GPtrArray   *store_test_load_pending (TriageStore     *store);
/* (transfer full): an outbox of @store, loaded. */
TriageOutbox *store_test_outbox      (TriageStore     *store);
/* (transfer full) (nullable): the stored draft of @notification_id. */
char        *store_test_load_draft   (TriageStore     *store,
                                      const char      *notification_id);
/* The answer "ok" (no data) to @notification_id, stored by @outbox. */
void         store_test_submit       (TriageOutbox    *outbox,
                                      const char      *notification_id);
