/* test-window-connection.c — what the window's connection bar says of each
 * problem the connection can end in, and which buttons it offers
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What is waited for says what it waits for (the keyring, the local server,
 * a server never reached) and when it is tried again, never "no network"
 * unless the network is missing; a configuration error (an address that is
 * not one, a certificate not accepted, a refused or missing token) says
 * what is wrong and what to do, offers Preferences, and never a next try
 * (a token never stored is a step to take, not a failure);
 * with nothing pending, a status page says it in place of the empty inbox's
 * help. tests/app/test-connection-problems.py has the same with the real app.
 */

#include <adwaita.h>

#include "app-test-common.h"
#include "triage-window.h"

#define ID_A "0a6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"

static gpointer
child (TriageWindow *window,
       const char   *name)
{
  return gtk_widget_get_template_child (GTK_WIDGET (window), TRIAGE_TYPE_WINDOW, name);
}

typedef struct
{
  TriageInboxModel *model;
  TriageWindow     *window;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->model = triage_inbox_model_new ();
  fixture->window = triage_window_new (NULL, fixture->model);
  g_object_ref_sink (fixture->window);
  gtk_window_present (GTK_WINDOW (fixture->window));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gpointer pane = triage_window_get_inbox_pane (fixture->window);
  gpointer history = triage_window_get_history_view (fixture->window);

  g_object_add_weak_pointer (G_OBJECT (pane), &pane);
  g_object_add_weak_pointer (G_OBJECT (history), &history);
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  app_test_finalize_object (fixture->window);
  app_test_wait_for (pane == NULL && history == NULL, APP_TEST_WAIT_MS);
  g_clear_object (&fixture->model);
}

static void
set (Fixture                 *fixture,
     TriageConnectionState    state,
     TriageConnectionProblem  problem,
     const char              *message,
     int                      retry_in_seconds)
{
  gint64 retry_at = retry_in_seconds > 0
                    ? g_get_monotonic_time () + retry_in_seconds * G_USEC_PER_SEC : 0;

  triage_window_set_connection_status (fixture->window, state, problem, message, retry_at);
}

static const char *
text (Fixture *fixture)
{
  return triage_window_get_connection_text (fixture->window);
}

#define assert_says(fixture, part) \
  G_STMT_START { \
    if (strstr (text (fixture), (part)) == NULL) \
      g_error ("the bar says “%s”, not “%s”", text (fixture), (part)); \
  } G_STMT_END

#define assert_does_not_say(fixture, part) \
  G_STMT_START { \
    if (strstr (text (fixture), (part)) != NULL) \
      g_error ("the bar says “%s”, with “%s”", text (fixture), (part)); \
  } G_STMT_END

static void
assert_buttons (Fixture  *fixture,
                gboolean  retry,
                gboolean  preferences)
{
  g_assert_true (gtk_revealer_get_reveal_child (child (fixture->window, "connection_revealer")));
  g_assert_cmpint (gtk_widget_get_visible (child (fixture->window, "retry_button")), ==, retry);
  g_assert_cmpint (gtk_widget_get_visible (child (fixture->window, "preferences_button")), ==,
                   preferences);
}

/* Waited for, and tried again: what is waited for, and when. */
static void
test_waiting (Fixture       *fixture,
              gconstpointer  data)
{
  set (fixture, TRIAGE_CONNECTION_OFFLINE, TRIAGE_CONNECTION_PROBLEM_KEYRING,
       "The keyring is locked. Unlock it and try again.", 8);
  assert_says (fixture, "Waiting for the keyring. Trying again in 8 seconds… The keyring is locked.");
  assert_does_not_say (fixture, "network");
  assert_buttons (fixture, TRUE, FALSE);

  set (fixture, TRIAGE_CONNECTION_OFFLINE, TRIAGE_CONNECTION_PROBLEM_LOCAL_SERVER,
       "Could not start the local server: no such file", 4);
  assert_says (fixture, "The local server is not running. Trying again in 4 seconds… "
                        "Could not start the local server");
  assert_does_not_say (fixture, "network");
  assert_buttons (fixture, TRUE, FALSE);

  /* Never connected since it started: not "lost"; the address may be wrong. */
  set (fixture, TRIAGE_CONNECTION_RECONNECTING, TRIAGE_CONNECTION_PROBLEM_UNREACHABLE,
       "Cannot reach https://triage.example.com: Connection refused", 3);
  assert_says (fixture, "Not connected. Trying again in 3 seconds… Cannot reach https://");
  assert_does_not_say (fixture, "lost");
  assert_buttons (fixture, TRUE, TRUE);

  set (fixture, TRIAGE_CONNECTION_RECONNECTING, TRIAGE_CONNECTION_PROBLEM_LOST,
       "The server closed the connection", 5);
  assert_says (fixture, "Connection lost. Reconnecting in 5 seconds… The server closed");
  assert_buttons (fixture, TRUE, FALSE);

  set (fixture, TRIAGE_CONNECTION_OFFLINE, TRIAGE_CONNECTION_PROBLEM_NO_NETWORK, NULL, 9);
  assert_says (fixture, "Offline: no network. Trying again in 9 seconds…");
  assert_buttons (fixture, TRUE, FALSE);

  /* The keyring failed otherwise: no next try, but trying by hand may help. */
  set (fixture, TRIAGE_CONNECTION_AUTH_FAILED, TRIAGE_CONNECTION_PROBLEM_KEYRING_FAILED,
       "The keyring failed: GDBus.Error", 0);
  assert_says (fixture, "Cannot read the token from the keyring. The keyring failed");
  assert_does_not_say (fixture, "Trying again");
  assert_does_not_say (fixture, "Sign-in");
  assert_buttons (fixture, TRUE, FALSE);
}

/* Only the settings (or the server) can fix it: what is wrong, what to do,
 * Preferences; no next try, and no "Offline". (A request kept from before
 * is listed: the bar says it above the list.) */
static void
test_configuration (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(AtpNotification) a = app_test_notification (ID_A, 60, 10, NULL);

  triage_inbox_model_add (fixture->model, a, NULL);
  set (fixture, TRIAGE_CONNECTION_OFFLINE, TRIAGE_CONNECTION_PROBLEM_CERTIFICATE,
       "The TLS certificate of https://triage.example.com is not accepted: it has expired", 0);
  assert_says (fixture, "Cannot connect securely. The TLS certificate of https://triage.example.com "
                        "is not accepted: it has expired. ");
  assert_says (fixture, "Preferences.");
  assert_does_not_say (fixture, "Offline");
  assert_does_not_say (fixture, "Trying again");
  /* Retry: for once the certificate is fixed. */
  assert_buttons (fixture, TRUE, TRUE);
  g_assert_true (gtk_widget_has_css_class (child (fixture->window, "connection_bar"), "error"));
  g_assert_cmpstr (gtk_actionable_get_action_name (child (fixture->window, "preferences_button")),
                   ==, "app.preferences");

  /* The same address again cannot become valid: no Retry. */
  set (fixture, TRIAGE_CONNECTION_AUTH_FAILED, TRIAGE_CONNECTION_PROBLEM_BAD_ADDRESS,
       "“https://” has no host name", 0);
  g_assert_cmpstr (text (fixture), ==,
                   "The server address is not valid. “https://” has no host name. "
                   "Correct it in Preferences.");
  assert_buttons (fixture, FALSE, TRUE);

  set (fixture, TRIAGE_CONNECTION_AUTH_FAILED, TRIAGE_CONNECTION_PROBLEM_NO_ADDRESS, NULL, 0);
  g_assert_cmpstr (text (fixture), ==,
                   "No server address is set. Enter it in Preferences, or choose the server "
                   "on this computer.");
  assert_buttons (fixture, FALSE, TRUE);

  set (fixture, TRIAGE_CONNECTION_AUTH_FAILED, TRIAGE_CONNECTION_PROBLEM_TOKEN_REFUSED,
       "The server refused the token. Enter a new one in Preferences.", 0);
  g_assert_cmpstr (text (fixture), ==,
                   "Sign-in failed. The server refused the token. Enter a new one in Preferences.");
  assert_buttons (fixture, TRUE, TRUE);

  /* A service key where the user token goes: the server knows it, and will
   * say the same of it each time; a user token is what helps. */
  set (fixture, TRIAGE_CONNECTION_AUTH_FAILED, TRIAGE_CONNECTION_PROBLEM_NOT_USER_TOKEN,
       "The server knows this token, but it is not a user token (a service key?). Enter a "
       "user token in Preferences.", 0);
  g_assert_cmpstr (text (fixture), ==,
                   "Sign-in failed. The server knows this token, but it is not a user token (a "
                   "service key?). Enter a user token in Preferences.");
  assert_buttons (fixture, FALSE, TRUE);

  /* No token ever stored (a first run): a step not taken, not a failure;
   * trying again cannot find one, Preferences is where it is entered. */
  set (fixture, TRIAGE_CONNECTION_AUTH_FAILED, TRIAGE_CONNECTION_PROBLEM_NO_TOKEN,
       "No user token is stored for https://triage.example.com yet. Enter the one you were "
       "given for it in Preferences.", 0);
  g_assert_cmpstr (text (fixture), ==,
                   "A user token is needed. No user token is stored for "
                   "https://triage.example.com yet. Enter the one you were given for it in "
                   "Preferences.");
  assert_does_not_say (fixture, "failed");
  assert_buttons (fixture, FALSE, TRUE);

  /* The app's database cannot open: neither Preferences nor a retry helps. */
  set (fixture, TRIAGE_CONNECTION_OFFLINE, TRIAGE_CONNECTION_PROBLEM_STORAGE,
       "Could not open the local database “/home/ana/.local/share/triage/triage.db”: disk I/O error",
       0);
  assert_says (fixture, "Cannot open the app’s database. Could not open the local database");
  assert_says (fixture, "disk I/O error. Nothing is received until answers can be kept safe.");
  assert_does_not_say (fixture, "Offline");
  assert_buttons (fixture, FALSE, FALSE);

  /* Fixed: the bar goes, and its buttons with it. */
  set (fixture, TRIAGE_CONNECTION_CONNECTING, TRIAGE_CONNECTION_PROBLEM_NONE, NULL, 0);
  g_assert_false (gtk_widget_get_visible (child (fixture->window, "preferences_button")));
  set (fixture, TRIAGE_CONNECTION_CONNECTED, TRIAGE_CONNECTION_PROBLEM_NONE, NULL, 0);
  g_assert_cmpstr (text (fixture), ==, "Connected");
  g_assert_false (gtk_revealer_get_reveal_child (child (fixture->window, "connection_revealer")));
  g_assert_false (gtk_widget_get_visible (child (fixture->window, "preferences_button")));
}

static const char *
page_shown (Fixture *fixture)
{
  return gtk_stack_get_visible_child_name (child (fixture->window, "inbox_stack"));
}

/* Nothing pending: the empty inbox's help ("it appears here") would be
 * false; the problem takes its place, and the bar hides. */
static void
test_problem_page (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(AtpNotification) a = app_test_notification (ID_A, 60, 10, NULL);
  AdwStatusPage *page = child (fixture->window, "problem_page");
  GtkRevealer *revealer = child (fixture->window, "connection_revealer");

  /* What is waited for keeps the inbox, under the bar. */
  set (fixture, TRIAGE_CONNECTION_RECONNECTING, TRIAGE_CONNECTION_PROBLEM_LOST, NULL, 5);
  g_assert_cmpstr (page_shown (fixture), ==, "inbox");
  g_assert_true (gtk_revealer_get_reveal_child (revealer));

  set (fixture, TRIAGE_CONNECTION_OFFLINE, TRIAGE_CONNECTION_PROBLEM_CERTIFICATE,
       "The TLS certificate of <https://triage.example.com> is not accepted: it has expired", 0);
  g_assert_cmpstr (page_shown (fixture), ==, "problem");
  g_assert_false (gtk_revealer_get_reveal_child (revealer));
  g_assert_cmpstr (adw_status_page_get_title (page), ==, "Cannot Connect Securely");
  g_assert_cmpstr (adw_status_page_get_icon_name (page), ==, "channel-insecure-symbolic");
  /* Markup escaped: the server's words are shown as they are. */
  g_assert_nonnull (strstr (adw_status_page_get_description (page),
                            "&lt;https://triage.example.com&gt; is not accepted: it has expired. "
                            "Ask the server"));
  g_assert_cmpstr (gtk_actionable_get_action_name (child (fixture->window,
                                                          "problem_preferences_button")),
                   ==, "app.preferences");
  g_assert_true (gtk_widget_get_visible (child (fixture->window, "problem_retry_button")));

  set (fixture, TRIAGE_CONNECTION_AUTH_FAILED, TRIAGE_CONNECTION_PROBLEM_BAD_ADDRESS,
       "“https://” has no host name", 0);
  g_assert_cmpstr (page_shown (fixture), ==, "problem");
  g_assert_cmpstr (adw_status_page_get_title (page), ==, "The Server Address Is Not Valid");
  g_assert_false (gtk_widget_get_visible (child (fixture->window, "problem_retry_button")));

  /* No token stored yet: said as the step it is, Preferences alone. */
  set (fixture, TRIAGE_CONNECTION_AUTH_FAILED, TRIAGE_CONNECTION_PROBLEM_NO_TOKEN,
       "No user token is stored for https://triage.example.com yet. Enter the one you were "
       "given for it in Preferences.", 0);
  g_assert_cmpstr (page_shown (fixture), ==, "problem");
  g_assert_cmpstr (adw_status_page_get_title (page), ==, "User Token Needed");
  g_assert_cmpstr (adw_status_page_get_icon_name (page), ==, "dialog-password-symbolic");
  g_assert_false (gtk_widget_get_visible (child (fixture->window, "problem_retry_button")));
  g_assert_true (gtk_widget_get_visible (child (fixture->window, "problem_preferences_button")));

  set (fixture, TRIAGE_CONNECTION_OFFLINE, TRIAGE_CONNECTION_PROBLEM_STORAGE,
       "Could not open the local database: disk I/O error", 0);
  g_assert_cmpstr (page_shown (fixture), ==, "problem");
  g_assert_cmpstr (adw_status_page_get_title (page), ==, "Cannot Open the App’s Database");
  g_assert_false (gtk_widget_get_visible (child (fixture->window, "problem_retry_button")));
  g_assert_false (gtk_widget_get_visible (child (fixture->window, "problem_preferences_button")));

  set (fixture, TRIAGE_CONNECTION_AUTH_FAILED, TRIAGE_CONNECTION_PROBLEM_BAD_ADDRESS,
       "“https://” has no host name", 0);
  g_assert_true (gtk_widget_get_visible (child (fixture->window, "problem_preferences_button")));

  /* A request (kept from before) is listed, under the bar. */
  triage_inbox_model_add (fixture->model, a, NULL);
  g_assert_cmpstr (page_shown (fixture), ==, "inbox");
  g_assert_true (gtk_revealer_get_reveal_child (revealer));
  g_object_unref (triage_inbox_model_remove (fixture->model, ID_A));
  g_assert_cmpstr (page_shown (fixture), ==, "problem");

  /* Fixed: the inbox is back, and no bar. */
  set (fixture, TRIAGE_CONNECTION_CONNECTING, TRIAGE_CONNECTION_PROBLEM_NONE, NULL, 0);
  g_assert_cmpstr (page_shown (fixture), ==, "inbox");
  g_assert_true (gtk_revealer_get_reveal_child (revealer));
  set (fixture, TRIAGE_CONNECTION_CONNECTED, TRIAGE_CONNECTION_PROBLEM_NONE, NULL, 0);
  g_assert_cmpstr (page_shown (fixture), ==, "inbox");
  g_assert_false (gtk_revealer_get_reveal_child (revealer));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add ("/window-connection/waiting", Fixture, NULL,
              fixture_set_up, test_waiting, fixture_tear_down);
  g_test_add ("/window-connection/configuration", Fixture, NULL,
              fixture_set_up, test_configuration, fixture_tear_down);
  g_test_add ("/window-connection/problem-page", Fixture, NULL,
              fixture_set_up, test_problem_page, fixture_tear_down);

  return g_test_run ();
}
