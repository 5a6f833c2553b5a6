/* test-outbox-wait.c — the outbox and the lookups wait out a real server's Retry-After
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A real triage-server on 127.0.0.1 limits this user's answers (--limit
 * responses=6: six at once, then one every 10 s); the six are spent by
 * another client of the same user, so the outbox's answer meets 429 with
 * a Retry-After of about 10 s. That wait is the server's word for the
 * whole client: an answer given a second later was sent at once and met
 * the same 429, and so did a lookup of a request settled while the app was
 * away. Now neither is sent before the wait is over; the answers stay
 * queued meanwhile, and each is delivered, once. At the end of the wait
 * one answer goes first, alone, and the rest once the server took it.
 *
 * The lookups do the same against a limit on reads: after the wait one
 * goes alone, and the rest once the server answered it.
 *
 * Behind a reverse proxy that answers a bare 404 (a wrong route: no ATP
 * error object), an answer is a server problem, kept and tried again, and
 * a lookup says nothing: the 404 was taken for the server's "no longer
 * here", and the answer dropped as gone. Only the server's own 404
 * NOTIFICATION_NOT_FOUND settles it so.
 */

#include <libsoup/soup.h>
#include <string.h>

#include "app-test-common.h"
#include "atp-client-private.h"
#include "store-test-common.h"
#include "triage-lookups.h"
#include "triage-outbox.h"
#include "triage-test-proxy.h"
#include "triage-test-server.h"

/* Answers a minute: as many at once, then one every 60 / N_RESPONSES s. */
#define N_RESPONSES "6"
#define N_RESPONSES_INTERVAL_S 10
/* Two of those waits (the second answer may meet another 429), on a busy machine. */
#define DELIVERED_WAIT_MS (2 * N_RESPONSES_INTERVAL_S * 1000 + APP_TEST_WAIT_MS)
/* Reads a minute: as many at once, then one every 2 s. */
#define N_READS "30"
#define N_READS_INTERVAL_S 2
/* Lookups of requests settled while away, each may wait once more. */
#define N_AWAY 4

/* The server's limit, and whether a proxy stands between it and the client. */
typedef struct
{
  const char *limit;
  gboolean    proxy;
} Setup;

static const Setup answers_limited = { "responses=" N_RESPONSES, FALSE };
static const Setup answers_behind_proxy = { "responses=" N_RESPONSES, TRUE };
static const Setup reads_limited = { "polling=" N_READS, FALSE };

typedef struct
{
  TriageTestServer *server;
  TriageTestProxy  *proxy;     /* between the client and the server, or NULL */
  char             *token;     /* the user's */
  char             *key;       /* the service's */
  char             *dir;
  TriageStore      *store;
  TriageOutbox     *outbox;
  AtpClient        *client;
  GArray           *answers_sent;   /* monotonic usec each answer left */
  GArray           *answers_done;   /* the same, each answer's reply came */
  GArray           *lookups_sent;   /* the same, each lookup */
  GArray           *lookups_done;   /* the same, each lookup's reply came */
  GHashTable       *delivered;      /* id -> times ::delivered said it */
  GPtrArray        *gone;           /* ids ::gone said, the outbox's and the lookups' */
  GPtrArray        *unqueued;       /* "METHOD PATH STATUS" of each request done */
  char             *settled_id;
  int               settled_status;
} Fixture;

static void
on_answer_got_headers (SoupMessage *message,
                       Fixture     *f)
{
  gint64 now = g_get_monotonic_time ();

  g_array_append_val (f->answers_done, now);
}

static void
on_lookup_got_headers (SoupMessage *message,
                       Fixture     *f)
{
  gint64 now = g_get_monotonic_time ();

  g_array_append_val (f->lookups_done, now);
}

static void
on_request_queued (SoupSession *session,
                   SoupMessage *message,
                   Fixture     *f)
{
  const char *path = g_uri_get_path (soup_message_get_uri (message));
  gint64 now = g_get_monotonic_time ();

  if (g_str_equal (soup_message_get_method (message), "POST") &&
      g_str_has_suffix (path, "/client/respond"))
    {
      g_array_append_val (f->answers_sent, now);
      g_signal_connect (message, "got-headers", G_CALLBACK (on_answer_got_headers), f);
    }
  else if (g_str_equal (soup_message_get_method (message), "GET") &&
           g_str_has_prefix (path, "/api/v1/client/notifications/"))
    {
      g_array_append_val (f->lookups_sent, now);
      g_signal_connect (message, "got-headers", G_CALLBACK (on_lookup_got_headers), f);
    }
}

static void
on_request_unqueued (SoupSession *session,
                     SoupMessage *message,
                     Fixture     *f)
{
  const char *path = g_uri_get_path (soup_message_get_uri (message));

  g_ptr_array_add (f->unqueued, g_strdup_printf ("%s %s %u", soup_message_get_method (message),
                                                 path, soup_message_get_status (message)));
}

/* How many requests whose "METHOD PATH STATUS" starts with @prefix and
 * ends with @status are done. */
static guint
count_unqueued (Fixture    *f,
                const char *prefix,
                guint       status)
{
  g_autofree char *suffix = g_strdup_printf (" %u", status);
  guint n = 0;

  for (guint i = 0; i < f->unqueued->len; i++)
    if (g_str_has_prefix (f->unqueued->pdata[i], prefix) &&
        g_str_has_suffix (f->unqueued->pdata[i], suffix))
      n++;
  return n;
}

static void
on_lookups_gone (TriageLookups *lookups,
                 const char    *notification_id,
                 Fixture       *f)
{
  g_ptr_array_add (f->gone, g_strdup (notification_id));
}

static void
on_outbox_gone (TriageOutbox *outbox,
                const char   *notification_id,
                const char   *message,
                Fixture      *f)
{
  g_ptr_array_add (f->gone, g_strdup (notification_id));
}

static void
on_delivered (TriageOutbox *outbox,
              const char   *notification_id,
              Fixture      *f)
{
  guint times = GPOINTER_TO_UINT (g_hash_table_lookup (f->delivered, notification_id));

  g_hash_table_replace (f->delivered, g_strdup (notification_id), GUINT_TO_POINTER (times + 1));
}

static guint
times_delivered (Fixture    *f,
                 const char *notification_id)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (f->delivered, notification_id));
}

static void
on_settled (TriageLookups *lookups,
            const char    *notification_id,
            int            status,
            GDateTime     *when,
            AtpResponse   *response,
            const char    *reason,
            Fixture       *f)
{
  g_free (f->settled_id);
  f->settled_id = g_strdup (notification_id);
  f->settled_status = status;
}

static void
on_settled_add (TriageLookups *lookups,
                const char    *notification_id,
                int            status,
                GDateTime     *when,
                AtpResponse   *response,
                const char    *reason,
                GHashTable    *settled)
{
  g_assert_cmpint (status, ==, ATP_STATUS_INVALIDATED);
  g_assert_true (g_hash_table_add (settled, g_strdup (notification_id)));
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  const Setup *setup = data;
  const char * const args[] = { "--limit", setup->limit, NULL };
  TriageTestServerOptions options = { .extra_args = args };
  const char * const alice_only[] = { "alice", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  f->server = triage_test_server_new (&options, &error);
  g_assert_no_error (error);
  triage_test_server_create_user (f->server, "alice", &f->token, &error);
  g_assert_no_error (error);
  triage_test_server_create_service (f->server, "deploy-bot", alice_only, NULL, NULL, &f->key,
                                     NULL, &error);
  g_assert_no_error (error);

  f->dir = g_dir_make_tmp ("triage-outbox-wait-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  path = g_build_filename (f->dir, "triage.db", NULL);
  f->store = store_test_open (path);
  f->outbox = store_test_outbox (f->store);

  if (setup->proxy)
    {
      g_autoptr(GUri) uri = g_uri_parse (triage_test_server_get_url (f->server), G_URI_FLAGS_NONE,
                                         &error);
      g_autofree char *port = NULL;

      g_assert_no_error (error);
      port = g_strdup_printf ("%d", g_uri_get_port (uri));
      f->proxy = triage_test_proxy_new (port);
    }
  f->client = atp_client_new (f->proxy != NULL ? triage_test_proxy_get_url (f->proxy)
                                               : triage_test_server_get_url (f->server), &error);
  g_assert_no_error (error);
  atp_client_set_token (f->client, f->token);
  triage_outbox_set_client (f->outbox, f->client);

  f->answers_sent = g_array_new (FALSE, FALSE, sizeof (gint64));
  f->answers_done = g_array_new (FALSE, FALSE, sizeof (gint64));
  f->lookups_sent = g_array_new (FALSE, FALSE, sizeof (gint64));
  f->lookups_done = g_array_new (FALSE, FALSE, sizeof (gint64));
  f->delivered = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  f->gone = g_ptr_array_new_with_free_func (g_free);
  f->unqueued = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (atp_client_get_session (f->client), "request-queued",
                    G_CALLBACK (on_request_queued), f);
  g_signal_connect (atp_client_get_session (f->client), "request-unqueued",
                    G_CALLBACK (on_request_unqueued), f);
  g_signal_connect (f->outbox, "delivered", G_CALLBACK (on_delivered), f);
  g_signal_connect (f->outbox, "gone", G_CALLBACK (on_outbox_gone), f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_signal_handlers_disconnect_by_data (atp_client_get_session (f->client), f);
  app_test_finalize_object (g_steal_pointer (&f->outbox));
  g_clear_object (&f->client);
  app_test_finalize_object (g_steal_pointer (&f->store));
  app_test_rm_rf (f->dir);
  g_clear_pointer (&f->proxy, triage_test_proxy_free);
  g_clear_pointer (&f->server, triage_test_server_free);
  g_free (f->token);
  g_free (f->key);
  g_free (f->dir);
  g_free (f->settled_id);
  g_array_unref (f->answers_sent);
  g_array_unref (f->answers_done);
  g_array_unref (f->lookups_sent);
  g_array_unref (f->lookups_done);
  g_hash_table_unref (f->delivered);
  g_ptr_array_unref (f->gone);
  g_ptr_array_unref (f->unqueued);
}

/* A request of the service's, for alice; its id. */
static char *
post (Fixture    *f,
      const char *title)
{
  g_autofree char *id = g_uuid_string_random ();
  g_autofree char *body = NULL;
  g_autoptr(GError) error = NULL;
  guint status = 0;

  body = g_strdup_printf ("{\"id\": \"%s\", \"context\": {\"title\": \"%s\", \"description\": \"Held?\"},"
                          " \"actions\": [{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}]}",
                          id, title);
  g_assert_true (triage_test_http (f->server, "POST", "/api/v1/notifications", f->key, body,
                                   &status, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (status, ==, 201);

  return g_steal_pointer (&id);
}

/* Another client of alice's (another device) spends her allowance of
 * answers: answers to requests the server does not have count too. */
static void
spend_allowance (Fixture *f)
{
  guint n = (guint) g_ascii_strtoull (N_RESPONSES, NULL, 10);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_uuid_string_random ();
      g_autofree char *body = g_strdup_printf ("{\"notification_id\": \"%s\", \"action_id\": \"ok\"}", id);
      g_autoptr(GError) error = NULL;
      guint status = 0;

      g_assert_true (triage_test_http (f->server, "POST", "/api/v1/client/respond", f->token, body,
                                       &status, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (status, ==, 404);
    }
}

static gboolean
responded_on_server (Fixture    *f,
                     const char *notification_id)
{
  g_autofree char *path = g_strconcat ("/api/v1/notifications/", notification_id, NULL);
  g_autofree char *reply = NULL;
  g_autoptr(GError) error = NULL;
  guint status = 0;

  g_assert_true (triage_test_http (f->server, "GET", path, f->key, NULL, &status, &reply, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (status, ==, 200);
  return strstr (reply, "\"status\":\"responded\"") != NULL;
}

/* None of @times (but the first @skip) is before @at. */
static void
assert_none_before (GArray     *times,
                    guint       skip,
                    gint64      at,
                    const char *what)
{
  for (guint i = skip; i < times->len; i++)
    {
      gint64 t = g_array_index (times, gint64, i);

      g_test_message ("%s %u: %+.2f s from the end of the wait", what, i,
                      (double) (t - at) / G_USEC_PER_SEC);
      g_assert_cmpint (t, >=, at);
    }
}

static void
test_wait_for_whole_client (Fixture       *f,
                            gconstpointer  data)
{
  g_autofree char *first = post (f, "Answered first?");
  g_autofree char *second = post (f, "Answered a second later?");
  g_autofree char *away = post (f, "Withdrawn while away?");
  g_autofree char *patch = g_strconcat ("/api/v1/notifications/", away, NULL);
  g_autoptr(TriageInboxModel) inbox = triage_inbox_model_new ();
  g_autoptr(AtpNotification) away_here = app_test_notification (away, 0, 60, NULL);
  g_autoptr(GPtrArray) pending = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  TriageLookups *lookups;
  guint status = 0;
  gint64 wait_over;
  guint sent;

  /* Withdrawn on the server while the app was away: the inbox still holds it. */
  g_assert_true (triage_test_http (f->server, "PATCH", patch, f->key, "{\"status\": \"invalidated\"}",
                                   &status, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (status, ==, 200);
  triage_inbox_model_add (inbox, away_here, NULL);
  lookups = triage_lookups_new (inbox, f->outbox);
  g_signal_connect (lookups, "settled", G_CALLBACK (on_settled), f);

  /* Stored offline, sent the moment the app is online, with nothing spent
   * in between: the allowance is spent, and the answer meets 429. */
  store_test_submit (f->outbox, first);
  spend_allowance (f);
  triage_outbox_set_online (f->outbox, TRUE);
  app_test_wait_for (atp_client_get_hold_until (f->client) > 0, APP_TEST_WAIT_MS);
  wait_over = atp_client_get_hold_until (f->client);
  g_assert_cmpuint (f->answers_sent->len, ==, 1);
  g_assert_cmpint (wait_over - g_get_monotonic_time (), <=, N_RESPONSES_INTERVAL_S * G_USEC_PER_SEC);

  /* During the wait: another answer, a resync that asks what became of a
   * request, and the history's question of the answer one got elsewhere.
   * All wait; the answers are queued, not lost. */
  store_test_submit (f->outbox, second);
  g_assert_true (triage_outbox_answer_queued (f->outbox, first));
  g_assert_true (triage_outbox_answer_queued (f->outbox, second));
  g_assert_cmpuint (triage_outbox_get_n_pending (f->outbox), ==, 2);
  triage_lookups_set_client (lookups, f->client);
  triage_lookups_resynced (lookups, pending);
  triage_lookups_fetch_response (lookups, first);

  /* Delivered, each once (the server lets one through every 10 s: the
   * second may meet another 429, and wait again). */
  app_test_wait_for (times_delivered (f, first) == 1 && times_delivered (f, second) == 1 &&
                     f->settled_id != NULL && f->lookups_sent->len == 2, DELIVERED_WAIT_MS);
  g_assert_cmpstr (f->settled_id, ==, away);
  g_assert_cmpint (f->settled_status, ==, ATP_STATUS_INVALIDATED);
  g_assert_true (responded_on_server (f, first));
  g_assert_true (responded_on_server (f, second));
  g_assert_cmpuint (triage_outbox_get_n_pending (f->outbox), ==, 0);

  /* Nothing left before the wait was over: neither answer, nor a lookup. */
  assert_none_before (f->answers_sent, 1, wait_over, "answer");
  assert_none_before (f->lookups_sent, 0, wait_over, "lookup");

  /* At the end of each wait one answer went alone, and the next only once
   * its reply had come: both went at once, and the second met another 429
   * (one answer every 10 s) and waited again. With two answers queued,
   * every answer after the first wait follows the reply to the one before. */
  g_assert_cmpuint (f->answers_done->len, ==, f->answers_sent->len);
  for (guint i = 2; i < f->answers_sent->len; i++)
    {
      g_test_message ("answer %u: %+.2f s from the reply to the one before", i,
                      (double) (g_array_index (f->answers_sent, gint64, i) -
                                g_array_index (f->answers_done, gint64, i - 1)) / G_USEC_PER_SEC);
      g_assert_cmpint (g_array_index (f->answers_sent, gint64, i), >=,
                       g_array_index (f->answers_done, gint64, i - 1));
    }

  /* And no answer is sent again once delivered. */
  sent = f->answers_sent->len;
  triage_outbox_flush (f->outbox);
  g_assert_cmpuint (f->answers_sent->len, ==, sent);

  app_test_finalize_object (lookups);
}

/* Requests settled while the app was away meet the server's limit on
 * reads: after its wait one lookup goes alone, and the rest once the server
 * answered it; each is found settled, once. */
static void
test_lookups_one_first (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(TriageInboxModel) inbox = triage_inbox_model_new ();
  g_autoptr(GPtrArray) pending = g_ptr_array_new ();
  g_autoptr(GHashTable) settled = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint n = (guint) g_ascii_strtoull (N_READS, NULL, 10);
  TriageLookups *lookups;
  gint64 wait_over, next_sent;
  guint first = 0, replied = 0;

  for (guint i = 0; i < N_AWAY; i++)
    {
      g_autofree char *id = post (f, "Withdrawn while away?");
      g_autofree char *patch = g_strconcat ("/api/v1/notifications/", id, NULL);
      g_autoptr(AtpNotification) here = app_test_notification (id, 0, 60, NULL);
      g_autoptr(GError) error = NULL;
      guint status = 0;

      g_assert_true (triage_test_http (f->server, "PATCH", patch, f->key,
                                       "{\"status\": \"invalidated\"}", &status, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (status, ==, 200);
      triage_inbox_model_add (inbox, here, NULL);
    }
  lookups = triage_lookups_new (inbox, f->outbox);
  g_signal_connect (lookups, "settled", G_CALLBACK (on_settled_add), settled);

  /* Another device of alice's spent her reads (unknown requests count too). */
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *unknown = g_uuid_string_random ();
      g_autofree char *path = g_strconcat ("/api/v1/client/notifications/", unknown, NULL);
      g_autoptr(GError) error = NULL;
      guint status = 0;

      g_assert_true (triage_test_http (f->server, "GET", path, f->token, NULL, &status, NULL,
                                       &error));
      g_assert_no_error (error);
      g_assert_cmpuint (status, ==, 404);
    }

  /* The first lookups meet 429, and the client waits. */
  triage_lookups_set_client (lookups, f->client);
  triage_lookups_resynced (lookups, pending);
  app_test_wait_for (atp_client_get_hold_until (f->client) > 0, APP_TEST_WAIT_MS);
  wait_over = atp_client_get_hold_until (f->client);

  app_test_wait_for (g_hash_table_size (settled) == N_AWAY,
                     (N_AWAY + 1) * N_READS_INTERVAL_S * 1000 + APP_TEST_WAIT_MS);
  g_assert_cmpuint (triage_lookups_get_n_waiting (lookups), ==, 0);
  g_assert_cmpuint (f->lookups_done->len, ==, f->lookups_sent->len);

  /* The first lookup after the wait went alone: when the next went, every
   * lookup sent before it had its reply. */
  while (first < f->lookups_sent->len && g_array_index (f->lookups_sent, gint64, first) < wait_over)
    first++;
  g_assert_cmpuint (first + 1, <, f->lookups_sent->len);
  next_sent = g_array_index (f->lookups_sent, gint64, first + 1);
  for (guint i = 0; i < f->lookups_done->len; i++)
    if (g_array_index (f->lookups_done, gint64, i) <= next_sent)
      replied++;
  g_test_message ("lookups: %u, the first after the wait %u; %u replies before the next",
                  f->lookups_sent->len, first, replied);
  g_assert_cmpuint (replied, ==, first + 1);

  app_test_finalize_object (lookups);
}

/* A bare 404 (a reverse proxy's page for a route it does not have, or a
 * wrong base path) says nothing of the request: the answer stays queued
 * and is tried again on the backoff, and a lookup says nothing either; once
 * the route is mended the answer is delivered, once, and the lookup finds
 * what became of its request. The server's own 404 (NOTIFICATION_NOT_FOUND
 * in an ATP error object) still settles an answer as gone. */
static void
test_bare_404 (Fixture       *f,
               gconstpointer  data)
{
  g_autofree char *answered = post (f, "Answered behind a misrouting proxy?");
  g_autofree char *away = post (f, "Withdrawn while away?");
  g_autofree char *patch = g_strconcat ("/api/v1/notifications/", away, NULL);
  g_autofree char *unknown = g_uuid_string_random ();
  g_autoptr(TriageInboxModel) inbox = triage_inbox_model_new ();
  g_autoptr(AtpNotification) away_here = app_test_notification (away, 0, 60, NULL);
  g_autoptr(GPtrArray) pending = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  TriageLookups *lookups;
  guint status = 0;

  g_assert_true (triage_test_http (f->server, "PATCH", patch, f->key, "{\"status\": \"invalidated\"}",
                                   &status, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (status, ==, 200);
  triage_inbox_model_add (inbox, away_here, NULL);
  lookups = triage_lookups_new (inbox, f->outbox);
  g_signal_connect (lookups, "settled", G_CALLBACK (on_settled), f);
  g_signal_connect (lookups, "gone", G_CALLBACK (on_lookups_gone), f);

  /* Every answer and lookup meets the proxy's page. */
  triage_test_proxy_command (f->proxy, "answer-404-matching /api/v1/client/");
  store_test_submit (f->outbox, answered);
  triage_outbox_set_online (f->outbox, TRUE);
  triage_lookups_set_client (lookups, f->client);
  triage_lookups_resynced (lookups, pending);

  /* Tried again on the backoff, and asked about: neither is gone (it
   * was, at the first 404). */
  app_test_wait_for (f->gone->len > 0 ||
                     (count_unqueued (f, "POST /api/v1/client/respond", 404) >= 2 &&
                      count_unqueued (f, "GET /api/v1/client/notifications/", 404) >= 1 &&
                      triage_lookups_get_n_waiting (lookups) == 1 &&
                      f->answers_sent->len >= 3), APP_TEST_WAIT_MS);
  g_assert_cmpuint (f->gone->len, ==, 0);
  g_assert_true (triage_outbox_answer_queued (f->outbox, answered));
  g_assert_false (triage_outbox_answer_failed (f->outbox, answered));
  g_assert_cmpuint (triage_outbox_get_n_pending (f->outbox), ==, 1);
  g_assert_null (f->settled_id);
  g_assert_false (responded_on_server (f, answered));

  /* The route mended: delivered once, and the lookup's next round finds
   * the request withdrawn. */
  triage_test_proxy_command (f->proxy, "heal");
  app_test_wait_for (times_delivered (f, answered) == 1 && f->settled_id != NULL,
                     APP_TEST_WAIT_MS);
  g_assert_cmpstr (f->settled_id, ==, away);
  g_assert_cmpint (f->settled_status, ==, ATP_STATUS_INVALIDATED);
  g_assert_true (responded_on_server (f, answered));
  g_assert_cmpuint (f->gone->len, ==, 0);

  /* The server's own 404: gone, at once. */
  store_test_submit (f->outbox, unknown);
  app_test_wait_for (f->gone->len == 1, APP_TEST_WAIT_MS);
  g_assert_cmpstr (f->gone->pdata[0], ==, unknown);
  g_assert_cmpuint (count_unqueued (f, "POST /api/v1/client/respond", 404), >=, 3);
  g_assert_false (triage_outbox_has_answer (f->outbox, unknown));
  g_assert_cmpuint (times_delivered (f, answered), ==, 1);

  app_test_finalize_object (lookups);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/outbox/wait/whole-client", Fixture, &answers_limited, fixture_setup,
              test_wait_for_whole_client, fixture_teardown);
  g_test_add ("/outbox/wait/lookups-one-first", Fixture, &reads_limited, fixture_setup,
              test_lookups_one_first, fixture_teardown);
  g_test_add ("/outbox/wait/bare-404", Fixture, &answers_behind_proxy, fixture_setup,
              test_bare_404, fixture_teardown);

  return g_test_run ();
}
