/* test-decision-view-wheel.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The wheel over a box that scrolls inside the decision view's page (suite
 * 'ui'): a long multi_choice's options move while they can, and the page
 * moves when they cannot (triage-scroll-chain.c).
 */

#define G_LOG_DOMAIN "test-decision-view-wheel"

#include "decision-view-test-common.h"
#include "ui-test-util.h"

static gboolean
can_move (GtkAdjustment *adjustment)
{
  return gtk_adjustment_get_upper (adjustment) > gtk_adjustment_get_page_size (adjustment) + 100;
}

/* A multi_choice past five options scrolls its list of check buttons in a
 * box of bounded height: the wheel over them moves them while they can, and the
 * page at their ends, or when a search leaves them nothing to scroll. */
static void
test_multi_choice_options (Fixture       *fixture,
                           gconstpointer  data)
{
  GString *json = g_string_new ("[{\"id\": \"to\", \"label\": \"Hosts\", \"response_type\": \"multi_choice\","
                                " \"options\": [");
  g_autofree char *actions = NULL;
  GtkAdjustment *page = gtk_scrolled_window_get_vadjustment (fixture->view->scroller);
  TriageResponseEditor *editor;
  GtkWidget *inner, *entry;
  GtkAdjustment *box;
  GListModel *shown;

  for (guint i = 0; i < 60; i++)
    g_string_append_printf (json, "%s{\"value\": \"h%u\", \"label\": \"Host %u\"}", i ? ", " : "", i, i);
  g_string_append (json, "]}]");
  actions = g_string_free (json, FALSE);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 600, 400);
  decision_view_test_show (fixture, actions, NULL, 0);
  editor = decision_view_test_editor (fixture, "to");
  /* The options' list, and what its search shows. */
  shown = gtk_no_selection_get_model (GTK_NO_SELECTION (gtk_list_view_get_model (
    GTK_LIST_VIEW (triage_response_editor_get_input (editor)))));
  inner = gtk_widget_get_ancestor (triage_response_editor_get_input (editor), GTK_TYPE_SCROLLED_WINDOW);
  g_assert_true (inner != GTK_WIDGET (fixture->view->scroller));
  box = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (inner));
  WAIT_UNTIL (can_move (page) && can_move (box));
  gtk_adjustment_set_value (page, 100);
  gtk_adjustment_set_value (box, 0);

  /* At the options' top: up moves the page; down, the options. */
  g_assert_false (ui_test_wheel_over (inner, -1));
  g_assert_cmpfloat (gtk_adjustment_get_value (page), <, 100);
  gtk_adjustment_set_value (page, 100);
  g_assert_true (ui_test_wheel_over (inner, 1));
  g_assert_cmpfloat (gtk_adjustment_get_value (page), ==, 100);

  /* At their end: down moves the page. */
  gtk_adjustment_set_value (box, gtk_adjustment_get_upper (box) - gtk_adjustment_get_page_size (box));
  g_assert_false (ui_test_wheel_over (inner, 1));
  g_assert_cmpfloat (gtk_adjustment_get_value (page), >, 100);

  /* One option left by a search: nothing to scroll, the page moves. */
  entry = widgets_test_find_descendant (GTK_WIDGET (editor), GTK_TYPE_SEARCH_ENTRY);
  gtk_editable_set_text (GTK_EDITABLE (entry), "host 42");
  WAIT_UNTIL (g_list_model_get_n_items (shown) == 1);
  WAIT_UNTIL (!can_move (box) && gtk_adjustment_get_value (box) == 0);
  gtk_adjustment_set_value (page, 100);
  g_assert_false (ui_test_wheel_over (inner, 1));
  g_assert_cmpfloat (gtk_adjustment_get_value (page), >, 100);
  gtk_adjustment_set_value (page, 100);
  g_assert_false (ui_test_wheel_over (inner, -1));
  g_assert_cmpfloat (gtk_adjustment_get_value (page), <, 100);
}

int
main (int   argc,
      char *argv[])
{
  widgets_test_init (&argc, &argv);

  DECISION_VIEW_TEST_ADD ("wheel/multi-choice-options", test_multi_choice_options);

  return g_test_run ();
}
