/* test-store.c — the app's SQLite store: inbox, outbox, durability, schema
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include "app-test-common.h"
#include "app-test-hold.h"
#include "store-test-common.h"

#define ID_A "0a6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"
#define ID_B "1b6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"
#define ID_C "2c6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"

typedef struct
{
  char        *dir;
  char        *path;
  TriageStore *store;
} Fixture;

static void
close_store (TriageStore **store)
{
  app_test_finalize_object (g_steal_pointer (store));
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->dir = g_dir_make_tmp ("triage-store-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  /* A folder that does not exist yet: the store creates it. */
  f->path = g_build_filename (f->dir, "triage", "triage.db", NULL);
  f->store = store_test_open (f->path);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  if (f->store != NULL)
    close_store (&f->store);
  app_test_rm_rf (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

static GPtrArray *
outbox_list (TriageStore *store)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *entries;

  triage_store_outbox_list_async (store, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);
  entries = triage_store_outbox_list_finish (store, result, &error);
  g_assert_no_error (error);

  return entries;
}

static TriageOutboxEntry *
outbox_add (TriageStore  *store,
            const char   *id,
            const char   *action_id,
            const char   *data,
            GError      **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonNode) node = data ? atp_json_parse (data, -1, 0, NULL) : NULL;

  triage_store_outbox_add_async (store, id, action_id, node, NULL, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);

  return triage_store_outbox_add_finish (store, result, error);
}

static void
test_pending_order (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(AtpNotification) a = app_test_notification (ID_A, 0, 60, NULL);     /* no deadline */
  g_autoptr(AtpNotification) b = app_test_notification (ID_B, 600, 10, NULL);   /* due later */
  g_autoptr(AtpNotification) c = app_test_notification (ID_C, 120, 5, NULL);    /* due first */
  g_autoptr(GPtrArray) records = NULL;
  TriageStoreRecord *record;

  store_test_save (f->store, a);
  store_test_save (f->store, b);
  store_test_save (f->store, c);
  store_test_save (f->store, c);  /* seen again: no duplicate */

  records = store_test_load_pending (f->store);
  g_assert_cmpuint (records->len, ==, 3);
  g_assert_cmpstr (((TriageStoreRecord *) records->pdata[0])->notification->id, ==, ID_C);
  g_assert_cmpstr (((TriageStoreRecord *) records->pdata[1])->notification->id, ==, ID_B);
  g_assert_cmpstr (((TriageStoreRecord *) records->pdata[2])->notification->id, ==, ID_A);

  record = records->pdata[0];
  g_assert_cmpint (record->outcome, ==, TRIAGE_OUTCOME_NONE);
  g_assert_nonnull (record->first_seen);
  /* The body round-trips untouched, markup characters included. */
  g_assert_cmpstr (record->notification->context.description, ==, "Ship <b>it</b> & see");
}

static void
test_outcome_hides_from_pending (Fixture       *f,
                                 gconstpointer  data)
{
  g_autoptr(AtpNotification) a = app_test_notification (ID_A, 0, 60, NULL);
  g_autoptr(AtpNotification) b = app_test_notification (ID_B, 0, 30, NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) records = NULL;

  store_test_save (f->store, a);
  store_test_save (f->store, b);

  triage_store_set_outcome_async (f->store, ID_A, ATP_STATUS_EXPIRED, TRIAGE_OUTCOME_EXPIRED,
                                  "deadline passed", NULL, app_test_result_cb, &result);
  app_test_wait_result (result);
  g_assert_true (triage_store_set_outcome_finish (f->store, result, &error));
  g_assert_no_error (error);

  records = store_test_load_pending (f->store);
  g_assert_cmpuint (records->len, ==, 1);
  g_assert_cmpstr (((TriageStoreRecord *) records->pdata[0])->notification->id, ==, ID_B);
}


static void
count_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  guint *done = user_data;
  g_autoptr(GError) error = NULL;

  if (g_task_get_source_tag (G_TASK (result)) == triage_store_save_notification_async)
    g_assert_true (triage_store_save_notification_finish (TRIAGE_STORE (object), result, &error));
  else
    g_assert_true (triage_store_set_outcome_finish (TRIAGE_STORE (object), result, &error));
  g_assert_no_error (error);
  (*done)++;
}

static gint64
column_int (const char *path,
            const char *sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 value = -1;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    value = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  return value;
}

/* A burst of saves (a resync brings thousands) is written together, and in
 * order with what is asked between them. */
static void
test_save_burst (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(AtpNotification) first = app_test_notification (ID_A, 0, 60, NULL);
  g_autoptr(AtpNotification) again = app_test_notification (ID_A, 3600, 60, NULL);
  g_autofree char *sql = NULL;
  guint asked = 0;
  guint done = 0;
  gint64 start = g_get_monotonic_time ();

  triage_store_save_notification_async (f->store, first, NULL, count_done_cb, &done);
  asked++;
  for (guint i = 0; i < 2000; i++)
    {
      g_autofree char *id = g_uuid_string_random ();
      g_autoptr(AtpNotification) n = app_test_notification (id, 0, 30, NULL);

      triage_store_save_notification_async (f->store, n, NULL, count_done_cb, &done);
      asked++;
      if (i == 1000)
        {
          /* Between saves: it runs after the ones before and before the ones after. */
          triage_store_set_outcome_async (f->store, ID_A, ATP_STATUS_EXPIRED, TRIAGE_OUTCOME_EXPIRED,
                                          NULL, NULL, count_done_cb, &done);
          triage_store_save_notification_async (f->store, again, NULL, count_done_cb, &done);
          asked += 2;
        }
    }
  app_test_wait_for (done == asked, APP_TEST_WAIT_MS);
  g_test_message ("%u saves in %.0f ms", asked - 1, (g_get_monotonic_time () - start) / 1000.0);

  g_assert_cmpint (column_int (f->path, "SELECT count(*) FROM notifications"), ==, 2001);
  /* The later save ran last: it refreshed the body (its deadline) and the
   * status (set by the outcome before it), and kept the outcome. */
  g_assert_cmpint (column_int (f->path, "SELECT outcome = 'expired' AND deadline IS NOT NULL"
                                        "  AND status = 'delivered'"
                                        " FROM notifications WHERE id = '" ID_A "'"), ==, 1);
}


static gssize
prune (TriageStore *store,
       int          days_from_now)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) before = g_date_time_add_days (now, days_from_now);
  gssize removed;

  triage_store_prune_async (store, before, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);
  removed = triage_store_prune_finish (store, result, &error);
  g_assert_no_error (error);

  return removed;
}

/* The history's retention: settled requests go, pending ones and answers
 * still in the outbox stay. */
static void
test_prune (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(AtpNotification) expired = app_test_notification (ID_A, 0, 60, NULL);
  g_autoptr(AtpNotification) pending = app_test_notification (ID_B, 0, 60, NULL);
  g_autoptr(AtpNotification) queued = app_test_notification (ID_C, 0, 60, NULL);
  g_autoptr(TriageOutboxEntry) entry = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  store_test_save (f->store, expired);
  store_test_save (f->store, pending);
  store_test_save (f->store, queued);
  triage_store_set_outcome_async (f->store, ID_A, ATP_STATUS_EXPIRED, TRIAGE_OUTCOME_EXPIRED,
                                  NULL, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);
  g_assert_true (triage_store_set_outcome_finish (f->store, result, &error));
  entry = outbox_add (f->store, ID_C, "ok", NULL, &error);
  g_assert_no_error (error);

  /* Everything is newer than a day ago: nothing goes. */
  g_assert_cmpint (prune (f->store, -1), ==, 0);
  /* Everything is older than tomorrow: only the settled one goes. */
  g_assert_cmpint (prune (f->store, 1), ==, 1);
  g_assert_cmpint (column_int (f->path, "SELECT count(*) FROM notifications WHERE id = '" ID_A "'"), ==, 0);
  g_assert_cmpint (column_int (f->path, "SELECT count(*) FROM notifications"), ==, 2);
}

static void
test_outbox_roundtrip (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(AtpNotification) a = app_test_notification (ID_A, 0, 60, NULL);
  g_autoptr(TriageOutboxEntry) entry = NULL;
  g_autoptr(TriageOutboxEntry) again = NULL;
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  TriageOutboxEntry *listed;

  store_test_save (f->store, a);
  entry = outbox_add (f->store, ID_A, "pick", "[\"x\", \"y\"]", &error);
  g_assert_no_error (error);
  g_assert_cmpint (entry->id, >, 0);
  g_assert_cmpint (entry->state, ==, TRIAGE_OUTBOX_QUEUED);

  /* One answer per request. */
  again = outbox_add (f->store, ID_A, "other", NULL, &error);
  g_assert_null (again);
  g_assert_error (error, TRIAGE_STORE_ERROR, TRIAGE_STORE_ERROR_ALREADY_ANSWERED);
  g_clear_error (&error);

  /* A failed try is counted and kept. */
  triage_store_outbox_failed_async (f->store, entry->id, FALSE, "connection refused",
                                    NULL, app_test_result_cb, &result);
  app_test_wait_result (result);
  g_assert_true (triage_store_outbox_failed_finish (f->store, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);

  /* It survives closing and reopening the database. */
  close_store (&f->store);
  f->store = store_test_open (f->path);

  entries = outbox_list (f->store);
  g_assert_cmpuint (entries->len, ==, 1);
  listed = entries->pdata[0];
  g_assert_cmpint (listed->id, ==, entry->id);
  g_assert_cmpstr (listed->notification_id, ==, ID_A);
  g_assert_cmpstr (listed->action_id, ==, "pick");
  g_assert_cmpint (json_node_get_node_type (listed->response_data), ==, JSON_NODE_ARRAY);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (listed->response_data)), ==, 2);
  g_assert_cmpuint (listed->attempts, ==, 1);
  g_assert_cmpstr (listed->last_error, ==, "connection refused");
  g_assert_nonnull (listed->responded_at);

  /* Still pending in the inbox until the server confirms. */
  records = store_test_load_pending (f->store);
  g_assert_cmpuint (records->len, ==, 1);
  g_clear_pointer (&records, g_ptr_array_unref);

  triage_store_outbox_complete_async (f->store, entry->id, TRIAGE_OUTCOME_ANSWERED, "user-1",
                                      NULL, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);
  g_assert_true (triage_store_outbox_complete_finish (f->store, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);

  g_clear_pointer (&entries, g_ptr_array_unref);
  entries = outbox_list (f->store);
  g_assert_cmpuint (entries->len, ==, 0);
  records = store_test_load_pending (f->store);
  g_assert_cmpuint (records->len, ==, 0);

  /* Completing twice names the problem. */
  triage_store_outbox_complete_async (f->store, entry->id, TRIAGE_OUTCOME_ANSWERED, NULL,
                                      NULL, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);
  g_assert_false (triage_store_outbox_complete_finish (f->store, result, &error));
  g_assert_error (error, TRIAGE_STORE_ERROR, TRIAGE_STORE_ERROR_NOT_FOUND);
}

static void
test_outbox_permanent_failure (Fixture       *f,
                               gconstpointer  data)
{
  g_autoptr(AtpNotification) a = app_test_notification (ID_A, 0, 60, NULL);
  g_autoptr(TriageOutboxEntry) entry = NULL;
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  store_test_save (f->store, a);
  entry = outbox_add (f->store, ID_A, "ok", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_node_get_node_type (entry->response_data), ==, JSON_NODE_NULL);

  triage_store_outbox_failed_async (f->store, entry->id, TRUE, "422 CONSTRAINT_VIOLATION",
                                    NULL, app_test_result_cb, &result);
  app_test_wait_result (result);
  g_assert_true (triage_store_outbox_failed_finish (f->store, result, &error));

  entries = outbox_list (f->store);
  g_assert_cmpuint (entries->len, ==, 1);
  g_assert_cmpint (((TriageOutboxEntry *) entries->pdata[0])->state, ==, TRIAGE_OUTBOX_FAILED);

  /* Refused for good: it leaves the pending inbox. */
  records = store_test_load_pending (f->store);
  g_assert_cmpuint (records->len, ==, 0);

  /* Still pending on the server, it may be answered anew: the new answer
   * takes the refused one's place, queued; a third is refused while it waits. */
  g_clear_pointer (&entry, triage_outbox_entry_free);
  g_clear_pointer (&entries, g_ptr_array_unref);
  entry = outbox_add (f->store, ID_A, "other", "\"again\"", &error);
  g_assert_no_error (error);
  g_assert_cmpint (entry->state, ==, TRIAGE_OUTBOX_QUEUED);
  entries = outbox_list (f->store);
  g_assert_cmpuint (entries->len, ==, 1);
  g_assert_cmpint (((TriageOutboxEntry *) entries->pdata[0])->id, ==, entry->id);
  g_assert_cmpstr (((TriageOutboxEntry *) entries->pdata[0])->action_id, ==, "other");
  g_assert_cmpint (((TriageOutboxEntry *) entries->pdata[0])->state, ==, TRIAGE_OUTBOX_QUEUED);
  g_assert_null (outbox_add (f->store, ID_A, "ok", NULL, &error));
  g_assert_error (error, TRIAGE_STORE_ERROR, TRIAGE_STORE_ERROR_ALREADY_ANSWERED);
}

/* Each server's requests and answers are its own; what was kept before
 * servers were told apart goes to the first one loaded. */
static void
test_servers_apart (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(AtpNotification) a = app_test_notification (ID_A, 0, 60, NULL);
  g_autoptr(AtpNotification) b = app_test_notification (ID_B, 0, 60, NULL);
  g_autoptr(AtpNotification) c = app_test_notification (ID_C, 0, 60, NULL);
  g_autoptr(TriageOutboxEntry) entry = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *list;

  store_test_save (f->store, a);                          /* before any server is named */
  triage_store_set_server (f->store, "https://one.example");
  list = store_test_load_pending (f->store);
  g_assert_cmpuint (list->len, ==, 1);
  g_ptr_array_unref (list);
  store_test_save (f->store, b);
  entry = outbox_add (f->store, ID_B, "ok", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (entry->server, ==, "https://one.example");

  triage_store_set_server (f->store, "local");
  list = store_test_load_pending (f->store);
  g_assert_cmpuint (list->len, ==, 0);
  g_ptr_array_unref (list);
  list = outbox_list (f->store);
  g_assert_cmpuint (list->len, ==, 0);
  g_ptr_array_unref (list);
  store_test_save (f->store, c);
  /* Another server cannot rewrite one's request by reusing its id. */
  store_test_save (f->store, a);

  triage_store_set_server (f->store, "https://one.example");
  list = store_test_load_pending (f->store);
  g_assert_cmpuint (list->len, ==, 2);    /* A and B; C is the other server's */
  for (guint i = 0; i < list->len; i++)
    g_assert_cmpstr (((TriageStoreRecord *) list->pdata[i])->notification->id, !=, ID_C);
  g_ptr_array_unref (list);
  list = outbox_list (f->store);
  g_assert_cmpuint (list->len, ==, 1);
  g_assert_cmpstr (((TriageOutboxEntry *) list->pdata[0])->notification_id, ==, ID_B);
  g_ptr_array_unref (list);
  g_assert_cmpint (column_int (f->path, "SELECT count(*) FROM notifications WHERE server = 'local'"), ==, 1);
}

static void
save_draft (TriageStore *store,
            const char  *id,
            const char  *json)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  triage_store_save_draft_async (store, id, json, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);
  g_assert_true (triage_store_save_draft_finish (store, result, &error));
  g_assert_no_error (error);
}

/* A draft survives closing the store (a crash: nothing else is written
 * later), is replaced by the next, deleted with NULL, and goes when its
 * answer enters the outbox; no draft is kept once an answer waits there. */
static void
test_drafts (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *gone = NULL;
  g_autofree char *after_sent = NULL;
  g_autofree char *deleted = NULL;
  g_autoptr(TriageOutboxEntry) entry = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_null (store_test_load_draft (f->store, ID_A));
  save_draft (f->store, ID_A, "{\"general_summary\":\"Go\"}");
  save_draft (f->store, ID_B, "{}");
  close_store (&f->store);
  f->store = store_test_open (f->path);
  first = store_test_load_draft (f->store, ID_A);
  g_assert_cmpstr (first, ==, "{\"general_summary\":\"Go\"}");
  save_draft (f->store, ID_A, "{\"general_summary\":\"Good\"}");
  second = store_test_load_draft (f->store, ID_A);
  g_assert_cmpstr (second, ==, "{\"general_summary\":\"Good\"}");

  entry = outbox_add (f->store, ID_A, "feedback", "{}", &error);
  g_assert_no_error (error);
  gone = store_test_load_draft (f->store, ID_A);
  g_assert_null (gone);
  save_draft (f->store, ID_A, "{\"late\":true}");
  after_sent = store_test_load_draft (f->store, ID_A);
  g_assert_null (after_sent);

  save_draft (f->store, ID_B, NULL);
  deleted = store_test_load_draft (f->store, ID_B);
  g_assert_null (deleted);
}

static void
set_outcome (TriageStore   *store,
             const char    *id,
             AtpStatus      status,
             TriageOutcome  outcome)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  triage_store_set_outcome_async (store, id, status, outcome, NULL, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);
  g_assert_true (triage_store_set_outcome_finish (store, result, &error));
  g_assert_no_error (error);
}

/* A request settled (answered elsewhere, withdrawn, expired) takes its
 * draft with it, and none is written for it after (a save on its way when
 * the status came); a status that leaves it pending keeps the draft. */
static void
test_drafts_settled (Fixture       *f,
                     gconstpointer  data)
{
  const char *id_d = "3d6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f";
  const char *ids[] = { ID_A, ID_B, ID_C, id_d };
  g_autofree char *kept = NULL;
  g_autofree char *late = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_autoptr(AtpNotification) notification = app_test_notification (ids[i], 0, 60, NULL);

      store_test_save (f->store, notification);
      save_draft (f->store, ids[i], "{\"reason\":\"The canary failed\"}");
    }

  set_outcome (f->store, ID_A, ATP_STATUS_RESPONDED, TRIAGE_OUTCOME_ANSWERED_ELSEWHERE);
  set_outcome (f->store, ID_B, ATP_STATUS_INVALIDATED, TRIAGE_OUTCOME_INVALIDATED);
  set_outcome (f->store, ID_C, ATP_STATUS_EXPIRED, TRIAGE_OUTCOME_EXPIRED);
  set_outcome (f->store, id_d, ATP_STATUS_ACKNOWLEDGED, TRIAGE_OUTCOME_NONE);

  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *gone = store_test_load_draft (f->store, ids[i]);

      g_assert_null (gone);
    }
  kept = store_test_load_draft (f->store, id_d);
  g_assert_cmpstr (kept, ==, "{\"reason\":\"The canary failed\"}");

  save_draft (f->store, ID_A, "{\"reason\":\"Too late\"}");
  late = store_test_load_draft (f->store, ID_A);
  g_assert_null (late);
  g_assert_cmpint (column_int (f->path, "SELECT count(*) FROM drafts"), ==, 1);
}

/* A database of schema 3 (drafts of AFP reviews only) keeps the drafts of
 * requests still pending and drops those of requests already settled. */
static void
test_drafts_upgrade (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(AtpNotification) a = app_test_notification (ID_A, 0, 60, NULL);
  g_autoptr(AtpNotification) b = app_test_notification (ID_B, 0, 60, NULL);
  g_autofree char *kept = NULL;
  g_autofree char *gone = NULL;
  sqlite3 *db = NULL;

  store_test_save (f->store, a);
  store_test_save (f->store, b);
  close_store (&f->store);

  /* As version 3 left it: no trigger for settled requests. */
  g_assert_cmpint (sqlite3_open (f->path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db,
                                 "DROP TRIGGER settled_drops_draft;"
                                 "PRAGMA user_version = 3;"
                                 "UPDATE notifications SET status = 'responded',"
                                 "  outcome = 'answered-elsewhere' WHERE id = '" ID_B "';"
                                 "INSERT INTO drafts VALUES ('" ID_A "', '{}', 1), ('" ID_B "', '{}', 1);",
                                 NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  f->store = store_test_open (f->path);
  kept = store_test_load_draft (f->store, ID_A);
  gone = store_test_load_draft (f->store, ID_B);
  g_assert_cmpstr (kept, ==, "{}");
  g_assert_null (gone);
  g_assert_cmpint (column_int (f->path, "PRAGMA user_version"), ==, TRIAGE_STORE_SCHEMA_VERSION);
}

/* hold-sql.c (linked in) holds every "BEGIN IMMEDIATE" while this file exists. */
static char *hold_file;

static gpointer
release_when_held (gpointer data)
{
  /* The test's thread is in triage_store_wait_all () meanwhile. */
  while (!app_test_hold_reached (hold_file))
    g_usleep (10 * 1000);
  app_test_hold_release (hold_file);
  return NULL;
}

/* The end of the app: triage_store_wait_all () returns once everything
 * asked has run, a write its worker is held in (hold-sql.c) included. */
static void
test_wait_all (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(AtpNotification) a = app_test_notification (ID_A, 0, 60, NULL);
  g_autofree char *held = g_strconcat (hold_file, ".held", NULL);
  GThread *releaser;

  g_assert_true (g_file_set_contents (hold_file, "", 0, NULL));
  triage_store_save_notification_async (f->store, a, NULL, NULL, NULL);
  releaser = g_thread_new ("release-hold", release_when_held, NULL);

  triage_store_wait_all ();
  g_assert_false (g_file_test (hold_file, G_FILE_TEST_EXISTS));
  g_assert_cmpint (column_int (f->path, "SELECT count(*) FROM notifications"), ==, 1);

  g_thread_join (releaser);
  g_unlink (held);
}

static void
test_pragmas (Fixture       *f,
              gconstpointer  data)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_open_v2 (f->path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);

  g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA journal_mode", -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 0), ==, "wal");
  sqlite3_finalize (stmt);

  g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA user_version", -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  g_assert_cmpint (sqlite3_column_int (stmt, 0), ==, TRIAGE_STORE_SCHEMA_VERSION);
  sqlite3_finalize (stmt);

  sqlite3_close (db);
}

static void
test_too_new (void)
{
  g_autofree char *dir = g_dir_make_tmp ("triage-store-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "triage.db", NULL);
  g_autoptr(TriageStore) store = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "PRAGMA user_version = 99", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  store = triage_store_new (path);
  triage_store_open_async (store, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);
  g_assert_false (triage_store_open_finish (store, result, &error));
  g_assert_error (error, TRIAGE_STORE_ERROR, TRIAGE_STORE_ERROR_TOO_NEW);
  g_assert_nonnull (strstr (error->message, "newer version"));

  g_clear_object (&result);
  app_test_finalize_object (g_steal_pointer (&store));
  app_test_rm_rf (dir);
}

static void
test_not_open (void)
{
  g_autofree char *dir = g_dir_make_tmp ("triage-store-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "triage.db", NULL);
  g_autoptr(TriageStore) store = triage_store_new (path);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  triage_store_outbox_list_async (store, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);
  g_assert_null (triage_store_outbox_list_finish (store, result, &error));
  g_assert_error (error, TRIAGE_STORE_ERROR, TRIAGE_STORE_ERROR_FAILED);

  g_clear_object (&result);
  app_test_finalize_object (g_steal_pointer (&store));
  app_test_rm_rf (dir);
}

/* The database holds the person's requests and answers: it is made its
 * owner's only (its -wal takes its mode), whatever the umask. */
static void
test_owner_only (void)
{
  g_autofree char *dir = g_dir_make_tmp ("triage-store-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "triage.db", NULL);
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autoptr(TriageStore) store = NULL;
  mode_t old_umask = umask (022);
  GStatBuf st;

  store = store_test_open (path);
  umask (old_umask);

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_cmpint (g_stat (wal, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  app_test_finalize_object (g_steal_pointer (&store));
  app_test_rm_rf (dir);
}

static void
test_default_path (void)
{
  g_autofree char *path = triage_store_default_path ();
  g_autofree char *expected = g_build_filename (g_get_user_data_dir (), "triage", "triage.db", NULL);

  g_assert_cmpstr (path, ==, expected);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *hold_dir = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  hold_dir = g_dir_make_tmp ("triage-store-hold-XXXXXX", NULL);
  g_assert_nonnull (hold_dir);
  hold_file = app_test_hold_sql (hold_dir, "hold", "BEGIN IMMEDIATE");

  g_test_add ("/store/pending-order", Fixture, NULL, fixture_setup, test_pending_order, fixture_teardown);
  g_test_add ("/store/outcome", Fixture, NULL, fixture_setup, test_outcome_hides_from_pending, fixture_teardown);
  g_test_add ("/store/save-burst", Fixture, NULL, fixture_setup, test_save_burst, fixture_teardown);
  g_test_add ("/store/prune", Fixture, NULL, fixture_setup, test_prune, fixture_teardown);
  g_test_add ("/store/outbox/roundtrip", Fixture, NULL, fixture_setup, test_outbox_roundtrip, fixture_teardown);
  g_test_add ("/store/outbox/permanent-failure", Fixture, NULL, fixture_setup, test_outbox_permanent_failure, fixture_teardown);
  g_test_add ("/store/servers-apart", Fixture, NULL, fixture_setup, test_servers_apart, fixture_teardown);
  g_test_add ("/store/drafts", Fixture, NULL, fixture_setup, test_drafts, fixture_teardown);
  g_test_add ("/store/drafts/settled", Fixture, NULL, fixture_setup, test_drafts_settled, fixture_teardown);
  g_test_add ("/store/drafts/upgrade", Fixture, NULL, fixture_setup, test_drafts_upgrade, fixture_teardown);
  g_test_add ("/store/wait-all", Fixture, NULL, fixture_setup, test_wait_all, fixture_teardown);
  g_test_add ("/store/pragmas", Fixture, NULL, fixture_setup, test_pragmas, fixture_teardown);
  g_test_add_func ("/store/too-new", test_too_new);
  g_test_add_func ("/store/not-open", test_not_open);
  g_test_add_func ("/store/owner-only", test_owner_only);
  g_test_add_func ("/store/default-path", test_default_path);

  status = g_test_run ();
  app_test_rm_rf (hold_dir);
  g_free (hold_file);
  return status;
}
