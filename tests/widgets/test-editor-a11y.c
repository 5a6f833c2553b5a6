/* test-editor-a11y.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a person with a screen reader and the keyboard alone meets in an
 * action's editor (suite 'ui'): a pick-one option says it is a radio button,
 * the field being typed in says its limits and, while the answer cannot be
 * sent, why (the Send button, which says it too, is insensitive then, so Tab
 * never reaches it), and so does each box of a multi_choice.
 */

#define G_LOG_DOMAIN "test-editor-a11y"

#include "editor-test-fixture.h"

static void
type_text (TriageResponseEditor *editor,
           const char           *text)
{
  GtkWidget *input = triage_response_editor_get_input (editor);

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (input)), text, -1);
}

/* A choice's options are one group: a screen reader says "radio button", as
 * it does for an AITP radio decision; a multi_choice's stay check boxes.
 * GTK 4.8 leaves a grouped GtkCheckButton a check box by itself. */
static void
test_choice_radio_role (Fixture       *fixture,
                        gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"env\", \"label\": \"Environment\", \"response_type\": \"choice\","
                         " \"options\": [{\"value\": \"prod\", \"label\": \"Production\"},"
                         " {\"value\": \"stg\", \"label\": \"Staging\"}]}");
  GPtrArray *buttons = triage_response_editor_get_option_buttons (editor);

  g_assert_cmpuint (buttons->len, ==, 2);
  for (guint i = 0; i < buttons->len; i++)
    gtk_test_accessible_assert_role (GTK_ACCESSIBLE (g_ptr_array_index (buttons, i)),
                                     GTK_ACCESSIBLE_ROLE_RADIO);
  gtk_test_accessible_assert_state (GTK_ACCESSIBLE (g_ptr_array_index (buttons, 1)),
                                    GTK_ACCESSIBLE_STATE_CHECKED, GTK_ACCESSIBLE_TRISTATE_FALSE);
  gtk_check_button_set_active (g_ptr_array_index (buttons, 1), TRUE);
  gtk_test_accessible_assert_state (GTK_ACCESSIBLE (g_ptr_array_index (buttons, 1)),
                                    GTK_ACCESSIBLE_STATE_CHECKED, GTK_ACCESSIBLE_TRISTATE_TRUE);
}

static void
test_multi_choice_check_role (Fixture       *fixture,
                              gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"to\", \"label\": \"Teams\", \"response_type\": \"multi_choice\","
                         " \"options\": [{\"value\": \"a\", \"label\": \"Alpha\"}, {\"value\": \"b\", \"label\": \"Beta\"},"
                         " {\"value\": \"c\", \"label\": \"Gamma\"}],"
                         " \"constraints\": {\"min_selections\": 2, \"max_selections\": 2}}");
  GPtrArray *buttons = triage_response_editor_get_option_buttons (editor);

  g_assert_cmpuint (buttons->len, ==, 3);
  for (guint i = 0; i < buttons->len; i++)
    gtk_test_accessible_assert_role (GTK_ACCESSIBLE (g_ptr_array_index (buttons, i)),
                                     GTK_ACCESSIBLE_ROLE_CHECKBOX);

  /* Each box says what is asked of the group, and whether it is met (the
   * count is the counter's, not said again at each tick). */
  gtk_test_accessible_assert_property (g_ptr_array_index (buttons, 0), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "Too few selected: at least 2.");
  gtk_check_button_set_active (g_ptr_array_index (buttons, 0), TRUE);
  gtk_check_button_set_active (g_ptr_array_index (buttons, 2), TRUE);
  gtk_test_accessible_assert_property (g_ptr_array_index (buttons, 1), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "Select 2");
  gtk_check_button_set_active (g_ptr_array_index (buttons, 1), TRUE);
  gtk_test_accessible_assert_property (g_ptr_array_index (buttons, 1), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "Too many selected: at most 2.");
}

/* More options than radio buttons: a drop-down, whose search field says
 * what it is, not "GtkSearchEntry", and whose button says what is missing. */
static void
test_dropdown_search_named (Fixture       *fixture,
                            gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"r\", \"label\": \"Region\", \"response_type\": \"choice\","
                         " \"options\": [{\"value\": \"a\", \"label\": \"A\"}, {\"value\": \"b\", \"label\": \"B\"},"
                         " {\"value\": \"c\", \"label\": \"C\"}, {\"value\": \"d\", \"label\": \"D\"},"
                         " {\"value\": \"e\", \"label\": \"E\"}, {\"value\": \"f\", \"label\": \"F\"}]}");
  GtkWidget *input = triage_response_editor_get_input (editor);
  GtkWidget *search;

  g_assert_true (GTK_IS_DROP_DOWN (input));
  search = widgets_test_find_descendant (input, GTK_TYPE_SEARCH_ENTRY);
  g_assert_nonnull (search);
  gtk_test_accessible_assert_property (search, GTK_ACCESSIBLE_PROPERTY_LABEL, "Search the options");

  /* Its button, which takes the focus, says why nothing can be sent yet. */
  gtk_test_accessible_assert_property (widgets_test_find_descendant (input, GTK_TYPE_TOGGLE_BUTTON),
                                       GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "Choose an option");
}

/* The text field says its placeholder and its limits; while the answer
 * cannot be sent, why (the Send button says it with the count). */
static void
test_text_says_limits (Fixture       *fixture,
                       gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"why\", \"label\": \"Reason\", \"response_type\": \"text\","
                         " \"constraints\": {\"min_length\": 10, \"max_length\": 40}}");
  GtkWidget *input = triage_response_editor_get_input (editor);
  GtkWidget *submit = triage_response_editor_get_submit_button (editor);

  type_text (editor, "short");
  g_assert_false (triage_response_editor_get_valid (editor));
  gtk_test_accessible_assert_property (submit, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "The answer is 5 characters long, at least 10 required.");
  gtk_test_accessible_assert_property (input, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "Type your answer\nToo short: at least 10 characters.");

  type_text (editor, "long enough now");
  g_assert_true (triage_response_editor_get_valid (editor));
  gtk_test_accessible_assert_property (input, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "Type your answer\n10–40 characters");

  /* Read-only (answered elsewhere): only what was asked. */
  triage_response_editor_set_editable (editor, FALSE);
  gtk_test_accessible_assert_property (input, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "Type your answer");
}

/* A screen reader says a focused control's description again whenever it
 * changes: typed one key at a time, the text field's changes only when the
 * answer turns long enough, then too long, never with the count. */
static void
test_text_description_not_per_key (Fixture       *fixture,
                                   gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"why\", \"label\": \"Reason\", \"response_type\": \"text\","
                         " \"constraints\": {\"min_length\": 3, \"max_length\": 6}}");
  GtkWidget *input = triage_response_editor_get_input (editor);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (input));

  for (guint typed = 1; typed <= 8; typed++)
    {
      const char *said = typed < 3 ? "Type your answer\nToo short: at least 3 characters."
                         : typed <= 6 ? "Type your answer\n3–6 characters"
                         : "Type your answer\nToo long: at most 6 characters.";

      gtk_text_buffer_insert_at_cursor (buffer, "é", -1);
      gtk_test_accessible_assert_property (input, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, said);
    }
}

static gboolean
described_as (GtkWidget  *widget,
              const char *text)
{
  g_autofree char *differs = gtk_test_accessible_check_property (GTK_ACCESSIBLE (widget),
                                                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                                                  text);

  return differs == NULL;
}

/* The number field's says the rule broken, not the number typed. */
static void
test_number_description_not_per_key (Fixture       *fixture,
                                     gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"n\", \"label\": \"Replicas\", \"response_type\": \"number\","
                         " \"constraints\": {\"min\": 1, \"max\": 9}}");
  GtkWidget *input = triage_response_editor_get_input (editor);
  static const struct { const char *text; const char *said; } keys[] = {
    { "1", "From 1 to 9" },
    { "12", "From 1 to 9\nAbove the maximum." },
    { "123", "From 1 to 9\nAbove the maximum." },
    { "123x", "From 1 to 9\nNot a number." },
    { "123xy", "From 1 to 9\nNot a number." },
    { "1,000", "From 1 to 9\nCan be read two ways: no thousands separator." },
  };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      gtk_editable_set_text (GTK_EDITABLE (input), keys[i].text);
      WAIT_UNTIL (described_as (input, keys[i].said));
    }
}

/* A number field keeps its range, and adds why it cannot be sent. */
static void
test_number_says_limits (Fixture       *fixture,
                         gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"n\", \"label\": \"Replicas\", \"response_type\": \"number\","
                         " \"constraints\": {\"min\": 1, \"max\": 9}}");
  GtkWidget *input = triage_response_editor_get_input (editor);
  const char *reason;
  g_autofree char *expected = NULL;

  g_assert_false (triage_response_editor_get_valid (editor));
  reason = triage_response_editor_get_reason (editor);
  g_assert_nonnull (reason);
  expected = g_strdup_printf ("From 1 to 9\n%s", reason);
  gtk_test_accessible_assert_property (input, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, expected);

  gtk_editable_set_text (GTK_EDITABLE (input), "3");
  WAIT_UNTIL (triage_response_editor_get_valid (editor));
  gtk_test_accessible_assert_property (input, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "From 1 to 9");
}

/* A slider starts in the middle with no value: it says so, as a screen
 * reader would otherwise read the middle as the answer. */
static void
test_scale_says_no_value (Fixture       *fixture,
                          gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"c\", \"label\": \"Confidence\", \"response_type\": \"scale\","
                         " \"constraints\": {\"min\": 1, \"max\": 5, \"min_label\": \"Low\","
                         " \"max_label\": \"High\"}}");
  GtkWidget *input = triage_response_editor_get_input (editor);

  gtk_test_accessible_assert_property (input, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "Low – High\nMove the slider to choose a value");
  gtk_range_set_value (GTK_RANGE (input), 4);
  g_assert_true (triage_response_editor_get_valid (editor));
  gtk_test_accessible_assert_property (input, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "Low – High");
}

/* A long slider's "Exact value" spin button, where the value is typed, says
 * what the slider says: its ends, and why the answer cannot be sent yet. */
static void
test_scale_spin_says_limits (Fixture       *fixture,
                             gconstpointer  data)
{
  TriageResponseEditor *editor =
    editor_for (fixture, "{\"id\": \"p\", \"label\": \"Budget\", \"response_type\": \"scale\","
                         " \"constraints\": {\"min\": 0, \"max\": 1000, \"min_label\": \"None\","
                         " \"max_label\": \"All\"}}");
  GtkWidget *spin = editor->scale_spin;

  g_assert_true (GTK_IS_SPIN_BUTTON (spin));
  gtk_test_accessible_assert_property (spin, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "None – All\nMove the slider to choose a value");
  gtk_range_set_value (GTK_RANGE (triage_response_editor_get_input (editor)), 400);
  g_assert_true (triage_response_editor_get_valid (editor));
  gtk_test_accessible_assert_property (spin, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "None – All");
}

/* An agent's label of 3,000 characters: the card is named as its heading
 * shows it, cut, not read out whole. */
static void
test_long_label_cut (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autofree char *label = g_strnfill (3000, 'x');
  g_autofree char *json = g_strdup_printf ("{\"id\": \"t\", \"label\": \"%s\", \"response_type\": \"text\"}",
                                           label);
  TriageResponseEditor *editor = editor_for (fixture, json);
  GtkWidget *title = widgets_test_find_descendant (GTK_WIDGET (editor), GTK_TYPE_LABEL);
  const char *shown = gtk_label_get_label (GTK_LABEL (title));

  g_assert_cmpuint (g_utf8_strlen (shown, -1), <, 200);
  gtk_test_accessible_assert_property (editor, GTK_ACCESSIBLE_PROPERTY_LABEL, shown);
}

int
main (int   argc,
      char *argv[])
{
  widgets_test_init (&argc, &argv);

#define ADD(path, func) g_test_add ("/editor-a11y/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("choice/radio-role", test_choice_radio_role);
  ADD ("multi-choice/check-role", test_multi_choice_check_role);
  ADD ("choice/dropdown-search-named", test_dropdown_search_named);
  ADD ("text/says-limits", test_text_says_limits);
  ADD ("text/description-not-per-key", test_text_description_not_per_key);
  ADD ("number/says-limits", test_number_says_limits);
  ADD ("number/description-not-per-key", test_number_description_not_per_key);
  ADD ("scale/says-no-value", test_scale_says_no_value);
  ADD ("scale/spin-says-limits", test_scale_spin_says_limits);
  ADD ("long-label-cut", test_long_label_cut);
#undef ADD

  return g_test_run ();
}
