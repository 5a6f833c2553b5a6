/* test-wall-timeout.c — a timer for a moment of the wall clock
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sleeping and setting the clock need a machine of the test's own: here,
 * the moment itself, a moment past, and a timer taken back.
 */

#include "app-test-common.h"
#include "triage-wall-timeout.h"

typedef struct
{
  guint  calls;
  gint64 at;     /* the wall clock at the last call */
} Fired;

static gboolean
fired_cb (gpointer data)
{
  Fired *fired = data;

  fired->calls++;
  fired->at = g_get_real_time ();

  /* Asked again, it must not be: the timer fires once. */
  return G_SOURCE_CONTINUE;
}

/* A moment shortly ahead: called once, at it and not before. */
static void
test_ahead (void)
{
  gint64 wall_us = g_get_real_time () + 200 * G_TIME_SPAN_MILLISECOND;
  Fired fired = { 0 };
  Fired later = { 0 };

  g_assert_cmpuint (triage_wall_timeout_add (wall_us, fired_cb, &fired), !=, 0);
  app_test_wait_for (fired.calls == 1, APP_TEST_WAIT_MS);
  g_assert_cmpint (fired.at, >=, wall_us);

  /* Once: a second timer just after finds the first quiet. */
  triage_wall_timeout_add (g_get_real_time () + 50 * G_TIME_SPAN_MILLISECOND, fired_cb, &later);
  app_test_wait_for (later.calls == 1, APP_TEST_WAIT_MS);
  g_assert_cmpuint (fired.calls, ==, 1);
}

/* A moment past (a second ago, or the epoch itself) is due at once: the
 * first turn of the main loop calls it, without waiting. */
static void
test_past (void)
{
  Fired second_ago = { 0 };
  Fired epoch = { 0 };

  triage_wall_timeout_add (g_get_real_time () - G_USEC_PER_SEC, fired_cb, &second_ago);
  triage_wall_timeout_add (0, fired_cb, &epoch);
  while (g_main_context_iteration (NULL, FALSE))
    ;

  g_assert_cmpuint (second_ago.calls, ==, 1);
  g_assert_cmpuint (epoch.calls, ==, 1);
}

/* Removed before its moment, it is never called: a timer after it fires
 * and finds it quiet. */
static void
test_removed (void)
{
  gint64 now = g_get_real_time ();
  Fired removed = { 0 };
  Fired removed_past = { 0 };
  Fired after = { 0 };
  guint id = triage_wall_timeout_add (now + 50 * G_TIME_SPAN_MILLISECOND, fired_cb, &removed);
  guint past_id = triage_wall_timeout_add (now - G_USEC_PER_SEC, fired_cb, &removed_past);

  g_source_remove (id);
  g_source_remove (past_id);
  triage_wall_timeout_add (now + 150 * G_TIME_SPAN_MILLISECOND, fired_cb, &after);
  app_test_wait_for (after.calls == 1, APP_TEST_WAIT_MS);

  g_assert_cmpuint (removed.calls, ==, 0);
  g_assert_cmpuint (removed_past.calls, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/wall-timeout/ahead", test_ahead);
  g_test_add_func ("/wall-timeout/past", test_past);
  g_test_add_func ("/wall-timeout/removed", test_removed);

  return g_test_run ();
}
