/* browse-test-common.c — helpers shared by the inbox and history tests
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>
#include <sqlite3.h>

#include "browse-test-common.h"

const char *browse_test_services[5] = { "CI", "Deploy bot", "Data pipeline", "Café agent", "Reviewer" };
const char *browse_test_projects[4] = { "alpha", "beta", "gamma", NULL };

gboolean
browse_test_timeout_cb (gpointer data)
{
  gboolean *timed_out = data;

  *timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

gboolean
browse_test_tick_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

void
browse_test_result_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

void
browse_test_pump (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

void
browse_test_rm_rf (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    while ((name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *child = g_build_filename (path, name, NULL);

        if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
          browse_test_rm_rf (child);
        else
          g_unlink (child);
      }
  g_rmdir (path);
}

/* Drops the last reference and waits until the object is gone (a worker may
 * hold it a moment longer). */
void
browse_test_finalize (gpointer object)
{
  gpointer weak = object;

  g_object_add_weak_pointer (G_OBJECT (object), &weak);
  g_object_unref (object);
  browse_test_wait_for (weak == NULL);
}

TriageStore *
browse_test_open_store (const char *path)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  TriageStore *store = triage_store_new (path);

  triage_store_open_async (store, NULL, browse_test_result_cb, &result);
  browse_test_wait_for (result != NULL);
  g_assert_true (triage_store_open_finish (store, result, &error));
  g_assert_no_error (error);

  return store;
}

void
browse_test_close_store (TriageStore **store)
{
  if (*store != NULL)
    browse_test_finalize (g_steal_pointer (store));
}

TriageHistoryDb *
browse_test_open_history (const char *path)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  TriageHistoryDb *db = triage_history_db_new (path);

  triage_history_db_open_async (db, NULL, browse_test_result_cb, &result);
  browse_test_wait_for (result != NULL);
  g_assert_true (triage_history_db_open_finish (db, result, &error));
  g_assert_no_error (error);
  g_assert_true (triage_history_db_is_open (db));

  return db;
}

static char *
format_usec (gint64 usec)
{
  g_autoptr(GDateTime) seconds = g_date_time_new_from_unix_utc (usec / G_USEC_PER_SEC);
  g_autoptr(GDateTime) time = g_date_time_add (seconds, usec % G_USEC_PER_SEC);

  return atp_format_timestamp (time);
}

AtpNotification *
browse_test_notification (const char *id,
                          const char *service,
                          const char *project,
                          const char *title,
                          const char *description,
                          gint64      created_at,
                          gint64      deadline)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *timestamp = format_usec (created_at);
  AtpNotification *notification;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, id);
  json_builder_set_member_name (builder, "version");
  json_builder_add_string_value (builder, "1.0");
  json_builder_set_member_name (builder, "timestamp");
  json_builder_add_string_value (builder, timestamp);
  if (deadline != 0)
    {
      g_autofree char *text = format_usec (deadline);

      json_builder_set_member_name (builder, "deadline");
      json_builder_add_string_value (builder, text);
    }
  json_builder_set_member_name (builder, "service");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, service);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, service);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "context");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "title");
  json_builder_add_string_value (builder, title);
  json_builder_set_member_name (builder, "description");
  json_builder_add_string_value (builder, description);
  if (project != NULL)
    {
      json_builder_set_member_name (builder, "project");
      json_builder_add_string_value (builder, project);
    }
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "actions");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, "approve");
  json_builder_set_member_name (builder, "label");
  json_builder_add_string_value (builder, "Approve");
  json_builder_set_member_name (builder, "response_type");
  json_builder_add_string_value (builder, "simple");
  json_builder_end_object (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, "priority");
  json_builder_set_member_name (builder, "label");
  json_builder_add_string_value (builder, "Set priority");
  json_builder_set_member_name (builder, "response_type");
  json_builder_add_string_value (builder, "choice");
  json_builder_set_member_name (builder, "options");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "value");
  json_builder_add_string_value (builder, "high");
  json_builder_set_member_name (builder, "label");
  json_builder_add_string_value (builder, "High");
  json_builder_end_object (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "value");
  json_builder_add_string_value (builder, "=1+2");
  json_builder_set_member_name (builder, "label");
  json_builder_add_string_value (builder, "Formula");
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "status");
  json_builder_add_string_value (builder, "delivered");
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  notification = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  return notification;
}

void
browse_test_save (TriageStore     *store,
                  AtpNotification *notification)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  triage_store_save_notification_async (store, notification, NULL, browse_test_result_cb, &result);
  browse_test_wait_for (result != NULL);
  g_assert_true (triage_store_save_notification_finish (store, result, &error));
  g_assert_no_error (error);
}

void
browse_test_answer (TriageStore *store,
                    const char  *id,
                    const char  *action_id,
                    const char  *response_json,
                    gint64       answered_at)
{
  g_autoptr(GAsyncResult) added = NULL;
  g_autoptr(GAsyncResult) completed = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TriageOutboxEntry) entry = NULL;
  g_autoptr(JsonNode) data = response_json ? atp_json_parse (response_json, -1, 0, NULL) : NULL;
  g_autoptr(GDateTime) seconds = g_date_time_new_from_unix_utc (answered_at / G_USEC_PER_SEC);
  g_autoptr(GDateTime) when = g_date_time_add (seconds, answered_at % G_USEC_PER_SEC);

  triage_store_outbox_add_async (store, id, action_id, data, when, NULL,
                                 browse_test_result_cb, &added);
  browse_test_wait_for (added != NULL);
  entry = triage_store_outbox_add_finish (store, added, &error);
  g_assert_no_error (error);

  triage_store_outbox_complete_async (store, entry->id, TRIAGE_OUTCOME_ANSWERED, "user-1", when,
                                      NULL, browse_test_result_cb, &completed);
  browse_test_wait_for (completed != NULL);
  g_assert_true (triage_store_outbox_complete_finish (store, completed, &error));
  g_assert_no_error (error);
}

void
browse_test_set_outcome (TriageStore   *store,
                         const char    *id,
                         AtpStatus      status,
                         TriageOutcome  outcome)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  triage_store_set_outcome_async (store, id, status, outcome, NULL, NULL,
                                  browse_test_result_cb, &result);
  browse_test_wait_for (result != NULL);
  g_assert_true (triage_store_set_outcome_finish (store, result, &error));
  g_assert_no_error (error);
}

static void
row_clear (gpointer data)
{
  BrowseTestRow *row = data;

  g_free (row->id);
}

void
browse_test_rows_free (GArray *rows)
{
  g_array_unref (rows);
}

/*
 * Adds @n rows to the store's table with SQL, in one transaction: row i
 * has service i % 5, project i % 4 (the fourth: none), outcome i % 6
 * (pending, answered here, elsewhere, expired, withdrawn, refused), created
 * @base_usec + i * @step_usec, answered (here or refused) 10 × (i % 7 + 1)
 * seconds later. The store's schema must exist and the table be empty.
 */
GArray *
browse_test_generate (const char *path,
                      guint       n,
                      gint64      base_usec,
                      gint64      step_usec)
{
  static const char *outcomes[] = {
    "none", "answered", "answered-elsewhere", "expired", "invalidated", "rejected",
  };
  static const char *statuses[] = {
    "delivered", "responded", "responded", "expired", "invalidated", "delivered",
  };
  GArray *rows = g_array_sized_new (FALSE, TRUE, sizeof (BrowseTestRow), n);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  g_array_set_clear_func (rows, row_clear);

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  sqlite3_busy_timeout (db, 5000);
  g_assert_cmpint (sqlite3_exec (db, "BEGIN IMMEDIATE", NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db,
                                       "INSERT INTO notifications (id, service_id, service_name,"
                                       "  project, title, json, status, created_at, first_seen,"
                                       "  updated_at, outcome, action_id, response_data,"
                                       "  responder_id, responder_type, answered_at, delivered_at)"
                                       " VALUES (?1, ?2, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?8, ?9, ?10,"
                                       "  ?11, ?12, ?13, ?14, ?14)",
                                       -1, &stmt, NULL), ==, SQLITE_OK);

  for (guint i = 0; i < n; i++)
    {
      BrowseTestRow row = { 0 };
      guint kind = i % 6;
      gboolean answered = kind == 1 || kind == 5;
      g_autofree char *title = NULL;
      g_autofree char *description = NULL;
      g_autoptr(AtpNotification) notification = NULL;
      g_autofree char *json = NULL;

      row.rowid = i + 1;
      row.id = g_strdup_printf ("00000000-0000-4000-8000-%012u", i);
      row.service = browse_test_services[i % 5];
      row.project = browse_test_projects[i % 4];
      row.outcome = triage_outcome_from_string (outcomes[kind]);
      row.created_at = base_usec + (gint64) i * step_usec;
      row.answered_at = answered ? row.created_at + 10 * G_USEC_PER_SEC * (i % 7 + 1) : 0;

      title = g_strdup_printf ("Request %u: deploy build %u", i, i % 100);
      description = g_strdup_printf ("Generated row %u with word w%u", i, i % 10);
      notification = browse_test_notification (row.id, row.service, row.project, title,
                                               description, row.created_at, 0);
      json = atp_notification_to_string (notification, NULL);

      sqlite3_reset (stmt);
      sqlite3_bind_text (stmt, 1, row.id, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (stmt, 2, row.service, -1, SQLITE_STATIC);
      if (row.project != NULL)
        sqlite3_bind_text (stmt, 3, row.project, -1, SQLITE_STATIC);
      else
        sqlite3_bind_null (stmt, 3);
      sqlite3_bind_text (stmt, 4, title, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (stmt, 5, json, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (stmt, 6, statuses[kind], -1, SQLITE_STATIC);
      sqlite3_bind_int64 (stmt, 7, row.created_at);
      sqlite3_bind_int64 (stmt, 8, row.created_at + G_USEC_PER_SEC);
      sqlite3_bind_text (stmt, 9, outcomes[kind], -1, SQLITE_STATIC);
      if (answered)
        {
          sqlite3_bind_text (stmt, 10, "approve", -1, SQLITE_STATIC);
          sqlite3_bind_text (stmt, 11, "null", -1, SQLITE_STATIC);
          sqlite3_bind_text (stmt, 12, "user-1", -1, SQLITE_STATIC);
          sqlite3_bind_text (stmt, 13, "human", -1, SQLITE_STATIC);
          sqlite3_bind_int64 (stmt, 14, row.answered_at);
        }
      else
        for (int p = 10; p <= 14; p++)
          sqlite3_bind_null (stmt, p);

      g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
      g_array_append_val (rows, row);
    }

  sqlite3_finalize (stmt);
  g_assert_cmpint (sqlite3_exec (db, "COMMIT", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  return rows;
}

GtkWidget *
browse_test_find_page_stack (GtkWidget *widget)
{
  if (GTK_IS_STACK (widget) && gtk_stack_get_child_by_name (GTK_STACK (widget), "no-results"))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = browse_test_find_page_stack (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

void
browse_test_assert_choices (GStrv        choices,
                            const char **expected)
{
  g_auto(GStrv) owned = choices;

  if (!g_strv_equal ((const char * const *) owned, expected))
    {
      g_autofree char *got = g_strjoinv ("|", owned);

      g_error ("unexpected choices: %s", got);
    }
}
