/* widgets-test-util.h — fixtures shared by the widget tests
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "atp.h"

G_BEGIN_DECLS

/* Polls @condition, waking up at least every 10 ms, for at most 15 s. */
#define WAIT_UNTIL(condition) \
  G_STMT_START { \
    guint _watchdog = g_timeout_add_seconds (15, widgets_test_watchdog_cb, (gpointer) #condition); \
    guint _tick = g_timeout_add (10, widgets_test_tick_cb, NULL); \
    while (!(condition)) \
      g_main_context_iteration (NULL, TRUE); \
    g_source_remove (_tick); \
    g_source_remove (_watchdog); \
  } G_STMT_END

gboolean         widgets_test_watchdog_cb     (gpointer     data);
gboolean         widgets_test_tick_cb         (gpointer     data);

void             widgets_test_init            (int         *argc,
                                               char      ***argv);
void             widgets_test_pump            (void);
void             widgets_test_wait_ms         (guint        msec);

/* A valid notification with these actions (a JSON array) and context; the
 * deadline is @deadline_in seconds from now (0: none). */
AtpNotification *widgets_test_notification    (const char  *actions_json,
                                               const char  *context_json,
                                               double       deadline_in);
AtpNotification *widgets_test_notification_with_id (const char *id,
                                                    const char *actions_json,
                                                    const char *context_json,
                                                    double      deadline_in);

/* A window showing @child, presented. */
GtkWidget       *widgets_test_window          (GtkWidget   *child,
                                               int          width,
                                               int          height);
/* Destroys @window and waits until the widget it showed, at @child_location
 * (a GtkWidget **), is finalized: NULL there. */
void             widgets_test_window_destroy  (GtkWidget   *window,
                                               gpointer     child_location);
/* Makes @window, shown, the active one, as a person choosing it does;
 * returns once it has been (another test's window may have taken the
 * focus since). */
void             widgets_test_window_activate (GtkWidget   *window);
/* Leaves @window, active, for another one, as a person does: a window
 * over it takes the focus. Returns when @window is no longer active; the
 * other window is for widgets_test_window_return (). */
GtkWidget       *widgets_test_window_leave    (GtkWidget   *window);
/* Back to @window: @other, from widgets_test_window_leave (), destroyed,
 * and @window made active again (widgets_test_window_activate ()). */
void             widgets_test_window_return   (GtkWidget   *window,
                                               GtkWidget   *other);

char            *widgets_test_json            (JsonNode    *node);
GtkWidget       *widgets_test_find_descendant (GtkWidget   *widget,
                                               GType        type);
guint            widgets_test_count_descendants (GtkWidget *widget,
                                                 GType      type);
glong            widgets_test_longest_label   (GtkWidget   *widget);

/* Records ::submit of a view (action id, JSON) or an editor (JSON). */
typedef struct
{
  guint  count;
  char  *action_id;
  char  *json;
} SubmitRecord;

void widgets_test_submit_record_clear     (SubmitRecord *record);
void widgets_test_on_view_submit_record   (GtkWidget    *view,
                                           const char   *action_id,
                                           JsonNode     *response_data,
                                           SubmitRecord *record);
void widgets_test_on_editor_submit_record (GtkWidget    *editor,
                                           JsonNode     *response_data,
                                           SubmitRecord *record);

/* The end of a fixture that shows a request in a view of its own window:
 * the window destroyed and the view at @view_location finalized
 * (widgets_test_window_destroy ()), what was pending run, then the request
 * at @notification and what @record holds dropped. */
void widgets_test_view_teardown (GtkWidget        *window,
                                 gpointer          view_location,
                                 AtpNotification **notification,
                                 SubmitRecord     *record);

G_END_DECLS
