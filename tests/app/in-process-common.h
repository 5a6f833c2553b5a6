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
#include "triage-attachment-view.h"
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

/* test-app's world: its private XDG tree, the server running in it, the app */
extern char              *test_app_world;
extern AppTestServer     *test_app_server;
extern TriageApplication *test_app;

void                test_app_wait_connected  (void);
TriageWindow       *test_app_window          (void);
TriageDecisionView *test_app_decision_view   (void);
/* Whether the window shows the request @id. */
gboolean            test_app_shows_request   (const char *id);
void                test_app_open_request    (const char *id);
void                test_app_respond         (const char *id,
                                              const char *action_id,
                                              const char *json);
gboolean            test_app_outbox_empty    (void);
gboolean            test_app_history_matches (const char *id,
                                              const char *condition);

/* in-process-decisions.c */
void test_app_response_type (gconstpointer data);
void test_app_confirmation (gconstpointer data);
void test_app_answered_elsewhere_while_open (void);
void test_app_invalidated_while_open (void);
void test_app_expiry_while_open (void);
void test_app_settled_while_away (void);
void test_app_withdrawn_while_away (void);
void test_app_withdrawn_no_reason_while_away (void);
void test_app_conflict_told (void);

/* in-process-history.c */
void test_app_history_recorded (void);
void test_app_attachments (void);
void test_app_history_retention (void);
void test_app_gone_while_away (void);

/* in-process-desktop.c */
void test_app_autostart (void);
void test_app_shortcuts_listed (void);
void test_app_tray_menu (void);
void test_app_answer_queued_not_waiting (void);

G_END_DECLS
