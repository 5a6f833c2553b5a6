/* triage-application.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "triage-credentials.h"
#include "triage-inbox-model.h"
#include "triage-notifier.h"
#include "triage-outbox.h"
#include "triage-store.h"
#include "triage-window.h"

G_BEGIN_DECLS

/* The GSettings schema id: the same in every build profile. */
#define TRIAGE_SETTINGS_SCHEMA "io.github.atptriage.Triage"

#define TRIAGE_TYPE_APPLICATION (triage_application_get_type ())

G_DECLARE_FINAL_TYPE (TriageApplication, triage_application, TRIAGE, APPLICATION, AdwApplication)

TriageApplication     *triage_application_new                (void);
TriageInboxModel      *triage_application_get_inbox          (TriageApplication *self);
TriageOutbox          *triage_application_get_outbox         (TriageApplication *self);
TriageNotifier        *triage_application_get_notifier       (TriageApplication *self);
TriageCredentials     *triage_application_get_credentials    (TriageApplication *self);
TriageWindow          *triage_application_get_window         (TriageApplication *self);
TriageConnectionState  triage_application_get_connection     (TriageApplication *self);
gboolean               triage_application_get_ready          (TriageApplication *self);

G_END_DECLS
