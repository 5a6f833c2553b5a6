/* test-history-export.c — JSON Lines and CSV exports, byte for byte
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "browse-test-common.h"
#include "triage-history-export.h"
#include "triage-history-model.h"

static TriageHistoryEntry *
tricky_entry (void)
{
  TriageHistoryEntryData data = {
    .rowid = 1,
    .id = g_strdup ("a-1"),
    .service_id = g_strdup ("svc"),
    .service_name = g_strdup ("Bot, \"quoted\""),
    .project = g_strdup ("=HYPERLINK(\"http://x\")"),
    .title = g_strdup ("Déployer «2.1» — 日本語 🚀"),
    .description = g_strdup ("line1\nline2\r\nend\ttab"),
    .status = ATP_STATUS_RESPONDED,
    .status_reason = NULL,
    .stored_outcome = TRIAGE_OUTCOME_ANSWERED,
    .action_id = g_strdup ("priority"),
    .action_label = g_strdup ("Set priority"),
    .response_data = g_strdup ("\"high\""),
    .responder_id = g_strdup ("@user"),
    .responder_type = g_strdup ("human"),
    .created_at = BROWSE_TEST_BASE_USEC,
    .deadline = 0,
    .first_seen = BROWSE_TEST_BASE_USEC,
    .updated_at = BROWSE_TEST_BASE_USEC,
    .answered_at = BROWSE_TEST_BASE_USEC + 1500 * 1000,
    .delivered_at = BROWSE_TEST_BASE_USEC + 2 * G_USEC_PER_SEC,
  };

  return triage_history_entry_new (&data);
}

static TriageHistoryEntry *
pending_entry (void)
{
  TriageHistoryEntryData data = {
    .rowid = 2,
    .id = g_strdup ("b-2"),
    .service_id = g_strdup ("ci"),
    .service_name = g_strdup ("CI"),
    .title = g_strdup ("-1 +1 @all"),
    .description = g_strdup ("plain"),
    .status = ATP_STATUS_EXPIRED,
    .status_reason = g_strdup ("deadline passed"),
    .stored_outcome = TRIAGE_OUTCOME_NONE,
    .created_at = BROWSE_TEST_BASE_USEC + 123456,
    .deadline = BROWSE_TEST_BASE_USEC + G_TIME_SPAN_HOUR,
  };

  return triage_history_entry_new (&data);
}

static void
test_csv_cell (void)
{
  struct { const char *in; const char *out; } cases[] = {
    { NULL, "" },
    { "", "" },
    { "plain", "plain" },
    { "a,b", "\"a,b\"" },
    { "say \"hi\"", "\"say \"\"hi\"\"\"" },
    { "two\nlines", "\"two\nlines\"" },
    { "cr\rhere", "\"cr\rhere\"" },
    { "=1+2", "'=1+2" },
    { "+33 6", "'+33 6" },
    { "-5", "'-5" },
    { "@SUM(A1)", "'@SUM(A1)" },
    { "\tlead", "'\tlead" },
    { "\rlead", "\"'\rlead\"" },
    { "=A1,\"x\"", "\"'=A1,\"\"x\"\"\"" },
    { "a=b", "a=b" },
    { " =spaced", " =spaced" },
    { "日本語, ü", "\"日本語, ü\"" },
    { "'quoted'", "'quoted'" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *cell = triage_history_csv_cell (cases[i].in);

      g_assert_cmpstr (cell, ==, cases[i].out);
    }
}

static void
test_csv_rows (void)
{
  g_autoptr(TriageHistoryEntry) tricky = tricky_entry ();
  g_autoptr(TriageHistoryEntry) pending = pending_entry ();
  g_autofree char *row = triage_history_entry_to_csv_row (tricky);
  g_autofree char *row2 = triage_history_entry_to_csv_row (pending);

  g_assert_cmpstr (triage_history_csv_header (), ==,
                   "id,title,description,service_id,service,project,outcome,status,status_reason,"
                   "action_id,action_label,response_data,responder_id,responder_type,created_at,"
                   "deadline,answered_at,delivered_at,response_ms,protocol,answer\r\n");
  g_assert_cmpstr (row, ==,
                   "a-1,Déployer «2.1» — 日本語 🚀,\"line1\nline2\r\nend\ttab\",svc,"
                   "\"Bot, \"\"quoted\"\"\",\"'=HYPERLINK(\"\"http://x\"\")\",answered,responded,,"
                   "priority,Set priority,\"\"\"high\"\"\",'@user,human,2026-03-02T00:00:00Z,,"
                   "2026-03-02T00:00:01.500000Z,2026-03-02T00:00:02Z,1500,atp,"
                   "\"Set priority: \"\"high\"\"\"\r\n");
  /* Expired without an outcome from the store: the status settles it. */
  g_assert_cmpstr (row2, ==,
                   "b-2,'-1 +1 @all,plain,ci,CI,,expired,expired,deadline passed,,,,,,"
                   "2026-03-02T00:00:00.123456Z,2026-03-02T01:00:00Z,,,,atp,\r\n");
}

static void
test_json_lines (void)
{
  g_autoptr(TriageHistoryEntry) tricky = tricky_entry ();
  g_autoptr(TriageHistoryEntry) pending = pending_entry ();
  g_autofree char *line = triage_history_entry_to_json_line (tricky);
  g_autofree char *line2 = triage_history_entry_to_json_line (pending);
  g_autoptr(JsonNode) parsed = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpstr (line, ==,
                   "{\"id\":\"a-1\",\"title\":\"Déployer «2.1» — 日本語 🚀\","
                   "\"description\":\"line1\\nline2\\r\\nend\\ttab\",\"service_id\":\"svc\","
                   "\"service\":\"Bot, \\\"quoted\\\"\",\"project\":\"=HYPERLINK(\\\"http://x\\\")\","
                   "\"outcome\":\"answered\",\"status\":\"responded\",\"status_reason\":null,"
                   "\"action_id\":\"priority\",\"action_label\":\"Set priority\","
                   "\"response_data\":\"high\",\"responder_id\":\"@user\",\"responder_type\":\"human\","
                   "\"created_at\":\"2026-03-02T00:00:00Z\",\"deadline\":null,"
                   "\"answered_at\":\"2026-03-02T00:00:01.500000Z\","
                   "\"delivered_at\":\"2026-03-02T00:00:02Z\",\"response_ms\":1500,"
                   "\"protocol\":\"atp\",\"answer\":\"Set priority: \\\"high\\\"\"}\n");
  g_assert_cmpstr (line2, ==,
                   "{\"id\":\"b-2\",\"title\":\"-1 +1 @all\",\"description\":\"plain\","
                   "\"service_id\":\"ci\",\"service\":\"CI\",\"project\":null,\"outcome\":\"expired\","
                   "\"status\":\"expired\",\"status_reason\":\"deadline passed\",\"action_id\":null,"
                   "\"action_label\":null,\"response_data\":null,\"responder_id\":null,"
                   "\"responder_type\":null,\"created_at\":\"2026-03-02T00:00:00.123456Z\","
                   "\"deadline\":\"2026-03-02T01:00:00Z\",\"answered_at\":null,\"delivered_at\":null,"
                   "\"response_ms\":null,\"protocol\":\"atp\",\"answer\":null}\n");

  /* Each line is one JSON document. */
  parsed = json_from_string (line, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (parsed));
}

typedef struct
{
  char        *dir;
  char        *path;
  TriageStore *store;
  GArray      *rowids;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(AtpNotification) answered = NULL;
  g_autoptr(AtpNotification) queued = NULL;
  g_autoptr(AtpNotification) expired = NULL;
  g_autoptr(TriageHistoryDb) db = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(TriageOutboxEntry) entry = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDateTime) when = g_date_time_new_from_unix_utc (BROWSE_TEST_BASE_USEC / G_USEC_PER_SEC + 90);
  gint64 ids[] = { 3, 1, 2 };

  f->dir = g_dir_make_tmp ("triage-export-XXXXXX", NULL);
  f->path = g_build_filename (f->dir, "triage.db", NULL);
  f->store = browse_test_open_store (f->path);
  db = browse_test_open_history (f->path);

  answered = browse_test_notification ("aaaaaaaa-0000-4000-8000-000000000001", "Deploy bot", "web",
                                       "Ship «2.1»?", "To, \"production\"",
                                       BROWSE_TEST_BASE_USEC, 0);
  queued = browse_test_notification ("aaaaaaaa-0000-4000-8000-000000000002", "CI", NULL,
                                     "=cmd|' /C calc'!A0", "Formula",
                                     BROWSE_TEST_BASE_USEC + G_USEC_PER_SEC, 0);
  expired = browse_test_notification ("aaaaaaaa-0000-4000-8000-000000000003", "CI", "ops",
                                      "Too late", "Nobody answered",
                                      BROWSE_TEST_BASE_USEC + 2 * G_USEC_PER_SEC, 0);
  browse_test_save (f->store, answered);
  browse_test_save (f->store, queued);
  browse_test_save (f->store, expired);
  browse_test_answer (f->store, answered->id, "priority", "\"=1+2\"",
                      BROWSE_TEST_BASE_USEC + 61 * G_USEC_PER_SEC);
  /* Answered here, still in the outbox. */
  triage_store_outbox_add_async (f->store, queued->id, "approve", NULL, when, NULL,
                                 browse_test_result_cb, &result);
  browse_test_wait_for (result != NULL);
  entry = triage_store_outbox_add_finish (f->store, result, &error);
  g_assert_no_error (error);
  browse_test_set_outcome (f->store, expired->id, ATP_STATUS_EXPIRED, TRIAGE_OUTCOME_EXPIRED);

  /* In this order: the newest first, as the history lists them. */
  f->rowids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_array_append_vals (f->rowids, ids, G_N_ELEMENTS (ids));
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  browse_test_close_store (&f->store);
  g_array_unref (f->rowids);
  browse_test_rm_rf (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

static const char expected_csv[] =
  "id,title,description,service_id,service,project,outcome,status,status_reason,"
  "action_id,action_label,response_data,responder_id,responder_type,created_at,"
  "deadline,answered_at,delivered_at,response_ms,protocol,answer\r\n"
  "aaaaaaaa-0000-4000-8000-000000000003,Too late,Nobody answered,CI,CI,ops,expired,expired,,,,,,,"
  "2026-03-02T00:00:02Z,,,,,atp,\r\n"
  "aaaaaaaa-0000-4000-8000-000000000001,Ship «2.1»?,\"To, \"\"production\"\"\",Deploy bot,"
  "Deploy bot,web,answered,responded,,priority,Set priority,\"\"\"=1+2\"\"\",user-1,human,"
  "2026-03-02T00:00:00Z,,2026-03-02T00:01:01Z,2026-03-02T00:01:01Z,61000,atp,"
  "‘Set priority’: Formula\r\n"
  "aaaaaaaa-0000-4000-8000-000000000002,'=cmd|' /C calc'!A0,Formula,CI,CI,,queued,delivered,,"
  "approve,Approve,null,,human,2026-03-02T00:00:01Z,,2026-03-02T00:01:30Z,,89000,atp,Approve\r\n";

static const char expected_jsonl[] =
  "{\"id\":\"aaaaaaaa-0000-4000-8000-000000000003\",\"title\":\"Too late\","
  "\"description\":\"Nobody answered\",\"service_id\":\"CI\",\"service\":\"CI\",\"project\":\"ops\","
  "\"outcome\":\"expired\",\"status\":\"expired\",\"status_reason\":null,\"action_id\":null,"
  "\"action_label\":null,\"response_data\":null,\"responder_id\":null,\"responder_type\":null,"
  "\"created_at\":\"2026-03-02T00:00:02Z\",\"deadline\":null,\"answered_at\":null,"
  "\"delivered_at\":null,\"response_ms\":null,\"protocol\":\"atp\",\"answer\":null}\n"
  "{\"id\":\"aaaaaaaa-0000-4000-8000-000000000001\",\"title\":\"Ship «2.1»?\","
  "\"description\":\"To, \\\"production\\\"\",\"service_id\":\"Deploy bot\",\"service\":\"Deploy bot\","
  "\"project\":\"web\",\"outcome\":\"answered\",\"status\":\"responded\",\"status_reason\":null,"
  "\"action_id\":\"priority\",\"action_label\":\"Set priority\",\"response_data\":\"=1+2\","
  "\"responder_id\":\"user-1\",\"responder_type\":\"human\",\"created_at\":\"2026-03-02T00:00:00Z\","
  "\"deadline\":null,\"answered_at\":\"2026-03-02T00:01:01Z\","
  "\"delivered_at\":\"2026-03-02T00:01:01Z\",\"response_ms\":61000,\"protocol\":\"atp\","
  "\"answer\":\"‘Set priority’: Formula\"}\n"
  "{\"id\":\"aaaaaaaa-0000-4000-8000-000000000002\",\"title\":\"=cmd|' /C calc'!A0\","
  "\"description\":\"Formula\",\"service_id\":\"CI\",\"service\":\"CI\",\"project\":null,"
  "\"outcome\":\"queued\",\"status\":\"delivered\",\"status_reason\":null,\"action_id\":\"approve\","
  "\"action_label\":\"Approve\",\"response_data\":null,\"responder_id\":null,"
  "\"responder_type\":\"human\",\"created_at\":\"2026-03-02T00:00:01Z\",\"deadline\":null,"
  "\"answered_at\":\"2026-03-02T00:01:30Z\",\"delivered_at\":null,\"response_ms\":89000,"
  "\"protocol\":\"atp\",\"answer\":\"Approve\"}\n";

static char *
export_to_memory (Fixture             *f,
                  TriageHistoryFormat  format,
                  guint               *n_written)
{
  g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;

  g_assert_true (triage_history_export_to_stream (f->path, f->rowids, format, stream, n_written,
                                                  NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (stream, "", 1, NULL, NULL, &error));
  g_assert_true (g_output_stream_close (stream, NULL, &error));

  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (stream));
}

static void
test_stream (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *csv = NULL;
  g_autofree char *jsonl = NULL;
  guint n = 0;

  csv = export_to_memory (f, TRIAGE_HISTORY_FORMAT_CSV, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpstr (csv, ==, expected_csv);

  jsonl = export_to_memory (f, TRIAGE_HISTORY_FORMAT_JSON_LINES, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpstr (jsonl, ==, expected_jsonl);
}

static void
test_file (Fixture       *f,
           gconstpointer  data)
{
  g_autofree char *target = g_build_filename (f->dir, "out.csv", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (target);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) cancelled_result = NULL;
  g_autoptr(GAsyncResult) missing_result = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *after = NULL;
  g_autofree char *bad_path = g_build_filename (f->dir, "no-such-folder", "out.csv", NULL);
  g_autoptr(GFile) bad_file = g_file_new_for_path (bad_path);
  guint n = 0;

  triage_history_export_async (f->path, f->rowids, TRIAGE_HISTORY_FORMAT_CSV, file, NULL,
                               browse_test_result_cb, &result);
  browse_test_wait_for (result != NULL);
  g_assert_true (triage_history_export_finish (result, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 3);
  g_assert_true (g_file_get_contents (target, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, expected_csv);

  /* A cancelled export leaves the earlier file as it was. */
  g_cancellable_cancel (cancellable);
  triage_history_export_async (f->path, f->rowids, TRIAGE_HISTORY_FORMAT_JSON_LINES, file,
                               cancellable, browse_test_result_cb, &cancelled_result);
  browse_test_wait_for (cancelled_result != NULL);
  g_assert_false (triage_history_export_finish (cancelled_result, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_true (g_file_get_contents (target, &after, NULL, NULL));
  g_assert_cmpstr (after, ==, expected_csv);

  /* A folder that does not exist: a clear error. */
  triage_history_export_async (f->path, f->rowids, TRIAGE_HISTORY_FORMAT_CSV, bad_file, NULL,
                               browse_test_result_cb, &missing_result);
  browse_test_wait_for (missing_result != NULL);
  g_assert_false (triage_history_export_finish (missing_result, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

static void
test_many (void)
{
  g_autofree char *dir = g_dir_make_tmp ("triage-export-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "triage.db", NULL);
  g_autofree char *target = g_build_filename (dir, "all.jsonl", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (target);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) rows = NULL;
  g_autoptr(GArray) rowids = NULL;
  g_autoptr(TriageHistoryModel) model = NULL;
  g_autoptr(TriageHistoryDb) db = NULL;
  g_autofree char *contents = NULL;
  TriageStore *store = browse_test_open_store (path);
  guint lines = 0;
  guint n = 0;

  /* Over several chunks of 500. */
  rows = browse_test_generate (path, 1234, BROWSE_TEST_BASE_USEC, G_USEC_PER_SEC);
  db = browse_test_open_history (path);
  model = triage_history_model_new (db);
  triage_history_model_reload (model);
  browse_test_wait_for (!triage_history_model_get_loading (model));
  rowids = triage_history_model_dup_rowids (model, NULL);

  triage_history_export_async (path, rowids, TRIAGE_HISTORY_FORMAT_JSON_LINES, file, NULL,
                               browse_test_result_cb, &result);
  browse_test_wait_for (result != NULL);
  g_assert_true (triage_history_export_finish (result, &n, &error));
  g_assert_cmpuint (n, ==, 1234);
  g_assert_true (g_file_get_contents (target, &contents, NULL, NULL));
  for (const char *p = contents; *p != '\0'; p++)
    lines += *p == '\n';
  g_assert_cmpuint (lines, ==, 1234);
  /* Newest first. */
  g_assert_true (g_str_has_prefix (contents, "{\"id\":\"00000000-0000-4000-8000-000000001233\""));

  g_clear_object (&model);
  browse_test_finalize (g_steal_pointer (&db));
  browse_test_close_store (&store);
  browse_test_rm_rf (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("TZ", "UTC", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/history/export/csv-cell", test_csv_cell);
  g_test_add_func ("/history/export/csv-rows", test_csv_rows);
  g_test_add_func ("/history/export/json-lines", test_json_lines);
  g_test_add ("/history/export/stream", Fixture, NULL, fixture_setup, test_stream, fixture_teardown);
  g_test_add ("/history/export/file", Fixture, NULL, fixture_setup, test_file, fixture_teardown);
  g_test_add_func ("/history/export/many", test_many);

  return g_test_run ();
}
