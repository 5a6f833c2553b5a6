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

#include <adwaita.h>
#include "app-test-server.h"
#include "app-test-application.h"
#include "triage-decision-view.h"
#include "triage-preferences-window.h"
#include "triage-request-banner.h"
#include "triage-test-server.h"

static char *world;
static TriageTestServer *server;
static char *user_token;
static char *api_key;
static GSettings *settings;
static TriageApplication *app;

static TriageConnectionState
connection (void)
{
  return triage_application_get_connection (app);
}

static TriagePreferencesWindow *
open_preferences (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();   /* transfer none */

  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (toplevels, i);

      if (TRIAGE_IS_PREFERENCES_WINDOW (item))
        return TRIAGE_PREFERENCES_WINDOW (item);
    }
  g_assert_not_reached ();
}

static gpointer
child (TriagePreferencesWindow *preferences,
       const char              *name)
{
  return gtk_widget_get_template_child (GTK_WIDGET (preferences), TRIAGE_TYPE_PREFERENCES_WINDOW, name);
}

static const char *
status_text (TriagePreferencesWindow *preferences)
{
  return adw_action_row_get_subtitle (child (preferences, "status_row"));
}

/* The text of the field @row_name (the address's or the token's), where
 * the keyboard types. */
static GtkAccessible *
field_text (TriagePreferencesWindow *preferences,
            const char              *row_name)
{
  return GTK_ACCESSIBLE (gtk_editable_get_delegate (GTK_EDITABLE (child (preferences, row_name))));
}

/* The field @row_name shows @problem: red, and to a screen reader invalid
 * and described by it, as the status row says it: the row, which AT-SPI
 * shows as the field, and its text, which has the keyboard. */
static void
assert_field_problem (TriagePreferencesWindow *preferences,
                      const char              *row_name,
                      const char              *problem)
{
  GtkAccessible *field[] = { child (preferences, row_name), field_text (preferences, row_name) };

  g_assert_cmpstr (status_text (preferences), ==, problem);
  g_assert_true (gtk_widget_has_css_class (child (preferences, "status_row"), "error"));
  g_assert_true (gtk_widget_has_css_class (child (preferences, row_name), "error"));
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
  GtkAccessible *field[] = { child (preferences, row_name), field_text (preferences, row_name) };

  g_assert_false (gtk_widget_has_css_class (child (preferences, row_name), "error"));
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

/* Types an address and a token, and presses Connect. */
static void
enter_server (TriagePreferencesWindow *preferences,
              const char              *url,
              const char              *token)
{
  gtk_editable_set_text (GTK_EDITABLE (child (preferences, "url_row")), url);
  gtk_editable_set_text (GTK_EDITABLE (child (preferences, "token_row")), token);
  g_signal_emit_by_name (child (preferences, "connect_button"), "clicked");
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

  g_object_get (settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autoptr(GVariant) value = g_settings_get_value (settings, keys[i]);
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

  app_test_wait_for (connection () == TRIAGE_CONNECTION_AUTH_FAILED, APP_TEST_WAIT_MS);
  g_assert_null (triage_application_get_window (app));

  preferences = open_preferences ();
  g_assert_null (gtk_window_get_transient_for (GTK_WINDOW (preferences)));
  g_assert_false (gtk_window_get_modal (GTK_WINDOW (preferences)));
  g_assert_true (gtk_window_get_application (GTK_WINDOW (preferences)) == GTK_APPLICATION (app));
  g_assert_null (triage_application_get_window (app));
  /* Opened to fix "User Token Needed": not "Leave the token empty to keep
   * the one stored", when none is. */
  g_assert_cmpstr (status_text (preferences), ==,
                   "No token is stored for this server yet: enter your user token, then Connect");

  g_assert_true (open_preferences () == preferences);
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
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

  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
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

  g_action_group_activate_action (G_ACTION_GROUP (app), "show", NULL);
  preferences = open_preferences ();
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (preferences)) ==
                 GTK_WINDOW (triage_application_get_window (app)));
  g_assert_true (gtk_window_get_modal (GTK_WINDOW (preferences)));
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (child (preferences, "local_check")),
                                   GTK_ACCESSIBLE_ROLE_RADIO);
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (child (preferences, "remote_check")),
                                   GTK_ACCESSIBLE_ROLE_RADIO);
  gtk_window_destroy (GTK_WINDOW (preferences));
}

static void
test_no_token (void)
{
  TriageWindow *window;

  /* Set up for a remote server before the app started, with no token stored. */
  app_test_wait_for (connection () == TRIAGE_CONNECTION_AUTH_FAILED, APP_TEST_WAIT_MS);
  g_action_group_activate_action (G_ACTION_GROUP (app), "show", NULL);
  window = triage_application_get_window (app);
  g_assert_nonnull (window);
  /* A step not taken yet, not a failure: what is missing, for which server. */
  g_assert_null (strstr (triage_window_get_connection_text (window), "failed"));
  g_assert_nonnull (strstr (triage_window_get_connection_text (window), "A user token is needed"));
  g_assert_nonnull (strstr (triage_window_get_connection_text (window), "No user token is stored for"));
  g_assert_nonnull (strstr (triage_window_get_connection_text (window),
                            triage_test_server_get_url (server)));
}

/* Connect with the token's field empty and no token stored for the server:
 * the keyboard goes to the token's field, which says what is missing. */
static void
test_token_missing (void)
{
  TriagePreferencesWindow *preferences = open_preferences ();

  enter_server (preferences, triage_test_server_get_url (server), "");
  app_test_wait_for (g_strcmp0 (status_text (preferences), "Enter your user token for this server") == 0,
                     APP_TEST_WAIT_MS);
  assert_field_problem (preferences, "token_row", "Enter your user token for this server");
  g_assert_true (has_keyboard (preferences, "token_row"));
  assert_no_field_problem (preferences, "url_row");
  /* The address's field is not the token's: typing there leaves it. */
  gtk_editable_set_text (GTK_EDITABLE (child (preferences, "url_row")), "https://triage.example.com");
  g_assert_true (gtk_test_accessible_has_state (field_text (preferences, "token_row"),
                                                GTK_ACCESSIBLE_STATE_INVALID));
  gtk_editable_set_text (GTK_EDITABLE (child (preferences, "token_row")), "a");
  assert_no_field_problem (preferences, "token_row");

  gtk_window_destroy (GTK_WINDOW (preferences));
}

static void
test_plain_http_refused (void)
{
  TriagePreferencesWindow *preferences = open_preferences ();
  g_autofree char *kept_url = NULL;

  enter_server (preferences, "http://triage.example.com", "some-token");
  /* The problem named, in the app's sentence (as the window says it). Not
   * only red: the address's text, where the keyboard went back, is invalid
   * to a screen reader and described by the problem; typing clears it. */
  assert_field_problem (preferences, "url_row",
                        "“http://triage.example.com” is not encrypted: it must begin with https:// "
                        "(plain http:// reaches only a server on this computer).");
  g_assert_true (has_keyboard (preferences, "url_row"));
  assert_no_field_problem (preferences, "token_row");
  /* The row says what connecting found, the address's fault here: not "Token". */
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (child (preferences, "status_row"))),
                   ==, "Connection");
  /* The token's field is not the address's: typing there leaves the address's problem. */
  gtk_editable_set_text (GTK_EDITABLE (child (preferences, "token_row")), "other-token");
  g_assert_true (gtk_test_accessible_has_state (field_text (preferences, "url_row"),
                                                GTK_ACCESSIBLE_STATE_INVALID));
  gtk_editable_set_text (GTK_EDITABLE (child (preferences, "url_row")), "https://triage.example.com");
  assert_no_field_problem (preferences, "url_row");

  /* No address at all: said on its field too. */
  enter_server (preferences, "", "some-token");
  assert_field_problem (preferences, "url_row", "Enter the address of the server");
  g_assert_true (has_keyboard (preferences, "url_row"));
  /* Nothing saved: neither the address nor the token. */
  kept_url = g_settings_get_string (settings, "server-url");
  g_assert_cmpstr (kept_url, ==, triage_test_server_get_url (server));
  app_test_spin (200);
  g_assert_null (keyring_token ("http://triage.example.com"));

  gtk_window_destroy (GTK_WINDOW (preferences));
}

static void
test_token_refused (void)
{
  TriagePreferencesWindow *preferences = open_preferences ();
  const char *url = triage_test_server_get_url (server);

  enter_server (preferences, url, "not-a-token-the-server-knows");
  /* Saved, and what became of it once known: not "saved" alone, as if all were well. */
  app_test_wait_for (g_str_has_prefix (status_text (preferences),
                                       "Token saved in the keyring, but not connected: ") &&
                     strstr (status_text (preferences), "refused the token") != NULL,
                     APP_TEST_WAIT_MS);
  /* Said on the token's field too, where a new one goes, for a screen reader
   * as much as to the eye; a new one typed clears it. */
  assert_field_problem (preferences, "token_row", status_text (preferences));
  assert_no_field_problem (preferences, "url_row");
  gtk_editable_set_text (GTK_EDITABLE (child (preferences, "token_row")), "another");
  assert_no_field_problem (preferences, "token_row");
  app_test_wait_for (connection () == TRIAGE_CONNECTION_AUTH_FAILED &&
                     strstr (triage_window_get_connection_text (triage_application_get_window (app)),
                             "refused the token") != NULL,
                     APP_TEST_WAIT_MS);
  gtk_window_destroy (GTK_WINDOW (preferences));

  /* Opened again to fix it: the token stored is the refused one, not one to keep. */
  preferences = open_preferences ();
  assert_field_problem (preferences, "token_row",
                        "The server refused the token stored: enter a new one, then Connect");
  gtk_window_destroy (GTK_WINDOW (preferences));
}

/* A service key pasted where the user token goes: the server knows it, and
 * says (403) it is not a user token; the app says so, and does not retry. */
static void
test_service_key_refused (void)
{
  TriagePreferencesWindow *preferences = open_preferences ();
  const char *url = triage_test_server_get_url (server);

  enter_server (preferences, url, api_key);
  app_test_wait_for (connection () == TRIAGE_CONNECTION_AUTH_FAILED &&
                     strstr (triage_window_get_connection_text (triage_application_get_window (app)),
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
  TriagePreferencesWindow *preferences = open_preferences ();
  const char *url = triage_test_server_get_url (server);
  g_autofree char *kept = keyring_token (url);
  g_autofree char *still = NULL;
  g_autofree char *stored = NULL;
  g_autofree char *padded = g_strconcat ("  ", user_token, "\n", NULL);
  TriageWindow *window;

  enter_server (preferences, url, "ab9 zq7");
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
  g_action_group_activate_action (G_ACTION_GROUP (app), "show", NULL);
  window = triage_application_get_window (app);
  for (guint i = 0; i < G_N_ELEMENTS (stored_cases); i++)
    {
      g_test_message ("stored: %s", stored_cases[i].fault);
      app_test_store_token_elsewhere (url, stored_cases[i].token);
      g_action_group_activate_action (G_ACTION_GROUP (app), "reconnect", NULL);
      app_test_wait_for (connection () == TRIAGE_CONNECTION_AUTH_FAILED &&
                         strstr (triage_window_get_connection_text (window),
                                 stored_cases[i].fault) != NULL,
                         APP_TEST_WAIT_MS);
      g_assert_nonnull (strstr (triage_window_get_connection_text (window),
                                "The token stored cannot be sent"));
      g_assert_null (strstr (triage_window_get_connection_text (window), "zq"));
      preferences = open_preferences ();
      assert_field_problem (preferences, "token_row", UNSENDABLE_STATUS);
      gtk_window_destroy (GTK_WINDOW (preferences));
    }

  preferences = open_preferences ();
  enter_server (preferences, url, padded);
  app_test_wait_for (connection () == TRIAGE_CONNECTION_CONNECTED, APP_TEST_WAIT_MS);
  assert_no_field_problem (preferences, "token_row");
  stored = keyring_token (url);
  g_assert_cmpstr (stored, ==, user_token);
  gtk_window_destroy (GTK_WINDOW (preferences));
}

static void
test_connect_and_answer (void)
{
  TriagePreferencesWindow *preferences = open_preferences ();
  const char *url = triage_test_server_get_url (server);
  g_autofree char *stored = NULL;
  g_autofree char *id = g_uuid_string_random ();
  g_autofree char *body = NULL;
  g_autofree char *path = NULL;
  g_autofree char *reply = NULL;
  g_autoptr(JsonNode) null = json_node_new (JSON_NODE_NULL);
  g_autoptr(GError) error = NULL;
  guint status = 0;

  enter_server (preferences, url, user_token);
  app_test_wait_for (connection () == TRIAGE_CONNECTION_CONNECTED, APP_TEST_WAIT_MS);

  /* The token is in the keyring, and nowhere in the settings. */
  stored = keyring_token (url);
  g_assert_cmpstr (stored, ==, user_token);
  g_assert_cmpint (g_settings_get_enum (settings, "server-mode"), ==, 1);
  g_assert_false (settings_mention (user_token));
  /* The field does not keep it either. */
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (preferences, "token_row"))), ==, "");
  /* Later changes are written at once (the server change did not leave the
   * app's settings holding back writes). */
  gtk_switch_set_active (GTK_SWITCH (child (preferences, "dnd_switch")), TRUE);
  g_assert_true (g_settings_get_boolean (settings, "do-not-disturb"));
  gtk_switch_set_active (GTK_SWITCH (child (preferences, "dnd_switch")), FALSE);
  g_assert_false (g_settings_get_boolean (settings, "do-not-disturb"));
  gtk_window_destroy (GTK_WINDOW (preferences));

  /* A service sends; the app shows it; the answer reaches the server. */
  body = g_strdup_printf ("{\"id\": \"%s\", \"context\": {\"title\": \"Remote?\", \"description\": \"Over TCP.\"},"
                          " \"actions\": [{\"id\": \"yes\", \"label\": \"Yes\", \"response_type\": \"simple\"}]}", id);
  g_assert_true (triage_test_http (server, "POST", "/api/v1/notifications", api_key, body,
                                   &status, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (status, ==, 201);
  app_test_wait_for (triage_inbox_model_lookup (triage_application_get_inbox (app), id) != NULL,
                     APP_TEST_WAIT_MS);

  /* Answered as the decision view answers. */
  g_action_group_activate_action (G_ACTION_GROUP (app), "show", NULL);
  g_signal_emit_by_name (triage_application_get_window (app), "submit", id, "yes", null);
  app_test_wait_for (triage_inbox_model_lookup (triage_application_get_inbox (app), id) == NULL &&
                     triage_outbox_get_n_pending (triage_application_get_outbox (app)) == 0,
                     APP_TEST_WAIT_MS);
  path = g_strconcat ("/api/v1/notifications/", id, NULL);
  g_assert_true (triage_test_http (server, "GET", path, api_key, NULL, &status, &reply, &error));
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
  TriageCredentials *credentials = triage_application_get_credentials (app);
  TriageWindow *window;
  guint retries = 0;
  gulong handler;

  triage_credentials_set_timeout (credentials, 200);
  triage_credentials_set_unresponsive (credentials, TRUE);
  g_action_group_activate_action (G_ACTION_GROUP (app), "reconnect", NULL);
  app_test_wait_for (connection () == TRIAGE_CONNECTION_OFFLINE, APP_TEST_WAIT_MS);
  g_action_group_activate_action (G_ACTION_GROUP (app), "show", NULL);
  window = triage_application_get_window (app);
  g_assert_nonnull (strstr (triage_window_get_connection_text (window), "locked"));

  /* Tried again by itself (through "connecting"), and offline again after,
   * never taken for a refused token. */
  handler = g_signal_connect (app, "notify::connection", G_CALLBACK (count_connecting), &retries);
  app_test_wait_for (retries > 0 && connection () == TRIAGE_CONNECTION_OFFLINE, APP_TEST_WAIT_MS);
  g_signal_handler_disconnect (app, handler);
  triage_credentials_set_unresponsive (credentials, FALSE);
  triage_credentials_set_timeout (credentials, TRIAGE_CREDENTIALS_DEFAULT_TIMEOUT_MS);
  app_test_wait_for (connection () == TRIAGE_CONNECTION_CONNECTED, APP_TEST_WAIT_MS);
}

/* How many of @ids the inbox holds. */
static guint
count_listed (TriageInboxModel *inbox,
              char            **ids,
              guint             n_ids)
{
  guint listed = 0;

  for (guint i = 0; i < n_ids; i++)
    listed += triage_inbox_model_lookup (inbox, ids[i]) != NULL;
  return listed;
}

/* Posts a one-button request to @to as the service of @key; returns its id. */
static char *
post_simple (TriageTestServer *to,
             const char       *key,
             const char       *title)
{
  g_autofree char *id = g_uuid_string_random ();
  g_autofree char *body = g_strdup_printf ("{\"id\": \"%s\", \"context\": {\"title\": \"%s\", \"description\": \"Test.\"},"
                                           " \"actions\": [{\"id\": \"yes\", \"label\": \"Yes\","
                                           " \"response_type\": \"simple\"}]}", id, title);
  g_autoptr(GError) error = NULL;
  guint status = 0;

  g_assert_true (triage_test_http (to, "POST", "/api/v1/notifications", key, body, &status, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (status, ==, 201);

  return g_steal_pointer (&id);
}

static gboolean
is_responded (TriageTestServer *on,
              const char       *key,
              const char       *id)
{
  g_autofree char *path = g_strconcat ("/api/v1/notifications/", id, NULL);
  g_autofree char *reply = NULL;
  guint status = 0;

  return triage_test_http (on, "GET", path, key, NULL, &status, &reply, NULL) && status == 200 &&
         strstr (reply, "\"status\":\"responded\"") != NULL;
}

static void
switch_to (TriageTestServer *to,
           const char       *token)
{
  TriagePreferencesWindow *preferences = open_preferences ();

  enter_server (preferences, triage_test_server_get_url (to), token);
  app_test_wait_for (connection () == TRIAGE_CONNECTION_CONNECTED &&
                     g_strcmp0 (g_settings_get_string (settings, "server-url"),
                                triage_test_server_get_url (to)) == 0,
                     APP_TEST_WAIT_MS);
  gtk_window_destroy (GTK_WINDOW (preferences));
}

/* Requests and answers belong to the server they came from: another server
 * shows its own inbox and is never sent the last one's answers, which are
 * delivered where they belong on the way back. And a lookup refused for now
 * (a rate limit) says nothing about what became of a request. */
static void
test_switch_servers (void)
{
  const char * const polling[] = { "--limit", "polling=3", NULL };
  const char * const recipients[] = { "alice", NULL };
  g_autoptr(TriageTestServer) other = NULL;
  g_autoptr(JsonNode) null = json_node_new (JSON_NODE_NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *other_token = NULL;
  g_autofree char *other_key = NULL;
  g_autofree char *here = NULL;
  TriageInboxModel *inbox = triage_application_get_inbox (app);
  TriageOutbox *outbox = triage_application_get_outbox (app);
  char *there[4];
  guint remaining = 0;

  other = triage_test_server_new (&(TriageTestServerOptions) { .extra_args = polling }, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_user (other, "alice", &other_token, &error));
  g_assert_true (triage_test_server_create_service (other, "Other Bot", recipients, NULL,
                                                    NULL, &other_key, NULL, &error));
  g_assert_no_error (error);

  /* An answer given while the first server is gone waits in the outbox. */
  app_test_wait_for (connection () == TRIAGE_CONNECTION_CONNECTED, APP_TEST_WAIT_MS);
  here = post_simple (server, api_key, "First server");
  app_test_wait_for (triage_inbox_model_lookup (inbox, here) != NULL, APP_TEST_WAIT_MS);
  triage_test_server_kill (server);
  app_test_wait_for (connection () != TRIAGE_CONNECTION_CONNECTED, APP_TEST_WAIT_MS);
  g_signal_emit_by_name (triage_application_get_window (app), "submit", here, "yes", null);
  app_test_wait_for (triage_outbox_get_n_pending (outbox) == 1, APP_TEST_WAIT_MS);

  /* The other server: its requests, not the first one's, and not its answer. */
  for (guint i = 0; i < G_N_ELEMENTS (there); i++)
    there[i] = post_simple (other, other_key, "Other server");
  switch_to (other, other_token);
  for (guint i = 0; i < G_N_ELEMENTS (there); i++)
    app_test_wait_for (triage_inbox_model_lookup (inbox, there[i]) != NULL, APP_TEST_WAIT_MS);
  g_assert_null (triage_inbox_model_lookup (inbox, here));
  g_assert_cmpuint (triage_outbox_get_n_pending (outbox), ==, 0);

  /* Back to the first, restarted: the answer reaches it. */
  g_assert_true (triage_test_server_restart (server, &error));
  g_assert_no_error (error);
  switch_to (server, user_token);
  app_test_wait_for (is_responded (server, api_key, here), APP_TEST_WAIT_MS);
  g_assert_null (triage_inbox_model_lookup (inbox, there[0]));

  /* Meanwhile the other server's four are answered elsewhere. Back there,
   * its limit lets the app ask about one or two of them; the others stay
   * in the inbox (asked about again later), not "answered elsewhere". */
  for (guint i = 0; i < G_N_ELEMENTS (there); i++)
    {
      g_autofree char *body = g_strdup_printf ("{\"notification_id\": \"%s\", \"action_id\": \"yes\"}",
                                               there[i]);
      guint status = 0;

      g_assert_true (triage_test_http (other, "POST", "/api/v1/client/respond", other_token, body,
                                       &status, NULL, &error));
      g_assert_cmpuint (status, ==, 200);
    }
  switch_to (other, other_token);
  app_test_wait_for (count_listed (inbox, there, G_N_ELEMENTS (there)) < G_N_ELEMENTS (there),
                     APP_TEST_WAIT_MS);
  /* The lookups go four at a time: the refused ones end about when the
   * others do, and must not take theirs out meanwhile. */
  app_test_spin (1000);
  remaining = count_listed (inbox, there, G_N_ELEMENTS (there));
  g_assert_cmpuint (remaining, >=, 2);
  g_assert_cmpuint (remaining, <, G_N_ELEMENTS (there));

  for (guint i = 0; i < G_N_ELEMENTS (there); i++)
    g_free (there[i]);
}

/* An answer a rate limit holds back (a 429's Retry-After, 5 s here) says in
 * its open view until when, then goes by itself and says it was sent. */
static void
test_server_wait_shown (void)
{
  const char * const limit[] = { "--limit", "responses=12", NULL };   /* then one in 5 s */
  const char * const recipients[] = { "alice", NULL };
  const char *waiting = "The server asked to wait — sending at ";
  g_autoptr(TriageTestServer) limited = NULL;
  g_autoptr(JsonNode) null = json_node_new (JSON_NODE_NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;
  g_autofree char *key = NULL;
  g_autofree char *id = NULL;
  TriageWindow *window = triage_application_get_window (app);
  TriageRequestBanner *banner;

  limited = triage_test_server_new (&(TriageTestServerOptions) { .extra_args = limit }, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_user (limited, "alice", &token, &error));
  g_assert_true (triage_test_server_create_service (limited, "Limited Bot", recipients, NULL,
                                                    NULL, &key, NULL, &error));
  switch_to (limited, token);
  id = post_simple (limited, key, "Held by the server");
  app_test_wait_for (triage_window_show_request (window, id), APP_TEST_WAIT_MS);
  banner = TRIAGE_REQUEST_BANNER (gtk_widget_get_template_child (triage_window_get_decision_view (window),
                                                                 TRIAGE_TYPE_DECISION_VIEW, "banner"));

  /* Another device of alice's spends her allowance (404s count too). */
  for (guint i = 0; i < 12; i++)
    {
      g_autofree char *other = g_uuid_string_random ();
      g_autofree char *body = g_strdup_printf ("{\"notification_id\": \"%s\", \"action_id\": \"yes\"}", other);
      guint status = 0;

      g_assert_true (triage_test_http (limited, "POST", "/api/v1/client/respond", token, body,
                                       &status, NULL, &error));
      g_assert_cmpuint (status, ==, 404);
    }

  g_signal_emit_by_name (window, "submit", id, "yes", null);
  app_test_wait_for (g_str_has_prefix (triage_request_banner_get_title (banner), waiting),
                     APP_TEST_WAIT_MS);
  g_assert_false (is_responded (limited, key, id));
  app_test_wait_for (is_responded (limited, key, id) &&
                     g_str_equal (triage_request_banner_get_title (banner), "Answer sent"),
                     APP_TEST_WAIT_MS);
}

/* A server whose certificate this computer does not trust: a configuration
 * error, shown as one with why (the window's bar in its error style, the
 * retry button), not "Reconnecting…" for ever. */
static void
test_tls_untrusted (void)
{
  TriagePreferencesWindow *preferences = open_preferences ();
  g_autoptr(TriageTestServer) tls = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *tls_token = NULL;
  TriageWindow *window;

  tls = triage_test_server_new (&(TriageTestServerOptions) { .tls = TRUE }, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_user (tls, "alice", &tls_token, &error));
  g_assert_no_error (error);

  enter_server (preferences, triage_test_server_get_url (tls), tls_token);
  g_action_group_activate_action (G_ACTION_GROUP (app), "show", NULL);
  window = triage_application_get_window (app);
  app_test_wait_for (connection () == TRIAGE_CONNECTION_OFFLINE &&
                     strstr (triage_window_get_connection_text (window),
                             "its issuer is not trusted on this computer") != NULL,
                     APP_TEST_WAIT_MS);
  g_assert_nonnull (strstr (triage_window_get_connection_text (window),
                            triage_test_server_get_url (tls)));
  g_assert_null (strstr (triage_window_get_connection_text (window), "Reconnecting"));

  gtk_window_destroy (GTK_WINDOW (preferences));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  const char *recipients[] = { "alice", NULL };
  int status;

  world = app_test_private_world ();
  /* The in-process accessibility backend, so the tests can read names. */
  g_setenv ("GTK_A11Y", "test", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  server = triage_test_server_new (&(TriageTestServerOptions) { 0 }, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_user (server, "alice", &user_token, &error));
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_service (server, "Remote Bot", recipients, NULL,
                                                    NULL, &api_key, NULL, &error));
  g_assert_no_error (error);

  /* A remote server chosen earlier, its token not stored (yet). */
  settings = g_settings_new (TRIAGE_SETTINGS_SCHEMA);
  g_settings_set_string (settings, "server-url", triage_test_server_get_url (server));
  g_settings_set_enum (settings, "server-mode", 1);

  app = app_test_application_new ();

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
  g_test_add_func ("/remote/switch-servers", test_switch_servers);
  g_test_add_func ("/remote/tls-untrusted", test_tls_untrusted);
  g_test_add_func ("/remote/server-wait-shown", test_server_wait_shown);

  status = g_test_run ();

  g_clear_pointer (&app, app_test_application_free);
  g_clear_object (&settings);
  triage_test_server_free (server);
  g_free (user_token);
  g_free (api_key);
  app_test_rm_rf (world);
  g_free (world);

  return status;
}
