/* test-ask-keyring.c — triage-ask's service key from the keyring, and no libsecret where none is needed
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs under tests/app/with-private-keyring.sh: a session bus of its own with
 * an unlocked gnome-keyring. triage-ask does not link libsecret; it opens it
 * when it looks a remote server's key up in the keyring (src/service/
 * triage-service-key.c). These tests hold it to both halves of that.
 */

#include <libsecret/secret.h>

#include "ask-test-util.h"
#include "triage-ask.h"

static const SecretSchema key_schema = {
  TRIAGE_ASK_KEY_SCHEMA, SECRET_SCHEMA_DONT_MATCH_NAME,
  {
    { "server", SECRET_SCHEMA_ATTRIBUTE_STRING },
    { NULL, 0 },
  }
};

/* The environment triage-ask gets: this bus (ask_start_env would hide it), and
 * the dynamic loader telling which libraries it opens. */
static void
fill_env (const char **env,
          char       **bus)
{
  *bus = g_strconcat ("DBUS_SESSION_BUS_ADDRESS=", g_getenv ("DBUS_SESSION_BUS_ADDRESS"), NULL);
  env[0] = *bus;
  env[1] = "LD_DEBUG=files";
  env[2] = NULL;
}

static gboolean
loaded_libsecret (const Run *run)
{
  /* LD_DEBUG=files names each object as it is mapped: "file=libsecret-1.so.0 [0];  …" */
  return strstr (run->err, "file=libsecret-1.so") != NULL;
}

/* triage-ask asks for a request titled @title with the fixture's key left
 * out of its environment (no TRIAGE_API_KEY), once that key is in the
 * keyring: it reads the key there (through libsecret), and the request goes
 * through. */
static void
ask_keyed_by_keyring (Fixture    *fixture,
                      const char *title)
{
  const char * const args[] = { "--title", title, "--action", "ok", "--no-wait", NULL };
  const char *env[4];
  g_autofree char *bus = NULL;
  g_autoptr(Run) run = NULL;
  g_autoptr(JsonObject) output = NULL;
  g_autoptr(AtpNotification) request = NULL;

  g_clear_pointer (&fixture->service_key, g_free);
  fill_env (env, &bus);
  /* Under AddressSanitizer (build-asan): a secret read through libsecret
   * 0.20.5 leaves D-Bus message bodies of GDBus's worker thread unfreed at
   * exit — a program that only calls secret_password_lookup() shows the same —
   * so a run that reads the key is not checked for leaks; the others are. */
  env[2] = "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:symbolize=1:intercept_tls_get_addr=0";
  env[3] = NULL;
  run = ask_start_env (fixture, args, NULL, env);
  g_assert_cmpint (ask_finish (run), ==, 0);
  g_assert_true (loaded_libsecret (run));

  output = parse_output (run->out);
  request = person_wait_for (fixture, title);
  g_assert_cmpstr (json_object_get_string_member (output, "notification_id"), ==, request->id);
}

/* A remote server's key in the keyring, TRIAGE_API_KEY unset: the request goes through. */
static void
test_key_from_keyring (Fixture       *fixture,
                       gconstpointer  data)
{
  const char *url = triage_test_server_get_url (fixture->server);
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (g_getenv ("DBUS_SESSION_BUS_ADDRESS"));
  g_assert_true (secret_password_store_sync (&key_schema, SECRET_COLLECTION_DEFAULT,
                                             "Triage service key", fixture->service_key, NULL,
                                             &error, "server", url, NULL));
  g_assert_no_error (error);

  ask_keyed_by_keyring (fixture, "Keyed from the keyring");
}

/* The key stored the way README and the "no API key" message say, with
 * secret-tool (Debian's libsecret-tools, which build-aux/install-deps.sh
 * installs), is the key triage-ask finds. */
static void
test_key_from_secret_tool (Fixture       *fixture,
                           gconstpointer  data)
{
  const char *url = triage_test_server_get_url (fixture->server);
  g_autofree char *secret_tool = g_find_program_in_path ("secret-tool");
  g_autoptr(GSubprocess) store = NULL;
  g_autoptr(GError) error = NULL;

  if (secret_tool == NULL)
    g_error ("secret-tool is missing (libsecret-tools: build-aux/install-deps.sh installs it)");
  store = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE, &error,
                            secret_tool, "store", "--label=Triage key",
                            "xdg:schema", TRIAGE_ASK_KEY_SCHEMA, "server", url, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (store, fixture->service_key, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_subprocess_wait_check (store, NULL, &error);
  g_assert_no_error (error);

  ask_keyed_by_keyring (fixture, "Keyed by secret-tool");
}

/* A remote server with no key stored: the keyring is asked and says so. */
static void
test_key_missing (void)
{
  const char * const args[] = { "--server", "https://nokey.example.com", "--title", "T",
                                "--action", "ok", NULL };
  const char *env[3];
  g_autofree char *bus = NULL;
  g_autoptr(Run) run = NULL;

  fill_env (env, &bus);
  run = ask_start_env (NULL, args, NULL, env);
  g_assert_cmpint (ask_finish (run), ==, 2);
  g_assert_nonnull (strstr (run->err, "no API key for https://nokey.example.com: set "
                                      "TRIAGE_API_KEY, or store the key in the keyring"));
  g_assert_true (loaded_libsecret (run));
}

/* On the local socket no key is needed: libsecret is never loaded. */
static void
test_local_loads_no_libsecret (Fixture       *fixture,
                               gconstpointer  data)
{
  const char * const args[] = { "--title", "Local, no keyring", "--action", "ok", "--no-wait",
                                NULL };
  const char *env[3];
  g_autofree char *bus = NULL;
  g_autoptr(Run) run = NULL;

  fill_env (env, &bus);
  run = ask_start_env (fixture, args, NULL, env);
  g_assert_cmpint (ask_finish (run), ==, 0);
  /* The loader did report (else the check below would prove nothing). */
  g_assert_nonnull (strstr (run->err, "file=libsoup-3.0.so"));
  g_assert_false (loaded_libsecret (run));
}

/* A remote server with the key in TRIAGE_API_KEY: the keyring is not asked either. */
static void
test_env_key_loads_no_libsecret (Fixture       *fixture,
                                 gconstpointer  data)
{
  const char * const args[] = { "--title", "Keyed from the environment", "--action", "ok",
                                "--no-wait", NULL };
  const char *env[3];
  g_autofree char *bus = NULL;
  g_autoptr(Run) run = NULL;

  fill_env (env, &bus);
  run = ask_start_env (fixture, args, NULL, env);
  g_assert_cmpint (ask_finish (run), ==, 0);
  g_assert_false (loaded_libsecret (run));
}

/* A key with white space around it, as $(cat keyfile) or a secret stored from
 * `echo` has it: the key without it (keys hold none). Kept, it made libsoup
 * refuse the header with a critical and the server answer a bare 401. */
static void
test_key_trimmed (Fixture       *fixture,
                  gconstpointer  data)
{
  const char *url = triage_test_server_get_url (fixture->server);
  const char * const args[] = { "--title", "Keyed with a line break", "--action", "ok",
                                "--no-wait", NULL };
  g_autofree char *stored = g_strconcat (fixture->service_key, "\n", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(Run) run = NULL;
  char *key = g_strconcat ("  ", fixture->service_key, "\r\n", NULL);

  g_free (fixture->service_key);
  fixture->service_key = key;
  run = ask (fixture, args, NULL);
  g_assert_cmpint (run->status, ==, 0);

  g_assert_true (secret_password_store_sync (&key_schema, SECRET_COLLECTION_DEFAULT,
                                             "Triage service key", stored, NULL,
                                             &error, "server", url, NULL));
  g_assert_no_error (error);
  ask_keyed_by_keyring (fixture, "Keyed from the keyring with a line break");
}

/* A space or line break inside a key is no key: exit 2 naming where it came from,
 * never the key itself. */
static void
test_key_broken (Fixture       *fixture,
                 gconstpointer  data)
{
  const char *url = triage_test_server_get_url (fixture->server);
  const char * const args[] = { "--title", "Broken key", "--action", "ok", "--no-wait", NULL };
  const char *env[4];
  g_autofree char *bus = NULL;
  g_autofree char *keyring_says = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(Run) run = NULL;
  g_autoptr(Run) keyring_run = NULL;

  g_free (fixture->service_key);
  fixture->service_key = g_strdup ("sk_first\nsk_second");
  run = ask (fixture, args, NULL);
  g_assert_cmpint (run->status, ==, 2);
  g_assert_nonnull (strstr (run->err, "TRIAGE_API_KEY holds a line break after its 8 first "
                                      "characters: an API key is one word"));
  g_assert_null (strstr (run->err, "sk_"));

  g_assert_true (secret_password_store_sync (&key_schema, SECRET_COLLECTION_DEFAULT,
                                             "Triage service key", "sk_one sk_two", NULL,
                                             &error, "server", url, NULL));
  g_assert_no_error (error);
  g_clear_pointer (&fixture->service_key, g_free);
  fill_env (env, &bus);
  env[2] = "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:symbolize=1:intercept_tls_get_addr=0";
  env[3] = NULL;
  keyring_run = ask_start_env (fixture, args, NULL, env);
  g_assert_cmpint (ask_finish (keyring_run), ==, 2);
  keyring_says = g_strdup_printf ("the keyring's key for %s holds a space after its 6 first "
                                  "characters", url);
  g_assert_nonnull (strstr (keyring_run->err, keyring_says));
  g_assert_null (strstr (keyring_run->err, "sk_"));
}

/* The key stored but its keyring locked, and no unlock prompt possible (no
 * display): the message says the keyring is locked, not that no key is stored. */
static void
test_key_locked (void)
{
  const char *url = "https://locked.example.com";
  const char * const args[] = { "--server", url, "--title", "T", "--action", "ok", NULL };
  const char *env[7];
  g_autofree char *bus = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SecretService) service = NULL;
  g_autoptr(SecretCollection) collection = NULL;
  g_autoptr(Run) run = NULL;
  GList *objects;

  g_assert_true (secret_password_store_sync (&key_schema, SECRET_COLLECTION_DEFAULT,
                                             "Triage service key", "sk_locked", NULL,
                                             &error, "server", url, NULL));
  g_assert_no_error (error);
  service = secret_service_get_sync (SECRET_SERVICE_NONE, NULL, &error);
  g_assert_no_error (error);
  collection = secret_collection_for_alias_sync (service, SECRET_COLLECTION_DEFAULT,
                                                 SECRET_COLLECTION_NONE, NULL, &error);
  g_assert_no_error (error);
  objects = g_list_append (NULL, collection);
  g_assert_cmpint (secret_service_lock_sync (service, objects, NULL, NULL, &error), ==, 1);
  g_assert_no_error (error);
  g_list_free (objects);
  g_assert_true (secret_collection_get_locked (collection));

  fill_env (env, &bus);
  /* No display: gnome-keyring cannot show its unlock prompt. */
  env[2] = "DISPLAY=";
  env[3] = "WAYLAND_DISPLAY=";
  /* The unlock prompt's prompter dies for want of a display, and libsecret
   * 0.20.5 may then end the lookup with a GLib-GIO critical (a task returned
   * "with" a NULL error, as tests/app/test-credentials-locked.c meets too),
   * and reads a locked collection's items with D-Bus message bodies left at
   * exit: neither is ours, and the run is judged by what triage-ask says. */
  env[4] = "G_DEBUG=gc-friendly";
  env[5] = "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:symbolize=1:intercept_tls_get_addr=0";
  env[6] = NULL;
  run = ask_start_env (NULL, args, NULL, env);
  g_assert_cmpint (ask_finish (run), ==, 2);
  g_assert_null (strstr (run->err, "store the key"));
  /* Or, when libsecret's lookup never completes after the prompter died
   * (as the comment in tests/app/test-credentials-locked.c says it may),
   * the keyring's own deadline names the likely cause. */
  if (strstr (run->err, "did not answer within") == NULL)
    g_assert_nonnull (strstr (run->err, "no API key for https://locked.example.com: the keyring "
                                        "that holds it is locked"));
  else
    g_assert_nonnull (strstr (run->err, "(locked?)"));
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);

  g_test_add ("/ask/keyring/key-from-keyring", Fixture, NULL, fixture_setup,
              test_key_from_keyring, fixture_teardown);
  g_test_add ("/ask/keyring/key-from-secret-tool", Fixture, NULL, fixture_setup,
              test_key_from_secret_tool, fixture_teardown);
  g_test_add_func ("/ask/keyring/key-missing", test_key_missing);
  g_test_add ("/ask/keyring/local-loads-no-libsecret", Fixture, NULL, local_setup,
              test_local_loads_no_libsecret, fixture_teardown);
  g_test_add ("/ask/keyring/env-key-loads-no-libsecret", Fixture, NULL, fixture_setup,
              test_env_key_loads_no_libsecret, fixture_teardown);
  g_test_add ("/ask/keyring/key-trimmed", Fixture, NULL, fixture_setup, test_key_trimmed,
              fixture_teardown);
  g_test_add ("/ask/keyring/key-broken", Fixture, NULL, fixture_setup, test_key_broken,
              fixture_teardown);
  /* Last: it leaves the keyring locked. */
  g_test_add_func ("/ask/keyring/key-locked", test_key_locked);

  status = g_test_run ();
  /* The Secret Service proxy this process made is a singleton: let it go. */
  secret_service_disconnect ();
  return status;
}
