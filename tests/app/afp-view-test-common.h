/* afp-view-test-common.h — what test-afp-view and test-afp-view-drafts share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The AFP review view in a window of its own, on a review each test shows.
 */

#pragma once

#include "triage-afp-view-private.h"
#include "triage-store.h"
#include "widgets-test-util.h"

G_BEGIN_DECLS

typedef struct
{
  TriageAfpView   *view;
  GtkWidget       *window;
  AtpNotification *notification;
  SubmitRecord     record;
} Fixture;

void         afp_view_test_setup        (Fixture       *fixture,
                                         gconstpointer  data);
void         afp_view_test_teardown     (Fixture       *fixture,
                                         gconstpointer  data);
/* Shows @review as a request of its own (a new id) titled "Dark Mode Spec". */
void         afp_view_test_show_review  (Fixture       *fixture,
                                         AtpAfpReview  *review);
/* Shows iteration @iteration of seed 004's session. */
void         afp_view_test_show_seed    (Fixture       *fixture,
                                         int            iteration);
void         afp_view_test_type         (GtkEditable   *editable,
                                         const char    *text);
/* The editor's entry @index, in reading order. */
GtkEditable *afp_view_test_nth_entry    (Fixture       *fixture,
                                         guint          index);
/* Chooses the confidence level labelled @mnemonic ("Lo_w"). */
void         afp_view_test_choose_level (Fixture       *fixture,
                                         const char    *mnemonic);
/* A store of its own, open, in a new folder (*dir). */
TriageStore *afp_view_test_open_store   (char         **dir);
/* The view lets go of @store, which must then go, and @dir with it (freed). */
void         afp_view_test_close_store  (Fixture       *fixture,
                                         TriageStore   *store,
                                         char          *dir);

#define AFP_VIEW_TEST_ADD(name, func) \
  g_test_add ("/afp-view/" name, Fixture, NULL, afp_view_test_setup, func, afp_view_test_teardown)

G_END_DECLS
