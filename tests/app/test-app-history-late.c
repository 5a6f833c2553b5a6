/* test-app-history-late.c — the app's history opening late, or failing to
 * open, the whole app in-process
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs under tests/fake-notifyd.py --private-bus against a real
 * `triage-server --local`. The app's history (where read marks are stored)
 * opens on a worker after the store; this test holds its first statement
 * (hold-sql.c, linked in, stands in front of SQLite's sqlite3_exec ()) while
 * it opens a request, so the request is marked read before the history is there:
 *
 *   /app/history-late/window-closed: the window is closed before the history
 *     opens; the mark is stored all the same (the marks are the app's).
 *   /app/history-late/disk-full: the disk is full when the history opens
 *     (RLIMIT_FSIZE 0, SIGXFSZ ignored: writes fail as on a full disk), so it
 *     fails; the history view says it is unavailable and why. With space back
 *     it is opened again by itself, and the mark made meanwhile is stored.
 *   /app/history-late/mark-unstored: the history is open, then the disk is
 *     full when two requests are opened: their marks stay (read), one warning
 *     says so, not one a mark, and with space back they are stored.
 *
 * One app a process: meson runs each case in a process of its own (-p).
 */

#include <adwaita.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/resource.h>

#include "app-test-server.h"
#include "app-test-application.h"
#include "app-test-hold.h"

static const char simple[] = "[{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}]";

static char *world;
static AppTestServer *server;

/* The hold: the history's connections run "PRAGMA cache_size" first, and
 * hold-sql.c (linked in) holds it while this file exists. */
static char *hold_file;

static gboolean
history_held (void)
{
  return app_test_hold_reached (hold_file);
}

static void
release_history (void)
{
  app_test_hold_release (hold_file);
}

static gboolean
read_mark_stored (const char *id)
{
  g_autofree char *path = g_build_filename (g_get_user_data_dir (), "triage", "triage.db", NULL);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gboolean found = FALSE;

  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
      sqlite3_prepare_v2 (db, "SELECT count(*) FROM triage_read WHERE notification_id = ?1",
                          -1, &stmt, NULL) == SQLITE_OK)
    {
      sqlite3_bind_text (stmt, 1, id, -1, SQLITE_STATIC);
      found = sqlite3_step (stmt) == SQLITE_ROW && sqlite3_column_int (stmt, 0) == 1;
    }
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  return found;
}

/* The app started with its history held as it opens. */
static TriageApplication *
start_app_history_held (void)
{
  TriageApplication *app;

  g_assert_true (g_file_set_contents (hold_file, "", 0, NULL));
  app = app_test_application_new ();
  app_test_wait_for (history_held (), APP_TEST_WAIT_MS);
  app_test_wait_for (triage_application_get_connection (app) == TRIAGE_CONNECTION_CONNECTED,
                     APP_TEST_WAIT_MS);
  return app;
}

/* Posted, then opened in the window as from a bubble or the tray: marked read. */
static char *
open_request (TriageApplication *app,
              const char        *title)
{
  char *id = app_test_server_post (server, title, simple);
  TriageWindow *window;
  TriageReadState *marks;

  app_test_wait_for (triage_inbox_model_lookup (triage_application_get_inbox (app), id) != NULL,
                     APP_TEST_WAIT_MS);
  g_action_group_activate_action (G_ACTION_GROUP (app), "open-request", g_variant_new_string (id));
  app_test_wait_for ((window = triage_application_get_window (app)) != NULL &&
                     triage_window_get_current_request (window) != NULL &&
                     g_str_equal (triage_request_get_id (triage_window_get_current_request (window)), id),
                     APP_TEST_WAIT_MS);
  marks = triage_inbox_pane_get_read_state (triage_window_get_inbox_pane (window));
  g_assert_true (triage_read_state_is_read (marks, id));

  return id;
}

static void
test_window_closed (void)
{
  TriageApplication *app = start_app_history_held ();
  g_autofree char *id = open_request (app, "Opened before the history, window closed?");

  gtk_window_destroy (GTK_WINDOW (triage_application_get_window (app)));
  app_test_wait_for (triage_application_get_window (app) == NULL, APP_TEST_WAIT_MS);

  release_history ();
  app_test_wait_for (read_mark_stored (id), APP_TEST_WAIT_MS);

  app_test_application_free (app);
}

static TriageHistoryView *
history_view (TriageApplication *app)
{
  return triage_window_get_history_view (triage_application_get_window (app));
}

static void
test_disk_full (void)
{
  TriageApplication *app = start_app_history_held ();
  struct rlimit limit;
  struct rlimit full;
  g_autofree char *id = NULL;
  const char *description;

  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  full = limit;
  full.rlim_cur = 0;
  signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &full), ==, 0);

  id = open_request (app, "Opened while the history cannot open?");
  release_history ();

  /* Said where the history is, not an empty list that looks like one loading. */
  app_test_wait_for (triage_history_view_get_state (history_view (app)) ==
                     TRIAGE_HISTORY_VIEW_UNAVAILABLE, APP_TEST_WAIT_MS);
  description = adw_status_page_get_description (ADW_STATUS_PAGE (
    gtk_widget_get_template_child (GTK_WIDGET (history_view (app)), TRIAGE_TYPE_HISTORY_VIEW,
                                   "unavailable_page")));
  g_assert_nonnull (strstr (description, "The history cannot be opened"));
  g_assert_nonnull (strstr (description, "tries again"));
  g_assert_false (read_mark_stored (id));

  /* Space is back: the history opens by itself, with the mark made meanwhile:
   * at once when the store next writes (a new request, here), else at its
   * next try. */
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  g_free (app_test_server_post (server, "After the disk was full", simple));
  app_test_wait_for (triage_history_view_get_db (history_view (app)) != NULL, APP_TEST_WAIT_MS);
  app_test_wait_for (triage_history_view_get_state (history_view (app)) !=
                     TRIAGE_HISTORY_VIEW_UNAVAILABLE, APP_TEST_WAIT_MS);
  app_test_wait_for (read_mark_stored (id), APP_TEST_WAIT_MS);

  app_test_application_free (app);
}

/* The warnings (fatal in the tests) that a read mark was not stored: counted
 * and said as a test message, not fatal. */
static gint unstored_warnings;

static gboolean
is_unstored_warning (const char     *log_domain,
                     GLogLevelFlags  log_level,
                     const char     *message)
{
  return g_strcmp0 (log_domain, "triage-inbox") == 0 && (log_level & G_LOG_LEVEL_WARNING) &&
         strstr (message, "Could not remember") != NULL;
}

static gboolean
unstored_warning_not_fatal (const char     *log_domain,
                            GLogLevelFlags  log_level,
                            const char     *message,
                            gpointer        user_data)
{
  return !is_unstored_warning (log_domain, log_level, message);
}

static void
count_unstored_warning (const char     *log_domain,
                        GLogLevelFlags  log_level,
                        const char     *message,
                        gpointer        user_data)
{
  if (!is_unstored_warning (log_domain, log_level, message))
    {
      g_log_default_handler (log_domain, log_level, message, NULL);
      return;
    }
  g_test_message ("warned: %s", message);
  g_atomic_int_inc (&unstored_warnings);
}

static void
test_mark_unstored (void)
{
  TriageApplication *app = app_test_application_new ();
  TriageReadState *marks;
  struct rlimit limit;
  struct rlimit full;
  g_autofree char *stored = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  guint handler;

  app_test_wait_for (triage_application_get_connection (app) == TRIAGE_CONNECTION_CONNECTED,
                     APP_TEST_WAIT_MS);
  stored = open_request (app, "Opened with the history open?");
  app_test_wait_for (triage_history_view_get_db (history_view (app)) != NULL, APP_TEST_WAIT_MS);
  app_test_wait_for (read_mark_stored (stored), APP_TEST_WAIT_MS);

  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  full = limit;
  full.rlim_cur = 0;
  signal (SIGXFSZ, SIG_IGN);
  g_test_log_set_fatal_handler (unstored_warning_not_fatal, NULL);
  handler = g_log_set_handler ("triage-inbox", G_LOG_LEVEL_WARNING | G_LOG_FLAG_FATAL,
                               count_unstored_warning, NULL);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &full), ==, 0);

  first = open_request (app, "Opened while the disk is full?");
  second = open_request (app, "Opened too while the disk is full?");
  app_test_wait_for (g_atomic_int_get (&unstored_warnings) > 0, APP_TEST_WAIT_MS);
  g_assert_false (read_mark_stored (first));

  /* Space is back: at once when the store next writes (a new request), else
   * at the marks' next try. Their failed writes came before, in order. */
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  g_free (app_test_server_post (server, "After the disk was full", simple));
  app_test_wait_for (read_mark_stored (first) && read_mark_stored (second), APP_TEST_WAIT_MS);
  g_assert_cmpint (g_atomic_int_get (&unstored_warnings), ==, 1);

  /* Read all along, in the inbox the person sees. */
  marks = triage_inbox_pane_get_read_state (
    triage_window_get_inbox_pane (triage_application_get_window (app)));
  g_assert_true (triage_read_state_is_read (marks, first));
  g_assert_true (triage_read_state_is_read (marks, second));

  g_log_remove_handler ("triage-inbox", handler);
  g_test_log_set_fatal_handler (NULL, NULL);
  app_test_application_free (app);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  world = app_test_private_world ();
  hold_file = app_test_hold_sql (world, "hold-history", "PRAGMA cache_size");
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  server = g_new0 (AppTestServer, 1);
  app_test_server_start (server);

  g_test_add_func ("/app/history-late/window-closed", test_window_closed);
  g_test_add_func ("/app/history-late/disk-full", test_disk_full);
  g_test_add_func ("/app/history-late/mark-unstored", test_mark_unstored);

  status = g_test_run ();

  app_test_server_free (server);
  app_test_rm_rf (world);
  g_free (world);
  g_free (hold_file);

  return status;
}
