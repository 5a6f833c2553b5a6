/* remote-test-common.c — what test-remote and test-remote-servers share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "remote-test-common.h"

static char *world;

TriageTestServer  *remote_test_server;
char              *remote_test_user_token;
char              *remote_test_api_key;
GSettings         *remote_test_settings;
TriageApplication *remote_test_app;

void
remote_test_init (int    *argc,
                  char ***argv)
{
  g_autoptr(GError) error = NULL;
  const char *recipients[] = { "alice", NULL };

  world = app_test_private_world ();
  /* The in-process accessibility backend, so the tests can read names. */
  g_setenv ("GTK_A11Y", "test", TRUE);
  gtk_test_init (argc, argv, NULL);
  adw_init ();

  remote_test_server = triage_test_server_new (&(TriageTestServerOptions) { 0 }, &error);
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_user (remote_test_server, "alice",
                                                 &remote_test_user_token, &error));
  g_assert_no_error (error);
  g_assert_true (triage_test_server_create_service (remote_test_server, "Remote Bot", recipients,
                                                    NULL, NULL, &remote_test_api_key, NULL,
                                                    &error));
  g_assert_no_error (error);

  /* A remote server chosen earlier. */
  remote_test_settings = g_settings_new (TRIAGE_SETTINGS_SCHEMA);
  g_settings_set_string (remote_test_settings, "server-url",
                         triage_test_server_get_url (remote_test_server));
  g_settings_set_enum (remote_test_settings, "server-mode", 1);
}

void
remote_test_start_app (void)
{
  remote_test_app = app_test_application_new ();
}

int
remote_test_run (void)
{
  int status = g_test_run ();

  g_clear_pointer (&remote_test_app, app_test_application_free);
  g_clear_object (&remote_test_settings);
  triage_test_server_free (remote_test_server);
  g_free (remote_test_user_token);
  g_free (remote_test_api_key);
  app_test_rm_rf (world);
  g_free (world);

  return status;
}

TriageConnectionState
remote_test_connection (void)
{
  return triage_application_get_connection (remote_test_app);
}

TriagePreferencesWindow *
remote_test_open_preferences (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();   /* transfer none */

  g_action_group_activate_action (G_ACTION_GROUP (remote_test_app), "preferences", NULL);
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (toplevels, i);

      if (TRIAGE_IS_PREFERENCES_WINDOW (item))
        return TRIAGE_PREFERENCES_WINDOW (item);
    }
  g_assert_not_reached ();
}

gpointer
remote_test_child (TriagePreferencesWindow *preferences,
                   const char              *name)
{
  return gtk_widget_get_template_child (GTK_WIDGET (preferences), TRIAGE_TYPE_PREFERENCES_WINDOW,
                                        name);
}

void
remote_test_enter_server (TriagePreferencesWindow *preferences,
                          const char              *url,
                          const char              *token)
{
  gtk_editable_set_text (GTK_EDITABLE (remote_test_child (preferences, "url_row")), url);
  gtk_editable_set_text (GTK_EDITABLE (remote_test_child (preferences, "token_row")), token);
  g_signal_emit_by_name (remote_test_child (preferences, "connect_button"), "clicked");
}
