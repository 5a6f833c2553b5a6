/* editor-test-fixture.h — one action's editor in a window of its own, the
 * fixture of test-response-editor and test-editor-a11y
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-response-editor-private.h"
#include "widgets-test-util.h"

typedef struct
{
  AtpNotification      *notification;
  TriageResponseEditor *editor;
  GtkWidget            *window;
  SubmitRecord          record;    /* what the editor submitted */
} Fixture;

static inline void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
}

static inline void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  if (fixture->window != NULL)
    widgets_test_window_destroy (fixture->window, &fixture->editor);
  g_clear_pointer (&fixture->notification, atp_notification_unref);
  widgets_test_submit_record_clear (&fixture->record);
}

/* The editor of @action_json, a request's only action, shown 480 × 400. */
static inline TriageResponseEditor *
editor_for (Fixture    *fixture,
            const char *action_json)
{
  g_autofree char *actions = g_strdup_printf ("[%s]", action_json);
  const AtpAction *action;

  fixture->notification = widgets_test_notification (actions, NULL, 0);
  action = g_ptr_array_index (fixture->notification->actions, 0);
  fixture->editor = TRIAGE_RESPONSE_EDITOR (triage_response_editor_new (fixture->notification, action->id));
  g_signal_connect (fixture->editor, "submit", G_CALLBACK (widgets_test_on_editor_submit_record),
                    &fixture->record);
  fixture->window = widgets_test_window (GTK_WIDGET (fixture->editor), 480, 400);

  return fixture->editor;
}

static inline void
assert_invalid (TriageResponseEditor *editor,
                const char           *reason)
{
  GtkWidget *submit = triage_response_editor_get_submit_button (editor);

  g_assert_false (triage_response_editor_get_valid (editor));
  g_assert_cmpstr (triage_response_editor_get_reason (editor), ==, reason);
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (triage_response_editor_get_reason_label (editor))), ==, reason);
  g_assert_false (gtk_widget_get_sensitive (submit));
  g_assert_false (triage_response_editor_submit (editor));
}

static inline void
assert_valid (TriageResponseEditor *editor)
{
  g_assert_true (triage_response_editor_get_valid (editor));
  g_assert_null (triage_response_editor_get_reason (editor));
  g_assert_true (gtk_widget_get_sensitive (triage_response_editor_get_submit_button (editor)));
}

/* Presses the send button and checks what ::submit carried. */
static inline void
assert_sends (Fixture    *fixture,
              const char *expected_json)
{
  guint before = fixture->record.count;

  g_signal_emit_by_name (triage_response_editor_get_submit_button (fixture->editor), "clicked");
  g_assert_cmpuint (fixture->record.count, ==, before + 1);
  g_assert_cmpstr (fixture->record.json, ==, expected_json);
}
