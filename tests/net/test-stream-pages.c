/* test-stream-pages.c — a resync hands on the pending set page by page
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The pending list of a resync is taken in page after page (up to 1,000 a
 * page, the first one ATP's 100); each page is handed on as it is taken in,
 * so the owner has the first ones while the rest are still coming, instead
 * of all of them once the last page is in. Against a real triage-server.
 */

#include "net-test-common.h"
#include "atp-client-private.h"

#define PAGE  ATP_CLIENT_PAGE_LIMIT
#define COUNT (2 * PAGE + PAGE / 2)   /* three pages of 1,000 or more smaller ones */

typedef struct
{
  NetFixture  net;
  AtpStream  *stream;
  GHashTable *received;   /* ids handed on */
  GPtrArray  *resynced;   /* the ::resynced pending set, once */
} PagesFixture;

static const TriageTestServerOptions no_limits = {
  .extra_args = (const char * const[]) { "--no-limits", NULL },
  .bulk = TRUE,
};

/* Posts @count simple requests, 32 at a time. */
static void
post_many (PagesFixture *fixture,
           guint         count)
{
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func (g_object_unref);
  guint sent = 0;

  while (results->len < count)
    {
      while (sent < count && sent - results->len < 32)
        {
          g_autofree char *title = g_strdup_printf ("Pending %u", sent);
          g_autofree char *json = net_test_submission (NULL, title, NULL);

          atp_client_post_notification_data_async (fixture->net.service, json, -1, NULL,
                                                   net_test_result_array_cb, results);
          sent++;
        }
      g_main_context_iteration (NULL, TRUE);
    }
  for (guint i = 0; i < results->len; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AtpPostResult) post = atp_client_post_notification_finish (fixture->net.service,
                                                                           results->pdata[i], &error);

      g_assert_no_error (error);
    }
}

static void
on_notification (AtpStream       *stream,
                 AtpNotification *notification,
                 PagesFixture    *fixture)
{
  g_assert_false (g_hash_table_contains (fixture->received, notification->id));
  /* Handed on during the resync, before the set is announced. */
  g_assert_null (fixture->resynced);
  g_assert_cmpint (atp_stream_get_state (stream), !=, ATP_STREAM_STATE_CONNECTED);
  g_hash_table_add (fixture->received, g_strdup (notification->id));
}

static void
on_resynced (AtpStream    *stream,
             GPtrArray    *pending,
             PagesFixture *fixture)
{
  if (fixture->resynced == NULL)
    fixture->resynced = g_ptr_array_ref (pending);
}

static void
fixture_setup (PagesFixture  *fixture,
               gconstpointer  data)
{
  net_fixture_setup_with (&fixture->net, &no_limits);
  /* Three pages of 1,000 on a loaded machine. */
  atp_client_set_timeout (fixture->net.user, 60);
  fixture->received = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  fixture->stream = g_object_new (ATP_TYPE_STREAM, "client", fixture->net.user,
                                  "watch-system", FALSE, NULL);
  g_signal_connect (fixture->stream, "notification-received", G_CALLBACK (on_notification), fixture);
  g_signal_connect (fixture->stream, "resynced", G_CALLBACK (on_resynced), fixture);
}

static void
fixture_teardown (PagesFixture  *fixture,
                  gconstpointer  data)
{
  atp_stream_stop (fixture->stream);
  g_assert_finalize_object (fixture->stream);
  g_clear_pointer (&fixture->resynced, g_ptr_array_unref);
  g_hash_table_unref (fixture->received);
  net_fixture_teardown (&fixture->net, NULL);
}

/* The stream's resync: every pending request once, handed on while the
 * resync runs (before ::resynced and the connected state), and none again
 * after a reconnect. That each page is handed on as it is taken in is
 * shown by the list below: how many come in one go depends on when the
 * pages arrive (the later ones, asked for ahead on a second connection, may
 * be in before the first, and are then taken in together). */
static void
test_resync_by_pages (PagesFixture  *fixture,
                      gconstpointer  data)
{
  post_many (fixture, COUNT);

  atp_stream_start (fixture->stream);
  triage_test_wait_until_within (fixture->resynced != NULL, "the resync of three pages", 120);
  g_assert_cmpint (atp_stream_get_state (fixture->stream), ==, ATP_STREAM_STATE_CONNECTED);
  g_assert_cmpuint (fixture->resynced->len, ==, COUNT);
  g_assert_cmpuint (g_hash_table_size (fixture->received), ==, COUNT);
  for (guint i = 0; i < fixture->resynced->len; i++)
    {
      AtpNotification *notification = g_ptr_array_index (fixture->resynced, i);

      g_assert_true (g_hash_table_contains (fixture->received, notification->id));
    }

  /* A reconnect lists them again and hands on none of them twice. */
  g_clear_pointer (&fixture->resynced, g_ptr_array_unref);
  atp_stream_stop (fixture->stream);
  atp_stream_start (fixture->stream);
  triage_test_wait_until_within (fixture->resynced != NULL, "the second resync", 120);
  g_assert_cmpuint (fixture->resynced->len, ==, COUNT);
  g_assert_cmpuint (g_hash_table_size (fixture->received), ==, COUNT);
}

/* The list itself: each page handed on once taken in, in order, with the
 * index of its first new item, all before the list completes. */
typedef struct
{
  GArray   *froms;   /* guint: the `from` of each call */
  guint     len;     /* items->len at the last call */
  gboolean  done;
} Paged;

static void
page_cb (GPtrArray *items,
         guint      from,
         gpointer   data)
{
  Paged *paged = data;

  g_assert_false (paged->done);
  g_assert_cmpuint (from, <, items->len);
  g_assert_cmpuint (from, ==, paged->len);
  g_array_append_val (paged->froms, from);
  paged->len = items->len;
}

static void
test_list_hands_on_pages (PagesFixture  *fixture,
                          gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) pending = NULL;
  g_autoptr(GError) error = NULL;
  Paged paged = { .froms = g_array_new (FALSE, FALSE, sizeof (guint)) };

  post_many (fixture, COUNT);
  atp_client_list_pending_paged_async (fixture->net.user, page_cb, &paged, NULL,
                                       net_test_result_cb, &result);
  triage_test_wait_until_within (result != NULL, "the pending list", 120);
  paged.done = TRUE;
  pending = atp_client_list_pending_finish (fixture->net.user, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pending->len, ==, COUNT);
  g_assert_cmpuint (paged.len, ==, COUNT);
  /* The first page is small (the window has it at once); the others up to
   * 1,000, the last ones smaller once the total tells how many remain (their
   * sizes depend on when each page is taken in, so only their bounds are
   * checked). */
  g_assert_cmpuint (paged.froms->len, >=, 4);
  g_assert_cmpuint (g_array_index (paged.froms, guint, 0), ==, 0);
  g_assert_cmpuint (g_array_index (paged.froms, guint, 1), ==, ATP_CLIENT_ATP_PAGE_LIMIT);
  for (guint i = 1; i < paged.froms->len; i++)
    g_assert_cmpuint (g_array_index (paged.froms, guint, i) - g_array_index (paged.froms, guint, i - 1),
                      <=, PAGE);
  g_assert_cmpuint (COUNT - g_array_index (paged.froms, guint, paged.froms->len - 1), <=, PAGE);
  g_array_unref (paged.froms);
}

/* Cancelled from the page handler (the owner stopped the stream while it
 * took in a page): the list ends there, cancelled, and hands on no more. */
typedef struct
{
  GCancellable *cancellable;
  guint         calls;
} Cancelling;

static void
cancel_page_cb (GPtrArray *items,
                guint      from,
                gpointer   data)
{
  Cancelling *cancelling = data;

  cancelling->calls++;
  g_cancellable_cancel (cancelling->cancellable);
}

static void
test_list_cancelled_by_page (PagesFixture  *fixture,
                             gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) pending = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Cancelling cancelling = { .cancellable = cancellable };
  AtpClient *reader = atp_client_new (triage_test_server_get_url (fixture->net.server), &error);

  g_assert_no_error (error);
  atp_client_set_token (reader, fixture->net.user_token);
  atp_client_set_timeout (reader, 60);
  post_many (fixture, COUNT);
  atp_client_list_pending_paged_async (reader, cancel_page_cb, &cancelling, cancellable,
                                       net_test_result_cb, &result);
  triage_test_wait_until_within (result != NULL, "the pending list", 120);
  pending = atp_client_list_pending_finish (reader, result, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (pending);
  g_assert_cmpuint (cancelling.calls, ==, 1);

  /* The page asked for ahead ends too (cancelled), letting go of the client. */
  g_clear_object (&result);
  g_object_add_weak_pointer (G_OBJECT (reader), (gpointer *) &reader);
  g_object_unref (reader);
  triage_test_wait_until (reader == NULL, "the page ahead to end");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, PagesFixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/net/stream-pages/resync-by-pages", test_resync_by_pages);
  ADD ("/net/stream-pages/list-hands-on-pages", test_list_hands_on_pages);
  ADD ("/net/stream-pages/list-cancelled-by-page", test_list_cancelled_by_page);
#undef ADD

  return g_test_run ();
}
