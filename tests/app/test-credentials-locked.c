/* test-credentials-locked.c — a locked keyring ends in a clear error, never a hang
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs under tests/app/with-private-keyring.sh: a keyring of its own, which
 * this test locks. Unlocking would need a password prompt that nobody can
 * answer here; the credentials must give up within their timeout with a
 * message that says what to do.
 */

#include <libsecret/secret.h>
#include <string.h>

#include "app-test-common.h"
#include "triage-credentials.h"

#define URL "https://locked.example.com"
#define TIMEOUT_MS 1500

static void
lock_default_collection (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SecretService) service = NULL;
  g_autoptr(SecretCollection) collection = NULL;
  g_autolist(GDBusProxy) objects = NULL;
  g_autolist(GDBusProxy) locked = NULL;

  /* Synchronous is fine in a test: this is the setup, not the code under test. */
  service = secret_service_get_sync (SECRET_SERVICE_LOAD_COLLECTIONS, NULL, &error);
  g_assert_no_error (error);
  collection = secret_collection_for_alias_sync (service, SECRET_COLLECTION_DEFAULT,
                                                 SECRET_COLLECTION_NONE, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (collection);

  objects = g_list_append (NULL, g_object_ref (collection));
  secret_service_lock_sync (service, objects, NULL, &locked, &error);
  g_assert_no_error (error);
  g_assert_true (secret_collection_get_locked (collection));
}

static void
test_locked (void)
{
  g_autoptr(TriageCredentials) credentials = triage_credentials_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;
  gint64 start;

  if (g_getenv ("DBUS_SESSION_BUS_ADDRESS") == NULL)
    {
      g_test_skip ("Runs under tests/app/with-private-keyring.sh");
      return;
    }

  /* Store something first, while the keyring is open, so a lookup has an item to unlock. */
  triage_credentials_store_token_async (credentials, URL, "secret-token", NULL,
                                        app_test_result_cb, &result);
  app_test_wait_result (result);
  g_assert_true (triage_credentials_store_token_finish (credentials, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);

  lock_default_collection ();
  triage_credentials_set_timeout (credentials, TIMEOUT_MS);

  start = g_get_monotonic_time ();
  triage_credentials_store_token_async (credentials, URL, "new-token", NULL,
                                        app_test_result_cb, &result);
  app_test_wait_result (result);
  g_assert_false (triage_credentials_store_token_finish (credentials, result, &error));
  g_assert_true (error->domain == TRIAGE_CREDENTIALS_ERROR);
  g_test_message ("store into a locked keyring: %s", error->message);
  g_assert_true (error->code == TRIAGE_CREDENTIALS_ERROR_TIMED_OUT ||
                 error->code == TRIAGE_CREDENTIALS_ERROR_LOCKED ||
                 error->code == TRIAGE_CREDENTIALS_ERROR_FAILED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, (TIMEOUT_MS + 3000) * 1000);
  g_clear_error (&error);
  g_clear_object (&result);

  start = g_get_monotonic_time ();
  triage_credentials_lookup_token_async (credentials, URL, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);
  token = triage_credentials_lookup_token_finish (credentials, result, &error);
  g_assert_null (token);
  g_assert_nonnull (error);
  g_assert_true (error->domain == TRIAGE_CREDENTIALS_ERROR);
  g_test_message ("lookup in a locked keyring: %s", error->message);
  g_assert_cmpint (g_get_monotonic_time () - start, <, (TIMEOUT_MS + 3000) * 1000);
}

/*
 * libsecret 0.20.5, when the unlock prompt cannot be shown, may finish its
 * task with g_task_return_error (task, NULL), or return it twice when the
 * prompter dies: a critical, and a call that may never complete. That is exactly the hang the credentials' timer exists
 * for, so that one critical is expected here. Criticals and warnings are not
 * fatal in this test (G_DEBUG=fatal-warnings would abort on it); every other
 * one still fails the test.
 */
static void
log_handler (const char     *log_domain,
             GLogLevelFlags  log_level,
             const char     *message,
             gpointer        user_data)
{
  if ((log_level & (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING)) != 0)
    {
      if (g_strcmp0 (log_domain, "GLib-GIO") == 0 &&
          (strstr (message, "g_task_return_error: assertion 'error != NULL' failed") != NULL ||
           strstr (message, "g_task_return_error: assertion '!task->ever_returned' failed") != NULL))
        {
          g_test_message ("libsecret finished a task without an error (expected here)");
          return;
        }
      g_printerr ("%s: %s\n", log_domain ? log_domain : "", message);
      g_test_fail ();
      return;
    }

  g_log_default_handler (log_domain, log_level, message, user_data);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_ERROR);
  g_log_set_default_handler (log_handler, NULL);

  g_test_add_func ("/credentials/keyring/locked", test_locked);

  return g_test_run ();
}
