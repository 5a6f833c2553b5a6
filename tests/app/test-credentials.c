/* test-credentials.c — token storage: the in-memory fake, timeouts, and the real keyring
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The /credentials/keyring/ cases talk to a real gnome-keyring: they run
 * under build-aux/run-headless.sh (which unlocks one on a private bus) and
 * are skipped where no Secret Service is on the session bus.
 */

#include "app-test-common.h"
#include "triage-credentials.h"

#define URL "https://triage.example.com"

static gboolean
store_token (TriageCredentials  *credentials,
             const char         *url,
             const char         *token,
             GError            **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  triage_credentials_store_token_async (credentials, url, token, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);

  return triage_credentials_store_token_finish (credentials, result, error);
}

static char *
lookup_token (TriageCredentials  *credentials,
              const char         *url,
              GError            **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  triage_credentials_lookup_token_async (credentials, url, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);

  return triage_credentials_lookup_token_finish (credentials, result, error);
}

static gboolean
clear_token (TriageCredentials  *credentials,
             const char         *url,
             GError            **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  triage_credentials_clear_token_async (credentials, url, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);

  return triage_credentials_clear_token_finish (credentials, result, error);
}

static void
check_roundtrip (TriageCredentials *credentials,
                 const char        *url)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;
  g_autofree char *other = NULL;

  token = lookup_token (credentials, url, &error);
  g_assert_no_error (error);
  g_assert_null (token);

  g_assert_true (store_token (credentials, url, "tok-1", &error));
  g_assert_no_error (error);
  g_assert_true (store_token (credentials, url, "tok-2", &error));   /* replaces */
  g_assert_no_error (error);

  token = lookup_token (credentials, url, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (token, ==, "tok-2");

  /* Tokens are per server. */
  other = lookup_token (credentials, "https://other.example.com", &error);
  g_assert_no_error (error);
  g_assert_null (other);

  g_assert_true (clear_token (credentials, url, &error));
  g_assert_no_error (error);
  g_clear_pointer (&token, g_free);
  token = lookup_token (credentials, url, &error);
  g_assert_no_error (error);
  g_assert_null (token);

  /* Clearing what is not there is fine. */
  g_assert_true (clear_token (credentials, url, &error));
  g_assert_no_error (error);
}

static void
test_memory (void)
{
  g_autoptr(TriageCredentials) credentials = triage_credentials_new_in_memory ();

  g_assert_true (triage_credentials_is_in_memory (credentials));
  check_roundtrip (credentials, URL);
  g_assert_finalize_object (g_steal_pointer (&credentials));
}

/* Stores @typed, which goes in as @expected. */
static void
assert_stored_as (TriageCredentials *credentials,
                  const char        *typed,
                  const char        *expected)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;

  g_assert_true (store_token (credentials, URL, typed, &error));
  g_assert_no_error (error);
  token = lookup_token (credentials, URL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (token, ==, expected);
}

/* Stores @typed, which is refused saying @message. */
static void
assert_refused (TriageCredentials *credentials,
                const char        *typed,
                const char        *message)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (store_token (credentials, URL, typed, &error));
  g_assert_error (error, TRIAGE_CREDENTIALS_ERROR, TRIAGE_CREDENTIALS_ERROR_UNSENDABLE);
  g_assert_cmpstr (error->message, ==, message);
}

/* A token goes in without the white space around it, Unicode's too (a
 * no-break space copied from a web page, a zero-width space, a byte order
 * mark: they were sent, and got a bare 401); one that holds a space or a
 * control character inside (no request can carry it) is refused with what
 * is wrong, never the token, and the one stored is kept. */
static void
test_unsendable (void)
{
  g_autoptr(TriageCredentials) credentials = triage_credentials_new_in_memory ();
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;

  assert_stored_as (credentials, "  tok-1\r\n", "tok-1");
  /* U+FEFF U+00A0 before, U+200B U+3000 U+2029 U+2060 after. */
  assert_stored_as (credentials, "\xef\xbb\xbf\xc2\xa0tok-1\xe2\x80\x8b\xe3\x80\x80"
                    "\xe2\x80\xa9\xe2\x81\xa0", "tok-1");

  assert_refused (credentials, "ab9\tzq7", "The token holds a tab after its first 3 characters: "
                  "a token is one word. Was something else pasted with it?");
  /* U+00A0, U+200B and U+2028 inside, after "ab9" or "ä9ß" (characters, not bytes). */
  assert_refused (credentials, "ab9\xc2\xa0zq7", "The token holds a space after its first 3 "
                  "characters: a token is one word. Was something else pasted with it?");
  assert_refused (credentials, "\xc3\xa4" "9\xc3\x9f\xe2\x80\x8bzq7", "The token holds a space "
                  "after its first 3 characters: a token is one word. Was something else pasted "
                  "with it?");
  assert_refused (credentials, "ab9\xe2\x80\xa8zq7", "The token holds a line break after its "
                  "first 3 characters: a token is one word. Was something else pasted with it?");
  assert_refused (credentials, " \n", "The token is blank: enter your user token.");
  assert_refused (credentials, "\xc2\xa0\xe2\x80\x8b\xef\xbb\xbf",
                  "The token is blank: enter your user token.");
  token = lookup_token (credentials, URL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (token, ==, "tok-1");

  g_assert_finalize_object (g_steal_pointer (&credentials));
}

static void
test_timeout (void)
{
  g_autoptr(TriageCredentials) credentials = triage_credentials_new_in_memory ();
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;
  gint64 start;

  triage_credentials_set_unresponsive (credentials, TRUE);
  triage_credentials_set_timeout (credentials, 200);

  start = g_get_monotonic_time ();
  g_assert_false (store_token (credentials, URL, "tok", &error));
  g_assert_error (error, TRIAGE_CREDENTIALS_ERROR, TRIAGE_CREDENTIALS_ERROR_TIMED_OUT);
  g_assert_nonnull (strstr (error->message, "locked"));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
  g_clear_error (&error);

  token = lookup_token (credentials, URL, &error);
  g_assert_null (token);
  g_assert_error (error, TRIAGE_CREDENTIALS_ERROR, TRIAGE_CREDENTIALS_ERROR_TIMED_OUT);

  g_assert_finalize_object (g_steal_pointer (&credentials));
}

static void
test_caller_cancel (void)
{
  g_autoptr(TriageCredentials) credentials = triage_credentials_new_in_memory ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  triage_credentials_set_unresponsive (credentials, TRUE);
  triage_credentials_lookup_token_async (credentials, URL, cancellable, app_test_result_cb, &result);
  g_cancellable_cancel (cancellable);
  app_test_wait_result (result);
  g_assert_null (triage_credentials_lookup_token_finish (credentials, result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  g_clear_object (&result);
  g_assert_finalize_object (g_steal_pointer (&credentials));
}

static gboolean
have_secret_service (void)
{
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GVariant) reply = NULL;
  gboolean has_owner = FALSE;

  if (g_getenv ("DBUS_SESSION_BUS_ADDRESS") == NULL)
    return FALSE;

  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  if (bus == NULL)
    return FALSE;

  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "NameHasOwner",
                                       g_variant_new ("(s)", "org.freedesktop.secrets"),
                                       G_VARIANT_TYPE ("(b)"), G_DBUS_CALL_FLAGS_NONE,
                                       2000, NULL, NULL);
  if (reply != NULL)
    g_variant_get (reply, "(b)", &has_owner);

  return has_owner;
}

static void
test_keyring (void)
{
  g_autoptr(TriageCredentials) credentials = NULL;
  g_autofree char *url = NULL;

  if (!have_secret_service ())
    {
      g_test_skip ("No Secret Service on the session bus (run under build-aux/run-headless.sh)");
      return;
    }

  credentials = triage_credentials_new ();
  g_assert_false (triage_credentials_is_in_memory (credentials));
  /* A unique address, so a keyring shared with other runs is never confused. */
  url = g_strdup_printf ("https://test-%d-%u.example.com", getpid (), g_random_int ());
  check_roundtrip (credentials, url);
}

/* A token stored by another program (secret-tool from `echo`): read without
 * the white space around it; with a line break inside, refused saying so. */
static void
test_keyring_unsendable (void)
{
  g_autoptr(TriageCredentials) credentials = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  g_autofree char *token = NULL;

  if (!have_secret_service ())
    {
      g_test_skip ("No Secret Service on the session bus (run under build-aux/run-headless.sh)");
      return;
    }

  credentials = triage_credentials_new ();
  url = g_strdup_printf ("https://test-%d-%u.example.com", getpid (), g_random_int ());
  app_test_store_token_elsewhere (url, "tok-3\n");
  token = lookup_token (credentials, url, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (token, ==, "tok-3");

  app_test_store_token_elsewhere (url, "ab9\nzq7\n");
  g_clear_pointer (&token, g_free);
  token = lookup_token (credentials, url, &error);
  g_assert_null (token);
  g_assert_error (error, TRIAGE_CREDENTIALS_ERROR, TRIAGE_CREDENTIALS_ERROR_UNSENDABLE);
  g_assert_cmpstr (error->message, ==, "The token stored in the keyring for this server holds a "
                   "line break after its first 3 characters, so it cannot be sent: a token is one "
                   "word. Enter it again in Preferences.");
  g_clear_error (&error);
  g_assert_true (clear_token (credentials, url, &error));
  g_assert_no_error (error);
}

static void
test_no_keyring (void)
{
  g_autoptr(TriageCredentials) credentials = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;

  if (g_getenv ("DBUS_SESSION_BUS_ADDRESS") == NULL || have_secret_service ())
    {
      g_test_skip ("Needs a session bus without a Secret Service");
      return;
    }

  credentials = triage_credentials_new ();
  triage_credentials_set_timeout (credentials, 3000);
  token = lookup_token (credentials, URL, &error);
  g_assert_null (token);
  g_assert_nonnull (error);
  g_assert_true (error->domain == TRIAGE_CREDENTIALS_ERROR);
  g_test_message ("no keyring: %s", error->message);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/credentials/memory", test_memory);
  g_test_add_func ("/credentials/unsendable", test_unsendable);
  g_test_add_func ("/credentials/timeout", test_timeout);
  g_test_add_func ("/credentials/caller-cancel", test_caller_cancel);
  g_test_add_func ("/credentials/keyring/roundtrip", test_keyring);
  g_test_add_func ("/credentials/keyring/unsendable", test_keyring_unsendable);
  g_test_add_func ("/credentials/keyring/missing", test_no_keyring);

  return g_test_run ();
}
