/* ui-test-util.c — small helpers shared by the tests of windows (attachments, app, browse)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>

#include "ui-test-util.h"

/* Removes @path and everything below it, not following symbolic links. */
void
ui_test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        ui_test_remove_tree (child);
      else
        g_unlink (child);
    }

  g_rmdir (path);
}

/* The window's width on screen, as its default size counts it (with the
 * border it draws around itself). */
int
ui_test_window_width (GtkWidget *window)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));

  return surface ? gdk_surface_get_width (surface) : 0;
}

/* The narrowest @window can be with its @content, on the same terms. */
int
ui_test_minimum_width (GtkWidget *window,
                       GtkWidget *content)
{
  int frame = ui_test_window_width (window) - gtk_widget_get_width (content);
  int min = 0;

  gtk_widget_measure (content, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
  return min + frame;
}

static void
ui_test_shortcut_free (gpointer data)
{
  UiTestShortcut *shortcut = data;

  g_object_unref (shortcut->controller);
  g_object_unref (shortcut->shortcut);
  g_free (shortcut->trigger);
  g_free (shortcut->action);
  g_free (shortcut);
}

/* Every shortcut of @widget's own shortcut controllers (the widget class's
 * and those its template adds).
 *
 * Returns: (transfer full) (element-type UiTestShortcut): the shortcuts */
GPtrArray *
ui_test_list_shortcuts (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);
  GPtrArray *shortcuts = g_ptr_array_new_with_free_func (ui_test_shortcut_free);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;

      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) item = g_list_model_get_item (G_LIST_MODEL (controller), j);
          UiTestShortcut *shortcut = g_new0 (UiTestShortcut, 1);

          shortcut->controller = GTK_SHORTCUT_CONTROLLER (g_object_ref (controller));
          shortcut->shortcut = g_object_ref (item);
          shortcut->trigger = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (item));
          shortcut->action = gtk_shortcut_action_to_string (gtk_shortcut_get_action (item));
          g_ptr_array_add (shortcuts, shortcut);
        }
    }

  return shortcuts;
}

/* The shortcut controller of @widget that binds @trigger to @action (both as
 * GTK writes them), or %NULL.
 *
 * Returns: (transfer none) (nullable): the controller; the widget keeps it */
GtkShortcutController *
ui_test_find_shortcut (GtkWidget  *widget,
                       const char *trigger,
                       const char *action)
{
  g_autoptr(GPtrArray) shortcuts = ui_test_list_shortcuts (widget);

  for (guint i = 0; i < shortcuts->len; i++)
    {
      UiTestShortcut *shortcut = g_ptr_array_index (shortcuts, i);

      if (g_str_equal (shortcut->trigger, trigger) && g_str_equal (shortcut->action, action))
        return shortcut->controller;
    }

  return NULL;
}

/* Runs, as a key press would (GTK 4 synthesises no key events), the action
 * that @widget's own shortcut controllers bind to @trigger (as GTK writes it,
 * alone or as one of an alternative's triggers); the test fails without one.
 *
 * Returns: whether the action took the key: one it lets go goes on to the
 *   widget with the focus (a text view types it) */
gboolean
ui_test_press_shortcut (GtkWidget  *widget,
                        const char *trigger)
{
  g_autoptr(GPtrArray) shortcuts = ui_test_list_shortcuts (widget);

  for (guint i = 0; i < shortcuts->len; i++)
    {
      UiTestShortcut *shortcut = g_ptr_array_index (shortcuts, i);
      g_auto(GStrv) alternatives = g_strsplit (shortcut->trigger, "|", -1);

      if (g_strv_contains ((const char * const *) alternatives, trigger))
        return gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut->shortcut),
                                             GTK_SHORTCUT_ACTION_EXCLUSIVE, widget, NULL);
    }

  g_error ("No shortcut of %s for %s", G_OBJECT_TYPE_NAME (widget), trigger);
}

/* Runs the local shortcuts of @widget's controllers in @phase that bind
 * @trigger: whether one took the key. */
static gboolean
run_shortcuts (GtkWidget           *widget,
               GtkPropagationPhase  phase,
               const char          *trigger)
{
  g_autoptr(GPtrArray) shortcuts = ui_test_list_shortcuts (widget);

  for (guint i = 0; i < shortcuts->len; i++)
    {
      UiTestShortcut *shortcut = g_ptr_array_index (shortcuts, i);
      GtkEventController *controller = GTK_EVENT_CONTROLLER (shortcut->controller);
      g_auto(GStrv) alternatives = g_strsplit (shortcut->trigger, "|", -1);

      if (gtk_event_controller_get_propagation_phase (controller) != phase ||
          gtk_shortcut_controller_get_scope (shortcut->controller) != GTK_SHORTCUT_SCOPE_LOCAL ||
          !g_strv_contains ((const char * const *) alternatives, trigger))
        continue;
      /* With the shortcut's arguments, as GTK runs it (a list's Down says
       * where to move). */
      if (gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut->shortcut),
                                        GTK_SHORTCUT_ACTION_EXCLUSIVE,
                                        gtk_event_controller_get_widget (controller),
                                        gtk_shortcut_get_arguments (shortcut->shortcut)))
        return TRUE;
    }

  return FALSE;
}

/* Presses @trigger (as GTK writes it) with the keyboard where @window has
 * it, as GTK hands a key press on (GTK 4 synthesises no key events): the
 * local shortcuts of the focus widget's ancestors, outermost first, in the
 * capture phase, the focus widget's in the target phase, then each one's in
 * the bubble phase, innermost first, until one takes it. Only shortcuts:
 * other key controllers (a text view's typing) are not run.
 *
 * Returns: whether a shortcut took the key */
gboolean
ui_test_press_key (GtkWidget  *window,
                   const char *trigger)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));
  g_autoptr(GPtrArray) path = g_ptr_array_new ();

  g_assert_nonnull (focus);
  for (GtkWidget *widget = focus; widget != NULL; widget = gtk_widget_get_parent (widget))
    g_ptr_array_insert (path, 0, widget);

  for (guint i = 0; i < path->len; i++)
    if (run_shortcuts (path->pdata[i], GTK_PHASE_CAPTURE, trigger))
      return TRUE;
  if (run_shortcuts (focus, GTK_PHASE_TARGET, trigger))
    return TRUE;
  for (guint i = path->len; i > 0; i--)
    if (run_shortcuts (path->pdata[i - 1], GTK_PHASE_BUBBLE, trigger))
      return TRUE;

  return FALSE;
}

/* Turns the wheel by @dy over @inner, a scrolled window inside the page, as
 * its capture-phase scroll controller takes it (GTK 4 synthesises no
 * events).
 *
 * Returns: whether @inner was left to take it (nothing handed it on) */
gboolean
ui_test_wheel_over (GtkWidget *inner,
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

  return TRUE;
}

/* Asserts that the whole of @view's text carries one tag that keeps Pango
 * from adding a hyphen where it wraps a line inside a word: the text is an
 * agent's, shown as it is, and such a hyphen is not in it. */
void
ui_test_assert_unhyphenated (GtkTextView *view)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextTag *found = NULL;
  GtkTextIter start, iter;
  g_autoptr(GSList) tags = NULL;

  gtk_text_buffer_get_start_iter (buffer, &start);
  g_assert_false (gtk_text_iter_is_end (&start));
  tags = gtk_text_iter_get_tags (&start);
  for (GSList *l = tags; l != NULL && found == NULL; l = l->next)
    {
      gboolean set = FALSE;
      gboolean hyphens = TRUE;

      g_object_get (l->data, "insert-hyphens-set", &set, "insert-hyphens", &hyphens, NULL);
      if (set && !hyphens)
        found = l->data;
    }
  g_assert_nonnull (found);

  /* From the first character to the last, unbroken. */
  iter = start;
  g_assert_true (gtk_text_iter_starts_tag (&iter, found));
  gtk_text_iter_forward_to_tag_toggle (&iter, found);
  g_assert_true (gtk_text_iter_is_end (&iter));
}
