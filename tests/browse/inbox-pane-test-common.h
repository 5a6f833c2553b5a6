/* inbox-pane-test-common.h — what the parts of test-inbox-pane share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An inbox pane in a window of its own, on a model the test fills.
 */

#pragma once

#include <adwaita.h>

#include "browse-test-common.h"
#include "triage-inbox-model.h"
#include "triage-inbox-pane.h"

G_BEGIN_DECLS

typedef struct
{
  TriageInboxModel *model;
  GtkWidget        *window;
  TriageInboxPane  *pane;
  GPtrArray        *activated;   /* TriageRequest*, in order */
  guint             counter;
  gint64            now;         /* one "now" for every request of a test */
} Fixture;

void           inbox_pane_test_setup          (Fixture       *f,
                                               gconstpointer  data);
void           inbox_pane_test_teardown       (Fixture       *f,
                                               gconstpointer  data);
/* Adds a request: a deadline @deadline_min minutes from now (0: none),
 * sent @age_min minutes ago. Returns its id (owned by the model). */
const char    *inbox_pane_test_add_request    (Fixture    *f,
                                               const char *service,
                                               const char *project,
                                               const char *title,
                                               const char *description,
                                               int         deadline_min,
                                               int         age_min);
void           inbox_pane_test_remove_request (Fixture    *f,
                                               const char *id);
/* Waits until the pane has filtered, then lets it draw. */
void           inbox_pane_test_settle         (Fixture *f);
guint          inbox_pane_test_n_visible      (Fixture *f);
TriageRequest *inbox_pane_test_visible_at     (Fixture *f,
                                               guint    position);
/* The first @type below @widget (with that label, for labels); list views
 * must be the pane's own (drop-downs have list views in their popovers). */
GtkWidget     *inbox_pane_test_find_widget    (GtkWidget  *widget,
                                               GType       type,
                                               const char *label);

#define INBOX_PANE_TEST_ADD(path, func) \
  g_test_add (path, Fixture, NULL, inbox_pane_test_setup, func, inbox_pane_test_teardown)

/* test-inbox-pane-search.c adds its tests; main() calls it among its own, so
 * the test paths and their order stay as they were in one file. */
void inbox_pane_test_add_search (void);

G_END_DECLS
