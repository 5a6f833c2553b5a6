/* test-remote.c — the application in remote mode: Preferences, the keyring, a token
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The whole app in-process against a real triage-server on 127.0.0.1 (a
 * loopback address, so plain http is allowed) with users and tokens, and the
 * real gnome-keyring of build-aux/run-headless.sh. A person opens
 * Preferences, is refused a plain-http address elsewhere, enters the server
 * and a token: the token lands in the keyring (not in GSettings), the app
 * connects with it and answers go through. A server that refuses the token,
 * or a service key given as the token, shows as "sign-in failed" with what
 * to do; no token stored at all, as the step still to take. A token with a
 * space or control character inside, or a blank one, is refused, typed or
 * stored.
 */

#include "remote-test-common.h"

static const char *
status_text (TriagePreferencesWindow *preferences)
{
  return adw_action_row_get_subtitle (remote_test_child (preferences, "status_row"));
}

/* The text of the field @row_name (the address's or the token's), where
 * the keyboard types. */
static GtkAccessible *
field_text (TriagePreferencesWindow *preferences,
            const char              *row_name)
{
  GtkEditable *row = remote_test_child (preferences, row_name);

  return GTK_ACCESSIBLE (gtk_editable_get_delegate (row));
}

/* The field @row_name shows @problem: red, and to a screen reader invalid
 * and described by it, as the status row says it: the row, which AT-SPI
 * shows as the field, and its text, which has the keyboard. */
static void
assert_field_problem (TriagePreferencesWindow *preferences,
                      const char              *row_name,
                      const char              *problem)
{
  GtkAccessible *field[] = { remote_test_child (preferences, row_name),
                             field_text (preferences, row_name) };

  g_assert_cmpstr (status_text (preferences), ==, problem);
  g_assert_true (gtk_widget_has_css_class (remote_test_child (preferences, "status_row"), "error"));
  g_assert_true (gtk_widget_has_css_class (remote_test_child (preferences, row_name), "error"));
  for (guint i = 0; i < G_N_ELEMENTS (field); i++)
    {
      gtk_test_accessible_assert_state (field[i], GTK_ACCESSIBLE_STATE_INVALID,
                                        GTK_ACCESSIBLE_INVALID_TRUE);
      gtk_test_accessible_assert_property (field[i], GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, problem);
    }
}

/* The field @row_name shows no problem, to the eye or to a screen reader. */
static void
assert_no_field_problem (TriagePreferencesWindow *preferences,
                         const char              *row_name)
{
  GtkAccessible *field[] = { remote_test_child (preferences, row_name),
                             field_text (preferences, row_name) };

  g_assert_false (gtk_widget_has_css_class (remote_test_child (preferences, row_name), "error"));
  for (guint i = 0; i < G_N_ELEMENTS (field); i++)
    {
      g_assert_false (gtk_test_accessible_has_state (field[i], GTK_ACCESSIBLE_STATE_INVALID));
      g_assert_false (gtk_test_accessible_has_property (field[i],
                                                        GTK_ACCESSIBLE_PROPERTY_DESCRIPTION));
    }
}

static gboolean
has_keyboard (TriagePreferencesWindow *preferences,
              const char              *row_name)
{
  return gtk_root_get_focus (GTK_ROOT (preferences)) ==
         GTK_WIDGET (field_text (preferences, row_name));
}

static char *
keyring_token (const char *url)
{
  g_autoptr(TriageCredentials) credentials = triage_credentials_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  char *token;

  triage_credentials_lookup_token_async (credentials, url, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);
  token = triage_credentials_lookup_token_finish (credentials, result, &error);
  g_assert_no_error (error);

  return token;
}

/* Whether any key of the app's settings holds @text. */
static gboolean
settings_mention (const char *text)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;

  g_object_get (remote_test_settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autoptr(GVariant) value = g_settings_get_value (remote_test_settings, keys[i]);
      g_autofree char *printed = g_variant_print (value, FALSE);

      if (strstr (printed, text) != NULL)
        return TRUE;
    }

  return FALSE;
}

/* Preferences asked for with no window shown (the tray's menu, the app's
 * action over D-Bus): a window of its own, not a modal dialog of a main
 * window never shown (which, made on the way, then counted as one showing
 * the app's problems); asked for again, the same one comes forward. */
static void
test_preferences_without_window (void)
{
  TriagePreferencesWindow *preferences;
  guint n = 0;

  app_test_wait_for (remote_test_connection () == TRIAGE_CONNECTION_AUTH_FAILED, APP_TEST_WAIT_MS);
  g_assert_null (triage_application_get_window (remote_test_app));

  preferences = remote_test_open_preferences ();
  g_assert_null (gtk_window_get_transient_for (GTK_WINDOW (preferences)));
  g_assert_false (gtk_window_get_modal (GTK_WINDOW (preferences)));
  g_assert_true (gtk_window_get_application (GTK_WINDOW (preferences)) ==
                 GTK_APPLICATION (remote_test_app));
  g_assert_null (triage_application_get_window (remote_test_app));
  /* Opened to fix "User Token Needed": not "Leave the token empty to keep
   * the one stored", when none is. */
  g_assert_cmpstr (status_text (preferences), ==,
                   "No token is stored for this server yet: enter your user token, then Connect");

  g_assert_true (remote_test_open_preferences () == preferences);
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (remote_test_app)); l != NULL;
       l = l->next)
    n += TRIAGE_IS_PREFERENCES_WINDOW (l->data);
  g_assert_cmpuint (n, ==, 1);

  gtk_window_destroy (GTK_WINDOW (preferences));
}

/* About, asked for twice (the tray's menu, then the window's): one. */
static void
test_about_once (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();   /* transfer none */
  GtkWindow *about = NULL;
  guint n = 0;

  g_action_group_activate_action (G_ACTION_GROUP (remote_test_app), "about", NULL);
  g_action_group_activate_action (G_ACTION_GROUP (remote_test_app), "about", NULL);
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (toplevels, i);

      if (ADW_IS_ABOUT_WINDOW (item))
        {
          about = GTK_WINDOW (item);
          n++;
        }
    }
  g_assert_cmpuint (n, ==, 1);
  gtk_window_destroy (about);
}

/* With the window shown, Preferences is its dialog. This Computer and A
 * Remote Server are one choice: radio buttons to a screen reader too. */
static void
test_preferences_of_window (void)
{
  TriagePreferencesWindow *preferences;

  g_action_group_activate_action (G_ACTION_GROUP (remote_test_app), "show", NULL);
  preferences = remote_test_open_preferences ();
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (preferences)) ==
                 GTK_WINDOW (triage_application_get_window (remote_test_app)));
  g_assert_true (gtk_window_get_modal (GTK_WINDOW (preferences)));
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (remote_test_child (preferences, "local_check")),
                                   GTK_ACCESSIBLE_ROLE_RADIO);
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (remote_test_child (preferences, "remote_check")),
                                   GTK_ACCESSIBLE_ROLE_RADIO);
  gtk_window_destroy (GTK_WINDOW (preferences));
}

static void
test_no_token (void)
{
  TriageWindow *window;

  /* Set up for a remote server before the app started, with no token stored. */
  app_test_wait_for (remote_test_connection () == TRIAGE_CONNECTION_AUTH_FAILED, APP_TEST_WAIT_MS);
  g_action_group_activate_action (G_ACTION_GROUP (remote_test_app), "show", NULL);
  window = triage_application_get_window (remote_test_app);
  g_assert_nonnull (window);
  /* A step not taken yet, not a failure: what is missing, for which server. */
  g_assert_null (strstr (triage_window_get_connection_text (window), "failed"));
  g_assert_nonnull (strstr (triage_window_get_connection_text (window), "A user token is needed"));
  g_assert_nonnull (strstr (triage_window_get_connection_text (window), "No user token is stored for"));
  g_assert_nonnull (strstr (triage_window_get_connection_text (window),
                            triage_test_server_get_url (remote_test_server)));
}

/* Connect with the token's field empty and no token stored for the server:
 * the keyboard goes to the token's field, which says what is missing. */
static void
test_token_missing (void)
{
  TriagePreferencesWindow *preferences = remote_test_open_preferences ();

  remote_test_enter_server (preferences, triage_test_server_get_url (remote_test_server), "");
  app_test_wait_for (g_strcmp0 (status_text (preferences), "Enter your user token for this server") == 0,
                     APP_TEST_WAIT_MS);
  assert_field_problem (preferences, "token_row", "Enter your user token for this server");
  g_assert_true (has_keyboard (preferences, "token_row"));
  assert_no_field_problem (preferences, "url_row");
  /* The address's field is not the token's: typing there leaves it. */
  gtk_editable_set_text (GTK_EDITABLE (remote_test_child (preferences, "url_row")),
                         "https://triage.example.com");
  g_assert_true (gtk_test_accessible_has_state (field_text (preferences, "token_row"),
                                                GTK_ACCESSIBLE_STATE_INVALID));
  gtk_editable_set_text (GTK_EDITABLE (remote_test_child (preferences, "token_row")), "a");
  assert_no_field_problem (preferences, "token_row");

  gtk_window_destroy (GTK_WINDOW (preferences));
}

static void
test_plain_http_refused (void)
{
  TriagePreferencesWindow *preferences = remote_test_open_preferences ();
  g_autofree char *kept_url = NULL;

  remote_test_enter_server (preferences, "http://triage.example.com", "some-token");
  /* The problem named, in the app's sentence (as the window says it). Not
   * only red: the address's text, where the keyboard went back, is invalid
   * to a screen reader and described by the problem; typing clears it. */
  assert_field_problem (preferences, "url_row",
                        "“http://triage.example.com” is not encrypted: it must begin with https:// "
                        "(plain http:// reaches only a server on this computer).");
  g_assert_true (has_keyboard (preferences, "url_row"));
  assert_no_field_problem (preferences, "token_row");
  /* The row says what connecting found, the address's fault here: not "Token". */
  g_assert_cmpstr (adw_preferences_row_get_title (remote_test_child (preferences, "status_row")),
                   ==, "Connection");
  /* The token's field is not the address's: typing there leaves the address's problem. */
  gtk_editable_set_text (GTK_EDITABLE (remote_test_child (preferences, "token_row")),
                         "other-token");
  g_assert_true (gtk_test_accessible_has_state (field_text (preferences, "url_row"),
                                                GTK_ACCESSIBLE_STATE_INVALID));
  gtk_editable_set_text (GTK_EDITABLE (remote_test_child (preferences, "url_row")),
                         "https://triage.example.com");
  assert_no_field_problem (preferences, "url_row");

  /* No address at all: said on its field too. */
  remote_test_enter_server (preferences, "", "some-token");
  assert_field_problem (preferences, "url_row", "Enter the address of the server");
  g_assert_true (has_keyboard (preferences, "url_row"));
  /* Nothing saved: neither the address nor the token. */
  kept_url = g_settings_get_string (remote_test_settings, "server-url");
  g_assert_cmpstr (kept_url, ==, triage_test_server_get_url (remote_test_server));
  app_test_spin (200);
  g_assert_null (keyring_token ("http://triage.example.com"));

  gtk_window_destroy (GTK_WINDOW (preferences));
}

static void
test_token_refused (void)
{
  TriagePreferencesWindow *preferences = remote_test_open_preferences ();
  const char *url = triage_test_server_get_url (remote_test_server);

  remote_test_enter_server (preferences, url, "not-a-token-the-server-knows");
  /* Saved, and what became of it once known: not "saved" alone, as if all were well. */
  app_test_wait_for (g_str_has_prefix (status_text (preferences),
                                       "Token saved in the keyring, but not connected: ") &&
                     strstr (status_text (preferences), "refused the token") != NULL,
                     APP_TEST_WAIT_MS);
  /* Said on the token's field too, where a new one goes, for a screen reader
   * as much as to the eye; a new one typed clears it. */
  assert_field_problem (preferences, "token_row", status_text (preferences));
  assert_no_field_problem (preferences, "url_row");
  gtk_editable_set_text (GTK_EDITABLE (remote_test_child (preferences, "token_row")), "another");
  assert_no_field_problem (preferences, "token_row");
  app_test_wait_for (remote_test_connection () == TRIAGE_CONNECTION_AUTH_FAILED &&
                     strstr (triage_window_get_connection_text (
                               triage_application_get_window (remote_test_app)),
                             "refused the token") != NULL,
                     APP_TEST_WAIT_MS);
  gtk_window_destroy (GTK_WINDOW (preferences));

  /* Opened again to fix it: the token stored is the refused one, not one to keep. */
  preferences = remote_test_open_preferences ();
  assert_field_problem (preferences, "token_row",
                        "The server refused the token stored: enter a new one, then Connect");
  gtk_window_destroy (GTK_WINDOW (preferences));
}

/* A service key pasted where the user token goes: the server knows it, and
 * says (403) it is not a user token; the app says so, and does not retry. */
static void
test_service_key_refused (void)
{
  TriagePreferencesWindow *preferences = remote_test_open_preferences ();
  const char *url = triage_test_server_get_url (remote_test_server);

  remote_test_enter_server (preferences, url, remote_test_api_key);
  app_test_wait_for (remote_test_connection () == TRIAGE_CONNECTION_AUTH_FAILED &&
                     strstr (triage_window_get_connection_text (
                               triage_application_get_window (remote_test_app)),
                             "not a user token") != NULL,
                     APP_TEST_WAIT_MS);

  gtk_window_destroy (GTK_WINDOW (preferences));
}

/* What Preferences says of a token stored that cannot be sent, whatever
 * atp_token_check () finds wrong with it. */
#define UNSENDABLE_STATUS \
  "The token stored cannot be sent (it is empty or holds a space, tab, line break or other " \
  "control character): enter it again, then Connect"

/* A token with white space around it (the line break of a copy from a
 * terminal) is taken without it; one with a space or control character
 * inside, or a blank one, is no token a request can carry: typed, it is
 * refused with what is wrong (never stored, never said back); stored so by
 * another program, the app says so and what to do, as triage-ask does
 * (before, it went to libsoup, which refused the header with a critical). */
static void
test_token_unsendable (void)
{
  struct { const char *token; const char *fault; } stored_cases[] = {
    { "ab9\nzq7", "holds a line break after its first 3 characters" },
    { "  \t\n", "is blank" },
    { "ab9\001zq7", "holds a control character after its first 3 characters" },
    { "ab9zq\177", "holds a control character after its first 5 characters" },
  };
  TriagePreferencesWindow *preferences = remote_test_open_preferences ();
  const char *url = triage_test_server_get_url (remote_test_server);
  g_autofree char *kept = keyring_token (url);
  g_autofree char *still = NULL;
  g_autofree char *stored = NULL;
  g_autofree char *padded = g_strconcat ("  ", remote_test_user_token, "\n", NULL);
  TriageWindow *window;

  remote_test_enter_server (preferences, url, "ab9 zq7");
  app_test_wait_for (strstr (status_text (preferences), "holds a space") != NULL,
                     APP_TEST_WAIT_MS);
  /* Said on the token's field, where the keyboard goes back to paste it again. */
  assert_field_problem (preferences, "token_row",
                        "The token holds a space after its first 3 characters: a token is one "
                        "word. Was something else pasted with it?");
  g_assert_true (has_keyboard (preferences, "token_row"));
  still = keyring_token (url);
  g_assert_cmpstr (still, ==, kept);
  gtk_window_destroy (GTK_WINDOW (preferences));

  /* Stored so: with a line break, blank, or with another control character
   * (\x01, DEL) inside; the window says which, Preferences what to do. */
  g_action_group_activate_action (G_ACTION_GROUP (remote_test_app), "show", NULL);
  window = triage_application_get_window (remote_test_app);
  for (guint i = 0; i < G_N_ELEMENTS (stored_cases); i++)
    {
      g_test_message ("stored: %s", stored_cases[i].fault);
      app_test_store_token_elsewhere (url, stored_cases[i].token);
      g_action_group_activate_action (G_ACTION_GROUP (remote_test_app), "reconnect", NULL);
      app_test_wait_for (remote_test_connection () == TRIAGE_CONNECTION_AUTH_FAILED &&
                         strstr (triage_window_get_connection_text (window),
                                 stored_cases[i].fault) != NULL,
                         APP_TEST_WAIT_MS);
      g_assert_nonnull (strstr (triage_window_get_connection_text (window),
                                "The token stored cannot be sent"));
      g_assert_null (strstr (triage_window_get_connection_text (window), "zq"));
      preferences = remote_test_open_preferences ();
      assert_field_problem (preferences, "token_row", UNSENDABLE_STATUS);
      gtk_window_destroy (GTK_WINDOW (preferences));
    }

  preferences = remote_test_open_preferences ();
  remote_test_enter_server (preferences, url, padded);
  app_test_wait_for (remote_test_connection () == TRIAGE_CONNECTION_CONNECTED, APP_TEST_WAIT_MS);
  assert_no_field_problem (preferences, "token_row");
  stored = keyring_token (url);
  g_assert_cmpstr (stored, ==, remote_test_user_token);
  gtk_window_destroy (GTK_WINDOW (preferences));
}

static void
test_connect_and_answer (void)
{
  TriagePreferencesWindow *preferences = remote_test_open_preferences ();
  const char *url = triage_test_server_get_url (remote_test_server);
  TriageInboxModel *inbox = triage_application_get_inbox (remote_test_app);
  g_autofree char *stored = NULL;
  g_autofree char *id = g_uuid_string_random ();
  g_autofree char *body = NULL;
  g_autofree char *path = NULL;
  g_autofree char *reply = NULL;
  g_autoptr(JsonNode) null = json_node_new (JSON_NODE_NULL);
  g_autoptr(GError) error = NULL;
  guint status = 0;

  remote_test_enter_server (preferences, url, remote_test_user_token);
  app_test_wait_for (remote_test_connection () == TRIAGE_CONNECTION_CONNECTED, APP_TEST_WAIT_MS);

  /* The token is in the keyring, and nowhere in the settings. */
  stored = keyring_token (url);
  g_assert_cmpstr (stored, ==, remote_test_user_token);
  g_assert_cmpint (g_settings_get_enum (remote_test_settings, "server-mode"), ==, 1);
  g_assert_false (settings_mention (remote_test_user_token));
  /* The field does not keep it either. */
  g_assert_cmpstr (gtk_editable_get_text (remote_test_child (preferences, "token_row")), ==, "");
  /* Later changes are written at once (the server change did not leave the
   * app's settings holding back writes). */
  gtk_switch_set_active (GTK_SWITCH (remote_test_child (preferences, "dnd_switch")), TRUE);
  g_assert_true (g_settings_get_boolean (remote_test_settings, "do-not-disturb"));
  gtk_switch_set_active (GTK_SWITCH (remote_test_child (preferences, "dnd_switch")), FALSE);
  g_assert_false (g_settings_get_boolean (remote_test_settings, "do-not-disturb"));
  gtk_window_destroy (GTK_WINDOW (preferences));

  /* A service sends; the app shows it; the answer reaches the server. */
  body = g_strdup_printf ("{\"id\": \"%s\", \"context\": {\"title\": \"Remote?\", \"description\": \"Over TCP.\"},"
                          " \"actions\": [{\"id\": \"yes\", \"label\": \"Yes\", \"response_type\": \"simple\"}]}", id);
  g_assert_true (triage_test_http (remote_test_server, "POST", "/api/v1/notifications",
                                   remote_test_api_key, body, &status, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (status, ==, 201);
  app_test_wait_for (triage_inbox_model_lookup (inbox, id) != NULL, APP_TEST_WAIT_MS);

  /* Answered as the decision view answers. */
  g_action_group_activate_action (G_ACTION_GROUP (remote_test_app), "show", NULL);
  g_signal_emit_by_name (triage_application_get_window (remote_test_app), "submit", id, "yes",
                         null);
  app_test_wait_for (triage_inbox_model_lookup (inbox, id) == NULL &&
                     triage_outbox_get_n_pending (triage_application_get_outbox (remote_test_app)) == 0,
                     APP_TEST_WAIT_MS);
  path = g_strconcat ("/api/v1/notifications/", id, NULL);
  g_assert_true (triage_test_http (remote_test_server, "GET", path, remote_test_api_key, NULL,
                                   &status, &reply, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (reply, "\"status\":\"responded\""));
  g_assert_nonnull (strstr (reply, "\"action_id\":\"yes\""));
}

static void
count_connecting (TriageApplication *application,
                  GParamSpec        *pspec,
                  guint             *count)
{
  if (triage_application_get_connection (application) == TRIAGE_CONNECTION_CONNECTING)
    (*count)++;
}

/* A keyring that does not answer (locked, still starting) is not a refused
 * token: the app stays, says why, and connects once the keyring answers. */
static void
test_keyring_unresponsive (void)
{
  TriageCredentials *credentials = triage_application_get_credentials (remote_test_app);
  TriageWindow *window;
  guint retries = 0;
  gulong handler;

  triage_credentials_set_timeout (credentials, 200);
  triage_credentials_set_unresponsive (credentials, TRUE);
  g_action_group_activate_action (G_ACTION_GROUP (remote_test_app), "reconnect", NULL);
  app_test_wait_for (remote_test_connection () == TRIAGE_CONNECTION_OFFLINE, APP_TEST_WAIT_MS);
  g_action_group_activate_action (G_ACTION_GROUP (remote_test_app), "show", NULL);
  window = triage_application_get_window (remote_test_app);
  g_assert_nonnull (strstr (triage_window_get_connection_text (window), "locked"));

  /* Tried again by itself (through "connecting"), and offline again after,
   * never taken for a refused token. */
  handler = g_signal_connect (remote_test_app, "notify::connection",
                              G_CALLBACK (count_connecting), &retries);
  app_test_wait_for (retries > 0 && remote_test_connection () == TRIAGE_CONNECTION_OFFLINE,
                     APP_TEST_WAIT_MS);
  g_signal_handler_disconnect (remote_test_app, handler);
  triage_credentials_set_unresponsive (credentials, FALSE);
  triage_credentials_set_timeout (credentials, TRIAGE_CREDENTIALS_DEFAULT_TIMEOUT_MS);
  app_test_wait_for (remote_test_connection () == TRIAGE_CONNECTION_CONNECTED, APP_TEST_WAIT_MS);
}

int
main (int   argc,
      char *argv[])
{
  remote_test_init (&argc, &argv);
  /* Its token not stored (yet). */
  remote_test_start_app ();

  g_test_add_func ("/remote/preferences-without-window", test_preferences_without_window);
  g_test_add_func ("/remote/no-token", test_no_token);
  g_test_add_func ("/remote/token-missing", test_token_missing);
  g_test_add_func ("/remote/about-once", test_about_once);
  g_test_add_func ("/remote/preferences-of-window", test_preferences_of_window);
  g_test_add_func ("/remote/plain-http-refused", test_plain_http_refused);
  g_test_add_func ("/remote/token-refused", test_token_refused);
  g_test_add_func ("/remote/service-key-refused", test_service_key_refused);
  g_test_add_func ("/remote/token-unsendable", test_token_unsendable);
  g_test_add_func ("/remote/connect-and-answer", test_connect_and_answer);
  g_test_add_func ("/remote/keyring-unresponsive", test_keyring_unresponsive);

  return remote_test_run ();
}
