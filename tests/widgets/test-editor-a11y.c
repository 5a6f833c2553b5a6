/* test-editor-a11y.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a person with a screen reader and the keyboard alone meets in an
 * action's editor (suite 'ui'): a pick-one option says it is a radio button.
 */

#define G_LOG_DOMAIN "test-editor-a11y"

#include "triage-response-editor-private.h"
#include "widgets-test-util.h"

typedef struct
{
  AtpNotification      *notification;
  TriageResponseEditor *editor;
  GtkWidget            *window;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  if (fixture->window != NULL)
    {
      GtkWidget *window = fixture->window;

      g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &fixture->window);
      gtk_window_destroy (GTK_WINDOW (window));
      WAIT_UNTIL (fixture->window == NULL);
    }
  g_clear_pointer (&fixture->notification, atp_notification_unref);
}

static TriageResponseEditor *
editor_for (Fixture    *fixture,
            const char *action_json)
{
  g_autofree char *actions = g_strdup_printf ("[%s]", action_json);
  const AtpAction *action;

  fixture->notification = widgets_test_notification (actions, NULL, 0);
  action = g_ptr_array_index (fixture->notification->actions, 0);
  fixture->editor = TRIAGE_RESPONSE_EDITOR (triage_response_editor_new (fixture->notification, action->id));
  fixture->window = widgets_test_window (GTK_WIDGET (fixture->editor), 480, 400);

  return fixture->editor;
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
}

int
main (int   argc,
      char *argv[])
{
  widgets_test_init (&argc, &argv);

#define ADD(path, func) g_test_add ("/editor-a11y/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("choice/radio-role", test_choice_radio_role);
  ADD ("multi-choice/check-role", test_multi_choice_check_role);
#undef ADD

  return g_test_run ();
}
