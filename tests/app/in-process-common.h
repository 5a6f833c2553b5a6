/* in-process-common.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The app, its server and the helpers shared by the parts of test-app,
 * one executable built from several files.
 */

#pragma once

#include <adwaita.h>
#include <sqlite3.h>
#include <unistd.h>

#include "app-test-server.h"
#include "app-test-application.h"
#include "triage-attachment-window.h"
#include "triage-confirm-dialog.h"
#include "triage-attachment-error.h"
#include "triage-preferences-window.h"
#include "triage-decision-view.h"
#include "triage-response-editor-private.h"

G_BEGIN_DECLS

typedef struct
{
  const char *name;
  const char *action;       /* the action, as JSON */
  const char *invalid;      /* an answer that breaks its constraints */
  const char *valid;        /* one that does not */
  gboolean    blank_valid;  /* whether the editor's untouched answer is valid */
} TypeCase;

extern char *world;
extern AppTestServer *server;
extern TriageApplication *app;

void wait_connected (void);
TriageWindow *window (void);
TriageDecisionView *decision_view (void);
void open_request (const char *id);
void respond (const char *id,
              const char *action_id,
              const char *json);
gboolean outbox_empty (void);
gboolean history_matches (const char *id,
                          const char *condition);

/* in-process-decisions.c */
void test_response_type (gconstpointer data);
void test_confirmation (gconstpointer data);
void test_answered_elsewhere_while_open (void);
void test_invalidated_while_open (void);
void test_expiry_while_open (void);
void test_settled_while_away (void);
void test_conflict_told (void);

/* in-process-history.c */
void test_history_recorded (void);
void test_attachments (void);
void test_history_retention (void);

/* in-process-desktop.c */
void test_autostart (void);
void test_shortcuts_listed (void);
void test_tray_menu (void);

G_END_DECLS
