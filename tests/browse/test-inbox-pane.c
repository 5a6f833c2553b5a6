/* test-inbox-pane.c — the inbox pane: sorting, empty state, unread marks,
 * keyboard triage, the server's wait (search and filters:
 * test-inbox-pane-search.c)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "inbox-pane-test-common.h"
#include "midnight-test-util.h"
#include "triage-decision-format.h"
#include "triage-browse-style.h"
#include "triage-inbox-row.h"
#include "ui-test-util.h"

static void
collect_rows (GtkWidget *widget,
              GPtrArray *rows)
{
  if (TRIAGE_IS_INBOX_ROW (widget) && gtk_widget_get_mapped (widget) &&
      triage_inbox_row_get_request (TRIAGE_INBOX_ROW (widget)) != NULL)
    g_ptr_array_add (rows, widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_rows (child, rows);
}

static TriageInboxRow *
row_for (Fixture    *f,
         const char *id)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  gtk_test_widget_wait_for_draw (f->window);
  collect_rows (GTK_WIDGET (f->pane), rows);
  for (guint i = 0; i < rows->len; i++)
    {
      TriageInboxRow *row = g_ptr_array_index (rows, i);

      if (g_str_equal (triage_request_get_id (triage_inbox_row_get_request (row)), id))
        return row;
    }

  return NULL;
}

static void
clipboard_text_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  char **text = user_data;

  *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, NULL);
  if (*text == NULL)
    *text = g_strdup ("");
}

static void
make_program (const char *dir,
              const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, "#!/bin/sh\n", -1, NULL));
  g_assert_cmpint (g_chmod (path, 0700), ==, 0);
}

/* Run from a build tree (build-aux/start.sh, the README's first command),
 * the suggested command names the tree's triage-ask by its whole path: no
 * new terminal has it on its PATH, and "triage-ask" alone was "command not
 * found". Installed, triage-ask lies beside the app and keeps its name. */
static void
test_example_command (void)
{
  g_autofree char *root = g_dir_make_tmp ("triage-example-XXXXXX", NULL);
  g_autofree char *tree = g_build_filename (root, "my build", "src", NULL);
  g_autofree char *app_dir = g_build_filename (tree, "app", NULL);
  g_autofree char *cli_dir = g_build_filename (tree, "cli", NULL);
  g_autofree char *app = g_build_filename (app_dir, "triage", NULL);
  g_autofree char *bin = g_build_filename (root, "bin", NULL);
  g_autofree char *installed = g_build_filename (bin, "triage", NULL);
  g_autofree char *ask = g_build_filename (cli_dir, "triage-ask", NULL);
  g_autofree char *quoted = g_shell_quote (ask);
  g_autofree char *expected = g_strconcat (quoted, " --confirm \"Deploy 2.1 to production?\"", NULL);
  g_autofree char *in_tree = NULL;
  g_autofree char *alone = NULL;
  g_autofree char *beside = NULL;
  g_autofree char *unknown = NULL;

  make_program (app_dir, "triage");
  alone = triage_inbox_dup_example_command (app);
  g_assert_cmpstr (alone, ==, TRIAGE_INBOX_EXAMPLE_COMMAND);

  make_program (cli_dir, "triage-ask");
  in_tree = triage_inbox_dup_example_command (app);
  g_assert_cmpstr (in_tree, ==, expected);

  make_program (bin, "triage");
  make_program (bin, "triage-ask");
  beside = triage_inbox_dup_example_command (installed);
  g_assert_cmpstr (beside, ==, TRIAGE_INBOX_EXAMPLE_COMMAND);

  unknown = triage_inbox_dup_example_command (NULL);
  g_assert_cmpstr (unknown, ==, TRIAGE_INBOX_EXAMPLE_COMMAND);

  ui_test_remove_tree (root);
}

/* In remote mode the empty inbox does not suggest the local triage-ask
 * command (it would reach a local server nobody looks at): it says where
 * agents send; back in local mode, the command again. */
static void
test_empty_remote_hint (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  GtkWidget *pane;
  AdwStatusPage *empty;
  GtkWidget *example;

  g_settings_set_enum (settings, "server-mode", 1);
  g_settings_set_string (settings, "server-url", "https://triage.example.com");
  pane = g_object_ref_sink (triage_inbox_pane_new ());
  empty = ADW_STATUS_PAGE (gtk_widget_get_template_child (pane, TRIAGE_TYPE_INBOX_PANE, "empty_page"));
  example = GTK_WIDGET (gtk_widget_get_template_child (pane, TRIAGE_TYPE_INBOX_PANE, "example_label"));

  g_assert_cmpint (triage_inbox_pane_get_state (TRIAGE_INBOX_PANE (pane)), ==, TRIAGE_INBOX_PANE_EMPTY);
  g_assert_nonnull (strstr (adw_status_page_get_description (empty), "https://triage.example.com"));
  g_assert_null (strstr (adw_status_page_get_description (empty), "terminal"));
  g_assert_false (gtk_widget_is_visible (gtk_widget_get_parent (example)));

  /* Back to local mode while shown: the command again. */
  g_settings_set_enum (settings, "server-mode", 0);
  g_assert_nonnull (strstr (adw_status_page_get_description (empty), "run this in a terminal"));
  g_assert_true (gtk_widget_get_visible (gtk_widget_get_parent (example)));
  g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (example)), "triage-ask --confirm"));

  g_settings_reset (settings, "server-mode");
  g_settings_reset (settings, "server-url");
  gtk_widget_unparent (pane);
  g_object_unref (pane);
}

static void
test_empty (Fixture       *f,
            gconstpointer  data)
{
  GtkWidget *example;
  GtkWidget *status;
  g_autofree char *copied = NULL;
  const char *id;

  g_assert_cmpint (triage_inbox_pane_get_state (f->pane), ==, TRIAGE_INBOX_PANE_EMPTY);

  /* The first-run help names the command that sends a first request. */
  example = inbox_pane_test_find_widget (GTK_WIDGET (f->pane), GTK_TYPE_LABEL,
                                         TRIAGE_INBOX_EXAMPLE_COMMAND);
  g_assert_nonnull (example);
  g_assert_true (gtk_widget_is_visible (example));
  g_assert_cmpstr (TRIAGE_INBOX_EXAMPLE_COMMAND, ==,
                   "triage-ask --confirm \"Deploy 2.1 to production?\"");
  status = gtk_widget_get_ancestor (example, ADW_TYPE_STATUS_PAGE);
  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (status)), ==, "No Pending Requests");
  g_assert_true (gtk_widget_get_child_visible (status) && gtk_widget_is_visible (status));

  /* "Copy Command" puts it on the clipboard. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->pane), "inbox.copy-example", NULL));
  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (GTK_WIDGET (f->pane)), NULL,
                                 clipboard_text_cb, &copied);
  browse_test_wait_for (copied != NULL);
  g_assert_cmpstr (copied, ==, TRIAGE_INBOX_EXAMPLE_COMMAND);

  id = inbox_pane_test_add_request (f, "CI", NULL, "First", "d", 0, 1);
  inbox_pane_test_settle (f);
  g_assert_cmpint (triage_inbox_pane_get_state (f->pane), ==, TRIAGE_INBOX_PANE_LIST);
  inbox_pane_test_remove_request (f, id);
  inbox_pane_test_settle (f);
  g_assert_cmpint (triage_inbox_pane_get_state (f->pane), ==, TRIAGE_INBOX_PANE_EMPTY);
}

static void
test_sorted (Fixture       *f,
             gconstpointer  data)
{
  /* Added out of order; shown by deadline, then without one oldest first. */
  inbox_pane_test_add_request (f, "CI", NULL, "no deadline, newer", "d", 0, 1);
  inbox_pane_test_add_request (f, "CI", NULL, "deadline in 30", "d", 30, 5);
  inbox_pane_test_add_request (f, "CI", NULL, "no deadline, older", "d", 0, 50);
  inbox_pane_test_add_request (f, "CI", NULL, "deadline in 5", "d", 5, 2);
  inbox_pane_test_add_request (f, "CI", NULL, "deadline in 30, older", "d", 30, 9);

  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==, 5);
  g_assert_cmpstr (triage_request_get_title (inbox_pane_test_visible_at (f, 0)), ==,
                   "deadline in 5");
  g_assert_cmpstr (triage_request_get_title (inbox_pane_test_visible_at (f, 1)), ==,
                   "deadline in 30, older");
  g_assert_cmpstr (triage_request_get_title (inbox_pane_test_visible_at (f, 2)), ==,
                   "deadline in 30");
  g_assert_cmpstr (triage_request_get_title (inbox_pane_test_visible_at (f, 3)), ==,
                   "no deadline, older");
  g_assert_cmpstr (triage_request_get_title (inbox_pane_test_visible_at (f, 4)), ==,
                   "no deadline, newer");
}

static GtkEventController *
find_own_key_controller (GtkWidget *widget,
                         gpointer   owner)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_KEY (controller) &&
          g_signal_handler_find (controller, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, owner) != 0)
        return controller;
    }

  return NULL;
}

static gboolean
focus_within (Fixture   *f,
              GtkWidget *widget)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (f->window));

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

static void
test_keyboard (Fixture       *f,
               gconstpointer  data)
{
  GtkWidget *entry = inbox_pane_test_find_widget (GTK_WIDGET (f->pane), GTK_TYPE_SEARCH_ENTRY,
                                                  NULL);
  GtkWidget *list = inbox_pane_test_find_widget (GTK_WIDGET (f->pane), GTK_TYPE_LIST_VIEW, NULL);
  GtkEventController *keys;
  gboolean handled = FALSE;
  TriageRequest *second;

  triage_inbox_pane_set_incremental_threshold (f->pane, 0);
  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *title = g_strdup_printf ("Request %02u %s", i, i % 2 ? "odd" : "even");

      inbox_pane_test_add_request (f, "CI", NULL, title, "d", 0, 100 - i);
    }
  inbox_pane_test_settle (f);

  /* Ctrl+F: the shortcut is there (window-wide while the pane is shown) and focuses the search. */
  g_assert_nonnull (ui_test_find_shortcut (GTK_WIDGET (f->pane), "<Control>f",
                                          "action(inbox.focus-search)"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->pane), "inbox.focus-search", NULL));
  g_assert_true (focus_within (f, entry));

  /* Typing filters (after the entry's pause). */
  gtk_editable_set_text (GTK_EDITABLE (entry), "odd");
  browse_test_wait_for (g_list_model_get_n_items (triage_inbox_pane_get_visible_model (f->pane)) == 10);

  /* Down from the search: the list takes the keyboard, on the first request. */
  keys = find_own_key_controller (entry, f->pane);
  g_assert_nonnull (keys);
  g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_Down, 0, 0, &handled);
  g_assert_true (handled);
  g_assert_true (focus_within (f, list));
  g_assert_true (triage_inbox_pane_get_selected_request (f->pane) ==
                 inbox_pane_test_visible_at (f, 0));
  g_assert_cmpuint (f->activated->len, ==, 0);

  /* Enter on a row (the list's "activate") opens it. */
  second = inbox_pane_test_visible_at (f, 1);
  g_signal_emit_by_name (list, "activate", 1);
  g_assert_cmpuint (f->activated->len, ==, 1);
  g_assert_true (g_ptr_array_index (f->activated, 0) == second);
  g_assert_true (triage_inbox_pane_get_current_request (f->pane) == second);
  g_assert_true (triage_inbox_pane_get_selected_request (f->pane) == second);

  /* Enter in the search opens the selected request. */
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpuint (f->activated->len, ==, 2);
  g_assert_true (g_ptr_array_index (f->activated, 1) == second);

  /* Escape clears the search; a second Escape goes back to the list. */
  triage_inbox_pane_focus_search (f->pane);
  g_signal_emit_by_name (entry, "stop-search");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "");
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==, 20);
  g_assert_true (focus_within (f, entry));
  g_signal_emit_by_name (entry, "stop-search");
  g_assert_true (focus_within (f, list));

  /* Other keys are left to the entry. */
  handled = TRUE;
  g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_a, 0, 0, &handled);
  g_assert_false (handled);
}

/* Emits @signal on every controller of @type on @widget, as GTK does for an
 * event (GTK 4 has no public way to synthesise pointer events; the handlers
 * connected to the controllers are what an event runs). */
static guint
emit_on_controllers (GtkWidget  *widget,
                     GType       type,
                     const char *signal,
                     int         n_press)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);
  guint emitted = 0;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (!G_TYPE_CHECK_INSTANCE_TYPE (controller, type))
        continue;
      if (type == GTK_TYPE_GESTURE_CLICK)
        g_signal_emit_by_name (controller, signal, n_press, 1.0, 1.0);
      else
        g_signal_emit_by_name (controller, signal, 1.0, 1.0);
      emitted++;
    }

  return emitted;
}

/* Pointing at a row gives it the hover tint only: the selection stays on
 * the open request (it once followed the pointer, and stayed where the
 * pointer left it). A click opens the row. */
static void
test_pointer (Fixture       *f,
              gconstpointer  data)
{
  const char *first = inbox_pane_test_add_request (f, "CI", NULL, "First", "d", 0, 20);
  const char *second = inbox_pane_test_add_request (f, "CI", NULL, "Second", "d", 0, 10);
  TriageInboxRow *second_row;
  GtkWidget *item_widget;

  inbox_pane_test_settle (f);
  g_assert_true (triage_inbox_pane_show_request (f->pane, first));
  g_assert_cmpstr (triage_request_get_id (triage_inbox_pane_get_selected_request (f->pane)),
                   ==, first);

  second_row = row_for (f, second);
  g_assert_nonnull (second_row);
  item_widget = gtk_widget_get_parent (GTK_WIDGET (second_row));

  /* The pointer enters the second row (the list item's motion controller). */
  g_assert_cmpuint (emit_on_controllers (item_widget, GTK_TYPE_EVENT_CONTROLLER_MOTION, "enter",
                                         0), >, 0);
  g_assert_cmpstr (triage_request_get_id (triage_inbox_pane_get_selected_request (f->pane)),
                   ==, first);
  g_assert_cmpstr (triage_request_get_id (triage_inbox_pane_get_current_request (f->pane)),
                   ==, first);
  g_assert_cmpuint (f->activated->len, ==, 0);

  /* A click on it (the row's press, then release) opens it. */
  emit_on_controllers (GTK_WIDGET (second_row), GTK_TYPE_GESTURE_CLICK, "pressed", 1);
  g_assert_cmpuint (emit_on_controllers (GTK_WIDGET (second_row), GTK_TYPE_GESTURE_CLICK,
                                         "released", 1), >, 0);
  g_assert_cmpuint (f->activated->len, ==, 1);
  g_assert_cmpstr (triage_request_get_id (g_ptr_array_index (f->activated, 0)), ==, second);
  g_assert_cmpstr (triage_request_get_id (triage_inbox_pane_get_selected_request (f->pane)),
                   ==, second);
}

static void
collect_inscriptions (GtkWidget *widget,
                      GPtrArray *found)
{
  if (GTK_IS_INSCRIPTION (widget))
    g_ptr_array_add (found, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_inscriptions (child, found);
}

/* The row's second line. */
static const char *
subtitle_of (TriageInboxRow *row)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();

  collect_inscriptions (GTK_WIDGET (row), found);
  g_assert_cmpuint (found->len, ==, 2);
  return gtk_inscription_get_text (g_ptr_array_index (found, 1));
}

/* A row's lines read in the title's direction: under an Arabic title the
 * subtitle (a Latin service name first) is right to left too, aligned as
 * the title is; the history's rows use the same rule. */
static void
test_row_direction (Fixture       *f,
                    gconstpointer  data)
{
  const char *arabic = inbox_pane_test_add_request (f, "Svc-Rtl", "x", "هل تريد حذف النسخ؟", "d",
                                                    0, 20);
  const char *latin = inbox_pane_test_add_request (f, "Svc-Ltr", "x", "Delete old backups?", "d",
                                                   0, 10);
  g_autofree char *same = NULL;
  g_autofree char *hebrew = NULL;
  g_autofree char *digits = NULL;

  inbox_pane_test_settle (f);
  g_assert_true (g_str_has_prefix (subtitle_of (row_for (f, arabic)), "\u200FSvc-Rtl"));
  g_assert_true (g_str_has_prefix (subtitle_of (row_for (f, latin)), "Svc-Ltr"));

  /* Already right to left, or no title: as it is. */
  same = triage_browse_dup_in_direction_of ("2026 · خدمة", "שלום");
  g_assert_cmpstr (same, ==, "2026 · خدمة");
  hebrew = triage_browse_dup_in_direction_of ("2026 · CI", "  \"שלום\"");
  g_assert_cmpstr (hebrew, ==, "\u200F2026 · CI");
  g_assert_null (triage_browse_dup_in_direction_of (NULL, "שלום"));

  /* Digits decide no direction, Arabic-Indic ones neither: a title of them
   * alone reads left to right, as Pango lays it out (test-decision-format). */
  digits = triage_browse_dup_in_direction_of ("2026 · CI", "\u0661\u0662\u0663");
  g_assert_cmpstr (digits, ==, "2026 · CI");
}

/* A deadline "due tomorrow" says "due" at midnight, the window open. */
static void
test_deadline_day_changes (Fixture       *f,
                           gconstpointer  data)
{
  char *old_zone = midnight_test_set_zone (8);
  const char *id = inbox_pane_test_add_request (f, "CI", NULL, "Renew the certificate", "d", 600, 1);
  TriageInboxRow *row;

  inbox_pane_test_settle (f);
  row = row_for (f, id);
  g_assert_nonnull (row);
  g_assert_nonnull (strstr (subtitle_of (row), "due tomorrow"));

  browse_test_wait_for (strstr (subtitle_of (row), "tomorrow") == NULL);
  g_assert_nonnull (strstr (subtitle_of (row), "due "));
  midnight_test_restore_zone (old_zone);
}

static void
test_select_next (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);

  g_assert_false (triage_inbox_pane_select_next (f->pane));

  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *title = g_strdup_printf ("Request %u", i);

      g_ptr_array_add (ids, g_strdup (inbox_pane_test_add_request (f, "CI", NULL, title, "d", 0,
                                                                   10 - i)));
    }
  inbox_pane_test_settle (f);

  /* Nothing opened yet: the first. */
  g_assert_true (triage_inbox_pane_select_next (f->pane));
  g_assert_cmpstr (triage_request_get_title (triage_inbox_pane_get_current_request (f->pane)), ==, "Request 0");

  /* Answered (it leaves the inbox): the one that took its place. */
  inbox_pane_test_remove_request (f, g_ptr_array_index (ids, 0));
  g_assert_true (triage_inbox_pane_select_next (f->pane));
  g_assert_cmpstr (triage_request_get_title (triage_inbox_pane_get_current_request (f->pane)), ==, "Request 1");

  /* Still there (skipped, not answered): the one after it. */
  g_assert_true (triage_inbox_pane_select_next (f->pane));
  g_assert_cmpstr (triage_request_get_title (triage_inbox_pane_get_current_request (f->pane)), ==, "Request 2");
  g_assert_cmpuint (f->activated->len, ==, 3);

  /* The last answered: the one before it. */
  g_assert_true (triage_inbox_pane_show_request (f->pane, g_ptr_array_index (ids, 4)));
  g_assert_cmpuint (f->activated->len, ==, 3);
  inbox_pane_test_remove_request (f, g_ptr_array_index (ids, 4));
  g_assert_true (triage_inbox_pane_select_next (f->pane));
  g_assert_cmpstr (triage_request_get_title (triage_inbox_pane_get_current_request (f->pane)), ==, "Request 3");

  /* The last one, not answered: nothing after it. */
  g_assert_false (triage_inbox_pane_select_next (f->pane));

  for (guint i = 1; i < 4; i++)
    inbox_pane_test_remove_request (f, g_ptr_array_index (ids, i));
  g_assert_false (triage_inbox_pane_select_next (f->pane));
}

/* Requests that came or went above the open one while it was open: after
 * its answer, next is still the one that took its place, previous the one
 * above that, not the one at its old position. */
static void
test_select_next_after_changes (Fixture       *f,
                                gconstpointer  data)
{
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < 6; i++)
    {
      g_autofree char *title = g_strdup_printf ("Request %u", i);

      g_ptr_array_add (ids, g_strdup (inbox_pane_test_add_request (f, "CI", NULL, title, "d", 0,
                                                                   10 - i)));
    }
  inbox_pane_test_settle (f);

  /* Request 2 open; one more comes first (a near deadline): 2 moves down. */
  g_assert_true (triage_inbox_pane_show_request (f->pane, g_ptr_array_index (ids, 2)));
  inbox_pane_test_add_request (f, "CI", NULL, "Urgent", "d", 5, 0);
  inbox_pane_test_settle (f);
  inbox_pane_test_remove_request (f, g_ptr_array_index (ids, 2));
  g_assert_true (triage_inbox_pane_select_next (f->pane));
  g_assert_cmpstr (triage_request_get_title (triage_inbox_pane_get_current_request (f->pane)), ==, "Request 3");

  /* Request 3 open; two above it expire: it moves up. */
  inbox_pane_test_remove_request (f, g_ptr_array_index (ids, 0));
  inbox_pane_test_remove_request (f, g_ptr_array_index (ids, 1));
  inbox_pane_test_settle (f);
  inbox_pane_test_remove_request (f, g_ptr_array_index (ids, 3));
  g_assert_true (triage_inbox_pane_select_next (f->pane));
  g_assert_cmpstr (triage_request_get_title (triage_inbox_pane_get_current_request (f->pane)), ==, "Request 4");

  /* Previous: the one above where it stood (Urgent, Request 5 are left). */
  inbox_pane_test_remove_request (f, g_ptr_array_index (ids, 4));
  g_assert_true (triage_inbox_pane_select_previous (f->pane));
  g_assert_cmpstr (triage_request_get_title (triage_inbox_pane_get_current_request (f->pane)), ==, "Urgent");
}

static void
test_unread (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(TriageReadState) state = triage_read_state_new (NULL);
  const char *first = inbox_pane_test_add_request (f, "CI", NULL, "First", "d", 0, 3);
  const char *second = inbox_pane_test_add_request (f, "CI", NULL, "Second", "d", 0, 2);
  const char *third = inbox_pane_test_add_request (f, "CI", NULL, "Third", "d", 0, 1);
  TriageInboxRow *row;

  inbox_pane_test_settle (f);
  row = row_for (f, first);
  g_assert_nonnull (row);
  g_assert_true (triage_inbox_row_get_unread (row));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (row), "unread"));
  g_assert_cmpstr (triage_inbox_row_get_title (row), ==, "First");
  /* The list's item takes the focus: it says the row (GTK 4.8 would say
   * nothing), and that it is unread. */
  {
    g_autofree char *subtitle = triage_request_dup_subtitle (triage_inbox_row_get_request (row));
    g_autofree char *unread = g_strdup_printf ("Unread, %s", subtitle);

    gtk_test_accessible_assert_property (gtk_widget_get_parent (GTK_WIDGET (row)),
                                         GTK_ACCESSIBLE_PROPERTY_LABEL, "First");
    gtk_test_accessible_assert_property (gtk_widget_get_parent (GTK_WIDGET (row)),
                                         GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, unread);
  }

  /* Opened: no longer bold. */
  g_signal_emit_by_name (inbox_pane_test_find_widget (GTK_WIDGET (f->pane), GTK_TYPE_LIST_VIEW, NULL),
                         "activate", 0);
  g_assert_false (triage_inbox_row_get_unread (row_for (f, first)));
  row = row_for (f, first);
  {
    g_autofree char *subtitle = triage_request_dup_subtitle (triage_inbox_row_get_request (row));

    gtk_test_accessible_assert_property (gtk_widget_get_parent (GTK_WIDGET (row)),
                                         GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, subtitle);
  }
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (row_for (f, first)), "unread"));
  g_assert_true (triage_read_state_is_read (triage_inbox_pane_get_read_state (f->pane), first));
  g_assert_true (triage_inbox_row_get_unread (row_for (f, second)));

  /* Another read state (the stored one): rows follow it. */
  triage_read_state_set_read (state, second, TRUE);
  triage_inbox_pane_set_read_state (f->pane, state);
  g_assert_true (triage_inbox_row_get_unread (row_for (f, first)));
  g_assert_false (triage_inbox_row_get_unread (row_for (f, second)));

  /* Opened from a bubble (show_request): read too. */
  g_assert_true (triage_inbox_pane_show_request (f->pane, third));
  g_assert_false (triage_inbox_row_get_unread (row_for (f, third)));
  g_assert_true (triage_read_state_is_read (state, third));

  /* Marked unread from elsewhere. */
  triage_read_state_set_read (state, third, FALSE);
  g_assert_true (triage_inbox_row_get_unread (row_for (f, third)));
}

/* While the server asks to wait (a 429's or 503's Retry-After), a row whose
 * answer waits to be sent says when it goes, as the open request's banner
 * does; it said "Answer waiting to be sent" for as long as the wait lasted.
 * Rows shown later say it too; the wait over, they say it no more. */
static void
test_server_wait (Fixture       *f,
                  gconstpointer  data)
{
  const char *queued = inbox_pane_test_add_request (f, "CI", NULL, "Queued", "d", 0, 3);
  const char *other = inbox_pane_test_add_request (f, "CI", NULL, "Other", "d", 0, 2);
  const char *later = NULL;
  g_autoptr(GDateTime) until = g_date_time_new_local (2026, 12, 3, 14, 5, 0);
  g_autofree char *time = triage_format_time (until, NULL);
  g_autofree char *says = g_strdup_printf ("Answer sending at %s (the server asked to wait)", time);
  TriageInboxRow *row;

  inbox_pane_test_settle (f);
  row = row_for (f, queued);
  triage_request_set_answer_state (triage_inbox_row_get_request (row), TRIAGE_ANSWER_QUEUED);
  g_assert_nonnull (strstr (triage_inbox_row_get_subtitle (row), "Answer waiting to be sent"));

  triage_inbox_pane_set_server_wait (f->pane, until);
  g_assert_nonnull (strstr (triage_inbox_row_get_subtitle (row_for (f, queued)), says));
  g_assert_null (strstr (triage_inbox_row_get_subtitle (row_for (f, other)), "Answer"));
  /* Its list item, which takes the focus, says it too. */
  {
    g_autofree char *description = g_strdup_printf ("Unread, %s",
                                                    triage_inbox_row_get_subtitle (row_for (f, queued)));

    gtk_test_accessible_assert_property (gtk_widget_get_parent (GTK_WIDGET (row_for (f, queued))),
                                         GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description);
  }

  later = inbox_pane_test_add_request (f, "CI", NULL, "Later", "d", 0, 1);
  inbox_pane_test_settle (f);
  triage_request_set_answer_state (triage_inbox_row_get_request (row_for (f, later)),
                                   TRIAGE_ANSWER_QUEUED);
  g_assert_nonnull (strstr (triage_inbox_row_get_subtitle (row_for (f, later)), says));

  triage_inbox_pane_set_server_wait (f->pane, NULL);
  g_assert_nonnull (strstr (triage_inbox_row_get_subtitle (row_for (f, queued)),
                            "Answer waiting to be sent"));
  g_assert_nonnull (strstr (triage_inbox_row_get_subtitle (row_for (f, later)),
                            "Answer waiting to be sent"));
}

static void
test_show_request (Fixture       *f,
                   gconstpointer  data)
{
  const char *hidden;

  triage_inbox_pane_set_incremental_threshold (f->pane, 0);
  inbox_pane_test_add_request (f, "CI", "web", "Visible", "d", 0, 2);
  hidden = inbox_pane_test_add_request (f, "Reviewer", "api", "Hidden", "d", 0, 1);
  g_assert_true (triage_inbox_pane_set_service_filter (f->pane, "CI"));
  triage_inbox_pane_set_search_text (f->pane, "visible");
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==, 1);

  /* Filtered out: the filters make way. */
  g_assert_true (triage_inbox_pane_show_request (f->pane, hidden));
  /* Clearing the search refilters (incrementally): selected once that is done. */
  inbox_pane_test_settle (f);
  g_assert_null (triage_inbox_pane_get_service_filter (f->pane));
  g_assert_cmpstr (triage_inbox_pane_get_search_text (f->pane), ==, "");
  g_assert_cmpstr (triage_request_get_id (triage_inbox_pane_get_selected_request (f->pane)), ==, hidden);
  g_assert_cmpuint (f->activated->len, ==, 0);

  g_assert_false (triage_inbox_pane_show_request (f->pane, "99999999-9999-4999-8999-999999999999"));
}

/* Opened from a bubble with a window that has no size yet: it still scrolls there. */
static void
test_show_request_new_window (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  gint64 now = g_get_real_time ();
  GtkWidget *window;
  TriageInboxPane *pane;
  g_autofree char *last = NULL;
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  gboolean found = FALSE;

  for (guint i = 0; i < 150; i++)
    {
      g_autofree char *id = g_strdup_printf ("40000000-0000-4000-8000-%012u", i);
      g_autofree char *title = g_strdup_printf ("Request %u", i);
      g_autoptr(AtpNotification) notification = browse_test_notification (id, "CI", NULL, title, "d",
                                                                          now - (150 - i) * G_TIME_SPAN_MINUTE, 0);

      triage_inbox_model_add (model, notification, NULL);
      g_free (last);
      last = g_strdup (id);
    }

  pane = TRIAGE_INBOX_PANE (triage_inbox_pane_new ());
  triage_inbox_pane_set_model (pane, G_LIST_MODEL (model));
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 420, 400);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (pane));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (triage_inbox_pane_show_request (pane, last));

  gtk_test_widget_wait_for_draw (window);
  browse_test_wait_for (({
    g_ptr_array_set_size (rows, 0);
    collect_rows (GTK_WIDGET (pane), rows);
    found = FALSE;
    for (guint i = 0; i < rows->len; i++)
      found |= g_str_equal (triage_request_get_id (triage_inbox_row_get_request (g_ptr_array_index (rows, i))), last);
    found;
  }));
  g_assert_cmpstr (triage_request_get_id (triage_inbox_pane_get_selected_request (pane)), ==, last);

  gtk_window_destroy (GTK_WINDOW (window));
  browse_test_pump ();
}

static void
test_finalize (void)
{
  g_autoptr(TriageInboxModel) model = triage_inbox_model_new ();
  GtkWidget *pane = triage_inbox_pane_new ();

  g_object_ref_sink (pane);
  triage_inbox_pane_set_model (TRIAGE_INBOX_PANE (pane), G_LIST_MODEL (model));
  g_assert_finalize_object (pane);
}

int
main (int   argc,
      char *argv[])
{
  /* The in-process accessibility backend, so the tests can read names. */
  g_setenv ("GTK_A11Y", "test", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/inbox/pane/example-command", test_example_command);
  g_test_add_func ("/inbox/pane/empty-remote-hint", test_empty_remote_hint);
  INBOX_PANE_TEST_ADD ("/inbox/pane/empty", test_empty);
  INBOX_PANE_TEST_ADD ("/inbox/pane/sorted", test_sorted);
  inbox_pane_test_add_search ();
  INBOX_PANE_TEST_ADD ("/inbox/pane/keyboard", test_keyboard);
  INBOX_PANE_TEST_ADD ("/inbox/pane/pointer", test_pointer);
  INBOX_PANE_TEST_ADD ("/inbox/pane/row-direction", test_row_direction);
  INBOX_PANE_TEST_ADD ("/inbox/pane/select-next", test_select_next);
  INBOX_PANE_TEST_ADD ("/inbox/pane/deadline-day-changes", test_deadline_day_changes);
  INBOX_PANE_TEST_ADD ("/inbox/pane/select-next-after-changes", test_select_next_after_changes);
  INBOX_PANE_TEST_ADD ("/inbox/pane/unread", test_unread);
  INBOX_PANE_TEST_ADD ("/inbox/pane/server-wait", test_server_wait);
  INBOX_PANE_TEST_ADD ("/inbox/pane/show-request", test_show_request);
  g_test_add_func ("/inbox/pane/show-request-new-window", test_show_request_new_window);
  g_test_add_func ("/inbox/pane/finalize", test_finalize);

  return g_test_run ();
}
