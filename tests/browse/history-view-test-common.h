/* history-view-test-common.h — what the parts of test-history-view share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A history view in a window of its own, on a real database: empty, or
 * N_ROWS generated requests.
 */

#pragma once

#include <adwaita.h>

#include "browse-test-common.h"
#include "triage-history-row.h"
#include "triage-history-view.h"

G_BEGIN_DECLS

#define N_ROWS 3000

typedef struct
{
  char              *dir;
  char              *path;
  TriageStore       *store;
  TriageHistoryDb   *db;
  GArray            *rows;
  GtkWidget         *window;
  TriageHistoryView *view;
} Fixture;

void              history_view_test_setup_empty    (Fixture       *f,
                                                    gconstpointer  data);
void              history_view_test_setup          (Fixture       *f,
                                                    gconstpointer  data);
void              history_view_test_teardown       (Fixture       *f,
                                                    gconstpointer  data);
/* How many entries the view shows, once loaded. */
guint             history_view_test_n_shown        (Fixture       *f);
/* The entry at @position is read and has that title (asking reads its page). */
gboolean          history_view_test_title_is       (GListModel    *model,
                                                    guint          position,
                                                    const char    *title);
/* The first @type below @widget; list views must be the history's own
 * (drop-downs have list views in their popovers). */
GtkWidget        *history_view_test_find_widget    (GtkWidget     *widget,
                                                    GType          type);
/* A row that shows a read entry (not a placeholder for one). */
TriageHistoryRow *history_view_test_first_row_read (Fixture       *f);
/* Stores @n decisions newer than every other, "Newer @from" and on (the
 * view is not told). */
void              history_view_test_store_newer    (Fixture       *f,
                                                    guint          from,
                                                    guint          n);

/* test-history-view-keys.c adds its tests; main() calls it among its own, so
 * the test paths and their order stay as they were in one file. */
void history_view_test_add_keys (void);

G_END_DECLS
