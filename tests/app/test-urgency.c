/* test-urgency.c — deadlines coming within five minutes, and bubble flood control
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "app-test-common.h"
#include "triage-bubble-throttle.h"
#include "triage-urgency.h"

#define ID_A "0a6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"
#define ID_B "1b6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"
#define ID_C "2c6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"
#define ID_D "3d6f1e3c-3a1b-4c5d-8e9f-0a1b2c3d4e5f"

/* Seconds until a deadline this far away becomes urgent. */
#define SOON (5 * 60 + 2)

static void
on_due (TriageUrgency *urgency,
        TriageRequest *request,
        GPtrArray     *due)
{
  g_ptr_array_add (due, g_strdup (triage_request_get_id (request)));
}

static void
on_checked (TriageUrgency *urgency,
            guint         *checks)
{
  (*checks)++;
}

static void
add (TriageInboxModel *inbox,
     const char       *id,
     int               deadline_in)
{
  g_autoptr(AtpNotification) notification = app_test_notification (id, deadline_in, 10, NULL);

  triage_inbox_model_add (inbox, notification, NULL);
}

/* A deadline coming within five minutes is said once, for requests still
 * waiting for an answer here that had no urgent bubble. */
static void
test_due (void)
{
  g_autoptr(TriageInboxModel) inbox = triage_inbox_model_new ();
  g_autoptr(TriageUrgency) urgency = triage_urgency_new (inbox);
  g_autoptr(GPtrArray) due = g_ptr_array_new_with_free_func (g_free);
  guint checks = 0;

  g_signal_connect (urgency, "due", G_CALLBACK (on_due), due);
  g_signal_connect (urgency, "checked", G_CALLBACK (on_checked), &checks);

  add (inbox, ID_A, SOON);          /* becomes urgent in two seconds */
  add (inbox, ID_B, SOON);          /* answered here meanwhile */
  add (inbox, ID_C, SOON);          /* had an urgent bubble already */
  add (inbox, ID_D, 3600);          /* not for an hour */
  triage_request_set_answer_state (triage_inbox_model_lookup (inbox, ID_B), TRIAGE_ANSWER_QUEUED);
  triage_urgency_mark_told (urgency, ID_C);

  app_test_wait_for (triage_urgency_get_next (urgency) != 0, APP_TEST_WAIT_MS);
  g_assert_cmpint (triage_urgency_get_next (urgency), <=, g_get_real_time () / G_USEC_PER_SEC + SOON);

  app_test_wait_for (checks > 0, APP_TEST_WAIT_MS);
  g_assert_cmpuint (due->len, ==, 1);
  g_assert_cmpstr (due->pdata[0], ==, ID_A);

  /* Next: the one due in an hour. */
  g_assert_cmpint (triage_urgency_get_next (urgency), >, g_get_real_time () / G_USEC_PER_SEC + 3000);

  /* Said once: it stays urgent, and nothing more is said. */
  app_test_spin (1200);
  g_assert_cmpuint (due->len, ==, 1);
  g_assert_true (triage_urgency_was_told (urgency, ID_C));
}

static void
test_nothing_due (void)
{
  g_autoptr(TriageInboxModel) inbox = triage_inbox_model_new ();
  g_autoptr(TriageUrgency) urgency = triage_urgency_new (inbox);

  add (inbox, ID_A, 0);             /* no deadline */
  add (inbox, ID_B, 60);            /* urgent already */
  app_test_spin (100);
  g_assert_cmpint (triage_urgency_get_next (urgency), ==, 0);
}

/* A deadline that comes within five minutes while the main loop is held
 * (the inbox changed meanwhile) is said once the loop runs again, not at the
 * next deadline's check. */
static void
test_due_while_held (void)
{
  g_autoptr(TriageInboxModel) inbox = triage_inbox_model_new ();
  g_autoptr(TriageUrgency) urgency = triage_urgency_new (inbox);
  g_autoptr(GPtrArray) due = g_ptr_array_new_with_free_func (g_free);

  g_signal_connect (urgency, "due", G_CALLBACK (on_due), due);
  add (inbox, ID_D, 3600);
  app_test_wait_for (triage_urgency_get_next (urgency) != 0, APP_TEST_WAIT_MS);

  add (inbox, ID_A, SOON);          /* urgent in two seconds… */
  g_usleep (3 * G_USEC_PER_SEC);    /* …which pass before the loop sees it */
  app_test_wait_for (due->len > 0, APP_TEST_WAIT_MS);
  g_assert_cmpuint (due->len, ==, 1);
  g_assert_cmpstr (due->pdata[0], ==, ID_A);
  g_assert_cmpint (triage_urgency_get_next (urgency), >, g_get_real_time () / G_USEC_PER_SEC + 3000);
}

static void
on_flood_ended (TriageBubbleThrottle *throttle,
                guint                 held_back,
                guint                *told)
{
  *told = held_back;
}

/* A few bubbles, then one summary of the rest once the flood stops; the
 * count goes on until the person looks. */
static void
test_throttle (void)
{
  g_autoptr(TriageBubbleThrottle) throttle = triage_bubble_throttle_new ();
  guint told = 0;

  g_signal_connect (throttle, "flood-ended", G_CALLBACK (on_flood_ended), &told);

  for (guint i = 0; i < TRIAGE_BUBBLE_BURST_SIZE; i++)
    g_assert_true (triage_bubble_throttle_admit (throttle));
  g_assert_false (triage_bubble_throttle_admit (throttle));
  g_assert_false (triage_bubble_throttle_admit (throttle));
  g_assert_cmpuint (triage_bubble_throttle_get_held_back (throttle), ==, 2);

  app_test_wait_for (told == 2, APP_TEST_WAIT_MS);

  g_assert_false (triage_bubble_throttle_admit (throttle));
  told = 0;
  app_test_wait_for (told == 3, APP_TEST_WAIT_MS);

  triage_bubble_throttle_forget_held_back (throttle);
  g_assert_cmpuint (triage_bubble_throttle_get_held_back (throttle), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/urgency/due", test_due);
  g_test_add_func ("/urgency/due-while-held", test_due_while_held);
  g_test_add_func ("/urgency/nothing-due", test_nothing_due);
  g_test_add_func ("/urgency/bubble-throttle", test_throttle);

  return g_test_run ();
}
