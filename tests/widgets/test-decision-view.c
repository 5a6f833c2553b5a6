/* test-decision-view.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The decision view in a window (suite 'ui'): what a request shows, the
 * countdown, confirmation of flagged actions, read-only transitions that
 * keep what was typed, delivery states, errors, a narrow window.
 */

#define G_LOG_DOMAIN "test-decision-view"

#include <string.h>

#include "text-test-util.h"
#include "triage-decision-format.h"
#include "triage-decision-view-private.h"
#include "triage-response-editor-private.h"
#include "widgets-test-util.h"

#define GRACE 200

static const char deploy_context[] =
  "{\"title\": \"Deploy <b>2.1.0</b> & more?\","
  " \"description\": \"Ships <b>bold</b> & <i>italic</i> changes &amp; fixes.\","
  " \"project\": \"backend-api\","
  " \"metadata\": {\"version\": \"2.1.0\", \"changes\": 47, \"ok\": true,"
  "                \"regions\": [\"eu\", \"us\"], \"owner\": {\"team\": \"<platform>\"}},"
  " \"attachments\": ["
  "   {\"type\": \"text/plain\", \"description\": \"Release notes\", \"data\": \"aGVsbG8=\"},"
  "   {\"type\": \"image/png\", \"uri\": \"https://grafana.example.com/d/1.png\"}]}";

static const char all_actions[] =
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

typedef struct
{
  AtpNotification    *notification;
  TriageDecisionView *view;
  GtkWidget          *window;
  SubmitRecord        record;
  guint               attachment_index;
  guint               attachment_count;
} Fixture;

static void
on_attachment_activated (TriageDecisionView *view,
                         guint               index,
                         Fixture            *fixture)
{
  fixture->attachment_count++;
  fixture->attachment_index = index;
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  fixture->view = TRIAGE_DECISION_VIEW (triage_decision_view_new ());
  triage_decision_view_set_confirm_grace_period (fixture->view, GRACE);
  g_signal_connect (fixture->view, "submit", G_CALLBACK (widgets_test_on_view_submit_record),
                    &fixture->record);
  g_signal_connect (fixture->view, "attachment-activated", G_CALLBACK (on_attachment_activated), fixture);
  fixture->window = widgets_test_window (GTK_WIDGET (fixture->view), 600, 800);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_object_add_weak_pointer (G_OBJECT (fixture->view), (gpointer *) &fixture->view);
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  WAIT_UNTIL (fixture->view == NULL);
  widgets_test_pump ();
  g_clear_pointer (&fixture->notification, atp_notification_unref);
  widgets_test_submit_record_clear (&fixture->record);
}

static GtkWidget *
part (Fixture    *fixture,
      const char *name)
{
  GObject *object = gtk_widget_get_template_child (GTK_WIDGET (fixture->view),
                                                   TRIAGE_TYPE_DECISION_VIEW, name);

  g_assert_nonnull (object);
  return GTK_WIDGET (object);
}

static const char *
part_text (Fixture    *fixture,
           const char *name)
{
  return gtk_label_get_text (GTK_LABEL (part (fixture, name)));
}

static void
show (Fixture    *fixture,
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

static TriageResponseEditor *
editor (Fixture    *fixture,
        const char *action_id)
{
  GtkWidget *widget = triage_decision_view_get_editor (fixture->view, action_id);

  g_assert_nonnull (widget);
  return TRIAGE_RESPONSE_EDITOR (widget);
}

/* The button that gives the action's answer: a binary's true button, else
 * the one that sends. */
static GtkWidget *
answer_button (Fixture    *fixture,
               const char *action_id)
{
  TriageResponseEditor *e = editor (fixture, action_id);
  GtkWidget *button = triage_response_editor_get_submit_button (e);

  return button != NULL ? button : triage_response_editor_get_true_button (e);
}

static void
press (Fixture    *fixture,
       const char *action_id)
{
  g_signal_emit_by_name (answer_button (fixture, action_id), "clicked");
  widgets_test_pump ();
}

static void
type_text (Fixture    *fixture,
           const char *action_id,
           const char *text)
{
  GtkWidget *input = triage_response_editor_get_input (editor (fixture, action_id));

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (input)), text, -1);
}

static char *
typed_text (Fixture    *fixture,
            const char *action_id)
{
  GtkWidget *input = triage_response_editor_get_input (editor (fixture, action_id));
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (input));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static TriageRequestBanner *
banner (Fixture *fixture)
{
  return TRIAGE_REQUEST_BANNER (part (fixture, "banner"));
}

static gboolean
banner_shown (Fixture *fixture)
{
  return triage_request_banner_get_shown (banner (fixture));
}

/* The banner's status box, which carries its style. */
static GtkWidget *
banner_box (Fixture *fixture)
{
  return gtk_revealer_get_child (GTK_REVEALER (adw_bin_get_child (ADW_BIN (banner (fixture)))));
}

/* What is shown */

static void
test_header (Fixture       *fixture,
             gconstpointer  data)
{
  GtkWidget *description = part (fixture, "description_label");

  show (fixture, all_actions, deploy_context, 0);

  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (part (fixture, "stack"))), ==, "decision");
  g_assert_cmpstr (part_text (fixture, "service_label"), ==, "Deploy Bot");
  g_assert_cmpstr (part_text (fixture, "service_id_label"), ==, "deploy-bot");
  g_assert_cmpstr (part_text (fixture, "project_label"), ==, "backend-api");
  g_assert_true (gtk_widget_get_visible (part (fixture, "project_chip")));
  g_assert_true (g_str_has_suffix (part_text (fixture, "id_label"), fixture->notification->id));

  /* Markup injection shows as literal text. */
  g_assert_cmpstr (part_text (fixture, "title_label"), ==, "Deploy <b>2.1.0</b> & more?");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (description)), ==,
                   "Ships <b>bold</b> & <i>italic</i> changes &amp; fixes.");
  g_assert_false (gtk_label_get_use_markup (GTK_LABEL (description)));
  g_assert_true (gtk_label_get_selectable (GTK_LABEL (description)));
  g_assert_true (gtk_label_get_wrap (GTK_LABEL (description)));

  /* No deadline, no countdown. */
  g_assert_false (gtk_widget_get_visible (part (fixture, "countdown_box")));
  g_assert_false (triage_decision_view_get_read_only (fixture->view));
  g_assert_false (banner_shown (fixture));
}

/* A service's name and id of one unbroken word (an agent picks them): the
 * labels break them where the view breaks a title, not character by
 * character with a hyphen Pango adds and the name does not have. */
static void
test_header_unbroken_name (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *name = g_strnfill (150, 'N');
  g_autofree char *service_id = g_strnfill (120, 'n');
  g_autofree char *json = g_strdup_printf ("{\"id\": \"7b6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f\", \"version\": \"1.0\","
                                           " \"timestamp\": \"2025-05-25T10:30:00Z\","
                                           " \"service\": {\"id\": \"%s\", \"name\": \"%s\"},"
                                           " \"context\": {\"title\": \"T\", \"description\": \"D\"},"
                                           " \"actions\": [{\"id\": \"ok\", \"label\": \"OK\","
                                           " \"response_type\": \"simple\"}], \"status\": \"created\"}",
                                           service_id, name);
  g_autoptr(GError) error = NULL;

  g_clear_pointer (&fixture->notification, atp_notification_unref);
  fixture->notification = atp_notification_new_from_data (json, -1, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
  triage_decision_view_set_notification (fixture->view, fixture->notification);
  widgets_test_pump ();

  g_assert_cmpuint (text_test_longest_unbroken_run (part_text (fixture, "service_label")), <=, TRIAGE_SHOWN_RUN_CHARS);
  g_assert_cmpuint (text_test_longest_unbroken_run (part_text (fixture, "service_id_label")), <=, TRIAGE_SHOWN_RUN_CHARS);
  g_assert_true (g_str_has_prefix (part_text (fixture, "service_label"), "NNNN"));
  g_assert_true (g_str_has_suffix (part_text (fixture, "service_label"), "N…"));
}

static void
test_metadata (Fixture       *fixture,
               gconstpointer  data)
{
  GtkWidget *list = part (fixture, "metadata_list");
  const char *expected[][2] = {
    { "version", "2.1.0" },
    { "changes", "47" },
    { "ok", "true" },
    { "regions", "[\"eu\",\"us\"]" },
    { "owner", "{\"team\":\"<platform>\"}" },
  };
  guint i = 0;

  show (fixture, all_actions, deploy_context, 0);
  g_assert_true (gtk_widget_get_visible (part (fixture, "metadata_section")));

  for (GtkWidget *row = gtk_widget_get_first_child (list); row; row = gtk_widget_get_next_sibling (row), i++)
    {
      GtkWidget *box = gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (row));
      GtkWidget *key = gtk_widget_get_first_child (box);
      GtkWidget *value = gtk_widget_get_next_sibling (key);

      g_assert_cmpuint (i, <, G_N_ELEMENTS (expected));
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (key)), ==, expected[i][0]);
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (value)), ==, expected[i][1]);
      g_assert_false (gtk_label_get_use_markup (GTK_LABEL (value)));
    }
  g_assert_cmpuint (i, ==, G_N_ELEMENTS (expected));

  /* Without metadata or attachments the sections are hidden. */
  show (fixture, all_actions, NULL, 0);
  g_assert_false (gtk_widget_get_visible (part (fixture, "metadata_section")));
  g_assert_false (gtk_widget_get_visible (part (fixture, "attachments_section")));
  g_assert_null (gtk_widget_get_first_child (list));
}

static void
test_attachments (Fixture       *fixture,
                  gconstpointer  data)
{
  GtkWidget *list = part (fixture, "attachment_list");
  GtkWidget *first, *second;

  show (fixture, all_actions, deploy_context, 0);
  g_assert_true (gtk_widget_get_visible (part (fixture, "attachments_section")));

  first = gtk_widget_get_first_child (list);
  second = gtk_widget_get_next_sibling (first);
  g_assert_true (ADW_IS_ACTION_ROW (first) && ADW_IS_ACTION_ROW (second));
  g_assert_null (gtk_widget_get_next_sibling (second));
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (first)), ==, "Release notes");
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (first)), ==, "text/plain · 5 bytes");
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (second)), ==, "image/png");
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (second)), ==,
                   "image/png · link to grafana.example.com");
  g_assert_false (adw_preferences_row_get_use_markup (ADW_PREFERENCES_ROW (first)));

  gtk_widget_activate (second);
  g_assert_cmpuint (fixture->attachment_count, ==, 1);
  g_assert_cmpuint (fixture->attachment_index, ==, 1);
  gtk_widget_activate (first);
  g_assert_cmpuint (fixture->attachment_count, ==, 2);
  g_assert_cmpuint (fixture->attachment_index, ==, 0);
}

static void
test_editors (Fixture       *fixture,
              gconstpointer  data)
{
  GPtrArray *actions;

  show (fixture, all_actions, NULL, 0);
  actions = fixture->notification->actions;

  /* One editor per action, in order. */
  for (guint i = 0; i < actions->len; i++)
    {
      const AtpAction *action = g_ptr_array_index (actions, i);

      g_assert_true (triage_response_editor_get_action (editor (fixture, action->id)) ==
                     atp_notification_find_action (fixture->notification, action->id));
    }
  g_assert_cmpuint (widgets_test_count_descendants (part (fixture, "editors_box"), TRIAGE_TYPE_RESPONSE_EDITOR),
                    ==, actions->len);
}

/* How many widgets from @widget down carry @css_class. */
static guint
count_styled (GtkWidget  *widget,
              const char *css_class)
{
  guint n = gtk_widget_has_css_class (widget, css_class) ? 1 : 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += count_styled (child, css_class);

  return n;
}

/* The HIG's one suggested action a view at most: blue only for a request's
 * one answer that destroys nothing (of several, the app picks none for the
 * person; flags other than destructive change nothing), red for each
 * destructive one. */
static void
test_one_suggested (Fixture       *fixture,
                    gconstpointer  data)
{
  struct { const char *actions; const char *blue; guint red; } cases[] = {
    { "[{\"id\": \"approve\", \"label\": \"Approve\", \"response_type\": \"simple\"},"
      " {\"id\": \"reject\", \"label\": \"Reject\", \"response_type\": \"simple\"},"
      " {\"id\": \"later\", \"label\": \"Later\", \"response_type\": \"simple\"}]", NULL, 0 },
    { all_actions, NULL, 2 },
    { "[{\"id\": \"keep\", \"label\": \"Keep\", \"response_type\": \"simple\"},"
      " {\"id\": \"delete\", \"label\": \"Delete\", \"response_type\": \"simple\","
      "  \"flags\": [\"destructive\"]}]", "keep", 1 },
    { "[{\"id\": \"why\", \"label\": \"Why?\", \"response_type\": \"text\"}]", "why", 0 },
    { "[{\"id\": \"merge\", \"label\": \"Merge?\", \"response_type\": \"binary\","
      " \"options\": {\"true_label\": \"Merge\", \"false_label\": \"Not Yet\"}}]", "merge", 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      show (fixture, cases[i].actions, NULL, 0);
      g_assert_cmpuint (count_styled (GTK_WIDGET (fixture->view), "suggested-action"), ==,
                        (cases[i].blue != NULL ? 1u : 0u));
      if (cases[i].blue != NULL)
        g_assert_true (gtk_widget_has_css_class (answer_button (fixture, cases[i].blue),
                                                 "suggested-action"));
      g_assert_cmpuint (count_styled (GTK_WIDGET (fixture->view), "destructive-action"), ==,
                        cases[i].red);
    }
}

/* Countdown */

static void
test_countdown (Fixture       *fixture,
                gconstpointer  data)
{
  GtkWidget *chip = part (fixture, "countdown_box");

  show (fixture, all_actions, NULL, 2 * 3600 + 10);
  g_assert_true (gtk_widget_get_visible (chip));
  g_assert_true (g_str_has_prefix (part_text (fixture, "countdown_label"), "Due in 2 h 0 min"));
  g_assert_false (gtk_widget_has_css_class (chip, "critical"));

  /* Under five minutes: critical. */
  show (fixture, all_actions, NULL, 4 * 60 + 12.5);
  g_assert_true (g_str_has_prefix (part_text (fixture, "countdown_label"), "Due in 4 min 1"));
  g_assert_true (gtk_widget_has_css_class (chip, "critical"));
  g_assert_false (triage_decision_view_get_read_only (fixture->view));

  /* Settled: no countdown any more; pending again: back. */
  triage_decision_view_set_status (fixture->view, ATP_STATUS_INVALIDATED, NULL, NULL, NULL);
  g_assert_false (gtk_widget_get_visible (chip));
  triage_decision_view_set_status (fixture->view, ATP_STATUS_DELIVERED, NULL, NULL, NULL);
  g_assert_true (gtk_widget_get_visible (chip));
  triage_decision_view_set_delivery_state (fixture->view, TRIAGE_DELIVERY_SENT);
  g_assert_false (gtk_widget_get_visible (chip));
}

static void
test_countdown_ticks_to_expired (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autofree char *kept = NULL;
  char first[64];

  show (fixture, all_actions, NULL, 2.5);
  type_text (fixture, "why", "half an answer");
  g_strlcpy (first, part_text (fixture, "countdown_label"), sizeof first);
  g_assert_true (g_str_equal (first, "Due in 3 s") || g_str_equal (first, "Due in 2 s"));

  /* It ticks every second, then says so at the deadline and turns read-only. */
  WAIT_UNTIL (!g_str_equal (part_text (fixture, "countdown_label"), first));
  WAIT_UNTIL (g_str_equal (part_text (fixture, "countdown_label"), "Expired"));
  g_assert_true (triage_decision_view_get_read_only (fixture->view));
  g_assert_true (banner_shown (fixture));
  g_assert_true (g_str_has_prefix (triage_request_banner_get_title (banner (fixture)), "The deadline passed at "));
  kept = typed_text (fixture, "why");
  g_assert_cmpstr (kept, ==, "half an answer");
  g_assert_false (triage_response_editor_get_editable (editor (fixture, "why")));
}

/* The wheel over a scrolled window inside the page, as its capture-phase
 * scroll controller takes it (GTK 4 synthesises no events): whether the
 * inner one was left to take it. */
static gboolean
wheel_over (GtkWidget *inner,
            double     dy)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (inner);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);
      gboolean stopped = FALSE;

      if (!GTK_IS_EVENT_CONTROLLER_SCROLL (controller) ||
          gtk_event_controller_get_propagation_phase (controller) != GTK_PHASE_CAPTURE)
        continue;
      g_signal_emit_by_name (controller, "scroll", 0.0, dy, &stopped);
      return !stopped;
    }

  return TRUE;   /* nothing hands the wheel on: the inner one keeps it */
}

/* The wheel over the text answer's box, which has nothing to scroll, moves
 * the page; once the box has more than it shows, the box scrolls first, and
 * the page again at its end. */
static void
test_wheel_over_text_box (Fixture       *fixture,
                          gconstpointer  data)
{
  GtkAdjustment *page = gtk_scrolled_window_get_vadjustment (fixture->view->scroller);
  GtkWidget *input, *inner;
  GtkAdjustment *box;
  g_autoptr(GString) long_text = g_string_new (NULL);

  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 600, 300);
  show (fixture, all_actions, NULL, 0);
  input = triage_response_editor_get_input (editor (fixture, "why"));
  inner = gtk_widget_get_ancestor (input, GTK_TYPE_SCROLLED_WINDOW);
  box = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (inner));
  WAIT_UNTIL (gtk_adjustment_get_upper (page) > gtk_adjustment_get_page_size (page) + 100);
  gtk_adjustment_set_value (page, 0);

  g_assert_false (wheel_over (inner, 1));
  g_assert_cmpfloat (gtk_adjustment_get_value (page), >, 0);
  g_assert_false (wheel_over (inner, -1));
  g_assert_cmpfloat (gtk_adjustment_get_value (page), ==, 0);

  for (guint i = 0; i < 60; i++)
    g_string_append (long_text, "A line of the answer\n");
  type_text (fixture, "why", long_text->str);
  WAIT_UNTIL (gtk_adjustment_get_upper (box) > gtk_adjustment_get_page_size (box) + 100);
  gtk_adjustment_set_value (box, 0);
  gtk_adjustment_set_value (page, 0);
  g_assert_true (wheel_over (inner, 1));          /* the box has more below */
  g_assert_cmpfloat (gtk_adjustment_get_value (page), ==, 0);
  gtk_adjustment_set_value (box, gtk_adjustment_get_upper (box) - gtk_adjustment_get_page_size (box));
  g_assert_false (wheel_over (inner, 1));         /* at its end: the page */
  g_assert_cmpfloat (gtk_adjustment_get_value (page), >, 0);
}

/* Confirmation */

static void
test_confirm_only_flagged (Fixture       *fixture,
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

      show (fixture, all_actions, NULL, 0);
      widgets_test_submit_record_clear (&fixture->record);
      press (fixture, cases[i].action);

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
 * false button (Keep of "Wipe disk": Keep / Wipe) is confirmed too, though
 * only the true button is red. */
static void
test_confirm_binary_false (Fixture       *fixture,
                           gconstpointer  data)
{
  TriageResponseEditor *logs;
  TriageConfirmDialog *dialog;

  show (fixture, all_actions, NULL, 0);
  logs = editor (fixture, "logs");
  g_assert_true (gtk_widget_has_css_class (triage_response_editor_get_true_button (logs),
                                           "destructive-action"));
  g_assert_false (gtk_widget_has_css_class (triage_response_editor_get_false_button (logs),
                                            "destructive-action"));

  widgets_test_submit_record_clear (&fixture->record);
  g_signal_emit_by_name (triage_response_editor_get_false_button (logs), "clicked");
  widgets_test_pump ();

  dialog = triage_decision_view_get_confirm_dialog (fixture->view);
  g_assert_nonnull (dialog);
  g_assert_cmpuint (fixture->record.count, ==, 0);
  WAIT_UNTIL (triage_confirm_dialog_get_armed (dialog));
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), TRIAGE_CONFIRM_RESPONSE_CONFIRM);
  widgets_test_pump ();

  g_assert_null (triage_decision_view_get_confirm_dialog (fixture->view));
  g_assert_cmpuint (fixture->record.count, ==, 1);
  g_assert_cmpstr (fixture->record.action_id, ==, "logs");
  g_assert_cmpstr (fixture->record.json, ==, "false");
}

static void
test_confirm_cancel (Fixture       *fixture,
                     gconstpointer  data)
{
  TriageConfirmDialog *dialog;

  show (fixture, all_actions, NULL, 0);
  press (fixture, "delete");
  dialog = triage_decision_view_get_confirm_dialog (fixture->view);
  g_assert_nonnull (dialog);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (fixture->window));

  /* Escape. */
  gtk_widget_activate_action (GTK_WIDGET (dialog), "window.close", NULL);
  WAIT_UNTIL (triage_decision_view_get_confirm_dialog (fixture->view) == NULL);
  g_assert_cmpuint (fixture->record.count, ==, 0);
  g_assert_false (triage_decision_view_get_read_only (fixture->view));

  /* Asked again, then Cancel. */
  press (fixture, "delete");
  dialog = triage_decision_view_get_confirm_dialog (fixture->view);
  g_assert_nonnull (dialog);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), TRIAGE_CONFIRM_RESPONSE_CANCEL);
  WAIT_UNTIL (triage_decision_view_get_confirm_dialog (fixture->view) == NULL);
  g_assert_cmpuint (fixture->record.count, ==, 0);
}

static void
test_confirm_grace (Fixture       *fixture,
                    gconstpointer  data)
{
  TriageConfirmDialog *dialog;

  /* Longer than the fixture's: on a loaded machine a frame between the
   * dialog's map and the check below can take a few hundred milliseconds. */
  triage_decision_view_set_confirm_grace_period (fixture->view, 3000);
  show (fixture, all_actions, NULL, 0);
  press (fixture, "approve");
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

static void
test_confirm_dropped_when_settled (Fixture       *fixture,
                                   gconstpointer  data)
{
  TriageConfirmDialog *dialog;

  show (fixture, all_actions, NULL, 0);
  press (fixture, "delete");
  dialog = triage_decision_view_get_confirm_dialog (fixture->view);
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);

  /* Answered elsewhere while the person hesitates: the dialog goes, nothing is sent. */
  triage_decision_view_set_status (fixture->view, ATP_STATUS_RESPONDED, NULL, NULL, NULL);
  WAIT_UNTIL (dialog == NULL);
  g_assert_null (triage_decision_view_get_confirm_dialog (fixture->view));
  g_assert_cmpuint (fixture->record.count, ==, 0);
}

/* Read-only and delivery */

static void
test_read_only_keeps_text (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
  g_autoptr(GDateTime) now = g_date_time_new_now (utc);
  g_autoptr(GDateTime) when = g_date_time_new (utc, g_date_time_get_year (now), g_date_time_get_month (now),
                                               g_date_time_get_day_of_month (now), 14, 5, 0);
  const struct { AtpStatus status; const char *title; } cases[] = {
    { ATP_STATUS_EXPIRED, "Expired at 14:05" },
    { ATP_STATUS_INVALIDATED, "Withdrawn by Deploy Bot at 14:05" },
    { ATP_STATUS_RESPONDED, "Answered on another device at 14:05" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *kept = NULL;
      TriageResponseEditor *why;

      show (fixture, all_actions, NULL, 0);
      type_text (fixture, "why", "half typed <b>answer</b>");
      why = editor (fixture, "why");
      g_assert_true (triage_response_editor_get_valid (why));

      triage_decision_view_set_status (fixture->view, cases[i].status, "Deployment <cancelled>",
                                       when, "Nothing was sent.");
      g_assert_true (triage_decision_view_get_read_only (fixture->view));
      g_assert_true (banner_shown (fixture));
      g_assert_cmpstr (triage_request_banner_get_title (banner (fixture)), ==, cases[i].title);
      g_assert_true (g_str_has_prefix (triage_request_banner_get_detail (banner (fixture)),
                                       "Reason: Deployment <cancelled>\nNothing was sent."));

      /* Editors frozen, the send controls gone, the text kept; a simple
       * action's button is the answer itself, so it stays, insensitive. */
      for (guint j = 0; j < fixture->notification->actions->len; j++)
        {
          const AtpAction *action = g_ptr_array_index (fixture->notification->actions, j);

          g_assert_false (triage_response_editor_get_editable (editor (fixture, action->id)));
        }
      g_assert_false (gtk_widget_is_visible (triage_response_editor_get_submit_button (why)));
      g_assert_true (gtk_widget_is_visible (triage_response_editor_get_submit_button (editor (fixture, "approve"))));
      g_assert_false (gtk_widget_is_sensitive (triage_response_editor_get_submit_button (editor (fixture, "approve"))));
      kept = typed_text (fixture, "why");
      g_assert_cmpstr (kept, ==, "half typed <b>answer</b>");
      g_assert_false (triage_response_editor_submit (why));
      g_assert_cmpuint (fixture->record.count, ==, 0);
    }

  /* Back to pending (a status update undone): editable again. */
  triage_decision_view_set_status (fixture->view, ATP_STATUS_ACKNOWLEDGED, NULL, NULL, NULL);
  g_assert_false (triage_decision_view_get_read_only (fixture->view));
  g_assert_false (banner_shown (fixture));
  g_assert_true (triage_response_editor_get_editable (editor (fixture, "why")));
}

static void
test_delivery (Fixture       *fixture,
               gconstpointer  data)
{
  show (fixture, all_actions, NULL, 0);
  type_text (fixture, "why", "Not today");
  press (fixture, "why");

  /* Sent: read-only at once, so nothing goes twice. */
  g_assert_cmpuint (fixture->record.count, ==, 1);
  g_assert_cmpstr (fixture->record.action_id, ==, "why");
  g_assert_cmpstr (fixture->record.json, ==, "\"Not today\"");
  g_assert_cmpint (triage_decision_view_get_delivery_state (fixture->view), ==, TRIAGE_DELIVERY_SENDING);
  g_assert_true (triage_decision_view_get_read_only (fixture->view));
  g_assert_cmpstr (triage_request_banner_get_title (banner (fixture)), ==, "Sending your answer…");
  g_assert_cmpstr (triage_request_banner_get_detail (banner (fixture)), ==, "You answered ‘Reject with a reason’: “Not today”");
  g_assert_false (triage_response_editor_submit (editor (fixture, "why")));
  press (fixture, "later");
  g_assert_cmpuint (fixture->record.count, ==, 1);

  triage_decision_view_set_delivery_state (fixture->view, TRIAGE_DELIVERY_QUEUED);
  g_assert_cmpstr (triage_request_banner_get_title (banner (fixture)), ==, "Queued, will send when online");

  triage_decision_view_set_delivery_state (fixture->view, TRIAGE_DELIVERY_SENT);
  g_assert_cmpstr (triage_request_banner_get_title (banner (fixture)), ==, "You answered ‘Reject with a reason’: “Not today”");
  g_assert_cmpstr (triage_request_banner_get_detail (banner (fixture)), ==, "Sent: the service has your answer.");
  g_assert_true (gtk_widget_has_css_class (banner_box (fixture), "banner-success"));

  triage_decision_view_show_delivery_error (fixture->view, "The server refused the answer: bad <data>");
  g_assert_cmpint (triage_decision_view_get_delivery_state (fixture->view), ==, TRIAGE_DELIVERY_FAILED);
  g_assert_cmpstr (triage_request_banner_get_title (banner (fixture)), ==, "The answer was not accepted");
  g_assert_true (g_str_has_prefix (triage_request_banner_get_detail (banner (fixture)),
                                   "The server refused the answer: bad <data>"));
  g_assert_true (triage_decision_view_get_read_only (fixture->view));

  /* The app may hand it back (e.g. it could not store the answer). */
  triage_decision_view_set_delivery_state (fixture->view, TRIAGE_DELIVERY_NONE);
  g_assert_false (triage_decision_view_get_read_only (fixture->view));
  g_assert_false (banner_shown (fixture));
}

static void
test_answer_error (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *kept = NULL;

  show (fixture, all_actions, NULL, 0);
  type_text (fixture, "why", "Not today");
  press (fixture, "why");
  g_assert_true (triage_decision_view_get_read_only (fixture->view));

  /* It did not leave (not stored): editable again, the text and the reason shown. */
  triage_decision_view_show_answer_error (fixture->view, "The answer could not be saved: disk full");
  g_assert_false (triage_decision_view_get_read_only (fixture->view));
  g_assert_cmpint (triage_decision_view_get_delivery_state (fixture->view), ==, TRIAGE_DELIVERY_NONE);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (part (fixture, "stack"))), ==, "decision");
  g_assert_cmpstr (triage_request_banner_get_title (banner (fixture)), ==, "Your answer was not sent");
  g_assert_cmpstr (triage_request_banner_get_detail (banner (fixture)), ==, "The answer could not be saved: disk full");
  kept = typed_text (fixture, "why");
  g_assert_cmpstr (kept, ==, "Not today");

  /* Sending again clears it. */
  press (fixture, "why");
  g_assert_cmpuint (fixture->record.count, ==, 2);
  g_assert_cmpstr (triage_request_banner_get_title (banner (fixture)), ==, "Sending your answer…");
}

static void
test_same_request_keeps_input (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autoptr(AtpNotification) again = NULL;
  g_autoptr(AtpNotification) other = NULL;
  g_autofree char *kept = NULL;
  g_autofree char *fresh = NULL;

  fixture->notification = widgets_test_notification (all_actions, NULL, 0);
  triage_decision_view_set_notification (fixture->view, fixture->notification);
  type_text (fixture, "why", "keep me");

  /* The same request again (a resync): what was typed stays. */
  again = widgets_test_notification (all_actions, NULL, 0);
  triage_decision_view_set_notification (fixture->view, again);
  kept = typed_text (fixture, "why");
  g_assert_cmpstr (kept, ==, "keep me");

  /* Another request: a fresh form. */
  other = widgets_test_notification_with_id ("6fa459ea-ee8a-4ca4-894e-db77e160355e", all_actions, NULL, 0);
  triage_decision_view_set_notification (fixture->view, other);
  fresh = typed_text (fixture, "why");
  g_assert_cmpstr (fresh, ==, "");
}

static void
test_show_error (Fixture       *fixture,
                 gconstpointer  data)
{
  AdwStatusPage *page = ADW_STATUS_PAGE (part (fixture, "error_page"));

  show (fixture, all_actions, deploy_context, 0);
  triage_decision_view_show_error (fixture->view, "actions[0].options: <b>required</b> & missing");

  /* Nothing half built: the request is gone, the error is shown as text. */
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (part (fixture, "stack"))), ==, "error");
  g_assert_null (triage_decision_view_get_notification (fixture->view));
  g_assert_null (triage_decision_view_get_editor (fixture->view, "why"));
  g_assert_cmpstr (adw_status_page_get_description (page), ==,
                   "actions[0].options: &lt;b&gt;required&lt;/b&gt; &amp; missing");

  show (fixture, all_actions, deploy_context, 0);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (part (fixture, "stack"))), ==, "decision");

  triage_decision_view_set_notification (fixture->view, NULL);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (part (fixture, "stack"))), ==, "empty");
}

static void
test_narrow (Fixture       *fixture,
             gconstpointer  data)
{
  int minimum, natural;

  show (fixture, all_actions, deploy_context, 300);

  /* Usable at 360 px: nothing asks for more width. */
  gtk_widget_measure (GTK_WIDGET (fixture->view), GTK_ORIENTATION_HORIZONTAL, -1,
                      &minimum, &natural, NULL, NULL);
  g_assert_cmpint (minimum, <=, 360);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 360, 640);
  /* The window gets its new size on a later frame: wait for it, then look. */
  WAIT_UNTIL (gtk_widget_get_width (fixture->window) == 360);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (fixture->view)), <=, 360);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("TZ", "UTC", TRUE);
  widgets_test_init (&argc, &argv);

#define ADD(path, func) g_test_add ("/decision-view/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("header", test_header);
  ADD ("header/unbroken-name", test_header_unbroken_name);
  ADD ("metadata", test_metadata);
  ADD ("attachments", test_attachments);
  ADD ("editors", test_editors);
  ADD ("editors/one-suggested", test_one_suggested);
  ADD ("countdown", test_countdown);
  ADD ("countdown/ticks-to-expired", test_countdown_ticks_to_expired);
  ADD ("confirm/only-flagged", test_confirm_only_flagged);
  ADD ("wheel-over-text-box", test_wheel_over_text_box);
  ADD ("confirm/binary-false", test_confirm_binary_false);
  ADD ("confirm/cancel", test_confirm_cancel);
  ADD ("confirm/grace", test_confirm_grace);
  ADD ("confirm/dropped-when-settled", test_confirm_dropped_when_settled);
  ADD ("read-only/keeps-text", test_read_only_keeps_text);
  ADD ("delivery", test_delivery);
  ADD ("answer-error", test_answer_error);
  ADD ("same-request-keeps-input", test_same_request_keeps_input);
  ADD ("show-error", test_show_error);
  ADD ("narrow", test_narrow);
#undef ADD

  return g_test_run ();
}
