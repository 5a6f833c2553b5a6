/* triage-preferences-window.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "triage-connection.h"
#include "triage-credentials.h"

G_BEGIN_DECLS

#define TRIAGE_TYPE_PREFERENCES_WINDOW (triage_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (TriagePreferencesWindow, triage_preferences_window,
                      TRIAGE, PREFERENCES_WINDOW, AdwPreferencesWindow)

TriagePreferencesWindow *triage_preferences_window_new (GtkWindow         *parent,
                                                        GSettings         *settings,
                                                        TriageCredentials *credentials);
void                     triage_preferences_window_set_connection
                                                       (TriagePreferencesWindow *self,
                                                        TriageConnectionState    state,
                                                        TriageConnectionProblem  problem,
                                                        const char              *message);

G_END_DECLS
