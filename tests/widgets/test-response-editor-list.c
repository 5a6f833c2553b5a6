/* test-response-editor-list.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A multi_choice of many options (suite 'ui'): the list of check buttons
 * over a model of them, its search, and 20,000 options that work as five do.
 */

#define G_LOG_DOMAIN "test-response-editor-list"

#include "editor-test-fixture.h"
#include "triage-choice-option.h"
#include "ui-test-util.h"

/* A long multi_choice's options as a search shows them (TriageChoiceOption). */
static GListModel *
shown_options (TriageResponseEditor *editor)
{
  GtkWidget *input = triage_response_editor_get_input (editor);

  g_assert_true (GTK_IS_LIST_VIEW (input));
  return gtk_no_selection_get_model (GTK_NO_SELECTION (gtk_list_view_get_model (GTK_LIST_VIEW (input))));
}

/* The check button of a long multi_choice's row that says @label, once the
 * list has made it (rows are made for what is on screen only). */
static GtkWidget *
find_row_button (TriageResponseEditor *editor,
                 const char           *label)
{
  GtkWidget *view = triage_response_editor_get_input (editor);

  for (GtkWidget *row = gtk_widget_get_first_child (view); row; row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *button = gtk_widget_get_first_child (row);

      if (GTK_IS_CHECK_BUTTON (button) && gtk_widget_get_mapped (button) &&
          g_strcmp0 (gtk_label_get_label (GTK_LABEL (gtk_check_button_get_child (GTK_CHECK_BUTTON (button)))),
                     label) == 0)
        return button;
    }

  return NULL;
}

static GtkWidget *
row_button (TriageResponseEditor *editor,
            const char           *label)
{
  WAIT_UNTIL (find_row_button (editor, label) != NULL);
  return find_row_button (editor, label);
}

static guint
shown_position (GListModel *shown,
                guint       i)
{
  g_autoptr(TriageChoiceOption) option = g_list_model_get_item (shown, i);

  return triage_choice_option_get_position (option);
}

static char *
hosts_json (guint       n_options,
            const char *constraints)
{
  GString *json = g_string_new ("{\"id\": \"to\", \"label\": \"Hosts\", \"response_type\": \"multi_choice\","
                                " \"options\": [");

  for (guint i = 0; i < n_options; i++)
    g_string_append_printf (json, "%s{\"value\": \"h%u\", \"label\": \"%s %u\"}", i ? ", " : "",
                            i, i == 250 ? "Café" : "Host", i);
  g_string_append_printf (json, "]%s}", constraints);

  return g_string_free (json, FALSE);
}

/* A multi_choice of 300 options: a list of check buttons and a search over
 * them, as a choice that long gets in its drop-down. Ticked options stay
 * shown; the counter counts them all. */
static void
test_multi_choice_search (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autofree char *action = hosts_json (300, "");
  TriageResponseEditor *editor = editor_for (fixture, action);
  GtkWidget *counter = triage_response_editor_get_counter_label (editor);
  GListModel *shown = shown_options (editor);
  GtkWidget *entry;

  g_assert_cmpuint (triage_response_editor_get_option_buttons (editor)->len, ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 300);
  entry = widgets_test_find_descendant (GTK_WIDGET (editor), GTK_TYPE_SEARCH_ENTRY);
  g_assert_nonnull (entry);
  gtk_test_accessible_assert_property (entry, GTK_ACCESSIBLE_PROPERTY_LABEL, "Search the options");

  gtk_check_button_set_active (GTK_CHECK_BUTTON (row_button (editor, "Host 3")), TRUE);

  /* "host 1": Host 1, 10–19, 100–199 and the ticked Host 3. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "host 1");
  WAIT_UNTIL (g_list_model_get_n_items (shown) == 112);
  for (guint i = 0; i < 112; i++)
    {
      guint position = shown_position (shown, i);
      g_autofree char *label = g_strdup_printf ("Host %u", position);

      g_assert_true (position == 3 || (position != 250 && g_str_has_prefix (label, "Host 1")));
    }
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (counter)), ==, "1 selected");

  /* Case and accents aside. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "CAFE");
  /* (Replacing the text empties it first, which a search entry applies at once.) */
  WAIT_UNTIL (g_list_model_get_n_items (shown) == 2);
  g_assert_cmpuint (shown_position (shown, 1), ==, 250);
  g_assert_false (gtk_widget_get_visible (editor->option_filter_empty));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (row_button (editor, "Café 250")), TRUE);

  /* Nothing matches: said, the ticked ones still shown. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "zzz");
  WAIT_UNTIL (gtk_widget_get_visible (editor->option_filter_empty));
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 2);

  /* Escape clears the search: all shown again. */
  g_signal_emit_by_name (entry, "stop-search");
  WAIT_UNTIL (g_list_model_get_n_items (shown) == 300);
  g_assert_false (gtk_widget_get_visible (editor->option_filter_empty));
  assert_valid (editor);
  assert_sends (fixture, "[\"h3\",\"h250\"]");
}

/* 20,000 options (28.5 s frozen when each was a check button): the list
 * makes rows for what is on screen; ticking, the limits, the search, the
 * keyboard, what a screen reader hears and sending work as with five. The
 * time is bench/app's (bench-choices), never a test's. */
static void
test_multi_choice_huge (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autofree char *action = hosts_json (20000, ", \"constraints\": {\"min_selections\": 1, \"max_selections\": 2}");
  TriageResponseEditor *editor = editor_for (fixture, action);
  GtkWidget *view = triage_response_editor_get_input (editor);
  GtkWidget *counter = triage_response_editor_get_counter_label (editor);
  GListModel *shown = shown_options (editor);
  GtkWidget *entry = widgets_test_find_descendant (GTK_WIDGET (editor), GTK_TYPE_SEARCH_ENTRY);
  GtkWidget *first, *last;
  guint made = 0;

  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 20000);
  g_assert_true (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_RELATION_LABELLED_BY));
  assert_invalid (editor, "0 selected, at least 1 required.");
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (counter)), ==, "0 of 1–2 selected");

  /* A row is a check box named by its option, that says what is asked. */
  first = row_button (editor, "Host 0");
  /* Rows for what is on screen and about 200 around it (GTK 4.8's list
   * view), and no more options made than they show. */
  g_assert_cmpuint (widgets_test_count_descendants (view, GTK_TYPE_CHECK_BUTTON), <, 500);
  for (guint i = 0; i < 20000; i++)
    made += triage_choice_option_list_peek (editor->option_list, i) != NULL;
  g_assert_cmpuint (made, <, 500);
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (first), GTK_ACCESSIBLE_ROLE_CHECKBOX);
  gtk_test_accessible_assert_property (first, GTK_ACCESSIBLE_PROPERTY_LABEL, "Host 0");
  gtk_test_accessible_assert_property (first, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "Too few selected: at least 1.");

  /* Space ticks the focused option. */
  g_assert_true (gtk_widget_grab_focus (first));
  g_assert_true (ui_test_press_key (fixture->window, "space"));
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (first)));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (counter)), ==, "1 of 1–2 selected");
  assert_valid (editor);

  /* Down goes to the next option. */
  g_assert_true (ui_test_press_key (fixture->window, "Down"));
  WAIT_UNTIL (gtk_root_get_focus (GTK_ROOT (fixture->window)) == find_row_button (editor, "Host 1"));

  /* The last option, found by a search; the ticked one stays shown. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "host 19999");
  WAIT_UNTIL (g_list_model_get_n_items (shown) == 2);
  last = row_button (editor, "Host 19999");
  gtk_test_accessible_assert_property (last, GTK_ACCESSIBLE_PROPERTY_LABEL, "Host 19999");
  gtk_check_button_set_active (GTK_CHECK_BUTTON (last), TRUE);
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (counter)), ==, "2 of 1–2 selected");

  /* A third, off screen, is over the limit. */
  _triage_response_editor_set_option_active (editor, 12345, TRUE);
  assert_invalid (editor, "3 selected, at most 2 allowed.");
  g_assert_true (gtk_widget_has_css_class (counter, "error"));
  _triage_response_editor_set_option_active (editor, 12345, FALSE);
  assert_valid (editor);

  g_signal_emit_by_name (entry, "stop-search");
  WAIT_UNTIL (g_list_model_get_n_items (shown) == 20000);
  assert_sends (fixture, "[\"h0\",\"h19999\"]");

  /* Read-only: the ticks stay, nothing changes them (a row on screen). */
  triage_response_editor_set_editable (editor, FALSE);
  g_assert_false (gtk_widget_is_sensitive (row_button (editor, "Host 19999")));
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (row_button (editor, "Host 19999"))));
  g_assert_false (triage_response_editor_submit (editor));
}

int
main (int   argc,
      char *argv[])
{
  widgets_test_init (&argc, &argv);

#define ADD(path, func) g_test_add ("/response-editor/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("multi-choice/search", test_multi_choice_search);
  ADD ("multi-choice/huge", test_multi_choice_huge);
#undef ADD

  return g_test_run ();
}
