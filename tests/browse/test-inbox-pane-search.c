/* test-inbox-pane-search.c — test-inbox-pane's search over 10,000 requests,
 * its warm-up, the service and project drop-downs and the filters
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "inbox-pane-test-common.h"

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

      inbox_pane_test_add_request (f, services[i % G_N_ELEMENTS (services)],
                                   projects[i % G_N_ELEMENTS (projects)], title, description,
                                   (i % 3) ? (int) (i % 600) + 1 : 0, (int) (i % 1000));
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
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==, 10000);

  /* Every word, where a word starts: "42" in the build number or the ticket. */
  triage_inbox_pane_set_search_text (f->pane, "Build 42");
  expected = expected_matches (10000, NULL, NULL, build_42);
  g_assert_cmpuint (expected, >, 111);
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==, expected);
  for (guint i = 0; i < expected; i++)
    {
      TriageRequest *request = inbox_pane_test_visible_at (f, i);

      g_assert_true (strstr (triage_request_get_title (request), " 42") != NULL ||
                     strstr (triage_request_get_notification (request)->context.description, "-42") != NULL);
    }

  /* Not inside a word: "uild" finds nothing, as in the history. */
  triage_inbox_pane_set_search_text (f->pane, "uild");
  g_assert_cmpuint (expected_matches (10000, NULL, NULL, uild), ==, 0);
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==, 0);

  /* Narrowing, words in any field, in any order. */
  triage_inbox_pane_set_search_text (f->pane, "STAGING t-5,");
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==,
                    expected_matches (10000, NULL, NULL, t_5_staging));

  /* Accents and case: "CAFE" finds "Café agent", "zoe" finds "Zoë". */
  triage_inbox_pane_set_search_text (f->pane, "CAFE AGENT");
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==, expected_matches (10000, NULL, NULL, cafe));
  triage_inbox_pane_set_search_text (f->pane, "zoe");
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==, expected_matches (10000, NULL, NULL, zoe));
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==, 10000);

  /* Nothing: the "no results" page, not the first-run help. */
  triage_inbox_pane_set_search_text (f->pane, "no such words");
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==, 0);
  g_assert_cmpint (triage_inbox_pane_get_state (f->pane), ==, TRIAGE_INBOX_PANE_NO_RESULTS);
  g_assert_nonnull (inbox_pane_test_find_widget (GTK_WIDGET (f->pane), ADW_TYPE_STATUS_PAGE, NULL));
  {
    GtkWidget *stack = browse_test_find_page_stack (GTK_WIDGET (f->pane));

    g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "no-results");
  }

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->pane), "inbox.clear-filters", NULL));
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==, 10000);
  g_assert_cmpint (triage_inbox_pane_get_state (f->pane), ==, TRIAGE_INBOX_PANE_LIST);

  /* Typing waits for a pause (the entry's delay) before it filters. */
  entry = GTK_SEARCH_ENTRY (inbox_pane_test_find_widget (GTK_WIDGET (f->pane),
                                                        GTK_TYPE_SEARCH_ENTRY, NULL));
  gtk_editable_set_text (GTK_EDITABLE (entry), "build 42");
  g_assert_cmpstr (triage_inbox_pane_get_search_text (f->pane), ==, "build 42");
  g_assert_cmpuint (g_list_model_get_n_items (triage_inbox_pane_get_visible_model (f->pane)), ==, 10000);
  browse_test_wait_for (g_list_model_get_n_items (triage_inbox_pane_get_visible_model (f->pane)) != 10000);
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==, expected);
}

/* How many of the inbox's requests have their search text folded already
 * (triage_inbox_search_haystack() keeps it on the request). */
static guint
n_warm (Fixture *f)
{
  GQuark quark = g_quark_try_string ("triage-inbox-search-haystack");
  GListModel *model = G_LIST_MODEL (f->model);
  guint count = 0;

  for (guint i = 0; quark != 0 && i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GObject) request = g_list_model_get_item (model, i);

      count += g_object_get_qdata (request, quark) != NULL;
    }

  return count;
}

/* Once requests stop coming, the pane folds their search text while idle,
 * and again for requests that come after a warm-up ended. */
static void
test_warm_up (Fixture       *f,
              gconstpointer  data)
{
  fill_many (f, 1200);
  browse_test_wait_for (n_warm (f) == 1200);

  fill_many (f, 700);
  browse_test_wait_for (n_warm (f) == 1900);
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

  browse_test_assert_choices (triage_inbox_pane_dup_service_choices (f->pane), just_all);
  browse_test_assert_choices (triage_inbox_pane_dup_project_choices (f->pane), projects_empty);

  fill_many (f, 70);
  browse_test_assert_choices (triage_inbox_pane_dup_service_choices (f->pane), services_sorted);
  browse_test_assert_choices (triage_inbox_pane_dup_project_choices (f->pane), projects_sorted);

  /* A new service shows up at once. */
  inbox_pane_test_add_request (f, "Omega", "web", "New", "d", 0, 0);
  browse_test_assert_choices (triage_inbox_pane_dup_service_choices (f->pane), with_new);

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
    inbox_pane_test_remove_request (f, g_ptr_array_index (ci_ids, i));
  browse_test_assert_choices (triage_inbox_pane_dup_service_choices (f->pane), without_ci);

  /* The service filtered on stays offered while selected, even with no request left. */
  g_assert_true (triage_inbox_pane_set_service_filter (f->pane, "Zebra"));
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==, 10);
  for (guint i = 0; i < zebra_ids->len; i++)
    inbox_pane_test_remove_request (f, g_ptr_array_index (zebra_ids, i));
  browse_test_assert_choices (triage_inbox_pane_dup_service_choices (f->pane), without_ci);
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==, 0);
  g_assert_cmpint (triage_inbox_pane_get_state (f->pane), ==, TRIAGE_INBOX_PANE_NO_RESULTS);
  g_assert_cmpstr (triage_inbox_pane_get_service_filter (f->pane), ==, "Zebra");
  g_assert_true (triage_inbox_pane_set_service_filter (f->pane, NULL));
  browse_test_assert_choices (triage_inbox_pane_dup_service_choices (f->pane), without_zebra);
  g_assert_false (triage_inbox_pane_set_service_filter (f->pane, "Checks"));
}

static void
test_filters (Fixture       *f,
              gconstpointer  data)
{
  const char *build_1[] = { "build", "1", NULL };

  fill_many (f, 700);

  g_assert_true (triage_inbox_pane_set_service_filter (f->pane, "Reviewer"));
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==,
                    expected_matches (700, "Reviewer", NULL, NULL));
  for (guint i = 0; i < inbox_pane_test_n_visible (f); i++)
    g_assert_cmpstr (triage_request_get_service_name (inbox_pane_test_visible_at (f, i)), ==,
                     "Reviewer");

  /* Requests without a project. */
  g_assert_true (triage_inbox_pane_set_project_filter (f->pane, ""));
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==,
                    expected_matches (700, "Reviewer", "", NULL));
  g_assert_cmpuint (inbox_pane_test_n_visible (f), >, 0);
  for (guint i = 0; i < inbox_pane_test_n_visible (f); i++)
    g_assert_null (triage_request_get_notification (inbox_pane_test_visible_at (f, i))
                     ->context.project);

  g_assert_true (triage_inbox_pane_set_project_filter (f->pane, "api"));
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==,
                    expected_matches (700, "Reviewer", "api", NULL));

  /* With a search. */
  triage_inbox_pane_set_search_text (f->pane, "build 1");
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==,
                    expected_matches (700, "Reviewer", "api", build_1));

  triage_inbox_pane_clear_filters (f->pane);
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==, 700);
  g_assert_null (triage_inbox_pane_get_service_filter (f->pane));
  g_assert_null (triage_inbox_pane_get_project_filter (f->pane));
  g_assert_cmpstr (triage_inbox_pane_get_search_text (f->pane), ==, "");
}

/* A project an agent named is shown in the drop-down as every name of an
 * agent is: a bidi override shown, never obeyed; a long name cut. */
static void
test_dropdown_shown_names (Fixture       *f,
                           gconstpointer  data)
{
  GtkWidget *dropdown = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (f->pane),
                                                                   TRIAGE_TYPE_INBOX_PANE,
                                                                   "project_dropdown"));
  g_autofree char *long_name = g_strnfill (300, 'x');
  g_autofree char *long_head = g_strnfill (100, 'x');
  g_autofree char *long_shown = g_strconcat (long_head, "…", NULL);

  inbox_pane_test_add_request (f, "CI", "\u202Eevird\u202C", "A", "d", 0, 2);
  inbox_pane_test_add_request (f, "CI", long_name, "B", "d", 0, 1);

  g_assert_true (triage_inbox_pane_set_project_filter (f->pane, "\u202Eevird\u202C"));
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==, 1);
  g_assert_nonnull (inbox_pane_test_find_widget (dropdown, GTK_TYPE_LABEL, "\uFFFDevird\uFFFD"));

  g_assert_true (triage_inbox_pane_set_project_filter (f->pane, long_name));
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==, 1);
  g_assert_nonnull (inbox_pane_test_find_widget (dropdown, GTK_TYPE_LABEL, long_shown));
}

/* A request a resync brings changed (the inbox held meanwhile, told as
 * one change): the search, the filters and the drop-downs go by what it
 * says now, though it kept its place. */
static void
test_refreshed_while_held (Fixture       *f,
                           gconstpointer  data)
{
  g_autofree char *id = g_strdup (inbox_pane_test_add_request (f, "CI", "web", "Deploy web",
                                                               "d", 0, 10));
  g_autoptr(AtpNotification) changed = NULL;

  inbox_pane_test_add_request (f, "CI", "docs", "Deploy docs", "d", 0, 5);
  triage_inbox_pane_set_search_text (f->pane, "web");
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==, 1);
  g_assert_true (triage_inbox_pane_set_project_filter (f->pane, "web"));
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==, 1);

  changed = browse_test_notification (id, "CI", "infra", "Roll back infra", "d",
                                      f->now - 10 * G_TIME_SPAN_MINUTE, 0);
  triage_inbox_model_hold (f->model);
  triage_inbox_model_add (f->model, changed, NULL);
  triage_inbox_model_release (f->model);
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==, 0);

  triage_inbox_pane_clear_filters (f->pane);
  triage_inbox_pane_set_search_text (f->pane, "roll");
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==, 1);
  g_assert_true (triage_inbox_pane_set_project_filter (f->pane, "infra"));
  g_assert_cmpuint (inbox_pane_test_n_visible (f), ==, 1);
}

void
inbox_pane_test_add_search (void)
{
  INBOX_PANE_TEST_ADD ("/inbox/pane/search-many", test_search_many);
  INBOX_PANE_TEST_ADD ("/inbox/pane/warm-up", test_warm_up);
  INBOX_PANE_TEST_ADD ("/inbox/pane/dropdowns", test_dropdowns);
  INBOX_PANE_TEST_ADD ("/inbox/pane/filters", test_filters);
  INBOX_PANE_TEST_ADD ("/inbox/pane/refreshed-while-held", test_refreshed_while_held);
  INBOX_PANE_TEST_ADD ("/inbox/pane/dropdown-shown-names", test_dropdown_shown_names);
}
