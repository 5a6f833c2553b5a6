/* decision-view-test-common.c — what the parts of test-decision-view share
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "decision-view-test-common.h"

#define GRACE 200

const char decision_view_test_deploy_context[] =
  "{\"title\": \"Deploy <b>2.1.0</b> & more?\","
  " \"description\": \"Ships <b>bold</b> & <i>italic</i> changes &amp; fixes.\","
  " \"project\": \"backend-api\","
  " \"metadata\": {\"version\": \"2.1.0\", \"changes\": 47, \"ok\": true,"
  "                \"regions\": [\"eu\", \"us\"], \"owner\": {\"team\": \"<platform>\"}},"
  " \"attachments\": ["
  "   {\"type\": \"text/plain\", \"description\": \"Release notes\", \"data\": \"aGVsbG8=\"},"
  "   {\"type\": \"image/png\", \"uri\": \"https://grafana.example.com/d/1.png\"}]}";

const char decision_view_test_all_actions[] =
  "["
  "{\"id\": \"approve\", \"label\": \"Approve\", \"response_type\": \"simple\", \"flags\": [\"irreversible\"]},"
  "{\"id\": \"delete\", \"label\": \"Delete branch\", \"response_type\": \"simple\", \"flags\": [\"destructive\"]},"
  "{\"id\": \"confirm\", \"label\": \"Rotate keys\", \"response_type\": \"simple\", \"flags\": [\"requires_confirmation\"]},"
  "{\"id\": \"later\", \"label\": \"Later\", \"response_type\": \"simple\","
  " \"flags\": [\"time_sensitive\", \"affects_others\", \"costly\", \"experimental\", \"custom_flag\"]},"
  "{\"id\": \"logs\", \"label\": \"Include logs?\", \"response_type\": \"binary\","
  " \"options\": {\"true_label\": \"Yes\", \"false_label\": \"No\"}, \"flags\": [\"destructive\"]},"
  "{\"id\": \"why\", \"label\": \"Reject with a reason\", \"response_type\": \"text\","
  " \"constraints\": {\"min_length\": 3}}"
  "]";

/* One action of each type that holds what the person enters. */
const char decision_view_test_draft_actions[] =
  "["
  "{\"id\": \"why\", \"label\": \"Reason\", \"response_type\": \"text\", \"constraints\": {\"min_length\": 3}},"
  "{\"id\": \"n\", \"label\": \"Replicas\", \"response_type\": \"number\", \"constraints\": {\"min\": 1, \"max\": 9}},"
  "{\"id\": \"env\", \"label\": \"Where\", \"response_type\": \"choice\","
  " \"options\": [{\"value\": \"eu\", \"label\": \"EU\"}, {\"value\": \"us\", \"label\": \"US\"}]},"
  "{\"id\": \"checks\", \"label\": \"Checks\", \"response_type\": \"multi_choice\","
  " \"options\": [{\"value\": \"a\", \"label\": \"A\"}, {\"value\": \"b\", \"label\": \"B\"}]},"
  "{\"id\": \"risk\", \"label\": \"Risk\", \"response_type\": \"scale\", \"constraints\": {\"min\": 1, \"max\": 5}}"
  "]";

static void
on_attachment_activated (TriageDecisionView *view,
                         guint               index,
                         Fixture            *fixture)
{
  fixture->attachment_count++;
  fixture->attachment_index = index;
}

void
decision_view_test_setup (Fixture       *fixture,
                          gconstpointer  data)
{
  fixture->view = TRIAGE_DECISION_VIEW (triage_decision_view_new ());
  triage_decision_view_set_confirm_grace_period (fixture->view, GRACE);
  g_signal_connect (fixture->view, "submit", G_CALLBACK (widgets_test_on_view_submit_record),
                    &fixture->record);
  g_signal_connect (fixture->view, "attachment-activated", G_CALLBACK (on_attachment_activated), fixture);
  fixture->window = widgets_test_window (GTK_WIDGET (fixture->view), 600, 800);
}

void
decision_view_test_teardown (Fixture       *fixture,
                             gconstpointer  data)
{
  widgets_test_view_teardown (fixture->window, &fixture->view, &fixture->notification,
                              &fixture->record);
}

GtkWidget *
decision_view_test_part (Fixture    *fixture,
                         const char *name)
{
  GObject *object = gtk_widget_get_template_child (GTK_WIDGET (fixture->view),
                                                   TRIAGE_TYPE_DECISION_VIEW, name);

  g_assert_nonnull (object);
  return GTK_WIDGET (object);
}

void
decision_view_test_show (Fixture    *fixture,
                         const char *actions,
                         const char *context,
                         double      deadline_in)
{
  g_autofree char *id = atp_new_uuid ();

  /* A new request each time (the same id would be the same request). */
  g_clear_pointer (&fixture->notification, atp_notification_unref);
  fixture->notification = widgets_test_notification_with_id (id, actions, context, deadline_in);
  triage_decision_view_set_notification (fixture->view, fixture->notification);
  widgets_test_pump ();
}

TriageResponseEditor *
decision_view_test_editor (Fixture    *fixture,
                           const char *action_id)
{
  GtkWidget *widget = triage_decision_view_get_editor (fixture->view, action_id);

  g_assert_nonnull (widget);
  return TRIAGE_RESPONSE_EDITOR (widget);
}

/* The button that gives the action's answer: a binary's true button, else
 * the one that sends. */
GtkWidget *
decision_view_test_answer_button (Fixture    *fixture,
                                  const char *action_id)
{
  TriageResponseEditor *e = decision_view_test_editor (fixture, action_id);
  GtkWidget *button = triage_response_editor_get_submit_button (e);

  return button != NULL ? button : triage_response_editor_get_true_button (e);
}

void
decision_view_test_press (Fixture    *fixture,
                          const char *action_id)
{
  g_signal_emit_by_name (decision_view_test_answer_button (fixture, action_id), "clicked");
  widgets_test_pump ();
}

void
decision_view_test_type_text (Fixture    *fixture,
                              const char *action_id,
                              const char *text)
{
  TriageResponseEditor *editor = decision_view_test_editor (fixture, action_id);
  GtkWidget *input = triage_response_editor_get_input (editor);

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (input)), text, -1);
}

char *
decision_view_test_typed_text (Fixture    *fixture,
                               const char *action_id)
{
  TriageResponseEditor *editor = decision_view_test_editor (fixture, action_id);
  GtkWidget *input = triage_response_editor_get_input (editor);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (input));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

TriageRequestBanner *
decision_view_test_banner (Fixture *fixture)
{
  return TRIAGE_REQUEST_BANNER (decision_view_test_part (fixture, "banner"));
}

gboolean
decision_view_test_banner_shown (Fixture *fixture)
{
  return triage_request_banner_get_shown (decision_view_test_banner (fixture));
}
