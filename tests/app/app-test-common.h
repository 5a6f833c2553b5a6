/* app-test-common.h — helpers shared by the app tests
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "atp.h"
#include "atp-afp.h"

/* Every wait in a test is bounded: a hang fails the test instead of the suite timing out.
 * As long as the other tests' watchdog (TRIAGE_TEST_WATCHDOG_S): a bound, not a speed. */
#define APP_TEST_WAIT_MS 30000

/* A deadline a test lets pass while the request is shown: the request must
 * reach the app and be opened before it, seconds on a loaded machine (with
 * 2 s and 3 s a test held up 3 s after the post found it expired before it
 * could open it). */
#define APP_TEST_EXPIRES_IN_S 8

static inline gboolean
app_test_timeout_cb (gpointer data)
{
  gboolean *timed_out = data;

  *timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

/* Iterates the default context until *@done is non-zero or @timeout_ms pass. */
#define app_test_wait_for(cond, timeout_ms) \
  G_STMT_START { \
    gboolean _timed_out = FALSE; \
    guint _id = g_timeout_add ((timeout_ms), app_test_timeout_cb, &_timed_out); \
    while (!(cond) && !_timed_out) \
      g_main_context_iteration (NULL, TRUE); \
    if (!_timed_out) \
      g_source_remove (_id); \
    if (!(cond)) \
      g_error ("%s:%d: timed out after %u ms waiting for %s", \
               __FILE__, __LINE__, (guint) (timeout_ms), #cond); \
  } G_STMT_END

/* Lets the main context run for a while (no condition to wait for: something
 * must NOT happen). It sleeps between events: a test that polled here kept a
 * core busy that the app's threads and the server beside it needed. */
static inline void
app_test_spin (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, app_test_timeout_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

/* As app_test_wait_for (), for a condition no event tells (what a server
 * says, asked by a request): checked every 20 ms, the context running
 * between. Checked at every iteration, each check's own I/O woke the next:
 * a test asked its server 31,000 times in one wait. */
#define app_test_poll_for(cond, timeout_ms) \
  G_STMT_START { \
    gint64 _give_up = g_get_monotonic_time () + (timeout_ms) * G_TIME_SPAN_MILLISECOND; \
    while (!(cond) && g_get_monotonic_time () < _give_up) \
      app_test_spin (20); \
    if (!(cond)) \
      g_error ("%s:%d: timed out after %u ms waiting for %s", \
               __FILE__, __LINE__, (guint) (timeout_ms), #cond); \
  } G_STMT_END

/* An async result catcher: pass &result as user data, then wait for it. */
static inline void
app_test_result_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

#define app_test_wait_result(result) app_test_wait_for ((result) != NULL, APP_TEST_WAIT_MS)

/* A temporary folder removed at the end of the test. */
static inline void
app_test_rm_rf (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
            app_test_rm_rf (child);
          else
            g_unlink (child);
        }
    }
  g_rmdir (path);
}

/*
 * A request with the given id, deadline (seconds from now, 0 = none), age
 * (seconds before now) and actions (a JSON array, NULL = one simple action).
 */
static inline AtpNotification *
app_test_notification (const char *id,
                       int         deadline_in,
                       int         age,
                       const char *actions)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) timestamp = g_date_time_add_seconds (now, -age);
  g_autofree char *ts = atp_format_timestamp (timestamp);
  g_autofree char *deadline = NULL;
  g_autofree char *json = NULL;
  g_autoptr(GError) error = NULL;
  AtpNotification *notification;

  if (deadline_in != 0)
    {
      g_autoptr(GDateTime) d = g_date_time_add_seconds (now, deadline_in);
      g_autofree char *text = atp_format_timestamp (d);

      deadline = g_strdup_printf ("\"deadline\": \"%s\",", text);
    }

  json = g_strdup_printf ("{\"id\": \"%s\", \"version\": \"1.0\", \"timestamp\": \"%s\", %s"
                          " \"service\": {\"id\": \"ci\", \"name\": \"CI <bot>\"},"
                          " \"context\": {\"title\": \"Deploy %s?\","
                          "   \"description\": \"Ship <b>it</b> & see\"},"
                          " \"actions\": %s, \"status\": \"delivered\"}",
                          id, ts, deadline ? deadline : "", id,
                          actions ? actions
                                  : "[{\"id\": \"ok\", \"label\": \"OK\", \"response_type\": \"simple\"}]");
  notification = atp_notification_new_from_data (json, -1, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  return notification;
}

/*
 * An AITP request's envelope as the server lists it: the AITP message @message
 * (JSON text) as its `aitp` payload, with @id and a title.
 */
static inline AtpNotification *
app_test_aitp_notification_new (const char *id,
                                const char *title,
                                const char *message)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *ts = atp_format_timestamp (now);
  g_autofree char *json = NULL;
  g_autoptr(GError) error = NULL;
  AtpNotification *notification;

  /* @title is plain text without quotes or backslashes. */
  json = g_strdup_printf ("{\"id\": \"%s\", \"version\": \"1.0\", \"timestamp\": \"%s\","
                          " \"protocol\": \"aitp\","
                          " \"service\": {\"id\": \"shop\", \"name\": \"Shop Bot\"},"
                          " \"context\": {\"title\": \"%s\"},"
                          " \"aitp\": %s, \"status\": \"delivered\"}",
                          id, ts, title, message);
  notification = atp_notification_new_from_data (json, -1, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  return notification;
}

/* An AITP message of tests/atp/data/aitp (seed 003's examples, and ours). */
static inline char *
app_test_aitp_message (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "atp", "data", "aitp", name, NULL);
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);

  return text;
}

/* A file of tests/atp/data, as text (seed 004's examples, and ours). */
static inline char *
app_test_atp_data (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "atp", "data", name, NULL);
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);

  return text;
}

/*
 * An AFP review's envelope as the server lists it: @review as its `afp`
 * payload, with @id and a title (plain text without quotes or backslashes).
 */
static inline AtpNotification *
app_test_afp_notification_new (const char   *id,
                               const char   *title,
                               AtpAfpReview *review)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *ts = atp_format_timestamp (now);
  g_autoptr(JsonNode) payload = atp_afp_review_to_json (review);
  g_autofree char *afp = json_to_string (payload, FALSE);
  g_autofree char *json = NULL;
  g_autoptr(GError) error = NULL;
  AtpNotification *notification;

  json = g_strdup_printf ("{\"id\": \"%s\", \"version\": \"1.0\", \"timestamp\": \"%s\","
                          " \"protocol\": \"afp\","
                          " \"service\": {\"id\": \"writer\", \"name\": \"Spec Writer\"},"
                          " \"context\": {\"title\": \"%s\"},"
                          " \"afp\": %s, \"status\": \"delivered\"}",
                          id, ts, title, afp);
  notification = atp_notification_new_from_data (json, -1, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  return notification;
}

/*
 * Seed 004's session as the app gets it: iteration 1 (the first request) or
 * 2 (the follow-up, with the first artifact as the previous one and the
 * seed's response as the person's latest feedback).
 */
static inline AtpAfpReview *
app_test_afp_seed_review (int iteration)
{
  g_autofree char *first = app_test_atp_data ("seed-004-first-request.json");
  g_autofree char *second = app_test_atp_data ("seed-004-follow-up-request.json");
  g_autofree char *response = app_test_atp_data ("seed-004-response.json");
  g_autoptr(AtpAfpRequest) first_request = atp_afp_request_new_from_data (first, -1, NULL);
  g_autoptr(AtpAfpRequest) request = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(AtpAfpFeedback) feedback = NULL;
  AtpAfpReview *review;

  g_assert_nonnull (first_request);
  if (iteration == 1)
    return atp_afp_review_new ("ses_0123456789abcdefABCDEF", first_request);

  request = atp_afp_request_new_from_data (second, -1, NULL);
  g_assert_nonnull (request);
  node = json_from_string (response, NULL);
  feedback = atp_afp_feedback_new_from_json (json_object_get_member (json_node_get_object (node), "feedback"),
                                             NULL);
  g_assert_nonnull (feedback);

  review = atp_afp_review_new ("ses_0123456789abcdefABCDEF", request);
  atp_afp_review_set_previous (review, "5b1c3a7e-0000-4000-8000-0000000af001", 1, &first_request->artifact);
  atp_afp_review_set_latest_feedback (review, "5b1c3a7e-0000-4000-8000-0000000af001", 1, feedback);
  atp_afp_review_add_issued_id (review, "scope-definition-lacks-detail-01");
  return review;
}

/* What app_test_afp_applied_review () says of its item @index (from 0). */
#define APP_TEST_AFP_APPLIED_ID_FORMAT          "applied-item-%04u"
#define APP_TEST_AFP_APPLIED_EXPLANATION_FORMAT "Explanation of item %04u: the agent changed the " \
                                                "specification where this item asked, and says why."

/*
 * Seed 004's iteration 2 (app_test_afp_seed_review (2)) with an agent that
 * reports on @n_items items, up to as many as libatp takes
 * (ATP_AFP_MAX_APPLIED_ITEMS): the first is the person's one area,
 * accepted; the others are ids the person never gave
 * (APP_TEST_AFP_APPLIED_ID_FORMAT), partly applied or rejected in turn, each
 * with a reason code and an explanation that names it.
 */
static inline AtpAfpReview *
app_test_afp_applied_review (guint n_items)
{
  g_autofree char *second = app_test_atp_data ("seed-004-follow-up-request.json");
  g_autoptr(JsonNode) node = json_from_string (second, NULL);
  JsonArray *items = json_array_new ();
  g_autoptr(AtpAfpReview) seed = app_test_afp_seed_review (2);
  g_autoptr(AtpAfpRequest) request = NULL;
  g_autoptr(GError) error = NULL;
  AtpAfpReview *review;

  for (guint i = 0; i < n_items; i++)
    {
      JsonObject *item = json_object_new ();
      g_autofree char *id = g_strdup_printf (APP_TEST_AFP_APPLIED_ID_FORMAT, i);
      g_autofree char *explanation = g_strdup_printf (APP_TEST_AFP_APPLIED_EXPLANATION_FORMAT, i);

      json_object_set_string_member (item, "id", i == 0 ? "scope-definition-lacks-detail-01" : id);
      json_object_set_string_member (item, "status", i == 0 ? "accepted" : i % 2 ? "partial" : "rejected");
      if (i > 0)
        json_object_set_string_member (item, "reason_code", i % 2 ? "partly_in_scope" : "out_of_scope");
      json_object_set_string_member (item, "explanation", explanation);
      json_array_add_object_element (items, item);
    }
  json_object_set_array_member (json_object_get_object_member (json_node_get_object (node), "applied_feedback"),
                                "items", items);
  request = atp_afp_request_new_from_json (node, &error);
  g_assert_no_error (error);

  review = atp_afp_review_new (seed->session_id, request);
  atp_afp_review_set_previous (review, seed->previous_id, seed->previous_iteration, &seed->previous_artifact);
  atp_afp_review_set_latest_feedback (review, seed->latest_feedback_id, seed->latest_feedback_iteration,
                                      seed->latest_feedback);
  atp_afp_review_add_issued_id (review, "scope-definition-lacks-detail-01");
  return review;
}

/* Drops the last reference to @object and waits until it is finalized (an async
 * operation finishing on a worker thread may hold it a moment longer). */
static inline void
app_test_finalize_object (gpointer object)
{
  gpointer weak = object;

  g_object_add_weak_pointer (G_OBJECT (object), &weak);
  g_object_unref (object);
  app_test_wait_for (weak == NULL, APP_TEST_WAIT_MS);
}

/* Stores @token for @url in the keyring as another program does it (Debian's
 * secret-tool, under the app's schema), as it is: the line break of an
 * `echo`, a space inside, whatever the app would have refused. */
static inline void
app_test_store_token_elsewhere (const char *url,
                                const char *token)
{
  g_autofree char *secret_tool = g_find_program_in_path ("secret-tool");
  g_autoptr(GSubprocess) store = NULL;
  g_autoptr(GError) error = NULL;

  if (secret_tool == NULL)
    g_error ("secret-tool is missing (libsecret-tools: build-aux/install-deps.sh installs it)");
  store = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE, &error, secret_tool, "store",
                            "--label=Triage token", "xdg:schema",
                            "io.github.atptriage.Triage.UserToken", "server", url, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (store, token, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_subprocess_wait_check (store, NULL, &error);
  g_assert_no_error (error);
}
