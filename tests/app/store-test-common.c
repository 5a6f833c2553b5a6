/* store-test-common.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "app-test-common.h"
#include "store-test-common.h"

TriageStore *
store_test_open (const char *path)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  TriageStore *store = triage_store_new (path);

  triage_store_open_async (store, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);
  g_assert_true (triage_store_open_finish (store, result, &error));
  g_assert_no_error (error);

  return store;
}

void
store_test_save (TriageStore     *store,
                 AtpNotification *notification)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  triage_store_save_notification_async (store, notification, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);
  g_assert_true (triage_store_save_notification_finish (store, result, &error));
  g_assert_no_error (error);
}

GPtrArray *
store_test_load_pending (TriageStore *store)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *records;

  triage_store_load_pending_async (store, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);
  records = triage_store_load_pending_finish (store, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (records);

  return records;
}

TriageOutbox *
store_test_outbox (TriageStore *store)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  TriageOutbox *outbox = triage_outbox_new (store);

  triage_outbox_load_async (outbox, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);
  g_assert_true (triage_outbox_load_finish (outbox, result, &error));
  g_assert_no_error (error);

  return outbox;
}

void
store_test_submit (TriageOutbox *outbox,
                   const char   *notification_id)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  triage_outbox_submit_async (outbox, notification_id, "ok", NULL, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);
  g_assert_true (triage_outbox_submit_finish (outbox, result, &error));
  g_assert_no_error (error);
}

char *
store_test_load_draft (TriageStore *store,
                       const char  *notification_id)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  char *json;

  triage_store_load_draft_async (store, notification_id, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);
  json = triage_store_load_draft_finish (store, result, &error);
  g_assert_no_error (error);
  return json;
}
