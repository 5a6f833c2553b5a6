/* test-inbox-pane.c — the inbox pane: sorting, search over 10,000 requests,
 * filters, empty and no-results states, unread marks, keyboard triage
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <adwaita.h>
#include <string.h>

#include "browse-test-common.h"
#include "triage-inbox-model.h"
#include "triage-inbox-pane.h"
#include "triage-inbox-row.h"

typedef struct
{
  TriageInboxModel *model;
  GtkWidget        *window;
  TriageInboxPane  *pane;
  GPtrArray        *activated;   /* TriageRequest*, in order */
  guint             counter;
  gint64            now;         /* one "now" for every request of a test */
} Fixture;

static void
on_request_activated (TriageInboxPane *pane,
                      TriageRequest   *request,
                      Fixture         *f)
{
  g_ptr_array_add (f->activated, g_object_ref (request));
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->model = triage_inbox_model_new ();
  f->now = g_get_real_time ();
  f->activated = g_ptr_array_new_with_free_func (g_object_unref);
  f->pane = TRIAGE_INBOX_PANE (triage_inbox_pane_new ());
  triage_inbox_pane_set_model (f->pane, G_LIST_MODEL (f->model));
  g_signal_connect (f->pane, "request-activated", G_CALLBACK (on_request_activated), f);

  f->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (f->window), 420, 640);
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (f->pane));
  gtk_window_present (GTK_WINDOW (f->window));
  browse_test_wait_for (gtk_widget_get_mapped (GTK_WIDGET (f->pane)));
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  browse_test_pump ();
  g_ptr_array_unref (f->activated);
  g_assert_finalize_object (f->model);
}

/* Adds a request: a deadline @deadline_min minutes from now (0: none),
 * sent @age_min minutes ago. Returns its id (owned by the model). */
static const char *
add (Fixture    *f,
     const char *service,
     const char *project,
     const char *title,
     const char *description,
     int         deadline_min,
     int         age_min)
{
  gint64 now = f->now;
  g_autofree char *id = g_strdup_printf ("00000000-0000-4000-8000-%012u", f->counter++);
  g_autoptr(AtpNotification) notification = NULL;
  TriageRequest *request;

  notification = browse_test_notification (id, service, project, title, description,
                                           now - (gint64) age_min * G_TIME_SPAN_MINUTE,
                                           deadline_min ? now + (gint64) deadline_min * G_TIME_SPAN_MINUTE : 0);
  request = triage_inbox_model_add (f->model, notification, NULL);

  return triage_request_get_id (request);
}

static void
remove_id (Fixture    *f,
           const char *id)
{
  g_autofree char *copy = g_strdup (id);
  g_autoptr(TriageRequest) removed = triage_inbox_model_remove (f->model, copy);

  g_assert_nonnull (removed);
}

static void
settle (Fixture *f)
{
  browse_test_wait_for (!triage_inbox_pane_get_filtering (f->pane));
  browse_test_pump ();
}

static guint
n_visible (Fixture *f)
{
  settle (f);
  return g_list_model_get_n_items (triage_inbox_pane_get_visible_model (f->pane));
}

static TriageRequest *
visible_at (Fixture *f,
            guint    position)
{
  GListModel *visible = triage_inbox_pane_get_visible_model (f->pane);
  g_autoptr(TriageRequest) request = g_list_model_get_item (visible, position);

  return request;   /* the model holds it */
}

/* The first @type below @widget (with that label, for labels); list views
 * must be the pane's own (drop-downs have list views in their popovers). */
static GtkWidget *
find_widget (GtkWidget *widget,
             GType      type,
             const char *label)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type) &&
      (label == NULL || (GTK_IS_LABEL (widget) &&
                         g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), label) == 0)) &&
      (type != GTK_TYPE_LIST_VIEW || gtk_widget_has_css_class (widget, "navigation-sidebar")))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type, label);

      if (found != NULL)
        return found;
    }

  return NULL;
}

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
test_empty (Fixture       *f,
            gconstpointer  data)
{
  GtkWidget *example;
  GtkWidget *status;
  g_autofree char *copied = NULL;
  const char *id;

  g_assert_cmpint (triage_inbox_pane_get_state (f->pane), ==, TRIAGE_INBOX_PANE_EMPTY);

  /* The first-run help names the command that sends a first request. */
  example = find_widget (GTK_WIDGET (f->pane), GTK_TYPE_LABEL, TRIAGE_INBOX_EXAMPLE_COMMAND);
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

  id = add (f, "CI", NULL, "First", "d", 0, 1);
  settle (f);
  g_assert_cmpint (triage_inbox_pane_get_state (f->pane), ==, TRIAGE_INBOX_PANE_LIST);
  remove_id (f, id);
  settle (f);
  g_assert_cmpint (triage_inbox_pane_get_state (f->pane), ==, TRIAGE_INBOX_PANE_EMPTY);
}

static void
test_sorted (Fixture       *f,
             gconstpointer  data)
{
  /* Added out of order; shown by deadline, then without one oldest first. */
  add (f, "CI", NULL, "no deadline, newer", "d", 0, 1);
  add (f, "CI", NULL, "deadline in 30", "d", 30, 5);
  add (f, "CI", NULL, "no deadline, older", "d", 0, 50);
  add (f, "CI", NULL, "deadline in 5", "d", 5, 2);
  add (f, "CI", NULL, "deadline in 30, older", "d", 30, 9);

  g_assert_cmpuint (n_visible (f), ==, 5);
  g_assert_cmpstr (triage_request_get_title (visible_at (f, 0)), ==, "deadline in 5");
  g_assert_cmpstr (triage_request_get_title (visible_at (f, 1)), ==, "deadline in 30, older");
  g_assert_cmpstr (triage_request_get_title (visible_at (f, 2)), ==, "deadline in 30");
  g_assert_cmpstr (triage_request_get_title (visible_at (f, 3)), ==, "no deadline, older");
  g_assert_cmpstr (triage_request_get_title (visible_at (f, 4)), ==, "no deadline, newer");
}

static const char *services[] = { "Checks", "Deploy bot", "Café agent", "Reviewer", "Data pipeline", "Zebra", "Alpha" };
static const char *projects[] = { "web", "api", "infra", "docs", NULL };

static void
fill_many (Fixture *f,
           guint    n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *title = g_strdup_printf ("Deploy build %u to %s", i, i % 2 ? "staging" : "production");
      g_autofree char *description = g_strdup_printf ("Ticket T-%u, owner Zoë", i % 97);

      add (f, services[i % G_N_ELEMENTS (services)], projects[i % G_N_ELEMENTS (projects)],
           title, description, (i % 3) ? (int) (i % 600) + 1 : 0, (int) (i % 1000));
    }
}

/* A field holds a typed word: its words (transliterated to ASCII and split
 * where g_str_tokenize_and_fold() splits, an oracle apart from the code) are
 * consecutive words of the field, the last one only its start. */
static gboolean
field_has_phrase (const char *field,
                  const char *typed)
{
  g_autofree char *ascii = g_str_to_ascii (field, "C");
  g_auto(GStrv) words = g_str_tokenize_and_fold (ascii, NULL, NULL);
  g_auto(GStrv) phrase = g_str_tokenize_and_fold (typed, NULL, NULL);
  guint n = g_strv_length (phrase);
  guint m = g_strv_length (words);

  for (guint i = 0; i + n <= m; i++)
    {
      gboolean ok = TRUE;

      for (guint j = 0; j < n && ok; j++)
        ok = j + 1 < n ? g_str_equal (words[i + j], phrase[j])
                       : g_str_has_prefix (words[i + j], phrase[j]);
      if (ok)
        return TRUE;
    }

  return FALSE;
}

/* What a search must find: every word typed starts a word (or words) of one
 * of the four fields. */
static guint
expected_matches (guint        n,
                  const char  *service,
                  const char  *project,
                  const char **words)
{
  guint count = 0;

  for (guint i = 0; i < n; i++)
    {
      const char *s = services[i % G_N_ELEMENTS (services)];
      const char *p = projects[i % G_N_ELEMENTS (projects)];
      g_autofree char *title = g_strdup_printf ("deploy build %u to %s", i,
                                                i % 2 ? "staging" : "production");
      g_autofree char *description = g_strdup_printf ("ticket t-%u, owner zoe", i % 97);
      const char *fields[] = { title, description, s, p ? p : "" };
      gboolean ok = TRUE;

      if (service != NULL && !g_str_equal (s, service))
        continue;
      if (project != NULL && g_strcmp0 (p ? p : "", project) != 0)
        continue;
      for (guint w = 0; words != NULL && words[w] != NULL && ok; w++)
        {
          ok = FALSE;
          for (guint k = 0; k < G_N_ELEMENTS (fields) && !ok; k++)
            ok = field_has_phrase (fields[k], words[w]);
        }
      count += ok;
    }

  return count;
}

static void
test_search_many (Fixture       *f,
                  gconstpointer  data)
{
  const char *build_42[] = { "build", "42", NULL };
  const char *t_5_staging[] = { "t-5,", "staging", NULL };
  const char *cafe[] = { "cafe", "agent", NULL };
  const char *uild[] = { "uild", NULL };
  const char *zoe[] = { "zoe", NULL };
  GtkSearchEntry *entry;
  guint expected;

  /* Filtered a slice at a time (as above 50,000 requests), so the deferred
   * paths run too. */
  triage_inbox_pane_set_incremental_threshold (f->pane, 1000);
  fill_many (f, 10000);
  g_assert_cmpuint (n_visible (f), ==, 10000);

  /* Every word, where a word starts: "42" in the build number or the ticket. */
  triage_inbox_pane_set_search_text (f->pane, "Build 42");
  expected = expected_matches (10000, NULL, NULL, build_42);
  g_assert_cmpuint (expected, >, 111);
  g_assert_cmpuint (n_visible (f), ==, expected);
  for (guint i = 0; i < expected; i++)
    {
      TriageRequest *request = visible_at (f, i);

      g_assert_true (strstr (triage_request_get_title (request), " 42") != NULL ||
                     strstr (triage_request_get_notification (request)->context.description, "-42") != NULL);
    }

  /* Not inside a word: "uild" finds nothing, as in the history. */
  triage_inbox_pane_set_search_text (f->pane, "uild");
  g_assert_cmpuint (expected_matches (10000, NULL, NULL, uild), ==, 0);
  g_assert_cmpuint (n_visible (f), ==, 0);

  /* Narrowing, words in any field, in any order. */
  triage_inbox_pane_set_search_text (f->pane, "STAGING t-5,");
  g_assert_cmpuint (n_visible (f), ==, expected_matches (10000, NULL, NULL, t_5_staging));

  /* Accents and case: "CAFE" finds "Café agent", "zoe" finds "Zoë". */
  triage_inbox_pane_set_search_text (f->pane, "CAFE AGENT");
  g_assert_cmpuint (n_visible (f), ==, expected_matches (10000, NULL, NULL, cafe));
  triage_inbox_pane_set_search_text (f->pane, "zoe");
  g_assert_cmpuint (n_visible (f), ==, expected_matches (10000, NULL, NULL, zoe));
  g_assert_cmpuint (n_visible (f), ==, 10000);

  /* Nothing: the "no results" page, not the first-run help. */
  triage_inbox_pane_set_search_text (f->pane, "no such words");
  g_assert_cmpuint (n_visible (f), ==, 0);
  g_assert_cmpint (triage_inbox_pane_get_state (f->pane), ==, TRIAGE_INBOX_PANE_NO_RESULTS);
  g_assert_nonnull (find_widget (GTK_WIDGET (f->pane), ADW_TYPE_STATUS_PAGE, NULL));
  {
    GtkWidget *stack = browse_test_find_page_stack (GTK_WIDGET (f->pane));

    g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "no-results");
  }

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->pane), "inbox.clear-filters", NULL));
  g_assert_cmpuint (n_visible (f), ==, 10000);
  g_assert_cmpint (triage_inbox_pane_get_state (f->pane), ==, TRIAGE_INBOX_PANE_LIST);

  /* Typing waits for a pause (the entry's delay) before it filters. */
  entry = GTK_SEARCH_ENTRY (find_widget (GTK_WIDGET (f->pane), GTK_TYPE_SEARCH_ENTRY, NULL));
  gtk_editable_set_text (GTK_EDITABLE (entry), "build 42");
  g_assert_cmpstr (triage_inbox_pane_get_search_text (f->pane), ==, "build 42");
  g_assert_cmpuint (g_list_model_get_n_items (triage_inbox_pane_get_visible_model (f->pane)), ==, 10000);
  browse_test_wait_for (g_list_model_get_n_items (triage_inbox_pane_get_visible_model (f->pane)) != 10000);
  g_assert_cmpuint (n_visible (f), ==, expected);
}

static void
assert_choices (GStrv        choices,
                const char **expected)
{
  g_auto(GStrv) owned = choices;

  if (!g_strv_equal ((const char * const *) owned, expected))
    {
      g_autofree char *got = g_strjoinv ("|", owned);

      g_error ("unexpected choices: %s", got);
    }
}

static void
test_dropdowns (Fixture       *f,
                gconstpointer  data)
{
  const char *services_sorted[] = { "All Services", "Alpha", "Café agent", "Checks", "Data pipeline",
                                    "Deploy bot", "Reviewer", "Zebra", NULL };
  const char *projects_sorted[] = { "All Projects", "api", "docs", "infra", "web", "No Project", NULL };
  const char *with_new[] = { "All Services", "Alpha", "Café agent", "Checks", "Data pipeline",
                             "Deploy bot", "Omega", "Reviewer", "Zebra", NULL };
  const char *without_ci[] = { "All Services", "Alpha", "Café agent", "Data pipeline",
                               "Deploy bot", "Omega", "Reviewer", "Zebra", NULL };
  const char *without_zebra[] = { "All Services", "Alpha", "Café agent", "Data pipeline",
                                  "Deploy bot", "Omega", "Reviewer", NULL };
  const char *just_all[] = { "All Services", NULL };
  const char *projects_empty[] = { "All Projects", NULL };
  g_autoptr(GPtrArray) ci_ids = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) zebra_ids = g_ptr_array_new_with_free_func (g_free);
  GListModel *model = G_LIST_MODEL (f->model);

  assert_choices (triage_inbox_pane_dup_service_choices (f->pane), just_all);
  assert_choices (triage_inbox_pane_dup_project_choices (f->pane), projects_empty);

  fill_many (f, 70);
  assert_choices (triage_inbox_pane_dup_service_choices (f->pane), services_sorted);
  assert_choices (triage_inbox_pane_dup_project_choices (f->pane), projects_sorted);

  /* A new service shows up at once. */
  add (f, "Omega", "web", "New", "d", 0, 0);
  assert_choices (triage_inbox_pane_dup_service_choices (f->pane), with_new);

  /* The last request of a service leaves: so does the service. */
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TriageRequest) request = g_list_model_get_item (model, i);

      if (g_str_equal (triage_request_get_service_name (request), "Checks"))
        g_ptr_array_add (ci_ids, g_strdup (triage_request_get_id (request)));
      if (g_str_equal (triage_request_get_service_name (request), "Zebra"))
        g_ptr_array_add (zebra_ids, g_strdup (triage_request_get_id (request)));
    }
  for (guint i = 0; i < ci_ids->len; i++)
    remove_id (f, g_ptr_array_index (ci_ids, i));
  assert_choices (triage_inbox_pane_dup_service_choices (f->pane), without_ci);

  /* The service filtered on stays offered while selected, even with no request left. */
  g_assert_true (triage_inbox_pane_set_service_filter (f->pane, "Zebra"));
  g_assert_cmpuint (n_visible (f), ==, 10);
  for (guint i = 0; i < zebra_ids->len; i++)
    remove_id (f, g_ptr_array_index (zebra_ids, i));
  assert_choices (triage_inbox_pane_dup_service_choices (f->pane), without_ci);
  g_assert_cmpuint (n_visible (f), ==, 0);
  g_assert_cmpint (triage_inbox_pane_get_state (f->pane), ==, TRIAGE_INBOX_PANE_NO_RESULTS);
  g_assert_cmpstr (triage_inbox_pane_get_service_filter (f->pane), ==, "Zebra");
  g_assert_true (triage_inbox_pane_set_service_filter (f->pane, NULL));
  assert_choices (triage_inbox_pane_dup_service_choices (f->pane), without_zebra);
  g_assert_false (triage_inbox_pane_set_service_filter (f->pane, "Checks"));
}

static void
test_filters (Fixture       *f,
              gconstpointer  data)
{
  const char *build_1[] = { "build", "1", NULL };

  fill_many (f, 700);

  g_assert_true (triage_inbox_pane_set_service_filter (f->pane, "Reviewer"));
  g_assert_cmpuint (n_visible (f), ==, expected_matches (700, "Reviewer", NULL, NULL));
  for (guint i = 0; i < n_visible (f); i++)
    g_assert_cmpstr (triage_request_get_service_name (visible_at (f, i)), ==, "Reviewer");

  /* Requests without a project. */
  g_assert_true (triage_inbox_pane_set_project_filter (f->pane, ""));
  g_assert_cmpuint (n_visible (f), ==, expected_matches (700, "Reviewer", "", NULL));
  g_assert_cmpuint (n_visible (f), >, 0);
  for (guint i = 0; i < n_visible (f); i++)
    g_assert_null (triage_request_get_notification (visible_at (f, i))->context.project);

  g_assert_true (triage_inbox_pane_set_project_filter (f->pane, "api"));
  g_assert_cmpuint (n_visible (f), ==, expected_matches (700, "Reviewer", "api", NULL));

  /* With a search. */
  triage_inbox_pane_set_search_text (f->pane, "build 1");
  g_assert_cmpuint (n_visible (f), ==, expected_matches (700, "Reviewer", "api", build_1));

  triage_inbox_pane_clear_filters (f->pane);
  g_assert_cmpuint (n_visible (f), ==, 700);
  g_assert_null (triage_inbox_pane_get_service_filter (f->pane));
  g_assert_null (triage_inbox_pane_get_project_filter (f->pane));
  g_assert_cmpstr (triage_inbox_pane_get_search_text (f->pane), ==, "");
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
has_shortcut (GtkWidget  *widget,
              const char *trigger,
              const char *action)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;

      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          g_autofree char *t = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (shortcut));
          g_autofree char *a = gtk_shortcut_action_to_string (gtk_shortcut_get_action (shortcut));

          if (g_str_equal (t, trigger) && g_str_equal (a, action))
            return TRUE;
        }
    }

  return FALSE;
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
  GtkWidget *entry = find_widget (GTK_WIDGET (f->pane), GTK_TYPE_SEARCH_ENTRY, NULL);
  GtkWidget *list = find_widget (GTK_WIDGET (f->pane), GTK_TYPE_LIST_VIEW, NULL);
  GtkEventController *keys;
  gboolean handled = FALSE;
  TriageRequest *second;

  triage_inbox_pane_set_incremental_threshold (f->pane, 0);
  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *title = g_strdup_printf ("Request %02u %s", i, i % 2 ? "odd" : "even");

      add (f, "CI", NULL, title, "d", 0, 100 - i);
    }
  settle (f);

  /* Ctrl+F: the shortcut is there (window-wide while the pane is shown) and focuses the search. */
  g_assert_true (has_shortcut (GTK_WIDGET (f->pane), "<Control>f", "action(inbox.focus-search)"));
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
  g_assert_true (triage_inbox_pane_get_selected_request (f->pane) == visible_at (f, 0));
  g_assert_cmpuint (f->activated->len, ==, 0);

  /* Enter on a row (the list's "activate") opens it. */
  second = visible_at (f, 1);
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
  g_assert_cmpuint (n_visible (f), ==, 20);
  g_assert_true (focus_within (f, entry));
  g_signal_emit_by_name (entry, "stop-search");
  g_assert_true (focus_within (f, list));

  /* Other keys are left to the entry. */
  handled = TRUE;
  g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_a, 0, 0, &handled);
  g_assert_false (handled);
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

      g_ptr_array_add (ids, g_strdup (add (f, "CI", NULL, title, "d", 0, 10 - i)));
    }
  settle (f);

  /* Nothing opened yet: the first. */
  g_assert_true (triage_inbox_pane_select_next (f->pane));
  g_assert_cmpstr (triage_request_get_title (triage_inbox_pane_get_current_request (f->pane)), ==, "Request 0");

  /* Answered (it leaves the inbox): the one that took its place. */
  remove_id (f, g_ptr_array_index (ids, 0));
  g_assert_true (triage_inbox_pane_select_next (f->pane));
  g_assert_cmpstr (triage_request_get_title (triage_inbox_pane_get_current_request (f->pane)), ==, "Request 1");

  /* Still there (skipped, not answered): the one after it. */
  g_assert_true (triage_inbox_pane_select_next (f->pane));
  g_assert_cmpstr (triage_request_get_title (triage_inbox_pane_get_current_request (f->pane)), ==, "Request 2");
  g_assert_cmpuint (f->activated->len, ==, 3);

  /* The last answered: the one before it. */
  g_assert_true (triage_inbox_pane_show_request (f->pane, g_ptr_array_index (ids, 4)));
  g_assert_cmpuint (f->activated->len, ==, 3);
  remove_id (f, g_ptr_array_index (ids, 4));
  g_assert_true (triage_inbox_pane_select_next (f->pane));
  g_assert_cmpstr (triage_request_get_title (triage_inbox_pane_get_current_request (f->pane)), ==, "Request 3");

  /* The last one, not answered: nothing after it. */
  g_assert_false (triage_inbox_pane_select_next (f->pane));

  for (guint i = 1; i < 4; i++)
    remove_id (f, g_ptr_array_index (ids, i));
  g_assert_false (triage_inbox_pane_select_next (f->pane));
}

static void
test_unread (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(TriageReadState) state = triage_read_state_new (NULL);
  const char *first = add (f, "CI", NULL, "First", "d", 0, 3);
  const char *second = add (f, "CI", NULL, "Second", "d", 0, 2);
  const char *third = add (f, "CI", NULL, "Third", "d", 0, 1);
  TriageInboxRow *row;

  settle (f);
  row = row_for (f, first);
  g_assert_nonnull (row);
  g_assert_true (triage_inbox_row_get_unread (row));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (row), "unread"));
  g_assert_cmpstr (triage_inbox_row_get_title (row), ==, "First");

  /* Opened: no longer bold. */
  g_signal_emit_by_name (find_widget (GTK_WIDGET (f->pane), GTK_TYPE_LIST_VIEW, NULL), "activate", 0);
  g_assert_false (triage_inbox_row_get_unread (row_for (f, first)));
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

static void
test_show_request (Fixture       *f,
                   gconstpointer  data)
{
  const char *hidden;

  triage_inbox_pane_set_incremental_threshold (f->pane, 0);
  add (f, "CI", "web", "Visible", "d", 0, 2);
  hidden = add (f, "Reviewer", "api", "Hidden", "d", 0, 1);
  g_assert_true (triage_inbox_pane_set_service_filter (f->pane, "CI"));
  triage_inbox_pane_set_search_text (f->pane, "visible");
  g_assert_cmpuint (n_visible (f), ==, 1);

  /* Filtered out: the filters make way. */
  g_assert_true (triage_inbox_pane_show_request (f->pane, hidden));
  /* Clearing the search refilters (incrementally): selected once that is done. */
  settle (f);
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
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/inbox/pane/empty", test_empty);
  ADD ("/inbox/pane/sorted", test_sorted);
  ADD ("/inbox/pane/search-many", test_search_many);
  ADD ("/inbox/pane/dropdowns", test_dropdowns);
  ADD ("/inbox/pane/filters", test_filters);
  ADD ("/inbox/pane/keyboard", test_keyboard);
  ADD ("/inbox/pane/select-next", test_select_next);
  ADD ("/inbox/pane/unread", test_unread);
  ADD ("/inbox/pane/show-request", test_show_request);
  g_test_add_func ("/inbox/pane/show-request-new-window", test_show_request_new_window);
  g_test_add_func ("/inbox/pane/finalize", test_finalize);

  return g_test_run ();
}
