/* test-confirm-dialog.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The confirmation before a destructive, irreversible or
 * requires_confirmation answer (suite 'ui'): what it says, Cancel as the
 * default and Escape, and the grace period during which nothing confirms it.
 */

#define G_LOG_DOMAIN "test-confirm-dialog"

#include <string.h>

#include "triage-confirm-dialog.h"
#include "triage-atp-format.h"
#include "widgets-test-util.h"

#define GRACE 300

typedef struct
{
  AtpNotification     *notification;
  GtkWidget           *window;
  TriageConfirmDialog *dialog;
  gboolean             finished;
  gboolean             confirmed;
  GError              *error;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  fixture->notification =
    widgets_test_notification ("["
                               "{\"id\": \"drop\", \"label\": \"Drop the staging database\", \"response_type\": \"simple\","
                               " \"flags\": [\"destructive\", \"irreversible\", \"requires_confirmation\", \"costly\", \"odd_flag\"]},"
                               "{\"id\": \"env\", \"label\": \"Pick <b>one</b>\", \"response_type\": \"choice\","
                               " \"options\": [{\"value\": \"p\", \"label\": \"Production & co\"}], \"flags\": [\"irreversible\"]},"
                               "{\"id\": \"yes\", \"label\": \"Purge_cache?\", \"response_type\": \"binary\","
                               " \"options\": {\"true_label\": \"Purge_it\", \"false_label\": \"Keep\"}, \"flags\": [\"destructive\"]},"
                               "{\"id\": \"go\", \"label\": \"Go \\u202eahead\", \"response_type\": \"simple\","
                               " \"flags\": [\"requires_confirmation\"]},"
                               "{\"id\": \"wipe\", \"label\": \"Wipe disk\", \"response_type\": \"binary\","
                               " \"options\": {\"true_label\": \"Wipe\", \"false_label\": \"Keep\"},"
                               " \"flags\": [\"destructive\", \"irreversible\", \"requires_confirmation\"]},"
                               "{\"id\": \"backups\", \"label\": \"Keep the backups?\", \"response_type\": \"binary\","
                               " \"options\": {\"true_label\": \"Keep\", \"false_label\": \"Delete\"}, \"flags\": [\"destructive\"]}"
                               "]", NULL, 0);
  fixture->window = widgets_test_window (gtk_label_new ("parent"), 400, 300);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  if (fixture->dialog != NULL)
    g_object_remove_weak_pointer (G_OBJECT (fixture->dialog), (gpointer *) &fixture->dialog);
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  widgets_test_pump ();
  g_clear_pointer (&fixture->notification, atp_notification_unref);
  g_clear_error (&fixture->error);
}

static void
run_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  Fixture *fixture = user_data;

  fixture->confirmed = triage_confirm_dialog_run_finish (TRIAGE_CONFIRM_DIALOG (object), result,
                                                         &fixture->error);
  fixture->finished = TRUE;
}

static TriageConfirmDialog *
run_dialog (Fixture      *fixture,
            const char   *action_id,
            const char   *answer,
            GCancellable *cancellable)
{
  g_autoptr(JsonNode) data = atp_json_parse (answer, -1, 0, NULL);
  const AtpAction *action = atp_notification_find_action (fixture->notification, action_id);

  fixture->dialog = triage_confirm_dialog_new (GTK_WINDOW (fixture->window), "Deploy Bot", action, data);
  g_object_add_weak_pointer (G_OBJECT (fixture->dialog), (gpointer *) &fixture->dialog);
  triage_confirm_dialog_set_grace_period (fixture->dialog, GRACE);
  triage_confirm_dialog_run_async (fixture->dialog, cancellable, run_cb, fixture);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (fixture->dialog)));

  return fixture->dialog;
}

static void
test_wording (Fixture       *fixture,
              gconstpointer  data)
{
  AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG (run_dialog (fixture, "drop", "null", NULL));
  const char *body = adw_message_dialog_get_body (dialog);

  /* It names the action, the service, and says one sentence per flag. */
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Drop the staging database?");
  g_assert_true (g_str_has_prefix (body, "“Drop the staging database” will be sent to Deploy Bot."));
  g_assert_nonnull (strstr (body, "\nIt deletes, removes or significantly changes existing data."));
  g_assert_nonnull (strstr (body, "\nIt cannot be undone."));
  g_assert_nonnull (strstr (body, "\nThe service asks you to confirm it explicitly."));
  g_assert_nonnull (strstr (body, "\nIt uses significant resources or costs money."));
  g_assert_nonnull (strstr (body, "\nThe service marks it as “Odd flag”."));
  g_assert_false (adw_message_dialog_get_heading_use_markup (dialog));
  g_assert_false (adw_message_dialog_get_body_use_markup (dialog));
  g_assert_true (gtk_window_get_modal (GTK_WINDOW (dialog)));
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (fixture->window));

  /* The confirm button is the action, destructive, and never the default. */
  g_assert_cmpstr (adw_message_dialog_get_response_label (dialog, TRIAGE_CONFIRM_RESPONSE_CONFIRM),
                   ==, "Drop the staging database");
  g_assert_cmpint (adw_message_dialog_get_response_appearance (dialog, TRIAGE_CONFIRM_RESPONSE_CONFIRM),
                   ==, ADW_RESPONSE_DESTRUCTIVE);
  g_assert_cmpstr (adw_message_dialog_get_default_response (dialog), ==, TRIAGE_CONFIRM_RESPONSE_CANCEL);
  g_assert_cmpstr (adw_message_dialog_get_close_response (dialog), ==, TRIAGE_CONFIRM_RESPONSE_CANCEL);

  adw_message_dialog_response (dialog, TRIAGE_CONFIRM_RESPONSE_CANCEL);
  WAIT_UNTIL (fixture->finished);
  g_assert_false (fixture->confirmed);
  g_assert_no_error (fixture->error);
}

/* Red is for what destroys or cannot be undone (the HIG's destructive
 * style); an action that only asks to be confirmed gets the suggested one. */
static void
test_appearance (Fixture       *fixture,
                 gconstpointer  data)
{
  AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG (run_dialog (fixture, "go", "null", NULL));

  g_assert_cmpint (adw_message_dialog_get_response_appearance (dialog, TRIAGE_CONFIRM_RESPONSE_CONFIRM),
                   ==, ADW_RESPONSE_SUGGESTED);
  g_assert_cmpstr (adw_message_dialog_get_default_response (dialog), ==, TRIAGE_CONFIRM_RESPONSE_CANCEL);
  /* The agent's override is shown, not obeyed, in the heading, the body and the button. */
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Go \uFFFDahead?");
  g_assert_null (strstr (adw_message_dialog_get_body (dialog), "\u202e"));
  g_assert_cmpstr (adw_message_dialog_get_response_label (dialog, TRIAGE_CONFIRM_RESPONSE_CONFIRM),
                   ==, "Go \uFFFDahead");
  adw_message_dialog_response (dialog, TRIAGE_CONFIRM_RESPONSE_CANCEL);
  WAIT_UNTIL (fixture->finished);

  /* Irreversible alone is red too. */
  fixture->finished = FALSE;
  dialog = ADW_MESSAGE_DIALOG (run_dialog (fixture, "env", "\"p\"", NULL));
  g_assert_cmpint (adw_message_dialog_get_response_appearance (dialog, TRIAGE_CONFIRM_RESPONSE_CONFIRM),
                   ==, ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_response (dialog, TRIAGE_CONFIRM_RESPONSE_CANCEL);
  WAIT_UNTIL (fixture->finished);
}

static void
test_answer_and_markup (Fixture       *fixture,
                        gconstpointer  data)
{
  AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG (run_dialog (fixture, "env", "\"p\"", NULL));

  /* Untrusted text stays text; the answer is named by its label. */
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Pick <b>one</b>?");
  g_assert_true (g_str_has_prefix (adw_message_dialog_get_body (dialog),
                                   "Your answer to “Pick <b>one</b>” will be sent to Deploy Bot: Production & co"));
  adw_message_dialog_response (dialog, TRIAGE_CONFIRM_RESPONSE_CANCEL);
  WAIT_UNTIL (fixture->finished);
}

/* A right-to-left service name keeps the colon and the answer after it, in
 * the sentence's order: without a mark after it Pango drew them inside its run. */
static void
test_rtl_service (Fixture       *fixture,
                  gconstpointer  data)
{
  const AtpAction *action = atp_notification_find_action (fixture->notification, "env");
  g_autoptr(JsonNode) answer = atp_json_parse ("\"p\"", -1, 0, NULL);
  TriageConfirmDialog *dialog = triage_confirm_dialog_new (GTK_WINDOW (fixture->window),
                                                           "\u05d1\u05d5\u05d8", action, answer);

  g_assert_true (g_str_has_prefix (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)),
                                   "Your answer to “Pick <b>one</b>” will be sent to "
                                   "\u05d1\u05d5\u05d8\u200e: Production & co"));
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
test_binary_label (Fixture       *fixture,
                   gconstpointer  data)
{
  AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG (run_dialog (fixture, "yes", "true", NULL));

  /* The question in the heading, the chosen answer on the button; underscores are not
   * mnemonics. */
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Purge_cache?");
  g_assert_cmpstr (adw_message_dialog_get_response_label (dialog, TRIAGE_CONFIRM_RESPONSE_CONFIRM),
                   ==, "Purge__it");
  adw_message_dialog_response (dialog, TRIAGE_CONFIRM_RESPONSE_CANCEL);
  WAIT_UNTIL (fixture->finished);
}

/* A binary action's flags are the question's, whichever the answer: which
 * of the two destroys is the agent's to say ("Keep the backups?" makes
 * false, Delete, the one that deletes). Both answers are worded alike, the
 * heading the question, the button the answer's label and the flags named as
 * the question's, never "It deletes…" of the answer, and both are red. */
static void
test_binary_answers_alike (Fixture       *fixture,
                           gconstpointer  data)
{
  struct { const char *action, *answer, *button, *flags; } cases[] = {
    { "backups", "true", "Keep",
      "\n\nThe service flags “Keep the backups?”, whichever the answer:\nDestructive" },
    { "backups", "false", "Delete",
      "\n\nThe service flags “Keep the backups?”, whichever the answer:\nDestructive" },
    { "wipe", "true", "Wipe",
      "\n\nThe service flags “Wipe disk”, whichever the answer:\nDestructive\nIrreversible\n"
      "Needs confirmation" },
    { "wipe", "false", "Keep",
      "\n\nThe service flags “Wipe disk”, whichever the answer:\nDestructive\nIrreversible\n"
      "Needs confirmation" },
  };
  TriageFlagInfo destructive, irreversible;

  triage_flag_info_init (&destructive, "destructive");
  triage_flag_info_init (&irreversible, "irreversible");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      AdwMessageDialog *dialog;
      const char *body;

      fixture->finished = FALSE;
      dialog = ADW_MESSAGE_DIALOG (run_dialog (fixture, cases[i].action, cases[i].answer, NULL));
      body = adw_message_dialog_get_body (dialog);
      g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==,
                       g_str_equal (cases[i].action, "wipe") ? "Wipe disk?" : "Keep the backups?");
      g_assert_cmpstr (adw_message_dialog_get_response_label (dialog, TRIAGE_CONFIRM_RESPONSE_CONFIRM),
                       ==, cases[i].button);
      g_assert_true (g_str_has_suffix (body, cases[i].flags));
      g_assert_null (strstr (body, destructive.consequence));
      g_assert_null (strstr (body, irreversible.consequence));
      g_assert_cmpint (adw_message_dialog_get_response_appearance (dialog, TRIAGE_CONFIRM_RESPONSE_CONFIRM),
                       ==, ADW_RESPONSE_DESTRUCTIVE);
      adw_message_dialog_response (dialog, TRIAGE_CONFIRM_RESPONSE_CANCEL);
      WAIT_UNTIL (fixture->finished);
    }

  triage_flag_info_clear (&destructive);
  triage_flag_info_clear (&irreversible);
}

static void
test_grace_period (Fixture       *fixture,
                   gconstpointer  data)
{
  AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG (run_dialog (fixture, "drop", "null", NULL));
  gint64 shown = g_get_monotonic_time ();

  /* Just shown: disabled, and a confirm (a keystroke meant for something else) is ignored. */
  g_assert_false (triage_confirm_dialog_get_armed (fixture->dialog));
  g_assert_false (adw_message_dialog_get_response_enabled (dialog, TRIAGE_CONFIRM_RESPONSE_CONFIRM));
  adw_message_dialog_response (dialog, TRIAGE_CONFIRM_RESPONSE_CONFIRM);
  widgets_test_pump ();
  g_assert_false (fixture->finished);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog)));

  WAIT_UNTIL (triage_confirm_dialog_get_armed (fixture->dialog));
  g_assert_cmpint (g_get_monotonic_time () - shown, >=, (GRACE - 20) * 1000);
  g_assert_true (adw_message_dialog_get_response_enabled (dialog, TRIAGE_CONFIRM_RESPONSE_CONFIRM));

  adw_message_dialog_response (dialog, TRIAGE_CONFIRM_RESPONSE_CONFIRM);
  WAIT_UNTIL (fixture->finished);
  g_assert_true (fixture->confirmed);
  g_assert_no_error (fixture->error);
  /* The dialog is gone. */
  WAIT_UNTIL (fixture->dialog == NULL);
}

static void
test_escape_cancels (Fixture       *fixture,
                     gconstpointer  data)
{
  TriageConfirmDialog *dialog = run_dialog (fixture, "drop", "null", NULL);

  WAIT_UNTIL (triage_confirm_dialog_get_armed (dialog));
  /* Escape is bound to window.close, which gives the close response: Cancel. */
  gtk_widget_activate_action (GTK_WIDGET (dialog), "window.close", NULL);
  WAIT_UNTIL (fixture->finished);
  g_assert_false (fixture->confirmed);
  g_assert_no_error (fixture->error);
}

static void
test_cancellable (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();

  run_dialog (fixture, "drop", "null", cancellable);
  g_cancellable_cancel (cancellable);
  WAIT_UNTIL (fixture->finished);
  g_assert_false (fixture->confirmed);
  g_assert_error (fixture->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  WAIT_UNTIL (fixture->dialog == NULL);
}

static void
test_parent_destroyed (Fixture       *fixture,
                       gconstpointer  data)
{
  run_dialog (fixture, "drop", "null", NULL);

  /* The window it belongs to goes away: no answer, and nothing left behind. */
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  fixture->window = widgets_test_window (gtk_label_new ("other"), 100, 100);
  WAIT_UNTIL (fixture->finished);
  g_assert_false (fixture->confirmed);
  g_assert_error (fixture->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  WAIT_UNTIL (fixture->dialog == NULL);
}

int
main (int   argc,
      char *argv[])
{
  widgets_test_init (&argc, &argv);

#define ADD(path, func) g_test_add ("/confirm-dialog/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("wording", test_wording);
  ADD ("appearance", test_appearance);
  ADD ("answer-and-markup", test_answer_and_markup);
  ADD ("rtl-service", test_rtl_service);
  ADD ("binary-label", test_binary_label);
  ADD ("binary-answers-alike", test_binary_answers_alike);
  ADD ("grace-period", test_grace_period);
  ADD ("escape-cancels", test_escape_cancels);
  ADD ("cancellable", test_cancellable);
  ADD ("parent-destroyed", test_parent_destroyed);
#undef ADD

  return g_test_run ();
}
