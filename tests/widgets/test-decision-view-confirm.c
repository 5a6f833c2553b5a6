/* test-decision-view-confirm.c — test-decision-view's confirmations: which
 * actions ask, a binary's false answer, cancelling, the grace before a confirm
 * counts, a dialog dropped when the request settles
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "decision-view-test-common.h"

void
decision_view_test_confirm_only_flagged (Fixture       *fixture,
                                         gconstpointer  data)
{
  struct { const char *action; gboolean confirm; const char *json; } cases[] = {
    { "approve", TRUE, "null" },  /* irreversible */
    { "delete", TRUE, "null" },   /* destructive */
    { "confirm", TRUE, "null" },  /* requires_confirmation */
    { "logs", TRUE, "true" },     /* destructive, binary */
    { "later", FALSE, "null" },   /* the other four flags and an unknown one */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      TriageConfirmDialog *dialog;

      decision_view_test_show (fixture, decision_view_test_all_actions, NULL, 0);
      widgets_test_submit_record_clear (&fixture->record);
      decision_view_test_press (fixture, cases[i].action);

      dialog = triage_decision_view_get_confirm_dialog (fixture->view);
      if (!cases[i].confirm)
        {
          g_assert_null (dialog);
          g_assert_cmpuint (fixture->record.count, ==, 1);
          g_assert_cmpstr (fixture->record.action_id, ==, cases[i].action);
          g_assert_cmpstr (fixture->record.json, ==, cases[i].json);
          continue;
        }

      g_assert_nonnull (dialog);
      g_assert_cmpuint (fixture->record.count, ==, 0);
      g_assert_cmpstr (adw_message_dialog_get_default_response (ADW_MESSAGE_DIALOG (dialog)), ==,
                       TRIAGE_CONFIRM_RESPONSE_CANCEL);
      WAIT_UNTIL (triage_confirm_dialog_get_armed (dialog));
      adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), TRIAGE_CONFIRM_RESPONSE_CONFIRM);
      widgets_test_pump ();

      g_assert_null (triage_decision_view_get_confirm_dialog (fixture->view));
      g_assert_cmpuint (fixture->record.count, ==, 1);
      g_assert_cmpstr (fixture->record.action_id, ==, cases[i].action);
      g_assert_cmpstr (fixture->record.json, ==, cases[i].json);
    }
}

/* A binary action's flags are the question's, whichever the answer: its
 * false button (No of "Include logs?", flagged destructive) is confirmed
 * too, and, since either answer may be the one that destroys, both buttons
 * are red, as the dialog of either is. */
void
decision_view_test_confirm_binary_false (Fixture       *fixture,
                                         gconstpointer  data)
{
  TriageResponseEditor *logs;
  TriageConfirmDialog *dialog;

  decision_view_test_show (fixture, decision_view_test_all_actions, NULL, 0);
  logs = decision_view_test_editor (fixture, "logs");
  g_assert_true (gtk_widget_has_css_class (triage_response_editor_get_true_button (logs),
                                           "destructive-action"));
  g_assert_true (gtk_widget_has_css_class (triage_response_editor_get_false_button (logs),
                                           "destructive-action"));

  widgets_test_submit_record_clear (&fixture->record);
  g_signal_emit_by_name (triage_response_editor_get_false_button (logs), "clicked");
  widgets_test_pump ();

  dialog = triage_decision_view_get_confirm_dialog (fixture->view);
  g_assert_nonnull (dialog);
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (dialog)), ==, "Include logs?");
  g_assert_cmpstr (adw_message_dialog_get_response_label (ADW_MESSAGE_DIALOG (dialog),
                                                          TRIAGE_CONFIRM_RESPONSE_CONFIRM), ==, "No");
  g_assert_cmpint (adw_message_dialog_get_response_appearance (ADW_MESSAGE_DIALOG (dialog),
                                                               TRIAGE_CONFIRM_RESPONSE_CONFIRM),
                   ==, ADW_RESPONSE_DESTRUCTIVE);
  g_assert_cmpuint (fixture->record.count, ==, 0);
  WAIT_UNTIL (triage_confirm_dialog_get_armed (dialog));
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), TRIAGE_CONFIRM_RESPONSE_CONFIRM);
  widgets_test_pump ();

  g_assert_null (triage_decision_view_get_confirm_dialog (fixture->view));
  g_assert_cmpuint (fixture->record.count, ==, 1);
  g_assert_cmpstr (fixture->record.action_id, ==, "logs");
  g_assert_cmpstr (fixture->record.json, ==, "false");
}

void
decision_view_test_confirm_cancel (Fixture       *fixture,
                                   gconstpointer  data)
{
  TriageConfirmDialog *dialog;

  decision_view_test_show (fixture, decision_view_test_all_actions, NULL, 0);
  decision_view_test_press (fixture, "delete");
  dialog = triage_decision_view_get_confirm_dialog (fixture->view);
  g_assert_nonnull (dialog);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (fixture->window));

  /* Escape. */
  gtk_widget_activate_action (GTK_WIDGET (dialog), "window.close", NULL);
  WAIT_UNTIL (triage_decision_view_get_confirm_dialog (fixture->view) == NULL);
  g_assert_cmpuint (fixture->record.count, ==, 0);
  g_assert_false (triage_decision_view_get_read_only (fixture->view));

  /* Asked again, then Cancel. */
  decision_view_test_press (fixture, "delete");
  dialog = triage_decision_view_get_confirm_dialog (fixture->view);
  g_assert_nonnull (dialog);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), TRIAGE_CONFIRM_RESPONSE_CANCEL);
  WAIT_UNTIL (triage_decision_view_get_confirm_dialog (fixture->view) == NULL);
  g_assert_cmpuint (fixture->record.count, ==, 0);
}

void
decision_view_test_confirm_grace (Fixture       *fixture,
                                  gconstpointer  data)
{
  TriageConfirmDialog *dialog;

  /* Longer than the fixture's: on a loaded machine a frame between the
   * dialog's map and the check below can take a few hundred milliseconds. */
  triage_decision_view_set_confirm_grace_period (fixture->view, 3000);
  decision_view_test_show (fixture, decision_view_test_all_actions, NULL, 0);
  decision_view_test_press (fixture, "approve");
  dialog = triage_decision_view_get_confirm_dialog (fixture->view);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (dialog)));

  /* An early confirm (the Enter still held from elsewhere) does nothing. */
  g_assert_false (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog),
                                                           TRIAGE_CONFIRM_RESPONSE_CONFIRM));
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), TRIAGE_CONFIRM_RESPONSE_CONFIRM);
  widgets_test_pump ();
  g_assert_cmpuint (fixture->record.count, ==, 0);
  g_assert_true (triage_decision_view_get_confirm_dialog (fixture->view) == dialog);

  WAIT_UNTIL (triage_confirm_dialog_get_armed (dialog));
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), TRIAGE_CONFIRM_RESPONSE_CONFIRM);
  widgets_test_pump ();
  g_assert_cmpuint (fixture->record.count, ==, 1);
}

void
decision_view_test_confirm_dropped_when_settled (Fixture       *fixture,
                                                 gconstpointer  data)
{
  TriageConfirmDialog *dialog;

  decision_view_test_show (fixture, decision_view_test_all_actions, NULL, 0);
  decision_view_test_press (fixture, "delete");
  dialog = triage_decision_view_get_confirm_dialog (fixture->view);
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);

  /* Answered elsewhere while the person hesitates: the dialog goes, nothing is sent. */
  triage_decision_view_set_status (fixture->view, ATP_STATUS_RESPONDED, NULL, NULL, NULL);
  WAIT_UNTIL (dialog == NULL);
  g_assert_null (triage_decision_view_get_confirm_dialog (fixture->view));
  g_assert_cmpuint (fixture->record.count, ==, 0);
}
