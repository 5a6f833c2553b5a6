/* test-stream-wake.c — AtpStream waking up with the machine (logind's PrepareForSleep)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "stream-test-common.h"
#include "triage-test-logind.h"

/* Waking up. A bus of the test's own stands in for the system bus (started in
 * main(), before anything asks for the system bus), and the test plays logind
 * on it (tests/common/triage-test-logind.h). */

static void
test_wake_reconnects (StreamFixture *fixture,
                      gconstpointer  data)
{
  g_autoptr(GDBusConnection) logind = triage_test_logind_new ();
  guint before;

  /* This fixture's stream watches the system. */
  atp_stream_stop (fixture->stream);
  g_assert_finalize_object (fixture->stream);
  fixture->stream = stream_test_new_stream (fixture, fixture->net.user, TRUE);
  atp_stream_start (fixture->stream);
  stream_test_wait_state (fixture, ATP_STREAM_STATE_CONNECTED);
  g_assert_cmpuint (fixture->connecting, ==, 1);

  /* It finds the system bus on its own time: wake until it hears, and it
   * connects anew, though its connection looked fine. */
  triage_test_logind_wake_until (logind, fixture->connecting >= 2, "a reconnect after waking up");
  triage_test_logind_sleep_and_wait (logind);
  stream_test_wait_state (fixture, ATP_STREAM_STATE_CONNECTED);

  /* Going to sleep changes nothing; waking up reconnects at once. */
  before = fixture->connecting;
  triage_test_logind_sleep_and_wait (logind);
  g_assert_cmpuint (fixture->connecting, ==, before);
  g_assert_cmpint (atp_stream_get_state (fixture->stream), ==, ATP_STREAM_STATE_CONNECTED);
  triage_test_logind_prepare_for_sleep (logind, FALSE);
  net_test_wait_until (fixture->connecting == before + 1, "a reconnect after the second wake");
  stream_test_wait_state (fixture, ATP_STREAM_STATE_CONNECTED);
}

void
stream_test_add_wake (void)
{
  STREAM_TEST_ADD ("/stream/wake-reconnects", NULL, test_wake_reconnects);
}
