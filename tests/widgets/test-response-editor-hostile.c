/* test-response-editor-hostile.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The service's hostile or broken texts in an action's editor (suite 'ui'):
 * bidirectional overrides shown, never obeyed; long texts cut; labels that
 * show nothing named otherwise.
 */

#define G_LOG_DOMAIN "test-response-editor-hostile"

#include "editor-test-fixture.h"

/* A button's text: the label the editor puts in it. */
static const char *
button_label (GtkWidget *button)
{
  return gtk_label_get_label (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (button))));
}

/* A scale's end labels hold the service's texts as every other label does: a
 * bidirectional override shown as U+FFFD, never obeyed, a long text cut, a
 * blank one left out. */
static void
test_scale_hostile_labels (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *json = NULL;
  g_autofree char *long_label = g_strnfill (5000, 'x');
  GtkWidget *ends;
  GtkWidget *low, *high;

  json = g_strdup_printf ("{\"id\": \"c\", \"label\": \"Risk\", \"response_type\": \"scale\","
                          " \"constraints\": {\"min\": 1, \"max\": 5, \"min_label\": \"\u200b\","
                          " \"max_label\": \"\u202e%s\"}}", long_label);
  editor_for (fixture, json);
  ends = gtk_widget_get_next_sibling (triage_response_editor_get_input (fixture->editor));
  low = gtk_widget_get_first_child (ends);
  high = gtk_widget_get_next_sibling (low);

  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (low)), ==, "1");
  g_assert_true (g_str_has_prefix (gtk_label_get_label (GTK_LABEL (high)), "5 · \uFFFDxxx"));
  g_assert_cmpint (g_utf8_strlen (gtk_label_get_label (GTK_LABEL (high)), -1), <, 200);
  g_assert_null (g_strstr_len (gtk_label_get_label (GTK_LABEL (high)), -1, "\u202e"));
}

/* So do a number's unit and placeholder: "\u202eGB 01" read "10 BG". */
static void
test_number_hostile_unit (Fixture       *fixture,
                          gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"n\", \"label\": \"Size\", \"response_type\": \"number\","
                         " \"constraints\": {\"unit\": \"\u202eGB 01\", \"placeholder\": \"\u202eenon\"}}");
  GtkWidget *input = triage_response_editor_get_input (editor);
  GtkWidget *unit = NULL;

  for (GtkWidget *child = gtk_widget_get_next_sibling (input); child; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LABEL (child))
      unit = child;
  g_assert_nonnull (unit);
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (unit)), ==, "\uFFFDGB 01");
  g_assert_cmpstr (gtk_text_get_placeholder_text (GTK_TEXT (gtk_editable_get_delegate (GTK_EDITABLE (input)))),
                   ==, "\uFFFDenon");
}

/* The mark of the action chosen names the answer as every label does: a
 * bidirectional override in it is shown, never obeyed. */
static void
test_chosen_hostile_answer (Fixture       *fixture,
                            gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"keep\", \"label\": \"Keep?\", \"response_type\": \"binary\","
                         " \"options\": {\"true_label\": \"\u202eon ,sey\", \"false_label\": \"No\"}}");
  g_autoptr(JsonNode) answer = atp_json_parse ("true", -1, 0, NULL);

  triage_response_editor_set_editable (editor, FALSE);
  triage_response_editor_set_chosen (editor, TRUE, answer);
  gtk_test_accessible_assert_property (GTK_WIDGET (editor), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "Chosen: \uFFFDon ,sey");
}

/* A label of invisible characters only (our server refuses one; a request
 * stored before, or another server's, may have it) shows nothing: the
 * action's id, the option's value or the answer's meaning stands in. */
static void
test_blank_labels (Fixture       *fixture,
                   gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"approve\", \"label\": \"\u200b\", \"response_type\": \"simple\"}");
  GtkWidget *button = triage_response_editor_get_submit_button (editor);

  g_assert_cmpstr (button_label (button), ==, "approve");
  gtk_test_accessible_assert_property (button, GTK_ACCESSIBLE_PROPERTY_LABEL, "approve");
  gtk_test_accessible_assert_property (GTK_WIDGET (editor), GTK_ACCESSIBLE_PROPERTY_LABEL, "approve");
  fixture_teardown (fixture, NULL);
  fixture->window = NULL;

  editor = editor_for (fixture, "{\"id\": \"keep\", \"label\": \"\u2060\", \"response_type\": \"binary\","
                                " \"options\": {\"true_label\": \"\u200b\", \"false_label\": \"\u3164\"}}");
  g_assert_cmpstr (button_label (triage_response_editor_get_true_button (editor)), ==, "Yes");
  g_assert_cmpstr (button_label (triage_response_editor_get_false_button (editor)), ==, "No");
  fixture_teardown (fixture, NULL);
  fixture->window = NULL;

  editor = editor_for (fixture, "{\"id\": \"env\", \"label\": \"Where\", \"response_type\": \"choice\","
                                " \"options\": [{\"value\": \"prod\", \"label\": \"\u200b\"},"
                                " {\"value\": \"stage\", \"label\": \"Staging\"}]}");
  {
    GPtrArray *buttons = triage_response_editor_get_option_buttons (editor);
    GtkWidget *label = gtk_check_button_get_child (g_ptr_array_index (buttons, 0));

    g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (label)), ==, "prod");
    gtk_test_accessible_assert_property (g_ptr_array_index (buttons, 0), GTK_ACCESSIBLE_PROPERTY_LABEL, "prod");
  }
}

int
main (int   argc,
      char *argv[])
{
  widgets_test_init (&argc, &argv);

#define ADD(path, func) g_test_add ("/response-editor/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("scale/hostile-labels", test_scale_hostile_labels);
  ADD ("number/hostile-unit", test_number_hostile_unit);
  ADD ("read-only/chosen-hostile-answer", test_chosen_hostile_answer);
  ADD ("blank-labels", test_blank_labels);
#undef ADD

  return g_test_run ();
}
