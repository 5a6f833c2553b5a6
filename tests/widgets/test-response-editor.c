/* test-response-editor.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One editor per response type, driven like a person would (suite 'ui'):
 * the native control, the live reason while the answer is invalid, and the
 * exact response_data of ::submit.
 */

#define G_LOG_DOMAIN "test-response-editor"

#include "editor-test-fixture.h"
#include "ui-test-util.h"

static const char *
button_text (GtkWidget *button)
{
  GtkWidget *child = gtk_button_get_child (GTK_BUTTON (button));

  if (GTK_IS_LABEL (child))
    return gtk_label_get_label (GTK_LABEL (child));
  return gtk_button_get_label (GTK_BUTTON (button));
}

static void
set_text (TriageResponseEditor *editor,
          const char           *text)
{
  GtkWidget *input = triage_response_editor_get_input (editor);

  if (GTK_IS_TEXT_VIEW (input))
    gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (input)), text, -1);
  else
    gtk_editable_set_text (GTK_EDITABLE (input), text);
}

/* Enter in a spin button: its text's activation. */
static void
press_enter (GtkWidget *spin)
{
  g_signal_emit_by_name (gtk_editable_get_delegate (GTK_EDITABLE (spin)), "activate");
}

/* simple */

static void
test_simple (Fixture       *fixture,
             gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"approve\", \"label\": \"Approve Deployment\", \"response_type\": \"simple\"}");
  GtkWidget *button = triage_response_editor_get_submit_button (editor);

  g_assert_null (triage_response_editor_get_input (editor));
  g_assert_true (GTK_IS_BUTTON (button));
  g_assert_cmpstr (button_text (button), ==, "Approve Deployment");
  gtk_test_accessible_assert_property (button, GTK_ACCESSIBLE_PROPERTY_LABEL, "Approve Deployment");
  assert_valid (editor);
  assert_sends (fixture, "null");
}

/* binary */

static void
test_binary (Fixture       *fixture,
             gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"logs\", \"label\": \"Include diagnostic logs?\", \"response_type\": \"binary\","
                         " \"options\": {\"true_label\": \"Yes, include logs\", \"false_label\": \"No, skip logs\"}}");
  GtkWidget *yes = triage_response_editor_get_true_button (editor);
  GtkWidget *no = triage_response_editor_get_false_button (editor);

  g_assert_null (triage_response_editor_get_submit_button (editor));
  g_assert_true (GTK_IS_BUTTON (yes) && GTK_IS_BUTTON (no));
  g_assert_cmpstr (button_text (yes), ==, "Yes, include logs");
  g_assert_cmpstr (button_text (no), ==, "No, skip logs");
  gtk_test_accessible_assert_property (yes, GTK_ACCESSIBLE_PROPERTY_LABEL, "Yes, include logs");
  g_assert_true (triage_response_editor_get_valid (editor));

  g_signal_emit_by_name (yes, "clicked");
  g_assert_cmpuint (fixture->record.count, ==, 1);
  g_assert_cmpstr (fixture->record.json, ==, "true");

  g_signal_emit_by_name (no, "clicked");
  g_assert_cmpuint (fixture->record.count, ==, 2);
  g_assert_cmpstr (fixture->record.json, ==, "false");
}

/* choice */

static char *
choice_json (guint n_options)
{
  GString *str = g_string_new ("{\"id\": \"env\", \"label\": \"Environment\", \"response_type\": \"choice\", \"options\": [");

  for (guint i = 0; i < n_options; i++)
    g_string_append_printf (str, "%s{\"value\": \"v%u\", \"label\": \"Option %u\"}", i ? ", " : "", i, i);
  g_string_append (str, "]}");

  return g_string_free (str, FALSE);
}

static void
test_choice_radio (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *json = choice_json (TRIAGE_CHOICE_MAX_RADIO_OPTIONS);
  TriageResponseEditor *editor = editor_for (fixture, json);
  GtkWidget *input = triage_response_editor_get_input (editor);
  GPtrArray *buttons = triage_response_editor_get_option_buttons (editor);

  /* Five options: radio buttons, not a drop-down. */
  g_assert_true (GTK_IS_BOX (input));
  g_assert_cmpuint (buttons->len, ==, 5);
  g_assert_cmpuint (widgets_test_count_descendants (input, GTK_TYPE_CHECK_BUTTON), ==, 5);
  g_assert_null (widgets_test_find_descendant (GTK_WIDGET (editor), GTK_TYPE_DROP_DOWN));
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (input), GTK_ACCESSIBLE_ROLE_GROUP);
  g_assert_true (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (input), GTK_ACCESSIBLE_RELATION_LABELLED_BY));
  gtk_test_accessible_assert_property (g_ptr_array_index (buttons, 2),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Option 2");

  assert_invalid (editor, "Choose an option");

  gtk_check_button_set_active (g_ptr_array_index (buttons, 2), TRUE);
  assert_valid (editor);

  /* One group: choosing another drops the first. */
  gtk_check_button_set_active (g_ptr_array_index (buttons, 3), TRUE);
  g_assert_false (gtk_check_button_get_active (g_ptr_array_index (buttons, 2)));
  assert_sends (fixture, "\"v3\"");
}

static void
test_choice_dropdown (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *json = choice_json (TRIAGE_CHOICE_MAX_RADIO_OPTIONS + 1);
  TriageResponseEditor *editor = editor_for (fixture, json);
  GtkWidget *input = triage_response_editor_get_input (editor);
  GListModel *model;

  /* Six options: a drop-down with the option labels. */
  g_assert_true (GTK_IS_DROP_DOWN (input));
  g_assert_cmpuint (triage_response_editor_get_option_buttons (editor)->len, ==, 0);
  model = gtk_drop_down_get_model (GTK_DROP_DOWN (input));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 6);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (model), 5), ==, "Option 5");
  g_assert_true (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (input), GTK_ACCESSIBLE_RELATION_LABELLED_BY));
  /* The button inside, which a screen reader meets, is named too (GTK 4.8
   * would call it "GtkToggleButton"). */
  g_assert_true (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (widgets_test_find_descendant (input,
                                                                                                 GTK_TYPE_TOGGLE_BUTTON)),
                                                   GTK_ACCESSIBLE_RELATION_LABELLED_BY));

  assert_invalid (editor, "Choose an option");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (input), 4);
  assert_valid (editor);
  assert_sends (fixture, "\"v4\"");
}

/* multi_choice */

static void
test_multi_choice (Fixture       *fixture,
                   gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"to\", \"label\": \"Recipients\", \"response_type\": \"multi_choice\","
                         " \"options\": [{\"value\": \"a\", \"label\": \"Alpha\"}, {\"value\": \"b\", \"label\": \"Beta\"},"
                         " {\"value\": \"c\", \"label\": \"Gamma\"}, {\"value\": \"d\", \"label\": \"Delta\"},"
                         " {\"value\": \"e\", \"label\": \"Epsilon\"}],"
                         " \"constraints\": {\"min_selections\": 1, \"max_selections\": 3}}");
  GPtrArray *buttons = triage_response_editor_get_option_buttons (editor);
  GtkWidget *counter = triage_response_editor_get_counter_label (editor);

  g_assert_cmpuint (buttons->len, ==, 5);
  /* Five options need no search (test_multi_choice_search). */
  g_assert_null (widgets_test_find_descendant (GTK_WIDGET (editor), GTK_TYPE_SEARCH_ENTRY));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (counter)), ==, "0 of 1–3 selected");
  assert_invalid (editor, "0 selected, at least 1 required.");

  /* Chosen out of order; sent in the options' order. */
  gtk_check_button_set_active (g_ptr_array_index (buttons, 2), TRUE);
  gtk_check_button_set_active (g_ptr_array_index (buttons, 0), TRUE);
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (counter)), ==, "2 of 1–3 selected");
  assert_valid (editor);

  gtk_check_button_set_active (g_ptr_array_index (buttons, 1), TRUE);
  gtk_check_button_set_active (g_ptr_array_index (buttons, 4), TRUE);
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (counter)), ==, "4 of 1–3 selected");
  g_assert_true (gtk_widget_has_css_class (counter, "error"));
  assert_invalid (editor, "4 selected, at most 3 allowed.");

  gtk_check_button_set_active (g_ptr_array_index (buttons, 4), FALSE);
  g_assert_false (gtk_widget_has_css_class (counter, "error"));
  assert_valid (editor);
  assert_sends (fixture, "[\"a\",\"b\",\"c\"]");
}

/* text */

/* Ctrl+Return never edits the answer: when it cannot be sent (too long
 * here), the editor keeps the key (a bell, the reason line says why) and no
 * new line is typed; nothing leaves. */
static void
test_text_ctrl_return_invalid (Fixture       *fixture,
                               gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"why\", \"label\": \"Reason\", \"response_type\": \"text\","
                         " \"constraints\": {\"min_length\": 5, \"max_length\": 20}}");

  set_text (editor, "abcdefghijklmnopqrstuvwxyz");
  assert_invalid (editor, "The answer is 26 characters long, at most 20 allowed.");
  g_assert_true (ui_test_press_shortcut (GTK_WIDGET (editor), "<Control>Return"));
  g_assert_cmpuint (fixture->record.count, ==, 0);
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (triage_response_editor_get_reason_label (editor))),
                   ==, "The answer is 26 characters long, at most 20 allowed.");

  set_text (editor, "abcdefghij");
  g_assert_true (ui_test_press_shortcut (GTK_WIDGET (editor), "<Control>Return"));
  g_assert_cmpuint (fixture->record.count, ==, 1);
  g_assert_cmpstr (fixture->record.json, ==, "\"abcdefghij\"");
}

static void
test_text (Fixture       *fixture,
           gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"why\", \"label\": \"Reason for rejection\", \"response_type\": \"text\","
                         " \"constraints\": {\"min_length\": 10, \"max_length\": 20, \"placeholder\": \"Tell the agent why\"}}");
  GtkWidget *input = triage_response_editor_get_input (editor);
  GtkWidget *placeholder = triage_response_editor_get_placeholder_label (editor);
  GtkWidget *counter = triage_response_editor_get_counter_label (editor);

  g_assert_true (GTK_IS_TEXT_VIEW (input));
  g_assert_false (gtk_text_view_get_accepts_tab (GTK_TEXT_VIEW (input)));
  g_assert_true (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (input), GTK_ACCESSIBLE_RELATION_LABELLED_BY));
  gtk_test_accessible_assert_property (triage_response_editor_get_submit_button (editor),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Send “Reason for rejection”");

  /* The placeholder GtkTextView lacks, while it is empty. */
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (placeholder)), ==, "Tell the agent why");
  g_assert_true (gtk_widget_get_visible (placeholder));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (counter)), ==, "0 of 10–20 characters");
  assert_invalid (editor, "The answer is 0 characters long, at least 10 required.");

  set_text (editor, "short");
  g_assert_false (gtk_widget_get_visible (placeholder));
  assert_invalid (editor, "The answer is 5 characters long, at least 10 required.");

  /* Characters, not bytes: ten of them in 25 bytes. */
  set_text (editor, "ééééé😀😀😀😀😀");
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (counter)), ==, "10 of 10–20 characters");
  assert_valid (editor);

  set_text (editor, "123456789012345678901");
  g_assert_true (gtk_widget_has_css_class (counter, "error"));
  assert_invalid (editor, "The answer is 21 characters long, at most 20 allowed.");

  set_text (editor, "<b>no</b> & \"why\"");
  assert_valid (editor);

  /* Ctrl+Return: the shortcut's action. */
  gtk_widget_activate_action (GTK_WIDGET (editor), "editor.submit", NULL);
  g_assert_cmpuint (fixture->record.count, ==, 1);
  g_assert_cmpstr (fixture->record.json, ==, "\"<b>no</b> & \\\"why\\\"\"");
}

/* number */

static void
test_number (Fixture       *fixture,
             gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"t\", \"label\": \"Set detection threshold\", \"response_type\": \"number\","
                         " \"constraints\": {\"min\": 0.1, \"max\": 0.9, \"step\": 0.05, \"unit\": \"confidence\","
                         " \"placeholder\": \"Enter value between 0.1 and 0.9\"}}");
  GtkWidget *input = triage_response_editor_get_input (editor);
  GtkEditable *text;
  GtkAdjustment *adjustment;
  GtkWidget *unit = NULL;

  g_assert_true (GTK_IS_SPIN_BUTTON (input));
  adjustment = gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (input));
  g_assert_cmpfloat (gtk_adjustment_get_lower (adjustment), ==, 0.1);
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), ==, 0.9);
  g_assert_cmpfloat (gtk_adjustment_get_step_increment (adjustment), ==, 0.05);
  g_assert_cmpuint (gtk_spin_button_get_digits (GTK_SPIN_BUTTON (input)), ==, 2);
  g_assert_true (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (input), GTK_ACCESSIBLE_RELATION_LABELLED_BY));

  text = gtk_editable_get_delegate (GTK_EDITABLE (input));
  g_assert_cmpstr (gtk_text_get_placeholder_text (GTK_TEXT (text)), ==, "Enter value between 0.1 and 0.9");
  for (GtkWidget *child = gtk_widget_get_next_sibling (input); child; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LABEL (child))
      unit = child;
  g_assert_nonnull (unit);
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (unit)), ==, "confidence");

  /* Nothing chosen yet: empty, not the minimum. */
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (input)), ==, "");
  assert_invalid (editor, "Enter a number");

  set_text (editor, "abc");
  assert_invalid (editor, "“abc” is not a number.");
  set_text (editor, "0x1");
  assert_invalid (editor, "“0x1” is not a number.");
  set_text (editor, "1.5");
  assert_invalid (editor, "1.5 is above the maximum 0.9.");
  set_text (editor, "0.05");
  assert_invalid (editor, "0.05 is below the minimum 0.1.");
  set_text (editor, "0.77");
  assert_invalid (editor, "0.77 is not a multiple of the step 0.05 from 0.1; nearest allowed: 0.75 or 0.8.");

  /* Enter puts it on the grid. */
  press_enter (input);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (input)), ==, "0.75");
  assert_valid (editor);
  assert_sends (fixture, "0.75");

  /* Out of range: Enter brings it back in. */
  set_text (editor, "7");
  press_enter (input);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (input)), ==, "0.90");
  assert_valid (editor);
  assert_sends (fixture, "0.9");

  set_text (editor, "0,35");
  assert_valid (editor);
  assert_sends (fixture, "0.35");

  /* Emptied again: no answer. */
  set_text (editor, "");
  press_enter (input);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (input)), ==, "");
  assert_invalid (editor, "Enter a number");
}

static void
test_number_arrows (Fixture       *fixture,
                    gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"t\", \"label\": \"Threshold\", \"response_type\": \"number\","
                         " \"constraints\": {\"min\": 0.1, \"max\": 0.9, \"step\": 0.05}}");
  GtkWidget *input = triage_response_editor_get_input (editor);

  gtk_spin_button_spin (GTK_SPIN_BUTTON (input), GTK_SPIN_STEP_FORWARD, 0);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (input)), ==, "0.15");
  assert_valid (editor);
  assert_sends (fixture, "0.15");
}

static void
test_number_unbounded (Fixture       *fixture,
                       gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"n\", \"label\": \"How many?\", \"response_type\": \"number\"}");
  GtkWidget *input = triage_response_editor_get_input (editor);
  GtkAdjustment *adjustment = gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (input));

  /* A wide range when the definition sets none. */
  g_assert_cmpfloat (gtk_adjustment_get_lower (adjustment), <=, -1e12);
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), >=, 1e12);

  assert_invalid (editor, "Enter a number");
  set_text (editor, "42");
  assert_sends (fixture, "42");
  set_text (editor, "-3.25");
  assert_sends (fixture, "-3.25");
  set_text (editor, "1e3");
  assert_sends (fixture, "1000");
  set_text (editor, "inf");
  assert_invalid (editor, "“inf” is not a number.");
  set_text (editor, "123456.789");
  press_enter (input);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (input)), ==, "123456.789");
  assert_sends (fixture, "123456.789");

  /* A comma may mark decimals (many locales type one), but before three
   * digits it may as well group thousands: "1,000" is never read as 1. */
  set_text (editor, "12,5");
  assert_sends (fixture, "12.5");
  set_text (editor, "1,000");
  assert_invalid (editor, "“1,000” can be read two ways: type it without a thousands separator.");
  press_enter (input);
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (input)), !=, 1);

  /* A huge number is any number's right: Enter (or the keyboard leaving the
   * field, as a click on Send does) keeps it, never cuts it to a range the
   * definition does not set, and sends it as typed. */
  set_text (editor, "-2e20");
  press_enter (input);
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (input)), ==, -2e20);
  assert_sends (fixture, "-2e+20");
  {
    int natural = 0;

    /* The range that wide does not make the field wider. */
    gtk_widget_measure (input, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
    g_assert_cmpint (natural, <, 400);
  }
}

static void
test_number_step_without_min (Fixture       *fixture,
                              gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"n\", \"label\": \"Offset\", \"response_type\": \"number\","
                         " \"constraints\": {\"step\": 0.5}}");
  GtkWidget *input = triage_response_editor_get_input (editor);

  /* The grid starts at 0 when there is no min. */
  set_text (editor, "0.25");
  g_assert_false (triage_response_editor_get_valid (editor));
  g_assert_true (g_str_has_prefix (triage_response_editor_get_reason (editor),
                                   "0.25 is not a multiple of the step 0.5 from 0"));
  set_text (editor, "-1.5");
  assert_sends (fixture, "-1.5");

  set_text (editor, "2.8");
  press_enter (input);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (input)), ==, "3.0");
  assert_sends (fixture, "3");
}

/* scale */

static void
test_scale (Fixture       *fixture,
            gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"c\", \"label\": \"Rate your confidence\", \"response_type\": \"scale\","
                         " \"constraints\": {\"min\": 1, \"max\": 5, \"min_label\": \"Not confident at all\","
                         " \"max_label\": \"Extremely confident\"}}");
  GtkWidget *input = triage_response_editor_get_input (editor);
  GtkAdjustment *adjustment = gtk_range_get_adjustment (GTK_RANGE (input));
  gboolean min_label = FALSE, max_label = FALSE;

  g_assert_true (GTK_IS_SCALE (input));
  g_assert_cmpfloat (gtk_adjustment_get_lower (adjustment), ==, 1);
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), ==, 5);
  g_assert_true (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (input), GTK_ACCESSIBLE_RELATION_LABELLED_BY));
  g_assert_null (widgets_test_find_descendant (GTK_WIDGET (editor), GTK_TYPE_SPIN_BUTTON));

  {
    GtkWidget *box = gtk_widget_get_next_sibling (input);

    for (GtkWidget *child = gtk_widget_get_first_child (box); child; child = gtk_widget_get_next_sibling (child))
      {
        const char *label = gtk_label_get_label (GTK_LABEL (child));

        min_label |= g_strcmp0 (label, "1 · Not confident at all") == 0;
        max_label |= g_strcmp0 (label, "5 · Extremely confident") == 0;
      }
  }
  g_assert_true (min_label && max_label);

  /* No value until the person picks one: no number, and no fill up to the
   * knob waiting in the middle, which would look chosen. */
  g_assert_false (gtk_scale_get_draw_value (GTK_SCALE (input)));
  g_assert_false (gtk_scale_get_has_origin (GTK_SCALE (input)));
  assert_invalid (editor, "Move the slider to choose a value");

  gtk_range_set_value (GTK_RANGE (input), 4);
  g_assert_true (gtk_scale_get_draw_value (GTK_SCALE (input)));
  g_assert_true (gtk_scale_get_has_origin (GTK_SCALE (input)));
  assert_valid (editor);
  assert_sends (fixture, "4");
}

/* GtkScale draws each mark as a child node named "mark". */
static guint
count_marks (GtkWidget *widget)
{
  guint n = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    n += (g_str_equal (gtk_widget_get_css_name (child), "mark") ? 1 : 0) + count_marks (child);

  return n;
}

static void
test_scale_step (Fixture       *fixture,
                 gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"c\", \"label\": \"Canary share\", \"response_type\": \"scale\","
                         " \"constraints\": {\"min\": 0, \"max\": 52, \"step\": 5}}");
  GtkWidget *input = triage_response_editor_get_input (editor);
  gboolean handled = FALSE;

  /* The top of the grid, not max: 52 is not on it. A mark per step. */
  g_assert_cmpfloat (gtk_adjustment_get_upper (gtk_range_get_adjustment (GTK_RANGE (input))), ==, 50);
  g_assert_cmpuint (count_marks (input), ==, 11);

  /* The slider snaps to the grid, and moving it is choosing. */
  g_signal_emit_by_name (input, "change-value", GTK_SCROLL_JUMP, 17.0, &handled);
  g_assert_true (handled);
  g_assert_cmpfloat (gtk_range_get_value (GTK_RANGE (input)), ==, 15);
  assert_valid (editor);
  g_signal_emit_by_name (input, "change-value", GTK_SCROLL_JUMP, 18.0, &handled);
  g_assert_cmpfloat (gtk_range_get_value (GTK_RANGE (input)), ==, 20);
  g_signal_emit_by_name (input, "change-value", GTK_SCROLL_JUMP, 60.0, &handled);
  g_assert_cmpfloat (gtk_range_get_value (GTK_RANGE (input)), ==, 50);
  assert_sends (fixture, "50");
}

static void
test_scale_huge (Fixture       *fixture,
                 gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"c\", \"label\": \"Budget\", \"response_type\": \"scale\","
                         " \"constraints\": {\"min\": 0, \"max\": 9000000000000}}");
  GtkWidget *spin = widgets_test_find_descendant (GTK_WIDGET (editor), GTK_TYPE_SPIN_BUTTON);

  /* Marks capped; too many steps to pick with the pointer: an exact value next to the slider. */
  g_assert_cmpuint (count_marks (triage_response_editor_get_input (editor)), <=, 12);
  g_assert_cmpuint (count_marks (triage_response_editor_get_input (editor)), >=, 2);
  g_assert_nonnull (spin);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 8999999999999);
  assert_valid (editor);
  assert_sends (fixture, "8999999999999");
}

/* read-only, untrusted text */

static void
test_read_only (Fixture       *fixture,
                gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"why\", \"label\": \"Why?\", \"response_type\": \"text\"}");
  GtkWidget *input = triage_response_editor_get_input (editor);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (input));
  GtkTextIter start, end;
  g_autofree char *kept = NULL;

  /* Typed, then the focus leaves for the send button, and the answer freezes
   * while the text view's cursor blink still runs (as a click on Send does). */
  g_assert_true (gtk_widget_grab_focus (input));
  set_text (editor, "half typed");
  widgets_test_wait_ms (300);
  g_assert_true (gtk_widget_grab_focus (triage_response_editor_get_submit_button (editor)));
  triage_response_editor_set_editable (editor, FALSE);

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  kept = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  g_assert_cmpstr (kept, ==, "half typed");
  g_assert_false (gtk_text_view_get_editable (GTK_TEXT_VIEW (input)));
  g_assert_false (gtk_widget_is_visible (triage_response_editor_get_submit_button (editor)));
  g_assert_false (triage_response_editor_submit (editor));
  g_assert_cmpuint (fixture->record.count, ==, 0);

  /* It never takes the focus back, and survives the blink (GTK 4.8 aborts on
   * a blink of a text view whose cursor was hidden meanwhile). */
  g_assert_false (gtk_widget_grab_focus (input));
  widgets_test_wait_ms (1500);

  triage_response_editor_set_editable (editor, TRUE);
  g_assert_true (gtk_widget_grab_focus (input));
  g_assert_true (gtk_text_view_get_editable (GTK_TEXT_VIEW (input)));
  g_assert_true (gtk_widget_is_visible (triage_response_editor_get_submit_button (editor)));
}

static void
test_read_only_choice (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *json = choice_json (3);
  TriageResponseEditor *editor = editor_for (fixture, json);
  GPtrArray *buttons = triage_response_editor_get_option_buttons (editor);

  gtk_check_button_set_active (g_ptr_array_index (buttons, 1), TRUE);
  triage_response_editor_set_editable (editor, FALSE);
  g_assert_false (gtk_widget_is_sensitive (g_ptr_array_index (buttons, 0)));
  g_assert_true (gtk_check_button_get_active (g_ptr_array_index (buttons, 1)));
  g_assert_false (triage_response_editor_submit (editor));
}

static void
test_markup_is_text (Fixture       *fixture,
                     gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"x\", \"label\": \"<b>Pick</b> & go\", \"response_type\": \"choice\","
                         " \"options\": [{\"value\": \"a\", \"label\": \"<i>A</i> & <u>B\"}],"
                         " \"flags\": [\"<span>weird</span>\"]}");
  GPtrArray *buttons = triage_response_editor_get_option_buttons (editor);
  GtkWidget *label = gtk_check_button_get_child (g_ptr_array_index (buttons, 0));
  GtkWidget *badges = triage_response_editor_get_badges (editor);
  GtkWidget *title = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (editor), TRIAGE_TYPE_RESPONSE_EDITOR,
                                                                "title_label"));
  GtkWidget *badge_label = widgets_test_find_descendant (badges, GTK_TYPE_LABEL);

  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (title)), ==, "<b>Pick</b> & go");
  g_assert_false (gtk_label_get_use_markup (GTK_LABEL (title)));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, "<i>A</i> & <u>B");
  g_assert_false (gtk_label_get_use_markup (GTK_LABEL (label)));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (badge_label)), ==, "<span>weird</span>");
}

static void
test_badges (Fixture       *fixture,
             gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"x\", \"label\": \"Drop table\", \"response_type\": \"simple\","
                         " \"flags\": [\"destructive\", \"costly\", \"needs_review\"]}");
  GtkWidget *badges = triage_response_editor_get_badges (editor);
  const char *words[] = { "Destructive", "Costly", "Needs review" };
  const char *icons[] = { "user-trash-symbolic", "triage-costly-symbolic", "emoji-flags-symbolic" };
  guint i = 0;

  g_assert_true (gtk_widget_get_visible (badges));
  for (GtkWidget *badge = gtk_widget_get_first_child (badges); badge; badge = gtk_widget_get_next_sibling (badge), i++)
    {
      GtkWidget *image = widgets_test_find_descendant (badge, GTK_TYPE_IMAGE);
      GtkWidget *word = widgets_test_find_descendant (badge, GTK_TYPE_LABEL);

      /* Never colour alone: an icon and a word each. */
      g_assert_cmpstr (gtk_image_get_icon_name (GTK_IMAGE (image)), ==, icons[i]);
      g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (word)), ==, words[i]);
    }
  g_assert_cmpuint (i, ==, 3);

  /* The costly icon ships in the resource. */
  g_assert_true (gtk_icon_theme_has_icon (gtk_icon_theme_get_for_display (gdk_display_get_default ()),
                                          "triage-costly-symbolic"));
}

int
main (int   argc,
      char *argv[])
{
  widgets_test_init (&argc, &argv);

#define ADD(path, func) g_test_add ("/response-editor/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("simple", test_simple);
  ADD ("binary", test_binary);
  ADD ("choice/radio", test_choice_radio);
  ADD ("choice/dropdown", test_choice_dropdown);
  ADD ("multi-choice", test_multi_choice);
  ADD ("text", test_text);
  ADD ("text/ctrl-return-invalid", test_text_ctrl_return_invalid);
  ADD ("number", test_number);
  ADD ("number/arrows", test_number_arrows);
  ADD ("number/unbounded", test_number_unbounded);
  ADD ("number/step-without-min", test_number_step_without_min);
  ADD ("scale", test_scale);
  ADD ("scale/step", test_scale_step);
  ADD ("scale/huge", test_scale_huge);
  ADD ("read-only", test_read_only);
  ADD ("read-only/choice", test_read_only_choice);
  ADD ("markup-is-text", test_markup_is_text);
  ADD ("badges", test_badges);
#undef ADD

  return g_test_run ();
}
