/* test-connection-peer.c — the outbox against another ATP server
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The outbox (a real store in a temporary folder) sends its answers to the
 * hostile peer (tests/net/hostile-peer.py), which answers what
 * triage-server never does: a 409 of a code libatp does not know.
 */

#include <string.h>

#include "app-test-common.h"
#include "store-test-common.h"
#include "triage-outbox.h"
#include "triage-test-server.h"

/* hostile-peer.py answers an answer to this id 409 "ALREADY_DECIDED". */
#define ID_CONFLICT "00000000-0000-4000-8000-000000000009"

typedef struct
{
  GSubprocess  *peer;
  char         *url;
  char         *dir;
  TriageStore  *store;
  TriageOutbox *outbox;
  AtpClient    *client;
  char         *rejected_id;
  char         *rejected_message;
  guint         n_conflicts;
} Fixture;

static void
on_rejected (TriageOutbox *outbox,
             const char   *notification_id,
             const char   *message,
             Fixture      *f)
{
  g_free (f->rejected_id);
  f->rejected_id = g_strdup (notification_id);
  g_free (f->rejected_message);
  f->rejected_message = g_strdup (message);
}

static void
on_conflict (TriageOutbox *outbox,
             const char   *notification_id,
             guint         outcome,
             const char   *message,
             Fixture      *f)
{
  f->n_conflicts++;
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  f->peer = triage_test_spawn_peer ("net/hostile-peer.py", NULL, &f->url);
  f->dir = g_dir_make_tmp ("triage-outbox-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  path = g_build_filename (f->dir, "triage.db", NULL);
  f->store = store_test_open (path);

  f->outbox = triage_outbox_new (f->store);
  g_signal_connect (f->outbox, "rejected", G_CALLBACK (on_rejected), f);
  g_signal_connect (f->outbox, "conflict", G_CALLBACK (on_conflict), f);
  triage_outbox_load_async (f->outbox, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);
  g_assert_true (triage_outbox_load_finish (f->outbox, result, &error));

  f->client = atp_client_new (f->url, &error);
  g_assert_no_error (error);
  triage_outbox_set_client (f->outbox, f->client);
  triage_outbox_set_online (f->outbox, TRUE);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  app_test_finalize_object (g_steal_pointer (&f->outbox));
  g_clear_object (&f->client);
  app_test_finalize_object (g_steal_pointer (&f->store));
  app_test_rm_rf (f->dir);
  g_output_stream_close (g_subprocess_get_stdin_pipe (f->peer), NULL, NULL);
  g_subprocess_wait (f->peer, NULL, NULL);
  g_clear_object (&f->peer);
  g_free (f->url);
  g_free (f->dir);
  g_free (f->rejected_id);
  g_free (f->rejected_message);
}

static void
submit (Fixture    *f,
        const char *notification_id)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  triage_outbox_submit_async (f->outbox, notification_id, "ok", NULL, NULL,
                              app_test_result_cb, &result);
  app_test_wait_result (result);
  g_assert_true (triage_outbox_submit_finish (f->outbox, result, &error));
  g_assert_no_error (error);
}

/* A 409 whose code libatp does not know settled nothing: the answer stayed
 * queued and was sent again every minute for ever, and the person was never
 * told. It is refused for good now, kept as failed and said (::rejected). */
static void
test_conflict_unknown_code (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  submit (f, ID_CONFLICT);
  app_test_wait_for (f->rejected_id != NULL, APP_TEST_WAIT_MS);

  g_assert_cmpstr (f->rejected_id, ==, ID_CONFLICT);
  g_assert_nonnull (strstr (f->rejected_message, "the request is decided [ALREADY_DECIDED]"));
  g_assert_cmpuint (f->n_conflicts, ==, 0);
  g_assert_true (triage_outbox_answer_failed (f->outbox, ID_CONFLICT));
  g_assert_false (triage_outbox_answer_queued (f->outbox, ID_CONFLICT));
  g_assert_cmpuint (triage_outbox_get_n_pending (f->outbox), ==, 0);

  /* Kept on disk as failed: not sent again after a restart either. */
  triage_store_outbox_list_async (f->store, NULL, app_test_result_cb, &result);
  app_test_wait_result (result);
  entries = triage_store_outbox_list_finish (f->store, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (entries->len, ==, 1);
  g_assert_cmpint (((TriageOutboxEntry *) g_ptr_array_index (entries, 0))->state, ==,
                   TRIAGE_OUTBOX_FAILED);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/outbox/peer/conflict-unknown-code", Fixture, NULL, fixture_setup,
              test_conflict_unknown_code, fixture_teardown);

  return g_test_run ();
}
