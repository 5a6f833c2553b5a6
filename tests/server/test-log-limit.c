/* test-log-limit.c — a failure logged once, then counted (triage-log-limit.c)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * While the database stalls every request fails alike; the server logs the
 * first failure of each kind at once and then, each interval, how many more
 * there were and the last, instead of a line per request.
 */

#include "triage-log-limit.h"

#define DOMAIN "test-log-limit"

/* Runs the main loop until @limit has said what it held. */
static void
wait_report (TriageLogLimit *limit)
{
  while (limit->report != 0)
    g_main_context_iteration (NULL, TRUE);
}

static gboolean
wake (gpointer data)
{
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until @limit's quiet interval is over. */
static void
wait_quiet (TriageLogLimit *limit)
{
  while (g_get_monotonic_time () < limit->quiet_until)
    {
      g_timeout_add ((guint) ((limit->quiet_until - g_get_monotonic_time ()) / 1000 + 1), wake,
                     NULL);
      g_main_context_iteration (NULL, TRUE);
    }
}

static void
test_first_then_count (void)
{
  TriageLogLimit limit = { .interval_s = 1 };

  g_test_expect_message (DOMAIN, G_LOG_LEVEL_MESSAGE, "cannot read a notification: stall 0");
  triage_log_limited (&limit, DOMAIN, "cannot read a notification: stall %d", 0);
  g_test_assert_expected_messages ();

  /* Held back: a line for any of them would not match the count expected. */
  g_test_expect_message (DOMAIN, G_LOG_LEVEL_MESSAGE,
                         "50 more like it in the last 1 s, the last: "
                         "cannot read a notification: stall 50");
  for (int i = 1; i <= 50; i++)
    triage_log_limited (&limit, DOMAIN, "cannot read a notification: stall %d", i);
  wait_report (&limit);
  g_test_assert_expected_messages ();

  /* Still stalled in the next interval: counted again. */
  g_test_expect_message (DOMAIN, G_LOG_LEVEL_MESSAGE,
                         "1 more like it in the last 1 s, the last: "
                         "cannot read a notification: stall 51");
  triage_log_limited (&limit, DOMAIN, "cannot read a notification: stall %d", 51);
  wait_report (&limit);
  g_test_assert_expected_messages ();

  /* An interval without failures: the next is said at once. */
  wait_quiet (&limit);
  g_test_expect_message (DOMAIN, G_LOG_LEVEL_MESSAGE, "cannot read a notification: later");
  triage_log_limited (&limit, DOMAIN, "cannot read a notification: %s", "later");
  g_test_assert_expected_messages ();
  g_assert_cmpuint (limit.report, ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/log-limit/first-then-count", test_first_then_count);
  return g_test_run ();
}
