/* test-ask-resend.c — the built triage-ask against a real triage-server:
 * --id resends the same request safely, a deadline included
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ask-test-util.h"
#include "triage-ask.h"

#define REQUEST_ID "6d0c3b1e-2f4a-4b8c-9d7e-0a1b2c3d4e5f"

/* The same request sent again with --id (a script run again after a crash)
 * waits for the one request. With --deadline it carried its timestamp, now,
 * which made every run another body: "A different notification with this id
 * already exists", exit 4. */
static void
test_absolute_deadline (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) later = g_date_time_add_hours (now, 1);
  g_autofree char *deadline = g_date_time_format_iso8601 (later);
  const char * const args[] = { "--title", "Restart the database?", "--action", "restart",
                                "--id", REQUEST_ID, "--deadline", deadline, NULL };
  g_autoptr(Run) first = ask_start (fixture, args, NULL);
  g_autoptr(AtpNotification) request = person_wait_for (fixture, "Restart the database?");
  g_autoptr(Run) again = ask_start (fixture, args, NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) pending = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpstr (request->id, ==, REQUEST_ID);
  g_assert_nonnull (request->deadline);
  g_assert_cmpint (g_date_time_compare (request->deadline, later), ==, 0);

  /* The second run waits for the same request: one in the inbox. */
  atp_client_list_pending_async (fixture->person, NULL, result_cb, &result);
  wait_until (result != NULL, "the pending list");
  pending = atp_client_list_pending_finish (fixture->person, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pending->len, ==, 1);

  person_answers (fixture, REQUEST_ID, "restart", NULL);
  g_assert_cmpint (ask_finish (first), ==, TRIAGE_ASK_EXIT_ANSWERED);
  g_assert_cmpint (ask_finish (again), ==, TRIAGE_ASK_EXIT_ANSWERED);
  g_assert_cmpstr (again->err, ==, "");
  g_assert_cmpstr (first->out, ==, again->out);
}

/* Without its timestamp the server checks the deadline against its own clock:
 * one that passed while the server was away is refused, and nobody could
 * answer in time: an expiry (exit 5), not an invalid request (exit 2).
 * triage-ask itself refuses a deadline already passed when it starts (exit
 * 2): the deadline is taken once the server is down, far enough ahead for a
 * slow start on a loaded machine (a second was not, under the sanitizers),
 * and the server comes back once it has passed. */
static void
test_deadline_passed_while_away (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autoptr(GDateTime) now = NULL;
  g_autoptr(GDateTime) soon = NULL;
  g_autofree char *deadline = NULL;
  g_autoptr(Run) run = NULL;
  g_autoptr(GError) error = NULL;
  gint64 passed;

  triage_test_server_stop (fixture->server);
  now = g_date_time_new_now_utc ();
  soon = g_date_time_add_seconds (now, 5);
  deadline = g_date_time_format_iso8601 (soon);
  {
    const char * const args[] = { "--title", "Restart the database?", "--action", "restart",
                                  "--id", REQUEST_ID, "--deadline", deadline, "--retry-for",
                                  "60s", NULL };

    run = ask_start (fixture, args, NULL);
  }
  passed = g_date_time_to_unix (soon) * G_USEC_PER_SEC + g_date_time_get_microsecond (soon) +
           500 * 1000;
  while (g_get_real_time () < passed)
    sleep_ms (50);
  g_assert_true (triage_test_server_restart (fixture->server, &error));
  g_assert_no_error (error);
  g_assert_cmpint (ask_finish (run), ==, TRIAGE_ASK_EXIT_EXPIRED);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_nonnull (strstr (run->err, "before the deadline"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/ask/resend/absolute-deadline", test_absolute_deadline);
  ADD ("/ask/resend/deadline-passed-while-away", test_deadline_passed_while_away);
#undef ADD

  return g_test_run ();
}
