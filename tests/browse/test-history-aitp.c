/* test-history-aitp.c — AITP-02 decisions in the history: found by search and
 * filters, their answers in words, exported in JSON Lines and CSV with the
 * options chosen and their quantities, and counted in the chart
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "browse-test-common.h"
#include "triage-history-export.h"
#include "triage-history-filter.h"
#include "triage-history-stats.h"

#define PRODUCTS_ID "bbbbbbbb-0000-4000-8000-000000000001"
#define CHECKBOX_ID "bbbbbbbb-0000-4000-8000-000000000002"
#define RADIO_ID    "bbbbbbbb-0000-4000-8000-000000000003"
#define ATP_ID      "bbbbbbbb-0000-4000-8000-000000000004"

/* What the server stores as the answer: the completed decision object. */
#define PRODUCTS_ANSWER \
  "{\"request_decision_id\":\"b3f1c9e2-headphones\",\"options\":[" \
  "{\"id\":\"jbl-sand\",\"name\":\"JBL Tour One M2\",\"quantity\":3}," \
  "{\"id\":\"sony\",\"name\":\"Sony WH-1000XM5\",\"quantity\":1}]}"
#define CHECKBOX_ANSWER \
  "{\"options\":[{\"id\":\"red\",\"name\":\"Red\"},{\"id\":\"green\",\"name\":\"Green\"}]}"

typedef struct
{
  char            *dir;
  char            *path;
  TriageStore     *store;
  TriageHistoryDb *db;
} Fixture;

/* An AITP request's envelope as the server sends it: the context it derives
 * from the message, the message (tests/atp/data/aitp/@example) as payload. */
static AtpNotification *
aitp_notification (const char *id,
                   const char *example,
                   const char *title,
                   const char *description,
                   const char *project,
                   gint64      created_at)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "atp", "data", "aitp", example, NULL);
  g_autofree char *message = NULL;
  g_autoptr(GDateTime) when = g_date_time_new_from_unix_utc (created_at / G_USEC_PER_SEC);
  g_autofree char *timestamp = g_date_time_format_iso8601 (when);
  g_autoptr(GString) context = g_string_new (NULL);
  g_autofree char *json = NULL;
  g_autoptr(GError) error = NULL;
  AtpNotification *notification;

  g_assert_true (g_file_get_contents (path, &message, NULL, &error));
  g_string_append_printf (context, "{\"title\": \"%s\"", title);
  if (description != NULL)
    g_string_append_printf (context, ", \"description\": \"%s\"", description);
  if (project != NULL)
    g_string_append_printf (context, ", \"project\": \"%s\"", project);
  g_string_append_c (context, '}');
  json = g_strdup_printf ("{\"id\": \"%s\", \"version\": \"1.0\", \"timestamp\": \"%s\","
                          " \"protocol\": \"aitp\","
                          " \"service\": {\"id\": \"shop\", \"name\": \"Shop Bot\"},"
                          " \"context\": %s, \"aitp\": %s, \"status\": \"delivered\"}",
                          id, timestamp, context->str, message);
  notification = atp_notification_new_from_data (json, -1, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  return notification;
}

/* Three decisions of Shop Bot (products and checkbox answered here, radio
 * expired) and an ATP request, a second apart. */
static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(AtpNotification) products = NULL;
  g_autoptr(AtpNotification) checkbox = NULL;
  g_autoptr(AtpNotification) radio = NULL;
  g_autoptr(AtpNotification) atp = NULL;

  f->dir = g_dir_make_tmp ("triage-history-aitp-XXXXXX", NULL);
  f->path = g_build_filename (f->dir, "triage.db", NULL);
  f->store = browse_test_open_store (f->path);

  products = aitp_notification (PRODUCTS_ID, "products-variants.json", "Which headphones?",
                                "Two pairs fit your budget.", "kitchen", BROWSE_TEST_BASE_USEC);
  checkbox = aitp_notification (CHECKBOX_ID, "seed-003-checkbox-request.json", "Your Favorite Colors",
                                "Which colors are your favorite?", NULL,
                                BROWSE_TEST_BASE_USEC + G_USEC_PER_SEC);
  radio = aitp_notification (RADIO_ID, "seed-003-radio-request.json", "Select your favorite number:",
                             NULL, NULL, BROWSE_TEST_BASE_USEC + 2 * G_USEC_PER_SEC);
  atp = browse_test_notification (ATP_ID, "CI", NULL, "Ship the release?", "All green",
                                  BROWSE_TEST_BASE_USEC + 3 * G_USEC_PER_SEC, 0);
  browse_test_save (f->store, products);
  browse_test_save (f->store, checkbox);
  browse_test_save (f->store, radio);
  browse_test_save (f->store, atp);
  browse_test_answer (f->store, PRODUCTS_ID, "decision", PRODUCTS_ANSWER,
                      BROWSE_TEST_BASE_USEC + 42 * G_USEC_PER_SEC);
  browse_test_answer (f->store, CHECKBOX_ID, "decision", CHECKBOX_ANSWER,
                      BROWSE_TEST_BASE_USEC + 61 * G_USEC_PER_SEC);
  browse_test_set_outcome (f->store, RADIO_ID, ATP_STATUS_EXPIRED, TRIAGE_OUTCOME_EXPIRED);
  browse_test_answer (f->store, ATP_ID, "approve", NULL, BROWSE_TEST_BASE_USEC + 5 * G_USEC_PER_SEC);

  f->db = browse_test_open_history (f->path);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  browse_test_finalize (g_steal_pointer (&f->db));
  browse_test_close_store (&f->store);
  browse_test_rm_rf (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

static GArray *
query (Fixture                   *f,
       const TriageHistoryFilter *filter)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GArray *keys;

  triage_history_db_query_async (f->db, filter, NULL, browse_test_result_cb, &result);
  browse_test_wait_for (result != NULL);
  keys = triage_history_db_query_finish (f->db, result, &error);
  g_assert_no_error (error);

  return keys;
}

/* The ids of the entries a search for @text finds, newest first, joined by spaces. */
static char *
search (Fixture    *f,
        const char *text)
{
  g_autoptr(TriageHistoryFilter) filter = triage_history_filter_new ();
  g_autoptr(GArray) keys = NULL;
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) ids = g_string_new (NULL);
  g_autoptr(GArray) rowids = g_array_new (FALSE, FALSE, sizeof (gint64));

  filter->text = g_strdup (text);
  keys = query (f, filter);
  if (keys->len == 0)
    return g_strdup ("");
  for (guint i = 0; i < keys->len; i++)
    g_array_append_val (rowids, g_array_index (keys, TriageHistoryKey, i).rowid);

  triage_history_db_fetch_async (f->db, (gint64 *) (gpointer) rowids->data, rowids->len, NULL,
                                 browse_test_result_cb, &result);
  browse_test_wait_for (result != NULL);
  entries = triage_history_db_fetch_finish (f->db, result, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < entries->len; i++)
    g_string_append_printf (ids, "%s%s", i ? " " : "",
                            triage_history_entry_get_id (g_ptr_array_index (entries, i)));

  return g_strdup (ids->str);
}

static TriageHistoryEntry *
entry_for (Fixture    *f,
           const char *id)
{
  g_autoptr(TriageHistoryFilter) filter = triage_history_filter_new ();
  g_autoptr(GArray) keys = query (f, filter);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < keys->len; i++)
    {
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GPtrArray) entries = NULL;
      gint64 rowid = g_array_index (keys, TriageHistoryKey, i).rowid;
      TriageHistoryEntry *entry;

      triage_history_db_fetch_async (f->db, &rowid, 1, NULL, browse_test_result_cb, &result);
      browse_test_wait_for (result != NULL);
      entries = triage_history_db_fetch_finish (f->db, result, &error);
      g_assert_no_error (error);
      entry = g_ptr_array_index (entries, 0);
      if (g_str_equal (triage_history_entry_get_id (entry), id))
        return g_object_ref (entry);
    }

  g_assert_not_reached ();
}

/* Searchable like any request: title, description, service and project words. */
static void
test_search (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(TriageHistoryFilter) filter = triage_history_filter_new ();
  g_autoptr(GArray) keys = NULL;
  g_autofree char *headphones = search (f, "headphones");
  g_autofree char *favorite = search (f, "FAVOR");
  g_autofree char *budget = search (f, "budget");
  g_autofree char *shop = search (f, "shop");
  g_autofree char *ship = search (f, "ship");

  g_assert_cmpstr (headphones, ==, PRODUCTS_ID);
  g_assert_cmpstr (favorite, ==, RADIO_ID " " CHECKBOX_ID);
  g_assert_cmpstr (budget, ==, PRODUCTS_ID);
  g_assert_cmpstr (shop, ==, RADIO_ID " " CHECKBOX_ID " " PRODUCTS_ID);
  g_assert_cmpstr (ship, ==, ATP_ID);

  /* The filters: the agent's x-triage.project, the service, the outcome. */
  filter->project = g_strdup ("kitchen");
  keys = query (f, filter);
  g_assert_cmpuint (keys->len, ==, 1);
  g_clear_pointer (&keys, g_array_unref);
  g_clear_pointer (&filter->project, g_free);
  filter->service = g_strdup ("Shop Bot");
  filter->outcome = TRIAGE_OUTCOME_ANSWERED;
  keys = query (f, filter);
  g_assert_cmpuint (keys->len, ==, 2);
}

/* The entries: the protocol, the mark by the service, the answer in words
 * from what the history keeps (the names shown, quantities above one). */
static void
test_entries (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(TriageHistoryEntry) products = entry_for (f, PRODUCTS_ID);
  g_autoptr(TriageHistoryEntry) checkbox = entry_for (f, CHECKBOX_ID);
  g_autoptr(TriageHistoryEntry) radio = entry_for (f, RADIO_ID);
  g_autoptr(TriageHistoryEntry) atp = entry_for (f, ATP_ID);
  g_autofree char *products_answer = triage_history_entry_dup_answer_text (products);
  g_autofree char *checkbox_answer = triage_history_entry_dup_answer_text (checkbox);
  g_autofree char *radio_answer = triage_history_entry_dup_answer_text (radio);
  g_autofree char *service = triage_history_entry_dup_service_text (products);
  g_autofree char *atp_service = triage_history_entry_dup_service_text (atp);

  g_assert_cmpint (triage_history_entry_get_data (products)->protocol, ==, ATP_PROTOCOL_AITP);
  g_assert_cmpint (triage_history_entry_get_data (atp)->protocol, ==, ATP_PROTOCOL_ATP);
  g_assert_cmpstr (products_answer, ==, "JBL Tour One M2 × 3, Sony WH-1000XM5");
  g_assert_cmpstr (checkbox_answer, ==, "Red, Green");
  g_assert_cmpstr (radio_answer, ==, "");
  g_assert_cmpstr (service, ==, "Shop Bot (AITP)");
  g_assert_cmpstr (atp_service, ==, "CI");
  g_assert_cmpint (triage_history_entry_get_outcome (products), ==, TRIAGE_OUTCOME_ANSWERED);
  g_assert_cmpint (triage_history_entry_get_outcome (radio), ==, TRIAGE_OUTCOME_EXPIRED);
  g_assert_cmpint (triage_history_entry_get_response_time (products), ==, 42 * G_USEC_PER_SEC);
}

static char *
export (Fixture             *f,
        TriageHistoryFormat  format)
{
  g_autoptr(TriageHistoryFilter) filter = triage_history_filter_new ();
  g_autoptr(GArray) keys = query (f, filter);
  g_autoptr(GArray) rowids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  guint n = 0;

  for (guint i = 0; i < keys->len; i++)
    g_array_append_val (rowids, g_array_index (keys, TriageHistoryKey, i).rowid);
  g_assert_true (triage_history_export_to_stream (f->path, rowids, format, stream, &n, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 4);
  g_assert_true (g_output_stream_write_all (stream, "", 1, NULL, NULL, &error));
  g_assert_true (g_output_stream_close (stream, NULL, &error));

  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (stream));
}

/* JSON Lines: the protocol, the decision as data (ids, names, quantities),
 * and the answer in words. */
static void
test_export_json_lines (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *text = export (f, TRIAGE_HISTORY_FORMAT_JSON_LINES);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  gboolean seen_products = FALSE, seen_radio = FALSE;

  g_assert_cmpuint (g_strv_length (lines), ==, 5);   /* four lines and the end */
  for (guint i = 0; i < 4; i++)
    {
      g_autoptr(JsonNode) node = json_from_string (lines[i], NULL);
      JsonObject *line = json_node_get_object (node);
      const char *id = json_object_get_string_member (line, "id");

      if (g_str_equal (id, ATP_ID))
        {
          g_assert_cmpstr (json_object_get_string_member (line, "protocol"), ==, "atp");
          continue;
        }

      g_assert_cmpstr (json_object_get_string_member (line, "protocol"), ==, "aitp");
      g_assert_cmpstr (json_object_get_string_member (line, "service"), ==, "Shop Bot");
      if (g_str_equal (id, PRODUCTS_ID))
        {
          JsonNode *response = json_object_get_member (line, "response_data");
          g_autoptr(JsonNode) expected = json_from_string (PRODUCTS_ANSWER, NULL);

          g_assert_true (json_node_equal (response, expected));
          g_assert_cmpstr (json_object_get_string_member (line, "action_id"), ==, "decision");
          g_assert_cmpstr (json_object_get_string_member (line, "answer"), ==,
                           "JBL Tour One M2 × 3, Sony WH-1000XM5");
          g_assert_cmpstr (json_object_get_string_member (line, "outcome"), ==, "answered");
          g_assert_cmpstr (json_object_get_string_member (line, "project"), ==, "kitchen");
          g_assert_cmpint (json_object_get_int_member (line, "response_ms"), ==, 42000);
          seen_products = TRUE;
        }
      else if (g_str_equal (id, RADIO_ID))
        {
          g_assert_cmpstr (json_object_get_string_member (line, "outcome"), ==, "expired");
          g_assert_true (json_object_get_null_member (line, "response_data"));
          g_assert_true (json_object_get_null_member (line, "answer"));
          seen_radio = TRUE;
        }
    }
  g_assert_true (seen_products && seen_radio);
}

/* CSV: the decision as its JSON text in one cell, the answer in another. */
static void
test_export_csv (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *text = export (f, TRIAGE_HISTORY_FORMAT_CSV);
  g_autoptr(GString) json_cell = g_string_new (PRODUCTS_ANSWER);
  g_autofree char *products_end = NULL;

  g_string_replace (json_cell, "\"", "\"\"", 0);
  products_end = g_strdup_printf (",decision,,\"%s\",user-1,human,2026-03-02T00:00:00Z,"
                                  ",2026-03-02T00:00:42Z,2026-03-02T00:00:42Z,42000,aitp,"
                                  "\"JBL Tour One M2 × 3, Sony WH-1000XM5\"\r\n", json_cell->str);

  g_assert_true (g_str_has_prefix (text, triage_history_csv_header ()));
  g_assert_nonnull (strstr (text, PRODUCTS_ID ",Which headphones?,Two pairs fit your budget.,"
                                  "shop,Shop Bot,kitchen,answered,responded,"));
  g_assert_nonnull (strstr (text, products_end));
  g_assert_nonnull (strstr (text, ",aitp,\"Red, Green\"\r\n"));
  g_assert_nonnull (strstr (text, RADIO_ID ",Select your favorite number:,,shop,Shop Bot,,expired,"
                                  "expired,"));
  g_assert_nonnull (strstr (text, ",atp,Approve\r\n"));
}

/* The chart counts decisions as it counts every request. */
static void
test_stats (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(TriageHistoryFilter) filter = triage_history_filter_new ();
  g_autoptr(TriageHistoryStats) stats = NULL;
  g_autoptr(TriageHistoryStats) shop = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) shop_result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDateTime) first = g_date_time_new_from_unix_utc (BROWSE_TEST_BASE_USEC / G_USEC_PER_SEC);
  g_autofree char *summary = NULL;

  triage_history_db_stats_async (f->db, filter, first, 1, NULL, browse_test_result_cb, &result);
  browse_test_wait_for (result != NULL);
  stats = triage_history_db_stats_finish (f->db, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (triage_history_stats_get_total (stats), ==, 4);
  g_assert_cmpuint (triage_history_stats_get_count (stats, TRIAGE_HISTORY_CATEGORY_ANSWERED), ==, 3);
  g_assert_cmpuint (triage_history_stats_get_count (stats, TRIAGE_HISTORY_CATEGORY_EXPIRED), ==, 1);

  filter->service = g_strdup ("Shop Bot");
  triage_history_db_stats_async (f->db, filter, first, 1, NULL, browse_test_result_cb, &shop_result);
  browse_test_wait_for (shop_result != NULL);
  shop = triage_history_db_stats_finish (f->db, shop_result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (triage_history_stats_get_total (shop), ==, 3);
  g_assert_cmpuint (triage_history_stats_get_count (shop, TRIAGE_HISTORY_CATEGORY_ANSWERED), ==, 2);
  summary = triage_history_stats_dup_summary (shop, "Shop Bot");
  g_assert_true (g_str_has_prefix (summary, "From 2026-03-02 to 2026-03-02, Shop Bot: 3 requests. "
                                            "2 answered here. "));
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("TZ", "UTC", TRUE);
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/history/aitp/search", test_search);
  ADD ("/history/aitp/entries", test_entries);
  ADD ("/history/aitp/export-json-lines", test_export_json_lines);
  ADD ("/history/aitp/export-csv", test_export_csv);
  ADD ("/history/aitp/stats", test_stats);
#undef ADD

  return g_test_run ();
}
