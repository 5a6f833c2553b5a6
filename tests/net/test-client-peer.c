/* test-client-peer.c — AtpClient against a peer that answers what triage-server never does
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "net-test-common.h"

/* A hostile peer: answers no real server gives */

typedef struct
{
  NetPeer   *peer;
  AtpClient *client;
} Peer;

static void
peer_setup (Peer          *peer,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  peer->peer = net_peer_start ();
  peer->client = atp_client_new (peer->peer->url, &error);
  g_assert_no_error (error);
  atp_client_set_timeout (peer->client, 1);
}

static void
peer_teardown (Peer          *peer,
               gconstpointer  data)
{
  g_assert_finalize_object (peer->client);
  net_peer_stop (peer->peer);
}

static void
test_peer_answers (Peer          *peer,
                   gconstpointer  data)
{
  struct { const char *id; AtpErrorCode code; const char *needle; } cases[] = {
    { "00000000-0000-4000-8000-000000000001", ATP_ERROR_PROTOCOL, "invalid JSON" },
    { "00000000-0000-4000-8000-000000000002", ATP_ERROR_PROTOCOL, "not an object" },
    { "00000000-0000-4000-8000-000000000003", ATP_ERROR_SERVICE_UNAVAILABLE, "(request req-proxy-1)" },
    { "00000000-0000-4000-8000-000000000004", ATP_ERROR_PAYLOAD_TOO_LARGE, "larger than" },
    { "00000000-0000-4000-8000-000000000005", ATP_ERROR_PROTOCOL, "redirected" },
    { "00000000-0000-4000-8000-000000000006", ATP_ERROR_CONNECTION_FAILED, "did not answer within 1 seconds" },
    /* An error object with a code of another server's: what its status says. */
    { "00000000-0000-4000-8000-000000000007", ATP_ERROR_AUTH_INVALID_TOKEN, "token expired [TOKEN_EXPIRED] (request r7)" },
    { "00000000-0000-4000-8000-000000000008", ATP_ERROR_INVALID_REQUEST, "bad id [VALIDATION_FAILED]" },
    /* A 409 of another server's code: a conflict, not an unknown failure. */
    { "00000000-0000-4000-8000-000000000009", ATP_ERROR_CONFLICT, "the request is decided [ALREADY_DECIDED] (request r9)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AtpNotification) notification = NULL;
      g_autoptr(GError) error = NULL;

      g_test_message ("case %s", cases[i].id);
      notification = net_get_notification (peer->client, cases[i].id, &error);
      g_assert_null (notification);
      net_assert_error (error, cases[i].code, cases[i].needle);
    }
}

/* A 429 or 503 says when to come back (Retry-After: seconds or an HTTP-date),
 * which libatp ignored: the outbox, the lookups and the stream came back on
 * their own backoff. The wait is on the error now, capped. */
static void
test_peer_retry_after (Peer          *peer,
                       gconstpointer  data)
{
  struct { const char *id; AtpErrorCode code; guint least; guint most; } cases[] = {
    { "00000000-0000-4000-8000-00000000000a", ATP_ERROR_SERVICE_UNAVAILABLE, 2, 2 },
    /* an HTTP-date 4 s ahead, in whole seconds */
    { "00000000-0000-4000-8000-00000000000b", ATP_ERROR_RATE_LIMIT_EXCEEDED, 3, 5 },
    /* a day: no longer than the cap */
    { "00000000-0000-4000-8000-00000000000d", ATP_ERROR_RATE_LIMIT_EXCEEDED,
      ATP_ERROR_RETRY_AFTER_MAX, ATP_ERROR_RETRY_AFTER_MAX },
    /* none asked for */
    { "00000000-0000-4000-8000-000000000009", ATP_ERROR_CONFLICT, 0, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AtpNotification) notification = NULL;
      g_autoptr(GError) error = NULL;

      g_test_message ("case %s", cases[i].id);
      notification = net_get_notification (peer->client, cases[i].id, &error);
      g_assert_null (notification);
      net_assert_error (error, cases[i].code, NULL);
      g_assert_cmpuint (atp_error_get_retry_after (error), >=, cases[i].least);
      g_assert_cmpuint (atp_error_get_retry_after (error), <=, cases[i].most);

      /* A copy keeps it (a GTask's error is handed on). */
      {
        g_autoptr(GError) copy = g_error_copy (error);

        g_assert_cmpuint (atp_error_get_retry_after (copy), ==, atp_error_get_retry_after (error));
      }
    }
}

static void
count_notify_cb (guint *count)
{
  (*count)++;
}

/* The wait a 429 or 503 asks for (its Retry-After) was only on the error of
 * the request refused: the app's other answers and lookups went at once and
 * met the same refusal. It holds the whole client now: the latest end of
 * such a wait, capped, never shortened by a shorter one; other refusals,
 * and a 409 without Retry-After, leave it. Its start and its end are told
 * (notify::hold-until), the end by the client's own timer, so that the
 * outbox and the lookups resume on the same word. */
static void
test_peer_hold (Peer          *peer,
                gconstpointer  data)
{
  struct { const char *id; gint64 least_s; gint64 most_s; } cases[] = {
    /* a 409: no wait */
    { "00000000-0000-4000-8000-000000000009", 0, 0 },
    /* a 503 with "Retry-After: 2" */
    { "00000000-0000-4000-8000-00000000000a", 1, 2 },
    /* a 429 for a day: the cap */
    { "00000000-0000-4000-8000-00000000000d", ATP_ERROR_RETRY_AFTER_MAX - 1, ATP_ERROR_RETRY_AFTER_MAX },
    /* a 503 for 12 s after that: the longer wait stays */
    { "00000000-0000-4000-8000-00000000000c", ATP_ERROR_RETRY_AFTER_MAX - 2, ATP_ERROR_RETRY_AFTER_MAX },
  };

  guint notified = 0;

  g_assert_cmpint (atp_client_get_hold_until (peer->client), ==, 0);
  g_assert_false (atp_client_is_held (peer->client));
  g_signal_connect_swapped (peer->client, "notify::hold-until", G_CALLBACK (count_notify_cb),
                            &notified);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AtpNotification) notification = NULL;
      g_autoptr(GError) error = NULL;
      gint64 until, now;

      g_test_message ("case %s", cases[i].id);
      notification = net_get_notification (peer->client, cases[i].id, &error);
      g_assert_null (notification);
      until = atp_client_get_hold_until (peer->client);
      now = g_get_monotonic_time ();
      if (cases[i].most_s == 0)
        {
          g_assert_cmpint (until, ==, 0);
          g_assert_cmpuint (notified, ==, 0);
          continue;
        }
      g_assert_cmpint (until - now, >, cases[i].least_s * G_USEC_PER_SEC);
      g_assert_cmpint (until - now, <=, cases[i].most_s * G_USEC_PER_SEC);
      g_assert_true (atp_client_is_held (peer->client));

      /* The short wait: its end is told, never before it. */
      if (cases[i].most_s == 2)
        {
          g_assert_cmpuint (notified, ==, 1);
          net_test_wait_until (atp_client_get_hold_until (peer->client) == 0, "the end of the wait");
          g_assert_cmpint (g_get_monotonic_time (), >=, until);
          g_assert_false (atp_client_is_held (peer->client));
          g_assert_cmpuint (notified, ==, 2);
        }
    }
  /* The cap's wait, then one not longer: told once, not twice. */
  g_assert_cmpuint (notified, ==, 3);
  g_signal_handlers_disconnect_by_data (peer->client, &notified);
}

/* The resync asks for pages of 1,000; a server that keeps to ATP's 100 (the
 * peer, like a triage-server before 1,000) refuses that, whatever code its
 * 400 names, and gets asked again for 100. */
static void
test_peer_page_limit (Peer          *peer,
                      gconstpointer  data)
{
  g_autoptr(GPtrArray) pending = NULL;
  g_autoptr(GError) error = NULL;
  const char *tokens[] = { "paged", "strict" };

  pending = net_list_pending (peer->client, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pending->len, ==, 0);

  /* Its second page is asked for over 100 and refused: INVALID_FIELD_VALUE
   * (an older triage-server), or another ATP server's code, with which the
   * resync failed for ever (the app never connected to that server). */
  for (guint i = 0; i < G_N_ELEMENTS (tokens); i++)
    {
      g_test_message ("token %s", tokens[i]);
      g_clear_pointer (&pending, g_ptr_array_unref);
      atp_client_set_token (peer->client, tokens[i]);
      pending = net_list_pending (peer->client, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (pending->len, ==, 1);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/client/hostile-peer", Peer, NULL, peer_setup, test_peer_answers, peer_teardown);
  g_test_add ("/client/peer-retry-after", Peer, NULL, peer_setup, test_peer_retry_after,
              peer_teardown);
  g_test_add ("/client/peer-hold", Peer, NULL, peer_setup, test_peer_hold, peer_teardown);
  g_test_add ("/client/peer-page-limit", Peer, NULL, peer_setup, test_peer_page_limit,
              peer_teardown);

  return g_test_run ();
}
