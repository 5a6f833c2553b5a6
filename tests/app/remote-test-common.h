/* remote-test-common.h — what test-remote and test-remote-servers share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The whole app in-process in remote mode against a real triage-server on
 * 127.0.0.1 (a loopback address, so plain http is allowed) with a user and a
 * service, and the real gnome-keyring of build-aux/run-headless.sh; and how
 * a person reaches the server's settings: Preferences.
 */

#pragma once

#include <adwaita.h>

#include "app-test-server.h"
#include "app-test-application.h"
#include "triage-preferences-window.h"
#include "triage-test-server.h"

G_BEGIN_DECLS

/* The server the app is set up for, its user (alice) and its service. */
extern TriageTestServer  *remote_test_server;
extern char              *remote_test_user_token;
extern char              *remote_test_api_key;
extern GSettings         *remote_test_settings;
extern TriageApplication *remote_test_app;

/* A private world, GTK (with the in-process accessibility backend, so the
 * tests can read names), the server, and the app's settings chosen for it
 * earlier: remote mode, its address. */
void                     remote_test_init             (int                     *argc,
                                                       char                  ***argv);
/* The app, started (after remote_test_init ()). */
void                     remote_test_start_app        (void);
/* Runs the tests added, then ends the app, the server and the world: what
 * main () returns. */
int                      remote_test_run              (void);

TriageConnectionState    remote_test_connection       (void);
/* Preferences, as the app's action opens it. */
TriagePreferencesWindow *remote_test_open_preferences (void);
/* Its template child @name. */
gpointer                 remote_test_child            (TriagePreferencesWindow  *preferences,
                                                       const char               *name);
/* Types an address and a token, and presses Connect. */
void                     remote_test_enter_server     (TriagePreferencesWindow  *preferences,
                                                       const char               *url,
                                                       const char               *token);

G_END_DECLS
