/* test-decision-view-drafts.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The decision view's drafts in a real SQLite file (suite 'ui'): written a
 * moment after the person stops, not at each change; written at once when
 * the view goes; read back into a new view on a new store (a restart); a
 * write that fails keeps the draft in memory and says so once.
 */

#define G_LOG_DOMAIN "test-decision-view-drafts"

#include <glib/gstdio.h>
#include <sqlite3.h>

#include "decision-view-test-common.h"
#include "store-test-util.h"
#include "ui-test-util.h"

#define DRAFT_ID "0b6f1c1e-7a53-4a39-9d5b-3f4d2f8c1a10"
#define OTHER_ID "6fa459ea-ee8a-4ca4-894e-db77e160355e"

typedef struct
{
  Fixture      base;
  char        *dir;
  char        *path;
  TriageStore *store;
  guint        messages;   /* the view's log messages */
  guint        handler;
} DraftsFixture;

static void
count_message (const char     *domain,
               GLogLevelFlags  level,
               const char     *message,
               gpointer        user_data)
{
  DraftsFixture *f = user_data;

  g_test_message ("%s: %s", domain, message);
  f->messages++;
}

/* A view in a window of its own, keeping drafts in the store at f->path. */
static void
new_view (DraftsFixture *f)
{
  decision_view_test_setup (&f->base, NULL);
  g_object_set (f->base.view, "store", f->store, NULL);
}

static void
drafts_setup (DraftsFixture *f,
              gconstpointer  data)
{
  f->dir = g_dir_make_tmp ("test-drafts-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  f->path = g_build_filename (f->dir, "triage.db", NULL);
  f->store = store_test_open (f->path);
  f->handler = g_log_set_handler ("triage-drafts", G_LOG_LEVEL_MESSAGE, count_message, f);
  new_view (f);
}

static void
drafts_teardown (DraftsFixture *f,
                 gconstpointer  data)
{
  decision_view_test_teardown (&f->base, NULL);
  store_test_close (&f->store);
  g_log_remove_handler ("triage-drafts", f->handler);
  ui_test_remove_tree (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

static gboolean
draft_stored (DraftsFixture *f,
              const char    *id,
              const char    *want)
{
  return store_test_draft_is (f->path, id, want);
}

static char *
stored_draft (DraftsFixture *f,
              const char    *id)
{
  return store_test_dup_draft (f->path, id);
}

static void
show (DraftsFixture *f,
      const char    *id)
{
  g_clear_pointer (&f->base.notification, atp_notification_unref);
  f->base.notification = widgets_test_notification_with_id (id, decision_view_test_draft_actions, NULL, 0);
  triage_decision_view_set_notification (f->base.view, f->base.notification);
  widgets_test_pump ();
}

static GtkWidget *
input (DraftsFixture *f,
       const char    *action_id)
{
  return triage_response_editor_get_input (decision_view_test_editor (&f->base, action_id));
}

static gboolean
option_active (DraftsFixture *f,
               guint          index)
{
  GPtrArray *buttons = triage_response_editor_get_option_buttons (decision_view_test_editor (&f->base, "env"));

  return gtk_check_button_get_active (g_ptr_array_index (buttons, index));
}

static gboolean
typed_is (DraftsFixture *f,
          const char    *want)
{
  g_autofree char *typed = decision_view_test_typed_text (&f->base, "why");

  return g_str_equal (typed, want);
}

#define STORED_WHY(text) "{\"why\":\"" text "\"}"

/* Keys typed one after the other are one write, once the person stops. */
static void
test_debounced (DraftsFixture *f,
                gconstpointer  data)
{
  g_autofree char *now = NULL;

  show (f, DRAFT_ID);
  decision_view_test_type_text (&f->base, "why", "T");
  decision_view_test_type_text (&f->base, "why", "Th");
  decision_view_test_type_text (&f->base, "why", "The canary");
  /* Nothing written at each key: the main loop has not run since. */
  now = stored_draft (f, DRAFT_ID);
  g_assert_null (now);

  WAIT_UNTIL (draft_stored (f, DRAFT_ID, STORED_WHY ("The canary")));

  /* Emptied: no draft is left. */
  decision_view_test_type_text (&f->base, "why", "");
  WAIT_UNTIL (draft_stored (f, DRAFT_ID, NULL));
}

/* Entered, and the window closes (the app quits) before the moment passes:
 * written at once. A new view on a new store (a restart) shows it again,
 * checked again; the other request, never touched, shows nothing. */
static void
test_restart (DraftsFixture *f,
              gconstpointer  data)
{
  show (f, DRAFT_ID);
  decision_view_test_type_text (&f->base, "why", "The canary failed twice");
  gtk_editable_set_text (GTK_EDITABLE (input (f, "n")), "7");
  gtk_check_button_set_active (g_ptr_array_index (triage_response_editor_get_option_buttons (
                                 decision_view_test_editor (&f->base, "env")), 1), TRUE);
  widgets_test_window_destroy (f->base.window, &f->base.view);
  store_test_close (&f->store);
  g_assert_true (draft_stored (f, DRAFT_ID,
                               "{\"why\":\"The canary failed twice\",\"n\":\"7\",\"env\":\"us\"}"));

  f->store = store_test_open (f->path);
  new_view (f);
  show (f, OTHER_ID);
  show (f, DRAFT_ID);
  WAIT_UNTIL (typed_is (f, "The canary failed twice"));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (input (f, "n"))), ==, "7");
  g_assert_true (triage_response_editor_get_valid (decision_view_test_editor (&f->base, "n")));
  g_assert_true (option_active (f, 1));

  /* Sent: the view writes no more of it (the outbox's trigger drops the row). */
  decision_view_test_press (&f->base, "n");
  g_assert_cmpuint (f->base.record.count, ==, 1);
  g_assert_null (triage_draft_keeper_lookup (f->base.view->drafts, DRAFT_ID));
  g_assert_false (triage_draft_keeper_get_pending (f->base.view->drafts));

  show (f, OTHER_ID);
  g_assert_true (typed_is (f, ""));
  g_assert_false (option_active (f, 1));
}

/* What the person typed before the stored draft was read back is kept. */
static void
test_typed_meanwhile (DraftsFixture *f,
                      gconstpointer  data)
{
  triage_store_save_draft_async (f->store, DRAFT_ID, STORED_WHY ("Stored"), NULL, NULL, NULL);
  triage_store_wait_all ();

  show (f, OTHER_ID);
  /* Shown and typed into before the main loop runs the read's answer. */
  g_clear_pointer (&f->base.notification, atp_notification_unref);
  f->base.notification = widgets_test_notification_with_id (DRAFT_ID, decision_view_test_draft_actions, NULL, 0);
  triage_decision_view_set_notification (f->base.view, f->base.notification);
  decision_view_test_type_text (&f->base, "why", "Typed");
  triage_store_wait_all ();
  widgets_test_pump ();
  g_assert_true (typed_is (f, "Typed"));
  WAIT_UNTIL (draft_stored (f, DRAFT_ID, STORED_WHY ("Typed")));
}

/* The database refuses the write (here its table is gone; a full disk is
 * the same to the view): the draft stays, in the control and in memory, and
 * the log says so once, not at each try. */
static void
test_write_fails (DraftsFixture *f,
                  gconstpointer  data)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (f->path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "DROP TABLE drafts", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  show (f, DRAFT_ID);
  /* Reading it back failed too: said. */
  WAIT_UNTIL (f->messages == 1);
  decision_view_test_type_text (&f->base, "why", "Kept in memory");
  WAIT_UNTIL (f->messages == 2);
  g_assert_true (triage_draft_keeper_get_write_failed (f->base.view->drafts));

  decision_view_test_type_text (&f->base, "why", "Kept in memory still");
  triage_draft_keeper_flush (f->base.view->drafts);
  triage_store_wait_all ();
  widgets_test_pump ();
  g_assert_cmpuint (f->messages, ==, 2);

  show (f, OTHER_ID);
  show (f, DRAFT_ID);
  g_assert_true (typed_is (f, "Kept in memory still"));
  g_assert_true (gtk_widget_get_sensitive (input (f, "why")));
}

#define DRAFTS_TEST_ADD(path, func) \
  g_test_add ("/decision-view/drafts/" path, DraftsFixture, NULL, drafts_setup, func, drafts_teardown)

int
main (int   argc,
      char *argv[])
{
  widgets_test_init (&argc, &argv);

  DRAFTS_TEST_ADD ("debounced", test_debounced);
  DRAFTS_TEST_ADD ("restart", test_restart);
  DRAFTS_TEST_ADD ("typed-meanwhile", test_typed_meanwhile);
  DRAFTS_TEST_ADD ("write-fails", test_write_fails);

  return g_test_run ();
}
