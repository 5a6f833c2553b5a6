/* test-decision-view.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The decision view in a window (suite 'ui'): what a request shows, the
 * countdown, the wheel over a text answer, a narrow window; confirmation of
 * flagged actions (test-decision-view-confirm.c), read-only transitions that
 * keep what was typed, delivery states and errors
 * (test-decision-view-delivery.c).
 */

#define G_LOG_DOMAIN "test-decision-view"

#include <string.h>

#include "decision-view-test-common.h"
#include "text-test-util.h"
#include "ui-test-util.h"
#include "triage-decision-format.h"

static const char *
part_text (Fixture    *fixture,
           const char *name)
{
  return gtk_label_get_text (GTK_LABEL (decision_view_test_part (fixture, name)));
}

static void
test_header (Fixture       *fixture,
             gconstpointer  data)
{
  GtkWidget *description = decision_view_test_part (fixture, "description_label");
  GtkStack *stack = GTK_STACK (decision_view_test_part (fixture, "stack"));

  decision_view_test_show (fixture, decision_view_test_all_actions,
                           decision_view_test_deploy_context, 0);

  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "decision");
  g_assert_cmpstr (part_text (fixture, "service_label"), ==, "Deploy Bot");
  g_assert_cmpstr (part_text (fixture, "service_id_label"), ==, "deploy-bot");
  g_assert_cmpstr (part_text (fixture, "project_label"), ==, "backend-api");
  g_assert_true (gtk_widget_get_visible (decision_view_test_part (fixture, "project_chip")));
  g_assert_true (g_str_has_suffix (part_text (fixture, "id_label"), fixture->notification->id));

  /* Markup injection shows as literal text. */
  g_assert_cmpstr (part_text (fixture, "title_label"), ==, "Deploy <b>2.1.0</b> & more?");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (description)), ==,
                   "Ships <b>bold</b> & <i>italic</i> changes &amp; fixes.");
  g_assert_false (gtk_label_get_use_markup (GTK_LABEL (description)));
  g_assert_true (gtk_label_get_selectable (GTK_LABEL (description)));
  g_assert_true (gtk_label_get_wrap (GTK_LABEL (description)));

  /* No deadline, no countdown. */
  g_assert_false (gtk_widget_get_visible (decision_view_test_part (fixture, "countdown_box")));
  g_assert_false (triage_decision_view_get_read_only (fixture->view));
  g_assert_false (decision_view_test_banner_shown (fixture));
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
  GtkWidget *list = decision_view_test_part (fixture, "metadata_list");
  const char *expected[][2] = {
    { "version", "2.1.0" },
    { "changes", "47" },
    { "ok", "true" },
    { "regions", "[\"eu\",\"us\"]" },
    { "owner", "{\"team\":\"<platform>\"}" },
  };
  guint i = 0;

  decision_view_test_show (fixture, decision_view_test_all_actions,
                           decision_view_test_deploy_context, 0);
  g_assert_true (gtk_widget_get_visible (decision_view_test_part (fixture, "metadata_section")));

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
  decision_view_test_show (fixture, decision_view_test_all_actions, NULL, 0);
  g_assert_false (gtk_widget_get_visible (decision_view_test_part (fixture, "metadata_section")));
  g_assert_false (gtk_widget_get_visible (decision_view_test_part (fixture, "attachments_section")));
  g_assert_null (gtk_widget_get_first_child (list));
}

static void
test_attachments (Fixture       *fixture,
                  gconstpointer  data)
{
  GtkWidget *list = decision_view_test_part (fixture, "attachment_list");
  GtkWidget *first, *second;

  decision_view_test_show (fixture, decision_view_test_all_actions,
                           decision_view_test_deploy_context, 0);
  g_assert_true (gtk_widget_get_visible (decision_view_test_part (fixture, "attachments_section")));

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

  decision_view_test_show (fixture, decision_view_test_all_actions, NULL, 0);
  actions = fixture->notification->actions;

  /* One editor per action, in order. */
  for (guint i = 0; i < actions->len; i++)
    {
      const AtpAction *action = g_ptr_array_index (actions, i);
      TriageResponseEditor *editor = decision_view_test_editor (fixture, action->id);

      g_assert_true (triage_response_editor_get_action (editor) ==
                     atp_notification_find_action (fixture->notification, action->id));
    }
  g_assert_cmpuint (widgets_test_count_descendants (decision_view_test_part (fixture, "editors_box"),
                                                    TRIAGE_TYPE_RESPONSE_EDITOR),
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
 * destructive one (both buttons of a destructive binary, either of which may
 * be the answer that destroys). */
static void
test_one_suggested (Fixture       *fixture,
                    gconstpointer  data)
{
  struct { const char *actions; const char *blue; guint red; } cases[] = {
    { "[{\"id\": \"approve\", \"label\": \"Approve\", \"response_type\": \"simple\"},"
      " {\"id\": \"reject\", \"label\": \"Reject\", \"response_type\": \"simple\"},"
      " {\"id\": \"later\", \"label\": \"Later\", \"response_type\": \"simple\"}]", NULL, 0 },
    { decision_view_test_all_actions, NULL, 3 },
    { "[{\"id\": \"keep\", \"label\": \"Keep\", \"response_type\": \"simple\"},"
      " {\"id\": \"delete\", \"label\": \"Delete\", \"response_type\": \"simple\","
      "  \"flags\": [\"destructive\"]}]", "keep", 1 },
    { "[{\"id\": \"why\", \"label\": \"Why?\", \"response_type\": \"text\"}]", "why", 0 },
    { "[{\"id\": \"merge\", \"label\": \"Merge?\", \"response_type\": \"binary\","
      " \"options\": {\"true_label\": \"Merge\", \"false_label\": \"Not Yet\"}}]", "merge", 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      decision_view_test_show (fixture, cases[i].actions, NULL, 0);
      g_assert_cmpuint (count_styled (GTK_WIDGET (fixture->view), "suggested-action"), ==,
                        (cases[i].blue != NULL ? 1u : 0u));
      if (cases[i].blue != NULL)
        {
          GtkWidget *button = decision_view_test_answer_button (fixture, cases[i].blue);

          g_assert_true (gtk_widget_has_css_class (button, "suggested-action"));
        }
      g_assert_cmpuint (count_styled (GTK_WIDGET (fixture->view), "destructive-action"), ==,
                        cases[i].red);
    }
}

static void
test_countdown (Fixture       *fixture,
                gconstpointer  data)
{
  GtkWidget *chip = decision_view_test_part (fixture, "countdown_box");

  decision_view_test_show (fixture, decision_view_test_all_actions, NULL, 2 * 3600 + 10);
  g_assert_true (gtk_widget_get_visible (chip));
  g_assert_true (g_str_has_prefix (part_text (fixture, "countdown_label"), "Due in 2 h 0 min"));
  g_assert_false (gtk_widget_has_css_class (chip, "critical"));

  /* Under five minutes: critical. */
  decision_view_test_show (fixture, decision_view_test_all_actions, NULL, 4 * 60 + 12.5);
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

/* A screen reader is not told every second: the countdown's name says the
 * minutes and changes once a minute, under a minute it says so once, and
 * the label that ticks is not read on its own. */
static void
test_countdown_spoken (Fixture       *fixture,
                       gconstpointer  data)
{
  GtkWidget *chip = decision_view_test_part (fixture, "countdown_box");
  char first[64];

  decision_view_test_show (fixture, decision_view_test_all_actions, NULL, 4 * 60 + 12.5);
  gtk_test_accessible_assert_property (chip, GTK_ACCESSIBLE_PROPERTY_LABEL, "Due in 4 min");
  g_strlcpy (first, part_text (fixture, "countdown_label"), sizeof first);
  WAIT_UNTIL (!g_str_equal (part_text (fixture, "countdown_label"), first));
  gtk_test_accessible_assert_property (chip, GTK_ACCESSIBLE_PROPERTY_LABEL, "Due in 4 min");
  gtk_test_accessible_assert_role (decision_view_test_part (fixture, "countdown_label"),
                                   GTK_ACCESSIBLE_ROLE_PRESENTATION);

  decision_view_test_show (fixture, decision_view_test_all_actions, NULL, 42.5);
  gtk_test_accessible_assert_property (chip, GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "Due in less than a minute");
  decision_view_test_show (fixture, decision_view_test_all_actions, NULL, 2 * 3600 + 10);
  gtk_test_accessible_assert_property (chip, GTK_ACCESSIBLE_PROPERTY_LABEL, "Due in 2 h 0 min");
}

static void
test_countdown_ticks_to_expired (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autofree char *kept = NULL;
  char first[64];

  decision_view_test_show (fixture, decision_view_test_all_actions, NULL, 2.5);
  decision_view_test_type_text (fixture, "why", "half an answer");
  g_strlcpy (first, part_text (fixture, "countdown_label"), sizeof first);
  g_assert_true (g_str_equal (first, "Due in 3 s") || g_str_equal (first, "Due in 2 s"));

  /* It ticks every second, then says so at the deadline and turns read-only. */
  WAIT_UNTIL (!g_str_equal (part_text (fixture, "countdown_label"), first));
  WAIT_UNTIL (g_str_equal (part_text (fixture, "countdown_label"), "Expired"));
  g_assert_true (triage_decision_view_get_read_only (fixture->view));
  g_assert_true (decision_view_test_banner_shown (fixture));
  g_assert_true (g_str_has_prefix (triage_request_banner_get_title (decision_view_test_banner (fixture)),
                                   "The deadline passed at "));
  kept = decision_view_test_typed_text (fixture, "why");
  g_assert_cmpstr (kept, ==, "half an answer");
  g_assert_false (triage_response_editor_get_editable (decision_view_test_editor (fixture, "why")));
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
  decision_view_test_show (fixture, decision_view_test_all_actions, NULL, 0);
  input = triage_response_editor_get_input (decision_view_test_editor (fixture, "why"));
  inner = gtk_widget_get_ancestor (input, GTK_TYPE_SCROLLED_WINDOW);
  box = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (inner));
  WAIT_UNTIL (gtk_adjustment_get_upper (page) > gtk_adjustment_get_page_size (page) + 100);
  gtk_adjustment_set_value (page, 0);

  g_assert_false (ui_test_wheel_over (inner, 1));
  g_assert_cmpfloat (gtk_adjustment_get_value (page), >, 0);
  g_assert_false (ui_test_wheel_over (inner, -1));
  g_assert_cmpfloat (gtk_adjustment_get_value (page), ==, 0);

  for (guint i = 0; i < 60; i++)
    g_string_append (long_text, "A line of the answer\n");
  decision_view_test_type_text (fixture, "why", long_text->str);
  WAIT_UNTIL (gtk_adjustment_get_upper (box) > gtk_adjustment_get_page_size (box) + 100);
  gtk_adjustment_set_value (box, 0);
  gtk_adjustment_set_value (page, 0);
  g_assert_true (ui_test_wheel_over (inner, 1));          /* the box has more below */
  g_assert_cmpfloat (gtk_adjustment_get_value (page), ==, 0);
  gtk_adjustment_set_value (box, gtk_adjustment_get_upper (box) - gtk_adjustment_get_page_size (box));
  g_assert_false (ui_test_wheel_over (inner, 1));         /* at its end: the page */
  g_assert_cmpfloat (gtk_adjustment_get_value (page), >, 0);
}

static void
test_narrow (Fixture       *fixture,
             gconstpointer  data)
{
  int minimum, natural;

  decision_view_test_show (fixture, decision_view_test_all_actions,
                           decision_view_test_deploy_context, 300);

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

  DECISION_VIEW_TEST_ADD ("header", test_header);
  DECISION_VIEW_TEST_ADD ("header/unbroken-name", test_header_unbroken_name);
  DECISION_VIEW_TEST_ADD ("metadata", test_metadata);
  DECISION_VIEW_TEST_ADD ("attachments", test_attachments);
  DECISION_VIEW_TEST_ADD ("editors", test_editors);
  DECISION_VIEW_TEST_ADD ("editors/one-suggested", test_one_suggested);
  DECISION_VIEW_TEST_ADD ("countdown", test_countdown);
  DECISION_VIEW_TEST_ADD ("countdown/ticks-to-expired", test_countdown_ticks_to_expired);
  DECISION_VIEW_TEST_ADD ("countdown/spoken", test_countdown_spoken);
  DECISION_VIEW_TEST_ADD ("confirm/only-flagged", decision_view_test_confirm_only_flagged);
  DECISION_VIEW_TEST_ADD ("wheel-over-text-box", test_wheel_over_text_box);
  DECISION_VIEW_TEST_ADD ("confirm/binary-false", decision_view_test_confirm_binary_false);
  DECISION_VIEW_TEST_ADD ("confirm/cancel", decision_view_test_confirm_cancel);
  DECISION_VIEW_TEST_ADD ("confirm/grace", decision_view_test_confirm_grace);
  DECISION_VIEW_TEST_ADD ("confirm/dropped-when-settled",
                          decision_view_test_confirm_dropped_when_settled);
  DECISION_VIEW_TEST_ADD ("read-only/keeps-text", decision_view_test_read_only_keeps_text);
  DECISION_VIEW_TEST_ADD ("delivery", decision_view_test_delivery);
  DECISION_VIEW_TEST_ADD ("answer-error", decision_view_test_answer_error);
  DECISION_VIEW_TEST_ADD ("same-request-keeps-input", decision_view_test_same_request_keeps_input);
  DECISION_VIEW_TEST_ADD ("draft-kept", decision_view_test_draft_kept);
  DECISION_VIEW_TEST_ADD ("banner/hostile-text", decision_view_test_banner_hostile_text);
  DECISION_VIEW_TEST_ADD ("show-error", decision_view_test_show_error);
  DECISION_VIEW_TEST_ADD ("narrow", test_narrow);

  return g_test_run ();
}
