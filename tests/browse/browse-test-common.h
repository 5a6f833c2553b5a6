/* browse-test-common.h — helpers shared by the inbox and history tests
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "atp.h"
#include "triage-history-db.h"
#include "triage-store.h"

G_BEGIN_DECLS

/* Every wait is bounded: a hang fails the test, it never stalls the suite. */
#define BROWSE_TEST_WAIT_MS 15000

gboolean browse_test_timeout_cb (gpointer data);

#define browse_test_wait_for(cond) \
  G_STMT_START { \
    gboolean _timed_out = FALSE; \
    guint _id = g_timeout_add (BROWSE_TEST_WAIT_MS, browse_test_timeout_cb, &_timed_out); \
    guint _tick = g_timeout_add (10, browse_test_tick_cb, NULL); \
    while (!(cond) && !_timed_out) \
      g_main_context_iteration (NULL, TRUE); \
    g_source_remove (_tick); \
    if (!_timed_out) \
      g_source_remove (_id); \
    if (!(cond)) \
      g_error ("%s:%d: timed out waiting for %s", __FILE__, __LINE__, #cond); \
  } G_STMT_END

gboolean browse_test_tick_cb (gpointer data);
void     browse_test_result_cb (GObject      *object,
                                GAsyncResult *result,
                                gpointer      user_data);
void     browse_test_rm_rf (const char *path);

/* The inbox pane's or the history view's own stack: the one with a "no-results" page. */
GtkWidget *browse_test_find_page_stack (GtkWidget *widget);
/* Asserts a drop-down's @choices (freed here) are @expected, in order. */
void     browse_test_assert_choices (GStrv        choices,
                                     const char **expected);
void     browse_test_pump (void);

/* A fixed instant: 2026-03-02T00:00:00Z (a Monday), Unix microseconds. */
#define BROWSE_TEST_BASE_USEC G_GINT64_CONSTANT (1772409600000000)

/* The chart's summary of the generated history (10 minutes apart, in UTC)
 * from 2026-03-02 to 2026-03-04, every service. */
#define BROWSE_TEST_SUMMARY_MARCH_2_TO_4 \
  "From 2026-03-02 to 2026-03-04, all services: 432 requests. " \
  "72 answered here. 72 answered elsewhere. 72 expired. 72 withdrawn. " \
  "72 refused by the server. 72 pending. Median response time: 40 s. " \
  "CI: 87 requests, median response time 40 s. " \
  "Deploy bot: 87 requests, median response time 40 s. " \
  "Café agent: 86 requests, median response time 40 s. " \
  "Data pipeline: 86 requests, median response time 40 s. " \
  "Reviewer: 86 requests, median response time 40 s."

/* The generated history: row i (rowid i + 1, inserted in order). */
typedef struct
{
  gint64         rowid;
  char          *id;
  const char    *service;
  const char    *project;      /* NULL for none */
  TriageOutcome  outcome;      /* effective */
  gint64         created_at;
  gint64         answered_at;  /* 0 if none */
} BrowseTestRow;

extern const char *browse_test_services[5];
extern const char *browse_test_projects[4];

TriageStore      *browse_test_open_store      (const char     *path);
void              browse_test_close_store     (TriageStore   **store);
TriageHistoryDb  *browse_test_open_history    (const char     *path);
void              browse_test_finalize        (gpointer        object);
GArray           *browse_test_generate        (const char     *path,
                                               guint           n,
                                               gint64          base_usec,
                                               gint64          step_usec);
void              browse_test_rows_free       (GArray         *rows);
AtpNotification  *browse_test_notification    (const char     *id,
                                               const char     *service,
                                               const char     *project,
                                               const char     *title,
                                               const char     *description,
                                               gint64          created_at,
                                               gint64          deadline);
void              browse_test_save            (TriageStore    *store,
                                               AtpNotification *notification);
void              browse_test_answer          (TriageStore    *store,
                                               const char     *id,
                                               const char     *action_id,
                                               const char     *response_json,
                                               gint64          answered_at);
void              browse_test_set_outcome     (TriageStore    *store,
                                               const char     *id,
                                               AtpStatus       status,
                                               TriageOutcome   outcome);

G_END_DECLS
