/* decision-view-test-common.h — what the parts of test-decision-view share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The decision view in a window of its own, on a request each test shows.
 */

#pragma once

#include "triage-decision-view-private.h"
#include "triage-response-editor-private.h"
#include "widgets-test-util.h"

G_BEGIN_DECLS

typedef struct
{
  AtpNotification    *notification;
  TriageDecisionView *view;
  GtkWidget          *window;
  SubmitRecord        record;
  guint               attachment_index;
  guint               attachment_count;
} Fixture;

/* A request's context: markup to show as text, metadata and two attachments. */
extern const char decision_view_test_deploy_context[];
/* Every flag and three response types. */
extern const char decision_view_test_all_actions[];
/* One action of each type that holds what the person enters. */
extern const char decision_view_test_draft_actions[];

void                  decision_view_test_setup         (Fixture       *fixture,
                                                        gconstpointer  data);
void                  decision_view_test_teardown      (Fixture       *fixture,
                                                        gconstpointer  data);
GtkWidget            *decision_view_test_part          (Fixture    *fixture,
                                                        const char *name);
void                  decision_view_test_show          (Fixture    *fixture,
                                                        const char *actions,
                                                        const char *context,
                                                        double      deadline_in);
TriageResponseEditor *decision_view_test_editor        (Fixture    *fixture,
                                                        const char *action_id);
GtkWidget            *decision_view_test_answer_button (Fixture    *fixture,
                                                        const char *action_id);
void                  decision_view_test_press         (Fixture    *fixture,
                                                        const char *action_id);
void                  decision_view_test_type_text     (Fixture    *fixture,
                                                        const char *action_id,
                                                        const char *text);
char                 *decision_view_test_typed_text    (Fixture    *fixture,
                                                        const char *action_id);
TriageRequestBanner  *decision_view_test_banner        (Fixture *fixture);
gboolean              decision_view_test_banner_shown  (Fixture *fixture);

#define DECISION_VIEW_TEST_ADD(path, func) \
  g_test_add ("/decision-view/" path, Fixture, NULL, decision_view_test_setup, func, \
              decision_view_test_teardown)

/* The parts' tests; main () adds them among its own, so the test paths and
 * their order stay as they were in one file. */

/* test-decision-view-confirm.c */
void decision_view_test_confirm_only_flagged         (Fixture       *fixture,
                                                      gconstpointer  data);
void decision_view_test_confirm_binary_false         (Fixture       *fixture,
                                                      gconstpointer  data);
void decision_view_test_confirm_cancel               (Fixture       *fixture,
                                                      gconstpointer  data);
void decision_view_test_confirm_grace                (Fixture       *fixture,
                                                      gconstpointer  data);
void decision_view_test_confirm_dropped_when_settled (Fixture       *fixture,
                                                      gconstpointer  data);

/* test-decision-view-delivery.c */
void decision_view_test_read_only_keeps_text     (Fixture       *fixture,
                                                  gconstpointer  data);
void decision_view_test_delivery                 (Fixture       *fixture,
                                                  gconstpointer  data);
void decision_view_test_answer_error             (Fixture       *fixture,
                                                  gconstpointer  data);
void decision_view_test_same_request_keeps_input (Fixture       *fixture,
                                                  gconstpointer  data);
void decision_view_test_show_error               (Fixture       *fixture,
                                                  gconstpointer  data);
void decision_view_test_draft_kept               (Fixture       *fixture,
                                                  gconstpointer  data);
void decision_view_test_banner_hostile_text      (Fixture       *fixture,
                                                  gconstpointer  data);

G_END_DECLS
