/* test-connection-peer.c — the outbox and the lookups against another ATP server
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The outbox (a real store in a temporary folder) sends its answers to the
 * hostile peer (tests/net/hostile-peer.py), and the lookups ask it about
 * requests, which it answers as triage-server never does: a 409 of a code
 * libatp does not know, a 503 or 429 with a Retry-After longer than the
 * app's own wait.
 */

#include <libsoup/soup.h>
#include <string.h>

#include "app-test-common.h"
#include "store-test-common.h"
#include "triage-lookups.h"
#include "triage-outbox.h"
#include "triage-test-server.h"

/* What hostile-peer.py answers for these ids (REFUSALS): 409
 * "ALREADY_DECIDED"; 503 with "Retry-After: 2"; 429 with a Retry-After of an
 * HTTP-date 4 s ahead; 503 with "Retry-After: 12". An answer sent again
 * meets the 409. */
#define ID_CONFLICT  "00000000-0000-4000-8000-000000000009"
#define ID_BUSY_2S   "00000000-0000-4000-8000-00000000000a"
#define ID_BUSY_DATE "00000000-0000-4000-8000-00000000000b"
#define ID_BUSY_12S  "00000000-0000-4000-8000-00000000000c"

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
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  f->peer = triage_test_spawn_peer ("net/hostile-peer.py", NULL, &f->url);
  f->dir = g_dir_make_tmp ("triage-outbox-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  path = g_build_filename (f->dir, "triage.db", NULL);
  f->store = store_test_open (path);

  f->outbox = store_test_outbox (f->store);
  g_signal_connect (f->outbox, "rejected", G_CALLBACK (on_rejected), f);
  g_signal_connect (f->outbox, "conflict", G_CALLBACK (on_conflict), f);

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

  store_test_submit (f->outbox, ID_CONFLICT);
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

/* When the peer got the requests of @notification_id (@what: "responds",
 * the answers; "gets", the lookups), in seconds of its clock. */
static GArray *
peer_times (Fixture    *f,
            const char *what,
            const char *notification_id)
{
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *url = g_strconcat (f->url, "/peer/", what, NULL);
  g_autoptr(SoupMessage) message = soup_message_new ("GET", url);
  g_autoptr(GBytes) body = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  GArray *times = g_array_new (FALSE, FALSE, sizeof (double));
  JsonObject *object;

  body = soup_session_send_and_read (session, message, NULL, &error);
  g_assert_no_error (error);
  root = json_from_string (g_bytes_get_data (body, NULL), &error);
  g_assert_no_error (error);
  object = json_node_get_object (root);
  if (json_object_has_member (object, notification_id))
    {
      JsonArray *array = json_object_get_array_member (object, notification_id);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          double t = json_array_get_double_element (array, i);

          g_array_append_val (times, t);
        }
    }

  return times;
}

/* The outbox tried a 503's or 429's answer again on its own backoff (1 s
 * at first), whatever Retry-After said. Not before it now: seconds, or an
 * HTTP-date (whole seconds: 4 s ahead is at least 3). The peer answers the
 * second try 409 with a code of its own (refused for good: the end). */
static void
test_retry_after (Fixture       *f,
                  gconstpointer  data)
{
  const char *id = data;
  double least = g_str_equal (id, ID_BUSY_2S) ? 2.0 : 3.0;
  g_autoptr(GArray) times = NULL;

  store_test_submit (f->outbox, id);
  app_test_wait_for (f->rejected_id != NULL, APP_TEST_WAIT_MS);
  g_assert_cmpstr (f->rejected_id, ==, id);

  times = peer_times (f, "responds", id);
  g_assert_cmpuint (times->len, ==, 2);
  g_test_message ("sent again after %.2f s", g_array_index (times, double, 1) - g_array_index (times, double, 0));
  g_assert_cmpfloat (g_array_index (times, double, 1) - g_array_index (times, double, 0), >=, least);
}

static guint
n_lookups (Fixture    *f,
           const char *notification_id)
{
  g_autoptr(GArray) times = peer_times (f, "gets", notification_id);

  return times->len;
}

/* A lookup refused 503 with "Retry-After: 12" was asked again after the
 * app's own 10 s. Not before the 12 s now. */
static void
test_lookup_retry_after (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(TriageInboxModel) inbox = triage_inbox_model_new ();
  g_autoptr(AtpNotification) notification = app_test_notification (ID_BUSY_12S, 0, 60, NULL);
  g_autoptr(GPtrArray) pending = g_ptr_array_new ();
  g_autoptr(GArray) times = NULL;
  TriageLookups *lookups;

  triage_inbox_model_add (inbox, notification, NULL);
  lookups = triage_lookups_new (inbox, f->outbox);
  triage_lookups_set_client (lookups, f->client);
  /* Not in the server's pending set: asked about. */
  triage_lookups_resynced (lookups, pending);

  app_test_wait_for (n_lookups (f, ID_BUSY_12S) >= 2, APP_TEST_WAIT_MS);
  times = peer_times (f, "gets", ID_BUSY_12S);
  g_test_message ("asked again after %.2f s", g_array_index (times, double, 1) - g_array_index (times, double, 0));
  g_assert_cmpfloat (g_array_index (times, double, 1) - g_array_index (times, double, 0), >=, 12.0);

  app_test_finalize_object (lookups);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/outbox/peer/conflict-unknown-code", Fixture, NULL, fixture_setup,
              test_conflict_unknown_code, fixture_teardown);
  g_test_add ("/outbox/peer/retry-after-seconds", Fixture, ID_BUSY_2S, fixture_setup,
              test_retry_after, fixture_teardown);
  g_test_add ("/outbox/peer/retry-after-date", Fixture, ID_BUSY_DATE, fixture_setup,
              test_retry_after, fixture_teardown);
  g_test_add ("/lookups/peer/retry-after", Fixture, NULL, fixture_setup,
              test_lookup_retry_after, fixture_teardown);

  return g_test_run ();
}
