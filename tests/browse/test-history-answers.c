/* test-history-answers.c — an ATP answer in the history in words: the
 * option's label, the binary's label, the number with its unit; not the
 * JSON the agent got ("Region: \"r1\"")
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "browse-test-common.h"
#include "triage-history-entry.h"
#include "triage-history-filter.h"

#define REQUEST_ID "cccccccc-0000-4000-8000-000000000001"

static const char actions[] =
  "[{\"id\": \"region\", \"label\": \"Region\", \"response_type\": \"choice\","
  "  \"options\": [{\"value\": \"r0\", \"label\": \"Frankfurt\"}, {\"value\": \"r1\", \"label\": \"Dublin\"}]},"
  " {\"id\": \"teams\", \"label\": \"Teams\", \"response_type\": \"multi_choice\","
  "  \"options\": [{\"value\": \"a\", \"label\": \"Alpha\"}, {\"value\": \"b\", \"label\": \"Beta\"}]},"
  " {\"id\": \"restart\", \"label\": \"Restart the database?\", \"response_type\": \"binary\","
  "  \"options\": {\"true_label\": \"Restart\", \"false_label\": \"Keep running\"}},"
  " {\"id\": \"share\", \"label\": \"Canary share\", \"response_type\": \"number\","
  "  \"constraints\": {\"min\": 0, \"max\": 100, \"unit\": \"%\"}},"
  " {\"id\": \"stop\", \"label\": \"Stop\", \"response_type\": \"simple\"}]";

typedef struct
{
  char        *dir;
  char        *path;
  TriageStore *store;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->dir = g_dir_make_tmp ("triage-history-answers-XXXXXX", NULL);
  f->path = g_build_filename (f->dir, "triage.db", NULL);
  f->store = browse_test_open_store (f->path);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  browse_test_close_store (&f->store);
  browse_test_rm_rf (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

/* The answer text of the request answered with @action_id and @response. */
static char *
answer_text (Fixture    *f,
             const char *action_id,
             const char *response)
{
  g_autofree char *json =
    g_strdup_printf ("{\"id\": \"%s\", \"version\": \"1.0\", \"timestamp\": \"2026-03-02T00:00:00Z\","
                     " \"service\": {\"id\": \"ci\", \"name\": \"CI\"},"
                     " \"context\": {\"title\": \"Roll out?\", \"description\": \"Canary first.\"}, \"actions\": %s, \"status\": \"delivered\"}",
                     REQUEST_ID, actions);
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) request = atp_notification_new_from_data (json, -1, ATP_PARSE_DEFAULT, &error);
  g_autoptr(TriageHistoryDb) db = NULL;
  g_autoptr(TriageHistoryFilter) filter = triage_history_filter_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) fetched = NULL;
  g_autoptr(GArray) keys = NULL;
  g_autoptr(GPtrArray) entries = NULL;
  gint64 rowid;
  char *text;

  g_assert_no_error (error);
  browse_test_save (f->store, request);
  browse_test_answer (f->store, REQUEST_ID, action_id, response, BROWSE_TEST_BASE_USEC);

  db = browse_test_open_history (f->path);
  triage_history_db_query_async (db, filter, NULL, browse_test_result_cb, &result);
  browse_test_wait_for (result != NULL);
  keys = triage_history_db_query_finish (db, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (keys->len, ==, 1);
  rowid = g_array_index (keys, TriageHistoryKey, 0).rowid;
  triage_history_db_fetch_async (db, &rowid, 1, NULL, browse_test_result_cb, &fetched);
  browse_test_wait_for (fetched != NULL);
  entries = triage_history_db_fetch_finish (db, fetched, &error);
  g_assert_no_error (error);
  text = triage_history_entry_dup_answer_text (g_ptr_array_index (entries, 0));
  /* The results hold the history. */
  g_clear_object (&result);
  g_clear_object (&fetched);
  browse_test_finalize (g_steal_pointer (&db));

  return text;
}

#define ANSWER_TEST(name, action, response, expected) \
  static void \
  name (Fixture       *f, \
        gconstpointer  data) \
  { \
    g_autofree char *text = answer_text (f, action, response); \
  \
    g_assert_cmpstr (text, ==, expected); \
  }

ANSWER_TEST (test_choice, "region", "\"r1\"", "‘Region’: Dublin")
ANSWER_TEST (test_multi_choice, "teams", "[\"a\",\"b\"]", "‘Teams’: Alpha, Beta")
ANSWER_TEST (test_binary, "restart", "false", "‘Restart the database?’: Keep running")
ANSWER_TEST (test_number, "share", "25", "‘Canary share’: 25 %")
/* A simple action: its label, as before. */
ANSWER_TEST (test_simple, "stop", NULL, "Stop")

int
main (int   argc,
      char *argv[])
{
  g_setenv ("TZ", "UTC", TRUE);
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/history/answers/choice", test_choice);
  ADD ("/history/answers/multi-choice", test_multi_choice);
  ADD ("/history/answers/binary", test_binary);
  ADD ("/history/answers/number", test_number);
  ADD ("/history/answers/simple", test_simple);
#undef ADD

  return g_test_run ();
}
